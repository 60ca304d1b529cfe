"""Whether a quotation with no cue goes on from the one before it: what may stand between.

The continuation sieve (:mod:`kg.extract.quotes.sieves`) gives a quotation its predecessor's
speaker only across a short, clear gap: the same or the next paragraph, no one else named or
speaking, and no new subject. The cue's own sentence (whom it was said to, what went on as
it was said) and the speaker going on in reported speech are no break.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from spacy.tokens import Span, Token

from kg.extract.model import Entity, entity_at
from kg.extract.quotes.candidates import Candidate, content_words
from kg.extract.text.doc_index import sentence_bounds
from kg.extract.text.lexicon import labels
from kg.extract.text.marks import is_say_verb

if TYPE_CHECKING:
    from kg.extract.quotes.sieves import QuoteContext

#: A continuation may not follow its predecessor across more narration than this (tokens).
_MAX_GAP_TOKENS = 30


def token_entity(ctx: QuoteContext, token: Token) -> Entity | None:
    """The entity a mention of which covers ``token``, if any."""
    return entity_at(ctx.entities, token.idx, token.idx + len(token))


def clear_gap(ctx: QuoteContext, prev: Candidate, cand: Candidate) -> bool:
    """Same or next paragraph, short narration, no other entity and no other cue in between."""
    assert prev.speaker is not None
    doc, text = ctx.doc, ctx.text
    lo = prev.mark.close_at if prev.mark.close_at is not None else prev.mark.end
    hi = cand.mark.open_at
    if _paragraph_between(text[lo:hi]):
        return False
    gap = doc.char_span(lo + 1, hi, alignment_mode="contract") if hi > lo + 1 else None
    if gap is None:
        return True
    # the rest of the cue's sentence after the previous quotation says whom it was said to and
    # what went on as it was said ("Rivera told a radio station in May", "said Rivera as she
    # held the trophy, in a red coat"): circumstance, not a new speaker
    after = prev.cue is not None and prev.content.end <= prev.cue.token.i < gap.end
    own_clause = {t.i for t in prev.cue.token.subtree} if after else set()
    own_sentence = set(range(gap.start, sentence_bounds(doc)[1][prev.cue.token.i])) - own_clause if after else set()
    if len(content_words([t for t in gap if t.i not in own_clause | own_sentence])) > _MAX_GAP_TOKENS:
        return False
    # "Rivera added that the label wants ...": the speaker going on in reported speech
    cue_at = prev.cue.token.i if prev.cue is not None else -1
    own_words = {w.i for t in gap if t.i != cue_at and _same_speaker_says(ctx, t, prev.speaker) for w in t.subtree}
    # "X replied, noting that the town was 'ready to vote' and that the hall would open ...
    # 'And ...'": the rest of the clause the cue before the previous quotation governs is still
    # X's account, when the quotation after it opens a sentence of its own (not "... after the
    # agency 'recommended it'", someone else's words inside that clause)
    reported: set[int] = set()
    if prev.cue is not None and prev.cue.token.i < prev.content.start and not content_words(cand.left):
        reported = {w.i for w in prev.cue.token.subtree}
    return not _someone_else_between(ctx, prev, prev.speaker, gap, own_words | own_clause, own_sentence, reported)


def _paragraph_between(gap_text: str) -> bool:
    """Whether a whole paragraph of narration (or more) stands between two quotations."""
    lines = [line.strip() for line in gap_text.split("\n") if line.strip()]
    # an interviewer's question between two answers ("Was it hard to record?") is no break
    # (after the rest of the answer's own paragraph: '..." he says.')
    worded = [line.strip() for line in gap_text.split("\n")[1:] if any(c.isalpha() for c in line)]
    asked = len(worded) == 1 and worded[0].endswith("?") and worded[0][:1] not in "\"“‘'"
    # a whole paragraph of narration (or more) between the two: a clear break
    return (gap_text.count("\n") > 2 or len(lines) > 1) and not asked


def _someone_else_between(
    ctx: QuoteContext,
    prev: Candidate,
    speaker: Entity,
    gap: Span,
    own: set[int],
    own_sentence: set[int],
    reported: set[int],
) -> bool:
    """Whether someone other than ``speaker`` is named, is a new subject or speaks in ``gap``.

    ``own`` are the speaker's own words there, ``own_sentence`` the rest of the previous cue's
    sentence and ``reported`` the rest of the clause its cue governs.
    """
    for t in gap:
        if t.i in own:
            continue
        other = token_entity(ctx, t)
        own_cue = prev.cue is not None and t.i == prev.cue.token.i
        if t.i in own_sentence and not is_say_verb(t) and not is_say_verb(t.head):
            continue
        if other is not None and other.key != speaker.key and _may_speak(t):
            # someone else is named in between, where they could be the one speaking
            return True
        if t.i in reported:
            continue
        if t.dep_ in labels("subject") and t.pos_ in ("PROPN", "NOUN") and not t.is_space:
            # '"...", after the commission "recommended it"': a new subject, someone else's words
            # ("..., her voice catching": the speaker's own voice, hands or eyes are no one else)
            owners = [token_entity(ctx, c) for c in t.children if c.dep_ == "poss"]
            if other is None and any(o is not None and o.key == speaker.key for o in owners):
                continue
            if other is None:
                return True
        if is_say_verb(t) and not own_cue and t.pos_ != "NOUN" and any(c.dep_ in labels("subject") for c in t.children):
            # another verb of saying with a subject of its own: another utterance
            return True
    return False


def _may_speak(token: Token) -> bool:
    """A name in the gap that is a subject, or part of one (not the object of the speaker's own verb)."""
    t = token
    while (t.dep_ in labels("name-link") or t.dep_ == "poss") and t.head.i != t.i:
        t = t.head
    return t.dep_ in labels("subject") or t.dep_ in ("ROOT", "npadvmod") or t.pos_ != "PROPN"


def _same_speaker_says(ctx: QuoteContext, verb: Token, speaker: Entity) -> bool:
    """Whether ``verb`` is a verb of saying whose subjects all stand for ``speaker``."""
    if not is_say_verb(verb) or verb.pos_ == "NOUN":
        return False
    subjects = [c for c in verb.children if c.dep_ in labels("subject")]
    return bool(subjects) and all((e := token_entity(ctx, c)) is not None and e.key == speaker.key for c in subjects)
