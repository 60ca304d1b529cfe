"""Named SPARQL queries (``*.rq``): the competency questions the graph must answer.

Each file starts with a comment line saying which question it answers, and runs
unchanged on an rdflib Dataset with ``default_union=True`` and on any SPARQL 1.1
store that queries the union of its named graphs.
"""

from __future__ import annotations

from importlib.resources import files

from kg.errors import QueryError

__all__ = ["describe", "load", "names"]


def names() -> list[str]:
    """The names of the shipped queries (file names without ``.rq``), sorted."""
    return sorted(item.name[: -len(".rq")] for item in files(__name__).iterdir() if item.name.endswith(".rq"))


def load(name: str) -> str:
    """The SPARQL text of a named query.

    Raises:
        QueryError: For an unknown name, listing the valid ones.

    >>> "schema:Quotation" in load("quotes")
    True
    """
    if name not in names():
        raise QueryError(f"unknown query {name!r}; valid names: {', '.join(names())}")
    return files(__name__).joinpath(f"{name}.rq").read_text(encoding="utf-8")


def describe(name: str) -> str:
    """The question a named query answers: its first comment line, without the ``#``."""
    return load(name).splitlines()[0].lstrip("#").strip()
