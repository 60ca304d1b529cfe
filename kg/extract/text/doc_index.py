"""What every extractor asks of a parsed Doc, computed once: its text, tokens, entities, each
token's sentence, its subjects, and the small token tests that names, events and places share.

spaCy rebuilds ``doc.text``, ``doc.ents`` and ``token.sent`` on every access, and makes a new
Token object each time one is indexed or iterated; the extractors ask for them per token, in
a dozen passes over the Doc. A :class:`DocIndex` answers from lists built once per Doc. It
is a memo of this module's (the last few Docs asked about), not an input of any stage; its
tokens refer back to the Doc, so the last of kg's components lets the index go
(:func:`release_index`) and a processed Doc is freed as soon as it is dropped.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from typing import NamedTuple

from spacy.attrs import LEMMA, LOWER, ORTH, POS
from spacy.tokens import Doc, Span, Token

from kg.extract.text.lexicon import function_words, labels, words
from kg.extract.text.marks import VENUE_WORDS, find_marked_spans, is_dash

#: Prepositions of a place ("at X", "in X", "to X", "from X").
#: Most words of a title in marks whose verb is no clause of the text around it.
_TITLE_WORDS = 6
_PLACE_PREPS = function_words("locating-prep") | {"from", "near", "outside", "inside", "on"}
#: Parts of speech of function words: never part of a name, even when capitalised.
_FUNCTION_POS = labels("function")
#: Words that may sit inside a name between capitalised words ("Rock & Roll", "Day of the Dead").
NAME_INNER = function_words("name-inner")
#: Inner words that may not follow a capitalised word at a name's start.
_NAME_INNER_EDGE = function_words("genitive") | {"the"}
#: Possessive nouns that belong inside a name ("Teachers' Day"), unlike a person's ("Rivera's").
_NAME_POSSESSORS = words("name_possessors")
#: "St", "Saint": a saint's possessive belongs inside the name ("St Agnes's Chapel").
_SAINTS = function_words("saint")


class Words(NamedTuple):
    """Per token index, the strings the rules test most: read once per Doc, so a pass over every
    token can skip the ones it has no use for without touching a Token."""

    text: list[str]
    lower: list[str]
    lemma: list[str]  # lower-cased
    pos: list[str]


class DocIndex:
    """A Doc's text, tokens, entities, sentence bounds per token and subject indices, each built on first use.

    The entities are read when the index is made: kg_entity_lines, the one component that
    sets ``doc.ents``, runs before any index exists.
    """

    def __init__(self, doc: Doc) -> None:
        self.tokens: list[Token] = list(doc)
        self.text: str = "".join(t.text_with_ws for t in self.tokens)
        self.ents: tuple[Span, ...] = doc.ents
        self._sent_starts: list[int] | None = None
        self._sent_ends: list[int] | None = None
        self._subjects: list[int] | None = None
        self._numbers: dict[int, int] | None = None
        self._words: Words | None = None

    def words(self) -> Words:
        """Each token's text, lower-case form, lower-case lemma and part of speech."""
        if self._words is None:
            # one array of string ids from spaCy, then each id's string (asking each Token is slower)
            ids = self.tokens[0].doc.to_array([ORTH, LOWER, LEMMA, POS]).T.tolist() if self.tokens else [[]] * 4
            text, lower, lemma, pos = (_strings(self.tokens[0].doc, column) if column else [] for column in ids)
            self._words = Words(text, lower, list(map(str.lower, lemma)), pos)
        return self._words

    def sentence_bounds(self, doc: Doc) -> tuple[list[int], list[int]]:
        """Per token, the index of its sentence's first token and one past its last."""
        if self._sent_starts is None or self._sent_ends is None:
            starts, ends = [0] * len(doc), [0] * len(doc)
            for sent in doc.sents:
                start, end = sent.start, sent.end
                starts[start:end] = [start] * (end - start)
                ends[start:end] = [end] * (end - start)
            self._sent_starts, self._sent_ends = starts, ends
        return self._sent_starts, self._sent_ends

    def sentence_number(self, doc: Doc, i: int) -> int:
        """The number of the sentence of token ``i`` (the first sentence is 0)."""
        starts = self.sentence_bounds(doc)[0]
        if self._numbers is None:
            self._numbers = {start: n for n, start in enumerate(sorted(set(starts)))}
        return self._numbers[starts[i]]

    def subjects(self, doc: Doc) -> list[int]:
        """Indices of the doc's subjects, read from the dependency array in one call."""
        if self._subjects is None:
            wanted = {doc.vocab.strings["nsubj"], doc.vocab.strings["nsubjpass"]}
            self._subjects = [i for i, dep in enumerate(doc.to_array("DEP").tolist()) if dep in wanted]
        return self._subjects


#: Strings by their id in spaCy's string store, shared by every Doc of a process (ids are hashes).
_STRINGS: dict[int, str] = {}


def _strings(doc: Doc, ids: list[int]) -> list[str]:
    """The strings of string-store ids (tokens' texts, lemmas or parts of speech)."""
    found = list(map(_STRINGS.get, ids))
    if None in found:
        store = doc.vocab.strings
        for k, string in enumerate(found):
            if string is None:
                found[k] = _STRINGS[ids[k]] = store[ids[k]]
    return found


#: The indexes of the last few Docs asked about, most recent last: the components run one Doc
#: at a time (a long article's pieces a few at a time), so most lookups find the last one.
_MEMO: OrderedDict[int, tuple[Doc, DocIndex]] = OrderedDict()
#: How many Docs' indexes are kept at once.
_MEMO_SIZE = 4


def doc_index(doc: Doc) -> DocIndex:
    """The Doc's :class:`DocIndex`, made on first use."""
    held = _MEMO.get(id(doc))
    if held is not None and held[0] is doc:
        _MEMO.move_to_end(id(doc))
        return held[1]
    index = DocIndex(doc)
    _MEMO[id(doc)] = (doc, index)
    while len(_MEMO) > _MEMO_SIZE:
        _MEMO.popitem(last=False)
    return index


def release_index(doc: Doc) -> None:
    """Drop the Doc's index once extraction is done, and with it the cycle through its tokens."""
    held = _MEMO.get(id(doc))
    if held is not None and held[0] is doc:
        del _MEMO[id(doc)]


def doc_text(doc: Doc) -> str:
    """The text of the doc, read once."""
    return doc_index(doc).text


def doc_tokens(doc: Doc) -> list[Token]:
    """The tokens of the doc, made once (``doc[i]`` makes a new Token object each time)."""
    return doc_index(doc).tokens


def doc_ents(doc: Doc) -> tuple[Span, ...]:
    """The named entities of the doc, made once (``doc.ents`` makes new Spans each time)."""
    return doc_index(doc).ents


def full_name_surnames(doc: Doc) -> dict[str, str]:
    """Each name the model tagged PERSON in full, with its surname read past what the model
    swept into it ("Bernie Sanders'" with its apostrophe, "John Kasich 2" with a number)."""
    return {
        e.text: next((t.text for t in reversed(e) if t.is_alpha and t.text[0].isupper()), e[-1].text)
        for e in doc_ents(doc)
        if e.label_ == "PERSON" and len(e) > 1
    }


def token_words(doc: Doc) -> Words:
    """Each token's text, lower-case form, lower-case lemma and part of speech, as lists read once."""
    return doc_index(doc).words()


def sentence_bounds(doc: Doc) -> tuple[list[int], list[int]]:
    """Per token, the index of its sentence's first token and one past its last."""
    return doc_index(doc).sentence_bounds(doc)


def sentence_number(doc: Doc, i: int) -> int:
    """The number of the sentence of token ``i`` in the doc (the first sentence is 0)."""
    return doc_index(doc).sentence_number(doc, i)


def subject_indices(doc: Doc) -> list[int]:
    """Indices of the subjects of the doc: the rules on subjects skip all other tokens."""
    return doc_index(doc).subjects(doc)


def is_cap(token: Token) -> bool:
    """A capitalised content word: part of a name (a sentence-initial "The" is not)."""
    t = token.text
    return t[:1].isupper() and any(c.isalpha() for c in t) and token.pos_ not in _FUNCTION_POS


def title_run_start(doc: Doc, end: int, floor: int) -> int:
    """Leftmost token of the run of capitalised words (and name-internal words) ending at ``end``.

    ``end`` is the index of the run's last token; the run never crosses ``floor``.
    Name-internal words ("&", "of") are kept only when a capitalised word precedes them.
    """
    start = end
    i = end - 1
    while i >= floor:
        tok = doc[i]
        # a capitalised word; long all-caps words are shouting, not names
        if is_cap(tok) and (not tok.text.isupper() or len(tok.text) <= 5):
            start = i
        elif tok.lower_ in function_words("genitive") and i - 1 >= floor and (
                doc[i - 1].lower_ in _NAME_POSSESSORS or i - 2 >= floor and doc[i - 2].lower_ in _SAINTS):
            start = i
        # "&", "of" between capitalised words
        elif tok.lower_ in NAME_INNER and tok.lower_ not in _NAME_INNER_EDGE and i - 1 >= floor and is_cap(doc[i - 1]) \
                and not is_spaced_dash(tok):
            start = i
        elif tok.is_lower and i - 2 >= floor and doc[i - 1].text == "-" and not doc[i - 2].whitespace_ \
                and not doc[i - 1].whitespace_ and is_cap(doc[i - 2]):
            # "the K-magic Live concert": a capitalised word joined to a lower-case one is one word
            start = i - 2
            i -= 2
        else:
            break
        i -= 1
    return start


def named_after_cue(verb: Token) -> Token | None:
    """'"...," said X': the last capitalised word of the words after an inverted cue, up to
    punctuation or a function word ("of", "who"), a date never. The parser may make X anything
    ("said Skelly" an adverb, "said Oversight ranking Democrat X" the object of "ranking")."""
    names = []
    for t in verb.doc[verb.i + 1 : verb.i + 12]:
        joining = t.text == "-" and not t.whitespace_  # "season-ticket holder"
        if t.is_punct and not joining or t.is_space or t.pos_ in labels("after-cue-break"):
            break
        if t.is_title and t.ent_type_ not in labels("numeric"):
            names.append(t)
    return names[-1] if names else None


#: An ordinal in digits ("13th", "2nd").
_ORDINAL = re.compile(r"\d+(st|nd|rd|th)")


def numbered(token: Token) -> bool:
    """Whether a digit ordinal stands right before ``token`` ("the 13th Amendment"): what it
    numbers is a thing, not a person, however capitalised."""
    return token.i > 0 and _ORDINAL.fullmatch(token.doc[token.i - 1].lower_) is not None


def is_spaced_dash(token: Token) -> bool:
    """A dash with a space on each side: punctuation between clauses ("Ana Silva - Brindle Hall,
    Denver", "DENVER - Since ..."), never inside a name, whose hyphens have none."""
    return is_dash(token.text) and bool(token.whitespace_) and token.i > 0 and bool(token.nbor(-1).whitespace_)


def governing_verb(token: Token) -> Token:
    """The nearest verb above ``token`` (itself if it is one; the root when there is none)."""
    cur = token
    for _ in range(8):
        if cur.pos_ in ("VERB", "AUX") or cur.head.i == cur.i:
            return cur
        cur = cur.head
    return cur


def verb_above(span: Span) -> Token | None:
    """The first verb above a span and outside it: the verb of the clause that names it (the
    words of a title are no clause: "'You Should Probably Leave' brought ...": "brought"; nor
    are another short title's: in "songs like 'Love Yourself', 'Baby'" the parser hangs "Baby"
    on "Love")."""
    cur = span.root
    for _ in range(10):
        if cur.head.i == cur.i:
            return None
        cur = cur.head
        if cur.pos_ in ("VERB", "AUX") and not span.start <= cur.i < span.end and not _in_other_title(cur, span):
            return cur
    return None


def _in_other_title(token: Token, span: Span) -> bool:
    """Whether ``token`` lies inside a short title in marks that does not hold ``span``."""
    text = doc_text(span.doc)
    return any(m.close_at is not None and m.start <= token.idx < m.end and not m.start <= span.start_char < m.end
               and len(text[m.start : m.end].split()) <= _TITLE_WORDS for m in find_marked_spans(text))


def used_as_place(span: Span) -> bool:
    """Whether a name stands where a place stands: after a preposition of place ("at X", "to X",
    "from X") or with a venue's last word ("X Arena"). A name the model reads as a person in one
    sentence and as a facility in another ("X had the crowd screaming") is a place only there."""
    root = span.root
    return span[-1].lower_ in VENUE_WORDS or root.dep_ == "pobj" and root.head.lower_ in _PLACE_PREPS


#: How many sentences from the top a dateline may start (after a headline and a byline).
DATELINE_SENTENCES = 3
