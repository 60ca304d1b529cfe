"""Which token a verb of saying gives as its speaker.

The parser's subject of the verb, when it has one; else what stands where a subject would:
the name after an inverted cue ('said X'), the subject of the clause a participle or an
infinitive hangs on ('X added, saying ...', 'X went on to add'), the name a relative clause
hangs off ('X, who said'), the owner of a statement ('X's statement read'), a name before a
verb the parser left without a subject. Which entity that token stands for is the sieves'
business (:mod:`kg.extract.quotes.sieves`).
"""

from __future__ import annotations

from spacy.tokens import Token

from kg.extract.text.doc_index import named_after_cue
from kg.extract.text.lexicon import function_words, labels
from kg.extract.text.marks import (
    GROUP_NOUNS,
    PERSON_NOUNS,
    STATEMENT_NOUNS,
    is_dash,
    is_mark,
    is_say_verb,
)

#: Entity labels of dates, times and amounts, which never speak.
_NUMERIC_LABELS = labels("numeric")

#: What stands right before a cue that follows a quotation: a comma or a closing mark.
_AFTER_QUOTE = ",”\"’"

#: Dependencies of a clause's subject.
_SUBJECT = labels("subject")


def _subjects(verb: Token, in_quote: set[int]) -> list[Token]:
    """The verb's subjects outside quotation marks."""
    return [c for c in verb.children if c.dep_ in _SUBJECT and c.i not in in_quote]


def speaker_token(verb: Token, in_quote: set[int]) -> Token | None:
    """The subject of the verb of saying, climbing out of "to add" / "and said" / ", adding" clauses.

    Words inside quotation marks are never the speaker, whatever the parser made of them.
    """
    opening = _named_after_opening(verb)
    if opening is not None:
        return opening
    # (", joking, '...'" with "a quip" before it parsed as the participle's subject: a participle's
    # subject that cannot speak is a slip of the parser)
    subjectless = not any(c.dep_ in _SUBJECT and (verb.tag_ != "VBG" or _may_speak(c)) for c in verb.children)
    reporter = (_reporter_of_participle(verb, in_quote) or _name_before(verb, in_quote)) if subjectless else None
    if reporter is not None:
        return reporter
    named = verb.doc[verb.i - 1] if verb.i > 0 else verb
    if (verb.tag_ == "VBG" and subjectless and named.ent_type_ == "PERSON"
            and named.head.lower_ not in function_words("medium-prep")):
        # "a video of X asking, '...'", "a clip of X saying": the person named right before the
        # participle speaks, however the parser attached it (a message "on Y reading" is not Y's)
        return named
    if verb.tag_ == "VBG" and subjectless:
        # ", telling the chamber that ...", ", adding ...": a participle speaks for the subject of
        # the sentence, however the parser attached it
        subject = _participle_subject(verb, in_quote)
        if subject is not None:
            return owner(subject)
    if verb.dep_ == "acl" and 0 < verb.i - verb.head.i <= 2 and verb.head.pos_ in ("PROPN", "NOUN"):
        # '"...," Trump posted on ...' parsed as a noun modified by "posted": the noun speaks
        return owner(verb.head)
    if verb.dep_ == "amod" and verb.head.i == verb.i + 1 and verb.head.pos_ == "PROPN" and verb.i > 0:
        # '"...", added KCNA.' parsed as an adjective on the name
        return owner(verb.head) if is_mark(verb.doc[verb.i - 1].text, _AFTER_QUOTE) else None
    return _climbing_subject(verb, in_quote)


def _named_after_opening(verb: Token) -> Token | None:
    """The last word of the name right after a verb that opens its sentence or line."""
    nxt = verb.doc[verb.i + 1] if verb.i + 1 < len(verb.doc) else None
    if nxt is not None and nxt.pos_ == "PROPN" and (verb.i == 0 or "\n" in verb.doc[verb.i - 1].text or verb.is_sent_start):
        # 'Said X: "..."', 'Added X: "..."': a sentence opening on the verb names its speaker next
        while nxt.i + 1 < len(verb.doc) and verb.doc[nxt.i + 1].pos_ == "PROPN":
            nxt = verb.doc[nxt.i + 1]
        return nxt
    return None


def _participle_subject(participle: Token, in_quote: set[int]) -> Token | None:
    """The subject, before ``participle``, of its sentence's root or else of the nearest verb above it."""
    heads = [participle]
    while heads[-1].head.i != heads[-1].i:
        heads.append(heads[-1].head)
    # the root's subject; failing one outside the quotation (the parser may make the quoted
    # verb the root), the nearest verb above with one ("X was unmoved, telling the press, ...")
    # a subject that cannot speak ("Thunder rumbled as ... X ordered the band to stop, saying:")
    # leaves the participle to the next verb down that has one who can
    for v in (heads[-1], *heads[1:-1]):
        subjects = [c for c in _subjects(v, in_quote) if c.i < participle.i and _may_speak(c)]
        if subjects:
            # the subject nearest the main verb ("CITY — Mayor X on Tuesday defended")
            return min(subjects, key=lambda c: abs(c.i - v.i))
    # none on the way up ("streamers shot up ... by a breeze the singer commented on, saying:"):
    # the nearest subject before it that can speak
    speakers = [t for t in participle.doc[participle.sent.start : participle.i]
                if t.dep_ in _SUBJECT and t.i not in in_quote and _may_speak(t)]
    return speakers[-1] if speakers else None


def _may_speak(subject: Token) -> bool:
    """A name, a pronoun, or a noun for a person or a group: not "thunder" or "the streamers"."""
    return subject.pos_ in ("PROPN", "PRON") or subject.lower_ in PERSON_NOUNS or subject.lower_ in GROUP_NOUNS


def _climbing_subject(verb: Token, in_quote: set[int]) -> Token | None:
    """The subject of ``verb``, or of the clause above it, climbing at most four heads."""
    v = verb
    for _ in range(4):
        subjects = _subjects(v, in_quote)
        if subjects and v.i != verb.i and verb.dep_ == "conj" and all(s.pos_ == "NOUN" for s in subjects):
            # "The speech was long, ... when he looked at them and said:" with "said" misattached to
            # "was": a person's subject nearer the verb is the one that speaks
            nearer = [t for t in verb.doc[max(s.i for s in subjects) + 1 : verb.i]
                      if t.dep_ in _SUBJECT and t.pos_ in ("PRON", "PROPN") and t.i not in in_quote]
            if nearer:
                return owner(nearer[-1])
            if v.dep_ == "ccomp" and is_say_verb(v.head):
                # "X said the move was made by Y and said, '...'" with the second "said" parsed
                # into the first one's clause: the two verbs of saying share their subject
                v, subjects = v.head, _subjects(v.head, in_quote)
        if subjects:
            # the subject nearest the verb: "X's Prime Minister, Y said" has two
            subject = min(subjects, key=lambda c: abs(c.i - v.i))
            if subject.tag_ in labels("relative"):
                # "X, who called it 'a con'": the name the clause hangs off, or the name right
                # before "who" where the parser hung the clause elsewhere ("a message from X, who said:")
                if v.dep_ == "relcl" and v.head.pos_ == "PROPN":
                    return owner(v.head)
                named = _name_before_relative(subject)
                if named is not None:
                    return named
            return owner(subject)
        if v.i == verb.i:
            named = _object_after_cue(v)
            if named is not None:
                return named
        if v.dep_ == "relcl":
            # "X, who said": the noun the clause hangs off
            return owner(v.head)
        if v.dep_ not in labels("speaker-climb"):
            return None
        v = v.head
    return None


def _name_before_relative(relative: Token) -> Token | None:
    """The name that ends right before a relative pronoun, past a comma ("X, who" / "X who")."""
    i = relative.i - 1
    if i >= 0 and relative.doc[i].text == ",":
        i -= 1
    return relative.doc[i] if i >= 0 and relative.doc[i].pos_ == "PROPN" else None


def _object_after_cue(verb: Token) -> Token | None:
    """The speaker a cue right after a quotation names after it, parsed as its object."""
    # "said the minister": the subject parsed as an object after the verb
    objects = [
        c
        for c in verb.children
        if c.dep_ in labels("speaker-object")
        and c.i > verb.i
        and c.pos_ in ("PROPN", "NOUN")
        # ('"...," X, the strategist, said Friday evening': a time is nobody)
        and c.ent_type_ not in _NUMERIC_LABELS
    ]
    named = objects[0] if objects else named_after_cue(verb)
    if named is not None and verb.i > 0 and is_mark(verb.doc[verb.i - 1].text, _AFTER_QUOTE):
        return named
    return None


def _reporter_of_participle(verb: Token, in_quote: set[int]) -> Token | None:
    """The subject of the verb of saying that a participle clause follows after a comma:
    'X added, saying it was "..."', 'X said, going on to say that "..."'.

    The participle goes on with that speaker's report, however the parser attached it (often
    to a verb inside the quotation, or to the clause X was reporting on).
    """
    participle = verb if verb.tag_ == "VBG" else verb.head if verb.dep_ == "xcomp" else None
    if participle is None or participle.tag_ != "VBG" or participle.i < 2:
        return None
    if any(c.dep_ in _SUBJECT for c in participle.children):
        return None
    comma, said = participle.doc[participle.i - 1], participle.doc[participle.i - 2]
    if comma.text != "," or not is_say_verb(said) or said.pos_ != "VERB":
        return None
    subjects = _subjects(said, in_quote)
    return owner(subjects[0]) if len(subjects) == 1 else None


#: Most tokens of an aside between a name and its verb ('X – of the duo X and Y – tweeted').
_ASIDE = 12
#: The mark that opens an aside, by the mark that closes it (a dash closes what a dash opens).
_ASIDE_OPENER = {",": ",", ")": "("}


def _name_before(verb: Token, in_quote: set[int]) -> Token | None:
    """The capitalised name right before a finite verb of saying the parser gave no subject,
    past an aside set off by dashes, commas or brackets: 'as X – of the duo X and Y – tweeted:'
    (X read as the object of "as"), 'And X called it ...' (X read as an adverb), 'at the
    convention Sen. X (D-MA) said' (X read as an apposition to the convention).

    A finite verb has a subject; when the parser found none, the name standing where the
    subject stands is it.
    """
    bare_participle = verb.tag_ == "VBN" and not any(c.dep_ in ("aux", "auxpass") for c in verb.children)
    if not (verb.tag_ in labels("finite") or bare_participle) or verb.i == 0:
        # ("tweeted" after "as X" is often read as a participle: with no auxiliary it is the past tense)
        return None
    doc = verb.doc
    i = verb.i - 1
    if doc[i].text in _ASIDE_OPENER or is_dash(doc[i].text):
        opener = _ASIDE_OPENER.get(doc[i].text, doc[i].text)
        j = i - 1
        while j > max(i - _ASIDE, 0) and doc[j].text != opener and not doc[j].is_sent_start:
            j -= 1
        if doc[j].text != opener:
            return None
        i = j - 1
    name = doc[i] if i >= 0 else None
    if name is None or name.i in in_quote or not name.is_title \
            or name.is_sent_start and name.pos_ != "PROPN" and name.ent_type_ != "PERSON":
        # (a capitalised word opening the sentence is a name only if it is tagged one: "Alder, who
        # had never sung it before, noted, '...'")
        return None
    return name if name.pos_ in ("PROPN", "ADV", "NOUN") and name.ent_type_ not in _NUMERIC_LABELS else None


def owner(subject: Token) -> Token | None:
    """ "X's statement read": the statement's owner speaks; a bare "the statement" has no speaker."""
    if subject.lemma_.lower() not in STATEMENT_NOUNS:
        return subject
    for child in subject.children:
        if child.dep_ == "poss":
            return child
        if child.dep_ == "prep" and child.lower_ in function_words("source-prep"):
            for obj in child.children:
                if obj.dep_ == "pobj":
                    return obj
    return None
