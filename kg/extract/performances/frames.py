"""Performance frames: for every song the article names, who performed it, by the frame
that links a performer to it. Each frame is a named sieve, tried in order per title.

* ``perf.verb``: the title is what a verb of performing takes ("X sang A", "X opened
  with A", "duet on A", "was joined by Y for a performance of A": all who perform do);
* ``perf.rendition``: a rendition noun owned by or credited to the performer ("Y's
  version of A", "a rendition of A by Y");
* ``perf.credited``: the title credited to the performer ("an acoustic A by Y");
* ``perf.show``: the title named as a part of the show ("the encore was A", "The evening
  kicked off with A", "For the grand finale, A", fans "singing along to A"): the act
  of the show, the one act in focus there.

A title no frame links is left alone: it may be a record the article only mentions.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from spacy.tokens import Doc, Span, Token

from kg.extract.people.coref import entity_at
from kg.extract.text.marks import OPENING_MARKS, is_mark
from kg.extract.text.dates import is_future
from kg.extract.text.lexicon import function_words, labels, tagged, words
from kg.extract.model import Entity, Performance, TextSpan
from kg.extract.performances.agents import char_span, cue_lemma, performers_of
from kg.extract.performances.context import RENDITION_NOUNS
from kg.extract.sieves import Sieve, sieve
from kg.extract.text.doc_index import doc_text, doc_tokens, sentence_bounds, sentence_number, token_words

#: Verbs of performing whose object is what was performed ("sang A", "performed B", "played C").
_VERBS = tagged("performance_verbs", "sure") | tagged("performance_verbs", "voice") | tagged("performance_verbs", "frame")
#: Verbs of a show's course, whose "with" brings in what was played ("opened with A", "closed with B").
_COURSE = words("route_verbs")
#: Dependencies a title hangs from on its way up to its verb ("sang A", "opened with A and B").
_PATH = labels("object") | labels("title-path")
#: How far up the parse a title's verb may be.
_CLIMB = 5
#: Parts of a show a copula or a comma names with a song ("the encore was A", "For the finale, A").
_SHOW_PARTS = words("show_parts")
#: Nouns of the show itself, whose course a verb tells ("The evening kicked off with A").
_SHOW_WORDS = words("show_words")
#: Nouns for an act's show ("The performance came to a close with ...").
_SHOW_NOUNS = words("show_nouns")
#: Verbs of a crowd joining in ("fans singing along to A", "shouting along to B").
_CROWD_VERBS = tagged("performance_verbs", "voice") | tagged("performance_verbs", "crowd")
#: Verbs that bring in a guest performer ("was joined by Y for a performance of A").
_GUEST_VERBS = tagged("performance_verbs", "guest")
#: Participles that order a list of titles under the verb above them ("ranging from A to B").
_LIST_PARTICIPLES = function_words("list-verb")
#: Most characters between two titles of one list (", and, ").
_LIST_GAP = 8
#: Work kinds performed on a stage.
_STAGED = frozenset({"song", "work", "show", "album"})

VERB = sieve("perf.verb", "the subject of the verb of performing whose object is the title, and those joining them",
             "Ana Rivera opened with 'Lantern Song'. → Ana Rivera performed Lantern Song", 0.75)
RENDITION = sieve("perf.rendition", "the owner of a rendition, version or cover of the title, or who it is by",
                  "Ana Rivera's version of 'Lantern Song' → Ana Rivera", 0.75)
CREDITED = sieve("perf.credited", "the performer a title is credited to with 'by' in a report of a show",
                 "an acoustic 'Lantern Song' by Ana Rivera → Ana Rivera", 0.9)
ACT_WITH = sieve("perf.act-with", "an act of the article doing something with the title",
                 "the quartet bowed out with 'Lantern Song' → the quartet", 0.67)
SHOW = sieve("perf.show", "the act in focus, for a title named as a part of the show or sung along to by the crowd",
             "The encore was 'Lantern Song'. → the act the review is about", 0.86)


def frame_performances(doc: Doc) -> list[Performance]:
    """Performances read from the frames around each staged work's mentions (no place or date yet)."""
    if not doc._.works or not doc._.entities:
        return []
    acts = _acts(doc)
    found: list[Performance] = []
    for work in doc._.works:
        if work.kind not in _STAGED:
            continue
        for mention in work.mentions:
            span = doc.char_span(mention.start, mention.end, alignment_mode="expand")
            if span is None:
                continue
            for rule, frame in FRAMES:
                performers, cue = frame(doc, span, acts)
                if performers:
                    sent = _sentence(doc, span)
                    found += [Performance(performer=p.key, span=TextSpan(sent.start_char, sent.end_char, sent.text),
                                          work=work.key, cue=cue, rule=rule.id, confidence=rule.confidence)
                              for p in performers]
                    break
    return _listed(doc, found)


LISTED = sieve("perf.listed", "the performers of the title before it in the same list ('hits, A, and, B')",
               "She belted out her hits, 'A', and, 'B'. → she performed B too", 0.85)


def _listed(doc: Doc, found: list[Performance]) -> list[Performance]:
    """Titles of one list share the performers of the first that a frame linked."""
    by_work = {p.work: p for p in found}
    titles = sorted(((m.start, m.end, w.key) for w in doc._.works if w.kind in _STAGED for m in w.mentions))
    out, text = list(found), doc_text(doc)
    for (s1, e1, first), (s2, e2, then) in zip(titles, titles[1:], strict=False):
        between = text[e1:s2]
        if first in by_work and then not in by_work and len(between) <= _LIST_GAP and not any(c in between for c in ".;:"):
            if all(w.strip(" ,'\"“”‘’") in ("", "and", "&") for w in between.split()):
                lead = by_work[first]
                out += [replace(p, work=then, rule=LISTED.id, confidence=LISTED.confidence)
                        for p in found if p.work == first and p.span == lead.span]
                by_work[then] = lead
    return out


def _sentence(doc: Doc, span: Span) -> Span:
    starts, ends = sentence_bounds(doc)
    return doc[starts[span.start] : ends[span.start]]


def _agents(doc: Doc, tokens: list[Token]) -> list[Entity]:
    """The people and groups the tokens stand for (an organisation or a place never performs)."""
    out: list[Entity] = []
    for tok in tokens:
        entity = entity_at(doc._.entities, *char_span(tok))
        if entity is not None and entity.kind in ("person", "group") and entity not in out:
            out.append(entity)
    return out


def _by_verb(doc: Doc, span: Span, acts: set[str]) -> tuple[list[Entity], str | None]:
    verb = _verb_of(span)
    if verb is None or is_future(verb) or any(c.dep_ == "neg" for c in verb.children):
        return [], None
    if verb.lemma_ == "be":
        # "the first song they played together was A": the verb of the clause on the subject
        played = [r for s in verb.children if s.dep_ == "nsubj" for r in s.children
                  if r.dep_ == "relcl" and cue_lemma(r) in _VERBS]
        return [e for r in played for e in _performers(doc, r)], played[0].text if played else None
    found = _performers(doc, verb)
    if verb.lemma_.lower() == "join":
        # "X joined Y onstage for A": both perform
        found += [e for e in _agents(doc, list(doc[verb.i + 1 : span.start])) if e not in found]
    if not found and verb.tag_ == "VBG":
        # "Before singing A, she said ...": the participle speaks of the sentence's subject (if
        # coreference left "she" open, the act in focus)
        subjects = [c for c in _sentence(doc, span).root.children if c.dep_ == "nsubj"]
        found = _agents(doc, subjects)
        act = _act_in_focus(doc, span, acts) if not found and any(s.pos_ == "PRON" for s in subjects) else None
        found = [act] if act is not None else found
    return found, verb.text


def _verb_of(span: Span) -> Token | None:
    """The first verb above the title, if it is one of performing (or a copula); a participle
    that orders a list ("ranging from A to B", "starting with C") hands on to the verb above it.

    A verb of performing right before the title counts whatever the parse ("Before singing
    Made You Look, she said" is read with the title as a clause of its own).
    """
    before = _word_before(span)
    if before is not None and before.pos_ == "VERB" and cue_lemma(before) in _VERBS:
        return before
    cur = span.root
    for _ in range(_CLIMB):
        listing = cur.pos_ == "VERB" and cue_lemma(cur) in _LIST_PARTICIPLES
        if cur.dep_ not in _PATH and not listing or cur.head.i == cur.i:
            return None
        prep = cur.lower_ if cur.dep_ == "prep" else None
        cur = cur.head
        if cur.pos_ in ("VERB", "AUX"):
            lemma = cue_lemma(cur)
            if lemma in _VERBS or lemma == "be" or lemma in _COURSE and prep == "with" or lemma == "join" and prep == "for":
                return cur
            if lemma not in _LIST_PARTICIPLES or cur.dep_ not in ("advcl", "xcomp", "acl"):
                return None
    return None


def _word_before(span: Span) -> Token | None:
    """The word before the title, quotation marks passed over."""
    i = span.start - 1
    while i >= 0 and is_mark(span.doc[i].text, OPENING_MARKS):
        i -= 1
    return span.doc[i] if i >= 0 else None


def _performers(doc: Doc, verb: Token) -> list[Entity]:
    return [e for e in performers_of(doc, verb) if e.kind in ("person", "group")]


def _by_rendition(doc: Doc, span: Span, acts: set[str]) -> tuple[list[Entity], str | None]:
    of = span.root.head
    noun = of.head
    if span.root.dep_ != "pobj" or of.lower_ != "of" or noun.lemma_.lower() not in RENDITION_NOUNS:
        return [], None
    owners = [c for c in noun.children if c.dep_ == "poss"]
    owners += [g for c in noun.children if c.dep_ == "prep" and c.lower_ == "by" for g in c.children if g.dep_ == "pobj"]
    found = _agents(doc, [*owners, *(c for o in owners for c in o.conjuncts)])
    verb = next((a for a in noun.ancestors if a.pos_ in ("VERB", "AUX")), None)
    if not found and verb is not None and cue_lemma(verb) in _VERBS | _GUEST_VERBS:
        # "sang a stirring version of A", "was joined by Y for a performance of A"
        found = _performers(doc, verb)
    elif not found and verb is not None and any(c.dep_ == "nsubj" and c.lemma_.lower() in _SHOW_WORDS | _SHOW_NOUNS
                                                for c in verb.children):
        # "The performance came to a close with a rendition of A": the show's act
        act = _act_in_focus(doc, span, acts)
        found = [act] if act is not None else []
    return found, noun.text


def _by_credit(doc: Doc, span: Span, acts: set[str]) -> tuple[list[Entity], str | None]:
    after = doc[span.end : span.end + 2]
    if len(after) < 2 or after[0].lower_ != "by":
        return [], None
    found = _agents(doc, [after[1], *after[1].conjuncts])
    return [e for e in found if e.key in acts], after[0].text


def _by_act_with(doc: Doc, span: Span, acts: set[str]) -> tuple[list[Entity], str | None]:
    """An act doing something "with" the title: "the quartet bowed out with A", "X closed with B"."""
    root = span.root
    while root.dep_ in ("appos", "conj", "compound") and root.head.i != root.i:
        root = root.head
    prep = root.head
    verb = prep.head
    if root.dep_ != "pobj" or prep.lower_ != "with" or verb.pos_ != "VERB" or is_future(verb):
        return [], None
    found = [e for e in _agents(doc, [c for c in verb.children if c.dep_ == "nsubj"]) if e.key in acts]
    return found, verb.text


def _by_show(doc: Doc, span: Span, acts: set[str]) -> tuple[list[Entity], str | None]:
    cue = _show_cue(span)
    if cue is None:
        return [], None
    act = _act_in_focus(doc, span, acts)
    return ([act], cue.text) if act is not None else ([], None)


def _show_cue(span: Span) -> Token | None:
    """The word that names the title as a part of the show, if one does."""
    root = span.root
    head = root.head
    # "the encore was A", "A was the closer" (the copula right before the title, however the
    # parser hung the title: "the highlight was 'A,' where ...")
    before = _word_before(span)
    head = before if before is not None and before.lemma_ == "be" else head
    if head.lemma_ == "be":
        other = [c for c in head.children if c.dep_ in ("nsubj", "attr") and c.i != root.i]
        return next((c for c in other if c.lemma_.lower() in _SHOW_PARTS), None)
    # "For the grand finale, A, ...": the part set off before the title
    comma = _word_before(span)
    before = span.doc[comma.i - 1] if comma is not None and comma.text == "," and comma.i > 0 else None
    if before is not None and before.lower_ in _SHOW_PARTS:
        return before
    cur = root
    for _ in range(_CLIMB):
        if cur.head.i == cur.i:
            return None
        cur = cur.head
        if cur.pos_ in ("VERB", "AUX"):
            # "The evening kicked off with A"; fans "shouting along to bangers like B"
            subject = next((c for c in cur.children if c.dep_ == "nsubj"), None)
            if cue_lemma(cur) in _COURSE and subject is not None and subject.lemma_.lower() in _SHOW_WORDS:
                return cur
            if cur.lemma_.lower() in _CROWD_VERBS and any(c.lower_ == "along" for c in cur.children):
                return cur
            return None
    return None


def _act_in_focus(doc: Doc, span: Span, acts: set[str]) -> Entity | None:
    """The one act most in focus where the title is named, or the article's one act."""
    entities = {e.key: e for e in doc._.entities}
    focus = doc._.focus
    number = sentence_number(doc, span.start)
    performs = (lambda k: k in acts) if acts else (lambda k: entities[k].kind in ("person", "group"))
    key = focus.most_salient(number, performs) if focus is not None else None
    if key is None and len(acts) == 1:
        key = next(iter(acts))
    return entities.get(key) if key is not None else None


def _acts(doc: Doc) -> set[str]:
    """Who performs in the article: the subjects of its verbs of performing that are people or groups."""
    out: set[str] = set()
    toks, words = doc_tokens(doc), token_words(doc)
    # (cue_lemma gives a word of _VERBS only for its lemma, "make" or a past form)
    for tok in (toks[k] for k, (lemma, pos) in enumerate(zip(words.lemma, words.pos)) if pos == "VERB" and (
            lemma in _VERBS or lemma == "make" or words.lower[k].endswith("ed"))):
        if cue_lemma(tok) in _VERBS:
            out.update(e.key for e in performers_of(doc, tok) if e.kind in ("person", "group"))
    return out


FRAMES: tuple[tuple[Sieve, Callable[[Doc, Span, set[str]], tuple[list[Entity], str | None]]], ...] = (
    (VERB, _by_verb),
    (RENDITION, _by_rendition),
    (CREDITED, _by_credit),
    (ACT_WITH, _by_act_with),
    (SHOW, _by_show),
)
