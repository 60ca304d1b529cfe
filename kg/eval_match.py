"""How ``kg eval`` decides that an extracted fact and a gold item are the same thing.

Matching is deliberately forgiving about form and strict about substance, so that a
score measures what was understood, not how it was spelled:

* Names match when equal ignoring case and punctuation, or when the words of one
  contain the words of the other and the shorter has at least two words or half
  as many as the longer ("Rivera" / "Ana Rivera", "Copper Hollows" / "The Copper Hollows").
* Quotation texts match when the words they share are at least half of each.
* A predicted speaker or performer matches when its name or any alias matches the
  gold name or any of the gold person's aliases.
* Places follow the predicted containment chain: an event at a venue inside a
  city matches gold that names only the city.

They follow the rules the project's held-out figures are scored by, so ``kg eval``
on annotated articles predicts them.
:class:`FactsView` turns the keys of extracted Facts into the names and chains of
names that gold annotations use; both the scores (:mod:`kg.eval`) and the per-sieve
report (:mod:`kg.eval_rules`) compare through it.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from kg.extract.model import Entity, Event, Facts, Performance, Place, Work

__all__ = [
    "FactsView",
    "any_names_match",
    "event_label",
    "max_matching",
    "names_match",
    "performance_label",
    "quote_label",
    "texts_match",
]

_APOSTROPHES = str.maketrans("", "", "'\u2019\u2018\u02bc")
_WORD = re.compile(r"\w+")
_LABEL_WIDTH = 60


def names_match(a: str, b: str) -> bool:
    """Whether two names denote the same thing, by the rule in the module docstring.

    >>> names_match("Ana Rivera", "rivera")
    True
    >>> names_match("Copper Hollows", "The Copper Hollows!")
    True
    >>> names_match("Park", "Park Halvorsen Arena Tacoma")
    False
    """
    wa, wb = _words(a), _words(b)
    if not wa or not wb:
        return False
    if wa == wb:
        return True
    short, long_ = sorted((wa, wb), key=len)
    if not set(short) <= set(long_):
        return False
    # Containment counts only when the shorter name is substantial.
    return len(short) >= 2 or 2 * len(short) >= len(long_)


def texts_match(a: str, b: str) -> bool:
    """Whether two quotation texts are the same quotation: shared words are at least half of each.

    >>> texts_match("I love this city,", "I love this city")
    True
    >>> texts_match("I love this city and its people and its music", "I love it")
    False
    """
    wa, wb = Counter(_words(a)), Counter(_words(b))
    shared = sum((wa & wb).values())
    na, nb = sum(wa.values()), sum(wb.values())
    return bool(na and nb) and 2 * shared >= na and 2 * shared >= nb


def any_names_match(names: Sequence[str], others: Sequence[str]) -> bool:
    """Whether any name of one list matches any name of the other (a person's aliases on either side).

    >>> any_names_match(("Ana Rivera", "Rivera"), ("rivera",))
    True
    >>> any_names_match((), ("Rivera",))
    False
    """
    return any(names_match(a, b) for a in names for b in others)


def _words(text: str) -> list[str]:
    """Lower-cased words, apostrophes dropped so "it\u2019s" and "its" agree."""
    return _WORD.findall(text.casefold().translate(_APOSTROPHES))


def max_matching(edges: list[list[int]], n_gold: int) -> dict[int, int]:
    """Maximum bipartite matching (Kuhn's augmenting paths): gold index -> prediction index.

    ``edges[p]`` lists the gold items prediction ``p`` matches. A maximum matching, not a
    greedy one, so the order facts come in never changes a score.

    >>> max_matching([[0, 1], [0]], 2)
    {0: 1, 1: 0}
    """
    owner: dict[int, int] = {}

    def _augment(p: int, seen: set[int]) -> bool:
        for g in edges[p]:
            if g in seen:
                continue
            seen.add(g)
            if g not in owner or _augment(owner[g], seen):
                owner[g] = p
                return True
        return False

    for p in range(len(edges)):
        if len(owner) == n_gold:
            break
        _augment(p, set())
    return owner


class FactsView:
    """Extracted facts resolved from keys to the names a gold annotation compares them by.

    Args:
        facts: What was extracted from one article.
    """

    def __init__(self, facts: Facts) -> None:
        self.facts = facts
        self._entities: dict[str, Entity] = {e.key: e for e in facts.entities}
        self._works: dict[str, Work] = {w.key: w for w in facts.works}
        self._places: dict[str, Place] = {p.key: p for p in facts.places}
        self._events: dict[str, Event] = {e.key: e for e in facts.events}

    def name(self, key: str | None) -> str | None:
        """An agent's name; the key itself when it names no entity (so a report still shows something)."""
        entity = self._entities.get(key) if key else None
        return entity.name if entity else key

    def entity_names(self, key: str | None) -> tuple[str, ...]:
        """An agent's name and aliases; empty when the key names no entity."""
        entity = self._entities.get(key) if key else None
        return (entity.name, *entity.aliases) if entity else ()

    def work_title(self, key: str | None) -> str | None:
        """The title of the work a key names, or None."""
        work = self._works.get(key) if key else None
        return work.title if work else None

    def event_keys(self, key: str | None) -> list[str]:
        """An event and its super-events, innermost first (cycles cut)."""
        keys: list[str] = []
        while key and key in self._events and key not in keys:
            keys.append(key)
            key = self._events[key].super_event
        return keys

    def event_names(self, key: str | None) -> tuple[str, ...]:
        """The names of an event and its super-events, innermost first."""
        return tuple(self._events[k].name for k in self.event_keys(key))

    def place_names(self, key: str | None) -> tuple[str, ...]:
        """A place's name and the names of the places containing it (cycles cut)."""
        names: list[str] = []
        seen: set[str] = set()
        while key and key in self._places and key not in seen:
            seen.add(key)
            names.append(self._places[key].name)
            key = self._places[key].contained_in
        return tuple(names)

    def event_places(self, key: str | None) -> tuple[str, ...]:
        """Every place an event and its super-events are at, each with the places containing it."""
        return tuple(n for k in self.event_keys(key) for n in self.place_names(self._events[k].location))

    def where(self, performance: Performance) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """The event names and place names a performance is placed by: its own, then its events'."""
        places = self.place_names(performance.location) + self.event_places(performance.event)
        return self.event_names(performance.event), places


# --- labels: how an item is named in a report ------------------------------------------


def _short(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= _LABEL_WIDTH else text[: _LABEL_WIDTH - 1] + "\u2026"


def quote_label(text: str, speaker: str | None) -> str:
    """A quotation as a report lists it: its text, cut short, and its speaker (``?`` when none)."""
    return f"\u201c{_short(text)}\u201d \u2014 {speaker or '?'}"


def performance_label(
    performer: str | None, work: str | None, event: str | None = None, places: Sequence[str] = ()
) -> str:
    """A performance as a report lists it: ``performer: work @ event / venue / city``."""
    label = f"{performer or '?'}: {work or '(no work)'}"
    where = [x for x in (event, *places) if x]
    return f"{label} @ {' / '.join(where)}" if where else label


def event_label(event: str, places: Sequence[str]) -> str:
    """An event at its places as a report lists it."""
    return f"{event} @ {' / '.join(places)}"
