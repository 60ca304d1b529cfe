"""Name mentions of people and organisations, with the small model's errors mended.

The small English model swallows possessives into names ("Smith's Facebook" as one
ORG), tags venues as people ("X Live"), and misses names at the start of a sentence.
This module turns ``doc.ents`` into clean name mentions that coref can cluster.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from spacy.tokens import Doc, Span, Token

from kg.extract.cues import (
    GROUP_NOUNS,
    HONORIFICS,
    ORG_WORDS,
    PERSON_NOUNS,
    PRONOUNS,
    PROXY_NOUNS,
    QUOTE_MARKS,
    VENUE_WORDS,
    is_mark,
    is_say_verb,
)
from kg.extract.gazetteer import is_given_name
from kg.extract.lexicon import function_words, labels, tagged, words
from kg.extract.model import TOWN_KINDS
from kg.extract.text import doc_text, subject_indices

_POSSESSIVE = function_words("possessive-mark")
_ORG_LABELS = labels("org")
#: Words that cannot start or end a person's name.
_EDGE_JUNK = words("name_edge_words")
#: Parts of speech that cannot start a name ("Later Smith" tagged ORG).
_EDGE_POS = labels("name-edge")
#: Prepositions after which a "person" is a place ("at X Live").
_PLACE_PREPS = function_words("name-place-prep")
#: Entity labels that are never people.
_NUMERIC_LABELS = labels("numeric")
#: Titles that belong to the name they precede.
_TITLES_IN_NAME = words("name_titles")
#: Name words too common to join a run to a person by themselves.
_NOT_SURNAMES = words("common_name_words")
#: Social platforms the small model takes for people or organisations; the rule in
#: ``_is_platform`` finds the others from how the article uses them.
_PLATFORMS = words("social_platforms")
#: Prepositions that put a name in the role of a medium: "posted on X", "shared via X".
_MEDIUM_PREPS = function_words("medium-prep")
#: Nouns after a name that make it a medium: "an X post", "her X story", "X followers".
_MEDIUM_NOUNS = words("medium_nouns")
#: Members of a band: "the singer of X" makes X a group.
_MUSICIAN_NOUNS = tagged("musician_nouns", "member")
#: Pronouns only people take.
#: Words that make a month before a name a date: "last June", "since April".
_DATE_WORDS = words("date_modifiers")

#: Abbreviated titles before a name ("Gov. X", "Sen. Y"): a description, not part of the name.
_TITLE_ABBREVIATIONS = words("title_abbreviations")

#: Caption and credit words the model reads as a name ("Image: X", "Photo: Y").
_CREDIT_WORDS = words("credit_words")

_PERSONAL = frozenset(p for p, gender in PRONOUNS.items() if gender != "p")
#: Speakers for someone else and their statements: "a spokesperson for X", "X's statement".
_SPEAKS_FOR = PROXY_NOUNS | {"statement"}


@dataclass(frozen=True)
class NameMention:
    """A name of a person or organisation: tokens ``start:end`` of the doc."""

    start: int
    end: int
    text: str
    kind: str
    honorific: str | None = None


def _record_names(doc: Doc) -> frozenset[str]:
    """Names of the places, works and events found: the same words elsewhere name no person."""
    names = set()
    for records in (doc._.places, doc._.works, doc._.events):
        for record in records:
            names.add(_name_key(getattr(record, "name", None) or getattr(record, "title", "")))
    return frozenset(names)


def _name_key(text: str) -> str:
    """A name compared across mentions: case, curly apostrophes and a leading "the" ignored."""
    low = " ".join(text.replace("’", "'").lower().split())
    return low[4:] if low.startswith("the ") else low


def _plural_names(doc: Doc) -> frozenset[str]:
    """Names that take a plural verb somewhere ("X announce", "X were"): groups, never one person.

    Headlines often carry the only such verb, and the model rarely tags a name there, so the
    subject is read as its run of capitalised words whatever the entities say.
    """
    names = set()
    for i in subject_indices(doc):
        token = doc[i]
        # headlines are title-cased, so the tagger may call the name a common noun there
        if token.dep_ != "nsubj" or token.tag_ not in labels("noun-tag") or not token.is_title:
            continue
        verb = token.head
        aux = [c for c in verb.children if c.dep_ in ("aux", "auxpass")]
        finite = aux[0] if aux else verb
        # present-tense plural ("announce", "have") or "were"/"are"; modal and past forms say nothing
        if finite.tag_ != "VBP" and finite.lower_ not in ("are", "were"):
            continue
        start = token.i
        while start > 0 and doc[start - 1].dep_ == "compound" and doc[start - 1].text[:1].isupper():
            start -= 1
        names.add(doc[start : token.i + 1].text)
    return frozenset(names)


def _blocked_ranges(doc: Doc) -> list[tuple[int, int]]:
    """Character ranges already claimed by places, works and events."""
    ranges = []
    for records in (doc._.places, doc._.works, doc._.events):
        for record in records:
            ranges.extend((m.start, m.end) for m in record.mentions)
    return ranges


def _overlaps(ranges: list[tuple[int, int]], start: int, end: int) -> bool:
    return any(s < end and start < e for s, e in ranges)


def _trim(doc: Doc, start: int, end: int) -> tuple[int, int]:
    """Cut a possessive and what follows it, and junk at the edges."""
    for i in range(start, end):
        if doc[i].text in _POSSESSIVE or doc[i].tag_ == "POS":
            end = i
            break
    while start < end and (
        doc[start].lower_ in _EDGE_JUNK or doc[start].is_punct or doc[start].pos_ in _EDGE_POS
    ):
        start += 1
    while end > start and (
        doc[end - 1].lower_ in _EDGE_JUNK or doc[end - 1].is_punct or _has_digit(doc[end - 1])
        # "Captain America Image: X": a caption's credit word glued to the name before it
        or doc[end - 1].lower_ in _CREDIT_WORDS and end < len(doc) and doc[end].text == ":"
    ):
        # "Ana Rivera 6-4": a score or count glued to the name
        end -= 1
    # "Image: X", "Photo: Y"
    if end - start > 1 and doc[start].lower_ in _CREDIT_WORDS and doc[start + 1].text == ":":
        start += 2
    return start, end


def _has_digit(token: Token) -> bool:
    return any(ch.isdigit() for ch in token.text)


def _looks_like_name(span: Span) -> bool:
    return (
        any(ch.isupper() for ch in span.text)
        and not any(t.like_num or t.is_digit for t in span)
        and len(span.text) > 1
        and not all(t.is_stop for t in span)
    )


def _in_marks(span: Span) -> bool:
    """A name that fills a pair of quotation marks is a title or a nickname ('the "X" premiere')."""
    doc = span.doc
    return (
        span.start > 0
        and span.end < len(doc)
        and is_mark(doc[span.start - 1].text, QUOTE_MARKS)
        and is_mark(doc[span.end].text, QUOTE_MARKS)
    )


def _modifier(span: Span) -> bool:
    """ "the X soundtrack", "the X administration", "Grammy winner Y": a name used as a modifier names no one here."""
    root = span.root
    doc = span.doc
    if (
        len(span) == 1
        and root.dep_ in ("amod", "compound")
        and root.head.i == span.end
        and root.head.lower_ in PERSON_NOUNS
        and span.end + 1 < len(doc)
        and doc[span.end + 1].pos_ == "PROPN"
    ):
        # "Grammy winner Ana Silva", "Oscar nominee Y": the award describes the person named after it
        return True
    return (
        root.dep_ == "compound"
        and root.head.i >= span.end
        and root.head.is_lower
        and root.head.pos_ == "NOUN"
        and root.head.lower_ not in PROXY_NOUNS
        and span.start > 0
        and doc[span.start - 1].lower_ in function_words("article")
    )


def _is_venue(span: Span) -> bool:
    """A venue word at the end ("X Arena"), or after "at" with no possessive ("at X Live")."""
    if _given_name_first(span):
        # "Nina Park" is a person whose surname is a venue word
        return False
    if span[-1].lower_ in VENUE_WORDS:
        return True
    before = span.doc[span.start - 1] if span.start > 0 else None
    after = span.doc[span.end] if span.end < len(span.doc) else None
    return bool(
        before is not None
        and before.lower_ in _PLACE_PREPS
        and not (after is not None and after.text in _POSSESSIVE)
    )


def _honorific(doc: Doc, start: int) -> str | None:
    if start > 0 and doc[start - 1].lower_ in HONORIFICS:
        return doc[start - 1].lower_
    return None


def _is_speaking_org(span: Span) -> bool:
    """An organisation that acts or speaks: a subject, "according to X", "a spokesperson for X"."""
    root = span.root
    if root.dep_ in ("nsubj", "nsubjpass"):
        return True
    head = root.head
    # "according to X", "a spokesperson for X", "X's statement"
    return (
        root.dep_ == "pobj"
        and head.lower_ in function_words("recipient-prep") | {"from"}
        and (head.head.lower_ == "according" or head.head.lower_ in _SPEAKS_FOR)
    ) or (
        root.dep_ in ("poss", "compound")
        and head.lower_ in _SPEAKS_FOR
    )


def _member_of(span: Span) -> bool:
    """A group named as what a musician belongs to: "the singer of X", "Ana Rivera of X"."""
    root = span.root
    head = root.head
    if root.dep_ != "pobj" or head.lower_ != "of":
        return False
    owner = head.head
    # "the drummer of X", or a person's name ("Ana Rivera of X"); not "the city of X"
    return owner.lower_ in _MUSICIAN_NOUNS or (owner.ent_type_ == "PERSON" and owner.pos_ == "PROPN")


def _is_platform(span: Span) -> bool:
    """A medium, not a speaker: a known platform, "on X"/"via X", or "X post" / "X followers".

    A name after "on" with a possessive after it ("commented on Smith's remarks") stays a person.
    """
    if span.text.lower() in _PLATFORMS:
        return True
    doc = span.doc
    nxt = doc[span.end] if span.end < len(doc) else None
    # "an X post", "her X story", "2 million X followers"
    if nxt is not None and nxt.lower_ in _MEDIUM_NOUNS:
        return True
    if span.start == 0 or len(span) > 1 or (nxt is not None and nxt.lower_ in ("'s", "’s")):
        return False
    prev = doc[span.start - 1]
    # "posted on X", "shared via X" (but "on Smith's behalf" is a person)
    if prev.lower_ in _MEDIUM_PREPS:
        return True
    # "took to X to thank fans"
    return prev.lower_ == "to" and span.start > 1 and doc[span.start - 2].lemma_.lower() == "take"


def name_mentions(doc: Doc) -> list[NameMention]:
    """People and speaking organisations named in ``doc``, in text order.

    Returns:
        Mentions with the possessive cut off, venues and works dropped, and people the
        model missed or mislabelled added back: a name that starts with a common given
        name, a word equal to part of a person's name found elsewhere, or a proper noun
        that is the subject of a verb of saying.
    """
    blocked = _blocked_ranges(doc)
    things = _record_names(doc)
    covered: set[int] = set()
    spans: list[tuple[Span, Span]] = []
    claimed: list[Span] = []
    for ent in doc.ents:
        covered.update(range(ent.start, ent.end))
        start, end = _trim(doc, ent.start, ent.end)
        while end - start > 2 and doc[start + 1].pos_ == "PROPN" and (
            doc[start].lower_ in PERSON_NOUNS or doc[start].lower_ in _TITLE_ABBREVIATIONS
            or _given_name(doc[start + 1]) and not _given_name(doc[start]) and doc[start].lower_ not in HONORIFICS
        ):
            # "Councillor X Y", "Frontwoman X Y", "Islander Peter Y": a word before a given name is a
            # description, not part of the name
            start += 1
        while (
            start > 0
            and start == ent.start
            and _given_name(doc[start - 1])
            and (doc[start - 1].ent_iob_ == "O" or _month_as_given_name(doc[start - 1]))
        ):
            # "Ana [Rivera]": a given name the model left out of the entity
            start -= 1
            covered.add(start)
        span = doc[start:end]
        if (
            end <= start
            or ent.label_ in _NUMERIC_LABELS
            or not _looks_like_name(span)
            or _in_marks(span)
            or _modifier(span)
        ):
            continue
        if ent.label_ == "NORP" and len(span) == 1 and _described(span):
            # "the 81-year-old Democrat": a party or nationality heading a description is no name
            continue
        if _is_platform(span):
            # "posted on Chirper": a platform is where words appear, not who says them
            continue
        if (
            _name_key(span.text) in things or _overlaps(blocked, span.start_char, span.end_char)
        ) and not (_acts_like_person(span) or _named_person(ent, span)
                   or ent.label_ in _ORG_LABELS and _subject_of_performing(span)):
            # "X Festival" tagged PERSON, or words claimed by places, works or events, unless it
            # speaks or is a given name acting; a surname may still join its person below
            claimed.append(span)
            continue
        spans.append((ent, span))
    plural = _plural_names(doc)
    towns = frozenset(_name_key(p.name) for p in doc._.places if p.kind in TOWN_KINDS)
    # "bluegrass legend X Y", "belonged to Jade Y": people the model did not tag at all
    described = [span for span in _candidate_runs(doc, covered, blocked) if _untagged_person(span)]
    covered.update(t.i for span in described for t in span)
    spans += [(span, span) for span in described]
    people = [
        # "the band X" tagged PERSON, a name that takes a plural verb, "the Beatles" are groups
        _mention(span, "group" if (span.text in plural or _after_group_noun(span) or _the_plural(span))
                 and not _given_name_first(span) else "person")
        for ent, span in spans
        if (ent.label_ == "PERSON" and not _is_venue(span)) or _given_name_first(span) or _after_role(span)
    ]
    parts = _name_parts(people)
    # "Lopes beat Rivera" after "top seed Ana Rivera": a person's surname tagged as a place
    people += [_mention(span, "person") for span in claimed if _surname_of(span, people)]
    found = list(people)
    for ent, span in spans:
        if (ent.label_ == "PERSON" and not _is_venue(span)) or _given_name_first(span) or _after_role(span):
            continue
        if span.text.lower() in parts or _subject_with_pronoun(span) or _surname_acts(span):
            # part of a person's name, a mislabelled subject taken up by "he"/"she", or a
            # full name whose surname alone acts as a person elsewhere
            found.append(_mention(span, "person"))
        elif ent.label_ in _ORG_LABELS and span.end == ent.end and _is_speaking_org(span):
            # an organisation that speaks or acts; "the band X" is a group
            found.append(_mention(span, "group" if _after_group_noun(span) else "organization"))
        elif ent.label_ in _ORG_LABELS and span.end == ent.end and _subject_of_performing(span):
            # "The X Philharmonic performed ...": an ensemble
            found.append(_mention(span, "group"))
        elif ent.label_ in _ORG_LABELS and span.end == ent.end and _member_of(span):
            # "the singer of X", "Y of X joined": X is the band its member plays in
            found.append(_mention(span, "group"))
        elif _after_group_noun(span) and span.end == ent.end and ent.label_ in labels("place-or-org"):
            # "the trio Blackwater Creek" tagged as a place, "folk duo X & Y" as a company
            found.append(_mention(span, "group"))
        elif _subject_of_saying(span):
            # a person mislabelled as a work or a place, who speaks ("the Kestrels said": a band);
            # a town or a country that speaks is its government ("North Korea said")
            town = _name_key(span.text) in towns and not _used_as_surname(span)
            kind = "organization" if town else "group" if _the_plural(span) else "person"
            found.append(_mention(span, kind))
    found.extend(_missed_names(doc, parts | _name_parts(found), covered, blocked, plural))
    found.extend(_plural_proper_subjects(doc, found, blocked, plural))
    found.extend(_repeated_names(doc, found, blocked))
    # a headline's "X Festival adds ..." speaks, but an event is nobody (a work may be a
    # person's name the works stage misread, so only events count here)
    events = frozenset(_name_key(e.name) for e in doc._.events)
    # "a second Wembley date" beside "Wembley Stadium": the place's first word is no one
    place_heads = frozenset(_name_key(p.name.split()[0]) for p in doc._.places if len(p.name.split()) > 1)
    full_names = " ".join(m.text for m in found if m.kind == "person" and " " in m.text).split()
    found = [m for m in found if m.kind != "person" or _name_key(m.text) not in events and not (
        " " not in m.text and _name_key(m.text) in place_heads and m.text not in full_names)]
    found = _cut_run_on_names(found)
    found.sort(key=lambda m: m.start)
    return found


def _cut_run_on_names(found: list[NameMention]) -> list[NameMention]:
    """A name seen once that runs on past a person's name seen elsewhere is cut back to it.

    Title-cased headlines make the model read "X Y Slams Critics" as one name; the
    article's body names "X Y" alone.
    """
    texts = [m.text for m in found]
    out = []
    for m in found:
        if m.kind == "person" and len(m.text.split()) >= 3 and texts.count(m.text) == 1:
            prefixes = [
                o
                for o in found
                if o.kind == "person" and len(o.text.split()) >= 2 and m.text.startswith(o.text + " ")
            ]
            if prefixes:
                best = max(prefixes, key=lambda o: len(o.text))
                m = NameMention(m.start, m.start + (best.end - best.start), best.text, m.kind, m.honorific)
        out.append(m)
    return out


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
        and _given_name_first(span)
        and span[-1].lower_ not in VENUE_WORDS
        and before not in _PLACE_PREPS | function_words("event-place-prep")
    )


def _after_role(span: Span) -> bool:
    """A two- or three-word name right after a lower-case role noun: "top seed X", "singer X"."""
    doc = span.doc
    before = doc[span.start - 1] if span.start > 0 else None
    return (
        before is not None
        and before.is_lower
        and before.lower_ in PERSON_NOUNS
        and 2 <= len(span) <= 3
        and all(t.is_title and t.pos_ == "PROPN" for t in span)
    )


def _surname_of(span: Span, people: list[NameMention]) -> bool:
    """One word that is the last word of a person's longer name, not after "in", "at" or "from"."""
    doc = span.doc
    before = doc[span.start - 1].lower_ if span.start > 0 else ""
    if len(span) != 1 or not span[0].is_title or before in function_words("event-place-prep"):
        return False
    return any(len(m.text.split()) > 1 and m.text.split()[-1] == span.text for m in people)


def _surname_acts(span: Span) -> bool:
    """A two- or three-word name (tagged ORG, say) whose last word alone is a person elsewhere.

    "Ana Rivera" tagged ORG is a person when the article goes on "Rivera, who ...",
    "Rivera said" or "Rivera ... she": what a surname does tells what the name is.
    """
    if not 2 <= len(span) <= 3 or not all(t.is_title and t.pos_ == "PROPN" for t in span):
        return False
    doc = span.doc
    last = span[-1].text
    # found in the text first: walking every token for every candidate name is too slow
    for match in re.finditer(r"(?<!\w)" + re.escape(last) + r"(?!\w)", doc_text(doc)):
        found = doc.char_span(match.start(), match.end())
        if found is None or len(found) != 1:
            continue
        token = found[0]
        if span.start <= token.i < span.end:
            continue
        if token.i > 0 and doc[token.i - 1].is_title and doc[token.i - 1].pos_ == "PROPN":
            # part of another name ("Rivera Records"), not the surname alone
            continue
        nxt = doc[token.i + 1 : token.i + 3]
        # "Rivera, who ..." / "Rivera, whose ..."
        if len(nxt) == 2 and nxt[0].text == "," and nxt[1].lower_ in ("who", "whose"):
            return True
        lone = doc[token.i : token.i + 1]
        if _subject_of_saying(lone) or _subject_with_pronoun(lone):
            return True
    return False


def _plural_proper_subjects(
    doc: Doc, found: list[NameMention], blocked: list[tuple[int, int]], plural: frozenset[str]
) -> list[NameMention]:
    """Untagged plural proper names that act: "The X Comets played" is a band, team or party.

    A proper noun in the plural (NNPS) as a subject, after "the" or with words before it,
    names a group of people; with a plural verb ("X announce") it is a group for sure, else
    an organisation until the article calls it "the band".
    """
    taken = {k for m in found for k in range(m.start, m.end)}
    extra: list[NameMention] = []
    for i in subject_indices(doc):
        token = doc[i]
        if token.tag_ != "NNPS" or not token.is_title:
            continue
        start = token.i
        while start > 0 and doc[start - 1].dep_ == "compound" and doc[start - 1].is_title:
            start -= 1
        span = doc[start : token.i + 1]
        after_the = start > 0 and doc[start - 1].lower_ == "the"
        if (len(span) < 2 and not after_the) or any(k in taken for k in range(span.start, span.end)):
            continue
        if _overlaps(blocked, span.start_char, span.end_char) or span[-1].lower_ in VENUE_WORDS:
            continue
        extra.append(_mention(span, "group" if span.text in plural else "organization"))
        taken.update(range(span.start, span.end))
    return extra


def _repeated_names(doc: Doc, found: list[NameMention], blocked: list[tuple[int, int]]) -> list[NameMention]:
    """Other occurrences of a group's or organisation's name the model left untagged.

    The small model tags a band's name in one sentence and not in the next; once the name
    is known, every occurrence of the same words is that group.
    """
    taken = {k for m in found for k in range(m.start, m.end)}
    names = {tuple(t.text for t in doc[m.start : m.end]): m.kind for m in found if m.kind != "person"}
    extra: list[NameMention] = []
    for name_words, kind in names.items():
        width = len(name_words)
        for i in range(len(doc) - width + 1):
            if doc[i].text != name_words[0] or any(k in taken for k in range(i, i + width)):
                continue
            span = doc[i : i + width]
            if tuple(t.text for t in span) != name_words or _overlaps(blocked, span.start_char, span.end_char):
                continue
            # the whole name, not the start of a longer one ("X Records" after the band X)
            if span.end < len(doc) and doc[span.end].is_title and doc[span.end].pos_ == "PROPN":
                continue
            extra.append(_mention(span, kind))
            taken.update(range(i, i + width))
    return extra


def _untagged_person(span: Span) -> bool:
    """A name after a role noun, or one that starts with a common given name (not "at Grace Hall")."""
    doc = span.doc
    before = doc[span.start - 1].lower_ if span.start > 0 else ""
    return _after_role(span) or span[0].pos_ == "PROPN" and _given_name_first(span) \
        and span[-1].lower_ not in VENUE_WORDS and before not in _PLACE_PREPS | {"in", "from"}


def _used_as_surname(span: Span) -> bool:
    """Whether a one-word name follows a given name somewhere ("Valeska Paris"): a person's, not a town's."""
    if len(span) > 1:
        return False
    doc = span.doc
    return any(t.text == span.text and t.i > 0 and doc[t.i - 1].pos_ == "PROPN" and doc[t.i - 1].is_title
               for t in doc)


def _the_plural(span: Span) -> bool:
    """ "the Beatles", "the Kestrels": a plural name after "the" is a band or a team."""
    doc = span.doc
    return span.start > 0 and doc[span.start - 1].lower_ == "the" and span[-1].tag_ == "NNPS" \
        and span[-1].text.endswith("s")


def _after_group_noun(span: Span) -> bool:
    """ "the band X", "rock group X": the word before the name says it is a group."""
    return span.start > 0 and span.doc[span.start - 1].lower_ in GROUP_NOUNS - tagged("group_nouns", "business")


def _mention(span: Span, kind: str) -> NameMention:
    doc = span.doc
    if kind == "person" and len(span) > 1 and span[-1].text.rstrip(".") in ORG_WORDS:
        # "X United", "Y National Bank", "the Z Herald": an organisation, whatever read it as a person
        kind = "organization"
    if (
        kind == "person"
        and span.start > 0
        and doc[span.start - 1].lower_ in _TITLES_IN_NAME
        and doc[span.start - 1].is_title
    ):
        # "Prince Harry", "Queen Camilla": the title is part of the name
        span = doc[span.start - 1 : span.end]
    return NameMention(span.start, span.end, span.text, kind, _honorific(doc, span.start))


def _acts_like_person(span: Span) -> bool:
    """A subject of saying, or a given name as subject: "Nina Park released" is not a park."""
    return _subject_of_saying(span) or (_given_name_first(span) and span.root.dep_ in ("nsubj", "nsubjpass"))


def _given_name(token: Token) -> bool:
    return token.pos_ == "PROPN" and token.is_title and is_given_name(token.text)


def _month_as_given_name(token: Token) -> bool:
    """ "legend June Calloway": a month the model read as a date alone, not after "in", "last"..."""
    doc = token.doc
    before = doc[token.i - 1] if token.i > 0 else None
    return (
        token.ent_type_ == "DATE"
        and token.ent_iob_ == "B"
        and (token.i + 1 >= len(doc) or doc[token.i + 1].ent_type_ != "DATE")
        and (before is None or before.pos_ not in labels("name-edge-not") and before.lower_ not in _DATE_WORDS)
    )


def _given_name_first(span: Span) -> bool:
    """A two- or three-word name starting with a common given name ("Nina Park" tagged GPE)."""
    return 2 <= len(span) <= 3 and is_given_name(span[0].text) and all(t.is_title for t in span)


def _name_parts(found: list[NameMention]) -> set[str]:
    parts = set()
    for m in found:
        if m.kind == "person":
            words = m.text.split()
            parts.update(w.lower() for w in words if len(w) > 1)
            parts.add(m.text.lower())
    return parts


def _propn_run(doc: Doc, i: int) -> tuple[int, int]:
    start, end = i, i + 1
    while start > 0 and doc[start - 1].pos_ == "PROPN" and doc[start - 1].is_title:
        start -= 1
    while end < len(doc) and doc[end].pos_ == "PROPN" and doc[end].is_title:
        end += 1
    return start, end


def _missed_names(
    doc: Doc, parts: set[str], covered: set[int], blocked: list[tuple[int, int]], plural: frozenset[str]
) -> list[NameMention]:
    """Names the model missed: proper nouns that speak first, then what repeats a known name.

    A speaker that takes a plural verb ("X announce") is a group, its name with the
    capitalised compound words before it (which the tagger may call common nouns).
    """
    speakers = [
        _with_compounds(span, covered)
        for span in _candidate_runs(doc, covered, blocked)
        # a title-cased headline makes the tagger call a band's name a common noun
        if (span[0].pos_ == "PROPN" or _with_compounds(span, covered).text in plural)
        and (_subject_of_saying(span) or _subject_with_pronoun(span) or _subject_of_performing(span))
    ]
    groups = [s for s in speakers if s.text in plural or _the_plural(s)]
    speakers = [s for s in speakers if s not in groups]
    parts = parts | _name_parts([_mention(s, "person") for s in speakers])
    extra = [_mention(span, "person") for span in speakers] + [_mention(span, "group") for span in groups]
    speakers += groups
    taken = {t.i for span in speakers for t in span}
    for span in _candidate_runs(doc, covered | taken, blocked):
        if span.text.lower() in parts or (
            len(span) > 1 and span[-1].lower_ in parts and span[-1].lower_ not in _NOT_SURNAMES
        ):
            # a known name, or a first name + known surname ("Billie X" after "X said")
            extra.append(_mention(span, "person"))
    return extra


def _with_compounds(span: Span, covered: set[int]) -> Span:
    """The span with the capitalised compound words before it ("Copper" tagged a noun in "Copper X")."""
    doc = span.doc
    start = span.start
    while (
        start > 0
        and start - 1 not in covered
        and doc[start - 1].dep_ == "compound"
        and doc[start - 1].is_title
        # "Host X Y": a role word is a description, not part of the name
        and doc[start - 1].lower_ not in PERSON_NOUNS
    ):
        start -= 1
    return doc[start : span.end]


def _candidate_runs(doc: Doc, covered: set[int], blocked: list[tuple[int, int]]) -> list[Span]:
    """Capitalised words and runs of proper nouns outside entities, places, works and events."""
    runs: list[Span] = []
    i = 0
    while i < len(doc):
        token = doc[i]
        if i in covered or not token.is_title or token.pos_ not in labels("name-word"):
            i += 1
            continue
        if token.lower_ in PERSON_NOUNS or token.lower_ in GROUP_NOUNS or token.lower_ in _TITLE_ABBREVIATIONS:
            # "Majority Leader", "the Duke of X", "Gov.": a title or description, not a name
            i += 1
            continue
        start, end = _propn_run(doc, i) if token.pos_ == "PROPN" else (i, i + 1)
        if any(j in covered for j in range(start, end)):
            start, end = i, i + 1
            # "legend June Calloway": the model took the given name for a date
            if i > 0 and _given_name(doc[i - 1]) and _month_as_given_name(doc[i - 1]):
                start = i - 1
        while start < i and (doc[start].lower_ in PERSON_NOUNS or doc[start].lower_ in _TITLE_ABBREVIATIONS):
            # "Host X Y": the run reaches back over the role word skipped above
            start += 1
        span = doc[start:end]
        if span[-1].lower_ in PERSON_NOUNS:
            # "Prime Minister": a run ending in a title is a title
            i = end
            continue
        if not _overlaps(blocked, span.start_char, span.end_char):
            runs.append(span)
        i = end
    return runs


def _followed_by_he_or_she(span: Span) -> bool:
    """A he/she/his/her subject or possessive later in the sentence: the subject is a person."""
    doc = span.doc
    i = span.end
    while i < len(doc) and not doc[i].is_sent_start:
        # (walking to the sentence end: ``span.sent`` rebuilds every sentence on each call)
        if doc[i].lower_ in _PERSONAL and doc[i].dep_ in labels("subject-or-owner"):
            return True
        i += 1
    # "X returned on Friday. The 52-year-old opened with ...": the next sentence goes on about
    # the subject by age or role ("The singer"), or as "she" when X starts with a given name,
    # before naming anyone else
    while i < len(doc) and not doc[i].is_alpha:
        i += 1
    for token in doc[i : i + 8]:
        if token.pos_ == "PROPN":
            return False
        if token.dep_ in ("nsubj", "nsubjpass"):
            described = token.lower_ == "old" or token.lower_ in PERSON_NOUNS and any(
                c.lower_ == "the" for c in token.children)
            return described or token.lower_ in ("he", "she") and is_given_name(span[0].text)
    return False


def _subject_with_pronoun(span: Span) -> bool:
    return span.root.dep_ == "nsubj" and _looks_like_name(span) and _followed_by_he_or_she(span)


def _subject_of_performing(span: Span) -> bool:
    """A proper noun (or its conjunct) that performs or sings: "X and Y perform at the Z festival"."""
    root = span.root
    subject = root if root.dep_ == "nsubj" else root.head if root.dep_ == "conj" and root.head.dep_ == "nsubj" else None
    # (or the noun a misparsed "..., performed X" hangs on)
    verbs = [subject.head] if subject is not None else [c for c in root.children if c.dep_ == "acl"]
    return any(v.lemma_.lower() in tagged("performance_verbs", "act") for v in verbs) and _looks_like_name(span)


def _subject_of_saying(span: Span) -> bool:
    """The subject of a verb of saying, or the name right after one that follows a quotation ("," said X)."""
    root: Token = span.root
    if not _looks_like_name(span):
        return False
    if root.dep_ == "nsubj" and is_say_verb(root.head):
        return True
    doc = span.doc
    nxt = doc[span.end] if span.end < len(doc) else None
    if (
        nxt is not None
        and nxt.dep_ == "acl"
        and nxt.head.i == root.i
        and is_say_verb(nxt)
        and span.start > 0
        and is_mark(doc[span.start - 1].text, QUOTE_MARKS + ",")
    ):
        # '"...," Trump posted': the verb parsed as a modifier of the name
        return True
    verb = doc[span.start - 1] if span.start > 1 else None
    return (
        verb is not None
        and is_say_verb(verb)
        and is_mark(doc[verb.i - 1].text, QUOTE_MARKS + ",")
        # "said X", or "added X" parsed as an adjective on the name
        and (root.head == verb or verb.head == root)
    )
