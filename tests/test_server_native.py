"""SELECT answers Oxigraph writes itself (kg.server.native): the same rows as kg's own writer, never past the cap."""

from __future__ import annotations

import json
from pathlib import Path

import pyoxigraph as ox
import pytest

from kg.server.native import native_select_json
from kg.server.worker import _Answerer

NAME = "https://schema.org/name"
CAP = 5

#: Names that look like the JSON between two solutions, or end in a backslash.
TRICKY = ['x},{y', 'say "},{"', "back\\", '}]}}', "tab\there", "Zoë"]


@pytest.fixture(scope="module")
def store_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A store as kg lays it out (the merge in the default graph), with eight people."""
    folder = tmp_path_factory.mktemp("native") / "store"
    store = ox.Store(str(folder))
    names = [*TRICKY, "Ana", "Luis"]
    for i, name in enumerate(names):
        person = ox.NamedNode(f"urn:kg:person:{i}")
        store.add(ox.Quad(person, ox.NamedNode(NAME), ox.Literal(name), ox.DefaultGraph()))
        store.add(ox.Quad(person, ox.NamedNode(NAME), ox.Literal(name), ox.NamedNode("urn:kg:article")))
    store.flush()
    del store
    return folder


@pytest.fixture(scope="module")
def answerer(store_dir: Path) -> _Answerer:
    return _Answerer(str(store_dir), CAP)


def rows(body: bytes) -> list[dict[str, object]]:
    return json.loads(body)["results"]["bindings"]


@pytest.mark.parametrize(
    ("query", "native"),
    [
        (f"SELECT ?p ?n WHERE {{ ?p <{NAME}> ?n }} ORDER BY ?n LIMIT 3", True),
        (f"SELECT ?p ?n WHERE {{ ?p <{NAME}> ?n }} ORDER BY ?n OFFSET 2 LIMIT 4  # the last four", True),
        (f"SELECT ?n WHERE {{ ?p <{NAME}> ?n FILTER(CONTAINS(?n, 'a')) }}", True),
        (f"SELECT (COUNT(*) AS ?c) WHERE {{ ?p <{NAME}> ?n }}", True),
        (f"SELECT ?n WHERE {{ ?p <{NAME}> ?n }} LIMIT 50", False),  # its own limit is past the cap
        (f"SELECT ?n WHERE {{ ?p <{NAME}> ?n }}", False),  # eight rows: past the cap, written the usual way
        (f"SELECT ?n WHERE {{ {{ SELECT ?n WHERE {{ ?p <{NAME}> ?n }} LIMIT 2 }} }}", False),
        (f"SELECT ?n WHERE {{ ?p <{NAME}> ?n }} VALUES ?n {{ 'Ana' }}", False),
        (f'SELECT ?n WHERE {{ ?p <{NAME}> ?n FILTER(?n = "LIMIT 3") }}', True),
        (f"ASK {{ ?p <{NAME}> ?n }}", False),
    ],
)
def test_native_answers_are_kg_answers(store_dir: Path, answerer: _Answerer, query: str, native: bool) -> None:
    store = ox.Store.read_only(str(store_dir))
    body = native_select_json(store, query, CAP)
    assert (body is not None) is native
    usual = answerer.run(query)
    answer = answerer(query, "application/sparql-results+json", None)
    if query.startswith("ASK"):
        assert json.loads(answer.body)["boolean"] is True
        return
    assert len(rows(answer.body)) == min(len(usual.rows), CAP) and answer.truncated == usual.truncated
    if body is not None:
        # what Oxigraph wrote and what kg writes are the same rows
        assert sorted(map(json.dumps, rows(body))) == sorted(map(json.dumps, rows(answer.body)))
        assert answer.body == body


def test_a_cap_reached_natively_falls_back_and_cuts(store_dir: Path, answerer: _Answerer) -> None:
    answer = answerer(f"SELECT ?n WHERE {{ ?p <{NAME}> ?n }}", None, None)
    assert answer.truncated and len(rows(answer.body)) == CAP


def test_tricky_names_are_counted_as_one_row_each(store_dir: Path) -> None:
    store = ox.Store.read_only(str(store_dir))
    values = ", ".join(json.dumps(name) for name in TRICKY[:CAP])  # JSON strings are SPARQL strings here
    body = native_select_json(store, f"SELECT ?n WHERE {{ ?p <{NAME}> ?n FILTER(?n IN ({values})) }}", CAP)
    assert body is not None and sorted(row["n"]["value"] for row in rows(body)) == sorted(TRICKY[:CAP])
    assert native_select_json(store, f"SELECT ?n WHERE {{ ?p <{NAME}> 'nobody' }}", CAP) == (
        b'{"head":{"vars":["n"]},"results":{"bindings":[]}}')
