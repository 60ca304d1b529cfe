"""Worker processes that each hold the graph and answer one query at a time; one that overruns is killed."""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
import threading
import time
from collections import deque
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from kg.errors import GraphError, KgError, QueryError, QueryTimeout
from kg.graph import KnowledgeGraph
from kg.server.readonly import QueryRefused, confine_network
from kg.server.results import QueryResult, make_runner

__all__ = ["ServerBusy", "WorkerPool"]

#: Seconds a new worker may take to open the graph before the server gives up on it.
_STARTUP_TIMEOUT = 600.0


class ServerBusy(KgError):
    """No worker became free in time."""


def _open_graph(target: str) -> KnowledgeGraph:
    """Open a graph file, store folder (read-only: every worker opens it) or SPARQL server URL."""
    return KnowledgeGraph.open(target, read_only=True)


def _worker_main(conn: Any, target: str, max_results: int, allowed_host: str | None) -> None:
    """A worker process: open the graph, then answer one query at a time until the pipe closes."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent stops workers; Ctrl+C must not
    _exit_with_parent(os.getppid())
    confine_network(allowed_host)
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


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split()) or type(exc).__name__
