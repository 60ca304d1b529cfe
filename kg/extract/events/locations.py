"""Where and when an event took place, read from the clauses around its mentions.

Location and date come from the same clause ("... at V in City in August 2023"), from a
clause of the event's own ("X, which returns to V in July"), from a participle of its clause
("..., taking home three prizes at V"), from a bare noun standing for it later ("The
ceremony returns to V"), unless that speaks of another edition ("next year"), or from the
dateline's city when the dateline's sentence says the event took place.
"""

from __future__ import annotations

from spacy.tokens import Doc, Span, Token

from kg.extract.events.names import BACK_NOUNS, BACK_REFERENCE_RE
from kg.extract.model import TOWN_KINDS, EventMention, Place, TextSpan, When
from kg.extract.places.lead import LEAD
from kg.extract.sieves import sieve
from kg.extract.text.dateline import Dateline
from kg.extract.text.dates import (
    RELATIVE_YEARS,
    is_clause_date,
    is_future,
    parse_date,
    told_as_past,
)
from kg.extract.text.doc_index import (
    doc_ents,
    doc_text,
    governing_verb,
    is_cap,
    sentence_bounds,
)
from kg.extract.text.lexicon import function_words, labels, tagged, words
from kg.extract.text.marks import is_mark
from kg.extract.text.tree_patterns import matches_at

_PLACE_PREPS = function_words("event-place-prep")
#: Lower-case words between an event and its place or date ("the Super Bowl halftime show in X").
_EVENT_TAIL = words("event_tail_words")
#: Verbs allowed between an event and its date ("... was held in May 2023").
_GAP_VERBS = function_words("gap-verb")
#: Prepositions that bring in another happening than the clause's own ("after a win at V").
_OTHER_TIME_PREPS = function_words("other-time-prep")
_LOCATING_PREPS = function_words("locating-prep")
_POSSESSIVE_MARKS = function_words("possessive-mark")
#: Nouns of a place ("venue", "arena") between an event and the place that names it.
_PLACE_NOUNS = tagged("back_nouns", "place")

# The sieves that place an event, in the order they are tried (see events.extract_events).
AFTER_NAME = sieve("location.after-name", "the place right after the event's name, in its clause",
                   "the Quarry Festival at Orla Park → Orla Park", 0.75)
OF_VERB = sieve("location.of-verb", "the place of the verb the event's name is the subject of",
                "The Quarry Festival returns to Orla Park in July. → Orla Park", 0.75)
LATER_CLAUSE = sieve("location.later-clause", "a venue of another clause of the event's sentence",
                     "Rivera won at the Lantern Awards, taking three prizes at the Brindle Hall → Brindle Hall", 0.33)
STAGE = sieve("location.festival-stage", "a stage of a festival that the festival's sentence names",
              "The Quarry Festival opened as Rivera lit up the Lantern Stage. → the Lantern Stage", 0.75)
BACK_REFERENCE = sieve("location.back-reference", "the place a bare noun's clause gives the last event of its kind",
                       "... The festival returns to Orla Park in August. → the festival named before", 0.67)
IN_NAME = sieve("location.in-name", "a place inside the event's own name", "the Denver residency → Denver", 0.67)
DATELINE = sieve("location.dateline", "the dateline's city, for an event its sentence says took place",
                 "NASHVILLE (AP) — Rivera won at the Lantern Awards on Sunday → Nashville", 0.67)
#: The location sieves in the order they run.
SIEVES = (AFTER_NAME, OF_VERB, LATER_CLAUSE, BACK_REFERENCE, STAGE, IN_NAME, LEAD, DATELINE)
#: Last words of the parts of a festival site ("the Riverside Stage", "the Dance Tent").
_STAGE_WORDS = tagged("stage_words", "part")


def place_after(doc: Doc, end: int, sent_end: int, place_starts: dict[int, str], stops: set[int]) -> str | None:
    """The place named right after an event: "X at V", "X in City", skipping dates and "the"."""
    i = end
    while i < sent_end and i not in stops:
        tok = doc[i]
        if tok.lower_ in _PLACE_PREPS:
            j = i + 1
            while j < sent_end and doc[j].pos_ == "DET":
                j += 1
            # "in the province of X", "at the heart of X"
            if j + 2 < sent_end and doc[j].is_lower and doc[j].pos_ == "NOUN" and doc[j + 1].lower_ == "of":
                j += 2
            if j in place_starts:
                return _possessed_place(doc, j, sent_end, place_starts)
            # "in August 2023 in Reno": skip the date, keep looking
            if j < sent_end and doc[j].ent_type_ in ("DATE", "TIME"):
                i = j
                continue
            return None
        if tok.ent_type_ in ("DATE", "TIME") or tok.is_punct and tok.text == ",":
            i += 1
            continue
        if tok.lower_ in _EVENT_TAIL:
            i += 1
            continue
        # "the ceremony's venue in C", "the debate venue in C": the event's place is named next
        if tok.lower_ in _PLACE_NOUNS and tok.is_lower:
            i += 1
            continue
        if tok.lower_ in _POSSESSIVE_MARKS and i + 1 < sent_end and doc[i + 1].lower_ in _PLACE_NOUNS \
                and doc[i + 1].is_lower:
            i += 2
            continue
        return None
    return None


def _own_verb(head: Token) -> Token | None:
    """The verb an event's head word is the subject of ("X will return to V"), or that describes
    it in a clause of its own ("X, which returns to V in July", "X, held at V"): the tree
    patterns ``event-own-verb`` and, failing it, the first verb of ``event-described-by-verb``.

    "the singer who won X moved to V", where the verb belongs to someone else, gives none.
    """
    own = [m["verb"] for m in matches_at(head, "event-own-verb", "event")]
    described = [m["verb"] for m in matches_at(head, "event-described-by-verb", "event")]
    return own[0] if own else min(described, key=lambda verb: verb.i, default=None)


def dateline_city(doc: Doc, line: Dateline | None, places: tuple[Place, ...]) -> tuple[str, Span] | None:
    """The key of the city a dateline names ("NASHVILLE, Tenn. (AP) — ...", "YORK, June 3 —"), with
    the sentence it opens.

    The parser often ends a sentence at the dateline's dash; the sentence is then the one after it.
    """
    if line is None:
        return None
    start = doc[line.start].idx
    key = next((p.key for p in places if p.kind == "city" for m in p.mentions if m.start == start), None)
    if key is None:
        return None
    sent = doc[line.start].sent
    end = sent.end
    if end <= line.end or not any(t.pos_ in ("VERB", "AUX") for t in doc[line.end : end]):
        after = doc[end].sent.end if end < len(doc) else end
        end = after if after > end else end
    return key, doc[line.start : end]


#: Subordinating words that put a clause at the same time as its main clause ("as X opened").
_SAME_TIME_MARKS = function_words("same-time")


def place_of_verb(doc: Doc, m: EventMention, place_starts: dict[int, str]) -> str | None:
    """The place an event's own verb puts it in: "X will return to V", "X is held at V"."""
    verb = None if m.generic else _own_verb(doc[m.start : m.end].root)
    if verb is None:
        return None
    place = _verb_place(doc, verb, place_starts)
    mark = next((c.lower_ for c in verb.children if c.dep_ == "mark"), None)
    if place is None and verb.dep_ == "advcl" and mark in _SAME_TIME_MARKS:
        # "fans braved the rain at V as X opened": what happens there while X opens is at X
        place = _verb_place(doc, verb.head, place_starts)
    return place


def _verb_place(doc: Doc, verb: Token, place_starts: dict[int, str]) -> str | None:
    """The first place after a locating preposition of ``verb``."""
    # "X took place at V": the preposition hangs off "place"
    preps = [c for c in verb.children if c.dep_ == "prep"] + [
        g for c in verb.children if c.dep_ in ("dobj", "attr") for g in c.children if g.dep_ == "prep"
    ]
    for prep in preps:
        if prep.lower_ not in _LOCATING_PREPS:
            continue
        for obj in prep.children:
            if obj.dep_ != "pobj":
                continue
            first = min(t.i for t in obj.subtree)
            for k in range(first, obj.i + 1):
                if k in place_starts:
                    return _possessed_place(doc, k, len(doc), place_starts)
    return None


def date_of_verb(doc: Doc, m: EventMention, published: str | None) -> When | None:
    """The date an event's own verb gives it: "X will return to V next month", "X was held in May"."""
    verb = None if m.generic else _own_verb(doc[m.start : m.end].root)
    return None if verb is None else _verb_date(doc, verb, published)


def _verb_date(doc: Doc, verb: Token, published: str | None) -> When | None:
    """The first date in ``verb``'s own clause."""
    for ent in doc_ents(doc):
        if ent.label_ not in ("DATE", "TIME") or not is_clause_date(ent):
            continue
        root = ent.root
        # the date hangs off the verb itself, off a preposition of it ("in May"), or off a
        # noun of its clause that the parser hung it on ("returned to V in C on Monday")
        if governing_verb(root).i == verb.i:
            span = TextSpan(ent.start_char, ent.end_char, ent.text)
            return parse_date(ent.text, published, span, future=is_future(root))
    return None


def _possessed_place(doc: Doc, j: int, sent_end: int, place_starts: dict[int, str]) -> str:
    """The place at token ``j``, or the venue it owns: "Glendale's State Farm Stadium" -> the stadium."""
    key = place_starts[j]
    k = j + 1
    while k < sent_end and is_cap(doc[k]) and k not in place_starts:
        k += 1
    if k + 1 < sent_end and doc[k].lower_ in _POSSESSIVE_MARKS and k + 1 in place_starts:
        return place_starts[k + 1]
    return key


def _breaks_clause(token) -> bool:  # type: ignore[no-untyped-def]
    """A verb, pronoun or dash between an event and a date: the date belongs to another clause."""
    if token.is_punct:
        return not is_mark(token.text, ",\"“”‘’")
    return token.pos_ in labels("clause-break") and token.lemma_.lower() not in _GAP_VERBS


def date_after(
    doc: Doc, end: int, sent_end: int, stops: set[int], published: str | None, skip: frozenset[int] = frozenset()
) -> When | None:
    """The first calendar DATE entity after token ``end`` in its clause, as a ``When``.

    Entities starting on a token of ``skip`` (the year inside "the 2019 Zennies") are passed over,
    and its tokens (titles, names) do not break the clause.
    """
    for ent in doc_ents(doc):
        if ent.start < end or ent.start >= sent_end or ent.start in skip:
            continue
        gap = doc[end : ent.start]
        # the date must belong to the event's clause: no verb, pronoun or dash in between
        if any(k in stops for k in range(end, ent.start)) or any(t.i not in skip and _breaks_clause(t) for t in gap):
            return None
        if ent.label_ in ("DATE", "TIME") and is_clause_date(ent):
            # "will headline ... in August": the next August, not the last
            span = TextSpan(ent.start_char, ent.end_char, ent.text)
            return parse_date(ent.text, published, span, future=is_future(ent.root))
    return None


def place_index(doc: Doc, places: tuple[Place, ...]) -> dict[int, str]:
    """Token index where each place mention starts -> place key."""
    starts: dict[int, str] = {}
    for place in places:
        for m in place.mentions:
            span = doc.char_span(m.start, m.end, alignment_mode="expand")
            if span is not None:
                starts[span.start] = place.key
    return starts


def year_date(name: str, span: TextSpan) -> When | None:
    """A year inside the name ("the 2021 Lantern Awards") dates the event to that year."""
    for word in name.split():
        if len(word) == 4 and word.isdigit() and word[:2] in ("19", "20"):
            return parse_date(word, None, span)
    return None


def place_at_dateline(doc: Doc, data: dict[str, dict], order: list[str], places: tuple[Place, ...],
                      line: Dateline | None) -> None:
    """ "DENVER (AP) — X won at the Y Awards on Sunday": an event the dateline's sentence
    says took place, placed nowhere else, was in the dateline's city (not one it says will)."""
    found = dateline_city(doc, line, places)
    if found is None:
        return
    city, sent = found
    for norm in order:
        rec = data[norm]
        if rec["location"] is not None or rec["generic"]:
            continue
        for m in rec["mentions"]:
            span = doc.char_span(m.start, m.end, alignment_mode="expand")
            if span is None or not sent.start <= span.start < sent.end:
                continue
            if told_as_past(governing_verb(span.root)):
                rec["location"], rec["location_rule"] = city, DATELINE.id
                break


def place_at_stage(doc: Doc, data: dict[str, dict], order: list[str], place_starts: dict[int, str],
                   places: tuple[Place, ...]) -> None:
    """ "X Festival kicked off as Y lit up the Z stage", "crowds at the Z Stage ... during X 2026": a
    festival that no clause places is on the one stage its sentence names (the stage word says
    whose part it is: a festival's site, where its acts play)."""
    stages = {p.key for p in places if p.kind not in TOWN_KINDS and p.name.split()[-1].lower() in _STAGE_WORDS}
    if not stages:
        return
    starts, ends = sentence_bounds(doc)
    for norm in order:
        rec = data[norm]
        if rec["kind"] != "festival" or rec["generic"] or rec["location"] is not None:
            continue
        for m in rec["mentions"]:
            span = doc.char_span(m.start, m.end, alignment_mode="expand")
            if span is None:
                continue
            here = {place_starts[k] for k in range(starts[span.start], ends[span.start]) if place_starts.get(k) in stages
                    and not _apart(span.root, doc[k])}
            if len(here) == 1:
                rec["location"], rec["location_rule"] = here.pop(), STAGE.id
                break


def _apart(one: Token, other: Token) -> bool:
    """Whether either token sits in a relative clause the other is outside of: in "X, who played
    at the Y Festival, will close the Z Stage" the stage is another show's."""
    for a, b in ((one, other), (other, one)):
        for node in [a, *a.ancestors]:
            if node.dep_ == "relcl" and not node.left_edge.i <= b.i <= node.right_edge.i:
                return True
    return False


def place_from_later_clauses(
    doc: Doc, data: dict[str, dict], order: list[str], place_starts: dict[int, str], event_tokens: frozenset[int],
    places: tuple[Place, ...], published: str | None,
) -> None:
    """Locate events from clauses that do not follow their name.

    "X won at the Y Awards on Sunday, taking home three prizes at V" places the Awards at V;
    failing that, "The festival returns to V in August" places the last festival named before
    it, unless the clause speaks of another edition ("The gala will be held at W next year").
    """
    venues = {p.key for p in places if p.kind not in TOWN_KINDS and p.kind != "place"}
    for norm in order:
        rec = data[norm]
        # none yet, or only a town: a venue of the clause is more exact
        open_ = rec["location"] is None or rec["location"] not in venues
        for m in rec["mentions"] if open_ else ():
            span = doc.char_span(m.start, m.end, alignment_mode="expand")
            venue = _clause_venue(doc, span, place_starts, venues) if span is not None else None
            if venue is not None:
                rec["location"], rec["location_rule"] = venue, LATER_CLAUSE.id
                break
    for match in BACK_REFERENCE_RE.finditer(doc_text(doc)):
        noun = doc.char_span(match.start(1), match.end(1))
        if noun is None or noun.start in event_tokens:
            continue
        verb = _own_verb(noun[0])
        kinds = BACK_NOUNS[noun.text.lower()]
        earlier = [n for n in order if not data[n]["generic"] and data[n]["mentions"][0].start < noun.start_char
                   and (not kinds or data[n]["kind"] in kinds)]
        if verb is not None and earlier and data[earlier[-1]]["location"] is None \
                and not _another_edition(verb, data[earlier[-1]]["date"], published):
            rec = data[earlier[-1]]
            rec["location"] = _verb_place(doc, verb, place_starts)
            rec["location_rule"] = BACK_REFERENCE.id if rec["location"] else None
            # "The final will be played at V on May 18": its date too, when it had none
            rec["date"] = rec["date"] or _verb_date(doc, verb, published)


def _another_edition(verb: Token, date: When | None, published: str | None) -> bool:
    """Whether a clause about a recurring event dates another edition: "next year", "last year",
    or a year that is not the event's."""
    for tok in verb.subtree:
        if tok.ent_type_ != "DATE" or tok.ent_iob_ != "B":
            continue
        ent = next(e for e in doc_ents(tok.doc) if e.start == tok.i)
        if any(w in ent.text.lower() for w in RELATIVE_YEARS) and date is not None:
            return True
        when = parse_date(ent.text, published)
        if when.value and date is not None and date.value and when.value[:4] != date.value[:4]:
            return True
    return False


def _clause_venue(doc: Doc, span: Span, place_starts: dict[int, str], venues: set[str]) -> str | None:
    """A venue "at" which the event's own clause, or a participle of it, happens.

    "Fans braved the rain at V on Saturday for the opening day of X"; "Y won at X on Sunday,
    taking home three prizes at V". A venue of another clause ("Y, who played at V, will
    headline X") is not the event's.
    """
    clause = governing_verb(span.root)
    starts, ends = sentence_bounds(doc)
    for k in range(starts[span.start], ends[span.start]):
        if place_starts.get(k) not in venues or span.start <= k < span.end:
            continue
        prep = k - 1
        while prep > starts[span.start] and doc[prep].pos_ == "DET":
            prep -= 1
        verb = governing_verb(doc[prep])
        # "..., taking three prizes at V", "performed it live at V" (the model reads "live" a verb):
        # a verb of the clause's own, with no subject and no conjunction of its own
        participle = verb.dep_ in labels("participle-link") and verb.head.i == clause.i and not any(
            c.dep_ in ("nsubj", "nsubjpass", "mark") for c in verb.children)
        if doc[prep].lower_ == "at" and (verb.i == clause.i or participle) and not _in_other_happening(doc[prep], verb):
            return place_starts[k]
    return None


def _in_other_happening(token: Token, verb: Token) -> bool:
    """Whether ``token`` sits in an "after ..."/"before ..." phrase of ``verb``: "reached the final
    after a win at V" puts the win at V, not the final."""
    cur = token
    while cur.i != verb.i and cur.head.i != cur.i:
        if cur.lower_ in _OTHER_TIME_PREPS:
            return True
        cur = cur.head
    return False
