"""The whole flow in one call: read articles, extract facts, map them into a graph."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from spacy.language import Language

from kg.extract.model import Facts
from kg.graph import KnowledgeGraph
from kg.io import read_articles
from kg.io.article import Article
from kg.nlp import extract, load_pipeline


def extract_articles(
    inputs: Iterable[str | Path],
    *,
    nlp: Language | None = None,
    model: str | None = None,
    batch_size: int = 32,
    n_process: int = 1,
    strict: bool = False,
    on_problem: Callable[[str], None] | None = None,
) -> Iterator[tuple[Article, Facts]]:
    """Stream ``(article, facts)`` for every article found in ``inputs``."""
    pipeline = nlp if nlp is not None else load_pipeline(model)
    articles = read_articles(inputs, strict=strict, on_problem=on_problem)
    yield from extract(pipeline, articles, batch_size=batch_size, n_process=n_process)


def build(
    inputs: Iterable[str | Path],
    *,
    nlp: Language | None = None,
    model: str | None = None,
    batch_size: int = 32,
    n_process: int = 1,
    strict: bool = False,
    on_problem: Callable[[str], None] | None = None,
    dask: str | None = None,
) -> KnowledgeGraph:
    """Build a KnowledgeGraph from files, folders or ``-`` (stdin).

    Articles stream through the pipeline: only the graph grows, never a list of
    documents or facts.

    Args:
        inputs: Paths of ``.txt``, ``.html``, ``.jsonl`` files or folders of them.
        nlp: A pipeline from ``load_pipeline`` to reuse; loaded from ``model`` otherwise.
        model: spaCy model name (default: the small English model).
        batch_size: Articles per ``nlp.pipe`` batch.
        n_process: Processes that run the pipeline.
        strict: Make any bad input fatal instead of reported and skipped.
        on_problem: Called with a one-line message for each skipped input.
        dask: Spread extraction over a Dask cluster instead: ``local``, ``local:N`` or a
            scheduler address (see :mod:`kg.distributed`; ``nlp`` and ``n_process`` then
            do not apply).
    """
    if dask is not None:
        from kg.distributed import build_distributed

        return build_distributed(
            inputs, dask, model=model, batch_size=batch_size, strict=strict, on_problem=on_problem
        )
    graph = KnowledgeGraph()
    graph.add_all(
        extract_articles(
            inputs,
            nlp=nlp,
            model=model,
            batch_size=batch_size,
            n_process=n_process,
            strict=strict,
            on_problem=on_problem,
        )
    )
    return graph
