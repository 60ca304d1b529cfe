"""SELECT answers that Oxigraph writes itself, as SPARQL JSON results, within the result cap.

Why: handing each solution to Python and writing it there took about a third more
time than Oxigraph takes to evaluate and write the whole answer natively, and a
lookup on a store is answered in well under a millisecond. The catch is the result
cap: Oxigraph writes every solution it finds. So the native path is taken only when
the cap is sure to hold, read off the query's text (outside strings, IRIs and
comments, as :func:`kg.server.readonly.refusal` reads it):

- the query ends with its own ``LIMIT n`` (``OFFSET m`` around it allowed), ``n``
  within the cap: what ends the text is the outermost query's limit (a subquery's
  would be followed by ``}``), so at most ``n`` rows come;
- or the query has no LIMIT, OFFSET or VALUES at all: ``LIMIT cap+1`` is appended,
  and when the answer has more than ``cap`` rows it is written again the usual way
  (:func:`kg.server.results.make_store_runner`), cut at the cap and marked truncated.

Anything else (ASK, CONSTRUCT, other formats, queries this cannot read with
certainty) goes the usual way. Rows are counted by their separators once strings are
blanked out: between two solutions Oxigraph writes ``},{`` and nowhere else.
"""

from __future__ import annotations

import re

import pyoxigraph as ox

from kg.errors import QueryError
from kg.prefixes import QUERY_PREFIXES
from kg.query_errors import syntax_message
from kg.server.readonly import OPAQUE

__all__ = ["native_select_json"]

_KEYWORD = re.compile(r"(?<![\w:])[A-Za-z]+(?![\w:])")
_TRAILING_LIMIT = re.compile(
    r"(?:\bOFFSET\s+\d+\s+)?\bLIMIT\s+(\d+)(?:\s+OFFSET\s+\d+)?\s*\Z", re.IGNORECASE
)
_JSON_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"')


def native_select_json(store: ox.Store, text: str, max_results: int) -> bytes | None:
    """The SELECT query's answer as SPARQL JSON results written by Oxigraph, or None to go the usual way.

    ``text`` must already have passed the read-only check.

    Raises:
        QueryError: When the query does not parse or cannot run.
    """
    skeleton = OPAQUE.sub(" ", text)
    words = [word.upper() for word in _KEYWORD.findall(skeleton)]
    form = next((word for word in words if word not in ("BASE", "PREFIX")), None)
    if form != "SELECT":
        return None
    trailing = _TRAILING_LIMIT.search(skeleton)
    if trailing is not None:
        if int(trailing.group(1)) > max_results:
            return None
        return _serialize(store, text)
    if {"LIMIT", "OFFSET", "VALUES"} & set(words):
        return None
    answer = _serialize(store, f"{text}\nLIMIT {max_results + 1}")
    if answer is not None and _rows(answer) > max_results:
        return None
    return answer


def _serialize(store: ox.Store, text: str) -> bytes | None:
    try:
        result = store.query(text, prefixes=QUERY_PREFIXES)
        if not isinstance(result, ox.QuerySolutions):
            return None
        return result.serialize(format=ox.QueryResultsFormat.JSON)  # type: ignore[no-any-return]
    except (SyntaxError, ValueError, OSError) as err:
        raise QueryError(syntax_message(text, str(err) or type(err).__name__)) from None


def _rows(answer: bytes) -> int:
    """Solutions in Oxigraph's SPARQL JSON results: one more than the ``},{`` between them, strings aside."""
    skeleton = _JSON_STRING.sub(b'""', answer)
    if skeleton.endswith(b"[]}}"):  # {"head":{...},"results":{"bindings":[]}}
        return 0
    return skeleton.count(b"},{") + 1
