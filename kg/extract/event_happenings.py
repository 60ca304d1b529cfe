"""Events known by what is said of them: "The X, run by Y, was held at V", "the X, which took
place at W". A name of no known kind (no "Festival", no "Awards") is an event when it is the
subject of a verb of happening (``happening_verbs.txt``); the place of that verb is then the
event's (see ``event_places``).
"""

from __future__ import annotations

from spacy.tokens import Doc, Token

from kg.extract.lexicon import table
from kg.extract.text import doc_tokens, is_cap, token_words

#: Verb lemma -> "passive", or the object noun that makes it a verb of happening ("take" "place").
_VERBS = table("happening_verbs")


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
