"""Quotations, cues and speakers.

Quotation marks are paired on the raw text (see ``kg.extract.cues``); the words between
them become a quotation unless they are a title, a scare quote or a nickname. The cue
is the verb of saying next to the marks (after, before, or between the two halves of a
split quotation); its subject, resolved through ``doc._.entities``, is the speaker.
A quotation with no cue of its own continues the previous speaker's words until another
speaker or a break intervenes. Nothing is guessed: no cue and no continuation means
``speaker=None``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from spacy.tokens import Doc, Span, Token

from kg.extract.coref import entity_at
from kg.extract.cues import (
    HONORIFICS,
    STATEMENT_NOUNS,
    MarkedSpan,
    find_marked_spans,
    is_dash,
    is_mark,
    is_say_verb,
    strip_marks,
)
from kg.extract.lexicon import function_words, labels, tagged, words
from kg.extract.model import Entity, Quote, TextSpan
from kg.extract.text import doc_text

#: Words right before a quoted title ("the song 'X'", "her album 'Y'").
_TITLE_WORDS = tagged("work_cues", "title")
#: Words before a nickname ("dubbed 'The King'").
_NICKNAME_WORDS = words("nickname_cues")
#: Determiners and possessives before a quoted title used as a modifier ("the 'X' singer").
_MODIFIER_DETS = function_words("modifier-det")
#: Small words that stay lower-case in a title.
_TITLE_SMALL = function_words("title-small")
#: Sentence-final punctuation: cue contexts stop there.
_STOPS = ".!?"
#: At most this many tokens between the closing mark and a cue after it ("," the five-time winner said).
_NEAR_AFTER = 14
#: At most this many tokens between a cue before the quote and its opening mark (She added: ").
_NEAR_BEFORE = 3
#: A continuation may not follow its predecessor across more narration than this (tokens).
_MAX_GAP_TOKENS = 30
#: Two-word cues whose object is the speaker.
_PHRASE_CUES = frozenset({("according", "to"), ("words", "of")})
#: Dependencies that join a title to the name it stands for.
_NAME_LINKS = labels("name-link")
#: Finite verb tags: a headline fragment before a colon has none.
_FINITE = labels("finite")
_CONF_NAMED, _CONF_RESOLVED, _CONF_CONTINUED, _CONF_HEADLINE, _CONF_NONE = 0.9, 0.8, 0.7, 0.6, 0.5


@dataclass(frozen=True)
class _Cue:
    token: Token
    text: str
    span: TextSpan
    speaker: Token | None


@dataclass
class _Candidate:
    mark: MarkedSpan
    content: Span
    left: list[Token]
    right: list[Token]
    cue: _Cue | None = None
    speaker: Entity | None = None
    confidence: float = _CONF_NONE


def extract_quotes(doc: Doc) -> tuple[Quote, ...]:
    """Direct and partial quotations of ``doc`` with their cue and speaker when known.

    Returns:
        One Quote per utterance, in text order; ``span`` is the text inside the marks.
    """
    entities = tuple(doc._.entities)
    text = doc_text(doc)
    marks = find_marked_spans(text)
    in_quote = _quoted_tokens(doc, marks)
    candidates = []
    for mark in marks:
        content = doc.char_span(mark.start, mark.end, alignment_mode="expand")
        if content is None or not any(t.is_alpha for t in content):
            continue
        cand = _Candidate(
            mark, content, _left_context(doc, mark, in_quote), _right_context(doc, mark, in_quote)
        )
        cand.cue = _find_cue(cand, in_quote)
        if cand.cue is None and candidates and _joined(candidates[-1], cand):
            # he was "disappointed" but "not surprised": the second partial quote shares the cue
            cand.cue = candidates[-1].cue
        if _is_not_a_quote(doc, cand):
            continue
        _attribute(doc, cand, entities)
        candidates.append(cand)
    for cand in candidates:
        if cand.cue is None and cand.speaker is None:
            _set_up_speaker(doc, cand, entities, in_quote)
    _share_groups(candidates)
    _continue_speakers(doc, text, candidates, entities)
    return tuple(_to_quote(text, c) for c in _dedupe(candidates))


def _joined(prev: _Candidate, cand: _Candidate) -> bool:
    """Two partial quotes joined by a conjunction only ('"A" but "B"', '"A", "B" and "C"')."""
    if prev.cue is None or prev.mark.close_at is None:
        return False
    between = cand.left
    return (
        bool(between)
        and between[0].idx > prev.mark.close_at
        and len(_words(between)) <= 1
        and all(t.is_punct or t.lower_ in function_words("coordinator") for t in between)
    )


def _quoted_tokens(doc: Doc, marks: list[MarkedSpan]) -> set[int]:
    inside: set[int] = set()
    for m in marks:
        hi = (m.close_at + 1) if m.close_at is not None else m.end
        span = doc.char_span(m.open_at, hi, alignment_mode="expand")
        if span is not None:
            inside.update(range(span.start, span.end))
    return inside


def _left_context(doc: Doc, mark: MarkedSpan, in_quote: set[int]) -> list[Token]:
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


def _right_context(doc: Doc, mark: MarkedSpan, in_quote: set[int]) -> list[Token]:
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


def _words(tokens: list[Token]) -> list[Token]:
    return [t for t in tokens if not t.is_punct and not t.is_space]


def _find_cue(cand: _Candidate, in_quote: set[int]) -> _Cue | None:
    """The cue: near after the quote, else near before it or governing it, else "according to"."""
    content = cand.content
    split = _split_cue(cand, in_quote)
    if split is not None:
        # '"A," said X, "B." Y laughed.': the second half is X's, whatever follows it
        return split
    after = [t for t in cand.right[:_NEAR_AFTER] if is_say_verb(t) and t.pos_ != "NOUN"]
    closed = content.text.rstrip().endswith(".")
    if after and not (closed and len(_words(cand.right)) > 5):
        # "...," Rivera said / said the minister / she later added; after a full stop only a
        # short '"...." X said.' looks back, a longer clause is an utterance of its own
        if _only_subject_between(cand, after[0], in_quote):
            return _cue_of(after[0], in_quote)
        described = _description_between(cand, after[0])
        if described is not None:
            # '"...," the 29-year-old told reporters' parsed with no subject for "told"
            cue = _cue_of(after[0], in_quote)
            return replace(cue, speaker=cue.speaker or described)
    before = [t for t in cand.left if is_say_verb(t) and t.pos_ != "NOUN"]
    if before:
        verb = before[-1]
        between = _words([t for t in cand.left if t.i > verb.i])
        if len(between) <= _NEAR_BEFORE or _governs(verb, content):
            # She added: "..." / said she felt "very protective"
            return _cue_of(verb, in_quote)
    later = [t for t in cand.right if is_say_verb(t) and t.pos_ != "NOUN" and _governs(t, content)]
    if later:
        return _cue_of(later[0], in_quote)
    for tokens in (cand.right, cand.left):
        for t in tokens:
            following = t.doc[t.i + 1] if t.i + 1 < len(t.doc) else None
            if following is not None and (t.lower_, following.lower_) in _PHRASE_CUES:
                # "according to X", "in the words of X"
                objs = [c for c in following.children if c.dep_ == "pobj"]
                pair = t.doc[t.i : t.i + 2]
                span = TextSpan(pair.start_char, pair.end_char, pair.text)
                return _Cue(t, span.text, span, objs[0] if objs else None)
    return _dash_cue(cand)


def _split_cue(cand: _Candidate, in_quote: set[int]) -> _Cue | None:
    """The cue between the halves of a split quotation: '"A," she said, "B."' gives B her cue.

    Only a short clause that runs from the first half's closing mark to a comma before this
    opening mark counts.
    """
    left = cand.left
    if not left or left[-1].text != "," or left[0].i - 1 not in in_quote:
        return None
    verbs = [t for t in left if is_say_verb(t) and t.pos_ != "NOUN"]
    if len(verbs) != 1 or len(_words(left)) > 6:
        return None
    cue = _cue_of(verbs[0], in_quote)
    return cue if cue.speaker is not None else None


def _dash_cue(cand: _Candidate) -> _Cue | None:
    """A quotation signed after a dash: '"..." - Jane Doe'."""
    right = cand.right
    if len(right) >= 2 and is_dash(right[0].text) and right[1].pos_ == "PROPN":
        dash = right[0]
        return _Cue(dash, dash.text, TextSpan(dash.idx, dash.idx + len(dash), dash.text), right[1])
    return None


def _only_subject_between(cand: _Candidate, verb: Token, in_quote: set[int]) -> bool:
    """Whether nothing but the verb's own subject and adverbs stands between the closing mark and it."""
    subject = _speaker_token(verb, in_quote)
    allowed = {t.i for t in subject.subtree} if subject is not None else set()
    return all(
        t.i in allowed or (t.dep_ in labels("verb-satellite") and t.head == verb)
        for t in _words([t for t in cand.right if t.i < verb.i])
    )


#: Parts of speech of a short noun phrase standing before a cue verb ("the 29-year-old").
_NOMINAL_POS = labels("noun-phrase")
#: What stands right before a cue that follows a quotation: a comma or a closing mark.
_AFTER_QUOTE = ",”\"’"


def _description_between(cand: _Candidate, verb: Token) -> Token | None:
    """The head of a short noun phrase right between the closing mark and the cue verb.

    The small model often parses '"...," the 29-year-old told reporters' with "told" as a
    modifier and no subject; the phrase before the verb is its subject all the same.
    """
    between = [t for t in cand.right if t.i < verb.i]
    words = _words(between)
    if not 1 <= len(words) <= 6 or between[0].text != "," and between[0].pos_ == "PUNCT":
        return None
    if any(t.pos_ not in _NOMINAL_POS for t in between if not t.is_space):
        return None
    head = words[-1]
    return head if head.pos_ in labels("nominal") else None


def _governs(verb: Token, content: Span) -> bool:
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
    if verb.tag_ == "VBG" and not any(c.dep_ in ("nsubj", "nsubjpass") for c in verb.children):
        # ", telling the chamber that ...", ", adding ...": a participle speaks for the subject of
        # the sentence, however the parser attached it
        root = verb
        while root.head.i != root.i:
            root = root.head
        subjects = [c for c in root.children if c.dep_ in ("nsubj", "nsubjpass") and c.i not in in_quote]
        subjects = [c for c in subjects if c.i < verb.i]
        if root.i != verb.i and subjects:
            # the subject nearest the main verb ("CITY — Mayor X on Tuesday defended")
            return _owner(min(subjects, key=lambda c: abs(c.i - root.i)))
    if verb.dep_ == "acl" and 0 < verb.i - verb.head.i <= 2 and verb.head.pos_ in ("PROPN", "NOUN"):
        # '"...," Trump posted on ...' parsed as a noun modified by "posted": the noun speaks
        return _owner(verb.head)
    if verb.dep_ == "amod" and verb.head.i == verb.i + 1 and verb.head.pos_ == "PROPN" and verb.i > 0:
        # '"...", added KCNA.' parsed as an adjective on the name
        return _owner(verb.head) if is_mark(verb.doc[verb.i - 1].text, _AFTER_QUOTE) else None
    v = verb
    for _ in range(4):
        subjects = [c for c in v.children if c.dep_ in ("nsubj", "nsubjpass") and c.i not in in_quote]
        if subjects:
            # the subject nearest the verb: "X's Prime Minister, Y said" has two
            return _owner(min(subjects, key=lambda c: abs(c.i - v.i)))
        if v.i == verb.i:
            # "said the minister": the subject parsed as an object after the verb
            objects = [
                c
                for c in v.children
                if c.dep_ in labels("speaker-object")
                and c.i > v.i
                and c.pos_ in ("PROPN", "NOUN")
            ]
            if objects and v.i > 0 and is_mark(v.doc[v.i - 1].text, _AFTER_QUOTE):
                return objects[0]
        if v.dep_ == "relcl":
            # "X, who said": the noun the clause hangs off
            return _owner(v.head)
        if v.dep_ not in labels("speaker-climb"):
            return None
        v = v.head
    return None


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


def _is_not_a_quote(doc: Doc, cand: _Candidate) -> bool:
    """Titles, scare quotes and nicknames in quotation marks are not quotations."""
    content = cand.content
    words = _words(list(content))
    before = cand.left[-1] if cand.left else None
    after = cand.right[0] if cand.right else None
    if _is_work(doc, cand):
        # a title the works stage knows
        return True
    if before is not None and _after_title_word(cand.left) and not _sentence_like(content):
        # "the song 'X'", "her 2011 hit anthem 'X'"
        return True
    if (
        before is not None
        and before.lower_ in _MODIFIER_DETS | function_words("genitive")
        and after is not None
        and after.pos_ in ("NOUN", "PROPN")
        and after.is_alpha
    ):
        # "the 'X' singer": a title used as a modifier
        return True
    if (
        before is not None
        and after is not None
        and before.pos_ == "PROPN"
        and after.pos_ == "PROPN"
        and before.is_title
        and after.is_title
        and _title_case(words)
        and not _exclaimed(content, words)
    ):
        # Dwayne "The Rock" Johnson
        return True
    if (
        before is not None
        and (
            before.lower_ in _NICKNAME_WORDS
            or before.lower_ == "as"
            and cand.left[-2:-1]
            and cand.left[-2].lower_ == "known"
        )
        and _title_case(words)
    ):
        # dubbed "The King", known as "X"
        return True
    if "".join(t.lower_ for t in cand.left[-3:]).endswith("so-called"):
        # the so-called "experts": a scare quote, whatever its length
        return True
    if (
        len(words) <= 2
        and not any(t.pos_ in ("VERB", "AUX") for t in words)
        and not _short_utterance(cand)
        and not _reported_words(cand)
    ):
        # scare quotes: one or two words and no verb, not a line of dialogue ("Exactly!" she said)
        return True
    if (
        cand.cue is None
        and _title_case(words)
        and not _after_colon(cand)
        and not _exclaimed(cand.content, words)
    ):
        # a Title In Capitals with no cue is a name of something
        return True
    # a single-marked span needs a cue or a headline colon, else it is an aside or an apostrophe slip
    return cand.mark.single and cand.cue is None and not _after_colon(cand)


def _reported_words(cand: _Candidate) -> bool:
    """A short partial quote inside someone's reported speech: 'X said it was "very likely" to ...'.

    "called it a 'backlash'" names something rather than reports words, so "call" does not count.
    """
    cue = cand.cue
    return (
        cue is not None
        and cue.speaker is not None
        and (
            cue.token.lemma_.lower() not in function_words("naming-verb")
            # but "Lind called the plan 'reckless'": a named person's own word
            or cue.speaker.pos_ in ("PROPN", "PRON")
        )
        and cue.token.i < cand.content.start
        and _governs(cue.token, cand.content)
    )


def _sentence_like(content: Span) -> bool:
    """Lower-case words ending in a full stop, or five or more: words said, not a title."""
    text = content.text.strip()
    return text[:1].islower() and (text.endswith(".") or len(_words(list(content))) >= 5)


def _after_title_word(left: list[Token]) -> bool:
    """A title word right before the marks, or before a few modifiers that are ("hit queer anthem")."""
    for t in reversed(left[-4:]):
        if t.lower_ in _TITLE_WORDS:
            return True
        if t.pos_ not in labels("description"):
            return False
    return False


def _exclaimed(content: Span, words: list[Token]) -> bool:
    """Ends on a full stop or "!", or is one word with its own "?": said, not a title."""
    last = content.text.rstrip()[-1:]
    return last in ".!" or (last == "?" and len(words) == 1)


def _short_utterance(cand: _Candidate) -> bool:
    """Words that end on their own punctuation ("Never!"), or on a comma before a cue after them."""
    last = cand.content.text.rstrip()[-1:]
    if last in "!?." and cand.content.text.lstrip()[:1].isupper():
        return True
    return last == "," and cand.cue is not None and cand.cue.token.i > cand.content.end


def _is_work(doc: Doc, cand: _Candidate) -> bool:
    key = strip_marks(cand.content.text)
    for work in doc._.works:
        if strip_marks(work.title) == key:
            return True
        if any(m.start < cand.mark.end and cand.mark.start < m.end for m in work.mentions):
            return True
    return False


def _title_case(words: list[Token]) -> bool:
    alpha = [t for t in words if t.is_alpha]
    return (
        bool(alpha)
        and len(alpha) <= 10
        and all(t.text[0].isupper() or t.lower_ in _TITLE_SMALL for t in alpha)
        and any(t.text[0].isupper() for t in alpha)
    )


def _after_colon(cand: _Candidate) -> bool:
    return bool(cand.left) and cand.left[-1].text == ":"


def _attribute(doc: Doc, cand: _Candidate, entities: tuple[Entity, ...]) -> None:
    """Speaker from the cue's subject; for a headline "X on Y: 'words'", the one person before the colon."""
    if cand.cue is not None and cand.cue.speaker is not None:
        subject = cand.cue.speaker
        entity = entity_at(entities, subject.idx, subject.idx + len(subject))
        if entity is None:
            # "Majority Leader X said", "her brother and collaborator X said": the name in the title
            subject, entity = _named_in(subject, entities)
        if entity is not None and (not is_dash(cand.cue.text) or entity.kind == "person"):
            # (a dash signs a quotation by a person; after a newspaper's name it cites a headline)
            if subject.pos_ != "PROPN" and _named_inside(cand, entity):
                # "the nominee" resolved to Reid, but the words say "Then I met Reid": someone else
                return
            cand.speaker = entity
            cand.confidence = _CONF_NAMED if subject.pos_ == "PROPN" else _CONF_RESOLVED
        return
    if cand.cue is None and _after_colon(cand) and not any(t.tag_ in _FINITE for t in cand.left):
        found = {
            e.key: e
            for t in cand.left
            if (e := entity_at(entities, t.idx, t.idx + len(t))) is not None and e.kind == "person"
        }
        if len(found) == 1:
            # "Related: X on Y: 'words'": a headline gives its speaker before the colon
            cand.speaker = next(iter(found.values()))
            cand.confidence = _CONF_HEADLINE
    elif cand.cue is None and _after_colon(cand):
        verbs = [t for t in cand.left if t.tag_ in _FINITE]
        subjects = (
            [c for c in verbs[-1].children if c.dep_ in ("nsubj", "nsubjpass") and c.i < verbs[-1].i]
            if verbs
            else []
        )
        entity = (
            entity_at(entities, subjects[0].idx, subjects[0].idx + len(subjects[0]))
            if len(subjects) == 1
            else None
        )
        if entity is not None and entity.kind == "person":
            # "X was less convinced: '...'": the subject of the clause the colon ends
            cand.speaker = entity
            cand.confidence = _CONF_CONTINUED


#: Words of names that say nothing about who is named ("The Band", "Lady X").
_NOT_NAMES = frozenset(HONORIFICS) | {"the", "and"}
#: Verbs of a sentence that sets up the quotation after it ("X opened up about ...").
_SET_UP_VERBS = words("setup_verbs")


def _set_up_speaker(doc: Doc, cand: _Candidate, entities: tuple[Entity, ...], in_quote: set[int]) -> None:
    """A quotation with no cue right after a sentence that sets it up: 'X was blunt. "..."'.

    The sentence must hold no quotation, be about one person or group as its subject, and
    be a copula with an adjective ("was blunt", "was less convinced") or a verb of speaking.
    """
    opening = doc.char_span(cand.mark.open_at, cand.mark.open_at + 1, alignment_mode="expand")
    if opening is None or cand.left or any(is_say_verb(t) for t in cand.right):
        # words before the mark in its own sentence, or a cue after it that named nobody
        # ('"...!" the poster read'): not words the sentence before sets up
        return
    i = opening.start - 1
    while i >= 0 and doc[i].is_space:
        i -= 1
    if i < 0 or not is_mark(doc[i].text, ".!:") or i in in_quote:
        return
    end = i
    while i > 0 and not doc[i].is_sent_start and i - 1 not in in_quote:
        i -= 1
    if i - 1 in in_quote or (i > 0 and not doc[i].is_sent_start):
        return
    root = next((t for t in doc[i:end] if t.dep_ == "ROOT"), None)
    if root is None or not (
        root.lemma_ == "be" and any(c.dep_ == "acomp" for c in root.children)
        or root.lemma_ in _SET_UP_VERBS
        or is_say_verb(root) and root.pos_ == "VERB"
        # "X issued a statement regarding ...", "X released a video"
        or any(c.dep_ == "dobj" and c.lemma_.lower() in STATEMENT_NOUNS | {"video"} for c in root.children)
    ):
        return
    # an active subject only: "Police were called to the scene" sets up nobody's words
    subjects = [c for c in root.children if c.dep_ == "nsubj"]
    if len(subjects) != 1:
        return
    entity = entity_at(entities, subjects[0].idx, subjects[0].idx + len(subjects[0]))
    if entity is not None and not _named_inside(cand, entity):
        cand.speaker = entity
        cand.confidence = _CONF_HEADLINE


def _named_inside(cand: _Candidate, entity: Entity) -> bool:
    """Whether the quotation names ``entity``, a person, by a word of one of its names.

    People seldom name themselves; organisations do ("the Acme family"), so they may.
    """
    if entity.kind != "person":
        return False
    words = {t.text for t in cand.content if t.is_title}
    return any(
        part in words and part.lower() not in _NOT_NAMES and len(part) > 2
        for name in (entity.name, *entity.aliases)
        for part in name.split()
    )


def _named_in(subject: Token, entities: tuple[Entity, ...]) -> tuple[Token, Entity | None]:
    """A name joined to a title subject by apposition, compound or conjunction, never by "of"."""
    described = any(c.dep_ == "det" for c in subject.children)
    todo = list(subject.children)
    while todo:
        t = todo.pop(0)
        if t.dep_ not in _NAME_LINKS or (described and t.dep_ == "compound" and t.i < subject.i):
            # "the Grammy winner", "the Labour leader": a name inside a description is not the speaker
            continue
        entity = entity_at(entities, t.idx, t.idx + len(t))
        if entity is not None:
            return t, entity
        todo.extend(t.children)
    return subject, None


def _share_groups(candidates: list[_Candidate]) -> None:
    """The paragraphs of one multi-paragraph quotation share the speaker found on any of them."""
    by_group: dict[int, list[_Candidate]] = {}
    for c in candidates:
        by_group.setdefault(c.mark.group, []).append(c)
    for members in by_group.values():
        source = next((c for c in members if c.speaker is not None), None)
        if source is None or len(members) < 2:
            continue
        for c in members:
            if c.speaker is None:
                c.speaker = source.speaker
                c.confidence = _CONF_CONTINUED


def _continue_speakers(
    doc: Doc, text: str, candidates: list[_Candidate], entities: tuple[Entity, ...]
) -> None:
    """A quotation with no cue continues the previous one's speaker unless a break intervenes."""
    for prev, cand in zip(candidates, candidates[1:], strict=False):
        if cand.speaker is not None or cand.cue is not None or prev.speaker is None:
            continue
        if _clear_gap(doc, text, prev, cand, entities) and not _named_inside(cand, prev.speaker):
            cand.speaker = prev.speaker
            cand.confidence = _CONF_CONTINUED


def _clear_gap(doc: Doc, text: str, prev: _Candidate, cand: _Candidate, entities: tuple[Entity, ...]) -> bool:
    """Same or next paragraph, short narration, no other entity and no other cue in between."""
    lo = prev.mark.close_at if prev.mark.close_at is not None else prev.mark.end
    hi = cand.mark.open_at
    gap_text = text[lo:hi]
    lines = [line.strip() for line in gap_text.split("\n") if line.strip()]
    # an interviewer's question between two answers ("Was it hard to record?") is no break
    # (after the rest of the answer's own paragraph: '..." he says.')
    worded = [line.strip() for line in gap_text.split("\n")[1:] if any(c.isalpha() for c in line)]
    asked = len(worded) == 1 and worded[0].endswith("?") and worded[0][:1] not in "\"“‘'"
    if (gap_text.count("\n") > 2 or len(lines) > 1) and not asked:
        # a whole paragraph of narration (or more) between the two: a clear break
        return False
    gap = doc.char_span(lo + 1, hi, alignment_mode="contract") if hi > lo + 1 else None
    if gap is None:
        return True
    words = _words(list(gap))
    if len(words) > _MAX_GAP_TOKENS:
        return False
    for t in gap:
        other = entity_at(entities, t.idx, t.idx + len(t))
        if other is not None and other.key != prev.speaker.key:
            # someone else is named in between
            return False
        if t.dep_ in ("nsubj", "nsubjpass") and t.pos_ in ("PROPN", "NOUN") and not t.is_space:
            # '"...", after the commission "recommended it"': a new subject, someone else's words
            mentioned = entity_at(entities, t.idx, t.idx + len(t))
            # "..., her voice catching": the speaker's own voice, hands or eyes are no one else
            owners = [entity_at(entities, c.idx, c.idx + len(c)) for c in t.children if c.dep_ == "poss"]
            if mentioned is None and any(o is not None and o.key == prev.speaker.key for o in owners):
                continue
            if mentioned is None or mentioned.key != prev.speaker.key:
                return False
        own_cue = prev.cue is not None and t.i == prev.cue.token.i
        if (
            is_say_verb(t)
            and not own_cue
            and t.pos_ != "NOUN"
            and any(c.dep_ in ("nsubj", "nsubjpass") for c in t.children)
        ):
            # another verb of saying with a subject of its own: another utterance
            return False
    return True


def _dedupe(candidates: list[_Candidate]) -> list[_Candidate]:
    """One quotation per utterance: a shorter one repeating a longer one's words goes."""
    keys = [strip_marks(c.content.text) for c in candidates]
    drop: set[int] = set()
    for i, ki in enumerate(keys):
        for j, kj in enumerate(keys):
            if i == j or j in drop or not ki or len(ki) > len(kj) or ki not in kj:
                continue
            if len(ki) < len(kj) or i < j:
                # i repeats j's words (a standfirst echoing the body): keep the longer or later one
                drop.add(i)
                break
    return [c for i, c in enumerate(candidates) if i not in drop]


def _to_quote(text: str, cand: _Candidate) -> Quote:
    m = cand.mark
    end = m.end
    if _words(cand.left) and cand.content.text[:1].islower() and text[end - 1 : end] == ",":
        # a partial quote's comma before the closing mark belongs to the surrounding sentence
        end -= 1
    quote = Quote(span=TextSpan(m.start, end, text[m.start : end]), confidence=cand.confidence)
    if cand.cue is not None:
        quote = replace(quote, cue=cand.cue.text, cue_span=cand.cue.span)
    if cand.speaker is not None:
        quote = replace(quote, speaker=cand.speaker.key)
    return quote
