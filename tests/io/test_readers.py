"""Readers: each input kind, its metadata and ids, and every kind of bad input."""

from __future__ import annotations

import codecs
import io
import json
import logging
import random
import sys
import tracemalloc
from pathlib import Path

import pytest

from kg.errors import InputError
from kg.io import EXTENSIONS, Article, article_id, read_articles

DATA = Path(__file__).resolve().parent.parent / "data"


def _read(*inputs, **kwargs) -> list[Article]:
    return list(read_articles(inputs, **kwargs))


def _collect(*inputs) -> tuple[list[Article], list[str]]:
    problems: list[str] = []
    return list(read_articles(inputs, on_problem=problems.append)), problems


# --- plain text -----------------------------------------------------------------


def test_txt_reads_whole_text_with_headline_title(tmp_path):
    path = tmp_path / "story.txt"
    path.write_text("Choir wins county prize\n\nThe Elmford choir won on Saturday.\n", encoding="utf-8")
    [article] = _read(path)
    assert article.text == "Choir wins county prize\n\nThe Elmford choir won on Saturday.\n"
    assert article.title == "Choir wins county prize"
    assert article.published is None
    assert article.url is None
    assert article.source == str(path)


@pytest.mark.parametrize(
    "first_line",
    [
        "The Elmford choir won on Saturday.",  # a sentence, not a headline
        "x" * 151,  # too long for a headline
    ],
)
def test_txt_first_line_that_is_no_headline_gives_no_title(tmp_path, first_line):
    path = tmp_path / "story.txt"
    path.write_text(f"{first_line}\nMore text.\n", encoding="utf-8")
    assert _read(path)[0].title is None


def test_txt_id_is_its_source_path_so_an_edited_article_keeps_it(tmp_path):
    path = tmp_path / "story.txt"
    path.write_text("The choir won on Saturday.\n", encoding="utf-8")
    [before] = _read(path)
    path.write_text("The choir won on Sunday.\n", encoding="utf-8")
    [after] = _read(path)
    assert before.id == after.id == article_id(after.text, path=str(path))
    assert after.path == str(path) and len(after.id) == 16


def test_the_same_text_in_two_files_is_two_articles(tmp_path):
    for name in ("one.txt", "two.txt"):
        (tmp_path / name).write_text("Same words in two places.\n", encoding="utf-8")
    first, second = _read(tmp_path / "one.txt", tmp_path / "two.txt")
    assert first.id != second.id


def test_a_file_given_alone_or_found_in_its_folder_is_one_article(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "news" / "2024").mkdir(parents=True)
    (tmp_path / "news" / "2024" / "a.txt").write_text("Text.\n", encoding="utf-8")
    ways = [_read("news")[0], _read("./news/")[0], _read("news/2024/a.txt")[0], _read("news//2024/../2024/a.txt")[0]]
    assert {(a.id, a.path) for a in ways} == {(article_id("Text.\n", path="news/2024/a.txt"), "news/2024/a.txt")}


def test_article_id_is_stable_across_runs():
    # A fixed value: a change here changes every IRI minted from article ids.
    assert article_id("Hello.") == "1a3c1176e124f05f"


def test_windows_line_ends_become_newlines(tmp_path):
    path = tmp_path / "crlf.txt"
    path.write_bytes(b"Headline\r\n\r\nBody text.\r\n")
    assert _read(path)[0].text == "Headline\n\nBody text.\n"


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("\ufeffCaf\u00e9 opens.".encode("utf-8"), "Caf\u00e9 opens."),
        ("\ufeffCaf\u00e9 opens.".encode("utf-16-le"), "Caf\u00e9 opens."),
        ("\ufeffCaf\u00e9 opens.".encode("utf-16-be"), "Caf\u00e9 opens."),
    ],
    ids=["utf-8-bom", "utf-16-le-bom", "utf-16-be-bom"],
)
def test_byte_order_marks_are_honoured_and_dropped(tmp_path, raw, expected):
    path = tmp_path / "bom.txt"
    path.write_bytes(raw)
    assert _read(path)[0].text == expected


@pytest.mark.parametrize(
    ("text", "encoding", "named"),
    [
        ("Le caf\u00e9 a rouvert. Jos\u00e9 M\u00fcller a jou\u00e9 \u00ab La Mer \u00bb \u00e0 Z\u00fcrich.\n",
         "latin-1", "Windows-1252"),
        ("The band\u2019s \u201cfarewell\u201d show sold out \u2014 fans queued.\n", "cp1252", "Windows-1252"),
        ("\u041f\u0435\u0432\u0438\u0446\u0430 \u0432\u044b\u0441\u0442\u0443\u043f\u0438\u043b\u0430 "
         "\u0432 \u041c\u043e\u0441\u043a\u0432\u0435 \u0432 \u0441\u0443\u0431\u0431\u043e\u0442\u0443.\n",
         "cp1251", "Windows-1251"),
    ],
    ids=["latin-1", "windows-1252", "windows-1251"],
)
def test_text_in_a_legacy_encoding_is_read_with_a_warning_naming_it(tmp_path, caplog, text, encoding, named):
    path = tmp_path / "legacy.txt"
    path.write_bytes(text.encode(encoding))
    with caplog.at_level(logging.WARNING, logger="kg.io"):
        articles, problems = _collect(path)
    assert [a.text for a in articles] == [text] and problems == []
    assert caplog.messages == [f"{path}: not UTF-8; read as {named} (detected)"]


# --- HTML -------------------------------------------------------------------------


def test_html_main_text_and_metadata():
    [article] = _read(DATA / "page.html")
    assert article.title == "Elmford choir takes county prize"
    assert article.url == "https://news.example.org/2024/05/12/choir"
    assert article.published == "2024-05-12"
    assert article.source == str(DATA / "page.html")
    paragraphs = article.text.split("\n\n")
    assert "The Elmford Community Choir won the county prize on Saturday at the Corn Exchange." in paragraphs
    assert "\u201cWe rehearsed in a car park all winter,\u201d conductor Ina Vale said." in paragraphs
    # Navigation, scripts, cookie banners and footers are boilerplate.
    for boilerplate in ("Subscribe", "cookie", "dataLayer", "All rights reserved", "Weather"):
        assert boilerplate not in article.text
    assert article.id == article_id(article.text, article.url)


def test_html_id_follows_the_url_not_the_markup(tmp_path):
    html = (DATA / "page.html").read_text(encoding="utf-8")
    path = tmp_path / "copy.htm"
    path.write_text(html.replace("<aside", "<aside data-x='1'"), encoding="utf-8")
    assert _read(path)[0].id == _read(DATA / "page.html")[0].id


def test_html_without_metadata_uses_title_element_and_no_date(tmp_path):
    body = "".join(
        f"<p>The river festival drew a crowd of several thousand on its {n} day.</p>"
        for n in ("first", "second", "third")
    )
    path = tmp_path / "bare.html"
    path.write_text(
        f"<html><head><title>River festival</title></head><body><article>{body}</article></body></html>",
        encoding="utf-8",
    )
    [article] = _read(path)
    assert article.title == "River festival"
    assert article.published is None
    assert article.url is None
    assert article.text.count("\n\n") == 2


def test_html_json_ld_gives_date_and_url(tmp_path):
    ld = {
        "@context": "https://schema.org",
        "@type": "NewsArticle",
        "headline": "Ferry returns",
        "datePublished": "2023-11-02T06:00:00Z",
        "url": "https://news.example.org/ferry",
    }
    body = "<p>The ferry to Holm Island returned to service on Thursday after a long repair.</p>" * 2
    path = tmp_path / "ld.html"
    path.write_text(
        f'<html><head><script type="application/ld+json">{json.dumps(ld)}</script></head>'
        f"<body><article>{body}</article></body></html>",
        encoding="utf-8",
    )
    [article] = _read(path)
    assert (article.title, article.published, article.url) == (
        "Ferry returns",
        "2023-11-02",
        "https://news.example.org/ferry",
    )


def test_html_with_only_a_navigation_bar_has_no_main_text(tmp_path):
    path = tmp_path / "menu.html"
    path.write_text(
        '<html><head><title>Site</title></head><body><nav><ul><li><a href="/">Home</a></li>'
        '<li><a href="/news">News</a></li></ul></nav></body></html>',
        encoding="utf-8",
    )
    assert _collect(path) == ([], [f"{path}: no main text found in the HTML page"])


def test_html_without_main_text_is_a_problem(tmp_path):
    path = tmp_path / "empty.html"
    path.write_text(
        "<html><head><title>Nothing</title></head><body><script>var x = 1;</script></body></html>", encoding="utf-8"
    )
    articles, problems = _collect(path)
    assert articles == []
    assert problems == [f"{path}: no main text found in the HTML page"]


# --- JSONL ------------------------------------------------------------------------


def test_jsonl_lines_become_articles_with_their_fields():
    articles, problems = _collect(DATA / "articles.jsonl")
    assert problems == []
    first, second = articles
    assert first.id == "choir-1"
    assert first.title == "Choir wins"
    assert first.url == "https://news.example.org/choir"
    assert first.published == "2024-05-12"
    assert first.text == "The Elmford choir won the county prize."
    assert first.source == f"{DATA / 'articles.jsonl'}:1"
    # No id: derived from the URL; a date-time is cut to its date.
    assert second.id == article_id(second.text, "https://news.example.org/ferry")
    assert second.published == "2023-11-02"
    assert second.source == f"{DATA / 'articles.jsonl'}:3"
    assert second.path == f"{DATA / 'articles.jsonl'}#3"


def test_jsonl_line_without_id_or_url_is_named_by_file_and_line(tmp_path):
    path = tmp_path / "feed.jsonl"
    path.write_text('{"text": "First."}\n{"text": "Second."}\n', encoding="utf-8")
    first, second = _read(path)
    assert (first.id, second.id) == (article_id("", path=f"{path}#1"), article_id("", path=f"{path}#2"))


def test_jsonl_numeric_id_becomes_a_string(tmp_path):
    path = tmp_path / "n.jsonl"
    path.write_text('{"id": 7, "text": "Seven."}\n', encoding="utf-8")
    assert _read(path)[0].id == "7"


@pytest.mark.parametrize(
    ("line", "problem"),
    [
        ("{not json", "invalid JSON (Expecting property name enclosed in double quotes at column 2)"),
        ('["a list"]', "expected a JSON object, got list"),
        ('{"title": "No text"}', 'missing or empty "text" (a non-empty string is required)'),
        ('{"text": "   "}', 'missing or empty "text" (a non-empty string is required)'),
        ('{"text": "Fine.", "url": 3}', '"url" must be a string, got int'),
        (
            '{"text": "Fine.", "published": "last Tuesday"}',
            "\"published\" must be an ISO date (YYYY-MM-DD), got 'last Tuesday'",
        ),
    ],
)
def test_bad_jsonl_line_is_reported_and_other_lines_still_read(tmp_path, line, problem):
    path = tmp_path / "mixed.jsonl"
    path.write_text(
        f'{{"id": "good-1", "text": "First."}}\n{line}\n{{"id": "good-3", "text": "Third."}}\n', encoding="utf-8"
    )
    articles, problems = _collect(path)
    assert [a.id for a in articles] == ["good-1", "good-3"]
    assert problems == [f"{path}:2: {problem}"]


def test_bad_jsonl_line_raises_when_strict(tmp_path):
    path = tmp_path / "bad.jsonl"
    path.write_text('{"text": "First."}\n{oops\n', encoding="utf-8")
    with pytest.raises(InputError, match=r"bad\.jsonl:2: invalid JSON"):
        _read(path, strict=True)


# --- folders and stdin ---------------------------------------------------------------


def test_folder_is_read_recursively_in_sorted_order_known_extensions_only(tmp_path):
    (tmp_path / "b.txt").write_text("Bee.\n", encoding="utf-8")
    (tmp_path / "a.txt").write_text("Ay.\n", encoding="utf-8")
    (tmp_path / "notes.md").write_text("Not an article.\n", encoding="utf-8")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "c.jsonl").write_text('{"id": "c", "text": "Sea."}\n', encoding="utf-8")
    (tmp_path / ".hidden").mkdir()
    (tmp_path / ".hidden" / "d.txt").write_text("Hidden.\n", encoding="utf-8")
    assert [a.text for a in _read(tmp_path)] == ["Ay.\n", "Bee.\n", "Sea."]


def test_stdin_is_plain_text_with_a_text_digest_id(monkeypatch):
    text = "Headline here\n\nA short report from the harbour."
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text.encode("utf-8")), encoding="utf-8"))
    [article] = _read("-")
    assert article.text == text
    assert article.id == article_id(text)
    assert article.source == "<stdin>"
    assert article.title == "Headline here"


def test_empty_stdin_is_a_problem(monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"  \n"), encoding="utf-8"))
    assert _collect("-") == ([], ["<stdin>: empty input"])


# --- bad inputs -----------------------------------------------------------------------


def test_missing_path_is_fatal(tmp_path):
    missing = tmp_path / "nowhere.txt"
    with pytest.raises(InputError, match=r"nowhere\.txt: no such file or folder"):
        _read(missing, on_problem=lambda message: None)


def test_unknown_extension_names_the_valid_ones(tmp_path):
    path = tmp_path / "story.docx"
    path.write_bytes(b"PK")
    with pytest.raises(InputError) as error:
        _read(path)
    assert str(error.value) == f"{path}: unsupported extension '.docx'; expected one of .txt, .html, .htm, .jsonl"
    assert all(ext in str(error.value) for ext in EXTENSIONS)


@pytest.mark.parametrize(
    ("name", "raw", "problem"),
    [
        ("empty.txt", b"", "empty file"),
        ("blank.txt", b" \n\t\n", "empty file"),
        ("image.txt", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "binary file (NUL bytes), not text"),
        ("noise.txt", random.Random(7).randbytes(1000).replace(b"\x00", b"\x01"),
         "not text (not UTF-8, and no other character encoding fits its bytes)"),
        ("empty.jsonl", b"\n\n", "empty file"),
    ],
)
def test_bad_files_are_reported_and_skipped(tmp_path, name, raw, problem):
    bad = tmp_path / name
    bad.write_bytes(raw)
    good = tmp_path / "good.txt"
    good.write_text("Good.\n", encoding="utf-8")
    articles, problems = _collect(bad, good)
    assert [a.text for a in articles] == ["Good.\n"]
    assert problems == [f"{bad}: {problem}"]


def test_bad_file_raises_when_strict(tmp_path):
    path = tmp_path / "empty.txt"
    path.write_bytes(b"")
    with pytest.raises(InputError, match=r"empty\.txt: empty file"):
        _read(path, strict=True)


def test_unreadable_file_is_reported(tmp_path, monkeypatch):
    path = tmp_path / "locked.txt"
    path.write_text("Secret.\n", encoding="utf-8")

    def _denied(self: Path) -> bytes:
        raise PermissionError(13, "Permission denied", str(self))

    # Simulated: file modes do not stop a test run as root.
    monkeypatch.setattr(Path, "read_bytes", _denied)
    assert _collect(path) == ([], [f"{path}: cannot read (Permission denied)"])


def test_problems_are_logged_without_a_handler(tmp_path, caplog):
    path = tmp_path / "empty.txt"
    path.write_bytes(b"")
    assert _read(path) == []
    assert f"{path}: empty file" in caplog.text


def test_bad_path_fails_before_any_article_is_read(tmp_path):
    good = tmp_path / "good.txt"
    good.write_text("Good.\n", encoding="utf-8")
    articles = read_articles([good, tmp_path / "missing.txt"])
    with pytest.raises(InputError, match=r"missing\.txt: no such file or folder"):
        next(articles)


def test_html_in_a_declared_legacy_charset_is_decoded(tmp_path):
    body = "<p>The caf\u00e9 on the quay reopened on Monday after a winter of repairs to its roof.</p>" * 2
    head = '<meta charset="windows-1252"><title>Caf\u00e9</title>'
    page = f"<html><head>{head}</head><body><article>{body}</article></body></html>"
    path = tmp_path / "legacy.html"
    path.write_bytes(page.encode("cp1252"))
    [article] = _read(path)
    assert "The caf\u00e9 on the quay reopened" in article.text
    assert article.title == "Caf\u00e9"


def test_jsonl_is_read_line_by_line_and_a_bad_line_does_not_lose_the_others(tmp_path):
    path = tmp_path / "mixed.jsonl"
    path.write_bytes(
        codecs.BOM_UTF8
        + b'{"id": "a", "text": "First."}\r\n'
        + '{"id": "b", "text": "Caf\u00e9."}\n'.encode("latin-1")
        + b"\n"
        + '{"id": "c", "text": "Caf\u00e9 \u2014 third."}\n'.encode("utf-8")
    )
    articles, problems = _collect(path)
    assert [(a.id, a.text, a.source) for a in articles] == [
        ("a", "First.", f"{path}:1"),
        ("c", "Caf\u00e9 \u2014 third.", f"{path}:4"),
    ]
    assert problems == [f"{path}:2: not valid UTF-8 (byte 0xe9 at offset 24)"]


def test_a_jsonl_file_is_not_read_whole(tmp_path):
    """A corpus file may be larger than memory: reading it costs about one line, not the file."""
    path = tmp_path / "big.jsonl"
    path.write_text("".join(f'{{"id": "{n}", "text": "Line {n} {"x" * 80}."}}\n' for n in range(30_000)), encoding="utf-8")
    size = path.stat().st_size
    tracemalloc.start()
    try:
        count = sum(1 for _ in read_articles([path]))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert count == 30_000
    assert peak < size / 10, (peak, size)
