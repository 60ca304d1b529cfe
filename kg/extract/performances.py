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

import re
from dataclasses import dataclass, field, replace

from spacy.tokens import Doc, Span, Token

from kg.extract.coref import entity_at
from kg.extract.cues import is_mark
from kg.extract.dates import is_clause_date, is_future, parse_date, told_as_past
from kg.extract.event_places import date_after
from kg.extract.events import referred_event
from kg.extract.lexicon import function_words, labels, tagged, words
from kg.extract.model import TOWN_KINDS, Entity, Event, Performance, TextSpan, When
from kg.extract.text import (
    DATELINE_SENTENCES,
    doc_text,
    governing_verb,
    sentence_bounds,
)

#: Verbs that are a performance whatever follows them.
_SURE_VERBS = tagged("performance_verbs", "sure")
#: Verbs that are a performance only with a work, a music object or an event ("played a role" is not).
_MAYBE_VERBS = tagged("performance_verbs", "maybe")
#: Verbs whose "with X" names a co-performer ("duetted with X", "performed it with her brother").
_WITH_VERBS = tagged("performance_verbs", "with")
#: Nouns that are a performance of the work they are "of" ("a cover of X", "her rendition of Y").
_RENDITION_NOUNS = tagged("rendition_nouns", "performance")
#: Objects that make an ambiguous verb a performance ("delivered a rendition", "took the stage").
_MUSIC_OBJECTS = words("music_objects")
#: Ambiguous verbs that are a performance with an event alone ("played Glastonbury").
_EVENT_VERBS = tagged("performance_verbs", "event")
#: Objects that make "played"/"took" something else than a performance.
_NON_MUSIC_OBJECTS = words("non_music_objects")
_CUE_LEMMAS = _SURE_VERBS | _MAYBE_VERBS
#: Nouns for the acts billed at an event ("among its headliners", "the lineup includes X").
_BILL_NOUNS = words("bill_nouns")
#: Nouns for performers, billed when "on the lineup" ("among the other acts on the lineup").
_ACT_NOUNS = tagged("musician_nouns", "act")
#: Verbs that say who is on a bill ("the headliners included X", "X were named headliners").
_BILLING_VERBS = words("billing_verbs")
#: Verbs of the voice: their objects are always sung ("sang lead", "sang the part").
_VOICE_VERBS = tagged("performance_verbs", "voice")
#: Descriptions of a band's members ("the frontwoman", "Guitarist Ana Silva").
_MEMBER_NOUNS = tagged("musician_nouns", "frontline")
#: Participles of a tour's route ("starting at V", "ending at W", "wrapping up at X").
_ROUTE_VERBS = words("route_verbs")
#: Last words of the parts of a festival site ("the Riverside Stage", "the Dance Tent").
_STAGE_WORDS = tagged("stage_words", "part")
#: Parts of a show that a copula identifies with a work ("the encore was 'X'").
_SHOW_PARTS = words("show_parts")
_SETLIST_VERBS = function_words("setlist-verb")
_RELATIVES = function_words("relative")
#: Event kinds that bill many acts: their paragraph's event is lent to anyone performing in it.
_MULTI_ACT_KINDS = frozenset({"festival", "award"})
#: Prepositions whose object is whom a performance is for ("dedicated it to his mother").
_RECIPIENT_PREPS = function_words("recipient-prep")
#: Subjects standing for their owner's performance ("her set", "the band's show").
_SHOW_NOUNS = words("show_nouns")
#: Nouns that refer back to the last song named ("before performing the song").
_SONG_ANAPHORS = words("song_anaphors")
_SUBJECT_DEPS = ("nsubj", "nsubjpass")
#: Work kinds that are acted in or written, not performed on stage.
_UNPERFORMED = frozenset({"film", "tv", "book"})
#: Event kinds that are shows an article can be about as a whole.
_SHOW_KINDS = frozenset({"music", "festival", "award", "theater"})

#: Kinds of place that are towns and lands, not venues.
#: Verbs whose "in C" says where someone lives, was born or studied, not where they performed.
_HOME_VERBS = words("home_verbs")
#: Nouns that refer to the show an article is about ("opened the show", "later in the evening").
_SHOW_WORDS = words("show_words")
#: Nouns after a place that make it one night of a tour ("on the Tacoma date").
_DATE_NOUNS = words("tour_date_nouns")
#: How many sentences an event set by context stays in force without a new performance.
_CONTEXT_SPAN = 2


@dataclass
class _Index:
    """Where works, events and places are mentioned, by token index."""

    work_at: dict[int, str] = field(default_factory=dict)
    work_starts: list[tuple[int, str]] = field(default_factory=list)
    event_at: dict[int, str] = field(default_factory=dict)
    place_at: dict[int, str] = field(default_factory=dict)
    work_kind: dict[str, str] = field(default_factory=dict)
    #: the Doc's tokens, made once: spaCy makes a new Token on every iteration (kept off the Doc,
    #: where they would tie it in a reference cycle)
    tokens: list[Token] = field(default_factory=list)
    #: the article's one named show, and the venue its top puts its people at (see the functions)
    article_event: str | None = None
    lead_venue: tuple[str, set[str]] | None = None


def _index(doc: Doc) -> _Index:
    """Index the mentions of works, events and places by the tokens they cover."""
    idx = _Index()
    for records, target in ((doc._.works, idx.work_at), (doc._.events, idx.event_at), (doc._.places, idx.place_at)):
        for rec in records:
            for m in rec.mentions:
                span = doc.char_span(m.start, m.end, alignment_mode="expand")
                if span is None:
                    continue
                for k in range(span.start, span.end):
                    target[k] = rec.key
                if target is idx.work_at:
                    idx.work_starts.append((span.start, rec.key))
    idx.work_starts.sort()
    idx.work_kind = {w.key: w.kind for w in doc._.works}
    idx.tokens = list(doc)
    idx.article_event = _article_event(doc)
    idx.lead_venue = _lead_venue(doc, idx.article_event)
    return idx


def _char_span(token: Token) -> tuple[int, int]:
    """The character offsets of one token."""
    return token.idx, token.idx + len(token.text)


def _subjects(verb: Token) -> list[Token]:
    """The verb's subjects, climbing through "took time to dedicate" / "said before performing"."""
    # "The singer, who ..., dedicated/amod 'X'/appos": the misparsed verb's subject is what 'X' is set beside
    if verb.dep_ == "amod" and verb.head.dep_ == "appos":
        return [verb.head.head]
    # "The X Philharmonic, conducted by Y, performed ...", read as a noun with a clause on it
    if verb.dep_ == "acl" and verb.tag_ in labels("finite-or-gerund") and verb.head.pos_ in ("PROPN", "NOUN"):
        return [verb.head]
    cur: Token | None = verb
    for _ in range(4):
        if cur is None:
            break
        subj = [c for c in cur.children if c.dep_ in _SUBJECT_DEPS]
        mark = next((c for c in cur.children if c.dep_ == "mark"), None)
        if cur is not verb and mark is not None and any(s.i < mark.i for s in subj):
            # "A, after B pulled out, brought ...": parsed with both as subjects of "pulled"; the
            # verb reached through its conjunct is A's, and B belongs to the "after" clause
            subj = [s for s in subj if s.i < mark.i]
        # "Ana Silva, who covered 'X'": the relative pronoun stands for the noun the clause is on
        if cur.dep_ == "relcl" and any(c.lower_ in _RELATIVES for c in subj):
            subj = [cur.head]
        if subj:
            out = []
            for s in subj:
                out.append(s)
                out.extend(c for c in s.conjuncts)
            return out
        if cur.dep_ in labels("clause-link") or cur.dep_ == "pobj":
            cur = cur.head if cur.head.i != cur.i else None
        elif cur.dep_ == "prep":
            cur = cur.head
            # "kicked off the show with X, the lead single ..., before slowing ...": "before" misread
            # as hanging on the object; the clause is still the verb's
            if cur.dep_ in ("dobj", "obj"):
                cur = cur.head
        else:
            break
    return []


def _guests(verb: Token) -> list[Token]:
    """Performers joining the subject: "was joined by X", "duetted with X"."""
    out: list[Token] = []
    # "X joined Y to sing 'Z'", "X brought out Y to perform 'Z'": Y sings too
    if verb.dep_ in ("xcomp", "advcl") and verb.head.lemma_ in ("join", "bring"):
        out.extend(c for c in verb.head.children if c.dep_ in ("dobj", "obj"))
    # "brought out X for a duet": X performs too
    if verb.lemma_ == "bring":
        out.extend(c for c in verb.children if c.dep_ in ("dobj", "obj"))
    for child in verb.children:
        if child.dep_ == "agent" or (child.lower_ in ("with", "alongside") and cue_lemma(verb) in _WITH_VERBS):
            out.extend(obj for obj in child.children if obj.dep_ == "pobj")
    # "with her brother Finneas", "joined by Y and Z": appositions and conjuncts perform too
    out.extend([c for o in out for c in o.children if c.dep_ == "appos"] + [c for o in out for c in o.conjuncts])
    return out


def _performers(doc: Doc, verb: Token) -> list[Entity]:
    """Entities performing: the subject(s), plus guests, each resolved through coreference."""
    # "Metallica's set ended with 'X'": the owner of the set performs
    tokens = [next((c for c in s.children if c.dep_ == "poss"), s) if s.lemma_ in _SHOW_NOUNS else s
              for s in _subjects(verb)]
    passive = any(c.dep_ == "auxpass" for c in verb.children)
    guests = _guests(verb)
    # "'X' was performed by Y": the agent is the performer, not the subject
    if passive and verb.lemma_ not in ("join", "accompany"):
        tokens = guests
    else:
        tokens = tokens + guests
    found: list[Entity] = []
    for tok in tokens:
        # a multi-word name: its head token plus compounds are inside the entity's mention
        entity = entity_at(doc._.entities, *_char_span(tok))
        if entity is not None and entity not in found:
            found.append(entity)
    return found


def _clause_end(verbs: list[Token], verb: Token, sent: Span) -> int:
    """The clause of a cue verb runs to the next cue verb of the sentence, or to a relative clause
    of another verb on what it did ("a set that leaned on her album 'X'": the album is not played)."""
    later = [v.i for v in verbs if v.i > verb.i]
    end = min(later) if later else sent.end
    # (the relative clause hangs on the verb's object, or on the object of its preposition)
    aside = (t.left_edge.i for t in verb.doc[verb.i + 1 : end]
             if t.dep_ == "relcl" and verb in (t.head.head, t.head.head.head))
    return next(aside, end)


def _object_lemmas(verb: Token, titles: dict[int, str]) -> set[str]:
    """Lemmas of the verb's objects, leaving out words of work titles ("Anti-Hero").

    The object of "to"/"for" is whom a song is for ("dedicated it to his mother"), not what is played.
    """
    objs = [c for c in verb.children if c.dep_ in labels("object")]
    for child in verb.children:
        # ("as part of her tour" is no part played)
        if child.dep_ == "prep" and child.lower_ != "as":
            # ("teamed up for a duet": music is never whom it is for)
            objs.extend(g for g in child.children if g.dep_ == "pobj"
                        and (child.lower_ not in _RECIPIENT_PREPS or g.lemma_.lower() in _MUSIC_OBJECTS))
    doc = verb.doc
    # "the lead single" misread with "lead" as the head: the noun after it is the object
    objs = [doc[o.i + 1] if o.i + 1 < len(doc) and doc[o.i + 1].lower_ in _MUSIC_OBJECTS else o for o in objs]
    return {o.lemma_.lower() for o in objs if o.i not in titles}


def _cue_verbs(sent: Span, idx: _Index) -> list[Token]:
    """Tokens of the sentence that may be a performance cue.

    The small model reads "dedicated 'X' to ..." after a long subject as an adjective of the
    title ("dedicated/amod 'X'"): a cue word modifying a title is still the verb.
    """
    return [t for t in idx.tokens[sent.start : sent.end] if cue_lemma(t) in _CUE_LEMMAS and (
        t.pos_ in ("VERB", "AUX") or t.pos_ == "NOUN" and (t.dep_ == "ROOT" or _after_to(t))
        or _misread_as_modifier(t, idx))
        or _show_copula(t) or _with_a_rendition(t)]


def _with_a_rendition(verb: Token) -> bool:
    """ "paid tribute to X with a cover of 'Y'": any verb done with a performance of a work."""
    return verb.pos_ == "VERB" and any(
        c.dep_ == "prep" and c.lower_ in ("with", "to") and any(
            g.dep_ == "pobj" and g.lemma_.lower() in _RENDITION_NOUNS and any(h.lower_ == "of" for h in g.children)
            for g in c.children)
        for c in verb.children)


def _after_to(token: Token) -> bool:
    """ "returned to duet with X": an infinitive the model read as a noun after "to"."""
    return token.i > 0 and token.doc[token.i - 1].lower_ == "to" and token.dep_ == "pobj" \
        and not any(c.dep_ == "det" for c in token.children)


def _show_copula(token: Token) -> bool:
    """ "The encore was a cover of 'X'", "the opener was 'Y'", "highlights included 'A' and 'B'":
    a part of the show is the work."""
    return token.lemma_ in _SETLIST_VERBS and any(
        c.dep_ == "nsubj" and c.lemma_.lower() in _SHOW_PARTS for c in token.children)


def cue_lemma(token: Token) -> str:
    """The verb's lemma, also for a past form the model took for an adjective ("dedicated" -> "dedicate").

    >>> from spacy.tokens import Doc; from spacy.vocab import Vocab
    >>> cue_lemma(Doc(Vocab(), words=["debuted"])[0])
    'debut'
    """
    lemma, form = token.lemma_.lower(), token.text.lower()
    # "made a surprise appearance alongside X for a rendition of 'Y'"
    if lemma == "make" and any(c.dep_ == "dobj" and c.lemma_.lower() == "appearance" for c in token.children):
        return "appear"
    if lemma in _CUE_LEMMAS or not form.endswith("ed"):
        return lemma
    # "dedicated", "debuted", "duetted": drop "d", "ed" or a doubled consonant and "ed"
    return next((form[:-k] for k in (1, 2, 3) if form[:-k] in _CUE_LEMMAS), lemma)


def _misread_as_modifier(token: Token, idx: _Index) -> bool:
    """A past-tense cue word parsed as an adjective: of a work's title ("dedicated/amod 'X'")
    or with the verb's own subject and object ("Silva dedicated/ADJ 'X'")."""
    if token.pos_ not in ("ADJ", "VERB") or not token.lower_.endswith("ed") or token.i in idx.work_at:
        return False
    if token.dep_ == "amod":
        return token.head.i in idx.work_at
    return any(c.dep_ in ("dobj", "nsubj") for c in token.children)


def _works_in(idx: _Index, start: int, end: int) -> list[str]:
    """Performable works (songs, albums, shows, unknown kinds: not films or books) named in a range."""
    out: list[str] = []
    for k in range(start, end):
        key = idx.work_at.get(k)
        if key and key not in out and idx.work_kind.get(key) not in _UNPERFORMED:
            out.append(key)
    return out


def _last_song_before(idx: _Index, i: int) -> str | None:
    """The last work (a song if any) named before token ``i``."""
    before = [key for start, key in idx.work_starts if start < i]
    songs = [key for key in before if idx.work_kind.get(key) == "song"]
    return (songs or before or [None])[-1]


def _anaphor(doc: Doc, verb: Token, start: int, end: int) -> bool:
    """Whether the clause refers back to a song: "performing the song", "sang it"."""
    for k in range(start, end):
        tok = doc[k]
        if tok.lower_ in _SONG_ANAPHORS and k > 0 and doc[k - 1].lower_ in function_words("definite"):
            return True
        if tok.lower_ == "it" and tok.head.i == verb.i and tok.dep_ in ("dobj", "obj"):
            return True
    return False


def _is_caption(text_all: str, sent: Span) -> bool:
    """A photo caption: a paragraph of one sentence without a final full stop."""
    raw = text_all[sent.start_char : sent.end_char]
    text = raw.strip()
    end_char = sent.start_char + len(raw.rstrip())
    before = text_all[max(0, sent.start_char - 2) : sent.start_char]
    after = text_all[end_char : end_char + 2]
    alone = (sent.start_char == 0 or before.endswith("\n")) and (not after.strip() or after.startswith("\n"))
    return alone and bool(text) and text[-1] not in ".!?\"”’"


def _event_context(sent: Span, idx: _Index) -> str | None:
    """The event a sentence is set in: the first one it names ("During the X residency, ...")."""
    return next((idx.event_at[i] for i in range(sent.start, sent.end) if i in idx.event_at), None)


def _location_in(doc: Doc, start: int, end: int, idx: _Index) -> str | None:
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


def _route_participle(verb: Token, verbs: list[Token]) -> bool:
    """ "will play twelve dates, starting at V in A on October 3 and ending at W in B": each end
    of the route is a show of the act playing."""
    if verb.tag_ != "VBG" or cue_lemma(verb) not in _ROUTE_VERBS:
        return False
    head = verb.head
    # "... and ending at W": a participle joined to the first one
    while head.dep_ == "conj" and head.tag_ == "VBG" and head.head.i != head.i:
        head = head.head
    return any(v.i == head.i for v in verbs) and head.i != verb.i


def _participle_end(doc: Doc, end: int, sent: Span) -> int:
    """Where a clause ends when the next cue verb only adds its route: "..., starting at V"."""
    if end < sent.end and doc[end].tag_ == "VBG" and doc[end].dep_ in labels("participle-link"):
        return sent.end
    return end


def _date_in(doc: Doc, verb: Token, start: int, end: int, idx: _Index, published: str | None) -> When | None:
    """The first calendar date in tokens ``start:end`` (before the cue verb) that dates the cue's clause.

    Event names and titles hold no such date, nor does another clause: in "X, whose single
    topped the chart in March, will close the stage" March dates the chart, not the show.
    """
    governing = _governing_verbs(verb)
    for ent in doc.ents:
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
class _Context:
    """The event the text is currently about, who it is about, and for how long it holds."""

    event: str | None = None
    people: set[str] = field(default_factory=set)
    age: int = 0
    #: who performed last, for "'X' was dedicated to ..." and "the encore was 'Y'" (no act named)
    acts: list[Entity] = field(default_factory=list)
    #: where they performed last (a review names the hall once, then lists the songs)
    place: str | None = None

    def update(self, doc: Doc, sent: Span, here: str | None, caption: bool, acts: list[Entity],
               place: str | None = None) -> None:
        """After a sentence: a non-caption sentence naming an event sets it; others age it."""
        if caption:
            return
        if acts:
            self.acts, self.place = acts, place
        if here is not None:
            self.event, self.people, self.age = here, _people_in(doc, sent), 0
            return
        self.age = 0 if acts else self.age + 1
        if self.age > _CONTEXT_SPAN:
            self.event, self.acts, self.place = None, [], None


def extract_performances(doc: Doc) -> tuple[Performance, ...]:
    """One performance per performer per work (or per event when no work is named).

    A performance without a work is dropped when the same performer is also found
    performing a named work at that event, and when it names neither event nor place.
    """
    if not doc._.entities:
        return ()
    idx = _index(doc)
    found: list[Performance] = []
    context = _Context()
    text_all = doc_text(doc)
    for sent in doc.sents:
        caption = _is_caption(text_all, sent)
        here = _event_context(sent, idx) or _referred_in(doc, sent.start, sent.end)
        verbs = _cue_verbs(sent, idx)
        previous: list[Entity] = []
        acts: list[Entity] = []
        start = len(found)
        for verb in verbs:
            unnamed = _act_unnamed(verb)
            # "closed with a set that ended with 'X'": the act of the clause before
            performers = _performers(doc, verb) or (previous if unnamed or not _subjects(verb) else []) or (
                context.acts if unnamed else [])
            # "she duetted with X": a pronoun coreference left open is the act the text is about
            if _open_pronoun(doc, verb):
                performers = [*context.acts, *(p for p in performers if p not in context.acts)]
            previous = performers
            new = _clause_performances(doc, idx, verb, verbs, sent, here, context, performers)
            # the acts the text goes on about are the subjects, not their guests
            guests = {e.key for t in _guests(verb) if (e := entity_at(doc._.entities, *_char_span(t)))}
            acts += [p for p in performers if new and p not in acts and p.key not in guests]
            found.extend(new)
        billed = _billed_performances(doc, idx, sent, here, context)
        found.extend(billed)
        found.extend(_owned_parts(doc, idx, sent, here or context.event or idx.article_event))
        context.update(doc, sent, here, caption, acts or [e for e in doc._.entities if any(
            p.performer == e.key for p in billed)], next((p.location for p in found[start:] if p.location), None))
    return _dedupe(_band_credits(doc, found, idx.article_event))


def _open_pronoun(doc: Doc, verb: Token) -> bool:
    """Whether the verb's subject is a personal pronoun that coreference resolved to no one."""
    return any(s.pos_ == "PRON" and s.lower_ in tagged("pronouns", "subject") and entity_at(doc._.entities, *_char_span(s))
               is None for s in _subjects(verb))


def _act_unnamed(verb: Token) -> bool:
    """A cue that names no act: "'X' was dedicated to ..." (passive, no agent), "the encore was 'Y'",
    "a set that ended with 'Z'"."""
    if any(c.dep_ == "auxpass" for c in verb.children):
        return not any(c.dep_ == "agent" for c in verb.children)
    # "a set that ended with 'X'": the relative pronoun stands for the set
    subjects = [verb.head if verb.dep_ == "relcl" and c.lower_ in _RELATIVES else c
                for c in verb.children if c.dep_ in _SUBJECT_DEPS]
    return any(c.lemma_.lower() in _SHOW_NOUNS | _SHOW_PARTS and not any(g.dep_ == "poss" for g in c.children)
               for c in subjects)


def _billed_performances(doc: Doc, idx: _Index, sent: Span, here: str | None, context: _Context) -> list[Performance]:
    """Acts named as an event's headliners or lineup: "with X and Y among its headliners",
    "the festival's headliners included X", "X were among the headliners of E".

    No work is named, so each act gets one performance at the event (the sentence's, the
    possessor's, the paragraph's or the article's), placed and dated as the event is.
    """
    found: list[Performance] = []
    events = {e.key: e for e in doc._.events}
    for noun in idx.tokens[sent.start : sent.end]:
        # ("Nina's set" with "set" tagged a verb: what is possessed is a noun)
        if noun.pos_ not in ("NOUN", "PROPN") and not (noun.dep_ in labels("argument")
                                                      and any(c.dep_ == "poss" for c in noun.children)):
            continue
        location = None
        if noun.lemma_.lower() in _BILL_NOUNS or _on_the_bill(noun):
            acts = _billed_acts(noun)
            event = _billing_event(noun, idx) or here or context.event or idx.article_event
        elif noun.lemma_.lower() in _SHOW_NOUNS:
            # "Ana's set at the X Gala", "her show at V"
            acts, event, location = _owned_show(noun, idx, here)
        else:
            continue
        if not acts or (event is None and location is None) or any(
                c.dep_ == "neg" for t in (noun, noun.head, noun.head.head) for c in t.children):
            continue
        performers: list[Entity] = []
        for tok in acts:
            entity = entity_at(doc._.entities, *_char_span(tok))
            if entity is not None and entity not in performers:
                performers.append(entity)
        span = TextSpan(sent.start_char, sent.end_char, sent.text)
        where = location or _chain(events, event, "location")
        found.extend(Performance(performer=p.key, span=span, event=event, location=where,
                                 date=_chain(events, event, "date"), cue=noun.text) for p in performers)
    return found


_OWNED_NOUNS = _SHOW_PARTS | _SHOW_NOUNS | _RENDITION_NOUNS


def _owned_parts(doc: Doc, idx: _Index, sent: Span, event: str | None) -> list[Performance]:
    """ "her encore, a cover of 'X'", "his opener, 'Y'", "X's rendition of 'Y'": the owner of a part of a
    show, or of a performance, performed its work."""
    found: list[Performance] = []
    events = {e.key: e for e in doc._.events}
    for noun in idx.tokens[sent.start : sent.end]:
        if noun.pos_ != "NOUN" or noun.lemma_.lower() not in _OWNED_NOUNS:
            continue
        owners = [e for c in noun.children if c.dep_ == "poss"
                  if (e := entity_at(doc._.entities, *_char_span(c))) is not None]
        works = _set_off_works(noun, sent, idx) + _works_of(noun, idx)
        span = TextSpan(sent.start_char, sent.end_char, sent.text)
        found.extend(Performance(performer=o.key, span=span, work=w, event=event, cue=noun.text,
                                 location=_chain(events, event, "location"), date=_chain(events, event, "date"))
                     for o in owners for w in works)
    return found


def _works_of(noun: Token, idx: _Index) -> list[str]:
    """The works a performance noun is "of": "her rendition of 'X'"."""
    if noun.lemma_.lower() not in _RENDITION_NOUNS:
        return []
    return [w for c in noun.children if c.dep_ == "prep" and c.lower_ == "of"
            for w in _works_in(idx, c.i + 1, c.right_edge.i + 1)]


def _set_off_works(noun: Token, sent: Span, idx: _Index) -> list[str]:
    """Works in the phrase set off after a noun ("encore, a cover of 'X'"), up to the next verb."""
    doc = noun.doc
    if noun.i + 1 >= sent.end or not is_mark(doc[noun.i + 1].text, ",:—–"):
        return []
    end = next((t.i for t in doc[noun.i + 2 : sent.end] if t.pos_ in ("VERB", "AUX") or t.text == ";"), sent.end)
    return _works_in(idx, noun.i + 2, end)


def _owned_show(noun: Token, idx: _Index, here: str | None) -> tuple[list[Token], str | None, str | None]:
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
            acts = [c for c in owner.children if c.dep_ in _SUBJECT_DEPS]
    elif noun.dep_ in _SUBJECT_DEPS and head.lemma_.lower() in _BILLING_VERBS:
        # "the headliners included X and Y", "the headliners are X"
        acts = [c for c in head.children if c.dep_ in labels("object")]
    elif noun.dep_ in ("attr", "oprd") and head.lemma_.lower() in _BILLING_VERBS:
        # "X are the headliners", "X were named headliners"
        acts = [c for c in head.children if c.dep_ in _SUBJECT_DEPS]
    # "headliners X and Y"
    acts += [c for c in noun.children if c.dep_ == "appos"]
    acts += [c for a in acts for c in a.conjuncts]
    # "the rock band The X": the name beside the description
    return acts + [c for a in acts for c in a.children if c.dep_ == "appos"]


def _billing_event(noun: Token, idx: _Index) -> str | None:
    """The event whose headliners these are: "the festival's headliners", "headliners of E", "at E"."""
    for child in noun.children:
        if child.dep_ == "poss" and child.i in idx.event_at:
            return idx.event_at[child.i]
        if child.dep_ == "prep" and child.lower_ in function_words("show-prep"):
            obj = next((g for g in child.children if g.dep_ == "pobj"), None)
            if obj is not None and obj.i in idx.event_at:
                return idx.event_at[obj.i]
    return None


def _clause_performances(
    doc: Doc,
    idx: _Index,
    verb: Token,
    verbs: list[Token],
    sent: Span,
    here: str | None,
    context: _Context,
    performers: list[Entity],
) -> list[Performance]:
    """The performances one cue verb reports: its performers, each with each work of its clause."""
    end = _clause_end(verbs, verb, sent)
    works = _works_in(idx, verb.i + 1, end)
    # "'X' was performed by Y" (but in "Y opened with 'W' and was joined by Z", W is Y's alone)
    if any(c.dep_ == "auxpass" for c in verb.children):
        works = [w for s in verb.children if s.dep_ == "nsubjpass"
                 for w in _works_in(idx, s.left_edge.i, s.right_edge.i + 1)] + works
    # "before performing the song": the last song named
    if not works and _anaphor(doc, verb, verb.i + 1, end):
        song = _last_song_before(idx, verb.i)
        works = [song] if song else []
    # "the single 'X', which she debuted at E": the relative pronoun object is the title it hangs on
    if verb.dep_ == "relcl" and verb.head.i in idx.work_at and any(
            c.dep_ in ("dobj", "obj") and c.lower_ in _RELATIVES for c in verb.children):
        works = [idx.work_at[verb.head.i], *works]
    named_event = next((idx.event_at[k] for k in range(verb.i + 1, end) if k in idx.event_at), None)
    event = (named_event or _referred_in(doc, verb.i + 1, end) or _sentence_event(sent, verb, idx)
             or _referred_in(doc, sent.start, verb.i))
    # "The X Tour opens at V and closes at W": the tour stands for its act
    by_tour = not performers
    if by_tour:
        performers, event = _act_of_subject_event(doc, verb, idx, event)
    # "played Hamlet", "appeared in the musical X": a work of another kind is a part played
    if cue_lemma(verb) in ("play", "appear"):
        works = [w for w in works if idx.work_kind.get(w) in ("song", "album")]
    # "..., starting at V"; "the new leg kicks off at V": a stop on a route
    route = not works and (_route_participle(verb, verbs)
                           or by_tour and bool(performers) and cue_lemma(verb) in _ROUTE_VERBS)
    # "played the Brenner Arena": a place played is as good as an event played
    stage = event or _object_place(verb, idx)
    if not performers or not (route or _is_performance(verb, works, stage, _object_lemmas(verb, idx.work_at))):
        return []
    # "debuted 'Spark' from his album 'Play'": the album is the source, the song is performed
    if any(idx.work_kind.get(w) == "song" for w in works):
        works = [w for w in works if idx.work_kind.get(w) != "album"]
    events = {e.key: e for e in doc._.events}
    # "played the Brenner Arena"; the clause after the verb; else the sentence before it
    # ("at V on Monday when he performed")
    location = (
        _object_place(verb, idx)
        or _location_in(doc, verb.i + 1, _participle_end(doc, end, sent), idx)
        or _location_in(doc, sent.start, verb.i, idx)
    )
    # a stop on a route is a performance only where it is placed
    if route and location is None:
        return []
    published = doc._.published
    named = frozenset(idx.event_at) | frozenset(idx.work_at)
    date = date_after(doc, verb.i + 1, end, set(), published, named)
    date = date or _date_in(doc, verb, sent.start, verb.i, idx, published)
    # "stopped the show in 2016": a show referred to, dated otherwise, is another one
    if event is not None and event != named_event and not _same_time(date, events[event].date):
        event = None
    # the paragraph's event, for the people it is about (anyone at a festival or award show),
    # unless the clause puts the act elsewhere or at another time ("in 2016")
    if event is None and context.event is not None and _within(location, events[context.event], doc) \
            and _same_time(date, events[context.event].date) \
            and (any(p.key in context.people for p in performers)
                 or _top_kind(events, context.event) in _MULTI_ACT_KINDS):
        event = context.event
    # the same acts, a sentence or two after they were placed, are still there
    if event is None and location is None and context.place and any(p in context.acts for p in performers):
        location = context.place
    # nothing in the paragraph places it elsewhere: the one show the whole article is about
    # (a review), for its own people or in a sentence that speaks of the show ("earlier in the evening");
    # at an award show or a festival, anyone performing undated
    if event is None:
        show = idx.article_event
        # (a clause placing itself on a stage, beside another clause naming the show, is elsewhere)
        aside = location is not None and any(idx.event_at.get(t.i) == show and _in_other_clause(t, verb)
                                             for t in idx.tokens[sent.start : sent.end])
        if show is not None and not aside and _within(location, events[show], doc) \
                and _same_time(date, events[show].date) and (
                any(p.key in _people_of_event(doc, show) for p in performers) or _speaks_of_the_show(doc, sent)
                or _day_of_the_show(date) and _top_kind(events, show) in _MULTI_ACT_KINDS):
            event = show
    # no show named at all: the venue the top of the article put the act at
    if event is None and location is None:
        lead = idx.lead_venue
        if lead is not None and (not lead[1] or any(p.key in lead[1] for p in performers)
                                 or _speaks_of_the_show(doc, sent)):
            location = lead[0]
    if event is not None:
        location = location or _chain(events, event, "location")
        date = date or _chain(events, event, "date")
    span = TextSpan(sent.start_char, sent.end_char, sent.text)
    return [
        Performance(performer=p.key, span=span, work=w, event=event, location=location, date=date, cue=verb.text)
        for p in performers
        for w in works or [None]
    ]


def _day_of_the_show(date: When | None) -> bool:
    """No date, or a day a report counts from ("on Sunday", "last night"), not "in 2016" or "last year"."""
    return date is None or not re.search(r"\d{4}|year|month|decade", date.text.lower())


def _within(location: str | None, event: Event, doc: Doc) -> bool:
    """Whether a performance's place fits the event: none, the event's own, or a stage of it
    ("will close the Riverside Stage" at a festival)."""
    if location is None or location == event.location:
        return True
    place = next((p for p in doc._.places if p.key == location), None)
    return place is not None and place.name.split()[-1].lower() in _STAGE_WORDS


def _same_time(date: When | None, other: When | None) -> bool:
    """Whether two dates may be one occasion: same year when both are known ("in 2016" is not July 2025)."""
    return date is None or other is None or not date.value or not other.value or date.value[:4] == other.value[:4]


def _object_place(verb: Token, idx: _Index) -> str | None:
    """A place that is the verb's direct object: "played the Brenner Arena", "sold out Wembley"."""
    return next((idx.place_at[c.i] for c in verb.children if c.dep_ in ("dobj", "obj") and c.i in idx.place_at
                 and c.i not in idx.event_at), None)


def _act_of_subject_event(doc: Doc, verb: Token, idx: _Index, event_key: str | None
                          ) -> tuple[list[Entity], str | None]:
    """The act of a tour or residency that is the verb's subject ("The X Tour opens at V").

    The act is whoever owns the tour where the article names it: "her X Tour", "Y's X Tour",
    "Y announces X Tour" (the subject of the verb the tour is the object of). Returns the act
    and the tour, or no act and ``event_key`` unchanged.
    """
    subject = next((s for s in _subjects(verb)), None)
    key = None if subject is None else idx.event_at.get(subject.i) or referred_event(doc, subject)
    event = next((e for e in doc._.events if e.key == key), None)
    if event is None or event.kind != "music":
        return [], event_key
    for m in event.mentions:
        span = doc.char_span(m.start, m.end, alignment_mode="expand")
        if span is None:
            continue
        head = span.root
        owners = [c for c in head.children if c.dep_ == "poss"]
        if head.dep_ in ("dobj", "obj"):
            owners += [c for c in head.head.children if c.dep_ in _SUBJECT_DEPS]
        found = [e for e in (entity_at(doc._.entities, *_char_span(o)) for o in owners) if e is not None]
        if found:
            return found, event.key
    return [], event_key


def _chain(events: dict[str, Event], key: str | None, attr: str):  # type: ignore[no-untyped-def]
    """An event's place or date, else that of the event it is part of ("the second day of X")."""
    seen: set[str] = set()
    while key is not None and key not in seen:
        value = getattr(events[key], attr)
        if value is not None:
            return value
        seen.add(key)
        key = events[key].super_event
    return None


def _top_kind(events: dict[str, Event], key: str) -> str:
    """The kind of the outermost event ``key`` is part of (a festival's second night is a festival)."""
    seen = {key}
    while events[key].super_event and events[key].super_event not in seen:
        key = events[key].super_event
        seen.add(key)
    return events[key].kind


def _referred_in(doc: Doc, start: int, end: int) -> str | None:
    """An event a bare noun of tokens ``start:end`` stands for ("headline the three-day event")."""
    return next((key for k in range(start, end) if (key := referred_event(doc, doc[k])) is not None), None)


def _sentence_event(sent: Span, verb: Token, idx: _Index) -> str | None:
    """The first event the sentence names outside relative clauses that do not hold the verb.

    In "Ana Silva, who covered 'X' at the Y Gala, will close the stage" the Gala is another show.
    """
    for tok in idx.tokens[sent.start : sent.end]:
        if tok.i in idx.event_at and not _in_other_clause(tok, verb):
            return idx.event_at[tok.i]
    return None


def _in_other_clause(token: Token, verb: Token) -> bool:
    """Whether ``token`` sits in a relative clause that does not contain ``verb``."""
    for node in [token, *token.ancestors]:
        if node.dep_ == "relcl" and not node.left_edge.i <= verb.i <= node.right_edge.i:
            return True
    return False


def _article_event(doc: Doc) -> str | None:
    """The only named show of the article (a tour, festival, award show), if there is exactly one.

    A concert review or an award-show report is about one event and often names it once, far
    from the sentences listing what was played; two named shows make this a guess, so none.
    """
    # (a named show: "the 69th Grammys" too, not "the opening night")
    shows = [e.key for e in doc._.events if e.kind in _SHOW_KINDS and (e.name[:1].isupper() or e.name[:1].isdigit())
             and e.super_event is None]
    return shows[0] if len(shows) == 1 else None


def _lead_venue(doc: Doc, article_event: str | None) -> tuple[str, set[str]] | None:
    """The one venue the top of an article without a named show says its people were at, with them
    (none: "The revival opened at V" puts everyone there).

    "X returned to the Y Hall on Saturday for the first of three shows": a review names
    the hall once, at the top, and then goes through the set.
    """
    found = None
    if article_event is None:
        venues = {p.key: p for p in doc._.places if p.kind not in TOWN_KINDS}
        for sent in list(doc.sents)[: DATELINE_SENTENCES + 1]:
            # where someone went or was ("returned to V", "played V"), not a modifier ("a V revival")
            spans = [(key, doc.char_span(m.start, m.end, alignment_mode="expand")) for key, p in venues.items()
                     for m in p.mentions if sent.start_char <= m.start < sent.end_char]
            here = {key for key, span in spans if span is not None and _reached(span.root)}
            if len(here) == 1:
                found = (here.pop(), _people_in(doc, sent))
                break
    return found


def _reached(token: Token) -> bool:
    """A place someone went to, was at or played, in the past: "returned to V", "opened at V", "played V"."""
    if token.dep_ == "pobj" and token.head.lower_ in function_words("locating-prep"):
        verb = token.head.head
    elif token.dep_ in ("dobj", "obj"):
        verb = token.head
    else:
        return False
    return verb.pos_ in ("VERB", "AUX") and told_as_past(verb)


def _people_of_event(doc: Doc, key: str) -> set[str]:
    """Entities named in any sentence (headlines too) that names the event ``key``."""
    event = next(e for e in doc._.events if e.key == key)
    starts, ends = sentence_bounds(doc)
    people: set[str] = set()
    for m in event.mentions:
        span = doc.char_span(m.start, m.end, alignment_mode="expand")
        if span is not None:
            people |= _people_in(doc, doc[starts[span.start] : ends[span.start]])
    return people


def _speaks_of_the_show(doc: Doc, sent: Span) -> bool:
    """ "opened the show", "earlier in the evening", "the encore": the sentence is about a show."""
    return any(
        t.lower_ in _SHOW_WORDS and t.i > sent.start and doc[t.i - 1].lower_ in function_words("definite")
        for t in sent
    )


def _people_in(doc: Doc, sent: Span) -> set[str]:
    """Keys of the entities mentioned in a sentence (by name, pronoun or description)."""
    return {e.key for e in doc._.entities for m in e.mentions if sent.start_char <= m.start < sent.end_char}


def _is_performance(verb: Token, works: list[str], event: str | None, objects: set[str]) -> bool:
    """Whether a cue verb is a performance here: always for "perform", with evidence for "play"."""
    lemma = cue_lemma(verb)
    # "she did not perform", "never played it"
    if any(c.dep_ == "neg" for c in verb.children):
        return False
    # "played a role", "took a break"; what is sung is sound ("singing lead on X")
    if objects & _NON_MUSIC_OBJECTS and lemma not in _VOICE_VERBS:
        return False
    if lemma in _SURE_VERBS or works and _with_a_rendition(verb):
        return True
    # "opened up about", "took over"; but "kicked off", "brought out" a guest
    if any(c.dep_ == "prt" for c in verb.children) and lemma not in tagged("performance_verbs", "particle"):
        return False
    if lemma == "take":
        return "stage" in objects or "solo" in objects and bool(works)
    if lemma == "be":
        return bool(works)

    # "brought out X" is a guest appearance only with something performed
    if lemma == "bring":
        return bool(works) or "duet" in objects or "performance" in objects
    return bool(works) or bool(objects & _MUSIC_OBJECTS) or (event is not None and lemma in _EVENT_VERBS)


def _band_credits(doc: Doc, found: list[Performance], show: str | None) -> list[Performance]:
    """At a band's own show, what its members perform is the band's performance too.

    When the article is about one concert or tour (a "music" event) at which exactly one group
    performs, a person described as a band member ("the frontwoman", "guitarist X") who
    performs with no other event or place named performs at that show, and the band with them,
    unless they came on as a guest ("joined the band").
    """
    events = {e.key: e for e in doc._.events}
    if show is None or events[show].kind != "music":
        return found
    kinds = {e.key: e.kind for e in doc._.entities}
    bands = {p.performer for p in found if p.event == show and kinds.get(p.performer) in ("group", "organization")}
    if len(bands) != 1:
        return found
    band = bands.pop()
    members = {e.key for e in doc._.entities if e.kind == "person" and any(
        word in _MEMBER_NOUNS for d in e.descriptions for word in d.lower().split())}
    out: list[Performance] = []
    for p in found:
        if p.performer in members and p.event is None and p.location is None:
            p = replace(p, event=show, location=events[show].location, date=p.date or events[show].date)
        out.append(p)
        if p.performer in members and p.event == show and not (p.cue or "").lower().startswith("join"):
            out.append(replace(p, performer=band))
    return out


def _billing_cue(cue: str | None) -> bool:
    """Whether a performance was read from a headline slot: "headlined", "will headline", "among its headliners"."""
    low = (cue or "").lower()
    return low.startswith(("headlin", "co-headlin"))


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
        if p.work is None and not _billing_cue(p.cue) and (p.performer, p.event, None if p.event else p.location) \
                in with_work:
            continue
        # the legs of a tour are told apart by their places; an unplaced mention of the tour adds nothing
        if p.work is None and p.event and p.location is None and (p.performer, p.event) in placed:
            continue
        key = (p.performer, p.work, None) if p.work is not None else (p.performer, p.event, p.location)
        if key in seen:
            continue
        seen.add(key)
        out.append(p)
    return tuple(out)

