"""Hand-built facts for the RDF tests: no spaCy needed, every fact kind present."""

from __future__ import annotations

import pytest
from rdflib import Dataset

from kg.extract.model import Entity, Event, Facts, Performance, Place, Quote, TextSpan, When, Work
from kg.io.article import Article
from kg.rdf import add_article

TEXT = (
    'Ana Rivera, the singer, said "We waited all year for this night." '
    "Rivera performed Night Train at the Harbor Lights Festival at Pier Arena in Portland in April 2022. "
    '"It rained," someone wrote.'
)


def span(text: str, occurrence: int = 0) -> TextSpan:
    """The span of the ``occurrence``-th appearance of ``text`` in TEXT."""
    start = -1
    for _ in range(occurrence + 1):
        start = TEXT.index(text, start + 1)
    return TextSpan(start, start + len(text), text)


def make_article(article_id: str = "harbor-1", **changes: str) -> Article:
    """The sample article, optionally with another id or fields."""
    fields = {"title": "Rain at the pier", "url": "https://news.example/harbor", "published": "2022-04-20",
              "path": "news/harbor.html"}
    fields.update(changes)
    return Article(id=article_id, text=TEXT, **fields)


def make_facts() -> Facts:
    """Every fact kind: a person with alias and epithet, two quotes, a song, places, an event, a performance."""
    return Facts(
        entities=(
            Entity(
                key="person:1",
                kind="person",
                name="Ana Rivera",
                aliases=("Rivera", "La Rivera"),
                descriptions=("the singer",),
                age=34,
                mentions=(span("Ana Rivera"), span("Rivera", 1)),
            ),
        ),
        quotes=(
            Quote(span=span("We waited all year for this night."), speaker="person:1", cue="said",
                  cue_span=span("said"), confidence=0.9),
            Quote(span=span("It rained,"), confidence=0.5),
        ),
        works=(Work(key="work:1", title="Night Train", kind="song", creator="person:1", year=2019,
                    mentions=(span("Night Train"),)),),
        places=(
            Place(key="place:1", name="Portland", kind="city", mentions=(span("Portland"),)),
            Place(key="place:2", name="Pier Arena", kind="venue", contained_in="place:1",
                  mentions=(span("Pier Arena"),)),
        ),
        events=(
            Event(key="event:1", name="Harbor Lights Festival", kind="festival", location="place:2",
                  date=When("April 2022", "2022-04", span("April 2022")), mentions=(span("Harbor Lights Festival"),)),
        ),
        performances=(
            Performance(performer="person:1", work="work:1", event="event:1", cue="performed",
                        span=span("Rivera performed Night Train at the Harbor Lights Festival")),
        ),
    )


@pytest.fixture(name="make_article")
def make_article_fixture():
    """``make_article(article_id="harbor-1", **fields) -> Article``: the sample article, varied."""
    return make_article


@pytest.fixture(name="span")
def span_fixture():
    """``span(text, occurrence=0) -> TextSpan`` within the sample text."""
    return span


@pytest.fixture
def article() -> Article:
    """The sample article."""
    return make_article()


@pytest.fixture
def facts() -> Facts:
    """The sample facts."""
    return make_facts()


@pytest.fixture
def dataset(article: Article, facts: Facts) -> Dataset:
    """A union-queryable dataset holding the sample article's graph."""
    ds = Dataset(default_union=True)
    add_article(ds, article, facts)
    return ds
