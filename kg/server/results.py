"""The one interface the server needs from a backend: ``run_query(sparql) -> QueryResult``, plain picklable values."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from kg.graph import KnowledgeGraph
from kg.server.readonly import QueryRefused, refusal

if TYPE_CHECKING:
    from rdflib.term import Node

__all__ = ["QueryResult", "QueryRunner", "make_runner"]


@dataclass(frozen=True)
class QueryResult:
    """What a query gave, as plain picklable values (it crosses from a worker process).

    Attributes:
        kind: ``SELECT``, ``ASK``, ``CONSTRUCT`` or ``DESCRIBE``.
        variables: SELECT's variable names, in order, without ``?``.
        rows: SELECT's rows: one rdflib term (or None when unbound) per variable.
        boolean: ASK's answer.
        triples: CONSTRUCT/DESCRIBE's triples.
        truncated: True when rows or triples beyond the result cap were cut.
    """

    kind: str
    variables: tuple[str, ...] = ()
    rows: tuple[tuple[Node | None, ...], ...] = ()
    boolean: bool | None = None
    triples: tuple[tuple[Node, Node, Node], ...] = ()
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
        reason = refusal(sparql)
        if reason:
            raise QueryRefused(reason)
        return _collect(graph.query(sparql), max_results)

    return run_query


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
