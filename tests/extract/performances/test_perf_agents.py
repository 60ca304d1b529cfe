"""Who performs: guests, and co-performers the parser hangs away from the verb of performing.

Every text here is written for the test: the people, groups and songs are invented.
"""

from __future__ import annotations

import pytest

from kg.extract.model import Facts


def _pairs(facts: Facts) -> set[tuple[str | None, str | None]]:
    """(performer, work) per performance, by name."""
    names = {e.key: e.name for e in facts.entities}
    titles = {w.key: w.title for w in facts.works}
    return {(names.get(p.performer), titles.get(p.work)) for p in facts.performances}


@pytest.mark.parametrize(
    ("text", "guest", "title"),
    [
        # "with" hung on the title
        ("Mara Quinlan performed the ballad 'Lantern Song' with Ines Harrow at the Quarry Festival.",
         "Ines Harrow", "Lantern Song"),
        # "alongside" hung on the verb the singing is the purpose of
        ("At the Quarry Festival, Mara Quinlan later returned alongside Ines Harrow to sing the classic 'Tin Roof'.",
         "Ines Harrow", "Tin Roof"),
        # whom a guest joins
        ("At the Quarry Festival, Ines Harrow joined Mara Quinlan for 'Tin Roof'.", "Mara Quinlan", "Tin Roof"),
        # who the performance features
        ("At the Quarry Festival, the Harbor Symphony Orchestra performed 'Tin Roof', featuring soloist Ines Harrow.",
         "Ines Harrow", "Tin Roof"),
        # a duet's other voice: the act of the clause it hangs on
        ("At the Quarry Festival, Mara Quinlan had the crowd screaming when rapper Ines Harrow appeared for a duet "
         "of their collaboration “Tin Roof.”", "Mara Quinlan", "Tin Roof"),
        # each of a list set beside the act by a noun
        ("At the Quarry Festival, Mara Quinlan performed 'Tin Roof' with visiting artists Ines Harrow, Tom Alder "
         "and Jo Brennan.", "Jo Brennan", "Tin Roof"),
        # beside the owner of a performance noun
        ("The show's finale was Mara Quinlan's performance of the anthem 'Tin Roof' with local band Harborline.",
         "Harborline", "Tin Roof"),
        ("Ines Harrow was impressive in her duet cover of Tom Alder's 'Tin Roof' with Mara Quinlan.", "Mara Quinlan",
         "Tin Roof"),
        # the middle of a list of subjects, which the parser hangs on its first name
        ("Mara Quinlan, Ines Harrow, Tom Alder and Jo Brennan performed 'Tin Roof'.", "Ines Harrow", "Tin Roof"),
    ],
)
def test_a_co_performer_away_from_the_verb_performs_the_work_too(run, text: str, guest: str, title: str) -> None:
    assert (guest, title) in _pairs(run(text))


def test_someone_met_on_the_way_to_a_show_is_no_co_performer(run) -> None:
    pairs = _pairs(run("At the Quarry Festival, Mara Quinlan sang 'Tin Roof' for Ines Harrow."))
    assert ("Ines Harrow", "Tin Roof") not in pairs
    assert ("Mara Quinlan", "Tin Roof") in pairs



def test_a_name_that_opens_a_clause_after_a_title_is_no_title(run) -> None:
    facts = run("Singer Mara Quinlan played the Brindle Hall on Friday.\n\n"
                "Quinlan sang 'Glass Heart' and Tom Reyes came out for a duet on 'Salt Road'.")
    assert "Glass Heart" in {w.title for w in facts.works}
    assert "Tom Reyes" not in {w.title for w in facts.works}


def test_an_orchestra_described_again_performs_and_the_composer_does_not(run) -> None:
    facts = run("The Orla Symphony Orchestra played the Brindle Hall on Friday under its conductor Li Tam.\n\n"
                "The orchestra played a varied selection, including the second movement of Dvorak's Symphony No 9.")
    pairs = _pairs(facts)
    assert ("Orla Symphony Orchestra", "Symphony No 9") in pairs
    assert ("Dvorak", "Symphony No 9") not in pairs
    assert next(e for e in facts.entities if e.name == "Orla Symphony Orchestra").kind == "group"


def test_the_composer_of_a_concert_piece_is_no_performer_of_it(run) -> None:
    facts = run("The Orla Symphony played the Brindle Hall on Friday.\n\n"
                "The orchestra played a varied selection, including Dvorak's Symphony No 9 and the Ninth Symphony.")
    assert not any(name == "Dvorak" for name, _ in _pairs(facts))


def test_each_title_of_a_list_is_performed_though_the_parser_hangs_it_on_another_title(run) -> None:
    """In "songs like 'Love yourself', 'Baby'" the parser makes "Love" a verb and "Baby" its
    object: the words of a title are no clause ("love" would make it a song loved, not played)."""
    facts = run("Ana Rivera played Leeds on Friday. The singer performed songs like 'Love yourself', 'Baby', "
                "'Company', 'No sense', 'Right now'.")
    assert {title for who, title in _pairs(facts) if who == "Ana Rivera"} == {
        "Love yourself", "Baby", "Company", "No sense", "Right now"}
