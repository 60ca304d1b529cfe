"""Performances: who performed what, at which event, where and when."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from kg.extract.model import Entity, Facts, TextSpan
from kg.extract.performances.extract import extract_performances
from kg.extract.works.extract import link_creators

SEED = Path(__file__).resolve().parents[3] / "examples" / "seed.txt"


def _name(records, key: str | None) -> str | None:  # type: ignore[no-untyped-def]
    return next((getattr(r, "name", None) or getattr(r, "title", None) for r in records if r.key == key), None)


def _rows(facts: Facts) -> list[tuple]:
    """(performer, work, event, location, date value) per performance, by name."""
    return [
        (
            _name(facts.entities, p.performer),
            _name(facts.works, p.work),
            _name(facts.events, p.event),
            _name(facts.places, p.location),
            p.date.value if p.date else None,
        )
        for p in facts.performances
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "Mara Quinn performed “Glass Houses” at Wembley Stadium in London on Friday.",
            [("Mara Quinn", "Glass Houses", None, "Wembley Stadium", "2023-03-10")],
        ),
        (
            "Mara Quinn performs at the 2022 Grammys in Las Vegas in April 2022",
            [("Mara Quinn", None, "2022 Grammys", "Las Vegas", "2022-04")],
        ),
        (
            "Theo Marsh opened with “Blue Lanterns”, then “Iron Sky” and “Low Tide”.",
            [("Theo Marsh", "Blue Lanterns", None, None, None), ("Theo Marsh", "Iron Sky", None, None, None),
             ("Theo Marsh", "Low Tide", None, None, None)],
        ),
        (
            "Theo Marsh was joined by Sarah Jones for “Paper Boats” at the Riverside Folk Festival.",
            [("Theo Marsh", "Paper Boats", "Riverside Folk Festival", None, None),
             ("Sarah Jones", "Paper Boats", "Riverside Folk Festival", None, None)],
        ),
        (
            "Emma Clarke delivered a rendition of “Far Away Fields” at the Brit Awards.",
            [("Emma Clarke", "Far Away Fields", "Brit Awards", None, None)],
        ),
        (
            "Theo Marsh headlined Lollapalooza 2019 in Chicago.",
            [("Theo Marsh", None, "Lollapalooza 2019", "Chicago", "2019")],
        ),
        (
            "Theo Marsh brought out Sarah Jones for a duet of “Paper Boats”.",
            [("Theo Marsh", "Paper Boats", None, None, None), ("Sarah Jones", "Paper Boats", None, None, None)],
        ),
        (
            "Emma Clarke performed “Spark Plug” with her brother Theo Marsh.",
            [("Emma Clarke", "Spark Plug", None, None, None), ("Theo Marsh", "Spark Plug", None, None, None)],
        ),
        (
            "Theo Marsh joined Sarah Jones to sing “Paper Boats”.",
            [("Theo Marsh", "Paper Boats", None, None, None), ("Sarah Jones", "Paper Boats", None, None, None)],
        ),
        (
            "Emma Clarke debuted a new song, “Spark Plug”, from her album “Open Roads”.",
            [("Emma Clarke", "Spark Plug", None, None, None)],
        ),
        (
            "Theo Marsh surprised fans at the Royal Albert Hall on Monday night when he performed “Iron Sky”.",
            [("Theo Marsh", "Iron Sky", None, "Royal Albert Hall", "2023-03-13")],
        ),
        (
            "Theo Marsh played “Born to Run,” the title track, and closed with “Iron Sky.”",
            [("Theo Marsh", "Born to Run", None, None, None), ("Theo Marsh", "Iron Sky", None, None, None)],
        ),
        (
            "Emma Clarke sang her 2011 hit “Paper Moons”. Later, Emma Clarke dedicated the song to her mother.",
            [("Emma Clarke", "Paper Moons", None, None, None)],
        ),
    ],
)
def test_performances(run, text: str, expected: list[tuple]) -> None:
    assert _rows(run(text, published="2023-03-14")) == expected


@pytest.mark.parametrize(
    "text",
    [
        "Theo Marsh played a detective in the film “Cold Harbor”.",  # a role, not a song
        "Emma Clarke praised “Glass Houses”, a song she loves.",  # a song mentioned, not performed
        "Theo Marsh opened up about “Glass Houses” in an interview.",
        "Emma Clarke works at Brightline Nation in Ohio.",
        "Theo Marsh played Hamlet at the Globe Theatre in London.",  # a role in a play
        "Emma Clarke won an award at the 2024 Grammys. She did not perform at the ceremony.",
    ],
)
def test_no_performance(run, text: str) -> None:
    assert run(text).performances == ()


def test_event_set_by_the_paragraph_before(run) -> None:
    text = (
        "During Emma Clarke’s Velvet Nights Residency at Nova Hall in September, she dedicated a song to fans.\n\n"
        "Emma Clarke performed her 2015 hit “Paper Moons” in honor of them."
    )
    rows = _rows(run(text, published="2023-03-14"))
    assert rows == [("Emma Clarke", "Paper Moons", "Velvet Nights Residency", "Nova Hall", "2022-09")]


def test_paragraph_event_is_not_lent_to_someone_else(run) -> None:
    text = (
        "During the Velvet Nights Residency at Nova Hall, Emma Clarke thanked fans.\n\n"
        "Meanwhile, Theo Marsh performed “Iron Sky” on the radio."
    )
    assert _rows(run(text)) == [("Theo Marsh", "Iron Sky", None, None, None)]


def test_a_word_of_another_time_in_someone_elses_clause_keeps_the_scene(run) -> None:
    # ("previously" tells of the fan, not of the song: the show of the scene still places it)
    text = ("Rosa Linde played the Harbour Hall in Cork on Friday.\n\n“Fuego Lento” brought the crowd to its "
            "feet, among them Tom Reyes, a fan who previously wrote to her.")
    assert [row[3] for row in _rows(run(text)) if row[1] == "Fuego Lento"] == ["Harbour Hall"]


def test_explicit_place_overrides_the_paragraph_event(run) -> None:
    text = "Emma Clarke headlined the Harbor Lights Festival in Dublin. Theo Marsh sang “Iron Sky” at Carnegie Hall."
    rows = _rows(run(text))
    assert ("Theo Marsh", "Iron Sky", None, "Carnegie Hall", None) in rows


def test_pronoun_and_description_resolved_through_entities(nlp) -> None:
    """Performers come from the entities the stage is given: a hand-made entity stands in for coreference."""
    from kg.io.article import Article
    from kg.nlp.factories import found_on
    from kg.nlp.pipeline import make_doc

    text = "The pop star took the stage at the Brit Awards. She performed “Glass Houses” there."
    doc = nlp(make_doc(nlp, Article(id="t", text=text)))
    star, she = text.index("The pop star"), text.index("She ")
    entities = (
        Entity(key="person:1", kind="person", name="Mara Quinn",
               mentions=(TextSpan(star, star + 12, "The pop star"), TextSpan(she, she + 3, "She"))),
    )
    found = replace(found_on(doc), entities=entities)
    found = replace(found, works=link_creators(found.works, entities))
    perf = extract_performances(doc, found)
    work = next(w for w in found.works if w.title == "Glass Houses")
    event = next(e for e in found.events if e.name == "Brit Awards")
    assert [(p.performer, p.work, p.event) for p in perf] == [("person:1", work.key, event.key)]


def test_seed_acceptance(run) -> None:
    facts = run(SEED.read_text(encoding="utf-8"), published="2023-03-14")
    song = next(w for w in facts.works if w.title == "Born This Way")
    assert (song.kind, song.year, _name(facts.entities, song.creator)) == ("song", 2011, "Lady Gaga")
    assert next(w for w in facts.works if w.title == "A Star Is Born").kind == "film"
    places = {p.key: p for p in facts.places}
    dolby = next(p for p in facts.places if p.name == "Dolby Live")
    park = places[dolby.contained_in]
    assert park.name == "Park MGM" and places[park.contained_in].name == "Las Vegas"
    rows = _rows(facts)
    assert ("Lady Gaga", "Born This Way", "Jazz & Piano Las Vegas Residency", "Dolby Live", "2022-09") in rows
    assert ("Lady Gaga", None, "2022 Grammys", "Las Vegas", "2022-04") in rows
    events = {e.name: e for e in facts.events}
    steamy = events["2023 Steamy Awards"]
    assert (places[steamy.location].name, steamy.date.value) == ("Los Angeles", "2023-08")
    assert events["International Women’s Day"].location is None
    assert len({(r[0], r[1], r[2]) for r in rows}) == len(rows)


def test_link_creators_keeps_existing_creator(nlp) -> None:
    from kg.io.article import Article
    from kg.nlp.pipeline import make_doc

    from kg.nlp.factories import found_on

    doc = nlp(make_doc(nlp, Article(id="t", text="Emma Clarke sang her hit “Paper Moons”.")))
    found = found_on(doc)
    works = tuple(replace(w, creator="person:9") for w in found.works)
    assert [w.creator for w in link_creators(works, found.entities)] == ["person:9"]


def test_it_is_never_a_title_that_only_describes_someone(run) -> None:
    facts = run("Mara Quinlan released her single 'Lantern Song' with former 'Night Owls' champ Tom Brindle. "
                "Mara Quinlan performed it at the Heron Hall on Sunday.")
    assert [(_name(facts.entities, p.performer), _name(facts.works, p.work)) for p in facts.performances] == [
        ("Mara Quinlan", "Lantern Song")]


@pytest.mark.parametrize(
    "text",
    [
        ("Mara Quinlan will release her single 'Lantern Song', a duet with former 'Night Owls' champ Tom Brindle.\n"
         "The pair performed it together at the Heron Hall on Sunday."),
        ("Tom Brindle won best new artist while Mara Quinlan took album of the year. She thanked her band.\n"
         "Both performers returned later to duet on 'Lantern Song'."),
    ],
)
def test_the_pair_is_the_two_people_named_last(run, text: str) -> None:
    facts = run(text)
    performed = {(_name(facts.entities, p.performer), _name(facts.works, p.work)) for p in facts.performances}
    assert {("Mara Quinlan", "Lantern Song"), ("Tom Brindle", "Lantern Song")} <= performed
    assert all(work == "Lantern Song" for _, work in performed)


def test_a_pair_with_three_people_named_is_the_last_two(run) -> None:
    facts = run("Owen Fenmore hosted. Mara Quinlan sang first and Tom Brindle joined her.\n"
                "The duo performed 'Lantern Song' to close the night.")
    performers = {_name(facts.entities, p.performer) for p in facts.performances
                  if _name(facts.works, p.work) == "Lantern Song"}
    assert performers == {"Mara Quinlan", "Tom Brindle"}


def test_acts_after_a_list_of_performers_at_an_occasion_are_at_it_too(run) -> None:
    text = ("Friends gathered for the funeral of Tom Brindle in Dunmere today.\n\n"
            "Ana Rivera, Ivo Berg and Lila Sand were among the performers at the funeral. "
            "Singers Mara Quinlan and Lyle Barnes sang a stirring version of “Salt Wind” while people danced.")
    rows = _rows(run(text))
    assert ("Mara Quinlan", "Salt Wind", "funeral of Tom Brindle", "Dunmere", None) in rows
    assert ("Lyle Barnes", "Salt Wind", "funeral of Tom Brindle", "Dunmere", None) in rows


def test_the_occasion_an_article_reports_is_where_its_next_act_performs(run) -> None:
    """The scene: a report of a funeral places every act it goes on to tell of there, not only the
    one named at the funeral."""
    text = ("Friends gathered for the funeral of Tom Brindle in Dunmere today.\n\n"
            "Ana Rivera was among the performers at the funeral. "
            "Singer Mara Quinlan sang “Salt Wind” while people danced.")
    rows = _rows(run(text))
    assert ("Mara Quinlan", "Salt Wind", "funeral of Tom Brindle", "Dunmere", None) in rows


def test_a_performance_told_on_the_radio_is_not_at_the_scene(run) -> None:
    text = ("Friends gathered for the funeral of Tom Brindle in Dunmere today.\n\n"
            "Singer Mara Quinlan sang “Salt Wind” on the radio.")
    rows = _rows(run(text))
    assert ("Mara Quinlan", "Salt Wind", None, None, None) in rows
