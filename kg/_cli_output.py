"""How the ``kg`` commands print results: text tables, CSV, SPARQL JSON, Turtle, JSON-LD.

Kept apart from :mod:`kg.cli` so that every command group renders the same way.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence
from typing import TYPE_CHECKING

from kg.errors import QueryError

if TYPE_CHECKING:
    from rdflib.query import Result

__all__ = ["FORMAT_HELP", "csv_text", "render", "table"]

FORMAT_HELP = (
    "table: a text table (Turtle for CONSTRUCT and DESCRIBE, true/false for ASK); "
    "csv: SELECT only; json: SPARQL JSON results (JSON-LD for CONSTRUCT and DESCRIBE)."
)
"""What ``--format`` does for each kind of query, for the option's help."""


def render(result: Result, fmt: str) -> str:
    """A query result as text in format ``fmt`` (``table``, ``csv`` or ``json``).

    A graph (CONSTRUCT, DESCRIBE) has no rows: ``table`` prints it as Turtle and
    ``json`` as JSON-LD. An ASK answer prints as true or false, or as SPARQL JSON.

    Raises:
        QueryError: For ``csv`` on anything but a SELECT query, naming the formats that apply.
    """
    if result.type != "SELECT" and fmt == "csv":
        shown = "true or false" if result.type == "ASK" else "a graph: Turtle (the default) or JSON-LD (--format json)"
        raise QueryError(f"--format csv is for SELECT queries; {result.type} gives {shown}")
    if result.type == "ASK":
        if fmt == "json":
            return json.dumps({"head": {}, "boolean": bool(result.askAnswer)}) + "\n"
        return ("true" if result.askAnswer else "false") + "\n"
    if result.type in ("CONSTRUCT", "DESCRIBE"):
        if fmt == "json":
            from kg.rdf.serialize import JSONLD_CONTEXT

            data = result.graph.serialize(format="json-ld", context=JSONLD_CONTEXT, auto_compact=True)
            return data.rstrip("\n") + "\n"
        return result.serialize(format="turtle").decode("utf-8")
    if fmt == "json":
        return result.serialize(format="json").decode("utf-8") + "\n"
    names = [str(v) for v in result.vars]
    rows = [["" if v is None else str(v) for v in row] for row in result]
    return csv_text(names, rows) if fmt == "csv" else table(names, rows)


def csv_text(names: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """A header line and the rows as CSV."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(names)
    writer.writerows(rows)
    return buffer.getvalue()


def table(names: Sequence[str], rows: Sequence[Sequence[str]], width: int = 70) -> str:
    """A plain aligned table; long cells are cut with an ellipsis."""
    def cut(cell: str) -> str:
        cell = " ".join(cell.split())
        return cell if len(cell) <= width else cell[: width - 1] + "…"

    cells = [[cut(c) for c in row] for row in rows]
    widths = [max([len(n)] + [len(r[i]) for r in cells]) for i, n in enumerate(names)]
    line = lambda row: "  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip()  # noqa: E731
    out = [line(names), line(["-" * w for w in widths])] + [line(r) for r in cells]
    out.append(f"({len(rows)} row{'s' if len(rows) != 1 else ''})")
    return "\n".join(out) + "\n"
