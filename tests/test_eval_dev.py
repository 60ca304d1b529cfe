"""`kg eval` on the annotated articles: the quotation figures stay above the project's floors.

The floors are those the project is judged by on unseen news (quotation span F1 0.90,
quotation with speaker F1 0.85, speaker precision 0.90). The seed article and its gold ship
in examples/ (the same files as ../shared/dev), so these tests run on every clone.
"""

from __future__ import annotations

import pytest

from kg.eval import Report, evaluate_paths, load_gold, names_match, texts_match
from kg.extract.model import Facts
from kg.io import read_articles
from kg.nlp import extract

from .conftest import EXAMPLES

SEED, SEED_GOLD = EXAMPLES / "seed.txt", EXAMPLES / "gold" / "seed.json"
SPAN_F1, SPEAKER_F1, SPEAKER_PRECISION = 0.90, 0.85, 0.90


def _assert_floors(report: Report) -> None:
    span, said = report.total["quote span"], report.total["quote with speaker"]
    assert span.f1 is not None and span.f1 >= SPAN_F1, (span.f1, span.misses, span.false_hits)
    assert said.f1 is not None and said.f1 >= SPEAKER_F1, (said.f1, said.misses, said.false_hits)
    assert said.precision is not None and said.precision >= SPEAKER_PRECISION, said.false_hits


@pytest.fixture(scope="module")
def seed_report(nlp) -> Report:
    return evaluate_paths(SEED_GOLD, [SEED], nlp=nlp)


@pytest.fixture(scope="module")
def example_report(nlp) -> Report:
    return evaluate_paths(EXAMPLES / "gold", [EXAMPLES], nlp=nlp)


def test_seed_quotation_figures_reach_the_floors(seed_report):
    assert [a.source for a in seed_report.articles] == ["seed.txt"]
    _assert_floors(seed_report)


def test_example_quotation_figures_reach_the_floors(example_report):
    _assert_floors(example_report)
    assert len(example_report.articles) >= 5


def test_every_required_seed_quotation_goes_to_its_speaker(nlp):
    gold = load_gold(SEED_GOLD)["seed.txt"]
    required = [q for q in gold["quotes"] if not q.get("optional")]
    assert len(required) == 9
    ((_, facts),) = list(extract(nlp, read_articles([SEED])))
    said = _said(facts)
    for quote in required:
        speakers = [names for text, names in said if texts_match(text, quote["text"])]
        assert speakers, f"not found: {quote['text'][:50]!r}"
        assert all(any(names_match(n, quote["speaker"]) for n in names) for names in speakers), (
            quote["text"][:50],
            speakers,
        )


def _said(facts: Facts) -> list[tuple[str, tuple[str, ...]]]:
    """Each quotation's text with its speaker's name and aliases (none when unattributed)."""
    names = {e.key: (e.name, *e.aliases) for e in facts.entities}
    return [(q.span.text, names.get(q.speaker, ()) if q.speaker else ()) for q in facts.quotes]
