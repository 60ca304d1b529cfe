"""One identity across articles: a lone surname links to the one known person who bears it.

IRIs are minted from names (:func:`kg.rdf.iri.mint`), so "Ana Rivera" in two articles
is already one node. What names alone cannot do is tie an article that only says
"Rivera" to the Ana Rivera the graph already knows. :class:`NameIndex` does that,
before mapping: it indexes every person, group and organisation in the graph by the
words of its names and aliases, and a single-word name resolves to a known entity of
the same kind when exactly one such entity carries that word. Two known Riveras leave
"Rivera" apart (its own IRI), as does none.

The mapping stays pure: given the index's answer (:class:`Resolved` per entity key)
it writes deterministic triples. Resolution depends on what the graph held when an
article first came in, so it is order-dependent: "Rivera" read *before* any article
naming Ana Rivera stays apart. Re-ingesting an article keeps the choices its earlier
version made (while they still hold): the link, or none, and the name the link gave
its target then, even if articles added since know a fuller one. So building the same
folder twice changes nothing, and rerunning a build that was stopped part-way gives
exactly the graph of an uninterrupted one; to resolve an article afresh, remove it
and add it again. Building articles one by one or together, in the same order, gives
the same graph.

:func:`load_links` and :func:`add_same_as` add the optional user table of Wikidata
identities (``owl:sameAs <http://www.wikidata.org/entity/Q...>``).
"""

from __future__ import annotations

import csv
import re
import sys
import unicodedata
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from rdflib import Graph, URIRef
from rdflib.query import Result

from kg.errors import InputError
from kg.extract.model import Facts
from kg.rdf.iri import mint
from kg.rdf.namespaces import OWL, RDF, SDO

__all__ = ["INDEX_QUERY", "NameIndex", "Resolved", "add_same_as", "load_links"]

_AGENT_CLASSES: dict[str, URIRef] = {
    "person": SDO.Person,
    "group": SDO.MusicGroup,
    "organization": SDO.Organization,
}
_CLASS_KINDS = {cls: kind for kind, cls in _AGENT_CLASSES.items()}
_WORDS = re.compile(r"[^\W_]+")
_WIKIDATA = "http://www.wikidata.org/entity/"
_QID = re.compile(r"(?:https?://(?:www\.)?wikidata\.org/(?:wiki|entity)/)?(Q[1-9][0-9]*)")

INDEX_QUERY = """\
PREFIX schema: <https://schema.org/>
SELECT ?g ?e ?type ?name ?alias WHERE {
  GRAPH ?g {
    VALUES ?type { schema:Person schema:MusicGroup schema:Organization }
    ?e a ?type .
    { ?e schema:name ?name } UNION { ?e schema:alternateName ?alias }
  }
}"""
"""Every agent's names and aliases, per graph: what the index is built from (any backend)."""


@dataclass(frozen=True)
class Resolved:
    """Where an extracted entity goes: an existing node, and the name that node carries."""

    iri: URIRef
    name: str


def _fold(text: str) -> str:
    """Case and accents folded away, so "Rivéra" and "RIVERA" compare equal."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def _words(name: str) -> tuple[str, ...]:
    """The folded words of a name.

    >>> _words("Ana  Rivéra-Soto")
    ('ana', 'rivera', 'soto')
    """
    return tuple(_WORDS.findall(_fold(name)))


class NameIndex:
    """Which known agent carries which word in its names, and in which article graphs.

    Build it from the graph with :meth:`from_result` (the rows of :data:`INDEX_QUERY`),
    ask :meth:`resolve` before mapping an article, and tell it about the article's new
    graph with :meth:`replace_graph` (or :meth:`drop_graph`) after.
    """

    def __init__(self) -> None:
        # (kind, word) -> entity IRI -> the graphs whose triples give it that word
        self._by_word: dict[tuple[str, str], dict[URIRef, set[URIRef]]] = defaultdict(lambda: defaultdict(set))
        # entity IRI -> graph -> its schema:name values there
        self._names: dict[URIRef, dict[URIRef, set[str]]] = defaultdict(lambda: defaultdict(set))
        self._graphs: dict[URIRef, list[tuple[str, str, URIRef]]] = defaultdict(list)
        # One object per entity IRI and per word, however many articles repeat them: the
        # index holds an entry per article and name, and would otherwise hold as many copies.
        self._iris: dict[URIRef, URIRef] = {}

    @classmethod
    def from_result(cls, result: Result) -> NameIndex:
        """An index of the rows of :data:`INDEX_QUERY` run on the graph."""
        index = cls()
        for graph, entity, type_, name, alias in result:
            kind = _CLASS_KINDS.get(type_)
            if kind is not None:
                index._add(graph, entity, kind, str(name if name is not None else alias), name is not None)
        return index

    def replace_graph(self, name: URIRef, graph: Graph) -> None:
        """Forget what graph ``name`` said and index ``graph`` as its new content."""
        self.drop_graph(name)
        for type_, kind in _CLASS_KINDS.items():
            for entity in graph.subjects(RDF.type, type_):
                for label in graph.objects(entity, SDO.name):
                    self._add(name, entity, kind, str(label), True)
                for label in graph.objects(entity, SDO.alternateName):
                    self._add(name, entity, kind, str(label), False)

    def drop_graph(self, name: URIRef) -> None:
        """Forget everything graph ``name`` said (the article was removed or is being replaced)."""
        for kind, word, entity in self._graphs.pop(name, []):
            holders = self._by_word[kind, word]
            holders[entity].discard(name)
            if not holders[entity]:
                del holders[entity]
            self._names[entity].pop(name, None)

    def resolve(self, graph_name: URIRef, facts: Facts) -> dict[str, Resolved]:
        """Which of ``facts``' agents named by one word are a known entity, by entity key.

        A one-word name (``"Rivera"``) resolves to the one other agent of the same kind
        whose names or aliases contain that word: first among the article's own
        agents, then in the graph, ignoring what graph ``graph_name`` (this article's
        earlier version) said. None, or more than one, and it stays apart.
        """
        resolved: dict[str, Resolved] = {}
        full_names = _full_names(facts)
        for entity in facts.entities:
            kind = entity.kind if entity.kind in _AGENT_CLASSES else "person"
            words = _words(entity.name)
            if len(words) != 1:
                continue
            own = mint(kind, entity.name)
            local = full_names.get((kind, words[0]), {})
            if local:
                # The article names the full form itself: that decides (or is ambiguous).
                if len(local) == 1:
                    iri, name = next(iter(local.items()))
                    resolved[entity.key] = Resolved(iri, name)
                continue
            before = {iri for k, word, iri in self._graphs.get(graph_name, ()) if (k, word) == (kind, words[0])}
            if own in before:
                # This article's earlier version kept the name apart: keep it so (idempotent re-runs).
                continue
            kept = {iri for iri in before if self._by_word[kind, words[0]].get(iri, set()) - {graph_name}}
            if len(kept) == 1:
                # Its earlier version linked the name, and the target is still known elsewhere: keep the
                # link and the name it gave the target (later articles may know a fuller one).
                iri = kept.pop()
                name = _fullest(self._names[iri].get(graph_name, ())) or self._best_name(iri, graph_name)
                resolved[entity.key] = Resolved(iri, name or entity.name)
                continue
            known = {
                iri
                for iri, graphs in self._by_word.get((kind, words[0]), {}).items()
                if iri != own and graphs - {graph_name}
            }
            if len(known) == 1:
                iri = known.pop()
                resolved[entity.key] = Resolved(iri, self._best_name(iri, graph_name) or entity.name)
        return resolved

    def _add(self, graph: URIRef, entity: URIRef, kind: str, label: str, is_name: bool) -> None:
        entity = self._iris.setdefault(entity, entity)
        for word in map(sys.intern, _words(label)):
            self._by_word[kind, word][entity].add(graph)
            self._graphs[graph].append((kind, word, entity))
        if is_name:
            self._names[entity][graph].add(sys.intern(label))

    def _best_name(self, entity: URIRef, skip: URIRef) -> str | None:
        """The fullest name other graphs give ``entity``."""
        return _fullest(label for graph, labels in self._names[entity].items() if graph != skip for label in labels)


def _full_names(facts: Facts) -> dict[tuple[str, str], dict[URIRef, str]]:
    """(kind, word) -> the article's agents of several words with that word in a name or alias (IRI -> name).

    Made once per article: matching each one-word name against every agent anew grew
    with the square of the agents, and a long article names them by the thousand.
    """
    index: dict[tuple[str, str], dict[URIRef, str]] = defaultdict(dict)
    for entity in facts.entities:
        if len(_words(entity.name)) > 1:
            kind = entity.kind if entity.kind in _AGENT_CLASSES else "person"
            for word in {w for label in (entity.name, *entity.aliases) for w in _words(label)}:
                index[kind, word][mint(kind, entity.name)] = entity.name
    return index


def _fullest(names: Iterable[str]) -> str | None:
    """The name with most words, then the last alphabetically: one answer whatever the order.

    >>> _fullest(["Rivera", "Ana Rivera", "Ana Rivéra"])
    'Ana Rivéra'
    """
    return max(names, key=lambda label: (len(_words(label)), label), default=None)


def load_links(path: str | Path) -> dict[str, URIRef]:
    """Read the user's identity table: CSV rows of (name or IRI, Wikidata id).

    The first column is an entity IRI (``https://w3id.org/kg/id/person/ana-rivera``) or
    a name, matched against names and aliases without regard to case or accents; the
    second a Wikidata id (``Q42``) or its URL. A header row, blank lines and lines
    starting with ``#`` are skipped.

    Returns:
        Folded name or IRI -> ``<http://www.wikidata.org/entity/Q...>``.

    Raises:
        InputError: For a missing file or a row whose id is not a Wikidata id.
    """
    source = Path(path)
    try:
        text = source.read_text(encoding="utf-8-sig")
    except OSError as err:
        raise InputError(f"{source}: cannot read the links table: {err.strerror or err}") from None
    links: dict[str, URIRef] = {}
    for number, row in enumerate(csv.reader(text.splitlines()), start=1):
        cells = [cell.strip() for cell in row]
        if not cells or not cells[0] or cells[0].startswith("#"):
            # Blank lines and comments carry nothing.
            continue
        match = _QID.fullmatch(cells[1]) if len(cells) > 1 else None
        if match is None:
            if number == 1:
                # A header row names the columns.
                continue
            raise InputError(f"{source}:{number}: expected 'name or IRI,Wikidata id (Q...)', got {','.join(row)!r}")
        key = cells[0] if cells[0].startswith(("http://", "https://")) else _fold(" ".join(cells[0].split()))
        links[key] = URIRef(_WIKIDATA + match.group(1))
    return links


def add_same_as(graph: Graph, links: Mapping[str, URIRef]) -> int:
    """Add ``owl:sameAs`` Wikidata links to the named nodes of ``graph`` the table knows.

    Returns:
        How many links were added.
    """
    added = 0
    for entity in set(graph.subjects(SDO.name, None)):
        labels: Iterable[str] = (
            str(label) for p in (SDO.name, SDO.alternateName) for label in graph.objects(entity, p)
        )
        keys = [str(entity), *(_fold(" ".join(label.split())) for label in labels)]
        target = next((links[key] for key in keys if key in links), None)
        if target is not None and (entity, OWL.sameAs, target) not in graph:
            graph.add((entity, OWL.sameAs, target))
            added += 1
    return added

