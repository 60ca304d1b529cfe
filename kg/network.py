"""networkx projections of a kg RDF graph: who is connected to whom, through what.

The RDF graph is the record; these projections are views of it for network analysis
(centrality, communities) and for drawing (:mod:`kg.viz`). They read RDF only, so
they work on a graph built by kg, loaded from a Turtle/TriG file, or read from a store.

Every projection accepts an ``rdflib.Graph`` (one graph, or the union already
merged), a ``ConjunctiveGraph`` or a ``Dataset`` (one named graph per article: the
graph name then says which article a relation comes from).

Node keys are the entity IRIs (strings). Node attributes: ``iri``, ``type`` (one of
:data:`NODE_TYPES`), ``name``, ``articles`` (how many articles mention it),
``degree`` (number of distinct neighbours) and ``quotes`` (the quotations the
entity is credited with, each ``{"text", "article", "headline"}``: the article's
id and headline, None when unknown; quotations are not nodes).
Edge attributes: ``relation`` (one of :data:`RELATIONS`), ``article`` (the article
id, or None when the graph does not say) and ``date`` (ISO text or None).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Iterator
from typing import NamedTuple

import networkx as nx
from rdflib import RDF, Graph, Literal, Namespace, URIRef
from rdflib.graph import ConjunctiveGraph
from rdflib.namespace import PROV, SDO
from rdflib.term import Node

__all__ = [
    "NODE_TYPES",
    "RELATIONS",
    "CentralityRow",
    "centrality",
    "communities",
    "entity_graph",
    "events_graph",
    "people_graph",
    "works_graph",
]

_KG = Namespace("https://w3id.org/kg/ns#")

#: Node types, in legend order.
NODE_TYPES = ("person", "group", "organization", "work", "event", "place")

#: Edge relations of :func:`entity_graph`.
RELATIONS = (
    "performed",
    "created",
    "performed at",
    "located at",
    "contained in",
    "part of",
    "mentioned with",
)

_AGENT_TYPES = frozenset({"person", "group", "organization"})

# rdf:type -> node type; the first match in this order wins (a MusicGroup is also an Organization).
_CLASS_TYPES: tuple[tuple[URIRef, str], ...] = (
    (SDO.Person, "person"),
    (SDO.MusicGroup, "group"),
    (SDO.PerformingGroup, "group"),
    (SDO.Organization, "organization"),
    (SDO.MusicComposition, "work"),
    (SDO.MusicRecording, "work"),
    (SDO.MusicAlbum, "work"),
    (SDO.Movie, "work"),
    (SDO.TVSeries, "work"),
    (SDO.Book, "work"),
    (SDO.CreativeWork, "work"),
    (SDO.MusicEvent, "event"),
    (SDO.Festival, "event"),
    (SDO.TheaterEvent, "event"),
    (SDO.SportsEvent, "event"),
    (_KG.AwardCeremony, "event"),
    (SDO.Event, "event"),
    (SDO.MusicVenue, "place"),
    (SDO.StadiumOrArena, "place"),
    (SDO.PerformingArtsTheater, "place"),
    (SDO.City, "place"),
    (SDO.AdministrativeArea, "place"),
    (SDO.Country, "place"),
    (SDO.Place, "place"),
)
_TYPE_RANK = {cls: (rank, kind) for rank, (cls, kind) in enumerate(_CLASS_TYPES)}

_WORK_RELATIONS = frozenset({"performed", "created"})
_EVENT_RELATIONS = frozenset({"located at", "contained in", "part of"})


class CentralityRow(NamedTuple):
    """One row of :func:`centrality`: an entity and how central it is."""

    name: str
    type: str
    degree: int
    betweenness: float


class _Quad(NamedTuple):
    """A triple and the name of the graph holding it (None: the default graph, or a plain Graph)."""

    s: Node
    p: Node
    o: Node
    graph: Node | None


class _Reader:
    """Pattern lookups over the union of all graphs, keeping which graph each triple sits in."""

    def __init__(self, g: Graph) -> None:
        self._g = g
        self._named_graphs = isinstance(g, ConjunctiveGraph)  # a Dataset is a ConjunctiveGraph too
        self.articles = self._article_ids()

    def quads(self, s: Node | None, p: Node | None, o: Node | None) -> Iterator[_Quad]:
        """Each matching triple once per graph it sits in (graph None for a plain Graph)."""
        if not self._named_graphs:
            for s_, p_, o_ in self._g.triples((s, p, o)):
                yield _Quad(s_, p_, o_, None)
            return
        seen: set[tuple[Node, Node, Node, Node | None]] = set()
        for s_, p_, o_, ctx in self._g.quads((s, p, o, None)):
            name = _graph_name(ctx)
            key = (s_, p_, o_, name)
            if key not in seen:
                seen.add(key)
                yield _Quad(s_, p_, o_, name)

    def objects(self, s: Node, p: Node) -> list[Node]:
        """Distinct objects of (s, p, ?) in the union, sorted for a stable result."""
        return sorted({q.o for q in self.quads(s, p, None)})

    def subjects(self, p: Node, o: Node | None) -> list[Node]:
        """Distinct subjects of (?, p, o) in the union, sorted for a stable result."""
        return sorted({q.s for q in self.quads(None, p, o)})

    def first_text(self, s: Node, p: Node) -> str | None:
        """The first literal of (s, p, ?) as text, or None."""
        values = [str(o) for o in self.objects(s, p) if isinstance(o, Literal)]
        return values[0] if values else None

    def sources(self, quad: _Quad) -> list[Node | None]:
        """The article IRIs a triple comes from: its graph when that is an article, else its subject's."""
        if quad.graph in self.articles:
            return [quad.graph]
        derived = [a for a in self.objects(quad.s, PROV.wasDerivedFrom) if a in self.articles]
        return derived or [None]

    def _article_ids(self) -> dict[Node, str]:
        """Article IRI -> its schema:identifier (or the IRI's last segment)."""
        ids: dict[Node, str] = {}
        for article in self.subjects(RDF.type, SDO.NewsArticle):
            ids[article] = self.first_text(article, SDO.identifier) or _tail(article)
        return ids


def entity_graph(g: Graph) -> nx.MultiDiGraph:
    """Everything kg knows, as one directed multigraph: the view to explore or draw a corpus.

    Nodes are people, groups, organisations, works, events and places. Edges:
    performer -> work ``performed``, creator -> work ``created``, performer -> event
    (or venue, when no event is named) ``performed at``, event -> place
    ``located at``, place -> place ``contained in``, event -> event ``part of``,
    and agent -> agent ``mentioned with`` once per article that names both. One
    edge per article that states it, so parallel edges count the evidence.

    Args:
        g: an rdflib Graph, ConjunctiveGraph or Dataset in kg's RDF shape.

    Returns:
        The graph, node attributes set as the module docstring says.
    """
    reader = _Reader(g)
    graph = nx.MultiDiGraph()
    _add_nodes(reader, graph)
    _add_performances(reader, graph)
    _add_links(reader, graph)
    _add_comentions(reader, graph)
    _add_quotes(reader, graph)
    _set_degrees(graph)
    return graph


def people_graph(g: Graph) -> nx.Graph:
    """Who appears with whom: agents linked when one article names both.

    The view for "who is in the news together": edge ``weight`` is the number of
    articles naming both, ``articles`` lists their ids.

    Args:
        g: an rdflib Graph, ConjunctiveGraph or Dataset in kg's RDF shape.

    Returns:
        An undirected graph of people, groups and organisations.
    """
    full = entity_graph(g)
    people = nx.Graph()
    people.add_nodes_from((n, d) for n, d in full.nodes(data=True) if d["type"] in _AGENT_TYPES)
    for u, v, data in full.edges(data=True):
        if data["relation"] != "mentioned with":
            continue
        if not people.has_edge(u, v):
            people.add_edge(u, v, relation="mentioned with", weight=0, articles=[])
        edge = people.edges[u, v]
        if data["article"] not in edge["articles"]:
            edge["articles"].append(data["article"])
            edge["weight"] += 1
    _set_degrees(people)
    return people


def works_graph(g: Graph) -> nx.MultiDiGraph:
    """Who performed or created which work: the bipartite agent-work view (repertoires, covers).

    Args:
        g: an rdflib Graph, ConjunctiveGraph or Dataset in kg's RDF shape.

    Returns:
        Agents and works joined by ``performed`` and ``created`` edges; agents and
        works with no such edge are left out.
    """
    return _relation_subgraph(entity_graph(g), _WORK_RELATIONS)


def events_graph(g: Graph) -> nx.MultiDiGraph:
    """Where things happen: events, their venues and the cities and countries holding them.

    Args:
        g: an rdflib Graph, ConjunctiveGraph or Dataset in kg's RDF shape.

    Returns:
        Events and places joined by ``located at``, ``contained in`` and ``part of``.
    """
    return _relation_subgraph(entity_graph(g), _EVENT_RELATIONS)


def centrality(graph: nx.Graph, top: int = 10) -> list[CentralityRow]:
    """The most central entities: who bridges otherwise separate parts of the graph.

    Betweenness is computed on the undirected simple graph (parallel edges and
    direction say nothing about who bridges whom); on graphs over 1,000 nodes it is
    estimated from 500 sampled sources with a fixed seed, so results are repeatable.

    Args:
        graph: a projection from this module.
        top: how many rows to return.

    Returns:
        Rows sorted by betweenness, then degree, then name (highest first).
    """
    simple = nx.Graph(graph.to_undirected(as_view=True)) if graph.is_directed() else nx.Graph(graph)
    if simple.number_of_nodes() == 0:
        return []
    sample = 500 if simple.number_of_nodes() > 1000 else None
    between = nx.betweenness_centrality(simple, k=sample, seed=0 if sample else None)
    rows = [
        CentralityRow(
            name=graph.nodes[n].get("name", str(n)),
            type=graph.nodes[n].get("type", ""),
            degree=simple.degree(n),
            betweenness=round(between[n], 6),
        )
        for n in simple.nodes
    ]
    rows.sort(key=lambda r: (-r.betweenness, -r.degree, r.name))
    return rows[:top]


def communities(graph: nx.Graph) -> list[set[str]]:
    """Groups of entities more tied to each other than to the rest (greedy modularity).

    Edges count with their ``weight`` (1 when absent), parallel edges add up.
    Isolated entities are left out: a community of one says nothing.

    Args:
        graph: a projection from this module.

    Returns:
        Sets of entity names, largest first.
    """
    simple = nx.Graph()
    simple.add_nodes_from(graph.nodes)
    for u, v, data in graph.edges(data=True):
        if u == v:
            continue
        weight = data.get("weight", 1)
        if simple.has_edge(u, v):
            simple.edges[u, v]["weight"] += weight
        else:
            simple.add_edge(u, v, weight=weight)
    simple.remove_nodes_from([n for n in list(simple.nodes) if simple.degree(n) == 0])
    if simple.number_of_edges() == 0:
        return []
    found = nx.community.greedy_modularity_communities(simple, weight="weight")
    groups = [{graph.nodes[n].get("name", str(n)) for n in members} for members in found]
    groups.sort(key=lambda names: (-len(names), sorted(names)))
    return groups


def _add_nodes(reader: _Reader, graph: nx.MultiDiGraph) -> None:
    """One node per typed entity; performances are events of a kind, but become edges."""
    performances = set(reader.subjects(SDO.performer, None))
    best: dict[Node, tuple[int, str]] = {}
    for cls, rank in _TYPE_RANK.items():
        for subject in reader.subjects(RDF.type, cls):
            # a performance (it has a performer) is drawn as edges, not as an event node
            if subject in performances or not isinstance(subject, URIRef):
                continue
            if subject not in best or rank < best[subject]:
                best[subject] = rank
    for subject, (_, kind) in sorted(best.items()):
        mentioned_in = {q.s for q in reader.quads(None, SDO.mentions, subject)}
        mentioned_in.update(a for a in reader.objects(subject, PROV.wasDerivedFrom) if a in reader.articles)
        graph.add_node(
            str(subject),
            iri=str(subject),
            type=kind,
            name=reader.first_text(subject, SDO.name) or _tail(subject),
            articles=len(mentioned_in),
            quotes=[],
        )


def _add_performances(reader: _Reader, graph: nx.MultiDiGraph) -> None:
    """Each performance: its performer performed the work, at the event (or the venue)."""
    for quad in reader.quads(None, SDO.performer, None):
        performance, performer = quad.s, str(quad.o)
        if performer not in graph:
            continue
        date = reader.first_text(performance, SDO.startDate)
        where = [str(e) for e in reader.objects(performance, SDO.superEvent) if str(e) in graph]
        # no event named: the performance still ties the performer to the venue
        if not where:
            where = [str(p) for p in reader.objects(performance, SDO.location) if str(p) in graph]
        targets = [("performed", str(w)) for w in reader.objects(performance, SDO.workPerformed)]
        targets += [("performed at", w) for w in where]
        for article in reader.sources(quad):
            for relation, target in targets:
                if target in graph:
                    _add_edge(reader, graph, performer, target, relation, article, date)


def _add_links(reader: _Reader, graph: nx.MultiDiGraph) -> None:
    """Direct entity-to-entity links: creators, event locations, place nesting, event nesting."""
    links = (
        (SDO.creator, "created", True),
        (SDO.location, "located at", False),
        (SDO.containedInPlace, "contained in", False),
        (SDO.superEvent, "part of", False),
    )
    for predicate, relation, reverse in links:
        for quad in reader.quads(None, predicate, None):
            source, target = (str(quad.o), str(quad.s)) if reverse else (str(quad.s), str(quad.o))
            # only links between drawn entities (a quotation's creator is not a "created" work)
            if source not in graph or target not in graph:
                continue
            date = reader.first_text(quad.s, SDO.startDate) if relation == "located at" else None
            for article in reader.sources(quad):
                _add_edge(reader, graph, source, target, relation, article, date)


def _add_comentions(reader: _Reader, graph: nx.MultiDiGraph) -> None:
    """Agents named in the same article, one ``mentioned with`` edge per pair and article."""
    named: dict[Node, set[str]] = defaultdict(set)
    for node, data in graph.nodes(data=True):
        if data["type"] not in _AGENT_TYPES:
            continue
        subject = URIRef(node)
        for quad in reader.quads(None, SDO.mentions, subject):
            named[quad.s].add(node)
        for article in reader.objects(subject, PROV.wasDerivedFrom):
            named[article].add(node)
    for article in sorted(named):
        if article not in reader.articles:
            continue
        agents = sorted(named[article])
        for i, first in enumerate(agents):
            for second in agents[i + 1 :]:
                _add_edge(reader, graph, first, second, "mentioned with", article, None)


def _add_quotes(reader: _Reader, graph: nx.MultiDiGraph) -> None:
    """Each quotation, as text, article id and headline, on its speaker's ``quotes`` list."""
    for quotation in reader.subjects(RDF.type, SDO.Quotation):
        text = reader.first_text(quotation, SDO.text)
        if text is None:
            continue
        articles = [a for a in reader.objects(quotation, SDO.isPartOf) if a in reader.articles]
        article = reader.articles[articles[0]] if articles else None
        # the headline tells a reader which story it was; the id alone says nothing
        headline = reader.first_text(articles[0], SDO.headline) if articles else None
        for speaker in reader.objects(quotation, SDO.creator):
            if str(speaker) in graph:
                graph.nodes[str(speaker)]["quotes"].append({"text": text, "article": article, "headline": headline})


def _add_edge(
    reader: _Reader,
    graph: nx.MultiDiGraph,
    source: str,
    target: str,
    relation: str,
    article: Node | None,
    date: str | None,
) -> None:
    """One edge, dated by the event when known, else by the article's publication."""
    article_id = reader.articles.get(article) if article is not None else None
    if date is None and article is not None:
        date = reader.first_text(article, SDO.datePublished)
    key = f"{relation}|{article_id}"
    if not graph.has_edge(source, target, key=key):
        graph.add_edge(source, target, key=key, relation=relation, article=article_id, date=date)


def _relation_subgraph(full: nx.MultiDiGraph, relations: Iterable[str]) -> nx.MultiDiGraph:
    """The edges of the given relations and the nodes they touch, degrees recounted."""
    wanted = frozenset(relations)
    sub = nx.MultiDiGraph()
    for u, v, key, data in full.edges(keys=True, data=True):
        if data["relation"] in wanted:
            sub.add_node(u, **full.nodes[u])
            sub.add_node(v, **full.nodes[v])
            sub.add_edge(u, v, key=key, **data)
    _set_degrees(sub)
    return sub


def _set_degrees(graph: nx.Graph) -> None:
    """``degree`` = distinct neighbours, ignoring direction and parallel edges."""
    for node in graph.nodes:
        if graph.is_directed():
            neighbours = set(graph.successors(node)) | set(graph.predecessors(node))
        else:
            neighbours = set(graph.neighbors(node))
        neighbours.discard(node)
        graph.nodes[node]["degree"] = len(neighbours)


def _graph_name(ctx: object) -> Node | None:
    """The name of a quad's graph, None for the default graph."""
    name = getattr(ctx, "identifier", ctx)
    if name is None or str(name) == "urn:x-rdflib:default":
        return None
    return name  # type: ignore[return-value]


def _tail(iri: Node) -> str:
    """The last path segment of an IRI: a readable fallback name."""
    return str(iri).rstrip("/").rsplit("/", 1)[-1]
