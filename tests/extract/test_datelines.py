"""Wire datelines: every common form gives the article's scene its town (and its day where one is
printed), and its words are never anyone the story tells of.

The articles are written for these tests; the towns are real ones the gazetteer knows or
invented ones in capitals, the people, bands and venues invented.
"""

from __future__ import annotations

import pytest

from kg.extract.model import Facts, Scene
from kg.extract.text.dateline import find_dateline
from kg.io.article import Article
from kg.nlp.pipeline import facts_from_doc, make_doc

BODY = ('Folk singer Ana Rivera played "Silver Tide" at the Corn Exchange on Saturday night. '
        '"It was a wonderful evening," Rivera said after the concert.')


@pytest.fixture(scope="module")
def read(nlp):
    """``read(text, published) -> (facts, scene)``: the facts of one text and its scene."""

    def _read(text: str, published: str | None = "2025-06-04") -> tuple[Facts, Scene]:
        doc = nlp(make_doc(nlp, Article(id="test", text=text, published=published)))
        return facts_from_doc(doc), doc._.scene

    return _read


def _place(facts: Facts, key: str | None) -> str | None:
    return next((p.name for p in facts.places if p.key == key), None)


@pytest.mark.parametrize(
    ("dateline", "town", "day"),
    [
        ("LEEDS, June 3, 2025 — ", "Leeds", "2025-06-03"),
        ("LEEDS, June 3 (Reuters) - ", "Leeds", "2025-06-03"),
        ("LEEDS (AP) — ", "Leeds", None),
        ("LEEDS, June 3 — ", "Leeds", "2025-06-03"),
        ("Leeds, June 3 — ", "Leeds", "2025-06-03"),
        ("LEEDS, England, June 3 (Reuters) - ", "Leeds", "2025-06-03"),
        ("BRACKWATER, England (Reuters) - ", "Brackwater", None),
        ("NEW YORK, Sept. 3 (Reuters) - ", "New York", "2024-09-03"),
        ("Mumbai: ", "Mumbai", None),
        ("Mumbai, June 3: ", "Mumbai", "2025-06-03"),
        # the town on a line of its own under the headline
        ("Rivera wins over the city\n\nLEEDS\n\n", "Leeds", None),
        # a headline, a byline and an "Updated" stamp above: the stamp's day is not the story's
        ("Rivera wins over the city\nBy Jane Doe\nUpdated June 5, 2025\nLEEDS, June 3 (AP) — ", "Leeds", "2025-06-03"),
    ],
)
def test_a_dateline_gives_the_scene_its_town_and_day(read, dateline: str, town: str, day: str | None) -> None:
    facts, scene = read(dateline + BODY)
    assert _place(facts, scene.city) == town
    assert (scene.date.value if scene.date else None) == day
    # the venue the story never puts in a town is in the dateline's
    venue = next(p for p in facts.places if p.name == "Corn Exchange")
    assert _place(facts, venue.contained_in) == town


@pytest.mark.parametrize(
    "dateline",
    ["LEEDS (AP) — ", "LEEDS, June 3 (Reuters) - ", "BRACKWATER, England, June 3 (Reuters) - ", "MUMBAI: "],
)
def test_a_datelines_words_are_no_one(read, dateline: str) -> None:
    facts, _ = read(dateline + 'The Harbour Quartet played "Silver Tide" at the Corn Exchange. The band was in fine form.')
    names = {e.name.lower() for e in facts.entities}
    assert not names & {"leeds", "brackwater", "mumbai", "reuters", "ap"}
    performers = {e.key for e in facts.entities} & {p.performer for p in facts.performances}
    assert all(next(e.name for e in facts.entities if e.key == k).lower() not in ("leeds", "brackwater")
               for k in performers)


def test_a_dateline_below_headline_byline_agency_day_and_caption_is_read(read) -> None:
    text = ("Concert raises thousands for the hospital\n\nMara Quinlan\nCanadian Press\n\nMarch 6, 2004\n\n"
            "Tom Reyes performs at the benefit concert.\n\n\nLEEDS (CP) - Tom Reyes electrified a benefit concert "
            "singing Silver Tide at the Corn Exchange.")
    facts, scene = read(text)
    assert "leeds" not in {e.name.lower() for e in facts.entities}
    assert scene.city is not None and next(p.name for p in facts.places if p.key == scene.city) == "Leeds"


def test_an_updated_stamp_does_not_date_the_event(read) -> None:
    text = ("Lantern Festival opens\nBy Jane Doe\nUpdated June 5, 2025\n"
            "LEEDS, June 3 (AP) — The Lantern Festival opened at the Corn Exchange with a set by Ana Rivera.")
    facts, scene = read(text)
    festival = next(e for e in facts.events if "Lantern Festival" in e.name)
    assert festival.date is None or festival.date.value != "2025-06-05"
    assert scene.date is not None and scene.date.value == "2025-06-03"


@pytest.mark.parametrize(
    "text",
    [
        # a label the top line shouts is no town
        "BREAKING — The Harbour Quartet have split up.",
        "EXCLUSIVE: The Harbour Quartet have split up.",
        # a name before a date is someone's
        "Ana Rivera, June 3 — a diary of the tour.",
        # a headline's speaker, whose full name the story gives, is no town the gazetteer knows
        "Rivera: I nearly quit\nThe singer Ana Rivera said on Monday that the tour had worn her out.",
        # a sentence that opens with a name and a dash
        "Ana Rivera — who sang at the Corn Exchange — has retired.",
        # a heading in capitals on a line of its own that is no town
        "Rivera wins over the city\n\nSET LIST\n\nSilver Tide",
    ],
)
def test_no_dateline(nlp, text: str) -> None:
    assert find_dateline(nlp(text)) is None


@pytest.mark.parametrize(
    ("dateline", "day"),
    [
        ("LEEDS, June 3, 2025 — ", "2025-05-31"),
        # a day without its year dates nothing
        ("LEEDS, June 3 — ", None),
    ],
)
def test_a_dateline_with_its_year_dates_an_undated_article(read, dateline: str, day: str | None) -> None:
    facts, _ = read(dateline + BODY, published=None)
    assert {p.date.value if p.date else None for p in facts.performances} == {day}
