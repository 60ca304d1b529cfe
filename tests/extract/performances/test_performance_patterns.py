"""Performance patterns of concert reviews, festival reports, award shows and tour news.

Every text here is written for the test: the people, bands, venues and songs are invented.
"""

from __future__ import annotations

import pytest

from kg.extract.model import Facts

PUBLISHED = "2025-06-10"  # a Tuesday
QLF = "Quarry Lights Festival"


def _name(records, key: str | None) -> str | None:  # type: ignore[no-untyped-def]
    return next((getattr(r, "name", None) or getattr(r, "title", None) for r in records if r.key == key), None)


def _rows(facts: Facts) -> list[tuple]:
    """(performer, work, event, location) per performance, by name."""
    return [
        (_name(facts.entities, p.performer), _name(facts.works, p.work), _name(facts.events, p.event),
         _name(facts.places, p.location))
        for p in facts.performances
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # "dedicated" read by the small model as an adjective of the title
        (
            "Laura Finch fronts the band. The 31-year-old singer, who grew up by the docks, "
            "dedicated “Lantern Song” to her late grandmother.",
            [("Laura Finch", "Lantern Song", None, None)],
        ),
        (
            "Daniel Mercer headlined on Friday. Onstage, Mercer dedicated “Tin Roof” to the victims of the flood.",
            [("Daniel Mercer", "Tin Roof", None, None)],
        ),
        # "to his mother" is whom the song is for, not a role played
        (
            "Daniel Mercer closed the night. Before the encore, he dedicated 'Long Way Home' to his mother.",
            [("Daniel Mercer", "Long Way Home", None, None)],
        ),
        # a singer's object is always sung ("singing lead on")
        (
            "Guitarist Daniel Mercer rarely speaks. He took a turn at the microphone, "
            "singing lead on a cover of “Tin Roof.”",
            [("Daniel Mercer", "Tin Roof", None, None)],
        ),
        # the relative pronoun stands for the act; the event of another clause is not this one's
        (
            "Daniel Mercer, who covered “Tin Roof” at the Quarry Lights Festival, "
            "will close the Meadow Stage on Sunday.",
            [("Daniel Mercer", "Tin Roof", QLF, None), ("Daniel Mercer", None, None, "Meadow Stage")],
        ),
        # the relative pronoun object is the title
        (
            "Laura Finch played the single “Salt Wind,” which she debuted at the Quarry Lights Festival.",
            [("Laura Finch", "Salt Wind", QLF, None)],
        ),
        # a place as the object of "played"
        ("Laura Finch played the Brenner Arena for the first time.", [("Laura Finch", None, None, "Brenner Arena")]),
    ],
)
def test_cue_patterns(run, text: str, expected: list[tuple]) -> None:
    assert _rows(run(text, published=PUBLISHED)) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "The Quarry Lights Festival will return to Dunmere Park next month with Laura Finch and "
            "Daniel Mercer among its headliners.",
            [("Laura Finch", None, QLF, "Dunmere Park"),
             ("Daniel Mercer", None, QLF, "Dunmere Park")],
        ),
        (
            "The Quarry Lights Festival's headliners included Laura Finch and Daniel Mercer.",
            [("Laura Finch", None, QLF, None), ("Daniel Mercer", None, QLF, None)],
        ),
        (
            "Laura Finch was among the headliners at the Quarry Lights Festival in Leeds.",
            [("Laura Finch", None, QLF, "Leeds")],
        ),
        (
            "The Quarry Lights Festival opens on Friday. Its lineup includes Laura Finch and Daniel Mercer.",
            [("Laura Finch", None, QLF, None), ("Daniel Mercer", None, QLF, None)],
        ),
        (
            "Laura Finch and Daniel Mercer will headline the Quarry Lights Festival, with Sarah Ellis among "
            "the other acts on the lineup.",
            [("Laura Finch", None, QLF, None), ("Daniel Mercer", None, QLF, None),
             ("Sarah Ellis", None, QLF, None)],
        ),
        # a bare noun stands for the event named before ("the three-day event")
        (
            "The Quarry Lights Festival returns to Dunmere Park in August. "
            "Laura Finch will headline the three-day event.",
            [("Laura Finch", None, QLF, "Dunmere Park")],
        ),
        (
            "The Quarry Lights Festival continues on Sunday with sets from Laura Finch and Daniel Mercer.",
            [("Laura Finch", None, QLF, None), ("Daniel Mercer", None, QLF, None)],
        ),
        (
            "“Laura Finch's set at the Quarry Lights Festival is still talked about,” Daniel Mercer said.",
            [("Laura Finch", None, QLF, None)],
        ),
        (
            "Daniel Mercer headlined the second night of the Quarry Lights Festival.",
            [("Daniel Mercer", None, "Quarry Lights Festival second night", None)],
        ),
        # a headliner keeps its billing; the song she will play is not performed yet
        (
            "Laura Finch will headline the Quarry Lights Festival. She will play “Salt Wind” there.",
            [("Laura Finch", None, QLF, None)],
        ),
    ],
)
def test_headliners_and_lineups(run, text: str, expected: list[tuple]) -> None:
    assert _rows(run(text, published=PUBLISHED)) == expected


def test_tour_route_gives_a_show_at_each_end(run) -> None:
    text = ("Daniel Mercer will play ten dates this autumn, starting at the Corran Ballroom in Leeds on October 3 "
            "and ending at the Ashgrove Hall in Dublin three weeks later.")
    rows = _rows(run(text, published=PUBLISHED))
    assert ("Daniel Mercer", None, None, "Corran Ballroom") in rows
    assert ("Daniel Mercer", None, None, "Ashgrove Hall") in rows


def test_tour_as_subject_stands_for_its_act(run) -> None:
    text = ("Laura Finch announces Velvet Road tour\n\n"
            "The Velvet Road Tour opens at the Brenner Arena in Salzfeld on April 4 "
            "and closes at the Teatro Orrin in Valcena on May 19.")
    facts = run(text, published=PUBLISHED)
    assert _rows(facts) == [("Laura Finch", None, "Velvet Road tour", "Brenner Arena"),
                            ("Laura Finch", None, "Velvet Road tour", "Teatro Orrin")]
    assert [p.date.value for p in facts.performances] == ["2026-04-04", "2026-05-19"]


def test_band_member_performs_for_the_band_at_its_show(run) -> None:
    text = ("The Hollow Saints opened their Long Road Tour at the Cobalt Hall in Glasgow with “Iron Gate.”\n\n"
            "Singer Laura Finch dedicated “Tin Roof” to her father.")
    rows = _rows(run(text))
    assert ("Hollow Saints", "Tin Roof", "Long Road Tour", "Cobalt Hall") in rows
    assert ("Laura Finch", "Tin Roof", "Long Road Tour", "Cobalt Hall") in rows


def test_a_guest_who_joins_the_band_plays_with_it(run) -> None:
    text = ("The Hollow Saints opened their Long Road Tour at the Cobalt Hall with “Iron Gate.” "
            "Midway through the set, guitarist Daniel Mercer joined them for “Tin Roof.”")
    rows = _rows(run(text))
    # the guest plays at the band's show, and the band he joined plays the song with him
    assert ("Daniel Mercer", "Tin Roof", "Long Road Tour", "Cobalt Hall") in rows
    assert ("Hollow Saints", "Tin Roof", "Long Road Tour", "Cobalt Hall") in rows


def test_a_show_of_another_year_is_not_the_festival(run) -> None:
    text = ("Laura Finch debuted “Salt Wind” at the Quarry Lights Festival in July. "
            "She played the Brenner Arena once before, in 2016, "
            "when she stopped the show to sing “Happy Days” to a fan.")
    rows = _rows(run(text, published=PUBLISHED))
    assert ("Laura Finch", "Happy Days", None, None) in rows
    assert ("Laura Finch", "Salt Wind", QLF, None) in rows


@pytest.mark.parametrize(
    "text",
    [
        "Laura Finch was not among the headliners of the Quarry Lights Festival.",
        "Daniel Mercer played tennis at the Ridgeview Club before the Quarry Lights Festival.",
        "Daniel Mercer played a gravedigger in the drama “Small Mercies” last spring.",
        "“Tin Roof,” the single that made Laura Finch's name, was missing from the setlist.",
        "Promoter Kestrel Live said the Quarry Lights Festival had sold out.",
        "The Lumen Awards were a triumph for Laura Finch, who won album of the year for “Cold Water.”",
    ],
)
def test_no_performance(run, text: str) -> None:
    assert run(text, published=PUBLISHED).performances == ()


def test_review_goes_on_about_the_act_it_placed(run) -> None:
    text = ("Laura Finch walked on at the Beacon Ballroom in Ashby on Saturday and launched into “Copperhead.”\n\n"
            "The set leaned on her new album. “Kite Season” was dedicated to her fans, and she duetted with "
            "her brother, Tom Finch, on “Two Rivers.”\n\n"
            "The encore was a raucous cover of “Tin Cup Blues.”")
    rows = _rows(run(text))
    assert rows == [
        ("Laura Finch", "Copperhead", None, "Beacon Ballroom"),
        ("Laura Finch", "Kite Season", None, "Beacon Ballroom"),
        ("Laura Finch", "Two Rivers", None, "Beacon Ballroom"),
        ("Tom Finch", "Two Rivers", None, "Beacon Ballroom"),
        # the guest of one song is not the act of the encore
        ("Laura Finch", "Tin Cup Blues", None, "Beacon Ballroom"),
    ]


def test_performances_from_acts_at_a_venue(run) -> None:
    text = ("The Harbour Lights Gala raised £2 million on Friday, with performances from Laura Finch and "
            "the Brassworks Collective at the Royal Exchange Hall in Dunford.")
    rows = _rows(run(text))
    assert ("Laura Finch", None, "Harbour Lights Gala", "Royal Exchange Hall") in rows


def test_a_tour_leg_kicks_off_and_wraps_up(run) -> None:
    text = ("The Hollow Saints will extend their Last Light farewell tour into the Pacific next year.\n\n"
            "The new leg kicks off at the Harbourside Pavilion in Port Ellery on February 12 "
            "and wraps up at the Kauri Bowl in Westhaven on March 30.")
    rows = _rows(run(text, published=PUBLISHED))
    assert rows == [("Hollow Saints", None, "Last Light farewell tour", "Harbourside Pavilion"),
                    ("Hollow Saints", None, "Last Light farewell tour", "Kauri Bowl")]


def test_award_show_report(run) -> None:
    text = ("Laura Finch took home five trophies at the 2025 Meridian Awards in Denver on Sunday night, "
            "at the Summit Arena, including record of the year for “Midnight Orchard.”\n\n"
            "She later returned to duet with country star Tom Baker on his 1998 hit “Long Gone Train.”\n\n"
            "Other performers included rapper Jaylen Cross and the reunited rock band The Parlour Ghosts.")
    facts = run(text, published="2025-02-03")
    rows = _rows(facts)
    assert ("Laura Finch", "Long Gone Train", "2025 Meridian Awards", "Summit Arena") in rows
    assert ("Tom Baker", "Long Gone Train", "2025 Meridian Awards", "Summit Arena") in rows
    assert ("Jaylen Cross", None, "2025 Meridian Awards", "Summit Arena") in rows
    # a category names the kind of the work; a band's name is no work
    assert [(w.title, w.kind) for w in facts.works] == [("Midnight Orchard", "song"), ("Long Gone Train", "song")]


def test_festival_day_review(run) -> None:
    text = ("Solstice Fields review: a singer steals the show\n\n"
            "The second day of Solstice Fields in Harlow Park belonged to Laura Finch. She played a long set, "
            "opening with “Cinder” and closing with a singalong of “Atlantic.”\n\n"
            "Before her, the Gutter Saints tore through a set of new material, "
            "including the unreleased “Brick Lane.”")
    facts = run(text)
    assert [p.name for p in facts.places] == ["Harlow Park"]
    rows = _rows(facts)
    day = "Solstice Fields second day"
    assert ("Laura Finch", "Cinder", day, "Harlow Park") in rows
    assert ("Laura Finch", "Atlantic", day, "Harlow Park") in rows
    assert not facts.quotes


def test_a_tour_review_with_quotes_between_the_songs(run) -> None:
    """The dateline makes the model read the act's name as a place; quotes sit between the songs."""
    text = ("Wren Adebayo brings 'Salt Road' tour to the Corn Exchange\n\n"
            "LEEDS — Wren Adebayo opened the northern leg of her Salt Road tour at the Corn Exchange hall in Leeds "
            "on Friday night.\n\n"
            "The 27-year-old singer kicked off the show with \"Ferry Lights,\" the lead single from her second "
            "album, before slowing things down with a piano version of \"Kestrel.\"\n\n"
            "\"This city gave me my first stage,\" Adebayo told the crowd. \"Coming back feels like home.\"\n\n"
            "Adebayo closed with \"Low Water,\" dedicating it to her late grandmother.")
    facts = run(text)
    assert [e.name for e in facts.entities if e.kind == "person"] == ["Wren Adebayo"]
    assert "Wren Adebayo" not in {p.name for p in facts.places}
    tour, hall = "Salt Road tour", "Corn Exchange"
    assert _rows(facts) == [
        # "the lead single" is what she opened with, not a lead she took
        ("Wren Adebayo", "Ferry Lights", tour, hall),
        ("Wren Adebayo", "Kestrel", tour, hall),
        # placed by the sentences before it, and so at the one show the review is about
        ("Wren Adebayo", "Low Water", tour, hall),
    ]


def test_who_pulled_out_does_not_perform_and_the_guest_brought_out_does(run) -> None:
    text = ("Rapper Dex Morrow, a late addition to the bill after Lila Stone pulled out with illness, "
            "brought out surprise guest Tayo Banks to perform their collaboration \"Night Bus.\"")
    assert _rows(run(text)) == [("Dex Morrow", "Night Bus", None, None), ("Tayo Banks", "Night Bus", None, None)]


def test_a_set_that_ended_with_a_song_is_the_act_of_the_clause_before(run) -> None:
    text = ("Headliners Harrow Lane closed the main stage at the Quarry Lights Festival with a 90-minute set "
            "that ended with their 2019 hit \"Undertow.\"")
    assert _rows(run(text)) == [("Harrow Lane", "Undertow", QLF, None)]


def test_the_standout_of_a_set_is_a_song_its_act_performed(run) -> None:
    facts = run("Mara Quinlan played the Quarry Festival on Friday. "
                "The standout of her set was “Harbor Lights,” when the crowd lit their phones.")
    assert ("Mara Quinlan", "Harbor Lights", "Quarry Festival", None) in _rows(facts)
