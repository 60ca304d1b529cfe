"""Score extracted Facts against hand-made gold annotations.

Five fact kinds are scored, each with precision, recall and F1 per article and in
total (micro-averaged: counts are summed over articles before dividing):

* ``quote span``: the words inside the quotation marks;
* ``quote with speaker``: the words and who said them;
* ``performed work``: performer and work;
* ``performance at place/event``: performer, work (when gold names one) and at
  least one of event, venue or city;
* ``event at place``: event and at least one of venue or city.

Matching is deliberately forgiving about form and strict about substance, so
that a score measures what was understood, not how it was spelled:

* Names match when equal ignoring case and punctuation, or when the words of one
  contain the words of the other and the shorter has at least two words or half
  as many as the longer ("Rivera" / "Ana Rivera", "Copper Hollows" / "The Copper Hollows").
* Quotation texts match when the words they share are at least half of each.
* A predicted speaker or performer matches when its name or any alias matches the
  gold name or any of the gold person's aliases.
* Places follow the predicted containment chain: an event at a venue inside a
  city matches gold that names only the city.
* Gold items marked ``"optional": true`` are neither misses nor false hits; a
  prediction that matches one is ignored. Gold quotes with ``"speaker": null``
  are judged for their span only.
* Each gold item is matched to at most one prediction (a maximum matching); a
  further prediction of an already-found gold item is a duplicate and ignored.

The gold format is described in docs/gold-format.md.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kg.errors import InputError
from kg.extract.model import Entity, Facts, Place
from kg.io.article import Article

if TYPE_CHECKING:
    from spacy.language import Language

KINDS = (
    "quote span",
    "quote with speaker",
    "performed work",
    "performance at place/event",
    "event at place",
)

# The fields each gold section accepts; the first one listed is required.
_SECTIONS: dict[str, tuple[str, ...]] = {
    "people": ("name", "aliases", "descriptions", "age", "kind", "optional", "note"),
    "groups": ("name", "aliases", "descriptions", "kind", "optional", "note"),
    "quotes": ("text", "speaker", "optional", "note"),
    "performances": ("performer", "work", "event", "venue", "city", "date", "optional", "note"),
    "event_venues": ("event", "venue", "city", "date", "optional", "note"),
    "works": ("title", "type", "creator", "date", "optional", "note"),
}
_TOP_KEYS = ("source", "note", *_SECTIONS)
_LIST_FIELDS = frozenset({"aliases", "descriptions"})
_APOSTROPHES = str.maketrans("", "", "'\u2019\u2018\u02bc")
_WORD = re.compile(r"\w+")
_LABEL_WIDTH = 60


@dataclass(frozen=True)
class KindScore:
    """Hits, misses and false hits of one fact kind.

    ``misses`` and ``false_hits`` hold readable descriptions of the items, so a
    report says what went wrong, not only how often.
    """

    kind: str
    hits: int = 0
    misses: tuple[str, ...] = ()
    false_hits: tuple[str, ...] = ()

    @property
    def gold(self) -> int:
        """Gold items that count (optional ones do not)."""
        return self.hits + len(self.misses)

    @property
    def predicted(self) -> int:
        """Predictions that count (duplicates and matches of optional items do not)."""
        return self.hits + len(self.false_hits)

    @property
    def precision(self) -> float | None:
        """Share of counted predictions that are right; None without predictions."""
        return self.hits / self.predicted if self.predicted else None

    @property
    def recall(self) -> float | None:
        """Share of gold items found; None without gold items."""
        return self.hits / self.gold if self.gold else None

    @property
    def f1(self) -> float | None:
        """Harmonic mean of precision and recall; None unless both are defined."""
        p, r = self.precision, self.recall
        if p is None or r is None:
            return None
        return 2 * p * r / (p + r) if p + r else 0.0

    def to_dict(self) -> dict[str, Any]:
        """Counts, rates (None when undefined) and item lists, ready for JSON."""
        return {
            "gold": self.gold,
            "predicted": self.predicted,
            "hits": self.hits,
            "precision": self.precision,
            "recall": self.recall,
            "f1": self.f1,
            "misses": list(self.misses),
            "false_hits": list(self.false_hits),
        }


@dataclass(frozen=True)
class ArticleScore:
    """The scores of one article, one :class:`KindScore` per kind in :data:`KINDS`."""

    source: str
    scores: dict[str, KindScore] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """The article's scores by kind, ready for JSON."""
        return {"source": self.source, "scores": {kind: s.to_dict() for kind, s in self.scores.items()}}


@dataclass(frozen=True)
class Report:
    """Per-article scores and their micro-averaged total."""

    articles: tuple[ArticleScore, ...]
    total: dict[str, KindScore]

    def to_dict(self) -> dict[str, Any]:
        """Per-article and total scores, ready for JSON (``kg eval --format json``)."""
        return {
            "articles": [a.to_dict() for a in self.articles],
            "total": {kind: s.to_dict() for kind, s in self.total.items()},
        }


@dataclass(frozen=True)
class _Item:
    """One gold item or prediction as the matcher sees it."""

    label: str
    value: Any
    optional: bool = False


def evaluate(gold: dict, article: Article, facts: Facts) -> ArticleScore:
    """Score the facts extracted from one article against its gold annotation.

    Args:
        gold: One gold annotation (the format of docs/gold-format.md).
        article: The article the facts were extracted from.
        facts: The extracted facts.

    Returns:
        The article's scores, one per fact kind.

    Raises:
        InputError: If the gold annotation is malformed.
    """
    _check_gold(gold, f"gold for {article.source or article.id}")
    source = gold["source"]
    view = _FactsView(facts)
    aliases = _gold_aliases(gold)
    quotes = gold.get("quotes", [])
    performances = gold.get("performances", [])
    scores = {
        "quote span": _score("quote span", _gold_spans(quotes), view.spans(), texts_match),
        "quote with speaker": _score(
            "quote with speaker", _gold_attributed(quotes, aliases), view.attributed(), _attributed_match
        ),
        "performed work": _score(
            "performed work", _gold_performed(performances, aliases), view.performed(), _performed_match
        ),
        "performance at place/event": _score(
            "performance at place/event",
            _gold_performances(performances, aliases),
            view.performances(),
            _performance_match,
        ),
        "event at place": _score(
            "event at place", _gold_events(gold.get("event_venues", [])), view.events(), _event_match
        ),
    }
    return ArticleScore(source=source, scores=scores)


def evaluate_paths(
    gold: str | Path,
    articles: Iterable[str | Path],
    *,
    nlp: Language | None = None,
    model: str | None = None,
    on_problem: Callable[[str], None] | None = None,
) -> Report:
    """Extract the articles found in ``articles`` and score those that have a gold annotation.

    This is ``kg eval GOLD ARTICLES`` as a function, so tests and notebooks get the
    same figures the command prints.

    Args:
        gold: A gold ``.json`` file or a folder of them (see :func:`load_gold`).
        articles: Files or folders of articles, as ``kg build`` reads them.
        nlp: A loaded pipeline; else ``model`` (or the default model) is loaded.
        model: The spaCy pipeline to load when ``nlp`` is not given.
        on_problem: Told about each input that cannot be read.

    Raises:
        InputError: For bad gold files, or when no article matches a gold annotation.
    """
    from kg._build import extract_articles

    golds = load_gold(gold)
    inputs = [str(a) for a in articles]
    scores = [
        evaluate(golds[gold_key(article)], article, facts)
        for article, facts in extract_articles(inputs, nlp=nlp, model=model, on_problem=on_problem)
        if gold_key(article) in golds
    ]
    if not scores:
        raise InputError(f"no article in {', '.join(inputs)} matches a gold file in {gold}")
    return summarize(scores)


def summarize(scores: Iterable[ArticleScore]) -> Report:
    """Add per-article scores up into a micro-averaged total.

    Misses and false hits in the total are prefixed with the article's source.
    """
    articles = tuple(scores)
    total = {}
    for kind in KINDS:
        parts = [(a.source, a.scores[kind]) for a in articles if kind in a.scores]
        total[kind] = KindScore(
            kind=kind,
            hits=sum(s.hits for _, s in parts),
            misses=tuple(f"{src}: {m}" for src, s in parts for m in s.misses),
            false_hits=tuple(f"{src}: {f}" for src, s in parts for f in s.false_hits),
        )
    return Report(articles=articles, total=total)


def render(report: Report) -> str:
    """A plain-text table per article and for the total, then misses and false hits."""
    blocks = [_table(a.source, a.scores) for a in report.articles]
    blocks.append(_table(f"total ({len(report.articles)} articles, micro)", report.total))
    problems = []
    for kind in KINDS:
        score = report.total[kind]
        problems += [f"  miss       [{kind}] {m}" for m in score.misses]
        problems += [f"  false hit  [{kind}] {f}" for f in score.false_hits]
    if problems:
        blocks.append("\n".join(["misses and false hits:", *problems]))
    return "\n\n".join(blocks) + "\n"


def load_gold(path: str | Path) -> dict[str, dict]:
    """Read gold annotations from a JSON file or a folder of ``*.json`` files.

    A file holds one annotation (an object) or several (a list of objects, as for
    a JSONL source with one annotation a line).

    Args:
        path: A ``.json`` file or a folder searched recursively, in sorted order.

    Returns:
        Annotations keyed by their ``"source"`` (see :func:`gold_key`).

    Raises:
        InputError: For a missing path, invalid JSON, a malformed annotation, or
            two annotations of the same source; the message names the file.
    """
    root = Path(path)
    if not root.exists():
        raise InputError(f"{root}: no such file or folder")
    files = sorted(root.rglob("*.json")) if root.is_dir() else [root]
    if not files:
        raise InputError(f"{root}: no *.json gold files in this folder")
    found: dict[str, dict] = {}
    where: dict[str, Path] = {}
    for file in files:
        for index, gold in enumerate(_read_gold_file(file)):
            label = f"{file}[{index}]" if index else str(file)
            _check_gold(gold, label)
            source = gold["source"]
            if source in found:
                raise InputError(f"{file}: source {source!r} is already annotated in {where[source]}")
            found[source] = gold
            where[source] = file
    return found


def gold_key(article: Article) -> str:
    """The ``"source"`` a gold annotation gives for this article: its file name (``NAME:LINE`` for JSONL).

    >>> gold_key(Article(id="a", text="t", source="examples/news.jsonl:2"))
    'news.jsonl:2'
    """
    return Path(article.source).name


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


def _words(text: str) -> list[str]:
    """Lower-cased words, apostrophes dropped so "it\u2019s" and "its" agree."""
    return _WORD.findall(text.casefold().translate(_APOSTROPHES))


def _any_names_match(names: Sequence[str], others: Sequence[str]) -> bool:
    """Whether any name of one list matches any name of the other."""
    return any(names_match(a, b) for a in names for b in others)


# --- matching ----------------------------------------------------------------


def _score(kind: str, gold: list[_Item], predicted: list[_Item], match: Callable[[Any, Any], bool]) -> KindScore:
    """Match predictions to gold one to one (maximum matching) and count."""
    required = [g for g in gold if not g.optional]
    edges = [[j for j, g in enumerate(required) if match(p.value, g.value)] for p in predicted]
    owner = _max_matching(edges, len(required))
    matched_predictions = set(owner.values())
    false_hits = []
    for i, p in enumerate(predicted):
        if i in matched_predictions:
            continue
        # A duplicate of a found item, or a match of an optional one, counts neither way.
        if edges[i] or any(match(p.value, g.value) for g in gold if g.optional):
            continue
        false_hits.append(p.label)
    misses = [g.label for j, g in enumerate(required) if j not in owner]
    return KindScore(kind=kind, hits=len(owner), misses=tuple(misses), false_hits=tuple(false_hits))


def _max_matching(edges: list[list[int]], n_gold: int) -> dict[int, int]:
    """Maximum bipartite matching (Kuhn's augmenting paths): gold index -> prediction index."""
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


def _attributed_match(pred: tuple[str, tuple[str, ...]], gold: tuple[str, tuple[str, ...]]) -> bool:
    # A gold quote without a speaker (always optional here) absorbs any attribution of its span.
    return texts_match(pred[0], gold[0]) and (not gold[1] or _any_names_match(pred[1], gold[1]))


def _performed_match(pred: tuple, gold: tuple) -> bool:
    performer, work = pred
    gold_performer, gold_work = gold
    return _any_names_match(performer, gold_performer) and work is not None and names_match(work, gold_work)


def _performance_match(pred: tuple, gold: tuple) -> bool:
    performer, work, events, places = pred
    gold_performer, gold_work, gold_event, gold_places = gold
    if not _any_names_match(performer, gold_performer):
        return False
    # Gold without a work judges only performer and place; gold with one needs it right.
    if gold_work is not None and (work is None or not names_match(work, gold_work)):
        return False
    event_right = gold_event is not None and any(names_match(e, gold_event) for e in events)
    return event_right or _any_names_match(places, gold_places)


def _event_match(pred: tuple, gold: tuple) -> bool:
    names, places = pred
    gold_event, gold_places = gold
    return any(names_match(n, gold_event) for n in names) and _any_names_match(places, gold_places)


# --- gold side -----------------------------------------------------------------


def _gold_aliases(gold: dict) -> dict[str, tuple[str, ...]]:
    """Every gold person's and group's names (name first), by name."""
    table: dict[str, tuple[str, ...]] = {}
    for record in [*gold.get("people", []), *gold.get("groups", [])]:
        table[record["name"]] = (record["name"], *record.get("aliases", []))
    return table


def _names(name: str, aliases: dict[str, tuple[str, ...]]) -> tuple[str, ...]:
    """A gold name with the aliases its person or group record gives."""
    return aliases.get(name, (name,))


def _gold_spans(quotes: list[dict]) -> list[_Item]:
    return [_Item(_quote_label(q["text"], q.get("speaker")), q["text"], bool(q.get("optional"))) for q in quotes]


def _gold_attributed(quotes: list[dict], aliases: dict[str, tuple[str, ...]]) -> list[_Item]:
    items = []
    for q in quotes:
        speaker = q.get("speaker")
        # A null speaker is judged for its span only: optional here.
        optional = bool(q.get("optional")) or speaker is None
        names = _names(speaker, aliases) if speaker else ()
        items.append(_Item(_quote_label(q["text"], speaker), (q["text"], names), optional))
    return items


def _gold_performed(performances: list[dict], aliases: dict[str, tuple[str, ...]]) -> list[_Item]:
    return [
        _Item(
            _performance_label(p["performer"], p.get("work")),
            (_names(p["performer"], aliases), p.get("work")),
            bool(p.get("optional")),
        )
        for p in performances
        # Only performances of a named work are "performed work" facts.
        if p.get("work")
    ]


def _gold_performances(performances: list[dict], aliases: dict[str, tuple[str, ...]]) -> list[_Item]:
    items = []
    for p in performances:
        places = tuple(v for v in (p.get("venue"), p.get("city")) if v)
        # Without an event, venue or city there is nothing to place the performance by.
        if not places and not p.get("event"):
            continue
        label = _performance_label(p["performer"], p.get("work"), p.get("event"), places)
        value = (_names(p["performer"], aliases), p.get("work"), p.get("event"), places)
        items.append(_Item(label, value, bool(p.get("optional"))))
    return items


def _gold_events(event_venues: list[dict]) -> list[_Item]:
    items = []
    for e in event_venues:
        places = tuple(v for v in (e.get("venue"), e.get("city")) if v)
        # An event with no venue or city is no "event at place" fact.
        if not places:
            continue
        items.append(_Item(_event_label(e["event"], places), (e["event"], places), bool(e.get("optional"))))
    return items


# --- prediction side -----------------------------------------------------------


class _FactsView:
    """Extracted facts resolved from keys to names, in the shapes the matchers compare."""

    def __init__(self, facts: Facts) -> None:
        self._facts = facts
        self._entities: dict[str, Entity] = {e.key: e for e in facts.entities}
        self._works = {w.key: w for w in facts.works}
        self._places: dict[str, Place] = {p.key: p for p in facts.places}
        self._events = {e.key: e for e in facts.events}

    def spans(self) -> list[_Item]:
        return [_Item(_quote_label(q.span.text, self._name(q.speaker)), q.span.text) for q in self._facts.quotes]

    def attributed(self) -> list[_Item]:
        return [
            _Item(_quote_label(q.span.text, self._name(q.speaker)), (q.span.text, self._entity_names(q.speaker)))
            for q in self._facts.quotes
            # An unattributed quote makes no claim about its speaker.
            if q.speaker is not None
        ]

    def performed(self) -> list[_Item]:
        items, seen = [], set()
        for p in self._facts.performances:
            work = self._works.get(p.work) if p.work else None
            # The same performer and work read twice is one fact.
            if work is None or (p.performer, p.work) in seen:
                continue
            seen.add((p.performer, p.work))
            items.append(
                _Item(
                    _performance_label(self._name(p.performer), work.title),
                    (self._entity_names(p.performer), work.title),
                )
            )
        return items

    def performances(self) -> list[_Item]:
        items, seen = [], set()
        for p in self._facts.performances:
            events = self._event_chain(p.event)
            places = self._place_chain(p.location)
            places += tuple(
                n for key in self._event_keys(p.event) for n in self._place_chain(self._events[key].location)
            )
            identity = (p.performer, p.work, p.event, p.location)
            # A performance placed nowhere, or read twice, makes no further claim.
            if (not events and not places) or identity in seen:
                continue
            seen.add(identity)
            work = self._works.get(p.work) if p.work else None
            title = work.title if work else None
            items.append(
                _Item(
                    _performance_label(self._name(p.performer), title, events[0] if events else None, places),
                    (self._entity_names(p.performer), title, events, places),
                )
            )
        return items

    def events(self) -> list[_Item]:
        items = []
        for event in self._facts.events:
            places = tuple(
                n for key in self._event_keys(event.key) for n in self._place_chain(self._events[key].location)
            )
            # An event with no known place makes no "event at place" claim.
            if not places:
                continue
            items.append(_Item(_event_label(event.name, places), ((event.name,), places)))
        return items

    def _name(self, key: str | None) -> str | None:
        entity = self._entities.get(key) if key else None
        return entity.name if entity else key

    def _entity_names(self, key: str | None) -> tuple[str, ...]:
        entity = self._entities.get(key) if key else None
        return (entity.name, *entity.aliases) if entity else ()

    def _event_keys(self, key: str | None) -> list[str]:
        """An event and its super-events, innermost first (cycles cut)."""
        keys: list[str] = []
        while key and key in self._events and key not in keys:
            keys.append(key)
            key = self._events[key].super_event
        return keys

    def _event_chain(self, key: str | None) -> tuple[str, ...]:
        return tuple(self._events[k].name for k in self._event_keys(key))

    def _place_chain(self, key: str | None) -> tuple[str, ...]:
        """A place's name and the names of the places containing it (cycles cut)."""
        names: list[str] = []
        seen: set[str] = set()
        while key and key in self._places and key not in seen:
            seen.add(key)
            names.append(self._places[key].name)
            key = self._places[key].contained_in
        return tuple(names)


# --- labels and rendering ----------------------------------------------------------


def _short(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= _LABEL_WIDTH else text[: _LABEL_WIDTH - 1] + "\u2026"


def _quote_label(text: str, speaker: str | None) -> str:
    return f"\u201c{_short(text)}\u201d \u2014 {speaker or '?'}"


def _performance_label(
    performer: str | None, work: str | None, event: str | None = None, places: Sequence[str] = ()
) -> str:
    label = f"{performer or '?'}: {work or '(no work)'}"
    where = [x for x in (event, *places) if x]
    return f"{label} @ {' / '.join(where)}" if where else label


def _event_label(event: str, places: Sequence[str]) -> str:
    return f"{event} @ {' / '.join(places)}"


def _table(title: str, scores: dict[str, KindScore]) -> str:
    rows = [f"{title}", f"  {'kind':<28}{'gold':>6}{'pred':>6}{'hits':>6}{'P':>8}{'R':>8}{'F1':>8}"]
    for kind in KINDS:
        s = scores.get(kind, KindScore(kind))
        rows.append(
            f"  {kind:<28}{s.gold:>6}{s.predicted:>6}{s.hits:>6}"
            f"{_num(s.precision):>8}{_num(s.recall):>8}{_num(s.f1):>8}"
        )
    return "\n".join(rows)


def _num(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


# --- gold validation -----------------------------------------------------------------


def _read_gold_file(file: Path) -> list[Any]:
    """The annotations of one gold file: an object, or a list of them."""
    try:
        data = json.loads(file.read_text(encoding="utf-8-sig"))
    except OSError as exc:
        raise InputError(f"{file}: cannot read ({exc.strerror or exc})") from None
    except UnicodeDecodeError:
        raise InputError(f"{file}: not valid UTF-8") from None
    except json.JSONDecodeError as exc:
        raise InputError(f"{file}: invalid JSON ({exc.msg} at line {exc.lineno}, column {exc.colno})") from None
    return data if isinstance(data, list) else [data]


def _check_gold(gold: Any, where: str) -> None:
    """Raise InputError naming ``where`` and the first problem of a gold annotation."""
    if not isinstance(gold, dict):
        raise InputError(f"{where}: a gold annotation must be a JSON object, got {type(gold).__name__}")
    unknown = sorted(set(gold) - set(_TOP_KEYS))
    if unknown:
        raise InputError(f"{where}: unknown key {unknown[0]!r}; expected {', '.join(_TOP_KEYS)}")
    if not isinstance(gold.get("source"), str) or not gold["source"].strip():
        raise InputError(f'{where}: "source" (the article\'s file name) must be a non-empty string')
    for section, keys in _SECTIONS.items():
        items = gold.get(section, [])
        if not isinstance(items, list):
            raise InputError(f'{where}: "{section}" must be a list, got {type(items).__name__}')
        for index, item in enumerate(items):
            _check_item(item, keys, f"{where}: {section}[{index}]")
    for index, quote in enumerate(gold.get("quotes", [])):
        # The speaker key must be there: null is a statement ("judge the span only"), not an omission.
        if "speaker" not in quote:
            raise InputError(f'{where}: quotes[{index}]: "speaker" is missing (use null for an unknown speaker)')


def _check_item(item: Any, keys: tuple[str, ...], where: str) -> None:
    """Check one gold record: an object with its required field and known, well-typed fields."""
    if not isinstance(item, dict):
        raise InputError(f"{where}: must be a JSON object, got {type(item).__name__}")
    unknown = sorted(set(item) - set(keys))
    if unknown:
        raise InputError(f"{where}: unknown key {unknown[0]!r}; expected {', '.join(keys)}")
    required = keys[0]
    if not isinstance(item.get(required), str) or not item[required].strip():
        raise InputError(f'{where}: "{required}" must be a non-empty string')
    for key, value in item.items():
        if key in _LIST_FIELDS:
            # Aliases and descriptions are lists of strings.
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                raise InputError(f'{where}: "{key}" must be a list of strings')
        elif key == "optional":
            if not isinstance(value, bool):
                raise InputError(f'{where}: "optional" must be true or false')
        elif key == "age":
            if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
                raise InputError(f'{where}: "age" must be a whole number or null')
        elif value is not None and not isinstance(value, str):
            raise InputError(f'{where}: "{key}" must be a string or null, got {type(value).__name__}')
