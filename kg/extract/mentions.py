"""Name mentions of people and organisations, with the small model's errors mended.

The small English model swallows possessives into names ("Smith's Instagram" as one
ORG), tags venues as people ("X Live"), and misses names at the start of a sentence.
This module turns ``doc.ents`` into clean name mentions that coref can cluster.
"""

from __future__ import annotations

from dataclasses import dataclass

from spacy.tokens import Doc, Span, Token

from kg.extract.cues import FIRST_NAME_GENDER, GROUP_NOUNS, HONORIFICS, PERSON_NOUNS, VENUE_WORDS, is_say_verb

_POSSESSIVE = frozenset({"'s", "’s", "'", "’"})
_ORG_LABELS = frozenset({"ORG", "NORP"})
#: Words that cannot start or end a person's name.
_EDGE_JUNK = frozenset({"the", "a", "an", "and", "&", "-", "—", "–", ",", ";", ":", "@"})
#: Parts of speech that cannot start a name ("Later Smith" tagged ORG).
_EDGE_POS = frozenset({"ADV", "ADP", "DET", "CCONJ", "SCONJ", "PRON", "VERB", "AUX"})
#: Prepositions after which a "person" is a place ("at X Live").
_PLACE_PREPS = frozenset({"at", "inside", "outside"})
#: Entity labels that are never people.
_NUMERIC_LABELS = frozenset({"DATE", "TIME", "MONEY", "PERCENT", "QUANTITY", "ORDINAL", "CARDINAL"})
_MARKS = frozenset({'"', "“", "”", "‘", "’", "'"})
#: Titles that belong to the name they precede.
_TITLES_IN_NAME = frozenset({"prince", "princess", "king", "queen", "lady", "sir", "dame", "lord", "pope"})
#: Name words too common to join a run to a person by themselves.
_NOT_SURNAMES = frozenset(
    {"stone", "king", "queen", "prince", "lady", "park", "hall", "green", "white", "black", "young"}
)
#: Social platforms the small model takes for people or organisations.
_PLATFORMS = frozenset(
    {
        "instagram",
        "twitter",
        "tiktok",
        "youtube",
        "facebook",
        "threads",
        "snapchat",
        "x",
        "weibo",
        "reddit",
        "truth social",
    }
)
#: Pronouns only people take.
_PERSONAL = frozenset({"he", "she", "his", "her", "him", "himself", "herself"})


@dataclass(frozen=True)
class NameMention:
    """A name of a person or organisation: tokens ``start:end`` of the doc."""

    start: int
    end: int
    text: str
    kind: str
    honorific: str | None = None


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
    while end > start and (doc[end - 1].lower_ in _EDGE_JUNK or doc[end - 1].is_punct):
        end -= 1
    return start, end


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
        and doc[span.start - 1].text in _MARKS
        and doc[span.end].text in _MARKS
    )


def _modifier(span: Span) -> bool:
    """ "the X soundtrack", "the X administration": a name used as a modifier names no one here."""
    root = span.root
    doc = span.doc
    return (
        root.dep_ == "compound"
        and root.head.i >= span.end
        and root.head.is_lower
        and root.head.pos_ == "NOUN"
        and root.head.lower_ not in PERSON_NOUNS
        and span.start > 0
        and doc[span.start - 1].lower_ in ("the", "a", "an")
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
        and head.lower_ in ("to", "for", "from")
        and head.head.lower_
        in ("according", "spokesperson", "spokesman", "spokeswoman", "statement", "representative")
    ) or (root.dep_ == "poss" and head.lower_ in ("statement", "spokesperson", "spokesman", "spokeswoman"))


def name_mentions(doc: Doc) -> list[NameMention]:
    """People and speaking organisations named in ``doc``, in text order.

    Returns:
        Mentions with the possessive cut off, venues and works dropped, and people the
        model missed or mislabelled added back: a name that starts with a common given
        name, a word equal to part of a person's name found elsewhere, or a proper noun
        that is the subject of a verb of saying.
    """
    blocked = _blocked_ranges(doc)
    covered: set[int] = set()
    spans: list[tuple[Span, Span]] = []
    for ent in doc.ents:
        covered.update(range(ent.start, ent.end))
        start, end = _trim(doc, ent.start, ent.end)
        while (
            start > 0
            and start == ent.start
            and _given_name(doc[start - 1])
            and doc[start - 1].ent_iob_ == "O"
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
        if span.text.lower() in _PLATFORMS:
            # "posted on Instagram": a platform is where words appear, not who says them
            continue
        if _overlaps(blocked, span.start_char, span.end_char) and not _acts_like_person(span):
            # claimed by places, works or events, unless it speaks or is a given name acting
            continue
        spans.append((ent, span))
    people = [
        _mention(span, "person")
        for ent, span in spans
        if (ent.label_ == "PERSON" and not _is_venue(span)) or _given_name_first(span)
    ]
    parts = _name_parts(people)
    found = list(people)
    for ent, span in spans:
        if (ent.label_ == "PERSON" and not _is_venue(span)) or _given_name_first(span):
            continue
        if span.text.lower() in parts or _subject_with_pronoun(span):
            # part of a person's name, or a mislabelled subject taken up by "he"/"she"
            found.append(_mention(span, "person"))
        elif ent.label_ in _ORG_LABELS and span.end == ent.end and _is_speaking_org(span):
            # an organisation that speaks or acts; "the band X" is a group
            found.append(_mention(span, "group" if _after_group_noun(span) else "organization"))
        elif _subject_of_saying(span):
            # a person mislabelled as a work or a place, who speaks
            found.append(_mention(span, "person"))
    found.extend(_missed_names(doc, parts, covered, blocked))
    found.sort(key=lambda m: m.start)
    return found


def _after_group_noun(span: Span) -> bool:
    """ "the band X", "rock group X": the word before the name says it is a group."""
    return span.start > 0 and span.doc[span.start - 1].lower_ in GROUP_NOUNS - {
        "company",
        "firm",
        "network",
        "studio",
        "label",
    }


def _mention(span: Span, kind: str) -> NameMention:
    doc = span.doc
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
    return token.pos_ == "PROPN" and token.is_title and token.lower_ in FIRST_NAME_GENDER


def _given_name_first(span: Span) -> bool:
    """A two- or three-word name starting with a common given name ("Nina Park" tagged GPE)."""
    return 2 <= len(span) <= 3 and span[0].lower_ in FIRST_NAME_GENDER and all(t.is_title for t in span)


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
    doc: Doc, parts: set[str], covered: set[int], blocked: list[tuple[int, int]]
) -> list[NameMention]:
    """Names the model missed: proper nouns that speak first, then what repeats a known name."""
    speakers = [
        span
        for span in _candidate_runs(doc, covered, blocked)
        if span[0].pos_ == "PROPN" and (_subject_of_saying(span) or _subject_with_pronoun(span))
    ]
    parts = parts | _name_parts([_mention(s, "person") for s in speakers])
    extra = [_mention(span, "person") for span in speakers]
    taken = {t.i for span in speakers for t in span}
    for span in _candidate_runs(doc, covered | taken, blocked):
        if span.text.lower() in parts or (
            len(span) > 1 and span[-1].lower_ in parts and span[-1].lower_ not in _NOT_SURNAMES
        ):
            # a known name, or a first name + known surname ("Billie X" after "X said")
            extra.append(_mention(span, "person"))
    return extra


def _candidate_runs(doc: Doc, covered: set[int], blocked: list[tuple[int, int]]) -> list[Span]:
    """Capitalised words and runs of proper nouns outside entities, places, works and events."""
    runs: list[Span] = []
    i = 0
    while i < len(doc):
        token = doc[i]
        if i in covered or not token.is_title or token.pos_ not in ("PROPN", "NOUN", "VERB", "ADJ"):
            i += 1
            continue
        if token.lower_ in PERSON_NOUNS or token.lower_ in GROUP_NOUNS:
            # "Majority Leader", "the Duke of X": a title or description, not a name
            i += 1
            continue
        start, end = _propn_run(doc, i) if token.pos_ == "PROPN" else (i, i + 1)
        if any(j in covered for j in range(start, end)):
            start, end = i, i + 1
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
        if doc[i].lower_ in _PERSONAL and doc[i].dep_ in ("nsubj", "nsubjpass", "poss"):
            return True
        i += 1
    return False


def _subject_with_pronoun(span: Span) -> bool:
    return span.root.dep_ == "nsubj" and _looks_like_name(span) and _followed_by_he_or_she(span)


def _subject_of_saying(span: Span) -> bool:
    """The subject of a verb of saying, or the name right after one that follows a quotation ("," said X)."""
    root: Token = span.root
    if not _looks_like_name(span):
        return False
    if root.dep_ == "nsubj" and is_say_verb(root.head):
        return True
    doc = span.doc
    verb = doc[span.start - 1] if span.start > 1 else None
    return (
        verb is not None
        and is_say_verb(verb)
        and doc[verb.i - 1].text in _MARKS | {","}
        and root.head == verb
    )
