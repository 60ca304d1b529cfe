"""Read and write kg's graphs in every common RDF syntax, chosen by file extension.

Quad syntaxes (TriG, N-Quads, JSON-LD) keep one named graph per article; triple
syntaxes (Turtle, N-Triples, RDF/XML) get the union of all graphs, since they
cannot name graphs. Writes are atomic: a reader never sees half a file.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pyoxigraph as ox
from rdflib import Dataset, Graph

from kg._files import write_atomic
from kg.errors import GraphError
from kg.rdf.namespaces import PREFIXES, bind_prefixes

__all__ = ["FORMATS", "JSONLD_CONTEXT", "QUAD_FORMATS", "format_for", "read_dataset", "union_graph", "write_dataset"]

FORMATS: dict[str, str] = {
    ".ttl": "turtle",
    ".trig": "trig",
    ".nq": "nquads",
    ".nt": "nt",
    ".jsonld": "json-ld",
    ".rdf": "xml",
    ".xml": "xml",
}
"""File extension -> rdflib format name."""

QUAD_FORMATS = frozenset({"trig", "nquads", "json-ld"})
"""The rdflib formats that keep named graphs."""

_FORMAT_NAMES = frozenset(FORMATS.values())

# How messages name each syntax, and the Oxigraph parser that locates a syntax error in it.
_SYNTAX_NAMES = {"turtle": "Turtle", "trig": "TriG", "nquads": "N-Quads", "nt": "N-Triples",
                 "json-ld": "JSON-LD", "xml": "RDF/XML"}
_OX_FORMATS = {"turtle": ox.RdfFormat.TURTLE, "trig": ox.RdfFormat.TRIG, "nquads": ox.RdfFormat.N_QUADS,
               "nt": ox.RdfFormat.N_TRIPLES, "json-ld": ox.RdfFormat.JSON_LD, "xml": ox.RdfFormat.RDF_XML}
# Oxigraph's message around the reason: "Parser error at line 3 column 9: REASON (file, line 3)".
_OX_PREFIX = re.compile(r"^Parser error [^:]*: ")
_OX_SUFFIX = re.compile(r" \([^()]*, line \d+\)$")
_SAX_LOCATION = re.compile(r"^\S+?:(\d+):\d+: (.*)$", re.DOTALL)

JSONLD_CONTEXT: dict[str, str] = dict(PREFIXES)
"""The compact ``@context`` of kg's JSON-LD: prefixes for schema, kg, oa, prov and xsd."""


def format_for(path: str | os.PathLike[str]) -> str:
    """The rdflib format name for a file, by its extension.

    Raises:
        GraphError: For an extension kg cannot read or write, naming the valid ones.

    >>> format_for("out/graph.trig")
    'trig'
    """
    suffix = Path(path).suffix.lower()
    if suffix not in FORMATS and Path(path).is_dir():
        # "unknown extension ''" would send the user looking for the wrong mistake.
        raise GraphError(f"{path}: is a folder, not a graph file; name a file such as {Path(path) / 'graph.ttl'}")
    try:
        return FORMATS[suffix]
    except KeyError:
        valid = ", ".join(FORMATS)
        raise GraphError(f"{path}: unknown RDF file extension {suffix!r}; use one of {valid}") from None


def union_graph(dataset: Dataset) -> Graph:
    """All triples of every graph of ``dataset`` (the default graph included) in one Graph."""
    union = bind_prefixes(Graph())
    for graph in dataset.graphs():
        for triple in graph:
            union.add(triple)
    return union


def write_dataset(dataset: Dataset, path: str | os.PathLike[str], fmt: str | None = None) -> None:
    """Write ``dataset`` to ``path`` atomically (a temp file in the same folder, then a rename).

    Args:
        dataset: The graphs to write.
        path: The file to create or replace.
        fmt: An rdflib format name; by default the one of the path's extension.

    Raises:
        GraphError: For an unknown extension or when the file cannot be written.
    """
    target = Path(path)
    fmt = fmt or format_for(target)
    if fmt not in _FORMAT_NAMES:
        raise GraphError(f"{target}: unknown RDF format {fmt!r}; use one of {', '.join(sorted(_FORMAT_NAMES))}")
    options = {"context": JSONLD_CONTEXT, "auto_compact": True} if fmt == "json-ld" else {}
    source = bind_prefixes(dataset) if fmt in QUAD_FORMATS else union_graph(dataset)
    write_atomic(target, lambda out: source.serialize(destination=out, format=fmt, encoding="utf-8", **options))


def read_dataset(path: str | os.PathLike[str]) -> Dataset:
    """Read an RDF file into a Dataset; triple syntaxes land in the default graph.

    The dataset queries the union of its graphs by default (``default_union=True``), so
    the named queries of :mod:`kg.queries` run on it as they are.

    Raises:
        GraphError: When the file is missing, has an unknown extension or does not parse
            (one line: the path and the problem).
    """
    source = Path(path)
    fmt = format_for(source)
    if not source.is_file():
        raise GraphError(f"{source}: no such file")
    dataset = Dataset(default_union=True)
    try:
        dataset.parse(source, format=fmt)
    except Exception as err:  # rdflib's parsers raise many unrelated types for bad input.
        raise GraphError(f"{source}: not valid {_SYNTAX_NAMES[fmt]}, {_syntax_problem(source, fmt, err)}") from err
    return bind_prefixes(dataset)


def _syntax_problem(source: Path, fmt: str, err: Exception) -> str:
    """Where and why a file does not parse, in one line: ``line N: reason``.

    rdflib's messages quote the text around the error as Python byte strings
    (``b'...'``) and its N-Triples parser names no line, so Oxigraph's parser, which
    says line and column plainly, reads the file again to find the first error. When
    it finds none (the two parsers disagree), rdflib's own line and reason are used.
    """
    try:
        for _ in ox.parse(path=str(source), format=_OX_FORMATS[fmt]):
            pass
    except SyntaxError as located:
        if located.lineno:
            return f"line {located.lineno}: {_OX_SUFFIX.sub('', _OX_PREFIX.sub('', ' '.join(str(located).split())))}"
    except (OSError, ValueError):
        pass
    why, lines = getattr(err, "_why", None), getattr(err, "lines", None)
    if isinstance(why, str) and isinstance(lines, int):
        # rdflib's Turtle and TriG parser: the 0-based line apart from its context dump.
        return f"line {lines + 1}: {why}"
    sax = _SAX_LOCATION.match(str(err))
    if sax:
        # The XML parser's "file:///path:LINE:COLUMN: reason".
        return f"line {sax.group(1)}: {sax.group(2)}"
    return " ".join(re.sub(r"b'(.*?)'", r"\1", str(err)).split()) or type(err).__name__
