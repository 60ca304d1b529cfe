"""Quote marks and speech cues: the word lists and scanners that quotes and coref share.

Quotation marks are found on the raw text, not on tokens, because the small English
model splits and attaches marks unreliably; every span found here is a character range
of the article, so it maps straight back to tokens with ``doc.char_span``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from itertools import count

from spacy.tokens import Token

from kg.extract.text.lexicon import function_words, kinds, labels, table, tagged, words

#: Lemmas (or lower-cased forms) of verbs that introduce reported or direct speech.
SAY_VERBS = words("say_verbs")
#: First words of the phrasal verbs of saying ("point" of "point out"): only these look at their particles.
_PHRASAL_SAY_HEADS = frozenset(verb.split()[0] for verb in SAY_VERBS if " " in verb)

#: Nouns that carry someone's words: "X's statement read", "a post from X said".
STATEMENT_NOUNS = words("statement_nouns")

#: People who speak for someone else: "a spokesperson for X said" is attributed to X.
PROXY_NOUNS = words("proxy_nouns")

#: Last words of sports clubs' names ("Riverside United"): a club, not a person.
TEAM_WORDS = tagged("org_name_ends", "team")

#: Last words that make a name an organisation's, whatever the model tags it ("Swiss National Bank").
ORG_WORDS = tagged("org_name_ends", "org") | TEAM_WORDS

#: Nouns that describe a person ("the folk singer", "the 37-year-old"), with gender when they carry one.
PERSON_NOUNS: dict[str, str | None] = {noun: gender or None for noun, gender in table("person_nouns").items()}

#: Nouns that describe a group or organisation ("the band said").
GROUP_NOUNS = tagged("group_nouns", "group")

#: Last words of an ensemble's name ("the X Philharmonic", "the Y Symphony"): a music group.
ENSEMBLE_ENDS = tagged("org_name_ends", "ensemble") | tagged("concert_forms", "ensemble")

#: Group nouns that make an organisation a music group ("the band said").
MUSIC_GROUP_NOUNS = tagged("group_nouns", "music")

#: Third-person pronouns that can be resolved, with their gender ("p": plural or group).
PRONOUNS: dict[str, str] = kinds("pronouns")

#: Honorifics before a name, with the gender they imply.
HONORIFICS: dict[str, str | None] = {title: gender or None for title, gender in table("honorifics").items()}

#: Last words of venue names, with the kind of venue: "Orchid Live" tagged PERSON is a place.
VENUE_WORDS: dict[str, str] = table("venue_heads")

_DOUBLE_OPEN = "“„‟«"
_DOUBLE_CLOSE = "”»"
_STRAIGHT = '"'
_SINGLE_OPEN = "‘‹"
_SINGLE_CLOSE = "’›"
_APOSTROPHE = "'"
#: Characters after which a single mark may open a quotation.
_OPEN_BEFORE = ' \t\n([{—–-:;"“'
#: Characters after which a single mark may close a quotation.
_CLOSE_AFTER = ' \t\n)]}.,;:!?—–-"”'
#: Every quotation mark, and the apostrophe that doubles as one, as a string of characters.
QUOTE_MARKS = _DOUBLE_OPEN + _DOUBLE_CLOSE + _STRAIGHT + _SINGLE_OPEN + _SINGLE_CLOSE + _APOSTROPHE
#: Marks that open a quotation or title, and marks that close one.
OPENING_MARKS = "“‘\"'"
CLOSING_MARKS = "”’\"'"
#: Dashes and hyphens as single characters (a doubled hyphen "--" is a dash too).
DASHES = "-–—―"


def is_mark(text: str, marks: str) -> bool:
    """Whether ``text`` is one of the single characters of ``marks`` (a token's text, say).

    >>> is_mark("”", CLOSING_MARKS), is_mark("”,", CLOSING_MARKS)
    (True, False)
    """
    return len(text) == 1 and text in marks


def is_dash(text: str) -> bool:
    """Whether ``text`` is a dash: one dash or hyphen character, or a doubled hyphen."""
    return is_mark(text, DASHES) or text == "--"


@dataclass(frozen=True)
class MarkedSpan:
    """Text between a pair of quotation marks.

    ``start:end`` is the inside of the marks; ``open_at``/``close_at`` are the marks' own
    offsets (``close_at`` is None when a paragraph of a multi-paragraph quotation ends
    unclosed); ``group`` is shared by the paragraphs of one multi-paragraph quotation.
    """

    start: int
    end: int
    open_at: int
    close_at: int | None
    single: bool
    group: int


#: Verbs of saying that say nothing before an infinitive ("continue to be").
_ASPECT_VERBS = function_words("aspect-verb")


def _infinitive(token: Token) -> bool:
    return token.dep_ in labels("infinitive-clause") and any(c.dep_ == "aux" and c.lower_ == "to" for c in token.children)


def is_say_verb(token: Token) -> bool:
    """Whether ``token`` is a verb of saying (by lemma or form, so tagger slips still count)."""
    if token.pos_ == "PROPN" and not token.is_lower:
        # "The Huffington Post", "Said Ali": a name, not a tagger slip
        return False
    if token.pos_ not in labels("say-pos"):
        return False
    lemma = token.lemma_.lower()
    if lemma in _ASPECT_VERBS and any(_infinitive(c) for c in token.children):
        # "X said Y will continue to be 'a good neighbour'": going on doing something, not saying it
        return False
    if lemma in SAY_VERBS or token.lower_ in SAY_VERBS:
        return True
    if lemma not in _PHRASAL_SAY_HEADS:
        return False
    # a phrasal verb of saying: "went on", "pointed out"; the small model often makes the
    # particle right after the verb an adverb ("shot back", "fired back")
    return any(
        (c.dep_ == "prt" or c.dep_ == "advmod" and c.i == token.i + 1) and f"{lemma} {c.lower_}" in SAY_VERBS
        for c in token.children
    )


def find_marked_spans(text: str) -> list[MarkedSpan]:
    """All quotation-mark pairs in ``text``, outer marks only.

    Double marks (straight or curly) win; single marks count as outer marks only outside
    double ones (headlines, British style), so single marks nested inside a double-quoted
    quotation stay part of it. A paragraph that ends inside a quotation continues it only
    when the next paragraph re-opens the mark; otherwise the unclosed mark is dropped.

    >>> text = 'He said "hi" and \\u2018bye\\u2019.'
    >>> [text[s.start : s.end] for s in find_marked_spans(text)]
    ['hi', 'bye']
    """
    return list(_marked_spans(text))


@lru_cache(maxsize=4)
def _marked_spans(text: str) -> tuple[MarkedSpan, ...]:
    """:func:`find_marked_spans`, kept for the last few texts: coref and quotes both ask."""
    text = _fold_doubled_singles(text)
    spans: list[MarkedSpan] = []
    lines = text_lines(text)
    carry_group: int | None = None
    groups = count()
    for n, (lo, hi) in enumerate(lines):
        doubles, pending = _scan_doubles(text, lo, hi)
        group_of_first = carry_group
        carry_group = None
        closes_chain = bool(doubles) and doubles[0][2] == _first_mark(text, lo, hi)
        still_open = pending is not None and not doubles
        goes_on = still_open and _next_opens(text, lines, n)
        cut_off = still_open and n == len(lines) - 1
        if group_of_first is not None and not closes_chain and not goes_on and not cut_off:
            # paragraphs each opened and never closed (a transcript's turns, say) are no one
            # quotation: the convention closes the last paragraph. A text that stops inside
            # the chain was cut off, which says nothing against it.
            spans = [m for m in spans if m.group != group_of_first]
            group_of_first = None
        for i, (s, e, o, c) in enumerate(doubles):
            group = group_of_first if (i == 0 and group_of_first is not None and closes_chain) else next(groups)
            spans.append(MarkedSpan(s, e, o, c, False, group))
        if pending is not None and _next_opens(text, lines, n):
            # an unclosed paragraph re-opened by the next: one quotation over several paragraphs
            group = group_of_first if (not doubles and group_of_first is not None) else next(groups)
            spans.append(MarkedSpan(pending + 1, _rstrip(text, pending + 1, hi), pending, None, False, group))
            carry_group = group
        outside = _outside(lo, hi, doubles, pending)
        for s, e, o, c in _scan_singles(text, outside):
            spans.append(MarkedSpan(s, e, o, c, True, next(groups)))
    spans.sort(key=lambda m: m.start)
    return tuple(m for m in spans if m.end > m.start)


def find_titled_spans(text: str) -> list[tuple[int, int]]:
    """Every pair of marks that may hold a title: the outer pairs of :func:`find_marked_spans`
    (closed ones) and the single-mark pairs inside double-quoted ones ("I wrote 'X' in my car").

    >>> text = 'She said "I wrote \u2018Dawn\u2019 here" and left.'
    >>> [text[s:e] for s, e in find_titled_spans(text)]
    ['I wrote ‘Dawn’ here', 'Dawn']
    """
    outer = [m for m in find_marked_spans(text) if m.close_at is not None]
    inner = _scan_singles(text, [(m.start, m.end) for m in outer if not m.single])
    return sorted([(m.start, m.end) for m in outer] + [(s, e) for s, e, _, _ in inner])


#: Two single marks written for one double mark (''...'' in some papers' archives, ‘‘...’’).
_DOUBLED_SINGLES = re.compile("''|‘‘|’’")


def _fold_doubled_singles(text: str) -> str:
    """``text`` with each doubled single mark read as one double mark on the side it stands
    for and a space on the other, so that every offset stays where it was.

    >>> _fold_doubled_singles("He said ''no'' twice.")
    'He said  "no"  twice.'
    """
    if "''" not in text and "‘‘" not in text and "’’" not in text:
        return text

    def fold(m: re.Match[str]) -> str:
        pair, at = m.group(), m.start()
        if pair != "''":
            # curly ones say which side they stand for
            return " “" if pair[0] == "‘" else "” "
        # straight ones open after a space, a bracket or the start
        opens = at == 0 or text[at - 1].isspace() or text[at - 1] in "(["
        return " " + _STRAIGHT if opens else _STRAIGHT + " "

    return _DOUBLED_SINGLES.sub(fold, text)


def text_lines(text: str) -> list[tuple[int, int]]:
    """The (start, end) offsets of the text's non-empty lines."""
    out, lo = [], 0
    for i, ch in enumerate(text):
        if ch == "\n":
            if i > lo:
                out.append((lo, i))
            lo = i + 1
    if lo < len(text):
        out.append((lo, len(text)))
    return out


def _first_mark(text: str, lo: int, hi: int) -> int:
    i = lo
    while i < hi and text[i].isspace():
        i += 1
    return i


def _next_opens(text: str, lines: list[tuple[int, int]], n: int) -> bool:
    if n + 1 >= len(lines):
        return False
    lo, hi = lines[n + 1]
    i = _first_mark(text, lo, hi)
    return i < hi and text[i] in _DOUBLE_OPEN + _STRAIGHT


def _rstrip(text: str, lo: int, hi: int) -> int:
    while hi > lo and text[hi - 1].isspace():
        hi -= 1
    return hi


def _scan_doubles(text: str, lo: int, hi: int) -> tuple[list[tuple[int, int, int, int]], int | None]:
    found: list[tuple[int, int, int, int]] = []
    open_at: int | None = None
    for i in range(lo, hi):
        ch = text[i]
        if ch in _DOUBLE_OPEN and open_at is not None and text[open_at] != _STRAIGHT and _in_closing_place(text, i):
            # an opening mark typed for a closing one ('“It was unusual,“ she said'): after a word or
            # punctuation and before a space, it ends the open quotation (a nested one opens after a space)
            found.append((open_at + 1, i, open_at, i))
            open_at = None
        elif ch in _DOUBLE_OPEN and (open_at is None or text[open_at] == _STRAIGHT):
            # an opening curly mark starts a quotation; a straight one still open before it was
            # never closed (a paragraph's stray opener), as curly marks do not nest
            open_at = i
        elif ch in _DOUBLE_CLOSE and open_at is not None:
            # a closing curly mark ends the open one
            found.append((open_at + 1, i, open_at, i))
            open_at = None
        elif ch == _STRAIGHT:
            # a straight mark toggles
            if open_at is None:
                open_at = i
            else:
                found.append((open_at + 1, i, open_at, i))
                open_at = None
    return found, open_at


def _outside(
    lo: int, hi: int, doubles: list[tuple[int, int, int, int]], pending: int | None
) -> list[tuple[int, int]]:
    out, cur = [], lo
    for _, _, o, c in doubles:
        out.append((cur, o))
        cur = c + 1
    out.append((cur, pending if pending is not None else hi))
    return [(a, b) for a, b in out if b > a]


def _scan_singles(text: str, stretches: list[tuple[int, int]]) -> list[tuple[int, int, int, int]]:
    """Pairs of single marks in each stretch, telling quotation marks from apostrophes.

    Apostrophes look like single marks: "don't" and "it's" sit between letters and are
    never marks; "rock 'n' roll", "'em" and "the '90s" are elisions; "the fans' cheers"
    ends a word. A mark that closes only weakly (a letter before it, a space after it)
    is passed over when a strong close (after punctuation, or at the end) follows before
    any other quotation could open.
    """
    found: list[tuple[int, int, int, int]] = []
    for lo, hi in stretches:
        open_at: int | None = None
        for i in _single_marks(text, lo, hi):
            if _elision(text, i):
                # "'n'", "'em", "'90s": part of a word, not a mark
                continue
            if open_at is None and _opens(text, i):
                # a mark after a space opens
                open_at = i
            elif open_at is not None and _closes(text, i):
                if _strong_close(text, i, hi) or not _stronger_close_ahead(text, i + 1, hi):
                    # a mark before a space or punctuation closes, unless a word's apostrophe
                    # ("fans' cheers") is followed by the real closing mark
                    found.append((open_at + 1, i, open_at, i))
                    open_at = None
    return found


_SINGLE_MARK = re.compile("[" + re.escape(_SINGLE_OPEN + _SINGLE_CLOSE + _APOSTROPHE) + "]")


def _single_marks(text: str, lo: int, hi: int) -> list[int]:
    """Offsets of single marks and apostrophes in ``text[lo:hi]``."""
    return [m.start() for m in _SINGLE_MARK.finditer(text, lo, hi)]


def _opens(text: str, i: int) -> bool:
    before = text[i - 1] if i > 0 else " "
    after = text[i + 1] if i + 1 < len(text) else " "
    return text[i] in _SINGLE_OPEN + _APOSTROPHE and before in _OPEN_BEFORE and not after.isspace()


def _closes(text: str, i: int) -> bool:
    return text[i] in _SINGLE_CLOSE + _APOSTROPHE and _in_closing_place(text, i)


def _in_closing_place(text: str, i: int) -> bool:
    """Right after a word or punctuation, before a space, punctuation or the end."""
    before = text[i - 1] if i > 0 else " "
    after = text[i + 1] if i + 1 < len(text) else " "
    return after in _CLOSE_AFTER and not before.isspace()


def _strong_close(text: str, i: int, hi: int) -> bool:
    """A closing mark after punctuation ("fine,'"), or before punctuation or the end of the line."""
    after = text[i + 1] if i + 1 < hi else "\n"
    return text[i - 1] in ".,!?;:—–-" or after not in " \t"


def _stronger_close_ahead(text: str, lo: int, hi: int) -> bool:
    """Whether a strong closing mark comes in ``lo:hi`` before any mark that could open."""
    for j in _single_marks(text, lo, hi):
        if _elision(text, j):
            continue
        if _closes(text, j) and _strong_close(text, j, hi):
            return True
        if _opens(text, j):
            return False
    return False


#: Words spelled with a leading apostrophe ("give 'em", "'til dawn", "rock 'n' roll").
_ELIDED = words("elided_words")


def _elision(text: str, i: int) -> bool:
    """An apostrophe that stands for missing letters: "'90s", "'em", both marks of "'n'"."""
    if text[i] not in _SINGLE_CLOSE + _SINGLE_OPEN + _APOSTROPHE:
        return False
    if text[i + 1 : i + 2].isdigit() and (text[i + 3 : i + 4] == "" or text[i + 3] in "s ,.’'"):
        # the '90s, class of '09
        return True
    j = i + 1
    while j < len(text) and text[j].isalpha():
        j += 1
    word = text[i + 1 : j].lower()
    whole = (j >= len(text) or not text[j].isalpha()) and (i == 0 or not text[i - 1].isalpha())
    if word in _ELIDED and whole:
        # a whole elided word after a space: 'em, 'til; "'n'" also ends in a mark
        return word != "n" or text[j : j + 1] in ("'", "’")
    # the closing mark of "'n'"
    return i >= 2 and text[i - 1] in "nN" and text[i - 2] in "'’" and (i < 3 or not text[i - 3].isalpha())


@lru_cache(maxsize=1 << 12)
def strip_marks(text: str) -> str:
    """``text`` lower-cased with quotation marks, punctuation and spacing dropped, for comparison.

    >>> strip_marks("It\\u2019s  ‘fine,’")
    'itsfine'
    """
    return "".join(ch for ch in text.lower() if ch.isalnum())
