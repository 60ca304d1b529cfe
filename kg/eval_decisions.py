"""Each sieve decision in one article's facts judged against its gold annotation, and each miss explained.

Every quotation, work, event and performance names the sieve that decided it
(``rule``), and events and performances the sieve that placed them
(``location_rule``, ``context_rule``). Each such decision is judged on its own, so a
sieve that is often wrong shows up by name (:mod:`kg.eval_rules` adds them up), and
each required gold item that was not found right gets the earliest step that failed
("no candidate", "pair not found"...), so the next mechanism to build is the one
behind the largest count. A decision whose sieve is not named falls under ``(none)``.

A decision is **right**, **wrong**, or **unjudged** (it fired, but the gold cannot say):

* a quotation is right when its text matches a required gold quote and its speaker
  matches that quote's speaker (a gold quote with ``"speaker": null`` is judged by its
  text only); it is unjudged when it matches only an optional gold quote, wrong when it
  matches no gold quote or names no or another speaker;
* a performance is right when performer and work match a required gold performance;
  one of no named work is unjudged (gold lists only performances of named works);
* a performance's context rule is judged only on performances that are right: right
  when its event, venue or city (following its events and the places containing its
  place) matches the gold context, as the reference scorer's ``performed_work_where``
  does: the gold venue or city, or the gold event when the gold gives no place;
* an event's location rule is right when the event's name and its own place (or a
  place containing it) match a required gold ``event_venues`` item; a placed event the
  gold does not place is wrong;
* a work is right when its title matches a required gold work or the work of a
  required gold performance.

The matching rules are those of the scores (:mod:`kg.eval_match`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from kg.eval_match import (
    FactsView,
    any_names_match,
    event_label,
    names_match,
    performance_label,
    quote_label,
    texts_match,
)
from kg.extract.model import Event, Facts, Performance, Quote
from kg.gold import check_gold, gold_aliases, gold_names
from kg.io.article import Article

__all__ = [
    "GROUPS",
    "MISS_REASONS",
    "NO_RULE",
    "RIGHT",
    "UNJUDGED",
    "WRONG",
    "ArticleRules",
    "Decision",
    "Miss",
    "judge",
]

#: The kinds of decision, in report order: what the sieve of each decided.
GROUPS = ("quotes", "performances", "performance context", "event location", "works")
#: Why a required gold item was not found, by kind, from the earliest step that failed.
MISS_REASONS: dict[str, tuple[str, ...]] = {
    "quotes": ("no candidate", "no speaker", "wrong speaker"),
    "performances": ("work not found", "performer not found", "pair not found", "not placed", "wrong place"),
    "events": ("event not found", "not placed", "wrong place"),
}
#: The rule reported for a decision whose sieve is not named.
NO_RULE = "(none)"

#: How the gold judges a decision: it matches a required item, it does not, or the gold cannot say.
RIGHT, WRONG, UNJUDGED = "right", "wrong", "unjudged"


@dataclass(frozen=True)
class Decision:
    """One decision of one sieve and how the gold judges it.

    ``outcome`` is ``"right"``, ``"wrong"`` or ``"unjudged"``; ``why`` says what the
    gold has instead when it is wrong.
    """

    group: str
    rule: str
    outcome: str
    label: str
    why: str = ""


@dataclass(frozen=True)
class Miss:
    """A required gold item that was not found right, and the earliest step that failed."""

    kind: str
    reason: str
    label: str


@dataclass(frozen=True)
class ArticleRules:
    """The decisions and misses of one article."""

    source: str
    decisions: tuple[Decision, ...] = ()
    misses: tuple[Miss, ...] = ()


def judge(gold: dict, article: Article, facts: Facts) -> ArticleRules:
    """Judge every sieve decision in the facts of one article, and explain each miss.

    Args:
        gold: The article's gold annotation (docs/gold-format.md).
        article: The article the facts were extracted from.
        facts: The extracted facts.

    Raises:
        InputError: If the gold annotation is malformed.
    """
    check_gold(gold, f"gold for {article.source or article.id}")
    judging = _Judge(gold, FactsView(facts))
    decisions = [
        *(judging.quote(q) for q in facts.quotes),
        *(judging.performance(p) for p in facts.performances),
        *(d for p in facts.performances if (d := judging.context(p)) is not None),
        *(d for e in facts.events if (d := judging.location(e)) is not None),
        *(judging.work(w.title, w.rule) for w in facts.works),
    ]
    return ArticleRules(gold["source"], tuple(decisions), tuple(judging.misses()))


class _Judge:
    """One article's gold, and the facts resolved to names, with the judgement of each kind of decision."""

    def __init__(self, gold: dict, view: FactsView) -> None:
        self.gold = gold
        self.view = view
        self.aliases = gold_aliases(gold)
        # Only performances of a named work are judged, as gold lists only those for sure.
        self.performances = [g for g in gold.get("performances", []) if g.get("work")]

    # --- decisions ----------------------------------------------------------------------

    def quote(self, quote: Quote) -> Decision:
        """A quotation: its text and speaker against the gold quotes."""
        view = self.view
        names = view.entity_names(quote.speaker)
        label = quote_label(quote.span.text, view.name(quote.speaker))
        same_text = [g for g in self.gold.get("quotes", []) if texts_match(quote.span.text, g["text"])]
        said = [g for g in same_text if self._said_by(g, names)]
        required = [g for g in same_text if not g.get("optional")]
        why = f"gold: {required[0]['speaker']}" if required else "no gold quote"
        return _decision("quotes", quote.rule, _outcome(said, same_text), label, why)

    def performance(self, performance: Performance) -> Decision:
        """A performance: performer and work against the gold performances."""
        label = self._performance_label(performance)
        if self.view.work_title(performance.work) is None:
            return _decision("performances", performance.rule, UNJUDGED, label)
        outcome = _outcome(self._same_pair(performance), [])
        return _decision("performances", performance.rule, outcome, label, "no gold performance")

    def context(self, performance: Performance) -> Decision | None:
        """Where a performance was placed, judged only when the performance itself is right."""
        events, places = self.view.where(performance)
        if not events and not places:
            return None
        label = self._performance_label(performance)
        pairs = self._same_pair(performance)
        required = [g for g in pairs if not g.get("optional")]
        if not required:
            return _decision("performance context", performance.context_rule, UNJUDGED, label)
        placed = [g for g in pairs if _context_matches(g, events, places)]
        why = "gold: " + (_gold_where(required[0], "event", "venue", "city") or "no place")
        return _decision("performance context", performance.context_rule, _outcome(placed, pairs), label, why)

    def location(self, event: Event) -> Decision | None:
        """Where an event was placed: its own place and the places containing it."""
        places = self.view.place_names(event.location)
        if not places:
            return None
        named = [g for g in self.gold.get("event_venues", []) if names_match(event.name, g["event"])]
        placed = [g for g in named if _place_matches(g, places)]
        required = [g for g in named if not g.get("optional")]
        why = "gold places no such event"
        if required:
            why = "gold: " + (_gold_where(required[0], "venue", "city") or "no place")
        label = event_label(event.name, places)
        return _decision("event location", event.location_rule, _outcome(placed, named), label, why)

    def work(self, title: str, rule: str | None) -> Decision:
        """A work: its title against the gold works and the works of gold performances."""
        golds = [*self.gold.get("works", []), *({**g, "title": g["work"]} for g in self.performances)]
        same = [g for g in golds if names_match(title, g["title"])]
        return _decision("works", rule, _outcome(same, []), title, "not a gold work")

    # --- misses -------------------------------------------------------------------------

    def misses(self) -> list[Miss]:
        """Every required gold quote, performance and placed event not found right, with why."""
        found = [
            *(self._quote_miss(g) for g in self.gold.get("quotes", []) if not g.get("optional")),
            *(self._performance_miss(g) for g in self.performances if not g.get("optional")),
            *(
                self._event_miss(g)
                for g in self.gold.get("event_venues", [])
                if not g.get("optional") and (g.get("venue") or g.get("city"))
            ),
        ]
        return [m for m in found if m is not None]

    def _quote_miss(self, gold: dict) -> Miss | None:
        label = quote_label(gold["text"], gold["speaker"])
        quotes = [q for q in self.view.facts.quotes if texts_match(q.span.text, gold["text"])]
        speakers = [self.view.entity_names(q.speaker) for q in quotes]
        if any(self._said_by(gold, names) for names in speakers):
            return None
        if not quotes:
            return Miss("quotes", "no candidate", label)
        if not any(speakers):
            return Miss("quotes", "no speaker", label)
        return Miss("quotes", "wrong speaker", f"{label} (found: {', '.join(n[0] for n in speakers if n)})")

    def _performance_miss(self, gold: dict) -> Miss | None:
        view = self.view
        label = performance_label(gold["performer"], gold["work"], gold.get("event"), _gold_places(gold))
        performer = gold_names(gold["performer"], self.aliases)
        if not any(names_match(w.title, gold["work"]) for w in view.facts.works):
            return Miss("performances", "work not found", label)
        if not any(any_names_match((e.name, *e.aliases), performer) for e in view.facts.entities):
            return Miss("performances", "performer not found", label)
        pairs = [p for p in view.facts.performances if gold in self._same_pair(p)]
        if not pairs:
            return Miss("performances", "pair not found", label)
        if not _gold_where(gold, "venue", "city", "event"):
            return None
        placed = [where for where in map(view.where, pairs) if where[0] or where[1]]
        if not placed:
            return Miss("performances", "not placed", label)
        if any(_context_matches(gold, events, places) for events, places in placed):
            return None
        found = " / ".join(dict.fromkeys(n for events, places in placed for n in (*events, *places)))
        return Miss("performances", "wrong place", f"{label} (found: {found})")

    def _event_miss(self, gold: dict) -> Miss | None:
        view = self.view
        label = event_label(gold["event"], _gold_places(gold))
        events = [e for e in view.facts.events if names_match(e.name, gold["event"])]
        if not events:
            return Miss("events", "event not found", label)
        placed = [p for p in (view.place_names(e.location) for e in events) if p]
        if not placed:
            return Miss("events", "not placed", label)
        if any(_place_matches(gold, places) for places in placed):
            return None
        return Miss("events", "wrong place", f"{label} (found: {' / '.join(placed[0])})")

    # --- helpers ------------------------------------------------------------------------

    def _said_by(self, gold: dict, names: tuple[str, ...]) -> bool:
        """Whether a quote with speaker ``names`` is right for a gold quote (any speaker, if gold has none)."""
        speaker = gold.get("speaker")
        return speaker is None or any_names_match(names, gold_names(speaker, self.aliases))

    def _same_pair(self, performance: Performance) -> list[dict]:
        """The gold performances (of a named work) with this performance's performer and work."""
        title = self.view.work_title(performance.work)
        if title is None:
            return []
        names = self.view.entity_names(performance.performer)
        return [
            g
            for g in self.performances
            if names_match(title, g["work"]) and any_names_match(names, gold_names(g["performer"], self.aliases))
        ]

    def _performance_label(self, performance: Performance) -> str:
        events, places = self.view.where(performance)
        title = self.view.work_title(performance.work)
        # A place reached both from the performance and from its event is named once.
        event = events[0] if events else None
        return performance_label(self.view.name(performance.performer), title, event, tuple(dict.fromkeys(places)))


def _decision(group: str, rule: str | None, outcome: str, label: str, why: str = "") -> Decision:
    """A decision under its rule (``(none)`` when unnamed); ``why`` is kept for wrong ones only."""
    return Decision(group, rule if rule is not None else NO_RULE, outcome, label, why if outcome == WRONG else "")


def _outcome(matching: list[dict], related: list[dict]) -> str:
    """Right when a required gold item matches, unjudged when only optional ones do, else wrong.

    ``related`` are gold items the decision is about without matching them: when they are
    all optional, so is the decision (a quote of an optional gold text, spoken by another).
    """
    if any(not g.get("optional") for g in matching):
        return RIGHT
    if matching or (related and all(g.get("optional") for g in related)):
        return UNJUDGED
    return WRONG


def _gold_places(gold: dict) -> tuple[str, ...]:
    return tuple(v for v in (gold.get("venue"), gold.get("city")) if v)


def _gold_where(gold: dict, *fields: str) -> str:
    return " / ".join(gold[f] for f in fields if gold.get(f))


def _place_matches(gold: dict, places: Sequence[str]) -> bool:
    """Whether any gold venue or city matches any place of a predicted containment chain."""
    return any_names_match(places, _gold_places(gold))


def _context_matches(gold: dict, events: Sequence[str], places: Sequence[str]) -> bool:
    """The reference scorer's test of where a performance was: the gold venue or city, else the gold event.

    Either is looked for among the predicted events and places alike.
    """
    wanted = _gold_places(gold) or ((gold["event"],) if gold.get("event") else ())
    return any_names_match(wanted, (*events, *places))
