"""Which words report a performance: the cue verbs of a sentence, and whether a cue is one here.

A cue is a verb of performing ("sang", "opened with", "headlined"), a past form the small
model took for an adjective ("dedicated 'X'"), a copula naming a part of the show ("the
encore was 'X'"), or any verb done with a rendition ("paid tribute with a cover of 'Y'").
Whether it reports a performance depends on what it governs: "played 'X'" does, "played a
role" does not, "took the stage" does.
"""

from __future__ import annotations

from spacy.tokens import Span, Token

from kg.extract.performances.agents import CUE_LEMMAS, SURE_VERBS, cue_lemma
from kg.extract.performances.bills import SETLIST_VERBS
from kg.extract.performances.context import RENDITION_NOUNS, Index
from kg.extract.text.doc_index import token_words
from kg.extract.text.lexicon import function_words, labels, tagged, words

#: Objects that make an ambiguous verb a performance ("delivered a rendition", "took the stage").
_MUSIC_OBJECTS = words("music_objects")
#: Ambiguous verbs that are a performance with an event alone ("played Glastonbury").
_EVENT_VERBS = tagged("performance_verbs", "event")
#: Objects that make "played"/"took" something else than a performance.
_NON_MUSIC_OBJECTS = words("non_music_objects")
#: Verbs of the voice: their objects are always sung ("sang lead", "sang the part").
_VOICE_VERBS = tagged("performance_verbs", "voice")
#: Prepositions whose object is whom a performance is for ("dedicated it to his mother").
_RECIPIENT_PREPS = function_words("recipient-prep")


def object_lemmas(verb: Token, titles: dict[int, str]) -> set[str]:
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


def cue_verbs(sent: Span, idx: Index) -> list[Token]:
    """Tokens of the sentence that may be a performance cue.

    The small model reads "dedicated 'X' to ..." after a long subject as an adjective of the
    title ("dedicated/amod 'X'"): a cue word modifying a title is still the verb.
    """
    words = token_words(sent.doc)
    lemma, lower, pos = words.lemma, words.lower, words.pos
    # (a verb done "with a cover of" needs a rendition noun in the sentence: most have none)
    rendition = any(lemma[k] in RENDITION_NOUNS for k in range(sent.start, sent.end))
    # only these can pass the test below: a cue's lemma ("make" an appearance), a past form read
    # as another word, a verb of a setlist, a verb done with a rendition
    tokens = [idx.tokens[k] for k in range(sent.start, sent.end)
              if lemma[k] in CUE_LEMMAS or lemma[k] in SETLIST_VERBS or lemma[k] == "make"
              or lower[k].endswith("ed") or rendition and pos[k] == "VERB"]
    return [t for t in tokens if cue_lemma(t) in CUE_LEMMAS and (
        t.pos_ in ("VERB", "AUX") or t.pos_ == "NOUN" and (t.dep_ == "ROOT" or _after_to(t))
        or _misread_as_modifier(t, idx))
        or _show_copula(t) or rendition and with_a_rendition(t)]


def with_a_rendition(verb: Token) -> bool:
    """ "paid tribute to X with a cover of 'Y'": any verb done with a performance of a work."""
    return verb.pos_ == "VERB" and any(
        c.dep_ == "prep" and c.lower_ in ("with", "to") and any(
            g.dep_ == "pobj" and g.lemma_.lower() in RENDITION_NOUNS and any(h.lower_ == "of" for h in g.children)
            for g in c.children)
        for c in verb.children)


def _after_to(token: Token) -> bool:
    """ "returned to duet with X": an infinitive the model read as a noun after "to"."""
    return token.i > 0 and token.doc[token.i - 1].lower_ == "to" and token.dep_ == "pobj" \
        and not any(c.dep_ == "det" for c in token.children)


def _show_copula(token: Token) -> bool:
    """ "The encore was a cover of 'X'", "the opener was 'Y'", "highlights included 'A' and 'B'":
    a part of the show is the work."""
    return token.lemma_ in SETLIST_VERBS and any(
        c.dep_ == "nsubj" and c.lemma_.lower() in words("show_parts") for c in token.children)


def _misread_as_modifier(token: Token, idx: Index) -> bool:
    """A past-tense cue word parsed as an adjective: of a work's title ("dedicated/amod 'X'")
    or with the verb's own subject and object ("Silva dedicated/ADJ 'X'")."""
    if token.pos_ not in ("ADJ", "VERB") or not token.lower_.endswith("ed") or token.i in idx.work_at:
        return False
    if token.dep_ == "amod":
        return token.head.i in idx.work_at
    return any(c.dep_ in ("dobj", "nsubj") for c in token.children)


def is_performance(verb: Token, works: list[str], event: str | None, objects: set[str]) -> bool:
    """Whether a cue verb is a performance here: always for "perform", with evidence for "play"."""
    lemma = cue_lemma(verb)
    # "she did not perform", "never played it"
    if any(c.dep_ == "neg" for c in verb.children):
        return False
    # "played a role", "took a break"; what is sung is sound ("singing lead on X")
    if objects & _NON_MUSIC_OBJECTS and lemma not in _VOICE_VERBS:
        return False
    if lemma in SURE_VERBS or works and with_a_rendition(verb):
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
