"""SPARQL errors a person can act on: a refused update, and a syntax error as line, column and word.

Oxigraph's parser reports where it gave up and every token it would have taken there
("error at 2:20: expected one of Prefix not found, ['%'], ['-' | '0' ..= '9' | ...") and
reads an ``INSERT`` as a query that should have been a ``CONSTRUCT``. Neither tells a
newcomer what to change. kg names the line and column of the query as typed, the word
found there, and the few tokens that would fit, in one line. Plain ``re``, no rdflib:
the server and the query child use it too.
"""

from __future__ import annotations

import re

from kg.errors import QueryError

__all__ = ["READ_ONLY", "refuse_update", "syntax_message"]

READ_ONLY = "updates are not supported: kg query is read-only"
"""The one line for an INSERT, DELETE, LOAD, CLEAR, DROP, CREATE, ADD, MOVE or COPY."""

# The prologue (BASE and PREFIX declarations) and comments before a query's first keyword.
_PROLOGUE = re.compile(r"(?:\s+|#[^\n]*|BASE\s*<[^>]*>|PREFIX\s+[^\s:]*:\s*<[^>]*>)*", re.IGNORECASE)
_UPDATE = re.compile(r"(?:INSERT|DELETE|LOAD|CLEAR|DROP|CREATE|ADD|MOVE|COPY|WITH)\b", re.IGNORECASE)
_FORM = re.compile(r"(?:SELECT|ASK|CONSTRUCT|DESCRIBE)\b", re.IGNORECASE)
_POSITION = re.compile(r"error at (\d+):(\d+): (.*)", re.DOTALL)
# Tokens a parser lists as expected: quoted ones and keywords; character classes ([...]) are dropped.
_EXPECTED = re.compile(r'"((?:[^"\\]|\\.)*)"|\b([A-Z][A-Z_]+)\b')
_PNAME = re.compile(r"([A-Za-z][\w.-]*)?:[\w.-]*$")
_SHOWN = 6


def refuse_update(text: str) -> None:
    """Refuse a SPARQL update before any engine reads it.

    Raises:
        QueryError: ``updates are not supported: kg query is read-only`` when the first
            keyword after the prologue starts an update.
    """
    if _UPDATE.match(text, _PROLOGUE.match(text).end()):
        raise QueryError(READ_ONLY)


def syntax_message(text: str, error: str) -> str:
    """One line for Oxigraph's parse ``error`` of the query ``text``; other errors as they are, on one line.

    >>> syntax_message("SELEC ?s WHERE { ?s ?p ?o }", "error at 1:10: expected CONSTRUCT")
    "SPARQL syntax error at line 1, column 1: a query starts with SELECT, ASK, CONSTRUCT or DESCRIBE, not 'SELEC'"
    """
    found = _POSITION.match(" ".join(error.split()))
    if found is None:
        return f"SPARQL query failed: {' '.join(error.split())}"
    line, column, expected = int(found.group(1)), int(found.group(2)), found.group(3)
    start = _PROLOGUE.match(text).end()
    if not _FORM.match(text, start):
        first = text[start:].split(maxsplit=1)[0] if text[start:].strip() else ""
        row, col = _line_column(text, start)
        what = f"not {first!r}" if first else "and this one is empty"
        return f"SPARQL syntax error at line {row}, column {col}: a query starts with SELECT, ASK, CONSTRUCT or DESCRIBE, {what}"
    before, word = _word_at(text, line, column)
    where = f"SPARQL syntax error at line {line}, column {column}"
    prefix = _PNAME.search(before)
    if "Prefix not found" in expected and prefix is not None:
        name = prefix.group(1) or ""
        return (f"SPARQL syntax error at line {line}, column {column - len(prefix.group(0))}: unknown prefix "
                f"'{name}:' (declare it: PREFIX {name}: <...>; kg query --help lists the known ones)")
    hint = _expected(expected)
    return f"{where}, near {word!r}{hint}" if word else f"{where}, at the end of the query{hint}"


def _expected(expected: str) -> str:
    """The parser's expected tokens, a few and quoted; "..." when some (or character classes) were left out."""
    tokens = [_quote(_unescape(quoted)) if quoted or not keyword else keyword
              for quoted, keyword in _EXPECTED.findall(expected)]
    if not tokens:
        return ""
    more = len(tokens) > _SHOWN or "[" in _EXPECTED.sub("", expected)
    return f"; expected {' or '.join(tokens[:_SHOWN])}{' or ...' if more else ''}"


def _quote(token: str) -> str:
    """A token in single quotes, or double quotes when it is a single quote."""
    return f'"{token}"' if "'" in token else f"'{token}'"


def _unescape(token: str) -> str:
    """A token as the parser quoted it (``\\"``), as it is typed (``"``)."""
    return re.sub(r"\\(.)", r"\1", token)


def _line_column(text: str, offset: int) -> tuple[int, int]:
    """1-based line and column of a character offset."""
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


def _word_at(text: str, line: int, column: int) -> tuple[str, str]:
    """The text of the line before the column, and the word (a run of non-space) at or just before it."""
    lines = text.split("\n")
    row = lines[line - 1] if 0 < line <= len(lines) else ""
    cut = max(0, min(column - 1, len(row)))
    before, after = row[:cut], row[cut:]
    if line == len(lines) and not after.strip():
        return before, ""  # the query ended where a token was still wanted
    left, right = re.search(r"\S*$", before).group(), re.match(r"\S*", after).group()
    word = left + right
    if not word:
        word = before.split()[-1] if before.split() else after.split()[0] if after.split() else ""
    return before, word
