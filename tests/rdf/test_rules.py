"""The sieve that decided each fact reaches the graph: kg:rule, kg:confidence, kg:contextRule, kg:locationRule."""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal

import pytest
from click.testing import CliRunner
from rdflib import Dataset, Graph, Literal, URIRef

from kg.cli import cli
from kg.extract.model import Facts
from kg.rdf import add_article, article_graph, mint, validate, write_dataset
from kg.rdf.namespaces import KG, XSD

from .conftest import make_article, make_facts

QUOTE = mint("article", "harbor-1", "quote", "30-64")
UNRULED_QUOTE = mint("article", "harbor-1", "quote", "167-177")
PERFORMANCE = mint("article", "harbor-1", "performance", 1)
SONG = mint("work", "Night Train")
FESTIVAL = mint("event", "Harbor Lights Festival")


def ruled_facts(suffix: str = "") -> Facts:
    """The sample facts with every sieve named (``suffix`` varies the ids between articles)."""
    facts = make_facts()
    first_quote, second_quote = facts.quotes
    return replace(
        facts,
        quotes=(replace(first_quote, rule="quote.trigram" + suffix), second_quote),
        works=tuple(replace(w, rule="work.quoted-title" + suffix, confidence=0.8) for w in facts.works),
        events=tuple(
            replace(e, rule="event.named" + suffix, confidence=0.7, location_rule="location.at-venue" + suffix)
            for e in facts.events
        ),
        performances=tuple(
            replace(p, rule="perf.frame" + suffix, confidence=0.6, context_rule="context.lead-venue" + suffix)
            for p in facts.performances
        ),
    )


@pytest.fixture
def graph() -> Graph:
    return article_graph(make_article(), ruled_facts())


def _decimal(graph: Graph, node: URIRef) -> Decimal:
    value = graph.value(node, KG.confidence)
    assert value is not None and value.datatype == XSD.decimal
    return value.toPython()


def test_each_decided_node_names_its_rule_as_a_plain_string(graph):
    assert graph.value(QUOTE, KG.rule) == Literal("quote.trigram")
    assert graph.value(PERFORMANCE, KG.rule) == Literal("perf.frame")
    assert graph.value(SONG, KG.rule) == Literal("work.quoted-title")
    assert graph.value(FESTIVAL, KG.rule) == Literal("event.named")
    assert graph.value(QUOTE, KG.rule).datatype is None


def test_each_decided_node_carries_its_confidence(graph):
    assert _decimal(graph, QUOTE) == Decimal("0.9")
    assert _decimal(graph, PERFORMANCE) == Decimal("0.6")
    assert _decimal(graph, SONG) == Decimal("0.8")
    assert _decimal(graph, FESTIVAL) == Decimal("0.7")


def test_placing_rules_are_apart_from_deciding_rules(graph):
    assert graph.value(PERFORMANCE, KG.contextRule) == Literal("context.lead-venue")
    assert graph.value(FESTIVAL, KG.locationRule) == Literal("location.at-venue")
    assert graph.value(FESTIVAL, KG.contextRule) is None
    assert graph.value(PERFORMANCE, KG.locationRule) is None


def test_without_a_rule_nothing_is_claimed_but_a_quotations_confidence():
    graph = article_graph(make_article(), make_facts())
    assert list(graph.triples((None, KG.rule, None))) == []
    assert list(graph.triples((None, KG.contextRule, None))) == []
    assert list(graph.triples((None, KG.locationRule, None))) == []
    # Quotations said how sure they were before sieves had names, and still do.
    assert {s for s, _, _ in graph.triples((None, KG.confidence, None))} == {QUOTE, UNRULED_QUOTE}


def test_an_unruled_quotation_beside_a_ruled_one_has_no_rule(graph):
    assert graph.value(UNRULED_QUOTE, KG.rule) is None
    assert _decimal(graph, UNRULED_QUOTE) == Decimal("0.5")


def test_graph_with_rules_conforms(graph):
    conforms, report = validate(graph)
    assert conforms, report


def test_work_and_event_named_in_two_articles_keep_both_rules_and_conform():
    ds = Dataset(default_union=True)
    add_article(ds, make_article("harbor-1"), ruled_facts())
    add_article(ds, make_article("harbor-2"), ruled_facts(suffix="-b"))
    merged = Graph()
    for triple in ds.triples((None, None, None)):
        merged.add(triple)
    assert set(merged.objects(SONG, KG.rule)) == {Literal("work.quoted-title"), Literal("work.quoted-title-b")}
    assert set(merged.objects(FESTIVAL, KG.locationRule)) == {
        Literal("location.at-venue"),
        Literal("location.at-venue-b"),
    }
    conforms, report = validate(merged)
    assert conforms, report


@pytest.mark.parametrize(
    ("node", "prop", "value", "constraint"),
    [
        (QUOTE, KG.rule, Literal(7), "DatatypeConstraintComponent"),
        (PERFORMANCE, KG.contextRule, Literal("context.lead-venue", lang="en"), "DatatypeConstraintComponent"),
        (FESTIVAL, KG.locationRule, Literal("2", datatype=XSD.integer), "DatatypeConstraintComponent"),
        (SONG, KG.confidence, Literal("high"), "DatatypeConstraintComponent"),
        (FESTIVAL, KG.confidence, Literal("1.5", datatype=XSD.decimal), "MaxInclusiveConstraintComponent"),
        (PERFORMANCE, KG.rule, Literal("perf.second-opinion"), "MaxCountConstraintComponent"),
    ],
    ids=["integer-rule", "tagged-context-rule", "typed-location-rule", "text-confidence", "confidence-over-1",
         "performance-with-two-rules"],
)
def test_ill_typed_or_repeated_rule_fails(graph, node, prop, value, constraint):
    if constraint != "MaxCountConstraintComponent":
        graph.remove((node, prop, None))
    graph.add((node, prop, value))
    conforms, report = validate(graph)
    assert not conforms
    assert constraint in report and str(node) in report


def test_sparql_finds_facts_by_their_rule(graph):
    by_rule = graph.query(
        'PREFIX kg: <https://w3id.org/kg/ns#> SELECT ?node WHERE { ?node kg:rule "quote.trigram" }'
    )
    assert {row.node for row in by_rule} == {QUOTE}
    by_family = graph.query(
        """
        PREFIX kg: <https://w3id.org/kg/ns#>
        SELECT ?node ?rule WHERE { ?node kg:rule ?rule FILTER(STRSTARTS(?rule, "perf.") || STRSTARTS(?rule, "work.")) }
        """
    )
    assert {(row.node, str(row.rule)) for row in by_family} == {
        (PERFORMANCE, "perf.frame"),
        (SONG, "work.quoted-title"),
    }
    placed = graph.query(
        "PREFIX kg: <https://w3id.org/kg/ns#> "
        "SELECT ?node WHERE { ?node kg:contextRule ?r FILTER(?r = 'context.lead-venue') }"
    )
    assert {row.node for row in placed} == {PERFORMANCE}


def test_kg_validate_accepts_a_graph_file_with_rules(tmp_path):
    ds = Dataset(default_union=True)
    add_article(ds, make_article(), ruled_facts())
    path = tmp_path / "ruled.trig"
    write_dataset(ds, path)
    result = CliRunner().invoke(cli, ["validate", str(path)])
    assert result.exit_code == 0, result.output
    assert "conforms" in result.output
