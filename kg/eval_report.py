"""The scores ``kg eval`` reports: per fact kind, per article and in total, and their text form.

Kept apart from the matching (:mod:`kg.eval`) so that a report can be built, added up
and printed without knowing how its hits were found.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

__all__ = ["KINDS", "ArticleScore", "KindScore", "Report", "format_rate", "render", "summarize"]

#: The fact kinds scored, in the order every report lists them.
KINDS = (
    "quote span",
    "quote with speaker",
    "performed work",
    "performance at place/event",
    "event at place",
)


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


def _table(title: str, scores: dict[str, KindScore]) -> str:
    rows = [f"{title}", f"  {'kind':<28}{'gold':>6}{'pred':>6}{'hits':>6}{'P':>8}{'R':>8}{'F1':>8}"]
    for kind in KINDS:
        s = scores.get(kind, KindScore(kind))
        rows.append(
            f"  {kind:<28}{s.gold:>6}{s.predicted:>6}{s.hits:>6}"
            f"{format_rate(s.precision):>8}{format_rate(s.recall):>8}{format_rate(s.f1):>8}"
        )
    return "\n".join(rows)


def format_rate(value: float | None) -> str:
    """A rate with three decimals, ``-`` when undefined (nothing to divide by).

    >>> format_rate(2 / 3), format_rate(None)
    ('0.667', '-')
    """
    return "-" if value is None else f"{value:.3f}"
