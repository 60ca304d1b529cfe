"""The HTTP side of ``kg serve``: SPARQL 1.1 Protocol requests in, answers from the worker pool out."""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Callable
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

from kg import __version__
from kg.errors import KgError, QueryError, QueryTimeout
from kg.server.config import ServerConfig
from kg.server.formats import NotAcceptable, choose_format, render, utf8
from kg.server.page import page
from kg.server.readonly import QueryRefused, is_loopback
from kg.server.workers import ServerBusy, WorkerPool

__all__ = ["SparqlServer", "make_server", "serve"]

#: Characters of an error message sent back at most.
_MAX_MESSAGE = 1000

#: Seconds an idle keep-alive connection is held open.
_IDLE_TIMEOUT = 30.0


class SparqlServer(ThreadingHTTPServer):
    """The HTTP side: one thread per connection, queries handed to a :class:`WorkerPool`."""

    daemon_threads = True
    block_on_close = False
    allow_reuse_address = True
    request_queue_size = 1024  # a burst of clients must queue, not be refused by a short listen backlog

    def __init__(self, pool: WorkerPool, config: ServerConfig) -> None:
        self.pool = pool
        self.config = config
        self.page, self.page_policy = page(config)
        self._slots = threading.BoundedSemaphore(config.max_connections)
        super().__init__((config.host, config.port), _Handler)
        self.loopback_only = is_loopback(config.host)

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
        except NotAcceptable as exc:
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
        if not host or is_loopback(name):
            return True
        self._error(HTTPStatus.FORBIDDEN, f"Host {host!r} is not served: this endpoint answers loopback names only")
        return False

    def _error(self, status: HTTPStatus, message: str, headers: dict[str, str] | None = None) -> None:
        # one line, and short: parser messages quote the query, which may be a megabyte long
        line = " ".join(message.split())
        line = line if len(line) <= _MAX_MESSAGE else line[: _MAX_MESSAGE - 1] + "…"
        self._send(status, utf8(line + "\n"), "text/plain; charset=utf-8", headers)

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
