"""Extraction in several processes: the facts of one process, in order, and errors that come back whole."""

from __future__ import annotations

from pathlib import Path

import pytest

from kg.errors import InputError
from kg.io import read_articles
from kg.io.article import Article
from kg.nlp import extract
from kg.nlp.pipeline import _batches

EXAMPLES = Path(__file__).resolve().parent.parent.parent / "examples"


def test_batches_keep_every_article_in_order() -> None:
    articles = [Article(id=str(n), text="x") for n in range(7)]
    assert [[a.id for a in batch] for batch in _batches(articles, 3)] == [["0", "1", "2"], ["3", "4", "5"], ["6"]]
    assert list(_batches([], 3)) == []


@pytest.mark.slow
def test_two_processes_give_the_facts_of_one(nlp) -> None:
    articles = list(read_articles([EXAMPLES]))
    names = list(nlp.pipe_names)
    serial = [(a.id, f) for a, f in extract(nlp, articles)]
    # Batches of two over eleven articles: more batches than the four kept in flight.
    spread = [(a.id, f) for a, f in extract(nlp, articles, batch_size=2, n_process=2)]
    assert spread == serial
    assert any(f.quotes for _, f in serial)
    assert nlp.pipe_names == names


@pytest.mark.slow
def test_an_error_in_a_worker_reaches_the_caller_as_itself(nlp) -> None:
    fine = Article(id="fine", text='"It rained," said Ana Rivera.')
    huge = Article(id="huge", text="word " * (nlp.max_length // 5 + 1))
    with pytest.raises(InputError, match="^huge: text too long"):
        list(extract(nlp, [fine, huge], batch_size=1, n_process=2))
