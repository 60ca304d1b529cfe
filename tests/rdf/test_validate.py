"""SHACL: what kg writes conforms; broken graphs are caught with a readable report."""

from __future__ import annotations


from rdflib import Dataset, Literal, URIRef

from kg.extract.model import Entity, Facts, Performance, Quote, TextSpan
from kg.rdf import add_article, article_graph, mint, validate
from kg.rdf.namespaces import KG, OA, RDF, SDO

QUOTE = URIRef("https://w3id.org/kg/id/article/harbor-1/quote/30-64")
ANA = URIRef("https://w3id.org/kg/id/person/ana-rivera")


def test_written_graph_conforms(article, facts):
    conforms, report = validate(article_graph(article, facts))
    assert conforms, report


def test_dataset_conforms(dataset):
    conforms, report = validate(dataset)
    assert conforms, report


def test_quotation_with_two_texts_and_a_place_as_creator_fails(article, facts):
    graph = article_graph(article, facts)
    graph.add((QUOTE, SDO.text, Literal("a second text")))
    graph.set((QUOTE, SDO.creator, mint("place", "Portland")))
    conforms, report = validate(graph)
    assert not conforms
    assert "MaxCountConstraintComponent" in report and "schema:text" in report
    assert "OrConstraintComponent" in report


def test_selector_with_start_after_end_fails(article, facts):
    graph = article_graph(article, facts)
    selector = URIRef("https://w3id.org/kg/id/article/harbor-1/span/0-10")
    graph.set((selector, OA.start, Literal(50)))
    conforms, report = validate(graph)
    assert not conforms and "LessThanOrEqualsConstraintComponent" in report


def test_nameless_person_and_event_fail(article, facts):
    graph = article_graph(article, facts)
    graph.remove((ANA, SDO.name, None))
    graph.remove((mint("event", "Harbor Lights Festival"), SDO.name, None))
    conforms, report = validate(graph)
    assert not conforms
    assert "schema:name" in report and "harbor-lights-festival" in report


def test_performance_with_two_performers_fails(article, facts):
    graph = article_graph(article, facts)
    performance = URIRef("https://w3id.org/kg/id/article/harbor-1/performance/1")
    graph.add((performance, SDO.performer, mint("person", "Someone Else")))
    graph.add((mint("person", "Someone Else"), RDF.type, SDO.Person))
    graph.add((mint("person", "Someone Else"), SDO.name, Literal("Someone Else")))
    conforms, report = validate(graph)
    assert not conforms and "schema:performer" in report


def test_confidence_out_of_range_fails(article):
    facts = Facts(quotes=(Quote(span=TextSpan(0, 3, "Ana"), confidence=1.5),))
    conforms, report = validate(article_graph(article, facts))
    assert not conforms and "kg:confidence" in report.replace(str(KG.confidence), "kg:confidence")


def test_a_graph_of_two_thousand_triples_conforms(make_article, span):
    ds = Dataset(default_union=True)
    people = tuple(
        Entity(key=f"p{i}", kind="person", name=f"Person {i}", aliases=(f"P{i}",), mentions=(span("Ana Rivera"),))
        for i in range(40)
    )
    quotes = tuple(Quote(span=TextSpan(i, i + 5, "x" * 5), speaker=f"p{i % 40}", cue="said") for i in range(60))
    performances = tuple(Performance(performer=f"p{i}", span=TextSpan(i, i + 9, "y" * 9)) for i in range(40))
    facts = Facts(entities=people, quotes=quotes, performances=performances)
    for number in range(2):
        add_article(ds, make_article(f"bulk-{number}"), facts)
    graph = ds.graph(mint("article", "bulk-0"))
    for triple in ds.graph(mint("article", "bulk-1")):
        graph.add(triple)
    assert len(graph) >= 2000
    conforms, report = validate(graph)
    assert conforms, report
