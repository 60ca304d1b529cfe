"""Named sieves: the rules that decide facts, each with an id, what it decides and an example.

Extraction proposes candidates first (every quotation-mark span, every title, every
performance frame...) and then runs an ordered list of sieves over them; each sieve
decides only what the sieves before it left open (the design of Stanford CoreNLP's quote
attribution). The sieve that decided a fact is recorded on it (``rule``) with the sieve's
``confidence``: its precision measured on real annotated news (``kg eval --by-rule`` on the
development set), as (right + 1) / (judged + 2) so that a sieve judged on a handful of facts
is not called certain; a sieve that has not fired there keeps a stated prior. A user can
filter a graph by either in SPARQL.

Each stage declares its sieves with :func:`sieve` and keeps them, in the order it runs
them, in a module-level ``SIEVES`` tuple; ``docs/extraction.md`` lists them from there
(:func:`markdown`), so the documentation is generated from the code it describes.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class Sieve:
    """One named rule.

    Attributes:
        id: Stable identifier, ``stage.name`` ("quote.cue-name"); written to the graph as ``kg:rule``.
        decides: What the sieve decides, in a phrase.
        example: An invented sentence it decides, with what it decides there.
        confidence: Its precision on the development set (smoothed, see above), the confidence of
            the facts it decides.
    """

    id: str
    decides: str
    example: str
    confidence: float

    def __post_init__(self) -> None:
        if not 0.0 <= self.confidence <= 1.0:
            raise ValueError(f"sieve {self.id}: confidence {self.confidence} is not in [0, 1]")


_REGISTRY: dict[str, Sieve] = {}


def sieve(id: str, decides: str, example: str, confidence: float) -> Sieve:
    """Declare a sieve; ids are unique across kg."""
    if id in _REGISTRY:
        raise ValueError(f"sieve {id!r} is declared twice")
    found = _REGISTRY[id] = Sieve(id, decides, example, confidence)
    return found


def registered() -> dict[str, Sieve]:
    """Every sieve declared so far, by id."""
    return dict(_REGISTRY)


def markdown(stages: Iterable[tuple[str, tuple[Sieve, ...]]]) -> str:
    """A Markdown table per stage of its sieves, in the order they run."""
    out: list[str] = []
    for title, sieves in stages:
        out += [f"### {title}", "", "| # | rule | decides | example | confidence |", "|---|---|---|---|---|"]
        for n, s in enumerate(sieves, 1):
            cells = (str(n), f"`{s.id}`", s.decides, s.example, f"{s.confidence:.2f}")
            out.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
        out.append("")
    return "\n".join(out)
