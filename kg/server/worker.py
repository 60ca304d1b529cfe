"""What runs in a worker process of ``kg serve``: open the graph once, then answer one query at a time.

A worker runs the query and also writes the answer in the format asked for, so the
HTTP side, one process for every connection, only moves bytes. It exits with the
server, and cannot open a network connection (:func:`kg.server.readonly.confine_network`).
"""

from __future__ import annotations

import os
import signal
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pyoxigraph as ox

from kg.errors import KgError
from kg.graph import KnowledgeGraph
from kg.rdf.store import OxigraphBackend, is_store_dir
from kg.server.formats import NotAcceptable, choose_format, render
from kg.server.native import native_select_json
from kg.server.readonly import QueryRefused, confine_network, require_read_only
from kg.server.results import make_runner, make_store_runner, query_text

__all__ = ["Answer", "worker_main"]


@dataclass(frozen=True)
class Answer:
    """A query's answer as the worker wrote it: what the HTTP side sends as it is.

    Attributes:
        media: The media type chosen for it.
        body: The serialized result.
        truncated: True when rows or triples beyond the result cap were cut.
    """

    media: str
    body: bytes
    truncated: bool


class _Answerer:
    """Answers queries on one graph: a store's SELECTs as Oxigraph writes them when it can (:mod:`kg.server.native`)."""

    def __init__(self, target: str, max_results: int) -> None:
        self.max_results = max_results
        self.store: ox.Store | None = None
        if is_store_dir(target):
            self.store = OxigraphBackend(Path(target), read_only=True).store
            self.run = make_store_runner(self.store, max_results)
        else:
            self.run = make_runner(KnowledgeGraph.open(target, read_only=True), max_results)

    def __call__(self, sparql: str, accept: str | None, fmt: str | None) -> Answer:
        if self.store is not None:
            native = self._native(self.store, sparql, accept, fmt)
            if native is not None:
                return native
        result = self.run(sparql)
        media, serializer = choose_format(result.kind, accept, fmt)
        return Answer(media, render(result, serializer), result.truncated)

    def _native(self, store: ox.Store, sparql: str, accept: str | None, fmt: str | None) -> Answer | None:
        try:
            media, serializer = choose_format("SELECT", accept, fmt)
        except NotAcceptable:
            return None  # maybe no SELECT: the usual way says what is offered
        if serializer != "json":
            return None
        require_read_only(sparql)
        body = native_select_json(store, query_text(sparql), self.max_results)
        return None if body is None else Answer(media, body, False)


def worker_main(conn: Any, target: str, max_results: int, allowed_host: str | None) -> None:
    """A worker process: open the graph, say ``ready``, then answer one query at a time until the pipe closes."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent stops workers; Ctrl+C must not
    _exit_with_parent(os.getppid())
    confine_network(allowed_host)
    try:
        answer = _Answerer(target, max_results)
        answer("ASK {}", None, None)  # the first query pays for lazy imports; pay it before serving
    except Exception as exc:  # any failure to open is reported to the parent as one line
        conn.send(("error", str(exc) if isinstance(exc, KgError) else f"{target}: {_one_line(exc)}"))
        return
    conn.send(("ready", None))
    while True:
        try:
            sparql, accept, fmt = conn.recv()
        except (EOFError, OSError):
            return
        try:
            reply: tuple[str, Any] = ("ok", answer(sparql, accept, fmt))
        except QueryRefused as exc:
            reply = ("refused", str(exc))
        except NotAcceptable as exc:
            reply = ("unacceptable", str(exc))
        except KgError as exc:
            reply = ("invalid", str(exc))
        except Exception as exc:  # a backend or serializer bug must not kill the worker; the client gets a 500
            reply = ("failed", f"cannot answer: {_one_line(exc)}")
        conn.send(reply)


def _exit_with_parent(parent: int) -> None:
    """Exit when the server process is gone, even in the middle of a long query."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, daemon=True, name="kg-parent-watch").start()


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split()) or type(exc).__name__
