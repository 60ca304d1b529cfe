"""Readers: files, folders, JSONL and stdin in, :class:`~kg.io.article.Article` out.

Supported inputs:

* ``.txt``: the whole file is the text. The first non-empty line is taken as the
  title when it looks like a headline (short, no final full stop); it stays in the
  text so offsets are unchanged. No publication date.
* ``.html`` / ``.htm``: the main text (boilerplate removed by trafilatura), one
  paragraph a block, blocks joined by a blank line; title, URL and date from the
  page's metadata (see :mod:`kg.io.html`).
* ``.jsonl``: one JSON object a line with ``text`` and optional ``id``, ``url``,
  ``title``, ``published``.
* a folder: every file with one of the extensions above, recursively, in sorted
  order of relative path; hidden files and folders are skipped.
* ``-``: plain text from stdin.

An article's identity (its ``id``, hence its IRI and named graph) is what names it
in the world, so that an edited article replaces its old version when built again:

* its URL, when it has one (an HTML page's canonical URL, a JSONL line's ``url``);
  a JSONL line's own ``id`` comes before everything;
* else its source path as given: ``examples/a.txt`` whether ``examples/a.txt`` or
  the folder ``examples/`` was given (a folder's files are the folder as given plus
  their path inside it, so build from the same place with the same paths); a JSONL
  line without ``id`` or ``url`` is ``FILE#LINE``;
* else (standard input) a digest of the text.

Ids are digests of that basis (16 hex digits), the same on every run. The source
path is kept in the graph as well (``kg:sourcePath``), and ``kg articles`` lists it.

A text file that is not UTF-8 but is text in a legacy encoding (Latin-1,
Windows-1252, ...) is read in the encoding charset-normalizer detects, with a
warning naming it (logged on ``kg.io.encoding``); only bytes that are no text in any
encoding are refused.

A text longer than :data:`MAX_CHARS` is refused as a problem, not cut: a cut
article would give a graph that looks whole but is not.

Problems come in two weights. A missing path or an unsupported extension is a
mistake in the command, so it always raises :class:`~kg.errors.InputError`. A bad
source among many (empty, binary, unreadable, a JSONL line that is malformed or not UTF-8)
is reported through ``on_problem`` and skipped, so one bad file does not stop a
corpus build; with ``strict=True`` it raises instead.
"""

from __future__ import annotations

import codecs
import hashlib
import json
import logging
import os
import sys
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from trafilatura.utils import decode_file

from kg.errors import InputError
from kg.io.article import Article
from kg.io.encoding import WIDE_BOMS, decode, newlines
from kg.io.html import iso_date, parse_html

EXTENSIONS = (".txt", ".html", ".htm", ".jsonl")
STDIN = "-"
#: Longest text taken, in characters: spaCy's default ``max_length``, above which its
#: parser refuses a text (and would need about 10 GB of memory for it).
MAX_CHARS = 1_000_000

_LOG = logging.getLogger(__name__)
_TITLE_MAX = 150
_SENTENCE_END = (".", "!", "?", ".\u201d", '."')
_JSONL_FIELDS = ("id", "url", "title", "published")
#: How much of a JSONL file is looked at for a BOM or NUL bytes (binary data) before it is read.
_SNIFF_BYTES = 8192
ProblemHandler = Callable[[str], None]


def read_articles(
    inputs: Iterable[str | Path],
    *,
    strict: bool = False,
    on_problem: ProblemHandler | None = None,
) -> Iterator[Article]:
    """Yield the articles of every input, in order.

    Args:
        inputs: Paths of files or folders, or ``"-"`` for stdin.
        strict: Raise on the first bad source instead of reporting and skipping it.
        on_problem: Called with a one-line message for each source skipped; by
            default the message is logged as a warning on ``kg.io.readers``.

    Yields:
        One Article per text file, HTML page, JSONL line or stdin.

    Raises:
        InputError: For a missing path or an unsupported extension, always; for
            any other bad source when ``strict`` is true.
    """
    report = _reporter(strict, on_problem)
    # Mistakes in the command fail before any work is done, not halfway through a corpus.
    items = [item if str(item) == STDIN else _checked_path(Path(item)) for item in inputs]
    for item in items:
        if isinstance(item, Path) and item.is_dir():
            for file in _folder_files(item):
                yield from _read_file(file, report)
        elif isinstance(item, Path):
            yield from _read_file(item, report)
        else:
            yield from _read_stdin(report)


def count_articles(inputs: Iterable[str | Path]) -> int | None:
    """How many articles ``inputs`` hold, found without reading them: for a progress bar's total.

    A text or HTML file is one article, a JSONL file one per non-blank line (counted,
    not parsed), a folder the sum of its files. A source found bad when read is still
    counted, so the count may run a little over. None when one input is stdin, which
    cannot be counted without being read.
    """
    total = 0
    for item in inputs:
        if str(item) == STDIN:
            return None
        path = Path(item)
        for file in _folder_files(path) if path.is_dir() else [path]:
            total += _count_lines(file) if file.suffix.lower() == ".jsonl" else 1
    return total


def _count_lines(path: Path) -> int:
    """Non-blank lines of a file, or 0 when it cannot be read (reading it will say why)."""
    try:
        with path.open("rb") as stream:
            return sum(1 for line in stream if not line.isspace())
    except OSError:
        return 0


def article_id(text: str, url: str | None = None, path: str | None = None) -> str:
    """A deterministic id: a digest of the URL when there is one, else of the source path, else of the text.

    The text comes last so that editing an article does not make it another one.

    >>> article_id("Hello.") == article_id("Hello.")
    True
    >>> article_id("Hello.", "https://example.org/a") == article_id("Other.", "https://example.org/a")
    True
    >>> article_id("Hello.", path="news/a.txt") == article_id("Hello, world.", path="news/a.txt")
    True
    """
    basis = f"url:{url}" if url else f"path:{path}" if path else f"text:{text}"
    return hashlib.sha256(basis.encode("utf-8")).hexdigest()[:16]


def source_path(path: str | os.PathLike[str]) -> str:
    """A path as kg names an article by it: as given, normalised (``./a//b.txt`` is ``a/b.txt``), with ``/``.

    >>> source_path("./news//2024/../a.txt")
    'news/a.txt'
    """
    return Path(os.path.normpath(path)).as_posix()


def _checked_path(path: Path) -> Path:
    """The path itself, if it exists and is a folder or a file kg can read; else InputError."""
    if not path.exists():
        raise InputError(f"{path}: no such file or folder")
    if not path.is_dir() and path.suffix.lower() not in EXTENSIONS:
        raise InputError(
            f"{path}: unsupported extension {path.suffix or '(none)'!r}; expected one of {', '.join(EXTENSIONS)}"
        )
    return path


def _reporter(strict: bool, on_problem: ProblemHandler | None) -> ProblemHandler:
    """The function every non-fatal problem goes through."""
    if strict:

        def _raise(message: str) -> None:
            raise InputError(message)

        return _raise
    return on_problem or (lambda message: _LOG.warning("%s", message))


def _folder_files(folder: Path) -> list[Path]:
    """Files with a supported extension under ``folder`` (dangling links too), sorted by relative
    path, hidden ones skipped."""
    files = []
    for path in folder.rglob("*"):
        relative = path.relative_to(folder)
        # Hidden files and folders (.git, .ipynb_checkpoints) are never articles.
        if any(part.startswith(".") for part in relative.parts):
            continue
        # A link to a file that is gone is an article lost: listed, so reading it reports it.
        if path.suffix.lower() in EXTENSIONS and (path.is_file() or path.is_symlink() and not path.exists()):
            files.append(path)
    return sorted(files, key=lambda p: p.relative_to(folder).as_posix())


def _read_file(path: Path, report: ProblemHandler) -> Iterator[Article]:
    """The articles of one file, by its extension; problems go to ``report``."""
    source = str(path)
    if path.suffix.lower() == ".jsonl":
        yield from _read_jsonl_file(path, report)
        return
    try:
        data = path.read_bytes()
    except OSError as exc:
        report(f"{source}: cannot read ({exc.strerror or exc})")
        return
    suffix = path.suffix.lower()
    html = suffix in (".html", ".htm")
    try:
        # A text file in a legacy encoding is read as such; HTML may declare its charset.
        text = decode(data, source, legacy=not html)
    except InputError as exc:
        # HTML in another charset (windows-1252, ...): trafilatura reads its declaration.
        if html and b"\x00" not in data:
            text = decode_file(data)
        else:
            report(str(exc))
            return
    if not text.strip():
        report(f"{source}: empty file")
        return
    if suffix in (".html", ".htm"):
        article = _html_article(text, source, report)
        if article is not None:
            yield article
    elif _fits(text, source, report):
        name = source_path(path)
        yield Article(id=article_id(text, path=name), text=text, title=_text_title(text), source=source, path=name)


def _html_article(html: str, source: str, report: ProblemHandler) -> Article | None:
    """One HTML page as an Article, or None (reported) when it has no main text."""
    page = parse_html(html)
    if not page.text.strip():
        report(f"{source}: no main text found in the HTML page")
        return None
    if not _fits(page.text, source, report):
        return None
    name = source_path(source)
    return Article(
        id=article_id(page.text, page.url, name),
        text=page.text,
        title=page.title,
        url=page.url,
        published=page.published,
        source=source,
        path=name,
    )


def _read_jsonl_file(path: Path, report: ProblemHandler) -> Iterator[Article]:
    """A JSONL file read line by line, so that a corpus file of any size holds one line in memory.

    A file that starts with NUL bytes is binary and skipped whole; after that, each line
    stands alone: one that is not UTF-8 or not an article is reported as ``FILE:LINE``
    and the others go in. UTF-16 and UTF-32 (with a BOM) are rare enough to be decoded whole.
    """
    source = str(path)
    try:
        with path.open("rb") as stream:
            start = stream.read(_SNIFF_BYTES)
            if start.startswith(WIDE_BOMS):
                text = decode(start + stream.read(), source)
                yield from _jsonl_articles(enumerate(text.split("\n"), start=1), source, report)
                return
            if b"\x00" in start:
                raise InputError(f"{source}: binary file (NUL bytes), not text")
            stream.seek(0)
            yield from _jsonl_articles(_utf8_lines(stream, source, report), source, report)
    except OSError as exc:
        report(f"{source}: cannot read ({exc.strerror or exc})")
    except InputError as exc:
        report(str(exc))


def _utf8_lines(stream: Iterable[bytes], source: str, report: ProblemHandler) -> Iterator[tuple[int, str | None]]:
    """``(line number, text)`` of each line; ``None`` as the text of a line that is not UTF-8, reported."""
    for number, raw in enumerate(stream, start=1):
        if number == 1:
            raw = raw.removeprefix(codecs.BOM_UTF8)
        try:
            yield number, raw.decode("utf-8").rstrip("\r\n")
        except UnicodeDecodeError as exc:
            report(f"{source}:{number}: not valid UTF-8 (byte 0x{raw[exc.start]:02x} at offset {exc.start})")
            yield number, None


def _jsonl_articles(
    lines: Iterable[tuple[int, str | None]], source: str, report: ProblemHandler
) -> Iterator[Article]:
    """One Article per good line; each bad line is reported as ``FILE:LINE: problem``."""
    empty = True
    name = source_path(source)
    for number, line in lines:
        # Blank lines (a trailing newline, spacing) carry no article.
        if line is not None and not line.strip():
            continue
        empty = False
        if line is None:
            continue
        try:
            yield _jsonl_article(line, f"{source}:{number}", f"{name}#{number}")
        except InputError as exc:
            report(str(exc))
    if empty:
        report(f"{source}: empty file")


def _jsonl_article(line: str, where: str, path: str) -> Article:
    """Parse one JSONL line; raises InputError naming ``where`` and the problem.

    ``path`` (``FILE#LINE``) is the line's source path, its identity when it has
    neither ``id`` nor ``url``.
    """
    try:
        record = json.loads(line)
    except json.JSONDecodeError as exc:
        raise InputError(f"{where}: invalid JSON ({exc.msg} at column {exc.colno})") from None
    if not isinstance(record, dict):
        raise InputError(f"{where}: expected a JSON object, got {type(record).__name__}")
    text = record.get("text")
    if not isinstance(text, str) or not text.strip():
        raise InputError(f'{where}: missing or empty "text" (a non-empty string is required)')
    if len(text) > MAX_CHARS:
        raise InputError(_too_long(where, text))
    fields: dict[str, str | None] = {}
    for name in _JSONL_FIELDS:
        value = record.get(name)
        # Numbers are fine as ids; anything else that is not a string is a mistake.
        if isinstance(value, int) and not isinstance(value, bool) and name == "id":
            value = str(value)
        if value is not None and not isinstance(value, str):
            raise InputError(f'{where}: "{name}" must be a string, got {type(value).__name__}')
        fields[name] = (value.strip() or None) if isinstance(value, str) else None
    published = fields["published"]
    if published is not None:
        fields["published"] = iso_date(published)
        if fields["published"] is None:
            raise InputError(f'{where}: "published" must be an ISO date (YYYY-MM-DD), got {published!r}')
    text = newlines(text)
    return Article(
        id=fields["id"] or article_id(text, fields["url"], path),
        text=text,
        title=fields["title"],
        url=fields["url"],
        published=fields["published"],
        source=where,
        path=path,
    )


def _read_stdin(report: ProblemHandler) -> Iterator[Article]:
    """Plain text from stdin as one Article, its id a digest of the text."""
    source = "<stdin>"
    stream = getattr(sys.stdin, "buffer", None)
    try:
        text = decode(stream.read(), source, legacy=True) if stream is not None else newlines(sys.stdin.read())
    except InputError as exc:
        report(str(exc))
        return
    if not text.strip():
        report(f"{source}: empty input")
        return
    if _fits(text, source, report):
        yield Article(id=article_id(text), text=text, title=_text_title(text), source=source)


def _fits(text: str, source: str, report: ProblemHandler) -> bool:
    """Whether a text is short enough for the pipeline; a longer one is reported."""
    if len(text) <= MAX_CHARS:
        return True
    report(_too_long(source, text))
    return False


def _too_long(source: str, text: str) -> str:
    """The message for a text over the limit: where, how long, what the limit is."""
    return f"{source}: text too long ({len(text):,} characters; at most {MAX_CHARS:,} are taken), skipped"


def _text_title(text: str) -> str | None:
    """The first non-empty line when it reads like a headline: short and not ending a sentence.

    >>> _text_title("\\nBand plays on\\n\\nThe band played on.")
    'Band plays on'
    >>> _text_title("The band played on.\\nAnd on.") is None
    True
    """
    first = next((line.strip() for line in text.split("\n") if line.strip()), "")
    if not first or len(first) > _TITLE_MAX or first.endswith(_SENTENCE_END):
        return None
    return first
