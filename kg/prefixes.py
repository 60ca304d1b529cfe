"""The prefixes every SPARQL query to kg may use without declaring them.

One table for every way in: ``kg query`` on a file, a store or a server, the Python API
and ``kg serve``. A newcomer's query written against a graph file (rdflib knows many
prefixes) then runs the same on a store (Oxigraph knows none unless told). Plain
strings, no rdflib: ``kg query --help`` lists them without loading it.
"""

from __future__ import annotations

__all__ = ["QUERY_PREFIXES", "declarations", "help_text"]

QUERY_PREFIXES: dict[str, str] = {
    "schema": "https://schema.org/",
    "kg": "https://w3id.org/kg/ns#",
    "rdf": "http://www.w3.org/1999/02/22-rdf-syntax-ns#",
    "rdfs": "http://www.w3.org/2000/01/rdf-schema#",
    "xsd": "http://www.w3.org/2001/XMLSchema#",
    "owl": "http://www.w3.org/2002/07/owl#",
    "prov": "http://www.w3.org/ns/prov#",
    "oa": "http://www.w3.org/ns/oa#",
    "dcterms": "http://purl.org/dc/terms/",
}
"""Prefix -> namespace IRI; a query's own PREFIX line for the same prefix wins."""


def declarations() -> str:
    """The table as SPARQL PREFIX declarations on one line (for engines that take no prefix table).

    One line with no newline after it, so the line numbers an engine reports stay those of
    the query as typed.
    """
    return " ".join(f"PREFIX {prefix}: <{iri}>" for prefix, iri in QUERY_PREFIXES.items()) + " "


def help_text() -> str:
    """The table as ``kg query --help`` shows it, one prefix a line."""
    return "\n".join(f"  {prefix + ':':<9} <{iri}>" for prefix, iri in QUERY_PREFIXES.items())
