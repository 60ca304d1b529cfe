"""Stores: an on-disk Oxigraph folder and a real Oxigraph server behave like the in-memory graph."""

from __future__ import annotations

import gc
import shutil
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from dataclasses import replace
from pathlib import Path

import networkx as nx
import pytest
from rdflib import Dataset, Literal, URIRef, Variable

from kg.errors import GraphError, QueryError
from kg.extract.model import Entity, Facts, TextSpan
from kg.graph import EXPORT_FORMATS, KnowledgeGraph, QueryTimeout, export_format
from kg.rdf.namespaces import SDO, XSD
from kg.rdf.store import is_sparql_url, is_store_dir, sparql_endpoints

ID = "https://w3id.org/kg/id/"
ANA = URIRef(ID + "person/ana-rivera")


def quads(graph: KnowledgeGraph) -> set[tuple]:
    """Every quad of the graph, graph names as IRIs: what 'the same graph' means here."""
    dataset = graph.to_memory().rdf_graph()
    return {(s, p, o, getattr(g, "identifier", g)) for s, p, o, g in dataset.quads((None, None, None, None))}


@pytest.fixture
def store(tmp_path):
    with KnowledgeGraph.open(tmp_path / "store", create=True) as graph:
        yield graph


def other_facts(facts: Facts) -> Facts:
    """The sample facts, plus a second person only this version names."""
    extra = Entity(key="person:2", kind="person", name="Luis Ortega", mentions=(TextSpan(0, 3, "Ana"),))
    return replace(facts, entities=(*facts.entities, extra))


def test_store_equals_memory(store, make_article, facts):
    memory = KnowledgeGraph()
    for graph in (store, memory):
        graph.add(make_article("harbor-1"), facts)
        graph.add(make_article("harbor-2"), facts)
    assert quads(store) == quads(memory)
    assert store.stats() == memory.stats()
    assert store.backend == "store" and memory.backend == "memory"


def test_reingesting_replaces_without_duplicates_or_stale_triples(store, make_article, facts):
    store.add(make_article(), other_facts(facts))
    assert store.stats()["people"] == 2
    store.add(make_article(), facts)
    first = quads(store)
    store.add(make_article(), facts)
    assert quads(store) == first
    # The person only the earlier version named is gone with it.
    assert not store.query(f"ASK {{ <{ID}person/luis-ortega> ?p ?o }}").askAnswer


def test_one_by_one_equals_together(tmp_path, make_article, facts):
    together = KnowledgeGraph.open(tmp_path / "together", create=True)
    together.add_all([(make_article("harbor-1"), facts), (make_article("harbor-2"), other_facts(facts))])
    for article_id, version in (("harbor-1", facts), ("harbor-2", other_facts(facts))):
        with KnowledgeGraph.open(tmp_path / "apart", create=True) as one:
            one.add(make_article(article_id), version)
    apart = KnowledgeGraph.open(tmp_path / "apart", read_only=True)
    assert quads(apart) == quads(together)


def test_remove_keeps_entities_other_articles_name(store, make_article, facts):
    store.add(make_article("harbor-1"), facts)
    store.add(make_article("harbor-2"), other_facts(facts))
    assert store.remove("harbor-2", "never-there") == ["harbor-2"]
    assert store.stats()["articles"] == 1
    # Ana Rivera is named by harbor-1 too: she stays, with her name; Luis Ortega goes.
    assert store.query_rows(f"SELECT ?n WHERE {{ <{ANA}> <{SDO.name}> ?n }}") == [{"n": "Ana Rivera"}]
    assert not store.query(f"ASK {{ <{ID}person/luis-ortega> ?p ?o }}").askAnswer
    store.remove("harbor-1")
    assert store.stats()["triples"] == 0


def test_open_detects_files_stores_and_urls(tmp_path, make_article, facts):
    with KnowledgeGraph.open(tmp_path / "s", create=True) as graph:
        graph.add(make_article(), facts)
        graph.save(tmp_path / "g.trig")
    assert is_store_dir(tmp_path / "s") and not is_store_dir(tmp_path)
    assert KnowledgeGraph.open(tmp_path / "s").backend == "store"
    assert KnowledgeGraph.open(tmp_path / "g.trig").backend == "memory"
    assert KnowledgeGraph.open("http://127.0.0.1:9/query").backend == "sparql"
    with pytest.raises(GraphError, match="no such graph file or store folder"):
        KnowledgeGraph.open(tmp_path / "missing")
    (tmp_path / "plain").mkdir()
    (tmp_path / "plain" / "x.txt").write_text("x")
    with pytest.raises(GraphError, match="not a kg store folder"):
        KnowledgeGraph.open(tmp_path / "plain", create=True)
    with pytest.raises(GraphError, match="looks like a graph file"):
        KnowledgeGraph.open(tmp_path / "new.ttl", create=True)


def test_read_only_handle_beside_a_writer(store, tmp_path, make_article, facts):
    store.add(make_article(), facts)
    store.close()
    writer = KnowledgeGraph.open(tmp_path / "store")
    reader = KnowledgeGraph.open(tmp_path / "store", read_only=True)
    assert reader.stats()["articles"] == 1
    with pytest.raises(GraphError, match="read-only"):
        reader.add(make_article("harbor-2"), facts)
    writer.close()


def test_threads_query_one_store_at_once(store, make_article, facts):
    store.add(make_article(), facts)
    results: list[int] = []
    threads = [threading.Thread(target=lambda: results.append(len(store.query("quotes")))) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results == [2] * 8


@pytest.mark.parametrize("backend", ["memory", "store"])
def test_query_timeout_stops_and_the_graph_keeps_answering(backend, tmp_path, make_article, facts):
    graph = KnowledgeGraph() if backend == "memory" else KnowledgeGraph.open(tmp_path / "s", create=True)
    for n in range(3):
        graph.add(make_article(f"harbor-{n}"), facts)
    slow = "SELECT * WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i . ?j ?k ?l }"
    raised: list[BaseException] = []
    thread = threading.Thread(target=_catching, args=(raised, graph.query, slow, 0.3), daemon=True)
    thread.start()
    thread.join(60)  # a hang guard, no speed claim: a query the limit did not stop fails here
    assert not thread.is_alive() and len(raised) == 1, raised
    assert isinstance(raised[0], QueryTimeout) and "0.3 s" in str(raised[0])
    assert len(graph.query("quotes", timeout=5)) == 6


def _catching(raised: list[BaseException], query, sparql: str, timeout: float) -> None:  # type: ignore[no-untyped-def]
    """Run one timed query, keeping what it raised for the test's thread."""
    try:
        query(sparql, timeout=timeout)
    except BaseException as exc:
        raised.append(exc)


def test_query_results_keep_literal_types(store, make_article, facts):
    store.add(make_article(), facts)
    row = store.query_rows(
        "PREFIX schema: <https://schema.org/> PREFIX kg: <https://w3id.org/kg/ns#> "
        "SELECT ?name ?age ?when WHERE { ?p schema:name ?name ; kg:age ?age . ?e schema:startDate ?when }"
    )[0]
    assert row == {"name": "Ana Rivera", "age": 34, "when": row["when"]}
    when = store.query("SELECT ?w WHERE { ?e <https://schema.org/startDate> ?w }").bindings[0][Variable("w")]
    assert when == Literal("2022-04", datatype=XSD.gYearMonth)
    with pytest.raises(QueryError, match="SPARQL syntax error at line 1, column 18, at the end of the query"):
        store.query("SELECT ?x WHERE {")


def test_rdf_graph_of_a_store_speaks_rdflib(store, make_article, facts):
    store.add(make_article(), facts)
    view = store.rdf_graph()
    assert isinstance(view, Dataset)
    assert ANA in set(view.subjects(SDO.name, None))


@pytest.mark.parametrize("suffix", [s for s in EXPORT_FORMATS if s not in (".graphml", ".gexf")])
def test_export_every_rdf_format_round_trips(store, tmp_path, make_article, facts, suffix):
    store.add(make_article(), facts)
    out = store.save(tmp_path / f"graph{suffix}")
    back = KnowledgeGraph.open(out)
    assert back.stats() == store.stats()
    if export_format(out) in ("trig", "nquads", "json-ld"):
        # Quad syntaxes keep each article's graph.
        assert quads(back) == quads(store)


def test_jsonld_has_a_compact_context(store, tmp_path, make_article, facts):
    store.add(make_article(), facts)
    text = store.save(tmp_path / "g.jsonld").read_text(encoding="utf-8")
    assert '"schema": "https://schema.org/"' in text and '"schema:name": "Ana Rivera"' in text


@pytest.mark.parametrize("suffix,reader", [(".graphml", nx.read_graphml), (".gexf", nx.read_gexf)])
def test_network_exports_load_in_networkx(store, tmp_path, make_article, facts, suffix, reader):
    store.add(make_article(), facts)
    network = reader(store.save(tmp_path / f"net{suffix}"))
    nodes = {data.get("name", data.get("label")): data for _, data in network.nodes(data=True)}
    assert nodes["Ana Rivera"]["type"] == "person"
    assert "We waited all year" in nodes["Ana Rivera"]["quotes"]
    relations = {data["relation"] for _, _, data in network.edges(data=True)}
    assert {"performed", "created", "located at"} <= relations


def test_export_refuses_an_unknown_extension(tmp_path):
    with pytest.raises(GraphError, match=r"\.graphml"):
        export_format(tmp_path / "graph.csv")


def test_sparql_endpoint_conventions():
    assert sparql_endpoints("http://h:7878/") == ("http://h:7878/query", "http://h:7878/update")
    assert sparql_endpoints("http://h:3030/news/query") == ("http://h:3030/news/query", "http://h:3030/news/update")
    assert sparql_endpoints("http://h:8890/sparql") == ("http://h:8890/sparql", "http://h:8890/sparql")
    assert sparql_endpoints("http://h:7200/repositories/news") == (
        "http://h:7200/repositories/news", "http://h:7200/repositories/news/statements")
    assert is_sparql_url("HTTPS://h/sparql") and not is_sparql_url(Path("http:/h"))


def _oxigraph_binary() -> str | None:
    beside = Path(sys.executable).parent / "oxigraph"
    return str(beside) if beside.is_file() else shutil.which("oxigraph")


@pytest.fixture(scope="module")
def oxigraph_server(tmp_path_factory):
    """A real ``oxigraph serve`` on a free loopback port (its default graph as stored: kg keeps the merge there)."""
    binary = _oxigraph_binary()
    if binary is None:
        pytest.skip("the oxigraph server (PyPI package 'oxigraph') is not installed")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    folder = tmp_path_factory.mktemp("oxigraph")
    process = subprocess.Popen(
        [binary, "serve", "--location", str(folder), "--bind", f"127.0.0.1:{port}"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 20
    while True:
        try:
            urllib.request.urlopen(f"{url}/query?query=ASK%7B%7D", timeout=1).close()
            break
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                process.kill()
                pytest.fail(f"oxigraph did not start: {process.stderr.read().decode()[:500]}")
            time.sleep(0.1)
    yield url
    process.terminate()
    process.wait(timeout=10)


def test_build_pushed_to_a_real_oxigraph_server(oxigraph_server, make_article, facts):
    remote = KnowledgeGraph.open(oxigraph_server)
    assert remote.backend == "sparql"
    remote.add(make_article("harbor-1"), other_facts(facts))
    remote.add(make_article("harbor-2"), facts)
    remote.add(make_article("harbor-1"), facts)  # replaced, not added to
    memory = KnowledgeGraph()
    memory.add(make_article("harbor-1"), facts)
    memory.add(make_article("harbor-2"), facts)
    assert quads(remote) == quads(memory)
    assert remote.stats() == memory.stats()
    rows = KnowledgeGraph.open(f"{oxigraph_server}/query").query_rows("quotes")
    assert {(r["speaker"], r["text"]) for r in rows} == {
        ("Ana Rivera", "We waited all year for this night."), (None, "It rained,")}
    assert remote.query(f"ASK {{ GRAPH <{ID}article/harbor-2> {{ <{ANA}> a <{SDO.Person}> }} }}").askAnswer
    assert remote.remove("harbor-2", "never-there") == ["harbor-2"]
    assert remote.stats()["articles"] == 1
    assert remote.query_rows(f"SELECT ?n WHERE {{ <{ANA}> <{SDO.name}> ?n }}") == [{"n": "Ana Rivera"}]
    remote.remove("harbor-1")


def test_server_errors_are_one_line(oxigraph_server):
    with pytest.raises(QueryError, match="HTTP 400"):
        KnowledgeGraph.open(oxigraph_server).query("SELECT ?x WHERE {")
    with pytest.raises(GraphError, match="cannot reach"):
        KnowledgeGraph.open("http://127.0.0.1:9").query("ASK {}")


def test_memory_readd_replaces_the_article_and_keeps_the_others(make_article, facts):
    memory = KnowledgeGraph()
    memory.add(make_article("harbor-1"), other_facts(facts))
    memory.add(make_article("harbor-2"), facts)
    memory.add(make_article("harbor-1"), facts)
    dataset = memory.rdf_graph()
    luis = URIRef(ID + "person/luis-ortega")
    # The person only the first version of harbor-1 named is gone, from its graph and from the union.
    assert (luis, None, None) not in dataset.graph(URIRef(ID + "article/harbor-1"))
    assert not memory.query(f"ASK {{ <{luis}> ?p ?o }}").askAnswer
    # Both articles hold the same facts now, each in its own graph.
    first, second = (set(dataset.graph(URIRef(ID + f"article/harbor-{n}"))) for n in (1, 2))
    assert (ANA, SDO.name, Literal("Ana Rivera")) in first and (ANA, SDO.name, Literal("Ana Rivera")) in second
    assert len(first) == len(second)
    # And the name index saw the re-added article: a lone surname still resolves to Ana Rivera.
    lone = Facts(entities=(Entity(key="person:1", kind="person", name="Rivera", mentions=(TextSpan(0, 3, "Ana"),)),))
    memory.add(make_article("harbor-3"), lone)
    assert (ANA, None, None) in dataset.graph(URIRef(ID + "article/harbor-3"))


def test_add_all_keeps_the_graph_from_the_collector_only_while_it_runs(make_article, facts):
    frozen_between: list[int] = []

    def pairs():
        # Frozen from the start: spaCy's workers, forked while reading, inherit a frozen heap.
        frozen_between.append(gc.get_freeze_count())
        yield make_article("harbor-1"), facts
        frozen_between.append(gc.get_freeze_count())
        yield make_article("harbor-2"), facts

    graph = KnowledgeGraph()
    assert graph.add_all(pairs()) == 2
    # The first article was frozen out of full collections while the second was read...
    assert frozen_between[0] > 0 and frozen_between[1] > 0
    # ...and everything is collectable again once the loop is over.
    assert gc.get_freeze_count() == 0
    assert graph.stats()["articles"] == 2


def test_add_all_leaves_a_callers_own_freeze_alone(make_article, facts):
    gc.freeze()
    try:
        before = gc.get_freeze_count()
        graph = KnowledgeGraph()
        graph.add_all([(make_article(), facts)])
        # Still frozen (not handed back by add_all), and nothing of the new graph added to it.
        assert 0 < gc.get_freeze_count() <= before
    finally:
        gc.unfreeze()


def test_add_all_on_a_store_freezes_nothing(store, make_article, facts):
    # A store keeps the graph on disk: freezing would only keep each article's reference cycles.
    frozen_between: list[int] = []

    def pairs():
        yield make_article("harbor-1"), facts
        frozen_between.append(gc.get_freeze_count())
        yield make_article("harbor-2"), facts

    assert store.add_all(pairs()) == 2
    assert frozen_between == [0]


def test_store_flushes_its_write_buffers_as_updates_add_up(store, make_article, facts, monkeypatch):
    import kg.rdf.store as store_module

    flushes: list[int] = []
    backend = store._backend
    real = backend._store

    class Counting:
        """The open store, counting flushes (pyoxigraph's Store cannot be patched)."""

        def flush(self) -> None:
            flushes.append(1)
            real.flush()

        def __getattr__(self, name):
            return getattr(real, name)

    monkeypatch.setattr(store_module, "_FLUSH_BYTES", 1)
    backend._store = Counting()
    store.add(make_article("harbor-1"), facts)
    store.add(make_article("harbor-2"), facts)
    backend._store = real
    assert len(flushes) == 2
    assert store.stats()["articles"] == 2
