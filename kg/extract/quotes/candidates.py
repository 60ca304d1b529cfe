"""Quotation candidates and their cues: the words around each pair of quotation marks, the
verb of saying that introduces them, and the token that verb gives as the speaker
(:mod:`kg.extract.quotes.speakers`).

A cue is looked for right after the quotation ('"...," Rivera said'), right before it
('She added: "..."'), as the verb whose clause holds it ('said she felt "very protective"'),
between the halves of a split quotation, as "according to X", or after a signing dash.
Which entity the speaker token stands for is decided by the sieves (:mod:`kg.extract.quotes.sieves`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from spacy.tokens import Doc, Span, Token

from kg.extract.model import Entity, TextSpan
from kg.extract.quotes.speakers import speaker_token
from kg.extract.sieves import Sieve
from kg.extract.text.lexicon import labels, words
from kg.extract.text.marks import (
    MarkedSpan,
    is_dash,
    is_mark,
    is_say_verb,
)

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
    cue = _cue_after(cand, in_quote) or _cue_before(cand, in_quote)
    if cue is not None:
        return cue
    later = [t for t in cand.right if is_say_verb(t) and t.pos_ != "NOUN" and governs(t, content)]
    if later:
        return _cue_of(later[0], in_quote)
    return _phrase_cue(cand) or _dash_cue(cand)


def _cue_after(cand: Candidate, in_quote: set[int]) -> _Cue | None:
    """A verb of saying near after the closing mark whose subject, or a description, comes between."""
    content = cand.content
    after = [t for t in cand.right[:_NEAR_AFTER] if is_say_verb(t) and t.pos_ != "NOUN"]
    closed = content.text.rstrip().endswith(".")
    ended = content.text.rstrip()[-1:] in _STOPS
    if ended and content_words(cand.left) and cand.right and cand.right[0].is_sent_start:
        # 'X said Y was "very good." He added, ...', 'X answered with "Why now?" Y then wrote
        # back, ...': words that end a sentence of their own narration; the verb after them
        # opens the next sentence, about the next quotation
        after = []
    if after and _reported_before(cand, after[0]):
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
    return None


def _cue_before(cand: Candidate, in_quote: set[int]) -> _Cue | None:
    """A verb of saying before the opening mark: near it, or one whose clause holds the words."""
    content = cand.content
    before = [t for t in cand.left if is_say_verb(t) and t.pos_ != "NOUN"]
    if not before:
        # 'X said the town kept "every promise" because it had "a plan"': the left context
        # stops at the first quotation, but the verb over both stands before it
        earlier = [t for t in _sentence_before_left(cand, in_quote) if is_say_verb(t) and t.pos_ != "NOUN"]
        governing = [t for t in earlier if governs(t, content)]
        if governing and not done_by_named_subject(content):
            return _cue_of(governing[0], in_quote)
        return None
    verb = before[-1]
    between = content_words([t for t in cand.left if t.i > verb.i])
    if len(between) > _NEAR_BEFORE and governs(verb, content):
        # words deep in reported speech are the reporter's source's: "X said the trustees
        # told the judges they 'staged a sit-in'", "X said Y will continue to be 'a champion'"
        outer = [t for t in before if t is not verb and _reports(t, verb) and _cue_of(t, in_quote).speaker]
        return _cue_of(outer[0] if outer else verb, in_quote)
    if not governs(verb, content) and (
        verb.dep_ in labels("noun-clause") or _cue_of(verb, in_quote).speaker is None
    ):
        # 'saying anybody who complains about it "is not having a good night"', 'said the
        # reported bomber had "roots"': the nearest verb modifies a noun, its clause ends
        # before the words; the verb whose clause holds them speaks
        governing = [t for t in before if governs(t, content)]
        if governing:
            return _cue_of(governing[-1], in_quote)
    if len(between) <= _NEAR_BEFORE or governs(verb, content):
        # She added: "..." / said she felt "very protective"
        return _cue_of(verb, in_quote)
    return None


def _phrase_cue(cand: Candidate) -> _Cue | None:
    """A two-word cue whose object is the speaker, after the quotation or before it."""
    for tokens in (own_right(cand), cand.left):
        for t in tokens:
            following = t.doc[t.i + 1] if t.i + 1 < len(t.doc) else None
            if following is not None and (t.lower_, following.lower_) in _PHRASE_CUES:
                # "according to X", "in the words of X"
                objs = [c for c in following.children if c.dep_ == "pobj"]
                pair = t.doc[t.i : t.i + 2]
                span = TextSpan(pair.start_char, pair.end_char, pair.text)
                return _Cue(t, span.text, span, objs[0] if objs else None)
    return None


def _reported_before(cand: Candidate, after: Token) -> bool:
    """Whether a verb of saying just before the words, with a subject of its own and nothing
    but plain words between, reports them inside the clause of the verb after them: 'even as X
    claimed on Tuesday that "...," Y said the claim was wrong' gives the words to X, not to Y."""
    verbs = [t for t in cand.left if is_say_verb(t) and t.pos_ == "VERB"]
    if not verbs:
        return False
    verb = verbs[-1]
    between = [t for t in cand.left if t.i > verb.i]
    return (
        len(content_words(between)) <= _NEAR_BEFORE
        and not any(t.is_punct for t in between)
        and governs(verb, cand.content)
        and after in verb.ancestors
        and any(c.dep_ == "nsubj" for c in verb.children)
    )


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


def done_by_named_subject(content: Span) -> bool:
    """Whether the quoted words are a deed of a noun named just outside them ('after the
    agency "recommended it"'): someone else's act, not more of the reporter's words."""
    root = content.root
    return root.pos_ == "VERB" and any(
        c.dep_ in ("nsubj", "nsubjpass") and c.pos_ in ("NOUN", "PROPN") and c.i < content.start
        for c in root.children
    )


def _only_subject_between(cand: Candidate, verb: Token, in_quote: set[int]) -> bool:
    """Whether nothing but the verb's own subject and adverbs stands between the closing mark and it."""
    subject = speaker_token(verb, in_quote)
    allowed = {t.i for t in subject.subtree} if subject is not None else set()
    return all(
        t.i in allowed or (t.dep_ in labels("verb-satellite") and t.head == verb)
        for t in content_words([t for t in cand.right if t.i < verb.i])
    )


#: Parts of speech of a short noun phrase standing before a cue verb ("the 29-year-old").
_NOMINAL_POS = labels("noun-phrase")


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


def _reports(outer: Token, verb: Token) -> bool:
    """Whether ``verb``'s clause is part of what ``outer`` reports: joined to it by complement
    clauses ("X said the trustees told the judges ...") or a participle of the same subject
    ("said X, explaining ..."), not by an adverbial clause with a subject of its own ("X
    tweeted after Y argued that ...": Y's words, not X's)."""
    if outer not in verb.ancestors:
        return False
    while verb != outer:
        if verb.dep_ not in labels("reported-clause") and (
            verb.dep_ != "advcl" or any(c.dep_ in labels("subject") for c in verb.children)
        ):
            return False
        verb = verb.head
    return True


def _cue_of(verb: Token, in_quote: set[int]) -> _Cue:
    return _Cue(
        verb, verb.text, TextSpan(verb.idx, verb.idx + len(verb), verb.text), speaker_token(verb, in_quote)
    )


#: Verbs of performing: '"Yellow," the band played' names a song, not words said.
_PERFORMING = words("performance_verbs")


def verb_in_cue_place(cand: Candidate, in_quote: set[int]) -> Token | None:
    """The subject of whatever verb stands where a cue would, for words with no verb of saying.

    Reporters vary the verb ('"...," X smiled', '"...?" chortled X', 'X bellowed, "..."'): the
    place, not the word, tells a reader whose words they are. After the words, the sentence
    must go on past them (a comma, or "!"/"?" and a lower-case word) and nothing but the
    verb's subject may stand between; before them, the verb must end its clause at the comma
    or colon that opens them. A verb of performing names a song in marks, not words said.
    """
    last = cand.content.text.rstrip()[-1:]
    after = own_right(cand)
    if last in ",!?" and after:
        verbs = [t for t in after[:_NEAR_AFTER] if t.pos_ == "VERB"]
        verb = verbs[0] if verbs else None
        if verb is not None and _free_verb(verb) and _only_subject_between(cand, verb, in_quote):
            return speaker_token(verb, in_quote)
    left = cand.left
    if len(left) >= 2 and left[-1].text in ",:" and left[-2].tag_ in labels("finite") and _free_verb(left[-2]):
        subjects = [c for c in left[-2].children if c.dep_ in labels("subject") and c.i not in in_quote]
        return subjects[0] if len(subjects) == 1 else None
    return None


def _free_verb(verb: Token) -> bool:
    """A verb that may stand in a cue's place: a verb, not one of performing."""
    return verb.pos_ == "VERB" and verb.lemma_.lower() not in _PERFORMING


def after_colon(cand: Candidate) -> bool:
    return bool(cand.left) and cand.left[-1].text == ":"
