"""Queries with a time limit: each runs in a child process, killed when it overruns.

Why a process and not a thread: a thread cannot be stopped reliably. kg used to raise
an asynchronous exception in the query's thread; when it landed in a garbage-collector
callback it was swallowed, and the "stopped" query ran on with its memory growing
(+30 MB/s measured after ``QueryTimeout`` was raised). Oxigraph's engine is native code
that no exception interrupts at all, and pyoxigraph's ``Store.query`` has no time limit
or cancellation of its own (0.5: Oxigraph's cancellation token is in its Rust API and
its HTTP server only). A killed process always stops, and its memory goes with it.

- **In memory** (rdflib) the child is forked: it sees the graph as it is, without a copy
  (pages are shared until written), and sends the result back through a pipe.
- **On a store** the child is a small program that needs only pyoxigraph (about 0.1 s to
  start): it opens the store read-only, so it sees what is committed on disk when the
  query starts (a read-only handle opened earlier may see less), runs the query and
  writes the result as SPARQL JSON results or N-Triples for the parent to read back.
- **On a SPARQL server** no child is needed: nothing runs here, so the request's socket
  timeout is the limit (:class:`kg.rdf.store.SparqlBackend`); the server stops its own
  query (``kg serve`` does).
"""

from __future__ import annotations

import json
import multiprocessing
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rdflib import Graph
from rdflib.query import Result

from kg.errors import KgError, QueryError, QueryTimeout
from kg.prefixes import QUERY_PREFIXES
from kg.query_errors import syntax_message

__all__ = ["query_in_fork", "query_store_in_child"]

#: The program a store's child runs: pyoxigraph only, no kg, no rdflib (they take 0.5 s to import).
_STORE_CHILD = Path(__file__).with_name("_store_query.py")

#: Seconds a killed child is given to be reaped.
_REAP = 5.0


def query_in_fork(run: Callable[[], Result], timeout: float) -> Result:
    """``run()`` in a forked child; past ``timeout`` seconds the child is killed and QueryTimeout raised.

    Raises:
        QueryTimeout: The query ran past the limit.
        QueryError: The query failed, or the child died (its exit code is named).
    """
    if "fork" not in multiprocessing.get_all_start_methods():
        raise QueryError("a time limit on an in-memory graph needs fork (Linux, macOS); use a store folder")
    context = multiprocessing.get_context("fork")
    receiver, sender = context.Pipe(duplex=False)
    child = context.Process(target=_answer, args=(run, sender), name="kg-query", daemon=True)
    child.start()
    sender.close()
    try:
        if not receiver.poll(timeout):
            raise QueryTimeout(f"query stopped after the {timeout:g} s limit")
        status, payload = receiver.recv()
    except EOFError:
        child.join(_REAP)
        raise QueryError(f"the query's process died (exit code {child.exitcode})") from None
    finally:
        if child.is_alive():
            child.kill()
        child.join(_REAP)
        receiver.close()
    if status == "error":
        raise payload
    return _result(*payload)


def _answer(run: Callable[[], Result], sender: Any) -> None:
    """In the child: run the query and send the result as plain parts, or the error."""
    try:
        reply: tuple[str, Any] = ("ok", _parts(run()))
    except KgError as exc:
        reply = ("error", exc)
    except Exception as exc:  # anything else still reaches the caller as one line
        reply = ("error", QueryError(f"SPARQL query failed: {' '.join(str(exc).split()) or type(exc).__name__}"))
    sender.send(reply)
    sender.close()


def _parts(result: Result) -> tuple[str, Any, Any]:
    """A Result as picklable parts: (kind, variables or answer, rows or triples)."""
    if result.type == "ASK":
        return "ASK", bool(result.askAnswer), None
    if result.type == "SELECT":
        return "SELECT", list(result.vars or ()), list(result.bindings)
    return str(result.type), None, list(result.graph or ())


def _result(kind: str, head: Any, body: Any) -> Result:
    """The Result the parts came from."""
    result = Result(kind)
    if kind == "ASK":
        result.askAnswer = head
    elif kind == "SELECT":
        result.vars = head
        result.bindings = body
    else:
        result.graph = Graph()
        for triple in body:
            result.graph.add(triple)
    return result


def query_store_in_child(path: Path, text: str, timeout: float | None) -> Result:
    """``text`` on the store at ``path``, run by a child that opens it read-only; killed past ``timeout``.

    Also how a store query is made stoppable by Ctrl-C (``timeout`` None): Oxigraph's engine
    is native code that never looks at Python's signals, so a query run here would go on
    for minutes after SIGINT; waiting on a child instead, KeyboardInterrupt arrives at once
    and ``subprocess.run`` kills the child before passing it on.

    Raises:
        QueryTimeout: The query ran past the limit (the child is killed).
        QueryError: The query does not parse or cannot run, or the store cannot be opened.
    """
    import pyoxigraph as ox

    from kg.rdf.store import from_ox_result

    try:
        done = subprocess.run([sys.executable, "-I", str(_STORE_CHILD), str(path), json.dumps(QUERY_PREFIXES)],
                              input=text.encode("utf-8"), capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:  # subprocess.run has killed and reaped the child
        raise QueryTimeout(f"query stopped after the {timeout:g} s limit") from None
    if done.returncode != 0:
        message = " ".join(done.stderr.decode("utf-8", "replace").split()) or f"exit code {done.returncode}"
        raise QueryError(syntax_message(text, message))
    kind, _, body = done.stdout.partition(b"\n")
    if kind == b"ASK":
        answer = Result("ASK")
        answer.askAnswer = body == b"true"
        return answer
    if kind == b"SELECT":
        return from_ox_result(ox.parse_query_results(body, format=ox.QueryResultsFormat.JSON))
    return from_ox_result(ox.parse(body, format=ox.RdfFormat.N_TRIPLES))
