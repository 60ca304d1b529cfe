"""Facts -> RDF: one article's facts become one named graph, in schema.org terms first.

The shape is the one agreed in the project notes: the article node, the people,
groups, organisations, works, places and events it mentions, its quotations and
performances, and for every extracted node ``prov:wasDerivedFrom`` the article and
``kg:evidence`` the exact stretch of text (a Web Annotation selector).
Named things get IRIs by kind and name (:func:`kg.rdf.iri.mint`), so the same person
in two articles is one node; quotations, performances and spans live under the article.
"""

from __future__ import annotations

import datetime as dt
import math
import re
from collections.abc import Iterable, Mapping
from decimal import Decimal
from functools import lru_cache
from typing import TYPE_CHECKING

from rdflib import Dataset, Graph, Literal, URIRef
from rdflib.term import Node

from kg.extract.model import Entity, Event, Facts, Performance, Place, Quote, TextSpan, When, Work
from kg.io.article import Article
from kg.rdf.iri import mint
from kg.rdf.namespaces import KG, OA, PROV, RDF, SDO, XSD, bind_prefixes

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
# Characters XML 1.0 forbids (C0 controls but tab/LF/CR, lone surrogates, U+FFFE/U+FFFF):
# RDF/XML cannot carry them, so no literal may.
_XML_FORBIDDEN = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
_DATE_FORMATS = (
    (re.compile(r"\d{4}-\d{2}-\d{2}"), XSD.date),
    (re.compile(r"\d{4}-\d{2}"), XSD.gYearMonth),
    (re.compile(r"\d{4}"), XSD.gYear),
)
_URL = re.compile(r"https?://[A-Za-z0-9.-]+(?::\d{1,5})?(?:[/?#].*)?", re.DOTALL | re.IGNORECASE)
# Characters a URL keeps %-escaped: anything outside printable ASCII, and what IRIs forbid.
# A "%" not starting an escape, and brackets outside the host, are escaped too.
_URL_UNSAFE = re.compile(r"[^\x21-\x7e]|[<>\"{}|\\^`\[\]]|%(?![0-9A-Fa-f]{2})")


def clean_text(text: str) -> str:
    """``text`` without the characters XML 1.0 forbids, so a literal is valid in every RDF syntax.

    >>> clean_text("a\\x00b\\x1fc")
    'abc'
    """
    return _XML_FORBIDDEN.sub("", text)


def _text(text: str) -> Literal:
    """A plain string literal of article text, cleaned."""
    return Literal(clean_text(text))


def date_literal(value: str | None) -> Literal | None:
    """An ``xsd:date``, ``xsd:gYearMonth`` or ``xsd:gYear`` literal for an ISO date of that precision.

    Returns None for anything that is not a real calendar date of one of those shapes
    (``"2022-02-30"``, ``"spring"``), so no ill-typed literal is ever written.

    >>> date_literal("2022-04").datatype == XSD.gYearMonth
    True
    >>> date_literal("2022-02-30") is None
    True
    """
    if value is None:
        return None
    for pattern, datatype in _DATE_FORMATS:
        if pattern.fullmatch(value):
            # Pad to a full date so the calendar check covers every precision.
            padded = value + "-01" * ((10 - len(value)) // 3)
            try:
                dt.date.fromisoformat(padded)
            except ValueError:
                return None
            return Literal(value, datatype=datatype)
    return None


def _decimal(value: float) -> Literal | None:
    """An ``xsd:decimal`` literal in plain notation ("0.85", never "8.5e-01"), None if not finite."""
    if not math.isfinite(value):
        return None
    return Literal(format(Decimal(repr(float(value))), "f"), datatype=XSD.decimal)


def _url(url: str) -> Node:
    """The article URL as an IRI when it is an http(s) URL, else a literal.

    Non-ASCII and unsafe characters are %-escaped, so the IRI parses in every RDF syntax.
    """
    if not _URL.fullmatch(url):
        # Not an absolute web URL: keep it as text rather than mint a broken IRI.
        return _text(url)
    head, hash_, fragment = url.partition("#")
    # A fragment may not hold another "#".
    fragment = fragment.replace("#", "%23")
    return URIRef(_URL_UNSAFE.sub(_percent_escape, head) + hash_ + _URL_UNSAFE.sub(_percent_escape, fragment))


def _percent_escape(match: re.Match[str]) -> str:
    """``%XX`` escapes of the UTF-8 bytes of one matched character."""
    return "".join(f"%{byte:02X}" for byte in match.group().encode("utf-8", "surrogatepass"))


def article_iri(article_id: str) -> URIRef:
    """The IRI of an article, which is also the name of its graph."""
    return mint("article", article_id)


@lru_cache(maxsize=1 << 12)
def _integer(value: int) -> Literal:
    """An ``xsd:integer`` literal (offsets recur: every evidence span has two)."""
    return Literal(value, datatype=XSD.integer)


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

    def add(self, s: Node, p: URIRef, o: Node | None) -> None:
        """Add one triple, skipping absent values."""
        if o is not None:
            self.triples[s, p, o] = None

    def evidence(self, node: URIRef, span: TextSpan) -> None:
        """Point ``node`` at the article and at the span of text it was read from."""
        selector = mint("article", self.article.id, "span", f"{span.start}-{span.end}")
        self.add(node, PROV.wasDerivedFrom, self.node)
        self.add(node, KG.evidence, selector)
        self.add(selector, RDF.type, OA.TextPositionSelector)
        self.add(selector, RDF.type, OA.TextQuoteSelector)
        self.add(selector, OA.start, _integer(span.start))
        self.add(selector, OA.end, _integer(span.end))
        self.add(selector, OA.exact, _text(span.text))

    def named(self, node: URIRef, type_: URIRef, name: str, mentions: tuple[TextSpan, ...]) -> None:
        """The triples every named node shares: type, name, mention by the article, evidence."""
        self.add(node, RDF.type, type_)
        self.add(node, SDO.name, _text(name))
        self.add(self.node, SDO.mentions, node)
        self.add(node, PROV.wasDerivedFrom, self.node)
        for span in mentions:
            self.evidence(node, span)

    def date(self, node: URIRef, when: When | None) -> None:
        """A start date, resolved when the text allows, and always as written."""
        if when is None:
            return
        self.add(node, SDO.startDate, date_literal(when.value))
        self.add(node, KG.dateText, _text(when.text))

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
        self.add(self.node, SDO.identifier, _text(article.id))
        if article.url:
            self.add(self.node, SDO.url, _url(article.url))
        if article.path:
            self.add(self.node, KG.sourcePath, _text(article.path))
        if article.title:
            self.add(self.node, SDO.headline, _text(article.title))
        self.add(self.node, SDO.datePublished, date_literal(article.published))

    def entity(self, entity: Entity) -> None:
        """A person, music group or organisation with its other names and epithets."""
        node = self.iris["agent", entity.key]
        known = self.resolved.get(entity.key)
        name = known.name if known is not None else entity.name
        self.named(node, _ENTITY_TYPES.get(entity.kind, SDO.Person), name, entity.mentions)
        for alias in dict.fromkeys((entity.name, *entity.aliases)):
            if alias != name:
                self.add(node, SDO.alternateName, _text(alias))
        for description in entity.descriptions:
            self.add(node, SDO.description, _text(description))
        if entity.age is not None:
            self.add(node, KG.age, _integer(entity.age))

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

    def event(self, event: Event) -> None:
        """A named event, where and when, and the event it is part of (both directions)."""
        node = self.iris["event", event.key]
        self.named(node, _EVENT_TYPES.get(event.kind, SDO.Event), event.name, event.mentions)
        self.add(node, SDO.location, self.ref("place", event.location))
        self.date(node, event.date)
        parent = self.ref("event", event.super_event)
        if parent is not None and parent != node:
            self.add(node, SDO.superEvent, parent)
            self.add(parent, SDO.subEvent, node)

    def quote(self, quote: Quote) -> None:
        """A quotation, with its speaker only when one was found."""
        span = quote.span
        node = mint("article", self.article.id, "quote", f"{span.start}-{span.end}")
        self.add(node, RDF.type, SDO.Quotation)
        self.add(node, SDO.text, _text(span.text))
        self.add(node, SDO.creator, self.ref("agent", quote.speaker))
        self.add(node, SDO.isPartOf, self.node)
        if quote.cue:
            self.add(node, KG.cue, _text(quote.cue))
        self.add(node, KG.confidence, _decimal(quote.confidence))
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
        self.date(node, performance.date)
        if performance.cue:
            self.add(node, KG.cue, _text(performance.cue))
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

    Straight to the graph's store: ``Graph.add`` would check each term again, and
    these come from kg's mapping or another rdflib graph, so they are RDF terms already.
    """
    add = graph.store.add
    for triple in triples:
        add(triple, graph)
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
