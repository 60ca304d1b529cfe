"""Word lists and tables as data: the files under ``kg/extract/resources/``, loaded once.

Every list the extractors consult (speech verbs, role nouns, venue and event heads,
performance frames...) is a plain text file, so a rule's vocabulary can be read,
counted, diffed and extended without touching code, and each file says what it is
for, where it comes from and under which licence. The format:

    # what the list is for (one or more comment lines: the header)
    # source: where the entries come from; licence: ...
    entry
    entry<TAB>value

An entry is a word or phrase, as the rules compare it (lower-case where they compare
lower-case forms). A table file gives each entry a value after a tab (a gender, a kind).
Blank lines and ``#`` comments are ignored; a file without a header is refused, so no
list arrives without its provenance.
"""

from __future__ import annotations

from functools import lru_cache
from importlib import resources

_PACKAGE = "kg.extract.resources"


@lru_cache(maxsize=None)
def _lines(name: str) -> tuple[tuple[str, ...], tuple[tuple[str, str], ...]]:
    """(header comment lines, (entry, value) pairs) of resource ``name`` (without ``.txt``)."""
    return parse(name, resources.files(_PACKAGE).joinpath(f"{name}.txt").read_text(encoding="utf-8"))


def names() -> list[str]:
    """The names of every lexicon kg ships, sorted."""
    return sorted(p.name[:-4] for p in resources.files(_PACKAGE).iterdir() if p.name.endswith(".txt"))


def parse(name: str, text: str) -> tuple[tuple[str, ...], tuple[tuple[str, str], ...]]:
    """(header comment lines, (entry, value) pairs) of the text of lexicon ``name``."""
    head: list[str] = []
    rows: list[tuple[str, str]] = []
    for raw in text.splitlines():
        line = raw.rstrip()
        if line.startswith("#"):
            if not rows:
                head.append(line.lstrip("# ").strip())
            continue
        if not line.strip():
            continue
        entry, _, value = line.partition("\t")
        rows.append((entry.strip(), value.strip()))
    if not head:
        raise ValueError(f"lexicon {name!r} has no header saying what it is and where it comes from")
    return tuple(head), tuple(rows)


def header(name: str) -> tuple[str, ...]:
    """The header lines of lexicon ``name``: purpose, source, licence."""
    return _lines(name)[0]


@lru_cache(maxsize=None)
def words(name: str) -> frozenset[str]:
    """The entries of lexicon ``name`` as a set (values, if any, are ignored)."""
    return frozenset(entry for entry, _ in _lines(name)[1])


@lru_cache(maxsize=None)
def table(name: str) -> dict[str, str]:
    """Lexicon ``name`` as entry -> value (an entry without a value maps to ``""``).

    The dict is shared: callers must not change it.
    """
    return dict(_lines(name)[1])


@lru_cache(maxsize=None)
def tagged(name: str, tag: str) -> frozenset[str]:
    """The entries of table ``name`` whose value, a space-separated list of tags, has ``tag``.

    One idea, one file: the performance verbs are one table, and "the verbs of the
    voice" are the entries tagged ``voice`` in it.
    """
    return frozenset(entry for entry, value in _lines(name)[1] if tag in value.split())


@lru_cache(maxsize=None)
def kinds(name: str) -> dict[str, str]:
    """Table ``name`` as entry -> its first tag, where a table's first tag is a kind ("award", "song")."""
    return {entry: value.split()[0] for entry, value in _lines(name)[1] if value}


@lru_cache(maxsize=None)
def labels(tag: str) -> frozenset[str]:
    """The spaCy labels (POS, dependency, tag or entity type) of group ``tag`` in ``labels.txt``."""
    return tagged("labels", tag)


@lru_cache(maxsize=None)
def function_words(tag: str) -> frozenset[str]:
    """The closed-class words of group ``tag`` in ``function_words.txt``."""
    return tagged("function_words", tag)
