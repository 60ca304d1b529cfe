"""Mentions -> entities: people, groups and organisations within one article.

A light, rule-based coreference that the quotation and performance stages lean on:
names are clustered by their parts ("Rivera" joins "Ana Rivera"), then the article is read
in order keeping a salience score per entity (recent subjects weigh most, captions and
quoted words little), and each third-person pronoun or definite description ("the folk
singer", "the 37-year-old", "the 'X' singer") goes to the most salient compatible entity,
unless an apposition or a copula ties it to a name directly.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterable
from dataclasses import dataclass, field

from spacy.tokens import Doc, Span, Token

from kg.extract.cues import (
    GROUP_NOUNS,
    HONORIFICS,
    MUSIC_GROUP_NOUNS,
    ORG_WORDS,
    PERSON_NOUNS,
    PRONOUNS,
    PROXY_NOUNS,
    QUOTE_MARKS,
    find_marked_spans,
    is_mark,
    is_say_verb,
)
from kg.extract.discourse import (
    MIN_SALIENCE,
    W_CAPTION,
    W_OTHER,
    W_QUOTED,
    W_SUBJECT,
    Focus,
    Salience,
)
from kg.extract.gazetteer import given_name_gender
from kg.extract.lexicon import labels, tagged, words
from kg.extract.mentions import NameMention, name_mentions
from kg.extract.model import Entity, TextSpan
from kg.extract.text import doc_text, subject_indices

#: Weight of a mention as subject, as anything else, in a caption or headline, inside a quotation.
#: Below this an entity is too faint to be the antecedent of a pronoun or description.
#: The winner must be this many times as salient as the runner-up.
#: How far left of its head noun a description may start ("the five-time Lantern Award winner").
_MAX_DESC_TOKENS = 8
_SUBJECT_DEPS = frozenset({"nsubj", "nsubjpass"})
#: Words the cut-off last line of an excerpt has when it is prose rather than a caption.
_CUT_PROSE_WORDS = 8
_SENT_END = frozenset('.!?"”’:)')
_AGE_RE = re.compile(r"^(\d{1,3})-year-old$")
_DEFINITE = frozenset({"the"})
_INDEFINITE = frozenset({"a", "an"})
#: Marks that may sit inside a description ("the 'Golden Hour' singer", "the singer-songwriter").
_DESC_MARKS = QUOTE_MARKS + "-–/"


#: Abbreviated titles ("Gov.", "Sen."), and titles that are part of how someone is known ("Lady X").
_TITLE_ABBREVIATIONS = words("title_abbreviations")
_TITLES_IN_NAME = words("name_titles")


@dataclass(eq=False)
class _Cluster:
    kind: str
    names: list[str]
    mentions: list[tuple[int, int]] = field(default_factory=list)
    descriptions: list[str] = field(default_factory=list)
    gender: str | None = None
    age: int | None = None

    def full_name(self) -> str:
        """The fullest name, preferring one not led by a title ("Michael Curry" over "Bishop Curry")."""
        return max(self.names, key=lambda n: (_bare(n) == n or _title_in_name(n), len(n.split()), len(n)))


def extract_entities(doc: Doc) -> tuple[Entity, ...]:
    """People, groups and organisations of ``doc`` with every mention resolved to them.

    Returns:
        Entities in order of first mention; ``mentions`` holds names, pronouns and
        descriptions, so :func:`entity_at` answers "who is 'she' here".
    """
    return read_entities(doc)[0]


def read_entities(doc: Doc) -> tuple[tuple[Entity, ...], Focus]:
    """:func:`extract_entities`, and the focus the article was read with: for each sentence,
    how salient each entity was once it had been read (the ``kg_coref`` component keeps it as
    ``doc._.focus`` for the stages that ask who is in focus)."""
    names = name_mentions(doc)
    clusters, of_token = _cluster_names(doc, names)
    quoted = _quoted_tokens(doc)
    _link_appositions(doc, clusters, of_token, quoted)
    log = _read_in_order(doc, clusters, of_token, quoted)
    entities = _to_entities(doc, clusters)
    key_of = {id(c): e.key for c, e in zip(_ordered(clusters), entities, strict=True)}
    focus = Focus()
    for scores in log:
        focus.record({key_of[id(c)]: v for c, v in scores.items() if id(c) in key_of})
    return entities, focus


def entity_at(entities: Iterable[Entity], start: int, end: int) -> Entity | None:
    """The entity one of whose mentions overlaps the characters ``start:end``, if any.

    This is how later stages ask "who is 'she' (or 'the folk singer') here": coreference
    records every resolved mention, pronouns and descriptions included. The tightest
    mention wins when several overlap.
    """
    best: tuple[int, Entity] | None = None
    for entity in entities:
        for m in entity.mentions:
            if m.start < end and start < m.end and (best is None or m.end - m.start < best[0]):
                best = (m.end - m.start, entity)
    return best[1] if best else None


def _cluster_names(doc: Doc, names: list[NameMention]) -> tuple[list[_Cluster], dict[int, _Cluster]]:
    """Group name mentions: longer names first, then shorter ones join the name they are part of."""
    clusters: list[_Cluster] = []
    by_name: dict[str, _Cluster] = {}
    for m in sorted(names, key=lambda m: (-len(_bare(m.text).split()), m.start)):
        key = _bare(m.text).lower()
        if not key:
            # a title alone ("Sir") names nobody
            continue
        cluster = by_name.get(key) or _containing(doc, clusters, m)
        if cluster is None:
            cluster = _Cluster(kind=m.kind, names=[])
            clusters.append(cluster)
        by_name[key] = cluster
        if m.text not in cluster.names:
            cluster.names.append(m.text)
        if m.honorific and cluster.gender is None:
            cluster.gender = HONORIFICS.get(m.honorific)
    of_token: dict[int, _Cluster] = {}
    for m in names:
        cluster = by_name.get(_bare(m.text).lower())
        if cluster is None:
            continue
        cluster.mentions.append((doc[m.start].idx, doc[m.end - 1].idx + len(doc[m.end - 1])))
        for i in range(m.start, m.end):
            of_token[i] = cluster
    for cluster in clusters:
        first = cluster.full_name().split()[0].lower()
        if cluster.gender is None and first in HONORIFICS:
            # "Lady X", "Sir Y": the title is part of the name and tells the gender
            cluster.gender = HONORIFICS[first]
        elif cluster.gender is None and cluster.kind == "person" and len(cluster.full_name().split()) > 1:
            # a common given name tells the gender of a full name
            cluster.gender = given_name_gender(first)
    return clusters, of_token


def _containing(doc: Doc, clusters: list[_Cluster], m: NameMention) -> _Cluster | None:
    """The one cluster whose longer name has ``m`` as its last words (surname), else first words.

    Titles are left out on both sides ("Bishop Curry" joins "Michael Curry"); a name never
    joins a person it is coordinated with ("President Obama and first lady Michelle Obama"
    are two people).
    """
    words = _bare(m.text).lower().split()
    beside = _names_beside(doc, m)
    for side in (-1, 1):
        hits = []
        for c in clusters:
            if c.kind != m.kind and m.kind != "person" or beside.intersection(c.names):
                continue
            for name in c.names:
                parts = _bare(name).lower().split()
                if (
                    len(parts) > len(words)
                    and (parts[-len(words) :] if side < 0 else parts[: len(words)]) == words
                ):
                    hits.append(c)
                    break
        if len(hits) == 1:
            return hits[0]
        if hits:
            # two people share the part: ambiguous, keep it apart rather than guess
            return None
    return None


def _title_word(word: str) -> bool:
    """A title or role written before a name: "Mr", "Sir", "Gov.", "Bishop", "President"."""
    low = word.lower()
    return low in HONORIFICS or low in _TITLE_ABBREVIATIONS or word[:1].isupper() and low in PERSON_NOUNS


def _bare(name: str) -> str:
    """``name`` without the titles it starts with ("Archbishop Justin Welby" -> "Justin Welby").

    >>> _bare("Sir Bryn Terfel"), _bare("Sir")
    ('Bryn Terfel', '')
    """
    words = name.split()
    while words and _title_word(words[0]):
        words = words[1:]
    return " ".join(words)


def _title_in_name(name: str) -> bool:
    """A title that is part of how the person is known ("Lady X", "Prince Y", "Pope Z")."""
    first = name.split()[0].lower() if name.split() else ""
    return first in _TITLES_IN_NAME and bool(_bare(name))


def _names_beside(doc: Doc, m: NameMention) -> frozenset[str]:
    """The names coordinated with ``m`` ("X and Y", "X, Y and Z"): never the same person as ``m``."""
    root = doc[m.start : m.end].root
    linked = {c.i for c in root.children if c.dep_ == "conj"} | ({root.head.i} if root.dep_ == "conj" else set())
    return frozenset(e.text for e in doc.ents if any(e.start <= i < e.end for i in linked))


def _quoted_tokens(doc: Doc) -> set[int]:
    inside: set[int] = set()
    for span in find_marked_spans(doc_text(doc)):
        chars = doc.char_span(span.start, span.end, alignment_mode="expand")
        if chars is not None:
            inside.update(range(chars.start, chars.end))
    return inside


def _description_start(doc: Doc, noun: Token) -> int | None:
    """First token of a description ending at ``noun`` ("the 'X' singer"), or None if not definite."""
    i = noun.i - 1
    while i >= 0 and noun.i - i <= _MAX_DESC_TOKENS:
        t = doc[i]
        if t.lower_ in _DEFINITE:
            return i
        if t.lower_ in _INDEFINITE and not (t.is_title and i > 0 and doc[i - 1].lower_ in _DEFINITE):
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


def _description_noun(token: Token) -> str | None:
    """'person', 'group' or 'proxy' if ``token`` heads a description of that kind."""
    lower = token.lower_
    doc = token.doc
    the_title = token.is_title and token.i > 0 and doc[token.i - 1].lower_ in _DEFINITE
    if token.pos_ not in labels("nominal") or not (token.is_lower or token.is_sent_start or the_title):
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
_AGENT_ENDINGS = ("er", "or", "ist", "ian", "ent", "ant")


def _speaking_agent(token: Token) -> bool:
    """An agent noun that is the subject of a verb of saying: "said the political commentator",
    "added the Chambersburg resident". Whoever speaks is a person, whatever the noun."""
    return (
        token.tag_ == "NN"
        and len(token.text) > 4
        and token.lower_.endswith(_AGENT_ENDINGS)
        and token.dep_ in labels("speaker-object")
        and is_say_verb(token.head)
    )


def _year_old(token: Token) -> bool:
    doc = token.doc
    return token.i >= 4 and doc[token.i - 2].lower_ == "year" and doc[token.i - 4].like_num


def _age_of(text: str) -> int | None:
    match = re.search(r"(\d{1,3})\s*-\s*year\s*-\s*old", text)
    return int(match.group(1)) if match else None


def _link_appositions(
    doc: Doc, clusters: list[_Cluster], of_token: dict[int, _Cluster], quoted: set[int]
) -> None:
    """Descriptions tied to a name by the grammar: "X, the singer," / "the singer X" / "X is a singer".

    Also reads ages given after a name or description ("X, 37,").
    """
    for token in doc:
        if token.i in quoted:
            continue
        cluster = of_token.get(token.i)
        if cluster is not None:
            _read_age(doc, token, cluster)
            # "Video Star X": capitalised descriptive words before the name
            if token.i > 0 and token.i - 1 not in of_token and cluster.kind == "person":
                _title_before(doc, token.i, cluster, of_token)
            continue
        kind = _description_noun(token)
        if kind != "person":
            continue
        target = _apposed_name(token, of_token)
        if target is not None:
            start = _description_start(doc, token)
            span = doc[start if start is not None else token.i : token.i + 1]
            _add_description(target, span, of_token)


def _apposed_name(noun: Token, of_token: dict[int, _Cluster]) -> _Cluster | None:
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
            if child.dep_ in _SUBJECT_DEPS and child.i in of_token:
                return of_token[child.i]
    return None


def _title_before(doc: Doc, i: int, cluster: _Cluster, of_token: dict[int, _Cluster]) -> None:
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


def _office_before(doc: Doc, i: int, of_token: dict[int, _Cluster]) -> int | None:
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


def _in_office_subject(token: Token) -> bool:
    """A name that is the object of "of" after an office that is the subject:
    "Archbishop of Canterbury Justin Welby praised ..." (the parser makes "Archbishop" the subject)."""
    head = token
    while head.dep_ in ("compound", "flat") and head.head.i != head.i:
        head = head.head
    of = head.head
    return head.dep_ == "pobj" and of.lower_ == "of" and of.head.dep_ in _SUBJECT_DEPS and of.head.is_title \
        and of.head.lower_ in PERSON_NOUNS


def _read_age(doc: Doc, token: Token, cluster: _Cluster) -> None:
    if cluster.age is None:
        cluster.age = _age_after(doc, token.i)


def _age_after(doc: Doc, i: int) -> int | None:
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


def _add_description(cluster: _Cluster, span: Span, of_token: dict[int, _Cluster]) -> None:
    text = span.text
    if text not in cluster.descriptions:
        cluster.descriptions.append(text)
    cluster.mentions.append((span.start_char, span.end_char))
    for i in range(span.start, span.end):
        of_token[i] = cluster
    age = _age_of(text)
    if age is not None and cluster.age is None:
        cluster.age = age
    gender = PERSON_NOUNS.get(span[-1].lower_)
    if gender and cluster.gender is None:
        cluster.gender = gender
    if cluster.kind == "organization" and (span[-1].lower_ in MUSIC_GROUP_NOUNS or span[-1].lower_ == "piece"):
        # "the band", "the trio", "the four-piece": an organisation so described is a music group
        cluster.kind = "group"
    _read_age(span.doc, span[-1], cluster)


def _is_caption(sent: Span) -> bool:
    """Headlines, captions and bylines: lines that do not end like a sentence.

    The last line of an excerpt cut off mid-sentence is prose all the same.
    """
    last = sent[-1]
    while last.is_space and last.i > sent.start:
        last = sent.doc[last.i - 1]
    if sent.end == len(sent.doc) and sum(t.is_alpha for t in sent) >= _CUT_PROSE_WORDS:
        return False
    return last.text[-1:] not in _SENT_END


def _read_in_order(
    doc: Doc, clusters: list[_Cluster], of_token: dict[int, _Cluster], quoted: set[int]
) -> list[dict[_Cluster, float]]:
    """Walk the article keeping salience, resolving pronouns and descriptions as they come.

    Returns the salience of every entity at the end of each sentence.
    """
    focus: Salience[_Cluster] = Salience()
    log: list[dict[_Cluster, float]] = []
    for sent in doc.sents:
        # quoted speech keeps its speaker in focus: only narration moves the focus on
        focus.next_sentence(narration=not _inside_quotation(sent, quoted))
        caption = _is_caption(sent)
        seen: set[int] = set()
        for token in sent:
            cluster = of_token.get(token.i)
            if cluster is not None:
                if id(cluster) not in seen or token.dep_ in _SUBJECT_DEPS:
                    focus.mention(cluster, *_weight(token, caption, quoted))
                    seen.add(id(cluster))
                continue
            if token.i in quoted or caption:
                continue
            target = _resolve(doc, token, clusters, focus, of_token)
            if target is not None and (id(target) not in seen or token.dep_ in _SUBJECT_DEPS):
                focus.mention(target, *_weight(token, caption, quoted))
                seen.add(id(target))
        log.append(dict(focus.score))
    return log


def _inside_quotation(sent: Span, quoted: set[int]) -> bool:
    """Whether every word of the sentence is inside quotation marks."""
    return all(t.i in quoted or t.is_punct or t.is_space for t in sent)


def _weight(token: Token, caption: bool, quoted: set[int]) -> tuple[float, bool]:
    """The weight of a mention, and whether it is a subject (the centre of its sentence)."""
    if token.i in quoted:
        return W_QUOTED, False
    if caption:
        return W_CAPTION, False
    # "X and Y said", "the director, X, shrugged": a conjunct or apposition of a subject is one too
    subject = token.dep_ in _SUBJECT_DEPS or (
        token.dep_ in ("conj", "appos") and token.head.dep_ in _SUBJECT_DEPS
    ) or _in_office_subject(token)
    return (W_SUBJECT, True) if subject else (W_OTHER, False)


def _resolve(
    doc: Doc, token: Token, clusters: list[_Cluster], focus: Salience[_Cluster], of_token: dict[int, _Cluster]
) -> _Cluster | None:
    """Resolve a pronoun or description at ``token`` and record it; None if it is neither or unresolved."""
    gender = PRONOUNS.get(token.lower_) if token.pos_ == "PRON" or token.tag_ in ("PRP", "PRP$") else None
    if token.lower_ == "it" and token.dep_ == "nsubj" and is_say_verb(token.head):
        # "it added": only an organisation says things as "it"
        gender = "p"
    if gender is not None:
        kinds = ("group", "organization") if gender == "p" else ("person",)
        target = _most_salient(
            clusters, focus, kinds, None if gender == "p" else gender, _clause_subject(token, of_token)
        )
        if target is not None and gender != "p" and _unknown_subject_before(doc, token, of_token, target):
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
    kind = _description_noun(token)
    if kind is None:
        return None
    if kind == "proxy":
        return _proxy_for(doc, token, of_token)
    start = _description_start(doc, token)
    if (
        start is None
        or token.i + 1 < len(doc)
        and doc[token.i + 1].pos_ == "PROPN"
        and (doc[token.i + 1].i in of_token or doc[token.i + 1].text[:1].isupper())
    ):
        # indefinite ("a singer") or a title before a name ("the singer X"): not an anaphor
        return None
    kinds = ("person",) if kind == "person" else ("group", "organization")
    age = _age_of(doc[start : token.i + 1].text) or _age_after(doc, token.i)
    gender = PERSON_NOUNS.get(token.lower_)
    subject = _sentence_subject(token, of_token)
    target = (
        _holder_of(clusters, doc[token.i : _description_end(token)].text)
        or _described_before(clusters, focus, token, kinds, age)
        # "the 'Golden Hour' singer": whoever the article has release or sing that title
        or (_performer_of_title(doc, doc[start : token.i], of_token) if kind == "person" else None)
        # "the band" is a music group before it is a label; "the label" an organisation first
        or (_band_like(_most_salient(clusters, focus, ("group", "organization"), None, subject))
            if token.lower_ in MUSIC_GROUP_NOUNS else None)
        or (_most_salient(clusters, focus, ("group",), None, subject) if token.lower_ in MUSIC_GROUP_NOUNS else None)
        or (_only_group(clusters, focus) if token.lower_ in MUSIC_GROUP_NOUNS else None)
        or (
            _most_salient(clusters, focus, ("organization",), None, subject)
            if kind == "group" and token.lower_ not in MUSIC_GROUP_NOUNS
            else None
        )
        or _most_salient(clusters, focus, kinds, gender, subject, age)
        or (_only_group(clusters, focus) if kind == "group" else None)
    )
    if (
        target is None
        and kind == "person"
        and token.dep_ in _SUBJECT_DEPS
        and not _candidates(clusters, focus, kinds, gender, None)
    ):
        # a lede that names its subject a sentence late: "The singer, 45, told ... . Ana Rivera ..."
        target = _named_next(doc, token, kinds, gender, of_token, age)
    if target is not None:
        _add_description(target, doc[start : _description_end(token)], of_token)
    return target


#: Verbs whose subject made or performed the title that is their object.
_MAKE_VERBS = tagged("making_verbs", "maker")


def _performer_of_title(doc: Doc, words: Span, of_token: dict[int, _Cluster]) -> _Cluster | None:
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


def _band_like(cluster: _Cluster | None) -> _Cluster | None:
    """The cluster, if "the band" may be it: a group, or an organisation with a plural name
    ("The Copper Kites" read as a company until called a band), not "Harbor Records"."""
    if cluster is None:
        return None
    last = cluster.full_name().split()[-1]
    return cluster if cluster.kind == "group" or last.endswith("s") and last not in ORG_WORDS else None


def _only_group(clusters: list[_Cluster], focus: Salience[_Cluster]) -> _Cluster | None:
    """The one music group named so far: "the band" a few paragraphs on can be no other."""
    groups = [c for c in clusters if c.kind == "group" and focus.of(c) > 0]
    return groups[0] if len(groups) == 1 else None


def _holder_of(clusters: list[_Cluster], office: str) -> _Cluster | None:
    """The one entity earlier given the office "X of Y" now named again ("the Archbishop of Canterbury")."""
    if " of " not in office:
        return None
    hits = [c for c in clusters if any(d.lower() == office.lower() for d in c.descriptions)]
    return hits[0] if len(hits) == 1 else None


def _described_before(
    clusters: list[_Cluster], focus: Salience[_Cluster], noun: Token, kinds: tuple[str, ...], age: int | None
) -> _Cluster | None:
    """The one recent entity already described with the same noun ("the singer" again), of
    the age the description gives, if it gives one ("The singer-songwriter, 30,")."""
    hits = [
        c
        for c in clusters
        if c.kind in kinds
        and focus.of(c) >= MIN_SALIENCE / 4
        and (age is None or c.age is None or c.age == age)
        and any(
            d.split()[-1].lower() == noun.lower_ and (d.split()[0].lower() in _DEFINITE or d.islower())
            for d in c.descriptions
        )
    ]
    return hits[0] if len(hits) == 1 else None


def _description_end(noun: Token) -> int:
    """Where a description ends: after the noun, or after "of X" for a title ("the Duke of Kent")."""
    if noun.is_title:
        for child in noun.rights:
            if child.dep_ == "prep" and child.lower_ == "of":
                return max(t.i for t in child.subtree) + 1
    return noun.i + 1


def _proxy_for(doc: Doc, token: Token, of_token: dict[int, _Cluster]) -> _Cluster | None:
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


def _sentence_subject(token: Token, of_token: dict[int, _Cluster]) -> _Cluster | None:
    """The entity that is a subject earlier in the sentence of a description that is an object.

    "X came to the defense of Y after a post with the influencer": a description in
    object position rarely names the sentence's own subject; a possessive one may.
    """
    if token.dep_ in _SUBJECT_DEPS or token.dep_ == "poss":
        return None
    doc = token.doc
    i = token.i
    while i > 0 and not doc[i].is_sent_start:
        # back to the sentence start (``token.sent`` rebuilds every sentence on each call)
        i -= 1
    for t in doc[i : token.i]:
        if t.dep_ in _SUBJECT_DEPS and t.i in of_token:
            return of_token[t.i]
    return None


def _clause_subject(token: Token, of_token: dict[int, _Cluster]) -> _Cluster | None:
    """The entity that is the subject of the clause where ``token`` is an object: it can't be both."""
    if token.dep_ in _SUBJECT_DEPS or token.dep_ == "poss" or token.tag_ == "PRP$":
        return None
    head = token.head
    if token.dep_ == "pobj":
        head = head.head
    for child in head.children:
        if child.dep_ in _SUBJECT_DEPS and child.i in of_token and child.i < token.i:
            return of_token[child.i]
    return None


def _candidates(
    clusters: list[_Cluster],
    focus: Salience[_Cluster],
    kinds: tuple[str, ...],
    gender: str | None,
    exclude: _Cluster | None,
    age: int | None = None,
) -> list[_Cluster]:
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
    of_token: dict[int, _Cluster],
    age: int | None = None,
) -> _Cluster | None:
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
            subject = t.dep_ in _SUBJECT_DEPS or (t.dep_ == "compound" and t.head.dep_ in _SUBJECT_DEPS)
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


def _unknown_subject_before(doc: Doc, token: Token, of_token: dict[int, _Cluster], target: _Cluster) -> bool:
    """Whether an unrecognised proper-noun subject stands between ``target``'s last mention and ``token``.

    Only the pronoun's sentence and the one before are read.
    """
    starts = 0
    i = token.i - 1
    while i >= 0 and starts < 2:
        t = doc[i]
        if of_token.get(t.i) is target:
            return False
        if (
            t.dep_ in _SUBJECT_DEPS
            and t.pos_ == "PROPN"
            and t.is_title
            and t.i not in of_token
            and t.ent_type_ in ("PERSON", "")
            and t.lower_ not in PERSON_NOUNS
            and t.lower_ not in GROUP_NOUNS
        ):
            return True
        if t.is_sent_start:
            starts += 1
        i -= 1
    return False


#: How far back a pronoun looks for an unnamed person before looking ahead for a name.
_LOOK_BACK = 200


def _unnamed_subject_before(doc: Doc, token: Token, of_token: dict[int, _Cluster]) -> bool:
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
    clusters: list[_Cluster],
    focus: Salience[_Cluster],
    kinds: tuple[str, ...],
    gender: str | None,
    exclude: _Cluster | None,
    age: int | None = None,
) -> _Cluster | None:
    """The most salient compatible entity, or None when a rival comes too close to call
    (unless only one of them was the last sentence's subject: see :class:`Salience`).

    An age in the description ("the 29-year-old") rules out anyone of another known age.
    """
    return focus.pick(_candidates(clusters, focus, kinds, gender, exclude, age))


def _ordered(clusters: list[_Cluster]) -> list[_Cluster]:
    """The clusters that were mentioned, in order of first mention: the order of their keys."""
    return sorted((c for c in clusters if c.mentions), key=lambda c: min(c.mentions))


def _to_entities(doc: Doc, clusters: list[_Cluster]) -> tuple[Entity, ...]:
    text = doc_text(doc)
    ordered = _ordered(clusters)
    counters: dict[str, int] = {}
    out = []
    for c in ordered:
        counters[c.kind] = counters.get(c.kind, 0) + 1
        name = c.full_name()
        spans = sorted(set(c.mentions))
        out.append(
            Entity(
                key=f"{c.kind}:{counters[c.kind]}",
                kind=c.kind,
                name=name,
                aliases=tuple(n for n in c.names if n != name),
                descriptions=tuple(dict.fromkeys(c.descriptions)),
                age=c.age,
                mentions=tuple(TextSpan(s, e, text[s:e]) for s, e in spans),
            )
        )
    return tuple(out)
