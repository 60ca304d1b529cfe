"""Performances: who performed which work, at which event, where and when.

A performance is read from a cue verb ("performed", "sang", "opened with", "was joined
by X for Y", "headlined", "delivered a rendition of"), its performer from the verb's
subject through coreference (``entity_at``: "she", "the folk singer"), its works from the
clause after the verb ("opened with A, then B and C"; "the song" is the last song named),
and its event from the sentence or, failing that, from the event the paragraph is about
("During the X residency ..., she ... . Rivera performed 'Y'"). Location and date come from
the clause, else from the event.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from spacy.tokens import Doc, Span, Token

from kg.extract.coref import entity_at
from kg.extract.dates import is_date_text, is_event_day, is_future, parse_date
from kg.extract.events import date_after, doc_text, sentence_bounds
from kg.extract.model import Entity, Performance, TextSpan, When

#: Verbs that are a performance whatever follows them.
_SURE_VERBS = frozenset({"perform", "sing", "headline", "duet", "belt", "croon", "serenade", "rap"})
#: Verbs that are a performance only with a work, a music object or an event ("played a role" is not).
_MAYBE_VERBS = frozenset({"play", "open", "close", "cover", "debut", "dedicate", "deliver", "premiere", "premier",
                          "join", "rock", "take", "kick", "end", "finish", "start", "launch", "bring"})
#: Verbs whose "with X" names a co-performer ("duetted with X", "performed it with her brother").
_WITH_VERBS = frozenset({"duet", "perform", "sing", "join", "play"})
#: Objects that make an ambiguous verb a performance ("delivered a rendition", "took the stage").
_MUSIC_OBJECTS = frozenset({"song", "songs", "track", "tracks", "set", "rendition", "version", "hit", "hits",
                            "medley", "number", "tune", "ballad", "anthem", "concert", "show", "gig",
                            "stage", "encore", "performance", "setlist", "single", "cover", "duet",
                            "date", "dates", "shows", "gigs", "concerts", "night", "nights"})
#: Ambiguous verbs that are a performance with an event alone ("played Glastonbury").
_EVENT_VERBS = frozenset({"play", "open", "close", "headline"})
#: Objects that make "played"/"took" something else than a performance.
_NON_MUSIC_OBJECTS = frozenset({"role", "part", "character", "game", "match", "card", "golf", "tennis",
                                "football", "basketball", "baseball", "soccer", "video", "villain", "hero",
                                "mother", "father", "time", "break", "step", "look", "photo", "picture",
                                "lead", "seat", "issue", "aim", "note", "credit", "chance"})
#: Subjects standing for their owner's performance ("her set", "the band's show").
_SHOW_NOUNS = frozenset({"set", "show", "concert", "gig", "performance", "encore", "setlist"})
#: Nouns that refer back to the last song named ("before performing the song").
_SONG_ANAPHORS = frozenset({"song", "track", "tune", "number", "ballad", "anthem", "hit", "single"})
_SUBJECT_DEPS = ("nsubj", "nsubjpass")
#: Work kinds that are acted in or written, not performed on stage.
_UNPERFORMED = frozenset({"film", "tv", "book"})
#: Event kinds that are shows an article can be about as a whole.
_SHOW_KINDS = frozenset({"music", "festival", "award", "theater"})
#: Nouns that refer to the show an article is about ("opened the show", "later in the evening").
_SHOW_WORDS = frozenset({"show", "evening", "night", "ceremony", "encore", "concert", "gig", "set", "crowd",
                         "audience"})
#: Nouns after a place that make it one night of a tour ("on the Tacoma date").
_DATE_NOUNS = frozenset({"date", "night", "show", "leg", "stop", "gig", "concert"})
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
    return idx


def _char_span(token: Token) -> tuple[int, int]:
    """The character offsets of one token."""
    return token.idx, token.idx + len(token.text)


def _subjects(verb: Token) -> list[Token]:
    """The verb's subjects, climbing through "took time to dedicate" / "said before performing"."""
    cur: Token | None = verb
    for _ in range(4):
        if cur is None:
            break
        subj = [c for c in cur.children if c.dep_ in _SUBJECT_DEPS]
        if subj:
            out = []
            for s in subj:
                out.append(s)
                out.extend(c for c in s.conjuncts)
            return out
        if cur.dep_ in ("xcomp", "advcl", "pcomp", "conj", "ccomp", "acl", "relcl") or cur.dep_ == "pobj":
            cur = cur.head if cur.head.i != cur.i else None
        elif cur.dep_ == "prep":
            cur = cur.head
        else:
            break
    return []


def _guests(verb: Token) -> list[Token]:
    """Performers joining the subject: "was joined by X", "duetted with X"."""
    out: list[Token] = []
    # "X joined Y to sing 'Z'": Y sings too
    if verb.dep_ in ("xcomp", "advcl") and verb.head.lemma_ == "join":
        out.extend(c for c in verb.head.children if c.dep_ in ("dobj", "obj"))
    # "brought out X for a duet": X performs too
    if verb.lemma_ == "bring":
        out.extend(c for c in verb.children if c.dep_ in ("dobj", "obj"))
    for child in verb.children:
        if child.dep_ == "agent" or (child.lower_ == "with" and verb.lemma_ in _WITH_VERBS):
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
    if passive and verb.lemma_ != "join":
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
    """The clause of a cue verb runs to the next cue verb of the sentence."""
    later = [v.i for v in verbs if v.i > verb.i]
    return min(later) if later else sent.end


def _object_lemmas(verb: Token, titles: dict[int, str]) -> set[str]:
    """Lemmas of the verb's objects, leaving out words of work titles ("Anti-Hero")."""
    objs = [c for c in verb.children if c.dep_ in ("dobj", "obj", "attr", "oprd")]
    for child in verb.children:
        if child.dep_ == "prep":
            objs.extend(g for g in child.children if g.dep_ == "pobj")
    return {o.lemma_.lower() for o in objs if o.i not in titles}


def _cue_verbs(sent: Span) -> list[Token]:
    """Tokens of the sentence that may be a performance cue."""
    return [t for t in sent if t.lemma_.lower() in _SURE_VERBS | _MAYBE_VERBS and t.pos_ in ("VERB", "NOUN", "AUX")
            and (t.pos_ != "NOUN" or t.dep_ == "ROOT")]


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
        if tok.lower_ in _SONG_ANAPHORS and k > 0 and doc[k - 1].lower_ in ("the", "that", "this"):
            return True
        if tok.lower_ == "it" and tok.head.i == verb.i and tok.dep_ in ("dobj", "obj"):
            return True
    return False


def _is_caption(text_all: str, sent: Span) -> bool:
    """A photo caption: a paragraph of one sentence without a final full stop."""
    text = sent.text.strip()
    end_char = sent.start_char + len(sent.text.rstrip())
    before = text_all[max(0, sent.start_char - 2) : sent.start_char]
    after = text_all[end_char : end_char + 2]
    alone = (sent.start_char == 0 or before.endswith("\n")) and (not after.strip() or after.startswith("\n"))
    return alone and bool(text) and text[-1] not in ".!?\"”’"


def _event_context(sent: Span, idx: _Index) -> str | None:
    """The event a sentence is set in: the first one it names ("During the X residency, ...")."""
    return next((idx.event_at[tok.i] for tok in sent if tok.i in idx.event_at), None)


def _location_in(doc: Doc, start: int, end: int, idx: _Index) -> str | None:
    """A place named after "at"/"in" in the clause, or "on the Tacoma date" (a place before a show noun)."""
    for k in range(start, end - 1):
        low = doc[k].lower_
        if low in ("at", "in", "inside", "on"):
            j = k + 1
            while j < end and doc[j].pos_ == "DET":
                j += 1
            if j not in idx.place_at or j in idx.event_at:
                continue
            key = idx.place_at[j]
            after = j
            while after < len(doc) and idx.place_at.get(after) == key:
                after += 1
            # "on the Tacoma date", "on the Tacoma night"; "on" before a bare place is no location
            if low != "on" or (after < len(doc) and doc[after].lower_ in _DATE_NOUNS):
                return key
    return None


def _participle_end(doc: Doc, end: int, sent: Span) -> int:
    """Where a clause ends when the next cue verb only adds its route: "..., starting at V"."""
    if end < sent.end and doc[end].tag_ == "VBG" and doc[end].dep_ in ("advcl", "xcomp", "conj"):
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
                and ent.start not in idx.work_at and is_date_text(ent.text) and not is_event_day(ent) \
                and _verb_of(ent.root) in governing:
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


def _verb_of(token: Token) -> int | None:
    """The index of the nearest verb above ``token`` (itself if it is one)."""
    cur = token
    for _ in range(8):
        if cur.pos_ in ("VERB", "AUX"):
            return cur.i
        if cur.head.i == cur.i:
            return cur.i
        cur = cur.head
    return None


@dataclass
class _Context:
    """The event the text is currently about, who it is about, and for how long it holds."""

    event: str | None = None
    people: set[str] = field(default_factory=set)
    age: int = 0

    def update(self, doc: Doc, sent: Span, here: str | None, caption: bool, performed: bool) -> None:
        """After a sentence: a non-caption sentence naming an event sets it; others age it."""
        if caption:
            return
        if here is not None:
            self.event, self.people, self.age = here, _people_in(doc, sent), 0
            return
        self.age = 0 if performed else self.age + 1
        if self.age > _CONTEXT_SPAN:
            self.event = None


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
        here = _event_context(sent, idx)
        verbs = _cue_verbs(sent)
        previous: list[Entity] = []
        performed = False
        for verb in verbs:
            performers = _performers(doc, verb) or (previous if not _subjects(verb) else [])
            previous = performers
            new = _clause_performances(doc, idx, verb, verbs, sent, here, context, performers)
            performed = performed or bool(new)
            found.extend(new)
        context.update(doc, sent, here, caption, performed)
    return _dedupe(found)


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
    # "'X' was performed by Y", "Y was joined by Z for 'X'"
    if any(c.dep_ == "auxpass" for c in verb.children):
        works = _works_in(idx, sent.start, verb.i) + works
    # "before performing the song": the last song named
    if not works and _anaphor(doc, verb, verb.i + 1, end):
        song = _last_song_before(idx, verb.i)
        works = [song] if song else []
    event = next((idx.event_at[k] for k in range(verb.i + 1, end) if k in idx.event_at), None) or here
    # "played Hamlet": a work of unknown kind after "play" is as often a role as a song
    if verb.lemma_ == "play":
        works = [w for w in works if idx.work_kind.get(w) in ("song", "album")]
    if not performers or not _is_performance(verb, works, event, _object_lemmas(verb, idx.work_at)):
        return []
    # "debuted 'Spark' from his album 'Play'": the album is the source, the song is performed
    if any(idx.work_kind.get(w) == "song" for w in works):
        works = [w for w in works if idx.work_kind.get(w) != "album"]
    events = {e.key: e for e in doc._.events}
    # the clause after the verb first; else the sentence before it ("at V on Monday when he performed")
    location = (
        _location_in(doc, verb.i + 1, _participle_end(doc, end, sent), idx)
        or _location_in(doc, sent.start, verb.i, idx)
    )
    # the paragraph's event, for the people it is about, unless the clause puts the act elsewhere
    if event is None and context.event is not None and location in (None, events[context.event].location) \
            and any(p.key in context.people for p in performers):
        event = context.event
    # nothing in the paragraph places it: the one show the whole article is about (a review),
    # for its own people or in a sentence that speaks of the show ("earlier in the evening")
    if event is None and location is None:
        show = _article_event(doc)
        if show is not None and (any(p.key in _people_of_event(doc, show) for p in performers)
                                 or _speaks_of_the_show(doc, sent)):
            event = show
    published = doc._.published
    named = frozenset(idx.event_at) | frozenset(idx.work_at)
    date = date_after(doc, verb.i + 1, end, set(), published, named)
    date = date or _date_in(doc, verb, sent.start, verb.i, idx, published)
    if event is not None:
        location = location or events[event].location
        date = date or events[event].date
    span = TextSpan(sent.start_char, sent.end_char, sent.text)
    return [
        Performance(performer=p.key, span=span, work=w, event=event, location=location, date=date, cue=verb.text)
        for p in performers
        for w in works or [None]
    ]


def _article_event(doc: Doc) -> str | None:
    """The only named show of the article (a tour, festival, award show), if there is exactly one.

    A concert review or an award-show report is about one event and often names it once, far
    from the sentences listing what was played; two named shows make this a guess, so none.
    """
    cached = doc.user_data.get("kg.article_event", "")
    if cached != "":
        return cached
    shows = [e.key for e in doc._.events if e.kind in _SHOW_KINDS and e.name[:1].isupper() and e.super_event is None]
    found = shows[0] if len(shows) == 1 else None
    doc.user_data["kg.article_event"] = found
    return found


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
        t.lower_ in _SHOW_WORDS and t.i > sent.start and doc[t.i - 1].lower_ in ("the", "that", "this")
        for t in sent
    )


def _people_in(doc: Doc, sent: Span) -> set[str]:
    """Keys of the entities mentioned in a sentence (by name, pronoun or description)."""
    return {e.key for e in doc._.entities for m in e.mentions if sent.start_char <= m.start < sent.end_char}


def _is_performance(verb: Token, works: list[str], event: str | None, objects: set[str]) -> bool:
    """Whether a cue verb is a performance here: always for "perform", with evidence for "play"."""
    lemma = verb.lemma_.lower()
    # "she did not perform", "never played it"
    if any(c.dep_ == "neg" for c in verb.children):
        return False
    # "played a role", "took a break"
    if objects & _NON_MUSIC_OBJECTS:
        return False
    if lemma in _SURE_VERBS:
        return True
    # "opened up about", "took over"; but "kicked off", "brought out" a guest
    if any(c.dep_ == "prt" for c in verb.children) and lemma not in ("kick", "bring"):
        return False
    if lemma == "take":
        return "stage" in objects
    # "brought out X" is a guest appearance only with something performed
    if lemma == "bring":
        return bool(works) or "duet" in objects or "performance" in objects
    return bool(works) or bool(objects & _MUSIC_OBJECTS) or (event is not None and lemma in _EVENT_VERBS)


def _dedupe(found: list[Performance]) -> tuple[Performance, ...]:
    """Keep the first performance per (performer, work) and per (performer, event or place) without work."""
    # without an event, the place tells two shows apart ("played Tacoma" and "premiered X in Reno")
    with_work = {(p.performer, p.event, None if p.event else p.location) for p in found if p.work is not None}
    seen: set[tuple[str, str | None, str | None]] = set()
    out: list[Performance] = []
    for p in found:
        if p.work is None and (
            (p.performer, p.event, None if p.event else p.location) in with_work
            or (p.event is None and p.location is None)
        ):
            continue
        key = (p.performer, p.work, None) if p.work is not None else (p.performer, None, p.event or p.location)
        if key in seen:
            continue
        seen.add(key)
        out.append(p)
    return tuple(out)

