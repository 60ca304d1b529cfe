"""Evaluation: matching rules, exact scores on hand-built facts, the report in text and JSON."""

from __future__ import annotations

import json

import pytest

from kg.errors import InputError
from kg.eval import KINDS, evaluate, names_match, render, summarize, texts_match
from kg.extract.model import Entity, Event, Facts, Performance, Place, Quote, TextSpan, Work
from kg.io import Article

ARTICLE = Article(id="gig", text="(not read by the scorer)", source="reports/gig.txt")


def _span(text: str) -> TextSpan:
    return TextSpan(0, len(text), text)


def _quote(text: str, speaker: str | None = None) -> Quote:
    return Quote(span=_span(text), speaker=speaker)


def _perf(
    performer: str, work: str | None = None, event: str | None = None, location: str | None = None
) -> Performance:
    return Performance(performer=performer, span=_span("..."), work=work, event=event, location=location)


GOLD = {
    "source": "gig.txt",
    "people": [{"name": "Ruth Ayling", "aliases": ["Ayling"], "descriptions": ["the singer"]}],
    "groups": [{"name": "The Marsh Lights", "aliases": [], "descriptions": []}],
    "quotes": [
        {"speaker": "Ruth Ayling", "text": "We played this one for the harbour,"},
        {"speaker": "Ruth Ayling", "text": "Thank you for staying out in the rain."},
        {"speaker": "Ruth Ayling", "text": "never again"},
        {"speaker": None, "text": "a proper send-off"},
        {"speaker": "Ruth Ayling", "text": "Sea Glass", "optional": True},
    ],
    "performances": [
        {
            "performer": "The Marsh Lights",
            "work": "Sea Glass",
            "event": "Harbour Nights",
            "venue": "Pier Hall",
            "city": "Whitby",
        },
        {"performer": "Ruth Ayling", "work": "Low Water", "event": None, "venue": None, "city": "Whitby"},
        {"performer": "The Marsh Lights", "work": None, "event": "Harbour Nights", "venue": None, "city": None},
    ],
    "event_venues": [
        {"event": "Harbour Nights", "venue": "Pier Hall", "city": "Whitby"},
        {"event": "Spring Fair", "venue": None, "city": None},
    ],
    "works": [{"title": "Sea Glass", "type": "song", "creator": "The Marsh Lights"}],
}

FACTS = Facts(
    entities=(
        Entity(key="person:1", kind="person", name="Ruth Ayling", aliases=("Ayling",)),
        Entity(key="group:1", kind="group", name="Marsh Lights"),
        Entity(key="person:2", kind="person", name="Tom Fenn"),
    ),
    quotes=(
        _quote("We played this one for the harbour,", "person:1"),
        _quote("Thank you for staying out in the rain.", "person:2"),
        _quote("a proper send-off", "person:2"),
        _quote("Sea Glass"),
        _quote("The tide was out and nobody minded at all"),
    ),
    works=(
        Work(key="work:1", title="Sea Glass"),
        Work(key="work:2", title="Low Water"),
        Work(key="work:3", title="Salt Road"),
    ),
    places=(
        Place(key="place:1", name="Pier Hall", kind="venue", contained_in="place:2"),
        Place(key="place:2", name="Whitby", kind="city"),
    ),
    events=(
        Event(key="event:1", name="Harbour Nights", location="place:1"),
        Event(key="event:2", name="Spring Fair"),
        Event(key="event:3", name="Boat Race", location="place:2"),
    ),
    performances=(
        _perf("group:1", work="work:1", event="event:1"),
        _perf("group:1", work="work:1", event="event:1"),
        _perf("person:1", work="work:2", location="place:2"),
        _perf("person:2", work="work:3", location="place:1"),
        _perf("group:1"),
    ),
)


# --- matching rules -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        ("Ruth Ayling", "ruth ayling", True),  # case
        ("Ruth Ayling.", "Ruth  Ayling", True),  # punctuation and spacing
        ("Wrecker\u2019s Light", "Wreckers Light", True),  # apostrophes
        ("Ayling", "Ruth Ayling", True),  # one word, half of the longer
        ("Marsh Lights", "The Marsh Lights", True),  # two words contained
        ("Harbour Nights", "Whitby Harbour Nights Festival", True),  # two words contained
        ("Whitby", "Whitby Harbour Nights Festival", False),  # one word of four
        ("Ruth Ayling", "Ruth Fenn", False),  # overlap is not containment
        ("Pier Hall", "Hall", True),  # one word of two
        ("", "Ruth", False),  # nothing to match
        ("!!", "??", False),  # punctuation only
    ],
)
def test_names_match(a, b, expected):
    assert names_match(a, b) is expected
    assert names_match(b, a) is expected


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        ("We played this one for the harbour,", "We played this one for the harbour", True),
        ("We played this one", "We played this one for the harbour, and for you", False),  # 4 shared of 10
        ("We played this one for the harbour", "this one for the harbour", True),  # 5 shared of 7 and of 5
        ("It\u2019s late", "Its late", True),  # apostrophes
        ("Thank you", "Goodbye now", False),
        ("", "", False),
    ],
)
def test_texts_match(a, b, expected):
    assert texts_match(a, b) is expected
    assert texts_match(b, a) is expected


# --- scores on hand-built facts ----------------------------------------------------------


@pytest.fixture(scope="module")
def score():
    return evaluate(GOLD, ARTICLE, FACTS)


def test_every_kind_is_scored(score):
    assert score.source == "gig.txt"
    assert tuple(score.scores) == KINDS


def test_quote_span(score):
    s = score.scores["quote span"]
    # Optional "Sea Glass" is neither found nor missed; the null-speaker quote counts for its span.
    assert (s.gold, s.predicted, s.hits) == (4, 4, 3)
    assert (s.precision, s.recall, s.f1) == (0.75, 0.75, 0.75)
    assert s.misses == ("\u201cnever again\u201d \u2014 Ruth Ayling",)
    assert s.false_hits == ("\u201cThe tide was out and nobody minded at all\u201d \u2014 ?",)


def test_quote_with_speaker(score):
    s = score.scores["quote with speaker"]
    # The wrong speaker is both a miss and a false hit; a guess at a null speaker is ignored.
    assert (s.gold, s.predicted, s.hits) == (3, 2, 1)
    assert s.precision == 0.5
    assert s.recall == pytest.approx(1 / 3)
    assert s.f1 == pytest.approx(0.4)
    assert s.misses == (
        "\u201cThank you for staying out in the rain.\u201d \u2014 Ruth Ayling",
        "\u201cnever again\u201d \u2014 Ruth Ayling",
    )
    assert s.false_hits == ("\u201cThank you for staying out in the rain.\u201d \u2014 Tom Fenn",)


def test_performed_work(score):
    s = score.scores["performed work"]
    # The duplicate performance counts once; the one without a work is no claim.
    assert (s.gold, s.predicted, s.hits) == (2, 3, 2)
    assert s.precision == pytest.approx(2 / 3)
    assert s.recall == 1.0
    assert s.f1 == pytest.approx(0.8)
    assert s.misses == ()
    assert s.false_hits == ("Tom Fenn: Salt Road",)


def test_performance_at_place_or_event(score):
    s = score.scores["performance at place/event"]
    # One predicted performance can fill only one gold item, though it matches two.
    assert (s.gold, s.predicted, s.hits) == (3, 3, 2)
    assert (s.precision, s.recall) == (pytest.approx(2 / 3), pytest.approx(2 / 3))
    assert s.misses == ("The Marsh Lights: (no work) @ Harbour Nights",)
    assert s.false_hits == ("Tom Fenn: Salt Road @ Pier Hall / Whitby",)


def test_event_at_place(score):
    s = score.scores["event at place"]
    # "Spring Fair" has no place on either side, so it is no item.
    assert (s.gold, s.predicted, s.hits) == (1, 2, 1)
    assert (s.precision, s.recall) == (0.5, 1.0)
    assert s.f1 == pytest.approx(2 / 3)
    assert s.misses == ()
    assert s.false_hits == ("Boat Race @ Whitby",)


def test_place_chain_reaches_the_city():
    gold = {"source": "x.txt", "event_venues": [{"event": "Harbour Nights", "venue": None, "city": "Whitby"}]}
    facts = Facts(
        places=(Place(key="p1", name="Pier Hall", contained_in="p2"), Place(key="p2", name="Whitby")),
        events=(Event(key="e1", name="Harbour Nights", location="p1"),),
    )
    assert evaluate(gold, ARTICLE, facts).scores["event at place"].hits == 1


def test_performance_inherits_place_and_name_of_super_event():
    gold = {
        "source": "x.txt",
        "performances": [
            {"performer": "Ruth Ayling", "work": None, "event": "Harbour Nights", "venue": None, "city": None}
        ],
    }
    facts = Facts(
        entities=(Entity(key="p", kind="person", name="Ruth Ayling"),),
        events=(Event(key="night2", name="Second night", super_event="fest"), Event(key="fest", name="Harbour Nights")),
        performances=(_perf("p", event="night2"),),
    )
    s = evaluate(gold, ARTICLE, facts).scores["performance at place/event"]
    assert (s.hits, s.false_hits, s.misses) == (1, (), ())


def test_speaker_matches_through_gold_alias():
    gold = {
        "source": "x.txt",
        "people": [{"name": "Ruth Ayling", "aliases": ["Ruthie"]}],
        "quotes": [{"speaker": "Ruth Ayling", "text": "Home at last."}],
    }
    facts = Facts(entities=(Entity(key="p", kind="person", name="Ruthie"),), quotes=(_quote("Home at last.", "p"),))
    assert evaluate(gold, ARTICLE, facts).scores["quote with speaker"].hits == 1


def test_nothing_on_either_side_has_no_scores():
    s = evaluate({"source": "x.txt"}, ARTICLE, Facts()).scores["quote span"]
    assert (s.gold, s.predicted, s.precision, s.recall, s.f1) == (0, 0, None, None, None)


def test_summarize_adds_counts_and_names_the_article():
    other = evaluate({"source": "other.txt", "quotes": [{"speaker": None, "text": "Late again."}]}, ARTICLE, Facts())
    report = summarize([evaluate(GOLD, ARTICLE, FACTS), other])
    total = report.total["quote span"]
    assert (total.gold, total.predicted, total.hits) == (5, 4, 3)
    assert total.recall == 0.6
    assert total.misses == (
        "gig.txt: \u201cnever again\u201d \u2014 Ruth Ayling",
        "other.txt: \u201cLate again.\u201d \u2014 ?",
    )


def test_render_shows_rows_and_problems():
    text = render(summarize([evaluate(GOLD, ARTICLE, FACTS)]))
    assert "  quote span                       4     4     3   0.750   0.750   0.750" in text.splitlines()
    assert "total (1 articles, micro)" in text
    assert "  miss       [quote span] gig.txt: \u201cnever again\u201d \u2014 Ruth Ayling" in text.splitlines()
    assert "  false hit  [event at place] gig.txt: Boat Race @ Whitby" in text.splitlines()


def test_evaluate_rejects_malformed_gold():
    with pytest.raises(InputError, match=r"gold for reports/gig\.txt: unknown key 'quote'"):
        evaluate({"source": "gig.txt", "quote": []}, ARTICLE, Facts())


def test_report_to_dict_is_json_ready():
    data = json.loads(json.dumps(summarize([evaluate(GOLD, ARTICLE, FACTS)]).to_dict()))
    assert data["articles"][0]["source"] == "gig.txt"
    assert data["total"]["quote span"] == {
        "gold": 4,
        "predicted": 4,
        "hits": 3,
        "precision": 0.75,
        "recall": 0.75,
        "f1": 0.75,
        "misses": ["gig.txt: \u201cnever again\u201d \u2014 Ruth Ayling"],
        "false_hits": ["gig.txt: \u201cThe tide was out and nobody minded at all\u201d \u2014 ?"],
    }
    assert data["total"]["event at place"]["f1"] == pytest.approx(2 / 3)
