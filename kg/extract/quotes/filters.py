"""Text in quotation marks that is no quotation: titles, nicknames, scare quotes.

News puts song, album and book titles, nicknames and scare quotes in the same marks as
speech. These must get no speaker: a title the works stage found, a title word before the
marks ("the song 'X'"), a title used as a modifier ("the 'X' singer"), a nickname between
a given name and a surname, one or two words without a verb, a Title In Capitals with no
cue, a single-marked span with no cue.
"""

from __future__ import annotations

from spacy.tokens import Doc, Span, Token

from kg.extract.found import Found
from kg.extract.model import Entity, entity_at
from kg.extract.quotes.candidates import Candidate, after_colon, content_words, governs
from kg.extract.text.lexicon import function_words, labels, tagged, words
from kg.extract.text.marks import is_say_verb, strip_marks

#: Words right before a quoted title ("the song 'X'", "her album 'Y'").
_TITLE_WORDS = tagged("work_cues", "title")


#: Words before a nickname ("dubbed 'The King'").
_NICKNAME_WORDS = words("nickname_cues")


#: Determiners and possessives before a quoted title used as a modifier ("the 'X' singer").
_MODIFIER_DETS = function_words("modifier-det")


#: Small words that stay lower-case in a title.
_TITLE_SMALL = function_words("title-small") | function_words("title-foreign")

#: Words before a programme or a paper in capitals ('on "Meet the Press"', 'an episode of "X"', 'CNN's "X"').
_BEFORE_A_NAME = function_words("name-prep") | function_words("genitive")

#: Verbs whose object is the one told: marked words right after them name a programme.
_TELLING = tagged("say_verbs", "recipient")


def is_not_a_quote(doc: Doc, cand: Candidate, found: Found) -> bool:
    """Titles, scare quotes and nicknames in quotation marks are not quotations."""
    content = cand.content
    words = content_words(list(content))
    before = cand.left[-1] if cand.left else None
    after = cand.right[0] if cand.right else None
    if _is_work(cand, found):
        # a title the works stage knows
        return True
    if before is not None and _after_title_word(cand.left) and not _sentence_like(content):
        # "the song 'X'", "her 2011 hit anthem 'X'"
        return True
    if _title_as_modifier(cand, words, before, after) or _nickname(cand, words, before, after):
        return True
    if _scare_quote(cand, words, found) or _name_in_capitals(cand, words, before):
        return True
    if _title_ending_sentence(cand, words):
        return True
    # a single-marked span needs a cue or a headline colon, else it is an aside or an apostrophe slip
    return cand.mark.single and cand.cue is None and not after_colon(cand)


def _title_as_modifier(cand: Candidate, words: list[Token], before: Token | None, after: Token | None) -> bool:
    """A title in marks between a determiner and the noun it modifies, not words said there."""
    # "the 'X' singer": a title used as a modifier
    return (
        before is not None
        and before.lower_ in _MODIFIER_DETS | function_words("genitive")
        and before.dep_ != "mark"
        and after is not None
        and after.pos_ in ("NOUN", "PROPN")
        and after.is_alpha
        and not _said_in_a_noun_phrase(cand, words)
    )


def _nickname(cand: Candidate, words: list[Token], before: Token | None, after: Token | None) -> bool:
    """A nickname in capitals: inside a person's name, or after a word that gives one."""
    if (
        before is not None
        and after is not None
        and before.pos_ == "PROPN"
        and after.pos_ == "PROPN"
        and before.is_title
        and after.is_title
        and title_case(words)
        and not _exclaimed(cand.content, words)
    ):
        # Dwayne "The Rock" Johnson
        return True
    # dubbed "The King", known as "X"
    return bool(
        before is not None
        and (
            before.lower_ in _NICKNAME_WORDS
            or before.lower_ == "as"
            and cand.left[-2:-1]
            and cand.left[-2].lower_ == "known"
        )
        and title_case(words)
    )


def _scare_quote(cand: Candidate, words: list[Token], found: Found) -> bool:
    """Words put in marks to keep the writer's distance from them, not to report them."""
    if "".join(t.lower_ for t in cand.left[-3:]).endswith("so-called"):
        # the so-called "experts": a scare quote, whatever its length
        return True
    # scare quotes: one or two words and no verb, not a line of dialogue ("Exactly!" she said)
    return (
        len(words) <= 2
        and not any(t.pos_ in ("VERB", "AUX") for t in words)
        and not _short_utterance(cand)
        and not _reported_words(cand)
        and not _characterised(cand, found.entities)
    )


def _name_in_capitals(cand: Candidate, words: list[Token], before: Token | None) -> bool:
    """A Title In Capitals that names something: with no cue, or after a word that names a programme."""
    if (
        cand.cue is None
        and title_case(words)
        and not after_colon(cand)
        and not _exclaimed(cand.content, words)
    ):
        # a Title In Capitals with no cue is a name of something
        return True
    # a programme or a paper, whatever the cue: 'said on "Meet the Press"', 'told CNN's "New Day"',
    # 'told "Morning Desk"' (the one told), 'an episode of "Night Court"'
    return (
        before is not None
        and (before.lower_ in _BEFORE_A_NAME or before.pos_ == "PROPN"
             or before.lemma_.lower() in _TELLING)
        and len(words) <= 6
        and title_case(words)
    )


#: Most words of a title that ends its sentence inside the marks ('the award for "Lantern Song."').
_MAX_END_TITLE_WORDS = 6


def _title_ending_sentence(cand: Candidate, words: list[Token]) -> bool:
    """A title that ends its sentence, American style, with the full stop inside the marks:
    'won the award for "Copper Kites."', 'the torch-song classic "Glass Hearts."', 'her novel,
    "Harbor, Light, Salt."'.

    The full stop would make it read as words said ('"Never."'); what gives it away is what
    stands before the marks: a preposition, a noun or adjective naming what it is (or such a
    noun and a comma, an apposition), where words said follow a verb, a colon or nothing.
    Every word is capitalised (a phrase with lower-case words, "from Brindle to Orla.", can be
    a quoted phrase).
    """
    text = cand.content.text.rstrip()
    alpha = [t for t in words if t.is_alpha or "-" in t.text]
    if not text.endswith(".") or not alpha or len(words) > _MAX_END_TITLE_WORDS:
        return False
    if not all(t.text[:1].isupper() for t in alpha) or not cand.left:
        return False
    if any(t.is_alpha for t in cand.right[:1]) and not cand.right[0].is_sent_start:
        # the sentence goes on after the marks: the full stop ended an abbreviation
        return False
    before = cand.left[-1]
    if before.text == "," and len(cand.left) > 1:
        before = cand.left[-2]
        return before.pos_ in ("NOUN", "PROPN") and not is_say_verb(before)
    return before.pos_ == "ADP" or before.pos_ in ("NOUN", "ADJ") and before.dep_ != "ROOT"


def _said_in_a_noun_phrase(cand: Candidate, words: list[Token]) -> bool:
    """Words said that stand where a title used as a modifier would ('is a "change agent," X
    said', 'has overseen a "rigged" process', 'the only one that "has beaten" him'): they end
    on a comma or a full stop inside the marks (a title modifying the noun after it runs
    straight on), or they are lower-case words, not a title, with a verb in them or a verb of
    saying over them."""
    text = cand.content.text.rstrip()
    if text[-1:] in ",.!?":
        return True
    lower = text[:1].islower() and not title_case(words)
    return lower and (any(t.pos_ in ("VERB", "AUX") for t in words) or _reported_words(cand))


def _reported_words(cand: Candidate) -> bool:
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
        and governs(cue.token, cand.content)
    ) or cand.content.text[:1].islower() and any(
        # a verb of saying earlier in the sentence, with a subject, whose clause holds the words
        # (lower case: a fragment of what was said, not a title)
        is_say_verb(t) and t.pos_ == "VERB" and any(c.dep_ in labels("subject") for c in t.children)
        and t.lemma_.lower() not in function_words("naming-verb") and governs(t, cand.content)
        for t in cand.left
    )


#: Most steps from "as" up to the verb whose subject applies the words.
_AS_STEPS = 3


def _characterised(cand: Candidate, entities: tuple[Entity, ...]) -> bool:
    """Words a person applies to something with "as": 'X dismissed the plan as "reckless"',
    'X summed the rival up as "hopeless"', 'X described it as being "a mess"'.

    The person whose verb takes the "as" is their speaker (the fragment-holder sieve), so
    they are a quotation, however short; a thing or nobody ("known as 'X'") says nothing.
    """
    left = content_words(cand.left)
    i = len(left) - 1
    while i > 0 and (left[i].pos_ == "DET" or left[i].lower_ == "being"):
        i -= 1
    if i < 1 or left[i].lower_ != "as":
        return False
    verb, steps = left[i].head, 0
    while verb.pos_ != "VERB" and verb.head.i != verb.i and steps < _AS_STEPS:
        verb, steps = verb.head, steps + 1
    subjects = [c for c in verb.children if c.dep_ == "nsubj"]
    if verb.pos_ != "VERB" or len(subjects) != 1:
        return False
    who = entity_at(entities, subjects[0].idx, subjects[0].idx + len(subjects[0]))
    return who is not None and who.kind == "person"


def _sentence_like(content: Span) -> bool:
    """Lower-case words ending in a full stop, or five or more: words said, not a title."""
    text = content.text.strip()
    return text[:1].islower() and (text.endswith(".") or len(content_words(list(content))) >= 5)


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


def _short_utterance(cand: Candidate) -> bool:
    """Words that end on their own punctuation ("Never!"), or on a comma before a cue after them."""
    last = cand.content.text.rstrip()[-1:]
    if last in "!?." and cand.content.text.lstrip(" ¡¿")[:1].isupper():
        return True
    return last == "," and cand.cue is not None and cand.cue.token.i > cand.content.end


def _is_work(cand: Candidate, found: Found) -> bool:
    """A title the works stage found, unless a person says the words and they are no title
    in form (lower-case words said): the works stage reads a headline's quote, or a quoted
    sentence the model tags, as a title too."""
    said = cand.cue is not None and cand.cue.speaker is not None
    if said and not title_case(content_words(list(cand.content))):
        return False
    key = strip_marks(cand.content.text)
    # (an event named in marks, "performed at 'The X Live'", is a name too)
    named = [(w.title, w.mentions) for w in found.works] + [(e.name, e.mentions) for e in found.events if not e.described]
    for name, mentions in named:
        if strip_marks(name) == key:
            return True
        if any(m.start <= cand.mark.start + 1 and cand.mark.end - 1 <= m.end for m in mentions):
            # (a title named inside a quotation, "I wrote 'X' in my car", leaves it a quotation)
            return True
    return False


def title_case(words: list[Token]) -> bool:
    """Every word capitalised but the small ones: "Girl, Woman, Other", a title more than words said."""
    alpha = [t for t in words if t.is_alpha]
    return (
        bool(alpha)
        and len(alpha) <= 10
        and all(t.text[0].isupper() or t.lower_ in _TITLE_SMALL for t in alpha)
        and any(t.text[0].isupper() for t in alpha)
    )
