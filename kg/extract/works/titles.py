"""What says a title is a work, and of what kind: the words around it.

A cue noun before it ("her hit 'X'", "the film X"), a role noun after it ("the 'X' singer"), a
byline ("'X' by Y"), a verb of singing, a form of concert music ("Symphony No. 2"), a list it
stands in, and who owns it.
"""

from __future__ import annotations

import re

from spacy.tokens import Doc, Span

from kg.extract.text.doc_index import doc_tokens, is_cap, sentence_bounds, token_words
from kg.extract.text.gazetteer import is_given_name
from kg.extract.text.lexicon import function_words, kinds, labels, table, tagged, words
from kg.extract.text.marks import (
    CLOSING_MARKS,
    GROUP_NOUNS,
    PERSON_NOUNS,
    is_mark,
    is_say_verb,
)
from kg.extract.works.collector import Collector
from kg.extract.works.lists import catalogue_end

#: Forms of concert music that name a piece with its number ("Symphony No. 2").
_CONCERT_FORMS = words("concert_forms")
#: Last words of a performing group's name: "the X Symphony Orchestra" names players, not a piece.
_ENSEMBLE_ENDS = tagged("org_name_ends", "ensemble")
#: Forms that also name an orchestra ("the Palm Beach Symphony").
_ENSEMBLE_FORMS = tagged("concert_forms", "ensemble")
#: Award categories whose cue noun names another kind than it does alone.
_CATEGORY_KINDS = {"record": "song"}
#: Nouns of a sentence that make "including 'X'" a song of a set or a record.
_MUSIC_LIST_NOUNS = words("music_list_nouns")
#: Role nouns after a title ("the 'X' singer"): the kind of work, and whether the role made it.
_ROLES: dict[str, tuple[str, bool]] = {
    role: (tags.split()[0], "made" in tags.split()) for role, tags in table("work_roles").items()
}


#: What people do to works: "the film X directed" is X's film, not a film called X.
_MAKING_VERBS = tagged("making_verbs", "making")
#: Words before a cue that make it a noun whatever the tagger says ("the musical X").
DETERMINERS = function_words("determiner")


#: Prepositions between a performance and its title ("a rendition of", "opened with").
_LINKS = function_words("performance-link")


_PERFORMANCE_NOUNS = tagged("rendition_nouns", "work")
#: Words between the items of a list of titles.
_LIST_WORDS = words("list_links")


_POSSESSIVES = function_words("possessive")
#: Words inside a cue phrase that leave it a cue phrase ("the unreleased", "her new").
_CUE_MODIFIERS = function_words("article") | function_words("cue-modifier")


SMALL_WORDS = function_words("title-filler")
#: The small words of any title: articles, conjunctions, prepositions.
_TITLE_SMALL = function_words("title-small") | function_words("title-foreign")
_MUSIC_TITLE_WORDS = 6  # most words of a capitalised song title in marks read by its sentence alone
#: Words that make a sentence one about playing music or a show.
_MUSIC_WORDS = (tagged("performance_verbs", "sure") | tagged("performance_verbs", "voice") | words("show_nouns")
                | words("show_parts") | words("music_objects"))


_YEAR = re.compile(r"^(19|20)\d\d$")


def cue_before(doc: Doc, start: int, floor: int) -> tuple[str | None, int | None, int]:
    """The cue phrase just before a title: kind, year and the phrase's first token.

    "her 2011 hit queer anthem 'X'" (cue nouns, adjectives, a year), "a rendition of 'X'",
    "opened with 'X'", "performed 'X'". A preposition only links a title to a cue that
    names a performance of it: "the show with 'X'" is no cue.
    """
    kind, year, i = None, None, start - 1
    first = start
    while i >= floor and start - i <= 8:
        tok = doc[i]
        low = tok.lower_
        # "the album's first single, 'X'": a title in apposition to its cue noun
        if low == "," and i == start - 1 and i - 1 >= floor and doc[i - 1].lower_ in CUES:
            i -= 1
            continue
        # the small model tags "hit" in "her 2011 hit" as a verb: the word decides, except for
        # a song verb that is also a cue noun ("would play 'X'" is no stage play)
        if low in CUES and tok.pos_ != "AUX" and not (tok.pos_ == "VERB" and tok.lemma_.lower() in SONG_VERBS):
            kind = kind or CUES[low]
        elif _YEAR.match(tok.text):
            year = int(tok.text)
        elif low in _LINKS:
            prev = doc[i - 1] if i - 1 >= floor else None
            performed = prev is not None and (prev.lower_ in _PERFORMANCE_NOUNS or prev.lemma_.lower() in SONG_VERBS)
            if kind is None and performed:
                return "song", year, i - 1
            # "album of the year for 'X'": an award category names the kind of the work it went to
            category = _category_before(doc, i, floor) if low == "for" and kind is None else None
            if category is not None:
                # "record of the year" goes to a single, "album of the year" to an album
                return _CATEGORY_KINDS.get(doc[category].lower_, CUES[doc[category].lower_]), year, category
            break
        # "dedicated 'X'" read by the model as an adjective of the title is still the verb
        elif tok.pos_ == "ADJ" and i == start - 1 and kind is None and _past_song_verb(low):
            return "song", year, i
        # "a set of new material, including the unreleased 'X'"
        elif low.startswith("includ") and kind is None and _music_list(doc, i):
            return "song", year, i
        # adjectives, nouns and articles inside the cue phrase ("queer", "new", "the unreleased")
        elif tok.pos_ in ("ADJ", "NOUN") or low in _CUE_MODIFIERS:
            pass
        # "a cover of Fleetwood Mac's 'Dreams'": the owner of the title sits inside the cue phrase
        elif tok.tag_ == "POS" and kind is None and i - 1 >= floor and doc[i - 1].pos_ == "PROPN":
            while i - 1 >= floor and doc[i - 1].pos_ == "PROPN":
                i -= 1
        # "performed 'X'"; "played X" without quote marks is as often a role ("played Hamlet")
        elif tok.pos_ == "VERB" and tok.lemma_.lower() in SONG_VERBS and kind is None:
            if tok.lemma_.lower() == "play" and i == start - 1 and tok.i + 1 < len(doc) and doc[tok.i + 1].is_alpha:
                break
            return "song", year, i
        else:
            break
        first = i
        i -= 1
    return (kind, year, first) if kind else (None, None, start)


def described_as_act(doc: Doc, start: int) -> bool:
    """Whether a name follows a noun for a person or a group ("rock band X", "rapper X")."""
    before = doc[start - 1] if start > 0 else None
    return before is not None and (before.lower_ in PERSON_NOUNS or before.lower_ in GROUP_NOUNS)


def _category_before(doc: Doc, i: int, floor: int) -> int | None:
    """The cue noun of an award category ending right before token ``i``: "album of the year"."""
    j = i - 4
    if j < floor or doc[j + 1 : i].text.lower() != "of the year":
        return None
    return j if doc[j].lower_ in CUES else None


def _music_list(doc: Doc, i: int) -> bool:
    """Whether the sentence of token ``i`` speaks of a set or a record before it."""
    starts, _ = sentence_bounds(doc)
    return any(t.lower_ in _MUSIC_LIST_NOUNS for t in doc[starts[i] : i])


def _past_song_verb(word: str) -> bool:
    """A past form of a song verb ("dedicated", "covered", "debuted"), whatever the tagger says."""
    return word.endswith("ed") and any(word[:-k] in SONG_VERBS for k in (1, 2, 3))


def possessor_of(doc: Doc, start: int, first: int) -> list[tuple[int, int]]:
    """Where the possessor of a cue phrase is named: "her hit", "Prince's album"."""
    i = first - 1
    if i < 0:
        return []
    tok = doc[i]
    # "her", "his", "their": the pronoun, else the subject of the verb before it ("X sang her hit")
    if tok.lower_ in _POSSESSIVES:
        spans = [(tok.idx, tok.idx + len(tok.text))]
        verb = next((t for t in reversed(doc[sentence_bounds(doc)[0][i] : i]) if t.pos_ == "VERB"), None)
        subj = [c for c in verb.children if c.dep_ in ("nsubj", "nsubjpass")] if verb is not None else []
        spans.extend((s.idx, s.idx + len(s.text)) for s in subj)
        return spans
    # "Prince's"
    if tok.lower_ in function_words("genitive") and i > 0:
        owner = doc[i - 1]
        return [(owner.idx, owner.idx + len(owner.text))]
    return []


def byline_of(doc: Doc, end: int, sent_end: int) -> list[tuple[int, int]]:
    """Where "X by Y" names Y, right after the title (and its closing quote)."""
    i = end
    while i < sent_end and doc[i].is_punct and doc[i].text in "”’\",":
        i += 1
    if i + 1 < sent_end and doc[i].lower_ == "by" and (is_cap(doc[i + 1]) or doc[i + 1].pos_ == "PRON"):
        j = i + 1
        while j < sent_end and is_cap(doc[j]):
            j += 1
        j = max(j, i + 2)
        return [(doc[i + 1].idx, doc[j - 1].idx + len(doc[j - 1].text))]
    return []


def role_after(doc: Doc, end: int, sent_end: int) -> tuple[str, bool, int] | None:
    """A role noun right after the title ("the 'X' singer"): kind, whether it made it, token index."""
    i = end
    while i < sent_end and doc[i].is_punct and doc[i].text in "”’\"":
        i += 1
    if i < sent_end and doc[i].text in _ROLES:
        kind, made = _ROLES[doc[i].lower_]
        return kind, made, i
    if i < sent_end and doc[i].lower_ in CUES and doc[i].lower_ not in tagged("work_cues", "ambiguous"):
        return CUES[doc[i].lower_], False, i
    return None


def title_after_cue(doc: Doc, i: int, sent_end: int, cue_at: int | None = None) -> Span | None:
    """An unquoted capitalised title at ``i``, right after its cue noun ("the film Top Gun") or after
    the cue at ``cue_at`` and a comma."""
    j = i
    while j < sent_end and (_title_word(doc[j]) or (j > i and doc[j].lower_ in SMALL_WORDS and j + 1 < sent_end
                                                     and _title_word(doc[j + 1]))):
        j += 1
    if j == i:
        return None
    span = doc[i:j]
    cue = doc[i - 1 if cue_at is None else cue_at]
    owner = cue.head if cue.dep_ == "compound" else cue
    owned = any(c.dep_ == "poss" for c in (*cue.children, *owner.children))
    # "a song Ana Silva wrote", "the film star Ana Silva": a name that starts with a given name is
    # a person's, unless someone owns the work ("her album Desert Bloom"); "the film Silent River
    # opened", "the album Desert Bloom was released" are titles, whatever the model tags them
    if is_given_name(span[0].text) and not owned:
        return None
    verb = span.root.head
    # "the song Taylor Swift wrote": a name doing to the work what people do to works
    if span.root.dep_ == "nsubj" and verb.i >= j and verb.lemma_.lower() in _MAKING_VERBS and not owned:
        return None
    if all(t.ent_type_ in ("DATE", "TIME") for t in span):
        return None
    return span


def title_set_off(doc: Doc, cue: int, sent_end: int) -> Span | None:
    """A title set off by commas after its cue noun: "her new film, Salt Year, follows ..."

    Not a name the sentence goes on to quote ("the album, Ana Silva said, ...").
    """
    if cue + 2 >= sent_end or doc[cue + 1].text != ",":
        return None
    span = title_after_cue(doc, cue + 2, sent_end, cue_at=cue)
    if span is None or span.end >= sent_end or doc[span.end].text not in (",", "."):
        return None
    after = doc[span.end + 1] if span.end + 1 < sent_end else None
    if after is not None and is_say_verb(after):
        return None
    return span


def concert_pieces(doc: Doc) -> list[Span]:
    """Titles named by their form: "Mahler's Symphony No. 2", "the Piano Concerto No. 1", "Ninth Symphony"."""
    found = []
    toks = doc_tokens(doc)
    _, ends = sentence_bounds(doc)
    for tok in (toks[k] for k, text in enumerate(token_words(doc).text) if text in _CONCERT_FORMS):
        if tok.i + 1 < len(doc) and doc[tok.i + 1].text in _ENSEMBLE_ENDS:
            continue
        start = tok.i
        while start > 0 and doc[start - 1].is_title and doc[start - 1].pos_ in labels("nominal") \
                and doc[start - 1].tag_ != "POS" and not doc[start - 1].is_sent_start:
            start -= 1
        end = tok.i + 1
        # "No. 2", "No 5"
        if end + 1 < len(doc) and doc[end].text.rstrip(".") == "No" and doc[end + 1].like_num:
            end += 2
        elif end + 2 < len(doc) and doc[end].text == "No" and doc[end + 1].text == "." and doc[end + 2].like_num:
            end += 3
        else:
            end = catalogue_end(doc, end, ends[tok.i])
        # a bare form word is a title only with a number or a word before it ("a symphony" is none);
        # "the Palm Beach Symphony" is an orchestra, "the Ninth Symphony", "Mahler's Symphony" pieces
        if end - start > 1 and not (tok.text in _ENSEMBLE_FORMS and end == tok.i + 1 and not _numbered_or_owned(
                doc, start, tok.i)):
            found.append(doc[start:end])
    return found


def _numbered_or_owned(doc: Doc, start: int, form: int) -> bool:
    """Whether the words before a form name a piece: a number or ordinal ("Ninth", "5th"), or an owner
    ("Mahler's")."""
    return any(t.like_num or t.ent_type_ == "ORDINAL" for t in doc[start:form]) or (
        start > 0 and doc[start - 1].tag_ == "POS")


def titles_before_roles(doc: Doc) -> list[tuple[Span, bool]]:
    """Capitalised titles right before a role noun: "the Night Garden Is Blooming actor"."""
    found = []
    sent_starts, _ = sentence_bounds(doc)
    toks = doc_tokens(doc)
    for tok in (toks[k] for k, text in enumerate(token_words(doc).text) if text in _ROLES):
        if tok.i == 0:
            continue
        start = tok.i
        while start - 1 >= sent_starts[tok.i] and _title_word(doc[start - 1]) and doc[start - 1].lower_ != "the":
            start -= 1
        span = doc[start : tok.i]
        # one word is a descriptor ("the Spanish actor"); a name is a person's ("the Harry Lane actor")
        if len(span) >= 2 and not all(t.ent_type_ in labels("name-like") for t in span):
            found.append((span, False))
    return found


def _title_word(token) -> bool:  # type: ignore[no-untyped-def]
    """A word of a title: capitalised, whatever its part of speech ("Is", "This")."""
    return token.text[:1].isupper() and any(c.isalpha() for c in token.text)


def music_title(span: Span, sent: Span, open_at: int) -> bool:
    """Capitalised words (small words aside) in a sentence that speaks of playing or of a show,
    neither after a colon (a headline's quotation) nor governed by a verb of saying."""
    return typeset_title(span, sent, open_at, 1, SMALL_WORDS) and any(t.lemma_.lower() in _MUSIC_WORDS for t in sent)


def typeset_title(span: Span, sent: Span, open_at: int, fewest: int = 2, small: frozenset[str] = _TITLE_SMALL) -> bool:
    """Words in marks set as a title: at least ``fewest`` words, every one capitalised but the
    ``small`` words (articles, conjunctions, prepositions), neither after a colon (a headline's
    quotation) nor governed by a verb of saying, nor followed by one ("'Dream Big,' he said")."""
    alpha = [t for t in span if t.is_alpha]
    doc = span.doc
    after = doc[span.end + 1 : span.end + 3] if span.end + 1 < len(doc) else doc[0:0]
    return (
        fewest <= len(alpha) <= _MUSIC_TITLE_WORDS
        and all(t.text[0].isupper() or t.lower_ in small for t in alpha)
        and not (open_at > sent.start and doc[open_at - 1].text == ":")
        and not any(is_say_verb(a) and a.lemma_.lower() not in _MUSIC_WORDS for a in span.root.ancestors)
        and not any(is_say_verb(t) and t.lemma_.lower() not in _MUSIC_WORDS for t in after)
    )


def listed_kind(doc: Doc, collector: Collector, open_at: int, floor: int) -> str | None:
    """The kind of the work listed just before: "'A', 'B' and 'C'" are all songs if "A" is."""
    i = open_at - 1
    while i >= floor and doc[i].lower_ in _LIST_WORDS:
        i -= 1
    if i < floor or not is_mark(doc[i].text, CLOSING_MARKS):
        return None
    j = i - 1
    # American punctuation inside the marks: "A," "B," and "C."
    while j >= floor and doc[j].text in (",", "."):
        j -= 1
    return collector.kind_at(j) if j in collector.taken else None


def sung_in(doc: Doc, span: Span, sent: Span) -> str | None:
    """A short quoted title after a song verb of its sentence ("joined by X for 'Y'") is a song."""
    if len(span) > 8:
        return None
    # (a past form the model lemmatises wrongly, "duetted", is still the song verb)
    sung = any(t.pos_ == "VERB" and (t.lemma_.lower() in SONG_VERBS or _past_song_verb(t.lower_))
               for t in doc[sent.start : span.start])
    # "'X' was dedicated to ...": the title is the subject of a song verb
    head = span.root.head
    sung = sung or span.root.dep_ == "nsubjpass" and (
        head.lemma_.lower() in SONG_VERBS or _past_song_verb(head.lower_))
    return "song" if sung else None


def year_after(doc: Doc, end: int, sent_end: int) -> int | None:
    """A year in brackets after a title: "'X' (2011)"."""
    i = end
    while i < sent_end and doc[i].text in "”’\"":
        i += 1
    if i + 2 < sent_end and doc[i].text == "(" and _YEAR.match(doc[i + 1].text) and doc[i + 2].text == ")":
        return int(doc[i + 1].text)
    return None


#: Cue nouns before a title, with the kind of work they announce.
CUES: dict[str, str] = {noun: kind for noun, kind in kinds("work_cues").items() if kind != "title"}


#: Verbs whose quoted object is a song.
SONG_VERBS = tagged("performance_verbs", "song")



