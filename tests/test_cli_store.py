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

STORY = """Mara Quillfeather played at the Tidewater Hall on DAY.

"I wrote it on the night train," she said.
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
    result = kg("remove", str(target), "quill-2")
    assert result.returncode == 0 and "Removed 1 article" in result.stdout
    after = stats(target)
    assert after["articles"] == 1 and after["people"] == 1 and after["triples"] < before["triples"]
    assert kg("build", str(corpus), "--store", str(target)).returncode == 0
    assert stats(target) == before


def test_remove_of_an_unknown_article_is_one_line_and_removes_nothing(store):
    before = stats(store)
    result = kg("remove", str(store), "quill-1", "nope")
    assert result.returncode == 1
    assert result.stderr.splitlines() == [
        f"Error: {store}: no article 'nope' (kg articles {store} lists them); nothing removed"
    ]
    assert stats(store) == before


def test_articles_lists_ids_sources_titles_and_counts(store, corpus):
    result = kg("articles", str(store), "--format", "json")
    assert result.returncode == 0, result.stderr
    rows = {row["id"]: row for row in json.loads(result.stdout)}
    source = (corpus / "quill.jsonl").as_posix()
    assert {(i, r["source"], r["title"], r["published"]) for i, r in rows.items()} == {
        ("quill-1", f"{source}#1", "A suite for the harbour", "2024-03-01"),
        ("quill-2", f"{source}#2", "Tour sells out", "2024-03-09"),
    }
    assert rows["quill-1"]["quotations"] == 1 and rows["quill-1"]["people"] == 1
    table = kg("articles", str(store)).stdout
    assert "quill-1" in table and "A suite for the harbour" in table


def test_an_edited_text_file_replaces_its_old_version(tmp_path):
    story = tmp_path / "story.txt"
    story.write_text(STORY.replace("DAY", "Friday"), encoding="utf-8")
    target = tmp_path / "store"
    assert kg("build", str(story), "--store", str(target)).returncode == 0
    story.write_text(STORY.replace("DAY", "Sunday"), encoding="utf-8")
    assert kg("build", str(story), "--store", str(target)).returncode == 0
    [row] = json.loads(kg("articles", str(target), "--format", "json").stdout)
    assert row["source"] == story.as_posix()
    result = kg("query", str(target), "--format", "csv", "PREFIX schema: <https://schema.org/> "
                "SELECT ?t WHERE { ?s a schema:Quotation ; schema:text ?t }")
    assert list(csv.reader(io.StringIO(result.stdout))) == [["t"], ["I wrote it on the night train,"]]
    assert kg("remove", str(target), story.as_posix()).returncode == 0  # by its source path
    assert stats(target)["articles"] == 0


@pytest.mark.parametrize("suffix", [".trig", ".nq"])
def test_a_quad_file_as_store_is_written_back(corpus, tmp_path, suffix):
    target = tmp_path / f"graph{suffix}"
    assert kg("build", str(corpus), "--store", str(target)).returncode == 0
    first = set(target.read_text(encoding="utf-8").splitlines())
    assert stats(target)["articles"] == 2
    assert kg("build", str(corpus), "--store", str(target)).returncode == 0
    assert stats(target)["articles"] == 2 and set(target.read_text(encoding="utf-8").splitlines()) == first
    assert kg("remove", str(target), "quill-1").returncode == 0
    assert [row["id"] for row in json.loads(kg("articles", str(target), "--format", "json").stdout)] == ["quill-2"]


def test_a_graph_file_without_named_graphs_is_refused_as_a_store_and_left_alone(store, corpus, tmp_path):
    target = tmp_path / "graph.ttl"
    assert kg("export", str(store), "-o", str(target)).returncode == 0
    before = target.read_bytes()
    result = kg("build", str(corpus), "--store", str(target))
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert result.stderr.splitlines() == [
        f"Error: {target}: .ttl keeps no named graphs, so articles in it cannot be replaced; "
        "use a store folder, a .trig, .nq or .jsonld file, or -o to write a new file"
    ]
    assert target.read_bytes() == before


def test_a_plain_file_as_store_says_it_is_neither_graph_nor_store(corpus, tmp_path):
    plain = tmp_path / "notes"
    plain.write_text("not a graph", encoding="utf-8")
    result = kg("build", str(corpus), "--store", str(plain))
    assert result.returncode == 1
    assert result.stderr.splitlines() == [
        f"Error: {plain}: a file that is no graph file (.ttl, .trig, .nq, .nt, .jsonld, .rdf, .xml) and no store folder"
    ]
    assert plain.read_text(encoding="utf-8") == "not a graph"


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


def test_remove_refuses_a_graph_file_without_named_graphs(store, tmp_path):
    out = tmp_path / "g.ttl"
    assert kg("export", str(store), "-o", str(out)).returncode == 0
    result = kg("remove", str(out), "quill-1")
    assert result.returncode == 1 and result.stderr.startswith("Error:") and "no named graphs" in result.stderr


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
