"""What the stages before a stage found: the one input every stage after the first is given.

Extraction runs in one direction (event names, places, works, events and the scene, people,
quotations, performances), and each stage's public function takes the facts it reads as this
record, a parameter, rather than from the Doc's extensions: only kg's spaCy components (in
``kg.nlp.factories``) read and write ``doc._``, and they build this record from it. A stage
reads only the fields of the stages before it; the rest stay empty.
"""

from __future__ import annotations

from dataclasses import dataclass

from kg.extract.model import Entity, Event, EventMention, Place, Scene, Work
from kg.extract.people.discourse import Focus
from kg.extract.text.dateline import Dateline


@dataclass(frozen=True)
class Found:
    """The facts of the stages before one, for one article.

    Attributes:
        published: The article's publication date (ISO), which dates "on Friday".
        event_mentions: The event names, before places and works are read.
        places: Venues, towns and lands.
        works: Titles, with kinds (creators once the people are known).
        events: Events, with their places and dates.
        scene: The show the article reports, where.
        entities: People, groups and organisations, every mention resolved.
        focus: Who is in focus, sentence by sentence (the discourse model).
        dateline: The wire dateline the body opens with, read once for every stage.
    """

    published: str | None = None
    event_mentions: tuple[EventMention, ...] = ()
    places: tuple[Place, ...] = ()
    works: tuple[Work, ...] = ()
    events: tuple[Event, ...] = ()
    scene: Scene = Scene()
    entities: tuple[Entity, ...] = ()
    focus: Focus | None = None
    dateline: Dateline | None = None
