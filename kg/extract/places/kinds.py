"""What kind of place each place is, what it lies in, and what refers back to it.

A name's kind comes from the gazetteer, a noun that says it ("the state of X", "X County",
"X, a town in ..."), a comma after a city ("Kolvik, Estavia": a region holding it) and a
venue or event before "in" ("the Y Ballroom in X": a town); "the venue", "the London
stadium" refer back to the venue named before; a dateline adds its city.
"""

from __future__ import annotations

from spacy.tokens import Doc

from kg.extract.model import EventMention
from kg.extract.places.names import GEO_RANK, Builder, geo_kind, name_after
from kg.extract.text.dateline import Dateline
from kg.extract.text.doc_index import (
    doc_tokens,
    is_cap,
    token_words,
)
from kg.extract.text.lexicon import function_words, labels, table, tagged

#: Nouns that say what kind of place a name is ("the state of X", "X County", "X, a town in ...").
KIND_NOUNS: dict[str, str] = table("place_kind_nouns")


#: Lower-case nouns that refer back to a venue named before ("the London stadium", "the venue").
_BACK_NOUNS = tagged("back_nouns", "place")


def refer_back(doc: Doc, builder: Builder) -> None:
    """ "Wembley Stadium ... will play the London stadium": a definite venue noun is the last venue
    named before it that it fits ("venue" fits any); a town among its words contains that venue."""
    toks, lower = doc_tokens(doc), token_words(doc).lower
    for token in (toks[k] for k, word in enumerate(lower) if word in _BACK_NOUNS):
        if not token.is_lower or token.i in builder.token_place:
            continue
        start = token.i
        while start > 0 and token.i - start < 4 and (toks[start - 1].pos_ in labels("description")
                                                    or toks[start - 1].text == "-"):
            start -= 1
        if start == 0 or toks[start - 1].lower_ not in function_words("definite"):
            continue
        before = (norm for s, _, norm in sorted(builder.spans, reverse=True) if s < start)
        target = next((norm for norm in before if _fits(token.lower_, builder.by_norm[norm])), None)
        if target is None:
            continue
        towns = {builder.token_place[k] for k in range(start, token.i) if k in builder.token_place}
        builder.refer(start, token.i + 1, target)
        for town in towns:
            if builder.by_norm[town]["kind"] in GEO_RANK:
                builder.contain(target, town)


def _fits(noun: str, place: dict) -> bool:
    """Whether "the <noun>" can name ``place``: "the venue" any venue, "the arena" an arena or a stadium."""
    if place["kind"] in GEO_RANK:
        return False
    arena = noun in ("stadium", "arena") and place["kind"] == "stadium"
    return noun == "venue" or noun in place["name"].lower() or arena


def dateline_city_of(doc: Doc, line: Dateline | None, builder: Builder) -> str | None:
    """The city of the dateline ("LONDON — ...", "YORK, June 3, 2025 —", "NASHVILLE, Tenn. (AP) — ...",
    "Mumbai: ..."), added if the model missed it.

    A reporter names the town of a venue elsewhere; the dateline says where the story happened.
    """
    if line is None:
        return None
    norm = builder.token_place.get(line.start) or builder.add(line.start, line.town_end, "city")
    return norm if norm is not None and builder.by_norm[norm]["kind"] == "city" else None


def add_kind_named(doc: Doc, i: int, sent_end: int, events: set[int], builder: Builder) -> int | None:
    """ "the US state of X", "the Norwegian city of X": the noun before "of" says what X is.

    A country named before the noun ("the US state of X") contains X.
    """
    kind = KIND_NOUNS.get(doc[i].lower_)
    if kind is None or i + 2 >= sent_end or doc[i + 1].lower_ != "of" or i == 0:
        return None
    j = i - 1
    while j > 0 and (is_cap(doc[j]) or doc[j].pos_ == "ADJ"):
        j -= 1
    name = name_after(doc, i + 2, sent_end, events)
    if doc[j].lower_ != "the" or name is None or any(k in builder.token_place for k in range(*name)):
        return None
    inner = builder.add(name[0], name[1], kind)
    # the country before the noun was added when the scan passed it
    outer = builder.token_place.get(i - 1)
    if inner and outer and builder.by_norm[outer]["kind"] == "country":
        builder.contain(inner, outer)
    return name[1]


def refine_kinds(doc: Doc, builder: Builder) -> None:
    """Retype places the gazetteers do not know, from their own last word and their neighbours.

    "Carrow County" is a region; "Tromsdal, a town in ..." a city; in "Kolvik, Estavia drew
    crowds" the unknown name after a city and a comma contains it, so it is a region (a state
    or a country: AdministrativeArea says no more than the text does), unless a list goes on.
    """
    for start, end, norm in builder.spans:
        rec = builder.by_norm[norm]
        if rec["kind"] not in ("city", "region") or geo_kind(rec["name"]) is not None:
            continue
        kind = KIND_NOUNS.get(doc[end - 1].lower_) if end - start > 1 and is_cap(doc[end - 1]) else None
        kind = kind or _apposed_kind(doc, end)
        # "the Harbourside Pavilion in Port Ellery": the place a venue is in is its town
        venue = builder.token_place.get(start - 2) if start >= 2 and doc[start - 1].lower_ == "in" else None
        if kind is None and venue is not None and builder.by_norm[venue]["kind"] not in GEO_RANK:
            kind = "city"
        before = builder.token_place.get(start - 2) if start >= 2 and doc[start - 1].text == "," else None
        if kind is None and before is not None and rec["kind"] == "city" \
                and builder.by_norm[before]["kind"] == "city" and not _list_goes_on(doc, end):
            kind = "region"
        if kind is not None:
            rec["kind"] = kind


def _apposed_kind(doc: Doc, end: int) -> str | None:
    """The kind an apposition gives: "X, a small town in ..." -> city."""
    if end + 2 >= len(doc) or doc[end].text != "," or doc[end + 1].lower_ not in function_words("article"):
        return None
    for k in range(end + 2, min(end + 6, len(doc))):
        if doc[k].lower_ in KIND_NOUNS:
            return KIND_NOUNS[doc[k].lower_]
        if doc[k].pos_ not in labels("modifier"):
            break
    return None


def _list_goes_on(doc: Doc, end: int) -> bool:
    """Whether a list of places continues after token ``end`` ("Paris, Lyon and Nice")."""
    return end < len(doc) and doc[end].lower_ in function_words("list-joiner")


def link_containment(doc: Doc, builder: Builder, events: set[int], event_mentions: tuple[EventMention, ...]) -> None:
    """Read containment from "V at W", "V in C", "C, S" and a city inside an event's name."""
    spans = sorted(builder.spans)
    by_start = {s: (s, e, n) for s, e, n in spans}
    kinds = {n: builder.by_norm[n]["kind"] for n in builder.order}
    for start, end, norm in spans:
        j = end
        # "Hamburg's Volkspark Stadium": a town owning a venue
        if j + 1 < len(doc) and doc[j].lower_ in function_words("genitive") and j + 1 in by_start and kinds[norm] in GEO_RANK \
                and kinds[by_start[j + 1][2]] not in GEO_RANK:
            builder.contain(by_start[j + 1][2], norm)
        # "Orchid Live at Park Halvorsen", "Wembley Stadium in London", "Paris, France"
        if j < len(doc) and doc[j].lower_ in function_words("locating-prep") - {"to"} | {","}:
            k = j + 1
            while k < len(doc) and doc[k].pos_ == "DET":
                k += 1
            if k in by_start:
                outer = by_start[k][2]
                if GEO_RANK.get(kinds[outer], 1) > GEO_RANK.get(kinds[norm], 1) or (
                        kinds[norm] not in GEO_RANK and doc[j].lower_ != ","):
                    builder.contain(norm, outer)
    # "the X City Tour at V (at W)": the outermost venue is in that city
    for m in event_mentions:
        inner_city = next((builder.token_place[k] for k in range(m.start, m.end)
                           if k in builder.token_place and kinds[builder.token_place[k]] == "city"), None)
        if inner_city is None or m.end >= len(doc) or doc[m.end].lower_ != "at":
            continue
        k = m.end + 1
        while k < len(doc) and doc[k].pos_ == "DET":
            k += 1
        if k not in by_start:
            continue
        cur = by_start[k][2]
        while builder.by_norm[cur]["in"] is not None:
            cur = builder.by_norm[cur]["in"]
        if kinds[cur] not in GEO_RANK:
            builder.contain(cur, inner_city)
