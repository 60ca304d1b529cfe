"""``kg eval --by-rule``: how often each extraction sieve fired on annotated articles, and how often it was right.

The project moves extraction to candidates and named sieves; this report says, per
sieve, how many decisions it made on the gold articles, how many the gold confirms
and how many it contradicts (precision = right / judged), with the wrong ones named,
and then the gold items that were missed, counted by why. How a single decision or
miss is judged is :mod:`kg.eval_decisions`; the matching rules are those of the
scores (:mod:`kg.eval_match`).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kg.eval import extract_gold_articles
from kg.eval_decisions import (
    GROUPS,
    MISS_REASONS,
    NO_RULE,
    RIGHT,
    WRONG,
    ArticleRules,
    Decision,
    judge,
)
from kg.eval_report import format_rate

if TYPE_CHECKING:
    from spacy.language import Language

__all__ = [
    "GROUPS",
    "MISS_REASONS",
    "NO_RULE",
    "RuleReport",
    "RuleTally",
    "judge",
    "judge_paths",
    "render_rules",
]


@dataclass(frozen=True)
class RuleTally:
    """How often one sieve fired and how often it was right, with its wrong decisions."""

    group: str
    rule: str
    fired: int
    right: int
    wrong: int
    wrong_examples: tuple[str, ...] = ()

    @property
    def unjudged(self) -> int:
        """Firings the gold cannot judge (optional items, performances of no named work...)."""
        return self.fired - self.right - self.wrong

    @property
    def precision(self) -> float | None:
        """Right among judged firings; None when none was judged."""
        judged = self.right + self.wrong
        return self.right / judged if judged else None

    def to_dict(self) -> dict[str, Any]:
        """The tally, ready for JSON."""
        return {
            "group": self.group,
            "rule": self.rule,
            "fired": self.fired,
            "right": self.right,
            "wrong": self.wrong,
            "unjudged": self.unjudged,
            "precision": self.precision,
            "wrong_examples": list(self.wrong_examples),
        }


@dataclass(frozen=True)
class RuleReport:
    """Per-sieve tallies and misses by kind over several articles."""

    articles: tuple[ArticleRules, ...]

    @property
    def tallies(self) -> tuple[RuleTally, ...]:
        """One tally per (group, rule), groups in :data:`GROUPS` order, rules by id."""
        found: dict[tuple[str, str], list[tuple[str, Decision]]] = defaultdict(list)
        for article in self.articles:
            for decision in article.decisions:
                found[decision.group, decision.rule].append((article.source, decision))
        tallies = []
        for group, rule in sorted(found, key=lambda key: (GROUPS.index(key[0]), key[1])):
            decisions = found[group, rule]
            wrong = [f"{source}: {d.label} [{d.why}]" for source, d in decisions if d.outcome == WRONG]
            right = sum(1 for _, d in decisions if d.outcome == RIGHT)
            tallies.append(RuleTally(group, rule, len(decisions), right, len(wrong), tuple(wrong)))
        return tuple(tallies)

    @property
    def misses(self) -> dict[str, dict[str, tuple[str, ...]]]:
        """Every miss as ``source: label``, by kind and reason (each reason listed, even when empty)."""
        table: dict[str, dict[str, list[str]]] = {k: {r: [] for r in rs} for k, rs in MISS_REASONS.items()}
        for article in self.articles:
            for miss in article.misses:
                table[miss.kind][miss.reason].append(f"{article.source}: {miss.label}")
        return {kind: {reason: tuple(items) for reason, items in reasons.items()} for kind, reasons in table.items()}

    def to_dict(self) -> dict[str, Any]:
        """Tallies and misses, ready for JSON (``kg eval --by-rule --format json``)."""
        return {
            "articles": [a.source for a in self.articles],
            "rules": [t.to_dict() for t in self.tallies],
            "misses": {k: {r: list(v) for r, v in reasons.items()} for k, reasons in self.misses.items()},
        }


def judge_paths(
    gold: str | Path,
    articles: Iterable[str | Path],
    *,
    nlp: Language | None = None,
    model: str | None = None,
    on_problem: Callable[[str], None] | None = None,
) -> RuleReport:
    """``kg eval GOLD ARTICLES --by-rule`` as a function (arguments as :func:`kg.eval.evaluate_paths`).

    Raises:
        InputError: For bad gold files, or when no article matches a gold annotation.
    """
    triples = extract_gold_articles(gold, articles, nlp=nlp, model=model, on_problem=on_problem)
    return RuleReport(tuple(judge(annotation, article, facts) for annotation, article, facts in triples))


def render_rules(report: RuleReport, examples: int = 3) -> str:
    """The per-sieve table, a few wrong decisions of each sieve, then the misses by kind and reason."""
    tallies = report.tallies
    width = max([len("rule"), *(len(t.rule) for t in tallies)]) + 2
    header = f"  {'group':<21}{'rule':<{width}}{'fired':>7}{'right':>7}{'wrong':>7}{'unjudged':>10}{'P':>8}"
    rows = [f"decisions by rule ({len(report.articles)} articles)", header]
    rows += [
        f"  {t.group:<21}{t.rule:<{width}}{t.fired:>7}{t.right:>7}{t.wrong:>7}{t.unjudged:>10}"
        f"{format_rate(t.precision):>8}"
        for t in tallies
    ]
    blocks = ["\n".join(rows)]
    if any(t.wrong for t in tallies):
        lines = ["wrong decisions:"]
        for tally in (t for t in tallies if t.wrong):
            lines.append(f"  {tally.group} / {tally.rule}: {tally.wrong}")
            lines += _examples(tally.wrong_examples, examples)
        blocks.append("\n".join(lines))
    lines = ["misses by kind:"]
    for kind, reasons in report.misses.items():
        lines.append(f"  {kind}: {sum(len(items) for items in reasons.values())}")
        for reason, items in reasons.items():
            lines.append(f"    {reason:<21}{len(items):>5}")
            lines += _examples(items, examples, indent=6)
    blocks.append("\n".join(lines))
    return "\n\n".join(blocks) + "\n"


def _examples(items: Sequence[str], limit: int, indent: int = 4) -> list[str]:
    """The first ``limit`` items, one a line, and how many more there are."""
    pad = " " * indent
    lines = [f"{pad}{item}" for item in items[:limit]]
    if len(items) > limit:
        lines.append(f"{pad}\u2026 and {len(items) - limit} more")
    return lines
