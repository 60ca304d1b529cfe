"""The command line, run as a user runs it: a real ``python -m kg`` process."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import EXAMPLES

STORY = """Harbor Lights Festival opens in Portland

Singer Ana Rivera headlined the Harbor Lights Festival at Pier Arena in Portland on Saturday.

"We played it loud because the city deserved it," Rivera said after the show.
"""


def kg(*args: str, stdin: str | None = None, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "kg", *args], input=stdin, capture_output=True,
                          text=True, cwd=cwd, timeout=300)


@pytest.fixture(scope="module")
def graph(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("cli")
    (folder / "story.txt").write_text(STORY, encoding="utf-8")
    out = folder / "graph.ttl"
    result = kg("build", str(folder / "story.txt"), "-o", str(out))
    assert result.returncode == 0, result.stderr
    assert "1 articles" in result.stdout
    return out


def test_build_reads_stdin(tmp_path):
    out = tmp_path / "g.nt"
    result = kg("build", "-", "-o", str(out), stdin=STORY)
    assert result.returncode == 0, result.stderr
    assert "https://schema.org/Quotation" in out.read_text(encoding="utf-8")


def test_query_named_quotes_as_csv(graph):
    result = kg("query", str(graph), "--named", "quotes", "--format", "csv")
    assert result.returncode == 0, result.stderr
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert any("played it loud" in " ".join(r.values()) and "Ana Rivera" in r.values() for r in rows), rows


def test_query_json_is_sparql_results(graph):
    q = "PREFIX schema: <https://schema.org/> SELECT ?n WHERE { ?p a schema:Person ; schema:name ?n }"
    result = kg("query", str(graph), q, "--format", "json")
    data = json.loads(result.stdout)
    assert {b["n"]["value"] for b in data["results"]["bindings"]} == {"Ana Rivera"}


def test_query_lists_named_queries(graph):
    result = kg("query", str(graph), "--named")
    assert result.returncode == 0
    for name in ("quotes", "performances", "events"):
        assert name in result.stdout


def test_construct_prints_turtle_or_json_ld_and_ask_true_or_sparql_json(graph):
    construct = "PREFIX schema: <https://schema.org/> CONSTRUCT { ?p schema:name ?n } WHERE { ?p a schema:Person ; schema:name ?n }"
    turtle = kg("query", str(graph), construct)
    assert turtle.returncode == 0 and '"Ana Rivera"' in turtle.stdout and "@prefix" in turtle.stdout
    data = json.loads(kg("query", str(graph), construct, "--format", "json").stdout)
    assert "Ana Rivera" in json.dumps(data) and "@context" in data
    ask = "ASK { ?s a <https://schema.org/Person> }"
    assert kg("query", str(graph), ask).stdout == "true\n"
    assert json.loads(kg("query", str(graph), ask, "--format", "json").stdout) == {"head": {}, "boolean": True}


def test_a_text_in_a_legacy_encoding_goes_in_with_a_warning(tmp_path):
    story = tmp_path / "story.txt"
    story.write_bytes(STORY.replace("Ana Rivera", "Ana Jos\u00e9 Rivera").encode("cp1252"))
    out = tmp_path / "g.ttl"
    result = kg("build", str(story), "-o", str(out))
    assert result.returncode == 0, result.stderr
    assert result.stderr.splitlines() == [f"Warning: {story}: not UTF-8; read as Windows-1252 (detected)"]
    assert "Jos\u00e9" in out.read_text(encoding="utf-8")


def test_validate_and_stats(graph):
    assert kg("validate", str(graph)).returncode == 0
    stats = json.loads(kg("stats", str(graph), "--format", "json").stdout)
    assert stats["articles"] == 1 and stats["people"] == 1 and stats["quotations"] == 1


def test_viz_writes_page(graph, tmp_path):
    page = tmp_path / "page.html"
    result = kg("viz", str(graph), "-o", str(page))
    assert result.returncode == 0, result.stderr
    assert "Ana Rivera" in page.read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["build", "no/such/file.txt", "-o", "{tmp}/x.ttl"], "no/such/file.txt"),
        (["build", "{tmp}/story.txt", "-o", "{tmp}/x.docx"], "x.docx"),
        (["query", "{tmp}/missing.ttl", "--named", "quotes"], "missing.ttl"),
        (["query", "{tmp}/bad.ttl", "--named", "quotes"], "bad.ttl"),
        (["query", "{tmp}/story.ttl", "SELEKT nothing"], "SPARQL"),
        (["query", "{tmp}/story.ttl", "--named", "nope"], "nope"),
        (["query", "{tmp}/story.ttl", "--named", "quotes", "SELECT * WHERE {{ ?s ?p ?o }}"], "not both"),
        (["query", "{tmp}/story.ttl", "--format", "csv", "CONSTRUCT WHERE {{ ?s ?p ?o }}"], "--format csv is for SELECT"),
        (["query", "{tmp}/bad.ttl", "--named", "quotes"], "not valid Turtle, line 1: "),
        (["stats", "{tmp}/story.txt"], "no graph file"),
        (["export", "{tmp}/story.ttl", "-o", "{tmp}"], "is a folder"),
        (["build", "{tmp}/story.txt", "-o", "{tmp}"], "is a folder"),
        (["viz", "{tmp}/story.ttl", "-o", "{tmp}"], "is a folder"),
    ],
)
def test_bad_input_is_one_line_and_writes_nothing(tmp_path, graph, args, needle):
    (tmp_path / "story.txt").write_text(STORY, encoding="utf-8")
    (tmp_path / "bad.ttl").write_text("this is not turtle <<<", encoding="utf-8")
    (tmp_path / "story.ttl").write_bytes(graph.read_bytes())
    before = set(tmp_path.iterdir())
    result = kg(*[a.format(tmp=tmp_path) for a in args])
    assert result.returncode != 0
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error:") and needle in lines[0], result.stderr
    assert "Traceback" not in result.stderr
    assert set(tmp_path.iterdir()) == before


@pytest.mark.parametrize("command", ["export", "viz"])
def test_output_into_a_new_folder_makes_the_folder(graph, tmp_path, command):
    target = tmp_path / "new" / "dir" / ("g.nq" if command == "export" else "g.html")
    result = kg(command, str(graph), "-o", str(target))
    assert result.returncode == 0, result.stderr
    assert "Ana Rivera" in target.read_text(encoding="utf-8")
    assert [p.name for p in target.parent.iterdir()] == [target.name]  # no temporary left behind


def test_partial_input_problem_still_builds(tmp_path):
    (tmp_path / "good.txt").write_text(STORY, encoding="utf-8")
    (tmp_path / "empty.txt").write_text("   \n", encoding="utf-8")
    out = tmp_path / "g.ttl"
    result = kg("build", str(tmp_path), "-o", str(out))
    assert result.returncode == 1
    assert "empty.txt" in result.stderr and "Traceback" not in result.stderr
    assert out.exists()


def test_demo_examples_build(tmp_path):
    out = tmp_path / "graph.trig"
    result = kg("build", str(EXAMPLES), "-o", str(out))
    assert result.returncode == 0, result.stderr
    assert kg("validate", str(out)).returncode == 0
