"""A build stopped after any article and run again gives exactly the graph of an uninterrupted build.

The fast, in-process half of test_crash.py's kill tests: each article is one
transaction, so a kill leaves some first articles in the store, and the rerun starts
from a new process (a new handle, its name index read back from disk). One-word names
are where a rerun could go astray: it meets them with later articles already known.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from kg.extract.model import Entity, Facts, Quote, TextSpan
from kg.graph import KnowledgeGraph
from kg.io.article import Article

ID = "https://w3id.org/kg/id/"


def said(article_id: str, name: str) -> tuple[Article, Facts]:
    """An article in which one person, named as given, says something."""
    text = f'"We played it loud," {name} said.'
    start = text.index(name)
    person = Entity(key="person:1", kind="person", name=name, mentions=(TextSpan(start, start + len(name), name),))
    quote = Quote(span=TextSpan(1, 18, text[1:18]), speaker="person:1")
    return Article(id=article_id, text=text), Facts(entities=(person,), quotes=(quote,))


# Names spelt alike up to case or accents share an IRI; the fullest one names a linked node.
CORPUS = [
    said("r1", "Ana Rivera"),
    said("r2", "Rivera"),  # -> Ana Rivera, named so
    said("r3", "Ana Rivéra"),  # a fuller-looking spelling, known only from here on
    said("o1", "Osterholm"),  # nobody yet: apart
    said("o2", "Jonas Osterholm"),
    said("o3", "Osterholm"),  # -> Jonas Osterholm
    said("o4", "Elin Osterholm"),
    said("o5", "Osterholm"),  # two known: apart
    said("r4", "Rivera"),  # -> Ana Rivera, under its fullest name by now
]


def snapshot(store: Path) -> dict[str, frozenset]:
    with KnowledgeGraph.open(store, read_only=True) as graph:
        dataset = graph.to_memory().dataset
    return {str(g.identifier): frozenset(g) for g in dataset.graphs() if len(g)}


def build(store: Path, articles: list[tuple[Article, Facts]]) -> None:
    """One `kg build --store` run: a new handle, so the name index comes from disk."""
    with KnowledgeGraph.open(store, create=True) as graph:
        graph.add_all(articles)


@pytest.fixture(scope="module")
def clean(tmp_path_factory) -> dict[str, frozenset]:
    store = tmp_path_factory.mktemp("clean") / "store"
    build(store, CORPUS)
    return snapshot(store)


def speaker(snap: dict[str, frozenset], article_id: str) -> tuple[str, set[str]]:
    """Who speaks in an article's graph, and the names that graph gives them."""
    triples = snap[f"{ID}article/{article_id}"]
    person = next(o for s, p, o in triples if str(p) == "https://schema.org/creator")
    return str(person), {str(o) for s, p, o in triples if s == person and str(p) == "https://schema.org/name"}


def test_the_clean_build_resolves_by_what_came_before(clean):
    assert speaker(clean, "r2") == (f"{ID}person/ana-rivera", {"Ana Rivera"})
    assert speaker(clean, "o1") == (f"{ID}person/osterholm", {"Osterholm"})
    assert speaker(clean, "o3") == (f"{ID}person/jonas-osterholm", {"Jonas Osterholm"})
    assert speaker(clean, "o5") == (f"{ID}person/osterholm", {"Osterholm"})
    assert speaker(clean, "r4") == (f"{ID}person/ana-rivera", {"Ana Rivéra"})


@pytest.mark.parametrize("done", range(1, len(CORPUS)))
def test_rerun_after_a_stop_equals_the_clean_build(clean, tmp_path, done):
    store = tmp_path / "store"
    build(store, CORPUS[:done])
    build(store, CORPUS)
    assert snapshot(store) == clean


@pytest.mark.parametrize("first, second", [(1, 4), (2, 6), (3, 5), (4, 8)])
def test_two_stops_in_a_row_still_converge(clean, tmp_path, first, second):
    store = tmp_path / "store"
    build(store, CORPUS[:first])
    build(store, CORPUS[:second])
    build(store, CORPUS)
    assert snapshot(store) == clean
