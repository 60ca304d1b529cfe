"""What makes a stretch of text a person's or an organisation's name, and what does not.

The small English model swallows possessives into names ("Smith's Facebook" as one ORG),
tags venues as people ("X Live"), platforms as organisations ("posted on Chirper") and
titles in quotation marks as people. These tests trim a name to its words and tell names
of people and speaking organisations from venues, media, platforms and titles.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from spacy.tokens import Doc, Span, Token

from kg.extract.found import Found
from kg.extract.text.doc_index import full_name_surnames, subject_indices
from kg.extract.text.gazetteer import is_given_name
from kg.extract.text.lexicon import function_words, labels, table, tagged, words
from kg.extract.text.marks import (
    HONORIFICS,
    ORG_WORDS,
    PERSON_NOUNS,
    PROXY_NOUNS,
    QUOTE_MARKS,
    STATEMENT_NOUNS,
    VENUE_WORDS,
    is_mark,
)

_POSSESSIVE = function_words("possessive-mark")


ORG_LABELS = labels("org")


#: Words that cannot start or end a person's name.
_EDGE_JUNK = words("name_edge_words")


#: Parts of speech that cannot start a name ("Later Smith" tagged ORG).
_EDGE_POS = labels("name-edge")


#: Prepositions after which a "person" is a place ("at X Live").
PLACE_PREPS = function_words("name-place-prep")


#: Nouns that end the name of a place or a programme, not a person's ("Milo City", "Elton
#: County", "The Lena Ortiz Show").
_THING_ENDS = frozenset(table("place_kind_nouns")) | words("show_nouns")


#: Titles that belong to the name they precede.
TITLES_IN_NAME = words("name_titles")


#: Social platforms the small model takes for people or organisations; the rule in
#: ``is_platform`` finds the others from how the article uses them.
_PLATFORMS = words("social_platforms")


#: Prepositions that put a name in the role of a medium: "posted on X", "shared via X".
_MEDIUM_PREPS = function_words("medium-prep")


#: Nouns after a name that make it a medium: "an X post", "her X story", "X followers".
_MEDIUM_NOUNS = words("medium_nouns")


#: Members of a band: "the singer of X" makes X a group.
_MUSICIAN_NOUNS = tagged("musician_nouns", "member")


#: Abbreviated titles before a name ("Gov. X", "Sen. Y"): a description, not part of the name.
TITLE_ABBREVIATIONS = words("title_abbreviations")


#: Speakers for someone else and their statements: "a spokesperson for X", "X's statement".
_SPEAKS_FOR = PROXY_NOUNS | STATEMENT_NOUNS


def record_names(found: Found) -> frozenset[str]:
    """Names of the places, works and events found: the same words elsewhere name no person."""
    return frozenset(name_key(name) for name in (*(p.name for p in found.places), *(w.title for w in found.works),
                                                  *(e.name for e in found.events)))


def name_key(text: str) -> str:
    """A name compared across mentions: case, curly apostrophes and a leading "the" ignored."""
    low = " ".join(text.replace("’", "'").lower().split())
    return low[4:] if low.startswith("the ") else low


def plural_names(doc: Doc) -> frozenset[str]:
    """Names that take a plural verb somewhere ("X announce", "X were"): groups, never one person.

    Headlines often carry the only such verb, and the model rarely tags a name there, so the
    subject is read as its run of capitalised words whatever the entities say. The surname of
    one person named in full is her, whatever verb the parser gives it ("Fields, along with Y,
    say", "Crutcher, 40 ― a father" with the dash read as a verb); a surname two full names
    share may be a family band's ("Este Haim", "Danielle Haim": Haim).
    """
    owners = Counter(full_name_surnames(doc).values())
    names = set()
    for i in subject_indices(doc):
        token = doc[i]
        # headlines are title-cased, so the tagger may call the name a common noun there
        if token.dep_ != "nsubj" or token.tag_ not in labels("noun-tag") or not token.is_title:
            continue
        if any(c.dep_ == "conj" for c in token.children):
            # "X and the department have said": the verb agrees with the pair, not with X
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
    return frozenset(name for name in names if owners[name] != 1)


def blocked_ranges(found: Found) -> list[tuple[int, int]]:
    """Character ranges already claimed by places, works and events."""
    return [(m.start, m.end) for records in (found.places, found.works, found.events)
            for record in records for m in record.mentions]


def overlaps_of(ranges: list[tuple[int, int]], start: int, end: int) -> bool:
    return any(s < end and start < e for s, e in ranges)


def trim_of(doc: Doc, start: int, end: int) -> tuple[int, int]:
    """Cut a possessive and what follows it, and junk at the edges."""
    at = _possessive_at(doc, start, end)
    end = end if at is None else at
    while start < end and (
        doc[start].lower_ in _EDGE_JUNK or doc[start].is_punct or doc[start].pos_ in _EDGE_POS
        # (a capitalised "verb" that is a clause's subject is a name the tagger took for a verb:
        # a surname that is also an English verb, "X strongly backs ...")
        and not _verb_read_name(doc[start])
    ):
        start += 1
    while end > start and (
        doc[end - 1].lower_ in _EDGE_JUNK or doc[end - 1].is_punct or _has_digit(doc[end - 1])
        # "Captain America Image: X": a caption's credit word glued to the name before it
        or doc[end - 1].lower_ in CREDIT_WORDS and end < len(doc) and doc[end].text == ":"
    ):
        # "Ana Rivera 6-4": a score or count glued to the name
        end -= 1
    # "Image: X", "Photo: Y"
    if end - start > 1 and doc[start].lower_ in CREDIT_WORDS and doc[start + 1].text == ":":
        start += 2
    return start, end


def possessed_name(doc: Doc, start: int, end: int) -> Span | None:
    """The person after a possessive inside one entity: "Sean Hannity" of "Fox News' Sean Hannity".

    The model often tags a publication's or a company's person as one organisation ("Acme
    Weekly's Dana Hale"); ``trim_of`` keeps the owner, and without this the person is lost. The
    words after the possessive must read as a name of a person: a given name first (see
    ``given_name_first``), as "Acme's Annual Report" does not.
    """
    at = _possessive_at(doc, start, end)
    return doc[at + 1 : end] if at is not None and given_name_first(doc[at + 1 : end]) else None


def _possessive_at(doc: Doc, start: int, end: int) -> int | None:
    """Where the first possessive mark ("'s", "’") of ``doc[start:end]`` is, if any."""
    return next((i for i in range(start, end) if doc[i].text in _POSSESSIVE or doc[i].tag_ == "POS"), None)


def _verb_read_name(token: Token) -> bool:
    # (a participle opening the sentence is the participle: "Following X's set, ...")
    return token.pos_ == "VERB" and token.is_title and token.dep_ in labels("subject") \
        and not (token.tag_ == "VBG" and token.is_sent_start)


def _has_digit(token: Token) -> bool:
    """A score or count ("6-4", "2023"), not a name written with a digit ("Kep1er")."""
    return token.text[:1].isdigit() or token.like_num


def looks_like_name(span: Span) -> bool:
    """Capitals, letters, not all small words, and no slash: "X / Getty" is a photo credit."""
    return (
        any(ch.isupper() for ch in span.text)
        and not any(t.like_num or t.is_digit for t in span)
        and len(span.text) > 1
        and not all(t.is_stop for t in span)
        and "/" not in span.text
    )


def in_marks(span: Span) -> bool:
    """A name that fills a pair of quotation marks is a title or a nickname ('the "X" premiere')."""
    doc = span.doc
    return (
        span.start > 0
        and span.end < len(doc)
        and is_mark(doc[span.start - 1].text, QUOTE_MARKS)
        and is_mark(doc[span.end].text, QUOTE_MARKS)
    )


def modifier_of(span: Span) -> bool:
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


def is_venue(span: Span) -> bool:
    """A venue word at the end ("X Arena"), or after "at" with no possessive ("at X Live"); or
    a capitalised noun of a kind of place or show at the end ("Milo City", "X Show")."""
    if ends_in_thing_noun(span):
        return True
    if given_name_first(span):
        # "Nina Park" is a person whose surname is a venue word
        return False
    if span[-1].lower_ in VENUE_WORDS:
        return True
    before = span.doc[span.start - 1] if span.start > 0 else None
    after = span.doc[span.end] if span.end < len(span.doc) else None
    return bool(
        before is not None
        and before.lower_ in PLACE_PREPS
        and not (after is not None and after.text in _POSSESSIVE)
    )


def honorific_of(doc: Doc, start: int) -> str | None:
    if start > 0 and doc[start - 1].lower_ in HONORIFICS:
        return doc[start - 1].lower_
    return None


def is_speaking_org(span: Span) -> bool:
    """An organisation that acts or speaks: a subject, "according to X", "a spokesperson for X"."""
    root = span.root
    if root.dep_ in ("nsubj", "nsubjpass"):
        return True
    head = root.head
    if root.dep_ == "appos" and head.pos_ == "NOUN" and head.dep_ in ("nsubj", "nsubjpass"):
        # "The promoter, X, said": the name set beside a subject noun is the subject
        # (beside a name, "Y, Democrat of Vermont," it is a description)
        return True
    # "according to X", "a spokesperson for X", "X's statement"
    return (
        root.dep_ == "pobj"
        and head.lower_ in function_words("recipient-prep") | {"from"}
        and (head.head.lower_ == "according" or head.head.lower_ in _SPEAKS_FOR)
    ) or (
        root.dep_ in ("poss", "compound")
        and head.lower_ in _SPEAKS_FOR
    )


def member_of(span: Span) -> bool:
    """A group named as what a musician belongs to: "the singer of X", "Ana Rivera of X"."""
    root = span.root
    head = root.head
    if root.dep_ != "pobj" or head.lower_ != "of":
        return False
    owner = head.head
    # "the drummer of X", or a person's name ("Ana Rivera of X"); not "the city of X"
    return owner.lower_ in _MUSICIAN_NOUNS or (owner.ent_type_ == "PERSON" and owner.pos_ == "PROPN")


def is_platform(span: Span) -> bool:
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
    if span.start == 0 or len(span) > 1 or (nxt is not None and nxt.lower_ in _POSSESSIVE):
        return False
    prev = doc[span.start - 1]
    # "posted on X", "shared via X" (but "on Smith's behalf" is a person)
    if prev.lower_ in _MEDIUM_PREPS:
        return True
    # "took to X to thank fans"
    return prev.lower_ == "to" and span.start > 1 and doc[span.start - 2].lemma_.lower() == "take"


@dataclass(frozen=True)
class NameMention:
    """A name of a person or organisation: tokens ``start:end`` of the doc."""

    start: int
    end: int
    text: str
    kind: str
    honorific: str | None = None


def after_role(span: Span) -> bool:
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


def the_plural(span: Span) -> bool:
    """ "the Beatles", "the Kestrels": a plural name after "the" is a band or a team."""
    doc = span.doc
    return span.start > 0 and doc[span.start - 1].lower_ == "the" and span[-1].tag_ == "NNPS" \
        and span[-1].text.endswith("s")


def mention_of(span: Span, kind: str) -> NameMention:
    doc = span.doc
    if kind == "person" and len(span) > 1 and _org_head(span).text.rstrip(".") in ORG_WORDS:
        # "X United", "Y National Bank", "the Z Herald", "Department of Z": an organisation,
        # whatever read it as a person
        kind = "organization"
    if (
        kind == "person"
        and span.start > 0
        and doc[span.start - 1].lower_ in TITLES_IN_NAME
        and doc[span.start - 1].is_title
    ):
        # "Prince Harry", "Queen Camilla": the title is part of the name
        span = doc[span.start - 1 : span.end]
    return NameMention(span.start, span.end, span.text, kind, honorific_of(doc, span.start))


def _org_head(span: Span) -> Token:
    """The word a name's kind hangs on: its last, or the one before its first lower-case
    word ("Department" of "Department of Homeland Security", "Committee for a Sound Budget")."""
    lower = next((t for t in span[1:] if t.is_lower), None)
    return span.doc[lower.i - 1] if lower is not None else span[-1]


#: Caption and credit words the model reads as a name ("Image: X", "Photo: Y").
CREDIT_WORDS = words("credit_words")


def given_name_first(span: Span) -> bool:
    """A two- or three-word name starting with a common given name ("Nina Park" tagged GPE),
    but for a place's or a show's name ("Milo City", "Lena Ortiz Show")."""
    return (
        2 <= len(span) <= 3
        and is_given_name(span[0].text)
        and all(t.is_title for t in span)
        and not ends_in_thing_noun(span)
    )


def ends_in_thing_noun(span: Span) -> bool:
    """A name of two words or more whose last is a capitalised noun of a kind of place or show."""
    return len(span) >= 2 and span[-1].is_title and span[-1].lower_ in _THING_ENDS
