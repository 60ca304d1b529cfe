"""The ``doc._`` extensions kg's components read and write.

Turned on explicitly (by the factories and by ``load_pipeline``), not at import time,
so that importing kg never changes another user's spaCy state by surprise.
"""

from __future__ import annotations

from spacy.tokens import Doc

#: Extension name -> default value. Fact lists are tuples of kg.extract.model records.
DOC_EXTENSIONS: dict[str, object] = {
    "published": None,  # ISO date of the article, set before the pipeline runs
    "original_text": None,  # the article as read, when cleaning its spaces changed it
    "entities": (),
    "quotes": (),
    "works": (),
    "events": (),
    "places": (),
    "performances": (),
    "scene": None,  # kg.extract.events.scene.Scene: the show the article reports, where
    "focus": None,  # kg.extract.people.discourse.Focus: who is in focus, sentence by sentence
    "event_mentions": (),
    "dateline": None,  # kg.extract.text.dateline.Dateline: read once, before the stages that use it  # kg.extract.events.names.EventMention: the event names, before places
}


def set_doc_extensions() -> None:
    """Register kg's Doc extensions (idempotent)."""
    for name, default in DOC_EXTENSIONS.items():
        if not Doc.has_extension(name):
            Doc.set_extension(name, default=default)
