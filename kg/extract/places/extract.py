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

from kg.extract.found import Found
from kg.extract.model import EventMention, Place
from kg.extract.places.kinds import (
    KIND_NOUNS,
    add_kind_named,
    dateline_city_of,
    link_containment,
    refer_back,
    refine_kinds,
)
from kg.extract.places.names import (
    GEO_RANK,
    WEAK_VENUE_WORDS,
    Builder,
    geo_kind,
    name_after,
    place_key,
    venue_kind,
    venue_word,
    with_stage_word,
)
from kg.extract.text.doc_index import (
    doc_ents,
    full_name_surnames,
    is_cap,
    title_run_start,
    token_words,
    used_as_place,
)
from kg.extract.text.gazetteer import is_given_name, place_names, untagged_place
from kg.extract.text.lexicon import function_words, kinds, labels, tagged, words
from kg.extract.text.marks import GROUP_NOUNS, ORG_WORDS

#: Final words of companies: "works at Live Nation Inc." is no place.
_COMPANY_WORDS = tagged("org_name_ends", "company")
#: Venue words that are also surnames: a PERSON ending in one ("Regina Hall") stays a person.
_SURNAMES = words("venue_surnames")
#: Cue nouns of titles ("the album In Rainbows"): a place inside a title is none.
WORK_CUES = frozenset(noun for noun, kind in kinds("work_cues").items() if kind != "title")
#: Verbs and nouns whose "at X" locates a performance or an event.
_EVENT_CONTEXT = words("event_context_words")


def _event_tokens(event_mentions: tuple[EventMention, ...]) -> set[int]:
    """Tokens inside event names: "Zennies" there is an event, never a place."""
    return {k for m in event_mentions for k in range(m.start, m.end)}


def _in_event_context(doc: Doc, at: int, events: set[int], builder: Builder) -> bool:
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
    kind = geo_kind(text)
    if kind:
        return kind
    return "city" if label == "GPE" else "region"


def extract_places(doc: Doc, found: Found) -> tuple[Place, ...]:
    """Places in order of first mention, each ``contained_in`` the place that holds it, if said.

    A venue that is a company ("works at Live Nation") is left out: a name after "at"
    is only a place when an event or a performance is located there, or when the name
    itself ends in a venue word.
    """
    events = _event_tokens(found.event_mentions)
    builder = Builder(doc)
    _read_names(doc, events, builder)
    refine_kinds(doc, builder)
    refer_back(doc, builder)
    dateline = dateline_city_of(doc, found.dateline, builder)
    link_containment(doc, builder, events, found.event_mentions)
    if dateline is not None:
        # a venue whose town the text never names is in the dateline's city
        for norm in builder.order:
            if builder.by_norm[norm]["kind"] not in GEO_RANK and builder.by_norm[norm]["in"] is None:
                builder.contain(norm, dateline)
    return builder.build()


#: Verbs whose subject is a performer ("performs", "sang").
_ACT_VERBS = tagged("performance_verbs", "act")


def _read_names(doc: Doc, events: set[int], builder: Builder) -> None:
    """Add every place name of the article to ``builder``, left to right."""
    words = token_words(doc)
    ents_by_start = {e.start: e for e in doc_ents(doc) if e.label_ in _GEO_LABELS}
    full_names = full_name_surnames(doc)
    surnames = _surnames(doc, full_names)
    person_surnames = set(full_names.values())
    named = _gpe_names(doc, events)
    # "X had the crowd screaming" beside "the X show": a name the model also reads as a person
    # is a place only where it stands as one
    people = {e.text for e in doc_ents(doc) if e.label_ == "PERSON"}
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
            elif ent is not None and (_persons_surname(ent, person_surnames)
                                      or _bare(ent).text in people and not used_as_place(_bare(ent))):
                # "Sheeran" beside "Ed Sheeran", "Houston's body" beside "Whitney Houston": the
                # person's surname, whatever small town shares it, and a big city only where a
                # person stands
                nxt = ent.end
            # GPE / LOC / FAC entities that are not part of an event name
            elif ent is not None and not events.intersection(range(ent.start, ent.end)) \
                    and not (ent.text in surnames and untagged_place(ent.text) is None) and not _in_title(doc, ent.start) \
                    and not _in_marks(doc, ent.start, ent.end) and not _after_group_noun(doc, ent.start) \
                    and not _unknown_town(ent):
                nxt = _add_entity(doc, ent, sent.end, events, builder)
            # (a place starts on a capital, "at X" or "the city of X": other words need no look)
            elif not (words.text[i][:1].isupper() or words.lower[i] == "at" or words.lower[i] in KIND_NOUNS) \
                    or _lone_surname(doc, i, person_surnames):
                nxt = i + 1
            else:
                nxt = _add_by_words(doc, i, sent, events, builder)
            i = nxt


def _add_by_words(doc: Doc, i: int, sent: Span, events: set[int], builder: Builder) -> int:
    """A place the words at token ``i`` name, by their kind, venue word, stage, gazetteer or
    preposition; the token after it (``i + 1`` when there is none)."""
    return (
        add_kind_named(doc, i, sent.end, events, builder)
        or _add_venue_name(doc, i, sent.start, events, builder)
        or _add_stage_name(doc, i, sent.end, events, builder)
        or _add_gazetteer(doc, i, sent.end, builder)
        or _add_in_name(doc, i, sent.end, events, builder)
        or _add_at_name(doc, i, sent.end, events, builder)
        or i + 1
    )


def _in_title(doc: Doc, i: int) -> bool:
    """Whether token ``i`` is inside a title after a cue noun ("the album In Rainbows")."""
    j = i - 1
    while j >= 0 and doc[j].text[:1].isupper() and not doc[j].is_sent_start:
        j -= 1
    return j >= 0 and doc[j].lower_ in WORK_CUES


def _surnames(doc: Doc, full: dict[str, str]) -> set[str]:
    """Names the model tags GPE that are people's names or surnames.

    "Sheeran" is the last word of a PERSON named in full elsewhere; in "Singer Ana Rivera"
    the model tags "Rivera" GPE after an untagged first name. Either way every lone
    mention of the word is the person, not a town.
    """
    lone = {e.text for e in doc_ents(doc) if e.label_ == "PERSON" and len(e) == 1}
    # "Mara Kent" tagged PERSON in the headline and GPE after a dateline: the model's own
    # other reading of the same full name says who it is
    names = set(full) | set(full.values())
    for e in doc_ents(doc):
        before = doc[e.start - 1] if e.start > 0 else None
        # "Lacey Dunn" tagged GPE, then "Dunn" tagged PERSON: a full name whose surname is a person
        if e.label_ == "GPE" and 2 <= len(e) <= 3 and e[-1].text in lone and all(t.is_title for t in e):
            names.add(e.text)
        # "Ana Rivera": a capitalised untagged word right before a one-word GPE is a first name
        # ("Ana Rivera played ...": at a sentence's start, a given name of the census)
        if e.label_ == "GPE" and len(e) == 1 and before is not None and before.pos_ == "PROPN" \
                and before.ent_type_ == "" and before.is_title \
                and (not before.is_sent_start or is_given_name(before.text)):
            names.add(e.text)
        # "Rihanna performs", tagged GPE here and PERSON there: a one-word name the model reads
        # both ways, or that performs, is someone's
        if e.label_ == "GPE" and len(e) == 1 and (e.text in lone or _performs(e)):
            names.add(e.text)
    return names


def _lone_surname(doc: Doc, i: int, surnames: set[str]) -> bool:
    """ "Fans cheered as Santiago arrived" beside "Carlos Santiago": a word alone that is the
    surname of someone named in full is that person, whatever town the gazetteer knows by it,
    unless it stands where a place stands ("In Lima, fans waited")."""
    if doc[i].text not in surnames or i + 1 < len(doc) and is_cap(doc[i + 1]):
        return False
    return not used_as_place(doc[i : i + 1]) and not (i > 0 and is_cap(doc[i - 1]) and not doc[i - 1].is_sent_start)


def _bare(ent: Span) -> Span:
    """A name without its possessive ending ("X's" -> "X")."""
    return ent[:-1] if len(ent) > 1 and ent[-1].tag_ == "POS" else ent


def _performs(ent: Span) -> bool:
    """Whether a name is the subject of a verb of performing ("X performs", "X sang")."""
    return ent.root.dep_ == "nsubj" and ent.root.head.lemma_.lower() in _ACT_VERBS


def _persons_surname(ent: Span, surnames: set[str]) -> bool:
    """Whether a name tagged as a place is a person's surname: always when no big place has the
    name, else where a person stands, as a possessive or a subject ("Houston's body", "Houston
    died" beside "Whitney Houston")."""
    name = ent[:-1] if len(ent) > 1 and ent[-1].tag_ == "POS" else ent
    return name.text in surnames and (
        untagged_place(name.text) is None or len(name) == 1 and name.root.dep_ in labels("subject-or-owner")
    )


def _unknown_town(ent: Span) -> bool:
    """A name the model tags a town that no gazetteer knows, in lower case or standing nowhere a
    place stands ("Juanes ... his set", "their cumbia"): a name or a word, not a town. (A town the
    gazetteer does not know still counts after "in", "at", "from" or as a venue's name.)"""
    bare = _bare(ent)
    if ent.label_ != "GPE" or geo_kind(bare.text) is not None:
        return False
    # ("Lyon, Vardeaux and Nantes", "in Kolvik, Estavia": beside a place, a place)
    head = bare.root
    while head.dep_ in ("conj", "appos") and head.head is not head:
        head = head.head
    doc = bare.doc
    after_town = bare.start >= 2 and doc[bare.start - 1].text == "," and doc[bare.start - 2].ent_type_ == "GPE"
    return bare.text.islower() or not (used_as_place(bare) or used_as_place(doc[head.i : head.i + 1])
                                       or geo_kind(head.text) is not None or after_town)


def _after_group_noun(doc: Doc, start: int) -> bool:
    """ "the trio Blackwater Creek", "the band X": a name the text calls a group is no place."""
    return start > 0 and doc[start - 1].lower_ in GROUP_NOUNS and doc[start - 1].is_lower


def _add_entity(doc: Doc, ent: Span, sent_end: int, events: set[int], builder: Builder) -> int:
    """Add a GPE/LOC/FAC entity as a place; returns the token after it."""
    # "the X Ballroom in Oakdale" as one FAC: the venue ends before "in"; the town is read next
    cut = next((t.i for t in ent[1:] if t.lower_ in ("in", "at") and t.i + 1 < ent.end and is_cap(doc[t.i + 1])), None)
    if cut is not None:
        ent = Span(doc, ent.start, cut, label=ent.label_)
    end = ent.end
    # "Hollywood Bowl": a GPE name followed by a venue word is a venue
    while end < sent_end and venue_word(doc[end]) and end not in events:
        end += 1
    end = with_stage_word(doc, end, sent_end)
    words = [t.text for t in doc[ent.start : end]]
    venue = venue_kind(words)
    if end > ent.end or ent.label_ == "FAC" or venue:
        builder.add(ent.start, end, venue or "venue")
    else:
        builder.add(ent.start, end, _gpe_kind(ent.text.removeprefix("the ").removeprefix("The "), ent.label_))
    return end


def _add_venue_name(doc: Doc, i: int, sent_start: int, events: set[int], builder: Builder) -> int | None:
    """A capitalised name ending in a venue word at ``i`` ("Wembley Stadium", "the Hollywood Bowl")."""
    tok = doc[i]
    if not venue_word(tok) or tok.lower_ in WEAK_VENUE_WORDS or not is_cap(tok) or _surname(doc, i, sent_start):
        return None
    start = title_run_start(doc, i, sent_start)
    if start == i or events.intersection(range(start, i + 1)) or _in_marks(doc, start, i + 1):
        return None
    builder.add(start, i + 1, venue_kind([t.text for t in doc[start : i + 1]]) or "venue")
    return i + 1


def _add_stage_name(doc: Doc, i: int, sent_end: int, events: set[int], builder: Builder) -> int | None:
    """A festival stage named by capitalised words and a lower-case stage word ("lit up the Acoustic
    tent"), wherever it stands; after "at" or a place the other readers take it already."""
    j = i
    while j < sent_end and is_cap(doc[j]) and j not in events and doc[j].ent_type_ != "NORP":
        j += 1
    end = with_stage_word(doc, j, sent_end)
    if end == j or j == i or _in_marks(doc, i, j):
        return None
    builder.add(i, end, "venue")
    return end


def _in_marks(doc: Doc, start: int, end: int) -> bool:
    """Whether a name sits in quotation marks ("the film 'The Long Field'"): a title, not a venue."""
    before = start - 1
    while before >= 0 and doc[before].pos_ == "DET":
        before -= 1
    return before >= 0 and end < len(doc) and doc[before].text in _MARKS and doc[end].text[:1] in _MARKS + ",."


def _add_gazetteer(doc: Doc, i: int, sent_end: int, builder: Builder) -> int | None:
    """A city, region or country of the gazetteers at ``i``, even where the model left it untagged."""
    geo = _gazetteer_at(doc, i, sent_end)
    if geo is None or _inside_person(doc, i, geo[0]) or _inside_org(doc, i):
        return None
    builder.add(i, geo[0], geo[1])
    return geo[0]


def _inside_org(doc: Doc, i: int) -> bool:
    """Whether token ``i`` is in a company's name the model tagged ORG ("Qatar Airways", "Bank of America")."""
    ent = next((e for e in doc_ents(doc) if e.start <= i < e.end), None) if doc[i].ent_type_ == "ORG" else None
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
        place_key(e.text) for e in doc_ents(doc)
        if e.label_ == "GPE" and not events.intersection(range(e.start, e.end)) and not _unknown_town(e)
    )


def _add_named_elsewhere(
    doc: Doc, i: int, sent_end: int, events: set[int], named: frozenset[str], builder: Builder
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
        kind = geo_kind(doc[i:j].text)
        if place_key(doc[i:j].text) in named and builder.add(i, j, kind or "city"):
            return j
    return None


def _add_at_name(doc: Doc, i: int, sent_end: int, events: set[int], builder: Builder) -> int | None:
    """ "at X" where an event or a performance happens: X is a venue (or a town owning one)."""
    if doc[i].lower_ != "at" or not _in_event_context(doc, i, events, builder):
        return None
    name = name_after(doc, i + 1, sent_end, events)
    if not name or doc[name[1] - 1].text.rstrip(".") in _COMPANY_WORDS:
        return None
    start, end = name
    if end + 1 < sent_end and doc[end].lower_ in function_words("genitive") and end + 1 in events \
            and geo_kind(doc[start:end].text) is None:
        # "at Lantern Radio's Harbor Ball": a company owning the event, not its venue
        return None
    owned = _owned_venue(doc, end, sent_end, events)
    if owned and doc[start].lower_ in function_words("saint"):
        # "at St Agnes's Chapel": a saint's possessive is inside the venue's name
        builder.add(start, owned[1], venue_kind([t.text for t in doc[start : owned[1]]]) or "venue")
        return owned[1]
    # "at Glendale's State Farm Stadium": a town owning a venue
    if owned:
        outer = builder.add(start, end, geo_kind(doc[start:end].text) or "city")
        inner = builder.add(owned[0], owned[1], venue_kind([t.text for t in doc[owned[0] : owned[1]]]) or "venue")
        if outer and inner:
            builder.contain(inner, outer)
        return owned[1]
    words = [t.text for t in doc[start:end]]
    builder.add(start, end, geo_kind(doc[start:end].text) or venue_kind(words) or "venue")
    return end


def _add_in_name(doc: Doc, i: int, sent_end: int, events: set[int], builder: Builder) -> int | None:
    """ "V in X", "the Y Festival in X": a capitalised name after a venue or an event and "in" is
    the town it is in, even when the model tagged it as nothing or as a person."""
    if i < 2 or doc[i - 1].lower_ != "in" or not is_cap(doc[i]) or doc[i].ent_type_ in _NOT_PLACE_ENTS:
        return None
    before = builder.token_place.get(i - 2)
    if not (i - 2 in events or before is not None and builder.by_norm[before]["kind"] not in GEO_RANK):
        return None
    name = name_after(doc, i, sent_end, events)
    if name is None or name[0] != i or doc[name[1] - 1].text.rstrip(".") in _COMPANY_WORDS:
        return None
    builder.add(i, name[1], geo_kind(doc[i : name[1]].text) or venue_kind([t.text for t in doc[i : name[1]]])
                or "city")
    return name[1]


def _owned_venue(doc: Doc, end: int, sent_end: int, events: set[int]) -> tuple[int, int] | None:
    """The name after a possessive "'s" at token ``end``, when that name ends in a venue word."""
    if end >= sent_end or doc[end].lower_ not in function_words("genitive"):
        return None
    name = name_after(doc, end + 1, sent_end, events)
    if name and venue_word(doc[name[1] - 1]):
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
    if doc[i].lower_ not in first_words or not doc[i].text[:1].isupper():
        return None
    # every word of the name is capitalised: try the longest run of such words first
    run = 1
    while run < min(most_words, sent_end - i) and doc[i + run].text[:1].isupper():
        run += 1
    for width in range(run, 0, -1):
        span = doc[i : i + width]
        kind = None if len(span.text.replace(".", "")) <= 3 and not span.text.isupper() else untagged_place(span.text)
        # "Hollywood Bowl", "London Stadium": the city names a venue, it is not the place itself
        if kind and not (i + width < sent_end and venue_word(doc[i + width])):
            return i + width, kind
    return None


_GEO_LABELS = labels("geo")
_MARKS = "“”‘’\"'"
#: Entity labels that are never a town's name ("in July", "in 2021").
_NOT_PLACE_ENTS = labels("not-place")


