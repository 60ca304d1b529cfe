"""Titles before names: which words are titles and when the name needs its title."""

from __future__ import annotations

import pytest

from kg.extract.people.titles import bare, title_in_name, title_split, words_of


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("Archbishop Tomos Hale", "Tomos Hale"),
        ("Sir Tomos Hale", "Tomos Hale"),
        ("Gov. Ana Rivera", "Ana Rivera"),
        ("Sir", ""),
        # a lower-case role noun is no title of the name
        ("singer Ana Rivera", "singer Ana Rivera"),
    ],
)
def test_bare_leaves_out_the_titles_a_name_starts_with(name: str, expected: str) -> None:
    assert bare(name) == expected


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("Sir Tomos Hale", ("Sir", "Tomos Hale")),
        ("Dame Ana Rivera", ("Dame", "Ana Rivera")),
        ("Senator Ana Rivera", ("Senator", "Ana Rivera")),
        # the rest alone names nobody clearly: the title stays
        ("Lady Marlow", ("", "Lady Marlow")),
        ("Mr Hale", ("", "Mr Hale")),
        ("Pope Gregory XX", ("", "Pope Gregory XX")),
        ("Ana Rivera", ("", "Ana Rivera")),
    ],
)
def test_title_split_takes_the_title_off_a_full_name(name: str, expected: tuple[str, str]) -> None:
    assert title_split(name) == expected


def test_title_in_name_and_words_of() -> None:
    assert title_in_name("Lady Marlow") and not title_in_name("Bishop Marlow") and not title_in_name("Lady")
    assert words_of("Tomos", "Tomos Hale") and not words_of("Sir Tomos", "Tomos Hale")
