"""BulkMemory: the store its one-pass ``addN`` fills is the one rdflib's own ``Memory.add`` makes."""

from __future__ import annotations

from rdflib import Dataset, Literal, URIRef
from rdflib.events import Event
from rdflib.namespace import RDF
from rdflib.plugins.stores.memory import Memory
from rdflib.store import TripleAddedEvent

from kg.rdf.memory import BulkMemory

EX = "http://example.org/"
A, B, C = (URIRef(EX + name) for name in "abc")
NAME = URIRef("https://schema.org/name")
PERSON = URIRef("https://schema.org/Person")
# Three graphs that share some triples: the first triple's contexts are the store's default.
GRAPHS = {
    URIRef(EX + "g1"): [(A, RDF.type, PERSON), (A, NAME, Literal("Ada")), (B, NAME, Literal("Bo"))],
    URIRef(EX + "g2"): [(A, RDF.type, PERSON), (C, NAME, Literal("Cy")), (A, NAME, Literal("Ada"))],
    URIRef(EX + "g3"): [(A, RDF.type, PERSON), (C, NAME, Literal("Cy", lang="en"))],
}


def _filled(store: Memory, bulk: bool) -> Dataset:
    dataset = Dataset(store=store, default_union=True)
    for name, triples in GRAPHS.items():
        graph = dataset.graph(name)
        if bulk:
            store.addN((s, p, o, graph) for s, p, o in triples)
        else:
            for triple in triples:
                store.add(triple, graph)
    return dataset


def _state(dataset: Dataset) -> tuple[set, set, dict]:
    quads = set(dataset.quads())
    names = {str(g.identifier) for g in dataset.graphs()}
    per_triple = {t: sorted(str(c.identifier) for c in dataset.store.contexts(t)) for t in dataset.triples((None, None, None))}
    return quads, names, per_triple


def test_bulk_add_makes_the_store_plain_add_makes() -> None:
    plain, bulk = _filled(Memory(), bulk=False), _filled(BulkMemory(), bulk=True)
    assert _state(bulk) == _state(plain)
    assert set(bulk.triples((None, NAME, None))) == set(plain.triples((None, NAME, None)))
    assert set(bulk.triples((None, None, PERSON))) == {(A, RDF.type, PERSON)}


def test_removing_a_graph_keeps_the_triples_other_graphs_state() -> None:
    plain, bulk = _filled(Memory(), bulk=False), _filled(BulkMemory(), bulk=True)
    for dataset in (plain, bulk):
        dataset.remove_graph(dataset.graph(URIRef(EX + "g2")))
    assert _state(bulk) == _state(plain)
    assert (A, NAME, Literal("Ada")) in bulk
    assert (C, NAME, Literal("Cy")) not in bulk


def test_listeners_still_hear_of_every_added_triple() -> None:
    store = BulkMemory()
    heard: list[Event] = []
    store.dispatcher.subscribe(TripleAddedEvent, heard.append)
    _filled(store, bulk=True)
    assert len(heard) == sum(len(triples) for triples in GRAPHS.values())
    assert heard[0].triple == (A, RDF.type, PERSON)
