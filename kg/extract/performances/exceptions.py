"""When a work named in a report of a show was not performed there: the stated exceptions.

The default reading takes every stageable title as performed; these are the evidence that
turns it down, each a named sieve so that ``kg eval --by-rule`` can tell which one held a
title back:

* ``perf.not-made``: its clause makes, releases, charts or awards it ("X wrote 'A'",
  "'A' topped the charts", "won best song for 'A'"): ``unperformed_verbs.txt``;
* ``perf.not-done``: its clause is in the future, a wish or a denial ("will play 'A'", "would
  sing 'B'", "did not play 'C'", "was set to perform 'D'");
* ``perf.not-source``: it is named as what another work comes from ("'A' from the album B");
* ``perf.not-attribute``: it only describes a noun ("the 'A' singer", "the 'A' tour").
"""

from __future__ import annotations

from spacy.tokens import Doc, Span, Token

from kg.extract.model import Entity, Performance, Work
from kg.extract.sieves import sieve
from kg.extract.text.dates import unreal
from kg.extract.text.doc_index import verb_above
from kg.extract.text.lexicon import function_words, words
from kg.extract.text.marks import MUSIC_GROUP_NOUNS
from kg.extract.text.tree_patterns import matches_at
from kg.extract.works.extract import CONCERT_PIECE
from kg.extract.works.lists import object_played

#: Verbs whose clause names a work without performing it.
_UNPERFORMED = words("unperformed_verbs")
#: Participles that order a list of titles ("ranging from A to B"): no source.
_LIST_VERBS = function_words("list-verb")
#: How far up the clauses the exceptions look (a verb of making above "to play": "plans to play").
_CLIMB = 4

MADE = sieve("perf.not-made", "a title whose clause makes, releases, charts or awards it is not performed there",
             "Rivera wrote 'Lantern Song' in 2019. → no performance", 0.9)
NOT_DONE = sieve("perf.not-done", "a title whose clause is in the future, a wish, a denial or before the show "
                 "('sung originally by') is not performed there",
                 "Rivera will play 'Lantern Song' on Friday. → no performance", 0.9)
SOURCE = sieve("perf.not-source", "a title named as the source of another work is not performed by that",
               "'Tide' from the album 'Lantern Song' → the album is not performed", 0.9)
ATTRIBUTE = sieve("perf.not-attribute", "a title that only describes a noun is not performed",
                  "the 'Lantern Song' singer → no performance", 0.9)
NOT_LIVE = sieve("perf.not-live", "a title whose clause plays it on a medium is not performed live, nor is "
                 "the programme a clause plays something on", "'Lantern Song' played from a car radio; sang 'Tide' on "
                 "The Late Show → no performance (of the song; of the show)", 0.9)
#: The exceptions, in the order they are asked.
SIEVES = (MADE, NOT_DONE, SOURCE, ATTRIBUTE, NOT_LIVE)


def not_performed(doc: Doc, span: Span) -> str | None:
    """The id of the exception that says the title at ``span`` was not performed, if one does."""
    if _attributive(span):
        return ATTRIBUTE.id
    if _source(span):
        return SOURCE.id
    verb = verb_above(span)
    if _played_on_a_medium(span, verb) or _programme(span):
        return NOT_LIVE.id
    for cur in _clauses_up(verb):
        if cur.lemma_.lower() in _UNPERFORMED:
            return MADE.id
        # ("will play", "did not sing", "sung originally by X": not at this show)
        if unreal(cur) or before_the_show(cur):
            return NOT_DONE.id
    return None


def before_the_show(verb: Token) -> bool:
    """Whether an adverb puts a verb's act before the show ("sung originally by X"): the tree
    pattern ``earlier-adverb``."""
    return bool(matches_at(verb, "earlier-adverb", "verb"))


def _source(span: Span) -> bool:
    """ "'A' from the album B", "'Memory' from the musical 'Cats'": the title is what another comes
    from (but "ranging from A to B" lists what was played)."""
    noun = span.root
    while noun.dep_ in ("appos", "compound") and noun.head.i != noun.i:
        noun = noun.head
    return bool(matches_at(noun, "source-of-a-work", "source")) and noun.head.head.lemma_.lower() not in _LIST_VERBS


def _programme(span: Span) -> bool:
    """Whether the title is what a verb with an object of its own played it on: "sang her single on
    The Late Show" (not "played bass on A", "traded verses on B", "joined X on C": those name the song)."""
    root = span.root
    prep = root.head
    if root.dep_ != "pobj" or prep.lower_ != "on":
        return False
    # ("sang 'A' on B": the parser may hang "on" on the object)
    verb = prep.head.head if prep.head.dep_ == "dobj" else prep.head
    return verb.pos_ == "VERB" and object_played(verb)


def _played_on_a_medium(span: Span, verb: Token | None) -> bool:
    """Whether the title itself is played by a medium, not by an act: "a car radio was playing
    'A'", "'A' played from a car radio" (an act performing on television still performs).

    The tree pattern ``played-on-a-medium`` finds the clauses with a medium in them; the
    title's are its verb, when the medium is the verb's subject or the title is, and the
    clauses that describe the title.
    """
    root = span.root
    clauses = [c for c in root.children if c.dep_ in ("acl", "relcl")]
    if verb is not None:
        if root.dep_ in ("nsubj", "nsubjpass") and root.head == verb:
            clauses.append(verb)
        # a medium that is the verb's subject plays what the verb names
        if any(m["medium"].dep_ in ("nsubj", "nsubjpass") for m in matches_at(verb, "played-on-a-medium", "clause")):
            return True
    # one named in a clause of the title's, what the clause is of
    return any(m["medium"].dep_ in ("pobj", "compound")
               for c in clauses for m in matches_at(c, "played-on-a-medium", "clause"))


def stated_exceptions(doc: Doc, found: list[Performance], entities: tuple[Entity, ...],
                      works: tuple[Work, ...]) -> list[Performance]:
    """The stated reading's performances, less those the exceptions turn down: a work whose
    mention in the performance's sentence is not performed there, or a performer that is no act
    (see :func:`may_perform`)."""
    by_key = {e.key: e for e in entities}
    titles = {w.key: w for w in works}
    out = []
    for p in found:
        if not may_perform(doc, by_key[p.performer], works):
            continue
        if p.work is not None and p.work in titles:
            spans = [doc.char_span(m.start, m.end, alignment_mode="expand") for m in titles[p.work].mentions
                     if p.span.start <= m.start < p.span.end]
            if spans and all(s is not None and not_performed(doc, s) for s in spans):
                continue
        out.append(p)
    return out


def may_perform(doc: Doc, entity: Entity, works: tuple[Work, ...]) -> bool:
    """Whether an entity can be an act: a person or a group, or an organisation named as a music
    group ("the X Symphony Orchestra") or that the text names as doing something ("The X opened
    their tour"; not a magazine named as a modifier: "his Billboard chart-topping hit"); never
    one that bears a title's name (a song read as a name) or that composed a concert piece."""
    if any(entity.name == w.title or entity.key == w.creator and w.rule == CONCERT_PIECE.id for w in works):
        # (a concert piece's owner is its composer: "Dvorak's Symphony No. 9" is the orchestra's)
        return False
    if entity.kind in ("person", "group") or entity.name.split()[-1].lower() in MUSIC_GROUP_NOUNS:
        return True
    names = {entity.name, *entity.aliases}
    spans = (doc.char_span(m.start, m.end, alignment_mode="expand") for m in entity.mentions if m.text in names)
    return any(span is not None and span.root.dep_ in ("nsubj", "nsubjpass") for span in spans)


def _attributive(span: Span) -> bool:
    """ "the 'X' singer", "the 'X' tour": the title modifies a noun after it."""
    return bool(matches_at(span.root, "title-modifies-noun", "title"))


def _clauses_up(verb: Token | None) -> list[Token]:
    """The verb and the verbs it is the complement of ("hopes to play", "set to perform")."""
    out: list[Token] = []
    cur = verb
    for _ in range(_CLIMB):
        if cur is None:
            break
        out.append(cur)
        if cur.dep_ not in ("xcomp", "ccomp") or cur.head.i == cur.i:
            break
        cur = cur.head
    return out
