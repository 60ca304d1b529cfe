"""The default reading: a work named in a report of a show was performed there, by its act.

A reader of a concert review does not need a verb list to know that the songs named in it
were played. For every mention of a stageable work (a song, a piece, a show) that the stated
reading (verbs of performing, bills) left unlinked, the performer is, in order of evidence:

1. ``perf.subject``: the act that is the subject of the clause naming the title, with those
   joining it ("X got his show on the road with A", "X went solo for B", "Y joined X for C");
2. ``perf.owner``: the act a rendition of the title belongs to, or the title is credited to
   ("X's version of A", "an acoustic A by X");
3. ``perf.ranked``: when the clause names no act (the song itself, the crowd, the set, a
   passive, or nothing), the people and groups a learned ranker weighs as its performers:
   who the sentence and paragraph are about, who was named last, who the show is about
   (:mod:`kg.extract.performances.ranker`).

A mention is not a performance only on evidence (:mod:`kg.extract.performances.exceptions`):
its clause makes, releases or awards the work, speaks of the future or denies it, names it as
the source of another ("A from the album B"), or the title only describes a noun; a work of
a kind that is not staged (a film, a book) is left alone. A subject that is a person or group
the article does not present as an act, outside a report of a show, is evidence too: "the
mayor praised A" says nothing of who played it; unnamed people singing it ("a choir sang A")
say it was none of the article's acts.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from spacy.tokens import Doc, Span, Token

from kg.extract.found import Found
from kg.extract.model import Entity, Performance, TextSpan, When, Work, entity_at
from kg.extract.people.discourse import Focus
from kg.extract.performances.agents import char_span, cue_lemma, performers_of, subjects
from kg.extract.performances.exceptions import (
    before_the_show,
    may_perform,
    not_performed,
)
from kg.extract.performances.ranker import candidates, load_model
from kg.extract.sieves import Sieve, sieve
from kg.extract.text.dates import describes_a_thing
from kg.extract.text.doc_index import (
    doc_text,
    doc_tokens,
    sentence_bounds,
    token_words,
    verb_above,
)
from kg.extract.text.lexicon import function_words, labels, tagged, words
from kg.extract.text.marks import CLOSING_MARKS, is_mark

#: Work kinds performed on a stage.
_STAGED = frozenset({"song", "work", "show"})
#: Nouns that are a performance of the work they are "of" ("a cover of X", "her version of Y").
_RENDITIONS = tagged("rendition_nouns", "performance")
#: Dependencies a title hangs from on its way up to the verb of its clause.
_PATH = labels("object") | labels("title-path")
#: How far up the parse a title's verb may be.
_CLIMB = 6
#: Nouns for people an article does not name ("fans", "the crowd", "a choir").
_PEOPLE_NOUNS = words("audience_nouns") | tagged("group_nouns", "music")
#: Prepositions that set a co-performer beside an act ("with", "alongside").
_COMPANY = function_words("company")
#: How many words after such a preposition its co-performer may be named ("alongside opener and X").
_COMPANY_REACH = 8

SUBJECT = sieve("perf.subject", "the act that is the subject of the clause naming the title, and those joining it",
                "Ana Rivera got her show on the road with 'Lantern Song'. → Ana Rivera", 0.91)
OWNER = sieve("perf.owner", "the act a rendition of the title belongs to, or the title is credited to",
              "Ana Rivera's version of 'Lantern Song'; an acoustic 'Lantern Song' by Ana Rivera → Ana Rivera", 0.5)
RANKED = sieve("perf.ranked", "the people and groups a model trained on annotated reviews ranks as the title's "
               "performers, when the clause names none", "Rivera took the stage. 'Lantern Song' brought the crowd "
               "to its feet. → Rivera", 0.73)
HEADLINER = sieve("perf.headliner", "the one act of a report of a show, for a song no mention of which names its "
                  "act and the ranker gives to no one", "Ana Rivera played the Brindle Hall.\n\nSet list\n\nLantern "
                  "Song\n\nHarbor Lights → Ana Rivera", 0.6)
#: The default reading's sieves, in the order they decide.
SIEVES = (SUBJECT, OWNER, RANKED, HEADLINER)


@dataclass(frozen=True)
class Cast:
    """Who the article presents as acts, and who is in focus where.

    Attributes:
        entities: The article's people, groups and organisations (coreference's output).
        acts: Keys of the entities that perform in the article (see :func:`find_acts`).
        focus: How salient each entity is, sentence by sentence.
        headliner: The act the article is about, if one stands out.
        show_report: Whether the article reports a show (its scene has one, or a place of one).
        people: Keys of the people and groups that may perform at all (:func:`may_perform`).
    """

    entities: tuple[Entity, ...]
    acts: frozenset[str]
    focus: Focus | None
    headliner: str | None
    show_report: bool = False
    people: frozenset[str] = frozenset()

    def act_at(self, doc: Doc, token: Token) -> Entity | None:
        """The act a token stands for (a name, a pronoun or a description resolved to it), if any:
        in a report of a show, anyone who may perform; elsewhere, the acts."""
        entity = entity_at(self.entities, *char_span(token))
        if entity is None or entity.key not in (self.people if self.show_report else self.acts):
            return None
        return entity


def default_performances(doc: Doc, works: Iterable[Work], cast: Cast, linked: set[str]) -> list[Performance]:
    """Performances of the stageable works ``linked`` does not hold yet, by the default reading
    (no place or date yet: the show context resolver gives those)."""
    if not cast.people:
        return []
    staged = [w for w in works if w.kind in _STAGED and w.key not in linked]
    found: list[Performance] = []
    done: set[str] = set()
    mentions = list(staged_mentions(doc, staged, linked))
    refused: set[str] = set()
    for work, span in mentions:
        if work.key in done:
            continue
        performers, rule, cue = _performers(doc, span, cast)
        if performers:
            found += _performances(doc, span, work, performers, rule, cue)
            done.add(work.key)
        elif rule is not RANKED:
            # ("a choir sang 'A'": a sieve said who did, and it was nobody the article names)
            refused.add(work.key)
    sole = _sole_act(cast)
    for work, span in mentions:
        if sole is not None and work.key not in done | refused and work.kind == "song":
            # (after every mention had its say: a later one may name who sang it)
            found += _performances(doc, span, work, [sole], HEADLINER, None)
            done.add(work.key)
    return found


def _performances(doc: Doc, span: Span, work: Work, performers: list[str], rule: Sieve,
                  cue: str | None) -> list[Performance]:
    sent = _sentence(doc, span)
    return [Performance(performer=key, span=TextSpan(sent.start_char, sent.end_char, sent.text), work=work.key,
                        date=_year_of(sent), cue=cue, rule=rule.id, confidence=rule.confidence)
            for key in performers]


def staged_mentions(doc: Doc, works: Iterable[Work], linked: set[str]) -> Iterator[tuple[Work, Span]]:
    """Each mention of a stageable work ``linked`` does not hold, that no exception turns down."""
    for work in works:
        if work.kind not in _STAGED or work.key in linked:
            continue
        for mention in work.mentions:
            span = doc.char_span(mention.start, mention.end, alignment_mode="expand")
            if span is not None and not not_performed(doc, span):
                yield work, span


def _performers(doc: Doc, span: Span, cast: Cast) -> tuple[list[str], Sieve, str | None]:
    """The act(s) performing the title at ``span``, the sieve that decided, and its cue word."""
    owners, noun = _owners(doc, span, cast)
    if owners:
        return [*owners, *_company(doc, span, cast, owners)], OWNER, noun
    if noun == "unnamed":
        return [], OWNER, None
    verb = verb_above(span)
    if verb is not None:
        tokens = [t for t in subjects(verb) if t.i < span.start or t.i >= span.end]
        # "a choir sang 'A'": people the article does not name performed it (fans singing along
        # sing the act's song, and "got the crowd going with 'B'" is the act's)
        if cue_lemma(verb) in _PERFORMING and any(_unnamed_people(t, cast) for t in tokens) \
                and not any(c.lower_ == "along" for c in verb.children):
            return [], SUBJECT, None
        # (in a report of a show, whoever does something with the title is its act: "X blows the
        # audience away with 'A'"; elsewhere only those the article presents as acts)
        named = [e.key for e in performers_of(cast.entities, verb)
                 if e.key in cast.acts or cast.show_report and e.kind in ("person", "group")]
        if named:
            return [*named, *_company(doc, span, cast, named)], SUBJECT, verb.text
        # a subject that is someone the article does not present as an act: not theirs to give
        if any(entity_at(cast.entities, *char_span(t)) is not None for t in tokens):
            return [], SUBJECT, None
    # no act named for the title: the people and groups the learned ranker weighs as its performers
    model = load_model()
    chosen = [c.entity.key for c in candidates(doc, span, cast) if model.probability(c.features) >= model.threshold]
    if chosen:
        return chosen, RANKED, verb.text if verb is not None else None
    # the default reading: a song named in a report of a show, by nobody the text names, is the headliner's
    return [], RANKED, None


def _sole_act(cast: Cast) -> str | None:
    """The headliner of a report of a show that presents no other act: every song it names that
    nobody else is said to perform is that act's (a printed setlist, "the hits kept coming")."""
    return cast.headliner if cast.show_report and cast.acts == {cast.headliner} else None


def _unnamed_people(token: Token, cast: Cast) -> bool:
    """A subject that is people no name is given for: "fans", "the crowd", "a choir"."""
    return token.pos_ == "NOUN" and token.lower_ in _PEOPLE_NOUNS and entity_at(cast.entities, *char_span(token)) is None


def _company(doc: Doc, span: Span, cast: Cast, found: list[str]) -> list[str]:
    """People or groups the title's clause sets beside its act ("a rendition of A alongside X",
    "sang B with X"): the first one named within a few words after a preposition of company."""
    _, ends = sentence_bounds(doc)
    out: list[str] = []
    for tok in doc[span.end : ends[span.start]]:
        if tok.lower_ in _COMPANY:
            for other in doc[tok.i + 1 : min(tok.i + 1 + _COMPANY_REACH, ends[span.start])]:
                entity = entity_at(cast.entities, *char_span(other))
                if entity is not None and entity.kind in ("person", "group"):
                    if entity.key not in found and entity.key not in out:
                        out.append(entity.key)
                    break
    return out


def _owners(doc: Doc, span: Span, cast: Cast) -> tuple[list[str], str | None]:
    """Acts a rendition of the title belongs to ("X's version of A", "a cover of A by X"), or the
    title is credited to ("an acoustic A by X")."""
    # ("an acoustic 'A' by X": past the closing mark)
    end = span.end + 1 if span.end < len(doc) and is_mark(doc[span.end].text, CLOSING_MARKS) else span.end
    after = doc[end : end + 2]
    if len(after) == 2 and after[0].lower_ == "by":
        return _acts_of(doc, cast, [after[1], *after[1].conjuncts]), after[0].text
    # "a version of 'A' performed by X", "'B' sung by Y": the agent of a participle on the title
    agents = [g for head in (span.root, span.root.head.head) for v in head.children
              if v.dep_ == "acl" and v.tag_ == "VBN" and not before_the_show(v)
              for a in v.children if a.dep_ == "agent" for g in a.children if g.dep_ == "pobj"]
    if agents:
        # ("'A' performed by the church choir": people no name is given for)
        named = _acts_of(doc, cast, [*agents, *(c for g in agents for c in g.conjuncts)])
        return (named, "by") if named or not any(_unnamed_people(g, cast) for g in agents) else ([], "unnamed")
    of = span.root.head
    noun = of.head
    if span.root.dep_ != "pobj" or of.lower_ != "of" or noun.lemma_.lower() not in _RENDITIONS:
        return [], None
    owners = [c for c in noun.children if c.dep_ == "poss"]
    owners += [g for c in noun.children if c.dep_ == "prep" and c.lower_ == "by" for g in c.children if g.dep_ == "pobj"]
    return _acts_of(doc, cast, [*owners, *(c for o in owners for c in o.conjuncts)]), noun.text


def _acts_of(doc: Doc, cast: Cast, tokens: list[Token]) -> list[str]:
    out: list[str] = []
    for tok in tokens:
        act = cast.act_at(doc, tok)
        if act is not None and act.key not in out:
            out.append(act.key)
    return out


def _year_of(sent: Span) -> When | None:
    """The year a sentence names, if any: a show told "in 2016" is not the one reviewed ("the 1991
    hit" is the song's year, not the show's)."""
    for token in sent:
        if token.like_num and len(token.text) == 4 and token.text[:2] in ("19", "20") and not describes_a_thing(token):
            return When(token.text, token.text, TextSpan(token.idx, token.idx + 4, token.text))
    return None


def _sentence(doc: Doc, span: Span) -> Span:
    starts, ends = sentence_bounds(doc)
    return doc[starts[span.start] : ends[span.start]]


#: Nouns that describe a performer ("the singer", "the band", "the rapper").
_ACT_NOUNS = words("musician_nouns") | tagged("group_nouns", "music")


def find_cast(doc: Doc, found: Found, performers: Iterable[str], subjects_of_performing: Iterable[str]) -> Cast:
    """The article's acts: the performers the stated reading found, the subjects of its verbs of
    performing, its music groups and the people it describes as musicians, each one that may
    perform (:func:`may_perform`); its headliner: of the acts the top of a report of a show names
    (else of all the people and groups it names there), the one the article names most (an act whatever verbs it takes: "X at the
    Y Arena ... X spearheaded three shows"), else the act it names most."""
    named = {*performers, *subjects_of_performing}
    able = [e for e in found.entities if e.kind in ("person", "group") and may_perform(doc, e, found.works)]
    acts = {e.key for e in able if e.key in named or e.kind == "group" or any(_describes_act(d) for d in e.descriptions)}
    # (named in the top, by a mention or inside another name: "the X set at V")
    top_text = doc_text(doc)[: found.scene.top_end] if found.scene.set else ""
    top = [e for e in able if any(name in top_text for name in (e.name, *e.aliases))]
    # (one the top presents as an act first: "Pink performed ..." over a fan the lede names)
    headliner = _most_named([e for e in top if e.key in acts]) or _most_named(top) \
        or _most_named([e for e in able if e.key in acts])
    if headliner is not None:
        acts.add(headliner)
    return Cast(found.entities, frozenset(acts), found.focus, headliner, found.scene.set,
                frozenset(e.key for e in able))


def _most_named(entities: list[Entity]) -> str | None:
    """The entity named most, if one is named more than any other."""
    ranked = sorted(entities, key=lambda e: -_named(e))
    return ranked[0].key if ranked and (len(ranked) == 1 or _named(ranked[0]) > _named(ranked[1])) else None


def _describes_act(description: str) -> bool:
    return any(word.lower() in _ACT_NOUNS for word in description.split())


def _named(entity: Entity) -> int:
    """How often the article names or refers to an entity."""
    return len(entity.mentions)


#: Verbs of performing whose subject is a performer ("sang", "performed", "played").
_PERFORMING = tagged("performance_verbs", "sure") | tagged("performance_verbs", "voice") | tagged("performance_verbs", "frame")


def performing_subjects(doc: Doc, entities: tuple[Entity, ...]) -> set[str]:
    """Keys of the people and groups that are the subjects of the article's verbs of performing."""
    out: set[str] = set()
    toks = doc_tokens(doc)
    for i, pos in enumerate(token_words(doc).pos):
        if pos == "VERB" and cue_lemma(toks[i]) in _PERFORMING:
            out.update(e.key for e in performers_of(entities, toks[i]) if e.kind in ("person", "group"))
    return out
