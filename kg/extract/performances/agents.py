"""Who performs: the subjects of a verb of performing and the guests who join them, as entities.

A verb's performers are its subjects, climbing through the clauses the parser hangs a verb
on ("took time to dedicate", "said before performing", "Ana Silva, who covered"), the
owner of a show noun standing for its act ("her set ended with X"), and guests ("was
joined by X", "duetted with Y", "brought out Z to sing"), each resolved to an entity
through coreference.
"""

from __future__ import annotations

from spacy.tokens import Token

from kg.extract.model import Entity, entity_at
from kg.extract.text.doc_index import sentence_bounds
from kg.extract.text.lexicon import function_words, labels, tagged, words

#: Verbs that are a performance whatever follows them.
SURE_VERBS = tagged("performance_verbs", "sure")


#: Verbs that are a performance only with a work, a music object or an event ("played a role" is not).
_MAYBE_VERBS = tagged("performance_verbs", "maybe")


#: Verbs whose "with X" names a co-performer ("duetted with X", "performed it with her brother").
_WITH_VERBS = tagged("performance_verbs", "with")
#: Verbs that bring in a guest performer: "X joined Y to sing", "was accompanied by X".
_GUEST_VERBS = tagged("performance_verbs", "guest")
#: Prepositions that bring in a co-performer ("duetted with X", "alongside Y").
_COMPANY_PREPS = function_words("company")
#: Words that set a clause at the time of the one it hangs on ("when", "as", "while").
_SAME_TIME = function_words("same-time")
#: Performances by two acts ("a duet").
_DUETS = tagged("rendition_nouns", "two")


CUE_LEMMAS = SURE_VERBS | _MAYBE_VERBS


RELATIVES = function_words("relative")


#: Subjects standing for their owner's performance ("her set", "the band's show").
SHOW_NOUNS = words("show_nouns")
#: Subjects standing for the two people named last ("the pair", "the duo").
_PAIR_NOUNS = words("pair_nouns")
#: How many sentences back the two people of "the pair" may be named.
_PAIR_SENTENCES = 4


def char_span(token: Token) -> tuple[int, int]:
    """The character offsets of one token."""
    return token.idx, token.idx + len(token.text)


def subjects(verb: Token) -> list[Token]:
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
        subj = [c for c in cur.children if c.dep_ in labels("subject")]
        mark = next((c for c in cur.children if c.dep_ == "mark"), None)
        if cur is not verb and mark is not None and any(s.i < mark.i for s in subj):
            # "A, after B pulled out, brought ...": parsed with both as subjects of "pulled"; the
            # verb reached through its conjunct is A's, and B belongs to the "after" clause
            subj = [s for s in subj if s.i < mark.i]
        # "Ana Silva, who covered 'X'": the relative pronoun stands for the noun the clause is on
        if cur.dep_ == "relcl" and any(c.lower_ in RELATIVES for c in subj):
            subj = [cur.head]
        if subj:
            return [t for s in subj for t in _listed(s)]
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


def _listed(head: Token) -> list[Token]:
    """A subject and those listed with it: its conjuncts, and the names the parser hangs on it in
    the middle of a list ("A, B, C and D performed": B read as a modifier of A)."""
    middle = [c for c in head.children if c.dep_ in ("npadvmod", "appos") and c.pos_ == "PROPN"]
    # (only in a list: "The singer, Ana Rivera," is one)
    if not head.conjuncts and not any(m.conjuncts for m in middle):
        return [head]
    return [head, *head.conjuncts, *middle, *(c for m in middle for c in m.conjuncts)]


def guests_of(verb: Token) -> list[Token]:
    """Performers joining the subject: "was joined by X", "duetted with X"."""
    out: list[Token] = []
    # "X joined Y to sing 'Z'", "X brought out Y to perform 'Z'": Y sings too
    if verb.dep_ in ("xcomp", "advcl") and verb.head.lemma_ in _GUEST_VERBS:
        out.extend(c for c in verb.head.children if c.dep_ in ("dobj", "obj"))
    # "brought out X for a duet", "joined X onstage for 'Y'", "joined X in a duet": X performs too
    # (not in a gerund a preposition takes: "her wish of joining X" tells of no show)
    if cue_lemma(verb) in _GUEST_VERBS and verb.dep_ != "pcomp":
        out.extend(c for c in verb.children if c.dep_ in ("dobj", "obj"))
    for child in verb.children:
        if child.dep_ == "agent" or (child.lower_ in _COMPANY_PREPS and cue_lemma(verb) in _WITH_VERBS):
            out.extend(obj for obj in child.children if obj.dep_ == "pobj")
    out.extend(_company_in_clause(verb))
    # "performed X, featuring soloist Y": who the performance features performs too
    out.extend(o for c in verb.children if c.dep_ in ("advcl", "acl") and c.tag_ == "VBG"
               and c.lemma_.lower() in _GUEST_VERBS for o in c.children if o.dep_ in ("dobj", "obj"))
    out.extend(_other_voice(verb, out))
    return with_named(out)


def with_named(heads: list[Token]) -> list[Token]:
    """The heads with their appositions and conjuncts, those of the appositions too: "with her
    brother Finneas", "joined by Y and Z", "with artists A, B and C" all perform."""
    heads = heads + [c for o in heads for c in o.children if c.dep_ == "appos"]
    return heads + [c for o in heads for c in o.conjuncts if c not in heads]


def company_of(head: Token) -> list[Token]:
    """Who a performance noun sets beside its act by a preposition of company ("a performance of X
    with local band Y", "her duet cover of X with Y"), looked for on the noun and on what it is "of"."""
    heads = [head] + [g for c in head.children if c.dep_ == "prep" and c.lower_ == "of"
                      for g in c.children if g.dep_ == "pobj"]
    heads += [a for h in heads[1:] for a in h.children if a.dep_ == "appos"]
    return with_named([g for h in heads for c in h.children if c.dep_ == "prep" and c.lower_ in _COMPANY_PREPS
                       for g in c.children if g.dep_ == "pobj"])


def _other_voice(verb: Token, guests: list[Token]) -> list[Token]:
    """ "X had the crowd screaming when Y appeared for a duet": a duet whose clause names one act
    and no partner has the act of the clause it hangs on for its other voice."""
    if guests or not any(c.lemma_.lower() in _DUETS or c.dep_ == "prep" and any(
            g.dep_ == "pobj" and g.lemma_.lower() in _DUETS for g in c.children) for c in verb.children):
        return []
    # (up past a clause whose subject is no one named: "had the crowd screaming when ..."; not
    # from a clause of another time: "X sang A before Y appeared for a duet of B")
    cur = verb
    for _ in range(3):
        mark = next((c.lower_ for c in cur.children if c.dep_ in ("mark", "advmod") and c.i < cur.i), None)
        if cur.dep_ not in ("advcl", "conj", "ccomp") or cur.head.i == cur.i or (
                cur.dep_ == "advcl" and mark not in _SAME_TIME):
            break
        cur = cur.head
        named = [s for s in subjects(cur) if s.pos_ == "PROPN"]
        if named:
            return named
    return []


def _company_in_clause(verb: Token) -> list[Token]:
    """Co-performers the parser hangs elsewhere than on the verb of performing: on what was
    performed ("performed 'X' with Y", "sang the song, 'X', alongside Y") or on the verb the
    performing is the purpose of ("returned alongside Y to sing 'X'")."""
    if cue_lemma(verb) not in _WITH_VERBS:
        return []
    heads = [o for o in verb.children if o.dep_ in ("dobj", "obj")]
    heads += [a for o in heads for a in o.children if a.dep_ == "appos"]
    if verb.dep_ in ("advcl", "xcomp") and any(c.dep_ == "aux" and c.lower_ == "to" for c in verb.children):
        heads.append(verb.head)
    return [g for h in heads for c in h.children if c.dep_ == "prep" and c.lower_ in _COMPANY_PREPS
            for g in c.children if g.dep_ == "pobj"]


def performers_of(entities: tuple[Entity, ...], verb: Token) -> list[Entity]:
    """Entities performing: the subject(s), plus guests, each resolved through coreference."""
    # "Metallica's set ended with 'X'": the owner of the set performs
    tokens = [next((c for c in s.children if c.dep_ == "poss"), s) if s.lemma_ in SHOW_NOUNS else s
              for s in subjects(verb)]
    passive = any(c.dep_ == "auxpass" for c in verb.children)
    guests = guests_of(verb)
    # "'X' was performed by Y": the agent is the performer, not the subject
    if passive and verb.lemma_ not in _GUEST_VERBS:
        tokens = guests
    else:
        tokens = tokens + guests
    found: list[Entity] = []
    for tok in tokens:
        # a multi-word name: its head token plus compounds are inside the entity's mention
        entity = entity_at(entities, *char_span(tok))
        for one in [entity] if entity is not None else _pair(entities, tok):
            if one not in found:
                found.append(one)
    return found


def _pair(entities: tuple[Entity, ...], token: Token) -> list[Entity]:
    """The two people "the pair", "the duo" or "both performers" stands for: the last two people
    named before it, within a few sentences (a paragraph of quotation may come between)."""
    both = any(c.lower_ == "both" for c in token.children) and token.tag_ == "NNS"
    definite = any(c.lower_ in function_words("definite") for c in token.children)
    if not (both or token.lower_ in _PAIR_NOUNS and definite):
        return []
    doc = token.doc
    starts, _ = sentence_bounds(doc)
    first = starts[token.i]
    for _ in range(_PAIR_SENTENCES):
        first = starts[first - 1] if first > 0 else first
    named = sorted((m.start, e.key) for e in entities if e.kind == "person" for m in e.mentions
                   if doc[first].idx <= m.start < token.idx)
    last: list[str] = []
    for _, key in reversed(named):
        if key not in last:
            last.append(key)
    return [e for e in entities if e.key in last[:2]] if len(last) >= 2 else []


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
    if lemma in CUE_LEMMAS or not form.endswith("ed"):
        return lemma
    # "dedicated", "debuted", "duetted": drop "d", "ed" or a doubled consonant and "ed"
    return next((form[:-k] for k in (1, 2, 3) if form[:-k] in CUE_LEMMAS), lemma)


def open_pronoun(entities: tuple[Entity, ...], verb: Token) -> bool:
    """Whether the verb's subject is a personal pronoun that coreference resolved to no one."""
    return any(s.pos_ == "PRON" and s.lower_ in tagged("pronouns", "subject") and entity_at(entities, *char_span(s))
               is None for s in subjects(verb))


def act_unnamed(verb: Token) -> bool:
    """A cue that names no act: "'X' was dedicated to ..." (passive, no agent), "the encore was 'Y'",
    "a set that ended with 'Z'"."""
    if any(c.dep_ == "auxpass" for c in verb.children):
        return not any(c.dep_ == "agent" for c in verb.children)
    # "a set that ended with 'X'": the relative pronoun stands for the set
    subjects = [verb.head if verb.dep_ == "relcl" and c.lower_ in RELATIVES else c
                for c in verb.children if c.dep_ in labels("subject")]
    return any(c.lemma_.lower() in SHOW_NOUNS | words("show_parts") and not any(g.dep_ == "poss" for g in c.children)
               for c in subjects)
