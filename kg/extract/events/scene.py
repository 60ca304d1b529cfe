"""The scene an article sets once, at its top: its one named show, or the venue its people were at.

A review or a report names the show or the venue once ("X took the stage at V on Sunday",
"the X set at V") and then goes through the set paragraphs later. The performances that
name no place of their own ask here (see ``show_context`` and ``performances``).
"""

from __future__ import annotations

from dataclasses import replace

from spacy.tokens import Doc, Span, Token

from kg.extract.events.locations import dateline_city
from kg.extract.found import Found
from kg.extract.model import TOWN_KINDS, Entity, Event, Place, Scene, TextSpan, When
from kg.extract.sieves import sieve
from kg.extract.text.dateline import Dateline
from kg.extract.text.dates import parse_date, unreal
from kg.extract.text.doc_index import governing_verb, used_as_place
from kg.extract.text.lexicon import function_words, kinds, tagged, words
from kg.extract.text.marks import PERSON_NOUNS

#: Event kinds that are shows an article can be about as a whole.
_SHOW_KINDS = frozenset({"music", "festival", "award", "theater"})
#: Event kinds an article can report as its scene: a game is a show too (its halftime, its final).
_SCENE_KINDS = _SHOW_KINDS | {"sports"}


def article_event(doc: Doc, events: tuple[Event, ...], occasions: bool = True) -> str | None:
    """The only named show of the article (a tour, festival, award show), if there is exactly one;
    failing any, with ``occasions``, the only event of another kind the article places.

    A concert review or an award-show report is about one event and often names it once, far
    from the sentences listing what was played; two named shows make this a guess, so none.
    A report of an evening of no known kind ("the X, organised by Y, was held at V") or of a
    funeral is about that occasion as much; a day it names in passing ("to mark X Day") is
    placed nowhere and does not count.
    """
    # (a named show: "the 69th Grammys" too, not "the opening night"; not one that only says who
    # someone is: "the Quarry Award winner" sang at another show)
    shows = [e.key for e in events if e.kind in _SHOW_KINDS and (e.name[:1].isupper() or e.name[:1].isdigit())
             and e.super_event is None and not _only_titles(doc, e)]
    if not shows and occasions:
        # no show of a known kind: the one occasion the article says where it took place ("the X,
        # organised by Y, was held at V"; "the funeral of X in C"), not a day it names in passing
        shows = [e.key for e in events if e.location is not None and e.super_event is None
                 and not _only_titles(doc, e)]
    return shows[0] if len(shows) == 1 else None


def titles_a_person(span: Span) -> bool:
    """ "the Brit Award winner", "a Nobel Prize nominee", "the Grammy Award-winning singer": the event
    names who someone is, not where they are."""
    root = span.root
    head = root.head
    return root.dep_ in ("compound", "nmod", "amod") and head.lower_ in PERSON_NOUNS \
        or root.dep_ == "npadvmod" and head.dep_ == "amod" and head.tag_ in ("VBG", "VBN")


def _only_titles(doc: Doc, event: Event) -> bool:
    """Whether every mention of an event titles a person: the article is not about that show."""
    spans = [doc.char_span(m.start, m.end, alignment_mode="expand") for m in event.mentions]
    return all(span is not None and titles_a_person(span) for span in spans)


def people_in(entities: tuple[Entity, ...], sent: Span) -> frozenset[str]:
    """Keys of the entities mentioned in a sentence (by name, pronoun or description)."""
    return frozenset(e.key for e in entities for m in e.mentions if sent.start_char <= m.start < sent.end_char)


#: Last words of a festival's stages ("the Pyramid Stage").
_STAGE_WORDS = tagged("stage_words", "part")
#: Nouns that name an event by describing it, with its kind; "set" and "shows" only after an act's name.
_EVENT_NOUNS = kinds("event_nouns")
_OWNED = tagged("event_nouns", "owned")
#: Prepositions that put something at a place ("at V", "in C").
_PLACE_PREPS = function_words("event-place-prep")
#: Last words of a venue's name ("Theater", "Arena").
_VENUE_WORDS = frozenset(w.lower() for w in words("venue_heads"))
#: How many sentences make the top of an article: headline, standfirst, lede.
TOP_SENTENCES = 4
#: Fewest words of a sentence of prose (a headline too), as against a byline or a time stamp.
_PROSE_WORDS = 4


def find_scene(doc: Doc, events: tuple[Event, ...], places: tuple[Place, ...], dateline: str | None,
               published: str | None = None) -> Scene:
    """The article's scene, read from its top (headline, standfirst, lede) and its dateline.

    The show is the event the top names (the one named most, of several), failing that the
    one event of the article; the venue is the show's own, else the first venue the top names,
    else the one venue the article names; the city is the dateline's, else the town the venue
    or the show lies in, else the first town the top names.
    """
    top_end = _top_end(doc)
    show = _show([e for e in events if not _only_announced(doc, e)], top_end)
    by_key = {p.key: p for p in places}
    year = show.date.value[:4] if show is not None and show.date and show.date.value else (published or "")[:4]
    hosts = [p for p in places if _may_host(doc, p, show, events, year)]
    venue = _venue(show, hosts, by_key, top_end)
    city = dateline or _city(show, venue, hosts, by_key, top_end)
    return Scene(show.key if show else None, venue, city, top_end)


def _top_end(doc: Doc) -> int:
    """The character offset where the top of the article ends: a byline, a time stamp or a day
    on a line of its own ("By X Y", "11 June 2010 - 13:49") is part of it and counts for no sentence."""
    end, n = 0, 0
    for sent in doc.sents:
        if n == TOP_SENTENCES:
            break
        end = sent.end_char
        n += sum(t.is_alpha for t in sent) >= _PROSE_WORDS
    return end


def _first(mentions: tuple[TextSpan, ...]) -> int:
    return min((m.start for m in mentions), default=0)


def _only_announced(doc: Doc, event: Event) -> bool:
    """Whether every mention of an event is in a clause of what will, would or did not happen:
    a show an article announces is no scene it reports."""
    spans = [doc.char_span(m.start, m.end, alignment_mode="expand") for m in event.mentions]
    return all(span is not None and unreal(governing_verb(span.root)) for span in spans)


def _show(events: list[Event], top_end: int) -> Event | None:
    """The event the article reports (an event, not a part of one): of those named by a name of
    their own, the one the top names most, else the one the article names most; failing any, the
    description the top gives ("the tribute concert")."""
    placed = {e.key for e in events if e.location is not None} | {e.super_event for e in events if e.location is not None}
    shows = [e for e in events if e.super_event is None and (
        e.kind in _SCENE_KINDS or e.kind == "event" and (e.described or e.key in placed))]
    named = [e for e in shows if not e.described]
    described = [e for e in shows if e.described and _first(e.mentions) < top_end]
    in_top = [e for e in named if _first(e.mentions) < top_end]
    if in_top:
        return max(in_top, key=lambda e: (len(e.mentions), -_first(e.mentions)))
    ranked = sorted(named, key=lambda e: -len(e.mentions))
    if ranked and (len(ranked) == 1 or len(ranked[0].mentions) > len(ranked[1].mentions)):
        return ranked[0]
    return min(described, key=lambda e: _first(e.mentions)) if described else None


def _may_host(doc: Doc, place: Place, show: Event | None, events: tuple[Event, ...], year: str) -> bool:
    """Whether a place may be the scene's: one the text puts something at ("at V", "in C", a
    venue's word, the show's own place), not the place of another event ("played the Galway
    concert at V"; a part of the show is the show's), not only a modifier ("the V revival"), nor
    a place of what will or did not happen ("will close the V stage") or of another year ("played
    V once before, in 2016"); and a festival's stage only for a festival or where the article names
    no show ("X opened the season at Budweiser Stage": a venue so named)."""
    ours = {show.key} | {e.key for e in events if e.super_event == show.key} if show is not None else set()
    if any(e.location == place.key and e.key not in ours for e in events):
        return False
    words = place.name.lower().split()
    # ("the Brindle Hall stage" is the hall's)
    if words[-1] in _STAGE_WORDS and not _VENUE_WORDS.intersection(words[:-1]) and (
            show is not None and show.kind != "festival"):
        return False
    spans = [doc.char_span(m.start, m.end, alignment_mode="expand") for m in place.mentions]
    spans = [span for span in spans if span is not None]
    # (where something is: "at V", "in C", a venue's word; not a name read as a place elsewhere)
    placed = show is not None and show.location == place.key or any(used_as_place(span) for span in spans)
    return placed and any(not _modifier(span) and not unreal(governing_verb(span.root))
                          and not _other_year(span.sent, year) for span in spans)


def _other_year(sent: Span, year: str) -> bool:
    """Whether a sentence names a year other than ``year`` ("in 2016")."""
    return bool(year) and any(t.like_num and len(t.text) == 4 and t.text[:2] in ("19", "20") and t.text != year
                              for t in sent)


def _modifier(span: Span) -> bool:
    """ "the Broadway revival", "the V gala's host": a place named only to describe a noun, not where
    a show was ("the first V show": the show's place) nor a place after "at" the parser hung on a
    word after it ("at V twisting all night")."""
    doc, root = span.doc, span.root
    before = doc[span.start - 1] if span.start else None
    if before is not None and (before.lower_ in _PLACE_PREPS or before.lower_ == "the" and span.start > 1
                               and doc[span.start - 2].lower_ in _PLACE_PREPS):
        return False
    return root.dep_ in ("compound", "amod", "nmod") and root.head.i >= span.end \
        and _EVENT_NOUNS.get(root.head.lower_) is None


def _venue(show: Event | None, places: list[Place], by_key: dict[str, Place], top_end: int) -> str | None:
    if show is not None and show.location in by_key and by_key[show.location].kind not in TOWN_KINDS:
        return show.location
    venues = [p for p in places if p.kind not in TOWN_KINDS]
    in_top = sorted((p for p in venues if _first(p.mentions) < top_end), key=lambda p: _first(p.mentions))
    if in_top:
        return in_top[0].key
    return venues[0].key if len(venues) == 1 else None


def _city(show: Event | None, venue: str | None, places: list[Place], by_key: dict[str, Place],
          top_end: int) -> str | None:
    for key in (venue and by_key[venue].contained_in, show and show.location):
        if key in by_key and by_key[key].kind == "city":
            return key
    towns = sorted((p for p in places if p.kind == "city" and _first(p.mentions) < top_end),
                   key=lambda p: _first(p.mentions))
    return towns[0].key if towns else None


def described_show(doc: Doc, events: tuple[Event, ...], places: tuple[Place, ...],
                   anywhere: bool = False) -> Event | None:
    """The show the top of an article describes when it names none ("mourners gathered at a state
    memorial", "the tribute concert"): its first event noun that modifies no other noun, named by
    its modifiers and its owner's name ("Whitney Houston's funeral"), or None. With ``anywhere``,
    the first such noun of the whole article, bare or not ("put on a show to a packed audience"):
    for a scene whose place the top gives and whose show the article only describes later."""
    if any(e.super_event is None and e.kind in _SHOW_KINDS for e in events):
        return None
    taken = {m.start for e in events for m in e.mentions} | {m.start for p in places for m in p.mentions}
    top_end = len(doc.text) if anywhere else _top_end(doc)
    for token in doc:
        if token.idx >= top_end:
            break
        kind = _EVENT_NOUNS.get(token.lower_)
        # (further on, a plural, "the live shows", is no one show; the top's "the Sound Relief concerts" are the scene)
        if kind is None or token.pos_ != "NOUN" or anywhere and token.tag_ == "NNS" or not token.is_lower \
                or token.lower_ in _OWNED \
                or token.dep_ in ("compound", "amod", "nmod") or _of_after(token):
            continue
        start = _description_start(token)
        # (a bare "a show" says too little to name one; "his concert" names the one the article is about)
        if doc[start].idx in taken or start == token.i and not _owned_by_someone(token) and not anywhere:
            continue
        span = doc[start : token.i + 1]
        mention = TextSpan(span.start_char, span.end_char, span.text)
        return Event(f"event:{len(events) + 1}", span.text, kind, mentions=(mention,), rule=DESCRIBED.id,
                     confidence=DESCRIBED.confidence, described=True)
    return None


def _of_after(token: Token) -> bool:
    """ "a show of support", "a service of thanks": the noun is of something, not an event."""
    return token.i + 1 < len(token.doc) and token.doc[token.i + 1].lower_ == "of" and token.lower_ in ("show", "service")


def _owned_by_someone(noun: Token) -> bool:
    """ "his concert", "the singer's show": an occasion someone's, the one the article is about."""
    return any(c.dep_ == "poss" for c in noun.children)


def _description_start(head: Token) -> int:
    """The first word of an event's description: its modifiers, and an owner that is a name."""
    start = head.i
    for child in sorted((c for c in head.children if c.i < head.i), key=lambda c: -c.i):
        if child.right_edge.i != start - 1:
            break
        if child.dep_ in ("compound", "amod", "nmod") and not child.is_stop or child.dep_ == "poss" and child.pos_ == "PROPN":
            start = child.left_edge.i
        else:
            break
    return start


DESCRIBED = sieve("event.described", "the show the top of an article describes when it names none",
                  "Fans gathered at a candlelit tribute concert in Glenvale. → 'candlelit tribute concert'", 0.7)
SCENE = sieve("event.scene", "the venue or town of the article's scene, for the show it reports placed nowhere else",
              "REVIEW: Ana Rivera, Brindle Hall ... the Lantern Tour → the Lantern Tour at Brindle Hall", 0.55)


def placed_at_scene(events: tuple[Event, ...], scene: Scene, places: tuple[Place, ...]) -> tuple[Event, ...]:
    """The events, the scene's show placed at the scene's place when nothing else placed it, or
    placed it only in a land ("the X India Tour" is not in all of India)."""
    if scene.show is None or scene.place is None:
        return events
    lands = {p.key for p in places if p.kind in ("region", "country")}
    return tuple(replace(e, location=scene.place, location_rule=SCENE.id)
                 if e.key == scene.show and (e.location is None or e.location in lands) else e for e in events)


#: The scene's sieves, in the order they decide.
SIEVES = (DESCRIBED, SCENE)


def read_scene(doc: Doc, events: tuple[Event, ...], found: Found) -> tuple[tuple[Event, ...], Scene]:
    """The events with the show the article describes added when it names none, and the article's
    scene, its show placed where the scene is."""
    described = described_show(doc, events, found.places)
    events = (*events, described) if described is not None else events
    dateline = dateline_city(doc, found.dateline, found.places)
    scene = find_scene(doc, events, found.places, dateline[0] if dateline else None, found.published)
    if scene.show is None and scene.place is not None:
        # a scene the top places, its show described only further on: "... put on a show at V"
        events, show = _described_later(doc, events, found.places)
        scene = replace(scene, show=show)
    scene = replace(scene, date=dateline_date(doc, found.dateline, found.published))
    return placed_at_scene(events, scene, found.places), scene


def _described_later(doc: Doc, events: tuple[Event, ...], places: tuple[Place, ...]) -> tuple[tuple[Event, ...], str | None]:
    """The events, with the first show the article describes anywhere added if none is among them,
    and that show's key (None if it describes none)."""
    described = [e for e in events if e.described and e.super_event is None and e.kind in _SCENE_KINDS
                 and not _plural(doc, e)]
    if described:
        return events, min(described, key=lambda e: _first(e.mentions)).key
    later = described_show(doc, events, places, anywhere=True)
    return ((*events, later), later.key) if later is not None else (events, None)


def _plural(doc: Doc, event: Event) -> bool:
    """Whether an event is described in the plural ("the live shows"): no one show."""
    span = doc.char_span(event.mentions[0].start, event.mentions[0].end, alignment_mode="expand")
    return span is not None and span[-1].tag_ == "NNS"


def dateline_date(doc: Doc, line: Dateline | None, published: str | None) -> When | None:
    """The day the dateline prints ("YORK, June 3, 2025 —"), its year from the publication date
    when it prints none; a byline's or an "Updated ..." stamp's day is none."""
    if line is None or line.date is None:
        return None
    span = doc[line.date[0] : line.date[1]]
    return parse_date(span.text, published, TextSpan(span.start_char, span.end_char, span.text))
