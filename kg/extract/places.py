"""Places: venues, cities, regions and countries, chained by containment.

The small model misses or mislabels venues ("Orchid Live" as a PERSON, "Park Halvorsen" as
nothing), so places come from three sources: GPE/LOC/FAC entities; capitalised names
ending in a venue word ("Wembley Stadium", "the Hollywood Bowl"); and a capitalised
name after "at" where an event or a performance is located ("... Tour at X at Y").
Containment is read from "V at W", "V in City", "City, Country" and from a city
named inside an event's name when the event is held at a venue.

The gazetteers are small, so a name they do not know is typed from general cues: the noun
before "of" ("the US state of X", "the city of X"), its own last word ("X County"), an
apposition ("X, a small town in ..."), a comma after a city ("Kolvik, Estavia": a region
holding it) and a venue or event before "in" ("the Y Ballroom in X": a town).
"""

from __future__ import annotations

from spacy.tokens import Doc, Span

from kg.extract.cues import GROUP_NOUNS, ORG_WORDS, VENUE_WORDS
from kg.extract.gazetteer import place_kind, place_names, untagged_place
from kg.extract.lexicon import function_words, labels, table, tagged, words
from kg.extract.model import Place, TextSpan
from kg.extract.text import DATELINE_SENTENCES, dateline_end, is_cap, title_run_start
from kg.extract.works import WORK_CUES

#: Final words of companies: "works at Live Nation Inc." is no place.
_COMPANY_WORDS = tagged("org_name_ends", "company")
#: Venue words that end company names as often ("AEG Live"): a venue only where a place is expected.
_WEAK_VENUE_WORDS = frozenset({"live"})
#: Lower-case words after a name that make it a festival stage.
_STAGE_WORDS = tagged("stage_words", "name")
#: Venue words that are also surnames: a PERSON ending in one ("Regina Hall") stays a person.
_SURNAMES = words("venue_surnames")
#: Verbs and nouns whose "at X" locates a performance or an event.
_EVENT_CONTEXT = words("event_context_words")
#: Nouns that say what kind of place a name is ("the state of X", "X County", "X, a town in ...").
_KIND_NOUNS: dict[str, str] = table("place_kind_nouns")


def _norm(name: str) -> str:
    """The merge key of a place name: case, apostrophes, spacing, a leading "the" and a final "'s" ignored."""
    low = " ".join(name.replace("’", "'").lower().split()).removesuffix(" 's").removesuffix("'s")
    return low[4:] if low.startswith("the ") else low


def _geo_kind(name: str) -> str | None:
    """country/region/city for a name in the gazetteers, else None."""
    low = name.lower()
    # "US", "UK" are abbreviations only in capitals: "Us" in a title is a pronoun
    if len(low.replace(".", "")) <= 3 and not name.isupper():
        return None
    return place_kind(name)


def _venue_kind(words: list[str]) -> str | None:
    """The venue kind named by a name's last word ("Stadium" -> stadium), if any."""
    return VENUE_WORDS.get(words[-1].lower()) if words and words[-1][:1].isupper() else None


def _venue_word(token) -> bool:  # type: ignore[no-untyped-def]
    """A capitalised venue word ("Arena", "Hall"): the last word of a venue's name."""
    return token.text[:1].isupper() and token.lower_ in VENUE_WORDS


def _shouted(name: str) -> bool:
    """A name in capitals as datelines write it ("LONDON —"), not an initialism ("UK", "NYC")."""
    return name.isupper() and any(len(word) >= 4 and word.isalpha() for word in name.split())


def _unshouted(name: str) -> str:
    """ "LONDON" -> "London", when no mention wrote it in lower case."""
    return name.title() if _shouted(name) else name


class _Builder:
    """Collects place mentions, merges them by name, and records containment."""

    def __init__(self, doc: Doc) -> None:
        self.doc = doc
        self.by_norm: dict[str, dict] = {}
        self.order: list[str] = []
        self.token_place: dict[int, str] = {}  # token index -> norm, for every token of a mention
        self.spans: list[tuple[int, int, str]] = []  # (start, end, norm) token ranges

    def add(self, start: int, end: int, kind: str) -> str | None:
        doc = self.doc
        while start < end and (doc[start].pos_ == "DET" or doc[start].lower_ in ("the",)):
            start += 1
        # "Glendale's" owns what follows; "Ronnie Scott's in Soho" is the venue's own name
        if end > start and doc[end - 1].lower_ in function_words("genitive") and (
                kind in _GEO_RANK or end < len(doc) and doc[end].pos_ in labels("nominal")):
            end -= 1
        if start >= end or any(k in self.token_place for k in range(start, end)):
            return None
        span = doc[start:end]
        norm = _norm(span.text)
        if not norm:
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


def _event_tokens(doc: Doc) -> set[int]:
    """Tokens inside event names: "Zennies" there is an event, never a place."""
    return {k for m in doc._.event_mentions for k in range(m.start, m.end)}


def _name_after(doc: Doc, i: int, sent_end: int, events: set[int]) -> tuple[int, int] | None:
    """The capitalised name starting at token ``i`` (after "the"), ended before an event or a verb."""
    while i < sent_end and doc[i].pos_ == "DET":
        i += 1
    j = i
    while j < sent_end and j not in events and (is_cap(doc[j]) or (
            doc[j].lower_ in function_words("place-inner") and j + 1 < sent_end and is_cap(doc[j + 1]) and j > i)):
        j += 1
    # "at Ronnie Scott's in Soho": a possessive that owns nothing ends the venue's name
    if i < j < sent_end and doc[j].lower_ in function_words("genitive") and (j + 1 >= sent_end or doc[j + 1].pos_ not in (
            "NOUN", "PROPN", "ADJ")):
        j += 1
    return (i, _with_stage_word(doc, j, sent_end)) if j > i else None


def _with_stage_word(doc: Doc, end: int, sent_end: int) -> int:
    """The end of a festival stage's name with its lower-case stage word ("the Acoustic tent")."""
    return end + 1 if end < sent_end and doc[end].lower_ in _STAGE_WORDS and doc[end].is_lower else end


def _in_event_context(doc: Doc, at: int, events: set[int], builder: _Builder) -> bool:
    """Whether the "at" at token ``at`` locates an event or a performance, not a workplace."""
    prev = at - 1
    # "... Tour at X", "... Orchid Live at X" (a chain of places), "the show at X"
    if prev >= 0 and (prev in events or prev in builder.token_place or doc[prev].lemma_.lower() in _EVENT_CONTEXT):
        return True
    # 'performed "X" at V': the verb before a quoted title
    if prev >= 0 and doc[prev].text in _MARKS:
        opening = next((k for k in range(prev - 1, max(prev - 16, 0), -1) if doc[k].text in _MARKS), None)
        if opening is not None and doc[opening - 1].lemma_.lower() in _EVENT_CONTEXT:
            return True
    head = doc[at].head
    return head.lemma_.lower() in _EVENT_CONTEXT or head.i in events


def _gpe_kind(text: str, label: str) -> str:
    """country / region / city of a GPE or LOC entity: the gazetteers first, GPE -> city by default."""
    kind = _geo_kind(text)
    if kind:
        return kind
    return "city" if label == "GPE" else "region"


def extract_places(doc: Doc) -> tuple[Place, ...]:
    """Places in order of first mention, each ``contained_in`` the place that holds it, if said.

    A venue that is a company ("works at Live Nation") is left out: a name after "at"
    is only a place when an event or a performance is located there, or when the name
    itself ends in a venue word.
    """
    events = _event_tokens(doc)
    builder = _Builder(doc)
    ents_by_start = {e.start: e for e in doc.ents if e.label_ in _GEO_LABELS}
    surnames = _surnames(doc)
    named = _gpe_names(doc, events)
    for sent in doc.sents:
        i = sent.start
        while i < sent.end:
            ent = ents_by_start.get(i)
            if i in builder.token_place:
                nxt = i + 1
            # inside an event name only a known place counts ("the Summer Reno Residency")
            elif i in events:
                nxt = _add_gazetteer(doc, i, sent.end, builder) or _add_named_elsewhere(
                    doc, i, sent.end, events, named, builder) or i + 1
            # GPE / LOC / FAC entities that are not part of an event name
            elif ent is not None and not events.intersection(range(ent.start, ent.end)) \
                    and not (ent.text in surnames and untagged_place(ent.text) is None) and not _in_title(doc, ent.start) \
                    and not _in_marks(doc, ent.start, ent.end) and not _after_group_noun(doc, ent.start):
                nxt = _add_entity(doc, ent, sent.end, events, builder)
            # (a place starts on a capital, "at X" or "the city of X": other words need no look)
            elif not (doc[i].text[:1].isupper() or doc[i].lower_ == "at" or doc[i].lower_ in _KIND_NOUNS):
                nxt = i + 1
            else:
                nxt = (
                    _add_kind_named(doc, i, sent.end, events, builder)
                    or _add_venue_name(doc, i, sent.start, events, builder)
                    or _add_gazetteer(doc, i, sent.end, builder)
                    or _add_in_name(doc, i, sent.end, events, builder)
                    or _add_at_name(doc, i, sent.end, events, builder)
                    or i + 1
                )
            i = nxt
    _refine_kinds(doc, builder)
    _refer_back(doc, builder)
    dateline = _dateline_city(doc, builder)
    _link_containment(doc, builder, events)
    if dateline is not None:
        # a venue whose town the text never names is in the dateline's city
        for norm in builder.order:
            if builder.by_norm[norm]["kind"] not in _GEO_RANK and builder.by_norm[norm]["in"] is None:
                builder.contain(norm, dateline)
    return builder.build()


#: Lower-case nouns that refer back to a venue named before ("the London stadium", "the venue").
_BACK_NOUNS = tagged("back_nouns", "place")


def _refer_back(doc: Doc, builder: _Builder) -> None:
    """ "Wembley Stadium ... will play the London stadium": a definite venue noun is the last venue
    named before it that it fits ("venue" fits any); a town among its words contains that venue."""
    for token in doc:
        if token.lower_ not in _BACK_NOUNS or not token.is_lower or token.i in builder.token_place:
            continue
        start = token.i
        while start > 0 and token.i - start < 4 and (doc[start - 1].pos_ in labels("description")
                                                    or doc[start - 1].text == "-"):
            start -= 1
        if start == 0 or doc[start - 1].lower_ not in function_words("definite"):
            continue
        before = (norm for s, _, norm in sorted(builder.spans, reverse=True) if s < start)
        target = next((norm for norm in before if _fits(token.lower_, builder.by_norm[norm])), None)
        if target is None:
            continue
        towns = {builder.token_place[k] for k in range(start, token.i) if k in builder.token_place}
        builder.refer(start, token.i + 1, target)
        for town in towns:
            if builder.by_norm[town]["kind"] in _GEO_RANK:
                builder.contain(target, town)


def _fits(noun: str, place: dict) -> bool:
    """Whether "the <noun>" can name ``place``: "the venue" any venue, "the arena" an arena or a stadium."""
    if place["kind"] in _GEO_RANK:
        return False
    arena = noun in ("stadium", "arena") and place["kind"] == "stadium"
    return noun == "venue" or noun in place["name"].lower() or arena


def _dateline_city(doc: Doc, builder: _Builder) -> str | None:
    """The city of the dateline ("LONDON — ...", "NASHVILLE, Tenn. (AP) — ..."), added if the model missed it.

    A reporter names the town of a venue elsewhere; the dateline says where the story happened.
    """
    for sent in list(doc.sents)[:DATELINE_SENTENCES]:
        start, end = sent.start, sent.start
        while end < sent.end and doc[end].is_upper and doc[end].is_alpha and len(doc[end]) > 1:
            end += 1
        norm = builder.token_place.get(start)
        if norm is not None:
            end = max(k for k in range(start, sent.end) if builder.token_place.get(k) == norm) + 1
        if end == start or not dateline_end(doc, end):
            continue
        norm = norm or builder.add(start, end, "city")
        return norm if norm is not None and builder.by_norm[norm]["kind"] == "city" else None
    return None


def _add_kind_named(doc: Doc, i: int, sent_end: int, events: set[int], builder: _Builder) -> int | None:
    """ "the US state of X", "the Norwegian city of X": the noun before "of" says what X is.

    A country named before the noun ("the US state of X") contains X.
    """
    kind = _KIND_NOUNS.get(doc[i].lower_)
    if kind is None or i + 2 >= sent_end or doc[i + 1].lower_ != "of" or i == 0:
        return None
    j = i - 1
    while j > 0 and (is_cap(doc[j]) or doc[j].pos_ == "ADJ"):
        j -= 1
    name = _name_after(doc, i + 2, sent_end, events)
    if doc[j].lower_ != "the" or name is None or any(k in builder.token_place for k in range(*name)):
        return None
    inner = builder.add(name[0], name[1], kind)
    # the country before the noun was added when the scan passed it
    outer = builder.token_place.get(i - 1)
    if inner and outer and builder.by_norm[outer]["kind"] == "country":
        builder.contain(inner, outer)
    return name[1]


def _refine_kinds(doc: Doc, builder: _Builder) -> None:
    """Retype places the gazetteers do not know, from their own last word and their neighbours.

    "Carrow County" is a region; "Tromsdal, a town in ..." a city; in "Kolvik, Estavia drew
    crowds" the unknown name after a city and a comma contains it, so it is a region (a state
    or a country: AdministrativeArea says no more than the text does), unless a list goes on.
    """
    for start, end, norm in builder.spans:
        rec = builder.by_norm[norm]
        if rec["kind"] not in ("city", "region") or _geo_kind(rec["name"]) is not None:
            continue
        kind = _KIND_NOUNS.get(doc[end - 1].lower_) if end - start > 1 and is_cap(doc[end - 1]) else None
        kind = kind or _apposed_kind(doc, end)
        # "the Harbourside Pavilion in Port Ellery": the place a venue is in is its town
        venue = builder.token_place.get(start - 2) if start >= 2 and doc[start - 1].lower_ == "in" else None
        if kind is None and venue is not None and builder.by_norm[venue]["kind"] not in _GEO_RANK:
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
        if doc[k].lower_ in _KIND_NOUNS:
            return _KIND_NOUNS[doc[k].lower_]
        if doc[k].pos_ not in labels("modifier"):
            break
    return None


def _list_goes_on(doc: Doc, end: int) -> bool:
    """Whether a list of places continues after token ``end`` ("Paris, Lyon and Nice")."""
    return end < len(doc) and doc[end].lower_ in function_words("list-joiner")


def _in_title(doc: Doc, i: int) -> bool:
    """Whether token ``i`` is inside a title after a cue noun ("the album In Rainbows")."""
    j = i - 1
    while j >= 0 and doc[j].text[:1].isupper() and not doc[j].is_sent_start:
        j -= 1
    return j >= 0 and doc[j].lower_ in WORK_CUES


def _surnames(doc: Doc) -> set[str]:
    """Names the model tags GPE that are people's names or surnames.

    "Sheeran" is the last word of a PERSON named in full elsewhere; in "Singer Ana Rivera"
    the model tags "Rivera" GPE after an untagged first name. Either way every lone
    mention of the word is the person, not a town.
    """
    full = {e.text for e in doc.ents if e.label_ == "PERSON" and len(e) > 1}
    lone = {e.text for e in doc.ents if e.label_ == "PERSON" and len(e) == 1}
    # "Mara Kent" tagged PERSON in the headline and GPE after a dateline: the model's own
    # other reading of the same full name says who it is
    names = full | {name.split()[-1] for name in full}
    for e in doc.ents:
        before = doc[e.start - 1] if e.start > 0 else None
        # "Lacey Dunn" tagged GPE, then "Dunn" tagged PERSON: a full name whose surname is a person
        if e.label_ == "GPE" and 2 <= len(e) <= 3 and e[-1].text in lone and all(t.is_title for t in e):
            names.add(e.text)
        # "Ana Rivera": a capitalised untagged word right before a one-word GPE is a first name
        if e.label_ == "GPE" and len(e) == 1 and before is not None and before.pos_ == "PROPN" \
                and before.ent_type_ == "" and before.is_title and not before.is_sent_start:
            names.add(e.text)
    return names


def _after_group_noun(doc: Doc, start: int) -> bool:
    """ "the trio Blackwater Creek", "the band X": a name the text calls a group is no place."""
    return start > 0 and doc[start - 1].lower_ in GROUP_NOUNS and doc[start - 1].is_lower


def _add_entity(doc: Doc, ent: Span, sent_end: int, events: set[int], builder: _Builder) -> int:
    """Add a GPE/LOC/FAC entity as a place; returns the token after it."""
    # "the X Ballroom in Oakdale" as one FAC: the venue ends before "in"; the town is read next
    cut = next((t.i for t in ent[1:] if t.lower_ in ("in", "at") and t.i + 1 < ent.end and is_cap(doc[t.i + 1])), None)
    if cut is not None:
        ent = Span(doc, ent.start, cut, label=ent.label_)
    end = ent.end
    # "Hollywood Bowl": a GPE name followed by a venue word is a venue
    while end < sent_end and _venue_word(doc[end]) and end not in events:
        end += 1
    end = _with_stage_word(doc, end, sent_end)
    words = [t.text for t in doc[ent.start : end]]
    venue = _venue_kind(words)
    if end > ent.end or ent.label_ == "FAC" or venue:
        builder.add(ent.start, end, venue or "venue")
    else:
        builder.add(ent.start, end, _gpe_kind(ent.text.removeprefix("the ").removeprefix("The "), ent.label_))
    return end


def _add_venue_name(doc: Doc, i: int, sent_start: int, events: set[int], builder: _Builder) -> int | None:
    """A capitalised name ending in a venue word at ``i`` ("Wembley Stadium", "the Hollywood Bowl")."""
    tok = doc[i]
    if not _venue_word(tok) or tok.lower_ in _WEAK_VENUE_WORDS or not is_cap(tok) or _surname(doc, i, sent_start):
        return None
    start = title_run_start(doc, i, sent_start)
    if start == i or events.intersection(range(start, i + 1)) or _in_marks(doc, start, i + 1):
        return None
    builder.add(start, i + 1, _venue_kind([t.text for t in doc[start : i + 1]]) or "venue")
    return i + 1


def _in_marks(doc: Doc, start: int, end: int) -> bool:
    """Whether a name sits in quotation marks ("the film 'The Long Field'"): a title, not a venue."""
    before = start - 1
    while before >= 0 and doc[before].pos_ == "DET":
        before -= 1
    return before >= 0 and end < len(doc) and doc[before].text in _MARKS and doc[end].text[:1] in _MARKS + ",."


def _add_gazetteer(doc: Doc, i: int, sent_end: int, builder: _Builder) -> int | None:
    """A city, region or country of the gazetteers at ``i``, even where the model left it untagged."""
    geo = _gazetteer_at(doc, i, sent_end)
    if geo is None or _inside_person(doc, i, geo[0]) or _inside_org(doc, i):
        return None
    builder.add(i, geo[0], geo[1])
    return geo[0]


def _inside_org(doc: Doc, i: int) -> bool:
    """Whether token ``i`` is in a company's name the model tagged ORG ("Qatar Airways", "Bank of America")."""
    ent = next((e for e in doc.ents if e.start <= i < e.end), None) if doc[i].ent_type_ == "ORG" else None
    return ent is not None and any(t.text.rstrip(".") in ORG_WORDS | {"Air"} for t in ent)


def _inside_person(doc: Doc, start: int, end: int) -> bool:
    """Whether tokens ``start:end`` are part of a longer PERSON name ("Mara Kent", "Paris Hilton")."""
    tokens = doc[start:end]
    if any(t.ent_type_ != "PERSON" for t in tokens):
        return False
    before = start > 0 and doc[start - 1].ent_type_ == "PERSON" and doc[start].ent_iob_ == "I"
    # ("Hamburg’s" tagged PERSON with its possessive: no longer name)
    after = end < len(doc) and doc[end].ent_type_ == "PERSON" and doc[end].ent_iob_ == "I" and doc[end].tag_ != "POS"
    return before or after


def _gpe_names(doc: Doc, events: set[int]) -> frozenset[str]:
    """Names the model tags GPE outside event names: the same words inside a name are that place."""
    return frozenset(
        _norm(e.text) for e in doc.ents if e.label_ == "GPE" and not events.intersection(range(e.start, e.end))
    )


def _add_named_elsewhere(
    doc: Doc, i: int, sent_end: int, events: set[int], named: frozenset[str], builder: _Builder
) -> int | None:
    """A place inside an event name that the article names as a place elsewhere, longest first.

    "the Summer Reno Residency" holds Reno when "in Reno" appears in another sentence; the
    event's last word (its head) is never taken.
    """
    if not doc[i].text[:1].isupper():
        return None
    for j in range(min(sent_end, i + place_names()[1]), i, -1):
        # the name must stay inside the event and leave its head word out
        if j not in events or not all(k in events for k in range(i, j)):
            continue
        kind = _geo_kind(doc[i:j].text)
        if _norm(doc[i:j].text) in named and builder.add(i, j, kind or "city"):
            return j
    return None


def _add_at_name(doc: Doc, i: int, sent_end: int, events: set[int], builder: _Builder) -> int | None:
    """ "at X" where an event or a performance happens: X is a venue (or a town owning one)."""
    if doc[i].lower_ != "at" or not _in_event_context(doc, i, events, builder):
        return None
    name = _name_after(doc, i + 1, sent_end, events)
    if not name or doc[name[1] - 1].text.rstrip(".") in _COMPANY_WORDS:
        return None
    start, end = name
    owned = _owned_venue(doc, end, sent_end, events)
    # "at Glendale's State Farm Stadium": a town owning a venue
    if owned:
        outer = builder.add(start, end, _geo_kind(doc[start:end].text) or "city")
        inner = builder.add(owned[0], owned[1], _venue_kind([t.text for t in doc[owned[0] : owned[1]]]) or "venue")
        if outer and inner:
            builder.contain(inner, outer)
        return owned[1]
    words = [t.text for t in doc[start:end]]
    builder.add(start, end, _geo_kind(doc[start:end].text) or _venue_kind(words) or "venue")
    return end


def _add_in_name(doc: Doc, i: int, sent_end: int, events: set[int], builder: _Builder) -> int | None:
    """ "V in X", "the Y Festival in X": a capitalised name after a venue or an event and "in" is
    the town it is in, even when the model tagged it as nothing or as a person."""
    if i < 2 or doc[i - 1].lower_ != "in" or not is_cap(doc[i]) or doc[i].ent_type_ in _NOT_PLACE_ENTS:
        return None
    before = builder.token_place.get(i - 2)
    if not (i - 2 in events or before is not None and builder.by_norm[before]["kind"] not in _GEO_RANK):
        return None
    name = _name_after(doc, i, sent_end, events)
    if name is None or name[0] != i or doc[name[1] - 1].text.rstrip(".") in _COMPANY_WORDS:
        return None
    builder.add(i, name[1], _geo_kind(doc[i : name[1]].text) or _venue_kind([t.text for t in doc[i : name[1]]])
                or "city")
    return name[1]


def _owned_venue(doc: Doc, end: int, sent_end: int, events: set[int]) -> tuple[int, int] | None:
    """The name after a possessive "'s" at token ``end``, when that name ends in a venue word."""
    if end >= sent_end or doc[end].lower_ not in function_words("genitive"):
        return None
    name = _name_after(doc, end + 1, sent_end, events)
    if name and _venue_word(doc[name[1] - 1]):
        return name
    return None


def _surname(doc: Doc, i: int, floor: int) -> bool:
    """Whether the venue word at ``i`` ends a person's name ("Regina Hall"), not a venue's.

    A person takes no article and no extra words: "the Albert Hall" and "Royal Albert Hall" are venues.
    """
    tok = doc[i]
    if tok.ent_type_ != "PERSON" or tok.text not in _SURNAMES:
        return False
    start = i
    while start > floor and doc[start].ent_iob_ == "I":
        start -= 1
    before = doc[start - 1] if start > floor else None
    return not (before is not None and (before.lower_ == "the" or is_cap(before)))


def _gazetteer_at(doc: Doc, i: int, sent_end: int) -> tuple[int, str] | None:
    """A capitalised gazetteer name (large city, region, country) starting at token ``i``."""
    first_words, most_words = place_names()
    if doc[i].lower_ not in first_words:
        return None
    for width in range(min(most_words, sent_end - i), 0, -1):
        span = doc[i : i + width]
        if not all(t.text[:1].isupper() for t in span):
            continue
        kind = None if len(span.text.replace(".", "")) <= 3 and not span.text.isupper() else untagged_place(span.text)
        # "Hollywood Bowl", "London Stadium": the city names a venue, it is not the place itself
        if kind and not (i + width < sent_end and _venue_word(doc[i + width])):
            return i + width, kind
    return None


_GEO_LABELS = labels("geo")
_MARKS = "“”‘’\"'"
#: Entity labels that are never a town's name ("in July", "in 2021").
_NOT_PLACE_ENTS = labels("not-place")
_GEO_RANK = {"country": 4, "region": 3, "city": 2}


def _link_containment(doc: Doc, builder: _Builder, events: set[int]) -> None:
    """Read containment from "V at W", "V in C", "C, S" and a city inside an event's name."""
    spans = sorted(builder.spans)
    by_start = {s: (s, e, n) for s, e, n in spans}
    kinds = {n: builder.by_norm[n]["kind"] for n in builder.order}
    for start, end, norm in spans:
        j = end
        # "Hamburg's Volkspark Stadium": a town owning a venue
        if j + 1 < len(doc) and doc[j].lower_ in function_words("genitive") and j + 1 in by_start and kinds[norm] in _GEO_RANK \
                and kinds[by_start[j + 1][2]] not in _GEO_RANK:
            builder.contain(by_start[j + 1][2], norm)
        # "Orchid Live at Park Halvorsen", "Wembley Stadium in London", "Paris, France"
        if j < len(doc) and doc[j].lower_ in function_words("locating-prep") - {"to"} | {","}:
            k = j + 1
            while k < len(doc) and doc[k].pos_ == "DET":
                k += 1
            if k in by_start:
                outer = by_start[k][2]
                if _GEO_RANK.get(kinds[outer], 1) > _GEO_RANK.get(kinds[norm], 1) or (
                        kinds[norm] not in _GEO_RANK and doc[j].lower_ != ","):
                    builder.contain(norm, outer)
    # "the X City Tour at V (at W)": the outermost venue is in that city
    for m in doc._.event_mentions:
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
        if kinds[cur] not in _GEO_RANK:
            builder.contain(cur, inner_city)
