"""The speaker sieves: who said each quotation, decided in order, each sieve taking only
what the sieves before it left open.

The first sieves read the quotation's own cue (its verb of saying and that verb's
subject); the next read the lines around a quotation that has none (a headline's colon,
a sentence that sets the words up); the last carry a speaker over to quotations that go
on from an attributed one. A quotation no sieve decides keeps no speaker: nothing is
guessed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from spacy.tokens import Doc, Token

from kg.extract.model import Entity
from kg.extract.people.discourse import Focus
from kg.extract.quotes.candidates import (
    Candidate,
    after_colon,
    content_words,
    own_right,
    verb_in_cue_place,
)
from kg.extract.quotes.fragments import FRAGMENT_HOLDER, by_fragment_holder
from kg.extract.quotes.gaps import clear_gap, token_entity
from kg.extract.sieves import Sieve, sieve
from kg.extract.text.doc_index import sentence_bounds, sentence_number
from kg.extract.text.lexicon import labels, words
from kg.extract.text.marks import (
    HONORIFICS,
    STATEMENT_NOUNS,
    is_dash,
    is_mark,
    is_say_verb,
)

#: Dependencies that join a title to the name it stands for.
_NAME_LINKS = labels("name-link")
#: Finite verb tags: a headline fragment before a colon has none.
_FINITE = labels("finite")
#: Words of names that say nothing about who is named ("The Band", "Lady X").
_NOT_NAMES = frozenset(HONORIFICS) | {"the", "and"}
#: Verbs of a sentence that sets up the quotation after it ("X opened up about ...").
_SET_UP_VERBS = words("setup_verbs")


@dataclass
class QuoteContext:
    """What the sieves read besides the candidate: the Doc, its entities, the other candidates."""

    doc: Doc
    text: str
    entities: tuple[Entity, ...]
    in_quote: set[int]
    candidates: list[Candidate]
    focus: Focus | None = None


# -- the quotation's own cue -------------------------------------------------------------

CUE_NAME = sieve(
    "quote.cue-name",
    "the subject of the quotation's verb of saying, a name",
    '"We played it loud," Ana Rivera said. → Ana Rivera',
    0.97,
)
CUE_RESOLVED = sieve(
    "quote.cue-resolved",
    "the subject of the quotation's verb of saying, a pronoun or description resolved by coreference",
    '"It was loud," the singer added. → the singer named before',
    0.94,
)


def _cue_speaker(ctx: QuoteContext, cand: Candidate) -> tuple[Token, Entity] | None:
    """The cue's subject and the entity it stands for, when the sieves may take it."""
    if cand.cue is None or cand.cue.speaker is None:
        return None
    subject = cand.cue.speaker
    entity = token_entity(ctx, subject)
    if entity is None:
        # "Majority Leader X said", "her brother and collaborator X said": the name in the title
        subject, entity = _named_in(ctx, subject)
    if entity is None:
        entity = _person_named_by(ctx, subject)
    if entity is None or is_dash(cand.cue.text) and entity.kind != "person":
        # (a dash signs a quotation by a person; after a newspaper's name it cites a headline)
        return None
    if not _is_name(subject, entity) and _named_inside(ctx, cand, entity):
        # "the nominee" resolved to Reid, but the words say "Then I met Reid": someone else
        return None
    return subject, entity


def _by_cue_name(ctx: QuoteContext, i: int, cand: Candidate) -> Entity | None:
    found = _cue_speaker(ctx, cand)
    return found[1] if found is not None and _is_name(*found) else None


def _by_cue_resolved(ctx: QuoteContext, i: int, cand: Candidate) -> Entity | None:
    found = _cue_speaker(ctx, cand)
    return found[1] if found is not None and not _is_name(*found) else None


def _name_words(entity: Entity) -> set[str]:
    return {w for name in (entity.name, *entity.aliases) for w in name.split()}


def _is_name(token: Token, entity: Entity) -> bool:
    """Whether ``token`` names ``entity`` rather than describes it: a proper noun, or a
    capitalised word of the entity's name that the small model tagged as a common noun."""
    return token.pos_ == "PROPN" or token.is_title and token.text in _name_words(entity)


def _person_named_by(ctx: QuoteContext, token: Token) -> Entity | None:
    """The one person a capitalised subject names by a word of their name, where the model
    left that mention untagged ('"...," Quinlan told the panel' after "Mara Quinlan"; the
    parser reads an unknown surname after "said" as an adverb)."""
    if not token.is_title or token.pos_ not in ("PROPN", "NOUN", "ADV") or token.i in ctx.in_quote:
        return None
    named = [e for e in ctx.entities if e.kind == "person" and token.text in _name_words(e)]
    return named[0] if len(named) == 1 else None


def _named_in(ctx: QuoteContext, subject: Token) -> tuple[Token, Entity | None]:
    """A name joined to a title subject by apposition, compound or conjunction, never by "of"."""
    described = any(c.dep_ == "det" for c in subject.children)
    todo = list(subject.children)
    while todo:
        t = todo.pop(0)
        if t.dep_ not in _NAME_LINKS or (described and t.dep_ == "compound" and t.i < subject.i):
            # "the Grammy winner", "the Labour leader": a name inside a description is not the speaker
            continue
        entity = token_entity(ctx, t)
        if entity is not None:
            return t, entity
        todo.extend(t.children)
    return subject, None


def _named_inside(ctx: QuoteContext, cand: Candidate, entity: Entity) -> bool:
    """Whether the quotation names ``entity``, a person, by a word of one of its names.

    People seldom name themselves; organisations do ("the Acme family"), so they may. A word
    of a name of someone else ("Tomas Quinlan" in Mara Quinlan's words, "the Quinlan
    Foundation" in hers) does not count.
    """
    if entity.kind != "person":
        return False
    parts = {p for name in (entity.name, *entity.aliases) for p in name.split() if len(p) > 2 and p.lower() not in _NOT_NAMES}
    # (a name modifying a noun, "at an X show", names a brand or an event, not someone spoken about)
    return any(
        t.text in parts and t.is_title and not (t.dep_ == "compound" and t.head.pos_ == "NOUN")
        and token_entity(ctx, t) in (None, entity)
        for t in cand.content
    )


VERB_PLACE = sieve(
    "quote.verb-place",
    "the subject of any verb standing where a cue would (right after words whose sentence goes on, "
    "or ending the clause right before them), a person or group",
    '"Not yet," Ana Rivera smirked. → Ana Rivera',
    0.85,
)


def _by_verb_place(ctx: QuoteContext, i: int, cand: Candidate) -> Entity | None:
    if cand.cue is not None:
        return None
    subject = verb_in_cue_place(cand, ctx.in_quote)
    if subject is None:
        return None
    entity = token_entity(ctx, subject) or _person_named_by(ctx, subject)
    if entity is None or entity.kind not in ("person", "group") or _named_inside(ctx, cand, entity):
        return None
    return entity


# -- the lines around a quotation without a cue -------------------------------------------

HEADLINE_COLON = sieve(
    "quote.headline-colon",
    "the one person named before a colon in a line with no verb (a headline)",
    "Ana Rivera on the tour: 'We played it loud' → Ana Rivera",
    0.6,
)
CLAUSE_COLON = sieve(
    "quote.clause-colon",
    "the subject of the clause a colon ends",
    "Rivera was less convinced: 'Not yet.' → Rivera",
    0.7,
)
SET_UP = sieve(
    "quote.set-up",
    "the one subject of the sentence before, which sets the words up (a copula with an adjective, "
    "a verb of speaking or of issuing a statement)",
    'Rivera was blunt. "We are done." → Rivera',
    0.67,
)


def _by_headline_colon(ctx: QuoteContext, i: int, cand: Candidate) -> Entity | None:
    if cand.cue is not None or not after_colon(cand) or any(t.tag_ in _FINITE for t in cand.left):
        return None
    found = {e.key: e for t in cand.left if (e := token_entity(ctx, t)) is not None and e.kind == "person"}
    return next(iter(found.values())) if len(found) == 1 else None


def _by_clause_colon(ctx: QuoteContext, i: int, cand: Candidate) -> Entity | None:
    if cand.cue is not None or not after_colon(cand):
        return None
    verbs = [t for t in cand.left if t.tag_ in _FINITE]
    if not verbs:
        return None
    # the main clause first: its top verb is the one whose head lies outside the words before the
    # colon (the parser often hangs it off the quotation's verb): "X later regretted the way the
    # vote went:" is X's, not the vote's; a verb joined by "and" speaks for its head's subject
    inside = {t.i for t in cand.left}
    tops = [t for t in cand.left if t.pos_ in ("VERB", "AUX") and (t.head.i == t.i or t.head.i not in inside)]
    main = tops[-1] if tops else verbs[-1]
    while main.dep_ == "conj" and not _subjects(main) and main.head.i not in ctx.in_quote:
        main = main.head
    for verb in (main, verbs[-1]):
        subjects = _subjects(verb)
        entity = token_entity(ctx, subjects[0]) if len(subjects) == 1 else None
        if entity is not None and entity.kind == "person":
            return entity
    return None


def _subjects(verb: Token) -> list[Token]:
    return [c for c in verb.children if c.dep_ in labels("subject") and c.i < verb.i]


def _by_set_up(ctx: QuoteContext, i: int, cand: Candidate) -> Entity | None:
    """The sentence must hold no quotation and have one active subject (not "Police were called")."""
    if cand.cue is not None:
        return None
    doc = ctx.doc
    opening = doc.char_span(cand.mark.open_at, cand.mark.open_at + 1, alignment_mode="expand")
    if opening is None or cand.left or any(is_say_verb(t) for t in own_right(cand)):
        # words before the mark in its own sentence, or a cue after it that named nobody
        # ('"...!" the poster read'): not words the sentence before sets up
        return None
    j = opening.start - 1
    while j >= 0 and doc[j].is_space:
        j -= 1
    if j < 0 or not is_mark(doc[j].text, ".!:") or j in ctx.in_quote:
        return None
    end = j
    while j > 0 and not doc[j].is_sent_start and j - 1 not in ctx.in_quote:
        j -= 1
    if j - 1 in ctx.in_quote or (j > 0 and not doc[j].is_sent_start):
        return None
    root = next((t for t in doc[j:end] if t.dep_ == "ROOT"), None)
    if root is None or not (
        root.lemma_ == "be" and any(c.dep_ == "acomp" for c in root.children)
        or root.lemma_ in _SET_UP_VERBS
        or is_say_verb(root) and root.pos_ == "VERB"
        # "X issued a statement regarding ...", "X released a video"
        or any(c.dep_ == "dobj" and c.lemma_.lower() in STATEMENT_NOUNS for c in root.children)
    ):
        return None
    subjects = [c for c in root.children if c.dep_ == "nsubj"]
    entity = token_entity(ctx, subjects[0]) if len(subjects) == 1 else None
    return entity if entity is not None and not _named_inside(ctx, cand, entity) else None


# -- quotations that go on from an attributed one -----------------------------------------

PARAGRAPHS = sieve(
    "quote.paragraphs",
    "the speaker of another paragraph of the same quotation (each paragraph opens with a mark, only the last closes)",
    '"We played it loud. ¶ "And we will again," Rivera said. → Rivera for both',
    0.67,
)
CONTINUATION = sieve(
    "quote.continuation",
    "the previous quotation's speaker, when only short narration naming nobody else lies between",
    '"We played it loud," Rivera said. "The crowd knew every word." → Rivera',
    0.96,
)


def _by_paragraphs(ctx: QuoteContext, i: int, cand: Candidate) -> Entity | None:
    return next(
        (c.speaker for c in ctx.candidates if c is not cand and c.mark.group == cand.mark.group and c.speaker),
        None,
    )


def _by_continuation(ctx: QuoteContext, i: int, cand: Candidate) -> Entity | None:
    prev = ctx.candidates[i - 1] if i > 0 else None
    if cand.cue is not None or prev is None or prev.speaker is None:
        return None
    if clear_gap(ctx, prev, cand) and not _named_inside(ctx, cand, prev.speaker):
        return prev.speaker
    return None


FOCUS = sieve(
    "quote.focus",
    "the one person in focus for a quotation that stands alone, with no cue, where no quotation "
    "before it could be continued (a performer's words to the crowd in a review)",
    "Rivera sat at the piano for the encore. ¶ \"This one is for my mother.\" → Rivera",
    0.75,
)


def _by_focus(ctx: QuoteContext, i: int, cand: Candidate) -> Entity | None:
    if cand.cue is not None or content_words(cand.left) or ctx.focus is None or any(is_say_verb(t) for t in own_right(cand)):
        # ('"See you there!" the poster read': a cue that names no one is no gap to fill)
        return None
    first = cand.content.text.lstrip(" ¡¿'\"‘“")[:1]
    if not first.isupper():
        # a partial quotation inside narration ("had 'two or three offers' a year") is no one's in particular
        return None
    before = sentence_number(ctx.doc, cand.content.start) - 1
    kinds = {e.key: e for e in ctx.entities}
    key = ctx.focus.most_salient(before, lambda k: kinds[k].kind == "person")
    entity = kinds.get(key) if key is not None else None
    if entity is None or _named_inside(ctx, cand, entity) or _holds_a_named_cue(cand):
        return None
    before_words = _sentence_before(ctx.doc, cand)
    speaking = [t for t in before_words if is_say_verb(t) and t.pos_ == "VERB"]
    opening = ctx.text.rfind("\n", 0, cand.mark.open_at)
    if ctx.text[opening + 1 : cand.mark.open_at].strip():
        # inside a paragraph, the words go on from a sentence of the person in focus speaking:
        # its every subject is them, and it has a verb of saying ("he bounced back, laughing")
        subjects = [t for t in before_words if t.dep_ in labels("subject")]
        if not speaking or not subjects or any(token_entity(ctx, t) is not entity for t in subjects):
            return None
    elif any(token_entity(ctx, s) is not entity for v in speaking for s in v.children if s.dep_ in labels("subject")):
        # someone else spoke in between ("The album is out on Friday, his label said.")
        return None
    return entity


def _holds_a_named_cue(cand: Candidate) -> bool:
    """Whether the words hold a verb of saying with a person named as its subject: a closing
    mark left out ('"A - said X - "B."' read as one quotation), so the speaker is in the
    words and whoever is in focus is only a guess."""
    return any(
        is_say_verb(t) and t.pos_ == "VERB" and any(
            c.dep_ in labels("speaker-object") and any(x.ent_type_ == "PERSON" for x in c.subtree)
            for c in t.children)
        for t in cand.content
    )


def _sentence_before(doc: Doc, cand: Candidate) -> list[Token]:
    """The tokens of the sentence before the one the quotation opens."""
    starts, _ = sentence_bounds(doc)
    first = starts[cand.content.start]
    if first == 0:
        return []
    return list(doc[starts[first - 1] : first])


#: A quotation no sieve attributed: found by its marks, speaker left open.
UNATTRIBUTED = sieve(
    "quote.unattributed",
    "a quotation whose speaker no sieve could tell (left open, never guessed)",
    '"Never again," read a banner. → no speaker',
    0.4,
)

#: The speaker sieves in the order they run.
SIEVES: tuple[tuple[Sieve, Callable[[QuoteContext, int, Candidate], Entity | None]], ...] = (
    (CUE_NAME, _by_cue_name),
    (CUE_RESOLVED, _by_cue_resolved),
    (VERB_PLACE, _by_verb_place),
    (HEADLINE_COLON, _by_headline_colon),
    (CLAUSE_COLON, _by_clause_colon),
    (SET_UP, _by_set_up),
    (PARAGRAPHS, _by_paragraphs),
    (CONTINUATION, _by_continuation),
    (FOCUS, _by_focus),
    (FRAGMENT_HOLDER, by_fragment_holder),
)


def attribute(ctx: QuoteContext) -> None:
    """Run the sieves in order over every candidate still without a speaker."""
    for rule, decide in SIEVES:
        for i, cand in enumerate(ctx.candidates):
            if cand.speaker is None:
                found = decide(ctx, i, cand)
                if found is not None:
                    cand.speaker, cand.rule = found, rule
