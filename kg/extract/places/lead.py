"""The venue the top of an article puts its people at: "X returned to V on Saturday", "the X set at
V", "said X to members of the audience at V".

A review or a report names the venue once, at the top, and then tells what happened there. The
events stage reads it for an occasion no clause places, and the show context (``article_scene``)
for the performances; it is read from places and the parse only, so both may ask.
"""

from __future__ import annotations

from spacy.tokens import Doc, Span, Token

from kg.extract.model import TOWN_KINDS, Place
from kg.extract.sieves import sieve
from kg.extract.text.dates import told_as_past
from kg.extract.text.doc_index import DATELINE_SENTENCES, governing_verb
from kg.extract.text.lexicon import function_words, words

#: Nouns of a show: "the X set at V", "the concert in V" put the act at V.
_SHOW_NOUNS = words("show_nouns")
#: Nouns of the people watching: "told the audience at V" puts the speaker at V.
_AUDIENCE = words("audience_nouns")

#: How many sentences after the venue's an event may be told and still be the one held there.
_NEAR = 2

LEAD = sieve("location.lead-venue", "the venue the top of the article puts its people at, for the one event "
             "it tells of that no clause places", "Rivera thanked the audience at the Brindle Hall. She had "
             "planned the final concert of the season for months. → Brindle Hall", 0.67)


def lead_place(doc: Doc, places: tuple[Place, ...]) -> tuple[str, Span] | None:
    """The key of the one venue the top sentences say someone went to, was at or played, with the
    sentence that says so."""
    venues = {p.key: p for p in places if p.kind not in TOWN_KINDS}
    for sent in list(doc.sents)[: DATELINE_SENTENCES + 1]:
        # where someone went or was ("returned to V", "played V"), not a modifier ("a V revival")
        spans = [(key, doc.char_span(m.start, m.end, alignment_mode="expand")) for key, p in venues.items()
                 for m in p.mentions if sent.start_char <= m.start < sent.end_char]
        here = {key for key, span in spans if span is not None and _reached(span.root)}
        if len(here) == 1:
            return here.pop(), sent
    return None


def _reached(token: Token) -> bool:
    """A place someone went to, was at or played, in the past: "returned to V", "opened at V",
    "played V", "told the audience at V"; or a show's place: "the X set at V"."""
    if token.dep_ == "pobj" and token.head.lower_ in function_words("locating-prep"):
        verb = token.head.head
        if verb.lower_ in _SHOW_NOUNS:
            return True  # (the model reads "the X set at V" with "set" a verb, too)
        if _audience(verb):
            verb = governing_verb(verb)
    elif token.dep_ in ("dobj", "obj"):
        verb = token.head
    else:
        return False
    return verb.pos_ in ("VERB", "AUX") and told_as_past(verb)


def _audience(noun: Token) -> bool:
    """ "the audience", "members of the audience", "a crowd of fans": the people watching."""
    return noun.lower_ in _AUDIENCE or any(
        c.lower_ == "of" and any(o.dep_ == "pobj" and o.lower_ in _AUDIENCE for o in c.children) for c in noun.children)


def place_at_lead(doc: Doc, data: dict[str, dict], order: list[str], places: tuple[Place, ...]) -> None:
    """ "X said to the audience at V ... the final concert of the series": the one event an article
    tells of, by description, placed by no clause, is where its top puts its people, when it is told in that
    sentence or the two after it, and as past (a show to come is somewhere else)."""
    # (a named show has places of its own to be given; "the final concert", "the funeral of X" are
    # the article's words for the occasion it is about)
    if len(order) != 1 or data[order[0]]["location"] is not None or not data[order[0]]["described"]:
        return
    found = lead_place(doc, places)
    if found is None:
        return
    venue, sent = found
    rec = data[order[0]]
    sents = [s for s in doc.sents if s.start >= sent.start][: _NEAR + 1]
    for m in rec["mentions"]:
        span = doc.char_span(m.start, m.end, alignment_mode="expand")
        if span is not None and sent.start <= span.start < sents[-1].end and told_as_past(governing_verb(span.root)):
            rec["location"], rec["location_rule"] = venue, LEAD.id
            return
