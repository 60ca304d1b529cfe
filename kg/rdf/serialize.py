"""Read and write kg's graphs in every common RDF syntax, chosen by file extension.

Quad syntaxes (TriG, N-Quads, JSON-LD) keep one named graph per article; triple
syntaxes (Turtle, N-Triples, RDF/XML) get the union of all graphs, since they
cannot name graphs. Writes are atomic: a reader never sees half a file.
"""

from __future__ import annotations

import os
from pathlib import Path

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
        problem = " ".join(str(err).split()) or type(err).__name__
        raise GraphError(f"{source}: not valid {fmt}: {problem}") from err
    return bind_prefixes(dataset)
