"""Events known by what is said of them: "The X, run by Y, was held at V", "the X, which took
place at W", "the winner of X", "a tour called X". A name of no known kind (no "Festival", no
"Awards") is an event when it is the subject of a verb of happening (``happening_verbs.txt``),
whose place is then the event's (see ``event_places``), what someone won
(``contest_nouns.txt``), or the name given to an event noun.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from spacy.tokens import Doc, Token

from kg.extract.text.doc_index import (
    NAME_INNER,
    doc_text,
    doc_tokens,
    is_cap,
    token_words,
)
from kg.extract.text.lexicon import labels, table, words
from kg.extract.text.marks import CLOSING_MARKS, OPENING_MARKS, is_mark

#: Verb lemma -> "passive", or the object noun that makes it a verb of happening ("take" "place").
_VERBS = table("happening_verbs")
#: Nouns whose "of" phrase is a contest ("the winner of X").
_CONTEST_NOUNS = words("contest_nouns")
#: Entity labels of names that are no contest ("winner of Iowa", "winner of Tuesday's debate").
_NOT_CONTEST = frozenset({"PERSON", "GPE", "DATE", "TIME", "NORP"})
#: Participles that give an event noun its name, as a search over the text, so that most articles skip the rule.
_NAMING_RE = re.compile(r"\b(?:called|named|titled|entitled|dubbed|billed)\b", re.IGNORECASE)


def happening_names(doc: Doc, covered: set[int]) -> list[tuple[int, int]]:
    """Token ranges of capitalised names that are the subjects of verbs of happening."""
    found = []
    toks = doc_tokens(doc)
    for verb in (toks[i] for i, lemma in enumerate(token_words(doc).lemma) if lemma in _VERBS):
        subject = _subject(verb)
        if subject is None or subject.pos_ != "PROPN" or subject.ent_type_ in ("PERSON", "GPE", "DATE"):
            continue
        left, right = subject.left_edge.i, subject.right_edge.i + 1
        start, end = subject.i, subject.i + 1
        # the run of capitalised words around the head, hyphened parts and "of" inside it
        while start > left and (is_cap(doc[start - 1]) or _hyphened(doc, start - 1)):
            start -= 1
        while end < right and (is_cap(doc[end]) or _hyphened(doc, end)
                               or doc[end].lower_ == "of" and end + 1 < right and is_cap(doc[end + 1])):
            end += 1
        if not covered.intersection(range(start, end)):
            found.append((start, end))
    return found


def _hyphened(doc: Doc, i: int) -> bool:
    """A hyphen inside a word, or a part of a word joined by one ("Dunmere-by-the-Sea")."""
    return any(0 <= k < len(doc) and doc[k].text in "-–" and not doc[k].whitespace_ and not doc[k - 1].whitespace_
               for k in (i - 1, i, i + 1))


def _subject(verb: Token) -> Token | None:
    """The subject of a verb of happening (the antecedent of "which" in a relative clause), if it is one."""
    how = _VERBS.get(verb.lemma_.lower())
    if how is None:
        return None
    if how == "passive":
        ok = any(c.dep_ == "auxpass" for c in verb.children)
    else:
        ok = any(c.dep_ in ("dobj", "obj") and c.lower_ == how for c in verb.children)
    subject = next((c for c in verb.children if c.dep_ in ("nsubj", "nsubjpass")), None)
    if not ok or subject is None:
        return None
    return verb.head if verb.dep_ == "relcl" and subject.tag_ == "WDT" else subject


def contest_names(doc: Doc, covered: set[int]) -> list[tuple[int, int]]:
    """Token ranges of names someone won: "the winner of 'The Lantern Factor' 2026".

    The name is the whole phrase after "of" (a title in marks too, a year after it aside); a
    name that goes on into a noun ("winner of Democratic debates") or an owner ("Iowa's
    primary") is only a modifier, and a person, place or date no contest.
    """
    found = []
    low = token_words(doc).lower
    for i in (k for k, word in enumerate(low) if word in _CONTEST_NOUNS):
        j = i + 2
        if j >= len(doc) or low[i + 1] != "of":
            continue
        if low[j] == "the" and j + 1 < len(doc):
            j += 1
        marked = is_mark(doc[j].text, OPENING_MARKS)
        start = end = j + 1 if marked else j
        # "'The X'": the article belongs to a title in marks
        if marked and end + 1 < len(doc) and low[end] == "the":
            end += 1
        while end < len(doc) and (is_cap(doc[end]) or doc[end].lower_ == "of" and end + 1 < len(doc)
                                  and is_cap(doc[end + 1])):
            end += 1
        after = doc[end] if end < len(doc) else None
        if marked and (after is None or not is_mark(after.text, CLOSING_MARKS)):
            continue
        ends_phrase = after is None or marked or after.pos_ not in labels("nominal") and after.tag_ != "POS"
        if end > start and ends_phrase and not covered.intersection(range(start, end)) \
                and not any(t.ent_type_ in _NOT_CONTEST for t in doc[start:end]):
            found.append((start, end))
    return found


def called_names(doc: Doc, covered: set[int], heads: Mapping[str, str]) -> list[tuple[int, int, str]]:
    """Events named after their kind: "the tour, called X", "a residency dubbed X". Token ranges of
    the names, each with the kind ``heads`` gives the lower-case event noun before the participle."""
    found: list[tuple[int, int, str]] = []
    for match in _NAMING_RE.finditer(doc_text(doc)):
        naming = doc.char_span(match.start(), match.end())
        if naming is None or naming.start < 1:
            continue
        back = naming.start - 1
        # "the tour called X" or "the tour, called X"
        if doc[back].text == "," and back > 0:
            back -= 1
        tok = doc[back]
        kind = heads.get(tok.lower_)
        if kind is None or tok.i in covered:
            continue
        start = naming.end
        if start < len(doc) and is_mark(doc[start].text, OPENING_MARKS):
            start += 1
        end = start
        while end < len(doc) and end not in covered and (
                is_cap(doc[end]) or doc[end].lower_ in NAME_INNER and end + 1 < len(doc) and is_cap(doc[end + 1])):
            end += 1
        if end > start:
            found.append((start, end, kind))
    return found
