"""A learned decision: which of the article's people and groups performed a title its clause
gives no act for.

Where the text names no performer for a title ("'A' brought the crowd to its feet", "the
encore was 'B'"), a reader weighs who the paragraph is about, who was named last, who the
show is about, who else the sentence names. Rules for that fitted the articles they were
written on; a logistic model over a handful of such features, trained on the annotated
development articles (:mod:`kg.extract.performances.train_ranker`), weighs them instead. Its
coefficients ship as data (``resources/performer_ranker.json``) and are applied here in plain
Python, so kg needs no learning library at run time.
"""

from __future__ import annotations

import json
import math
from dataclasses import astuple, dataclass, fields
from functools import lru_cache
from importlib import resources

from spacy.tokens import Doc, Span

from kg.extract.model import Entity, entity_at
from kg.extract.performances.agents import char_span, performers_of
from kg.extract.text.doc_index import (
    doc_text,
    sentence_bounds,
    sentence_number,
    verb_above,
)

#: The model file, in the lexicon package beside the word lists.
MODEL_FILE = "performer_ranker.json"
#: How far back (in sentences) the last mention of a candidate still counts.
_BACK = 6
#: How many words after a title a name "by" or "from" it may stand ("'A', sung by X").
_AFTER = 6


@dataclass(frozen=True)
class Candidate:
    """One person or group the article names, as a performer of one title mention."""

    entity: Entity
    features: tuple[float, ...]


@dataclass(frozen=True)
class Features:
    """What the ranker knows of one candidate for one title mention, each a number in 0..1."""

    subject: float  # the entity is the subject (or a guest) of the title's clause
    other_subject: float  # the title's clause names someone else as its subject
    same_sentence: float  # the entity is named in the title's sentence
    sentences_back: float  # how many sentences back it was last named (1 = not within reach)
    named_after: float  # named within a few words after the title ("'A', sung by X")
    focus_top: float  # the most salient entity where the title is named
    focus_share: float  # its salience there, as a share of the most salient one's
    headliner: float  # the act the top of the article names most
    act: float  # the article presents it as an act (verbs of performing, descriptions)
    mentions: float  # how often the article names it (log scale)
    group: float  # a group rather than a person
    only_act: float  # the only act of the article
    last_named: float  # the last person or group named before the title
    paragraph: float  # named earlier in the title's paragraph
    subject_before: float  # the subject of a clause in the title's sentence or the one before it
    owner: float  # the title's possessor ("her hit 'A'", "X's 'A'")


#: The features, in the order of the model's coefficients.
FEATURES = tuple(f.name for f in fields(Features))


@dataclass(frozen=True)
class Model:
    """A logistic model: P(performed) = sigmoid(intercept + coefficients · features)."""

    coefficients: tuple[float, ...]
    intercept: float
    threshold: float

    def probability(self, features: tuple[float, ...]) -> float:
        z = self.intercept + sum(c * f for c, f in zip(self.coefficients, features, strict=True))
        return 1.0 / (1.0 + math.exp(-z))


@lru_cache(maxsize=1)
def load_model() -> Model:
    """The shipped model (trained by :mod:`kg.extract.performances.train_ranker`)."""
    data = json.loads(resources.files("kg.extract.resources").joinpath(MODEL_FILE).read_text(encoding="utf-8"))
    if tuple(data["features"]) != FEATURES:
        raise ValueError(f"{MODEL_FILE}: its features {data['features']} are not kg's {list(FEATURES)}")
    return Model(tuple(data["coefficients"]), data["intercept"], data["threshold"])


def candidates(doc: Doc, span: Span, cast) -> list[Candidate]:  # type: ignore[no-untyped-def]
    """Every person and group of the cast as a performer of the title at ``span``, with features."""
    people = [e for e in cast.entities if e.kind in ("person", "group") and e.key in cast.people]
    if not people:
        return []
    verb = verb_above(span)
    subjects = {e.key for e in performers_of(cast.entities, verb)} if verb is not None else set()
    starts, ends = sentence_bounds(doc)
    sent_start, sent_end = doc[starts[span.start]].idx, doc[ends[span.start] - 1].idx + 1
    number = sentence_number(doc, span.start)
    scores = cast.focus.by_sentence[number] if cast.focus is not None and number < len(cast.focus.by_sentence) else {}
    top = max(scores.values(), default=0.0)
    after = {e.key for t in doc[span.end : span.end + _AFTER] if (e := entity_at(cast.entities, *char_span(t)))}
    last = _last_named(people, span.start_char)
    para_start = _paragraph_start(doc, span)
    before_start = doc[starts[starts[span.start] - 1]].idx if starts[span.start] > 0 else sent_start
    owners = {e.key for c in span.root.children if c.dep_ == "poss" and (e := entity_at(cast.entities, *char_span(c)))}
    acts = [e for e in people if e.key in cast.acts]
    out = []
    for entity in people:
        back = _sentences_back(doc, entity, span)
        features = Features(
            subject=float(entity.key in subjects),
            other_subject=float(bool(subjects) and entity.key not in subjects),
            same_sentence=float(any(sent_start <= m.start < sent_end for m in entity.mentions)),
            sentences_back=back,
            named_after=float(entity.key in after),
            focus_top=float(top > 0 and scores.get(entity.key, 0.0) == top),
            focus_share=scores.get(entity.key, 0.0) / top if top else 0.0,
            headliner=float(entity.key == cast.headliner),
            act=float(entity.key in cast.acts),
            mentions=math.log1p(len(entity.mentions)) / 3,
            group=float(entity.kind == "group"),
            only_act=float(len(acts) == 1 and acts[0].key == entity.key),
            last_named=float(entity.key == last),
            paragraph=float(any(para_start <= m.start < span.start_char for m in entity.mentions)),
            subject_before=float(any(before_start <= m.start < span.start_char and _is_subject(doc, m.start)
                                     for m in entity.mentions)),
            owner=float(entity.key in owners),
        )
        out.append(Candidate(entity, astuple(features)))
    return out


def _sentences_back(doc: Doc, entity: Entity, span: Span) -> float:
    """How many sentences before the title's the entity was last named, as a share of the reach."""
    before = [m.start for m in entity.mentions if m.start < span.start_char]
    if not before:
        return 1.0
    token = doc.char_span(before[-1], before[-1] + 1, alignment_mode="expand")
    if token is None:
        return 1.0
    back = sentence_number(doc, span.start) - sentence_number(doc, token.start)
    return min(back, _BACK) / _BACK


def _paragraph_start(doc: Doc, span: Span) -> int:
    """The character offset where the title's paragraph begins."""
    return doc_text(doc).rfind("\n", 0, span.start_char) + 1


def _is_subject(doc: Doc, char: int) -> bool:
    """Whether the mention starting at a character offset is a clause's subject."""
    token = doc.char_span(char, char + 1, alignment_mode="expand")
    return token is not None and any(t.dep_ in ("nsubj", "nsubjpass") for t in token)


def _last_named(people: list[Entity], before: int) -> str | None:
    """The person or group named last before a character offset."""
    named = [(m.start, e.key) for e in people for m in e.mentions if m.start < before]
    return max(named)[1] if named else None
