"""Coreference cases from news writing: names that come after their pronoun, ages, roles
written before a name, bands and their labels, organisations behind a spokesperson."""

from __future__ import annotations

import pytest

from .test_coref import _who


def test_pronoun_before_the_first_name_looks_ahead(run) -> None:
    text = "“It was a long race,” she said. Maria Delgado, 41, had just won."
    assert _who(run(text), text, "she") == "Maria Delgado"


def test_pronoun_does_not_look_ahead_past_an_unnamed_person(run) -> None:
    text = "The minister was asked about it. “No,” she said. Carla Mendes, a union leader, laughed."
    assert _who(run(text), text, "she") is None


def test_pronoun_does_not_look_ahead_to_the_wrong_gender(run) -> None:
    text = "“It was a long race,” he said. Maria Delgado, 41, had just won."
    assert _who(run(text), text, "he") is None


def test_age_picks_the_person_of_that_age(run) -> None:
    text = "Laura Ferreira, 24, beat Emma Holt, 29, on Sunday. Later the 29-year-old spoke."
    assert _who(run(text), text, "the 29-year-old") == "Emma Holt"


def test_role_before_a_name_is_a_description(run) -> None:
    text = "Nova Kessler is engaged to actor Reid Calloway. The show opened with country singer Della Marchetti."
    facts = run(text)
    by_name = {e.name: e for e in facts.entities}
    assert "actor" in by_name["Reid Calloway"].descriptions
    assert "country singer" in by_name["Della Marchetti"].descriptions


def test_role_word_is_cut_from_the_name(run) -> None:
    facts = run("Frontwoman Tess Okonjo said the split was mutual.")
    assert [e.name for e in facts.entities if e.kind == "person"] == ["Tess Okonjo"]


@pytest.mark.parametrize(
    ("text", "name"),
    [
        # a word the model takes into the name, before a given name, describes the person
        ('Ferryman Peter Lund, 64, was blunter: "They have cut us off."', "Peter Lund"),
        # a role word the tagger read as part of a proper-noun run
        ('The ceremony ran long. Host Nadia Perrin joked that the night had "more costume changes than a pantomime."',
         "Nadia Perrin"),
        ('Composer Idris Fane said the show had changed "a hundred times" since its first reading.', "Idris Fane"),
        # a second given name stays
        ('Anna Maria Lund said the gardens would reopen.', "Anna Maria Lund"),
    ],
)
def test_a_describing_word_before_a_given_name_is_cut(run, text: str, name: str) -> None:
    assert [e.name for e in run(text).entities if e.kind == "person"] == [name]


@pytest.mark.parametrize(
    ("text", "name", "title"),
    [
        ("Lady Mary Holt said the gardens would reopen. Holt thanked the volunteers.", "Mary Holt", "Lady"),
        ('"We are not in decline," said Sir Tomos Hale, the envoy. Sir Tomos left early.', "Tomos Hale", "Sir"),
        ("Senator Ana Rivera voted against the bill. Rivera said no.", "Ana Rivera", "Senator"),
    ],
)
def test_a_title_before_a_full_name_is_a_description(run, text: str, name: str, title: str) -> None:
    (person,) = [e for e in run(text).entities if e.kind == "person"]
    assert person.name == name
    assert title in person.descriptions
    # the titled forms ("Sir Tomos Hale", "Sir Tomos") are the name with its title, not other names
    assert not any(alias.startswith(title) for alias in person.aliases)


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("Lady Marlow sang first. Lady Marlow left the stage.", "Lady Marlow"),
        ("Pope Gregory XX blessed the crowd.", "Pope Gregory XX"),
        ('"It will reopen," said Bishop Okafor.', "Bishop Okafor"),
    ],
)
def test_a_title_stays_where_the_rest_names_nobody_clearly(run, text: str, name: str) -> None:
    assert [e.name for e in run(text).entities if e.kind == "person"] == [name]


def test_the_band_prefers_the_band_to_its_label(run) -> None:
    text = (
        "Indie rockers Harrow Lane are splitting up. Tess Okonjo sang with them for years. "
        "According to their label, Tidewell Records, the band will tour in the autumn."
    )
    assert _who(run(text), text, "the band") == "Harrow Lane"


def test_spokesperson_named_by_a_compound_speaks_for_the_organisation(run) -> None:
    text = "A Meridian Records spokesperson declined to comment."
    assert _who(run(text), text, "spokesperson") == "Meridian Records"


def test_score_after_a_name_is_cut_and_the_surname_is_the_person(run) -> None:
    text = "Daniela Ferreira beat top seed Maren Holt 7-5, 6-3. Holt, the world No. 3, was gracious."
    facts = run(text)
    assert _who(facts, text, "Holt", nth=1) == "Maren Holt"


def test_name_inside_a_description_is_no_person(run) -> None:
    facts = run("The Grammy winner told a magazine she was terrified.")
    assert all(e.name != "Grammy" for e in facts.entities)


def test_description_by_a_title_goes_to_who_released_it(run) -> None:
    text = (
        "Reid Calloway and Mila Raine attended the gala. Calloway spoke first and thanked the crowd. "
        "The “Golden Hour” singer wrote on Instagram that it was a lovely night. Raine released "
        "“Golden Hour” in 2014."
    )
    assert _who(run(text), text, "The “Golden Hour” singer") == "Mila Raine"


def test_a_name_after_a_group_noun_is_a_group(run) -> None:
    facts = run("The evening opened with a medley of folk songs by the band Harbour Lights.")
    assert [(e.name, e.kind) for e in facts.entities] == [("Harbour Lights", "group")]


def test_an_award_before_a_role_word_is_no_person(run) -> None:
    facts = run("Grammy winner Leona Vasquez adds a second night at the Red Rock Amphitheatre.")
    assert [e.name for e in facts.entities] == ["Leona Vasquez"]


def test_a_club_is_no_person(run) -> None:
    facts = run("Riverside United reached the cup final. Striker Dami Okoye scored twice.")
    assert [(e.name, e.kind) for e in facts.entities] == [("Riverside United", "organization"), ("Dami Okoye", "person")]


def test_names_listed_with_a_person_are_people_and_none_an_event(run) -> None:
    facts = run("Dion received a standing ovation, while Fantasia, Andra Day, Brandi Carlile and Alessia Cara "
                "came together to sing “Natural Woman.”")
    people = {e.name for e in facts.entities if e.kind == "person"}
    assert {"Andra Day", "Brandi Carlile", "Alessia Cara"} <= people
    assert "Andra Day" not in {e.name for e in facts.events}


def test_a_one_word_place_name_that_her_takes_up_is_someone(run) -> None:
    facts = run("The Orla Festival came alive at the Brindle Hall on Friday.\n\n"
                "Paris held the audience spellbound for half an hour, performing her signature hits.")
    assert ("Paris", "person") in {(e.name, e.kind) for e in facts.entities}


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("The show featured performances from Cerys Mathers and the house band.", "Cerys Mathers"),
        ("The performance was capped off by a duet with Delta Reyes, with the duo singing Kids.", "Delta Reyes"),
    ],
)
def test_who_gave_a_performance_is_an_act_whatever_the_model_tags(run, text: str, name: str) -> None:
    """ "performances from X", "a duet with Y": the model may tag X a company; the performance says who."""
    assert (name, "person") in [(e.name, e.kind) for e in run(text).entities]
