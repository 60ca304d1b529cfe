"""Where a graph lives: in memory (rdflib), in an on-disk Oxigraph store, or on a SPARQL 1.1 server.

Each backend offers the same few operations, so :class:`kg.graph.KnowledgeGraph` works
the same on all three: replace one article's named graph atomically, drop articles,
run a SPARQL query (results always come back as an rdflib ``Result``), and hand out an
rdflib view for code written against rdflib's API (networkx projections, pages).

Layout in a store (folder or server): each article's triples in its named graph, and
their merge (every distinct triple once) in the default graph, which is what queries
read. Oxigraph's own "union default graph" repeats a triple once per graph holding it
(bag semantics), so the named queries would return duplicate rows; rdflib's union, and
SPARQL's RDF merge, do not. Keeping the merge in the default graph gives set semantics
and the fastest queries, for twice the triples on disk.

The on-disk store is pyoxigraph used directly: a replace is one SPARQL update (drop
from the default graph what only this article said, ``DROP SILENT GRAPH``, then
``INSERT DATA`` into both), which Oxigraph applies in one transaction. The rdflib view of
a store is oxrdflib's ``OxigraphStore`` over the same open store, read lazily. A server
gets the very same update text over the SPARQL 1.1 Protocol.
"""

from __future__ import annotations

import io
import re
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterable
from pathlib import Path
from typing import Protocol

import pyoxigraph as ox
from rdflib import BNode, Dataset, Graph, Literal, URIRef
from rdflib.query import Result
from rdflib.term import Node, Variable

from kg.errors import GraphError, QueryError, QueryTimeout, StoreBusy
from kg.prefixes import QUERY_PREFIXES, declarations
from kg.query_errors import syntax_message
from kg.rdf.mapping import Triple, add_triples
from kg.rdf.memory import BulkMemory
from kg.rdf.namespaces import XSD, bind_prefixes

__all__ = [
    "Backend",
    "MemoryBackend",
    "OxigraphBackend",
    "SparqlBackend",
    "is_sparql_url",
    "from_ox",
    "from_ox_result",
    "is_store_dir",
    "sparql_endpoints",
]

# Files RocksDB writes in every Oxigraph store folder: how a store folder is recognised.
_STORE_MARKERS = ("CURRENT", "IDENTITY")
_XSD_STRING = str(XSD.string)
# Everything the store holds, one row per quad of a named graph: the rdflib view of a server.
_ALL_QUADS = "SELECT ?s ?p ?o ?g WHERE { GRAPH ?g { ?s ?p ?o } }"
_SELECT_ACCEPT = "application/sparql-results+json, application/n-triples;q=0.9, text/turtle;q=0.8"
_GRAPHDB_REPOSITORY = re.compile(r"/repositories/[^/]+/?$")


class Backend(Protocol):
    """What a KnowledgeGraph needs of the place its graph lives."""

    kind: str

    def replace(self, name: URIRef, triples: Iterable[Triple]) -> None:
        """Make ``triples`` (a Graph or a list) the whole content of the named graph ``name``, atomically."""

    def remove(self, names: Iterable[URIRef]) -> list[URIRef]:
        """Drop named graphs; returns those that existed."""

    def query(self, text: str) -> Result:
        """Run SPARQL over the union of the named graphs; the result fully read."""

    def dataset(self) -> Dataset:
        """An rdflib Dataset showing the graph (a live view or a copy)."""

    def close(self) -> None:
        """Release files and connections."""


def is_sparql_url(target: str | Path) -> bool:
    """Whether ``target`` is an http(s) URL, i.e. names a SPARQL server rather than a path.

    >>> is_sparql_url("http://127.0.0.1:7878/query"), is_sparql_url("out/store")
    (True, False)
    """
    return isinstance(target, str) and target.lower().startswith(("http://", "https://"))


def is_store_dir(path: str | Path) -> bool:
    """Whether ``path`` is a folder holding an Oxigraph (RocksDB) store."""
    folder = Path(path)
    return folder.is_dir() and all((folder / marker).is_file() for marker in _STORE_MARKERS)


def sparql_endpoints(url: str) -> tuple[str, str]:
    """The query and update endpoints of a SPARQL server, from one URL.

    The conventions of the common servers, in order:
    ``.../query`` pairs with ``.../update`` (Oxigraph, Fuseki); ``.../sparql`` answers
    both (Virtuoso); ``.../repositories/NAME`` updates at ``.../statements`` (GraphDB,
    RDF4J); any other URL is a base under which ``/query`` and ``/update`` live
    (``http://host:7878`` for Oxigraph, ``http://host:3030/ds`` for Fuseki).

    >>> sparql_endpoints("http://127.0.0.1:7878")
    ('http://127.0.0.1:7878/query', 'http://127.0.0.1:7878/update')
    >>> sparql_endpoints("http://db:7200/repositories/news")[1]
    'http://db:7200/repositories/news/statements'
    """
    base = url.rstrip("/")
    path = urllib.parse.urlsplit(base).path
    if path.endswith("/query"):
        # Oxigraph and Fuseki name the two endpoints side by side.
        return base, base[: -len("query")] + "update"
    if path.endswith("/sparql"):
        # Virtuoso-style: one endpoint for queries and updates.
        return base, base
    if _GRAPHDB_REPOSITORY.search(path):
        # GraphDB and RDF4J: updates go to the repository's statements.
        return base, base + "/statements"
    return base + "/query", base + "/update"


def replace_update(name: URIRef, triples: Iterable[Triple]) -> str:
    """The SPARQL update making ``triples`` the whole named graph ``name``, the merged default graph kept right.

    One request, so one transaction on Oxigraph (and on servers that run a request as one).
    """
    graph = triples if isinstance(triples, Graph) else add_triples(Graph(), triples)
    text = graph.serialize(format="nt", encoding="utf-8").decode("utf-8")
    return f"{_drop_update([name])} ;\nINSERT DATA {{\n{text}GRAPH <{name}> {{\n{text}}} }}"


def _drop_update(names: Iterable[URIRef]) -> str:
    """Per graph: take from the default graph the triples no other graph states, then drop the graph."""
    return " ;\n".join(
        f"DELETE {{ ?s ?p ?o }} WHERE {{ GRAPH <{name}> {{ ?s ?p ?o }} "
        f"FILTER NOT EXISTS {{ GRAPH ?other {{ ?s ?p ?o }} FILTER(?other != <{name}>) }} }} ;\n"
        f"DROP SILENT GRAPH <{name}>"
        for name in names
    )


class MemoryBackend:
    """An rdflib Dataset in memory: for one-off builds that end in a file."""

    kind = "memory"

    def __init__(self, dataset: Dataset | None = None) -> None:
        self._dataset = dataset if dataset is not None else Dataset(store=BulkMemory(), default_union=True)
        self._dataset.default_union = True
        bind_prefixes(self._dataset)

    def replace(self, name: URIRef, triples: Iterable[Triple]) -> None:
        """Swap the named graph's triples (one thread writes, so no reader sees half of it).

        The triples go straight into the named graph, in one call: mapping hands over a
        list, not a graph, so no triple is indexed twice.
        """
        self._dataset.remove_graph(self._dataset.graph(name))
        add_triples(self._dataset.graph(name), triples)

    def remove(self, names: Iterable[URIRef]) -> list[URIRef]:
        """Drop the named graphs that exist."""
        present = {g.identifier for g in self._dataset.graphs()}
        gone = [name for name in names if name in present]
        for name in gone:
            self._dataset.remove_graph(self._dataset.graph(name))
        return gone

    def query(self, text: str) -> Result:
        """rdflib's own SPARQL engine over the union of the graphs."""
        return _read_fully(self._dataset.query(text, initNs=QUERY_PREFIXES))

    def dataset(self) -> Dataset:
        """The Dataset itself."""
        return self._dataset

    def close(self) -> None:
        """Nothing to release."""


#: Seconds a read-only open waits for a store another process is creating, and between tries.
_OPEN_PATIENCE = 1.0
_OPEN_RETRY = 0.02
# Bytes of SPARQL updates after which the store's write buffers go to disk. RocksDB keeps
# each column family's memtable in memory until it fills (tens of MiB each, a dozen
# families), so a long `kg build --store` grew by about 0.6 MiB an article without this.
_FLUSH_BYTES = 16 << 20


class OxigraphBackend:
    """An embedded on-disk Oxigraph store: incremental, transactional, fast SPARQL.

    One process may open a folder read-write; others may open it read-only at the
    same time (a snapshot as of opening). Queries release the GIL, so several threads
    can query one open store at once and run in parallel.
    """

    kind = "store"

    def __init__(self, path: str | Path, *, read_only: bool = False) -> None:
        self.path = Path(path)
        self._store: ox.Store | None = self._open(read_only)
        self.read_only = read_only
        self._unflushed = 0  # bytes of updates since the last flush

    def _open(self, read_only: bool) -> ox.Store:
        """The store itself; any failure to open it is a one-line GraphError naming the folder.

        A store another process is still creating cannot be read for a few
        milliseconds (RocksDB: "Column family not found", files not there yet), so a
        read-only open tries again for up to :data:`_OPEN_PATIENCE` seconds.
        """
        deadline = time.monotonic() + _OPEN_PATIENCE
        while True:
            try:
                return ox.Store.read_only(str(self.path)) if read_only else ox.Store(str(self.path))
            except (OSError, RuntimeError) as err:
                # RocksDB lets one process write: say who is likely holding the lock.
                locked = "lock" in str(err).lower()
                half_made = read_only and not locked and isinstance(err, (RuntimeError, FileNotFoundError))
                if half_made and time.monotonic() < deadline:
                    time.sleep(_OPEN_RETRY)
                    continue
                if locked:
                    # RocksDB's own words name its LOCK file and errno: nothing a user acts on.
                    raise StoreBusy(f"{self.path}: another process has the store open for writing") from None
                hint = ""
                if half_made:
                    hint = " (half made: still being created, or damaged)"
                raise GraphError(f"{self.path}: cannot open the store{hint}: {_one_line(err)}") from None

    def replace(self, name: URIRef, triples: Iterable[Triple]) -> None:
        """One update: either the old graph is gone and the new one in, or nothing changed."""
        self._update(replace_update(name, triples))

    def remove(self, names: Iterable[URIRef]) -> list[URIRef]:
        """Drop the named graphs that exist, in one transaction."""
        gone = [name for name in names if self.store.contains_named_graph(ox.NamedNode(str(name)))]
        if gone:
            self._update(_drop_update(gone))
        return gone

    def bulk_load(self, quads: Iterable[ox.Quad]) -> None:
        """Load a corpus of new articles' quads fast, without per-article transactions.

        For a first import into an empty store: quads of named graphs are loaded, and
        their triples merged into the default graph, as :meth:`replace` would leave them.
        """

        def with_merge() -> Iterable[ox.Quad]:
            for quad in quads:
                yield quad
                yield ox.Quad(quad.subject, quad.predicate, quad.object, ox.DefaultGraph())

        try:
            self.store.bulk_extend(with_merge())
        except (OSError, ValueError) as err:
            raise GraphError(f"{self.path}: cannot load: {_one_line(err)}") from None

    def query(self, text: str) -> Result:
        """Oxigraph's engine over the merged default graph, converted to an rdflib Result."""
        try:
            raw = self.store.query(text, prefixes=QUERY_PREFIXES)
            return from_ox_result(raw)
        except (SyntaxError, ValueError, OSError) as err:
            raise QueryError(syntax_message(text, _one_line(err))) from None

    def dataset(self) -> Dataset:
        """rdflib's API over the same open store (oxrdflib), read lazily from disk.

        Its default graph is the merge of all articles, so the Dataset does not
        add the named graphs to it again (``default_union`` off).
        """
        from oxrdflib import OxigraphStore

        return bind_prefixes(Dataset(store=OxigraphStore(store=self.store), default_union=False))

    def copy(self) -> Dataset:
        """The articles' named graphs read into an rdflib Dataset in memory (for SHACL, file exports)."""
        quads = self.store.quads_for_pattern(None, None, None)
        named = (q for q in quads if not isinstance(q.graph_name, ox.DefaultGraph))
        dataset = Dataset(default_union=True)
        dataset.parse(data=ox.serialize(named, format=ox.RdfFormat.N_QUADS), format="nquads")
        return bind_prefixes(dataset)

    def close(self) -> None:
        """Flush writes and let go of the store, so another handle (or process) may open it."""
        if self._store is not None and not self.read_only:
            self._store.flush()
        # pyoxigraph closes the store (and frees its lock) when the last reference goes.
        self._store = None

    @property
    def store(self) -> ox.Store:
        """The open pyoxigraph Store (for bulk work the backend does not wrap)."""
        if self._store is None:
            raise GraphError(f"{self.path}: the store was closed")
        return self._store

    def _update(self, text: str) -> None:
        if self.read_only:
            raise GraphError(f"{self.path}: the store is open read-only")
        try:
            self.store.update(text)
        except (SyntaxError, OSError) as err:
            raise GraphError(f"{self.path}: update failed: {_one_line(err)}") from None
        self._unflushed += len(text)
        if self._unflushed >= _FLUSH_BYTES:
            self.store.flush()
            self._unflushed = 0


class SparqlBackend:
    """A SPARQL 1.1 server (Oxigraph, Fuseki, GraphDB, Virtuoso) holding the graph.

    kg keeps the merge of all articles in the server's default graph, so queries must
    read the stored default graph as is: the standard behaviour (``oxigraph serve``
    without ``--union-default-graph``; a Fuseki dataset without ``unionDefaultGraph``).
    """

    kind = "sparql"

    def __init__(self, url: str, *, update_url: str | None = None, timeout: float = 60.0) -> None:
        self.query_url, default_update = sparql_endpoints(url)
        self.update_url = update_url or default_update
        self.timeout = timeout

    def replace(self, name: URIRef, triples: Iterable[Triple]) -> None:
        """One update request, as on disk (atomic on servers that run a request as one transaction)."""
        self._post(self.update_url, {"update": replace_update(name, triples)}, accept="*/*")

    def remove(self, names: Iterable[URIRef]) -> list[URIRef]:
        """Drop the named graphs that exist, in one request."""
        wanted = list(names)
        if not wanted:
            return []
        values = " ".join(f"<{name}>" for name in wanted)
        rows = self.query(f"SELECT DISTINCT ?g WHERE {{ VALUES ?g {{ {values} }} GRAPH ?g {{ ?s ?p ?o }} }}")
        present = {row[0] for row in rows}
        gone = [name for name in wanted if name in present]
        if gone:
            self._post(self.update_url, {"update": _drop_update(gone)}, accept="*/*")
        return gone

    def query(self, text: str, *, timeout: float | None = None) -> Result:
        """POST the query; SPARQL JSON results or N-Triples come back as an rdflib Result.

        ``timeout`` bounds each wait on the server (connecting, and every read of the
        answer) instead of the backend's own ``timeout``; past it, QueryTimeout.
        """
        # A server knows its own prefixes, if any: kg's are declared on the query's first line.
        form = {"query": declarations() + text}
        body, content_type = self._post(self.query_url, form, accept=_SELECT_ACCEPT, timeout=timeout)
        if "json" in content_type:
            return Result.parse(io.BytesIO(body), format="json")
        graph = Graph()
        graph.parse(data=body, format="turtle" if "turtle" in content_type else "nt")
        result = Result("CONSTRUCT")
        result.graph = graph
        return result

    def dataset(self) -> Dataset:
        """A copy of every named graph, read in one query."""
        dataset = bind_prefixes(Dataset(default_union=True))
        for s, p, o, g in self.query(_ALL_QUADS):
            dataset.graph(g).add((s, p, o))
        return dataset

    def close(self) -> None:
        """Nothing held open between requests."""

    def _post(self, url: str, form: dict[str, str], *, accept: str, timeout: float | None = None) -> tuple[bytes, str]:
        data = urllib.parse.urlencode(form).encode("utf-8")
        request = urllib.request.Request(url, data=data, method="POST", headers={
            "Content-Type": "application/x-www-form-urlencoded; charset=utf-8",
            "Accept": accept,
        })
        try:
            with urllib.request.urlopen(request, timeout=timeout or self.timeout) as response:
                return response.read(), response.headers.get("Content-Type", "")
        except TimeoutError:
            if timeout is None:
                raise GraphError(f"{url}: no answer within {self.timeout:g} s") from None
            raise QueryTimeout(f"query stopped after the {timeout:g} s limit") from None
        except urllib.error.HTTPError as err:
            detail = " ".join(err.read().decode("utf-8", "replace").split())[:300]
            error = QueryError if "query" in form else GraphError
            raise error(f"{url}: HTTP {err.code}: {detail or err.reason}") from None
        except (urllib.error.URLError, OSError) as err:
            reason = getattr(err, "reason", err)
            raise GraphError(f"{url}: cannot reach the SPARQL server: {reason}") from None


def _read_fully(result: Result) -> Result:
    """Evaluate a lazy rdflib result now, so evaluation happens (and can time out) here."""
    if result.type == "SELECT":
        result.bindings = list(result.bindings)
    return result


def from_ox_result(raw: ox.QuerySolutions | ox.QueryBoolean | ox.QueryTriples) -> Result:
    """A pyoxigraph result as an rdflib Result, every solution read."""
    if isinstance(raw, ox.QueryBoolean):
        result = Result("ASK")
        result.askAnswer = bool(raw)
        return result
    if isinstance(raw, ox.QuerySolutions):
        result = Result("SELECT")
        result.vars = [Variable(v.value) for v in raw.variables]
        # Rows repeat terms (articles, people, cues): convert each distinct term once.
        seen: dict[ox.NamedNode | ox.BlankNode | ox.Literal, Node] = {}
        result.bindings = [
            {
                var: seen[value] if value in seen else seen.setdefault(value, from_ox(value))
                for var, value in zip(result.vars, solution)
                if value is not None
            }
            for solution in raw
        ]
        return result
    result = Result("CONSTRUCT")
    result.graph = Graph()
    for triple in raw:
        result.graph.add((from_ox(triple.subject), from_ox(triple.predicate), from_ox(triple.object)))
    return result


def from_ox(term: ox.NamedNode | ox.BlankNode | ox.Literal) -> Node:
    """One pyoxigraph term as the rdflib term kg itself would have written."""
    if isinstance(term, ox.NamedNode):
        return URIRef(term.value)
    if isinstance(term, ox.BlankNode):
        return BNode(term.value)
    if term.language:
        return Literal(term.value, lang=term.language)
    datatype = term.datatype.value
    # kg writes plain strings without a datatype; RDF 1.1 makes them xsd:string.
    return Literal(term.value, datatype=None if datatype == _XSD_STRING else URIRef(datatype))


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split()) or type(exc).__name__

