"""Text clean-up before parsing that never moves a character, and the way back.

News text carries non-breaking and other odd spaces and control characters that
spoil spaCy's sentence splits. Each is replaced by one plain character, so every
offset into the cleaned text is also an offset into the original: facts found in
the cleaned text get the original's words back by offset (:func:`restore_spans`).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from typing import TypeVar

from kg.extract.model import TextSpan

_SPACES = "\u00a0\u2007\u202f\u2009\u200a\u2002\u2003\u2004\u2005\u2006\u2008\u205f\u3000\t\r\f\v\u200b\ufeff"
_TABLE: dict[int, str] = {ord(c): " " for c in _SPACES}
_TABLE.update({ord(c): "\n" for c in "\u2028\u2029\x85"})
_TABLE.update({c: " " for c in range(0x20) if chr(c) not in "\n"})
_TABLE[0x7F] = " "

_R = TypeVar("_R")

#: A left single mark written for an apostrophe between a word and its "s" ("Foghat‘s gig"): an
#: opening mark never follows a letter, so it is the possessive's apostrophe, and the tagger
#: reads "X‘s" as a name's possessive only when it is written the usual way.
_MISPRINTED_APOSTROPHE = re.compile(r"(?<=[^\W\d_])\u2018(?=s\b)")


def normalize_text(text: str) -> str:
    """Replace odd spaces and control characters one for one, and a misprinted apostrophe.

    >>> normalize_text("a\\u00a0b\\r\\nc")
    'a b \\nc'
    >>> len(normalize_text("x\\u202fy")) == len("x\\u202fy")
    True
    >>> normalize_text("Foghat\\u2018s gig, \\u2018Sugar\\u2019")
    'Foghat’s gig, ‘Sugar’'
    """
    return _MISPRINTED_APOSTROPHE.sub("\u2019", text.translate(_TABLE))


def restore_spans(record: _R, original: str) -> _R:
    """``record`` (facts, or any of their parts) with every TextSpan's text read from ``original``.

    The extractors work on the cleaned text, so their spans hold cleaned words; the
    model promises ``span.text == article.text[span.start:span.end]``. Cleaning moves
    no character, so the offsets hold for the original as they are.

    >>> restore_spans((TextSpan(0, 3, "a b"),), "a\\tb")
    (TextSpan(start=0, end=3, text='a\\tb'),)
    """
    return map_spans(record, lambda span: TextSpan(span.start, span.end, original[span.start : span.end]))


def map_spans(record: _R, change: Callable[[TextSpan], TextSpan]) -> _R:
    """``record`` with ``change`` applied to every TextSpan in it, at any depth.

    Facts are frozen dataclasses and tuples of them; spans sit at several depths
    (a performance's date has one), so one walk finds them all.

    >>> map_spans((TextSpan(0, 1, "a"),), lambda s: TextSpan(s.start + 5, s.end + 5, s.text))
    (TextSpan(start=5, end=6, text='a'),)
    """
    if isinstance(record, TextSpan):
        return change(record)  # type: ignore[return-value]
    if dataclasses.is_dataclass(record) and not isinstance(record, type):
        changes = {f.name: map_spans(getattr(record, f.name), change) for f in dataclasses.fields(record)}
        return dataclasses.replace(record, **changes)  # type: ignore[type-var]
    if isinstance(record, tuple):
        return tuple(map_spans(item, change) for item in record)  # type: ignore[return-value]
    return record
