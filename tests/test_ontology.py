"""The ontology and shapes ship with the package, parse, and agree with kg.rdf.namespaces."""

from __future__ import annotations

from importlib.resources import files

import pyoxigraph
import pytest
from rdflib import Graph, URIRef
from rdflib.namespace import OWL, RDF, RDFS, SDO, SH

from kg.rdf.namespaces import KG

_TERM_TYPES = (OWL.Class, OWL.ObjectProperty, OWL.DatatypeProperty, OWL.AnnotationProperty)


@pytest.fixture(scope="module")
def ontology() -> Graph:
    return Graph().parse(data=files("kg.ontology").joinpath("kg.ttl").read_text(encoding="utf-8"), format="turtle")


@pytest.fixture(scope="module")
def declared(ontology) -> set[str]:
    """Local names of the terms kg.ttl declares in the kg namespace."""
    terms = set()
    for term_type in _TERM_TYPES:
        for subject in ontology.subjects(RDF.type, term_type):
            if str(subject).startswith(str(KG)):
                terms.add(str(subject)[len(str(KG)):])
    return terms


def test_namespace_and_ontology_declare_the_same_terms(declared):
    assert declared == set(KG.__annotations__)
    assert {"cue", "confidence", "evidence", "dateText", "AwardCeremony"} <= declared


def test_every_term_is_labelled_and_commented(ontology, declared):
    for name in declared:
        term = URIRef(str(KG) + name)
        assert ontology.value(term, RDFS.label) is not None, name
        assert ontology.value(term, RDFS.comment) is not None, name


def test_ontology_is_tied_to_schema_org(ontology):
    assert (KG.AwardCeremony, RDFS.subClassOf, SDO.Event) in ontology
    assert (URIRef("https://w3id.org/kg/ns"), RDF.type, OWL.Ontology) in ontology
    assert (KG.dateText, RDFS.domain, SDO.Event) in ontology
    assert (KG.sourcePath, RDFS.domain, SDO.NewsArticle) in ontology


def test_namespace_rejects_unknown_terms():
    with pytest.raises(AttributeError, match="not in namespace"):
        KG.speaker  # noqa: B018


def test_shapes_parse_and_cover_the_main_classes():
    text = files("kg.ontology").joinpath("shapes.ttl").read_text(encoding="utf-8")
    shapes = Graph().parse(data=text, format="turtle")
    targets = set(shapes.objects(None, SH.targetClass))
    assert {SDO.Quotation, SDO.Person, SDO.Place, SDO.Event, SDO.NewsArticle, KG.AwardCeremony} <= targets


@pytest.mark.parametrize("name", ["kg.ttl", "shapes.ttl"])
def test_files_parse_in_oxigraph_too(name):
    data = files("kg.ontology").joinpath(name).read_bytes()
    assert len(list(pyoxigraph.parse(data, format=pyoxigraph.RdfFormat.TURTLE))) > 20
