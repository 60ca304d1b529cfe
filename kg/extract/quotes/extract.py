"""Quotations, cues and speakers.

Quotation marks are paired on the raw text (see ``kg.extract.text.marks``); the words between
them become a quotation unless they are a title, a scare quote or a nickname. The cue
is the verb of saying next to the marks (after, before, or between the two halves of a
split quotation); its subject, resolved through the people stage's entities, is the speaker.
A quotation with no cue of its own continues the previous speaker's words until another
speaker or a break intervenes. Nothing is guessed: no cue and no continuation means
``speaker=None``.
"""

from __future__ import annotations

import re
from dataclasses import replace

from spacy.tokens import Doc

from kg.extract.found import Found
from kg.extract.model import Quote, TextSpan
from kg.extract.quotes.candidates import (
    Candidate,
    content_words,
    find_cue,
    left_context,
    right_context,
)
from kg.extract.quotes.filters import is_not_a_quote
from kg.extract.quotes.sieves import SIEVES as SPEAKER_SIEVES
from kg.extract.quotes.sieves import UNATTRIBUTED, QuoteContext, attribute
from kg.extract.text.doc_index import doc_text
from kg.extract.text.lexicon import function_words
from kg.extract.text.marks import (
    MarkedSpan,
    find_marked_spans,
)

#: The quotation stage's table: who said it, in the order the sieves decide, and the verdict of none.
SIEVES = (*(s for s, _ in SPEAKER_SIEVES), UNATTRIBUTED)


def extract_quotes(doc: Doc, found: Found) -> tuple[Quote, ...]:
    """Direct and partial quotations of ``doc`` with their cue and speaker when known.

    Returns:
        One Quote per utterance, in text order; ``span`` is the text inside the marks.
    """
    entities = found.entities
    text = doc_text(doc)
    marks = find_marked_spans(text)
    in_quote = _quoted_tokens(doc, marks)
    candidates = []
    for mark in marks:
        content = doc.char_span(mark.start, mark.end, alignment_mode="expand")
        if content is None or not any(t.is_alpha for t in content):
            continue
        cand = Candidate(
            mark, content, left_context(doc, mark, in_quote), right_context(doc, mark, in_quote)
        )
        cand.cue = find_cue(cand, in_quote)
        if cand.cue is None and candidates and _joined(candidates[-1], cand):
            # he was "disappointed" but "not surprised": the second partial quote shares the cue
            cand.cue = candidates[-1].cue
        if is_not_a_quote(doc, cand, found):
            continue
        candidates.append(cand)
    attribute(QuoteContext(doc, text, entities, in_quote, candidates, found.focus))
    return tuple(_to_quote(text, c) for c in _dedupe(candidates))


def _joined(prev: Candidate, cand: Candidate) -> bool:
    """Two partial quotes joined by a conjunction only ('"A" but "B"', '"A", "B" and "C"'), or by one
    and the article each takes ('a "coward," a "bully" and a "bore"')."""
    if prev.cue is None or prev.mark.close_at is None:
        return False
    between = cand.left
    joins = [t for t in content_words(between) if t.pos_ != "DET"]
    return (
        bool(between)
        and between[0].idx > prev.mark.close_at
        # (the words between run from the previous quotation's closing mark: not from a title's
        # marks after it, 'from the song "X": "..."')
        and not doc_text(cand.content.doc)[prev.mark.close_at + 1 : between[0].idx].strip()
        and len(joins) <= 1
        and len(content_words(between)) <= 2
        and all(t.is_punct or t.pos_ == "DET" or t.lower_ in function_words("coordinator") for t in between)
    )


def _quoted_tokens(doc: Doc, marks: list[MarkedSpan]) -> set[int]:
    inside: set[int] = set()
    for m in marks:
        hi = (m.close_at + 1) if m.close_at is not None else m.end
        span = doc.char_span(m.open_at, hi, alignment_mode="expand")
        if span is not None:
            inside.update(range(span.start, span.end))
    return inside


#: A word of a quotation, for comparing quotations word by word.
_WORD = re.compile(r"[\w']+")


def _dedupe(candidates: list[Candidate]) -> list[Candidate]:
    """One quotation per utterance: a shorter one repeating a longer one's words goes, unless
    someone else says it (Y's "not quite there yet" inside X's longer words quoting Y is Y's
    own utterance).

    Words are compared whole ("end" is not inside "send the wrong message").
    """
    keys = [" " + " ".join(_WORD.findall(c.content.text.lower().replace("’", "'"))) + " " for c in candidates]
    drop: set[int] = set()
    for i, ki in enumerate(keys):
        for j, kj in enumerate(keys):
            if i == j or j in drop or not ki.strip() or len(ki) > len(kj) or ki not in kj:
                continue
            if _key(candidates[i]) not in (None, _key(candidates[j])):
                continue
            if len(ki) < len(kj) or i < j:
                # i repeats j's words (a standfirst echoing the body): keep the longer or later one
                drop.add(i)
                break
    return [c for i, c in enumerate(candidates) if i not in drop]


def _key(cand: Candidate) -> str | None:
    return cand.speaker.key if cand.speaker is not None else None


def _to_quote(text: str, cand: Candidate) -> Quote:
    m = cand.mark
    end = m.end
    if content_words(cand.left) and cand.content.text[:1].islower() and text[end - 1 : end] == ",":
        # a partial quote's comma before the closing mark belongs to the surrounding sentence
        end -= 1
    rule = cand.rule or UNATTRIBUTED
    quote = Quote(span=TextSpan(m.start, end, text[m.start : end]), confidence=rule.confidence, rule=rule.id)
    if cand.cue is not None:
        quote = replace(quote, cue=cand.cue.text, cue_span=cand.cue.span)
    if cand.speaker is not None:
        quote = replace(quote, speaker=cand.speaker.key)
    return quote
