"""Score extracted Facts against hand-made gold annotations.

Five fact kinds are scored, each with precision, recall and F1 per article and in
total (micro-averaged: counts are summed over articles before dividing):

* ``quote span``: the words inside the quotation marks;
* ``quote with speaker``: the words and who said them;
* ``performed work``: performer and work;
* ``performance at place/event``: performer, work (when gold names one) and at
  least one of event, venue or city;
* ``event at place``: event and at least one of venue or city.

Matching follows :mod:`kg.eval_match` (names, quotation texts, containment chains);
on top of it:

* Gold items marked ``"optional": true`` are neither misses nor false hits; a
  prediction that matches one is ignored. Gold quotes with ``"speaker": null``
  are judged for their span only.
* Each gold item is matched to at most one prediction (a maximum matching); a
  further prediction of an already-found gold item is a duplicate and ignored.

The gold format is described in docs/gold-format.md and read by :mod:`kg.gold`; the
scores and their text form are :mod:`kg.eval_report`; ``kg eval --by-rule`` judges
each extraction sieve on the same gold (:mod:`kg.eval_rules`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kg.errors import InputError
from kg.eval_match import (
    FactsView,
    any_names_match,
    event_label,
    max_matching,
    names_match,
    performance_label,
    quote_label,
    texts_match,
)
from kg.eval_report import KINDS, ArticleScore, KindScore, Report, render, summarize
from kg.extract.model import Facts
from kg.gold import check_gold, gold_aliases, gold_key, gold_names, load_gold
from kg.io.article import Article

if TYPE_CHECKING:
    from spacy.language import Language

__all__ = [
    "KINDS",
    "ArticleScore",
    "KindScore",
    "Report",
    "evaluate",
    "evaluate_paths",
    "extract_gold_articles",
    "gold_key",
    "load_gold",
    "names_match",
    "render",
    "summarize",
    "texts_match",
]


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
    check_gold(gold, f"gold for {article.source or article.id}")
    source = gold["source"]
    view = FactsView(facts)
    aliases = gold_aliases(gold)
    quotes = gold.get("quotes", [])
    performances = gold.get("performances", [])
    scores = {
        "quote span": _score("quote span", _gold_spans(quotes), _spans(view), texts_match),
        "quote with speaker": _score(
            "quote with speaker", _gold_attributed(quotes, aliases), _attributed(view), _attributed_match
        ),
        "performed work": _score(
            "performed work", _gold_performed(performances, aliases), _performed(view), _performed_match
        ),
        "performance at place/event": _score(
            "performance at place/event",
            _gold_performances(performances, aliases),
            _performances(view),
            _performance_match,
        ),
        "event at place": _score(
            "event at place", _gold_events(gold.get("event_venues", [])), _events(view), _event_match
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
    triples = extract_gold_articles(gold, articles, nlp=nlp, model=model, on_problem=on_problem)
    return summarize(evaluate(annotation, article, facts) for annotation, article, facts in triples)


def extract_gold_articles(
    gold: str | Path,
    articles: Iterable[str | Path],
    *,
    nlp: Language | None = None,
    model: str | None = None,
    on_problem: Callable[[str], None] | None = None,
) -> list[tuple[dict, Article, Facts]]:
    """Extract the articles that have a gold annotation: each with its annotation and facts.

    What every ``kg eval`` report starts from, extracted once (the arguments are those of
    :func:`evaluate_paths`).

    Raises:
        InputError: For bad gold files, or when no article matches a gold annotation.
    """
    from kg._build import extract_articles

    golds = load_gold(gold)
    inputs = [str(a) for a in articles]
    found = [
        (golds[gold_key(article)], article, facts)
        for article, facts in extract_articles(inputs, nlp=nlp, model=model, on_problem=on_problem)
        if gold_key(article) in golds
    ]
    if not found:
        raise InputError(f"no article in {', '.join(inputs)} matches a gold file in {gold}")
    return found


# --- matching ----------------------------------------------------------------


def _score(kind: str, gold: list[_Item], predicted: list[_Item], match: Callable[[Any, Any], bool]) -> KindScore:
    """Match predictions to gold one to one (maximum matching) and count."""
    required = [g for g in gold if not g.optional]
    edges = [[j for j, g in enumerate(required) if match(p.value, g.value)] for p in predicted]
    owner = max_matching(edges, len(required))
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


def _attributed_match(pred: tuple[str, tuple[str, ...]], gold: tuple[str, tuple[str, ...]]) -> bool:
    # A gold quote without a speaker (always optional here) absorbs any attribution of its span.
    return texts_match(pred[0], gold[0]) and (not gold[1] or any_names_match(pred[1], gold[1]))


def _performed_match(pred: tuple, gold: tuple) -> bool:
    performer, work = pred
    gold_performer, gold_work = gold
    return any_names_match(performer, gold_performer) and work is not None and names_match(work, gold_work)


def _performance_match(pred: tuple, gold: tuple) -> bool:
    performer, work, events, places = pred
    gold_performer, gold_work, gold_event, gold_places = gold
    if not any_names_match(performer, gold_performer):
        return False
    # Gold without a work judges only performer and place; gold with one needs it right.
    if gold_work is not None and (work is None or not names_match(work, gold_work)):
        return False
    event_right = gold_event is not None and any(names_match(e, gold_event) for e in events)
    return event_right or any_names_match(places, gold_places)


def _event_match(pred: tuple, gold: tuple) -> bool:
    names, places = pred
    gold_event, gold_places = gold
    return any(names_match(n, gold_event) for n in names) and any_names_match(places, gold_places)


# --- gold side -----------------------------------------------------------------


def _gold_spans(quotes: list[dict]) -> list[_Item]:
    return [_Item(quote_label(q["text"], q.get("speaker")), q["text"], bool(q.get("optional"))) for q in quotes]


def _gold_attributed(quotes: list[dict], aliases: dict[str, tuple[str, ...]]) -> list[_Item]:
    items = []
    for q in quotes:
        speaker = q.get("speaker")
        # A null speaker is judged for its span only: optional here.
        optional = bool(q.get("optional")) or speaker is None
        names = gold_names(speaker, aliases) if speaker else ()
        items.append(_Item(quote_label(q["text"], speaker), (q["text"], names), optional))
    return items


def _gold_performed(performances: list[dict], aliases: dict[str, tuple[str, ...]]) -> list[_Item]:
    return [
        _Item(
            performance_label(p["performer"], p.get("work")),
            (gold_names(p["performer"], aliases), p.get("work")),
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
        label = performance_label(p["performer"], p.get("work"), p.get("event"), places)
        value = (gold_names(p["performer"], aliases), p.get("work"), p.get("event"), places)
        items.append(_Item(label, value, bool(p.get("optional"))))
    return items


def _gold_events(event_venues: list[dict]) -> list[_Item]:
    items = []
    for e in event_venues:
        places = tuple(v for v in (e.get("venue"), e.get("city")) if v)
        # An event with no venue or city is no "event at place" fact.
        if not places:
            continue
        items.append(_Item(event_label(e["event"], places), (e["event"], places), bool(e.get("optional"))))
    return items


# --- prediction side -----------------------------------------------------------


def _spans(view: FactsView) -> list[_Item]:
    return [_Item(quote_label(q.span.text, view.name(q.speaker)), q.span.text) for q in view.facts.quotes]


def _attributed(view: FactsView) -> list[_Item]:
    return [
        _Item(quote_label(q.span.text, view.name(q.speaker)), (q.span.text, view.entity_names(q.speaker)))
        for q in view.facts.quotes
        # An unattributed quote makes no claim about its speaker.
        if q.speaker is not None
    ]


def _performed(view: FactsView) -> list[_Item]:
    items, seen = [], set()
    for p in view.facts.performances:
        title = view.work_title(p.work)
        # The same performer and work read twice is one fact.
        if title is None or (p.performer, p.work) in seen:
            continue
        seen.add((p.performer, p.work))
        items.append(
            _Item(performance_label(view.name(p.performer), title), (view.entity_names(p.performer), title))
        )
    return items


def _performances(view: FactsView) -> list[_Item]:
    items, seen = [], set()
    for p in view.facts.performances:
        events, places = view.where(p)
        identity = (p.performer, p.work, p.event, p.location)
        # A performance placed nowhere, or read twice, makes no further claim.
        if (not events and not places) or identity in seen:
            continue
        seen.add(identity)
        title = view.work_title(p.work)
        items.append(
            _Item(
                performance_label(view.name(p.performer), title, events[0] if events else None, places),
                (view.entity_names(p.performer), title, events, places),
            )
        )
    return items


def _events(view: FactsView) -> list[_Item]:
    items = []
    for event in view.facts.events:
        places = view.event_places(event.key)
        # An event with no known place makes no "event at place" claim.
        if not places:
            continue
        items.append(_Item(event_label(event.name, places), ((event.name,), places)))
    return items
