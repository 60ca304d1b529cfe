"""Assembling kg's pipeline and running articles through it."""

from __future__ import annotations

import multiprocessing
from collections import deque
from collections.abc import Iterable, Iterator
from itertools import islice
from multiprocessing.pool import AsyncResult
from typing import NamedTuple

from spacy.language import Language
from spacy.tokens import Doc
from spacy.util import compile_infix_regex

from kg.errors import InputError
from kg.extract.model import Facts
from kg.io.article import Article
from kg.nlp import factories
from kg.nlp.chunks import CHUNK_CHARS, chunk_bounds, join_facts
from kg.nlp.extensions import set_doc_extensions
from kg.nlp.model import load_model
from kg.nlp.text import normalize_text, restore_spans

#: Articles per nlp.pipe batch: small enough that two processes share a few hundred articles.
DEFAULT_BATCH_SIZE = 32
#: Most characters of text in one nlp.pipe batch (but one Doc): a batch of 32 news
#: articles has about 75,000.
BATCH_CHARS = 100_000
#: A curly double mark glued between punctuation and a word ('it was late,”Rivera said',
#: 'Rivera said,“Look'): the punctuation and the mark are tokens of their own, so the name
#: after them can be the subject of the verb of saying. A dash glued to a closing mark
#: ('...”―Ana Rivera', '..."--Ana Rivera') is a token of its own too: it signs the words
#: before it with the name after it.
GLUED_MARKS = (
    r"[,.!?;:](?=[“”][^\W\d_])",
    r"(?<=[,.!?;:])[“”](?=[^\W\d_])",
    r"(?<=[”\"’])(?:--|[―—–])",
)


def add_kg_components(nlp: Language) -> Language:
    """Add kg's components to a loaded spaCy pipeline (in place) and return it."""
    set_doc_extensions()
    _split_glued_marks(nlp)
    if "kg_paragraphs" not in nlp.pipe_names:
        anchor = {"before": "parser"} if "parser" in nlp.pipe_names else {"first": True}
        nlp.add_pipe("kg_paragraphs", **anchor)
    for name in factories.KG_COMPONENTS:
        if name not in nlp.pipe_names:
            nlp.add_pipe(name)
    return nlp


def _split_glued_marks(nlp: Language) -> None:
    """Add :data:`GLUED_MARKS` to the language's infixes (the English models use the
    language's own); compiled as spaCy compiles them, so the tokenizer still serialises."""
    infixes = [*(nlp.Defaults.infixes or ()), *GLUED_MARKS]
    nlp.tokenizer.infix_finditer = compile_infix_regex(infixes).finditer


def load_pipeline(model: str | None = None) -> Language:
    """Load a spaCy model (see ``kg.nlp.model``) with kg's components added."""
    return add_kg_components(load_model(model))


def make_doc(nlp: Language, article: Article) -> Doc:
    """Tokenize an article's cleaned text and attach what the components need to know of it.

    Raises:
        InputError: For a text longer than spaCy takes (``nlp.max_length``), which
            kg refuses rather than cuts, as its readers do (see ``kg.io.readers.MAX_CHARS``).
    """
    _check_length(nlp, article)
    return _text_doc(nlp, article.text, article.published)


def _check_length(nlp: Language, article: Article) -> None:
    if len(article.text) > nlp.max_length:
        raise InputError(
            f"{article.source or article.id}: text too long ({len(article.text):,} characters; "
            f"the pipeline takes at most {nlp.max_length:,})"
        )


def _text_doc(nlp: Language, text: str, published: str | None) -> Doc:
    """The Doc of ``text`` (an article, or a piece of one) as cleaned, with its date and its original."""
    cleaned = normalize_text(text)
    doc = nlp.make_doc(cleaned)
    doc._.published = published
    if cleaned != text:
        doc._.original_text = text
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
    original = doc._.original_text
    # The extractors read the cleaned text: spans get the article's own words back.
    return facts if original is None else restore_spans(facts, original)


def extract(
    nlp: Language,
    articles: Iterable[Article],
    *,
    batch_size: int = DEFAULT_BATCH_SIZE,
    n_process: int = 1,
    chunk_chars: int = CHUNK_CHARS,
) -> Iterator[tuple[Article, Facts]]:
    """Stream articles through the pipeline, yielding each with its facts, in input order.

    Memory stays flat whatever the corpus size: articles are read lazily, a few
    batches are in flight at a time, and each Doc is dropped as soon as its facts are taken.
    It stays flat whatever the article's length too: an article longer than
    ``chunk_chars`` is parsed in pieces cut at paragraph breaks, and their facts joined
    (see :mod:`kg.nlp.chunks`), so time and memory grow with the text, not faster.

    Args:
        nlp: A pipeline from ``load_pipeline``.
        articles: Any iterable, consumed lazily.
        batch_size: Articles per ``nlp.pipe`` batch; with several processes, batches
            are dealt to them in turn, so keep it well below ``articles / n_process``.
            A batch also ends at :data:`BATCH_CHARS` characters of text.
        n_process: Processes that run the pipeline (see :func:`_extract_in_workers`).
        chunk_chars: Most characters parsed as one Doc.
    """
    if n_process == 1:
        yield from _extract_here(nlp, articles, batch_size, chunk_chars)
    else:
        yield from _extract_in_workers(nlp, articles, batch_size, n_process, chunk_chars)


class _Piece(NamedTuple):
    """What travels with a Doc through ``nlp.pipe``: whose text it is, and which part."""

    article: Article
    start: int
    chars: int
    last: bool


def _pieces(nlp: Language, articles: Iterable[Article], chunk_chars: int) -> Iterator[tuple[Doc, _Piece]]:
    """Each article's Doc, or the Docs of its pieces in order when it is long."""
    for article in articles:
        _check_length(nlp, article)
        bounds = chunk_bounds(article.text, chunk_chars)
        for number, (start, end) in enumerate(bounds, start=1):
            text = article.text[start:end]
            yield _text_doc(nlp, text, article.published), _Piece(article, start, len(text), number == len(bounds))


def _extract_here(
    nlp: Language, articles: Iterable[Article], batch_size: int, chunk_chars: int = CHUNK_CHARS
) -> Iterator[tuple[Article, Facts]]:
    parts: list[tuple[int, Facts]] = []
    for batch in _text_batches(_pieces(nlp, articles, chunk_chars), batch_size):
        for doc, piece in nlp.pipe(batch, as_tuples=True, batch_size=len(batch)):
            facts = facts_from_doc(doc)
            if piece.start == 0 and piece.last:
                yield piece.article, facts
                continue
            parts.append((piece.start, facts))
            if piece.last:
                yield piece.article, join_facts(parts)
                parts = []


def _text_batches(pieces: Iterable[tuple[Doc, _Piece]], size: int) -> Iterator[list[tuple[Doc, _Piece]]]:
    """Batches of at most ``size`` Docs and, past the first Doc, :data:`BATCH_CHARS` characters.

    spaCy's parser and tagger hold a whole batch at once, in memory that grows with its text.
    """
    batch: list[tuple[Doc, _Piece]] = []
    chars = 0
    for doc, piece in pieces:
        if batch and (len(batch) == size or chars + piece.chars > BATCH_CHARS):
            yield batch
            batch, chars = [], 0
        batch.append((doc, piece))
        chars += piece.chars
    if batch:
        yield batch


#: The pipeline a worker process runs: the parent's, inherited when the worker is forked.
_WORKER_NLP: Language | None = None


def _facts_in_worker(batch: list[Article], batch_size: int, chunk_chars: int) -> list[Facts]:
    assert _WORKER_NLP is not None, "workers are forked from extract(), which sets the pipeline"
    return [facts for _, facts in _extract_here(_WORKER_NLP, batch, batch_size, chunk_chars)]


def _extract_in_workers(
    nlp: Language, articles: Iterable[Article], batch_size: int, n_process: int, chunk_chars: int
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
                pending.append((batch, pool.apply_async(_facts_in_worker, (batch, batch_size, chunk_chars))))
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
