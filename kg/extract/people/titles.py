"""Titles written before names: which words are titles, and when one is part of the name.

A title before a full name describes the person ("Sir Tomos Hale" is Tomos Hale, a knight);
one before a single word or a regnal name is how the person is known ("Lady Marlow", "Pope
Gregory XX"). Clustering compares names without their titles; the entity keeps the title
only where the name needs it.
"""

from __future__ import annotations

import re

from kg.extract.text.lexicon import words
from kg.extract.text.marks import HONORIFICS, PERSON_NOUNS

#: Abbreviated titles ("Gov.", "Sen.").
_TITLE_ABBREVIATIONS = words("title_abbreviations")

#: Titles that are part of how someone is known ("Lady X", "Prince Y").
_TITLES_IN_NAME = words("name_titles")

#: A regnal number after a name ("Charles III"): the title before it is part of the name.
_REGNAL = re.compile(r"[IVX]{1,5}")


def title_word(word: str) -> bool:
    """A title or role written before a name: "Mr", "Sir", "Gov.", "Bishop", "President"."""
    low = word.lower()
    return low in HONORIFICS or low in _TITLE_ABBREVIATIONS or word[:1].isupper() and low in PERSON_NOUNS


def bare(name: str) -> str:
    """``name`` without the titles it starts with ("Archbishop Justin Welby" -> "Justin Welby").

    >>> bare("Sir Tomos Hale"), bare("Sir")
    ('Tomos Hale', '')
    """
    parts = name.split()
    while parts and title_word(parts[0]):
        parts = parts[1:]
    return " ".join(parts)


def title_split(name: str) -> tuple[str, str]:
    """``name`` as (title, name): the title comes off where the rest is a full name of its own.

    A title stays where the rest alone names nobody clearly: one word ("Lady X", "Bishop
    Rivera", "Mr Hale") or a regnal name ("Pope John Paul II", "King Charles III").

    >>> title_split("Sir Tomos Hale"), title_split("Sen. Ana Rivera"), title_split("Prince Tomos")
    (('Sir', 'Tomos Hale'), ('Sen.', 'Ana Rivera'), ('', 'Prince Tomos'))
    """
    rest = bare(name)
    parts = rest.split()
    if len(parts) < 2 or _REGNAL.fullmatch(parts[-1]):
        return "", name
    return name[: len(name) - len(rest)].strip(), rest


def words_of(part: str, name: str) -> bool:
    """Whether every word of ``part`` is a word of ``name`` ("Tomos" of "Tomos Hale")."""
    return set(part.lower().split()) <= set(name.lower().split())


def title_in_name(name: str) -> bool:
    """A title that is part of how the person is known ("Lady X", "Prince Y", "Pope Z")."""
    first = name.split()[0].lower() if name.split() else ""
    return first in _TITLES_IN_NAME and bool(bare(name))
