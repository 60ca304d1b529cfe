"""Crashes and concurrency on the on-disk store: ``kg build --store`` killed with SIGKILL mid-corpus,
and reader processes querying a store while a build writes to it.

Each article is one named graph written in one transaction (and its triples merged
into the default graph in the same transaction), so a kill can only cut between articles.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path

import pyoxigraph as ox
import pytest

pytestmark = pytest.mark.slow

FIRST = ["Mara", "Jonas", "Ingrid", "Tomas", "Liv", "Anders", "Sofie", "Henrik", "Elin", "Ola"]
LAST = ["Quillfield", "Brekkevold", "Stavnes", "Harrowgate", "Lindqvist", "Osterholm"]
CITIES = ["Oslo", "Bergen", "Leeds", "Lyon", "Porto", "Tampere"]
N_ARTICLES = 60
# Surname stems and endings: 60 surnames, one an article, for a corpus where no one-word name is shared.
_STEMS = ["Brekke", "Stav", "Harrow", "Lind", "Oster", "Quill", "Fjell", "Norr", "Ask", "Vester"]
_ENDINGS = ["vold", "nes", "gate", "qvist", "holm", "field"]
# With shared surnames, two articles bend the pattern so that a lone surname links across articles:
# art-09 calls its cellist just "Harrowgate" (the one Harrowgate known by then: Tomas, of art-03), and
# art-33 spells Tomas "Harrówgate" (the same IRI, under a name that sorts after the plain one).
_BENT = {9: ("Harrowgate", "Harrowgate"), 33: ("Tomas Harrówgate", "Harrówgate")}


def corpus_line(i: int, *, shared_surnames: bool = True) -> str:
    """Article ``i``; with shared surnames, articles six apart name different people of one surname."""
    last = LAST[i % len(LAST)] if shared_surnames else _STEMS[i % 10] + _ENDINGS[i // 10]
    first, city = FIRST[i % len(FIRST)], CITIES[i % len(CITIES)]
    name, last = _BENT[i] if shared_surnames and i in _BENT else (f"{first} {last}", last)
    text = (
        f"{name}, the cellist, played a new suite at the Tidewater Hall in {city} on Friday.\n\n"
        f"\u201cI wrote it on the night train number {i},\u201d {last} said after the concert.\n\n"
        f"The festival in {city} runs until Sunday, and {name} will return next year."
    )
    return json.dumps({"id": f"art-{i:02d}", "title": f"Suite number {i}", "published": "2024-03-01", "text": text})


def kg(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "kg", *args], capture_output=True, text=True, timeout=600)


def build_cmd(corpus: Path, store: Path) -> list[str]:
    # Batch size 1: each article is written as soon as it is extracted, so a kill lands mid-corpus.
    return [sys.executable, "-m", "kg", "build", str(corpus), "--store", str(store), "--batch-size", "1",
            "--no-progress"]


def state(store: Path) -> tuple[dict[str, frozenset[str]], frozenset[str]]:
    """The store as (named graph -> its triples, default graph's triples), each triple in N-Triples."""
    snapshot = ox.Store.read_only(str(store))
    named: dict[str, set[str]] = defaultdict(set)
    default: set[str] = set()
    for quad in snapshot.quads_for_pattern(None, None, None):
        triple = f"{quad.subject} {quad.predicate} {quad.object}"
        if isinstance(quad.graph_name, ox.DefaultGraph):
            default.add(triple)
        else:
            named[str(quad.graph_name)].add(triple)
    return {name: frozenset(triples) for name, triples in named.items()}, frozenset(default)


def article_count(store: Path) -> int:
    try:
        return len(list(ox.Store.read_only(str(store)).named_graphs()))
    except (OSError, RuntimeError):
        # Not made yet, or being made (RocksDB: "Column family not found"): nothing in it.
        return 0


def write_corpus(folder: Path, shared_surnames: bool) -> Path:
    path = folder / "corpus.jsonl"
    lines = (corpus_line(i, shared_surnames=shared_surnames) + "\n" for i in range(N_ARTICLES))
    path.write_text("".join(lines), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    return write_corpus(tmp_path_factory.mktemp("crash"), shared_surnames=True)


@pytest.fixture(scope="module")
def unique_corpus(tmp_path_factory) -> Path:
    return write_corpus(tmp_path_factory.mktemp("unique"), shared_surnames=False)


@pytest.fixture(scope="module")
def reference(corpus, tmp_path_factory) -> tuple[dict[str, frozenset[str]], frozenset[str]]:
    return uninterrupted(corpus, tmp_path_factory.mktemp("ref") / "store")


@pytest.fixture(scope="module")
def unique_reference(unique_corpus, tmp_path_factory) -> tuple[dict[str, frozenset[str]], frozenset[str]]:
    return uninterrupted(unique_corpus, tmp_path_factory.mktemp("uref") / "store")


def uninterrupted(corpus: Path, store: Path) -> tuple[dict[str, frozenset[str]], frozenset[str]]:
    result = kg("build", str(corpus), "--store", str(store))
    assert result.returncode == 0, result.stderr
    named, default = state(store)
    assert len(named) == N_ARTICLES
    assert not any("_:" in t for triples in named.values() for t in triples), "blank nodes: compare by isomorphism"
    return named, default


def kill_midway(corpus: Path, store: Path, after: int) -> int:
    """Start a build, SIGKILL it once ``after`` articles are in the store; how many were in then."""
    proc = subprocess.Popen(build_cmd(corpus, store), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 240
    try:
        while (seen := article_count(store)) < after:
            assert proc.poll() is None, "the build ended before it could be killed"
            assert time.monotonic() < deadline, "the build wrote nothing in time"
            time.sleep(0.02)
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == -signal.SIGKILL
    return seen


def test_killed_build_leaves_whole_articles_and_a_rerun_completes_it(unique_corpus, unique_reference, tmp_path):
    ref_named, ref_default = unique_reference
    store = tmp_path / "store"
    seen = kill_midway(unique_corpus, store, after=3)

    # The store opens, for kg and for its own engine.
    result = kg("stats", str(store), "--format", "json")
    assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr
    named, default = state(store)
    assert seen <= len(named) < N_ARTICLES, "the kill should land mid-corpus"
    assert json.loads(result.stdout)["articles"] == len(named)
    # Only whole articles: each graph there is the one an uninterrupted build writes.
    for name, triples in named.items():
        assert triples == ref_named[name], name
    # Queries read the default graph: it is exactly the merge of the articles that are in.
    assert default == frozenset().union(*named.values())

    rerun = subprocess.run(build_cmd(unique_corpus, store), capture_output=True, text=True, timeout=600)
    assert rerun.returncode == 0, rerun.stderr
    assert state(store) == (ref_named, ref_default)


def test_two_killed_builds_in_a_row_still_converge(unique_corpus, unique_reference, tmp_path):
    store = tmp_path / "store"
    kill_midway(unique_corpus, store, after=2)
    kill_midway(unique_corpus, store, after=N_ARTICLES // 4)
    assert kg("build", str(unique_corpus), "--store", str(store)).returncode == 0
    assert state(store) == unique_reference


def test_rerun_after_a_kill_equals_a_clean_build_when_surnames_are_shared(corpus, reference, tmp_path):
    # The rerun meets articles again with later ones already in the store. art-05 says "Osterholm
    # said" of Anders Osterholm, and art-11 names Jonas Osterholm: art-05's "Osterholm" must stay
    # apart, as in a clean build. art-09's "Harrowgate" links to Tomas Harrowgate, named so, as in a
    # clean build, though art-33 has since given him a spelling that sorts after. Every stopping
    # point is checked fast, in-process, in test_resume.py.
    store = tmp_path / "store"
    kill_midway(corpus, store, after=2 * N_ARTICLES // 3)
    assert kg("build", str(corpus), "--store", str(store)).returncode == 0
    assert state(store) == reference


READER = """
import sys, time
from kg.graph import KnowledgeGraph
store, rounds = sys.argv[1], int(sys.argv[2])
QUERY = "SELECT (COUNT(DISTINCT ?g) AS ?n) WHERE { GRAPH ?g { ?a a <https://schema.org/NewsArticle> } }"
for _ in range(rounds):
    graph = KnowledgeGraph.open(store, read_only=True)
    print(int(next(iter(graph.query(QUERY)))[0]), flush=True)
    graph.close()
    time.sleep(0.05)
"""


def test_readers_query_the_store_while_a_build_writes(corpus, reference, tmp_path):
    store = tmp_path / "store"
    writer = subprocess.Popen(build_cmd(corpus, store), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 240
        while article_count(store) < 1:
            assert writer.poll() is None and time.monotonic() < deadline, "the build wrote nothing"
            time.sleep(0.02)
        readers = [
            subprocess.Popen([sys.executable, "-c", READER, str(store), "40"], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
            for _ in range(2)
        ]
        cli_reader = kg("query", str(store), "--named", "quotes", "--format", "csv")
        outputs = [reader.communicate(timeout=300) for reader in readers]
        _, writer_err = writer.communicate(timeout=600)
    finally:
        for proc in (writer, *locals().get("readers", [])):
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    assert writer.returncode == 0, writer_err
    assert cli_reader.returncode == 0, cli_reader.stderr
    assert cli_reader.stdout.splitlines()[0].startswith("speaker"), cli_reader.stdout
    for reader, (out, err) in zip(readers, outputs):
        assert reader.returncode == 0, err
        counts = [int(line) for line in out.split()]
        assert len(counts) == 40 and counts[0] >= 1
        # Each open is a snapshot: a reader never sees articles disappear.
        assert counts == sorted(counts)
    assert state(store) == reference


#: A writer that holds the store open until its stdin closes: the build's lock, held for as long
#: as the test needs, with no race against a build that may finish first.
HOLDER = """
import sys
from kg.rdf.store import OxigraphBackend
store = OxigraphBackend(sys.argv[1])
print("open", flush=True)
sys.stdin.read()
"""


def test_a_second_writer_is_refused_with_one_line(tmp_path):
    """The write lock holds: a second writer fails at once, and gets in once the first has gone."""
    corpus = tmp_path / "one.jsonl"
    corpus.write_text(corpus_line(0) + "\n", encoding="utf-8")
    store = tmp_path / "store"
    assert kg("build", str(corpus), "--store", str(store)).returncode == 0
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(store)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline() == "open\n", holder.stderr.read()
        second = kg("remove", str(store), "art-00", "--wait", "0")
    finally:
        holder.communicate("", timeout=60)
    lines = second.stderr.strip().splitlines()
    assert second.returncode != 0, "a second writer opened the store while the first held it"
    assert lines == [f"Error: {store}: another kg process is writing it; run again when it is done, "
                     "or give --wait SECONDS"], second.stderr
    assert kg("remove", str(store), "art-00").returncode == 0
