"""KnowledgeGraph: the one object users hold, in a notebook, a script or a server.

It holds one named graph per article, wherever the graph lives: in memory (rdflib,
for one-off builds that end in a file), in an on-disk Oxigraph store (the default for a
growing corpus), or on a SPARQL 1.1 server (see :mod:`kg.rdf.store`). The same methods
work on all three: add or replace articles' facts, remove articles, query with SPARQL
(with a time limit if asked), save in any RDF format or as GraphML/GEXF, validate,
count, and show a summary in Jupyter.

Thread safety: :meth:`KnowledgeGraph.query` may be called from several threads at
once on one open graph, on every backend. On an Oxigraph store the queries really run
in parallel (Oxigraph releases the GIL while it evaluates) and each sees one consistent
snapshot, even while this or another handle writes; on a server every query is its own
HTTP request; in memory, rdflib's engine takes turns under the GIL and must not run
while the same graph is written to. Writes (``add``, ``add_graphs``, ``remove``) belong
to one thread at a time: the name index they keep up to date is not locked.

Several processes: one may open a store folder read-write (``kg build``, ``kg remove``),
any number read-only at the same time (``KnowledgeGraph.open(path, read_only=True)``:
the query commands and ``kg serve`` do), each seeing the store as it was when opened.
"""

from __future__ import annotations

import gc
import html
import json
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from rdflib import Dataset, Graph, URIRef
from rdflib.graph import DATASET_DEFAULT_GRAPH_ID
from rdflib.namespace import RDF
from rdflib.query import Result

from kg import queries
from kg._files import write_atomic
from kg.deadline import query_in_fork, query_store_in_child
from kg.errors import GraphError, KgError, QueryError, QueryTimeout
from kg.extract.model import Facts
from kg.io.article import Article
from kg.query_errors import refuse_update
from kg.rdf.mapping import Triple, add_triples, article_iri, article_triples
from kg.rdf.namespaces import SDO
from kg.rdf.resolve import INDEX_QUERY, NameIndex, add_same_as
from kg.rdf.serialize import FORMATS, format_for, read_dataset, write_dataset
from kg.rdf.store import (
    Backend,
    MemoryBackend,
    OxigraphBackend,
    SparqlBackend,
    is_sparql_url,
    is_store_dir,
)
from kg.rdf.validate import validate as shacl_validate

__all__ = ["EXPORT_FORMATS", "KnowledgeGraph", "QueryTimeout", "export_format"]

#: What ``stats()`` counts: label -> the schema.org classes whose instances it counts.
_COUNTED: dict[str, tuple[URIRef, ...]] = {
    "articles": (SDO.NewsArticle,),
    "people": (SDO.Person,),
    "groups": (SDO.MusicGroup, SDO.Organization),
    "quotations": (SDO.Quotation,),
    "works": (
        SDO.MusicComposition,
        SDO.MusicRecording,
        SDO.MusicAlbum,
        SDO.Movie,
        SDO.TVSeries,
        SDO.Book,
        SDO.CreativeWork,
    ),
    "events": (
        SDO.Event,
        SDO.MusicEvent,
        SDO.Festival,
        SDO.TheaterEvent,
        SDO.SportsEvent,
    ),
    "places": (
        SDO.Place,
        SDO.MusicVenue,
        SDO.StadiumOrArena,
        SDO.PerformingArtsTheater,
        SDO.City,
        SDO.AdministrativeArea,
        SDO.Country,
    ),
}


#: The predicates that carry a node's names (what the name index reads, with the node's type).
_NAMING = frozenset({SDO.name, SDO.alternateName})
_NAMES_AND_TYPE = _NAMING | {RDF.type}

#: Network formats ``save`` writes (the entity graph of :func:`kg.network.entity_graph`).
_NETWORK_SUFFIXES = (".graphml", ".gexf")

EXPORT_FORMATS: tuple[str, ...] = (*FORMATS, *_NETWORK_SUFFIXES)
"""Every file extension :meth:`KnowledgeGraph.save` writes: RDF syntaxes, then GraphML and GEXF."""

# Stores and servers keep the merge of all articles in the default graph (kg.rdf.store): count there.
_STATS_QUERY = """\
SELECT ?label (COUNT(DISTINCT ?s) AS ?n) WHERE { VALUES (?label ?cls) { %s } ?s a ?cls } GROUP BY ?label"""
_PERFORMANCES_QUERY = "SELECT (COUNT(DISTINCT ?s) AS ?n) WHERE { ?s <https://schema.org/performer> ?o }"
_TRIPLES_QUERY = "SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }"


class KnowledgeGraph:
    """An RDF knowledge graph of people, events and works, one named graph per article.

    Example:
        >>> kg = KnowledgeGraph()
        >>> kg.stats()["triples"]
        0
    """

    def __init__(
        self,
        dataset: Dataset | None = None,
        *,
        backend: Backend | None = None,
        links: Mapping[str, URIRef] | None = None,
    ) -> None:
        """A graph in memory (optionally around ``dataset``), or on ``backend``.

        Args:
            dataset: An rdflib Dataset to wrap (memory only).
            backend: Where the graph lives; :meth:`open` picks it from a path or URL.
            links: Name or IRI -> Wikidata entity (:func:`kg.rdf.resolve.load_links`):
                every article added gets ``owl:sameAs`` for the entities it names.
        """
        if backend is not None and dataset is not None:
            raise ValueError("give a dataset or a backend, not both")
        self._backend: Backend = backend if backend is not None else MemoryBackend(dataset)
        self.links: dict[str, URIRef] = dict(links or {})
        self._index: NameIndex | None = None
        self._view: Dataset | None = None

    @classmethod
    def load(cls, path: str | Path) -> KnowledgeGraph:
        """Read a graph written by ``save`` (or any RDF file rdflib reads) into memory."""
        return cls(read_dataset(Path(path)))

    @classmethod
    def open(cls, target: str | Path, *, read_only: bool = False, create: bool = False) -> KnowledgeGraph:
        """Open a graph file, an Oxigraph store folder or a SPARQL server URL.

        Args:
            target: An RDF file (read into memory), a store folder, or an
                ``http(s)://`` URL of a SPARQL 1.1 server (see
                :func:`kg.rdf.store.sparql_endpoints` for which URLs work).
            read_only: Open a store folder read-only: any number of processes may, even
                while one other process has it open for writing (each sees the store
                as it was when opened). Servers such as ``kg serve`` want this.
            create: Make a new store when ``target`` does not exist or is an empty folder.

        Raises:
            GraphError: When the target is none of those, or cannot be opened.
        """
        if is_sparql_url(target):
            return cls(backend=SparqlBackend(str(target)))
        path = Path(target)
        if is_store_dir(path):
            return cls(backend=OxigraphBackend(path, read_only=read_only))
        if path.is_file():
            if path.suffix.lower() not in FORMATS:
                # Not "unknown RDF file extension ''": the user may have meant a store.
                raise GraphError(f"{path}: a file that is no graph file ({', '.join(FORMATS)}) and no store folder")
            return cls.load(path)
        empty = path.is_dir() and not any(path.iterdir())
        if create and (empty or not path.exists()):
            if path.suffix.lower() in EXPORT_FORMATS:
                raise GraphError(f"{path}: a store is a folder; this name looks like a graph file")
            return cls(backend=OxigraphBackend(path))
        what = "is not a kg store folder" if path.is_dir() else "no such graph file or store folder"
        raise GraphError(f"{path}: {what}")

    @property
    def backend(self) -> str:
        """Where the graph lives: ``"memory"``, ``"store"`` (on disk) or ``"sparql"`` (a server)."""
        return self._backend.kind

    @property
    def dataset(self) -> Dataset:
        """The graph as an rdflib Dataset (see :meth:`rdf_graph`)."""
        return self.rdf_graph()

    def rdf_graph(self) -> Dataset:
        """The graph through rdflib's API; queries see the union of all articles.

        In memory this is the Dataset itself; on a store, a live rdflib view of it
        (oxrdflib); on a server, a copy read when first asked for.
        """
        if self._view is None or self._backend.kind == "memory":
            self._view = self._backend.dataset()
        return self._view

    def add(self, article: Article, facts: Facts) -> None:
        """Add one article's facts as its own named graph, replacing any earlier version at once.

        Agents named by one word are first resolved against the graph
        (:class:`kg.rdf.resolve.NameIndex`), and the links table adds ``owl:sameAs``.
        """
        name = article_iri(article.id)
        index = self._name_index()
        # A list, not a graph: the backend indexes each triple once, where it is kept.
        triples: list[Triple] | Graph = article_triples(article, facts, resolved=index.resolve(name, facts))
        if self.links:
            # The links table matches names read off a graph.
            triples = add_triples(Graph(), triples)
            add_same_as(triples, self.links)
        self._backend.replace(name, triples)
        index.replace_graph(name, _naming_graph(triples))
        self._view = None

    def add_all(self, pairs: Iterable[tuple[Article, Facts]]) -> int:
        """Add many ``(article, facts)`` pairs, in order; returns how many.

        While it runs, what is already built is kept out of the garbage collector's
        full passes (:func:`_collector_skips_what_is_built`): in memory, each pass
        would walk the whole graph again, a third of the cost of adding to it.
        """
        count = 0
        # Only an in-memory graph is built on the Python heap; elsewhere freezing would just
        # keep every article's reference cycles until the end (`kg build --store`: +0.45 MiB an article).
        with _collector_skips_what_is_built(self._backend.kind == "memory") as built:
            for article, facts in pairs:
                self.add(article, facts)
                count += 1
                built()
        return count

    def add_graphs(self, dataset: Dataset) -> int:
        """Copy in every named graph of ``dataset`` (articles mapped elsewhere: a TriG file, workers).

        Each replaces the graph of the same name, as :meth:`add` would; no resolution
        runs, since the graphs were already mapped. Returns how many graphs came in.
        """
        index = self._name_index()
        count = 0
        for graph in dataset.graphs():
            if len(graph) and isinstance(graph.identifier, URIRef) and graph.identifier != DATASET_DEFAULT_GRAPH_ID:
                self._backend.replace(graph.identifier, graph)
                index.replace_graph(graph.identifier, graph)
                count += 1
        self._view = None
        return count

    def remove(self, *article_ids: str) -> list[str]:
        """Delete articles (their named graphs) in one transaction; returns the ids that were there.

        Entities other articles also name survive: each article's graph holds its own
        copy of every entity triple it states.
        """
        names = {article_iri(article_id): article_id for article_id in article_ids}
        gone = self._backend.remove(list(names))
        index = self._name_index()
        for name in gone:
            index.drop_graph(name)
        self._view = None
        return [names[name] for name in gone]

    def save(self, path: str | Path, fmt: str | None = None) -> Path:
        """Write the graph, its format from the file extension unless ``fmt`` (an rdflib name) is given.

        ``.graphml`` and ``.gexf`` write the entity network (:func:`kg.network.entity_graph`)
        for network tools (Gephi, Cytoscape, yEd) instead of RDF.
        """
        target = Path(path)
        if fmt is None and target.suffix.lower() in _NETWORK_SUFFIXES:
            _write_network(self._copy(), target)
        else:
            write_dataset(self._copy(), target, fmt)
        return target

    def to_memory(self) -> KnowledgeGraph:
        """A copy of the graph in memory (the graph itself when it is there already)."""
        if self._backend.kind == "memory":
            return self
        return KnowledgeGraph(self._copy(), links=self.links)

    def query(self, sparql: str, *, timeout: float | None = None, interruptible: bool = False) -> Result:
        """Run a SPARQL query (or the name of a named query) over all articles, read-only.

        The result is read in full before it is returned. With ``timeout`` the query
        runs in a child process that is killed past the limit (:mod:`kg.deadline`), so
        a stopped query stops for sure and gives its memory back: in memory a forked
        child, on a store a child that opens the store read-only (it sees what is
        committed on disk then), on a server the HTTP request's own timeout.

        ``interruptible`` runs a store's query in that child even without a time limit,
        so that Ctrl-C (KeyboardInterrupt) stops it at once: Oxigraph's native engine
        does not see signals, and a runaway query would otherwise run on. Queries in
        memory and on a server stop at Ctrl-C anyway.

        Raises:
            QueryError: When the query does not parse or cannot run (on a store, the line
                and column of the query where it went wrong), or is an update.
            QueryTimeout: When it runs past ``timeout`` seconds.
        """
        text = queries.load(sparql) if sparql in queries.names() else sparql
        refuse_update(text)
        if timeout is not None and timeout <= 0:
            raise QueryError(f"a query time limit must be above 0 s, not {timeout:g}")
        if isinstance(self._backend, OxigraphBackend) and (timeout is not None or interruptible):
            return query_store_in_child(self._backend.path, text, timeout)
        if timeout is None:
            return self._run(text)
        if isinstance(self._backend, SparqlBackend):
            return self._backend.query(text, timeout=timeout)
        return query_in_fork(lambda: self._run(text), timeout)

    def query_rows(self, sparql: str, *, timeout: float | None = None) -> list[dict[str, Any]]:
        """Run a SELECT query; each row is a dict of variable -> Python value (None when unbound)."""
        result = self.query(sparql, timeout=timeout)
        names = [str(v) for v in result.vars or ()]
        return [
            {name: (None if value is None else value.toPython()) for name, value in zip(names, row)}
            for row in result
        ]

    def query_df(self, sparql: str):  # type: ignore[no-untyped-def]
        """Run a SELECT query into a pandas DataFrame (pandas must be installed)."""
        try:
            import pandas as pd
        except ImportError:
            raise QueryError("query_df needs pandas: pip install pandas") from None
        result = self.query(sparql)
        columns = [str(v) for v in result.vars or ()]
        return pd.DataFrame(self.query_rows(sparql), columns=columns)

    def show(self, view: str = "entities", *, max_nodes: int | None = None) -> Any:
        """The interactive network page of this graph, for a notebook cell to display inline.

        What :func:`kg.viz.inline_page` makes of the named projection (``entities``,
        ``people``, ``works`` or ``events``): at most ``max_nodes`` nodes (kg.viz's
        default, 300), most connected first. kg.viz loads on first use, so scripts
        that never draw do not import pyvis.

        Raises:
            ValueError: for an unknown view, or ``max_nodes`` below 1.
        """
        from kg import viz

        projection = viz.project(self.rdf_graph(), view)
        limit = viz.PAGE_MAX_NODES if max_nodes is None else max_nodes
        return viz.inline_page(projection, title=viz.view_title(view), max_nodes=limit)

    def validate(self) -> tuple[bool, str]:
        """Check the graph against kg's SHACL shapes: ``(conforms, report text)``."""
        return shacl_validate(self._copy())

    def stats(self) -> dict[str, int]:
        """Counts of articles, people, quotations, works, events, places, performances and triples.

        In memory by walking the graph; on a store or server with SPARQL COUNT queries,
        so counting a store of millions of triples takes seconds, not minutes.
        """
        if self._backend.kind == "memory":
            return _memory_stats(self._backend.dataset())
        values = " ".join(f'("{label}" <{cls}>)' for label, classes in _COUNTED.items() for cls in classes)
        found = {str(label): int(n) for label, n in self._run(_STATS_QUERY % values)}
        counts = {label: found.get(label, 0) for label in _COUNTED}
        counts["performances"] = int(next(iter(self._run(_PERFORMANCES_QUERY)))[0])
        counts["triples"] = int(next(iter(self._run(_TRIPLES_QUERY)))[0])
        return counts

    def close(self) -> None:
        """Flush and release the store or connection (a memory graph has nothing to release)."""
        self._view = None
        self._backend.close()

    def __enter__(self) -> KnowledgeGraph:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __len__(self) -> int:
        return self.stats()["triples"] if self._backend.kind != "memory" else len(self._backend.dataset())

    def _repr_html_(self) -> str:
        rows = "".join(
            f"<tr><td>{html.escape(k)}</td><td style='text-align:right'>{v:,}</td></tr>"
            for k, v in self.stats().items()
        )
        return f"<table><caption>kg KnowledgeGraph ({self.backend})</caption>{rows}</table>"

    def __repr__(self) -> str:
        s = self.stats()
        return f"<KnowledgeGraph ({self.backend}) {s['articles']} articles, {s['triples']} triples>"

    def _run(self, text: str) -> Result:
        """One query on the backend, every error as a QueryError."""
        try:
            return self._backend.query(text)
        except KgError:
            raise
        except Exception as exc:  # rdflib raises pyparsing and other errors
            raise QueryError(f"SPARQL query failed: {_one_line(exc)}") from None

    def _copy(self) -> Dataset:
        """The whole graph as an rdflib Dataset in memory (the Dataset itself when in memory)."""
        if isinstance(self._backend, OxigraphBackend):
            return self._backend.copy()
        return self._backend.dataset()

    def _name_index(self) -> NameIndex:
        """The index of known agents' names, read from the graph once and kept up to date."""
        if self._index is None:
            self._index = NameIndex.from_result(self._run(INDEX_QUERY))
        return self._index


def export_format(path: str | Path) -> str:
    """The format ``save`` writes for a file: an rdflib format name, ``graphml`` or ``gexf``.

    Raises:
        GraphError: For an extension kg does not write, naming the valid ones.

    >>> export_format("out/net.gexf"), export_format("out/graph.trig")
    ('gexf', 'trig')
    """
    suffix = Path(path).suffix.lower()
    if suffix in _NETWORK_SUFFIXES:
        return suffix[1:]
    if suffix not in FORMATS and not Path(path).is_dir():
        raise GraphError(f"{path}: unknown file extension {suffix!r}; use one of {', '.join(EXPORT_FORMATS)}")
    return format_for(path)  # which also says when the path is a folder


@contextmanager
def _collector_skips_what_is_built(enabled: bool = True) -> Iterator[Callable[[], None]]:
    """A ``built()`` to call after each step of a long loop: what exists then, the collector no longer walks.

    ``gc.freeze`` moves every object alive to a generation no collection visits;
    objects freed by their reference count go as usual, so only reference cycles
    made during the loop (a few small ones per article) wait until it ends, when
    ``gc.unfreeze`` hands everything back. What exists on entry is frozen too: spaCy's
    worker processes, forked once the loop starts, then leave the graph they inherit
    alone (a collection there would walk it all, copying every page it touches). A
    process that froze objects itself (before forking its own workers, say) is left alone.
    """
    if not enabled or gc.get_freeze_count() or not gc.isenabled():
        yield lambda: None
        return
    gc.freeze()
    try:
        yield gc.freeze
    finally:
        gc.unfreeze()


def _naming_graph(triples: Iterable[Triple]) -> Graph:
    """The triples that name things (names, other names, and the types of named nodes), as a graph.

    All that :class:`~kg.rdf.resolve.NameIndex` reads of an article: a few dozen of its
    hundreds of triples (evidence spans, quotations and dates carry no name).
    """
    triples = list(triples)
    named = {s for s, p, _ in triples if p in _NAMING}
    # A store without named graphs is enough, and cheaper to fill.
    return add_triples(Graph(store="SimpleMemory"), (t for t in triples if t[0] in named and t[1] in _NAMES_AND_TYPE))


def _memory_stats(ds: Dataset) -> dict[str, int]:
    """Counts by walking an in-memory Dataset."""
    counts = {
        label: len({s for cls in classes for s in ds.subjects(RDF.type, cls)})
        for label, classes in _COUNTED.items()
    }
    counts["performances"] = len(set(ds.subjects(SDO.performer, None)))
    counts["triples"] = len(set(ds.triples((None, None, None))))
    return counts


def _write_network(dataset: Dataset, target: Path) -> None:
    """The entity network as GraphML or GEXF, every attribute a scalar those formats carry."""
    import networkx as nx

    from kg.network import entity_graph

    graph = entity_graph(dataset)
    for _, data in graph.nodes(data=True):
        _scalars(data)
    for _, _, data in graph.edges(data=True):
        _scalars(data)
    writer = nx.write_graphml if target.suffix.lower() == ".graphml" else nx.write_gexf
    write_atomic(target, lambda out: writer(graph, out))


def _scalars(data: dict[str, Any]) -> None:
    """Make attributes GraphML/GEXF-safe in place: lists and dicts as JSON text, None dropped."""
    for key, value in list(data.items()):
        if value is None:
            # Neither format has a null: an absent attribute says it.
            del data[key]
        elif isinstance(value, (list, tuple, dict)):
            # Structured values travel as JSON text.
            data[key] = json.dumps(value, ensure_ascii=False, sort_keys=True)


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split()) or type(exc).__name__
