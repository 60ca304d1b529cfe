"""The Facts: plain, typed, frozen records with character offsets into the article text.

Every later stage (RDF mapping, evaluation, tests) consumes these and nothing of spaCy.
Records refer to each other by ``key``: a string unique within one article
(for example ``"person:1"``, ``"work:2"``); the RDF stage turns keys into IRIs.

Quotations, works, events and performances also say how they were decided: ``rule``
is the id of the sieve that decided them (``"quote.trigram"``, ``"perf.frame"``...; the
sieves are listed in docs/extraction.md) and ``confidence`` that sieve's measured
precision on real annotated news, so a user can filter by either. An event's
``location_rule`` and a performance's ``context_rule`` name the sieve that placed it.

Kinds are small closed vocabularies (each record's docstring lists them) so that the
mapping to schema.org types is a table, not guesswork.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

#: Place kinds that are towns and lands, not venues: a venue named later is the more exact place.
TOWN_KINDS = frozenset({"city", "region", "country"})


@dataclass(frozen=True)
class TextSpan:
    """A stretch of the article text: ``text == article.text[start:end]``."""

    start: int
    end: int
    text: str


@dataclass(frozen=True)
class When:
    """A date as written and, when it can be pinned down, as ISO 8601.

    ``value`` is ``YYYY``, ``YYYY-MM`` or ``YYYY-MM-DD`` (the precision the text
    supports), or None when the text cannot be resolved (no year, no publication date).
    """

    text: str
    value: str | None
    span: TextSpan | None = None


@dataclass(frozen=True)
class Entity:
    """A person, music group or organisation, with every mention of it in the article.

    ``kind`` is ``person``, ``group`` or ``organization``.

    ``mentions`` holds names, pronouns and descriptions that were resolved to it:
    later stages find "who is 'she' here" by looking up a character offset in them.
    """

    key: str
    kind: str
    name: str
    aliases: tuple[str, ...] = ()
    descriptions: tuple[str, ...] = ()
    age: int | None = None
    mentions: tuple[TextSpan, ...] = ()


@dataclass(frozen=True)
class Quote:
    """A direct quotation: the words inside the marks, and who said them if known.

    ``speaker`` is an ``Entity.key`` or None: an unattributed quotation is kept, never guessed.
    """

    span: TextSpan
    speaker: str | None = None
    cue: str | None = None
    cue_span: TextSpan | None = None
    confidence: float = 1.0
    rule: str | None = None


@dataclass(frozen=True)
class Work:
    """A song, album, film, show or other creative work.

    ``kind`` is ``song``, ``album``, ``film``, ``tv``, ``show``, ``book`` or ``work``.
    """

    key: str
    title: str
    kind: str = "work"
    creator: str | None = None
    year: int | None = None
    mentions: tuple[TextSpan, ...] = ()
    rule: str | None = None
    confidence: float = 1.0
    #: Where the text names who made it ("her hit", "'X' by Y", "the 'X' singer"): the
    #: ``creator`` key is resolved from these once coreference knows who is who.
    credits: tuple[TextSpan, ...] = ()


@dataclass(frozen=True)
class Place:
    """A venue, city, region, country or other place; ``contained_in`` is a ``Place.key``.

    ``kind`` is ``venue``, ``stadium``, ``theater``, ``city``, ``region``, ``country`` or ``place``.
    """

    key: str
    name: str
    kind: str = "place"
    contained_in: str | None = None
    mentions: tuple[TextSpan, ...] = ()


@dataclass(frozen=True)
class Event:
    """A named event (concert, residency, tour, festival, award show, game, ...).

    ``kind`` is ``music``, ``festival``, ``theater``, ``sports``, ``award`` or ``event``.
    """

    key: str
    name: str
    kind: str = "event"
    location: str | None = None
    date: When | None = None
    super_event: str | None = None
    mentions: tuple[TextSpan, ...] = ()
    rule: str | None = None
    confidence: float = 1.0
    location_rule: str | None = None
    #: Named by description ("the tribute concert", "the opening night"), not by a name of its own.
    described: bool = False


@dataclass(frozen=True)
class Performance:
    """One act performing one work (or at one event when no work is named).

    ``performer`` is an ``Entity.key``; ``work``, ``event`` and ``location`` are keys of
    the matching records; ``span`` is the sentence or clause the performance was read from.
    """

    performer: str
    span: TextSpan
    work: str | None = None
    event: str | None = None
    location: str | None = None
    date: When | None = None
    cue: str | None = None
    rule: str | None = None
    confidence: float = 1.0
    context_rule: str | None = None


@dataclass(frozen=True)
class EventMention:
    """A stretch of tokens naming an event, before mentions are merged into Events: what the
    places and works stages must not read as a place or a title."""

    start: int  # token index
    end: int
    name: str
    kind: str
    generic: bool = False
    from_model: bool = False  # a spaCy EVENT entity rather than a rule's find
    #: the head noun of an event named by description ("the final concert"), else None
    described_by: int | None = None


@dataclass(frozen=True)
class Scene:
    """The show an article is about, where and when: what every fact with no context of its own takes.

    Attributes:
        show: The key of the event the article reports, if one stands out.
        venue: The key of the venue it took place at, if the article gives one.
        city: The key of the town it took place in, if the article gives one.
        top_end: Where the top of the article (headline, standfirst, lede) ends, in characters.
        date: The day its dateline prints ("YORK, June 3 —"), if it prints one: the day the story
            was filed from the city, not a byline's or an "Updated ..." stamp's.
    """

    show: str | None = None
    venue: str | None = None
    city: str | None = None
    top_end: int = 0
    date: When | None = None

    @property
    def set(self) -> bool:
        """Whether the article reports a show or a place one took place at."""
        return self.show is not None or self.place is not None

    @property
    def place(self) -> str | None:
        """The most exact place of the scene."""
        return self.venue or self.city


@dataclass(frozen=True)
class Facts:
    """Everything extracted from one article."""

    entities: tuple[Entity, ...] = ()
    quotes: tuple[Quote, ...] = ()
    works: tuple[Work, ...] = ()
    events: tuple[Event, ...] = ()
    places: tuple[Place, ...] = ()
    performances: tuple[Performance, ...] = ()


def entity_at(entities: Iterable[Entity], start: int, end: int) -> Entity | None:
    """The entity one of whose mentions overlaps the characters ``start:end``, if any.

    This is how later stages ask "who is 'she' (or 'the folk singer') here": coreference
    records every resolved mention, pronouns and descriptions included. The tightest
    mention wins when several overlap.
    """
    best: tuple[int, Entity] | None = None
    for entity in entities:
        for m in entity.mentions:
            if m.start < end and start < m.end and (best is None or m.end - m.start < best[0]):
                best = (m.end - m.start, entity)
    return best[1] if best else None
