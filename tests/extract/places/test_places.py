"""Places: venues, cities, regions, countries and what contains what."""

from __future__ import annotations

import pytest

from kg.extract.model import Facts, Place


def _place(facts: Facts, name: str) -> Place:
    found = [p for p in facts.places if p.name == name]
    assert found, f"{name!r} not among {[p.name for p in facts.places]}"
    return found[0]


def _container(facts: Facts, name: str) -> str | None:
    key = _place(facts, name).contained_in
    return next((p.name for p in facts.places if p.key == key), None)


@pytest.mark.parametrize(
    ("text", "name", "kind", "inside"),
    [
        ("The band played Wembley Stadium in London last June.", "Wembley Stadium", "stadium", "London"),
        ("She sang at the Hollywood Bowl on Sunday.", "Hollywood Bowl", "venue", None),
        ("The orchestra returns to Carnegie Hall in New York next spring.", "Carnegie Hall", "venue", "New York"),
        ("The tour stopped in Paris, France on Friday.", "Paris", "city", "France"),
        ("He headlined a festival in Austin, Texas.", "Austin", "city", "Texas"),
        ("The final show was held at the Palladium Theatre in Chicago.", "Palladium Theatre", "theater", "Chicago"),
        ("Fans queued outside the venue in Germany.", "Germany", "country", None),
        ("The singer performed at Voltage Live at Harbor Point in Seattle.", "Voltage Live", "venue", "Harbor Point"),
        ("The singer performed at Voltage Live at Harbor Point in Seattle.", "Harbor Point", "venue", "Seattle"),
        ("The Sunset Guitar Residency at Echo Room opened in Denver.", "Echo Room", "venue", None),
        ("The band played at Glendale's State Farm Stadium in March.", "State Farm Stadium", "stadium", "Glendale"),
        # a sponsor's number glued to the venue word
        ("He played a 90 minute set at Dublin's 3Arena on Friday.", "3Arena", "venue", "Dublin"),
        ("Fans packed the Royal Albert Hall for the show.", "Royal Albert Hall", "venue", None),
        ("The band played the Albert Hall in London.", "Albert Hall", "venue", "London"),
        # a saint's possessive is inside the name
        ("The bishop spoke at St Mary's Chapel in Dunmere on Saturday.", "St Mary's Chapel", "venue", "Dunmere"),
    ],
)
def test_place(run, text: str, name: str, kind: str, inside: str | None) -> None:
    facts = run(text)
    assert _place(facts, name).kind == kind
    assert _container(facts, name) == inside


def test_city_inside_event_name_contains_the_venue_chain(run) -> None:
    facts = run("During the Velvet Nights Nashville Residency at Nova Hall at Crown Plaza, she sang.")
    assert _container(facts, "Nova Hall") == "Crown Plaza"
    assert _container(facts, "Crown Plaza") == "Nashville"
    assert _place(facts, "Nashville").kind == "city"


def test_city_inside_event_name_known_from_elsewhere_in_the_article(run) -> None:
    # Tacoma is in no gazetteer: the article names it as a place in another sentence
    facts = run(
        "During the Velvet Nights Tacoma Residency at Nova Hall at Crown Plaza, she sang.\n\n"
        "The singer has lived in Tacoma since 2015."
    )
    assert _container(facts, "Crown Plaza") == "Tacoma"
    assert _place(facts, "Tacoma").kind == "city"


def test_unknown_word_inside_event_name_is_no_place(run) -> None:
    facts = run("During the Velvet Nights Tacoma Residency at Nova Hall at Crown Plaza, she sang.")
    assert _container(facts, "Crown Plaza") is None
    assert all(p.name != "Tacoma" for p in facts.places)


@pytest.mark.parametrize(
    "text",
    [
        "Mark Osei works at Brightline Nation in Ohio.",  # a company, not a venue
        "She is a manager at Sunward Records.",
        "The singer thanked Dana Lee at the end of the speech.",
        "The actress Regina Hall joined the cast.",
    ],
)
def test_no_company_or_person_as_venue(run, text: str) -> None:
    facts = run(text)
    names = {p.name for p in facts.places}
    assert not names & {"Brightline Nation", "Sunward Records", "Dana Lee", "end", "Regina Hall"}


@pytest.mark.parametrize(
    "text",
    [
        "She starred in the series The Last of Us last year.",  # "Us" is no country
        "The band released the album In Rainbows in 2007.",  # a title's word is no city
        "Singer Ana Rivera headlined the festival. Rivera said it was loud.",  # a surname tagged GPE
    ],
)
def test_no_place_in_titles_or_names(run, text: str) -> None:
    assert run(text).places == ()


def test_a_surname_that_is_also_a_big_city_stays_the_person_where_a_person_stands(run) -> None:
    text = ("A gold hearse carrying singer Ava Denver led the procession through Newark on Saturday. "
            "Denver's casket was carried into the church. Denver died last week in Los Angeles.")
    assert [p.name for p in run(text).places] == ["Newark", "Los Angeles"]


def test_event_name_is_not_a_place(run) -> None:
    facts = run("Lady Dawn performs at the 2022 Grammys in Las Vegas in April 2022")
    names = [p.name for p in facts.places]
    assert "Grammys" not in names and "2022 Grammys" not in names
    assert "Las Vegas" in names


def test_keys_follow_first_mention_and_merge_repeats(run) -> None:
    facts = run("They flew from London to Tokyo. Later, London welcomed them back.")
    assert [(p.key, p.name) for p in facts.places] == [("place:1", "London"), ("place:2", "Tokyo")]
    assert len(_place(facts, "London").mentions) == 2
    for m in _place(facts, "London").mentions:
        assert m.text == "London"


@pytest.mark.parametrize(
    ("text", "name", "kind", "inside"),
    [
        # the noun before "of" says what the place is; a country before it contains it
        ("The festival takes place in the US state of Ardmore every August.", "Ardmore", "region", "US"),
        ("The band played two nights in the city of Veldmark.", "Veldmark", "city", None),
        ("They performed in the Norwegian city of Tromsdal on Saturday.", "Tromsdal", "city", None),
        # its own last word, or an apposition
        ("The tour ends in Carrow County next week.", "Carrow County", "region", None),
        ("She grew up in Tromsdal, a small town in the north, and played there on Friday.", "Tromsdal", "city", None),
        # an unknown name after a city and a comma holds the city
        ("The concert at the Vetra Arena in Kolvik, Estavia drew 20,000 fans.", "Kolvik", "city", "Estavia"),
        ("The concert at the Vetra Arena in Kolvik, Estavia drew 20,000 fans.", "Estavia", "region", None),
        # a town after a venue or an event and "in", whatever the model tagged it
        ("The tour continues at the Kettering Ballroom in Dunmore on Saturday.", "Kettering Ballroom", "venue",
         "Dunmore"),
        ("The tour continues at the Kettering Ballroom in Dunmore on Saturday.", "Dunmore", "city", None),
    ],
)
def test_place_kind_from_general_cues(run, text: str, name: str, kind: str, inside: str | None) -> None:
    facts = run(text)
    assert _place(facts, name).kind == kind
    assert _container(facts, name) == inside


def test_a_list_of_towns_is_no_containment(run) -> None:
    """"Lyon, Vardeaux" alone could be a town in a region; the list going on says it is not."""
    facts = run("The tour visits Lyon, Vardeaux and Nantes in May.")
    assert [(p.name, p.kind, p.contained_in) for p in facts.places] == [
        ("Lyon", "city", None), ("Vardeaux", "city", None), ("Nantes", "city", None)]


@pytest.mark.parametrize(
    ("text", "not_place"),
    [
        ("Mara Kent headlined the festival on Friday.", "Kent"),  # a surname that is also a county
        ("Promoter Kestrel Live said the show had sold out.", "Kestrel Live"),  # a company, not a venue
        ("Tickets went on sale through Live Nation on Friday.", "Live Nation"),
        # an instrument the model tags a facility is no place
        ("The concert at the Music Hall in Hyderabad opened with a raga by Vidwan Ravi Rao, with accompanying "
         "artists Vidwan Sai Kiran on Violin, Vidwan Hari Prasad on Mridangam and Vidwan Syam on Kanjira.", "Violin"),
        # a name the model tags a town, which no gazetteer knows and nothing places
        ("The band played the Harbour Hall. Their cumbia set the room alight, and Juanes closed with Fuego.",
         "Juanes"),
        # the first letters of a hyphenated name are no place of their own
        ("The stars lit up the K-magic Live concert at the Mall of Asia Arena in Manila.", "K"),
    ],
)
def test_not_a_place(run, text: str, not_place: str) -> None:
    assert not_place not in [p.name for p in run(text).places]


def test_a_title_in_marks_is_no_venue(run) -> None:
    facts = run("Laura Finch, who played a ghost in the film “The Long Field,” sang at the Cobalt Hall.")
    assert [p.name for p in facts.places] == ["Cobalt Hall"]


def test_a_venue_and_its_town_read_as_one_name_are_two_places(run) -> None:
    facts = run("The company, which owns the Fillmore Ballroom in Oakdale, did not comment.")
    assert _container(facts, "Fillmore Ballroom") == "Oakdale"


def test_the_owner_of_an_event_is_no_venue(run):
    """ "at X's Y Ball": a broadcaster or a brand owns the show; only a known place would hold it."""
    assert [p.name for p in run("Mara Quinlan sang at Lantern Radio's Harbor Ball on Sunday.").places] == []
    assert "Denver" in [p.name for p in run("Mara Quinlan sang at Denver's Harbor Ball on Sunday.").places]


def test_a_stage_named_with_a_lower_case_stage_word_is_a_venue_wherever_it_stands(run) -> None:
    facts = run("The Quarry Festival kicked off as Mara Quinlan lit up the Heron stage on Friday.")
    assert _place(facts, "Heron stage").kind == "venue"


def test_a_party_or_a_title_before_stage_is_no_venue(run) -> None:
    facts = run("On the Republican stage, Mara Quinlan spoke first. Tom Brindle returned to the 'Night Owls' stage.")
    assert not {p.name for p in facts.places} & {"Republican stage", "Night Owls stage"}


@pytest.mark.parametrize(
    "text",
    [
        # the full name opens the sentence: its first word is a given name all the same
        "Ana Rivera played the Corn Exchange on Friday.\n\nRivera, who grew up by the sea, opened with a ballad.",
        "Ana Rivera wins over the crowd\n\nRivera played the Corn Exchange on Friday.",
        # the surname alone, which the gazetteer knows as a big city, where a person stands
        "Carlos Santiago played the hall. Fans cheered as Santiago arrived.",
    ],
)
def test_the_surname_of_someone_named_in_full_is_no_town(run, text: str) -> None:
    names = {p.name for p in run(text).places}
    assert not names & {"Rivera", "Santiago"}


@pytest.mark.parametrize(
    ("text", "town"),
    [
        ("Tomas Lima played a set. In Lima, fans waited for hours.", "Lima"),
        # the model tags the word a person here: where it stands says it is the town
        ("Carlos Santiago played the hall. He flew home to Santiago on Monday.", "Santiago"),
        ("Carlos Santiago played the hall. The tour ends at Santiago.", "Santiago"),
    ],
)
def test_a_surname_that_stands_as_a_place_is_one(run, text: str, town: str) -> None:
    assert town in {p.name for p in run(text).places}


def test_a_day_after_at_is_no_venue(run) -> None:
    facts = run("Ana Rivera took home three awards at Saturday night's gala in Toronto.")
    assert [(p.name, p.kind) for p in facts.places] == [("Toronto", "city")]
