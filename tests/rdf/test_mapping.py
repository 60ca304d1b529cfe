"""Facts -> triples: the agreed shape, typed literals, replacement of an article's graph."""

from __future__ import annotations

from decimal import Decimal

import pyoxigraph
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rdflib import Dataset, Graph, Literal, URIRef
from rdflib.compare import isomorphic

from kg.extract.model import Entity, Event, Facts, Performance, Quote, TextSpan, When
from kg.rdf import add_article, article_graph, mint
from kg.rdf.literals import url_node
from kg.rdf.mapping import article_triples, clean_text, date_literal
from kg.rdf.namespaces import KG, OA, PROV, RDF, SDO, XSD

ID = "https://w3id.org/kg/id/"
ARTICLE = URIRef(ID + "article/harbor-1")
ANA = URIRef(ID + "person/ana-rivera")
SONG = URIRef(ID + "work/night-train")
FESTIVAL = URIRef(ID + "event/harbor-lights-festival")
ARENA = URIRef(ID + "place/pier-arena")
PORTLAND = URIRef(ID + "place/portland")
QUOTE = URIRef(ID + "article/harbor-1/quote/30-64")
PERFORMANCE = URIRef(ID + "article/harbor-1/performance/1")


@pytest.fixture
def graph(article, facts):
    return article_graph(article, facts)


def test_graph_is_named_by_the_article(graph):
    assert graph.identifier == ARTICLE


def test_article_node(graph):
    assert (ARTICLE, RDF.type, SDO.NewsArticle) in graph
    assert graph.value(ARTICLE, SDO.identifier) == Literal("harbor-1")
    assert graph.value(ARTICLE, SDO.headline) == Literal("Rain at the pier")
    assert graph.value(ARTICLE, SDO.url) == URIRef("https://news.example/harbor")
    assert graph.value(ARTICLE, SDO.datePublished) == Literal("2022-04-20", datatype=XSD.date)
    assert graph.value(ARTICLE, KG.sourcePath) == Literal("news/harbor.html")
    assert set(graph.objects(ARTICLE, SDO.mentions)) == {ANA, SONG, FESTIVAL, ARENA, PORTLAND}


def test_person(graph):
    assert (ANA, RDF.type, SDO.Person) in graph
    assert graph.value(ANA, SDO.name) == Literal("Ana Rivera")
    # "Rivera" is a short reference inside the name, kept as a mention, not as another name
    assert set(graph.objects(ANA, SDO.alternateName)) == {Literal("La Rivera")}
    assert set(graph.objects(ANA, SDO.description)) == {Literal("the singer")}
    assert graph.value(ANA, KG.age) == Literal(34, datatype=XSD.integer)


def test_quotation_with_speaker(graph):
    assert (QUOTE, RDF.type, SDO.Quotation) in graph
    assert graph.value(QUOTE, SDO.text) == Literal("We waited all year for this night.")
    assert graph.value(QUOTE, SDO.creator) == ANA
    assert graph.value(QUOTE, SDO.isPartOf) == ARTICLE
    assert graph.value(QUOTE, KG.cue) == Literal("said")
    confidence = graph.value(QUOTE, KG.confidence)
    assert confidence.datatype == XSD.decimal and confidence.toPython() == Decimal("0.9")


def test_unattributed_quotation_has_no_creator(graph):
    quote = URIRef(ID + "article/harbor-1/quote/167-177")
    assert graph.value(quote, SDO.text) == Literal("It rained,")
    assert graph.value(quote, SDO.creator) is None
    assert graph.value(quote, KG.cue) is None


def test_work_place_event(graph):
    assert (SONG, RDF.type, SDO.MusicComposition) in graph
    assert graph.value(SONG, SDO.name) == Literal("Night Train")
    assert graph.value(SONG, SDO.creator) == ANA
    assert graph.value(SONG, SDO.dateCreated) == Literal("2019", datatype=XSD.gYear)
    assert (ARENA, RDF.type, SDO.MusicVenue) in graph
    assert graph.value(ARENA, SDO.containedInPlace) == PORTLAND
    assert (PORTLAND, RDF.type, SDO.City) in graph
    assert (FESTIVAL, RDF.type, SDO.Festival) in graph
    assert graph.value(FESTIVAL, SDO.location) == ARENA
    assert graph.value(FESTIVAL, SDO.startDate) == Literal("2022-04", datatype=XSD.gYearMonth)
    assert graph.value(FESTIVAL, KG.dateText) == Literal("April 2022")


def test_performance(graph):
    assert (PERFORMANCE, RDF.type, SDO.MusicEvent) in graph
    assert graph.value(PERFORMANCE, SDO.performer) == ANA
    assert graph.value(PERFORMANCE, SDO.workPerformed) == SONG
    assert graph.value(PERFORMANCE, SDO.superEvent) == FESTIVAL
    assert (FESTIVAL, SDO.subEvent, PERFORMANCE) in graph
    assert graph.value(PERFORMANCE, KG.cue) == Literal("performed")


def test_evidence_selectors(graph):
    selectors = set(graph.objects(ANA, KG.evidence))
    assert selectors == {URIRef(ID + "article/harbor-1/span/0-10"), URIRef(ID + "article/harbor-1/span/66-72")}
    selector = URIRef(ID + "article/harbor-1/span/0-10")
    assert (selector, RDF.type, OA.TextPositionSelector) in graph
    assert (selector, RDF.type, OA.TextQuoteSelector) in graph
    assert graph.value(selector, OA.start) == Literal(0, datatype=XSD.integer)
    assert graph.value(selector, OA.end) == Literal(10, datatype=XSD.integer)
    assert graph.value(selector, OA.exact) == Literal("Ana Rivera")
    for node in (ANA, SONG, FESTIVAL, ARENA, PORTLAND, QUOTE, PERFORMANCE):
        assert graph.value(node, PROV.wasDerivedFrom) == ARTICLE
        assert graph.value(node, KG.evidence) is not None


def test_same_person_in_two_articles_is_one_node(make_article, facts):
    ds = Dataset(default_union=True)
    add_article(ds, make_article("one"), facts)
    add_article(ds, make_article("two"), facts)
    people = set(ds.subjects(RDF.type, SDO.Person))
    assert people == {ANA}
    assert set(ds.objects(ANA, PROV.wasDerivedFrom)) == {URIRef(ID + "article/one"), URIRef(ID + "article/two")}


def test_add_article_replaces_its_graph(make_article, facts, span):
    ds = Dataset(default_union=True)
    add_article(ds, make_article(), facts)
    add_article(ds, make_article("other"), facts)
    only_quote = Facts(quotes=(Quote(span=span("It rained,")),))
    graph = add_article(ds, make_article(), only_quote)
    assert graph.identifier == ARTICLE
    assert (QUOTE, None, None) not in ds.graph(ARTICLE)
    assert set(ds.graph(ARTICLE).subjects(RDF.type, SDO.Quotation)) == {URIRef(ID + "article/harbor-1/quote/167-177")}
    # The other article keeps its facts.
    assert (ANA, RDF.type, SDO.Person) in ds.graph(URIRef(ID + "article/other"))


@pytest.mark.parametrize(
    ("value", "datatype"),
    [("2022-04-20", XSD.date), ("2022-04", XSD.gYearMonth), ("2022", XSD.gYear)],
)
def test_dates_are_typed_by_precision(value, datatype):
    assert date_literal(value) == Literal(value, datatype=datatype)


@pytest.mark.parametrize("value", [None, "2022-02-30", "2022-13", "April 2022", "22", "2022-4-1"])
def test_unresolvable_dates_are_left_out(value):
    assert date_literal(value) is None


def test_unresolved_event_date_keeps_the_text_only(article):
    facts = Facts(events=(Event(key="e", name="Spring Gala", date=When("next spring", None)),))
    graph = article_graph(article, facts)
    gala = mint("event", "Spring Gala")
    assert graph.value(gala, SDO.startDate) is None
    assert graph.value(gala, KG.dateText) == Literal("next spring")
    assert (gala, RDF.type, SDO.Event) in graph


def test_award_event_uses_the_kg_class(article):
    facts = Facts(events=(Event(key="e", name="Golden Reel Awards", kind="award"),))
    graph = article_graph(article, facts)
    assert (mint("event", "Golden Reel Awards"), RDF.type, KG.AwardCeremony) in graph


def test_a_middle_initial_gives_another_name_but_not_to_a_stage_name(article, span):
    facts = Facts(
        entities=(
            Entity(key="person:1", kind="person", name="Mara J. Quinlan", aliases=("Quinlan",)),
            Entity(key="person:2", kind="person", name="Ana B. Rivera"),
        ),
        performances=(Performance(performer="person:2", span=span("Rivera performed")),),
    )
    graph = article_graph(article, facts)
    assert set(graph.objects(mint("person", "Mara J. Quinlan"), SDO.alternateName)) == {Literal("Mara Quinlan")}
    assert set(graph.objects(mint("person", "Ana B. Rivera"), SDO.alternateName)) == set()


def test_dangling_keys_are_dropped_not_guessed(article, span):
    facts = Facts(
        entities=(Entity(key="group:1", kind="group", name="The Tides"),),
        # A link to a record of the wrong kind is as dangling as a missing one.
        events=(Event(key="event:1", name="Gala", location="group:1", super_event="event:1"),),
        quotes=(Quote(span=span("It rained,"), speaker="person:404"),),
        performances=(
            Performance(performer="person:404", span=span("Rivera performed")),
            Performance(performer="group:1", span=span("Rivera performed"), work="work:404"),
        ),
    )
    graph = article_graph(article, facts)
    tides = URIRef(ID + "group/the-tides")
    assert (tides, RDF.type, SDO.MusicGroup) in graph
    assert graph.value(URIRef(ID + "article/harbor-1/quote/167-177"), SDO.creator) is None
    assert set(graph.subjects(SDO.performer, None)) == {URIRef(ID + "article/harbor-1/performance/2")}
    assert graph.value(URIRef(ID + "article/harbor-1/performance/2"), SDO.workPerformed) is None
    gala = mint("event", "Gala")
    assert graph.value(gala, SDO.location) is None
    assert graph.value(gala, SDO.superEvent) is None


HOSTILE = (
    'He said "no" <b>&amp;</b> \\ back\\slash\nnew line\r\ttab '
    "\x00\x07\x1b nul \ufffe\u202eRTL\u202c שלום \U0001f3b5"
)


def test_hostile_text_stays_valid_in_every_format(make_article):
    article = make_article("weird/id ?#", title=HOSTILE, url='https://news.example/a b"<>{x}|^`')
    facts = Facts(
        entities=(Entity(key="p", kind="person", name=HOSTILE, aliases=(HOSTILE + "!",)),),
        quotes=(Quote(span=TextSpan(0, len(HOSTILE), HOSTILE), speaker="p", cue="said"),),
    )
    graph = article_graph(article, facts)
    headline = str(graph.value(graph.identifier, SDO.headline))
    assert headline == clean_text(HOSTILE)
    assert "\x00" not in headline and "\ufffe" not in headline and "\u202e" in headline
    for fmt, oxformat in [
        ("nt", pyoxigraph.RdfFormat.N_TRIPLES),
        ("turtle", pyoxigraph.RdfFormat.TURTLE),
        ("xml", pyoxigraph.RdfFormat.RDF_XML),
        ("json-ld", pyoxigraph.RdfFormat.JSON_LD),
    ]:
        data = graph.serialize(format=fmt, encoding="utf-8")
        assert len(list(pyoxigraph.parse(data, format=oxformat))) == len(graph), fmt
        assert isomorphic(Graph().parse(data=data, format=fmt), graph), fmt


def test_clean_text_keeps_tab_newline_and_unicode():
    assert clean_text("a\tb\nc\x0bd\ud800e\u05e9") == "a\tb\ncde\u05e9"


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from(["http://", "https://", "HTTPS://"]),
    st.from_regex(r"[a-z0-9.-]{1,20}(:[0-9]{1,5})?", fullmatch=True),
    st.text(alphabet=st.characters(codec=None, exclude_categories=()), max_size=60),
)
def test_any_web_url_becomes_a_valid_iri(scheme, host, rest):
    node = url_node(f"{scheme}{host}/{rest}")
    assert isinstance(node, URIRef)
    data = f"<https://example.org/a> <https://schema.org/url> <{node}> .\n".encode()
    (quad,) = pyoxigraph.parse(data, format=pyoxigraph.RdfFormat.N_TRIPLES)
    assert quad.object.value == str(node)
    assert Graph().parse(data=data, format="nt").value(URIRef("https://example.org/a"), SDO.url) == node


def test_non_web_urls_stay_text():
    assert url_node("example.org/page") == Literal("example.org/page")
    assert url_node("mailto:desk@example.org") == Literal("mailto:desk@example.org")


def test_article_triples_are_the_graph_each_once(article, facts, graph):
    triples = article_triples(article, facts)
    # The same span is evidence for several nodes, yet each triple comes once.
    assert len(triples) == len(set(triples)) == len(graph)
    assert set(triples) == set(graph)
    assert (ANA, SDO.name, Literal("Ana Rivera")) in triples
