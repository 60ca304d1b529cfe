"""Events: named events (award shows, festivals, tours, residencies, games, days) with type,
place and date.

The small English model misses most event names or mislabels them ("Zennies" as a GPE,
"Lantern Awards" as an ORG), so events are found by rule: a run of capitalised words ending
in an event word ("Awards", "Festival", "Residency", "Cup", "Day", ...), a capitalised plural
after "the" and a year ("the 2019 Zennies", the way award shows are named), or a well-known
event name, with a leading year or ordinal kept. Location and date come from the same clause
("... at V in City in August 2023"), from a clause of the event's own ("X, which returns to V
in July"), from a participle of its clause ("..., taking home three prizes at V") or from a
bare noun standing for it later ("The ceremony returns to V"), unless that speaks of another
edition ("next year").
"""

from __future__ import annotations

import re
from dataclasses import replace

from spacy.tokens import Doc, Token

from kg.extract.events.descriptions import described_events
from kg.extract.events.locations import (
    AFTER_NAME,
    IN_NAME,
    OF_VERB,
    date_after,
    date_of_verb,
    place_after,
    place_at_dateline,
    place_at_stage,
    place_from_later_clauses,
    place_index,
    place_of_verb,
    year_date,
)
from kg.extract.events.locations import SIEVES as LOCATIONS
from kg.extract.events.names import BACK_NOUNS, INNER, ORDINAL
from kg.extract.found import Found
from kg.extract.model import TOWN_KINDS, Event, EventMention, TextSpan
from kg.extract.places.lead import place_at_lead
from kg.extract.text.doc_index import (
    sentence_bounds,
)
from kg.extract.text.lexicon import function_words, tagged

_SUPER_PREPS = function_words("super-prep")
_DEFINITE = function_words("definite")
#: Last words of an event that is a series of shows in many places ("Tour", "tour").
_SERIES = tagged("event_heads", "series")

#: A Roman numeral, lower case: the edition of a game ("Super Bowl LXI").
_ROMAN = re.compile(r"[ivxlc]{1,7}")


#: The event stage's table: where an event took place, in the order the sieves decide.
SIEVES = LOCATIONS


def _award_stem(norm: str) -> tuple[str | None, str]:
    """The year and the prize of an award show's key: "2019 zenny awards" -> ("2019", "zenny").

    >>> _award_stem("2019 zennies"), _award_stem("61st annual zenny awards"), _award_stem("zenny awards 2020")
    (('2019', 'zenny'), (None, 'zenny'), ('2020', 'zenny'))
    """
    words = norm.split()
    year = words[0] if words and len(words[0]) == 4 and words[0].isdigit() else None
    words = [w for w in words[1:] if w != "annual"] if words and _undated(norm) != norm else words
    # "brit awards 2027"
    if year is None and len(words) > 1 and len(words[-1]) == 4 and words[-1].isdigit():
        year, words = words[-1], words[:-1]
    while len(words) > 1 and words[-1] in tagged("event_parts", "award-tail"):
        words = words[:-1]
    stem = " ".join(words)
    # "zennies" / "zenny", "lanterns" / "lantern"
    for plural, single in (("ies", "y"), ("s", "")):
        if stem.endswith(plural) and len(words) == 1:
            stem = stem[: -len(plural)] + single
            break
    return year, stem


def _same_award(norm: str, known: list[str]) -> str | None:
    """An award show already named another way with the same prize and no clashing year."""
    year, stem = _award_stem(norm)
    for other in known:
        other_year, other_stem = _award_stem(other)
        if (other_stem == stem or stem in _initials(other_stem) or other_stem in _initials(stem)) and (
                year == other_year or year is None or other_year is None):
            return other
    return None


def _edition_stem(norm: str) -> tuple[str | None, str]:
    """The edition and the name of an event's key: "glastonbury festival 2026" -> ("2026", "glastonbury").

    >>> _edition_stem("2019 lollapalooza"), _edition_stem("harbour lights festival"), _edition_stem("super bowl lxi")
    (('2019', 'lollapalooza'), (None, 'harbour lights'), ('lxi', 'super bowl'))
    """
    words = norm.split()
    edition = None
    for at in (-1, 0):
        if len(words) > 1 and (len(words[at]) == 4 and words[at].isdigit() or at == -1 and _ROMAN.fullmatch(words[at])):
            edition = words.pop(at)
            break
    while len(words) > 1 and words[-1] in ("festival", "fest"):
        words.pop()
    return edition, " ".join(words)


def _same_edition(norm: str, known: list[str]) -> str | None:
    """An event already named another way ("X 2026", "X Festival", "X", "X Song Contest") with no
    clashing edition: the same words, or a one-word name that begins the other."""
    edition, stem = _edition_stem(norm)
    for other in known:
        other_edition, other_stem = _edition_stem(other)
        short, long = sorted((stem.split(), other_stem.split()), key=len)
        if (stem == other_stem or len(short) == 1 and long[0] == short[0]) and (
                edition == other_edition or edition is None or other_edition is None):
            return other
    return None


def _prefer_name(kind: str, new: str, old: str) -> bool:
    """Whether a second name of one event names it better: a festival without its year
    ("Glastonbury Festival" over "Glastonbury 2026"), anything else with its edition or in full."""
    (new_edition, new_stem), (old_edition, old_stem) = _edition_stem(new), _edition_stem(old)
    if kind == "festival":
        return bool(old_edition) and not new_edition or len(new_stem) > len(old_stem) and new_edition in (None,
                                                                                                      old_edition)
    return bool(new_edition) and not old_edition or len(new_stem) > len(old_stem) and new_edition == old_edition


def _initials(stem: str) -> tuple[str, ...]:
    """The initialisms a long prize name goes by, with and without the A of "Awards".

    >>> _initials("country music association"), _initials("zenny")
    (('cma', 'cmaa'), ())
    """
    words = [w for w in stem.split() if w not in INNER]
    letters = "".join(w[0] for w in words)
    return (letters, letters + "a") if len(words) >= 2 else ()


def _undated(norm: str) -> str:
    """An event key without its leading year or ordinal: "2019 zennies" -> "zennies".

    >>> _undated("65th annual lantern awards"), _undated("2019 zennies")
    ('annual lantern awards', 'zennies')
    """
    head, _, rest = norm.partition(" ")
    if rest and (head.isdigit() and len(head) == 4 or ORDINAL.fullmatch(head) is not None):
        return rest
    return norm


def _chars(doc: Doc, m: EventMention) -> range:
    """The character offsets an event mention covers."""
    return range(doc[m.start].idx, doc[m.end - 1].idx + len(doc[m.end - 1].text))


def _norm(name: str) -> str:
    """The merge key of an event name: case, curly apostrophes and spacing ignored."""
    return " ".join(name.replace("’", "'").lower().split())


def extract_events(doc: Doc, found: Found) -> tuple[Event, ...]:
    """Named events in order of first mention, with location, date and parent event.

    Mentions with the same name (ignoring case and a leading "the") are one event.
    A generic part ("the opening night") becomes an event whose ``super_event`` is
    the named event it is "of", else the last named event before it.
    """
    mentions = _event_mentions(doc, found)
    if not mentions:
        return ()
    reading = _Reading(doc, found, mentions)
    for m in mentions:
        merged = _merge_key(reading, m)
        if merged is not None:
            _record(reading, *merged)
    data, order, place_starts = reading.data, reading.order, reading.place_starts
    place_from_later_clauses(doc, data, order, place_starts, reading.event_tokens, found.places, found.published)
    place_at_stage(doc, data, order, place_starts, found.places)
    _place_inside_names(doc, data, order, place_starts)
    place_at_lead(doc, data, order, found.places)
    place_at_dateline(doc, data, order, found.places, found.dateline)
    return _to_events(data, order)


def _event_mentions(doc: Doc, found: Found) -> list[EventMention]:
    """The event names, less titles, and the events the article names by describing them."""
    # a title the works stage found ("the X actor") is no event, even if spaCy says so
    titled = {k for w in found.works for m in w.mentions for k in range(m.start, m.end)}
    mentions = [m for m in found.event_mentions if not titled.intersection(_chars(doc, m))]
    # events the article names by describing them ("the funeral of X at V")
    taken = {k for m in mentions for k in range(m.start, m.end)}
    return sorted([*mentions, *described_events(doc, taken, found.places)], key=lambda m: m.start)


class _Reading:
    """The events read so far (by merge key, in order of first mention) and what every mention asks."""

    def __init__(self, doc: Doc, found: Found, mentions: list[EventMention]) -> None:
        self.doc, self.found, self.mentions = doc, found, mentions
        self.place_starts = place_index(doc, found.places)
        self.place_kinds = {p.key: p.kind for p in found.places}
        self.mention_starts = {m.start for m in mentions}
        self.event_tokens = frozenset(k for m in mentions for k in range(m.start, m.end))
        self.sent_ends = sentence_bounds(doc)[1]
        self.order: list[str] = []
        self.data: dict[str, dict] = {}
        self.last_named: str | None = None
        self.dated: dict[str, str] = {}

    def same_kind(self, kind: str, generic: bool | None = None) -> list[str]:
        return [n for n in self.order if self.data[n]["kind"] == kind and (generic is None
                                                                           or self.data[n]["generic"] == generic)]


def _merge_key(reading: _Reading, m: EventMention) -> tuple[str, EventMention] | None:
    """The key of the event a mention names (one already read under another name, or its own),
    or None for a bare part of nothing ("the final" with no event before it)."""
    data, doc = reading.data, reading.doc
    # "the Zennies" after "the 2019 Zennies" is the same night
    norm = reading.dated.get(_norm(m.name), _norm(m.name))
    # "the 2019 Zennies" and "the 2019 Zenny Awards": one show under two names
    if norm not in data and m.kind == "award":
        same = _same_award(norm, reading.same_kind("award"))
        # "the CMA Awards", then "the Country Music Association Awards": named in full
        if same is not None and len(_award_stem(norm)[1]) > len(_award_stem(same)[1]):
            data[same]["name"] = m.name
        norm = same or norm
    # "Glastonbury 2026", then "Glastonbury Festival": one festival, named without its year;
    # "the Super Bowl" and "Super Bowl LXI" one game, named with its number
    if norm not in data and m.kind != "award" and not m.generic:
        same = _same_edition(norm, reading.same_kind(m.kind, generic=False))
        if same is not None and _prefer_name(m.kind, norm, same):
            data[same]["name"] = m.name
        norm = same or norm
    # "the celebratory concert in C" after "the X Concert": a description of the show named before
    norm = _described_back(doc, m, data, reading.order) or norm
    if m.generic and m.end - m.start == 1:
        # "the final" alone: a part of the event named before it ("the Brindle Cup final"), that event
        # itself when it is one ("the Y Cup final ... The final will be played at V"), else nothing
        parent = _super_of(doc, m, reading.mentions, reading.sent_ends[m.start]) or _super_by_noun(
            doc, m, data, reading.order) or reading.last_named
        if parent is None:
            return None
        if parent in data and data[parent]["name"].lower().split()[-1] == norm:
            norm, m = parent, replace(m, generic=False)
    base = _undated(norm)
    if base != norm:
        reading.dated.setdefault(base, norm)
    return norm, m


def _record(reading: _Reading, norm: str, m: EventMention) -> None:
    """Add a mention to its event: the mention, and the place, date and parent its clause gives."""
    doc, data, published = reading.doc, reading.data, reading.found.published
    if norm not in data:
        reading.order.append(norm)
        data[norm] = dict(name=m.name, kind=m.kind, mentions=[], location=None, date=None, super=None,
                          generic=m.generic, location_rule=None, described=m.generic or m.described_by is not None)
    rec = data[norm]
    sent_end = reading.sent_ends[m.start]
    stops = {k for k in reading.mention_starts if k >= m.end}
    start_char, end_char = doc[m.start].idx, doc[m.end - 1].idx + len(doc[m.end - 1].text)
    rec["mentions"].append(TextSpan(start_char, end_char, doc[m.start : m.end].text))
    # a venue named later beats a town named first ("X in Denver" ... "X at the Summit Arena")
    kinds = reading.place_kinds
    if rec["location"] is None or kinds.get(rec["location"]) in TOWN_KINDS:
        placed, rule = place_after(doc, m.end, sent_end, reading.place_starts, stops), AFTER_NAME
        if placed is None:
            placed, rule = place_of_verb(doc, m, reading.place_starts), OF_VERB
        if placed is not None and (rec["location"] is None or kinds.get(placed) not in TOWN_KINDS):
            rec["location"], rec["location_rule"] = placed, rule.id
    if rec["date"] is None:
        rec["date"] = date_after(doc, m.end, sent_end, stops, published, reading.event_tokens) or date_of_verb(
            doc, m, published)
    if m.generic and rec["super"] is None:
        rec["super"] = _super_of(doc, m, reading.mentions, sent_end) or _super_by_noun(
            doc, m, data, reading.order) or reading.last_named
    elif not m.generic:
        parent = _super_of(doc, m, reading.mentions, sent_end)
        if parent and rec["super"] is None and parent != norm:
            rec["super"] = parent
        reading.last_named = norm


def _place_inside_names(doc: Doc, data: dict[str, dict], order: list[str], place_starts: dict[int, str]) -> None:
    """A location inside the name ("the Reno residency") when none is given after it; a year in
    the name dates the event when nothing else does."""
    for norm in order:
        rec = data[norm]
        if rec["location"] is None:
            for m in rec["mentions"]:
                span = doc.char_span(m.start, m.end, alignment_mode="expand")
                if span is not None and span[-1].text in _SERIES:
                    # ("the India Tour" goes through India; its shows are placed where they were)
                    continue
                inner = [place_starts[k] for k in range(span.start, span.end) if k in place_starts] if span else []
                if inner:
                    rec["location"], rec["location_rule"] = inner[-1], IN_NAME.id
                    break
        if rec["date"] is None:
            rec["date"] = next(filter(None, (year_date(m.text, m) for m in rec["mentions"])), None)


def _to_events(data: dict[str, dict], order: list[str]) -> tuple[Event, ...]:
    keys = {norm: f"event:{i}" for i, norm in enumerate(order, 1)}
    return tuple(
        Event(
            key=keys[norm],
            name=_part_name(data, norm),
            kind=data[norm]["kind"],
            location=data[norm]["location"],
            location_rule=data[norm]["location_rule"] if data[norm]["location"] else None,
            date=data[norm]["date"],
            super_event=keys.get(data[norm]["super"]) if data[norm]["super"] else None,
            mentions=tuple(data[norm]["mentions"]),
            described=data[norm]["described"],
        )
        for norm in order
    )


def _described_back(doc: Doc, m: EventMention, data: dict[str, dict], order: list[str]) -> str | None:
    """The named event a definite description stands for: "the celebratory concert" after "the X Concert".

    A bare "the concert" refers back to the last concert named (``referred_event``); adjectives
    before the noun describe it, they do not make it another one. A description with its own
    owner ("the funeral of X", "the final concert of the Y series") or place ("the Denver
    concert") names an event of its own.
    """
    if m.described_by is None or m.end != m.described_by + 1 or doc[m.start - 1].lower_ not in _DEFINITE:
        return None
    # "the Denver concert" of a tour is one night of it, not the tour
    if not all(t.is_lower for t in doc[m.start : m.end]):
        return None
    kinds = BACK_NOUNS.get(doc[m.described_by].lower_)
    if kinds is None:
        return None
    before = [n for n in order if not data[n]["generic"] and (not kinds or data[n]["kind"] in kinds)]
    return before[-1] if before else None


def referred_event(events: tuple[Event, ...], token: Token) -> str | None:
    """The event a bare noun stands for: "the festival", "the three-day event", "last year's festival".

    It is the last event of the noun's kinds named before it (parts of events left out); the
    noun must be definite (an article, a demonstrative or a possessor), not "a festival".
    """
    kinds = BACK_NOUNS.get(token.lower_)
    if kinds is None or token.pos_ != "NOUN" or not any(
        c.dep_ == "poss" or c.lower_ in function_words("definite") for c in token.children
    ):
        return None
    before = [e for e in events if e.super_event is None and e.mentions[0].start < token.idx
              and (not kinds or e.kind in kinds)]
    return before[-1].key if before else None


def _part_name(data: dict[str, dict], norm: str) -> str:
    """An event's name; a generic part is named after the event it is part of ("X Festival opening night").

    "opening night" alone would name a different night in every article of a corpus.
    """
    rec = data[norm]
    parent = data.get(rec["super"]) if rec["generic"] and rec["super"] else None
    return f'{parent["name"]} {rec["name"]}' if parent else rec["name"]


def _super_of(doc: Doc, m: EventMention, mentions: list[EventMention], sent_end: int) -> str | None:
    """The named event this one is part of: "the opening night of X", "a set at X", "... during X"."""
    i = m.end
    if i < sent_end and doc[i].lower_ in _SUPER_PREPS:
        j = i + 1
        # "of the X", "of their X"
        while j < sent_end and (doc[j].pos_ == "DET" or doc[j].tag_ == "PRP$"):
            j += 1
        for other in mentions:
            if other.start == j and not other.generic:
                return _norm(other.name)
    return None


def _super_by_noun(doc: Doc, m: EventMention, data: dict[str, dict], order: list[str]) -> str | None:
    """The event a generic part is "of" when a bare noun names it: "the second night of last year's festival"."""
    if m.end >= len(doc) or doc[m.end].lower_ != "of":
        return None
    noun = next((c for c in doc[m.end].children if c.dep_ == "pobj"), None)
    kinds = BACK_NOUNS.get(noun.lower_) if noun is not None else None
    if kinds is None:
        return None
    before = [n for n in order if not data[n]["generic"] and (not kinds or data[n]["kind"] in kinds)]
    return before[-1] if before else None


