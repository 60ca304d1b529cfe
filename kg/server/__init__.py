"""``kg serve``: a read-only SPARQL 1.1 Protocol endpoint over a kg graph, with a query page.

Why it is built this way:

- **Queries run in worker processes** (:mod:`kg.server.worker`, :mod:`kg.server.pool`).
  A query cannot be stopped reliably from another thread (rdflib computes under the
  GIL; Oxigraph in native code), so in-process a pathological query would hold the
  server. Each worker process opens the graph once, answers one query at a time and
  writes the answer in the format asked for; a query that passes the time limit has
  its worker killed (SIGKILL) and replaced, while the other workers keep answering.
- **One event loop moves the bytes** (:mod:`kg.server.http11`, :mod:`kg.server.endpoint`):
  it reads every connection and every worker's pipe, so a worker's answer goes out and
  its next query in at once, with no thread per connection waiting for the GIL.
- **The backend is one small interface.** :func:`make_runner` turns any
  :class:`~kg.graph.KnowledgeGraph` into ``run_query(sparql) -> QueryResult``, so the
  server neither knows nor cares whether the graph is an in-memory rdflib Dataset, an
  on-disk store or a remote SPARQL server; on a store, :func:`make_store_runner`
  reads Oxigraph's answers straight, without turning each term into rdflib's.
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

Only the standard library serves HTTP (asyncio).
"""

from kg.server.config import DEFAULT_PORT, ServerConfig
from kg.server.endpoint import SparqlServer, make_server, serve
from kg.server.formats import choose_format, render
from kg.server.pool import ServerBusy, WorkerPool
from kg.server.readonly import QueryRefused, refusal
from kg.server.results import QueryResult, QueryRunner, make_runner, make_store_runner

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
    "make_store_runner",
    "make_server",
    "refusal",
    "render",
    "serve",
]
