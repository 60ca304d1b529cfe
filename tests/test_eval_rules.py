"""``kg eval --by-rule``: each sieve decision judged against hand-made gold, misses explained, the report."""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner

from kg.cli import cli
from kg.errors import InputError
from kg.eval import load_gold
from kg.eval_decisions import ArticleRules, Decision, Miss, judge
from kg.eval_rules import RuleReport, RuleTally, render_rules
from kg.extract.model import (
    Entity,
    Event,
    Facts,
    Performance,
    Place,
    Quote,
    TextSpan,
    Work,
)
from kg.io import Article

from .conftest import EXAMPLES

ARTICLE = Article(id="gig", text="(not read by the judge)", source="reports/gig.txt")


def _span(text: str) -> TextSpan:
    return TextSpan(0, len(text), text)


def _quote(text: str, speaker: str | None, rule: str | None) -> Quote:
    return Quote(span=_span(text), speaker=speaker, rule=rule)


def _perf(
    performer: str, work: str | None, rule: str | None, context_rule: str | None = None, **where: str
) -> Performance:
    return Performance(performer=performer, span=_span("..."), work=work, rule=rule, context_rule=context_rule, **where)


GOLD = {
    "source": "gig.txt",
    "people": [
        {"name": "Ruth Ayling", "aliases": ["Ayling"]},
        {"name": "Tom Vell"},
        {"name": "Ana Krol"},
    ],
    "groups": [{"name": "The Marsh Lights"}],
    "quotes": [
        {"speaker": "Ruth Ayling", "text": "We played this one for the harbour,"},
        {"speaker": "Ruth Ayling", "text": "Thank you for staying out in the rain."},
        {"speaker": "Tom Vell", "text": "never again"},
        {"speaker": None, "text": "a proper send-off"},
        {"speaker": "Ruth Ayling", "text": "Sea Glass", "optional": True},
        {"speaker": "Tom Vell", "text": "The pier was full from end to end."},
    ],
    "performances": [
        {"performer": "The Marsh Lights", "work": "Sea Glass", "event": "Harbour Nights", "venue": "Pier Hall",
         "city": "Whitby"},
        {"performer": "Ruth Ayling", "work": "Sea Glass", "event": "Harbour Nights"},
        {"performer": "Ruth Ayling", "work": "Low Water", "city": "Whitby"},
        {"performer": "The Marsh Lights", "work": "Driftwood", "venue": "Pier Hall"},
        {"performer": "Tom Vell", "work": "Salt Road"},
        {"performer": "Ana Krol", "work": "Low Water"},
        {"performer": "The Marsh Lights", "work": None, "event": "Harbour Nights"},
        {"performer": "Tom Vell", "work": "Undertow", "optional": True},
    ],
    "event_venues": [
        {"event": "Harbour Nights", "venue": "Pier Hall", "city": "Whitby"},
        {"event": "Spring Fair", "venue": None, "city": None},
        {"event": "Winter Ball", "city": "Whitby"},
        {"event": "Harvest Fair", "venue": "Town Hall"},
        {"event": "Regatta", "city": "Scarborough"},
    ],
    "works": [{"title": "Sea Glass"}, {"title": "Low Water"}, {"title": "Driftwood"}],
}

FACTS = Facts(
    entities=(
        Entity(key="person:1", kind="person", name="Ruth Ayling", aliases=("Ayling",)),
        Entity(key="person:2", kind="person", name="Tom Vell"),
        Entity(key="group:1", kind="group", name="The Marsh Lights"),
    ),
    quotes=(
        _quote("We played this one for the harbour,", "person:1", "quote.trigram"),
        _quote("Thank you for staying out in the rain.", "person:2", "quote.trigram"),
        _quote("a proper send-off", "person:2", "quote.trigram-loose"),
        _quote("Sea Glass", "person:1", "quote.colon"),
        _quote("The tide was out and nobody minded at all", None, None),
        _quote("The pier was full from end to end.", None, "quote.orphan"),
    ),
    works=(
        Work(key="work:1", title="Sea Glass", rule="work.quoted"),
        Work(key="work:2", title="Low Water", rule="work.quoted"),
        Work(key="work:3", title="Driftwood", rule="work.caps"),
        Work(key="work:4", title="The Tallow Boys", rule="work.caps"),
        Work(key="work:5", title="Undertow", rule="work.caps"),
    ),
    places=(
        Place(key="place:1", name="Whitby", kind="city"),
        Place(key="place:2", name="Pier Hall", kind="venue", contained_in="place:1"),
        Place(key="place:3", name="Scarborough", kind="city"),
    ),
    events=(
        Event(key="event:1", name="Harbour Nights", location="place:2", location_rule="location.at-venue"),
        Event(key="event:2", name="Winter Ball"),
        Event(key="event:3", name="Boat Race", location="place:1", location_rule="location.in-city"),
        Event(key="event:4", name="Regatta", location="place:1", location_rule="location.in-city"),
    ),
    performances=(
        _perf("group:1", "work:1", "perf.frame", "context.named-event", event="event:1"),
        _perf("person:1", "work:2", "perf.frame", "context.lead-venue", location="place:3"),
        _perf("person:2", "work:1", "perf.frame"),
        _perf("person:1", "work:1", "perf.frame"),
        _perf("group:1", None, "perf.set", "context.named-event", event="event:1"),
    ),
)


@pytest.fixture(scope="module")
def judged():
    return judge(GOLD, ARTICLE, FACTS)


@pytest.fixture(scope="module")
def tallies(judged) -> dict[tuple[str, str], RuleTally]:
    return {(t.group, t.rule): t for t in RuleReport((judged,)).tallies}


def _decision(judged, group: str, label_part: str) -> Decision:
    (found,) = [d for d in judged.decisions if d.group == group and label_part in d.label]
    return found


def _misses(judged, kind: str, reason: str) -> list[str]:
    return [m.label for m in judged.misses if (m.kind, m.reason) == (kind, reason)]


# --- quotations ------------------------------------------------------------------------------------


def test_a_rule_that_fired_twice_and_was_right_once(tallies):
    trigram = tallies["quotes", "quote.trigram"]
    assert (trigram.fired, trigram.right, trigram.wrong, trigram.precision) == (2, 1, 1, 0.5)


def test_a_quote_given_to_another_speaker_is_wrong_and_names_the_gold_speaker(judged):
    decision = _decision(judged, "quotes", "Thank you for staying out")
    assert (decision.rule, decision.outcome, decision.why) == ("quote.trigram", "wrong", "gold: Ruth Ayling")


def test_a_gold_quote_with_no_speaker_is_judged_by_its_text(judged):
    assert _decision(judged, "quotes", "a proper send-off").outcome == "right"


def test_a_quote_of_an_optional_gold_item_is_not_judged(tallies):
    colon = tallies["quotes", "quote.colon"]
    assert (colon.fired, colon.unjudged, colon.precision) == (1, 1, None)


def test_a_quote_with_no_rule_is_reported_under_none_and_is_wrong_when_gold_has_no_such_quote(judged):
    decision = _decision(judged, "quotes", "The tide was out")
    assert (decision.rule, decision.outcome, decision.why) == ("(none)", "wrong", "no gold quote")


def test_quote_misses_say_why(judged):
    assert _misses(judged, "quotes", "no candidate") == ["\u201cnever again\u201d \u2014 Tom Vell"]
    assert _misses(judged, "quotes", "no speaker") == ["\u201cThe pier was full from end to end.\u201d \u2014 Tom Vell"]
    assert _misses(judged, "quotes", "wrong speaker") == [
        "\u201cThank you for staying out in the rain.\u201d \u2014 Ruth Ayling (found: Tom Vell)"
    ]


# --- performances and where they were ------------------------------------------------------------


def test_performances_are_right_by_performer_and_work(tallies, judged):
    frame = tallies["performances", "perf.frame"]
    assert (frame.fired, frame.right, frame.wrong) == (4, 3, 1)
    assert _decision(judged, "performances", "Tom Vell: Sea Glass").why == "no gold performance"


def test_a_performance_of_no_named_work_is_not_judged(tallies):
    assert tallies["performances", "perf.set"].unjudged == 1


def test_context_rules_are_judged_on_right_performances_only(tallies, judged):
    named = tallies["performance context", "context.named-event"]
    assert (named.fired, named.right, named.unjudged) == (2, 1, 1)
    lead = _decision(judged, "performance context", "Ruth Ayling: Low Water")
    assert (lead.rule, lead.outcome, lead.why) == ("context.lead-venue", "wrong", "gold: Whitby")


def test_an_unplaced_performance_makes_no_context_decision(judged):
    contexts = [d.label for d in judged.decisions if d.group == "performance context"]
    assert not any(label.startswith(("Tom Vell", "Ruth Ayling: Sea Glass")) for label in contexts)


@pytest.mark.parametrize(
    ("gold_where", "expected"),
    [
        # The gold venue or city is what counts when the gold gives one: the event alone is not enough.
        ({"event": "Low Tide Tour", "venue": "Harbourline Arena", "city": "Glasgow"}, "wrong"),
        # With no place in the gold, the event is the context.
        ({"event": "Low Tide Tour"}, "right"),
        # A gold place may match the predicted event's name, as the reference scorer allows.
        ({"venue": "Low Tide Tour Stage"}, "right"),
    ],
    ids=["place-wanted", "event-only", "place-as-event-name"],
)
def test_context_is_judged_as_the_reference_scorer_judges_performed_work_where(gold_where, expected):
    gold = {"source": "tour.txt", "performances": [{"performer": "Mara Quill", "work": "Tidewater", **gold_where}]}
    facts = Facts(
        entities=(Entity(key="p", kind="person", name="Mara Quill"),),
        works=(Work(key="w", title="Tidewater"),),
        events=(Event(key="e", name="Low Tide Tour Stage"),),
        performances=(_perf("p", "w", "perf.frame", "context.tour", event="e"),),
    )
    (context,) = [d for d in judge(gold, ARTICLE, facts).decisions if d.group == "performance context"]
    assert context.outcome == expected


def test_a_place_reached_twice_is_named_once():
    facts = Facts(
        entities=FACTS.entities, works=FACTS.works, places=FACTS.places, events=FACTS.events,
        performances=(_perf("group:1", "work:1", "perf.frame", event="event:1", location="place:2"),),
    )
    (decision,) = [d for d in judge(GOLD, ARTICLE, facts).decisions if d.group == "performances"]
    assert decision.label == "The Marsh Lights: Sea Glass @ Harbour Nights / Pier Hall / Whitby"


def test_performance_misses_say_which_step_failed(judged):
    assert _misses(judged, "performances", "work not found") == ["Tom Vell: Salt Road"]
    assert _misses(judged, "performances", "performer not found") == ["Ana Krol: Low Water"]
    assert _misses(judged, "performances", "pair not found") == ["The Marsh Lights: Driftwood @ Pier Hall"]
    assert _misses(judged, "performances", "not placed") == ["Ruth Ayling: Sea Glass @ Harbour Nights"]
    assert _misses(judged, "performances", "wrong place") == ["Ruth Ayling: Low Water @ Whitby (found: Scarborough)"]


def test_gold_performances_of_no_work_or_optional_ones_are_never_missed(judged):
    labels = [m.label for m in judged.misses if m.kind == "performances"]
    assert not any("Undertow" in label or "(no work)" in label for label in labels)


# --- events and works ------------------------------------------------------------------------------


def test_location_rules(tallies, judged):
    at_venue = tallies["event location", "location.at-venue"]
    assert (at_venue.fired, at_venue.right) == (1, 1)
    in_city = tallies["event location", "location.in-city"]
    assert (in_city.fired, in_city.wrong) == (2, 2)
    assert _decision(judged, "event location", "Boat Race").why == "gold places no such event"
    assert _decision(judged, "event location", "Regatta").why == "gold: Scarborough"


def test_event_misses_say_why(judged):
    assert _misses(judged, "events", "event not found") == ["Harvest Fair @ Town Hall"]
    assert _misses(judged, "events", "not placed") == ["Winter Ball @ Whitby"]
    assert _misses(judged, "events", "wrong place") == ["Regatta @ Scarborough (found: Whitby)"]
    # An event the gold places nowhere cannot be missed.
    assert not any("Spring Fair" in m.label for m in judged.misses)


def test_works_match_gold_works_or_the_works_of_gold_performances(tallies, judged):
    caps = tallies["works", "work.caps"]
    assert (caps.fired, caps.right, caps.wrong, caps.unjudged) == (3, 1, 1, 1)
    assert _decision(judged, "works", "The Tallow Boys").why == "not a gold work"
    assert tallies["works", "work.quoted"].precision == 1.0


def test_malformed_gold_names_the_article():
    with pytest.raises(InputError, match=r"gold for reports/gig\.txt: quotes\[0\]: \"speaker\" is missing"):
        judge({"source": "gig.txt", "quotes": [{"text": "Hi."}]}, ARTICLE, Facts())


# --- the report --------------------------------------------------------------------------------------


def test_tallies_add_up_over_articles_and_keep_the_article_in_wrong_examples(judged):
    other = judge({**GOLD, "source": "other.txt"}, ARTICLE, FACTS)
    trigram = next(t for t in RuleReport((judged, other)).tallies if t.rule == "quote.trigram")
    assert (trigram.fired, trigram.right) == (4, 2)
    assert trigram.wrong_examples[1].startswith("other.txt: \u201cThank you for staying out")


def test_rules_are_listed_by_group_then_id(tallies):
    groups = [group for group, _ in tallies]
    assert groups == sorted(groups, key=["quotes", "performances", "performance context", "event location",
                                         "works"].index)
    assert [rule for group, rule in tallies if group == "quotes"] == [
        "(none)", "quote.colon", "quote.orphan", "quote.trigram", "quote.trigram-loose",
    ]


def test_render_shows_the_table_wrong_decisions_and_misses(judged):
    lines = render_rules(RuleReport((judged,))).splitlines()
    assert lines[0] == "decisions by rule (1 articles)"
    assert re.fullmatch(r"  group +rule +fired +right +wrong +unjudged +P", lines[1])
    row = next(line for line in lines if "quote.trigram " in line)
    assert re.fullmatch(r"  quotes +quote\.trigram +2 +1 +1 +0 +0\.500", row)
    assert "  quotes / quote.trigram: 1" in lines
    assert "    wrong speaker            1" in lines
    assert "      gig.txt: \u201cnever again\u201d \u2014 Tom Vell" in lines


def test_render_cuts_long_lists_of_examples():
    misses = tuple(Miss("quotes", "no candidate", f"\u201cline {n}\u201d \u2014 ?") for n in range(5))
    lines = render_rules(RuleReport((ArticleRules("a.txt", misses=misses),)), examples=2).splitlines()
    assert "      a.txt: \u201cline 1\u201d \u2014 ?" in lines
    assert "      a.txt: \u201cline 2\u201d \u2014 ?" not in lines
    assert "      \u2026 and 3 more" in lines


def test_report_to_dict_is_json_ready(judged):
    data = json.loads(json.dumps(RuleReport((judged,)).to_dict()))
    assert data["articles"] == ["gig.txt"]
    assert {"group": "quotes", "rule": "quote.trigram", "fired": 2, "right": 1, "wrong": 1, "unjudged": 0,
            "precision": 0.5,
            "wrong_examples": ["gig.txt: \u201cThank you for staying out in the rain.\u201d \u2014 Tom Vell "
                               "[gold: Ruth Ayling]"]} in data["rules"]
    assert data["misses"]["events"]["not placed"] == ["gig.txt: Winter Ball @ Whitby"]
    assert data["misses"]["performances"]["pair not found"] == ["gig.txt: The Marsh Lights: Driftwood @ Pier Hall"]


def test_cli_by_rule_on_the_examples():
    """Every annotated example is judged, and a speaker named at the cue is never wrong there."""
    result = CliRunner().invoke(cli, ["eval", str(EXAMPLES / "gold"), str(EXAMPLES), "--by-rule"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == f"decisions by rule ({len(load_gold(EXAMPLES / 'gold'))} articles)"
    assert re.fullmatch(r"  group +rule +fired +right +wrong +unjudged +P", lines[1])
    row = next(line for line in lines if "quote.cue-name " in line).split()
    assert row[3] == row[2] and row[4:7] == ["0", "0", "1.000"], row
    assert "  quotes: 0" in lines[lines.index("misses by kind:"):]
