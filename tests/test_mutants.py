"""The mutation run's switch: what taking a sieve's decisions away leaves of each kind of fact."""

from __future__ import annotations

from kg.extract.model import Event, Performance, Quote, Scene, TextSpan, Work

from .mutants import _filtered

SPAN = TextSpan(0, 4, "Tide")


def test_a_fact_the_sieve_made_is_dropped_and_others_stay() -> None:
    works = (Work("work:1", "Tide", rule="work.cue"), Work("work:2", "Lantern", rule="work.typeset"))
    assert [w.key for w in _filtered(works, "work.cue", "quote.unattributed")] == ["work:2"]


def test_a_quotation_loses_its_speaker_and_an_unattributed_one_is_dropped() -> None:
    quotes = (Quote(SPAN, speaker="person:1", rule="quote.focus"), Quote(SPAN, rule="quote.unattributed"))
    kept = _filtered(quotes, "quote.focus", "quote.unattributed")
    assert [(q.speaker, q.rule) for q in kept] == [(None, "quote.unattributed"), (None, "quote.unattributed")]
    assert _filtered(quotes, "quote.unattributed", "quote.unattributed") == (quotes[0],)


def test_a_place_or_context_the_sieve_gave_is_left_open() -> None:
    event = Event("event:1", "Lantern Concert", location="place:1", location_rule="location.after-name")
    sung = Performance("person:1", SPAN, work="work:1", event="event:1", location="place:1", rule="perf.subject",
                       context_rule="context.clause")
    assert _filtered((event,), "location.after-name", "")[0].location is None
    placed = _filtered((sung,), "context.clause", "")[0]
    assert (placed.work, placed.event, placed.location) == ("work:1", None, None)


def test_the_scene_loses_a_show_the_sieve_made() -> None:
    show = Event("event:1", "the concert", rule="event.described")
    events, scene = _filtered(((show,), Scene(show="event:1", city="place:1")), "event.described", "")
    assert events == () and scene == Scene(city="place:1")
