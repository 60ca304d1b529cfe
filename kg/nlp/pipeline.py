"""Assembling kg's pipeline and running articles through it."""

from __future__ import annotations

import pickle
from collections.abc import Iterable, Iterator

import numpy
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

#: The component that packs a worker's facts for the trip back to the main process.
PACK_PIPE = "kg_pack_facts"
#: ``doc.user_data`` key of the packed (pickled) facts.
_PACKED = "kg.packed_facts"
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


@Language.component(PACK_PIPE)
def pack_facts(doc: Doc) -> Doc:
    """Leave on a Doc only what the main process needs: its facts, pickled.

    spaCy's worker processes send each Doc back through ``Doc.to_bytes``, which
    msgpacks ``doc.user_data``: kg's fact records and the extractors' caches are not
    msgpack types, and the token vectors (``doc.tensor``) are dead weight once the
    facts are taken. Only ``extract`` adds this component, and only for ``n_process > 1``.
    """
    packed = pickle.dumps(facts_from_doc(doc), protocol=pickle.HIGHEST_PROTOCOL)
    doc.user_data.clear()
    doc.user_data[_PACKED] = packed
    doc.tensor = numpy.zeros((0,), dtype="float32")
    return doc


def facts_from_doc(doc: Doc) -> Facts:
    """Collect the facts kg's components left on a processed Doc (or packed in a worker)."""
    packed = doc.user_data.get(_PACKED)
    if packed is not None:
        # The Doc came back from a worker process: its facts travelled pickled.
        return pickle.loads(packed)  # noqa: S301 (bytes made by pack_facts in our own workers)
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

    Memory stays flat whatever the corpus size: articles are read lazily, spaCy holds
    a few batches at a time, and each Doc is dropped as soon as its facts are taken.

    Args:
        nlp: A pipeline from ``load_pipeline``.
        articles: Any iterable, consumed lazily.
        batch_size: Articles per ``nlp.pipe`` batch; with several processes, batches
            are dealt to them in turn, so keep it well below ``articles / n_process``.
        n_process: spaCy worker processes. Above 1, a last component
            (``kg_pack_facts``) is added while the generator runs so that workers send
            back the facts alone.
    """
    added = n_process != 1 and PACK_PIPE not in nlp.pipe_names
    if added:
        nlp.add_pipe(PACK_PIPE, last=True)
    try:
        pairs = ((make_doc(nlp, a), a) for a in articles)
        for doc, article in nlp.pipe(pairs, as_tuples=True, batch_size=batch_size, n_process=n_process):
            yield article, facts_from_doc(doc)
    finally:
        if added:
            nlp.remove_pipe(PACK_PIPE)
