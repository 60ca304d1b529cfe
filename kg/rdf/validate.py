"""SHACL validation of kg's graphs against the shapes shipped in ``kg.ontology`` (shapes.ttl)."""

from __future__ import annotations

from functools import lru_cache
from importlib.resources import files

from pyshacl import validate as _shacl_validate
from rdflib import Graph

__all__ = ["shapes", "validate"]


@lru_cache(maxsize=1)
def shapes() -> Graph:
    """The SHACL shapes graph, parsed once per process."""
    text = files("kg.ontology").joinpath("shapes.ttl").read_text(encoding="utf-8")
    return Graph().parse(data=text, format="turtle")


def validate(graph: Graph) -> tuple[bool, str]:
    """Check a graph (or a Dataset: each named graph on its own) against kg's SHACL shapes.

    The shapes name every class they target, so no inference runs and validation
    stays fast; the data graph is never modified.

    Args:
        graph: The graph or dataset to check.

    Returns:
        ``(conforms, report)``: whether it conforms and pyshacl's human-readable report.
    """
    conforms, _report_graph, report_text = _shacl_validate(
        graph,
        shacl_graph=shapes(),
        inference="none",
        abort_on_first=False,
        allow_warnings=False,
    )
    return bool(conforms), str(report_text)
