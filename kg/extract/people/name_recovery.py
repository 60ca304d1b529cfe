"""Names of people the model missed or mislabelled, found back by what the text does with them.

A capitalised run after a role noun or starting with a common given name, a word equal to
part of a person's name found elsewhere, a proper noun that is the subject of a verb of
saying or of performing, a name taken up later by "he" or "she" or "the 52-year-old", a
name that takes a plural verb (a group).
"""

from __future__ import annotations

import re

from spacy.tokens import Doc, Span, Token

from kg.extract.people.name_rules import (
    PLACE_PREPS,
    TITLE_ABBREVIATIONS,
    NameMention,
    after_role,
    given_name_first,
    is_platform,
    looks_like_name,
    mention_of,
    overlaps_of,
    the_plural,
)
from kg.extract.text.doc_index import (
    doc_text,
    doc_tokens,
    named_after_cue,
    numbered,
    subject_indices,
    token_words,
)
from kg.extract.text.gazetteer import is_given_name
from kg.extract.text.lexicon import function_words, labels, tagged, words
from kg.extract.text.marks import (
    GROUP_NOUNS,
    OPENING_MARKS,
    PERSON_NOUNS,
    PRONOUNS,
    QUOTE_MARKS,
    VENUE_WORDS,
    is_mark,
    is_say_verb,
)

#: Name words too common to join a run to a person by themselves.
_NOT_SURNAMES = words("common_name_words")


#: Words that make a month before a name a date: "last June", "since April".
_DATE_WORDS = words("date_modifiers")


_PERSONAL = frozenset(p for p, gender in PRONOUNS.items() if gender != "p")


def surname_acts(span: Span) -> bool:
    """A two- or three-word name (tagged ORG, say) whose last word alone is a person elsewhere.

    "Ana Rivera" tagged ORG is a person when the article goes on "Rivera, who ...",
    "Rivera said" or "Rivera ... she": what a surname does tells what the name is.
    """
    if not 2 <= len(span) <= 3 or not all(t.is_title and t.pos_ == "PROPN" for t in span):
        return False
    doc = span.doc
    last = span[-1].text
    # found in the text first: walking every token for every candidate name is too slow
    for match in re.finditer(r"(?<!\w)" + re.escape(last) + r"(?!\w)", doc_text(doc)):
        found = doc.char_span(match.start(), match.end())
        if found is None or len(found) != 1:
            continue
        token = found[0]
        if span.start <= token.i < span.end:
            continue
        if token.i > 0 and doc[token.i - 1].is_title and doc[token.i - 1].pos_ == "PROPN":
            # part of another name ("Rivera Records"), not the surname alone
            continue
        nxt = doc[token.i + 1 : token.i + 3]
        # "Rivera, who ..." / "Rivera, whose ..."
        if len(nxt) == 2 and nxt[0].text == "," and nxt[1].lower_ in ("who", "whose"):
            return True
        lone = doc[token.i : token.i + 1]
        if subject_of_saying(lone) or subject_with_pronoun(lone):
            return True
    return False


def plural_proper_subjects(
    doc: Doc, found: list[NameMention], blocked: list[tuple[int, int]], plural: frozenset[str]
) -> list[NameMention]:
    """Untagged plural proper names that act: "The X Comets played" is a band, team or party.

    A proper noun in the plural (NNPS) as a subject, after "the" or with words before it,
    names a group of people; with a plural verb ("X announce") it is a group for sure, else
    an organisation until the article calls it "the band".
    """
    taken = {k for m in found for k in range(m.start, m.end)}
    extra: list[NameMention] = []
    for i in subject_indices(doc):
        token = doc[i]
        if token.tag_ != "NNPS" or not token.is_title:
            continue
        start = token.i
        while start > 0 and doc[start - 1].dep_ == "compound" and doc[start - 1].is_title:
            start -= 1
        span = doc[start : token.i + 1]
        after_the = start > 0 and doc[start - 1].lower_ == "the"
        if (len(span) < 2 and not after_the) or any(k in taken for k in range(span.start, span.end)):
            continue
        if overlaps_of(blocked, span.start_char, span.end_char) or span[-1].lower_ in VENUE_WORDS:
            continue
        extra.append(mention_of(span, "group" if span.text in plural else "organization"))
        taken.update(range(span.start, span.end))
    return extra


def repeated_names(doc: Doc, found: list[NameMention], blocked: list[tuple[int, int]]) -> list[NameMention]:
    """Other occurrences of a group's or organisation's name the model left untagged.

    The small model tags a band's name in one sentence and not in the next; once the name
    is known, every occurrence of the same words is that group.
    """
    toks, texts = doc_tokens(doc), token_words(doc).text
    taken = {k for m in found for k in range(m.start, m.end)}
    names = {tuple(t.text for t in doc[m.start : m.end]): m.kind for m in found if m.kind != "person"}
    extra: list[NameMention] = []
    for name_words, kind in names.items():
        width = len(name_words)
        first = name_words[0]
        for i in (k for k, text in enumerate(texts[: len(doc) - width + 1]) if text == first):
            if any(k in taken for k in range(i, i + width)):
                continue
            span = doc[i : i + width]
            if tuple(t.text for t in span) != name_words or overlaps_of(blocked, span.start_char, span.end_char):
                continue
            # the whole name, not the start of a longer one ("X Records" after the band X)
            if span.end < len(doc) and toks[span.end].is_title and toks[span.end].pos_ == "PROPN":
                continue
            extra.append(mention_of(span, kind))
            taken.update(range(i, i + width))
    return extra


def untagged_person(span: Span) -> bool:
    """A name after a role noun, or one that starts with a common given name (not "at Grace Hall")."""
    doc = span.doc
    before = doc[span.start - 1].lower_ if span.start > 0 else ""
    return after_role(span) or span[0].pos_ == "PROPN" and given_name_first(span) \
        and span[-1].lower_ not in VENUE_WORDS and before not in PLACE_PREPS | {"in", "from"}


def used_as_surname(span: Span) -> bool:
    """Whether a one-word name follows a given name somewhere ("Valeska Paris"): a person's, not a town's."""
    if len(span) > 1:
        return False
    doc = span.doc
    return any(t.text == span.text and t.i > 0 and doc[t.i - 1].pos_ == "PROPN" and doc[t.i - 1].is_title
               for t in doc)


def given_name(token: Token) -> bool:
    return token.pos_ == "PROPN" and token.is_title and is_given_name(token.text)


def month_as_given_name(token: Token) -> bool:
    """ "legend June Calloway": a month the model read as a date alone, not after "in", "last"..."""
    doc = token.doc
    before = doc[token.i - 1] if token.i > 0 else None
    return (
        token.ent_type_ == "DATE"
        and token.ent_iob_ == "B"
        and (token.i + 1 >= len(doc) or doc[token.i + 1].ent_type_ != "DATE")
        and (before is None or before.pos_ not in labels("name-edge-not") and before.lower_ not in _DATE_WORDS)
    )


def name_parts(found: list[NameMention]) -> set[str]:
    parts = set()
    for m in found:
        if m.kind == "person":
            words = m.text.split()
            parts.update(w.lower() for w in words if len(w) > 1)
            parts.add(m.text.lower())
    return parts


def _propn_run(doc: Doc, i: int) -> tuple[int, int]:
    start, end = i, i + 1
    while start > 0 and doc[start - 1].pos_ == "PROPN" and doc[start - 1].is_title:
        start -= 1
    while end < len(doc) and doc[end].pos_ == "PROPN" and doc[end].is_title:
        end += 1
    return start, end


def missed_names(
    doc: Doc, parts: set[str], covered: set[int], blocked: list[tuple[int, int]], plural: frozenset[str]
) -> list[NameMention]:
    """Names the model missed: proper nouns that speak first, then what repeats a known name.

    A speaker that takes a plural verb ("X announce") is a group, its name with the
    capitalised compound words before it (which the tagger may call common nouns).
    """
    speakers = [_with_compounds(span, covered) for span in candidate_runs(doc, covered, blocked)
                if _acts_as_a_name(span, _with_compounds(span, covered).text in plural)]
    groups = [s for s in speakers if s.text in plural or the_plural(s) or _named_by_group_noun(s)]
    speakers = [s for s in speakers if s not in groups]
    parts = parts | name_parts([mention_of(s, "person") for s in speakers])
    extra = [mention_of(span, "person") for span in speakers] + [mention_of(span, "group") for span in groups]
    speakers += groups
    taken = {t.i for span in speakers for t in span}
    for span in candidate_runs(doc, covered | taken, blocked):
        if span.text.lower() in parts or (
            len(span) > 1 and span[-1].lower_ in parts and span[-1].lower_ not in _NOT_SURNAMES
        ):
            # a known name, or a first name + known surname ("Billie X" after "X said")
            extra.append(mention_of(span, "person"))
    return extra


def _acts_as_a_name(span: Span, plural: bool) -> bool:
    """Whether capitalised words the model missed act as someone's name: they speak, perform,
    are taken up by "he" or "she", own a performance of a title ("X's performance of 'Y'"), or
    are a name written as a brand that opens a sentence ("P1Harmony followed ...").

    (A title-cased headline makes the tagger call a band's name a common noun: a name that
    takes a plural verb counts whatever its tag.)
    """
    if stylised(span.text) and span[0].is_sent_start or owner_of_a_performance(span) or _named_by_group_noun(span):
        return True
    return (span[0].pos_ == "PROPN" or plural) and (
        subject_of_saying(span) or subject_with_pronoun(span) or subject_of_performing(span))


def _named_by_group_noun(span: Span) -> bool:
    """Capitalised words right after a group noun in lower case, a comma between them or not: a
    group's name ("West London group, VNTRS thrilled the fans", "the trio Harbour Lane")."""
    doc, i = span.doc, span.start - 1
    if i >= 0 and doc[i].text == ",":
        i -= 1
    return i >= 0 and doc[i].lower_ in GROUP_NOUNS and doc[i].is_lower


def _with_compounds(span: Span, covered: set[int]) -> Span:
    """The span with the capitalised compound words before it ("Copper" tagged a noun in "Copper X")."""
    doc = span.doc
    start = span.start
    while (
        start > 0
        and start - 1 not in covered
        and doc[start - 1].dep_ == "compound"
        and doc[start - 1].is_title
        # "Host X Y": a role word is a description, not part of the name
        and doc[start - 1].lower_ not in PERSON_NOUNS
    ):
        start -= 1
    return doc[start : span.end]


#: Nouns that are a performance of what they are "of" ("her rendition of X").
_RENDITIONS = tagged("rendition_nouns", "performance")
#: Nouns of a performance that whoever is named after "by", "from" or "with" gave ("an appearance by X").
_GIVEN = tagged("rendition_nouns", "given")
_GIVEN_BY = function_words("giver-prep")


def candidate_runs(doc: Doc, covered: set[int], blocked: list[tuple[int, int]]) -> list[Span]:
    """Capitalised words and runs of proper nouns outside entities, places, works and events."""
    toks, words = doc_tokens(doc), token_words(doc)
    name_pos = labels("name-word")
    runs: list[Span] = []
    i = 0
    while i < len(doc):
        # (spaCy's is_title is str.istitle of the token's text)
        # (a name written as a brand may be tagged anything, a number even: "P1Harmony")
        text = words.text[i]
        if i in covered or not text[:1].isupper() and not text.istitle() or not (
                text.istitle() and words.pos[i] in name_pos or stylised(text)
                or text.isupper() and _named_by_group_noun(doc[i : i + 1])):
            i += 1
            continue
        token = toks[i]
        if token.lower_ in PERSON_NOUNS or token.lower_ in GROUP_NOUNS or token.lower_ in TITLE_ABBREVIATIONS:
            # "Majority Leader", "the Duke of X", "Gov.": a title or description, not a name
            i += 1
            continue
        start, end = _propn_run(doc, i) if token.pos_ == "PROPN" else (i, i + 1)
        if any(j in covered for j in range(start, end)):
            start, end = i, i + 1
            # "legend June Calloway": the model took the given name for a date
            if i > 0 and given_name(toks[i - 1]) and month_as_given_name(toks[i - 1]):
                start = i - 1
        while start < i and (toks[start].lower_ in PERSON_NOUNS or toks[start].lower_ in TITLE_ABBREVIATIONS):
            # "Host X Y": the run reaches back over the role word skipped above
            start += 1
        span = doc[start:end]
        if span[-1].lower_ in PERSON_NOUNS or is_platform(span):
            # "Prime Minister": a run ending in a title is a title; "Twitter descended into a
            # meltdown": a platform is where words appear, not who says them
            i = end
            continue
        if not overlaps_of(blocked, span.start_char, span.end_char):
            runs.append(span)
        i = end
    return runs


def _followed_by_he_or_she(span: Span) -> bool:
    """A he/she/his/her subject or possessive later in the sentence: the subject is a person."""
    doc = span.doc
    i = span.end
    while i < len(doc) and not doc[i].is_sent_start:
        # (walking to the sentence end: ``span.sent`` rebuilds every sentence on each call)
        if doc[i].lower_ in _PERSONAL and doc[i].dep_ in labels("subject-or-owner"):
            return True
        i += 1
    # "X returned on Friday. The 52-year-old opened with ...": the next sentence goes on about
    # the subject by age or role ("The singer"), or as "she" when X starts with a given name,
    # before naming anyone else
    while i < len(doc) and not doc[i].is_alpha:
        i += 1
    for token in doc[i : i + 8]:
        if token.pos_ == "PROPN":
            return False
        if token.dep_ in ("nsubj", "nsubjpass"):
            described = token.lower_ == "old" or token.lower_ in PERSON_NOUNS and any(
                c.lower_ == "the" for c in token.children)
            return described or token.lower_ in ("he", "she") and is_given_name(span[0].text)
    return False


def subject_with_pronoun(span: Span) -> bool:
    """A subject taken up by "he" or "she" later in its sentence, unless numbered ("the 13th Amendment")."""
    return span.root.dep_ == "nsubj" and not numbered(span[0]) and looks_like_name(span) and _followed_by_he_or_she(span)


def subject_of_performing(span: Span) -> bool:
    """A proper noun (or its conjunct) that performs or sings ("X and Y perform at the Z festival"),
    or does anything with a title in marks ("X kicked off the night with its single 'Y'")."""
    root = span.root
    subject = root if root.dep_ == "nsubj" else root.head if root.dep_ == "conj" and root.head.dep_ == "nsubj" else None
    # (or the noun a misparsed "..., performed X" hangs on)
    verbs = [subject.head] if subject is not None else [c for c in root.children if c.dep_ == "acl"]
    return any(v.lemma_.lower() in tagged("performance_verbs", "act") or _names_a_title(v, span) for v in verbs) \
        and (looks_like_name(span) or stylised(span.text))


def _names_a_title(verb: Token, subject: Span) -> bool:
    """Whether a verb's clause, after its subject, names a title in marks (a capitalised word
    right after an opening quotation mark)."""
    doc = verb.doc
    for token in verb.subtree:
        if token.i >= subject.end and is_mark(token.text, OPENING_MARKS) and token.i + 1 < len(doc) \
                and doc[token.i + 1].text[:1].isupper():
            return True
    return False


def owner_of_a_performance(span: Span) -> bool:
    """The owner of a performance of a title in marks: "X's performance of 'Y'"."""
    root = span.root
    noun = root.head
    return root.dep_ == "poss" and noun.lemma_.lower() in _RENDITIONS and any(
        c.lower_ == "of" and any(is_mark(t.text, OPENING_MARKS) for t in c.subtree) for c in noun.children)


def agent_of_a_performance(span: Span) -> bool:
    """Who gave a performance: "a surprise appearance by X", "performances from X and Y", "a duet
    with X", "joined by X" (the name, or a name listed with it, after the noun's preposition)."""
    root = span.root
    while root.dep_ == "conj" and root.head.i != root.i:
        root = root.head
    prep = root.head
    if root.dep_ != "pobj" or prep.lower_ not in _GIVEN_BY:
        return False
    noun = prep.head
    return noun.lemma_.lower() in _GIVEN or prep.lower_ == "by" and noun.lemma_.lower() == "join"


def stylised(text: str) -> bool:
    """A name written as a brand: a capital first, then digits, a sign or capitals among small
    letters ("Kep1er", "StayC", "A$AP"), never all in capitals or all in small letters."""
    if len(text) < 3 or not text[0].isupper() or text.isupper() or not any(c.islower() for c in text):
        return False
    return any(c.isdigit() or c in "$!" for c in text[1:]) or any(c.isupper() for c in text[2:])


def subject_of_saying(span: Span) -> bool:
    """The subject of a verb of saying, or the name right after one that follows a quotation ("," said X)."""
    root: Token = span.root
    if not looks_like_name(span):
        return False
    if root.dep_ == "nsubj" and is_say_verb(root.head):
        return True
    doc = span.doc
    nxt = doc[span.end] if span.end < len(doc) else None
    if (
        nxt is not None
        and nxt.dep_ == "acl"
        and nxt.head.i == root.i
        and is_say_verb(nxt)
        and span.start > 0
        and is_mark(doc[span.start - 1].text, QUOTE_MARKS + ",")
    ):
        # '"...," Trump posted': the verb parsed as a modifier of the name
        return True
    verb = doc[span.start - 1] if span.start > 1 else None
    if (
        verb is not None
        and is_say_verb(verb)
        and is_mark(doc[verb.i - 1].text, QUOTE_MARKS + ",")
        # "said X", or "added X" parsed as an adjective on the name
        and (root.head == verb or verb.head == root)
    ):
        return True
    # '"...," said Oversight ranking Democrat X': the name that ends the words after the cue
    # (right after the closing mark: ', said X' after a clause is no quotation's cue)
    for verb in reversed(doc[max(span.start - 11, 2) : span.start]):
        if not is_say_verb(verb):
            continue
        marks = [t for t in doc[verb.i - 2 : verb.i] if t.text != ","]
        if marks and is_mark(marks[-1].text, QUOTE_MARKS):
            return named_after_cue(verb) == span[-1]
    return False
