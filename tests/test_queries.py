"""The named queries answer the competency questions, in rdflib and in Oxigraph alike."""

from __future__ import annotations

import re

import pyoxigraph
import pytest
from rdflib import Dataset

from kg.errors import QueryError
from kg.extract.model import Entity, Event, Facts, Performance, Place, Quote, TextSpan, When, Work
from kg.io.article import Article
from kg.queries import describe, load, names
from kg.rdf import add_article, write_dataset

FIRST = (
    'Ana Rivera said "The pier is home." Rivera sang Night Train at the Harbor Lights Festival. '
    '"Rain again," it read.'
)
SECOND = "The Tides played Low Tide at the Late Show of the festival on 2022-04-09."

REQUIRED_QUOTES = """
PREFIX schema: <https://schema.org/>
SELECT ?speaker ?text WHERE { ?q a schema:Quotation ; schema:text ?text ; schema:creator/schema:name ?speaker }
"""
REQUIRED_PLACES = """
PREFIX schema: <https://schema.org/>
SELECT ?event ?place WHERE { ?event schema:location/schema:containedInPlace* ?place }
"""


def _span(text: str, part: str) -> TextSpan:
    start = text.index(part)
    return TextSpan(start, start + len(part), part)


def _articles() -> list[tuple[Article, Facts]]:
    """Two articles: a person's quote and performance at a festival; a group at a sub-event of it."""
    arena = Place(key="place:2", name="Pier Arena", kind="venue", contained_in="place:1")
    portland = Place(key="place:1", name="Portland", kind="city")
    festival = Event(key="event:1", name="Harbor Lights Festival", kind="festival", location="place:2",
                     date=When("April 2022", "2022-04"))
    first = Facts(
        entities=(Entity(key="person:1", kind="person", name="Ana Rivera", aliases=("Rivera",)),),
        quotes=(Quote(span=_span(FIRST, "The pier is home."), speaker="person:1", cue="said", confidence=0.9,
                      rule="quote.trigram"),
                Quote(span=_span(FIRST, "Rain again,"), confidence=0.4)),
        works=(Work(key="work:1", title="Night Train", kind="song"),),
        places=(portland, arena),
        events=(festival,),
        performances=(Performance(performer="person:1", work="work:1", event="event:1", cue="sang",
                                  span=_span(FIRST, "Rivera sang Night Train at the Harbor Lights Festival"),
                                  rule="perf.frame", context_rule="context.named-event"),),
    )
    second = Facts(
        entities=(Entity(key="group:1", kind="group", name="The Tides"),),
        works=(Work(key="work:1", title="Low Tide", kind="song"),),
        places=(portland, arena),
        events=(Event(key="event:1", name="Harbor Lights Festival", kind="festival", location="place:2"),
                Event(key="event:2", name="Late Show", kind="music", super_event="event:1",
                      date=When("2022-04-09", "2022-04-09"))),
        performances=(Performance(performer="group:1", work="work:1", event="event:2", cue="played",
                                  span=_span(SECOND, "The Tides played Low Tide at the Late Show")),),
    )
    return [(Article(id="first", text=FIRST, published="2022-04-20", path="news/first.txt"), first),
            (Article(id="second", text=SECOND, published="2022-04-10", path="news/second.txt"), second)]


@pytest.fixture(scope="module")
def dataset() -> Dataset:
    ds = Dataset(default_union=True)
    for article, facts in _articles():
        add_article(ds, article, facts)
    return ds


@pytest.fixture(scope="module")
def oxigraph(dataset, tmp_path_factory) -> pyoxigraph.Store:
    """An Oxigraph store loaded from the dataset exported as N-Quads."""
    path = tmp_path_factory.mktemp("export") / "graph.nq"
    write_dataset(dataset, path)
    store = pyoxigraph.Store()
    store.load(path=str(path), format=pyoxigraph.RdfFormat.N_QUADS)
    return store


def _rdflib_rows(dataset: Dataset, query: str) -> list[dict[str, str | None]]:
    result = dataset.query(query)
    return [{str(var): (None if row[var] is None else str(row[var])) for var in result.vars} for row in result]


def _oxigraph_rows(store: pyoxigraph.Store, query: str) -> list[dict[str, str | None]]:
    result = store.query(query, use_default_graph_as_union=True)
    variables = [v.value for v in result.variables]
    return [{var: (None if row[var] is None else row[var].value) for var in variables} for row in result]


@pytest.fixture(params=["rdflib", "oxigraph"])
def rows(request, dataset, oxigraph):
    """``rows(query) -> list[dict]`` in either engine; values as plain strings."""
    if request.param == "rdflib":
        return lambda query: _rdflib_rows(dataset, query)
    return lambda query: _oxigraph_rows(oxigraph, query)


def test_names_and_descriptions():
    assert names() == ["articles", "events", "performances", "quotes"]
    for name in names():
        assert load(name).startswith("# ")
        assert describe(name).endswith(".")


def test_unknown_name_lists_the_valid_ones():
    with pytest.raises(QueryError, match=r"unknown query 'speakers'; valid names: articles, events, performances, quotes"):
        load("speakers")


def test_required_quotation_query(rows):
    assert {(r["speaker"], r["text"]) for r in rows(REQUIRED_QUOTES)} == {("Ana Rivera", "The pier is home.")}


def test_required_containment_query(rows):
    places = {(r["event"].rsplit("/", 1)[1], r["place"].rsplit("/", 1)[1]) for r in rows(REQUIRED_PLACES)}
    assert places == {("harbor-lights-festival", "pier-arena"), ("harbor-lights-festival", "portland")}


def test_quotes_include_unattributed_ones(rows):
    found = [(r["speaker"], r["text"], r["cue"], r["article"]) for r in rows(load("quotes"))]
    assert found == [
        ("Ana Rivera", "The pier is home.", "said", "https://w3id.org/kg/id/article/first"),
        (None, "Rain again,", None, "https://w3id.org/kg/id/article/first"),
    ]


def test_quotes_say_which_sieve_decided_them(rows):
    found = {(r["text"], r["rule"], r["confidence"]) for r in rows(load("quotes"))}
    assert found == {("The pier is home.", "quote.trigram", "0.9"), ("Rain again,", None, "0.4")}


def test_performances_say_which_sieves_found_and_placed_them(rows):
    found = {(r["work"], r["rule"], r["contextRule"]) for r in rows(load("performances"))}
    assert found == {("Night Train", "perf.frame", "context.named-event"), ("Low Tide", None, None)}


def test_performances_reach_venue_and_city_through_events(rows):
    columns = ("performer", "work", "event", "venue", "city", "date")
    found = {tuple(r[c] for c in columns) for r in rows(load("performances"))}
    assert found == {
        ("Ana Rivera", "Night Train", "Harbor Lights Festival", "Pier Arena", "Portland", "2022-04"),
        ("The Tides", "Low Tide", "Late Show", "Pier Arena", "Portland", "2022-04-09"),
    }


def test_events_with_venue_city_and_date(rows):
    found = {(r["event"], r["venue"], r["city"], r["date"], r["dateText"]) for r in rows(load("events"))}
    assert found == {
        ("Harbor Lights Festival", "Pier Arena", "Portland", "2022-04", "April 2022"),
        ("Late Show", "Pier Arena", "Portland", "2022-04-09", "2022-04-09"),
    }


def test_articles_with_source_and_counts(rows):
    columns = ("id", "source", "published", "quotations", "performances", "people", "events")
    found = {tuple(r[c] for c in columns) for r in rows(load("articles"))}
    assert found == {
        ("first", "news/first.txt", "2022-04-20", "2", "1", "1", "1"),
        ("second", "news/second.txt", "2022-04-10", "0", "1", "0", "2"),
    }


_PREFIX_DECLARATION = re.compile(r"^\s*PREFIX\s+([A-Za-z][\w-]*):", re.IGNORECASE | re.MULTILINE)
# A prefixed name outside comments, strings and IRIs: "schema:name", "kg:cue".
_PREFIXED_NAME = re.compile(r"(?<![\w:<#])([A-Za-z][\w-]*):[A-Za-z_]")


@pytest.mark.parametrize("name", names())
def test_every_query_declares_every_prefix_it_uses(name):
    text = load(name)
    code = "\n".join(re.sub(r"<[^>]*>|\"[^\"]*\"", "", line.split("#")[0]) for line in text.splitlines())
    used = set(_PREFIXED_NAME.findall(code)) - {"PREFIX"}
    assert used and used <= set(_PREFIX_DECLARATION.findall(text)), name


@pytest.mark.parametrize("name", names())
def test_every_query_parses_in_an_engine_without_default_prefixes(name):
    # pyoxigraph knows no prefix unless the query declares it (rdflib binds schema:, rdf: and more by default).
    store = pyoxigraph.Store()
    assert list(store.query(load(name))) == []


def test_queries_need_the_union_default_graph(dataset):
    plain = Dataset()
    for graph in dataset.graphs():
        target = plain.graph(graph.identifier)
        for triple in graph:
            target.add(triple)
    # Without default_union the named graphs are invisible to a plain query...
    assert list(plain.query(load("quotes"))) == []
    # ... and with it every article's quotations are found.
    assert len(list(dataset.query(load("quotes")))) == 2


def test_every_query_runs_in_both_engines(dataset, oxigraph):
    for name in names():
        assert _rdflib_rows(dataset, load(name)) == _oxigraph_rows(oxigraph, load(name)), name


def test_article_graphs_are_named(oxigraph):
    graphs = {g.value for g in oxigraph.named_graphs()}
    assert graphs == {"https://w3id.org/kg/id/article/first", "https://w3id.org/kg/id/article/second"}



def test_quotes_come_by_article_then_in_reading_order(tmp_path):
    # Quotes added out of order, in two articles added in reverse: rows group by article, then follow the text.
    text = '"Late one," she said. "Early one," he said. "Middle one," they said.'
    spans = [_span(text, part) for part in ("Late one,", "Early one,", "Middle one,")]
    ds = Dataset(default_union=True)
    for article_id in ("zeta", "alpha"):
        add_article(ds, Article(id=article_id, text=text), Facts(quotes=tuple(Quote(span=s) for s in spans[::-1])))
    write_dataset(ds, tmp_path / "graph.nq")
    store = pyoxigraph.Store()
    store.load(path=str(tmp_path / "graph.nq"), format=pyoxigraph.RdfFormat.N_QUADS)
    expected = [(f"https://w3id.org/kg/id/article/{a}", t) for a in ("alpha", "zeta")
                for t in ("Late one,", "Early one,", "Middle one,")]
    for found in (_rdflib_rows(ds, load("quotes")), _oxigraph_rows(store, load("quotes"))):
        assert [(r["article"], r["text"]) for r in found] == expected


def _tour_stops(count: int) -> list[tuple[Article, Facts]]:
    """``count`` articles on one tour, each at its own venue in its own city, each with one performance there."""
    pairs = []
    for stop in range(count):
        text = f"Mira Sol sang Tide {stop} on the Long Road Tour."
        city = Place(key="place:1", name=f"City {stop}", kind="city")
        venue = Place(key="place:2", name=f"Hall {stop}", kind="venue", contained_in="place:1")
        facts = Facts(
            entities=(Entity(key="person:1", kind="person", name="Mira Sol"),),
            works=(Work(key="work:1", title=f"Tide {stop}", kind="song"),),
            places=(city, venue),
            events=(Event(key="event:1", name="Long Road Tour", kind="music", location="place:2",
                          date=When(f"2023-0{stop + 1}", f"2023-0{stop + 1}")),),
            performances=(Performance(performer="person:1", work="work:1", event="event:1", location="place:2",
                                      cue="sang", span=_span(text, f"Mira Sol sang Tide {stop}")),),
        )
        pairs.append((Article(id=f"stop-{stop}", text=text), facts))
    return pairs


@pytest.mark.parametrize("engine", ["rdflib", "oxigraph"])
def test_an_event_with_many_places_gives_one_row_and_each_performance_its_own_place(engine, tmp_path):
    """A tour named in many articles holds a venue and a city per article: the rows do not multiply."""
    dataset = Dataset(default_union=True)
    for article, facts in _tour_stops(4):
        add_article(dataset, article, facts)
    if engine == "rdflib":
        run = lambda query: _rdflib_rows(dataset, query)  # noqa: E731
    else:
        store = pyoxigraph.Store()
        write_dataset(dataset, tmp_path / "tour.nq")
        store.load(path=str(tmp_path / "tour.nq"), format=pyoxigraph.RdfFormat.N_QUADS)
        run = lambda query: _oxigraph_rows(store, query)  # noqa: E731

    performances = sorted((r["work"], r["venue"], r["city"]) for r in run(load("performances")))
    assert performances == [(f"Tide {n}", f"Hall {n}", f"City {n}") for n in range(4)]
    events = run(load("events"))
    assert len(events) == 1
    assert events[0]["event"] == "Long Road Tour"
    # Which of its places the one row names is not defined; that it names one of them is.
    assert events[0]["venue"] in {f"Hall {n}" for n in range(4)}
    assert events[0]["city"] in {f"City {n}" for n in range(4)}


@pytest.mark.parametrize("engine", ["rdflib", "oxigraph"])
def test_placed_performances_without_a_named_event_give_no_event_rows(engine, tmp_path):
    """A review placing songs at a hall names no event: `events` is empty, `performances` has the hall."""
    text = "Mira Sol sang Tide at the Pier Hall."
    hall = Place(key="place:1", name="Pier Hall", kind="venue")
    facts = Facts(
        entities=(Entity(key="person:1", kind="person", name="Mira Sol"),),
        works=(Work(key="work:1", title="Tide", kind="song"),),
        places=(hall,),
        performances=(Performance(performer="person:1", work="work:1", location="place:1", cue="sang",
                                  span=_span(text, "Mira Sol sang Tide")),),
    )
    dataset = Dataset(default_union=True)
    add_article(dataset, Article(id="review", text=text), facts)
    store = pyoxigraph.Store()
    write_dataset(dataset, tmp_path / "review.nq")
    store.load(path=str(tmp_path / "review.nq"), format=pyoxigraph.RdfFormat.N_QUADS)
    run = (lambda q: _rdflib_rows(dataset, q)) if engine == "rdflib" else (lambda q: _oxigraph_rows(store, q))
    assert run(load("events")) == []
    assert [(r["performer"], r["work"], r["venue"]) for r in run(load("performances"))] == [
        ("Mira Sol", "Tide", "Pier Hall")]
