"""Gold annotations: reading them, checking them, and the names they give each person.

A gold annotation lists by hand what a careful reader takes from one article (the
format is docs/gold-format.md). It is checked as it is read, field by field, so a typo
("speker") or a wrong type stops ``kg eval`` with one line naming the file and the
problem instead of silently changing a score.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from kg.errors import InputError
from kg.io.article import Article

__all__ = ["check_gold", "gold_aliases", "gold_key", "gold_names", "load_gold"]

# The fields each gold section accepts; the first one listed is required.
_SECTIONS: dict[str, tuple[str, ...]] = {
    "people": ("name", "aliases", "descriptions", "age", "kind", "optional", "note"),
    "groups": ("name", "aliases", "descriptions", "kind", "optional", "note"),
    "quotes": ("text", "speaker", "optional", "note"),
    "performances": ("performer", "work", "event", "venue", "city", "date", "optional", "note"),
    "event_venues": ("event", "venue", "city", "date", "optional", "note"),
    "works": ("title", "type", "creator", "date", "optional", "note"),
}
_TOP_KEYS = ("source", "note", *_SECTIONS)
_LIST_FIELDS = frozenset({"aliases", "descriptions"})


def load_gold(path: str | Path) -> dict[str, dict]:
    """Read gold annotations from a JSON file or a folder of ``*.json`` files.

    A file holds one annotation (an object) or several (a list of objects, as for
    a JSONL source with one annotation a line).

    Args:
        path: A ``.json`` file or a folder searched recursively, in sorted order.

    Returns:
        Annotations keyed by their ``"source"`` (see :func:`gold_key`).

    Raises:
        InputError: For a missing path, invalid JSON, a malformed annotation, or
            two annotations of the same source; the message names the file.
    """
    root = Path(path)
    if not root.exists():
        raise InputError(f"{root}: no such file or folder")
    files = sorted(root.rglob("*.json")) if root.is_dir() else [root]
    if not files:
        raise InputError(f"{root}: no *.json gold files in this folder")
    found: dict[str, dict] = {}
    where: dict[str, Path] = {}
    for file in files:
        for index, gold in enumerate(_read_gold_file(file)):
            label = f"{file}[{index}]" if index else str(file)
            check_gold(gold, label)
            source = gold["source"]
            if source in found:
                raise InputError(f"{file}: source {source!r} is already annotated in {where[source]}")
            found[source] = gold
            where[source] = file
    return found


def gold_key(article: Article) -> str:
    """The ``"source"`` a gold annotation gives for this article: its file name (``NAME:LINE`` for JSONL).

    >>> gold_key(Article(id="a", text="t", source="examples/news.jsonl:2"))
    'news.jsonl:2'
    """
    return Path(article.source).name


def gold_aliases(gold: dict) -> dict[str, tuple[str, ...]]:
    """Every gold person's and group's names (name first), by name: a prediction may use any of them."""
    table: dict[str, tuple[str, ...]] = {}
    for record in [*gold.get("people", []), *gold.get("groups", [])]:
        table[record["name"]] = (record["name"], *record.get("aliases", []))
    return table


def gold_names(name: str, aliases: dict[str, tuple[str, ...]]) -> tuple[str, ...]:
    """A gold name with the aliases its person or group record gives (see :func:`gold_aliases`).

    >>> gold_names("Ana Rivera", {"Ana Rivera": ("Ana Rivera", "Rivera")})
    ('Ana Rivera', 'Rivera')
    >>> gold_names("Someone", {})
    ('Someone',)
    """
    return aliases.get(name, (name,))


def _read_gold_file(file: Path) -> list[Any]:
    """The annotations of one gold file: an object, or a list of them."""
    try:
        data = json.loads(file.read_text(encoding="utf-8-sig"))
    except OSError as exc:
        raise InputError(f"{file}: cannot read ({exc.strerror or exc})") from None
    except UnicodeDecodeError:
        raise InputError(f"{file}: not valid UTF-8") from None
    except json.JSONDecodeError as exc:
        raise InputError(f"{file}: invalid JSON ({exc.msg} at line {exc.lineno}, column {exc.colno})") from None
    return data if isinstance(data, list) else [data]


def check_gold(gold: Any, where: str) -> None:
    """Raise InputError naming ``where`` and the first problem of a gold annotation."""
    if not isinstance(gold, dict):
        raise InputError(f"{where}: a gold annotation must be a JSON object, got {type(gold).__name__}")
    unknown = sorted(set(gold) - set(_TOP_KEYS))
    if unknown:
        raise InputError(f"{where}: unknown key {unknown[0]!r}; expected {', '.join(_TOP_KEYS)}")
    if not isinstance(gold.get("source"), str) or not gold["source"].strip():
        raise InputError(f'{where}: "source" (the article\'s file name) must be a non-empty string')
    for section, keys in _SECTIONS.items():
        items = gold.get(section, [])
        if not isinstance(items, list):
            raise InputError(f'{where}: "{section}" must be a list, got {type(items).__name__}')
        for index, item in enumerate(items):
            _check_item(item, keys, f"{where}: {section}[{index}]")
    for index, quote in enumerate(gold.get("quotes", [])):
        # The speaker key must be there: null is a statement ("judge the span only"), not an omission.
        if "speaker" not in quote:
            raise InputError(f'{where}: quotes[{index}]: "speaker" is missing (use null for an unknown speaker)')


def _check_item(item: Any, keys: tuple[str, ...], where: str) -> None:
    """Check one gold record: an object with its required field and known, well-typed fields."""
    if not isinstance(item, dict):
        raise InputError(f"{where}: must be a JSON object, got {type(item).__name__}")
    unknown = sorted(set(item) - set(keys))
    if unknown:
        raise InputError(f"{where}: unknown key {unknown[0]!r}; expected {', '.join(keys)}")
    required = keys[0]
    if not isinstance(item.get(required), str) or not item[required].strip():
        raise InputError(f'{where}: "{required}" must be a non-empty string')
    for key, value in item.items():
        if key in _LIST_FIELDS:
            # Aliases and descriptions are lists of strings.
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                raise InputError(f'{where}: "{key}" must be a list of strings')
        elif key == "optional":
            if not isinstance(value, bool):
                raise InputError(f'{where}: "optional" must be true or false')
        elif key == "age":
            if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
                raise InputError(f'{where}: "age" must be a whole number or null')
        elif value is not None and not isinstance(value, str):
            raise InputError(f'{where}: "{key}" must be a string or null, got {type(value).__name__}')
