"""No name from the example articles appears in kg/ source: the rules must be general.

Quality is measured on held-out news nobody has seen, so a rule that only fires because it
lists a person, band, venue, event or title of an example would flatter the dev figures and
do nothing in production. Every name the gold annotations of ``examples/gold/*.json`` hold is
looked up, case-insensitive and as whole words, in every file under ``kg/``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GOLD_DIR = ROOT / "examples" / "gold"
KG_DIR = ROOT / "kg"

#: Gold names shorter than this are single common words or initials, not identifying names.
_MIN_LEN = 4

#: Gold fields that hold a name, per section of an annotation.
_NAME_FIELDS = {
    "people": ("name", "aliases"),
    "groups": ("name", "aliases"),
    "works": ("title",),
    "performances": ("performer", "work", "event", "venue", "city"),
    "event_venues": ("event", "venue", "city"),
}


def _annotations() -> Iterator[dict]:
    """Every article annotation: a gold file holds one object or a list of them."""
    for path in sorted(GOLD_DIR.glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        yield from data if isinstance(data, list) else [data]


def _values(value: object) -> Iterator[str]:
    """The strings of a field that holds one name, a list of names, or nothing."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, list):
        yield from (v for v in value if isinstance(v, str))


def example_names() -> list[str]:
    """Every person, alias, group, work, event, venue and city named in the example gold."""
    names: set[str] = set()
    for annotation in _annotations():
        for section, fields in _NAME_FIELDS.items():
            for item in annotation.get(section) or ():
                for field in fields:
                    for name in _values(item.get(field)):
                        name = name.strip().strip("\"“”‘’'").removeprefix("The ").removeprefix("the ")
                        if len(name) >= _MIN_LEN:
                            names.add(name)
    return sorted(names)


def _pattern(name: str) -> re.Pattern[str]:
    """Whole words, case-insensitive, with any run of spaces or typographic apostrophe allowed."""
    words = [re.sub(r"\\?['’]", "['’]", re.escape(w)) for w in name.split()]
    return re.compile(r"(?<!\w)" + r"\s+".join(words) + r"(?!\w)", re.IGNORECASE)


def _source_files() -> list[Path]:
    """Text files under kg/ (code, queries, templates), not caches."""
    return sorted(
        p for p in KG_DIR.rglob("*") if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc"
    )


def test_gold_names_are_collected() -> None:
    names = example_names()
    # people, groups, titles, events and venues of different example articles
    assert {"Mara Quillfeather", "Velvet Orchards", "Glass Harbour", "Saltmarsh Festival", "Ashton Fields"} <= set(
        names
    )


@pytest.mark.parametrize("name", example_names())
def test_example_name_absent_from_kg_source(name: str) -> None:
    pattern = _pattern(name)
    hits = []
    for path in _source_files():
        text = path.read_text(encoding="utf-8", errors="ignore")
        for match in pattern.finditer(text):
            line = text.count("\n", 0, match.start()) + 1
            hits.append(f"{path.relative_to(ROOT)}:{line}")
    assert not hits, f"{name!r} appears in kg/ source: {', '.join(hits)}"
