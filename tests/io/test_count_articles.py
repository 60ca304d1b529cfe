"""Counting articles before reading them: the progress bar's total."""

from __future__ import annotations

import json
from pathlib import Path

from kg.io import count_articles, read_articles

DATA = Path(__file__).resolve().parent.parent / "data"


def test_the_count_is_the_number_of_articles_read(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("Choir wins county prize.\n", encoding="utf-8")
    (tmp_path / "nested").mkdir()
    page = "<html><body><p>The band played on.</p></body></html>"
    (tmp_path / "nested" / "b.html").write_text(page, encoding="utf-8")
    lines = [json.dumps({"text": f"Story {n}."}) for n in range(5)]
    # Blank lines, a trailing one included, hold no article.
    (tmp_path / "c.jsonl").write_text("\n".join(lines[:2]) + "\n\n  \n" + "\n".join(lines[2:]) + "\n", encoding="utf-8")
    (tmp_path / ".hidden.txt").write_text("Not an article.", encoding="utf-8")
    (tmp_path / "notes.md").write_text("Not an article either.", encoding="utf-8")
    solo = tmp_path / "solo.txt"
    solo.write_text("One more.", encoding="utf-8")
    inputs = [tmp_path, solo]
    assert count_articles(inputs) == len(list(read_articles(inputs))) == 1 + 1 + 5 + 1 + 1


def test_stdin_cannot_be_counted(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("A story.", encoding="utf-8")
    assert count_articles([tmp_path / "a.txt", "-"]) is None
    assert count_articles([]) == 0


def test_the_count_reads_a_jsonl_file_by_lines_without_parsing_it(tmp_path: Path) -> None:
    path = tmp_path / "corpus.jsonl"
    path.write_text('{"text": "fine"}\nnot json at all\n{"text": ""}\n', encoding="utf-8")
    # Bad lines are found when read, so they are counted: the total may run a little over.
    assert count_articles([path]) == 3
    problems: list[str] = []
    assert len(list(read_articles([path], on_problem=problems.append))) == 1
    assert len(problems) == 2
