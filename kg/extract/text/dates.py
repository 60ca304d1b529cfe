"""Dates as written in news text, normalised to ISO 8601 at the precision the text supports.

News writes dates relative to the day it is published ("on Monday", "last night",
"in September"), so a date is resolved against the article's publication date when
there is one, and left unresolved (``value=None``) rather than guessed when there is not.
"""

from __future__ import annotations

import re
from datetime import date, timedelta

from spacy.tokens import Token

from kg.extract.model import TextSpan, When
from kg.extract.text.lexicon import function_words, labels, table, words

#: Month names and abbreviations -> month number; weekday names -> number (Monday 0).
MONTHS: dict[str, int] = {name: int(number) for name, number in table("months").items()}
WEEKDAYS: dict[str, int] = {name: int(number) for name, number in table("weekdays").items()}
#: Words relative to the publication day, with their offset in days.
_RELATIVE_DAYS = {phrase: int(offset) for phrase, offset in table("relative_days").items()}
RELATIVE_YEARS = {phrase: int(offset) for phrase, offset in table("relative_years").items()}
#: Months relative to the publication month, with their offset in months.
_RELATIVE_MONTHS = {phrase: int(offset) for phrase, offset in table("relative_months").items()}
#: Auxiliaries and phrases that put a clause in the future ("will headline", "is set to play").
FUTURE_MARKERS = function_words("future")
#: Present-tense tags: news tells a dated event in the present only when it is scheduled.
_PRESENT = labels("present")
_MONTH_RE = "|".join(sorted(MONTHS, key=len, reverse=True))
_ISO = re.compile(r"\b(\d{4})-(\d{2})(?:-(\d{2}))?\b")
_YEAR = re.compile(r"\b(1[6-9]\d\d|20\d\d)\b")
_DAY = re.compile(r"\b([0-3]?\d)(?:st|nd|rd|th)?\b")
_MONTH = re.compile(rf"\b({_MONTH_RE})\.?\b", re.IGNORECASE)
_WEEKDAY = re.compile(r"\b(" + "|".join(WEEKDAYS) + r")\b", re.IGNORECASE)


def _published(published: str | None) -> date | None:
    """The publication date as a ``date``, or None when absent or malformed."""
    if not published:
        return None
    m = _ISO.match(published.strip())
    if not m:
        return None
    try:
        return date(int(m.group(1)), int(m.group(2)), int(m.group(3) or 1))
    except ValueError:
        return None


def _day_in(text: str) -> int | None:
    """The day of the month in ``text`` (a number of 1-31 not part of a year), if any."""
    for m in _DAY.finditer(text):
        if _YEAR.fullmatch(m.group(1)):
            continue
        day = int(m.group(1))
        if 1 <= day <= 31:
            return day
    return None


def _iso(year: int, month: int | None = None, day: int | None = None) -> str:
    """ISO 8601 at the precision given: YYYY, YYYY-MM or YYYY-MM-DD."""
    if month is None:
        return f"{year:04d}"
    if day is None:
        return f"{year:04d}-{month:02d}"
    return f"{year:04d}-{month:02d}-{day:02d}"


def _valid(year: int, month: int, day: int) -> bool:
    """Whether the day exists ("February 30" does not)."""
    try:
        date(year, month, day)
    except ValueError:
        return False
    return True


def parse_date(
    text: str, published: str | None = None, span: TextSpan | None = None, *, future: bool = False
) -> When:
    """Normalise a date phrase such as "April 2022", "on Monday" or "in September".

    Args:
        text: the date as written (kept verbatim in ``When.text``).
        published: ISO date of the article, used to resolve dates that lack a year.
        span: where the text sits in the article, when known.
        future: the clause speaks of what is to come ("will headline ... in August"): a month
            or weekday without a year is then the next one on or after publication.

    Returns:
        A ``When`` whose value is ``YYYY-MM-DD``, ``YYYY-MM`` or ``YYYY``, or None when the
        text names no resolvable date. A month without a year is the most recent such month
        not after publication; a weekday the most recent such day not after publication
        (news reports what happened), unless ``future`` says otherwise.

    >>> parse_date("April 2022").value
    '2022-04'
    >>> parse_date("in September", "2023-03-14").value
    '2022-09'
    >>> parse_date("on Monday", "2023-03-15").value
    '2023-03-13'
    >>> parse_date("in September").value is None
    True
    >>> parse_date("in August", "2023-03-14", future=True).value, parse_date("next month", "2023-12-02").value
    ('2023-08', '2024-01')
    """
    low = text.lower().strip()
    pub = _published(published)
    iso = _ISO.search(low)
    # already ISO: keep it
    if iso:
        day = int(iso.group(3)) if iso.group(3) else None
        return When(text, _iso(int(iso.group(1)), int(iso.group(2)), day), span)
    year_m = _YEAR.search(low)
    month_m = _MONTH.search(low)
    if month_m:
        return _month_date(text, low, month_m, year_m, pub, span, future)
    # a bare year ("in 2011", "summer 2019")
    if year_m:
        return When(text, _iso(int(year_m.group(1))), span)
    if pub is None:
        return When(text, None, span)
    return _relative_date(text, low, pub, span, future)


def _month_date(
    text: str,
    low: str,
    month_m: re.Match[str],
    year_m: re.Match[str] | None,
    pub: date | None,
    span: TextSpan | None,
    future: bool,
) -> When:
    """A date that names its month, with the year given or taken from publication."""
    month = MONTHS[month_m.group(1).lower()]
    rest = low[: month_m.start()] + " " + low[month_m.end() :]
    day = _day_in(_YEAR.sub(" ", rest))
    if year_m:
        year = int(year_m.group(1))
    elif pub is not None and future:
        # "will play in August": its nearest occurrence not before publication
        year = pub.year if (month, day or 31) >= (pub.month, pub.day) else pub.year + 1
    elif pub is not None:
        # month without a year: its nearest occurrence not after publication
        year = pub.year if (month, day or 1) <= (pub.month, pub.day if day else 1) else pub.year - 1
    else:
        return When(text, None, span)
    if day is not None and _valid(year, month, day):
        return When(text, _iso(year, month, day), span)
    return When(text, _iso(year, month), span)


def _relative_date(text: str, low: str, pub: date, span: TextSpan | None, future: bool) -> When:
    """A date told relative to publication: a day, year or month offset, or a weekday."""
    # yesterday, last night, today...
    for phrase, offset in _RELATIVE_DAYS.items():
        if phrase in low:
            return When(text, (pub + timedelta(days=offset)).isoformat(), span)
    # this year, last year
    for phrase, offset in RELATIVE_YEARS.items():
        if phrase in low:
            return When(text, _iso(pub.year + offset), span)
    # this month, next month
    for phrase, offset in _RELATIVE_MONTHS.items():
        if phrase in low:
            months = pub.year * 12 + pub.month - 1 + offset
            return When(text, _iso(months // 12, months % 12 + 1), span)
    weekday_m = _WEEKDAY.search(low)
    # "will perform on Friday", "next Friday": the next such day on or after publication
    if weekday_m and (future or "next" in low):
        ahead = (WEEKDAYS[weekday_m.group(1).lower()] - pub.weekday()) % 7
        return When(text, (pub + timedelta(days=ahead or 7 if "next" in low else ahead)).isoformat(), span)
    # a weekday: the most recent one on or before publication ("last Friday" too)
    if weekday_m:
        back = (pub.weekday() - WEEKDAYS[weekday_m.group(1).lower()]) % 7
        if back == 0 and "last" in low:
            back = 7
        return When(text, (pub - timedelta(days=back)).isoformat(), span)
    return When(text, None, span)


def is_future(token) -> bool:  # type: ignore[no-untyped-def]
    """Whether the clause a date token sits in speaks of the future: "will close the stage on Saturday".

    The date's governing verb (climbing prepositions and noun phrases) carries "will"/"'ll",
    or is "set to"/"due to"/"scheduled to" ... it, or the date is "next ...".
    """
    cur = token
    for _ in range(6):
        if cur.pos_ in ("VERB", "AUX"):
            if any(c.lower_ in FUTURE_MARKERS for c in cur.children if c.dep_ == "aux"):
                return True
            # "the festival returns in July", "is held in May", "are playing on Friday": a schedule
            if cur.tag_ in _PRESENT or any(c.tag_ in _PRESENT for c in cur.children if c.dep_ in ("aux", "auxpass")):
                return True
            head = cur.head
            # "is set to play", "are due to perform", "will return to headline"
            if cur.dep_ == "xcomp" and head.i != cur.i and (
                head.lower_ in function_words("schedule")
                or any(c.lower_ in FUTURE_MARKERS for c in head.children if c.dep_ == "aux")
            ):
                return True
            if cur.dep_ not in ("conj", "advcl"):
                return False
        if cur.head.i == cur.i:
            return False
        cur = cur.head
    return False


#: Auxiliaries of a clause that tells of nothing that took place ("will", "would", "could").
_UNREAL = function_words("unreal")


def unreal(verb) -> bool:  # type: ignore[no-untyped-def]
    """Whether a verb tells of something that has not taken place: a future, a wish, a denial or
    a schedule ("will play", "would sing", "did not perform", "never played", "is set to open")."""
    for child in verb.children:
        if child.dep_ == "neg" or child.lower_ == "never":
            return True
        if child.dep_ in ("aux", "auxpass") and child.lower_ in _UNREAL:
            return True
    return verb.dep_ == "xcomp" and verb.head.lower_ in function_words("schedule")


def is_date_text(text: str) -> bool:
    """Whether a phrase names a calendar date (a month, weekday, year or relative day).

    Filters spaCy's DATE entities, which also cover ages ("37") and durations ("13 years").

    >>> is_date_text("August 2023"), is_date_text("37"), is_date_text("last night")
    (True, False, True)
    """
    low = text.lower()
    if re.search(r"\b(years?|months?|weeks?|days?|decades?)\s+(old|long|ago)\b", low) or low.endswith("-year-old"):
        return False
    return bool(
        _MONTH.search(low)
        or _WEEKDAY.search(low)
        or _YEAR.search(low)
        or any(p in low for p in _RELATIVE_DAYS)
        or any(p in low for p in RELATIVE_YEARS)
        or any(p in low for p in _RELATIVE_MONTHS)
    )


def is_event_day(ent) -> bool:  # type: ignore[no-untyped-def]
    """ "on the Saturday" of a festival: a weekday of the event, not one near publication."""
    doc = ent.doc
    return bool(_WEEKDAY.fullmatch(ent.text.strip())) and ent.start > 0 and doc[ent.start - 1].lower_ == "the"


#: Nouns a year before which dates an occasion, not a thing.
_OCCASION_NOUNS = words("occasion_nouns")


def is_clause_date(ent) -> bool:  # type: ignore[no-untyped-def]
    """A DATE entity that dates its clause: not "on the Saturday" of a festival (:func:`is_event_day`),
    nor a year that dates a thing ("their 2024 collaboration", "her 2011 hit")."""
    root = ent.root
    # ("its 2024 edition", "the 2023 tour" date the happening itself)
    modifies = ent.text.isdigit() and root.dep_ in labels("number-modifier") \
        and root.head.pos_ in ("NOUN", "PROPN") and root.head.lower_ not in _OCCASION_NOUNS
    return is_date_text(ent.text) and not is_event_day(ent) and not modifies \
        and not (len(ent) == 1 and describes_a_thing(ent[0]))


def describes_a_thing(year: Token) -> bool:
    """ "the 1991 hit", "her 2013 single": a year after a determiner, before a word, describes what
    follows it, whatever the parser made of that word (a verb, for "hit"); an occasion so dated
    ("the 2023 tour") is left to the event's own name."""
    doc = year.doc
    if not year.text.isdigit() or year.i == 0 or year.i + 1 >= len(doc):
        return False
    before, after = doc[year.i - 1], doc[year.i + 1]
    return before.tag_ in ("DT", "PRP$") and after.is_alpha and after.is_lower and after.lower_ not in _OCCASION_NOUNS


def told_as_past(verb: Token) -> bool:
    """ "won", "was held", "has played": a verb that tells what happened, not what will."""
    return verb.tag_ == "VBD" or any(c.dep_ in ("aux", "auxpass") and c.tag_ == "VBD" for c in verb.children) or (
        verb.tag_ == "VBN" and any(c.dep_ in ("aux", "auxpass") for c in verb.children))
