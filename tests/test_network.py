"""kg.network: projections of a small hand-built RDF dataset in kg's shape."""

from __future__ import annotations

import warnings

import pytest
from rdflib import RDF, ConjunctiveGraph, Dataset, Graph, Literal, Namespace, URIRef

from kg.network import (
    CentralityRow,
    centrality,
    communities,
    entity_graph,
    events_graph,
    people_graph,
    works_graph,
)

# plain Namespaces: rdflib's DefinedNamespaces warn when pytest inspects module globals
SDO = Namespace("https://schema.org/")
PROV = Namespace("http://www.w3.org/ns/prov#")
XSD = Namespace("http://www.w3.org/2001/XMLSchema#")
KG = Namespace("https://w3id.org/kg/ns#")
ID = Namespace("https://w3id.org/kg/id/")

ANNA = ID["person/anna-velde"]
BORIS = ID["person/boris-kettle"]
CLARA = ID["person/clara-monteiro"]
LANTERN = ID["work/paper-lanterns"]
NORTH = ID["work/northbound"]
GALA = ID["event/harbour-lights-gala"]
VENUE = ID["place/tidewater-hall"]
CITY = ID["place/port-elwin"]
A1 = ID["article/a1"]
A2 = ID["article/a2"]


def _article(g: Graph, iri: URIRef, ident: str, published: str, mentions: list[URIRef]) -> None:
    g.add((iri, RDF.type, SDO.NewsArticle))
    g.add((iri, SDO.identifier, Literal(ident)))
    g.add((iri, SDO.headline, Literal(f"Headline {ident}")))
    g.add((iri, SDO.datePublished, Literal(published, datatype=XSD.date)))
    for entity in mentions:
        g.add((iri, SDO.mentions, entity))
        g.add((entity, PROV.wasDerivedFrom, iri))


def _named(g: Graph, iri: URIRef, cls: URIRef, name: str) -> None:
    g.add((iri, RDF.type, cls))
    g.add((iri, SDO.name, Literal(name)))


def _quote(g: Graph, article: URIRef, span: str, text: str, speaker: URIRef | None) -> None:
    q = URIRef(f"{article}/quote/{span}")
    g.add((q, RDF.type, SDO.Quotation))
    g.add((q, SDO.text, Literal(text)))
    g.add((q, SDO.isPartOf, article))
    g.add((q, KG.cue, Literal("said")))
    g.add((q, PROV.wasDerivedFrom, article))
    if speaker is not None:
        g.add((q, SDO.creator, speaker))


def build_dataset() -> Dataset:
    """Two articles: a gala in a hall in a city, with performances, a song credit and quotes."""
    ds = Dataset()
    g1 = ds.graph(A1)
    _article(g1, A1, "a1", "2024-03-09", [ANNA, BORIS, CLARA, LANTERN, NORTH, GALA, VENUE, CITY])
    _named(g1, ANNA, SDO.Person, "Anna Velde")
    _named(g1, BORIS, SDO.Person, "Boris Kettle")
    _named(g1, CLARA, SDO.Person, "Clara Monteiro")
    _named(g1, LANTERN, SDO.MusicComposition, "Paper Lanterns")
    _named(g1, NORTH, SDO.MusicComposition, "Northbound")
    g1.add((LANTERN, SDO.creator, CLARA))
    _named(g1, GALA, SDO.MusicEvent, "Harbour Lights Gala")
    g1.add((GALA, SDO.location, VENUE))
    g1.add((GALA, SDO.startDate, Literal("2024-03-08", datatype=XSD.date)))
    _named(g1, VENUE, SDO.MusicVenue, "Tidewater Hall")
    g1.add((VENUE, SDO.containedInPlace, CITY))
    _named(g1, CITY, SDO.City, "Port Elwin")
    for n, (performer, work) in enumerate([(ANNA, LANTERN), (BORIS, NORTH)]):
        perf = URIRef(f"{A1}/performance/{n}")
        g1.add((perf, RDF.type, SDO.MusicEvent))
        g1.add((perf, SDO.performer, performer))
        g1.add((perf, SDO.workPerformed, work))
        g1.add((perf, SDO.superEvent, GALA))
        g1.add((GALA, SDO.subEvent, perf))
        g1.add((perf, PROV.wasDerivedFrom, A1))
    _quote(g1, A1, "10-40", "We wrote it on a train.", CLARA)
    _quote(g1, A1, "90-120", "Nobody knew who spoke.", None)
    g2 = ds.graph(A2)
    _article(g2, A2, "a2", "2024-04-01", [ANNA, CLARA])
    _named(g2, ANNA, SDO.Person, "Anna Velde")
    _named(g2, CLARA, SDO.Person, "Clara Monteiro")
    _quote(g2, A2, "5-30", "The hall was <loud> & bright.", ANNA)
    return ds


@pytest.fixture(scope="module")
def dataset() -> Dataset:
    return build_dataset()


def _edges(graph, relation: str) -> set[tuple[str, str, str | None]]:
    """(source name, target name, article) of every edge with this relation."""
    return {
        (graph.nodes[u]["name"], graph.nodes[v]["name"], d.get("article"))
        for u, v, d in graph.edges(data=True)
        if d["relation"] == relation
    }


def test_entity_graph_nodes_types_and_names(dataset):
    graph = entity_graph(dataset)
    got = {d["name"]: d["type"] for _, d in graph.nodes(data=True)}
    assert got == {
        "Anna Velde": "person",
        "Boris Kettle": "person",
        "Clara Monteiro": "person",
        "Paper Lanterns": "work",
        "Northbound": "work",
        "Harbour Lights Gala": "event",
        "Tidewater Hall": "place",
        "Port Elwin": "place",
    }
    assert graph.nodes[str(ANNA)]["iri"] == str(ANNA)
    assert graph.nodes[str(ANNA)]["articles"] == 2
    assert graph.nodes[str(BORIS)]["articles"] == 1


def test_performances_are_edges_not_nodes(dataset):
    graph = entity_graph(dataset)
    assert not any("/performance/" in n for n in graph.nodes)
    assert _edges(graph, "performed") == {
        ("Anna Velde", "Paper Lanterns", "a1"),
        ("Boris Kettle", "Northbound", "a1"),
    }
    assert _edges(graph, "performed at") == {
        ("Anna Velde", "Harbour Lights Gala", "a1"),
        ("Boris Kettle", "Harbour Lights Gala", "a1"),
    }


def test_credits_places_and_dates(dataset):
    graph = entity_graph(dataset)
    assert _edges(graph, "created") == {("Clara Monteiro", "Paper Lanterns", "a1")}
    assert _edges(graph, "located at") == {("Harbour Lights Gala", "Tidewater Hall", "a1")}
    assert _edges(graph, "contained in") == {("Tidewater Hall", "Port Elwin", "a1")}
    dates = {d["relation"]: d["date"] for _, _, d in graph.edges(data=True) if d["article"] == "a1"}
    assert dates["located at"] == "2024-03-08"  # the event's own date
    assert dates["created"] == "2024-03-09"  # the article's publication date


def test_comentions_once_per_article(dataset):
    graph = entity_graph(dataset)
    mentioned = _edges(graph, "mentioned with")
    assert ("Anna Velde", "Clara Monteiro", "a1") in mentioned
    assert ("Anna Velde", "Clara Monteiro", "a2") in mentioned
    assert ("Anna Velde", "Boris Kettle", "a1") in mentioned
    assert len(mentioned) == 4  # 3 pairs in a1, 1 in a2


def test_quotes_are_node_attributes(dataset):
    graph = entity_graph(dataset)
    assert graph.nodes[str(CLARA)]["quotes"] == [
        {"text": "We wrote it on a train.", "article": "a1", "headline": "Headline a1"}
    ]
    assert graph.nodes[str(ANNA)]["quotes"] == [
        {"text": "The hall was <loud> & bright.", "article": "a2", "headline": "Headline a2"}
    ]
    assert graph.nodes[str(BORIS)]["quotes"] == []
    assert not any(d["type"] == "quotation" for _, d in graph.nodes(data=True))


def test_degree_counts_distinct_neighbours(dataset):
    graph = entity_graph(dataset)
    # Anna: Boris, Clara (co-mentions), Paper Lanterns, the gala
    assert graph.nodes[str(ANNA)]["degree"] == 4
    assert graph.nodes[str(CITY)]["degree"] == 1


def test_plain_graph_union_gives_same_edges(dataset):
    union = Graph()
    for s, p, o, _ in dataset.quads((None, None, None, None)):
        union.add((s, p, o))
    from_union = entity_graph(union)
    from_dataset = entity_graph(dataset)
    assert set(from_union.nodes) == set(from_dataset.nodes)
    assert _edges(from_union, "performed") == _edges(from_dataset, "performed")
    assert _edges(from_union, "contained in") == _edges(from_dataset, "contained in")


def test_union_dataset_and_conjunctive_graph_keep_articles(dataset):
    union = Dataset(store=dataset.store, default_union=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # rdflib 7 deprecates ConjunctiveGraph
        conjunctive = ConjunctiveGraph(store=dataset.store)
        from_conjunctive = entity_graph(conjunctive)
    expected = _edges(entity_graph(dataset), "mentioned with")
    assert _edges(entity_graph(union), "mentioned with") == expected
    assert _edges(from_conjunctive, "mentioned with") == expected
    assert from_conjunctive.nodes[str(ANNA)]["quotes"] == [
        {"text": "The hall was <loud> & bright.", "article": "a2", "headline": "Headline a2"}
    ]


def test_people_graph_weights_by_articles(dataset):
    people = people_graph(dataset)
    names = {d["name"] for _, d in people.nodes(data=True)}
    assert names == {"Anna Velde", "Boris Kettle", "Clara Monteiro"}
    edge = people.edges[str(ANNA), str(CLARA)]
    assert edge["weight"] == 2
    assert sorted(edge["articles"]) == ["a1", "a2"]
    assert people.edges[str(ANNA), str(BORIS)]["weight"] == 1


def test_works_graph(dataset):
    works = works_graph(dataset)
    assert {d["name"] for _, d in works.nodes(data=True)} == {
        "Anna Velde",
        "Boris Kettle",
        "Clara Monteiro",
        "Paper Lanterns",
        "Northbound",
    }
    assert {d["relation"] for _, _, d in works.edges(data=True)} == {"performed", "created"}
    assert works.nodes[str(LANTERN)]["degree"] == 2  # Anna performed it, Clara wrote it


def test_events_graph(dataset):
    events = events_graph(dataset)
    assert {d["name"] for _, d in events.nodes(data=True)} == {
        "Harbour Lights Gala",
        "Tidewater Hall",
        "Port Elwin",
    }
    assert _edges(events, "located at") == {("Harbour Lights Gala", "Tidewater Hall", "a1")}


def test_centrality_ranks_bridges_first(dataset):
    rows = centrality(entity_graph(dataset), top=3)
    assert len(rows) == 3
    assert all(isinstance(r, CentralityRow) for r in rows)
    # the gala joins the performers to the venue and city
    assert rows[0].name == "Harbour Lights Gala"
    assert rows[0].type == "event"
    assert rows[0].betweenness > 0
    assert [r.betweenness for r in rows] == sorted((r.betweenness for r in rows), reverse=True)


def test_communities_cover_connected_entities(dataset):
    groups = communities(entity_graph(dataset))
    names = set().union(*groups)
    assert "Port Elwin" in names and "Anna Velde" in names
    assert sum(len(g) for g in groups) == len(names)
    city_group = next(g for g in groups if "Port Elwin" in g)
    assert "Tidewater Hall" in city_group


def test_empty_graph():
    graph = entity_graph(Graph())
    assert graph.number_of_nodes() == 0
    assert centrality(graph) == []
    assert communities(graph) == []


def test_unnamed_entity_falls_back_to_iri_tail():
    g = Graph()
    g.add((ID["person/dara-osei"], RDF.type, SDO.Person))
    graph = entity_graph(g)
    assert graph.nodes[str(ID["person/dara-osei"])]["name"] == "dara-osei"
    assert graph.nodes[str(ID["person/dara-osei"])]["articles"] == 0


def test_group_is_not_also_an_organization():
    g = Graph()
    band = ID["group/the-low-tides"]
    g.add((band, RDF.type, SDO.MusicGroup))
    g.add((band, RDF.type, SDO.Organization))
    g.add((band, SDO.name, Literal("The Low Tides")))
    assert entity_graph(g).nodes[str(band)]["type"] == "group"
