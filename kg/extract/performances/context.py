"""Where and when a performance took place, from its clause, its paragraph and the article.

The clause gives the place and date it names ("at V on Sunday"); a paragraph's event
carries on for a sentence or two for the acts it was about; the one show an article is
about places what its own acts perform; a review with no named show places its act at the
venue its top names.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from spacy.tokens import Doc, Span, Token

from kg.extract.events.extract import referred_event
from kg.extract.events.names import BACK_NOUNS
from kg.extract.events.scene import (
    article_event,
    people_in,
    titles_a_person,
)
from kg.extract.found import Found
from kg.extract.model import Entity, Event, Place, TextSpan, When, entity_at
from kg.extract.performances.agents import char_span, cue_lemma, subjects
from kg.extract.text.dates import is_clause_date, is_future, parse_date
from kg.extract.text.doc_index import (
    doc_ents,
    doc_tokens,
    governing_verb,
    token_words,
)
from kg.extract.text.lexicon import function_words, labels, tagged, words

#: Participles of a tour's route ("starting at V", "ending at W", "wrapping up at X").
_ROUTE_VERBS = words("route_verbs")


#: Last words of the parts of a festival site ("the Riverside Stage", "the Dance Tent").
_STAGE_WORDS = tagged("stage_words", "part")


#: Event kinds that bill many acts: their paragraph's event is lent to anyone performing in it.
MULTI_ACT_KINDS = frozenset({"festival", "award"})


#: Verbs whose "in C" says where someone lives, was born or studied, not where they performed.
_HOME_VERBS = words("home_verbs")


#: Nouns that refer to the show an article is about ("opened the show", "later in the evening").
_SHOW_WORDS = words("show_words")


#: Nouns after a place that make it one night of a tour ("on the Tacoma date").
_DATE_NOUNS = words("tour_date_nouns")


#: How many sentences an event set by context stays in force without a new performance.
_CONTEXT_SPAN = 2


def is_caption(text_all: str, sent: Span) -> bool:
    """A photo caption: a paragraph of one sentence without a final full stop."""
    raw = text_all[sent.start_char : sent.end_char]
    text = raw.strip()
    end_char = sent.start_char + len(raw.rstrip())
    before = text_all[max(0, sent.start_char - 2) : sent.start_char]
    after = text_all[end_char : end_char + 2]
    alone = (sent.start_char == 0 or before.endswith("\n")) and (not after.strip() or after.startswith("\n"))
    return alone and bool(text) and text[-1] not in ".!?\"”’"


def event_context(sent: Span, idx: Index) -> str | None:
    """The event a sentence is set in: the first one it names ("During the X residency, ...")."""
    return next((idx.event_at[i] for i in range(sent.start, sent.end) if i in idx.event_at), None)


def location_in(doc: Doc, start: int, end: int, idx: Index) -> str | None:
    """A place named after "at"/"in" in the clause, or "on the Tacoma date" (a place before a show noun)."""
    for k in range(start, end - 1):
        low = doc[k].lower_
        # "Born in C, she began singing": where someone lives or comes from is no stage
        if low in function_words("venue-prep") and doc[k].head.lemma_.lower() not in _HOME_VERBS:
            j = k + 1
            while j < end and doc[j].pos_ == "DET":
                j += 1
            if j not in idx.place_at or j in idx.event_at:
                continue
            key = idx.place_at[j]
            after = j
            while after < len(doc) and idx.place_at.get(after) == key:
                after += 1
            # "on the Tacoma date", "on the Pyramid Stage"; "on" before a bare place is no location
            if low != "on" or (after < len(doc) and doc[after].lower_ in _DATE_NOUNS) or \
                    doc[after - 1].lower_ in _STAGE_WORDS:
                return key
    return None


def route_participle(verb: Token, verbs: list[Token]) -> bool:
    """ "will play twelve dates, starting at V in A on October 3 and ending at W in B": each end
    of the route is a show of the act playing."""
    if verb.tag_ != "VBG" or cue_lemma(verb) not in _ROUTE_VERBS:
        return False
    head = verb.head
    # "... and ending at W": a participle joined to the first one
    while head.dep_ == "conj" and head.tag_ == "VBG" and head.head.i != head.i:
        head = head.head
    return any(v.i == head.i for v in verbs) and head.i != verb.i


def participle_end(doc: Doc, end: int, sent: Span) -> int:
    """Where a clause ends when the next cue verb only adds its route: "..., starting at V"."""
    if end < sent.end and doc[end].tag_ == "VBG" and doc[end].dep_ in labels("participle-link"):
        return sent.end
    return end


def date_in(doc: Doc, verb: Token, start: int, end: int, idx: Index, published: str | None) -> When | None:
    """The first calendar date in tokens ``start:end`` (before the cue verb) that dates the cue's clause.

    Event names and titles hold no such date, nor does another clause: in "X, whose single
    topped the chart in March, will close the stage" March dates the chart, not the show.
    """
    governing = _governing_verbs(verb)
    for ent in doc_ents(doc):
        if start <= ent.start < end and ent.label_ in ("DATE", "TIME") and ent.start not in idx.event_at \
                and ent.start not in idx.work_at and is_clause_date(ent) \
                and governing_verb(ent.root).i in governing:
            # "will headline ... in August": the next August, not the last
            span = TextSpan(ent.start_char, ent.end_char, ent.text)
            return parse_date(ent.text, published, span, future=is_future(ent.root))
    return None


def _governing_verbs(verb: Token) -> set[int]:
    """The cue verb and the clauses it hangs from ("at V on Monday when he performed"), not its siblings."""
    out = {verb.i}
    cur = verb
    # a conjoined verb is a clause of its own ("X topped the chart in March and will close ...")
    while cur.dep_ not in ("conj", "ROOT") and cur.head.i != cur.i:
        cur = cur.head
        out.add(cur.i)
    return out


@dataclass
class Context:
    """The event the text is currently about, who it is about, and for how long it holds."""

    event: str | None = None
    people: set[str] = field(default_factory=set)
    age: int = 0
    #: who performed last, for "'X' was dedicated to ..." and "the encore was 'Y'" (no act named)
    acts: list[Entity] = field(default_factory=list)
    #: where they performed last (a review names the hall once, then lists the songs)
    place: str | None = None
    #: the sentence that set the event named several acts at it ("X, Y and Z were among the
    #: performers at the funeral"): an occasion of many acts, like a festival, for the sentences after
    several: bool = False

    def update(self, entities: tuple[Entity, ...], sent: Span, here: str | None, caption: bool, acts: list[Entity],
               place: str | None = None) -> None:
        """After a sentence: a non-caption sentence naming an event sets it; others age it."""
        if caption:
            return
        if acts:
            self.acts, self.place = acts, place
        if here is not None:
            self.event, self.people, self.age = here, people_in(entities, sent), 0
            self.several = len(acts) >= 2
            return
        self.age = 0 if acts else self.age + 1
        if self.age > _CONTEXT_SPAN:
            self.event, self.acts, self.place = None, [], None



def within(location: str | None, event: Event, places: tuple[Place, ...]) -> bool:
    """Whether a performance's place fits the event: none, the event's own, or a stage of it
    ("will close the Riverside Stage" at a festival)."""
    if location is None or location == event.location:
        return True
    place = next((p for p in places if p.key == location), None)
    return place is not None and place.name.split()[-1].lower() in _STAGE_WORDS


def same_time(date: When | None, other: When | None) -> bool:
    """Whether two dates may be one occasion: same year when both are known ("in 2016" is not July 2025)."""
    return date is None or other is None or not date.value or not other.value or date.value[:4] == other.value[:4]


def object_place(verb: Token, idx: Index) -> str | None:
    """A place that is the verb's direct object: "played the Brenner Arena", "sold out Wembley"."""
    return next((idx.place_at[c.i] for c in verb.children if c.dep_ in ("dobj", "obj") and c.i in idx.place_at
                 and c.i not in idx.event_at), None)


def act_of_subject_event(doc: Doc, verb: Token, idx: Index, event_key: str | None
                          ) -> tuple[list[Entity], str | None]:
    """The act of a tour or residency that is the verb's subject ("The X Tour opens at V").

    The act is whoever owns the tour where the article names it: "her X Tour", "Y's X Tour",
    "Y announces X Tour" (the subject of the verb the tour is the object of). Returns the act
    and the tour, or no act and ``event_key`` unchanged.
    """
    subject = next((s for s in subjects(verb)), None)
    key = None if subject is None else idx.event_at.get(subject.i) or referred_event(idx.found.events, subject)
    event = next((e for e in idx.found.events if e.key == key), None)
    if event is None or event.kind != "music":
        return [], event_key
    for m in event.mentions:
        span = doc.char_span(m.start, m.end, alignment_mode="expand")
        if span is None:
            continue
        head = span.root
        owners = [c for c in head.children if c.dep_ == "poss"]
        if head.dep_ in ("dobj", "obj"):
            owners += [c for c in head.head.children if c.dep_ in labels("subject")]
        acts = [e for e in (entity_at(idx.found.entities, *char_span(o)) for o in owners) if e is not None]
        if acts:
            return acts, event.key
    return [], event_key


def chain(events: dict[str, Event], key: str | None, attr: str):  # type: ignore[no-untyped-def]
    """An event's place or date, else that of the event it is part of ("the second day of X")."""
    seen: set[str] = set()
    while key is not None and key not in seen:
        value = getattr(events[key], attr)
        if value is not None:
            return value
        seen.add(key)
        key = events[key].super_event
    return None


def top_kind(events: dict[str, Event], key: str) -> str:
    """The kind of the outermost event ``key`` is part of (a festival's second night is a festival)."""
    seen = {key}
    while events[key].super_event and events[key].super_event not in seen:
        key = events[key].super_event
        seen.add(key)
    return events[key].kind


def referred_in(doc: Doc, start: int, end: int, events: tuple[Event, ...]) -> str | None:
    """An event a bare noun of tokens ``start:end`` stands for ("headline the three-day event")."""
    toks, lower = doc_tokens(doc), token_words(doc).lower
    return next((key for k in range(start, end)
                 if lower[k] in BACK_NOUNS and (key := referred_event(events, toks[k])) is not None), None)


def sentence_event(sent: Span, verb: Token, idx: Index) -> str | None:
    """The first event the sentence names outside relative clauses that do not hold the verb.

    In "Ana Silva, who covered 'X' at the Y Gala, will close the stage" the Gala is another show.
    """
    for tok in idx.tokens[sent.start : sent.end]:
        if tok.i in idx.event_at and not in_other_clause(tok, verb):
            return idx.event_at[tok.i]
    return None


def in_other_clause(token: Token, verb: Token) -> bool:
    """Whether ``token`` sits in a relative clause that does not contain ``verb``."""
    for node in [token, *token.ancestors]:
        if node.dep_ == "relcl" and not node.left_edge.i <= verb.i <= node.right_edge.i:
            return True
    return False




@dataclass
class Index:
    """Where works, events and places are mentioned, by token index, and the facts the stages
    before this one found (the stage's input)."""

    found: Found = field(default_factory=Found)
    work_at: dict[int, str] = field(default_factory=dict)
    work_starts: list[tuple[int, str]] = field(default_factory=list)
    event_at: dict[int, str] = field(default_factory=dict)
    place_at: dict[int, str] = field(default_factory=dict)
    work_kind: dict[str, str] = field(default_factory=dict)
    #: the Doc's tokens, made once (spaCy makes a new Token on every iteration)
    tokens: list[Token] = field(default_factory=list)
    #: the article's one named show (see :func:`kg.extract.events.scene.article_event`)
    article_event: str | None = None


def index_mentions(doc: Doc, found: Found) -> Index:
    """Index the mentions of works, events and places by the tokens they cover."""
    idx = Index(found)
    for records, target in ((found.works, idx.work_at), (found.events, idx.event_at), (found.places, idx.place_at)):
        for rec in records:
            for m in rec.mentions:
                span = doc.char_span(m.start, m.end, alignment_mode="expand")
                if span is None or target is idx.event_at and titles_a_person(span):
                    continue
                for k in range(span.start, span.end):
                    target[k] = rec.key
                if target is idx.work_at:
                    idx.work_starts.append((span.start, rec.key))
    idx.work_starts.sort()
    idx.work_kind = {w.key: w.kind for w in found.works}
    idx.tokens = doc_tokens(doc)
    idx.article_event = article_event(doc, found.events)
    return idx


#: Nouns that are a performance of the work they are "of" ("a cover of X", "her rendition of Y").
RENDITION_NOUNS = tagged("rendition_nouns", "performance")


#: Work kinds that are acted in or written, not performed on stage.
_UNPERFORMED = frozenset({"film", "tv", "book"})


def works_in(idx: Index, start: int, end: int) -> list[str]:
    """Performable works (songs, albums, shows, unknown kinds: not films or books) named in a range."""
    out: list[str] = []
    for k in range(start, end):
        key = idx.work_at.get(k)
        if key and key not in out and idx.work_kind.get(key) not in _UNPERFORMED:
            out.append(key)
    return out
