"""Place names and the builder that collects them: one record per place, every mention kept.

A place name is read from a capitalised run (a venue word at its end, a stage word after
it); names in capitals are shouted datelines ("NASHVILLE"); the builder merges the
mentions of one place under its fullest name and records which tokens each place covers.
"""

from __future__ import annotations

from spacy.tokens import Doc

from kg.extract.model import Place, TextSpan
from kg.extract.text.doc_index import is_cap
from kg.extract.text.gazetteer import place_kind
from kg.extract.text.lexicon import function_words, labels, tagged, words
from kg.extract.text.marks import VENUE_WORDS

#: Venue words that end company names as often ("AEG Live"): a venue only where a place is expected.
WEAK_VENUE_WORDS = frozenset({"live"})


#: Lower-case words after a name that make it a festival stage.
_STAGE_WORDS = tagged("stage_words", "name")
#: Musical instruments: one of them alone names no place.
_INSTRUMENTS = words("instruments")


def place_key(name: str) -> str:
    """The merge key of a place name: case, apostrophes, spacing, a leading "the" and a final "'s" ignored."""
    low = " ".join(name.replace("’", "'").lower().split()).removesuffix(" 's").removesuffix("'s")
    return low[4:] if low.startswith("the ") else low


def geo_kind(name: str) -> str | None:
    """country/region/city for a name in the gazetteers, else None."""
    low = name.lower()
    # "US", "UK" are abbreviations only in capitals: "Us" in a title is a pronoun
    if len(low.replace(".", "")) <= 3 and not name.isupper():
        return None
    return place_kind(name)


def venue_kind(words: list[str]) -> str | None:
    """The venue kind named by a name's last word ("Stadium" -> stadium), if any."""
    last = words[-1].lstrip("0123456789") if words else ""
    return VENUE_WORDS.get(last.lower()) if last[:1].isupper() else None


def venue_word(token) -> bool:  # type: ignore[no-untyped-def]
    """A capitalised venue word ("Arena", "Hall"), a sponsor's number before it too ("3Arena"): the
    last word of a venue's name."""
    word = token.text.lstrip("0123456789")
    return word[:1].isupper() and word.lower() in VENUE_WORDS


def _shouted(name: str) -> bool:
    """A name in capitals as datelines write it ("LONDON —"), not an initialism ("UK", "NYC")."""
    return name.isupper() and any(len(word) >= 4 and word.isalpha() for word in name.split())


def _unshouted(name: str) -> str:
    """ "LONDON" -> "London", when no mention wrote it in lower case."""
    return name.title() if _shouted(name) else name


class Builder:
    """Collects place mentions, merges them by name, and records containment."""

    def __init__(self, doc: Doc) -> None:
        self.doc = doc
        self.by_norm: dict[str, dict] = {}
        self.order: list[str] = []
        self.token_place: dict[int, str] = {}  # token index -> norm, for every token of a mention
        self.spans: list[tuple[int, int, str]] = []  # (start, end, norm) token ranges

    def add(self, start: int, end: int, kind: str) -> str | None:
        doc = self.doc
        while start < end and (doc[start].pos_ == "DET" or doc[start].lower_ == "the"):
            start += 1
        # "Glendale's" owns what follows; "Ronnie Scott's in Soho" is the venue's own name
        if end > start and doc[end - 1].lower_ in function_words("genitive") and (
                kind in GEO_RANK or end < len(doc) and doc[end].pos_ in labels("nominal")):
            end -= 1
        if start >= end or any(k in self.token_place for k in range(start, end)):
            return None
        span = doc[start:end]
        norm = place_key(span.text)
        if not norm or end - start == 1 and span[0].lower_ in _INSTRUMENTS:
            # ("Vidwan X on Violin": an instrument the model tagged a facility is no place)
            return None
        if norm not in self.by_norm:
            self.by_norm[norm] = {"name": span.text, "kind": kind, "in": None, "mentions": []}
            self.order.append(norm)
        rec = self.by_norm[norm]
        if _shouted(rec["name"]) and not _shouted(span.text):
            rec["name"] = span.text
        rec["mentions"].append(TextSpan(span.start_char, span.end_char, span.text))
        for k in range(start, end):
            self.token_place[k] = norm
        self.spans.append((start, end, norm))
        return norm

    def refer(self, start: int, end: int, norm: str) -> None:
        """Record tokens ``start:end`` ("the London stadium") as one more mention of ``norm``."""
        span = self.doc[start:end]
        self.by_norm[norm]["mentions"].append(TextSpan(span.start_char, span.end_char, span.text))
        for k in range(start, end):
            self.token_place[k] = norm
        self.spans.append((start, end, norm))

    def contain(self, inner: str, outer: str) -> None:
        """Record ``inner`` inside ``outer`` unless it would close a loop or one is already set."""
        if inner == outer or self.by_norm[inner]["in"] is not None:
            return
        seen, cur = {inner}, outer
        while cur is not None:
            if cur in seen:
                return
            seen.add(cur)
            cur = self.by_norm[cur]["in"]
        self.by_norm[inner]["in"] = outer

    def build(self) -> tuple[Place, ...]:
        keys = {norm: f"place:{i}" for i, norm in enumerate(self.order, 1)}
        return tuple(
            Place(
                key=keys[n],
                name=_unshouted(self.by_norm[n]["name"]),
                kind=self.by_norm[n]["kind"],
                contained_in=keys.get(self.by_norm[n]["in"]) if self.by_norm[n]["in"] else None,
                mentions=tuple(self.by_norm[n]["mentions"]),
            )
            for n in self.order
        )


def name_after(doc: Doc, i: int, sent_end: int, events: set[int]) -> tuple[int, int] | None:
    """The capitalised name starting at token ``i`` (after "the"), ended before an event or a verb."""
    while i < sent_end and doc[i].pos_ == "DET":
        i += 1
    j = i
    while j < sent_end and j not in events and (is_cap(doc[j]) or venue_word(doc[j]) or (
            doc[j].lower_ in function_words("place-inner") and j + 1 < sent_end and is_cap(doc[j + 1]) and j > i)):
        j += 1
    if all(t.ent_type_ in ("DATE", "TIME") for t in doc[i:j]):
        # "at Saturday night's event": a day is no place ("Independence Day Stadium" is one)
        return None
    # "at Ronnie Scott's in Soho": a possessive that owns nothing ends the venue's name
    if i < j < sent_end and doc[j].lower_ in function_words("genitive") and (j + 1 >= sent_end or doc[j + 1].pos_ not in (
            "NOUN", "PROPN", "ADJ")):
        j += 1
    return (i, with_stage_word(doc, j, sent_end)) if j > i else None


def with_stage_word(doc: Doc, end: int, sent_end: int) -> int:
    """The end of a festival stage's name with its lower-case stage word ("the Acoustic tent")."""
    return end + 1 if end < sent_end and doc[end].lower_ in _STAGE_WORDS and doc[end].is_lower else end


GEO_RANK = {"country": 4, "region": 3, "city": 2}
