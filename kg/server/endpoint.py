"""The SPARQL endpoint of ``kg serve``: what each request gets, and the server that runs it all on one event loop."""

from __future__ import annotations

import asyncio
import signal
import socket
import threading
import time
from collections.abc import Callable
from http import HTTPStatus
from typing import Any
from urllib.parse import parse_qs, urlsplit

from kg import __version__
from kg.errors import KgError, QueryError, QueryTimeout
from kg.server.config import ServerConfig
from kg.server.formats import NotAcceptable, utf8
from kg.server.http11 import Connection, Request, Response
from kg.server.page import page
from kg.server.pool import ServerBusy, WorkerPool
from kg.server.readonly import QueryRefused, is_loopback

__all__ = ["SparqlServer", "make_server", "serve"]

#: Characters of an error message sent back at most.
_MAX_MESSAGE = 1000

#: Where the endpoint answers (the root too: some clients are given the server's base URL).
_ENDPOINT_PATHS = ("/", "/sparql")

#: Methods that would write, each refused with 405.
_WRITES = frozenset({"PUT", "DELETE", "PATCH"})


class SparqlServer:
    """The endpoint bound to its address: :meth:`serve_forever` runs it, :meth:`shutdown` stops that from another thread.

    One event loop reads every connection and the workers' pipes
    (:mod:`kg.server.http11`, :mod:`kg.server.pool`); queries run in the pool's processes.
    """

    def __init__(self, pool: WorkerPool, config: ServerConfig) -> None:
        self.pool = pool
        self.config = config
        self.page, self.page_policy = page(config)
        family = socket.AF_INET6 if ":" in config.host else socket.AF_INET
        # a burst of clients must queue, not be refused by a short listen backlog
        self.socket = socket.create_server((config.host, config.port), family=family, backlog=1024)
        self.server_address: tuple[Any, ...] = self.socket.getsockname()
        self.loopback_only = is_loopback(config.host)
        self._open = 0
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stopped = threading.Event()
        self._stopped.set()

    @property
    def url(self) -> str:
        """The base URL clients use (the query page; the endpoint is ``url + "sparql"``)."""
        host, port = self.server_address[:2]
        shown = f"[{host}]" if ":" in str(host) else host
        return f"http://{shown}:{port}/"

    def serve_forever(self) -> None:
        """Answer requests until :meth:`shutdown`, or, run on the main thread, Ctrl+C or SIGTERM."""
        loop = asyncio.new_event_loop()
        self._loop = loop
        self._stopped.clear()
        name = f"kg-sparql/{__version__}"
        listening = loop.run_until_complete(loop.create_server(
            lambda: Connection(self.respond, server_name=name, max_body=self.config.max_request_bytes,
                               admit=self._admit, leave=self._leave, quiet=self.config.quiet),
            sock=self.socket, backlog=1024))
        self.pool.attach(loop)
        if threading.current_thread() is threading.main_thread():
            # Ctrl+C and SIGTERM stop the loop between callbacks, not inside one (which left a traceback)
            for number in (signal.SIGINT, signal.SIGTERM):
                loop.add_signal_handler(number, loop.stop)
        try:
            loop.run_forever()
        finally:
            listening.close()
            for task in asyncio.all_tasks(loop):
                task.cancel()
            loop.run_until_complete(asyncio.sleep(0))
            loop.close()
            self._loop = None
            self._stopped.set()

    def shutdown(self) -> None:
        """Stop :meth:`serve_forever` and wait until it has returned."""
        loop = self._loop
        if loop is not None:
            try:
                loop.call_soon_threadsafe(loop.stop)
            except RuntimeError:  # closed meanwhile
                pass
        self._stopped.wait()

    def close(self) -> None:
        """Stop serving and listening, and stop the workers."""
        self.shutdown()
        self.socket.close()
        self.pool.close()

    def _admit(self) -> bool:
        if self._open >= self.config.max_connections:
            return False
        self._open += 1
        return True

    def _leave(self) -> None:
        self._open -= 1

    async def respond(self, request: Request) -> Response:
        """The answer to one request: the page, a query's result, or a one-line error."""
        url = urlsplit(request.target)
        refused = self._foreign_host(request)
        if refused is not None:
            return refused
        if request.method in _WRITES:
            return _error(HTTPStatus.METHOD_NOT_ALLOWED, "this endpoint is read-only: only GET and POST queries "
                          "are served", {"Allow": "GET, POST"})
        if request.method not in ("GET", "POST"):
            return _error(HTTPStatus.NOT_IMPLEMENTED, f"unsupported method {request.method!r}", {"Allow": "GET, POST"})
        if url.path not in (*_ENDPOINT_PATHS, "/index.html"):
            return _error(HTTPStatus.NOT_FOUND, f"no such path {url.path!r}; the SPARQL endpoint is /sparql")
        params = parse_qs(url.query, keep_blank_values=True)
        # the page, unless the request is a protocol request sent to the root
        if request.method == "GET" and url.path in ("/", "/index.html") and not params:
            return Response(HTTPStatus.OK, self.page, "text/html; charset=utf-8",
                            {"Content-Security-Policy": self.page_policy, "Cache-Control": "no-cache"})
        if url.path not in _ENDPOINT_PATHS:
            return _error(HTTPStatus.NOT_FOUND, f"no such path {url.path!r}; the SPARQL endpoint is /sparql")
        if request.method == "POST":
            problem = _read_body(request, params)
            if problem is not None:
                return problem
        return await self._protocol(request, params)

    async def _protocol(self, request: Request, params: dict[str, list[str]]) -> Response:
        """Answer a SPARQL 1.1 Protocol query request."""
        # an update through the query operation's parameters
        if "update" in params or "using-graph-uri" in params or "using-named-graph-uri" in params:
            return _error(HTTPStatus.FORBIDDEN, "this endpoint is read-only: SPARQL Update is refused")
        # protocol dataset parameters would need graphs this endpoint does not load
        if "default-graph-uri" in params or "named-graph-uri" in params:
            return _error(HTTPStatus.BAD_REQUEST, "default-graph-uri and named-graph-uri are not supported; "
                          "use FROM / FROM NAMED with the article graphs in the query")
        texts = params.get("query", [])
        if len(texts) != 1 or not texts[0].strip():
            return _error(HTTPStatus.BAD_REQUEST, "give exactly one SPARQL query in the query parameter")
        fmt = (params.get("format") or params.get("output") or [None])[0]
        started = time.perf_counter()
        try:
            answer = await self.pool.run(texts[0], request.headers.get("accept"), fmt)
        except QueryRefused as exc:
            return _error(HTTPStatus.FORBIDDEN, str(exc))
        except (QueryTimeout, ServerBusy) as exc:
            return _error(HTTPStatus.SERVICE_UNAVAILABLE, str(exc), {"Retry-After": "1"})
        except QueryError as exc:
            return _error(HTTPStatus.BAD_REQUEST, str(exc))
        except NotAcceptable as exc:
            return _error(HTTPStatus.NOT_ACCEPTABLE, str(exc))
        except KgError as exc:
            return _error(HTTPStatus.INTERNAL_SERVER_ERROR, str(exc))
        headers = {
            "X-KG-Max-Results": str(self.config.max_results),
            "X-KG-Truncated": "true" if answer.truncated else "false",
            "X-KG-Query-Seconds": f"{time.perf_counter() - started:.4f}",
            "Vary": "Accept",
        }
        media = answer.media
        charset = "" if media.endswith("+json") or media == "application/json" else "; charset=utf-8"
        return Response(HTTPStatus.OK, answer.body, media + charset, headers)

    def _foreign_host(self, request: Request) -> Response | None:
        """While bound to loopback, serve only requests addressed to loopback (no DNS rebinding)."""
        if not self.loopback_only:
            return None
        host = request.headers.get("host", "")
        name = host.rpartition("]")[0].lstrip("[") if host.startswith("[") else host.partition(":")[0]
        # no Host at all is an old client, not a browser: rebinding attacks always carry one
        if not host or is_loopback(name):
            return None
        return _error(HTTPStatus.FORBIDDEN, f"Host {host!r} is not served: this endpoint answers loopback names only")


def _read_body(request: Request, params: dict[str, list[str]]) -> Response | None:
    """Add a POST body's query to ``params``; an error answer when the body is not a query."""
    media = request.headers.get("content-type", "").partition(";")[0].strip().lower()
    # SPARQL Update sent directly: refused whatever it says
    if media == "application/sparql-update":
        return _error(HTTPStatus.FORBIDDEN, "this endpoint is read-only: SPARQL Update is refused")
    try:
        text = request.body.decode("utf-8")
    except UnicodeDecodeError:
        return _error(HTTPStatus.BAD_REQUEST, "the request body is not UTF-8")
    # a query sent as a form, the common POST
    if media == "application/x-www-form-urlencoded":
        for name, values in parse_qs(text, keep_blank_values=True).items():
            params.setdefault(name, []).extend(values)
    # a query sent directly as the body
    elif media == "application/sparql-query":
        params.setdefault("query", []).append(text)
    else:
        return _error(HTTPStatus.UNSUPPORTED_MEDIA_TYPE, f"cannot read a {media or 'untyped'} body; send "
                      "application/sparql-query or application/x-www-form-urlencoded")
    return None


def _error(status: HTTPStatus, message: str, headers: dict[str, str] | None = None) -> Response:
    """One line, and short: parser messages quote the query, which may be a megabyte long."""
    line = " ".join(message.split())
    line = line if len(line) <= _MAX_MESSAGE else line[: _MAX_MESSAGE - 1] + "…"
    return Response(status, utf8(line + "\n"), headers=headers or {})


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
    try:
        if on_ready is not None:
            on_ready(server)
        server.serve_forever()
    except KeyboardInterrupt:  # Ctrl+C before the loop ran
        pass
    finally:
        server.close()
