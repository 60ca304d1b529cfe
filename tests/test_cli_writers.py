"""Two writers of one store at once: real ``kg`` processes, each article kept, a clear line when busy."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from filelock import FileLock

# Invented articles: three for each of two builds, one already in the store before they start.
FIRST = ["Mara Quillfeather", "Jonas Brekkevold", "Ingrid Stavnes"]
SECOND = ["Tomas Harrowgate", "Liv Lindqvist", "Anders Osterholm"]
EARLIER = "Sofie Fjellvik"


def kg(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "kg", *args], capture_output=True, text=True, timeout=600)


def start(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "kg", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def corpus(folder: Path, prefix: str, names: list[str]) -> Path:
    """A JSONL file of one invented concert report per name."""
    folder.mkdir(parents=True, exist_ok=True)
    lines = [
        json.dumps({"id": f"{prefix}-{i}", "title": f"{name} plays Leeds",
                    "text": f"{name} played a new suite at the Tidewater Hall in Leeds on Friday."})
        for i, name in enumerate(names)
    ]
    target = folder / f"{prefix}.jsonl"
    target.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return target


def article_ids(store: Path) -> set[str]:
    result = kg("articles", str(store), "--format", "json")
    assert result.returncode == 0, result.stderr
    return {row["id"] for row in json.loads(result.stdout)}


@pytest.mark.parametrize("name", ["graph.trig", "graph.nq", "store"])
def test_two_builds_at_once_keep_every_article(tmp_path, name):
    """Both builds read the store before either writes: without a lock the last write dropped
    the other build's articles, and with them the one that was there before."""
    store = tmp_path / name
    earlier = corpus(tmp_path / "in", "earlier", [EARLIER])
    assert kg("build", str(earlier), "--store", str(store)).returncode == 0
    first, second = corpus(tmp_path / "in", "first", FIRST), corpus(tmp_path / "in", "second", SECOND)
    runs = [start("build", str(first), "--store", str(store)), start("build", str(second), "--store", str(store))]
    outputs = [run.communicate(timeout=600) for run in runs]
    for run, (out, err) in zip(runs, outputs):
        assert run.returncode == 0, err
    expected = {"earlier-0"} | {f"first-{i}" for i in range(3)} | {f"second-{i}" for i in range(3)}
    assert article_ids(store) == expected


def test_a_graph_file_locked_past_the_wait_is_one_line_naming_it(tmp_path):
    store = tmp_path / "graph.trig"
    earlier = corpus(tmp_path / "in", "earlier", [EARLIER])
    assert kg("build", str(earlier), "--store", str(store)).returncode == 0
    before = store.read_bytes()
    with FileLock(f"{store}.lock"):
        result = kg("build", str(corpus(tmp_path / "in", "first", FIRST)), "--store", str(store), "--wait", "0.5")
    assert result.returncode == 1
    assert result.stderr.splitlines() == [
        f"Error: {store}: another kg process is still writing it after 0.5 s (--wait SECONDS waits longer)"
    ]
    assert store.read_bytes() == before


HOLD = """\
import sys, time
import pyoxigraph as ox
store = ox.Store(sys.argv[1])
print("open", flush=True)
time.sleep(float(sys.argv[2]))
"""


def hold_store(store: Path, seconds: float) -> subprocess.Popen[str]:
    """Another process with the store folder open for writing, for ``seconds``."""
    holder = subprocess.Popen([sys.executable, "-c", HOLD, str(store), str(seconds)], stdout=subprocess.PIPE, text=True)
    assert holder.stdout is not None and holder.stdout.readline() == "open\n"
    return holder


def remove_while_held(tmp_path: Path, held: float, wait: str) -> tuple[Path, subprocess.CompletedProcess[str]]:
    """A store folder with one article, and ``kg remove`` of it with ``--wait wait`` while another
    process holds the folder for ``held`` seconds."""
    store = tmp_path / "store"
    assert kg("build", str(corpus(tmp_path / "in", "earlier", [EARLIER])), "--store", str(store)).returncode == 0
    holder = hold_store(store, held)
    try:
        return store, kg("remove", str(store), "earlier-0", "--wait", wait)
    finally:
        holder.kill()
        holder.wait()


def test_a_store_folder_being_written_is_one_line_without_rocksdb_internals(tmp_path):
    store, result = remove_while_held(tmp_path, 60, "0")
    assert result.returncode == 1
    assert result.stderr.splitlines() == [
        f"Error: {store}: another kg process is writing it; run again when it is done, or give --wait SECONDS"
    ]
    assert article_ids(store) == {"earlier-0"}


def test_a_store_folder_writer_waits_for_the_other_to_finish(tmp_path):
    store, result = remove_while_held(tmp_path, 2, "120")
    assert result.returncode == 0, result.stderr
    assert article_ids(store) == set()


def test_wait_is_documented_with_its_default():
    for command in ("build", "remove"):
        help_text = " ".join(kg(command, "--help").stdout.split())
        assert "--wait SECONDS" in help_text and "default: 600" in help_text
