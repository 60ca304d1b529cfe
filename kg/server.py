"""``kg serve``: a read-only SPARQL 1.1 Protocol endpoint over a kg graph, with a query page.

Why it is built this way:

- **Queries run in worker processes.** A query cannot be stopped reliably from
  another thread (rdflib computes under the GIL the HTTP threads need; Oxigraph in
  native code), so in-process a pathological query would hold the server. Each
  worker process opens the graph itself and answers one query at a time; the HTTP
  threads only parse requests, wait, and write answers. A query that passes the
  time limit has its worker killed (SIGKILL) and replaced, while the other workers
  keep answering.
- **The backend is one small interface.** :func:`make_runner` turns any
  :class:`~kg.graph.KnowledgeGraph` into ``run_query(sparql) -> QueryResult``, a
  plain picklable value, so the server neither knows nor cares whether the graph is
  an in-memory rdflib Dataset, an on-disk store or a remote SPARQL server.
- **Read-only whatever the request.** SPARQL Update (an ``update=`` parameter, an
  ``application/sparql-update`` body, or update keywords in a query), ``SERVICE``
  clauses and Graph Store writes are refused with a 4xx and a one-line reason.
  Behind that check, workers cannot open network connections at all (a Python
  audit hook; only the host of a remote-store URL is allowed) and rdflib's
  ``FROM <url>`` web fetching is turned off.
- **Bounded.** Per-query time limit, result cap (cut rows are reported in the
  ``X-KG-Truncated`` header), request size cap (413), connection cap (503),
  loopback binding unless told otherwise, and a Host-header check against DNS
  rebinding while bound to loopback.

Only the standard library serves HTTP (``http.server.ThreadingHTTPServer``).
"""

from __future__ import annotations

import base64
import csv
import hashlib
import io
import ipaddress
import json
import multiprocessing
import os
import re
import signal
import socket
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib.resources import files
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs, urlsplit
from xml.sax.saxutils import escape as xml_escape
from xml.sax.saxutils import quoteattr

from kg import __version__
from kg.errors import GraphError, KgError, QueryError
from kg.graph import KnowledgeGraph, QueryTimeout

if TYPE_CHECKING:
    from rdflib.term import Node

__all__ = [
    "DEFAULT_PORT",
    "QueryRefused",
    "QueryResult",
    "QueryRunner",
    "ServerBusy",
    "ServerConfig",
    "SparqlServer",
    "WorkerPool",
    "choose_format",
    "make_runner",
    "make_server",
    "refusal",
    "render",
    "serve",
]

DEFAULT_PORT = 8765
"""The port ``kg serve`` listens on unless told (Fuseki has 3030, Oxigraph 7878)."""

#: SPARQL Update operations: none of these words can stand bare in a query.
_UPDATE_WORDS = frozenset({"INSERT", "DELETE", "LOAD", "DROP", "CLEAR", "CREATE", "ADD", "MOVE", "COPY", "WITH"})

#: Tokens whose letters are data, not keywords, in the order the SPARQL grammar tries them:
#: strings, IRIs, comments, variables, prefixed names and blank nodes (ex:load, _:b), language tags.
_OPAQUE = re.compile(
    r'"""(?:[^"\\]|\\.|"(?!""))*"""'
    r"|'''(?:[^'\\]|\\.|'(?!''))*'''"
    r'|"(?:[^"\\\n\r]|\\.)*"'
    r"|'(?:[^'\\\n\r]|\\.)*'"
    r'|<[^<>"{}|^`\\\x00-\x20]*>'
    r"|#[^\n\r]*"
    r"|[?$]\w+"
    r"|(?<![\w.\-])(?:[^\W\d][\w.\-]*)?:(?:[\w.\-:%]|\\.)*"
    r"|@[A-Za-z]+(?:-[A-Za-z0-9]+)*",
    re.S,
)

#: A word left once the opaque tokens are blanked out: a keyword, a function name or ``a``.
_BARE_WORD = re.compile(r"(?<!\w)[A-Za-z]+(?!\w)")

#: SPARQL's \\u and \\U escapes, which rdflib expands before parsing anything.
_UNICODE_ESCAPE = re.compile(r"\\u([0-9A-Fa-f]{4})|\\U([0-9A-Fa-f]{8})")

#: Lone UTF-16 surrogates: a Python string can hold them, UTF-8 cannot.
_SURROGATE = re.compile("[\ud800-\udfff]")

#: Characters XML 1.0 cannot carry at all, not even as character references.
_XML_INVALID = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")

#: Result media types for SELECT/ASK, the default first: (media type, serializer name).
_RESULT_TYPES = (
    ("application/sparql-results+json", "json"),
    ("application/sparql-results+xml", "xml"),
    ("text/csv", "csv"),
    ("text/tab-separated-values", "tsv"),
    ("application/json", "json"),
    ("application/xml", "xml"),
    ("text/xml", "xml"),
)

#: Graph media types for CONSTRUCT/DESCRIBE, the default first: (media type, rdflib format).
_GRAPH_TYPES = (
    ("text/turtle", "turtle"),
    ("application/ld+json", "json-ld"),
    ("application/n-triples", "nt"),
    ("application/rdf+xml", "xml"),
    ("application/x-turtle", "turtle"),
    ("application/turtle", "turtle"),
    ("application/json", "json-ld"),
    ("text/plain", "nt"),
)

#: ``format=`` (or ``output=``) values: short name -> (results serializer, graph format).
_FORMAT_PARAM = {
    "json": ("json", "json-ld"),
    "xml": ("xml", "xml"),
    "csv": ("csv", None),
    "tsv": ("tsv", None),
    "turtle": (None, "turtle"),
    "ttl": (None, "turtle"),
    "json-ld": (None, "json-ld"),
    "jsonld": (None, "json-ld"),
    "nt": (None, "nt"),
    "ntriples": (None, "nt"),
    "n-triples": (None, "nt"),
    "rdf": (None, "xml"),
    "rdfxml": (None, "xml"),
    "rdf+xml": (None, "xml"),
}

#: Host names that mean this machine, for the DNS-rebinding check.
_LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})

#: Seconds a new worker may take to open the graph before the server gives up on it.
_STARTUP_TIMEOUT = 600.0

#: Characters of an error message sent back at most.
_MAX_MESSAGE = 1000

#: Seconds an idle keep-alive connection is held open.
_IDLE_TIMEOUT = 30.0


class QueryRefused(QueryError):
    """A request this read-only endpoint never carries out (update, SERVICE, graph writes)."""


class ServerBusy(KgError):
    """No worker became free in time."""


class _NotAcceptable(KgError):
    """No offered media type matches the request."""


@dataclass(frozen=True)
class QueryResult:
    """What a query gave, as plain picklable values (it crosses from a worker process).

    Attributes:
        kind: ``SELECT``, ``ASK``, ``CONSTRUCT`` or ``DESCRIBE``.
        variables: SELECT's variable names, in order, without ``?``.
        rows: SELECT's rows: one rdflib term (or None when unbound) per variable.
        boolean: ASK's answer.
        triples: CONSTRUCT/DESCRIBE's triples.
        truncated: True when rows or triples beyond the result cap were cut.
    """

    kind: str
    variables: tuple[str, ...] = ()
    rows: tuple[tuple[Node | None, ...], ...] = ()
    boolean: bool | None = None
    triples: tuple[tuple[Node, Node, Node], ...] = ()
    truncated: bool = False


QueryRunner = Callable[[str], QueryResult]
"""The one thing the server needs from a backend: ``run_query(sparql) -> QueryResult``."""


@dataclass(frozen=True)
class ServerConfig:
    """How ``kg serve`` listens and what it limits.

    Attributes:
        host: Address to bind; loopback unless the user says otherwise.
        port: TCP port (0 picks a free one).
        timeout: Seconds a query may run before its worker is killed.
        max_results: Rows (or triples) returned at most; the rest are cut.
        workers: Worker processes, each holding the graph; queries beyond them wait.
        max_request_bytes: Largest request body accepted (413 beyond).
        max_connections: Open connections served at once (503 beyond).
        quiet: Do not log each request on stderr.
    """

    host: str = "127.0.0.1"
    port: int = DEFAULT_PORT
    timeout: float = 10.0
    max_results: int = 10_000
    workers: int = max(2, min(4, os.cpu_count() or 2))
    max_request_bytes: int = 1 << 20
    max_connections: int = 512
    quiet: bool = False


# --- read-only check ------------------------------------------------------------------------


def refusal(sparql: str) -> str | None:
    """Why this endpoint refuses a query, or None when it may run.

    A lexical check, so it holds for any backend: outside strings, IRIs and comments,
    a bare update keyword (INSERT, DELETE, LOAD, DROP, CLEAR, CREATE, ADD, MOVE, COPY,
    WITH) or ``SERVICE`` cannot belong to a read-only query. The text is checked both
    as sent and with SPARQL's ``\\u`` escapes expanded, since rdflib expands them first.

    >>> refusal('SELECT ?load WHERE { ?s <http://x/service> "drop" }') is None
    True
    >>> refusal("DROP ALL")
    'this endpoint is read-only: SPARQL Update (DROP) is refused'
    """
    for text in _readings(sparql):
        words = {w.upper() for w in _BARE_WORD.findall(_OPAQUE.sub(" ", text))}
        # federated queries would make this server fetch from other hosts
        if "SERVICE" in words:
            return "SERVICE clauses are refused: this endpoint never queries other hosts"
        # any update operation: the endpoint never writes
        updates = sorted(words & _UPDATE_WORDS)
        if updates:
            return f"this endpoint is read-only: SPARQL Update ({', '.join(updates)}) is refused"
    return None


def _readings(sparql: str) -> tuple[str, ...]:
    expanded = _UNICODE_ESCAPE.sub(lambda m: chr(int(m.group(1) or m.group(2), 16)), sparql)
    return (sparql,) if expanded == sparql else (sparql, expanded)


# --- the backend interface --------------------------------------------------------------------


def make_runner(graph: KnowledgeGraph, max_results: int) -> QueryRunner:
    """Wrap a KnowledgeGraph as ``run_query(sparql) -> QueryResult``, refusing what is not read-only.

    Args:
        graph: Any KnowledgeGraph; only its ``query`` method is used.
        max_results: Rows or triples kept at most; ``truncated`` says when more were cut.

    Raises (from the returned callable):
        QueryRefused: For updates and SERVICE clauses.
        QueryError: When the query does not parse or cannot run.
    """

    def run_query(sparql: str) -> QueryResult:
        reason = refusal(sparql)
        if reason:
            raise QueryRefused(reason)
        return _collect(graph.query(sparql), max_results)

    return run_query


def _collect(result: Any, max_results: int) -> QueryResult:
    """Copy an rdflib-style Result into a QueryResult, reading at most one item past the cap."""
    kind = str(result.type)
    if kind == "ASK":
        return QueryResult(kind, boolean=bool(result.askAnswer))
    if kind == "SELECT":
        variables = tuple(str(v) for v in result.vars or ())
        rows, truncated = _take((tuple(row) for row in result), max_results)
        return QueryResult(kind, variables=variables, rows=rows, truncated=truncated)
    triples, truncated = _take((tuple(t) for t in result), max_results)
    return QueryResult(kind, triples=triples, truncated=truncated)


def _take(items: Iterable[Any], limit: int) -> tuple[tuple[Any, ...], bool]:
    kept = []
    for item in items:
        if len(kept) == limit:
            return tuple(kept), True
        kept.append(item)
    return tuple(kept), False


# --- worker processes -------------------------------------------------------------------------


def _open_graph(target: str) -> KnowledgeGraph:
    """Open a graph file, store folder (read-only: every worker opens it) or SPARQL server URL."""
    return KnowledgeGraph.open(target, read_only=True)


def _worker_main(conn: Any, target: str, max_results: int, allowed_host: str | None) -> None:
    """A worker process: open the graph, then answer one query at a time until the pipe closes."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent stops workers; Ctrl+C must not
    _exit_with_parent(os.getppid())
    _confine_network(allowed_host)
    try:
        run = make_runner(_open_graph(target), max_results)
        run("ASK {}")  # the first query pays for rdflib's lazy imports; pay it before serving
    except Exception as exc:  # any failure to open is reported to the parent as one line
        conn.send(("error", str(exc) if isinstance(exc, KgError) else f"{target}: {_one_line(exc)}"))
        return
    conn.send(("ready", None))
    while True:
        try:
            sparql = conn.recv()
        except (EOFError, OSError):
            return
        try:
            reply: tuple[str, Any] = ("ok", run(sparql))
        except QueryRefused as exc:
            reply = ("refused", str(exc))
        except KgError as exc:
            reply = ("invalid", str(exc))
        except Exception as exc:  # a backend bug must not kill the worker; the client gets a 500
            reply = ("failed", _one_line(exc))
        conn.send(reply)


def _exit_with_parent(parent: int) -> None:
    """Exit when the server process is gone, even in the middle of a long query."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, daemon=True, name="kg-parent-watch").start()


def _confine_network(allowed_host: str | None) -> None:
    """Refuse every network connection from this process, loopback included, except to a remote store's host.

    rdflib would fetch ``SERVICE`` endpoints and ``FROM <url>`` graphs from the web;
    the lexical check refuses SERVICE with a clear message, and this makes sure no
    other path through Python code (a parser quirk, a backend feature) reaches the
    network, or a service on this machine, either. Oxigraph's engine is native code
    that Python's audit hooks do not see; it fetches nothing but SERVICE, which the
    lexical check refuses before a query reaches it.
    """
    import rdflib.plugins.sparql

    rdflib.plugins.sparql.SPARQL_LOAD_GRAPHS = False  # FROM <iri> names a graph in the store, never a download
    names = {allowed_host} if allowed_host else set()
    addresses = _resolve(allowed_host) if allowed_host else set()

    def hook(event: str, args: tuple[Any, ...]) -> None:
        # name lookups are the first step of any web fetch
        if event == "socket.getaddrinfo" and args[0] not in names:
            raise PermissionError(f"kg serve workers do not look up {args[0]!r}")
        # internet connections; Unix sockets (string addresses) are local
        if event == "socket.connect" and isinstance(args[1], tuple):
            host = str(args[1][0])
            if host not in addresses:
                raise PermissionError(f"kg serve workers do not connect to {host}")

    sys.addaudithook(hook)


def _resolve(host: str) -> set[str]:
    try:
        return {str(info[4][0]) for info in socket.getaddrinfo(host, None)}
    except OSError:
        return set()


def _is_loopback(host: Any) -> bool:
    if isinstance(host, bytes):
        host = host.decode("ascii", "replace")
    if not isinstance(host, str):
        return False
    if host.lower() in _LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


@dataclass
class _Worker:
    process: Any
    conn: Any


class _Ticket:
    """A request waiting for a worker."""

    __slots__ = ("ready", "worker")

    def __init__(self) -> None:
        self.ready = threading.Event()
        self.worker: _Worker | None = None


class _Handoff:
    """Free workers, handed to waiting requests first come, first served.

    With a plain ``queue.Queue``, a request arriving just as a worker frees up can take
    it ahead of requests already waiting; under load some requests then wait past the
    limit while newcomers are served. Here a freed worker goes straight to the oldest
    waiting request.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._free: deque[_Worker] = deque()
        self._waiting: deque[_Ticket] = deque()

    def put(self, worker: _Worker) -> None:
        with self._lock:
            if self._waiting:
                ticket = self._waiting.popleft()
                ticket.worker = worker
                ticket.ready.set()
            else:
                self._free.append(worker)

    def get(self, timeout: float) -> _Worker | None:
        """A free worker, or None when none came within ``timeout`` seconds."""
        with self._lock:
            if self._free:
                return self._free.popleft()
            ticket = _Ticket()
            self._waiting.append(ticket)
        if ticket.ready.wait(timeout):
            return ticket.worker
        with self._lock:
            # handed a worker just as the wait ran out: take it rather than lose it
            if ticket.worker is not None:
                return ticket.worker
            self._waiting.remove(ticket)
            return None


class WorkerPool:
    """Worker processes that each hold the graph; a query past the time limit has its worker killed.

    Args:
        target: What the workers open (a graph file, store folder or SPARQL URL).
        workers: How many processes.
        timeout: Seconds a query may run, and also how long a request waits for a free worker.
        max_results: The result cap each worker applies.
    """

    def __init__(self, target: str, *, workers: int, timeout: float, max_results: int) -> None:
        self.target = target
        self.timeout = timeout
        self.max_results = max_results
        self.size = workers
        self._context = multiprocessing.get_context("spawn")
        self._idle = _Handoff()
        self._live: dict[int, _Worker] = {}
        self._lock = threading.Lock()
        self._closed = False
        self._allowed_host = urlsplit(target).hostname if "://" in target else None

    def start(self) -> None:
        """Start every worker and wait until each has opened the graph.

        Raises:
            GraphError: When a worker cannot open the graph (its message says why).
        """
        starting = [self._spawn() for _ in range(self.size)]
        try:
            for worker in starting:
                self._await_ready(worker)
                self._idle.put(worker)
        except KgError:
            self.close()
            raise

    def run(self, sparql: str) -> QueryResult:
        """Run one query on a free worker.

        Raises:
            ServerBusy: No worker was free within the time limit.
            QueryTimeout: The query ran past the limit (its worker was killed and replaced).
            QueryRefused: Updates and SERVICE.
            QueryError: A query that does not parse or cannot run.
            KgError: The worker failed or died.
        """
        worker = self._idle.get(self.timeout)
        if worker is None:
            raise ServerBusy(f"all {self.size} workers stayed busy for {self.timeout:g} s; try again")
        try:
            worker.conn.send(sparql)
            answered = worker.conn.poll(self.timeout)
            reply = worker.conn.recv() if answered else None
        except (EOFError, OSError):
            self._retire(worker)
            raise KgError("the worker running this query died; it is being replaced") from None
        if reply is None:
            self._retire(worker)
            raise QueryTimeout(f"query stopped at the time limit of {self.timeout:g} s")
        self._idle.put(worker)
        status, payload = reply
        if status == "ok":
            return payload  # type: ignore[no-any-return]
        # the status names the kind of failure the worker met
        error = {"refused": QueryRefused, "invalid": QueryError}.get(status, KgError)
        raise error(payload)

    def close(self) -> None:
        """Stop every worker (idle or busy) and start no more."""
        with self._lock:
            self._closed = True
            workers = list(self._live.values())
        for worker in workers:
            self._kill(worker)

    def _spawn(self) -> _Worker:
        parent_end, child_end = self._context.Pipe(duplex=True)
        process = self._context.Process(
            target=_worker_main,
            args=(child_end, self.target, self.max_results, self._allowed_host),
            name="kg-serve-worker",
            daemon=True,
        )
        process.start()
        child_end.close()
        worker = _Worker(process, parent_end)
        with self._lock:
            self._live[id(worker)] = worker
        return worker

    def _await_ready(self, worker: _Worker) -> None:
        try:
            if not worker.conn.poll(_STARTUP_TIMEOUT):
                raise GraphError(f"{self.target}: a worker took over {_STARTUP_TIMEOUT:g} s to open the graph")
            status, payload = worker.conn.recv()
        except (EOFError, OSError):
            raise GraphError(f"{self.target}: a worker process exited while opening the graph") from None
        if status != "ready":
            raise GraphError(payload)

    def _retire(self, worker: _Worker) -> None:
        """Kill a worker and start a replacement in the background (opening the graph takes time)."""
        self._kill(worker)
        with self._lock:
            if self._closed:
                return
        threading.Thread(target=self._replace, daemon=True, name="kg-serve-respawn").start()

    def _replace(self) -> None:
        worker = self._spawn()
        try:
            self._await_ready(worker)
        except KgError as exc:
            self._kill(worker)
            sys.stderr.write(f"kg serve: could not replace a worker: {exc}\n")
            return
        with self._lock:
            closed = self._closed
        if closed:
            self._kill(worker)
        else:
            self._idle.put(worker)

    def _kill(self, worker: _Worker) -> None:
        with self._lock:
            self._live.pop(id(worker), None)
        worker.process.kill()
        worker.process.join(timeout=5)
        worker.conn.close()


# --- content negotiation and serialization ----------------------------------------------------


def choose_format(kind: str, accept: str | None, fmt: str | None = None) -> tuple[str, str]:
    """Pick the response media type and serializer for a result kind.

    ``format=`` (or ``output=``) wins over the Accept header; without either, SELECT
    and ASK get SPARQL JSON and CONSTRUCT/DESCRIBE get Turtle.

    Returns:
        ``(media type, serializer)``: json/xml/csv/tsv for results, an rdflib format for graphs.

    Raises:
        _NotAcceptable: Nothing offered matches (the message lists what is).

    >>> choose_format("SELECT", "text/csv;q=0.5, application/sparql-results+xml")
    ('application/sparql-results+xml', 'xml')
    >>> choose_format("CONSTRUCT", None, "json")
    ('application/ld+json', 'json-ld')
    """
    is_graph = kind in ("CONSTRUCT", "DESCRIBE")
    offered = _GRAPH_TYPES if is_graph else _RESULT_TYPES
    if fmt:
        return _by_format_param(fmt.strip().lower(), offered, is_graph)
    for wanted in _accepted(accept or "*/*"):
        for media, serializer in offered:
            if _matches(wanted, media):
                return media, serializer
    choices = ", ".join(dict.fromkeys(m for m, _ in offered))
    raise _NotAcceptable(f"cannot answer a {kind} query as {accept!r}; offered: {choices}")


def _by_format_param(fmt: str, offered: tuple[tuple[str, str], ...], is_graph: bool) -> tuple[str, str]:
    # a full media type is accepted as a format value too
    for media, serializer in offered:
        if fmt == media:
            return media, serializer
    results_name, graph_name = _FORMAT_PARAM.get(fmt, (None, None))
    serializer = graph_name if is_graph else results_name
    if serializer is None:
        valid = sorted(k for k, (r, g) in _FORMAT_PARAM.items() if (g if is_graph else r))
        kind = "CONSTRUCT/DESCRIBE" if is_graph else "SELECT/ASK"
        raise _NotAcceptable(f"format {fmt!r} does not suit a {kind} query; use one of {', '.join(valid)}")
    media = next(m for m, s in offered if s == serializer)
    return media, serializer


def _accepted(accept: str) -> list[str]:
    """Media ranges of an Accept header, best first (q=0 ranges dropped, order kept among equals)."""
    ranked = []
    for position, part in enumerate(accept.split(",")):
        media, _, params = part.partition(";")
        quality = 1.0
        for param in params.split(";"):
            name, _, value = param.partition("=")
            if name.strip().lower() == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        if media.strip() and quality > 0:
            ranked.append((-quality, position, media.strip().lower()))
    return [media for _, _, media in sorted(ranked)]


def _matches(wanted: str, media: str) -> bool:
    if wanted in ("*/*", "*"):
        return True
    if wanted.endswith("/*"):
        return media.startswith(wanted[:-1])
    return wanted == media


def render(result: QueryResult, serializer: str) -> bytes:
    """Serialize a QueryResult: SPARQL results (json/xml/csv/tsv) or a graph (an rdflib format)."""
    if result.kind in ("CONSTRUCT", "DESCRIBE"):
        return _graph_bytes(result, serializer)
    return {"json": _results_json, "xml": _results_xml, "csv": _results_csv, "tsv": _results_tsv}[serializer](result)


def _utf8(text: str) -> bytes:
    """UTF-8 bytes; a lone surrogate (possible in a parsed literal, impossible in UTF-8) becomes U+FFFD."""
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        return _SURROGATE.sub("\ufffd", text).encode("utf-8")


def _results_json(result: QueryResult) -> bytes:
    if result.kind == "ASK":
        document: dict[str, Any] = {"head": {}, "boolean": result.boolean}
    else:
        bindings = [
            {name: _json_term(term) for name, term in zip(result.variables, row) if term is not None}
            for row in result.rows
        ]
        document = {"head": {"vars": list(result.variables)}, "results": {"bindings": bindings}}
    return _utf8(json.dumps(document, ensure_ascii=False))


def _json_term(term: Node) -> dict[str, str]:
    from rdflib import BNode, Literal

    if isinstance(term, Literal):
        out = {"type": "literal", "value": str(term)}
        if term.language:
            out["xml:lang"] = term.language
        elif term.datatype:
            out["datatype"] = str(term.datatype)
        return out
    if isinstance(term, BNode):
        return {"type": "bnode", "value": str(term)}
    return {"type": "uri", "value": str(term)}


def _results_xml(result: QueryResult) -> bytes:
    out = ['<?xml version="1.0" encoding="utf-8"?>\n<sparql xmlns="http://www.w3.org/2005/sparql-results#">']
    if result.kind == "ASK":
        out.append(f"<head/><boolean>{'true' if result.boolean else 'false'}</boolean>")
    else:
        out.append("<head>" + "".join(f"<variable name={quoteattr(v)}/>" for v in result.variables) + "</head>")
        out.append("<results>")
        for row in result.rows:
            cells = "".join(
                f"<binding name={quoteattr(name)}>{_xml_term(term)}</binding>"
                for name, term in zip(result.variables, row)
                if term is not None
            )
            out.append(f"<result>{cells}</result>")
        out.append("</results>")
    out.append("</sparql>\n")
    return _utf8("\n".join(out))


def _xml_term(term: Node) -> str:
    from rdflib import BNode, Literal

    if isinstance(term, Literal):
        attrs = ""
        if term.language:
            attrs = f" xml:lang={quoteattr(term.language)}"
        elif term.datatype:
            attrs = f" datatype={quoteattr(_xml_text(str(term.datatype)))}"
        return f"<literal{attrs}>{xml_escape(_xml_text(str(term)))}</literal>"
    if isinstance(term, BNode):
        return f"<bnode>{xml_escape(_xml_text(str(term)))}</bnode>"
    return f"<uri>{xml_escape(_xml_text(str(term)))}</uri>"


def _xml_text(text: str) -> str:
    """Replace the characters XML 1.0 cannot carry with U+FFFD (the other formats keep them)."""
    return _XML_INVALID.sub("\ufffd", text)


def _results_csv(result: QueryResult) -> bytes:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    if result.kind == "ASK":
        writer.writerows([["_askResult"], ["true" if result.boolean else "false"]])
    else:
        writer.writerow(result.variables)
        writer.writerows([_csv_term(term) for term in row] for row in result.rows)
    return _utf8(buffer.getvalue())


def _csv_term(term: Node | None) -> str:
    from rdflib import BNode

    if term is None:
        return ""
    return f"_:{term}" if isinstance(term, BNode) else str(term)


def _results_tsv(result: QueryResult) -> bytes:
    if result.kind == "ASK":
        return f"?_askResult\n{'true' if result.boolean else 'false'}\n".encode()
    lines = ["\t".join(f"?{v}" for v in result.variables)]
    lines += ["\t".join("" if term is None else _nt_term(term) for term in row) for row in result.rows]
    return _utf8("\n".join(lines) + "\n")


def _nt_term(term: Node) -> str:
    """A term in N-Triples syntax, with tabs and line breaks escaped so TSV cells stay one cell."""
    from rdflib import BNode, Literal

    if isinstance(term, Literal):
        text = str(term)
        for raw, escaped in (("\\", "\\\\"), ('"', '\\"'), ("\n", "\\n"), ("\r", "\\r"), ("\t", "\\t")):
            text = text.replace(raw, escaped)
        if term.language:
            return f'"{text}"@{term.language}'
        return f'"{text}"^^<{term.datatype}>' if term.datatype else f'"{text}"'
    if isinstance(term, BNode):
        return f"_:{term}"
    return f"<{term}>"


def _graph_bytes(result: QueryResult, fmt: str) -> bytes:
    from rdflib import Graph

    from kg.rdf.namespaces import bind_prefixes
    from kg.rdf.serialize import JSONLD_CONTEXT

    graph = bind_prefixes(Graph())
    for triple in result.triples:
        graph.add(triple)
    options = {"context": JSONLD_CONTEXT, "auto_compact": True} if fmt == "json-ld" else {}
    return graph.serialize(format=fmt, encoding="utf-8", **options)


# --- the query page ---------------------------------------------------------------------------


def _page(config: ServerConfig) -> tuple[bytes, str]:
    """The query page with the named queries filled in, and the Content-Security-Policy allowing its inline parts."""
    from kg import queries

    examples = [{"name": n, "question": queries.describe(n), "sparql": queries.load(n)} for n in queries.names()]
    settings = {"examples": examples, "timeout": config.timeout, "maxResults": config.max_results}
    # inside <script>, "<", ">" and "&" must not appear raw: "</script>" in a query would end the block
    data = json.dumps(settings, ensure_ascii=False).replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    page = files("kg").joinpath("_assets/sparql.html").read_text(encoding="utf-8").replace("__KG_SETTINGS__", data)
    scripts = re.findall(r"<script>(.*?)</script>", page, re.S)
    styles = re.findall(r"<style>(.*?)</style>", page, re.S)
    policy = "; ".join(
        [
            "default-src 'none'",
            "script-src " + " ".join(_csp_hash(s) for s in scripts),
            "style-src " + " ".join(_csp_hash(s) for s in styles),
            "connect-src 'self'",
            "img-src data:",
            "base-uri 'none'",
            "form-action 'none'",
            "frame-ancestors 'none'",
        ]
    )
    return page.encode("utf-8"), policy


def _csp_hash(text: str) -> str:
    digest = base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii")
    return f"'sha256-{digest}'"


# --- HTTP ---------------------------------------------------------------------------------------


class SparqlServer(ThreadingHTTPServer):
    """The HTTP side: one thread per connection, queries handed to a :class:`WorkerPool`."""

    daemon_threads = True
    block_on_close = False
    allow_reuse_address = True
    request_queue_size = 1024  # a burst of clients must queue, not be refused by a short listen backlog

    def __init__(self, pool: WorkerPool, config: ServerConfig) -> None:
        self.pool = pool
        self.config = config
        self.page, self.page_policy = _page(config)
        self._slots = threading.BoundedSemaphore(config.max_connections)
        super().__init__((config.host, config.port), _Handler)
        self.loopback_only = _is_loopback(config.host)

    @property
    def url(self) -> str:
        """The base URL clients use (the query page; the endpoint is ``url + "sparql"``)."""
        host, port = self.server_address[:2]
        shown = f"[{host}]" if ":" in str(host) else host
        return f"http://{shown}:{port}/"

    def process_request(self, request: Any, client_address: Any) -> None:
        """Serve a connection in its own thread, or answer 503 at once past the connection cap."""
        if not self._slots.acquire(blocking=False):
            body = b"too many open connections; try again\n"
            try:
                request.sendall(
                    b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\n"
                    b"Retry-After: 1\r\nConnection: close\r\nContent-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body
                )
            except OSError:
                pass
            self.shutdown_request(request)
            return
        super().process_request(request, client_address)

    def process_request_thread(self, request: Any, client_address: Any) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            self._slots.release()

    def close(self) -> None:
        """Stop listening and stop the workers."""
        self.server_close()
        self.pool.close()


class _Handler(BaseHTTPRequestHandler):
    server: SparqlServer
    protocol_version = "HTTP/1.1"
    server_version = f"kg-sparql/{__version__}"
    timeout = _IDLE_TIMEOUT

    def do_GET(self) -> None:
        url = urlsplit(self.path)
        if not self._host_allowed():
            return
        params = parse_qs(url.query, keep_blank_values=True)
        # the page, unless the request is a protocol request sent to the root
        if url.path in ("/", "/index.html") and not params:
            self._send(HTTPStatus.OK, self.server.page, "text/html; charset=utf-8",
                       {"Content-Security-Policy": self.server.page_policy, "Cache-Control": "no-cache"})
        elif url.path in ("/", "/sparql"):
            self._protocol(params)
        else:
            self._error(HTTPStatus.NOT_FOUND, f"no such path {url.path!r}; the SPARQL endpoint is /sparql")

    def do_POST(self) -> None:
        url = urlsplit(self.path)
        if not self._host_allowed():
            return
        if url.path not in ("/", "/sparql"):
            self._error(HTTPStatus.NOT_FOUND, f"no such path {url.path!r}; the SPARQL endpoint is /sparql")
            return
        body = self._body()
        if body is None:
            return
        params = parse_qs(url.query, keep_blank_values=True)
        media = (self.headers.get("Content-Type") or "").partition(";")[0].strip().lower()
        # SPARQL Update sent directly: refused whatever it says
        if media == "application/sparql-update":
            self._error(HTTPStatus.FORBIDDEN, "this endpoint is read-only: SPARQL Update is refused")
            return
        # a query sent as a form, the common POST
        if media == "application/x-www-form-urlencoded":
            for name, values in parse_qs(_decode(body), keep_blank_values=True).items():
                params.setdefault(name, []).extend(values)
        # a query sent directly as the body
        elif media == "application/sparql-query":
            params.setdefault("query", []).append(_decode(body))
        else:
            self._error(HTTPStatus.UNSUPPORTED_MEDIA_TYPE,
                        f"cannot read a {media or 'untyped'} body; send application/sparql-query "
                        "or application/x-www-form-urlencoded")
            return
        self._protocol(params)

    def _refuse_write(self) -> None:
        self._error(HTTPStatus.METHOD_NOT_ALLOWED, "this endpoint is read-only: only GET and POST queries are served",
                    {"Allow": "GET, POST"})

    do_PUT = do_DELETE = do_PATCH = _refuse_write

    def _protocol(self, params: dict[str, list[str]]) -> None:
        """Answer a SPARQL 1.1 Protocol query request."""
        # an update through the query operation's parameters
        if "update" in params or "using-graph-uri" in params or "using-named-graph-uri" in params:
            self._error(HTTPStatus.FORBIDDEN, "this endpoint is read-only: SPARQL Update is refused")
            return
        # protocol dataset parameters would need graphs this endpoint does not load
        if "default-graph-uri" in params or "named-graph-uri" in params:
            self._error(HTTPStatus.BAD_REQUEST, "default-graph-uri and named-graph-uri are not supported; "
                        "use FROM / FROM NAMED with the article graphs in the query")
            return
        texts = params.get("query", [])
        if len(texts) != 1 or not texts[0].strip():
            self._error(HTTPStatus.BAD_REQUEST, "give exactly one SPARQL query in the query parameter")
            return
        fmt = (params.get("format") or params.get("output") or [None])[0]
        started = time.perf_counter()
        try:
            result = self.server.pool.run(texts[0])
            media, serializer = choose_format(result.kind, self.headers.get("Accept"), fmt)
            body = render(result, serializer)
        except QueryRefused as exc:
            self._error(HTTPStatus.FORBIDDEN, str(exc))
            return
        except (QueryTimeout, ServerBusy) as exc:
            self._error(HTTPStatus.SERVICE_UNAVAILABLE, str(exc), {"Retry-After": "1"})
            return
        except QueryError as exc:
            self._error(HTTPStatus.BAD_REQUEST, str(exc))
            return
        except _NotAcceptable as exc:
            self._error(HTTPStatus.NOT_ACCEPTABLE, str(exc))
            return
        except KgError as exc:
            self._error(HTTPStatus.INTERNAL_SERVER_ERROR, str(exc))
            return
        except Exception as exc:  # a serializer failing on odd data must cost one answer, not the connection
            self._error(HTTPStatus.INTERNAL_SERVER_ERROR, f"cannot write the result: {_one_line(exc)}")
            return
        headers = {
            "X-KG-Max-Results": str(self.server.config.max_results),
            "X-KG-Truncated": "true" if result.truncated else "false",
            "X-KG-Query-Seconds": f"{time.perf_counter() - started:.4f}",
            "Vary": "Accept",
        }
        charset = "" if media.endswith("+json") or media == "application/json" else "; charset=utf-8"
        self._send(HTTPStatus.OK, body, media + charset, headers)

    def _body(self) -> bytes | None:
        """The request body, or None after answering 411/413 (the connection is then closed)."""
        length = self.headers.get("Content-Length")
        if self.headers.get("Transfer-Encoding") or length is None or not length.strip().isdigit():
            self.close_connection = True
            self._error(HTTPStatus.LENGTH_REQUIRED, "send the request body with a Content-Length")
            return None
        size = int(length)
        if size > self.server.config.max_request_bytes:
            self.close_connection = True
            self._error(HTTPStatus.REQUEST_ENTITY_TOO_LARGE,
                        f"request body of {size} bytes is over the limit of {self.server.config.max_request_bytes}")
            return None
        return self.rfile.read(size)

    def _host_allowed(self) -> bool:
        """While bound to loopback, serve only requests addressed to loopback (no DNS rebinding)."""
        if not self.server.loopback_only:
            return True
        host = (self.headers.get("Host") or "").strip()
        name = host.rpartition("]")[0].lstrip("[") if host.startswith("[") else host.partition(":")[0]
        # no Host at all is an old client, not a browser: rebinding attacks always carry one
        if not host or _is_loopback(name):
            return True
        self._error(HTTPStatus.FORBIDDEN, f"Host {host!r} is not served: this endpoint answers loopback names only")
        return False

    def _error(self, status: HTTPStatus, message: str, headers: dict[str, str] | None = None) -> None:
        # one line, and short: parser messages quote the query, which may be a megabyte long
        line = " ".join(message.split())
        line = line if len(line) <= _MAX_MESSAGE else line[: _MAX_MESSAGE - 1] + "…"
        self._send(status, _utf8(line + "\n"), "text/plain; charset=utf-8", headers)

    def _send(self, status: HTTPStatus, body: bytes, media: str, headers: dict[str, str] | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", media)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Referrer-Policy", "no-referrer")
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        if self.close_connection:
            self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 (the base class's name)
        if not self.server.config.quiet:
            super().log_message(format, *args)


def _decode(body: bytes) -> str:
    try:
        return body.decode("utf-8")
    except UnicodeDecodeError:
        raise QueryError("the request body is not UTF-8") from None


# --- running ------------------------------------------------------------------------------------


def make_server(target: str, config: ServerConfig) -> SparqlServer:
    """Start the workers on ``target`` and bind the HTTP server (not yet serving).

    Raises:
        GraphError: When the graph cannot be opened.
        KgError: When the address cannot be bound.
    """
    pool = WorkerPool(target, workers=config.workers, timeout=config.timeout, max_results=config.max_results)
    pool.start()
    try:
        return SparqlServer(pool, config)
    except OSError as exc:
        pool.close()
        raise KgError(f"cannot listen on {config.host}:{config.port}: {exc.strerror or exc}") from None


def serve(target: str, config: ServerConfig, on_ready: Callable[[SparqlServer], None] | None = None) -> None:
    """Serve ``target`` until interrupted (Ctrl+C or SIGTERM), then stop the workers.

    Args:
        target: A graph file, an on-disk store folder or a SPARQL server URL.
        config: Address and limits.
        on_ready: Called once the workers hold the graph and the port is bound (to print the URL).
    """
    server = make_server(target, config)

    def stop(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, stop)
    try:
        if on_ready is not None:
            on_ready(server)
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        signal.signal(signal.SIGTERM, previous)
        server.close()


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split()) or type(exc).__name__
