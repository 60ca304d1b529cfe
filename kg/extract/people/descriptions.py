"""Descriptions of people and groups: "the folk singer", "the 37-year-old", "the band",
"Archbishop of Canterbury X", "a spokesperson for Y".

A description is tied to a name by the grammar where it can be ("X, the singer,", "the
singer X", "X is a singer", an office written before the name), with the age and gender it
gives; the rest are resolved by salience (:mod:`kg.extract.people.anaphora`).
"""

from __future__ import annotations

import re

from spacy.tokens import Doc, Span, Token

from kg.extract.people.clusters import Cluster
from kg.extract.text.doc_index import doc_tokens, token_words
from kg.extract.text.lexicon import function_words, labels
from kg.extract.text.marks import (
    GROUP_NOUNS,
    MUSIC_GROUP_NOUNS,
    PERSON_NOUNS,
    PROXY_NOUNS,
    QUOTE_MARKS,
    is_mark,
    is_say_verb,
)

#: How far left of its head noun a description may start ("the five-time Lantern Award winner").
_MAX_DESC_TOKENS = 8
_AGE_RE = re.compile(r"^(\d{1,3})-year-old$")
DEFINITE = frozenset({"the"})
_INDEFINITE = function_words("article") - DEFINITE
#: Parts of speech that may head a description.
_NOMINAL = labels("nominal")
#: Parts of speech a description's head word may have.
NOMINAL = _NOMINAL


#: Marks that may sit inside a description ("the 'Golden Hour' singer", "the singer-songwriter").
_DESC_MARKS = QUOTE_MARKS + "-–/"


def description_start(doc: Doc, noun: Token) -> int | None:
    """First token of a description ending at ``noun`` ("the 'X' singer"), or None if not definite."""
    i = noun.i - 1
    while i >= 0 and noun.i - i <= _MAX_DESC_TOKENS:
        t = doc[i]
        if t.lower_ in DEFINITE:
            return i
        if t.lower_ in _INDEFINITE and not (t.is_title and i > 0 and doc[i - 1].lower_ in DEFINITE):
            return None
        # title words, numbers, adjectives, nouns and quote marks may sit inside a description
        if not (
            t.is_title
            or t.is_upper
            or t.like_num
            or t.pos_ in labels("description")
            or is_mark(t.text, _DESC_MARKS)
            # "the Nigerian-born singer", "the award-winning duo"
            or t.tag_ in ("VBN", "VBG") and t.dep_ in ("amod", "compound")
        ):
            return None
        if is_mark(t.text, ",;:") or t.tag_ == "POS":
            return None
        i -= 1
    return None


#: Nouns that head a description of someone ("the singer", "the band", "his spokesman").
_DESCRIPTION_WORDS = PROXY_NOUNS | set(PERSON_NOUNS) | GROUP_NOUNS


def description_noun(token: Token) -> str | None:
    """'person', 'group' or 'proxy' if ``token`` heads a description of that kind."""
    if token.pos_ not in _NOMINAL:
        return None
    lower = token.lower_
    # (most nouns are none of these: answered before the parse is looked at)
    if not (lower in _DESCRIPTION_WORDS or lower in ("old", "piece") or _AGE_RE.match(lower)
            or _AGENT_ENDING.search(lower)):
        return None
    doc = token.doc
    the_title = token.is_title and token.i > 0 and doc[token.i - 1].lower_ in DEFINITE
    if not (token.is_lower or token.is_sent_start or the_title):
        # a capitalised "Star" mid-sentence is part of a name or title, not a description
        return None
    if (
        token.dep_ in labels("noun-modifier")
        and token.head.i > token.i
        and token.head.lower_ in PERSON_NOUNS
    ):
        # "the 34-year-old singer": the description's head comes later
        return None
    if token.i + 1 < len(token.doc) and token.doc[token.i + 1].text in ("-", "–"):
        # "singer-songwriter": the head is the last part
        return None
    if lower in PROXY_NOUNS:
        return "proxy"
    if lower in PERSON_NOUNS or _AGE_RE.match(lower) or lower == "old" and _year_old(token) or _speaking_agent(token):
        return "person"
    if lower in GROUP_NOUNS:
        return "group"
    if lower == "piece" and token.i > 1 and doc[token.i - 1].text in ("-", "–") and doc[token.i - 2].like_num:
        # "the four-piece": a band by its size
        return "group"
    return None


#: Endings of agent nouns: the one who does ("commentator", "resident", "organiser", "pianist").
_AGENT_ENDING = re.compile(r"(?:er|or|ist|ian|ent|ant)$")


def _speaking_agent(token: Token) -> bool:
    """An agent noun that is the subject of a verb of saying: "said the political commentator",
    "added the Chambersburg resident". Whoever speaks is a person, whatever the noun."""
    return (
        token.tag_ == "NN"
        and len(token.text) > 4
        and _AGENT_ENDING.search(token.lower_) is not None
        and token.dep_ in labels("speaker-object")
        and is_say_verb(token.head)
    )


def _year_old(token: Token) -> bool:
    doc = token.doc
    return token.i >= 4 and doc[token.i - 2].lower_ == "year" and doc[token.i - 4].like_num


def age_of(text: str) -> int | None:
    match = re.search(r"(\d{1,3})\s*-\s*year\s*-\s*old", text)
    return int(match.group(1)) if match else None


def link_appositions(
    doc: Doc, clusters: list[Cluster], of_token: dict[int, Cluster], quoted: set[int]
) -> None:
    """Descriptions tied to a name by the grammar: "X, the singer," / "the singer X" / "X is a singer".

    Also reads ages given after a name or description ("X, 37,").
    """
    pos = token_words(doc).pos
    for token in doc_tokens(doc):
        if token.i in quoted:
            continue
        cluster = of_token.get(token.i)
        if cluster is not None:
            _read_age(doc, token, cluster)
            # "Video Star X": capitalised descriptive words before the name
            if token.i > 0 and token.i - 1 not in of_token and cluster.kind == "person":
                _title_before(doc, token.i, cluster, of_token)
            continue
        kind = description_noun(token) if pos[token.i] in _NOMINAL else None
        if kind != "person":
            continue
        target = _apposed_name(token, of_token)
        if target is not None:
            start = description_start(doc, token)
            span = doc[start if start is not None else token.i : token.i + 1]
            add_description(target, span, of_token)


def _apposed_name(noun: Token, of_token: dict[int, Cluster]) -> Cluster | None:
    # "X, the singer,": the description hangs off the name as an apposition
    if noun.dep_ == "appos" and noun.head.i in of_token:
        return of_token[noun.head.i]
    for child in noun.children:
        # "the singer, X,": the name hangs off the description
        if child.dep_ == "appos" and child.i in of_token:
            return of_token[child.i]
    # "X is the singer": a copula with the name as subject
    if noun.dep_ == "attr" and noun.head.lemma_ == "be":
        for child in noun.head.children:
            if child.dep_ in labels("subject") and child.i in of_token:
                return of_token[child.i]
    return None


def _title_before(doc: Doc, i: int, cluster: Cluster, of_token: dict[int, Cluster]) -> None:
    """A title or role written right before the name: "Video Star X", "actor X", "Archbishop of Y X"."""
    office = _office_before(doc, i, of_token)
    if office is not None:
        cluster.descriptions.append(doc[office:i].text)
        return
    j = i
    while (
        j > 0
        and not doc[j].is_sent_start
        and doc[j - 1].text[:1].isupper()
        and not doc[j - 1].text.endswith(".")
        and doc[j - 1].pos_ in ("PROPN", "NOUN")
        and doc[j - 1].i not in of_token
    ):
        j -= 1
    if j < i and doc[i - 1].lower_ in PERSON_NOUNS:
        cluster.descriptions.append(doc[j:i].text)
        return
    j = i
    while (
        j > 0
        and doc[j - 1].is_lower
        and (
            j == i
            and doc[j - 1].lower_ in PERSON_NOUNS
            or doc[j - 1].pos_ in ("NOUN", "ADJ")
            and doc[j - 1].dep_ in labels("noun-modifier")
            and doc[j - 1].head.i >= j
        )
    ):
        j -= 1
    if j < i and doc[i - 1].lower_ in PERSON_NOUNS:
        # "actor X", "country singer X": a role written before the name
        cluster.descriptions.append(doc[j:i].text)
        gender = PERSON_NOUNS[doc[i - 1].lower_]
        if gender and cluster.gender is None:
            cluster.gender = gender


def _office_before(doc: Doc, i: int, of_token: dict[int, Cluster]) -> int | None:
    """Where an office "Role of Place" starts right before token ``i`` ("Archbishop of Canterbury X")."""
    j = i
    while j > 1 and doc[j - 1].is_title and doc[j - 1].pos_ == "PROPN" and doc[j - 1].i not in of_token:
        j -= 1
    if j == i or doc[j - 1].lower_ != "of" or j < 2:
        return None
    k = j - 1
    while k > 0 and doc[k - 1].is_title and doc[k - 1].lower_ in PERSON_NOUNS and doc[k - 1].i not in of_token:
        k -= 1
    return k if k < j - 1 else None


def in_office_subject(token: Token) -> bool:
    """A name that is the object of "of" after an office that is the subject:
    "Archbishop of Canterbury Justin Welby praised ..." (the parser makes "Archbishop" the subject)."""
    head = token
    while head.dep_ in ("compound", "flat") and head.head.i != head.i:
        head = head.head
    of = head.head
    return head.dep_ == "pobj" and of.lower_ == "of" and of.head.dep_ in labels("subject") and of.head.is_title \
        and of.head.lower_ in PERSON_NOUNS


def _read_age(doc: Doc, token: Token, cluster: Cluster) -> None:
    if cluster.age is None:
        cluster.age = age_after(doc, token.i)


def age_after(doc: Doc, i: int) -> int | None:
    """An age in commas right after token ``i``: "X, 37," or "the singer, 37."."""
    n = i + 1
    if (
        n + 2 <= len(doc)
        and doc[n].text == ","
        and doc[n + 1].is_digit
        and 0 < int(doc[n + 1].text) < 120
        and (n + 2 == len(doc) or is_mark(doc[n + 2].text, ",.);"))
    ):
        return int(doc[n + 1].text)
    return None


def add_description(cluster: Cluster, span: Span, of_token: dict[int, Cluster]) -> None:
    text = span.text
    if text not in cluster.descriptions:
        cluster.descriptions.append(text)
    cluster.mentions.append((span.start_char, span.end_char))
    for i in range(span.start, span.end):
        of_token[i] = cluster
    age = age_of(text)
    if age is not None and cluster.age is None:
        cluster.age = age
    gender = PERSON_NOUNS.get(span[-1].lower_)
    if gender and cluster.gender is None:
        cluster.gender = gender
    if cluster.kind == "organization" and (span[-1].lower_ in MUSIC_GROUP_NOUNS or span[-1].lower_ == "piece"):
        # "the band", "the trio", "the four-piece": an organisation so described is a music group
        cluster.kind = "group"
    _read_age(span.doc, span[-1], cluster)


def description_end(noun: Token) -> int:
    """Where a description ends: after the noun, or after "of X" for a title ("the Duke of Kent")."""
    if noun.is_title:
        for child in noun.rights:
            if child.dep_ == "prep" and child.lower_ == "of":
                return max(t.i for t in child.subtree) + 1
    return noun.i + 1


def proxy_for(doc: Doc, token: Token, of_token: dict[int, Cluster]) -> Cluster | None:
    """ "a spokesperson for X" / "X's spokesperson": the words are X's.

    A spokesperson named in apposition ("X's spokesman, Ben Tate,") speaks as themselves.
    """
    if any(c.dep_ == "appos" and c.i in of_token and c.pos_ == "PROPN" for c in token.children):
        return None
    for child in token.children:
        if child.dep_ in ("poss", "compound") and child.i in of_token:
            # "X's spokesperson", "an X spokesperson"
            target = of_token[child.i]
            break
        if child.dep_ == "prep" and child.lower_ in ("for", "of"):
            objs = [g for g in child.children if g.dep_ == "pobj" and g.i in of_token]
            if objs:
                target = of_token[objs[0].i]
                break
    else:
        return None
    start = min(t.i for t in token.subtree)
    end = max(t.i for t in token.subtree) + 1
    target.mentions.append((doc[start].idx, doc[end - 1].idx + len(doc[end - 1])))
    for i in range(start, end):
        of_token.setdefault(i, target)
    return target
