"""Default prefixes: a query without PREFIX lines runs the same on a graph file and on a store,
in Python, on the command line and through ``kg serve``."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from rdflib import Dataset, Literal, URIRef
from rdflib.namespace import RDF

from kg.graph import KnowledgeGraph
from kg.prefixes import QUERY_PREFIXES
from kg.rdf.namespaces import PREFIXES
from kg.server import ServerConfig, SparqlServer, make_server

SDO = "https://schema.org/"
PEOPLE = {"urn:kg:test:ana": "Ana Quillfeather", "urn:kg:test:jonas": "Jonas Brekkevold"}
# Every default prefix in one query, none declared: it parses only if each is known.
EVERY_PREFIX = (
    "SELECT ?n WHERE { ?p rdf:type schema:Person ; schema:name ?n . "
    "FILTER(?n != 'x'^^xsd:string && rdfs:label != owl:sameAs && prov:wasDerivedFrom != oa:exact "
    "&& dcterms:title != kg:rule) } ORDER BY ?n"
)
NAMES = ["Ana Quillfeather", "Jonas Brekkevold"]


@pytest.fixture(scope="module")
def graphs(tmp_path_factory) -> dict[str, Path]:
    """Two invented people, one named graph each, in a TriG file and in a store folder."""
    folder = tmp_path_factory.mktemp("prefixes")
    dataset = Dataset(default_union=True)
    for iri, name in PEOPLE.items():
        graph = dataset.graph(URIRef(f"https://w3id.org/kg/id/article/{iri.rsplit(':', 1)[1]}"))
        graph.add((URIRef(iri), RDF.type, URIRef(SDO + "Person")))
        graph.add((URIRef(iri), URIRef(SDO + "name"), Literal(name)))
    file = folder / "graph.trig"
    dataset.serialize(file, format="trig")
    store = folder / "store"
    with KnowledgeGraph.open(store, create=True) as kg:
        kg.add_graphs(dataset)
    return {"file": file, "store": store}


def names(rows) -> list[str]:
    return sorted(str(row[0]) for row in rows)


def test_the_query_prefixes_agree_with_the_namespaces_kg_writes():
    for prefix, iri in PREFIXES.items():
        assert QUERY_PREFIXES[prefix] == iri
    assert set(QUERY_PREFIXES) == {"schema", "kg", "rdf", "rdfs", "xsd", "owl", "prov", "oa", "dcterms"}


@pytest.mark.parametrize("kind", ["file", "store"])
def test_python_queries_need_no_prefix_lines(graphs, kind):
    kg = KnowledgeGraph.open(graphs[kind], read_only=True)
    assert sorted(names(kg.query(EVERY_PREFIX))) == sorted(NAMES)
    # The same in the child process a time limit runs it in.
    assert sorted(names(kg.query(EVERY_PREFIX, timeout=60))) == sorted(NAMES)
    assert sorted(names(kg.query(EVERY_PREFIX, interruptible=True))) == sorted(NAMES)


@pytest.mark.parametrize("kind", ["file", "store"])
def test_a_query_s_own_prefix_wins_over_the_default(graphs, kind):
    kg = KnowledgeGraph.open(graphs[kind], read_only=True)
    mine = "PREFIX schema: <http://example.org/not-schema/> SELECT ?n WHERE { ?p schema:name ?n }"
    assert list(kg.query(mine)) == []


def kg_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "kg", *args], capture_output=True, text=True, timeout=600)


@pytest.mark.parametrize("kind", ["file", "store"])
def test_the_command_line_needs_no_prefix_lines(graphs, kind):
    result = kg_cli("query", str(graphs[kind]), EVERY_PREFIX, "--format", "csv")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == ["n", *sorted(NAMES)]


def test_query_help_lists_every_default_prefix():
    help_text = kg_cli("query", "--help").stdout
    for prefix, iri in QUERY_PREFIXES.items():
        assert f"{prefix}:" in help_text and f"<{iri}>" in help_text


@pytest.fixture(scope="module", params=["file", "store"])
def server(request, graphs) -> Iterator[SparqlServer]:
    server = make_server(str(graphs[request.param]), ServerConfig(port=0, workers=1, timeout=30, quiet=True))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.close()
        thread.join(timeout=10)


@pytest.mark.parametrize("query", [EVERY_PREFIX, EVERY_PREFIX.replace("ORDER BY ?n", "ORDER BY ?n LIMIT 5"),
                                   "ASK { ?p a schema:Person ; schema:name 'Ana Quillfeather' }"])
def test_kg_serve_needs_no_prefix_lines(server, query):
    url = f"{server.url}sparql?{urllib.parse.urlencode({'query': query})}"
    request = urllib.request.Request(url, headers={"Accept": "application/sparql-results+json"})
    with urllib.request.urlopen(request, timeout=60) as response:
        answer = json.loads(response.read())
    if "boolean" in answer:
        assert answer["boolean"] is True
    else:
        assert sorted(b["n"]["value"] for b in answer["results"]["bindings"]) == sorted(NAMES)
