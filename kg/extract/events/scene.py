"""The scene an article sets once, at its top: its one named show, or the venue its people were at.

A review or a report names the show or the venue once ("X took the stage at V on Sunday",
"the X set at V") and then goes through the set paragraphs later. The performances that
name no place of their own ask here (see ``show_context`` and ``performances``).
"""

from __future__ import annotations

from dataclasses import dataclass

from spacy.tokens import Doc, Span

from kg.extract.text.marks import PERSON_NOUNS
from kg.extract.places.lead import lead_place
from kg.extract.model import Event

#: Event kinds that are shows an article can be about as a whole.
_SHOW_KINDS = frozenset({"music", "festival", "award", "theater"})


@dataclass(frozen=True)
class LeadVenue:
    """The venue the top of an article puts its people at, and who they are (none: everyone)."""

    place: str
    people: frozenset[str]


def article_event(doc: Doc, occasions: bool = True) -> str | None:
    """The only named show of the article (a tour, festival, award show), if there is exactly one;
    failing any, with ``occasions``, the only event of another kind the article places.

    A concert review or an award-show report is about one event and often names it once, far
    from the sentences listing what was played; two named shows make this a guess, so none.
    A report of an evening of no known kind ("the X, organised by Y, was held at V") or of a
    funeral is about that occasion as much; a day it names in passing ("to mark X Day") is
    placed nowhere and does not count.
    """
    # (a named show: "the 69th Grammys" too, not "the opening night"; not one that only says who
    # someone is: "the Quarry Award winner" sang at another show)
    shows = [e.key for e in doc._.events if e.kind in _SHOW_KINDS and (e.name[:1].isupper() or e.name[:1].isdigit())
             and e.super_event is None and not _only_titles(doc, e)]
    if not shows and occasions:
        # no show of a known kind: the one occasion the article says where it took place ("the X,
        # organised by Y, was held at V"; "the funeral of X in C"), not a day it names in passing
        shows = [e.key for e in doc._.events if e.location is not None and e.super_event is None
                 and not _only_titles(doc, e)]
    return shows[0] if len(shows) == 1 else None


def titles_a_person(span: Span) -> bool:
    """ "the Brit Award winner", "a Nobel Prize nominee": the event names who someone is, not where
    they are."""
    root = span.root
    return root.dep_ in ("compound", "nmod", "amod") and root.head.lower_ in PERSON_NOUNS


def _only_titles(doc: Doc, event: Event) -> bool:
    """Whether every mention of an event titles a person: the article is not about that show."""
    spans = [doc.char_span(m.start, m.end, alignment_mode="expand") for m in event.mentions]
    return all(span is not None and titles_a_person(span) for span in spans)


def lead_venue(doc: Doc, article_event: str | None) -> LeadVenue | None:
    """The one venue the top of an article without a named show says its people were at, with them
    (none: "The revival opened at V" puts everyone there).

    "X returned to the Y Hall on Saturday for the first of three shows": a review names
    the hall once, at the top, and then goes through the set.
    """
    if article_event is not None:
        return None
    found = lead_place(doc)
    return LeadVenue(found[0], people_in(doc, found[1])) if found is not None else None


def people_in(doc: Doc, sent: Span) -> frozenset[str]:
    """Keys of the entities mentioned in a sentence (by name, pronoun or description)."""
    return frozenset(e.key for e in doc._.entities for m in e.mentions if sent.start_char <= m.start < sent.end_char)
