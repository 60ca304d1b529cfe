"""The show context: where and when a performance took place, its clause's, its paragraph's or
the article's scene.

A review sets the scene once (a headline, a dateline, "X took the stage at V in C on
Sunday") and names the songs paragraphs later. The stated reading places what its own clause,
sentence or paragraph places (``context.clause``); each performance left unplaced takes, in
order of evidence:

1. ``context.sentence``: an event its own sentence names;
2. ``context.paragraph``: the event the paragraph before it names, within two sentences;
3. ``context.scene``: the article's scene, its show at its venue or town (an event of its
   sentence that no text places is at the scene too);

unless its sentence puts it elsewhere: on a medium ("on the radio"), at another time ("a week
later", "in 2016"), or apart ("Meanwhile").
"""

from __future__ import annotations

from dataclasses import replace

from spacy.tokens import Doc

from kg.extract.model import Performance, When
from kg.extract.performances.context import Index, same_time
from kg.extract.sieves import sieve
from kg.extract.text.doc_index import sentence_bounds
from kg.extract.text.lexicon import tagged

CLAUSE = sieve("context.clause", "the event, venue or city the performance's own clause names",
               "Rivera sang 'Lantern Song' at the Brindle Hall. → Brindle Hall", 0.86)
SENTENCE = sieve("context.sentence", "an event its sentence names, for a performance its clause left unplaced",
                 "At the Quarry Festival, fans heard Rivera sing 'Lantern Song'. → Quarry Festival", 0.67)
PARAGRAPH = sieve("context.paragraph", "the event named in the two sentences before it",
                  "The Quarry Festival opened on Friday. Rivera sang 'Lantern Song'. → Quarry Festival", 0.67)
SCENE = sieve("context.scene", "the article's scene: the show it reports, at its venue or town",
              "REVIEW: Rivera, Brindle Hall ... She sang 'Lantern Song'. → the show at Brindle Hall", 0.91)

#: The show-context sieves, in the order they place a performance.
SIEVES = (CLAUSE, SENTENCE, PARAGRAPH, SCENE)
#: Media a performance is told on rather than a stage ("on the radio"), words of another time
#: after a span of time ("a week later"), and words that set a sentence apart ("Meanwhile").
_MEDIUM = tagged("elsewhere_words", "medium")
_SHIFT = tagged("elsewhere_words", "shift")
_SPAN = tagged("elsewhere_words", "span")
_APART = tagged("elsewhere_words", "apart")
#: How many sentences back a paragraph's event still places a performance.
_PARAGRAPH_SENTENCES = 2


def resolve(doc: Doc, idx: Index, performances: list[Performance]) -> list[Performance]:
    """The performances, each unplaced one given the show context the evidence supports: the
    event its sentence or paragraph names, else the article's scene (its show, venue and town)."""
    events = {e.key: e for e in idx.found.events}
    scene = idx.found.scene
    out = []
    for p in performances:
        if p.event is not None or p.location is not None:
            out.append(p if p.context_rule else replace(p, context_rule=CLAUSE.id))
            continue
        event, rule = _event_for(doc, idx, p)
        # (what is told on the radio, or a week later, is at neither the paragraph's show nor the scene)
        away = _elsewhere(doc, p, {_year(events[scene.show].date) if scene.show else None})
        if event is not None and (away and rule is PARAGRAPH or not same_time(p.date, events[event].date)):
            event = None
        # (an event its sentence names and no text places is at the scene: "the song that gave the X tour its name")
        location = events[event].location or scene.place if event is not None else None
        # (a performance dated in another year than the show is another show: "once before, in 2016")
        if (event is None or event == scene.show) and not away and (
                scene.show is None or same_time(p.date, events[scene.show].date)):
            event, location, rule = scene.show, scene.place or location, SCENE
        if event is None and location is None:
            out.append(p)
            continue
        date = p.date or (events[event].date if event is not None else None)
        out.append(replace(p, event=event, location=location, date=date, context_rule=rule.id))
    return out


def _year(date: When | None) -> str | None:
    return date.value[:4] if date is not None and date.value else None


def _elsewhere(doc: Doc, p: Performance, years: set[str | None]) -> bool:
    """Whether a performance's sentence puts it away from the scene: on a medium ("on the radio"),
    at another time ("a week later", "two years ago", "in 2016" when the show is not of 2016), or
    apart ("Meanwhile, ...")."""
    sent = doc.char_span(p.span.start, p.span.end, alignment_mode="expand")
    if sent is None:
        return False
    for token in sent:
        low = token.lower_
        # ("Meanwhile, ...", "She had previously sung A"; not "a fan who previously wrote")
        if low in _APART and (token.i == sent.start or token.head.i == sent.root.i) \
                or low in _MEDIUM and token.dep_ == "pobj" and token.head.lower_ in ("on", "in"):
            return True
        if low in _SHIFT and token.i > sent.start and doc[token.i - 1].lower_ in _SPAN:
            return True
        if token.like_num and len(token.text) == 4 and token.text[:2] in ("19", "20") and token.text not in years \
                and token.head.lower_ in ("in", "since"):
            return True
    return False


def _event_for(doc: Doc, idx: Index, p: Performance):  # type: ignore[no-untyped-def]
    """The event the sentence or the paragraph gives an unplaced performance."""
    span = doc.char_span(p.span.start, p.span.end, alignment_mode="expand")
    if span is not None:
        in_sentence = [idx.event_at[k] for k in range(span.start, span.end) if k in idx.event_at]
        if len(set(in_sentence)) == 1:
            return in_sentence[0], SENTENCE
        starts, _ = sentence_bounds(doc)
        first, k = span.start, 0
        for _ in range(_PARAGRAPH_SENTENCES):
            if first == 0 or "\n\n" in doc[starts[first - 1] : first].text:
                break
            first = starts[first - 1]
            k += 1
        before = {idx.event_at[i] for i in range(first, span.start) if i in idx.event_at}
        if len(before) == 1:
            return before.pop(), PARAGRAPH
    return None, None
