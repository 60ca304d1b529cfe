"""Assembling kg's pipeline and running articles through it."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from spacy.language import Language
from spacy.tokens import Doc

from kg.extract.model import Facts
from kg.io.article import Article
from kg.nlp import factories
from kg.nlp.extensions import set_doc_extensions
from kg.nlp.model import load_model
from kg.nlp.text import normalize_text

#: Articles per nlp.pipe batch: small enough that two processes share a few hundred articles.
DEFAULT_BATCH_SIZE = 32


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
    """Tokenize an article's cleaned text and attach what the components need to know of it."""
    doc = nlp.make_doc(normalize_text(article.text))
    doc._.published = article.published
    return doc


def facts_from_doc(doc: Doc) -> Facts:
    """Collect the facts kg's components left on a processed Doc."""
    return Facts(
        entities=tuple(doc._.entities),
        quotes=tuple(doc._.quotes),
        works=tuple(doc._.works),
        events=tuple(doc._.events),
        places=tuple(doc._.places),
        performances=tuple(doc._.performances),
    )


def extract(
    nlp: Language,
    articles: Iterable[Article],
    *,
    batch_size: int = DEFAULT_BATCH_SIZE,
    n_process: int = 1,
) -> Iterator[tuple[Article, Facts]]:
    """Stream articles through the pipeline, yielding each with its facts, in input order."""
    pairs = ((make_doc(nlp, a), a) for a in articles)
    for doc, article in nlp.pipe(pairs, as_tuples=True, batch_size=batch_size, n_process=n_process):
        yield article, facts_from_doc(doc)
