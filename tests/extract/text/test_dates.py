"""parse_date: dates as written, normalised against the publication date."""

from __future__ import annotations

import pytest

from kg.extract.text.dates import is_date_text, parse_date
from kg.extract.model import TextSpan


@pytest.mark.parametrize(
    ("text", "published", "value"),
    [
        ("April 2022", None, "2022-04"),
        ("in August 2023", "2020-01-01", "2023-08"),
        ("2011", None, "2011"),
        ("summer 2019", None, "2019"),
        ("March 3, 2021", None, "2021-03-03"),
        ("3 March 2021", None, "2021-03-03"),
        ("Sept. 9, 2022", None, "2022-09-09"),
        ("2022-11-05", None, "2022-11-05"),
        # a month without a year: its nearest occurrence not after publication
        ("in September", "2023-03-14", "2022-09"),
        ("in March", "2023-03-14", "2023-03"),
        ("in February", "2023-03-14", "2023-02"),
        ("on July 4", "2023-03-14", "2022-07-04"),
        ("on March 1", "2023-03-14", "2023-03-01"),
        # weekdays: the most recent such day on or before publication (2023-03-15 is a Wednesday)
        ("on Monday", "2023-03-15", "2023-03-13"),
        ("Wednesday", "2023-03-15", "2023-03-15"),
        ("last Wednesday", "2023-03-15", "2023-03-08"),
        ("Friday night", "2023-03-15", "2023-03-10"),
        ("yesterday", "2023-03-15", "2023-03-14"),
        ("last night", "2023-03-01", "2023-02-28"),
        ("tonight", "2023-03-15", "2023-03-15"),
        ("last year", "2023-03-15", "2022"),
        # nothing to resolve against
        ("in September", None, None),
        ("on Monday", None, None),
        ("yesterday", None, None),
        ("the other day", "2023-03-15", None),
    ],
)
def test_parse_date(text: str, published: str | None, value: str | None) -> None:
    when = parse_date(text, published)
    assert when.value == value
    assert when.text == text


def test_parse_date_keeps_span_and_ignores_bad_publication_date() -> None:
    span = TextSpan(10, 19, "September")
    when = parse_date("September", "not a date", span)
    assert when.span == span
    assert when.value is None


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("August 2023", True),
        ("Monday", True),
        ("2011", True),
        ("last night", True),
        ("37", False),
        ("13 years old", False),
        ("a few weeks", False),
    ],
)
def test_is_date_text(text: str, expected: bool) -> None:
    assert is_date_text(text) is expected
