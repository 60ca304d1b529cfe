"""A timed-out query stops for good: no thread, no child process and no memory is left running after it.

The first test runs a runaway query (every triple against every triple, five times over)
with a 1 s limit on a real graph, then checks the process a few seconds later: the thread
count is what it was, no child process is left, and the process spent next to no CPU time
while it waited (a query left running would spend all of it). No wall-clock figure is
asserted: the machine may be shared; ``benchmarks/query_deadline.py`` measures how soon a
query stops. The old way (an exception raised in the query's thread) left the query
running on: inside Oxigraph for good (a thread more after every timeout), in rdflib
whenever the exception landed in a garbage-collector callback, its memory growing by
tens of MB a second.
"""

from __future__ import annotations

import os
import socket
import threading
import time
from pathlib import Path
from typing import Callable

import pytest
from rdflib import RDF, Literal, URIRef

from kg.errors import QueryError, QueryTimeout
from kg.graph import KnowledgeGraph

#: Every triple against every triple, five times over: rows handed out one by one, or counted
#: inside the engine (Oxigraph then never returns to Python until it is done: no exception stops it).
RUNAWAYS = {
    "rows": "SELECT * WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i . ?j ?k ?l . ?m ?n ?o }",
    "count": "SELECT (COUNT(*) AS ?x) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i . ?j ?k ?l . ?m ?n ?o }",
}
NAME = "<https://schema.org/name>"


#: Seconds after which a query the limit should have stopped counts as hung: a guard, no speed claim.
HANG = 60


def cpu_seconds() -> float:
    """CPU time this process has used, all threads: other work on the machine does not count."""
    times = os.times()
    return times.user + times.system


def within_hang_guard(call: Callable[[], object]) -> object:
    """``call()``'s result or exception, failing the test if it has not returned after :data:`HANG` s."""
    outcome: dict[str, object] = {}

    def run() -> None:
        try:
            outcome["value"] = call()
        except BaseException as exc:  # handed to the test as it was raised
            outcome["error"] = exc

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(HANG)
    assert not thread.is_alive(), f"still running after {HANG} s: the limit did not stop it"
    if "error" in outcome:
        raise outcome["error"]  # type: ignore[misc]
    return outcome.get("value")


def children() -> list[str]:
    """Live child processes of this process (every thread's), zombies included."""
    found = []
    for task in Path(f"/proc/{os.getpid()}/task").iterdir():
        found += (task / "children").read_text().split()
    return found


def small_graph(graph: KnowledgeGraph) -> KnowledgeGraph:
    """Sixty triples: the runaway query has 60^5 (almost 800 million) rows to go through."""
    insert(graph, [(URIRef(f"urn:kg:p{i}"), URIRef("https://schema.org/name"), Literal(f"Person {i}"))
                   for i in range(60)])
    return graph


def insert(graph: KnowledgeGraph, triples: list[tuple]) -> None:
    """Add ``triples`` to the graph <urn:kg:g> (and, in the store, to its default graph)."""
    if graph.backend == "memory":
        for triple in triples:
            graph.rdf_graph().graph(URIRef("urn:kg:g")).add(triple)
    else:
        body = " ".join(f"<{s}> <{p}> {o.n3()} ." for s, p, o in triples)
        graph._backend.store.update(f"INSERT DATA {{ {body} GRAPH <urn:kg:g> {{ {body} }} }}")  # type: ignore[attr-defined]


@pytest.fixture(params=["memory", "store"])
def graph(request: pytest.FixtureRequest, tmp_path: Path) -> KnowledgeGraph:
    if request.param == "memory":
        return small_graph(KnowledgeGraph())
    return small_graph(KnowledgeGraph.open(tmp_path / "store", create=True))


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads /proc")
@pytest.mark.parametrize("runaway", RUNAWAYS.values(), ids=RUNAWAYS.keys())
def test_a_timed_out_query_leaves_nothing_running(graph: KnowledgeGraph, runaway: str) -> None:
    assert len(graph.query(f"SELECT ?n WHERE {{ ?p {NAME} ?n }}", timeout=10)) == 60
    threads, kept = threading.active_count(), set(children())  # kept: multiprocessing's helpers
    with pytest.raises(QueryTimeout, match="1 s limit"):
        within_hang_guard(lambda: graph.query(runaway, timeout=1))
    before = cpu_seconds()
    time.sleep(3)
    # a query left running would spend about 3 s of CPU here; an idle process next to none
    assert cpu_seconds() - before < 1.5
    assert threading.active_count() == threads
    assert set(children()) <= kept
    # and the graph answers as before, under a limit or not
    assert graph.query(f"ASK {{ ?p {NAME} 'Person 7' }}", timeout=10).askAnswer
    assert len(graph.query(f"SELECT ?n WHERE {{ ?p {NAME} ?n }}")) == 60


def test_errors_in_a_timed_query_are_one_line(graph: KnowledgeGraph) -> None:
    with pytest.raises(QueryError, match="SPARQL (query failed|syntax error)") as failed:
        graph.query("SELECT ?x WHERE {", timeout=10)
    assert not isinstance(failed.value, QueryTimeout) and "\n" not in str(failed.value)
    with pytest.raises(QueryError, match="above 0 s"):
        graph.query("ASK {}", timeout=0)


def test_timed_construct_and_named_queries_come_back_whole(graph: KnowledgeGraph) -> None:
    built = graph.query(f"CONSTRUCT {{ ?p {NAME} ?n }} WHERE {{ ?p {NAME} ?n }}", timeout=10)
    assert len(built.graph) == 60
    assert (URIRef("urn:kg:p3"), URIRef("https://schema.org/name"), Literal("Person 3")) in built.graph
    quote, schema = URIRef("urn:kg:q1"), "https://schema.org/"
    insert(graph, [(quote, RDF.type, URIRef(schema + "Quotation")), (quote, URIRef(schema + "text"), Literal("We stay.")),
                   (quote, URIRef(schema + "isPartOf"), URIRef("urn:kg:a1")),
                   (quote, URIRef(schema + "creator"), URIRef("urn:kg:p3"))])
    rows = graph.query("quotes", timeout=10)
    assert [(str(r.speaker), str(r.text)) for r in rows] == [("Person 3", "We stay.")]


def test_a_silent_sparql_server_times_out() -> None:
    """A server that takes the connection and never answers: the request's timeout is the limit."""
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(4)
        port = silent.getsockname()[1]
        graph = KnowledgeGraph.open(f"http://127.0.0.1:{port}/query")
        with pytest.raises(QueryTimeout, match="1 s limit"):
            within_hang_guard(lambda: graph.query("ASK {}", timeout=1))
