"""Facts -> RDF: one article's facts become one named graph, in schema.org terms first.

The shape is the one agreed in the project notes: the article node, the people,
groups, organisations, works, places and events it mentions, its quotations and
performances, and for every extracted node ``prov:wasDerivedFrom`` the article and
``kg:evidence`` the exact stretch of text (a Web Annotation selector). Quotations,
works, events and performances decided by a named sieve carry its id (``kg:rule``) and
confidence (``kg:confidence``); events and performances also the sieve that placed them
(``kg:locationRule``, ``kg:contextRule``), so a user can filter facts by how they were read.
Named things get IRIs by kind and name (:func:`kg.rdf.iri.mint`), so the same person
in two articles is one node; quotations, performances and spans live under the article.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

from rdflib import Dataset, Graph, URIRef
from rdflib.term import Node

from kg.extract.model import (
    Entity,
    Event,
    Facts,
    Performance,
    Place,
    Quote,
    TextSpan,
    When,
    Work,
)
from kg.io.article import Article
from kg.rdf.iri import mint
from kg.rdf.literals import (
    clean_text,
    date_literal,
    decimal_literal,
    integer_literal,
    text_literal,
    url_node,
)
from kg.rdf.namespaces import KG, OA, PROV, RDF, SDO, bind_prefixes

if TYPE_CHECKING:
    from kg.rdf.resolve import Resolved

__all__ = [
    "Triple",
    "add_article",
    "add_triples",
    "article_graph",
    "article_iri",
    "article_triples",
    "clean_text",
    "date_literal",
]

#: One RDF statement: subject, predicate, object.
Triple = tuple[Node, URIRef, Node]


#: A middle initial between two words of a name: "Mara J. Quinlan".
_MIDDLE_INITIAL = re.compile(r"(?<=\w) [A-Z]\.(?= \w)")


def _part_of(alias: str, name: str) -> bool:
    """Whether every word of ``alias`` is a word of ``name``.

    Such a name ("Quinlan", "Mara" for "Mara Quinlan") is a short reference, not another
    name: the mention keeps it as evidence, and as ``schema:alternateName`` it would make
    one entity look like several names to anyone listing name-work pairs.

    >>> _part_of("Quinlan", "Mara Quinlan"), _part_of("MQ", "Mara Quinlan")
    (True, False)
    """
    return set(alias.casefold().split()) <= set(name.casefold().split())

# Terms written for every evidence span and named node, read once: a namespace makes a new
# URIRef on each attribute read, and an article writes hundreds of these.
_TYPE, _DERIVED_FROM, _EVIDENCE, _NAME, _MENTIONS = RDF.type, PROV.wasDerivedFrom, KG.evidence, SDO.name, SDO.mentions
_SELECTOR_TYPES = (OA.TextPositionSelector, OA.TextQuoteSelector)
_START, _END, _EXACT = OA.start, OA.end, OA.exact

_ENTITY_TYPES = {
    "person": SDO.Person,
    "group": SDO.MusicGroup,
    "organization": SDO.Organization,
}
_WORK_TYPES = {
    "song": SDO.MusicComposition,
    "album": SDO.MusicAlbum,
    "film": SDO.Movie,
    "tv": SDO.TVSeries,
    "book": SDO.Book,
    "show": SDO.CreativeWork,
    "work": SDO.CreativeWork,
}
_PLACE_TYPES = {
    "venue": SDO.MusicVenue,
    "stadium": SDO.StadiumOrArena,
    "theater": SDO.PerformingArtsTheater,
    "city": SDO.City,
    "region": SDO.AdministrativeArea,
    "country": SDO.Country,
    "place": SDO.Place,
}
_EVENT_TYPES = {
    "music": SDO.MusicEvent,
    "festival": SDO.Festival,
    "theater": SDO.TheaterEvent,
    "sports": SDO.SportsEvent,
    "award": KG.AwardCeremony,
    "event": SDO.Event,
}


def article_iri(article_id: str) -> URIRef:
    """The IRI of an article, which is also the name of its graph."""
    return mint("article", article_id)


class _Writer:
    """Collects one article's triples, each once, in ``self.triples``; keys resolve to IRIs through ``self.iris``.

    ``self.iris`` maps a record kind ("agent", "work", "place", "event") and key to an IRI,
    so a link only ever resolves to a record of the kind it must point at. ``resolved``
    sends some agents (by key) to known entities instead of minting from their name.
    """

    def __init__(self, article: Article, facts: Facts, resolved: Mapping[str, Resolved] | None = None) -> None:
        self.article = article
        self.facts = facts
        # An insertion-ordered set: the same triple written twice is kept once.
        self.triples: dict[Triple, None] = {}
        self.resolved = resolved or {}
        self.node = article_iri(article.id)
        self.iris: dict[tuple[str, str], URIRef] = {}
        self.selectors: set[URIRef] = set()
        self.performers = {performance.performer for performance in facts.performances}

    def add(self, s: Node, p: URIRef, o: Node | None) -> None:
        """Add one triple, skipping absent values."""
        if o is not None:
            self.triples[s, p, o] = None

    def evidence(self, node: URIRef, span: TextSpan) -> None:
        """Point ``node`` at the article and at the span of text it was read from."""
        selector = mint("article", self.article.id, "span", f"{span.start}-{span.end}")
        triples = self.triples
        triples[node, _DERIVED_FROM, self.node] = None
        triples[node, _EVIDENCE, selector] = None
        if selector in self.selectors:
            return  # (the span is the evidence of another node too: described once)
        self.selectors.add(selector)
        for type_ in _SELECTOR_TYPES:
            triples[selector, _TYPE, type_] = None
        triples[selector, _START, integer_literal(span.start)] = None
        triples[selector, _END, integer_literal(span.end)] = None
        triples[selector, _EXACT, text_literal(span.text)] = None

    def named(self, node: URIRef, type_: URIRef, name: str, mentions: tuple[TextSpan, ...]) -> None:
        """The triples every named node shares: type, name, mention by the article, evidence."""
        self.add(node, _TYPE, type_)
        self.add(node, _NAME, text_literal(name))
        self.add(self.node, _MENTIONS, node)
        self.add(node, _DERIVED_FROM, self.node)
        for span in mentions:
            self.evidence(node, span)

    def date(self, node: URIRef, when: When | None) -> None:
        """A start date, resolved when the text allows, and always as written."""
        if when is None:
            return
        self.add(node, SDO.startDate, date_literal(when.value))
        self.add(node, KG.dateText, text_literal(when.text))

    def decided(self, node: URIRef, rule: str | None, confidence: float) -> None:
        """The sieve that decided ``node`` and its confidence, when a sieve is named.

        Without a rule the confidence is the model's default, which says nothing: it is left out.
        """
        if rule is None:
            return
        self.add(node, KG.rule, text_literal(rule))
        self.add(node, KG.confidence, decimal_literal(confidence))

    def write(self) -> None:
        """Write the article node, then each kind of fact (keys first, so links resolve)."""
        self.keys()
        self.article_node()
        for entity in self.facts.entities:
            self.entity(entity)
        for place in self.facts.places:
            self.place(place)
        for work in self.facts.works:
            self.work(work)
        for event in self.facts.events:
            self.event(event)
        for quote in self.facts.quotes:
            self.quote(quote)
        for number, performance in enumerate(self.facts.performances, start=1):
            self.performance(number, performance)

    def keys(self) -> None:
        """Resolve every record key to the IRI of its kind and name."""
        for entity in self.facts.entities:
            # The kind is the IRI's path segment; an unknown kind is treated as a person.
            kind = entity.kind if entity.kind in _ENTITY_TYPES else "person"
            known = self.resolved.get(entity.key)
            # A resolved agent is the known entity; any other is named by its own name.
            self.iris["agent", entity.key] = known.iri if known is not None else mint(kind, entity.name)
        for work in self.facts.works:
            self.iris["work", work.key] = mint("work", work.title)
        for place in self.facts.places:
            self.iris["place", place.key] = mint("place", place.name)
        for event in self.facts.events:
            self.iris["event", event.key] = mint("event", event.name)

    def ref(self, kind: str, key: str | None) -> URIRef | None:
        """The IRI of a record of ``kind``, or None when the key is absent or names no such record."""
        return self.iris.get((kind, key)) if key is not None else None

    def article_node(self) -> None:
        """The schema:NewsArticle the graph is about."""
        article = self.article
        self.add(self.node, RDF.type, SDO.NewsArticle)
        self.add(self.node, SDO.identifier, text_literal(article.id))
        if article.url:
            self.add(self.node, SDO.url, url_node(article.url))
        if article.path:
            self.add(self.node, KG.sourcePath, text_literal(article.path))
        if article.title:
            self.add(self.node, SDO.headline, text_literal(article.title))
        self.add(self.node, SDO.datePublished, date_literal(article.published))

    def entity(self, entity: Entity) -> None:
        """A person, music group or organisation with its other names and epithets."""
        node = self.iris["agent", entity.key]
        known = self.resolved.get(entity.key)
        name = known.name if known is not None else entity.name
        self.named(node, _ENTITY_TYPES.get(entity.kind, SDO.Person), name, entity.mentions)
        for alias in dict.fromkeys((entity.name, *entity.aliases)):
            if not _part_of(alias, name):
                self.add(node, SDO.alternateName, text_literal(alias))
        # "Mara J. Quinlan" is "Mara Quinlan" to most readers and searches: another name, not a
        # part; a performer's initial belongs to the stage name ("Ana B. Rivera" is no "Ana Rivera")
        plain = _MIDDLE_INITIAL.sub("", name)
        if plain != name and entity.key not in self.performers:
            self.add(node, SDO.alternateName, text_literal(plain))
        for description in entity.descriptions:
            self.add(node, SDO.description, text_literal(description))
        if entity.age is not None:
            self.add(node, KG.age, integer_literal(entity.age))

    def place(self, place: Place) -> None:
        """A place and the place it lies in."""
        node = self.iris["place", place.key]
        self.named(node, _PLACE_TYPES.get(place.kind, SDO.Place), place.name, place.mentions)
        self.add(node, SDO.containedInPlace, self.ref("place", place.contained_in))

    def work(self, work: Work) -> None:
        """A creative work, its creator and year."""
        node = self.iris["work", work.key]
        self.named(node, _WORK_TYPES.get(work.kind, SDO.CreativeWork), work.title, work.mentions)
        self.add(node, SDO.creator, self.ref("agent", work.creator))
        if work.year is not None:
            self.add(node, SDO.dateCreated, date_literal(f"{work.year:04d}"))
        self.decided(node, work.rule, work.confidence)

    def event(self, event: Event) -> None:
        """A named event, where and when, and the event it is part of (both directions)."""
        node = self.iris["event", event.key]
        self.named(node, _EVENT_TYPES.get(event.kind, SDO.Event), event.name, event.mentions)
        self.add(node, SDO.location, self.ref("place", event.location))
        if event.location_rule is not None:
            self.add(node, KG.locationRule, text_literal(event.location_rule))
        self.date(node, event.date)
        self.decided(node, event.rule, event.confidence)
        parent = self.ref("event", event.super_event)
        if parent is not None and parent != node:
            self.add(node, SDO.superEvent, parent)
            self.add(parent, SDO.subEvent, node)

    def quote(self, quote: Quote) -> None:
        """A quotation, with its speaker only when one was found."""
        span = quote.span
        node = mint("article", self.article.id, "quote", f"{span.start}-{span.end}")
        self.add(node, RDF.type, SDO.Quotation)
        self.add(node, SDO.text, text_literal(span.text))
        self.add(node, SDO.creator, self.ref("agent", quote.speaker))
        self.add(node, SDO.isPartOf, self.node)
        if quote.cue:
            self.add(node, KG.cue, text_literal(quote.cue))
        # A quotation always says how sure it is (it did before sieves had names); the rule when named.
        if quote.rule is not None:
            self.add(node, KG.rule, text_literal(quote.rule))
        self.add(node, KG.confidence, decimal_literal(quote.confidence))
        self.evidence(node, span)

    def performance(self, number: int, performance: Performance) -> None:
        """One act performing a work or at an event, as a schema:MusicEvent under the article."""
        performer = self.ref("agent", performance.performer)
        if performer is None:
            # A performance nobody performed is not a fact worth keeping.
            return
        node = mint("article", self.article.id, "performance", number)
        self.add(node, RDF.type, SDO.MusicEvent)
        self.add(node, SDO.performer, performer)
        self.add(node, SDO.workPerformed, self.ref("work", performance.work))
        event = self.ref("event", performance.event)
        if event is not None:
            self.add(node, SDO.superEvent, event)
            self.add(event, SDO.subEvent, node)
        self.add(node, SDO.location, self.ref("place", performance.location))
        if performance.context_rule is not None:
            self.add(node, KG.contextRule, text_literal(performance.context_rule))
        self.date(node, performance.date)
        if performance.cue:
            self.add(node, KG.cue, text_literal(performance.cue))
        self.decided(node, performance.rule, performance.confidence)
        self.evidence(node, performance.span)


def article_triples(
    article: Article, facts: Facts, *, resolved: Mapping[str, Resolved] | None = None
) -> list[Triple]:
    """One article's facts as triples, each once, without building a graph.

    What :func:`article_graph` writes; a store takes them in one go
    (:meth:`kg.rdf.store.MemoryBackend.replace`), so no triple is indexed twice.

    Args:
        article: The article the facts were read from.
        facts: What was extracted from it.
        resolved: Agents that are known entities, as :func:`article_graph` takes them.
    """
    writer = _Writer(article, facts, resolved)
    writer.write()
    return list(writer.triples)


def add_triples(graph: Graph, triples: Iterable[Triple]) -> Graph:
    """Add ``triples`` to ``graph`` (a named graph of a Dataset included); returns it.

    Straight to the graph's store, all in one call: ``Graph.add`` would check each term
    again, and these come from kg's mapping or another rdflib graph, so they are RDF terms
    already; a store that indexes many quads at once (:class:`kg.rdf.memory.BulkMemory`) does.
    """
    graph.store.addN((s, p, o, graph) for s, p, o in triples)
    return graph


def article_graph(
    article: Article,
    facts: Facts,
    graph: Graph | None = None,
    *,
    resolved: Mapping[str, Resolved] | None = None,
) -> Graph:
    """Write one article's facts as triples.

    Args:
        article: The article the facts were read from (its id names the graph).
        facts: What was extracted from it.
        graph: Where to write; a new Graph named by the article IRI when None.
        resolved: Agents (by key) that are known entities of the graph
            (:meth:`kg.rdf.resolve.NameIndex.resolve`): written under the known IRI and
            name, their own name kept as an alias. Pure: same inputs, same triples.

    Returns:
        The graph written to.
    """
    if graph is None:
        graph = bind_prefixes(Graph(identifier=article_iri(article.id)))
    return add_triples(graph, article_triples(article, facts, resolved=resolved))


def add_article(
    dataset: Dataset, article: Article, facts: Facts, *, resolved: Mapping[str, Resolved] | None = None
) -> Graph:
    """Put one article's facts into ``dataset`` as its named graph, replacing any earlier version.

    Re-running an article therefore never leaves stale facts behind.

    Args:
        dataset: The dataset (any rdflib store) holding one named graph per article.
        article: The article.
        facts: Its facts.
        resolved: Agents that are known entities, as :func:`article_graph` takes them.

    Returns:
        The article's named graph inside ``dataset``.
    """
    name = article_iri(article.id)
    dataset.remove_graph(dataset.graph(name))
    bind_prefixes(dataset)
    return article_graph(article, facts, dataset.graph(name), resolved=resolved)
