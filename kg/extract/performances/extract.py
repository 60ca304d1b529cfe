"""Performances: who performed which work, at which event, where and when.

A performance is read from a cue verb ("performed", "sang", "opened with", "was joined
by X for Y", "headlined", "delivered a rendition of"), its performer from the verb's
subject through coreference (``entity_at``: "she", "the folk singer"), its works from the
clause after the verb ("opened with A, then B and C"; "the song" is the last song named),
and its event from the sentence or, failing that, from the event the paragraph is about
("During the X residency ..., she ... . Rivera performed 'Y'"). Location and date come from
the clause, else from the event.

Bills give performances without a work ("with X and Y among its headliners", "the
festival's headliners included X", "sets from X and Y", "X's set at E"); a tour that is the
subject of a route verb stands for its act ("The X Tour opens at V and closes at W"); at a
band's own show what a member performs is the band's too. A bare noun ("the festival",
"the three-day event") stands for the last event of its kind named before.
"""

from __future__ import annotations

from dataclasses import replace

from spacy.tokens import Doc, Span, Token

from kg.extract.events.locations import date_after
from kg.extract.found import Found
from kg.extract.model import Entity, Performance, TextSpan, When, entity_at
from kg.extract.performances import default, ensemble, exceptions, show_context
from kg.extract.performances.agents import (
    RELATIVES,
    act_unnamed,
    char_span,
    cue_lemma,
    guests_of,
    open_pronoun,
    performers_of,
    subjects,
)
from kg.extract.performances.bills import (
    BAND,
    BILL,
    SHOW_PART,
    band_credits,
    billed_performances,
    billing_cue,
    owned_parts,
)
from kg.extract.performances.context import (
    MULTI_ACT_KINDS,
    Context,
    Index,
    act_of_subject_event,
    chain,
    date_in,
    event_context,
    index_mentions,
    is_caption,
    location_in,
    object_place,
    participle_end,
    referred_in,
    route_participle,
    same_time,
    sentence_event,
    top_kind,
    within,
    works_in,
)
from kg.extract.performances.cues import cue_verbs, is_performance, object_lemmas
from kg.extract.performances.default import (
    Cast,
    default_performances,
    find_cast,
    performing_subjects,
)
from kg.extract.performances.exceptions import stated_exceptions
from kg.extract.performances.show_context import (
    CLAUSE,
    PARAGRAPH,
    SENTENCE,
    resolve,
)
from kg.extract.sieves import Sieve, sieve
from kg.extract.text.doc_index import (
    doc_text,
)
from kg.extract.text.lexicon import function_words, tagged, words

#: Nouns that refer back to the last song named ("before performing the song").
_SONG_ANAPHORS = words("song_anaphors")
#: Verbs with which a work of another kind is a part played ("played Hamlet", "appeared in X").
_PART_VERBS = tagged("performance_verbs", "part")


def _clause_end(verbs: list[Token], verb: Token, sent: Span) -> int:
    """The clause of a cue verb runs to the next cue verb of the sentence, or to a relative clause
    of another verb on what it did ("a set that leaned on her album 'X'": the album is not played)."""
    later = [v.i for v in verbs if v.i > verb.i]
    # (or to a verb with a subject of its own: "X played on several numbers, while Y ripped through 'A'")
    later += [t.i for t in verb.doc[verb.i + 1 : sent.end] if t.pos_ == "VERB" and t.dep_ != "xcomp"
              and any(c.dep_ in ("nsubj", "nsubjpass") for c in t.children)]
    end = min(later) if later else sent.end
    # (the relative clause hangs on the verb's object, or on the object of its preposition)
    aside = (t.left_edge.i for t in verb.doc[verb.i + 1 : end]
             if t.dep_ == "relcl" and verb in (t.head.head, t.head.head.head))
    return next(aside, end)


def _last_song_before(idx: Index, i: int) -> str | None:
    """The last work (a song if any) named before token ``i``, not counting titles that only describe
    something else ("the 'X' star", "a former 'X' champ", "the 'X' stage"): "it" never stands for those."""
    before = [key for start, key in idx.work_starts if start < i and not _attributive(idx, start)]
    songs = [key for key in before if idx.work_kind.get(key) == "song"]
    return (songs or before or [None])[-1]


def _attributive(idx: Index, start: int) -> bool:
    """Whether the title starting at token ``start`` modifies a noun after it ("the 'X' champ")."""
    key, end = idx.work_at[start], start
    while end < len(idx.tokens) and idx.work_at.get(end) == key:
        end += 1
    root = idx.tokens[start].doc[start:end].root
    # (the closing mark of "the 'X' champ" is often read as a possessive: "poss")
    return root.dep_ in ("compound", "nmod", "amod", "poss") and root.head.pos_ == "NOUN" and root.head.i >= end


def _anaphor(doc: Doc, verb: Token, start: int, end: int) -> bool:
    """Whether the clause refers back to a song: "performing the song", "sang it"."""
    for k in range(start, end):
        tok = doc[k]
        if tok.lower_ in _SONG_ANAPHORS and k > 0 and doc[k - 1].lower_ in function_words("definite"):
            return True
        if tok.lower_ == "it" and tok.head.i == verb.i and tok.dep_ in ("dobj", "obj"):
            return True
    return False


def extract_performances(doc: Doc, found: Found) -> tuple[Performance, ...]:
    """One performance per performer per work (or per event when no work is named).

    The stated reading first (verbs of performing, bills, a band's members), less what the
    exceptions turn down; then the default reading of every title it left unlinked; then the
    show context for what no clause placed. A performance without a work is dropped when the
    same performer is also found performing a named work at that event, and when it names
    neither event nor place.
    """
    if not found.entities:
        return ()
    idx, stated, cast = stated_reading(doc, found)
    linked = {p.work for p in stated if p.work is not None}
    default = default_performances(doc, found.works, cast, linked)
    placed = _placed_by_clause(stated)
    unplaced = [p for p in placed if p.event is None and p.location is None]
    placed = [p for p in placed if p not in unplaced]
    return _dedupe(ensemble.with_ensemble([*placed, *resolve(doc, idx, [*unplaced, *default])], found.works,
                                          found.entities))


def stated_reading(doc: Doc, found: Found) -> tuple[Index, list[Performance], Cast]:
    """The mentions' index, the stated reading's performances (less the exceptions), and the
    cast they and the article present: what the default reading starts from."""
    idx = index_mentions(doc, found)
    stated = stated_exceptions(doc, _stated(doc, idx), found.entities, found.works)
    cast = find_cast(doc, found, (p.performer for p in stated), performing_subjects(doc, found.entities))
    return idx, stated, cast


def _stated(doc: Doc, idx: Index) -> list[Performance]:
    """The stated reading, sentence by sentence: the performers of each verb of performing with
    the works of its clause, the acts of a bill, the owners of a show's parts; then a band's
    members' performances credited to the band."""
    entities = idx.found.entities
    found: list[Performance] = []
    context = Context()
    text_all = doc_text(doc)
    for sent in doc.sents:
        here = event_context(sent, idx) or referred_in(doc, sent.start, sent.end, idx.found.events)
        start = len(found)
        acts = _cue_clauses(doc, idx, sent, here, context, found)
        billed = billed_performances(doc, idx, sent, here, context)
        found.extend(_ruled(billed, BILL))
        found.extend(_ruled(owned_parts(doc, idx, sent, here or context.event or idx.article_event), SHOW_PART))
        billed_acts = {p.performer for p in billed}
        named = acts or ([e for e in entities if e.key in billed_acts] if billed_acts else [])
        context.update(entities, sent, here, is_caption(text_all, sent), named,
                       next((p.location for p in found[start:] if p.location), None))
    return _ruled(band_credits(idx, found, idx.article_event), BAND)


def _cue_clauses(doc: Doc, idx: Index, sent: Span, here: str | None, context: Context,
                 found: list[Performance]) -> list[Entity]:
    """The performances of each verb of performing in a sentence, added to ``found``; returns
    the acts the sentence goes on about (the verbs' subjects, not their guests)."""
    entities = idx.found.entities
    verbs = cue_verbs(sent, idx)
    previous: list[Entity] = []
    acts: list[Entity] = []
    for verb in verbs:
        unnamed = act_unnamed(verb)
        # "closed with a set that ended with 'X'": the act of the clause before
        performers = performers_of(entities, verb) or (previous if unnamed or not subjects(verb) else []) or (
            context.acts if unnamed else [])
        # "she duetted with X": a pronoun coreference left open is the act the text is about
        if open_pronoun(entities, verb):
            performers = [*context.acts, *(p for p in performers if p not in context.acts)]
        previous = performers
        new = _clause_performances(doc, idx, verb, verbs, sent, here, context, performers)
        guests = {e.key for t in guests_of(verb) if (e := entity_at(entities, *char_span(t)))}
        acts += [p for p in performers if new and p not in acts and p.key not in guests]
        found.extend(_ruled(new, CUE_CLAUSE))
    return acts


def _placed_by_clause(found: list[Performance]) -> list[Performance]:
    """The clause reading's performances, those it placed marked as placed by their clause."""
    return [replace(p, context_rule=CLAUSE.id) if (p.event or p.location) and not p.context_rule else p for p in found]


def _ruled(found: list[Performance], rule: Sieve) -> list[Performance]:
    """The performances, those no sieve claimed yet decided by ``rule``."""
    return [p if p.rule else replace(p, rule=rule.id, confidence=rule.confidence) for p in found]


CUE_CLAUSE = sieve("perf.cue-clause", "the performers of a verb of performing, with each work of its clause "
                   "(or the event or place it names when no work is)", "Rivera opened the show with 'A' and 'B'.", 0.90)


def _clause_performances(
    doc: Doc,
    idx: Index,
    verb: Token,
    verbs: list[Token],
    sent: Span,
    here: str | None,
    context: Context,
    performers: list[Entity],
) -> list[Performance]:
    """The performances one cue verb reports: its performers, each with each work of its clause."""
    end = _clause_end(verbs, verb, sent)
    works = _clause_works(doc, idx, verb, end)
    named_event = next((idx.event_at[k] for k in range(verb.i + 1, end) if k in idx.event_at), None)
    event = named_event or referred_in(doc, verb.i + 1, end, idx.found.events)
    # which sieve placed it: its own clause, its sentence, or the context before (set below)
    placed = CLAUSE if event else SENTENCE
    event = event or sentence_event(sent, verb, idx) or referred_in(doc, sent.start, verb.i, idx.found.events)
    # "The X Tour opens at V and closes at W": the tour stands for its act
    by_tour = not performers
    if by_tour:
        performers, toured = act_of_subject_event(doc, verb, idx, event)
        placed, event = (CLAUSE, toured) if toured != event else (placed, event)
    # "played Hamlet", "appeared in the musical X": a work of another kind is a part played
    if cue_lemma(verb) in _PART_VERBS:
        works = [w for w in works if idx.work_kind.get(w) in ("song", "album")]
    # "..., starting at V"; "the new leg kicks off at V": a stop on a route
    route = not works and (route_participle(verb, verbs)
                           or by_tour and bool(performers) and cue_lemma(verb) in words("route_verbs"))
    # "played the Brenner Arena": a place played is as good as an event played
    stage = event or object_place(verb, idx)
    if not performers or not (route or is_performance(verb, works, stage, object_lemmas(verb, idx.work_at))):
        return []
    # "debuted 'Spark' from his album 'Play'": the album is the source, the song is performed
    if any(idx.work_kind.get(w) == "song" for w in works):
        works = [w for w in works if idx.work_kind.get(w) != "album"]
    # "played the Brenner Arena"; the clause after the verb; else the sentence before it
    # ("at V on Monday when he performed")
    location = (object_place(verb, idx) or location_in(doc, verb.i + 1, participle_end(doc, end, sent), idx)
                or location_in(doc, sent.start, verb.i, idx))
    # a stop on a route is a performance only where it is placed
    if route and location is None:
        return []
    published, named = idx.found.published, frozenset(idx.event_at) | frozenset(idx.work_at)
    date = date_after(doc, verb.i + 1, end, set(), published, named) or date_in(
        doc, verb, sent.start, verb.i, idx, published)
    where = _in_context(idx, context, performers, (event, location, date, placed), named_event)
    event, location, date, placed = where
    span = TextSpan(sent.start_char, sent.end_char, sent.text)
    return [
        Performance(performer=p.key, span=span, work=w, event=event, location=location, date=date, cue=verb.text,
                    context_rule=placed.id if event or location else None)
        for p in performers
        for w in works or [None]
    ]


def _clause_works(doc: Doc, idx: Index, verb: Token, end: int) -> list[str]:
    """The works a cue verb's clause (up to token ``end``) performs."""
    works = works_in(idx, verb.i + 1, end)
    # "'X' was performed by Y" (but in "Y opened with 'W' and was joined by Z", W is Y's alone)
    if any(c.dep_ == "auxpass" for c in verb.children):
        works = [w for s in verb.children if s.dep_ == "nsubjpass"
                 for w in works_in(idx, s.left_edge.i, s.right_edge.i + 1)] + works
    # "before performing the song": the last song named
    if not works and _anaphor(doc, verb, verb.i + 1, end):
        song = _last_song_before(idx, verb.i)
        works = [song] if song else []
    # "the single 'X', which she debuted at E": the relative pronoun object is the title it hangs on
    if verb.dep_ == "relcl" and verb.head.i in idx.work_at and any(
            c.dep_ in ("dobj", "obj") and c.lower_ in RELATIVES for c in verb.children):
        works = [idx.work_at[verb.head.i], *works]
    return works


#: (event, location, date, the sieve that placed them) of one clause.
_Where = tuple[str | None, str | None, When | None, Sieve]


def _in_context(idx: Index, context: Context, performers: list[Entity], where: _Where,
                named_event: str | None) -> _Where:
    """A clause's event, place and date, with what the paragraph before it gives when it gives none."""
    event, location, date, placed = where
    events = {e.key: e for e in idx.found.events}
    # "stopped the show in 2016": a show referred to, dated otherwise, is another one
    if event is not None and event != named_event and not same_time(date, events[event].date):
        event = None
    placed = placed if event else CLAUSE
    # the paragraph's event, for the people it is about (anyone at a festival or award show),
    # unless the clause puts the act elsewhere or at another time ("in 2016")
    if event is None and context.event is not None and within(location, events[context.event], idx.found.places) \
            and same_time(date, events[context.event].date) \
            and (any(p.key in context.people for p in performers) or context.several
                 or top_kind(events, context.event) in MULTI_ACT_KINDS):
        placed, event = PARAGRAPH, context.event
    # the same acts, a sentence or two after they were placed, are still there
    if event is None and location is None and context.place and any(p in context.acts for p in performers):
        placed, location = PARAGRAPH, context.place
    if event is not None:
        location = location or chain(events, event, "location")
        date = date or chain(events, event, "date")
    return event, location, date, placed


#: The performance stage's table, in the order its sieves decide: the stated reading, the
#: exceptions that turn a title down, the default reading, and the show context.
SIEVES = (CUE_CLAUSE, BILL, SHOW_PART, BAND, *exceptions.SIEVES, *default.SIEVES, *show_context.SIEVES,
          *ensemble.SIEVES)


def _dedupe(found: list[Performance]) -> tuple[Performance, ...]:
    """Keep the first performance per (performer, work) and per (performer, event or place) without work."""
    # without an event, the place tells two shows apart ("played Tacoma" and "premiered X in Reno")
    with_work = {(p.performer, p.event, None if p.event else p.location) for p in found if p.work is not None}
    placed = {(p.performer, p.event) for p in found if p.work is None and p.event and p.location}
    seen: set[tuple[str, str | None, str | None]] = set()
    out: list[Performance] = []
    for p in found:
        if p.work is None and p.event is None and p.location is None:
            continue
        # an announced headliner keeps its own performance beside the songs it will play
        if p.work is None and not billing_cue(p.cue) and (p.performer, p.event, None if p.event else p.location) \
                in with_work:
            continue
        # the legs of a tour are told apart by their places; an unplaced mention of the tour adds nothing
        if p.work is None and p.event and p.location is None and (p.performer, p.event) in placed:
            continue
        key = _key(p)
        if key in seen:
            # the same performance told again, placed where the first telling was not ("At the funeral,
            # X sang A" ... "X performs A at the funeral of Y in C"): the placed telling stands
            at = next(n for n, q in enumerate(out) if _key(q) == key)
            if (p.event or p.location) and not (out[at].event or out[at].location):
                out[at] = p
            continue
        seen.add(key)
        out.append(p)
    return tuple(out)


def _key(p: Performance) -> tuple[str, str | None, str | None]:
    """What one performance is told by: its performer and work, or its performer, event and place."""
    return (p.performer, p.work, None) if p.work is not None else (p.performer, p.event, p.location)

