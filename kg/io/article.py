"""The Article: what every reader yields and the only thing the NLP stage sees of a source."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Article:
    """One news article, as read from a file, a JSONL line or stdin.

    Attributes:
        id: Deterministic identifier: the same source gives the same id on every run.
        text: The main text, as read (offsets of every fact point into it).
        title: Headline, when the source has one.
        url: Canonical URL, when the source has one.
        published: Publication date as ISO 8601 (``YYYY-MM-DD``), when known.
        source: Where it came from (a path, ``path:line`` or ``<stdin>``), for messages.
        path: The source path kept in the graph and, without a URL, the article's
            identity: the file's path as given (a folder's files as the folder given
            plus their path inside it), ``FILE#LINE`` for a JSONL line; None for stdin.
    """

    id: str
    text: str
    title: str | None = None
    url: str | None = None
    published: str | None = None
    source: str = ""
    path: str | None = None
