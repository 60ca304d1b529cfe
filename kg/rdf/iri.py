"""Deterministic IRIs: the same name or article gives the same IRI on every run and machine.

One function, :func:`mint`, builds every data IRI kg writes, so graphs built apart
merge cleanly and no character that any RDF syntax forbids ever reaches an IRI.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from functools import lru_cache

from rdflib import URIRef

from kg.rdf.namespaces import DATA

__all__ = ["mint", "slug"]

_MAX_SLUG = 80
_HASH_CHARS = 10
# Apostrophes vanish inside words ("O'Brien" -> "obrien"), as slugs conventionally do.
_APOSTROPHES = frozenset("'\u2018\u2019\u02bc\u02bb\u0060\u00b4")
# Whitespace and hyphen-like characters all become the one slug separator, without loss.
_SEPARATORS = frozenset("-\u2010\u2011\u2012\u2013\u2014\u2015\u2212_")
_RUNS_OF_HYPHENS = re.compile(r"-{2,}")
# Text that is already a slug (ids, offsets such as "120-164"): it is its own slug.
_PLAIN_SLUG = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
# Names recur across the facts of one article and across articles: slugs and IRIs are
# remembered, up to this many each (both functions are pure, so a cache cannot go stale).
_CACHE_SIZE = 1 << 16


def _fold(text: str) -> str:
    """Fold case, compatibility forms and accents away: "Ｂｊöｒk" -> "bjork"."""
    decomposed = unicodedata.normalize("NFKD", text)
    stripped = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return unicodedata.normalize("NFKD", stripped.casefold())


def _slug_and_loss(text: str) -> tuple[str, bool]:
    """The slug of ``text`` and whether folding dropped anything beyond case, accents and spacing."""
    out: list[str] = []
    lossy = False
    for ch in _fold(text):
        if ch.isascii() and ch.isalnum():
            # A letter or digit is kept as is.
            out.append(ch)
        elif ch.isspace() or ch in _SEPARATORS:
            # Spacing and dashes separate words; which one was used does not matter.
            out.append("-")
        elif ch in _APOSTROPHES:
            # Apostrophes are dropped without trace.
            continue
        elif unicodedata.combining(ch):
            # Marks left after casefolding (rare) are accents too.
            continue
        else:
            # Anything else (punctuation, non-Latin letters, controls) is lost: hash it.
            out.append("-")
            lossy = True
    slug = _RUNS_OF_HYPHENS.sub("-", "".join(out)).strip("-")
    if len(slug) > _MAX_SLUG:
        slug = slug[:_MAX_SLUG].rstrip("-")
        lossy = True
    return slug, lossy or not slug


@lru_cache(maxsize=_CACHE_SIZE, typed=True)
def slug(text: str | int) -> str:
    """One IRI path segment for ``text``: a readable slug, plus a stable hash when it loses information.

    The slug keeps lowercase ASCII letters and digits joined by single hyphens, after
    Unicode NFKD folding, so "Beyoncé", "beyonce" and "BEYONCÉ" share a segment. When
    anything else had to be dropped (punctuation, non-Latin script, an over-long name)
    or nothing is left, ``_`` and a hash of the folded text are appended: distinct names
    that collapse to the same letters still get distinct segments, and ``_`` never
    occurs in a plain slug, so a hashed segment never equals a plain one.

    Args:
        text: Any text (names, titles, article ids) or an integer.

    Returns:
        A non-empty string of ``[a-z0-9-]`` and at most one ``_``.

    >>> slug("Ana Rivera")
    'ana-rivera'
    >>> slug("Beyoncé") == slug("BEYONCE")
    True
    >>> slug("AC/DC").startswith("ac-dc_")
    True
    """
    text = str(text)
    if len(text) <= _MAX_SLUG and _PLAIN_SLUG.fullmatch(text):
        # Folding would give the text back unchanged.
        return text
    base, lossy = _slug_and_loss(text)
    if not lossy:
        return base
    folded = " ".join(_fold(text).split())
    digest = hashlib.blake2b(folded.encode("utf-8", "surrogatepass"), digest_size=8).hexdigest()
    return f"{base}_{digest[:_HASH_CHARS]}" if base else f"_{digest[:_HASH_CHARS]}"


@lru_cache(maxsize=_CACHE_SIZE, typed=True)
def mint(*segments: str | int) -> URIRef:
    """The data IRI for a path of segments, each passed through :func:`slug`.

    Every IRI kg writes comes from here: ``mint("person", "Ana Rivera")`` is
    ``<https://w3id.org/kg/id/person/ana-rivera>``, ``mint("article", article_id,
    "quote", "120-164")`` a quotation in one article.

    Args:
        segments: Path segments under https://w3id.org/kg/id/ (kinds, names, ids, offsets).

    Returns:
        An absolute IRI valid in every RDF syntax.

    Raises:
        ValueError: When no segment is given.

    >>> str(mint("place", "Pier Arena"))
    'https://w3id.org/kg/id/place/pier-arena'
    """
    if not segments:
        raise ValueError("mint() needs at least one segment, got none")
    return URIRef(str(DATA) + "/".join(slug(segment) for segment in segments))
