"""Quote marks and speech cues: the word lists and scanners that quotes and coref share.

Quotation marks are found on the raw text, not on tokens, because the small English
model splits and attaches marks unreliably; every span found here is a character range
of the article, so it maps straight back to tokens with ``doc.char_span``.
"""

from __future__ import annotations

from dataclasses import dataclass

from spacy.tokens import Token

#: Lemmas (or lower-cased forms) of verbs that introduce reported or direct speech.
SAY_VERBS = frozenset(
    """
        say tell add write caption post tweet explain recall joke insist shout sing state claim note
        continue declare announce admit ask reply respond answer argue comment remark quip laugh
        gush share reveal confirm deny warn urge exclaim whisper mutter scream yell cry sob
        acknowledge concede emphasize emphasise stress suggest describe conclude muse reflect wonder
        predict promise vow boast complain lament protest observe tease rave pen blog message text
        chime read begin call tell testify plead counter retort sigh beam smile grin chuckle agree
        interrupt hint murmur snap demand inquire enquire persist repeat resume gasp stammer groan
        interject recount recite chant reiterate maintain assert allege contend clarify elaborate
        disclose divulge captioned posted tweeted wrote said told added
        """.split()
)

#: Nouns that carry someone's words: "X's statement read", "a post from X said".
STATEMENT_NOUNS = frozenset(
    """
        statement post caption tweet letter message release note email text interview memo
        """.split()
)

#: People who speak for someone else: "a spokesperson for X said" is attributed to X.
PROXY_NOUNS = frozenset(["spokesperson", "spokesman", "spokeswoman", "representative", "rep", "publicist"])

#: Nouns that describe a person ("the folk singer", "the 37-year-old"), with gender when they carry one.
PERSON_NOUNS: dict[str, str | None] = {
    **dict.fromkeys(
        """
            singer songwriter singer-songwriter star superstar popstar icon artist musician rapper
            drummer guitarist bassist pianist vocalist producer director filmmaker writer author
            comedian host presenter model designer dancer performer entertainer winner nominee
            champion athlete player coach manager president minister senator governor mayor lawmaker
            politician candidate leader chief ceo founder spokesperson official secretary premier
            chancellor diplomat ambassador judge lawyer attorney prosecutor officer detective
            influencer activist youtuber creator legend hitmaker veteran actor star-turned-activist
            rocker crooner chanteuse frontperson songstress pope archbishop bishop general colonel
            captain sergeant lieutenant commissioner
            """.split(),
        None,
    ),
    **dict.fromkeys(
        """
            actress spokeswoman chairwoman mother mom daughter wife woman queen frontwoman diva girl
            sister princess duchess countess grandmother businesswoman congresswoman
            """.split(),
        "f",
    ),
    **dict.fromkeys(
        """
            spokesman chairman father dad son husband man king frontman boy brother prince duke
            grandfather businessman congressman earl
            """.split(),
        "m",
    ),
}

#: Nouns that describe a group or organisation ("the band said").
GROUP_NOUNS = frozenset(
    """
    band group duo trio quartet quintet outfit ensemble company team label network studio firm
    """.split()
)

#: Group nouns that make an organisation a music group ("the band said").
MUSIC_GROUP_NOUNS = frozenset({"band", "duo", "trio", "quartet", "quintet", "group", "outfit", "ensemble", "orchestra",
                               "choir"})

#: Third-person pronouns that can be resolved, with their gender ("p": plural or group).
PRONOUNS: dict[str, str] = {
    **dict.fromkeys(["she", "her", "hers", "herself"], "f"),
    **dict.fromkeys(["he", "him", "his", "himself"], "m"),
    **dict.fromkeys(["they", "them", "their", "theirs", "themselves"], "p"),
}

#: Honorifics before a name, with the gender they imply.
HONORIFICS: dict[str, str | None] = {
    "mr": "m", "mr.": "m", "sir": "m", "lord": "m", "king": "m", "prince": "m",
    "mrs": "f", "mrs.": "f", "ms": "f", "ms.": "f", "miss": "f", "lady": "f", "dame": "f",
    "queen": "f", "princess": "f", "dr": None, "dr.": None,
}  # fmt: skip

#: Last words of names that are places, not people ("Orchid Live" tagged PERSON).
VENUE_WORDS = frozenset(
    """
        live arena stadium hall theatre theater center centre garden gardens park bowl club festival fields
        awards ballroom amphitheatre amphitheater pavilion dome field square hotel casino studios
        studio museum church cathedral palace forum coliseum colosseum
        """.split()
)

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
_ALL_MARKS = _DOUBLE_OPEN + _DOUBLE_CLOSE + _STRAIGHT + _SINGLE_OPEN + _SINGLE_CLOSE + _APOSTROPHE


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


def is_say_verb(token: Token) -> bool:
    """Whether ``token`` is a verb of saying (by lemma or form, so tagger slips still count)."""
    return token.pos_ in ("VERB", "AUX", "NOUN", "PROPN") and (
        token.lemma_.lower() in SAY_VERBS or token.lower_ in SAY_VERBS
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
    spans: list[MarkedSpan] = []
    lines = _lines(text)
    carry_group: int | None = None
    for n, (lo, hi) in enumerate(lines):
        doubles, pending = _scan_doubles(text, lo, hi)
        group_of_first = carry_group
        carry_group = None
        for i, (s, e, o, c) in enumerate(doubles):
            group = (
                group_of_first
                if (i == 0 and group_of_first is not None and o == _first_mark(text, lo, hi))
                else len(spans)
            )
            spans.append(MarkedSpan(s, e, o, c, False, group))
        if pending is not None and _next_opens(text, lines, n):
            # an unclosed paragraph re-opened by the next: one quotation over several paragraphs
            group = group_of_first if (not doubles and group_of_first is not None) else len(spans)
            spans.append(MarkedSpan(pending + 1, _rstrip(text, pending + 1, hi), pending, None, False, group))
            carry_group = group
        outside = _outside(lo, hi, doubles, pending)
        for s, e, o, c in _scan_singles(text, outside):
            spans.append(MarkedSpan(s, e, o, c, True, len(spans)))
    spans.sort(key=lambda m: m.start)
    return [m for m in spans if m.end > m.start]


def _lines(text: str) -> list[tuple[int, int]]:
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
        if ch in _DOUBLE_OPEN and open_at is None:
            # an opening curly mark starts a quotation
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
    found: list[tuple[int, int, int, int]] = []
    for lo, hi in stretches:
        open_at: int | None = None
        for i in range(lo, hi):
            ch = text[i]
            before = text[i - 1] if i > 0 else " "
            after = text[i + 1] if i + 1 < len(text) else " "
            opens = ch in _SINGLE_OPEN + _APOSTROPHE and before in _OPEN_BEFORE and not after.isspace()
            if open_at is None and opens and not _elides_digits(text, i):
                # a mark after a space opens, unless it elides digits ("'90s")
                open_at = i
            elif (
                open_at is not None
                and ch in _SINGLE_CLOSE + _APOSTROPHE
                and after in _CLOSE_AFTER
                and not before.isspace()
            ):
                # a mark before a space or punctuation closes; "fans’ " may mislead, rarely
                found.append((open_at + 1, i, open_at, i))
                open_at = None
    return found


def _elides_digits(text: str, i: int) -> bool:
    return text[i + 1 : i + 2].isdigit() and text[i + 3 : i + 4] in ("s", "")


def strip_marks(text: str) -> str:
    """``text`` lower-cased with quotation marks, punctuation and spacing dropped, for comparison.

    >>> strip_marks("It\\u2019s  ‘fine,’")
    'itsfine'
    """
    return "".join(ch for ch in text.lower() if ch.isalnum())


#: Common given names and the gender they usually carry, so "he" does not go to "Mary Jones".
FIRST_NAME_GENDER: dict[str, str] = {
    **dict.fromkeys(
        """
            mary patricia jennifer linda elizabeth barbara susan jessica sarah karen nancy lisa
            betty margaret sandra ashley kimberly emily donna michelle dorothy carol amanda melissa
            deborah stephanie rebecca sharon laura cynthia kathleen amy angela shirley anna brenda
            pamela emma nicole helen samantha katherine christine debra rachel carolyn janet
            catherine maria heather diane ruth julie olivia joyce virginia victoria kelly lauren
            christina joan evelyn judith megan andrea cheryl hannah jacqueline martha gloria teresa
            ann sara madison frances kathryn janice jean abigail alice judy sophia grace denise
            amber doris marilyn danielle beverly isabella theresa diana natalie brittany charlotte
            marie kayla alexis lori selena ariana miley katy billie dua demi hillary kamala nancy
            angela theresa jacinda meryl julia jennifer scarlett margot zendaya rihanna adele
            shakira whitney aretha dolly cher britney christina lana olivia sabrina doja cardi nicki
            lizzo halsey camila nina lena greta ines rosa priya fiona helen maya grace ella mia zoe
            chloe lucy ava sophie isabel elena sofia lucia carmen ana paula marta eva alma irina
            olga natasha yuki mei aisha fatima leila amina nadia hanna ingrid astrid freya
            """.split(),
        "f",
    ),
    **dict.fromkeys(
        """
            james robert john michael david william richard joseph thomas charles christopher daniel
            matthew anthony mark donald steven paul andrew joshua kenneth kevin brian george timothy
            ronald edward jason jeffrey ryan jacob gary nicholas eric jonathan stephen larry justin
            scott brandon benjamin samuel gregory alexander frank patrick raymond jack dennis jerry
            tyler aaron jose adam nathan henry douglas zachary peter kyle ethan walter noah jeremy
            christian keith roger terry gerald harold sean austin carl arthur lawrence jesse bryan
            billy joe bruce gabriel logan albert willie alan juan wayne elijah randy roy vincent
            ralph eugene russell bobby mason philip louis harry ed bruno elton mick bob barack joe
            boris emmanuel vladimir xi narendra keir rishi olaf tom brad leonardo denzel kanye jay
            drake shawn justin travis kendrick snoop eminem usher elvis freddie leo omar victor
            marcus carlos daniel tomas jonas karl hans pedro luis miguel diego pablo marco luca
            giovanni pierre jean-luc francois ahmed mohammed ali hassan raj arjun rahul hiroshi
            kenji ivan sergei dmitri lars sven erik oscar felix hugo max theo liam owen connor
            """.split(),
        "m",
    ),
}
