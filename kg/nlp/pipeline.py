"""Assembling kg's pipeline and running articles through it."""

from __future__ import annotations

import multiprocessing
from collections import deque
from collections.abc import Iterable, Iterator
from itertools import islice
from multiprocessing.pool import AsyncResult

from spacy.language import Language
from spacy.tokens import Doc

from kg.errors import InputError
from kg.extract.model import Facts
from kg.io.article import Article
from kg.nlp import factories
from kg.nlp.extensions import set_doc_extensions
from kg.nlp.model import load_model
from kg.nlp.text import normalize_text, restore_spans

#: Articles per nlp.pipe batch: small enough that two processes share a few hundred articles.
DEFAULT_BATCH_SIZE = 32

#: ``doc.user_data`` key of the article's text as read, kept when cleaning changed it.
_ORIGINAL = "kg.original_text"


def add_kg_components(nlp: Language) -> Language:
    """Add kg's components to a loaded spaCy pipeline (in place) and return it."""
    set_doc_extensions()
    if "kg_paragraphs" not in nlp.pipe_names:
        anchor = {"before": "parser"} if "parser" in nlp.pipe_names else {"first": True}
        nlp.add_pipe("kg_paragraphs", **anchor)
    for name in factories.KG_COMPONENTS:
        if name not in nlp.pipe_names:
            nlp.add_pipe(name)
    return nlp


def load_pipeline(model: str | None = None) -> Language:
    """Load a spaCy model (see ``kg.nlp.model``) with kg's components added."""
    return add_kg_components(load_model(model))


def make_doc(nlp: Language, article: Article) -> Doc:
    """Tokenize an article's cleaned text and attach what the components need to know of it.

    Raises:
        InputError: For a text longer than spaCy takes (``nlp.max_length``), which
            kg refuses rather than cuts, as its readers do (see ``kg.io.readers.MAX_CHARS``).
    """
    if len(article.text) > nlp.max_length:
        raise InputError(
            f"{article.source or article.id}: text too long ({len(article.text):,} characters; "
            f"the pipeline takes at most {nlp.max_length:,})"
        )
    cleaned = normalize_text(article.text)
    doc = nlp.make_doc(cleaned)
    doc._.published = article.published
    if cleaned != article.text:
        doc.user_data[_ORIGINAL] = article.text
    return doc


def facts_from_doc(doc: Doc) -> Facts:
    """Collect the facts kg's components left on a processed Doc."""
    facts = Facts(
        entities=tuple(doc._.entities),
        quotes=tuple(doc._.quotes),
        works=tuple(doc._.works),
        events=tuple(doc._.events),
        places=tuple(doc._.places),
        performances=tuple(doc._.performances),
    )
    original = doc.user_data.get(_ORIGINAL)
    # The extractors read the cleaned text: spans get the article's own words back.
    return facts if original is None else restore_spans(facts, original)


def extract(
    nlp: Language,
    articles: Iterable[Article],
    *,
    batch_size: int = DEFAULT_BATCH_SIZE,
    n_process: int = 1,
) -> Iterator[tuple[Article, Facts]]:
    """Stream articles through the pipeline, yielding each with its facts, in input order.

    Memory stays flat whatever the corpus size: articles are read lazily, a few
    batches are in flight at a time, and each Doc is dropped as soon as its facts are taken.

    Args:
        nlp: A pipeline from ``load_pipeline``.
        articles: Any iterable, consumed lazily.
        batch_size: Articles per ``nlp.pipe`` batch; with several processes, batches
            are dealt to them in turn, so keep it well below ``articles / n_process``.
        n_process: Processes that run the pipeline (see :func:`_extract_in_workers`).
    """
    if n_process == 1:
        yield from _extract_here(nlp, articles, batch_size)
    else:
        yield from _extract_in_workers(nlp, articles, batch_size, n_process)


def _extract_here(nlp: Language, articles: Iterable[Article], batch_size: int) -> Iterator[tuple[Article, Facts]]:
    pairs = ((make_doc(nlp, a), a) for a in articles)
    for doc, article in nlp.pipe(pairs, as_tuples=True, batch_size=batch_size):
        yield article, facts_from_doc(doc)


#: The pipeline a worker process runs: the parent's, inherited when the worker is forked.
_WORKER_NLP: Language | None = None


def _facts_in_worker(batch: list[Article], batch_size: int) -> list[Facts]:
    assert _WORKER_NLP is not None, "workers are forked from extract(), which sets the pipeline"
    return [facts for _, facts in _extract_here(_WORKER_NLP, batch, batch_size)]


def _extract_in_workers(
    nlp: Language, articles: Iterable[Article], batch_size: int, n_process: int
) -> Iterator[tuple[Article, Facts]]:
    """Batches of articles out to forked processes that run the whole pipeline; their facts back.

    Not spaCy's own ``n_process``: that tokenizes in the parent (for the per-article
    context kg needs) and sends each Doc both ways as bytes, which costs the parent,
    already busy mapping and storing facts, a third more time than bare ``nlp.pipe``
    on two processes. Here the parent sends articles and gets facts back, both small.
    At most two batches per process are in flight, so memory does not grow with the corpus.
    """
    global _WORKER_NLP
    _WORKER_NLP = nlp
    try:
        with multiprocessing.get_context("fork").Pool(n_process) as pool:
            pending: deque[tuple[list[Article], AsyncResult[list[Facts]]]] = deque()
            for batch in _batches(articles, batch_size):
                pending.append((batch, pool.apply_async(_facts_in_worker, (batch, batch_size))))
                if len(pending) >= 2 * n_process:
                    done, result = pending.popleft()
                    yield from zip(done, result.get())
            while pending:
                done, result = pending.popleft()
                yield from zip(done, result.get())
    finally:
        _WORKER_NLP = None


def _batches(articles: Iterable[Article], size: int) -> Iterator[list[Article]]:
    iterator = iter(articles)
    while batch := list(islice(iterator, size)):
        yield batch
