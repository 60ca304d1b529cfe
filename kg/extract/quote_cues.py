"""Quotation candidates and their cues: the words around each pair of quotation marks, the
verb of saying that introduces them, and the token that verb gives as the speaker.

A cue is looked for right after the quotation ('"...," Rivera said'), right before it
('She added: "..."'), as the verb whose clause holds it ('said she felt "very protective"'),
between the halves of a split quotation, as "according to X", or after a signing dash.
Which entity the speaker token stands for is decided by the sieves (:mod:`kg.extract.quote_sieves`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from spacy.tokens import Doc, Span, Token

from kg.extract.cues import (
    STATEMENT_NOUNS,
    MarkedSpan,
    is_dash,
    is_mark,
    is_say_verb,
)
from kg.extract.lexicon import function_words, labels, words
from kg.extract.model import Entity, TextSpan
from kg.extract.sieves import Sieve
from kg.extract.text import named_after_cue

#: Sentence-final punctuation: cue contexts stop there.
_STOPS = ".!?"


#: At most this many tokens between the closing mark and a cue after it ("," the five-time winner said).
_NEAR_AFTER = 14


#: At most this many tokens between a cue before the quote and its opening mark (She added: ").
_NEAR_BEFORE = 3


#: Two-word cues whose object is the speaker.
_PHRASE_CUES = frozenset(tuple(phrase.split()) for phrase in words("phrase_cues"))


@dataclass(frozen=True)
class _Cue:
    token: Token
    text: str
    span: TextSpan
    speaker: Token | None


@dataclass
class Candidate:
    """One pair of quotation marks with the words around it, its cue, and the speaker the sieves decide."""

    mark: MarkedSpan
    content: Span
    left: list[Token]
    right: list[Token]
    cue: _Cue | None = None
    speaker: Entity | None = None
    rule: Sieve | None = None


def left_context(doc: Doc, mark: MarkedSpan, in_quote: set[int]) -> list[Token]:
    """Tokens before the opening mark back to the sentence start, a newline or another quotation."""
    out: list[Token] = []
    opening = doc.char_span(mark.open_at, mark.open_at + 1, alignment_mode="expand")
    i = opening.start - 1 if opening is not None else -1
    while i >= 0 and i not in in_quote and not _ends_sentence(doc[i]) and "\n" not in doc[i].text:
        out.append(doc[i])
        i -= 1
    return out[::-1]


def _ends_sentence(token: Token) -> bool:
    """A full stop, or a "!"/"?" that the parser ends a sentence on (not the one in "E! News")."""
    if token.text == ".":
        return True
    nxt = token.doc[token.i + 1] if token.i + 1 < len(token.doc) else None
    return is_mark(token.text, _STOPS) and (nxt is None or nxt.is_sent_start or not nxt.is_title)


def right_context(doc: Doc, mark: MarkedSpan, in_quote: set[int]) -> list[Token]:
    """Tokens after the closing mark up to the sentence end, a newline or another quotation."""
    if mark.close_at is None:
        return []
    close = doc.char_span(mark.close_at, mark.close_at + 1, alignment_mode="expand")
    out: list[Token] = []
    i = close.end if close is not None else len(doc)
    while i < len(doc) and i not in in_quote and "\n" not in doc[i].text:
        out.append(doc[i])
        if is_mark(doc[i].text, _STOPS):
            break
        i += 1
    return out


def own_right(cand: Candidate) -> list[Token]:
    """The words after the closing mark that belong to the quotation's own sentence.

    A quotation that ends its sentence inside the marks, followed by a capitalised word that
    opens a sentence, has none: what follows is the next sentence ('"... ." Y said so,
    according to press reports'), not a cue or a source of these words.
    """
    right = cand.right
    ended = cand.content.text.rstrip()[-1:] in _STOPS
    return [] if ended and right and right[0].is_sent_start and right[0].is_title else right


def content_words(tokens: list[Token]) -> list[Token]:
    return [t for t in tokens if not t.is_punct and not t.is_space]


def find_cue(cand: Candidate, in_quote: set[int]) -> _Cue | None:
    """The cue: near after the quote, else near before it or governing it, else "according to"."""
    content = cand.content
    split = _split_cue(cand, in_quote)
    if split is not None:
        # '"A," said X, "B." Y laughed.': the second half is X's, whatever follows it
        return split
    after = [t for t in cand.right[:_NEAR_AFTER] if is_say_verb(t) and t.pos_ != "NOUN"]
    closed = content.text.rstrip().endswith(".")
    if closed and content_words(cand.left) and cand.right and cand.right[0].is_sent_start:
        # 'X said Y was "very good." He added, ...': words that end a sentence of their own
        # narration; the verb after them opens the next sentence, about the next quotation
        after = []
    if after and not (closed and len(content_words(cand.right)) > 5):
        # "...," Rivera said / said the minister / she later added; after a full stop only a
        # short '"...." X said.' looks back, a longer clause is an utterance of its own
        if _only_subject_between(cand, after[0], in_quote):
            return _cue_of(after[0], in_quote)
        described = _description_between(cand, after[0])
        if described is not None:
            # '"...," the 29-year-old told reporters' parsed with no subject for "told"
            # (a name there, '"...," X, a strategist, said', outranks whatever follows the verb)
            cue = _cue_of(after[0], in_quote)
            return replace(cue, speaker=described if described.pos_ == "PROPN" else cue.speaker or described)
    before = [t for t in cand.left if is_say_verb(t) and t.pos_ != "NOUN"]
    if before:
        verb = before[-1]
        between = content_words([t for t in cand.left if t.i > verb.i])
        if len(between) > _NEAR_BEFORE and governs(verb, content):
            # words deep in reported speech are the reporter's source's: "X said the trustees
            # told the judges they 'staged a sit-in'", "X said Y will continue to be 'a champion'"
            outer = [t for t in before if t is not verb and t in verb.ancestors and _cue_of(t, in_quote).speaker]
            return _cue_of(outer[0] if outer else verb, in_quote)
        governing = [t for t in before if governs(t, content)]
        if governing and not governs(verb, content) and (
            verb.dep_ in labels("noun-clause") or _cue_of(verb, in_quote).speaker is None
        ):
            # 'saying anybody who complains about it "is not having a good night"', 'said the
            # reported bomber had "roots"': the nearest verb modifies a noun, its clause ends
            # before the words; the verb whose clause holds them speaks
            return _cue_of(governing[-1], in_quote)
        if len(between) <= _NEAR_BEFORE or governs(verb, content):
            # She added: "..." / said she felt "very protective"
            return _cue_of(verb, in_quote)
    else:
        # 'X said the town kept "every promise" because it had "a plan"': the left context
        # stops at the first quotation, but the verb over both stands before it
        earlier = [t for t in _sentence_before_left(cand, in_quote) if is_say_verb(t) and t.pos_ != "NOUN"]
        governing = [t for t in earlier if governs(t, content)]
        if governing and not _done_by_named_subject(content):
            return _cue_of(governing[0], in_quote)
    later = [t for t in cand.right if is_say_verb(t) and t.pos_ != "NOUN" and governs(t, content)]
    if later:
        return _cue_of(later[0], in_quote)
    for tokens in (own_right(cand), cand.left):
        for t in tokens:
            following = t.doc[t.i + 1] if t.i + 1 < len(t.doc) else None
            if following is not None and (t.lower_, following.lower_) in _PHRASE_CUES:
                # "according to X", "in the words of X"
                objs = [c for c in following.children if c.dep_ == "pobj"]
                pair = t.doc[t.i : t.i + 2]
                span = TextSpan(pair.start_char, pair.end_char, pair.text)
                return _Cue(t, span.text, span, objs[0] if objs else None)
    return _dash_cue(cand)


def _split_cue(cand: Candidate, in_quote: set[int]) -> _Cue | None:
    """The cue between the halves of a split quotation: '"A," she said, "B."' gives B her cue.

    Only a short clause that runs from the first half's closing mark to a comma before this
    opening mark counts.
    """
    left = cand.left
    if not left or left[-1].text != "," or left[0].i - 1 not in in_quote:
        return None
    verbs = [t for t in left if is_say_verb(t) and t.pos_ != "NOUN"]
    if len(verbs) != 1 or len(content_words(left)) > 6:
        return None
    cue = _cue_of(verbs[0], in_quote)
    return cue if cue.speaker is not None else None


def _dash_cue(cand: Candidate) -> _Cue | None:
    """A quotation signed after a dash: '"..." - Jane Doe'."""
    right = cand.right
    if len(right) >= 2 and is_dash(right[0].text) and right[1].pos_ == "PROPN":
        dash = right[0]
        return _Cue(dash, dash.text, TextSpan(dash.idx, dash.idx + len(dash), dash.text), right[1])
    return None


def _sentence_before_left(cand: Candidate, in_quote: set[int]) -> list[Token]:
    """The words of the quotation's sentence before its left context, outside quotation marks."""
    if not cand.content:
        return []
    stop = cand.left[0].i if cand.left else cand.content.start - 1
    start = cand.content[0].sent.start
    return [t for t in cand.content.doc[start:stop] if t.i not in in_quote]


def _done_by_named_subject(content: Span) -> bool:
    """Whether the quoted words are a deed of a noun named just outside them ('after the
    agency "recommended it"'): someone else's act, not more of the reporter's words."""
    root = content.root
    return root.pos_ == "VERB" and any(
        c.dep_ in ("nsubj", "nsubjpass") and c.pos_ in ("NOUN", "PROPN") and c.i < content.start
        for c in root.children
    )


def _only_subject_between(cand: Candidate, verb: Token, in_quote: set[int]) -> bool:
    """Whether nothing but the verb's own subject and adverbs stands between the closing mark and it."""
    subject = _speaker_token(verb, in_quote)
    allowed = {t.i for t in subject.subtree} if subject is not None else set()
    return all(
        t.i in allowed or (t.dep_ in labels("verb-satellite") and t.head == verb)
        for t in content_words([t for t in cand.right if t.i < verb.i])
    )


#: Parts of speech of a short noun phrase standing before a cue verb ("the 29-year-old").
_NOMINAL_POS = labels("noun-phrase")


#: Entity labels of dates, times and amounts, which never speak.
_NUMERIC_LABELS = labels("numeric")


#: What stands right before a cue that follows a quotation: a comma or a closing mark.
_AFTER_QUOTE = ",”\"’"


def _description_between(cand: Candidate, verb: Token) -> Token | None:
    """The head of a short noun phrase right between the closing mark and the cue verb.

    The small model often parses '"...," the 29-year-old told reporters' with "told" as a
    modifier and no subject; the phrase before the verb is its subject all the same.
    """
    between = [t for t in cand.right if t.i < verb.i]
    words = content_words(between)
    if not 1 <= len(words) <= 6 or between[0].text != "," and between[0].pos_ == "PUNCT":
        return None
    if any(t.pos_ not in _NOMINAL_POS for t in between if not t.is_space):
        return None
    name = 0
    while name < len(words) and words[name].pos_ == "PROPN":
        name += 1
    if 0 < name < len(words) and words[name - 1].i + 1 < verb.i and verb.doc[words[name - 1].i + 1].text == ",":
        # '"...," X, a party strategist, said': the name, not the description after it, is the head
        return words[name - 1]
    head = words[-1]
    return head if head.pos_ in labels("nominal") else None


def governs(verb: Token, content: Span) -> bool:
    """Whether the quotation sits in the clause of ``verb`` (partial quotes in reported speech)."""
    return any(verb in t.ancestors for t in content if not t.is_punct)


def _cue_of(verb: Token, in_quote: set[int]) -> _Cue:
    return _Cue(
        verb, verb.text, TextSpan(verb.idx, verb.idx + len(verb), verb.text), _speaker_token(verb, in_quote)
    )


def _speaker_token(verb: Token, in_quote: set[int]) -> Token | None:
    """The subject of the verb of saying, climbing out of "to add" / "and said" / ", adding" clauses.

    Words inside quotation marks are never the speaker, whatever the parser made of them.
    """
    nxt = verb.doc[verb.i + 1] if verb.i + 1 < len(verb.doc) else None
    if nxt is not None and nxt.pos_ == "PROPN" and (verb.i == 0 or "\n" in verb.doc[verb.i - 1].text or verb.is_sent_start):
        # 'Said X: "..."', 'Added X: "..."': a sentence opening on the verb names its speaker next
        while nxt.i + 1 < len(verb.doc) and verb.doc[nxt.i + 1].pos_ == "PROPN":
            nxt = verb.doc[nxt.i + 1]
        return nxt
    subjectless = not any(c.dep_ in ("nsubj", "nsubjpass") for c in verb.children)
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
        heads = [verb]
        while heads[-1].head.i != heads[-1].i:
            heads.append(heads[-1].head)
        # the root's subject; failing one outside the quotation (the parser may make the quoted
        # verb the root), the nearest verb above with one ("X was unmoved, telling the press, ...")
        for v in (heads[-1], *heads[1:-1]):
            subjects = [c for c in v.children if c.dep_ in ("nsubj", "nsubjpass") and c.i not in in_quote]
            subjects = [c for c in subjects if c.i < verb.i]
            if subjects:
                # the subject nearest the main verb ("CITY — Mayor X on Tuesday defended")
                return _owner(min(subjects, key=lambda c: abs(c.i - v.i)))
    if verb.dep_ == "acl" and 0 < verb.i - verb.head.i <= 2 and verb.head.pos_ in ("PROPN", "NOUN"):
        # '"...," Trump posted on ...' parsed as a noun modified by "posted": the noun speaks
        return _owner(verb.head)
    if verb.dep_ == "amod" and verb.head.i == verb.i + 1 and verb.head.pos_ == "PROPN" and verb.i > 0:
        # '"...", added KCNA.' parsed as an adjective on the name
        return _owner(verb.head) if is_mark(verb.doc[verb.i - 1].text, _AFTER_QUOTE) else None
    v = verb
    for _ in range(4):
        subjects = [c for c in v.children if c.dep_ in ("nsubj", "nsubjpass") and c.i not in in_quote]
        if subjects and v.i != verb.i and verb.dep_ == "conj" and all(s.pos_ == "NOUN" for s in subjects):
            # "The speech was long, ... when he looked at them and said:" with "said" misattached to
            # "was": a person's subject nearer the verb is the one that speaks
            nearer = [t for t in verb.doc[max(s.i for s in subjects) + 1 : verb.i]
                      if t.dep_ in labels("subject") and t.pos_ in ("PRON", "PROPN") and t.i not in in_quote]
            if nearer:
                return _owner(nearer[-1])
        if subjects:
            # the subject nearest the verb: "X's Prime Minister, Y said" has two
            subject = min(subjects, key=lambda c: abs(c.i - v.i))
            if v.dep_ == "relcl" and subject.tag_ in labels("relative") and v.head.pos_ == "PROPN":
                # "X, who called it 'a con'": the name the clause hangs off
                return _owner(v.head)
            return _owner(subject)
        if v.i == verb.i:
            # "said the minister": the subject parsed as an object after the verb
            objects = [
                c
                for c in v.children
                if c.dep_ in labels("speaker-object")
                and c.i > v.i
                and c.pos_ in ("PROPN", "NOUN")
                # ('"...," X, the strategist, said Friday evening': a time is nobody)
                and c.ent_type_ not in _NUMERIC_LABELS
            ]
            named = objects[0] if objects else named_after_cue(v)
            if named is not None and v.i > 0 and is_mark(v.doc[v.i - 1].text, _AFTER_QUOTE):
                return named
        if v.dep_ == "relcl":
            # "X, who said": the noun the clause hangs off
            return _owner(v.head)
        if v.dep_ not in labels("speaker-climb"):
            return None
        v = v.head
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
    if any(c.dep_ in ("nsubj", "nsubjpass") for c in participle.children):
        return None
    comma, said = participle.doc[participle.i - 1], participle.doc[participle.i - 2]
    if comma.text != "," or not is_say_verb(said) or said.pos_ != "VERB":
        return None
    subjects = [c for c in said.children if c.dep_ in ("nsubj", "nsubjpass") and c.i not in in_quote]
    return _owner(subjects[0]) if len(subjects) == 1 else None


#: Most tokens of an aside between a name and its verb ('X – of the duo X and Y – tweeted').
_ASIDE = 12


def _name_before(verb: Token, in_quote: set[int]) -> Token | None:
    """The capitalised name right before a finite verb of saying the parser gave no subject,
    past an aside set off by dashes or commas: 'as X – of the duo X and Y – tweeted:' (X read
    as the object of "as"), 'And X called it ...' (X read as an adverb).

    A finite verb has a subject; when the parser found none, the name standing where the
    subject stands is it.
    """
    bare_participle = verb.tag_ == "VBN" and not any(c.dep_ in ("aux", "auxpass") for c in verb.children)
    if not (verb.tag_ in labels("finite") or bare_participle) or verb.i == 0:
        # ("tweeted" after "as X" is often read as a participle: with no auxiliary it is the past tense)
        return None
    doc = verb.doc
    i = verb.i - 1
    if doc[i].text == "," or is_dash(doc[i].text):
        # an aside closed by the same mark that opens it
        j = i - 1
        while j > max(i - _ASIDE, 0) and doc[j].text != doc[i].text and not doc[j].is_sent_start:
            j -= 1
        if doc[j].text != doc[i].text:
            return None
        i = j - 1
    name = doc[i] if i >= 0 else None
    if name is None or name.i in in_quote or not name.is_title or name.is_sent_start:
        return None
    return name if name.pos_ in ("PROPN", "ADV", "NOUN") and name.ent_type_ not in _NUMERIC_LABELS else None


def _owner(subject: Token) -> Token | None:
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


def after_colon(cand: Candidate) -> bool:
    return bool(cand.left) and cand.left[-1].text == ":"
