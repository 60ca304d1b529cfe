"""Long articles in pieces: cut at paragraph breaks, each piece parsed alone, the facts joined again.

One Doc of a whole long article costs more than its length. spaCy's parser and entity
recogniser hold working memory in proportion to the Doc (1.6 GB for 400,000 characters,
2.9 GB for 800,000), and several of kg's extractors look across the whole Doc for each
mention or date they weigh, so time grew faster than the length: 400,000 characters
took three to four times as long as 200,000. Pieces of at most :data:`CHUNK_CHARS`
characters bound both, so time and memory grow with the text. An article of that
length or less (nearly all news) is one piece and is read exactly as before.

What a cut loses is what reads across it: a pronoun or "the singer" at the start of a
piece has nothing before it to point at. So a cut goes at a blank line where it can,
preferably before a paragraph that stands on its own, not one that opens with a
quotation mark (the next paragraph of a quotation) or with a word that points back
("He", "The", "But"); failing a blank line, at a line break, a sentence end, a space.

Joining (:func:`join_facts`) moves every span by its piece's offset; records the graph
would make one node of (agents of one kind and name, works of one title, places and
events of one name) become one record with the mentions of all; keys are numbered
afresh and references follow them. A surname alone in a later piece is tied to the full
name where the graph is made (:mod:`kg.rdf.resolve`), as a surname in another article is.
"""

from __future__ import annotations

import dataclasses
import re
from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any

from kg.extract.model import Facts, TextSpan
from kg.nlp.text import map_spans

__all__ = ["CHUNK_CHARS", "chunk_bounds", "join_facts"]

#: Most characters in one piece. Time per character is lowest for small pieces (the
#: extraction of a 400,000-character article: 15.5 CPU s in pieces of 10,000, 16.5 of
#: 20,000, 18.5 of 50,000, 56 to 63 whole) but every cut may lose a link; 20,000
#: characters (some 3,500 words) leaves nearly every news article whole.
CHUNK_CHARS = 20_000

# Where a piece may end, best first: the piece ends at a match's start, the next begins at its end.
_BREAKS = (
    re.compile(r"[ \t]*\n[ \t]*\n\s*"),  # a blank line
    re.compile(r"[ \t]*\n\s*"),  # a line break
    re.compile(r"(?<=[.!?])[\"'”’)]*\s+"),  # a sentence end
    re.compile(r"\s+"),  # a space
)
_OPENING_MARKS = frozenset("\"'“‘«„‹")
#: First words of a paragraph that lean on the one before it.
_POINTS_BACK = frozenset(
    "he she they it his her their its him them this that these those the but and so yet also "
    "then there here such both".split()
)
_FIRST_WORD = re.compile(r"[^\W\d_]+")

# Which kind of record each reference field of the facts points at.
_REFERENCES = {
    "creator": "agent",
    "speaker": "agent",
    "performer": "agent",
    "contained_in": "place",
    "location": "place",
    "super_event": "event",
    "event": "event",
    "work": "work",
}


def chunk_bounds(text: str, limit: int = CHUNK_CHARS) -> list[tuple[int, int]]:
    """``(start, end)`` of each piece of ``text``, in order, each at most ``limit`` characters.

    A text of ``limit`` characters or fewer is one piece, ``(0, len(text))``. The
    whitespace between two pieces belongs to neither. Each piece is at least half the
    limit long (but the last), so a text has at most about ``2 * len(text) / limit`` pieces.

    >>> chunk_bounds("One.\\n\\nTwo.\\n\\nThree.", limit=12)
    [(0, 10), (12, 18)]
    >>> chunk_bounds("Ana sang.\\n\\nBo sang.\\n\\n“Yes,” she said.", limit=19)
    [(0, 9), (11, 19), (21, 37)]
    """
    if limit < 1:
        raise ValueError(f"a piece holds at least one character, not {limit}")
    bounds: list[tuple[int, int]] = []
    start = 0
    while len(text) - start > limit:
        end, start_next = _cut(text, start, start + limit)
        bounds.append((start, end))
        start = start_next
    bounds.append((start, len(text)))
    return bounds


def _cut(text: str, start: int, stop: int) -> tuple[int, int]:
    """Where the piece that begins at ``start`` ends (at most ``stop``), and where the next begins."""
    low = start + (stop - start) // 2
    for number, pattern in enumerate(_BREAKS):
        # A break must leave the piece non-empty and end it by ``stop``; the search is a
        # bounded window, so cutting a whole text is linear in its length.
        breaks = [m for m in pattern.finditer(text, low, stop + 1) if m.start() > start]
        if not breaks:
            continue
        # The window may start or end inside the whitespace: neither piece keeps any of it.
        cuts = [(_before_space(text, m.start(), start), _past_space(text, m.end())) for m in breaks]
        if number == 0:
            cuts = [cut for cut in cuts if _stands_alone(text, cut[1])] or cuts
        return cuts[-1]
    return stop, stop


def _before_space(text: str, at: int, floor: int) -> int:
    """The position just after the last non-space character before ``at`` (above ``floor``)."""
    while at > floor + 1 and text[at - 1].isspace():
        at -= 1
    return at


def _past_space(text: str, at: int) -> int:
    """The first position from ``at`` on that is not whitespace (or the end)."""
    while at < len(text) and text[at].isspace():
        at += 1
    return at


def _stands_alone(text: str, at: int) -> bool:
    """Whether the paragraph starting at ``at`` reads without the one before it.

    >>> _stands_alone("Ana Rivera sang.", 0), _stands_alone("She sang.", 0), _stands_alone("“Yes.”", 0)
    (True, False, False)
    """
    if at >= len(text) or text[at] in _OPENING_MARKS:
        return False
    word = _FIRST_WORD.match(text, at)
    return word is None or word.group().lower() not in _POINTS_BACK


def join_facts(parts: Iterable[tuple[int, Facts]]) -> Facts:
    """One article's facts from its pieces' facts, each given with the offset of its piece in the article.

    Spans are moved by the offset (their text is unchanged: a piece is a slice of the
    article). Agents of one kind and name, works of one title, places and events of one
    name are one record: its key and first value of each field come from its first
    piece, its mentions, aliases and descriptions from all pieces in order.
    """
    joined = _Joined()
    for offset, facts in parts:
        joined.add(map_spans(facts, _shift(offset)))
    return joined.facts()


def _shift(offset: int) -> Callable[[TextSpan], TextSpan]:
    return lambda span: TextSpan(span.start + offset, span.end + offset, span.text)


class _Joined:
    """The records of the pieces read so far, one per identity, under fresh keys."""

    def __init__(self) -> None:
        # record kind -> identity -> joined record
        self.records: dict[str, dict[object, Any]] = {"agent": {}, "work": {}, "place": {}, "event": {}}
        self.numbers: Counter[str] = Counter()
        self.quotes: list[Any] = []
        self.performances: list[Any] = []

    def add(self, facts: Facts) -> None:
        """Take one piece's facts (spans already in article offsets)."""
        groups = (
            ("agent", facts.entities, lambda e: (e.kind, e.name)),
            ("work", facts.works, lambda w: w.title),
            ("place", facts.places, lambda p: p.name),
            ("event", facts.events, lambda e: e.name),
        )
        # Keys first, so that a reference to any record of the piece finds its new key.
        keys: dict[tuple[str, str], str] = {}
        for kind, records, identity in groups:
            for record in records:
                known = self.records[kind].get(identity(record))
                keys[kind, record.key] = known.key if known is not None else self._new_key(record.key)
        for kind, records, identity in groups:
            for record in records:
                record = _rekeyed(record, keys, keys[kind, record.key])
                known = self.records[kind].get(identity(record))
                self.records[kind][identity(record)] = record if known is None else _merged(known, record)
        self.quotes += (_rekeyed(quote, keys) for quote in facts.quotes)
        self.performances += (_rekeyed(performance, keys) for performance in facts.performances)

    def _new_key(self, key: str) -> str:
        """The next free key of the same prefix: ``person:3`` of a piece may become ``person:12``."""
        prefix = key.rpartition(":")[0] or key
        self.numbers[prefix] += 1
        return f"{prefix}:{self.numbers[prefix]}"

    def facts(self) -> Facts:
        return Facts(
            entities=tuple(self.records["agent"].values()),
            quotes=tuple(self.quotes),
            works=tuple(self.records["work"].values()),
            events=tuple(self.records["event"].values()),
            places=tuple(self.records["place"].values()),
            performances=tuple(self.performances),
        )


def _rekeyed(record: Any, keys: dict[tuple[str, str], str], key: str | None = None) -> Any:
    """``record`` under its new ``key`` (when it has one), each reference to the new key of its target.

    A reference to nothing among the piece's records becomes None, as the mapping reads it.
    """
    changes: dict[str, object] = {} if key is None else {"key": key}
    for field in dataclasses.fields(record):
        kind = _REFERENCES.get(field.name)
        value = getattr(record, field.name)
        if kind is not None and value is not None:
            changes[field.name] = keys.get((kind, value))
    return dataclasses.replace(record, **changes)


def _merged(first: Any, later: Any) -> Any:
    """One record of two of the same identity: tuples (mentions, aliases) joined, else the first value given."""
    changes: dict[str, object] = {}
    for field in dataclasses.fields(first):
        mine, theirs = getattr(first, field.name), getattr(later, field.name)
        if isinstance(mine, tuple):
            changes[field.name] = tuple(dict.fromkeys(mine + theirs))
        elif mine is None:
            changes[field.name] = theirs
    return dataclasses.replace(first, **changes)
