"""RDF literals and web IRIs that are valid in every RDF syntax kg writes.

Article text can hold anything (control characters, lone surrogates, odd URLs), and one
ill-formed literal makes a whole RDF/XML or N-Triples file unreadable, so every value the
mapping writes passes through one of these.
"""

from __future__ import annotations

import datetime as dt
import math
import re
from decimal import Decimal
from functools import lru_cache

from rdflib import Literal, URIRef
from rdflib.term import Node

from kg.rdf.namespaces import XSD

__all__ = ["clean_text", "date_literal", "decimal_literal", "integer_literal", "text_literal", "url_node"]

# Characters XML 1.0 forbids (C0 controls but tab/LF/CR, lone surrogates, U+FFFE/U+FFFF):
# RDF/XML cannot carry them, so no literal may.
_XML_FORBIDDEN = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
_DATE_FORMATS = (
    (re.compile(r"\d{4}-\d{2}-\d{2}"), XSD.date),
    (re.compile(r"\d{4}-\d{2}"), XSD.gYearMonth),
    (re.compile(r"\d{4}"), XSD.gYear),
)
_URL = re.compile(r"https?://[A-Za-z0-9.-]+(?::\d{1,5})?(?:[/?#].*)?", re.DOTALL | re.IGNORECASE)
# Characters a URL keeps %-escaped: anything outside printable ASCII, and what IRIs forbid.
# A "%" not starting an escape, and brackets outside the host, are escaped too.
_URL_UNSAFE = re.compile(r"[^\x21-\x7e]|[<>\"{}|\\^`\[\]]|%(?![0-9A-Fa-f]{2})")


def clean_text(text: str) -> str:
    """``text`` without the characters XML 1.0 forbids, so a literal is valid in every RDF syntax.

    >>> clean_text("a\\x00b\\x1fc")
    'abc'
    """
    return _XML_FORBIDDEN.sub("", text)


@lru_cache(maxsize=1 << 14)
def text_literal(text: str) -> Literal:
    """A plain string literal of article text, cleaned (names, rule ids and cue words recur)."""
    return Literal(clean_text(text))


def date_literal(value: str | None) -> Literal | None:
    """An ``xsd:date``, ``xsd:gYearMonth`` or ``xsd:gYear`` literal for an ISO date of that precision.

    Returns None for anything that is not a real calendar date of one of those shapes
    (``"2022-02-30"``, ``"spring"``), so no ill-typed literal is ever written.

    >>> date_literal("2022-04").datatype == XSD.gYearMonth
    True
    >>> date_literal("2022-02-30") is None
    True
    """
    if value is None:
        return None
    for pattern, datatype in _DATE_FORMATS:
        if pattern.fullmatch(value):
            # Pad to a full date so the calendar check covers every precision.
            padded = value + "-01" * ((10 - len(value)) // 3)
            try:
                dt.date.fromisoformat(padded)
            except ValueError:
                return None
            return Literal(value, datatype=datatype)
    return None


@lru_cache(maxsize=1 << 10)
def decimal_literal(value: float) -> Literal | None:
    """An ``xsd:decimal`` literal in plain notation ("0.85", never "8.5e-01"), None if not finite."""
    if not math.isfinite(value):
        return None
    return Literal(format(Decimal(repr(float(value))), "f"), datatype=XSD.decimal)


def url_node(url: str) -> Node:
    """The article URL as an IRI when it is an http(s) URL, else a literal.

    Non-ASCII and unsafe characters are %-escaped, so the IRI parses in every RDF syntax.
    """
    if not _URL.fullmatch(url):
        # Not an absolute web URL: keep it as text rather than mint a broken IRI.
        return text_literal(url)
    head, hash_, fragment = url.partition("#")
    # A fragment may not hold another "#".
    fragment = fragment.replace("#", "%23")
    return URIRef(_URL_UNSAFE.sub(_percent_escape, head) + hash_ + _URL_UNSAFE.sub(_percent_escape, fragment))


def _percent_escape(match: re.Match[str]) -> str:
    """``%XX`` escapes of the UTF-8 bytes of one matched character."""
    return "".join(f"%{byte:02X}" for byte in match.group().encode("utf-8", "surrogatepass"))



@lru_cache(maxsize=1 << 12)
def integer_literal(value: int) -> Literal:
    """An ``xsd:integer`` literal (offsets recur: every evidence span has two)."""
    return Literal(value, datatype=XSD.integer)
