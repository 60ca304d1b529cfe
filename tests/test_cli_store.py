"""The command line on an on-disk store: incremental builds, removal, exports, links."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
from pathlib import Path

import networkx as nx
import pytest

from .conftest import EXAMPLES

ARTICLES = """\
{"id": "quill-1", "title": "A suite for the harbour", "published": "2024-03-01", "text": "Mara Quillfeather played a new suite at the Tidewater Hall in Leeds on Friday.\\n\\n\\"I wrote it on the night train,\\" she said."}
{"id": "quill-2", "title": "Tour sells out", "published": "2024-03-09", "text": "Tickets for the autumn tour sold out in an hour.\\n\\n\\"We did not expect this,\\" Quillfeather said in a statement."}
"""


def kg(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "kg", *args], capture_output=True, text=True, timeout=600)


def stats(target: Path | str) -> dict[str, int]:
    result = kg("stats", str(target), "--format", "json")
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def nquads(target: Path, out: Path) -> set[str]:
    result = kg("export", str(target), "-o", str(out))
    assert result.returncode == 0, result.stderr
    return set(out.read_text(encoding="utf-8").splitlines())


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("corpus")
    (folder / "quill.jsonl").write_text(ARTICLES, encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def store(corpus, tmp_path_factory) -> Path:
    target = tmp_path_factory.mktemp("s") / "store"
    result = kg("build", str(corpus), "--store", str(target))
    assert result.returncode == 0, result.stderr
    assert "2 articles" in result.stdout
    return target


def test_query_named_quotes_as_csv_on_a_store(store):
    result = kg("query", str(store), "--named", "quotes", "--format", "csv")
    assert result.returncode == 0, result.stderr
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    # One person across both articles: the lone surname resolved to the full name.
    assert {(r["speaker"], r["text"]) for r in rows} == {
        ("Mara Quillfeather", "I wrote it on the night train,"),
        ("Mara Quillfeather", "We did not expect this,"),
    }
    assert {r["person"] for r in rows} == {"https://w3id.org/kg/id/person/mara-quillfeather"}


def test_store_commands_validate_and_viz(store, tmp_path):
    assert kg("validate", str(store)).returncode == 0
    result = kg("viz", str(store), "-o", str(tmp_path / "page.html"))
    assert result.returncode == 0, result.stderr
    assert "Mara Quillfeather" in (tmp_path / "page.html").read_text(encoding="utf-8")


def test_export_network_formats_from_a_store(store, tmp_path):
    for suffix, reader in ((".graphml", nx.read_graphml), (".gexf", nx.read_gexf)):
        out = tmp_path / f"net{suffix}"
        result = kg("export", str(store), "-o", str(out))
        assert result.returncode == 0, result.stderr
        names = {d.get("name", d.get("label")) for _, d in reader(out).nodes(data=True)}
        assert {"Mara Quillfeather", "Tidewater Hall", "Leeds"} <= names


def test_remove_and_rebuild(corpus, tmp_path):
    target = tmp_path / "store"
    assert kg("build", str(corpus), "--store", str(target)).returncode == 0
    before = stats(target)
    result = kg("remove", str(target), "quill-2", "nope")
    assert result.returncode == 0 and "Removed 1 article" in result.stdout and "nope" in result.stderr
    after = stats(target)
    assert after["articles"] == 1 and after["people"] == 1 and after["triples"] < before["triples"]
    assert kg("build", str(corpus), "--store", str(target)).returncode == 0
    assert stats(target) == before


def test_links_table_adds_same_as(corpus, tmp_path):
    table = tmp_path / "links.csv"
    table.write_text("name,wikidata\nMara Quillfeather,Q123456\n", encoding="utf-8")
    target = tmp_path / "store"
    assert kg("build", str(corpus), "--store", str(target), "--links", str(table)).returncode == 0
    result = kg("query", str(target), "--format", "csv",
                "PREFIX owl: <http://www.w3.org/2002/07/owl#> "
                "SELECT ?o WHERE { <https://w3id.org/kg/id/person/mara-quillfeather> owl:sameAs ?o }")
    assert result.stdout.splitlines() == ["o", "http://www.wikidata.org/entity/Q123456"]


def test_build_needs_an_output_or_a_store(corpus):
    result = kg("build", str(corpus))
    assert result.returncode == 2 and "--store" in result.stderr


def test_remove_refuses_a_graph_file(store, tmp_path):
    out = tmp_path / "g.ttl"
    assert kg("export", str(store), "-o", str(out)).returncode == 0
    result = kg("remove", str(out), "quill-1")
    assert result.returncode == 1 and result.stderr.startswith("Error:")


@pytest.mark.slow
def test_examples_twice_and_one_by_one_equal_together(tmp_path):
    together = tmp_path / "together"
    assert kg("build", str(EXAMPLES), "--store", str(together)).returncode == 0
    first = stats(together)
    assert kg("build", str(EXAMPLES), "--store", str(together)).returncode == 0
    assert stats(together) == first
    apart = tmp_path / "apart"
    for source in sorted(p for p in EXAMPLES.iterdir() if p.suffix in (".txt", ".html", ".jsonl")):
        assert kg("build", str(source), "--store", str(apart)).returncode == 0
    assert nquads(apart, tmp_path / "apart.nq") == nquads(together, tmp_path / "together.nq")
