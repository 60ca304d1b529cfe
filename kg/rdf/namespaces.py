"""The namespaces of kg's graphs: schema.org first, kg's own terms, Web Annotation, PROV.

``KG`` mirrors ontology/kg.ttl term for term (a test checks that the two agree);
``_fail = True`` makes a misspelt term raise instead of minting a stray IRI.
"""

from __future__ import annotations

from rdflib import Graph, Namespace, URIRef
from rdflib.namespace import OWL, PROV, RDF, RDFS, SDO, XSD, DefinedNamespace

__all__ = ["DATA", "KG", "OA", "OWL", "PREFIXES", "PROV", "RDF", "RDFS", "SDO", "XSD", "bind_prefixes"]

DATA = Namespace("https://w3id.org/kg/id/")
"""Where every data IRI kg mints lives (articles, people, works, events, places, spans)."""


class KG(DefinedNamespace):
    """kg's own terms: only what schema.org lacks (see ontology/kg.ttl)."""

    _fail = True
    _NS = Namespace("https://w3id.org/kg/ns#")

    AwardCeremony: URIRef  # An event at which awards are presented; rdfs:subClassOf schema:Event.
    age: URIRef  # A person's age in years as the article states it.
    confidence: URIRef  # How sure the extractor is of the fact, 0 to 1 (xsd:decimal).
    contextRule: URIRef  # The sieve that placed a performance in its show, venue or city (a kg:rule).
    cue: URIRef  # The word that signalled the fact (say-verb, performance verb).
    dateText: URIRef  # An event's date as the article wrote it.
    evidence: URIRef  # The text selector (span of the article) a node was read from.
    locationRule: URIRef  # The sieve that placed an event at its venue or city (a kg:rule).
    rule: URIRef  # The id of the extraction sieve that decided the fact ("quote.trigram").
    sourcePath: URIRef  # The file (and JSONL line) an article was read from, as given to kg.


class OA(DefinedNamespace):
    """The W3C Web Annotation terms kg uses to point at the evidence in an article."""

    _fail = True
    _NS = Namespace("http://www.w3.org/ns/oa#")

    TextPositionSelector: URIRef  # Selects text by its start and end character offsets.
    TextQuoteSelector: URIRef  # Selects text by quoting it exactly.
    end: URIRef  # Offset just past the last selected character.
    exact: URIRef  # The selected text, copied exactly.
    start: URIRef  # Offset of the first selected character.


PREFIXES: dict[str, str] = {
    "schema": str(SDO),
    "kg": str(KG),
    "oa": str(OA),
    "prov": str(PROV),
    "xsd": str(XSD),
}
"""The prefixes every serialisation and query of kg uses."""


def bind_prefixes(graph: Graph) -> Graph:
    """Bind kg's prefixes on ``graph`` (replacing rdflib's defaults) so output reads as documented.

    Args:
        graph: Any rdflib Graph or Dataset.

    Returns:
        The same graph, for chaining.
    """
    for prefix, iri in PREFIXES.items():
        graph.bind(prefix, Namespace(iri), override=True, replace=True)
    return graph
