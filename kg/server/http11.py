"""HTTP/1.1 on asyncio for ``kg serve``: requests read off a connection, answers written back in one piece.

Why its own: ``http.server`` gives each connection a thread, and with a hundred
keep-alive clients those threads took turns at the GIL while the worker processes
waited for their next query. Here one event loop reads every connection, and what a
SPARQL endpoint needs of HTTP/1.1 is small: a request line, headers, a body sized by
Content-Length, keep-alive, and an answer with Content-Length. Requests on one
connection are answered in order; a connection idle for :data:`IDLE_TIMEOUT` seconds
is closed.
"""

from __future__ import annotations

import asyncio
import re
import sys
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from email.utils import formatdate
from http import HTTPStatus
from typing import Any

__all__ = ["IDLE_TIMEOUT", "MAX_LINE", "Connection", "Request", "Response"]

#: Seconds an idle keep-alive connection is held open.
IDLE_TIMEOUT = 30.0

#: Bytes of a request line at most (414 beyond), and of the whole header block (431 beyond), as http.server.
MAX_LINE = 65536
_MAX_HEAD = 4 * MAX_LINE

_BLANK_LINE = re.compile(rb"\r?\n\r?\n")


@dataclass
class Request:
    """One HTTP request, its header names in lower case."""

    method: str
    target: str
    version: str
    headers: dict[str, str]
    client: str
    body: bytes = b""

    @property
    def line(self) -> str:
        return f"{self.method} {self.target} {self.version}"


@dataclass
class Response:
    """An answer: status, body, media type and extra headers; ``close`` ends the connection after it."""

    status: HTTPStatus
    body: bytes
    media: str = "text/plain; charset=utf-8"
    headers: dict[str, str] = field(default_factory=dict)
    close: bool = False


Handler = Callable[[Request], Awaitable[Response]]
"""What the server does with a request: the SPARQL endpoint's routes (:mod:`kg.server.endpoint`)."""


class Connection(asyncio.Protocol):
    """One client connection: requests parsed from the bytes read, handed to ``handler`` one at a time.

    Args:
        handler: Answers a request.
        server_name: The Server header.
        max_body: Largest request body accepted (413 beyond).
        admit: Called when the connection opens: False turns it away with 503 (the connection cap).
        leave: Called once when an admitted connection closes.
        quiet: Do not log each request on stderr.
    """

    def __init__(self, handler: Handler, *, server_name: str, max_body: int, admit: Callable[[], bool],
                 leave: Callable[[], None], quiet: bool) -> None:
        self._handler = handler
        self._server_name = server_name
        self._max_body = max_body
        self._admit = admit
        self._leave = leave
        self._quiet = quiet
        self._buffer = bytearray()
        self._transport: asyncio.Transport | None = None
        self._busy = False  # a request is being answered: the next waits in the buffer
        self._paused = False  # reading paused: the buffer holds more than a request
        self._admitted = False
        self._idle: asyncio.TimerHandle | None = None
        self._client = "-"
        self._continued = False  # "100 Continue" sent for the request being read

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self._transport = transport  # type: ignore[assignment]
        peer = transport.get_extra_info("peername")
        self._client = str(peer[0]) if peer else "-"
        if not self._admit():
            self._write(Response(HTTPStatus.SERVICE_UNAVAILABLE, b"too many open connections; try again\n",
                                 headers={"Retry-After": "1"}, close=True), None)
            return
        self._admitted = True
        self._idle = asyncio.get_running_loop().call_later(IDLE_TIMEOUT, self._close_idle)

    def connection_lost(self, exc: Exception | None) -> None:
        if self._idle is not None:
            self._idle.cancel()
        if self._admitted:
            self._admitted = False
            self._leave()
        self._transport = None

    def data_received(self, data: bytes) -> None:
        self._buffer += data
        if not self._busy:
            self._next()

    def _close_idle(self) -> None:
        """Close a connection idle for IDLE_TIMEOUT; one waiting for its answer (a long query) is not idle."""
        if self._busy:
            self._idle = asyncio.get_running_loop().call_later(IDLE_TIMEOUT, self._close_idle)
        elif self._transport is not None:
            self._transport.close()

    def _next(self) -> None:
        """Start on the next whole request in the buffer, if there is one."""
        if self._transport is None or self._transport.is_closing():
            return
        parsed = self._parse()
        if parsed is None:
            return
        if isinstance(parsed, Response):
            self._write(parsed, None)
            return
        self._busy = True
        if len(self._buffer) > _MAX_HEAD:  # a client sending on without reading answers waits in its socket
            self._transport.pause_reading()
            self._paused = True
        asyncio.get_running_loop().create_task(self._answer(parsed))

    async def _answer(self, request: Request) -> None:
        try:
            response = await self._handler(request)
        except Exception as exc:  # a bug in kg costs one answer, not the server
            message = " ".join(str(exc).split()) or type(exc).__name__
            response = Response(HTTPStatus.INTERNAL_SERVER_ERROR, f"internal error: {message}\n".encode(), close=True)
        self._write(response, request)
        self._busy = False
        if self._transport is not None and not self._transport.is_closing():
            if self._paused:
                self._transport.resume_reading()
                self._paused = False
            if self._idle is not None:
                self._idle.cancel()
                self._idle = asyncio.get_running_loop().call_later(IDLE_TIMEOUT, self._close_idle)
            self._next()

    def _parse(self) -> Request | Response | None:
        """The next request whole, an error answer (the connection then closes), or None to read on."""
        buffer = self._buffer
        end = _BLANK_LINE.search(buffer)
        if end is None:
            first = buffer.find(b"\n")
            if len(buffer) > MAX_LINE and not 0 <= first <= MAX_LINE:
                return _refuse(HTTPStatus.REQUEST_URI_TOO_LONG, "request line too long")
            if len(buffer) > _MAX_HEAD:
                return _refuse(HTTPStatus.REQUEST_HEADER_FIELDS_TOO_LARGE, "request headers too large")
            return None
        lines = bytes(buffer[: end.start()]).decode("latin-1").split("\n")
        line = lines[0].rstrip("\r")
        if len(line) > MAX_LINE:
            return _refuse(HTTPStatus.REQUEST_URI_TOO_LONG, "request line too long")
        parts = line.split()
        if len(parts) != 3 or not parts[2].startswith("HTTP/1."):
            return _refuse(HTTPStatus.BAD_REQUEST, f"bad request line {line[:100]!r}")
        headers: dict[str, str] = {}
        for header in lines[1:]:
            name, colon, value = header.partition(":")
            if not colon or not name.strip():
                return _refuse(HTTPStatus.BAD_REQUEST, "bad header line")
            headers[name.strip().lower()] = value.strip()
        request = Request(parts[0], parts[1], parts[2], headers, self._client)
        length = headers.get("content-length")
        if "transfer-encoding" in headers or (length is None and request.method == "POST") or (
            length is not None and not length.isdigit()
        ):
            return _refuse(HTTPStatus.LENGTH_REQUIRED, "send the request body with a Content-Length")
        size = int(length or 0)
        if size > self._max_body:
            return _refuse(HTTPStatus.REQUEST_ENTITY_TOO_LARGE,
                           f"request body of {size} bytes is over the limit of {self._max_body}")
        if len(buffer) - end.end() < size:
            if headers.get("expect", "").lower() == "100-continue" and not self._continued and self._transport:
                self._transport.write(b"HTTP/1.1 100 Continue\r\n\r\n")  # the client waits for this to send the body
                self._continued = True
            return None
        self._continued = False
        request.body = bytes(buffer[end.end() : end.end() + size])
        del buffer[: end.end() + size]
        return request

    def _write(self, response: Response, request: Request | None) -> None:
        """The whole answer in one write (no Nagle wait between headers and body)."""
        transport = self._transport
        if transport is None or transport.is_closing():
            return
        close = response.close or request is None or _closes(request)
        status = response.status
        head = [
            f"HTTP/1.1 {status.value} {status.phrase}",
            f"Server: {self._server_name}",
            f"Date: {_date()}",
            f"Content-Type: {response.media}",
            f"Content-Length: {len(response.body)}",
            "X-Content-Type-Options: nosniff",
            "Referrer-Policy: no-referrer",
            *(f"{name}: {value}" for name, value in response.headers.items()),
        ]
        if close:
            head.append("Connection: close")
        body = b"" if request is not None and request.method == "HEAD" else response.body
        transport.write("\r\n".join(head).encode("latin-1") + b"\r\n\r\n" + body)
        if not self._quiet:
            line = request.line if request is not None else "-"
            stamp = time.strftime("%d/%b/%Y %H:%M:%S")
            sys.stderr.write(f'{self._client} - - [{stamp}] "{line}" {status.value} -\n')
        if close:
            transport.close()


def _refuse(status: HTTPStatus, message: str) -> Response:
    return Response(status, f"{message}\n".encode(), close=True)


def _closes(request: Request) -> bool:
    """Whether the client asked for the connection to end after this answer (HTTP/1.0 does unless kept alive)."""
    connection = request.headers.get("connection", "").lower()
    if request.version == "HTTP/1.0":
        return connection != "keep-alive"
    return connection == "close"


_clock: list[Any] = [0, ""]


def _date() -> str:
    """The Date header, made once a second."""
    now = int(time.time())
    if _clock[0] != now:
        _clock[0], _clock[1] = now, formatdate(now, usegmt=True)
    return str(_clock[1])
