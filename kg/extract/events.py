"""Events: named events (award shows, festivals, tours, residencies, games, days) with type,
place and date.

The small English model misses most event names or mislabels them ("Zennies" as a GPE,
"Lantern Awards" as an ORG), so events are found by rule: a run of capitalised words ending
in an event word ("Awards", "Festival", "Residency", "Cup", "Day", ...), a capitalised plural
after "the" and a year ("the 2019 Zennies", the way award shows are named), or a well-known
event name, with a leading year or ordinal kept. Location and date come from the same clause
("... at V in City in August 2023"), from a clause of the event's own ("X, which returns to V
in July"), from a participle of its clause ("..., taking home three prizes at V") or from a
bare noun standing for it later ("The ceremony returns to V"), unless that speaks of another
edition ("next year").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from spacy.tokens import Doc, Span, Token

from kg.extract.cues import CLOSING_MARKS, OPENING_MARKS, VENUE_WORDS, is_dash, is_mark
from kg.extract.dates import RELATIVE_YEARS, is_clause_date, is_future, parse_date
from kg.extract.lexicon import function_words, kinds, labels, table, tagged, words
from kg.extract.model import TOWN_KINDS, Event, TextSpan, When

#: Final words that make a name an event, with the event kind: capitalised ones end a capitalised
#: name ("the Lantern Awards"), lower-case ones end it after capitalised words ("her Eras tour").
_LOWER_HEADS: dict[str, str] = {w: k for w, k in kinds("event_heads").items() if w in tagged("event_heads", "lower")}
_HEADS: dict[str, str] = {w: k for w, k in kinds("event_heads").items() if w not in _LOWER_HEADS}
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
#: Words that may sit inside a name between capitalised words.
_INNER = function_words("name-inner")
#: Possessive nouns that belong inside a name ("Teachers' Day"), unlike a person's ("Rivera's").
_NAME_POSSESSORS = words("name_possessors")
#: Generic phrases standing for a part of an event ("the opening night").
_NIGHTS = tagged("event_parts", "part")
_NIGHT_MODS = tagged("event_parts", "part-modifier")
_PLACE_PREPS = function_words("event-place-prep")
#: Lower-case words between an event and its place or date ("the Super Bowl halftime show in X").
_EVENT_TAIL = words("event_tail_words")
#: Verbs allowed between an event and its date ("... was held in May 2023").
_GAP_VERBS = function_words("gap-verb")
_SUPER_PREPS = function_words("super-prep")
#: Prepositions that bring in another happening than the clause's own ("after a win at V").
_OTHER_TIME_PREPS = function_words("other-time-prep")
#: "the 2019 Zennies", "the 41st Lanterns": a capitalised plural (not "'s", not "-ss") after a year or ordinal.
_DATED_PLURAL = re.compile(r"\b[Tt]he (?:(?:19|20)\d\d|\d+(?:st|nd|rd|th)) ([A-Z][\w]*[^s'’\W]s)\b")
#: The same participles as a search over the text, so that most articles skip the rule.
_NAMING_RE = re.compile(r"\b(?:called|named|titled|entitled|dubbed|billed)\b", re.IGNORECASE)
#: Verbs whose subject event happens at their place object ("X will return to V", "X moves to V").
_LOCATING_VERBS = words("locating_verbs")
_LOCATING_PREPS = function_words("locating-prep")
#: Bare nouns that stand for the last event of their kinds named before ("the ceremony returns to V").
BACK_NOUNS: dict[str, frozenset[str]] = {
    noun: frozenset(tags.split()) - {"event", "place"} for noun, tags in table("back_nouns").items() if "event" in tags
}
#: Inner words of a name that may not follow a capitalised word at the name's start.
_NAME_INNER_EDGE = function_words("genitive") | {"the"}
#: An ordinal in digits: "65th", "1st".
_ORDINAL = re.compile(r"\d+(?:st|nd|rd|th)")
_BACK_REFERENCE_RE = re.compile(r"\b(?:[Tt]he|[Tt]his|[Tt]hat) (" + "|".join(BACK_NOUNS) + r")\b")


@dataclass(frozen=True)
class EventMention:
    """A stretch of tokens naming an event, before mentions are merged into Events."""

    start: int  # token index
    end: int
    name: str
    kind: str
    generic: bool = False
    from_model: bool = False  # a spaCy EVENT entity rather than a rule's find


_FUNCTION_POS = labels("function")


def is_cap(token) -> bool:  # type: ignore[no-untyped-def]
    """A capitalised content word: part of a name (a sentence-initial "The" is not)."""
    t = token.text
    return t[:1].isupper() and any(c.isalpha() for c in t) and token.pos_ not in _FUNCTION_POS


def _is_year(token) -> bool:  # type: ignore[no-untyped-def]
    """A four-digit year of the 20th or 21st century ("2022")."""
    return token.like_num and len(token.text) == 4 and token.text[:2] in ("19", "20")


def _is_ordinal(token) -> bool:  # type: ignore[no-untyped-def]
    """An ordinal in digits ("65th"), as in "the 65th Lantern Awards"."""
    low = token.text.lower()
    return _ORDINAL.fullmatch(low) is not None


def title_run_start(doc: Doc, end: int, floor: int) -> int:
    """Leftmost token of the run of capitalised words (and name-internal words) ending at ``end``.

    ``end`` is the index of the run's last token; the run never crosses ``floor``.
    Name-internal words ("&", "of") are kept only when a capitalised word precedes them.
    """
    start = end
    i = end - 1
    while i >= floor:
        tok = doc[i]
        # a capitalised word; long all-caps words are shouting, not names
        if is_cap(tok) and (not tok.text.isupper() or len(tok.text) <= 5):
            start = i
        elif tok.lower_ in ("'s", "’s") and i - 1 >= floor and doc[i - 1].lower_ in _NAME_POSSESSORS:
            start = i
        # "&", "of" between capitalised words
        elif tok.lower_ in _INNER and tok.lower_ not in _NAME_INNER_EDGE and i - 1 >= floor and is_cap(doc[i - 1]):
            start = i
        else:
            break
        i -= 1
    return start


def doc_text(doc: Doc) -> str:
    """The text of the doc (cached): ``doc.text`` joins every token anew on each access."""
    text = doc.user_data.get("kg.text")
    if text is None:
        text = doc.user_data["kg.text"] = doc.text
    return text


def sentence_bounds(doc: Doc) -> tuple[list[int], list[int]]:
    """Per token, the index of its sentence's first token and one past its last (cached).

    ``token.sent`` builds a Span on every call; the extractors ask often, so they ask this.
    """
    cached = doc.user_data.get("kg.sent_bounds")
    if cached is not None:
        return cached
    starts, ends = [0] * len(doc), [0] * len(doc)
    for sent in doc.sents:
        for k in range(sent.start, sent.end):
            starts[k], ends[k] = sent.start, sent.end
    doc.user_data["kg.sent_bounds"] = (starts, ends)
    return starts, ends


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
    if doc[start].lower_ in _INNER:
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
            kind, best, headed = _HEADS[token.text], end + 1, True
        elif not joined:
            best = end + 1
        end += 1
    return best, kind


def _clean_start(doc: Doc, start: int, end: int) -> int:
    """Drop leading function words ("The", "&") that do not belong to the name."""
    while start < end - 1 and (doc[start].lower_ in _INNER or doc[start].pos_ in ("DET", "PRON")):
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
    found: list[EventMention] = []
    i = sent.start
    taken_until = sent.start
    while i < sent.end:
        tok = doc[i]
        if i < taken_until:
            i += 1
            continue
        known = _known_at(doc, i) or _plural_at(doc, i, plurals)
        # "Doris Day", "Lucille Ball": a person's surname, not an event ("Lantern Awards" tagged PERSON is)
        head_kind = _HEADS.get(tok.text) if not (tok.ent_type_ == "PERSON" and tok.text in _SURNAME_HEADS) else None
        lower_kind = _LOWER_HEADS.get(tok.text)
        if known:
            end, kind = known
            start = title_run_start(doc, i, taken_until)
            end, kind = _longer_name(doc, end, sent.end, kind)
            start = _clean_start(doc, start, end)
        elif head_kind or lower_kind:
            # "their Last Light farewell tour": lower-case words that describe a tour, between name and head
            last = i
            while lower_kind and last - 1 > taken_until and doc[last - 1].lower_ in _TOUR_MODIFIERS:
                last -= 1
            start = title_run_start(doc, last, taken_until)
            start = _clean_start(doc, start, i + 1)
            # "Tin Cup Blues", "Royal Festival Hall": the name goes on past the event word
            goes_on = i + 1 < sent.end and is_cap(doc[i + 1]) and doc[i + 1].text not in _HEADS \
                and doc[i + 1].ent_type_ not in ("DATE", "TIME")
            if start >= last or goes_on:
                # a bare event word ("the Final", "the tour") names no event
                i += 1
                continue
            end, kind = i + 1, head_kind or lower_kind or "event"
            # "Lantern Awards Ceremony": take the longest head
            while end < sent.end and doc[end].text in _HEADS and doc[end].text[:1].isupper():
                end += 1
        else:
            generic = _generic_at(doc, i, sent)
            if generic:
                found.append(generic)
                taken_until = i = generic.end
                whole = _whole_of_part(doc, generic, sent.end)
                if whole is not None:
                    found.append(whole)
                    taken_until = i = whole.end
            else:
                i += 1
            continue
        start, end = _extend(doc, start, end, max(taken_until, sent.start), sent.end)
        span = doc[start:end]
        name = span.text
        if doc[end - 1].lower_ in ("'s", "’s"):
            name = doc[start : end - 1].text
        found.append(EventMention(start, end, name, kind))
        taken_until = end
        i = end
    return found


def _quoted(doc: Doc, start: int, end: int) -> bool:
    """Whether tokens ``start:end`` sit right inside quotation marks."""
    return start > 0 and end < len(doc) and is_mark(doc[start - 1].text, OPENING_MARKS) and is_mark(doc[end].text[:1], CLOSING_MARKS + ",.")


def _generic_at(doc: Doc, i: int, sent: Span) -> EventMention | None:
    """A generic part of an event ("the opening night", "the closing ceremony") at token ``i``."""
    tok = doc[i]
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


def event_mentions(doc: Doc) -> list[EventMention]:
    """Every event mention in the document, in text order (cached on the Doc).

    Also used by kg.extract.places, which must not read an event name as a place.
    """
    cached = doc.user_data.get("kg.event_mentions")
    if cached is not None:
        return cached
    found: list[EventMention] = []
    starts, ends = sentence_bounds(doc)
    plurals = _award_plurals(doc)
    for first in sorted(set(starts)):
        # a name in quotation marks is a title ("Lonesome Day"), not an event
        found.extend(
            m for m in _sentence_mentions(doc, doc[first : ends[first]], plurals) if not _quoted(doc, m.start, m.end)
        )
    covered = {k for m in found for k in range(m.start, m.end)}
    # "a tour called X", "the festival, dubbed X"
    for m in _called_names(doc, covered):
        found.append(m)
        covered.update(range(m.start, m.end))
    # a name found once is the event wherever else it stands ("Solstice Fields review: ...")
    for m in _repeated(doc, found, covered):
        found.append(m)
        covered.update(range(m.start, m.end))
    # spaCy's own EVENT entities that the rules missed
    for ent in doc.ents:
        if ent.label_ == "EVENT" and not any(k in covered for k in range(ent.start, ent.end)) \
                and ent[-1].lower_ not in VENUE_WORDS:
            start = _clean_start(doc, ent.start, ent.end)
            found.append(EventMention(start, ent.end, doc[start : ent.end].text, "event", from_model=True))
    found.sort(key=lambda m: m.start)
    doc.user_data["kg.event_mentions"] = found
    return found


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


def _called_names(doc: Doc, covered: set[int]) -> list[EventMention]:
    """Events named after their kind: "the tour, called X", "a residency dubbed X"."""
    found: list[EventMention] = []
    for match in _NAMING_RE.finditer(doc_text(doc)):
        naming = doc.char_span(match.start(), match.end())
        if naming is None or naming.start < 1:
            continue
        back = naming.start - 1
        # "the tour called X" or "the tour, called X"
        if doc[back].text == "," and back > 0:
            back -= 1
        tok = doc[back]
        kind = _LOWER_HEADS.get(tok.lower_)
        if kind is None or tok.i in covered:
            continue
        start = naming.end
        if start < len(doc) and is_mark(doc[start].text, OPENING_MARKS):
            start += 1
        end = start
        while end < len(doc) and end not in covered and (
                is_cap(doc[end]) or doc[end].lower_ in _INNER and end + 1 < len(doc) and is_cap(doc[end + 1])):
            end += 1
        if end > start:
            found.append(EventMention(start, end, doc[start:end].text, kind))
    return found


def _award_stem(norm: str) -> tuple[str | None, str]:
    """The year and the prize of an award show's key: "2019 zenny awards" -> ("2019", "zenny").

    >>> _award_stem("2019 zennies"), _award_stem("61st annual zenny awards"), _award_stem("zenny awards 2020")
    (('2019', 'zenny'), (None, 'zenny'), ('2020', 'zenny'))
    """
    words = norm.split()
    year = words[0] if words and len(words[0]) == 4 and words[0].isdigit() else None
    words = [w for w in words[1:] if w != "annual"] if words and _undated(norm) != norm else words
    # "brit awards 2027"
    if year is None and len(words) > 1 and len(words[-1]) == 4 and words[-1].isdigit():
        year, words = words[-1], words[:-1]
    while len(words) > 1 and words[-1] in tagged("event_parts", "award-tail"):
        words = words[:-1]
    stem = " ".join(words)
    # "zennies" / "zenny", "lanterns" / "lantern"
    for plural, single in (("ies", "y"), ("s", "")):
        if stem.endswith(plural) and len(words) == 1:
            stem = stem[: -len(plural)] + single
            break
    return year, stem


def _same_award(norm: str, known: list[str]) -> str | None:
    """An award show already named another way with the same prize and no clashing year."""
    year, stem = _award_stem(norm)
    for other in known:
        other_year, other_stem = _award_stem(other)
        if (other_stem == stem or stem in _initials(other_stem) or other_stem in _initials(stem)) and (
                year == other_year or year is None or other_year is None):
            return other
    return None


def _edition_stem(norm: str) -> tuple[str | None, str]:
    """The edition and the name of an event's key: "glastonbury festival 2026" -> ("2026", "glastonbury").

    >>> _edition_stem("2019 lollapalooza"), _edition_stem("harbour lights festival"), _edition_stem("super bowl lxi")
    (('2019', 'lollapalooza'), (None, 'harbour lights'), ('lxi', 'super bowl'))
    """
    words = norm.split()
    edition = None
    for at in (-1, 0):
        if len(words) > 1 and (len(words[at]) == 4 and words[at].isdigit() or at == -1 and _ROMAN.fullmatch(words[at])):
            edition = words.pop(at)
            break
    while len(words) > 1 and words[-1] in ("festival", "fest"):
        words.pop()
    return edition, " ".join(words)


def _same_edition(norm: str, known: list[str]) -> str | None:
    """An event already named another way ("X 2026", "X Festival", "X", "X Song Contest") with no
    clashing edition: the same words, or a one-word name that begins the other."""
    edition, stem = _edition_stem(norm)
    for other in known:
        other_edition, other_stem = _edition_stem(other)
        short, long = sorted((stem.split(), other_stem.split()), key=len)
        if (stem == other_stem or len(short) == 1 and long[0] == short[0]) and (
                edition == other_edition or edition is None or other_edition is None):
            return other
    return None


def _prefer_name(kind: str, new: str, old: str) -> bool:
    """Whether a second name of one event names it better: a festival without its year
    ("Glastonbury Festival" over "Glastonbury 2026"), anything else with its edition or in full."""
    (new_edition, new_stem), (old_edition, old_stem) = _edition_stem(new), _edition_stem(old)
    if kind == "festival":
        return bool(old_edition) and not new_edition or len(new_stem) > len(old_stem) and new_edition in (None,
                                                                                                      old_edition)
    return bool(new_edition) and not old_edition or len(new_stem) > len(old_stem) and new_edition == old_edition


def _initials(stem: str) -> tuple[str, ...]:
    """The initialisms a long prize name goes by, with and without the A of "Awards".

    >>> _initials("country music association"), _initials("zenny")
    (('cma', 'cmaa'), ())
    """
    words = [w for w in stem.split() if w not in _INNER]
    letters = "".join(w[0] for w in words)
    return (letters, letters + "a") if len(words) >= 2 else ()


def _undated(norm: str) -> str:
    """An event key without its leading year or ordinal: "2019 zennies" -> "zennies".

    >>> _undated("65th annual lantern awards"), _undated("2019 zennies")
    ('annual lantern awards', 'zennies')
    """
    head, _, rest = norm.partition(" ")
    if rest and (head.isdigit() and len(head) == 4 or _ORDINAL.fullmatch(head) is not None):
        return rest
    return norm


def _chars(doc: Doc, m: EventMention) -> range:
    """The character offsets an event mention covers."""
    return range(doc[m.start].idx, doc[m.end - 1].idx + len(doc[m.end - 1].text))


def _norm(name: str) -> str:
    """The merge key of an event name: case, curly apostrophes and spacing ignored."""
    return " ".join(name.replace("’", "'").lower().split())


def _place_after(doc: Doc, end: int, sent_end: int, place_starts: dict[int, str], stops: set[int]) -> str | None:
    """The place named right after an event: "X at V", "X in City", skipping dates and "the"."""
    i = end
    while i < sent_end and i not in stops:
        tok = doc[i]
        if tok.lower_ in _PLACE_PREPS:
            j = i + 1
            while j < sent_end and doc[j].pos_ == "DET":
                j += 1
            # "in the province of X", "at the heart of X"
            if j + 2 < sent_end and doc[j].is_lower and doc[j].pos_ == "NOUN" and doc[j + 1].lower_ == "of":
                j += 2
            if j in place_starts:
                return _possessed_place(doc, j, sent_end, place_starts)
            # "in August 2023 in Reno": skip the date, keep looking
            if j < sent_end and doc[j].ent_type_ in ("DATE", "TIME"):
                i = j
                continue
            return None
        if tok.ent_type_ in ("DATE", "TIME") or tok.is_punct and tok.text == ",":
            i += 1
            continue
        if tok.lower_ in _EVENT_TAIL:
            i += 1
            continue
        return None
    return None


def _own_verb(head: Token) -> Token | None:
    """The verb an event's head word is the subject of ("X will return to V"), or that describes
    it in a clause of its own ("X, which returns to V in July", "X, held at V").

    "the singer who won X moved to V", where the verb belongs to someone else, gives none.
    """
    if head.dep_ in ("nsubj", "nsubjpass") and head.head.lemma_.lower() in _LOCATING_VERBS:
        return head.head
    # "the final will be played at V": a game is played where it is held
    if head.dep_ == "nsubjpass" and head.head.lemma_.lower() == "play":
        return head.head
    return next((c for c in head.children if c.dep_ in ("relcl", "acl") and c.lemma_.lower() in _LOCATING_VERBS
                 and (c.dep_ == "acl" or any(g.lower_ in ("which", "that") for g in c.children))), None)


def governing_verb(token: Token) -> Token:
    """The nearest verb above ``token`` (itself if it is one; the root when there is none)."""
    cur = token
    for _ in range(8):
        if cur.pos_ in ("VERB", "AUX") or cur.head.i == cur.i:
            return cur
        cur = cur.head
    return cur


_ROMAN = re.compile(r"[ivxlc]{1,7}")

#: How many sentences from the top a dateline may start (after a headline and a byline).
DATELINE_SENTENCES = 3


def dateline_end(doc: Doc, end: int) -> bool:
    """Whether a dateline's spaced dash follows token ``end``: ", Tenn. (AP) —", " (Reuters) -", " —"."""
    for token in doc[end : end + 8]:
        if is_dash(token.text) and token.i > 0 and doc[token.i - 1].whitespace_:
            return True
        if not (token.text in ",.()" or token.is_title or token.is_upper):
            return False
    return False


def dateline_city(doc: Doc) -> tuple[str, Span] | None:
    """The key of the city a dateline names ("NASHVILLE, Tenn. (AP) — ..."), with its sentence."""
    cities = {m.start: (p.key, m.end) for p in doc._.places if p.kind == "city" for m in p.mentions}
    for sent in list(doc.sents)[:DATELINE_SENTENCES]:
        if sent.start_char in cities:
            key, end_char = cities[sent.start_char]
            place = doc.char_span(sent.start_char, end_char, alignment_mode="expand")
            if place is not None and dateline_end(doc, place.end):
                return key, sent
    return None


#: Subordinating words that put a clause at the same time as its main clause ("as X opened").
_SAME_TIME_MARKS = function_words("same-time")


def _place_of_verb(doc: Doc, m: EventMention, place_starts: dict[int, str]) -> str | None:
    """The place an event's own verb puts it in: "X will return to V", "X is held at V"."""
    verb = None if m.generic else _own_verb(doc[m.end - 1])
    if verb is None:
        return None
    place = _verb_place(doc, verb, place_starts)
    mark = next((c.lower_ for c in verb.children if c.dep_ == "mark"), None)
    if place is None and verb.dep_ == "advcl" and mark in _SAME_TIME_MARKS:
        # "fans braved the rain at V as X opened": what happens there while X opens is at X
        place = _verb_place(doc, verb.head, place_starts)
    return place


def _verb_place(doc: Doc, verb: Token, place_starts: dict[int, str]) -> str | None:
    """The first place after a locating preposition of ``verb``."""
    # "X took place at V": the preposition hangs off "place"
    preps = [c for c in verb.children if c.dep_ == "prep"] + [
        g for c in verb.children if c.dep_ in ("dobj", "attr") for g in c.children if g.dep_ == "prep"
    ]
    for prep in preps:
        if prep.lower_ not in _LOCATING_PREPS:
            continue
        for obj in prep.children:
            if obj.dep_ != "pobj":
                continue
            first = min(t.i for t in obj.subtree)
            for k in range(first, obj.i + 1):
                if k in place_starts:
                    return _possessed_place(doc, k, len(doc), place_starts)
    return None


def _date_of_verb(doc: Doc, m: EventMention, published: str | None) -> When | None:
    """The date an event's own verb gives it: "X will return to V next month", "X was held in May"."""
    verb = None if m.generic else _own_verb(doc[m.end - 1])
    return None if verb is None else _verb_date(doc, verb, published)


def _verb_date(doc: Doc, verb: Token, published: str | None) -> When | None:
    """The first date in ``verb``'s own clause."""
    for ent in doc.ents:
        if ent.label_ not in ("DATE", "TIME") or not is_clause_date(ent):
            continue
        root = ent.root
        # the date hangs off the verb itself, off a preposition of it ("in May"), or off a
        # noun of its clause that the parser hung it on ("returned to V in C on Monday")
        if governing_verb(root).i == verb.i:
            span = TextSpan(ent.start_char, ent.end_char, ent.text)
            return parse_date(ent.text, published, span, future=is_future(root))
    return None


def _possessed_place(doc: Doc, j: int, sent_end: int, place_starts: dict[int, str]) -> str:
    """The place at token ``j``, or the venue it owns: "Glendale's State Farm Stadium" -> the stadium."""
    key = place_starts[j]
    k = j + 1
    while k < sent_end and is_cap(doc[k]) and k not in place_starts:
        k += 1
    if k + 1 < sent_end and doc[k].lower_ in ("'s", "’s") and k + 1 in place_starts:
        return place_starts[k + 1]
    return key


def _breaks_clause(token) -> bool:  # type: ignore[no-untyped-def]
    """A verb, pronoun or dash between an event and a date: the date belongs to another clause."""
    if token.is_punct:
        return not is_mark(token.text, ",\"“”‘’")
    return token.pos_ in labels("clause-break") and token.lemma_.lower() not in _GAP_VERBS


def date_after(
    doc: Doc, end: int, sent_end: int, stops: set[int], published: str | None, skip: frozenset[int] = frozenset()
) -> When | None:
    """The first calendar DATE entity after token ``end`` in its clause, as a ``When``.

    Entities starting on a token of ``skip`` (the year inside "the 2019 Zennies") are passed over,
    and its tokens (titles, names) do not break the clause.
    """
    for ent in doc.ents:
        if ent.start < end or ent.start >= sent_end or ent.start in skip:
            continue
        gap = doc[end : ent.start]
        # the date must belong to the event's clause: no verb, pronoun or dash in between
        if any(k in stops for k in range(end, ent.start)) or any(t.i not in skip and _breaks_clause(t) for t in gap):
            return None
        if ent.label_ in ("DATE", "TIME") and is_clause_date(ent):
            # "will headline ... in August": the next August, not the last
            span = TextSpan(ent.start_char, ent.end_char, ent.text)
            return parse_date(ent.text, published, span, future=is_future(ent.root))
    return None


def _place_index(doc: Doc) -> dict[int, str]:
    """Token index where each place mention starts -> place key."""
    starts: dict[int, str] = {}
    for place in doc._.places:
        for m in place.mentions:
            span = doc.char_span(m.start, m.end, alignment_mode="expand")
            if span is not None:
                starts[span.start] = place.key
    return starts


def _year_date(name: str, span: TextSpan) -> When | None:
    """A year inside the name ("the 2021 Lantern Awards") dates the event to that year."""
    for word in name.split():
        if len(word) == 4 and word.isdigit() and word[:2] in ("19", "20"):
            return parse_date(word, None, span)
    return None


def extract_events(doc: Doc) -> tuple[Event, ...]:
    """Named events in order of first mention, with location, date and parent event.

    Mentions with the same name (ignoring case and a leading "the") are one event.
    A generic part ("the opening night") becomes an event whose ``super_event`` is
    the named event it is "of", else the last named event before it.
    """
    # a title the works stage found ("the X actor") is no event, even if spaCy says so
    titled = {k for w in doc._.works for m in w.mentions for k in range(m.start, m.end)}
    mentions = [m for m in event_mentions(doc) if not titled.intersection(_chars(doc, m))]
    if not mentions:
        return ()
    place_starts = _place_index(doc)
    place_kinds = {p.key: p.kind for p in doc._.places}
    published = doc._.published
    mention_starts = {m.start for m in mentions}
    event_tokens = frozenset(k for m in mentions for k in range(m.start, m.end))
    order: list[str] = []
    data: dict[str, dict] = {}
    last_named: str | None = None
    dated: dict[str, str] = {}
    _, sent_ends = sentence_bounds(doc)
    for m in mentions:
        sent_end = sent_ends[m.start]
        stops = {k for k in mention_starts if k >= m.end}
        norm = _norm(m.name)
        # "the Zennies" after "the 2019 Zennies" is the same night
        norm = dated.get(norm, norm)
        # "the 2019 Zennies" and "the 2019 Zenny Awards": one show under two names
        if norm not in data and m.kind == "award":
            same = _same_award(norm, [n for n in order if data[n]["kind"] == "award"])
            # "the CMA Awards", then "the Country Music Association Awards": named in full
            if same is not None and len(_award_stem(norm)[1]) > len(_award_stem(same)[1]):
                data[same]["name"] = m.name
            norm = same or norm
        # "Glastonbury 2026", then "Glastonbury Festival": one festival, named without its year;
        # "the Super Bowl" and "Super Bowl LXI" one game, named with its number
        if norm not in data and m.kind != "award" and not m.generic:
            same = _same_edition(norm, [n for n in order if data[n]["kind"] == m.kind and not data[n]["generic"]])
            if same is not None and _prefer_name(m.kind, norm, same):
                data[same]["name"] = m.name
            norm = same or norm
        base = _undated(norm)
        if base != norm:
            dated.setdefault(base, norm)
        if norm not in data:
            order.append(norm)
            data[norm] = dict(name=m.name, kind=m.kind, mentions=[], location=None, date=None, super=None,
                              generic=m.generic)
        rec = data[norm]
        start_char, end_char = doc[m.start].idx, doc[m.end - 1].idx + len(doc[m.end - 1].text)
        rec["mentions"].append(TextSpan(start_char, end_char, doc[m.start : m.end].text))
        # a venue named later beats a town named first ("X in Denver" ... "X at the Summit Arena")
        if rec["location"] is None or place_kinds.get(rec["location"]) in TOWN_KINDS:
            found = _place_after(doc, m.end, sent_end, place_starts, stops) or _place_of_verb(doc, m, place_starts)
            if found is not None and (rec["location"] is None or place_kinds.get(found) not in TOWN_KINDS):
                rec["location"] = found
        if rec["date"] is None:
            rec["date"] = date_after(doc, m.end, sent_end, stops, published, event_tokens) or _date_of_verb(
                doc, m, published
            )
        if m.generic and rec["super"] is None:
            rec["super"] = _super_of(doc, m, mentions, sent_end) or _super_by_noun(doc, m, data, order) or last_named
        elif not m.generic:
            parent = _super_of(doc, m, mentions, sent_end)
            if parent and rec["super"] is None and parent != norm:
                rec["super"] = parent
            last_named = norm
    _place_from_later_clauses(doc, data, order, place_starts, event_tokens)
    # a location inside the name ("the Reno residency") when none is given after it
    for norm in order:
        rec = data[norm]
        if rec["location"] is None:
            for m in rec["mentions"]:
                span = doc.char_span(m.start, m.end, alignment_mode="expand")
                inner = [place_starts[k] for k in range(span.start, span.end) if k in place_starts] if span else []
                if inner:
                    rec["location"] = inner[-1]
                    break
        if rec["date"] is None:
            rec["date"] = next(filter(None, (_year_date(m.text, m) for m in rec["mentions"])), None)
    _place_at_dateline(doc, data, order)
    keys = {norm: f"event:{i}" for i, norm in enumerate(order, 1)}
    return tuple(
        Event(
            key=keys[norm],
            name=_part_name(data, norm),
            kind=data[norm]["kind"],
            location=data[norm]["location"],
            date=data[norm]["date"],
            super_event=keys.get(data[norm]["super"]) if data[norm]["super"] else None,
            mentions=tuple(data[norm]["mentions"]),
        )
        for norm in order
    )


def _place_at_dateline(doc: Doc, data: dict[str, dict], order: list[str]) -> None:
    """ "DENVER (AP) — X won at the Y Awards on Sunday": an event the dateline's sentence
    says took place, placed nowhere else, was in the dateline's city (not one it says will)."""
    found = dateline_city(doc)
    if found is None:
        return
    city, sent = found
    for norm in order:
        rec = data[norm]
        if rec["location"] is not None or rec["generic"]:
            continue
        for m in rec["mentions"]:
            span = doc.char_span(m.start, m.end, alignment_mode="expand")
            if span is None or not sent.start <= span.start < sent.end:
                continue
            if told_as_past(governing_verb(span.root)):
                rec["location"] = city
                break


def told_as_past(verb: Token) -> bool:
    """ "won", "was held", "has played": a verb that tells what happened, not what will."""
    return verb.tag_ == "VBD" or any(c.dep_ in ("aux", "auxpass") and c.tag_ == "VBD" for c in verb.children) or (
        verb.tag_ == "VBN" and any(c.dep_ in ("aux", "auxpass") for c in verb.children))


def referred_event(doc: Doc, token: Token) -> str | None:
    """The event a bare noun stands for: "the festival", "the three-day event", "last year's festival".

    It is the last event of the noun's kinds named before it (parts of events left out); the
    noun must be definite (an article, a demonstrative or a possessor), not "a festival".
    """
    kinds = BACK_NOUNS.get(token.lower_)
    if kinds is None or token.pos_ != "NOUN" or not any(
        c.dep_ == "poss" or c.lower_ in function_words("definite") for c in token.children
    ):
        return None
    before = [e for e in doc._.events if e.super_event is None and e.mentions[0].start < token.idx
              and (not kinds or e.kind in kinds)]
    return before[-1].key if before else None


def _part_name(data: dict[str, dict], norm: str) -> str:
    """An event's name; a generic part is named after the event it is part of ("X Festival opening night").

    "opening night" alone would name a different night in every article of a corpus.
    """
    rec = data[norm]
    parent = data.get(rec["super"]) if rec["generic"] and rec["super"] else None
    return f'{parent["name"]} {rec["name"]}' if parent else rec["name"]


def _place_from_later_clauses(
    doc: Doc, data: dict[str, dict], order: list[str], place_starts: dict[int, str], event_tokens: frozenset[int]
) -> None:
    """Locate events from clauses that do not follow their name.

    "X won at the Y Awards on Sunday, taking home three prizes at V" places the Awards at V;
    failing that, "The festival returns to V in August" places the last festival named before
    it, unless the clause speaks of another edition ("The gala will be held at W next year").
    """
    venues = {p.key for p in doc._.places if p.kind not in TOWN_KINDS and p.kind != "place"}
    for norm in order:
        rec = data[norm]
        # none yet, or only a town: a venue of the clause is more exact
        open_ = rec["location"] is None or rec["location"] not in venues
        for m in rec["mentions"] if open_ and not rec["generic"] else ():
            span = doc.char_span(m.start, m.end, alignment_mode="expand")
            venue = _clause_venue(doc, span, place_starts, venues) if span is not None else None
            if venue is not None:
                rec["location"] = venue
                break
    for match in _BACK_REFERENCE_RE.finditer(doc_text(doc)):
        noun = doc.char_span(match.start(1), match.end(1))
        if noun is None or noun.start in event_tokens:
            continue
        verb = _own_verb(noun[0])
        kinds = BACK_NOUNS[noun.text.lower()]
        earlier = [n for n in order if not data[n]["generic"] and data[n]["mentions"][0].start < noun.start_char
                   and (not kinds or data[n]["kind"] in kinds)]
        if verb is not None and earlier and data[earlier[-1]]["location"] is None \
                and not _another_edition(verb, data[earlier[-1]]["date"], doc._.published):
            rec = data[earlier[-1]]
            rec["location"] = _verb_place(doc, verb, place_starts)
            # "The final will be played at V on May 18": its date too, when it had none
            rec["date"] = rec["date"] or _verb_date(doc, verb, doc._.published)


def _another_edition(verb: Token, date: When | None, published: str | None) -> bool:
    """Whether a clause about a recurring event dates another edition: "next year", "last year",
    or a year that is not the event's."""
    for tok in verb.subtree:
        if tok.ent_type_ != "DATE" or tok.ent_iob_ != "B":
            continue
        ent = next(e for e in tok.doc.ents if e.start == tok.i)
        if any(w in ent.text.lower() for w in RELATIVE_YEARS) and date is not None:
            return True
        when = parse_date(ent.text, published)
        if when.value and date is not None and date.value and when.value[:4] != date.value[:4]:
            return True
    return False


def _clause_venue(doc: Doc, span: Span, place_starts: dict[int, str], venues: set[str]) -> str | None:
    """A venue "at" which the event's own clause, or a participle of it, happens.

    "Fans braved the rain at V on Saturday for the opening day of X"; "Y won at X on Sunday,
    taking home three prizes at V". A venue of another clause ("Y, who played at V, will
    headline X") is not the event's.
    """
    clause = governing_verb(span.root)
    starts, ends = sentence_bounds(doc)
    for k in range(starts[span.start], ends[span.start]):
        if place_starts.get(k) not in venues or span.start <= k < span.end:
            continue
        prep = k - 1
        while prep > starts[span.start] and doc[prep].pos_ == "DET":
            prep -= 1
        verb = governing_verb(doc[prep])
        participle = verb.tag_ == "VBG" and verb.dep_ in labels("participle-link") and verb.head.i == clause.i
        if doc[prep].lower_ == "at" and (verb.i == clause.i or participle) and not _in_other_happening(doc[prep], verb):
            return place_starts[k]
    return None


def _in_other_happening(token: Token, verb: Token) -> bool:
    """Whether ``token`` sits in an "after ..."/"before ..." phrase of ``verb``: "reached the final
    after a win at V" puts the win at V, not the final."""
    cur = token
    while cur.i != verb.i and cur.head.i != cur.i:
        if cur.lower_ in _OTHER_TIME_PREPS:
            return True
        cur = cur.head
    return False


def _super_of(doc: Doc, m: EventMention, mentions: list[EventMention], sent_end: int) -> str | None:
    """The named event this one is part of: "the opening night of X", "a set at X", "... during X"."""
    i = m.end
    if i < sent_end and doc[i].lower_ in _SUPER_PREPS:
        j = i + 1
        # "of the X", "of their X"
        while j < sent_end and (doc[j].pos_ == "DET" or doc[j].tag_ == "PRP$"):
            j += 1
        for other in mentions:
            if other.start == j and not other.generic:
                return _norm(other.name)
    return None


def _super_by_noun(doc: Doc, m: EventMention, data: dict[str, dict], order: list[str]) -> str | None:
    """The event a generic part is "of" when a bare noun names it: "the second night of last year's festival"."""
    if m.end >= len(doc) or doc[m.end].lower_ != "of":
        return None
    noun = next((c for c in doc[m.end].children if c.dep_ == "pobj"), None)
    kinds = BACK_NOUNS.get(noun.lower_) if noun is not None else None
    if kinds is None:
        return None
    before = [n for n in order if not data[n]["generic"] and (not kinds or data[n]["kind"] in kinds)]
    return before[-1] if before else None
