"""One exception base for kg, so callers (and the CLI) can catch every expected failure at once.

Messages name the bad input and the problem in one line; the CLI prints them as
``Error: ...`` and exits non-zero, never with a traceback.
"""

from __future__ import annotations


class KgError(Exception):
    """Base of every error kg raises on purpose."""


class InputError(KgError):
    """An input (file, line, stdin) that cannot be read as an article."""


class ModelError(KgError):
    """No usable spaCy pipeline."""


class GraphError(KgError):
    """A graph file or store that cannot be read or written."""


class StoreBusy(GraphError):
    """A store another process is writing: the caller may wait and try again."""


class QueryError(KgError):
    """A SPARQL query that does not parse or cannot run, or an unknown named query."""


class QueryTimeout(QueryError):
    """A query that ran past its time limit and was stopped."""
