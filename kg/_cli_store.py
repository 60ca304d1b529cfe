"""The ``kg`` commands that manage the articles of a store: ``kg articles`` and ``kg remove``.

Also how ``kg build --store`` opens what it is given. A store is an Oxigraph folder,
a SPARQL server, or a graph file in a syntax that keeps named graphs (TriG, N-Quads,
JSON-LD): a file is read whole, changed in memory and written back atomically, so it
is either the old file or the new one, never half of either. Turtle, N-Triples and
RDF/XML keep no named graphs, so an article cannot be replaced in them: they are refused.

One writer at a time: a file store is read, changed and written back while its lock file
(``graph.trig.lock`` beside it) is held, and a store folder is locked by RocksDB itself.
A second writer waits for the first, up to ``--wait`` seconds, instead of writing back a
file that no longer holds the first writer's articles.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import click

from kg._cli_output import csv_text, table
from kg.errors import GraphError, KgError, StoreBusy

if TYPE_CHECKING:
    from kg.graph import KnowledgeGraph

__all__ = ["WAIT", "WAIT_OPTION", "articles", "open_store", "remove", "writing_store"]

#: Seconds a writer waits, by default, for another process writing the same store.
WAIT = 600.0
#: Seconds between tries to open a store folder another process is writing.
_RETRY = 0.2

WAIT_OPTION = click.option(
    "--wait", default=WAIT, show_default=True, type=click.FloatRange(0), metavar="SECONDS",
    help="Seconds to wait while another kg process writes the same store or graph file "
         "(0: fail at once).")

#: The columns ``kg articles`` prints as a table (csv and json have them all).
_TABLE_COLUMNS = ("id", "source", "title", "published", "quotations", "performances", "people", "events")


def open_store(store: str, *, create: bool = False) -> tuple[KnowledgeGraph, Path | None]:
    """The graph ``store`` names, and the file to write it back to (None for a folder or a server).

    Args:
        store: A store folder, a SPARQL server URL, or a TriG, N-Quads or JSON-LD file.
        create: Make a new store folder or graph file when there is none.

    Raises:
        GraphError: For a graph file in a syntax without named graphs, or anything
            :meth:`KnowledgeGraph.open` refuses (a file that is no graph file, say).
    """
    # Imported here, not on top: `kg --help` should not wait for rdflib.
    from kg.graph import KnowledgeGraph
    from kg.rdf.serialize import FORMATS, QUAD_FORMATS
    from kg.rdf.store import is_sparql_url

    path = Path(store)
    fmt = FORMATS.get(path.suffix.lower())
    if is_sparql_url(store) or path.is_dir() or fmt is None:
        return KnowledgeGraph.open(store, create=create), None
    if fmt not in QUAD_FORMATS:
        raise GraphError(
            f"{path}: {path.suffix} keeps no named graphs, so articles in it cannot be replaced; "
            "use a store folder, a .trig, .nq or .jsonld file, or -o to write a new file"
        )
    if path.exists():
        return KnowledgeGraph.load(path), path
    if not create:
        raise GraphError(f"{path}: no such graph file")
    return KnowledgeGraph(), path


@contextmanager
def writing_store(store: str, *, create: bool = False,
                  wait: float = WAIT) -> Iterator[tuple[KnowledgeGraph, Path | None]]:
    """:func:`open_store` with the store to ourselves until the block ends, then closed.

    Two builds into one graph file would each read it, add their articles and write it
    back: the last to write would drop the other's. So a graph file is read and written
    back (by the caller, inside the block) under a lock file beside it, and a second
    writer waits for the first for up to ``wait`` seconds. A store folder has RocksDB's
    own lock; opening it is retried until the same deadline.

    Raises:
        GraphError: Naming the store when another process still writes it at the deadline.
    """
    from filelock import FileLock, Timeout

    deadline = time.monotonic() + wait
    if _is_graph_file(store):
        path = Path(store)
        try:
            if create:
                path.parent.mkdir(parents=True, exist_ok=True)
            lock = FileLock(path.with_name(path.name + ".lock")).acquire(timeout=wait)
        except Timeout:
            raise GraphError(_busy(store, wait)) from None
        except OSError as err:  # no folder, no permission: the same failure the write would meet
            raise GraphError(f"{path}: cannot make its lock file: {err.strerror or err}") from None
        with lock:
            graph, write_back = open_store(store, create=create)
            yield graph, write_back
        return
    while True:
        try:
            graph, write_back = open_store(store, create=create)
            break
        except StoreBusy:
            if time.monotonic() >= deadline:
                raise GraphError(_busy(store, wait)) from None
            time.sleep(_RETRY)
    try:
        yield graph, write_back
    finally:
        graph.close()


def _is_graph_file(store: str) -> bool:
    """Whether ``store`` names a graph file (kept whole in memory) rather than a folder or server."""
    from kg.rdf.serialize import FORMATS
    from kg.rdf.store import is_sparql_url

    path = Path(store)
    return not (is_sparql_url(store) or path.is_dir()) and path.suffix.lower() in FORMATS


def _busy(store: str, wait: float) -> str:
    """The one line for a store another process kept writing past the wait."""
    if wait <= 0:
        return f"{store}: another kg process is writing it; run again when it is done, or give --wait SECONDS"
    return f"{store}: another kg process is still writing it after {wait:g} s (--wait SECONDS waits longer)"


@click.command()
@click.argument("graph", metavar="GRAPH")
@click.option("--format", "fmt", type=click.Choice(["table", "csv", "json"]), default="table", show_default=True)
def articles(graph: str, fmt: str) -> None:
    """List the articles in GRAPH: id, source, headline, date and counts of what was read from each.

    The id (or the source) is what kg remove takes. The same list is the named query
    "articles" (kg query GRAPH --named articles).

    \b
    Example:
        kg articles out/store
        kg articles out/graph.trig --format csv
    """
    from kg.graph import KnowledgeGraph

    rows = KnowledgeGraph.open(graph, read_only=True).query_rows("articles")
    if fmt == "json":
        click.echo(json.dumps(rows, indent=2, default=str))
        return
    columns = _TABLE_COLUMNS if fmt == "table" else tuple(rows[0]) if rows else _TABLE_COLUMNS
    cells = [["" if row.get(c) is None else str(row[c]) for c in columns] for row in rows]
    click.echo((table if fmt == "table" else csv_text)(columns, cells), nl=False)


@click.command()
@click.argument("store")
@click.argument("names", nargs=-1, required=True, metavar="ARTICLE...")
@WAIT_OPTION
def remove(store: str, names: tuple[str, ...], wait: float) -> None:
    """Delete articles from a store (by id, source path or URL, as kg articles lists them).

    Their entities stay while other articles name them. Every name must be in the
    store, or nothing is removed. A TriG, N-Quads or JSON-LD file is written back.

    \b
    Example:
        kg remove out/store 3def197fb0098cf7 examples/band_split.txt
    """
    with writing_store(store, wait=wait) as (graph, write_back):
        ids = _article_ids(graph, store, names)
        graph.remove(*ids)
        if write_back is not None:
            graph.save(write_back)
    click.echo(f"Removed {len(set(ids))} article(s) from {store}.")


def _article_ids(graph: KnowledgeGraph, store: str, names: tuple[str, ...]) -> list[str]:
    """The ids of the articles ``names`` name (each an id, a source path or a URL).

    Raises:
        KgError: Naming every name that matches no article, so a typo removes nothing.
    """
    known: dict[str, str] = {}
    for row in graph.query_rows("articles"):
        for key in ("url", "source", "id"):  # an id wins over another article's path or URL
            if row.get(key) is not None:
                known[str(row[key])] = str(row["id"])
    missing = [name for name in names if name not in known]
    if missing:
        listed = ", ".join(repr(name) for name in missing)
        raise KgError(f"{store}: no article {listed} (kg articles {store} lists them); nothing removed")
    return [known[name] for name in names]
