"""The default reading of titles in a report of a show, its exceptions, and the scene, sieve by sieve.

Each test names the sieve it holds to its decision on an invented sentence, so switching the
sieve off fails it.
"""

from __future__ import annotations

import json

import pytest

from kg.extract.model import Facts
from kg.extract.performances.ranker import FEATURES, load_model

from ...conftest import require_shared

#: A report's first sentence: an act at a venue, so the article reports a show.
SHOW = "Singer Ana Rivera played the Brindle Hall on Friday.\n\n"


def _performed(facts: Facts) -> set[tuple[str, str, str | None]]:
    """(performer, work, sieve) of each performance of a work."""
    names = {e.key: e.name for e in facts.entities}
    titles = {w.key: w.title for w in facts.works}
    return {(names[p.performer], titles[p.work], p.rule) for p in facts.performances if p.work}


@pytest.mark.parametrize(
    ("text", "performer", "rule"),
    [
        # the act doing something with the title, whatever the verb
        ("The singer Ana Rivera got her show on the road with “Lantern Song.”", "Ana Rivera", "perf.subject"),
        # a rendition credited to the act after the closing mark
        (SHOW + "An acoustic “Lantern Song” by Rivera closed the night.", "Ana Rivera", "perf.owner"),
        # the agent of a participle on the title
        (SHOW + "The night began with a version of “Lantern Song” performed by Tom Reyes.", "Tom Reyes",
         "perf.owner"),
        # no act in the clause: the ranker weighs who the report is about
        (SHOW + "“Lantern Song” brought the crowd to its feet.", "Ana Rivera", "perf.ranked"),
    ],
)
def test_a_title_in_a_show_report_is_performed_by_the_sieve_that_finds_its_act(run, text, performer, rule):
    assert (performer, "Lantern Song", rule) in _performed(run(text))


@pytest.mark.parametrize(
    "sentence",
    [
        "She wrote “Lantern Song” in 2019.",  # perf.not-made
        "She will sing “Lantern Song” at the Orla Hall next month.",  # perf.not-done
        "“Lantern Song”, sung originally by Tom Reyes, closed the night.",  # perf.not-done (before the show)
        "The “Lantern Song” singer waved to the crowd.",  # perf.not-attribute
        "Outside, a fan's car radio was playing “Lantern Song”.",  # perf.not-live
        "A white-robed choir sang “Lantern Song” outside.",  # unnamed people sang it
        "The crowd praised “Lantern Song”.",  # a verb of hearing or judging
    ],
)
def test_an_exception_keeps_a_title_from_being_performed(run, sentence):
    assert not any(what == "Lantern Song" and who != "Tom Reyes" or who == "Tom Reyes"
                   for who, what, _ in _performed(run(SHOW + sentence)))


def test_the_source_of_a_song_is_not_performed(run):
    found = {(who, what) for who, what, _ in _performed(run(SHOW + "She sang “Memory” from the musical “Cats”."))}
    assert ("Ana Rivera", "Memory") in found and ("Ana Rivera", "Cats") not in found


def test_the_scene_places_the_show_the_top_names_and_what_is_performed_at_it(run):
    facts = run("Ana Rivera brings 'Salt Road' tour to the Corn Exchange\n\n"
                "Ana Rivera opened her Salt Road tour at the Corn Exchange in Glenvale on Friday.\n\n"
                "The hall was full. Tickets sold out in May.\n\n"
                "“Lantern Song” brought the crowd to its feet.")
    places = {p.key: p.name for p in facts.places}
    tour = next(e for e in facts.events if e.name == "Salt Road tour")
    assert places[tour.location] == "Corn Exchange"
    song = next(p for p in facts.performances if p.work)
    assert (song.event, places[song.location], song.context_rule) == (tour.key, "Corn Exchange", "context.scene")


def test_the_scene_places_a_show_the_top_names_only_by_description(run):
    facts = run("Mourners gathered for a candlelit tribute concert on Saturday.\n\nThe Brindle Hall was full.\n\n"
                "Singer Ana Rivera sang “Lantern Song”.")
    concert = next(e for e in facts.events if e.name == "candlelit tribute concert")
    assert (concert.rule, concert.described, concert.location_rule) == ("event.described", True, "event.scene")
    assert next(p.name for p in facts.places if p.key == concert.location) == "Brindle Hall"


def test_the_scene_places_the_show_no_clause_places(run):
    facts = run("REVIEW: Ana Rivera, Lantern Tour, Brindle Arena\n\n"
                "Ana Rivera took the stage of the Lantern Tour on Friday night.")
    tour = next(e for e in facts.events if e.name == "Lantern Tour")
    assert tour.location_rule == "event.scene"


def test_a_title_set_in_marks_that_nobody_says_is_a_work(run):
    facts = run(SHOW + "“Salt In The Wires” came after a long pause.")
    assert ("Salt In The Wires", "work.typeset") in {(w.title, w.rule) for w in facts.works}
    # one capitalised word is a title too
    facts = run(SHOW + "Rivera tackled the fiendish “Lantern” with ease.")
    assert ("Lantern", "work.typeset") in {(w.title, w.rule) for w in facts.works}


@pytest.mark.parametrize("text", [
    "Rebecca “Becky” Blank, 21, came with her mother.",  # a nickname inside a name
    "Rivera stood before an illuminated “Rivera” sign.",  # words on a thing
    "“Wonderful,” Rivera said after the show.",  # a quotation
])
def test_one_word_in_marks_that_is_no_title(run, text):
    assert run(SHOW + text).works == ()


def test_the_shipped_ranker_reads_the_features_kg_computes():
    model = load_model()
    assert len(model.coefficients) == len(FEATURES) and 0 < model.threshold < 1


@pytest.mark.slow
def test_the_shipped_ranker_is_what_training_on_the_development_set_gives():
    """The model file is reproducible: retraining on the annotated articles gives it again."""
    pytest.importorskip("sklearn")
    from kg.extract.performances.train_ranker import MODEL_PATH, samples, train

    require_shared("dev", "real", "gold")
    folder = require_shared("dev", "real")
    assert train(samples(folder)) == json.loads(MODEL_PATH.read_text(encoding="utf-8"))


@pytest.mark.parametrize(
    ("sentence", "title", "exception"),
    [
        ("She wrote “Lantern Song” in 2019.", "Lantern Song", "perf.not-made"),
        ("She will sing “Lantern Song” at the Orla Hall next month.", "Lantern Song", "perf.not-done"),
        ("She sang “Memory” from the musical “Cats”.", "Cats", "perf.not-source"),
        ("The “Lantern Song” singer waved to the crowd.", "Lantern Song", "perf.not-attribute"),
        ("Outside, a fan's car radio was playing “Lantern Song”.", "Lantern Song", "perf.not-live"),
        # the programme a song was sung on; but an instrument or a part of a song leaves "on" naming the song
        ("She sang “Lantern Song” on “The Late Hour”.", "The Late Hour", "perf.not-live"),
        ("She played bass on “Lantern Song”.", "Lantern Song", None),
        ("She traded verses on “Lantern Song”.", "Lantern Song", None),
        ("She sang “Lantern Song”.", "Lantern Song", None),
    ],
)
def test_each_exception_names_itself_on_the_title_it_turns_down(nlp, sentence, title, exception):
    """The facts keep no trace of a performance turned down, so the exception is asked directly."""
    from kg.extract.performances.exceptions import not_performed

    text = SHOW + sentence
    doc = nlp(text)
    start = text.index(title)
    assert not_performed(doc, doc.char_span(start, start + len(title))) == exception


def test_the_headliner_is_the_act_the_top_presents_performing_not_the_name_it_repeats(run) -> None:
    # (a fan the lede names three times is no headliner: the ranker gives the fan no song)
    text = ("Mara Quinlan sang at the Harbour Hall in Leeds on Friday, for a fan, Tom Reyes, who is ill. "
            "Tom Reyes had written to the band, and Tom Reyes was in the front row with his family.\n\n"
            "“Lantern Song” brought the crowd to its feet.")
    assert not any(performer == "Tom Reyes" for performer, _, _ in _performed(run(text)))


def test_the_one_act_of_a_report_performs_the_songs_nobody_else_is_said_to(run) -> None:
    text = ("Rosa Linde played the Harbour Hall in Cork on Friday. Tom Reyes, a fan, had waited since noon, "
            "and Tom Reyes said it was worth it. Tom Reyes was in the front row.\n\nSet list\n\nFuego Lento\n\n"
            "La Marea\n\nThe crowd stayed late.")
    assert {("Rosa Linde", "Fuego Lento", "perf.headliner"), ("Rosa Linde", "La Marea", "perf.headliner")} \
        <= _performed(run(text))


def test_a_report_of_two_acts_gives_an_unclaimed_song_to_neither(run) -> None:
    text = ("Rosa Linde and the band Velvet Row played the Harbour Hall in Cork on Friday.\n\nSet list\n\n"
            "Fuego Lento\n\nLa Marea\n\nThe crowd stayed late.")
    assert not any(rule == "perf.headliner" for _, _, rule in _performed(run(text)))


def test_the_one_ensemble_and_its_conductor_play_the_piece_its_soloist_plays(run) -> None:
    text = ("Swiss conductor Tomas Brandt led the Brindle Symphony Orchestra at the Harbour Hall in Cork on Friday. "
            "The soloist Ana Rivera then stepped out for the Piano Concerto in A minor.")
    found = _performed(run(text))
    assert ("Ana Rivera", "Piano Concerto") in {(performer, work) for performer, work, _ in found}
    assert {("Brindle Symphony Orchestra", "Piano Concerto", "perf.ensemble"),
            ("Tomas Brandt", "Piano Concerto", "perf.ensemble")} <= found
