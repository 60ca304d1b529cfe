"""Collecting a work's mentions: one record per title, however many times the article names it.

The first mention gives a work its title, kind and sieve; later mentions, a translation in
brackets among them ("'Chanson' ('Song')"), add to its mentions and to where its creator is named.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from spacy.tokens import Doc, Span

from kg.extract.model import TextSpan, Work
from kg.extract.sieves import Sieve
from kg.extract.text.doc_index import doc_text
from kg.extract.text.marks import CLOSING_MARKS, OPENING_MARKS

#: Between a title and its gloss, and after the gloss: "'Chanson' ('Song')".
_GLOSS_OPEN = re.compile(f"[{CLOSING_MARKS}]\\s*\\(\\s*[{OPENING_MARKS}]")
_GLOSS_CLOSE = re.compile(f"[{CLOSING_MARKS}]\\s*\\)")


@dataclass
class _Found:
    """A work as its mentions come in: the first mention's title and sieve, kind and year filled in later."""

    title: str
    kind: str
    year: int | None
    rule: Sieve
    mentions: list[tuple[int, int, str]] = field(default_factory=list)
    creators: list[tuple[int, int]] = field(default_factory=list)


class Collector:
    """Merges title mentions into works and remembers where each work's creator is named."""

    def __init__(self, doc: Doc) -> None:
        self.doc = doc
        self.works: dict[str, _Found] = {}  # by normalised title, in order of first mention
        self.taken: set[int] = set()

    def add(self, span: Span, kind: str, year: int | None, creators: list[tuple[int, int]], rule: Sieve,
            trim: int = 0) -> None:
        """A mention of a work, less ``trim`` characters of punctuation at its end; the first
        mention's sieve is the work's."""
        if any(t.i in self.taken for t in span):
            return
        text, end = span.text[: len(span.text) - trim], span.end_char - trim
        norm = " ".join(text.replace("’", "'").lower().split())
        rec = self.works.setdefault(norm, _Found(text, kind, year, rule))
        if rec.kind == "work" and kind != "work":
            rec.kind = kind
        rec.year = rec.year or year
        rec.mentions.append((span.start_char, end, text))
        rec.creators.extend(creators)
        self.taken.update(t.i for t in span)

    def glossed(self, span: Span) -> bool:
        """Whether ``span`` is the gloss in brackets right after a work's title ("'Chanson' ('Song')"):
        a translation names the same work, and is recorded as one more mention of it."""
        text = doc_text(self.doc)
        if not _GLOSS_CLOSE.match(text, span.end_char):
            return False
        for rec in self.works.values():
            if any(end < span.start_char and _GLOSS_OPEN.fullmatch(text, end, span.start_char)
                   for _, end, _ in rec.mentions):
                rec.mentions.append((span.start_char, span.end_char, span.text))
                self.taken.update(t.i for t in span)
                return True
        return False

    def kind_at(self, i: int) -> str | None:
        """The kind of the work one of whose mentions covers token ``i``."""
        char = self.doc[i].idx
        for rec in self.works.values():
            if any(start <= char < end for start, end, _ in rec.mentions):
                return rec.kind
        return None

    def build(self) -> tuple[Work, ...]:
        """The works, keyed in order of first mention, each with where its creator is named."""
        text = doc_text(self.doc)
        return tuple(
            Work(key=f"work:{i}", title=rec.title, kind=rec.kind, year=rec.year,
                 mentions=tuple(TextSpan(*m) for m in rec.mentions), rule=rec.rule.id, confidence=rec.rule.confidence,
                 credits=tuple(TextSpan(start, end, text[start:end]) for start, end in rec.creators))
            for i, rec in enumerate(self.works.values(), 1)
        )
