"""Extraction spread over a Dask distributed cluster, for corpora past one machine.

The client reads the articles and deals them to the workers in partitions. Each
worker loads kg's pipeline once (a worker plugin loads it at start; a cached loader
covers workers that join later), extracts a partition, maps each article's facts
into its own named graph and sends the partition back as N-Quads text (with the
facts, which are small): plain, compact, and loadable by any RDF store. The client
then replaces each article's graph in the target, in input order, with the same
replace-by-article semantics as :meth:`kg.graph.KnowledgeGraph.add`; an article
whose agents the whole graph resolves differently (a surname alone, known from
another article) is mapped again on the client. A distributed build thus gives
exactly the quads of a single-process one.

Needs the optional ``dask`` extra (``pip install 'kg[dask]'``). Schedulers:

* ``local`` or ``local:N``: a ``LocalCluster`` on this machine with N single-threaded
  worker processes (default: one per CPU), started and stopped by the build;
* anything else is the address of a running scheduler (``tcp://10.0.0.5:8786``),
  whose workers must have kg and the spaCy model installed.

Example:
    >>> from kg.distributed import parse_scheduler
    >>> parse_scheduler("local:2")
    ('local', 2)
"""

from __future__ import annotations

import logging
import os
import threading
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from itertools import chain, islice
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rdflib import Dataset

from kg.errors import KgError
from kg.extract.model import Facts
from kg.graph import KnowledgeGraph
from kg.io import read_articles
from kg.io.article import Article
from kg.rdf.mapping import article_graph, article_iri
from kg.rdf.resolve import NameIndex, add_same_as

try:
    from distributed.diagnostics.plugin import WorkerPlugin as _WorkerPlugin
except ImportError:  # the dask extra is not installed: build_distributed says so when called
    _WorkerPlugin = object

if TYPE_CHECKING:
    from distributed import Client
    from spacy.language import Language

__all__ = [
    "DEFAULT_PARTITION_SIZE",
    "add_distributed",
    "add_partition",
    "article_nquads",
    "build_distributed",
    "extract_partitions",
    "parse_scheduler",
]

#: Articles per partition: a few seconds of work, so scheduling costs little and results stay small.
DEFAULT_PARTITION_SIZE = 64
#: Partitions in flight per worker thread: enough to keep workers busy, few enough to bound memory.
_IN_FLIGHT_PER_THREAD = 2
_LOCAL = "local"
_INSTALL_HINT = "the Dask build needs the dask extra: pip install 'kg[dask]' (or 'dask[distributed]')"

# Per-process cache of loaded pipelines (model name -> pipeline), used on the workers.
_PIPELINES: dict[str | None, Language] = {}
# One lock per process: spaCy pipelines are not meant to be run by two threads at once.
_PIPELINE_LOCK = threading.Lock()


def parse_scheduler(scheduler: str) -> tuple[str, int | None]:
    """Split a scheduler spec into ``("local", workers or None)`` or ``(address, None)``.

    Raises:
        KgError: For an empty spec or ``local:`` with no positive worker count.

    >>> parse_scheduler("tcp://10.0.0.5:8786")
    ('tcp://10.0.0.5:8786', None)
    >>> parse_scheduler("local")
    ('local', None)
    """
    spec = scheduler.strip()
    if not spec:
        raise KgError("empty Dask scheduler: give an address (tcp://host:8786) or local[:N]")
    if spec != _LOCAL and not spec.startswith(_LOCAL + ":"):
        return spec, None
    if spec == _LOCAL:
        return _LOCAL, None
    count = spec[len(_LOCAL) + 1 :]
    if not count.isdigit() or int(count) < 1:
        raise KgError(f"bad Dask scheduler {scheduler!r}: use local, local:N with N >= 1, or an address")
    return _LOCAL, int(count)


def _pipeline(model: str | None) -> Language:
    """The pipeline for ``model`` in this process, loaded on first use only."""
    with _PIPELINE_LOCK:
        if model not in _PIPELINES:
            from kg.nlp import load_pipeline

            _PIPELINES[model] = load_pipeline(model)
        return _PIPELINES[model]


def _extract_partition(articles: list[Article], model: str | None, batch_size: int) -> list[tuple[Facts, str]]:
    """Run on a worker: each article's facts and its named graph as N-Quads, in input order.

    Each graph is mapped as on an empty KnowledgeGraph (agents resolved within the
    article only); the client re-maps the rare article whose agents the whole graph
    resolves otherwise, so the result never depends on how articles were partitioned.
    """
    from kg.nlp import extract

    nlp = _pipeline(model)
    out: list[tuple[Facts, str]] = []
    with _PIPELINE_LOCK:
        for article, facts in extract(nlp, articles, batch_size=batch_size):
            out.append((facts, article_nquads(article, facts)))
    return out


def article_nquads(article: Article, facts: Facts) -> str:
    """One article's named graph as N-Quads, its agents resolved within the article only."""
    name = article_iri(article.id)
    dataset = Dataset()
    article_graph(article, facts, dataset.graph(name), resolved=NameIndex().resolve(name, facts))
    return dataset.serialize(format="nquads")


def add_partition(graph: KnowledgeGraph, articles: list[Article], results: list[tuple[Facts, str]]) -> int:
    """Add one partition to ``graph`` in input order, replacing each article's graph; returns how many.

    An article's N-Quads go in as they are when the graph resolves its agents as the
    worker did (nothing known elsewhere changes them); otherwise the article is mapped
    again here with :meth:`KnowledgeGraph.add`, so the graph is exactly the one a
    single-process build makes. This is where partitions meet the store: any backend
    of :class:`KnowledgeGraph` (memory, on-disk store, SPARQL server) takes them.
    """
    index = graph._name_index()  # the graph's own index of known agents, kept up to date by add
    for article, (facts, nquads) in zip(articles, results):
        name = article_iri(article.id)
        if index.resolve(name, facts) != NameIndex().resolve(name, facts):
            # Known agents elsewhere in the graph change this article's mapping.
            graph.add(article, facts)
            continue
        mapped = Dataset()
        mapped.parse(data=nquads, format="nquads")
        if graph.links:
            add_same_as(mapped.graph(name), graph.links)
        graph.add_graphs(mapped)
    return len(articles)


class _LoadPipeline(_WorkerPlugin):  # type: ignore[misc,valid-type]
    """A worker plugin that loads kg's pipeline when each worker starts (or joins later)."""

    def __init__(self, model: str | None) -> None:
        self.model = model
        self.name = f"kg-pipeline-{model or 'default'}"

    def setup(self, worker: Any) -> None:
        _pipeline(self.model)


@contextmanager
def _client(scheduler: str) -> Iterator[Client]:
    """A Dask client for ``scheduler``: a LocalCluster started for the build, or a running scheduler."""
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise KgError(_INSTALL_HINT) from None
    address, workers = parse_scheduler(scheduler)
    if address == _LOCAL:
        # Single-threaded worker processes: spaCy is CPU-bound Python, threads would only queue.
        cluster = LocalCluster(
            n_workers=workers or os.cpu_count() or 1,
            threads_per_worker=1,
            processes=True,
            dashboard_address=":0",
            # Shutdown chatter ("worker still alive, killing") is no news to a kg user.
            silence_logs=logging.ERROR,
        )
        try:
            with Client(cluster) as client:
                yield client
        finally:
            cluster.close()
        return
    try:
        client = Client(address, timeout="30s")
    except (OSError, TimeoutError) as exc:
        raise KgError(f"cannot reach the Dask scheduler at {address}: {exc}") from None
    with client:
        yield client


def _batches(articles: Iterable[Article], size: int) -> Iterator[list[Article]]:
    """Consecutive lists of ``size`` articles (the last may be shorter)."""
    iterator = iter(articles)
    while batch := list(islice(iterator, size)):
        yield batch


def extract_partitions(
    client: Client,
    articles: Iterable[Article],
    *,
    model: str | None = None,
    partition_size: int = DEFAULT_PARTITION_SIZE,
    batch_size: int = 32,
) -> Iterator[tuple[list[Article], list[tuple[Facts, str]]]]:
    """Stream each partition's articles with their ``(facts, N-Quads)`` from the cluster, in input order.

    Only a bounded number of partitions is in flight at once, so neither the client
    nor the cluster ever holds the whole corpus.

    Args:
        client: A connected Dask client.
        articles: Any iterable of articles, consumed lazily.
        model: spaCy model the workers load (default: kg's default model).
        partition_size: Articles per task.
        batch_size: Articles per ``nlp.pipe`` batch on the worker.
    """
    client.register_plugin(_LoadPipeline(model))
    threads = sum(w.get("nthreads", 1) for w in client.scheduler_info().get("workers", {}).values())
    window = max(2, _IN_FLIGHT_PER_THREAD * threads)
    pending: deque[tuple[list[Article], Any]] = deque()
    for partition in _batches(articles, partition_size):
        pending.append((partition, client.submit(_extract_partition, partition, model, batch_size, pure=False)))
        if len(pending) >= window:
            # Results are taken in submission order, so articles go in as in a serial build.
            done, future = pending.popleft()
            yield done, future.result()
    while pending:
        done, future = pending.popleft()
        yield done, future.result()


def add_distributed(
    graph: KnowledgeGraph,
    inputs: Iterable[str | Path],
    scheduler: str,
    *,
    model: str | None = None,
    partition_size: int = DEFAULT_PARTITION_SIZE,
    batch_size: int = 32,
    strict: bool = False,
    on_problem: Callable[[str], None] | None = None,
) -> int:
    """Add the articles of ``inputs`` to ``graph``, extracted on a Dask cluster; returns how many.

    Arguments as for :func:`build_distributed`; ``graph`` may live in memory, in an
    on-disk store or on a SPARQL server (``KnowledgeGraph.open``).
    """
    if partition_size < 1:
        raise KgError(f"partition_size must be at least 1, got {partition_size}")
    articles = read_articles(inputs, strict=strict, on_problem=on_problem)
    # Read the first article before starting a cluster: a mistyped path fails at once.
    head = list(islice(articles, 1))
    count = 0
    with _client(scheduler) as client:
        for partition, results in extract_partitions(
            client, chain(head, articles), model=model, partition_size=partition_size, batch_size=batch_size
        ):
            count += add_partition(graph, partition, results)
    return count


def build_distributed(
    inputs: Iterable[str | Path],
    scheduler: str,
    *,
    model: str | None = None,
    partition_size: int = DEFAULT_PARTITION_SIZE,
    batch_size: int = 32,
    graph: KnowledgeGraph | None = None,
    strict: bool = False,
    on_problem: Callable[[str], None] | None = None,
) -> KnowledgeGraph:
    """Build a KnowledgeGraph with extraction spread over a Dask cluster.

    Args:
        inputs: Paths of ``.txt``, ``.html``, ``.jsonl`` files or folders, read on this machine.
        scheduler: ``local``, ``local:N`` or the address of a running Dask scheduler.
        model: spaCy model the workers load (default: kg's default model).
        partition_size: Articles per task sent to a worker.
        batch_size: Articles per ``nlp.pipe`` batch on a worker.
        graph: The graph to add to: in memory, an on-disk store or a SPARQL server
            (``KnowledgeGraph.open``); a new in-memory one when None.
        strict: Make any bad input fatal instead of reported and skipped.
        on_problem: Called with a one-line message for each skipped input.

    Returns:
        ``graph`` (or the new graph), each article's facts in its own named graph.

    Raises:
        KgError: When dask is not installed, the scheduler spec is bad or unreachable.
    """
    target = graph if graph is not None else KnowledgeGraph()
    add_distributed(
        target, inputs, scheduler, model=model, partition_size=partition_size, batch_size=batch_size,
        strict=strict, on_problem=on_problem,
    )
    return target
