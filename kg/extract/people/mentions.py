"""Name mentions of people and organisations, with the small model's errors mended.

The small English model swallows possessives into names ("Smith's Facebook" as one
ORG), tags venues as people ("X Live"), and misses names at the start of a sentence.
This module turns ``doc.ents`` into clean name mentions that coref can cluster.
"""

from __future__ import annotations

from collections import Counter

from spacy.tokens import Doc, Span

from kg.extract.found import Found
from kg.extract.model import TOWN_KINDS
from kg.extract.people.name_recovery import (
    agent_of_a_performance,
    candidate_runs,
    given_name,
    missed_names,
    month_as_given_name,
    name_parts,
    plural_proper_subjects,
    repeated_names,
    subject_of_performing,
    subject_of_saying,
    subject_with_pronoun,
    surname_acts,
    untagged_person,
    used_as_surname,
)
from kg.extract.people.name_rules import (
    ORG_LABELS,
    PLACE_PREPS,
    TITLE_ABBREVIATIONS,
    NameMention,
    after_role,
    blocked_ranges,
    given_name_first,
    in_marks,
    is_platform,
    is_speaking_org,
    is_venue,
    looks_like_name,
    member_of,
    mention_of,
    modifier_of,
    name_key,
    overlaps_of,
    plural_names,
    possessed_name,
    record_names,
    the_plural,
    trim_of,
)
from kg.extract.people.titles import bare
from kg.extract.text.dateline import Dateline
from kg.extract.text.doc_index import doc_ents, used_as_place
from kg.extract.text.gazetteer import is_demonym, is_given_name
from kg.extract.text.lexicon import function_words, labels, tagged, words
from kg.extract.text.marks import (
    ENSEMBLE_ENDS,
    GROUP_NOUNS,
    HONORIFICS,
    PERSON_NOUNS,
    VENUE_WORDS,
    is_mark,
)

#: Endings of nouns for people by what they do ("newcomer", "trainee").
_AGENT_ENDINGS = tuple(words("agent_noun_endings"))
#: Entity labels that are never people.
_NUMERIC_LABELS = labels("numeric")


def name_mentions(doc: Doc, found_before: Found) -> list[NameMention]:
    """People and speaking organisations named in ``doc``, in text order.

    Returns:
        Mentions with the possessive cut off, venues and works dropped, and people the
        model missed or mislabelled added back: a name that starts with a common given
        name, a word equal to part of a person's name found elsewhere, or a proper noun
        that is the subject of a verb of saying.
    """
    blocked = blocked_ranges(found_before)
    things = record_names(found_before)
    covered: set[int] = set()
    titles = [(m.start, m.end) for record in (*found_before.works, *found_before.events) for m in record.mentions]
    spans, claimed = _entity_spans(doc, blocked, things, covered, titles)
    plural = plural_names(doc)
    outvoted = _outvoted_names(doc)
    towns = frozenset(name_key(p.name) for p in found_before.places if p.kind in TOWN_KINDS)
    # "bluegrass legend X Y", "belonged to Jade Y": people the model did not tag at all
    described = [span for span in candidate_runs(doc, covered, blocked) if untagged_person(span)]
    covered.update(t.i for span in described for t in span)
    spans += [(span, span) for span in described]
    people = [
        # "the band X" tagged PERSON, a name that takes a plural verb, "the Beatles" are groups
        mention_of(span, "group" if (span.text in plural or _after_group_noun(span) or the_plural(span))
                 and not given_name_first(span) else "person")
        for ent, span in spans
        if _tagged_person(ent, span, outvoted)
    ]
    parts = name_parts(people)
    # "Lopes beat Rivera" after "top seed Ana Rivera": a person's surname tagged as a place
    people += [mention_of(span, "person") for span in claimed if _surname_of(span, people)]
    found = list(people)
    for ent, span in spans:
        if _tagged_person(ent, span, outvoted):
            continue
        mention = _mislabelled_mention(ent, span, parts, towns)
        if mention is not None:
            found.append(mention)
    found.extend(_listed_with_people(doc, found, blocked))
    found.extend(missed_names(doc, parts | name_parts(found), covered, blocked, plural))
    found.extend(plural_proper_subjects(doc, found, blocked, plural))
    found.extend(repeated_names(doc, found, blocked))
    found = _drop_events_and_place_heads(found, found_before)
    name_words = Counter(t.text for m in found for t in doc[m.start : m.end])
    found = [m for m in found if not _common_noun(doc, m, name_words)]
    found = _cut_run_on_names(_outside_dateline(found, found_before.dateline))
    found.sort(key=lambda m: m.start)
    return found


def _common_noun(doc: Doc, mention: NameMention, name_words: Counter[str]) -> bool:
    """ "Fans were on their feet", "WATCH: Musicians unite": one capitalised word the tagger reads
    as a plural common noun and the model tags as no entity is a word capitalised by its place, no
    name, unless it is a word of names elsewhere ("Timberlake danced" after "Justin Timberlake").
    (A singular one may be an act's name: "Nature's performance of ...".)"""
    token = doc[mention.start]
    return mention.end - mention.start == 1 and token.tag_ == "NNS" and not token.ent_type_ \
        and name_words[token.text] == 1


def _outside_dateline(found: list[NameMention], line: Dateline | None) -> list[NameMention]:
    """The mentions not in the dateline: "YORK (AP) — The X played ..." tags the town an
    organisation the parser makes the clause's subject, and "(Reuters)" is the wire that filed it;
    neither is anyone the story tells of."""
    if line is None:
        return found
    return [m for m in found if not (m.start < line.end and line.start < m.end)]


def _entity_spans(
    doc: Doc, blocked: list[tuple[int, int]], things: frozenset[str], covered: set[int],
    titles: list[tuple[int, int]],
) -> tuple[list[tuple[Span, Span]], list[Span]]:
    """The model's entities as (entity, name) pairs, and the names claimed by places, works or events
    (``titles``: the works' and events' mentions).

    Each entity's tokens are added to ``covered``, with a given name the model left out of it.
    """
    spans: list[tuple[Span, Span]] = []
    claimed: list[Span] = []
    for ent in doc_ents(doc):
        covered.update(range(ent.start, ent.end))
        owned = possessed_name(doc, ent.start, ent.end)
        if owned is not None:
            spans.append((owned, owned))
        start, end = trim_of(doc, ent.start, ent.end)
        start = _past_description(doc, start, end)
        start = _with_given_name(doc, ent, start, covered)
        span = doc[start:end]
        if end <= start or _no_name(ent, span):
            continue
        if _claimed(ent, span, things, blocked) and not _town_that_acts(span, titles):
            # "X Festival" tagged PERSON, or words claimed by places, works or events, unless it
            # speaks or is a given name acting; a surname may still join its person below
            claimed.append(span)
            continue
        spans.append((ent, span))
    return spans, claimed


def _past_description(doc: Doc, start: int, end: int) -> int:
    """Where a name starts once the describing words before its given name are dropped."""
    while end - start > 2 and doc[start + 1].pos_ == "PROPN" and (
        doc[start].lower_ in PERSON_NOUNS or doc[start].lower_ in TITLE_ABBREVIATIONS
        or given_name(doc[start + 1]) and not given_name(doc[start]) and doc[start].lower_ not in HONORIFICS
        or _agent_noun(doc, start)
    ):
        # "Councillor X Y", "Frontwoman X Y", "Islander Peter Y": a word before a given name is a
        # description, not part of the name
        start += 1
    return start


def _agent_noun(doc: Doc, i: int) -> bool:
    """ "Newcomer Efua Boateng", "Trainee X Y": a word for someone by what they do, in title case before
    a name, is a description, though the given name is none the census knows. A given name so
    ending ("Tyler", "Christian") and a word the text uses in a name elsewhere are names."""
    token = doc[i]
    low = token.lower_
    if len(low) < 5 or not low.endswith(_AGENT_ENDINGS) or not token.is_title or is_given_name(token.text):
        return False
    return not any(t.text == token.text for t in doc if t.i != i)


def _with_given_name(doc: Doc, ent: Span, start: int, covered: set[int]) -> int:
    """Where a name starts once given names the model left out before the entity are taken in
    (and added to ``covered``)."""
    while (
        start > 0
        and start == ent.start
        and given_name(doc[start - 1])
        and (doc[start - 1].ent_iob_ == "O" or month_as_given_name(doc[start - 1]))
    ):
        # "Ana [Rivera]": a given name the model left out of the entity
        start -= 1
        covered.add(start)
    return start


def _no_name(ent: Span, span: Span) -> bool:
    """Whether the trimmed words of an entity name no one who could speak."""
    if (
        ent.label_ in _NUMERIC_LABELS
        or not looks_like_name(span)
        or in_marks(span)
        or modifier_of(span)
    ):
        return True
    if len(span) == 1 and (ent.label_ == "NORP" or is_demonym(span.text)) and _described(span):
        # "the 81-year-old Democrat", "the young Parisian": a party, a nationality or a town's
        # people heading a description is no name
        return True
    # "posted on Chirper": a platform is where words appear, not who says them
    return is_platform(span) or _describes_next(span)


def _describes_next(span: Span) -> bool:
    """ "Café Owner" tagged PERSON right before "Marie Aubert": words ending in a noun for someone
    by what they do, glued to the name after them, say who that person is; they name no one."""
    doc, last = span.doc, span[-1]
    if span.end >= len(doc) or not (last.lower_ in PERSON_NOUNS or _agent_noun(doc, last.i)):
        return False
    after = doc[span.end]
    return bool(last.whitespace_) and after.is_title and (after.ent_type_ == "PERSON" or is_given_name(after.text))


def _town_that_acts(span: Span, titles: list[tuple[int, int]]) -> bool:
    """ "Simi held the audience spellbound, performing her hits": a one-word name read as a place
    that "she" or "her" takes up is someone (not a word of a title: "Before He Cheats")."""
    return len(span) == 1 and not overlaps_of(titles, span.start_char, span.end_char) and subject_with_pronoun(span)


def _claimed(ent: Span, span: Span, things: frozenset[str], blocked: list[tuple[int, int]]) -> bool:
    """Whether a name is a place's, a work's or an event's, and does not act as a person."""
    return (
        name_key(span.text) in things or overlaps_of(blocked, span.start_char, span.end_char)
    ) and not (_acts_like_person(span) or _named_person(ent, span)
               or ent.label_ in ORG_LABELS and subject_of_performing(span))


def _tagged_person(ent: Span, span: Span, outvoted: frozenset[str]) -> bool:
    """Tagged PERSON (not a venue, nor a name whose other tags outvote it), or a person by its words."""
    return (ent.label_ == "PERSON" and not is_venue(span) and span.text not in outvoted
            or given_name_first(span) or after_role(span))


def _mislabelled_mention(ent: Span, span: Span, parts: set[str], towns: frozenset[str]) -> NameMention | None:
    """A person, group or organisation the model tagged as something else, known by what it does."""
    if span.text.lower() in parts or subject_with_pronoun(span) or surname_acts(span):
        # part of a person's name, a mislabelled subject taken up by "he"/"she", or a
        # full name whose surname alone acts as a person elsewhere
        return mention_of(span, "person")
    if ent.label_ in ORG_LABELS and span.end == ent.end and is_speaking_org(span):
        # an organisation that speaks or acts; "the band X" and "the X Orchestra" are groups
        return mention_of(span, "group" if _after_group_noun(span) or span[-1].text in ENSEMBLE_ENDS else "organization")
    if ent.label_ in ORG_LABELS and span.end == ent.end and (subject_of_performing(span) or span[-1].text in ENSEMBLE_ENDS):
        # "The X Philharmonic performed ...", "the Y Symphony Orchestra": an ensemble
        return mention_of(span, "group")
    if ent.label_ in ORG_LABELS and span.end == ent.end and member_of(span):
        # "the singer of X", "Y of X joined": X is the band its member plays in
        return mention_of(span, "group")
    if ent.label_ in ORG_LABELS and span.end == ent.end and agent_of_a_performance(span) and looks_like_name(span):
        # "a surprise appearance by X", "a duet with Y": an act, whatever the model says
        return mention_of(span, "group" if the_plural(span) or span[-1].text in ENSEMBLE_ENDS else "person")
    if _after_group_noun(span) and span.end == ent.end and ent.label_ in labels("place-or-org"):
        # "the trio Blackwater Creek" tagged as a place, "folk duo X & Y" as a company
        return mention_of(span, "group")
    if subject_of_saying(span):
        # a person mislabelled as a work or a place, who speaks ("the Kestrels said": a band);
        # a town or a country that speaks is its government ("North Korea said")
        town = name_key(span.text) in towns and not used_as_surname(span)
        kind = "organization" if town else "group" if the_plural(span) else "person"
        return mention_of(span, kind)
    return None


def _listed_with_people(doc: Doc, found: list[NameMention], blocked: list[tuple[int, int]]) -> list[NameMention]:
    """ "Fantasia, Andra Day, Brandi Carlile and Alessia Cara came together to sing": names listed
    with a person are people too (or groups: "singer X and the group Y"), whatever the model
    tagged them (a place or a date here, a company there), unless a place, work or event holds them."""
    taken = {k for m in found for k in range(m.start, m.end)}
    out: list[NameMention] = []
    # (listed with someone the model itself tags a person: not with a name kg read as one)
    for mention in [m for m in found if m.kind == "person" and doc[m.end - 1].ent_type_ == "PERSON"]:
        for conj in doc[mention.start : mention.end].root.conjuncts:
            start = conj.left_edge.i if all(t.dep_ == "compound" for t in doc[conj.left_edge.i : conj.i]) else conj.i
            span = doc[start : conj.i + 1]
            if conj.pos_ != "PROPN" or taken.intersection(range(span.start, span.end)) \
                    or overlaps_of(blocked, span.start_char, span.end_char) \
                    or not all(t.is_title for t in span) or not looks_like_name(span):
                continue
            group = (_after_group_noun(span) or the_plural(span)) and not given_name_first(span)
            out.append(mention_of(span, "group" if group else "person"))
            taken.update(range(span.start, span.end))
    return out


def _drop_events_and_place_heads(found: list[NameMention], found_before: Found) -> list[NameMention]:
    """Person mentions that are an event's name or a place's first word alone, dropped."""
    # a headline's "X Festival adds ..." speaks, but an event is nobody (a work may be a
    # person's name the works stage misread, so only events count here)
    events = frozenset(name_key(e.name) for e in found_before.events)
    # "a second Wembley date" beside "Wembley Stadium": the place's first word is no one
    place_heads = frozenset(name_key(p.name.split()[0]) for p in found_before.places if len(p.name.split()) > 1)
    full_names = " ".join(m.text for m in found if m.kind == "person" and " " in m.text).split()
    return [m for m in found if m.kind != "person" or name_key(m.text) not in events and not (
        " " not in m.text and name_key(m.text) in place_heads and m.text not in full_names)]


def _outvoted_names(doc: Doc) -> frozenset[str]:
    """Names of two words or more that the model tags PERSON in fewer mentions than as a place
    or an organisation ("La Scala", "Sandy Hook", "Trump Tower" tagged PERSON once): the
    other readings win. A single word is left alone: the small model tags a surname as an
    organisation about as often as a person."""
    votes: dict[str, Counter[str]] = {}
    places = labels("place-or-org") - {"ORG"}
    for ent in doc_ents(doc):
        # (a facility or town reading counts where the name stands as a place: "at X", not "X had")
        if " " in ent.text and (ent.label_ not in places or used_as_place(ent)):
            votes.setdefault(ent.text, Counter())[ent.label_] += 1
    other = labels("place-or-org")
    return frozenset(name for name, count in votes.items()
                     if 0 < count["PERSON"] < sum(count[label] for label in other))


def _cut_run_on_names(found: list[NameMention]) -> list[NameMention]:
    """A name seen once that runs on past a person's name seen elsewhere is cut back to it.

    Title-cased headlines make the model read "X Y Slams Critics" as one name, and page
    chrome or a headline's words before it "Explore X Y", "Offensive Things X Y"; the
    article's body names "X Y" alone. A title and a given name ("Sir X") is no full name:
    "Sir X Y" seen once is not cut back to it. Words before a name are cut only when none of
    them is a given name and the name starts with one ("Ana Wasserman Ruiz" keeps her given
    name, "Marine Le Pen" is not cut to "Le Pen").
    """
    texts = [m.text for m in found]
    out = []
    for m in found:
        if m.kind == "person" and len(m.text.split()) >= 3 and texts.count(m.text) == 1:
            people = [o for o in found if o.kind == "person" and len(bare(o.text).split()) >= 2]
            prefixes = [o for o in people if m.text.startswith(o.text + " ")]
            suffixes = [o for o in people if m.text.endswith(" " + o.text) and _led_by_chrome(m.text, o.text)]
            if prefixes:
                best = max(prefixes, key=lambda o: len(o.text))
                m = NameMention(m.start, m.start + (best.end - best.start), best.text, m.kind, m.honorific)
            elif suffixes:
                best = max(suffixes, key=lambda o: len(o.text))
                m = NameMention(m.end - (best.end - best.start), m.end, best.text, m.kind, m.honorific)
        out.append(m)
    return out


def _led_by_chrome(longer: str, name: str) -> bool:
    """Whether the words before ``name`` in ``longer`` are no part of it: no title, no given name among
    them, and ``name`` itself starts with a given name."""
    lead = longer[: -len(name)].split()
    return bare(longer) == longer and is_given_name(name.split()[0]) and not any(is_given_name(w) for w in lead)


def _described(span: Span) -> bool:
    """A word after a determiner and its modifiers: "the veteran Democrat", "a 40-year-old Texan"."""
    doc = span.doc
    i = span.start - 1
    while i >= 0 and (doc[i].pos_ in labels("noun-run") or is_mark(doc[i].text, "-–")):
        i -= 1
    return i >= 0 and doc[i].pos_ == "DET" and doc[i].lower_ in function_words("article")


def _named_person(ent: Span, span: Span) -> bool:
    """A common given name first, no venue word last, not after "at" or "in": "Emma Lowe" is no venue.

    ("Victoria Park" and "at Grace Hall" stay places.)
    """
    before = span.doc[span.start - 1].lower_ if span.start > 0 else ""
    return (
        ent.label_ not in _NUMERIC_LABELS
        and given_name_first(span)
        and span[-1].lower_ not in VENUE_WORDS
        and before not in PLACE_PREPS | function_words("event-place-prep")
    )


def _surname_of(span: Span, people: list[NameMention]) -> bool:
    """One word that is the last word of a person's longer name, not after "in", "at" or "from"."""
    doc = span.doc
    before = doc[span.start - 1].lower_ if span.start > 0 else ""
    if len(span) != 1 or not span[0].is_title or before in function_words("event-place-prep"):
        return False
    return any(len(m.text.split()) > 1 and m.text.split()[-1] == span.text for m in people)


def _after_group_noun(span: Span) -> bool:
    """ "the band X", "rock group X": the word before the name says it is a group."""
    return span.start > 0 and span.doc[span.start - 1].lower_ in GROUP_NOUNS - tagged("group_nouns", "business")


def _acts_like_person(span: Span) -> bool:
    """A subject of saying, or a given name as subject: "Nina Park released" is not a park."""
    return subject_of_saying(span) or (given_name_first(span) and span.root.dep_ in ("nsubj", "nsubjpass"))


