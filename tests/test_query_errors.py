"""SPARQL errors a person can act on: updates refused as such, syntax errors as line, column and word."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from rdflib import Dataset, Literal, URIRef

from kg.errors import QueryError
from kg.graph import KnowledgeGraph
from kg.query_errors import READ_ONLY, syntax_message

UPDATES = [
    "INSERT DATA { <urn:kg:a> <urn:kg:b> <urn:kg:c> }",
    "PREFIX ex: <http://example.org/>\n# remove everything\ndelete where { ?s ?p ?o }",
    "DROP ALL",
    "LOAD <http://example.org/data.ttl>",
    "WITH <urn:kg:g> DELETE { ?s ?p ?o } WHERE { ?s ?p ?o }",
]
# Each typo with the one line it gets on a store: the line and column as typed, and the word there.
TYPOS = {
    "SELEC ?n WHERE { ?p ?q ?n }":
        "SPARQL syntax error at line 1, column 1: a query starts with SELECT, ASK, CONSTRUCT or DESCRIBE, not 'SELEC'",
    "SELECT ?n WHERE {\n  ?p a foaf:Person ;\n     schema:name ?n }":
        "SPARQL syntax error at line 2, column 8: unknown prefix 'foaf:' "
        "(declare it: PREFIX foaf: <...>; kg query --help lists the known ones)",
    "SELECT ?n WHERE {\n  ?p schema:name ?n .\n  FILTR(?n) }":
        "SPARQL syntax error at line 3, column 11, near 'FILTR(?n)'; expected OPTIONAL",
    "SELECT ?n WHERE { ?p schema:name ?n } ORDER ?n LIMIT 5":
        "SPARQL syntax error at line 1, column 47, near '?n'; expected BY",
    "SELECT ?n WHERE { ?p schema:name ?n } ORDER ?n":
        "SPARQL syntax error at line 1, column 47, at the end of the query; expected BY",
    "SELECT ?n WHERE { ?p schema:name ?n ":
        "SPARQL syntax error at line 1, column 37, at the end of the query; "
        "expected ',' or '.' or ';' or '{' or '{|' or '}' or ...",
}


@pytest.fixture(scope="module")
def graphs(tmp_path_factory) -> dict[str, Path]:
    """One invented person in a TriG file and in a store folder."""
    folder = tmp_path_factory.mktemp("errors")
    dataset = Dataset(default_union=True)
    dataset.graph(URIRef("https://w3id.org/kg/id/article/a")).add(
        (URIRef("urn:kg:ana"), URIRef("https://schema.org/name"), Literal("Ana Quillfeather")))
    file = folder / "graph.trig"
    dataset.serialize(file, format="trig")
    with KnowledgeGraph.open(folder / "store", create=True) as kg:
        kg.add_graphs(dataset)
    return {"file": file, "store": folder / "store"}


def kg_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "kg", *args], capture_output=True, text=True, timeout=600)


@pytest.mark.parametrize("update", UPDATES)
@pytest.mark.parametrize("kind", ["store", "file"])
def test_an_update_is_refused_as_read_only(graphs, kind, update):
    graph = KnowledgeGraph.open(graphs[kind], read_only=True)
    for timeout in (None, 30):
        with pytest.raises(QueryError) as refused:
            graph.query(update, timeout=timeout)
        assert str(refused.value) == READ_ONLY
    assert [str(row[0]) for row in graph.query("SELECT ?n WHERE { ?p schema:name ?n }")] == ["Ana Quillfeather"]


def test_the_command_line_refuses_an_update_in_one_line(graphs):
    result = kg_cli("query", str(graphs["store"]), UPDATES[0])
    assert result.returncode == 1
    assert result.stderr.splitlines() == [f"Error: {READ_ONLY}"]


@pytest.mark.parametrize("typo", list(TYPOS))
def test_a_syntax_error_on_a_store_names_line_column_and_word(graphs, typo):
    graph = KnowledgeGraph.open(graphs["store"], read_only=True)
    for timeout in (None, 30):  # in this process, and in the child a time limit runs it in
        with pytest.raises(QueryError) as failed:
            graph.query(typo, timeout=timeout)
        assert str(failed.value) == TYPOS[typo]


def test_the_command_line_shows_a_syntax_error_in_one_line(graphs):
    typo = "SELECT ?n WHERE {\n  ?p schema:name ?n .\n  FILTR(?n) }"
    result = kg_cli("query", str(graphs["store"]), typo)
    assert result.returncode == 1
    assert result.stderr.splitlines() == [f"Error: {TYPOS[typo]}"]


def test_columns_count_characters_not_bytes(graphs):
    typo = "SELECT ?n WHERE { ?p <https://example.org/Björk> ?n . FILTR(?n) }"
    # Oxigraph stops at the ')' of FILTR(?n): the 63rd character, the 64th byte.
    with pytest.raises(QueryError) as failed:
        KnowledgeGraph.open(graphs["store"], read_only=True).query(typo)
    assert str(failed.value) == "SPARQL syntax error at line 1, column 63, near 'FILTR(?n)'; expected OPTIONAL"


def test_an_error_without_a_position_is_kept_on_one_line():
    assert syntax_message("ASK {}", "IO error:\n  disk gone") == "SPARQL query failed: IO error: disk gone"
