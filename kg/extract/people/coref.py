"""Mentions -> entities: people, groups and organisations within one article.

A light, rule-based coreference that the quotation and performance stages lean on:
names are clustered by their parts ("Rivera" joins "Ana Rivera"), then the article is read
in order keeping a salience score per entity (recent subjects weigh most, captions and
quoted words little), and each third-person pronoun or definite description ("the folk
singer", "the 37-year-old", "the 'X' singer") goes to the most salient compatible entity,
unless an apposition or a copula ties it to a name directly.
"""

from __future__ import annotations

from spacy.tokens import Doc, Span, Token

from kg.extract.found import Found
from kg.extract.model import Entity, TextSpan
from kg.extract.people.anaphora import may_refer, resolve_reference
from kg.extract.people.clusters import Cluster, cluster_names
from kg.extract.people.descriptions import (
    description_noun,
    in_office_subject,
    link_appositions,
)
from kg.extract.people.discourse import (
    W_CAPTION,
    W_OTHER,
    W_QUOTED,
    W_SUBJECT,
    Focus,
    Salience,
)
from kg.extract.people.mentions import name_mentions
from kg.extract.text.doc_index import doc_text, doc_tokens, token_words
from kg.extract.text.marks import (
    find_marked_spans,
)

SUBJECT_DEPS = frozenset({"nsubj", "nsubjpass"})
#: Words the cut-off last line of an excerpt has when it is prose rather than a caption.
_CUT_PROSE_WORDS = 8
_SENT_END = frozenset('.!?"”’:)')


def extract_entities(doc: Doc, found: Found) -> tuple[Entity, ...]:
    """People, groups and organisations of ``doc`` with every mention resolved to them.

    Returns:
        Entities in order of first mention; ``mentions`` holds names, pronouns and
        descriptions, so :func:`entity_at` answers "who is 'she' here".
    """
    return read_entities(doc, found)[0]


def read_entities(doc: Doc, found: Found) -> tuple[tuple[Entity, ...], Focus]:
    """:func:`extract_entities`, and the focus the article was read with: for each sentence,
    how salient each entity was once it had been read (the discourse model the stages after
    this one are given as ``Found.focus``)."""
    names = name_mentions(doc, found)
    clusters, of_token = cluster_names(doc, names)
    quoted = _quoted_tokens(doc)
    link_appositions(doc, clusters, of_token, quoted)
    log = _read_in_order(doc, clusters, of_token, quoted)
    entities = _to_entities(doc, clusters)
    key_of = {id(c): e.key for c, e in zip(_ordered(clusters), entities, strict=True)}
    focus = Focus()
    for scores in log:
        focus.record({key_of[id(c)]: v for c, v in scores.items() if id(c) in key_of})
    return entities, focus


def _quoted_tokens(doc: Doc) -> set[int]:
    inside: set[int] = set()
    for span in find_marked_spans(doc_text(doc)):
        chars = doc.char_span(span.start, span.end, alignment_mode="expand")
        if chars is not None:
            inside.update(range(chars.start, chars.end))
    return inside


def _is_caption(sent: Span) -> bool:
    """Headlines, captions and bylines: whole lines that do not end like a sentence.

    The last line of an excerpt cut off mid-sentence is prose all the same.
    """
    last = sent[-1]
    while last.is_space and last.i > sent.start:
        last = sent.doc[last.i - 1]
    if sent.end == len(sent.doc) and sum(t.is_alpha for t in sent) >= _CUT_PROSE_WORDS:
        return False
    if sent.end < len(sent.doc) and "\n" not in last.whitespace_ + "".join(
        t.text for t in sent[last.i - sent.start + 1 :]
    ):
        # the parser cut a line in two (inside a long quotation, or before a capitalised word):
        # a caption or a heading is a whole line
        return False
    return last.text[-1:] not in _SENT_END


def _read_in_order(
    doc: Doc, clusters: list[Cluster], of_token: dict[int, Cluster], quoted: set[int]
) -> list[dict[Cluster, float]]:
    """Walk the article keeping salience, resolving pronouns and descriptions as they come.

    Returns the salience of every entity at the end of each sentence.
    """
    toks = doc_tokens(doc)
    words = token_words(doc)
    focus: Salience[Cluster] = Salience()
    log: list[dict[Cluster, float]] = []
    for sent in doc.sents:
        # quoted speech keeps its speaker in focus: only narration moves the focus on
        focus.next_sentence(narration=not _inside_quotation(sent, quoted))
        caption = _is_caption(sent)
        seen: set[int] = set()
        for token in toks[sent.start : sent.end]:
            cluster = of_token.get(token.i)
            if cluster is not None:
                if id(cluster) not in seen or _subject_like(token):
                    focus.mention(cluster, *_weight(token, caption, quoted))
                    seen.add(id(cluster))
                continue
            if token.i in quoted or caption or not may_refer(words.lower[token.i], words.pos[token.i]):
                continue
            target = resolve_reference(doc, token, clusters, focus, of_token, quoted)
            if target is not None and (id(target) not in seen or _subject_like(token)):
                focus.mention(target, *_weight(token, caption, quoted))
                seen.add(id(target))
        log.append(dict(focus.score))
    return log


def _inside_quotation(sent: Span, quoted: set[int]) -> bool:
    """Whether every word of the sentence is inside quotation marks."""
    return all(t.i in quoted or t.is_punct or t.is_space for t in sent)


def _weight(token: Token, caption: bool, quoted: set[int]) -> tuple[float, bool, bool]:
    """The weight of a mention, whether it is a subject (the centre of its sentence), and
    whether it is the subject of the main clause."""
    if token.i in quoted:
        return W_QUOTED, False, False
    if caption:
        return W_CAPTION, False, False
    # "X and Y said", "the director, X, shrugged": a conjunct or apposition of a subject is one too
    head = token.head if token.dep_ in ("conj", "appos") and token.head.dep_ in SUBJECT_DEPS or _owns_subject(token) else token
    subject = head.dep_ in SUBJECT_DEPS or in_office_subject(token)
    return (W_SUBJECT, True, _of_main_clause(head)) if subject else (W_OTHER, False, False)


def _subject_like(token: Token) -> bool:
    """Whether a mention is a subject, or owns one (see :func:`_owns_subject`)."""
    return token.dep_ in SUBJECT_DEPS or _owns_subject(token)


def _owns_subject(token: Token) -> bool:
    """ "X's set was ...": the owner of a subject that is no person is the sentence's centre (the
    set is X's doing), as "X's mother said" is not X's."""
    return token.dep_ == "poss" and token.head.dep_ in SUBJECT_DEPS and description_noun(token.head) is None


def _of_main_clause(subject: Token) -> bool:
    """Whether ``subject`` belongs to the sentence's main clause, not to a clause inside it
    ("... to make Y answer", "saying Y would", "after Y left").

    The main clause is the root's, a clause joined to it ("X went and said"), or one the parser
    hung on a verb after it ("X weighed in, '...,' he said": X's verb under "said").
    """
    verb = subject.head
    while verb.dep_ != "ROOT":
        if not (verb.dep_ == "conj" or verb.dep_ == "ccomp" and verb.head.i > verb.i):
            return False
        verb = verb.head
    return True


def _ordered(clusters: list[Cluster]) -> list[Cluster]:
    """The clusters that were mentioned, in order of first mention: the order of their keys."""
    return sorted((c for c in clusters if c.mentions), key=lambda c: min(c.mentions))


def _to_entities(doc: Doc, clusters: list[Cluster]) -> tuple[Entity, ...]:
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
                aliases=tuple(c.other_names()),
                descriptions=tuple(dict.fromkeys(c.descriptions)),
                age=c.age,
                mentions=tuple(TextSpan(s, e, text[s:e]) for s, e in spans),
            )
        )
    return tuple(out)
