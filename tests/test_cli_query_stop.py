"""Stopping ``kg query``: Ctrl-C (SIGINT) and ``--timeout`` on a runaway query, in real processes."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

# Six independent triple patterns: (triples)^6 rows to count, hours on a store of a few dozen triples.
RUNAWAY = "SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i . ?j ?k ?l . ?m ?x ?o . ?p ?q ?r }"
STOPPED = "Stopped: the query was interrupted (Ctrl-C); no result was printed."
# A hang guard, not a speed target: a query that ignored the signal would run for hours.
GUARD = 60


def kg(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "kg", *args], capture_output=True, text=True, timeout=600)


@pytest.fixture(scope="module")
def graphs(tmp_path_factory) -> dict[str, Path]:
    """The same invented articles in a store folder and in a TriG file."""
    folder = tmp_path_factory.mktemp("graphs")
    articles = folder / "a.jsonl"
    articles.write_text("\n".join(json.dumps({
        "id": f"gig-{i}", "title": "A night in Leeds",
        "text": f"{name} played a new suite at the Tidewater Hall in Leeds on Friday.",
    }) for i, name in enumerate(["Mara Quillfeather", "Jonas Brekkevold"])) + "\n", encoding="utf-8")
    store = folder / "store"
    assert kg("build", str(articles), "--store", str(store), "-o", str(folder / "graph.trig")).returncode == 0
    return {"store": store, "file": folder / "graph.trig"}


def query_children(graph: Path) -> list[str]:
    """Processes still running a store query on ``graph`` (kg's child program), by pid."""
    found = []
    for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
        try:
            words = cmdline.read_bytes().split(b"\0")
        except OSError:
            continue
        if any(w.endswith(b"_store_query.py") for w in words) and str(graph).encode() in words:
            found.append(cmdline.parent.name)
    return found


@pytest.mark.parametrize("kind", ["store", "file"])
def test_sigint_stops_a_runaway_query_with_one_line(graphs, kind):
    graph = graphs[kind]
    # (Ctrl-C as a terminal sends it: a suite started in the background of a script inherits SIGINT
    # ignored, and Python then never turns it into KeyboardInterrupt)
    run = subprocess.Popen([sys.executable, "-m", "kg", "query", str(graph), RUNAWAY],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                           preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.monotonic() + GUARD
    # Wait until the query is running: on a store its child program is there; a file is read first.
    while kind == "store" and not query_children(graph) and time.monotonic() < deadline:
        assert run.poll() is None, run.communicate()
        time.sleep(0.05)
    time.sleep(2 if kind == "file" else 0.5)
    assert run.poll() is None, "the runaway query ended by itself"
    run.send_signal(signal.SIGINT)
    out, err = run.communicate(timeout=GUARD)
    assert run.returncode == 130
    assert err.splitlines() == [STOPPED] and out == ""
    assert query_children(graph) == []


@pytest.mark.parametrize("kind", ["store", "file"])
def test_timeout_stops_a_runaway_query(graphs, kind):
    result = kg("query", str(graphs[kind]), RUNAWAY, "--timeout", "1")
    assert result.returncode == 1
    assert result.stderr.splitlines() == ["Error: query stopped after the 1 s limit"]
    assert query_children(graphs[kind]) == []


def test_a_query_within_its_timeout_answers(graphs):
    result = kg("query", str(graphs["store"]), "--timeout", "60", "--format", "csv",
                "SELECT ?n WHERE { ?p a <https://schema.org/Person> ; <https://schema.org/name> ?n } ORDER BY ?n")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == ["n", "Jonas Brekkevold", "Mara Quillfeather"]


def test_timeout_must_be_above_zero(graphs):
    result = kg("query", str(graphs["store"]), "ASK {}", "--timeout", "0")
    assert result.returncode == 2 and "--timeout" in result.stderr
