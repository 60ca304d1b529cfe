"""The worker pool of ``kg serve``, driven by the server's event loop.

Why it is built this way:

- **Worker processes, kept open.** Each opens the graph once and answers one query at
  a time (:mod:`kg.server.worker`); a query past the time limit has its worker killed
  (SIGKILL: nothing in the query can swallow it) and a new one started in the
  background while the others keep answering.
- **One event loop, no thread per request.** The pipes of the workers are watched by
  the same loop that serves the connections: an answer is sent on, and the worker
  handed its next query, in one callback. With a thread per connection (the first
  design), a worker sat idle while the waiting threads took turns at the GIL; kg
  served 4-6 times fewer answers a second than Oxigraph's own server.
- **First come, first served.** A freed worker goes straight to the oldest request
  waiting for one; a request that waits past the time limit gets :class:`ServerBusy`.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import sys
import threading
from collections import deque
from typing import Any
from urllib.parse import urlsplit

from kg.errors import GraphError, KgError, QueryError, QueryTimeout
from kg.server.formats import NotAcceptable
from kg.server.readonly import QueryRefused
from kg.server.worker import Answer, worker_main

__all__ = ["ServerBusy", "WorkerPool"]

#: Seconds a new worker may take to open the graph before the server gives up on it.
_STARTUP_TIMEOUT = 600.0

#: Seconds a killed worker is given to be reaped.
_REAP = 5.0

#: A worker's failure kinds, as the exception the caller gets.
_FAILURES: dict[str, type[KgError]] = {"refused": QueryRefused, "invalid": QueryError, "unacceptable": NotAcceptable}


class ServerBusy(KgError):
    """No worker became free in time."""


class _Job:
    """A query waiting for a worker or running on one: what the worker is sent, and the answer owed."""

    __slots__ = ("busy", "owed", "query")

    def __init__(self, query: tuple[str, str | None, str | None], owed: asyncio.Future[tuple[str, Any]]) -> None:
        self.query = query
        self.owed = owed
        self.busy: asyncio.TimerHandle | None = None  # while it waits: when it gives up


class _Worker:
    """One worker process, its pipe, and while it runs a query: that query and its time limit."""

    __slots__ = ("conn", "job", "limit", "process")

    def __init__(self, process: Any, conn: Any) -> None:
        self.process = process
        self.conn = conn
        self.job: _Job | None = None
        self.limit: asyncio.TimerHandle | None = None


class WorkerPool:
    """Worker processes that each hold the graph; a query past the time limit has its worker killed.

    :meth:`start` blocks until every worker has opened the graph; :meth:`attach` then
    hands the pool to an event loop, on which :meth:`run` is awaited.

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
        self._loop: asyncio.AbstractEventLoop | None = None
        self._ready: list[_Worker] = []  # workers that hold the graph and answer
        self._waiting: deque[_Job] = deque()  # queries no worker has room for yet, oldest first
        self._live: set[_Worker] = set()
        self._lock = threading.Lock()  # _live and _closed: replacements are started on other threads
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
                self._ready.append(worker)
        except KgError:
            self.close()
            raise

    def attach(self, loop: asyncio.AbstractEventLoop) -> None:
        """Serve requests on ``loop`` (the one :meth:`run` is awaited on)."""
        self._loop = loop
        for worker in self._ready:
            loop.add_reader(worker.conn.fileno(), self._answered, worker)

    async def run(self, sparql: str, accept: str | None = None, fmt: str | None = None) -> Answer:
        """Run one query on a free worker, answered as ``accept`` (an Accept header) or ``fmt`` asks.

        Raises:
            ServerBusy: No worker was free within the time limit.
            QueryTimeout: The query ran past the limit (its worker was killed and replaced).
            QueryRefused: Updates and SERVICE.
            QueryError: A query that does not parse or cannot run.
            NotAcceptable: No format asked for suits the result.
            KgError: The worker failed or died.
        """
        loop = self._loop
        assert loop is not None, "attach the pool to an event loop first"
        job = _Job((sparql, accept, fmt), loop.create_future())
        worker = self._idle()
        if worker is not None:
            self._dispatch(worker, job)
        else:
            job.busy = loop.call_later(self.timeout, self._gave_up, job)
            self._waiting.append(job)
        status, payload = await job.owed
        if status == "ok":
            return payload  # type: ignore[no-any-return]
        # the status names the kind of failure the worker met
        raise _FAILURES.get(status, KgError)(payload)

    def close(self) -> None:
        """Stop every worker (idle or busy) and start no more."""
        with self._lock:
            self._closed = True
            workers = list(self._live)
        for worker in workers:
            self._kill(worker)

    def _idle(self) -> _Worker | None:
        """A worker running no query, or None."""
        return next((worker for worker in self._ready if worker.job is None), None)

    def _dispatch(self, worker: _Worker, job: _Job) -> None:
        """Send the worker a query; its time limit starts now and belongs to the worker.

        So a query whose client has left still stops at the limit.
        """
        assert self._loop is not None
        worker.job = job
        try:
            worker.conn.send(job.query)
        except OSError:
            self._lost(worker, KgError("the worker for this query died; it is being replaced"))
            return
        worker.limit = self._loop.call_later(self.timeout, self._overran, worker)

    def _next(self, worker: _Worker) -> None:
        """Give a free worker the oldest query still waiting, if there is one."""
        while self._waiting:
            job = self._waiting.popleft()
            if job.busy is not None:
                job.busy.cancel()
            if not job.owed.done():  # one given up on is gone from the queue already; a cancelled one is skipped
                self._dispatch(worker, job)
                return

    def _gave_up(self, job: _Job) -> None:
        if not job.owed.done():
            self._waiting.remove(job)
            job.owed.set_exception(ServerBusy(f"all {self.size} workers stayed busy for {self.timeout:g} s; try again"))

    def _answered(self, worker: _Worker) -> None:
        """The worker's pipe is readable: the answer to its query, or its end (it died).

        The worker is given its next query here, in this callback: handed over through
        the waiting request's task instead, it sat idle while the loop went through
        every other ready connection first.
        """
        try:
            reply = worker.conn.recv()
        except (EOFError, OSError):
            self._lost(worker, KgError("the worker running this query died; it is being replaced"))
            return
        if worker.limit is not None:
            worker.limit.cancel()
        job, worker.job, worker.limit = worker.job, None, None
        self._next(worker)
        if job is not None and not job.owed.done():  # done: the request was cancelled, the answer is dropped
            job.owed.set_result(reply)

    def _overran(self, worker: _Worker) -> None:
        worker.limit = None
        self._lost(worker, QueryTimeout(f"query stopped at the time limit of {self.timeout:g} s"))

    def _lost(self, worker: _Worker, error: KgError) -> None:
        """A worker killed at the limit, or dead: its query fails, and a new worker is started."""
        if worker in self._ready:
            self._ready.remove(worker)
        self._retire(worker)
        job, worker.job = worker.job, None
        if job is not None and not job.owed.done():
            job.owed.set_exception(error)

    def _retire(self, worker: _Worker) -> None:
        """Kill a worker and start a replacement in the background (opening the graph takes time)."""
        if self._loop is not None:
            self._loop.remove_reader(worker.conn.fileno())
        worker.process.kill()
        with self._lock:
            if self._closed:
                return
        threading.Thread(target=self._replace, args=(worker,), daemon=True, name="kg-serve-respawn").start()

    def _replace(self, dead: _Worker) -> None:
        """On a thread of its own: reap the dead worker, start another and hand it to the loop once ready."""
        self._kill(dead)
        worker = self._spawn()
        try:
            self._await_ready(worker)
        except KgError as exc:
            self._kill(worker)
            with self._lock:
                closed = self._closed
            if not closed:  # a worker killed while starting because the pool closed is no news
                sys.stderr.write(f"kg serve: could not replace a worker: {exc}\n")
            return
        with self._lock:
            closed = self._closed
        if closed or self._loop is None or self._loop.is_closed():
            self._kill(worker)
            return
        try:
            self._loop.call_soon_threadsafe(self._adopt, worker)
        except RuntimeError:  # the loop closed meanwhile
            self._kill(worker)

    def _adopt(self, worker: _Worker) -> None:
        assert self._loop is not None
        self._loop.add_reader(worker.conn.fileno(), self._answered, worker)
        self._ready.append(worker)
        self._next(worker)

    def _spawn(self) -> _Worker:
        parent_end, child_end = self._context.Pipe(duplex=True)
        process = self._context.Process(
            target=worker_main,
            args=(child_end, self.target, self.max_results, self._allowed_host),
            name="kg-serve-worker",
            daemon=True,
        )
        process.start()
        child_end.close()
        worker = _Worker(process, parent_end)
        with self._lock:
            self._live.add(worker)
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

    def _kill(self, worker: _Worker) -> None:
        with self._lock:
            self._live.discard(worker)
        worker.process.kill()
        worker.process.join(timeout=_REAP)
        worker.conn.close()
