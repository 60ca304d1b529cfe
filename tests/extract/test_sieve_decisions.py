"""Each sieve decides what it says it decides, on invented sentences, and names itself on the fact."""

from __future__ import annotations

import pytest

from kg.extract.model import Facts

SPEAKER = "Mara Quinlan"


def _said(facts: Facts) -> list[tuple[str, str | None, str | None]]:
    names = {e.key: e.name for e in facts.entities}
    return [(q.span.text, names.get(q.speaker) if q.speaker else None, q.rule) for q in facts.quotes]


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        ('"We played it loud tonight," Mara Quinlan said after the show.', "quote.cue-name"),
        ('Mara Quinlan walked onto the stage late.\n\n"It was a long drive from the coast," the singer added.',
         "quote.cue-resolved"),
        ('Mara Quinlan was less convinced about the plan: "Not this year, and maybe not next year either."',
         "quote.clause-colon"),
        ('Mara Quinlan was blunt about the tour. "We are done with arenas for good."', "quote.set-up"),
        # any verb where a cue stands, after the words or ending the clause before them
        ('"Not in this town, and not tonight," Mara Quinlan smirked from the piano.', "quote.verb-place"),
        ('"Who needs a setlist anyway?" shrugged Mara Quinlan.', "quote.verb-place"),
        ('When the lights came back, Mara Quinlan paused, "We will play on until the power goes."', "quote.verb-place"),
        ("Mara Quinlan dismissed the plan as a “magic cure for everything” on Friday.", "quote.fragment-holder"),
    ],
)
def test_a_quotation_goes_to_its_speaker_by_the_named_sieve(run, text, rule):
    ((_, speaker, decided),) = _said(run(text))
    assert (speaker, decided) == (SPEAKER, rule)


def test_a_continuation_keeps_the_speaker_and_says_so(run):
    said = _said(run('"We played it loud," Mara Quinlan said. "The crowd knew every single word."'))
    assert [(s, r) for _, s, r in said] == [(SPEAKER, "quote.cue-name"), (SPEAKER, "quote.continuation")]


def test_words_nobody_is_said_to_speak_stay_unattributed(run):
    ((_, speaker, rule),) = _said(run('"Never again, never again," read a banner above the gate.'))
    assert (speaker, rule) == (None, "quote.unattributed")


def _performed(facts: Facts) -> set[tuple[str, str, str | None, str | None, str | None]]:
    names = {e.key: e.name for e in facts.entities}
    titles = {w.key: w.title for w in facts.works}
    places = {p.key: p.name for p in facts.places}
    return {(names[p.performer], titles.get(p.work, ""), p.rule, places.get(p.location), p.context_rule)
            for p in facts.performances}


def test_a_verb_of_performing_places_its_works_by_its_own_clause(run):
    found = _performed(run("Mara Quinlan opened the show with 'Lantern Song' and 'Harbor Lights' "
                           "at the Orla Hall in Dublin on Friday."))
    assert found == {
        (SPEAKER, "Lantern Song", "perf.cue-clause", "Orla Hall", "context.clause"),
        (SPEAKER, "Harbor Lights", "perf.cue-clause", "Orla Hall", "context.clause"),
    }


def test_the_owner_of_a_part_of_the_show_performed_its_work(run):
    found = _performed(run("Mara Quinlan closed the night at the Orla Hall in Dublin. "
                           "Her encore, a cover of 'Lantern Song', brought the crowd to its feet."))
    assert {(who, work, rule) for who, work, rule, _, _ in found} == {(SPEAKER, "Lantern Song", "perf.show-part")}


def test_a_members_song_at_the_bands_own_show_is_the_bands_too(run):
    found = _performed(run("The Harbor Kites played the Orla Hall in Dublin on Friday as part of the Long Road Tour. "
                           "The band opened with 'Lantern Song'. Frontwoman Mara Quinlan sang 'Salt Road'."))
    assert {(who, work, rule) for who, work, rule, _, _ in found} == {
        ("Harbor Kites", "Lantern Song", "perf.cue-clause"),
        (SPEAKER, "Salt Road", "perf.cue-clause"),
        ("Harbor Kites", "Salt Road", "perf.band"),
    }


def test_the_event_of_the_sentence_before_places_a_performance_by_the_paragraph(run):
    facts = run("The Quarry Festival opened on Friday in Kelsworth. Mara Quinlan sang 'Lantern Song' to a packed field.")
    events = {e.key: e.name for e in facts.events}
    ((performance),) = facts.performances
    assert events[performance.event] == "Quarry Festival"
    assert performance.context_rule == "context.paragraph"


def test_an_event_earlier_in_the_sentence_places_it_by_the_sentence(run):
    facts = run("At the Quarry Festival, Mara Quinlan belted out her hits, 'Lantern Song', and, 'Harbor Lights'.")
    titles = {w.key: w.title for w in facts.works}
    assert {(titles[p.work], p.context_rule) for p in facts.performances} == {
        ("Lantern Song", "context.sentence"), ("Harbor Lights", "context.sentence")}


@pytest.mark.parametrize(
    ("text", "title", "rule"),
    [
        ("Mara Quinlan released her new single 'Lantern Song' on Friday.", "Lantern Song", "work.cue"),
        ('Fans love the "Copper Wire" singer Mara Quinlan.', "Copper Wire", "work.role"),
        ("The night's loveliest moment was 'Harbor Lights'.", "Harbor Lights", "work.sung"),
        ('The crowd knew every word of "Copper Wire" by Mara Quinlan.', "Copper Wire", "work.byline"),
        ("The Harbor Symphony Orchestra played the Piano Concerto No. 1 on Sunday.", "Piano Concerto No. 1",
         "work.concert-piece"),
    ],
)
def test_a_title_is_a_work_by_the_named_sieve(run, text, title, rule):
    assert [(w.title, w.rule) for w in run(text).works] == [(title, rule)]


def test_an_orchestra_named_after_a_form_is_no_piece(run):
    assert "Harbor Symphony" not in {w.title for w in run("The Harbor Symphony Orchestra played on Sunday.").works}


@pytest.mark.parametrize(
    ("text", "event", "place", "rule"),
    [
        ("The Quarry Festival at Fenmore Park drew 40,000 fans.", "Quarry Festival", "Fenmore Park",
         "location.after-name"),
        ("The Quarry Festival returns to Fenmore Park in July.", "Quarry Festival", "Fenmore Park",
         "location.of-verb"),
        ("The Quarry Festival opened on Friday, with Mara Quinlan singing at the Brindle Hall.", "Quarry Festival",
         "Brindle Hall", "location.later-clause"),
        ("Mara Quinlan played the Denver residency for a month.", "Denver residency", "Denver", "location.in-name"),
        # a name of no known kind is an event when it is said to have been held
        ("The Harbor Jazz Night, run by a local charity, was held at the Brindle Hall on Friday.",
         "Harbor Jazz Night", "Brindle Hall", "location.of-verb"),
        ("The Dunmere-by-the-Sea Weekender, run by volunteers, was held at Fenmore Park.",
         "Dunmere-by-the-Sea Weekender", "Fenmore Park", "location.of-verb"),
        # the show named first, its place given where a description refers back to it
        ("Mara Quinlan sang at Lantern Radio's Harbor Ball on Sunday. The two-night charity show, which takes "
         "place at Fenmore Park, drew a record crowd.", "Harbor Ball", "Fenmore Park",
         "location.back-reference"),
        # an event named by description, with the place before its words
        ("The duo spoke to reporters at a Denver press conference on Monday.",
         "Denver press conference", "Denver", "location.in-name"),
        # the parser ends a sentence at the dateline's dash: the event is in the next one
        ("NASHVILLE, Tenn. (AP) — Mara Quinlan won three prizes at the Lantern Awards on Sunday.", "Lantern Awards",
         "Nashville", "location.dateline"),
    ],
)
def test_an_event_is_placed_by_the_named_sieve(run, text, event, place, rule):
    facts = run(text)
    places = {p.key: p.name for p in facts.places}
    assert [(e.name, places.get(e.location), e.location_rule) for e in facts.events] == [(event, place, rule)]


def test_a_tour_is_not_at_the_place_its_name_goes_to(run):
    facts = run("The Mara Quinlan India Tour opened with a show.")
    assert [(e.name, e.location) for e in facts.events] == [("Mara Quinlan India Tour", None)]


def test_the_set_the_top_reviews_places_the_songs_later(run):
    # the act's set named at the top is a show at the hall, and the paragraph after it is about it
    found = _performed(run("There was little to fault in the Mara Quinlan set at the Brindle Hall on Friday.\n\n"
                           'Quinlan opened with "Lantern Song" and the crowd sang along.'))
    assert found == {(SPEAKER, "Lantern Song", "perf.cue-clause", "Brindle Hall", "context.paragraph")}


def test_the_venue_the_top_reviews_places_the_songs_later(run):
    found = _performed(run("Mara Quinlan returned to the Brindle Hall on Friday.\n\n"
                           'Quinlan opened with "Lantern Song" and the crowd sang along.'))
    assert found == {(SPEAKER, "Lantern Song", "perf.cue-clause", "Brindle Hall", "context.scene")}


def test_a_title_in_capitals_inside_a_sentence_gets_no_holder(run):
    said = _said(run("Mara Quinlan chose “Salt, Smoke, Water” as the winner on Friday."))
    assert all(speaker is None for _, speaker, _ in said)


def test_an_award_that_titles_the_singer_is_not_where_she_sings(run):
    facts = run("Mara Quinlan played the Brindle Hall on Friday. As she opened her set with 'Lantern Song', "
                "the Quarry Award winner told the crowd she was home.")
    events = {e.key: e.name for e in facts.events}
    assert [events.get(p.event) for p in facts.performances] == [None]


def test_an_award_in_a_hyphenated_title_is_not_where_he_sings(run):
    facts = run("The Harvest Concert at the Brindle Stadium, Leeds, brought together soul legends on Friday.\n\n"
                "Just like he’d promised, Grammy Award-winning American soul singer Tom Hale showed up and sang "
                "'Lantern Song' to the crowd.")
    events = {e.key: e.name for e in facts.events}
    assert [(events.get(p.event), p.context_rule) for p in facts.performances] == [("Harvest Concert", "context.scene")]


def test_the_article_show_is_not_an_award_that_only_titles_the_singer(run):
    facts = run("The Quarry Festival opened on Friday.\n\nThe weather held. Tickets sold out in May. Parking was slow.\n\n"
                "As she opened her set with 'Lantern Song', the Lantern Award winner Mara Quinlan told the crowd "
                "she was home.")
    events = {e.key: e.name for e in facts.events}
    assert [(events.get(p.event), p.context_rule) for p in facts.performances] == [
        ("Quarry Festival", "context.scene")]


def test_a_performance_told_twice_keeps_the_telling_that_places_it(run):
    facts = run("At the service, Mara Quinlan sang 'Lantern Song' with a small band.\n\n"
                "Mara Quinlan performs 'Lantern Song' at the funeral of Tom Brindle in Galway, this afternoon.")
    events = {e.key: e.name for e in facts.events}
    song = next(w.key for w in facts.works if w.title == "Lantern Song")
    assert [events.get(p.event) for p in facts.performances if p.work == song] == ["funeral of Tom Brindle"]


_OCCASION = ("To mark Lantern Day, the singer Mara Quinlan came home. The Brindle Evening, organised by Fenmore "
             "Arts, was held on Saturday at the Heron Hall{}.\n\nThe weather held. Tickets sold out in May. "
             "Parking was slow.\n\nLater, Mara Quinlan sang 'Lantern Song' and 'Salt Wind' for her fans.")


def test_an_occasion_the_article_places_is_its_show_when_it_names_no_show(run):
    facts = run(_OCCASION.format(" and saw the singer take the stage"))
    events = {e.key: e.name for e in facts.events}
    assert {(events.get(p.event), p.context_rule) for p in facts.performances} == {
        ("Brindle Evening", "context.scene")}


def test_the_occasion_an_article_reports_is_the_scene_of_an_act_it_names_later(run):
    """The scene: the evening the top of the article reports, at its hall, for the singer it goes
    on to tell of, whether or not the sentence that placed the evening named her."""
    facts = run(_OCCASION.format(""))
    places = {p.key: p.name for p in facts.places}
    events = {e.key: e.name for e in facts.events}
    assert {(events.get(p.event), places.get(p.location), p.context_rule) for p in facts.performances} == {
        ("Brindle Evening", "Heron Hall", "context.scene")}


# --- sieves named by no test before: each holds its decision on an invented text -------------


@pytest.mark.parametrize(
    ("text", "quote", "rule"),
    [
        ("Jazz Nights\n\nMara Quinlan: “We are home again”\n\nMara Quinlan played Leeds.", "We are home again",
         "quote.headline-colon"),
        ("“We played it loud tonight.\n\n“And we will play it loud again,” Mara Quinlan said.",
         "We played it loud tonight.", "quote.paragraphs"),
        ("Mara Quinlan sat at the piano for the encore.\n\n“This one is for my mother.”",
         "This one is for my mother.", "quote.focus"),
    ],
)
def test_a_quotation_with_no_cue_beside_it_goes_to_its_speaker(run, text, quote, rule):
    assert (quote, SPEAKER, rule) in _said(run(text))


def test_titles_listed_after_one_the_cue_finds_are_works_too(run):
    facts = run("She played the songs “Salt Road”, “Lamplight” and “Ferris Wheel”.")
    assert [(w.title, w.kind, w.rule) for w in facts.works] == [
        ("Salt Road", "song", "work.cue"), ("Lamplight", "song", "work.listed"),
        ("Ferris Wheel", "song", "work.listed")]


def test_a_title_the_model_labels_is_a_work(run):
    facts = run("Mara Quinlan played the Brindle Hall on Friday.\n\nMara Quinlan's encore was “Lantern Song”.")
    assert [(w.title, w.rule) for w in facts.works] == [("Lantern Song", "work.model")]


def test_an_event_no_clause_places_is_at_the_venue_the_top_puts_its_people(run):
    facts = run("Mara Quinlan thanked the audience at the Brindle Hall. "
                "She had planned the final concert of the season for months.")
    places = {p.key: p.name for p in facts.places}
    assert [(e.name, places.get(e.location), e.location_rule) for e in facts.events] == [
        ("final concert", "Brindle Hall", "location.lead-venue")]


def test_an_act_on_an_events_bill_performs_at_it(run):
    facts = run("The Harbour Fest returns to Leeds in June, with Mara Quinlan among its headliners.")
    names, events = {e.key: e.name for e in facts.entities}, {e.key: e.name for e in facts.events}
    assert [(names[p.performer], p.work, events.get(p.event), p.rule) for p in facts.performances] == [
        (SPEAKER, None, "Harbour Fest", "perf.bill")]
