"""Extraction with several spaCy processes: the same facts as one, and the pipeline left as it was."""

from __future__ import annotations

from pathlib import Path

import pytest

from kg.io import read_articles
from kg.io.article import Article
from kg.nlp import extract
from kg.nlp.pipeline import PACK_PIPE, facts_from_doc, make_doc, pack_facts

EXAMPLES = Path(__file__).resolve().parent.parent.parent / "examples"


def test_packed_facts_come_back_equal(nlp) -> None:
    article = Article(id="t", text='"We played it loud," said Ana Rivera at the Kestrel Arena in Glasgow.')
    doc = nlp(make_doc(nlp, article))
    facts = facts_from_doc(doc)
    packed = pack_facts(doc)
    assert facts_from_doc(packed) == facts
    assert facts.quotes[0].span.text == "We played it loud,"
    # Nothing but the packed facts travels back: no token vectors, no extractor caches.
    assert list(packed.user_data) == ["kg.packed_facts"]
    assert packed.tensor.size == 0


@pytest.mark.slow
def test_two_processes_give_the_facts_of_one(nlp) -> None:
    articles = list(read_articles([EXAMPLES]))
    names = list(nlp.pipe_names)
    serial = [(a.id, f) for a, f in extract(nlp, articles)]
    spread = [(a.id, f) for a, f in extract(nlp, articles, batch_size=2, n_process=2)]
    assert spread == serial
    assert any(f.quotes for _, f in serial)
    assert nlp.pipe_names == names and PACK_PIPE not in nlp.pipe_names
