"""The fragment-holder sieve: words quoted inside narration, with no cue of their own.

The last of the speaker sieves (:mod:`kg.extract.quotes.sieves` runs them): "X dismissed
the plan as a 'magic cure'" has no verb of saying over the words, so their speaker is the
reporter of the sentence they sit in, else the person whose verb holds them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kg.extract.model import Entity
from kg.extract.quotes.candidates import Candidate, content_words, done_by_named_subject
from kg.extract.quotes.filters import title_case
from kg.extract.quotes.gaps import token_entity
from kg.extract.sieves import sieve
from kg.extract.text.doc_index import sentence_bounds
from kg.extract.text.lexicon import labels
from kg.extract.text.marks import is_say_verb

if TYPE_CHECKING:
    from kg.extract.quotes.sieves import QuoteContext

#: The last speaker sieve.
FRAGMENT_HOLDER = sieve(
    "quote.fragment-holder",
    "words quoted inside a sentence with no verb of saying over them: the subject of the verb of saying "
    "before them in the sentence, else the person whose verb holds them",
    "Rivera dismissed the plan as a 'magic cure'. → Rivera",
    0.67,
)

#: Most verbs up from the quoted words to the one whose subject holds them.
_HOLDER_STEPS = 4


def by_fragment_holder(ctx: QuoteContext, i: int, cand: Candidate) -> Entity | None:
    """ "X dismissed it as 'a con'", "footage of X asking, '...'": the nearest verb above the words
    with a subject (a participle's noun) that is a person."""
    if cand.cue is not None or len(cand.left) < 2 or title_case(content_words(list(cand.content))):
        return None  # (a Title In Capitals is a name of something, whoever holds it)
    reporter = _reporter_before(ctx, cand)
    if reporter is not None:
        # "X says that Y hands the voters 'excuses'": the words are X's account of Y, not Y's
        return reporter
    tok, steps = cand.content.root, 0
    while tok.head.i != tok.i and steps < _HOLDER_STEPS:
        tok = tok.head
        if tok.pos_ not in ("VERB", "AUX"):
            continue
        steps += 1
        subject = next((c for c in tok.children if c.dep_ == "nsubj"), None)
        if subject is None and tok.dep_ == "acl":
            subject = tok.head
        if subject is not None:
            entity = token_entity(ctx, subject)
            return entity if entity is not None and entity.kind == "person" else None
    return None


def _reporter_before(ctx: QuoteContext, cand: Candidate) -> Entity | None:
    """The person whose verb of saying, nearest before the words in their sentence, has them
    as its subject ("X said Y was 'a rookie'"), when the parser left the words outside
    that verb's clause. The sentence is read past other quoted words in it: in "Y, X said,
    served 'ten years' and passed 'forty bills'" the second words are X's report too,
    unless they are the deed of a noun named just before them ('after the agency
    "recommended it"')."""
    before = cand.left
    if not done_by_named_subject(cand.content):
        start = sentence_bounds(ctx.doc)[0][cand.content.start]
        before = [t for t in ctx.doc[start : cand.content.start] if t.i not in ctx.in_quote]
    for t in reversed(before):
        if is_say_verb(t) and t.pos_ == "VERB":
            subjects = [c for c in t.children if c.dep_ in labels("subject") and c.i < t.i]
            if not subjects or any(c.dep_ == "aux" and c.lower_ == "to" for c in t.children):
                # "X says people want a leader to counter the threats, but Y gives them '...'":
                # an infinitive or a participle of saying reports nothing of its own
                continue
            if len(subjects) > 1:
                return None
            entity = token_entity(ctx, subjects[0])
            return entity if entity is not None and entity.kind == "person" else None
    return None
