"""The dateline a wire story opens its body with: "YORK, June 3, 2025 —", "YORK, June 3 (Reuters) -",
"NASHVILLE, Tenn. (AP) —", "YORK, England, June 3 (Reuters) -", "Mumbai:", "TORONTO" on a line of its own.

A dateline says where the reporter filed from (the story's town) and, in most forms, the day.
Its words are no one's name: the model often tags its town an organisation and makes it the
subject of the first clause ("YORK (AP) — The X played ..."). It is read from the tokens only,
so the places stage (which adds a town the model missed), the people stage (which drops the
dateline's words) and the scene (which takes its town and day) all read the same dateline.
"""

from __future__ import annotations

from dataclasses import dataclass

from spacy.tokens import Doc, Token

from kg.extract.text.dates import MONTHS
from kg.extract.text.doc_index import DATELINE_SENTENCES
from kg.extract.text.gazetteer import is_given_name, place_kind
from kg.extract.text.lexicon import words
from kg.extract.text.marks import is_dash

#: Labels a top line shouts before a dash ("BREAKING —", "EXCLUSIVE:"): no town.
_KICKERS = words("kicker_words")
#: Most words of a town's name in a dateline ("NEW YORK", "Rio de Janeiro" is not a dateline's form).
_TOWN_WORDS = 3
#: Most words of an agency's name in brackets ("(AP)", "(Agence France-Presse)").
_AGENCY_WORDS = 4
#: Most places a town is said to lie in (", Tenn.", ", England").
_REGIONS = 2
#: How far into the text (in characters) a line may still open with the dateline.
_TOP_CHARS = 400


@dataclass(frozen=True)
class Dateline:
    """A dateline's tokens: the town ``start:town_end``, the day printed ``date`` (a token range, or
    None), and ``end``, the first token after its closing dash or colon."""

    start: int
    town_end: int
    end: int
    date: tuple[int, int] | None = None


def find_dateline(doc: Doc) -> Dateline | None:
    """The dateline at the start of one of the article's top lines (after a headline, a byline,
    an "Updated ..." stamp), if there is one."""
    for i in _line_starts(doc):
        found = _dateline_at(doc, i)
        if found is not None:
            return found
    return None


def printed_day(doc: Doc, line: Dateline | None) -> str | None:
    """The day, as ``YYYY-MM-DD``, of a dateline that prints its year ("YORK, June 3, 2025 —"): the
    day an article without a publication date was filed, which dates its "on Saturday"."""
    if line is None or line.date is None or line.date[1] - line.date[0] < 4:
        return None
    month, day, year = (doc[k].text for k in (line.date[0], line.date[0] + 1, line.date[1] - 1))
    return f"{year}-{MONTHS[month.lower().rstrip('.')]:02d}-{int(day):02d}"


def _line_starts(doc: Doc) -> list[int]:
    """Where a dateline may start: the first word of a top sentence or of a top line (the parser
    does not always end a sentence at a line break: "Updated June 5\\nYORK, June 3 —")."""
    sents = list(doc.sents)[: DATELINE_SENTENCES + 1]
    if not sents:
        return []
    starts = {s.start for s in sents}
    # (and any line of the top: a headline, a byline, an agency, a day and a caption may come first)
    starts |= {t.i + 1 for t in doc if t.is_space and "\n" in t.text and (t.i < sents[-1].end or t.idx < _TOP_CHARS)}
    return sorted(i for i in starts if i < len(doc) and not doc[i].is_space)


def _dateline_at(doc: Doc, i: int) -> Dateline | None:
    """The dateline whose town starts at token ``i``: a town, places it lies in, a day, an agency,
    then a spaced dash or a colon. A town in title case ("York, June 3 —") needs a day or an
    agency to be told from a name opening a sentence; a colon ("Mumbai:") needs a town the
    gazetteer knows, as a headline's speaker ("Rivera: I nearly quit") is none."""
    town_end = _town_end(doc, i)
    if town_end is None:
        return None
    j, regions = town_end, 0
    while regions < _REGIONS and _comma_then(doc, j) and _month(doc, j + 1) is None:
        end = _name_end(doc, j + 1, _TOWN_WORDS)
        if end is None:
            break
        j, regions = end, regions + 1
    date = _date_at(doc, j + 1 if _comma_then(doc, j) else j)
    j = date[1] if date is not None else j
    agency = _agency_end(doc, j)
    j = agency if agency is not None else j
    if j >= len(doc):
        return None
    shouted = all(t.is_upper for t in doc[i:town_end] if t.is_alpha)
    if is_dash(doc[j].text) and doc[j - 1].whitespace_ and (shouted or date or agency):
        return Dateline(i, town_end, j + 1, date)
    town = not regions and place_kind(doc[i:town_end].text) == "city"
    if doc[j].text == ":" and town and not _in_longer_name(doc, i, town_end):
        return Dateline(i, town_end, j + 1, date)
    if shouted and town and doc[j].is_space and "\n" in doc[j].text:
        # "TORONTO" on a line of its own above the story
        return Dateline(i, town_end, j + 1, date)
    return None


def _in_longer_name(doc: Doc, start: int, end: int) -> bool:
    """Whether the words ``start:end`` stand elsewhere at the end of a longer name ("Rivera: I
    nearly quit" above "Ana Rivera said"): a surname, not a town."""
    text = doc[start:end].text.lower()
    n = end - start
    return any(doc[k : k + n].text.lower() == text and k > 0 and doc[k - 1].is_title and not doc[k - 1].is_sent_start
               for k in range(len(doc) - n + 1) if k != start)


def _town_end(doc: Doc, i: int) -> int | None:
    """The end of a town's name starting at ``i``: words all in capitals ("NEW YORK", "ST. LOUIS")
    or all in title case ("York")."""
    end = _name_end(doc, i, _TOWN_WORDS)
    if end is None or _month(doc, i) is not None:
        return None
    names = [t for t in doc[i:end] if t.is_alpha]
    if any(t.lower_ in _KICKERS for t in names):
        return None
    if all(t.is_upper for t in names):
        return end
    # ("Ana Rivera, June 3 —" is a name before a date, not a town)
    return end if all(t.is_title for t in names) and not is_given_name(names[0].text) else None


def _name_end(doc: Doc, i: int, most: int) -> int | None:
    """The end of a run of at most ``most`` capitalised words from ``i`` ("Tenn.", "ST . LOUIS")."""
    j = i
    while j < len(doc) and j - i < most + 2:
        token = doc[j]
        if _capitalised(token):
            j += 1
        elif token.text == "." and j > i and not doc[j - 1].whitespace_:
            j += 1
        else:
            break
    words = sum(1 for t in doc[i:j] if t.text != ".")
    return j if 0 < words <= most else None


def _capitalised(token: Token) -> bool:
    """A word of a name: "YORK", "York", "Tenn.", "N.C."."""
    text = token.text.rstrip(".")
    return bool(text) and text[0].isupper() and text.replace(".", "").replace("-", "").isalpha()


def _comma_then(doc: Doc, j: int) -> bool:
    return j + 1 < len(doc) and doc[j].text == ","


def _month(doc: Doc, j: int) -> int | None:
    """The month a token names ("June", "Sept."), if it does."""
    return MONTHS.get(doc[j].lower_.rstrip(".")) if j < len(doc) else None


def _date_at(doc: Doc, j: int) -> tuple[int, int] | None:
    """The day printed from token ``j``: "June 3", "June 3, 2025", "Sept. 3"."""
    if _month(doc, j) is None or j + 1 >= len(doc) or not _day(doc[j + 1]):
        return None
    end = j + 2
    if end + 1 < len(doc) and doc[end].text == "," and _year(doc[end + 1]):
        end += 2
    return j, end


def _day(token: Token) -> bool:
    return token.text.isdigit() and 1 <= int(token.text) <= 31


def _year(token: Token) -> bool:
    return len(token.text) == 4 and token.text.isdigit() and token.text[:2] in ("19", "20")


def _agency_end(doc: Doc, j: int) -> int | None:
    """The end of a wire agency's name in brackets from ``j``: "(AP)", "(Reuters)"."""
    if j >= len(doc) or doc[j].text != "(":
        return None
    end = _name_end(doc, j + 1, _AGENCY_WORDS)
    return end + 1 if end is not None and end < len(doc) and doc[end].text == ")" else None
