"""The one interface the server needs from a backend: ``run_query(sparql) -> QueryResult``.

Any :class:`~kg.graph.KnowledgeGraph` gives one (:func:`make_runner`); an on-disk store
also gives a faster one (:func:`make_store_runner`) that keeps pyoxigraph's own terms:
turning each term into rdflib's took longer than Oxigraph takes to answer a lookup.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Union

import pyoxigraph as ox

from kg import queries
from kg.errors import QueryError
from kg.graph import KnowledgeGraph
from kg.prefixes import QUERY_PREFIXES
from kg.query_errors import syntax_message
from kg.server.readonly import require_read_only

if TYPE_CHECKING:
    from rdflib.term import Node

__all__ = ["QueryResult", "QueryRunner", "Term", "make_runner", "make_store_runner", "query_text"]

Term = Union["Node", ox.NamedNode, ox.BlankNode, ox.Literal]
"""A term of a result: rdflib's, or pyoxigraph's when the store answered straight."""


@dataclass(frozen=True)
class QueryResult:
    """What a query gave, read up to the result cap, for :func:`kg.server.formats.render` to write.

    Attributes:
        kind: ``SELECT``, ``ASK``, ``CONSTRUCT`` or ``DESCRIBE``.
        variables: SELECT's variable names, in order, without ``?``.
        rows: SELECT's rows: one term (or None when unbound) per variable.
        boolean: ASK's answer.
        triples: CONSTRUCT/DESCRIBE's triples.
        truncated: True when rows or triples beyond the result cap were cut.
    """

    kind: str
    variables: tuple[str, ...] = ()
    rows: tuple[tuple[Term | None, ...], ...] = ()
    boolean: bool | None = None
    triples: tuple[tuple[Term, Term, Term], ...] = ()
    truncated: bool = False


QueryRunner = Callable[[str], QueryResult]
"""The one thing the server needs from a backend: ``run_query(sparql) -> QueryResult``."""

def make_runner(graph: KnowledgeGraph, max_results: int) -> QueryRunner:
    """Wrap a KnowledgeGraph as ``run_query(sparql) -> QueryResult``, refusing what is not read-only.

    Args:
        graph: Any KnowledgeGraph; only its ``query`` method is used.
        max_results: Rows or triples kept at most; ``truncated`` says when more were cut.

    Raises (from the returned callable):
        QueryRefused: For updates and SERVICE clauses.
        QueryError: When the query does not parse or cannot run.
    """

    def run_query(sparql: str) -> QueryResult:
        require_read_only(sparql)
        return _collect(graph.query(sparql), max_results)

    return run_query


def make_store_runner(store: ox.Store, max_results: int) -> QueryRunner:
    """Like :func:`make_runner`, on an open pyoxigraph Store straight: rows keep pyoxigraph's terms.

    Named queries are found by name as :meth:`KnowledgeGraph.query` finds them.

    Raises (from the returned callable):
        QueryRefused: For updates and SERVICE clauses.
        QueryError: When the query does not parse or cannot run.
    """

    def run_query(sparql: str) -> QueryResult:
        require_read_only(sparql)
        try:
            raw = store.query(query_text(sparql), prefixes=QUERY_PREFIXES)
            if isinstance(raw, ox.QueryBoolean):
                return QueryResult("ASK", boolean=bool(raw))
            if isinstance(raw, ox.QuerySolutions):
                variables = tuple(v.value for v in raw.variables)
                rows, truncated = _take((tuple(solution) for solution in raw), max_results)
                return QueryResult("SELECT", variables=variables, rows=rows, truncated=truncated)
            triples, truncated = _take(((t.subject, t.predicate, t.object) for t in raw), max_results)
            return QueryResult("CONSTRUCT", triples=triples, truncated=truncated)
        except (SyntaxError, ValueError, OSError) as err:
            raise QueryError(syntax_message(query_text(sparql), str(err) or type(err).__name__)) from None

    return run_query


def query_text(sparql: str) -> str:
    """The text of a named query (``quotes``), or the query itself."""
    return queries.load(sparql) if sparql in _named() else sparql


@lru_cache(maxsize=1)
def _named() -> frozenset[str]:
    return frozenset(queries.names())


def _collect(result: Any, max_results: int) -> QueryResult:
    """Copy an rdflib-style Result into a QueryResult, reading at most one item past the cap."""
    kind = str(result.type)
    if kind == "ASK":
        return QueryResult(kind, boolean=bool(result.askAnswer))
    if kind == "SELECT":
        variables = tuple(str(v) for v in result.vars or ())
        rows, truncated = _take((tuple(row) for row in result), max_results)
        return QueryResult(kind, variables=variables, rows=rows, truncated=truncated)
    triples, truncated = _take((tuple(t) for t in result), max_results)
    return QueryResult(kind, triples=triples, truncated=truncated)


def _take(items: Iterable[Any], limit: int) -> tuple[tuple[Any, ...], bool]:
    kept = []
    for item in items:
        if len(kept) == limit:
            return tuple(kept), True
        kept.append(item)
    return tuple(kept), False
