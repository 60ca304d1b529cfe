"""``kg build --progress``: a total and an ETA when the inputs can be counted, a count when not."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

STORY = "Singer Ana Rivera played {n} songs at Pier Arena in Portland on Saturday.\n"


def _build(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "kg", "build", *args, "--progress"], input=stdin,
                          capture_output=True, text=True, timeout=300)


def test_the_bar_counts_towards_the_number_of_articles(tmp_path: Path) -> None:
    (tmp_path / "one.txt").write_text(STORY.format(n=1), encoding="utf-8")
    lines = [json.dumps({"id": f"s{n}", "text": STORY.format(n=n)}) for n in range(2, 5)]
    (tmp_path / "more.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = _build(str(tmp_path), "-o", str(tmp_path / "graph.ttl"))
    assert result.returncode == 0, result.stderr
    assert "4 articles" in result.stdout
    # tqdm's bar with a total: "  0%|          | 0/4 [00:00<?, ?article/s]", then (updates
    # are drawn at most ten times a second) "25%|██▌       | 1/4 [00:00<00:02, 1.29article/s]":
    # time spent, then the time left.
    assert re.search(r"\b0/4 \[", result.stderr), result.stderr
    assert re.search(r"\b[1-4]/4 \[\d\d:\d\d<\d\d:\d\d", result.stderr), result.stderr


def test_standard_input_gives_a_count_without_a_total(tmp_path: Path) -> None:
    result = _build("-", "-o", str(tmp_path / "graph.ttl"), stdin=STORY.format(n=3))
    assert result.returncode == 0, result.stderr
    assert re.search(r"\b1article \[", result.stderr), result.stderr
    assert not re.search(r"\d/\d", result.stderr), result.stderr
