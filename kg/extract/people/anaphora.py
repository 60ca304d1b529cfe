"""Pronouns and descriptions resolved to the entity they refer to, through the discourse model.

Each third-person pronoun or definite description goes to the most salient compatible
entity (kind, gender, age), unless two come too close to call: then it is left open, or
it goes to the one that was the last sentence's subject (:class:`kg.extract.people.discourse.Salience`).
A pronoun with no one before it to refer to looks ahead once, to the name of the next
sentence's subject.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Set as AbstractSet

from spacy.tokens import Doc, Span, Token

from kg.extract.people.clusters import Cluster
from kg.extract.people.descriptions import (
    DEFINITE,
    NOMINAL,
    add_description,
    age_after,
    age_of,
    description_end,
    description_noun,
    description_start,
    proxy_for,
)
from kg.extract.people.discourse import (
    MIN_SALIENCE,
    Salience,
)
from kg.extract.text.doc_index import doc_text, numbered, subject_indices
from kg.extract.text.lexicon import function_words, labels, tagged
from kg.extract.text.marks import (
    GROUP_NOUNS,
    MUSIC_GROUP_NOUNS,
    ORG_WORDS,
    PERSON_NOUNS,
    PRONOUNS,
    PROXY_NOUNS,
    QUOTE_MARKS,
    is_mark,
    is_say_verb,
)


def may_refer(lower: str, pos: str) -> bool:
    """Whether a word of this form and part of speech can be what :func:`resolve_reference` resolves
    (a pronoun, "it", or a description's noun): a walk over every token asks no more of the rest."""
    return lower in PRONOUNS or lower == "it" or pos in NOMINAL


def resolve_reference(
    doc: Doc,
    token: Token,
    clusters: list[Cluster],
    focus: Salience[Cluster],
    of_token: dict[int, Cluster],
    quoted: AbstractSet[int] = frozenset(),
) -> Cluster | None:
    """Resolve a pronoun or description at ``token`` and record it; None if it is neither or
    unresolved. ``quoted`` are the tokens inside quotation marks."""
    gender = PRONOUNS.get(token.lower_) if token.pos_ == "PRON" or token.tag_ in ("PRP", "PRP$") else None
    if token.lower_ == "it" and token.dep_ == "nsubj" and is_say_verb(token.head):
        # "it added": only an organisation says things as "it"
        gender = "p"
    if gender is not None:
        return _resolve_pronoun(doc, token, gender, clusters, focus, of_token, quoted)
    kind = description_noun(token)
    if kind is None:
        return None
    if kind == "proxy":
        return proxy_for(doc, token, of_token)
    return _resolve_description(doc, token, kind, clusters, focus, of_token)


def _resolve_pronoun(
    doc: Doc,
    token: Token,
    gender: str,
    clusters: list[Cluster],
    focus: Salience[Cluster],
    of_token: dict[int, Cluster],
    quoted: AbstractSet[int],
) -> Cluster | None:
    """Resolve the pronoun at ``token`` ("p" for an organisation's "it") and record it."""
    kinds = ("group", "organization") if gender == "p" else ("person",)
    target = _most_salient(
        clusters, focus, kinds, None if gender == "p" else gender,
        _clause_subject(token, of_token) or _object_named(token, of_token),
    )
    if target is not None and gender != "p" and _unknown_subject_before(doc, token, of_token, target, quoted):
        # "Dahl disagreed. '...,' she said." with Dahl unrecognised: she may well be Dahl
        target = None
    elif target is None and gender != "p" and not _candidates(clusters, focus, kinds, gender, None):
        # nobody yet to refer back to: '"...," she said. Ana Rivera, 41, ...' names her next
        target = _named_next(doc, token, kinds, gender, of_token)
    if target is not None:
        target.mentions.append((token.idx, token.idx + len(token)))
        of_token[token.i] = target
        if gender != "p" and target.gender is None:
            target.gender = gender
    return target


def _resolve_description(
    doc: Doc,
    token: Token,
    kind: str,
    clusters: list[Cluster],
    focus: Salience[Cluster],
    of_token: dict[int, Cluster],
) -> Cluster | None:
    """Resolve the definite description whose noun is ``token`` and record it."""
    start = description_start(doc, token)
    if (
        start is None
        or token.i + 1 < len(doc)
        and doc[token.i + 1].pos_ == "PROPN"
        and (doc[token.i + 1].i in of_token or doc[token.i + 1].text[:1].isupper())
    ):
        # indefinite ("a singer") or a title before a name ("the singer X"): not an anaphor
        return None
    kinds = ("person",) if kind == "person" else ("group", "organization")
    age = age_of(doc[start : token.i + 1].text) or age_after(doc, token.i)
    gender = PERSON_NOUNS.get(token.lower_)
    target = _described_target(doc, token, start, kind, kinds, gender, age, clusters, focus, of_token)
    if (
        target is None
        and kind == "person"
        and token.dep_ in labels("subject")
        and not _candidates(clusters, focus, kinds, gender, None)
    ):
        # a lede that names its subject a sentence late: "The singer, 45, told ... . Ana Rivera ..."
        target = _named_next(doc, token, kinds, gender, of_token, age)
    if target is not None:
        add_description(target, doc[start : description_end(token)], of_token)
    return target


def _described_target(
    doc: Doc,
    token: Token,
    start: int,
    kind: str,
    kinds: tuple[str, ...],
    gender: str | None,
    age: int | None,
    clusters: list[Cluster],
    focus: Salience[Cluster],
    of_token: dict[int, Cluster],
) -> Cluster | None:
    """The entity a description refers back to, tried from the surest reading to the loosest."""
    subject = _sentence_subject(token, of_token) or _object_named(token, of_token)
    return (
        _holder_of(clusters, doc[token.i : description_end(token)].text)
        or _described_before(clusters, focus, token, kinds, age)
        # "the 'Golden Hour' singer": whoever the article has release or sing that title
        or (_performer_of_title(doc, doc[start : token.i], of_token) if kind == "person" else None)
        # "the band" is a music group before it is a label; "the label" an organisation first
        or (_most_salient_band(clusters, focus, subject) if token.lower_ in MUSIC_GROUP_NOUNS else None)
        or (_only_group(clusters, focus) if token.lower_ in MUSIC_GROUP_NOUNS else None)
        or (
            _most_salient(clusters, focus, ("organization",), None, subject)
            if kind == "group" and token.lower_ not in MUSIC_GROUP_NOUNS
            else None
        )
        or _most_salient(clusters, focus, kinds, gender, subject, age)
        or (_only_group(clusters, focus) if kind == "group" else None)
    )


#: Verbs whose subject made or performed the title that is their object.
_MAKE_VERBS = tagged("making_verbs", "maker")


def _performer_of_title(doc: Doc, words: Span, of_token: dict[int, Cluster]) -> Cluster | None:
    """The one person the article names as making the title quoted in a description.

    For 'the "Golden Hour" singer' the title's other mentions are read: the subject of a
    verb of making ("X released 'Golden Hour'") or the owner ("X's album 'Golden Hour'").
    """
    marks = [t.i for t in words if is_mark(t.text, QUOTE_MARKS)]
    if len(marks) < 2 or marks[-1] - marks[0] < 2:
        return None
    title = doc[marks[0] + 1 : marks[-1]].text
    found: set[int] = set()
    text = doc_text(doc)
    for match in re.finditer(re.escape(title), text):
        span = doc.char_span(match.start(), match.end(), alignment_mode="expand")
        if span is None or span.start >= words.start and span.end <= words.end:
            continue
        head = span.root.head
        for _ in range(3):
            owners = [c for c in head.children if c.dep_ == "poss" and c.i in of_token]
            subjects = [c for c in head.children if c.dep_ == "nsubj" and c.i in of_token]
            if owners:
                found.add(id(of_token[owners[0].i]))
                break
            if subjects and head.lemma_.lower() in _MAKE_VERBS:
                found.add(id(of_token[subjects[0].i]))
                break
            head = head.head
    if len(found) != 1:
        return None
    target = next(c for c in of_token.values() if id(c) in found)
    return target if target.kind == "person" else None


def _band_like(cluster: Cluster | None) -> Cluster | None:
    """The cluster, if "the band" may be it: a group, or an organisation with a plural name
    ("The Copper Kites", "THE BOYZ" read as a company until called a band), not "Harbor Records"."""
    if cluster is None:
        return None
    last = cluster.full_name().split()[-1]
    return cluster if cluster.kind == "group" or last.lower().endswith(("s", "z")) and last not in ORG_WORDS else None


def _most_salient_band(clusters: list[Cluster], focus: Salience[Cluster], exclude: Cluster | None) -> Cluster | None:
    """The most salient entity "the band" may be: a group, or an organisation named like one (see
    :func:`_band_like`), whatever person or company is more salient still."""
    ranked = _candidates(clusters, focus, ("group", "organization"), None, exclude)
    return focus.pick([c for c in ranked if _band_like(c) is not None])


def _only_group(clusters: list[Cluster], focus: Salience[Cluster]) -> Cluster | None:
    """The one music group named so far: "the band" a few paragraphs on can be no other."""
    groups = [c for c in clusters if c.kind == "group" and focus.of(c) > 0]
    return groups[0] if len(groups) == 1 else None


def _holder_of(clusters: list[Cluster], office: str) -> Cluster | None:
    """The one entity earlier given the office "X of Y" now named again ("the Archbishop of Canterbury")."""
    if " of " not in office:
        return None
    hits = [c for c in clusters if any(d.lower() == office.lower() for d in c.descriptions)]
    return hits[0] if len(hits) == 1 else None


def _described_before(
    clusters: list[Cluster], focus: Salience[Cluster], noun: Token, kinds: tuple[str, ...], age: int | None
) -> Cluster | None:
    """The one recent entity already described with the same noun ("the singer" again), of
    the age the description gives, if it gives one ("The singer-songwriter, 30,"), unless it has
    faded and one of its kind is in focus now: the article has moved on to another act ("the
    group" of paragraphs ago is not "the energetic boy group" of this one)."""
    hits = [
        c
        for c in clusters
        if c.kind in kinds
        and focus.of(c) >= MIN_SALIENCE / 4
        and (age is None or c.age is None or c.age == age)
        and any(
            d.split()[-1].lower() == noun.lower_ and (d.split()[0].lower() in DEFINITE or d.islower())
            for d in c.descriptions
        )
    ]
    if len(hits) != 1 or focus.of(hits[0]) < MIN_SALIENCE and any(
            c.kind in kinds and focus.of(c) >= MIN_SALIENCE for c in clusters):
        return None
    return hits[0]


def _sentence_subject(token: Token, of_token: dict[int, Cluster]) -> Cluster | None:
    """The entity that is a subject earlier in the sentence of a description that is an object.

    "X came to the defense of Y after a post with the influencer": a description in
    object position rarely names the sentence's own subject; a possessive one may.
    """
    if token.dep_ in labels("subject") or token.dep_ == "poss":
        return None
    doc = token.doc
    i = token.i
    while i > 0 and not doc[i].is_sent_start:
        # back to the sentence start (``token.sent`` rebuilds every sentence on each call)
        i -= 1
    for t in doc[i : token.i]:
        if t.dep_ in labels("subject") and t.i in of_token:
            return of_token[t.i]
    return None


def _clause_subject(token: Token, of_token: dict[int, Cluster]) -> Cluster | None:
    """The entity that is the subject of the clause where ``token`` is an object: it can't be both."""
    if token.dep_ in labels("subject") or token.dep_ == "poss" or token.tag_ == "PRP$":
        return None
    head = token.head
    if token.dep_ == "pobj":
        head = head.head
    for child in head.children:
        if child.dep_ in labels("subject") and child.i in of_token and child.i < token.i:
            return of_token[child.i]
    return None


#: Dependencies from a verb down to what its clause does something to: objects, their
#: prepositions and owners, an infinitive of purpose ("got up to embrace X").
_OBJECT_PATH = labels("object-path")


def _object_named(token: Token, of_token: dict[int, Cluster]) -> Cluster | None:
    """The entity named as an object in the clause of which ``token`` is the subject: it can't
    be both ("The 27-year-old got up to embrace X", "he might back X": not X). A predicate
    after "as" ("running as X") and what clauses inside say are not its objects."""
    if token.dep_ not in labels("subject"):
        return None
    todo = [token.head]
    while todo:
        for child in todo.pop().children:
            if child.i <= token.i or child.lower_ in function_words("predicate-prep"):
                continue
            purpose = child.dep_ == "advcl" and any(c.dep_ == "aux" and c.lower_ == "to" for c in child.children)
            if child.dep_ not in _OBJECT_PATH and not purpose:
                continue
            if child.pos_ == "PROPN" and child.i in of_token:
                return of_token[child.i]
            todo.append(child)
    return None


def _candidates(
    clusters: list[Cluster],
    focus: Salience[Cluster],
    kinds: tuple[str, ...],
    gender: str | None,
    exclude: Cluster | None,
    age: int | None = None,
) -> list[Cluster]:
    """Salient entities of a compatible kind, gender and age, the most salient first."""
    return focus.ranked(
        c
        for c in clusters
        if c.kind in kinds
        and c is not exclude
        and (gender is None or c.gender is None or c.gender == gender)
        and (age is None or c.age is None or c.age == age)
    )


def _named_next(
    doc: Doc,
    token: Token,
    kinds: tuple[str, ...],
    gender: str | None,
    of_token: dict[int, Cluster],
    age: int | None = None,
) -> Cluster | None:
    """The first compatible entity named after a pronoun, within its sentence and the next one.

    News ledes often quote first and name the speaker after ('"...," she said. Ana Rivera,
    41, had ...'); a pronoun or description with no one before it to refer to looks ahead, once.
    """
    if _unnamed_subject_before(doc, token, of_token):
        # "The minister was asked ... 'I won't,' she said": she is the unnamed minister
        return None
    starts = 0
    for t in doc[token.i + 1 :]:
        if t.is_sent_start:
            starts += 1
            if starts > 1:
                return None
        cluster = of_token.get(t.i)
        if cluster is not None and cluster.names and t.pos_ == "PROPN":
            subject = t.dep_ in labels("subject") or (t.dep_ == "compound" and t.head.dep_ in labels("subject"))
            if (
                subject
                and cluster.kind in kinds
                and (gender is None or cluster.gender in (None, gender))
                and (age is None or cluster.age in (None, age))
            ):
                return cluster
            if cluster.kind == "person" or not subject:
                # another person, or a name that is no subject, comes first: too far to tell
                return None
    return None


def _unknown_subject_before(
    doc: Doc, token: Token, of_token: dict[int, Cluster], target: Cluster, quoted: AbstractSet[int]
) -> bool:
    """Whether an unrecognised proper-noun subject stands between ``target``'s last mention and ``token``.

    Only the pronoun's sentence and the one before are read, and only narration: a name
    inside quoted words is someone spoken to or about ('"Mate, ...," he said'), not a new speaker.
    """
    starts = 0
    i = token.i - 1
    while i >= 0 and starts < 2:
        t = doc[i]
        if of_token.get(t.i) is target:
            return False
        if (
            t.dep_ in labels("subject")
            and t.pos_ == "PROPN"
            and t.is_title
            and t.i not in of_token
            and t.i not in quoted
            and t.ent_type_ in ("PERSON", "")
            and t.lower_ not in PERSON_NOUNS
            and t.lower_ not in GROUP_NOUNS
            and not numbered(t)
        ):
            return True
        if t.is_sent_start:
            starts += 1
        i -= 1
    return False


#: How far back a pronoun looks for an unnamed person before looking ahead for a name.
_LOOK_BACK = 200


def _unnamed_subject_before(doc: Doc, token: Token, of_token: dict[int, Cluster]) -> bool:
    """Whether a person known only by a noun ("the minister", "the man") is a subject before ``token``."""
    subjects = subject_indices(doc)
    for i in subjects[bisect_left(subjects, token.i - _LOOK_BACK) : bisect_left(subjects, token.i)]:
        t = doc[i]
        if (
            t.pos_ == "NOUN"
            and t.i not in of_token
            and (t.lower_ in PERSON_NOUNS or t.lower_ in PROXY_NOUNS)
        ):
            return True
    return False


def _most_salient(
    clusters: list[Cluster],
    focus: Salience[Cluster],
    kinds: tuple[str, ...],
    gender: str | None,
    exclude: Cluster | None,
    age: int | None = None,
) -> Cluster | None:
    """The most salient compatible entity, or None when a rival comes too close to call
    (unless only one of them was the last sentence's subject: see :class:`Salience`).

    An age in the description ("the 29-year-old") rules out anyone of another known age.
    """
    return focus.pick(_candidates(clusters, focus, kinds, gender, exclude, age))
