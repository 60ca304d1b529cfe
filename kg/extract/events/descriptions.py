"""Events an article names by describing them: "the funeral of X", "the opening ceremony",
"a press conference in Denver", "the final concert of the orchestra's winter series".

Such an event counts only where the article places it in the same sentence (a venue or a
town after it: "was held at V", "at V", "in C"), so every description of a show in a review
does not become an event of its own. It is named by the article's own words: its
modifiers, its head noun (``event_nouns.txt``) and an "of" phrase that names whose it is.
"""

from __future__ import annotations

from spacy.tokens import Doc, Span

from kg.extract.model import EventMention, Place
from kg.extract.text.doc_index import doc_tokens, is_cap, sentence_bounds, token_words
from kg.extract.text.lexicon import function_words, kinds, tagged

#: Event nouns and their kinds.
_NOUNS = kinds("event_nouns")
#: Nouns that name a show only with its act's name before them ("the X set at V").
_OWNED = tagged("event_nouns", "owned")
#: Prepositions of the place after an act's show ("the X concert at V").
_PLACE_PREPS = function_words("event-place-prep")
#: Most words before the head noun that still belong to the name ("the final concert").
_MODIFIERS = 3
#: Most words between the event and the place that places it.
_TO_PLACE = 12


def described_events(doc: Doc, taken: set[int], places: tuple[Place, ...]) -> list[EventMention]:
    """Placed events named by description, outside the tokens ``taken`` by named ones."""
    toks = doc_tokens(doc)
    place_tokens = _place_tokens(doc, places)
    starts, ends = sentence_bounds(doc)
    found: list[EventMention] = []
    for tok in (toks[k] for k, lower in enumerate(token_words(doc).lower) if lower in _NOUNS):
        kind = _NOUNS.get(tok.lower_)
        owned = tok.lower_ in _OWNED
        if kind is None or not tok.is_lower or tok.pos_ != "NOUN" and not owned or tok.i in taken:
            continue
        start = _first_word(doc, tok.i, starts[tok.i], place_tokens)
        if start is None or owned and not is_cap(doc[start]):
            # ("set" alone is anything; "the X set at V" is an act's show)
            continue
        end = _of_phrase_end(doc, tok.i, ends[tok.i])
        if start == tok.i and end == tok.i + 1:
            # a bare "the festival" refers back to a named event; only a description names one
            continue
        if start not in place_tokens and not any(k in place_tokens for k in range(end, min(ends[tok.i], end + _TO_PLACE))):
            # an unplaced description says nothing a graph can hold
            continue
        if any(k in taken for k in range(start, end)):
            continue
        found.append(EventMention(start, end, doc[start:end].text, kind, described_by=tok.i))
        taken.update(range(start, end))
    return found


def _first_word(doc: Doc, head: int, floor: int, place_tokens: set[int]) -> int | None:
    """Where the name starts: after a determiner or possessive, over modifiers ("the final concert"),
    and over a place named right before them, which says where it was ("a Denver press conference",
    "at La Scala premiere")."""
    i = head
    while i - 1 >= floor and head - i < _MODIFIERS and doc[i - 1].pos_ in ("ADJ", "NOUN") and doc[i - 1].is_lower \
            and doc[i - 1].lower_ not in _NOUNS:
        i -= 1
    place = i
    while place - 1 >= floor and place - 1 in place_tokens and doc[place - 1].text[:1].isupper():
        place -= 1
    before = doc[place - 1] if place - 1 >= floor else None
    if place < i and (before is None or before.pos_ in ("DET", "ADP") or before.dep_ == "poss" or before.tag_ == "POS"):
        return place
    det = doc[i - 1] if i - 1 >= floor else None
    if det is None or not (det.pos_ == "DET" or det.dep_ == "poss" or det.tag_ == "POS"):
        return _act_first(doc, head, floor, place_tokens) if i == head else None
    return i


def _act_first(doc: Doc, head: int, floor: int, place_tokens: set[int]) -> int | None:
    """ "the Ana Rivera set at V", "a Lantern Quartet concert at V": the act's name before the noun
    of its show is part of the name, when a place follows it."""
    if head + 1 >= len(doc) or doc[head + 1].lower_ not in _PLACE_PREPS:
        return None
    start = head
    while start - 1 >= floor and is_cap(doc[start - 1]) and start - 1 not in place_tokens:
        start -= 1
    return start if start < head and start - 1 >= floor and doc[start - 1].pos_ == "DET" else None


def _of_phrase_end(doc: Doc, head: int, sent_end: int) -> int:
    """Past "of" and whose event it is ("funeral of Ana Rivera", "concert of the orchestra's series")."""
    if head + 1 >= sent_end or doc[head + 1].lower_ != "of":
        return head + 1
    objects = [c for c in doc[head + 1].children if c.dep_ == "pobj"]
    if not objects or not any(t.pos_ == "PROPN" for t in objects[0].subtree if t.i <= objects[0].i):
        return head + 1
    # the name ends with the object's head: the parser hangs the place that follows on it ("funeral
    # of X in C"), and that place says where the event was, it does not name whose it is
    return objects[0].i + 1


def _place_tokens(doc: Doc, places: tuple[Place, ...]) -> set[int]:
    out: set[int] = set()
    for place in places:
        for m in place.mentions:
            span: Span | None = doc.char_span(m.start, m.end, alignment_mode="expand")
            if span is not None:
                out.update(range(span.start, span.end))
    return out


