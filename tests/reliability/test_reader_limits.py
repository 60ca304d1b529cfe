"""The readers' own limits and defences, without spaCy: text length, script-laden HTML."""

from __future__ import annotations

import io
import json
import sys
from types import SimpleNamespace

import pytest

from kg.errors import InputError
from kg.io import read_articles
from kg.io.readers import MAX_CHARS

_WORDS = "Ada Strand opened the bridge. "


def _text(length: int) -> str:
    return (_WORDS * (length // len(_WORDS) + 1))[:length]


@pytest.mark.parametrize("suffix", [".txt", ".jsonl", ".html"])
def test_text_over_the_limit_is_refused_with_its_length(tmp_path, suffix):
    text = _text(MAX_CHARS + 1)
    path = tmp_path / f"big{suffix}"
    if suffix == ".jsonl":
        path.write_text(json.dumps({"text": text}) + "\n", encoding="utf-8")
    elif suffix == ".html":
        # Many distinct paragraphs (trafilatura drops repeated ones) make the long main text.
        paragraphs = "".join(f"<p>Part {i}. {_text(5_000)}</p>" for i in range(MAX_CHARS // 5_000 + 2))
        path.write_text(f"<html><body><article>{paragraphs}</article></body></html>", encoding="utf-8")
    else:
        path.write_text(text, encoding="utf-8")
    problems: list[str] = []
    assert list(read_articles([path], on_problem=problems.append)) == []
    where = f"{path}:1" if suffix == ".jsonl" else str(path)
    assert len(problems) == 1 and problems[0].startswith(f"{where}: text too long (")
    assert problems[0].endswith("characters; at most 1,000,000 are taken), skipped")
    with pytest.raises(InputError, match="text too long"):
        list(read_articles([path], strict=True))


def test_text_at_the_limit_is_taken_whole(tmp_path):
    path = tmp_path / "edge.txt"
    path.write_text(_text(MAX_CHARS), encoding="utf-8")
    [article] = read_articles([path], strict=True)
    assert len(article.text) == MAX_CHARS


def test_stdin_over_the_limit_is_refused(monkeypatch):
    data = _text(MAX_CHARS + 10).encode("utf-8")
    monkeypatch.setattr(sys, "stdin", SimpleNamespace(buffer=io.BytesIO(data)))
    problems: list[str] = []
    assert list(read_articles(["-"], on_problem=problems.append)) == []
    assert problems == ["<stdin>: text too long (1,000,010 characters; at most 1,000,000 are taken), skipped"]


def test_html_scripts_styles_and_handlers_never_reach_the_text(tmp_path):
    page = tmp_path / "page.html"
    page.write_text(
        "<html><head><title>Bridge opens</title><script>var stolen = document.cookie;</script>"
        "<style>p { color: red }</style></head><body><article>"
        "<p onclick=\"alert('click')\">Ada Strand opened the new bridge in Bergen on Monday morning.</p>"
        "<script>alert('inline')</script><noscript>Enable scripts now</noscript>"
        "<p>The crossing took four years to build, and the city celebrated with music.</p>"
        "<iframe src=\"https://evil.example/\">frame text</iframe></article></body></html>",
        encoding="utf-8",
    )
    [article] = read_articles([page], strict=True)
    assert "Ada Strand opened the new bridge in Bergen" in article.text
    # Code, style and addresses never become article text (a <noscript> message may: it is text).
    for code in ("stolen", "alert", "color: red", "onclick", "evil.example", "<"):
        assert code not in article.text
