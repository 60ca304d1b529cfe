"""Event names in the text: the candidates every later stage is given as ``Found.event_mentions``.

The small English model misses most event names or mislabels them ("Zennies" as a GPE,
"Lantern Awards" as an ORG), so events are found by rule: a run of capitalised words ending
in an event word ("Awards", "Festival", "Residency", "Cup", "Day", ...), a capitalised plural
after "the" and a year ("the 2019 Zennies", the way award shows are named), a well-known
event name, a generic part ("the opening night") or a name given with "called"/"named";
with a leading year or ordinal kept. This stage only finds names: which mentions are one
event, and where and when it took place, is decided in :mod:`kg.extract.events.extract`.
"""

from __future__ import annotations

import re

from spacy.tokens import Doc, Span, Token

from kg.extract.events.happenings import called_names, contest_names, happening_names
from kg.extract.model import EventMention
from kg.extract.text.doc_index import (
    NAME_INNER,
    doc_ents,
    doc_text,
    doc_tokens,
    is_cap,
    sentence_bounds,
    title_run_start,
    token_words,
)
from kg.extract.text.lexicon import function_words, kinds, labels, table, tagged, words
from kg.extract.text.marks import (
    CLOSING_MARKS,
    OPENING_MARKS,
    ORG_WORDS,
    VENUE_WORDS,
    find_titled_spans,
    is_mark,
)

#: Final words that make a name an event, with the event kind: capitalised ones end a capitalised
#: name ("the Lantern Awards"), lower-case ones end it after capitalised words ("her Eras tour").
_LOWER_HEADS: dict[str, str] = {w: k for w, k in kinds("event_heads").items() if w in tagged("event_heads", "lower")}


_HEADS: dict[str, str] = {w: k for w, k in kinds("event_heads").items() if w not in _LOWER_HEADS}


#: Most words of a title in marks that may hold an event word ("Worst Day Of My Life").
_TITLE_WORDS = 8
#: An edition in Roman numerals ("Super Bowl LVII").
_ROMAN = re.compile(r"[IVXLC]{1,7}")
#: Event words that are also surnames.
_SURNAME_HEADS = tagged("event_heads", "surname")


#: Well-known events named by one word (or a word pair): general knowledge, not article text.
_KNOWN: dict[str, str] = kinds("known_events")


_KNOWN_FIRST = frozenset(name.split()[0] for name in _KNOWN)


#: One-word known events that are read alone; "Reading" is as often the verb.
_SINGLE_OK = frozenset(w for w in _KNOWN if " " not in w and w != "Reading")


#: Lower-case words between a tour's name and its head ("the Last Light farewell tour").
_TOUR_MODIFIERS = words("tour_modifiers")


#: Words after a name that make it part of something else: an owner ("Ana's"), a lower-case event word.
_NOT_WHOLE_AFTER = function_words("genitive") | frozenset(_LOWER_HEADS) | _TOUR_MODIFIERS
_POSSESSIVE_MARKS = function_words("possessive-mark")


#: Words that may sit inside a name between capitalised words.
INNER = NAME_INNER


#: Generic phrases standing for a part of an event ("the opening night").
_NIGHTS = tagged("event_parts", "part")


_NIGHT_MODS = tagged("event_parts", "part-modifier")


#: Parts named by their noun alone ("the final", "Sunday's final").
_ALONE = tagged("event_parts", "part-alone")


#: "the 2019 Zennies", "the 41st Lanterns": a capitalised plural (not "'s", not "-ss") after a year or ordinal.
_DATED_PLURAL = re.compile(r"\b[Tt]he (?:(?:19|20)\d\d|\d+(?:st|nd|rd|th)) ([A-Z][\w]*[^s'’\W]s)\b")




#: Bare nouns that stand for the last event of their kinds named before ("the ceremony returns to V").
BACK_NOUNS: dict[str, frozenset[str]] = {
    noun: frozenset(tags.split()) - {"event", "place"} for noun, tags in table("back_nouns").items() if "event" in tags
}


#: An ordinal in digits: "65th", "1st".
ORDINAL = re.compile(r"\d+(?:st|nd|rd|th)")


#: "the festival", "this event", "the two-night charity show": a definite bare noun and its modifiers.
BACK_REFERENCE_RE = re.compile(r"\b(?:[Tt]he|[Tt]his|[Tt]hat) (?:[a-z][\w'-]* ){0,3}?(" + "|".join(BACK_NOUNS) + r")\b")


def _is_year(token) -> bool:  # type: ignore[no-untyped-def]
    """A four-digit year of the 20th or 21st century ("2022")."""
    return token.like_num and len(token.text) == 4 and token.text[:2] in ("19", "20")


def _is_ordinal(token) -> bool:  # type: ignore[no-untyped-def]
    """An ordinal in digits ("65th"), as in "the 65th Lantern Awards"."""
    low = token.text.lower()
    return ORDINAL.fullmatch(low) is not None


def _known_at(doc: Doc, i: int) -> tuple[int, str] | None:
    """A well-known event name starting at token ``i``: (end index, kind)."""
    tok = doc[i]
    if tok.text not in _KNOWN_FIRST:
        return None
    for width in (3, 2, 1):
        if i + width > len(doc):
            continue
        text = tok.text if width == 1 else doc[i : i + width].text
        if text in _KNOWN and (width > 1 or text in _SINGLE_OK):
            return i + width, _KNOWN[text]
    return None


def _extend(doc: Doc, start: int, end: int, floor: int, sent_end: int) -> tuple[int, int]:
    """Add a leading year or ordinal ("the 2019 Zennies") and a trailing year or lower-case final."""
    if start - 1 >= floor and (_is_year(doc[start - 1]) or _is_ordinal(doc[start - 1])):
        start -= 1
    if end < sent_end and _is_year(doc[end]):
        end += 1
    elif end < sent_end and doc[end].lower_ in ("final", "finals"):
        end += 1
    if doc[start].lower_ in INNER:
        start += 1
    return start, end


def _longer_name(doc: Doc, end: int, sent_end: int, kind: str) -> tuple[int, str]:
    """Where a well-known name that begins a longer one ends: "Coachella Valley Music and Arts Festival".

    Past an "and" or "of" the name must reach an event word ("and Arts Festival"), or it is a
    list ("Coachella and Stagecoach").
    """
    best, joined, headed = end, False, False
    while end < sent_end:
        token = doc[end]
        if token.lower_ in function_words("name-joiner") and end + 1 < sent_end and is_cap(doc[end + 1]):
            if headed:
                # "X Festival and Y Festival": two names
                break
            joined = True
        elif not is_cap(token) or token.ent_type_ == "GPE":
            break
        elif token.text in _HEADS:
            # (a well-known name keeps its own kind over a head of no kind: "Eurovision Song Contest")
            kind, best, headed = _HEADS[token.text] if _HEADS[token.text] != "event" else kind, end + 1, True
        elif not joined and _ROMAN.fullmatch(token.text):
            # "Super Bowl LVII": an edition; other capitalised words belong to the name only up to
            # an event word ("Coachella Valley Music and Arts Festival"), not a headline's "Review"
            best = end + 1
        end += 1
    return best, kind


def _clean_start(doc: Doc, start: int, end: int) -> int:
    """Drop leading function words ("The", "&") that do not belong to the name."""
    while start < end - 1 and (doc[start].lower_ in INNER or doc[start].pos_ in ("DET", "PRON")):
        start += 1
    return start


def _award_plurals(doc: Doc) -> frozenset[str]:
    """Capitalised plurals named after "the" and a year or ordinal: award shows ("the 2019 Zennies").

    Award shows are called by their prize in the plural, dated the way no person or band is;
    once the article has named one so, a bare "the Zennies" elsewhere is the same show.
    """
    found = set()
    # the text is searched first: walking every token of every article costs more than the rule
    for match in _DATED_PLURAL.finditer(doc_text(doc)):
        tok = doc.char_span(match.start(1), match.end(1))
        if tok is None or len(tok) != 1:
            continue
        i, t = tok.start, tok.text
        # "the 2022 Stones tour": the plural is only part of a longer name
        nxt = doc[i + 1] if i + 1 < len(doc) else None
        if nxt is not None and (is_cap(nxt) or nxt.lower_ in _LOWER_HEADS or nxt.lower_ in function_words("genitive")):
            continue
        found.add(t)
    return frozenset(found)


def _plural_at(doc: Doc, i: int, plurals: frozenset[str]) -> tuple[int, str] | None:
    """An award show named by its plural at token ``i``, after "the" with or without a year."""
    if doc[i].text not in plurals or i < 1:
        return None
    before = doc[i - 1]
    if before.lower_ == "the" or (_is_year(before) or _is_ordinal(before)) and i >= 2 and doc[i - 2].lower_ == "the":
        return i + 1, "award"
    return None


def _sentence_mentions(doc: Doc, sent: Span, plurals: frozenset[str] = frozenset()) -> list[EventMention]:
    """Event mentions of one sentence, left to right, never overlapping."""
    toks, words = doc_tokens(doc), token_words(doc)
    found: list[EventMention] = []
    i = sent.start
    taken_until = sent.start
    while i < sent.end:
        text = words.text[i]
        if i < taken_until or not (text in _HEADS or text in _LOWER_HEADS or text in _KNOWN_FIRST
                                   or text in plurals or words.lower[i] in _NIGHT_MODS):
            # (no event name starts here: the tests below would each say so, more slowly)
            i += 1
            continue
        named = _name_at(doc, i, sent.end, taken_until, plurals)
        if named is None and _head_kind(toks[i]):
            # a bare event word ("the Final", "the Tour") names no event
            i += 1
            continue
        if named is None:
            # "the opening night"; a lower-case event word that ends no name ("the final concert",
            # "during the final") may still name a part of one
            parts = _part_mentions(doc, i, sent)
            if parts:
                found.extend(parts)
                taken_until = i = parts[-1].end
            else:
                i += 1
            continue
        start, end, kind = named
        start, end = _extend(doc, start, end, max(taken_until, sent.start), sent.end)
        span = doc[start:end]
        name = span.text
        if toks[end - 1].lower_ in _POSSESSIVE_MARKS:
            name = doc[start : end - 1].text
        found.append(EventMention(start, end, name, kind))
        taken_until = end
        i = end
    return found


def _listed_with_people(doc: Doc, mention: EventMention) -> bool:
    """ "Fantasia, Andra Day, Brandi Carlile and Alessia Cara": a name ending in an event word that
    is a surname, listed with people the model tags, is one of them."""
    root = doc[mention.start : mention.end].root
    return doc[mention.end - 1].text in _SURNAME_HEADS and any(
        c.ent_type_ == "PERSON" for c in root.conjuncts)


def _head_kind(tok: Token) -> str | None:
    """The kind of event a capitalised event word names, if it is one."""
    # "Doris Day", "Lucille Ball": a person's surname, not an event ("Lantern Awards" tagged PERSON is)
    return _HEADS.get(tok.text) if not (tok.ent_type_ == "PERSON" and tok.text in _SURNAME_HEADS) else None


def _name_at(doc: Doc, i: int, sent_end: int, taken_until: int, plurals: frozenset[str]) -> tuple[int, int, str] | None:
    """An event name at token ``i`` (a known name or award show starting there, or a name ending
    in an event word there): (start, end, kind), before :func:`_extend`."""
    known = _known_at(doc, i) or _plural_at(doc, i, plurals)
    if known:
        end, kind = known
        start = title_run_start(doc, i, taken_until)
        end, kind = _longer_name(doc, end, sent_end, kind)
        return _clean_start(doc, start, end), end, kind
    toks = doc_tokens(doc)
    head_kind = _head_kind(toks[i])
    lower_kind = _LOWER_HEADS.get(toks[i].text)
    if not (head_kind or lower_kind):
        return None
    # "their Last Light farewell tour": lower-case words that describe a tour, between name and head
    last = i
    while lower_kind and last - 1 > taken_until and toks[last - 1].lower_ in _TOUR_MODIFIERS:
        last -= 1
    start = title_run_start(doc, last, taken_until)
    start = _clean_start(doc, start, i + 1)
    # "Tin Cup Blues", "Royal Festival Hall": the name goes on past the event word
    goes_on = i + 1 < sent_end and is_cap(toks[i + 1]) and toks[i + 1].text not in _HEADS \
        and toks[i + 1].ent_type_ not in ("DATE", "TIME")
    if not (start < last and not goes_on):
        return None
    end, kind = i + 1, head_kind or lower_kind or "event"
    # "Lantern Awards Ceremony": take the longest head
    while end < sent_end and toks[end].text in _HEADS and toks[end].text[:1].isupper():
        end += 1
    return start, end, kind


def _part_mentions(doc: Doc, i: int, sent: Span) -> list[EventMention]:
    """A generic part of an event at token ``i`` ("the second day"), and the whole it is "of"."""
    generic = _generic_at(doc, i, sent)
    if not generic:
        return []
    whole = _whole_of_part(doc, generic, sent.end)
    return [generic] if whole is None else [generic, whole]


def _quoted(doc: Doc, start: int, end: int) -> bool:
    """Whether tokens ``start:end`` sit right inside quotation marks."""
    return start > 0 and end < len(doc) and is_mark(doc[start - 1].text, OPENING_MARKS) and is_mark(doc[end].text[:1], CLOSING_MARKS + ",.")


def _generic_at(doc: Doc, i: int, sent: Span) -> EventMention | None:
    """A generic part of an event ("the opening night", "the closing ceremony", "Sunday's final")
    at token ``i``."""
    tok = doc[i]
    if tok.lower_ in _ALONE and i - 1 >= sent.start and (
            doc[i - 1].lower_ in function_words("event-det") or doc[i - 1].tag_ == "POS") and (
            i + 1 >= sent.end or doc[i + 1].pos_ not in labels("nominal") | {"NUM"}):
        # "during the final", "Sunday's final": the noun alone is the part (the model often calls it
        # an adjective; "the final concert" is a modifier and its noun, "the final 12" no event)
        return EventMention(i, i + 1, tok.text, "event", generic=True)
    if tok.lower_ not in _NIGHT_MODS or i + 1 >= sent.end or doc[i + 1].lower_ not in _NIGHTS:
        return None
    if i - 1 < sent.start or doc[i - 1].lower_ not in function_words("event-det"):
        return None
    # "the first day" of anything is no show: only a day "of" a name ("the second day of X") is
    if doc[i + 1].lower_ == "day" and not (i + 3 < sent.end and doc[i + 2].lower_ == "of" and (
            is_cap(doc[i + 3]) or doc[i + 3].pos_ == "DET" and i + 4 < sent.end and is_cap(doc[i + 4]))):
        return None
    return EventMention(i, i + 2, doc[i : i + 2].text, "event", generic=True)


def _whole_of_part(doc: Doc, part: EventMention, sent_end: int) -> EventMention | None:
    """ "the second day of Solstice Fields": what a day or night is "of" is an event, named or not
    with an event word. A name ending in one is left to the usual scan, a person's name
    ("the first night of Ana Silva's tour") and a town to the other stages."""
    j = part.end
    if j >= sent_end or doc[j].lower_ != "of":
        return None
    j += 1
    while j < sent_end and doc[j].pos_ == "DET":
        j += 1
    end = j
    while end < sent_end and (is_cap(doc[end]) or doc[end].lower_ in ("&", "and") and end + 1 < sent_end
                              and is_cap(doc[end + 1]) and end > j):
        end += 1
    if end == j or doc[end - 1].text in _HEADS or doc[j].ent_type_ in ("GPE", "DATE") \
            or end < sent_end and doc[end].lower_ in _NOT_WHOLE_AFTER:
        return None
    kind = "festival" if doc[part.end - 1].lower_ in ("day", "days") else "music"
    return EventMention(j, end, doc[j:end].text, kind)


def find_event_mentions(doc: Doc) -> tuple[EventMention, ...]:
    """Every event mention in the document, in text order: the ``kg_event_names`` component.

    Places, works and events are given them (``Found.event_mentions``): a place must not be
    read inside an event's name, nor a title taken for an event.
    """
    found: list[EventMention] = []
    starts, ends = sentence_bounds(doc)
    plurals = _award_plurals(doc)
    # "Andra Day", "Lucille Ball": a name ending in an event word that is a surname, tagged as a
    # person somewhere, is nobody's event
    people = {e.text for e in doc_ents(doc) if e.label_ == "PERSON" and e[-1].text in _SURNAME_HEADS}
    # a name in quotation marks is a title ("Lonesome Day", "Worst Day Of My Life"), not an event
    quoted = [(doc[s].idx, e) for s, e in _titled_token_spans(doc)]
    for first in sorted(set(starts)):
        found.extend(
            m for m in _sentence_mentions(doc, doc[first : ends[first]], plurals)
            if not any(s <= doc[m.start].idx < e for s, e in quoted) and m.name not in people
            and not _listed_with_people(doc, m)
        )
    covered = {k for m in found for k in range(m.start, m.end)}
    # "his 'X India Tour'", "the 'X' tour": a title in marks that an event word ends or follows
    for m in _quoted_events(doc, covered):
        found.append(m)
        covered.update(range(m.start, m.end))
    # "a tour called X", "the festival, dubbed X"
    for start, end, kind in called_names(doc, covered, _LOWER_HEADS):
        found.append(EventMention(start, end, doc[start:end].text, kind))
        covered.update(range(start, end))
    # "The X was held at V", "the X, which took place at W": an event of no known kind
    for start, end in happening_names(doc, covered):
        found.append(EventMention(start, end, doc[start:end].text, "event"))
        covered.update(range(start, end))
    # "the winner of 'The X'": what someone won is a contest, a title in marks too
    for start, end in contest_names(doc, covered):
        found.append(EventMention(start, end, doc[start:end].text, "event"))
        covered.update(range(start, end))
    # a name found once is the event wherever else it stands ("Solstice Fields review: ...")
    for m in _repeated(doc, found, covered):
        found.append(m)
        covered.update(range(m.start, m.end))
    # spaCy's own EVENT entities that the rules missed
    others = {t.text for e in doc_ents(doc) if e.label_ in labels("name-like") for t in e}
    for ent in doc_ents(doc):
        if ent.label_ == "EVENT" and not any(k in covered for k in range(ent.start, ent.end)) \
                and not _misread_event(doc, ent, others):
            start = _clean_start(doc, ent.start, ent.end)
            found.append(EventMention(start, ent.end, doc[start : ent.end].text, "event", from_model=True))
    found.sort(key=lambda m: m.start)
    return tuple(found)


def _titled_token_spans(doc: Doc) -> list[tuple[int, int]]:
    """(first token, end character) of every stretch in quotation marks set as a title: a few
    words, every one capitalised but the small ones (not words said, which may name an event)."""
    out = []
    for start_char, end_char in find_titled_spans(doc_text(doc)):
        span = doc.char_span(start_char, end_char, alignment_mode="expand")
        words = [t for t in span if t.is_alpha] if span is not None else []
        if words and len(words) <= _TITLE_WORDS and all(t.text[0].isupper() or t.lower_ in INNER for t in words):
            out.append((span.start, end_char))
    return out


def _quoted_events(doc: Doc, covered: set[int]) -> list[EventMention]:
    """Events named by a title in quotation marks: one with a show's word in it ("'X India Tour'",
    "'X Tour 2023 Seoul Special'"), one a lower-case event word follows ("the 'X' tour", "'X'
    concert"), or one a verb took place at ("performed at 'X'")."""
    out: list[EventMention] = []
    for start_char, end_char in find_titled_spans(doc_text(doc)):
        span = doc.char_span(start_char, end_char, alignment_mode="contract")
        if span is None or not len(span) or covered.intersection(range(span.start - 1, span.end + 1)):
            continue
        # (American punctuation inside the marks: "'X Residency,'" is the residency's name)
        while len(span) > 1 and span[-1].is_punct:
            span = span[:-1]
        # ("the 'X Tour 2022 Seoul Special'": a show's word inside the name, before its edition)
        heads = [t for t in span[1:] if t.text in _HEADS and _HEADS[t.text] != "event"
                 and (t.i == span.end - 1 or _is_year(doc[t.i + 1]))]
        after = span.end + 1
        at = doc[span.start - 2] if span.start >= 2 else None
        if at is not None and at.lower_ == "at" and at.head.pos_ == "VERB" and span[0].text[:1].isupper():
            # "performed at 'The X Live' at V": where a verb took place is an event, not a title
            end = span.end - 1 if span[-1].is_punct else span.end
            out.append(EventMention(span.start, end, doc[span.start : end].text, "music"))
        elif heads and (span[0].text[:1].isupper() or span[0].text[:1].isdigit()):
            # (a title in marks with "Day" or "Parade" in it is a song as often: only a show's word counts)
            out.append(EventMention(span.start, span.end, span.text, _HEADS[heads[-1].text]))
        elif after < len(doc) and doc[after].lower_ in _LOWER_HEADS and doc[after].is_lower \
                and is_mark(doc[span.end].text, CLOSING_MARKS) and span[0].text[:1].isupper():
            # (named without the marks: "the 'X' tour" and "the X tour" are one tour)
            out.append(EventMention(span.start - 1, after + 1, f"{span.text} {doc[after].text}",
                                    _LOWER_HEADS[doc[after].lower_]))
    return out


def _misread_event(doc: Doc, ent: Span, others: set[str]) -> bool:
    """A model EVENT that is a venue ("... Arena"), an organisation by its last word (a newspaper
    "... Herald", a "... Bank"), an amount of money ("US $8.00"), words in quotation marks (a
    slogan or title), an owner ("X's right", "X' summit"), no name at all ("post-"), or one word
    of a name the model gives a person, place or organisation elsewhere ("Pelosi")."""
    after = doc[ent.end].text if ent.end < len(doc) else ""
    return (
        ent[-1].lower_ in VENUE_WORDS or ent[-1].text in ORG_WORDS or any(t.is_currency for t in ent)
        or any(is_mark(t.text, OPENING_MARKS) and t.text not in _POSSESSIVE_MARKS for t in doc[max(ent.start - 1, 0) : ent.end])
        or ent[-1].text in _POSSESSIVE_MARKS or after in _POSSESSIVE_MARKS
        or not any(t.is_alpha and t.text[:1].isupper() for t in ent)
        or len(ent) == 1 and ent.text in others
    )


def _repeated(doc: Doc, found: list[EventMention], covered: set[int]) -> list[EventMention]:
    """Other occurrences of the names of found events (two words or more, as written)."""
    kinds = {m.name: m.kind for m in found if not m.generic and len(m.name.split()) > 1 and m.name[:1].isupper()}
    if not kinds:
        return []
    out = []
    pattern = re.compile(r"\b(?:" + "|".join(re.escape(n) for n in sorted(kinds, key=len, reverse=True)) + r")\b")
    for match in pattern.finditer(doc_text(doc)):
        span = doc.char_span(match.start(), match.end())
        if span is not None and not covered.intersection(range(span.start, span.end)) \
                and not _quoted(doc, span.start, span.end):
            out.append(EventMention(span.start, span.end, span.text, kinds[match.group()]))
    return out
