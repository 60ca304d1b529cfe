"""Performances a bill or a show's parts report: the acts on a lineup, a show's encore.

"with X and Y among its headliners", "the festival's headliners included X", "her set
ended with 'Y'", "the encore was 'Z'"; and at a band's own show, what its members perform
is the band's performance too.
"""

from __future__ import annotations

from dataclasses import replace

from spacy.tokens import Doc, Span, Token

from kg.extract.model import Entity, Performance, TextSpan, entity_at
from kg.extract.performances.agents import SHOW_NOUNS, char_span, company_of
from kg.extract.performances.context import (
    RENDITION_NOUNS,
    Context,
    Index,
    chain,
    works_in,
)
from kg.extract.sieves import sieve
from kg.extract.text.doc_index import token_words
from kg.extract.text.lexicon import function_words, labels, tagged, words
from kg.extract.text.marks import is_mark

#: Nouns for the acts billed at an event ("among its headliners", "the lineup includes X").
_BILL_NOUNS = words("bill_nouns")


#: Nouns for performers, billed when "on the lineup" ("among the other acts on the lineup").
_ACT_NOUNS = tagged("musician_nouns", "act")


#: Verbs that say who is on a bill ("the headliners included X", "X were named headliners").
_BILLING_VERBS = words("billing_verbs")


#: Descriptions of a band's members ("the frontwoman", "Guitarist Ana Silva").
_MEMBER_NOUNS = tagged("musician_nouns", "frontline")


#: Parts of a show that a copula identifies with a work ("the encore was 'X'").
_SHOW_PARTS = words("show_parts")


SETLIST_VERBS = function_words("setlist-verb")


def billed_performances(doc: Doc, idx: Index, sent: Span, here: str | None, context: Context) -> list[Performance]:
    """Acts named as an event's headliners or lineup: "with X and Y among its headliners",
    "the festival's headliners included X", "X were among the headliners of E".

    No work is named, so each act gets one performance at the event (the sentence's, the
    possessor's, the paragraph's or the article's), placed and dated as the event is.
    """
    found: list[Performance] = []
    events = {e.key: e for e in idx.found.events}
    lemmas = token_words(doc).lemma
    # (only a bill's noun, a show's noun or an act noun "on the bill" can be one)
    for noun in (idx.tokens[k] for k in range(sent.start, sent.end)
                 if lemmas[k] in _BILL_NOUNS or lemmas[k] in SHOW_NOUNS or lemmas[k] in _ACT_NOUNS):
        # ("Nina's set" with "set" tagged a verb: what is possessed is a noun)
        if noun.pos_ not in ("NOUN", "PROPN") and not (noun.dep_ in labels("argument")
                                                      and any(c.dep_ == "poss" for c in noun.children)):
            continue
        location = None
        if noun.lemma_.lower() in _BILL_NOUNS or _on_the_bill(noun):
            acts = _billed_acts(noun)
            event = _billing_event(noun, idx) or here or context.event or idx.article_event
        elif noun.lemma_.lower() in SHOW_NOUNS:
            # "Ana's set at the X Gala", "her show at V"
            acts, event, location = _owned_show(noun, idx, here)
        else:
            continue
        if not acts or (event is None and location is None) or any(
                c.dep_ == "neg" for t in (noun, noun.head, noun.head.head) for c in t.children):
            continue
        performers: list[Entity] = []
        for tok in acts:
            entity = entity_at(idx.found.entities, *char_span(tok))
            if entity is not None and entity not in performers:
                performers.append(entity)
        span = TextSpan(sent.start_char, sent.end_char, sent.text)
        where = location or chain(events, event, "location")
        found.extend(Performance(performer=p.key, span=span, event=event, location=where,
                                 date=chain(events, event, "date"), cue=noun.text) for p in performers)
    return found


_OWNED_NOUNS = _SHOW_PARTS | SHOW_NOUNS | RENDITION_NOUNS


def owned_parts(doc: Doc, idx: Index, sent: Span, event: str | None) -> list[Performance]:
    """ "her encore, a cover of 'X'", "his opener, 'Y'", "X's rendition of 'Y'": the owner of a part of a
    show, or of a performance, performed its work."""
    found: list[Performance] = []
    events = {e.key: e for e in idx.found.events}
    words = token_words(doc)
    for noun in (idx.tokens[k] for k in range(sent.start, sent.end)
                 if words.pos[k] == "NOUN" and words.lemma[k] in _OWNED_NOUNS):
        owners = [e for c in noun.children if c.dep_ == "poss"
                  if (e := entity_at(idx.found.entities, *char_span(c))) is not None]
        # "X's performance of 'Y' with local band Z": Z performs it too
        owners += [e for c in company_of(noun) if (e := entity_at(idx.found.entities, *char_span(c))) is not None
                   and e.kind in ("person", "group") and e not in owners] if owners else []
        works = _set_off_works(noun, sent, idx) + _works_of(noun, idx)
        span = TextSpan(sent.start_char, sent.end_char, sent.text)
        found.extend(Performance(performer=o.key, span=span, work=w, event=event, cue=noun.text,
                                 location=chain(events, event, "location"), date=chain(events, event, "date"))
                     for o in owners for w in works)
    return found


def _works_of(noun: Token, idx: Index) -> list[str]:
    """The works a performance noun is "of": "her rendition of 'X'"."""
    if noun.lemma_.lower() not in RENDITION_NOUNS:
        return []
    return [w for c in noun.children if c.dep_ == "prep" and c.lower_ == "of"
            for w in works_in(idx, c.i + 1, c.right_edge.i + 1)]


def _set_off_works(noun: Token, sent: Span, idx: Index) -> list[str]:
    """Works in the phrase set off after a noun ("encore, a cover of 'X'"), up to the next verb."""
    doc = noun.doc
    if noun.i + 1 >= sent.end or not is_mark(doc[noun.i + 1].text, ",:—–"):
        return []
    end = next((t.i for t in doc[noun.i + 2 : sent.end] if t.pos_ in ("VERB", "AUX") or t.text == ";"), sent.end)
    return works_in(idx, noun.i + 2, end)


def _owned_show(noun: Token, idx: Index, here: str | None) -> tuple[list[Token], str | None, str | None]:
    """The owners, event and place of "X's set at E", "her show at V", "... with sets from X and Y".

    A possessed show needs its own "at E"; "sets from X" may take the sentence's event
    ("the festival continues on Sunday with sets from X"). No owner, no performance.
    """
    owners = [c for c in noun.children if c.dep_ == "poss"]
    sets_from = [g for c in noun.children if c.dep_ == "prep" and c.lower_ in ("from", "by")
                 for g in c.children if g.dep_ == "pobj"]
    owners = owners or sets_from
    owners += [c for o in owners for c in o.conjuncts]
    for prep in noun.children if owners else ():
        if prep.dep_ == "prep" and prep.lower_ in ("at", "during"):
            obj = next((g for g in prep.children if g.dep_ == "pobj"), None)
            if obj is not None and (obj.i in idx.event_at or obj.i in idx.place_at):
                event = idx.event_at.get(obj.i) or (here if sets_from else None)
                return owners, event, idx.place_at.get(obj.i)
    if sets_from and here is not None:
        return owners, here, None
    return [], None, None


def _on_the_bill(noun: Token) -> bool:
    """ "among the acts on the lineup": acts, artists or names said to be on a bill."""
    return noun.lemma_.lower() in _ACT_NOUNS and any(
        c.dep_ == "prep" and c.lower_ in ("on", "in")
        and any(g.lemma_.lower() in _BILL_NOUNS | {"bill"} for g in c.children)
        for c in noun.children
    )


def _billed_acts(noun: Token) -> list[Token]:
    """The acts a "headliners"/"lineup" noun is said of, with their conjuncts and appositions."""
    head = noun.head
    acts: list[Token] = []
    if noun.dep_ == "pobj" and head.lower_ == "among":
        owner = head.head
        # "with X and Y among its headliners": "among" beside "with", or on X itself
        withs = [g for c in owner.children if c.lower_ == "with" for g in c.children if g.dep_ == "pobj"]
        if owner.pos_ in ("NOUN", "PROPN"):
            acts = [owner]
        elif withs:
            acts = withs
        else:
            # "X were among the headliners"
            acts = [c for c in owner.children if c.dep_ in labels("subject")]
    elif noun.dep_ in labels("subject") and head.lemma_.lower() in _BILLING_VERBS:
        # "the headliners included X and Y", "the headliners are X"
        acts = [c for c in head.children if c.dep_ in labels("object")]
    elif noun.dep_ in ("attr", "oprd") and head.lemma_.lower() in _BILLING_VERBS:
        # "X are the headliners", "X were named headliners"
        acts = [c for c in head.children if c.dep_ in labels("subject")]
    # "headliners X and Y"
    acts += [c for c in noun.children if c.dep_ == "appos"]
    acts += [c for a in acts for c in a.conjuncts]
    # "the rock band The X": the name beside the description
    return acts + [c for a in acts for c in a.children if c.dep_ == "appos"]


def _billing_event(noun: Token, idx: Index) -> str | None:
    """The event whose headliners these are: "the festival's headliners", "headliners of E", "at E"."""
    for child in noun.children:
        if child.dep_ == "poss" and child.i in idx.event_at:
            return idx.event_at[child.i]
        if child.dep_ == "prep" and child.lower_ in function_words("show-prep"):
            obj = next((g for g in child.children if g.dep_ == "pobj"), None)
            if obj is not None and obj.i in idx.event_at:
                return idx.event_at[obj.i]
    return None


def band_credits(idx: Index, performances: list[Performance], show: str | None) -> list[Performance]:
    """At a band's own show, what its members perform is the band's performance too.

    When the article is about one concert or tour (a "music" event) at which exactly one group
    performs, a person described as a band member ("the frontwoman", "guitarist X") who
    performs with no other event or place named performs at that show, and the band with them,
    unless they came on as a guest ("joined the band").
    """
    events = {e.key: e for e in idx.found.events}
    if show is None or events[show].kind != "music":
        return performances
    kinds = {e.key: e.kind for e in idx.found.entities}
    bands = {p.performer for p in performances if p.event == show and kinds.get(p.performer) in ("group", "organization")}
    if len(bands) != 1:
        return performances
    band = bands.pop()
    members = {e.key for e in idx.found.entities if e.kind == "person" and any(
        word in _MEMBER_NOUNS for d in e.descriptions for word in d.lower().split())}
    out: list[Performance] = []
    for p in performances:
        if p.performer in members and p.event is None and p.location is None:
            p = replace(p, event=show, location=events[show].location, date=p.date or events[show].date)
        out.append(p)
        if p.performer in members and p.event == show and not (p.cue or "").lower().startswith("join"):
            # (the band's credit is this sieve's decision, not the member's cue's)
            out.append(replace(p, performer=band, rule=None))
    return out


def billing_cue(cue: str | None) -> bool:
    """Whether a performance was read from a headline slot: "headlined", "will headline", "among its headliners"."""
    low = (cue or "").lower()
    return low.startswith(("headlin", "co-headlin"))


BILL = sieve("perf.bill", "the acts an event's bill names (no work)", "with Rivera among its headliners", 0.85)


SHOW_PART = sieve("perf.show-part", "the owner of a show's part that a copula identifies with a work",
                  "Rivera's encore was 'Lantern Song'.", 0.85)


BAND = sieve("perf.band", "at a band's own show, the band for what its members perform",
             "Frontwoman Ana Rivera sang 'A' (the band's show).", 0.85)
