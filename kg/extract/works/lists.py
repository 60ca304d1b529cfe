"""Song titles where a report of a show puts them: in the slots a setlist fills.

Reviews name songs without quotation marks as often as with them ("sang Whoops", "opened
his set with Know Me From and Cold", "a rendition of X's Y", "hits like A, B and C",
"ranging from A to B and C", "Another standout was Y", "we were treated to A and B",
"renditions of A by X and B by Y", "his take on Z", "the show began with 'c'"). A title is
read at such a slot as a run of capitalised words (small words inside it, a number first:
"7 Worlds Collide"), past the words that describe it ("her 2004 classic, X", "Y's party
anthem Z") and up to a credit ("by X"), and a run holding a list is cut into its titles. In a
list after a cue noun a title may be in sentence case ("hits like Come down, Got love"), and a
setlist printed one title to a line under its heading is read line by line. The slots are
lexicon data: the verbs of performing (``performance_verbs.txt``), the verbs and objects of a
set's course (``set_course.txt``), the nouns a title is a rendition of (``rendition_nouns.txt``),
the cue nouns of songs (``work_cues.txt``), the parts of a show (``show_parts.txt``), setlist
headings (``setlist_heads.txt``) and the words that open a list (``function_words.txt``, tag
``list-opener``).
"""

from __future__ import annotations

from collections.abc import Iterator

from spacy.tokens import Doc, Span, Token

from kg.extract.text.doc_index import (
    doc_text,
    doc_tokens,
    is_spaced_dash,
    sentence_bounds,
    token_words,
)
from kg.extract.text.gazetteer import is_given_name
from kg.extract.text.lexicon import function_words, kinds, labels, tagged, words
from kg.extract.text.marks import (
    OPENING_MARKS,
    MarkedSpan,
    find_marked_spans,
    is_mark,
    text_lines,
)

#: Verbs whose object, or whose "with"/"on"/"into"/"for" object, may be a song's title.
_VERBS = tagged("performance_verbs", "song") | tagged("performance_verbs", "sure")
#: Verbs whose unquoted object is a piece of music: what is sung or performed is music.
_SUNG = tagged("performance_verbs", "voice") | tagged("performance_verbs", "sure")
#: Prepositions after such a verb that bring in what was played ("opened with", "duet on").
_PREPS = function_words("title-prep")
#: Nouns a title is a rendition of ("a rendition of X", "her version of Y").
_RENDITIONS = tagged("rendition_nouns", "performance") | tagged("rendition_nouns", "work")
#: Nouns a title is a rendition "on" ("his take on X").
_TAKES = tagged("rendition_nouns", "on")
#: Cue nouns of songs ("hits like", "the single", "his popular numbers").
_SONG_CUES = frozenset(noun for noun, kind in kinds("work_cues").items() if kind == "song")
#: Verbs of a set's course, whose "with" brings in a song ("opened with A", "closed with B").
_ROUTE_VERBS = words("route_verbs")
#: Verbs of a set's course told through its object ("ended the night with X"), and those objects.
_COURSE_VERBS = tagged("set_course", "verb")
_COURSE_OBJECTS = tagged("set_course", "object")
#: Verbs whose own "with" brings in the next song of a set ("followed with X", "returned with Y").
_NEXT_VERBS = tagged("set_course", "with")
#: Parts of a show a copula or a comma names with a song ("the encore was X", "For the finale, X").
_SHOW_PARTS = words("show_parts")
#: Words that open a list of titles after a cue noun ("like", "including", "such as").
_OPENERS = function_words("list-opener")
#: Small words that may sit inside a title ("Lift Every Voice and Sing", "Know Me From").
_SMALL = function_words("title-small") | function_words("title-filler")
#: Small words no title ends with ("the", "of", "and"; a title may end in "You" or "Me").
_EDGE_SMALL = function_words("title-small")
#: Words that join the titles of a list.
#: The possessive endings ("'s", "’s").
_GENITIVE = function_words("genitive")
_JOINERS = function_words("list-joiner") | {"to", "then"}
#: Entity labels of a one-word name that is someone or somewhere rather than a title ("joined Rivera").
_NAMES = labels("name-like")
#: Marks of a catalogue number that belongs to the title before it ("Op. 12", "No. 2").
CATALOGUE_MARKS = words("catalogue_marks")
#: Longest title read without quotation marks, in words.
_MAX_WORDS = 8
#: Headings of a setlist printed one title to a line ("Set list", "Encore").
_SETLIST_HEADS = words("setlist_heads")
#: Longest aside in brackets after a title, in tokens: "(2002)", "(Chor Nikal Ke Bhaga, 2023)".
_MAX_ASIDE = 10
#: Longest title in sentence case read in a list ("Freak of the week").
_MAX_PLAIN = 5
#: Objects that leave an "on" after them naming the song: an instrument, a part of the song, a
#: rendition ("played bass on C", "traded verses on D", "did a duet on E").
_PLAYED_WITH = words("instruments") | words("song_parts") | tagged("rendition_nouns", "performance")
#: Tags of a finite verb: a name right before one is its subject ("and Tom Reyes came out").
_FINITE = labels("finite")


def music_titles(doc: Doc) -> list[Span]:
    """Every title read at a setlist slot or printed under a setlist heading, in text order, each once."""
    found: dict[tuple[int, int], Span] = {}
    _, ends = sentence_bounds(doc)
    for i, single, direct, plain in _slots(doc):
        if i < len(doc):
            for span in _titles_at(doc, i, ends[i], single, direct, plain):
                found.setdefault((span.start, span.end), span)
    for span in _printed_setlist(doc):
        found.setdefault((span.start, span.end), span)
    return sorted(found.values(), key=lambda s: s.start)


def _printed_setlist(doc: Doc) -> list[Span]:
    """Titles printed one to a line under a setlist heading ("Set list", then "A", "B", ...), up to
    the first line that is no title (a sentence); a part's heading inside ("Encore") is passed over."""
    lines = _lines(doc)
    out: list[Span] = []
    for k, line in enumerate(lines):
        if not _setlist_heading(line):
            continue
        for after in lines[k + 1 :]:
            if _setlist_heading(after):
                continue
            title = _line_title(after)
            if title is None:
                break
            out.append(title)
    return out


def _lines(doc: Doc) -> list[Span]:
    """The article's lines, as token spans."""
    spans = (doc.char_span(start, end, alignment_mode="contract") for start, end in text_lines(doc_text(doc)))
    return [span for span in spans if span is not None and len(span)]


def _setlist_heading(line: Span) -> bool:
    """A line that is a setlist's heading: "Set list", "Setlist:", "Encore"."""
    words_in = [t.lower_ for t in line if not t.is_punct and t.lower_ != "the"]
    return 0 < len(words_in) <= 3 and " ".join(words_in) in _SETLIST_HEADS


def _line_title(line: Span) -> Span | None:
    """The title a line of a printed setlist holds ("La Paga", "3. Fijate Bien"), or None for a line
    that is a sentence or too long for a title."""
    start = line.start
    if len(line) > 1 and line[0].like_num and line[1].text in ".)":
        # a numbered line
        start += 2
    end = line.end
    while end > start and line.doc[end - 1].is_space:
        end -= 1
    span = line.doc[start:end]
    if not span or len(span) > 2 * _MAX_WORDS or span[-1].text == "." or not _title_word(span[0]):
        return None
    return span


def _slots(doc: Doc) -> Iterator[tuple[int, bool, bool, bool]]:
    """Token indices at which a title may start, each with whether the slot holds one title only,
    whether it is a verb's direct object (where a person may stand as well: "joined X") and whether
    a list opener or a colon stands before it ("hits like", "four singles:"): such a list may hold
    titles written in sentence case ("hits like Come down, Got love and Social")."""
    for i, single, direct in _verb_and_noun_slots(doc):
        yield i, single, direct, i > 0 and (doc[i - 1].lower_ in _OPENERS | {"as", ":"} or is_spaced_dash(doc[i - 1]))


def _verb_and_noun_slots(doc: Doc) -> Iterator[tuple[int, bool, bool]]:
    """The slots of :func:`_slots`, without the sentence-case flag."""
    toks, words = doc_tokens(doc), token_words(doc)
    for tok, low, pos, lemma in zip(toks, words.lower, words.pos, words.lemma):
        if pos == "VERB" and (lemma in _ROUTE_VERBS or lemma in _COURSE_VERBS or lemma in _NEXT_VERBS) \
                and lemma not in _VERBS:
            # "the show began with A", "ended the night with B", "followed with C": a set's course, with
            # what it went through (after "returned with" a person may stand as well: "with Tom Reyes")
            preps = _preps_of(tok) if lemma in _ROUTE_VERBS | _NEXT_VERBS or _course_objects(tok) else []
            yield from ((c.i + 1, False, False) for c in preps if c.lower_ == "with"
                        and not (lemma in _NEXT_VERBS and c.i + 1 < len(doc) and doc[c.i + 1].ent_type_ == "PERSON"))
        elif pos == "VERB" and lemma in _VERBS:
            # "sang Whoops", "belted Edith Piaf's ...", "opened his set with A", "duet on B" (after an object
            # "on" says where: "sang her single on The Late Show"; not after an instrument: "played bass on C")
            yield from ((c.i + 1, False, False) for c in _preps_of(tok) if c.lower_ in _PREPS
                        and (c.lower_ != "with" or lemma in _ROUTE_VERBS)
                        and (c.lower_ != "on" or not object_played(tok)))
            nxt = tok.i + 1
            while nxt < len(doc) and doc[nxt].dep_ == "prt":
                nxt += 1
            if nxt + 1 < len(doc) and doc[nxt].lower_ in _PREPS - {"with"} and doc[nxt].dep_ != "prep":
                # "treated to A, B and C", parsed as an infinitive ("to Open"): the words after it
                yield nxt + 1, False, False
            if lemma in _SUNG or nxt < len(doc) and is_mark(doc[nxt].text, OPENING_MARKS):
                # (an unquoted object of "played" is as often a part as a song: "played Hamlet")
                yield nxt, False, True
        elif low in ("of", "on") and tok.i > 0 and words.lemma[tok.i - 1] in (_RENDITIONS if low == "of" else _TAKES):
            # "a rendition of X", "his take on Z": one work; "renditions of X and Y": a list
            yield tok.i + 1, words.lemma[tok.i - 1] == words.lower[tok.i - 1], False
        elif (low in _SONG_CUES or lemma in _SONG_CUES) and (pos == "NOUN" or _noun_by_place(doc, tok.i)):
            # "the single X", "hits like A and B", "her hits, A and B"
            nxt = tok.i + 1
            # ("songs, including A", "hits such as B", "a set of tunes (A, B)", "the hits – A, B")
            while nxt < len(doc) and (doc[nxt].lower_ in _OPENERS or doc[nxt].text in ",:(" or is_spaced_dash(doc[nxt])):
                nxt += 1
            if nxt < len(doc) and doc[nxt].lower_ == "as" and doc[nxt - 1].lower_ == "such":
                nxt += 1
            yield nxt, False, False
        elif lemma == "be" and any(c.dep_ == "nsubj" and c.lower_ in _SHOW_PARTS | _SONG_CUES for c in tok.children):
            # "the encore was X", "the first song they played together was Y"
            yield tok.i + 1, False, False
        elif low in _SHOW_PARTS and tok.i + 1 < len(doc) and doc[tok.i + 1].text == ",":
            # "For the grand finale, X"
            yield tok.i + 2, False, False
        elif low == "from" and tok.head.lemma_.lower() == "range":
            # "ranging from A to B"
            yield tok.i + 1, False, False


def object_played(verb: Token) -> bool:
    """Whether a verb has a thing or a title in marks for its object, other than an instrument or a part
    of a song ("sang her single", "played 'A'"; not "played bass", "joined X"): an "on" after such
    an object says where it was played ("on The Late Show"), not what."""
    return any(c.dep_ == "dobj" and c.lemma_.lower() not in _PLAYED_WITH and (c.pos_ == "NOUN" or _is_quoted(c.doc, c.doc[c.left_edge.i : c.i + 1]))
               for c in verb.children)


def _noun_by_place(doc: Doc, i: int) -> bool:
    """A cue word the tagger took for a verb that its place makes a noun: after a possessive ("Her
    hits like A") or before a word that opens a list ("hits like B")."""
    return i > 0 and doc[i - 1].tag_ in ("PRP$", "POS") or i + 1 < len(doc) and doc[i + 1].lower_ in _OPENERS


def _preps_of(verb: Token) -> list[Token]:
    """The prepositions of a verb, then those of its object when that is the show or the night
    ("began his set with A", "ended the night with B", where the parser hangs "with" on the noun)."""
    return [c for head in (verb, *_course_objects(verb)) for c in head.children if c.dep_ == "prep"]


def _course_objects(verb: Token) -> list[Token]:
    """The objects of a verb of a set's course that are the show or the night ("ended the night")."""
    if verb.lemma_.lower() not in _COURSE_VERBS:
        return []
    return [c for c in verb.children if c.dep_ == "dobj" and c.lemma_.lower() in _COURSE_OBJECTS]


def _titles_at(doc: Doc, i: int, sent_end: int, single: bool, direct: bool, plain: bool = False) -> list[Span]:
    """The titles of the list starting at token ``i``: "A", "A and B", "A, B and C", "A to B";
    with ``plain``, titles in sentence case too ("Come down, Got love and Social")."""
    out: list[Span] = []
    first, last = True, False
    i = _past_describers(doc, i, sent_end)
    while i < sent_end:
        # ("Tom Ade's classic hit X": the owner, then what describes the title)
        start = _past_describers(doc, _past_owner(doc, i, sent_end), sent_end)
        span = _quoted(doc, start, sent_end) or plain and _sentence_case(doc, start, sent_end, first) \
            or _run(doc, start, sent_end, dated=not plain)
        if span is None or direct and first and start == i and _someone(span) and _named_again(doc, span):
            # (a name right after the verb is who was joined or met: "joined Rivera onstage")
            break
        if last and not _is_quoted(doc, span) and (span.root.dep_ in ("nsubj", "nsubjpass") or (
                span.end < sent_end and doc[span.end].tag_ in _FINITE)):
            # "sang 'A' and Tom Reyes came out": a subject after "and" opens a clause, not a title (between
            # commas the parser's subject is a misread title: "A, Bend Down Low, C")
            break
        pieces = [span] if single or _is_quoted(doc, span) else _cut(doc, span)
        out.extend(t for t in pieces if not _an_owner_elsewhere(doc, t))
        # (the item after "and" is the last: "hits like A and B, had the crowd swaying")
        if single or last or len(pieces) > 1 and any(t.lower_ in ("and", "&") for t in span):
            break
        first = False
        j = _past_credit(doc, _past_aside(doc, span.end + (1 if _is_quoted(doc, span) else 0), sent_end), sent_end)
        # ", and, B", " & B", " to B", ", the ever-popular 'C'": the list goes on
        while j < sent_end and (doc[j].lower_ in _JOINERS or doc[j].text == ","):
            last = last or doc[j].lower_ in ("and", "&")
            j += 1
        k = j
        while k < min(sent_end, j + 3) and doc[k].is_lower and not is_mark(doc[k].text, OPENING_MARKS):
            k += 1
        if k > j and k < sent_end and is_mark(doc[k].text, OPENING_MARKS):
            j = k
        if j == span.end or j >= sent_end or not (_title_word(doc[j]) or is_mark(doc[j].text, OPENING_MARKS)
                                                   or plain and _sentence_case(doc, j, sent_end, False)):
            break
        i = j
    return out


def _sentence_case(doc: Doc, i: int, sent_end: int, first: bool) -> Span | None:
    """A title written in sentence case inside a list of titles ("Come down", "Freak of the week",
    even "wait for it" between two commas): the words from ``i`` to the next comma or "and", when a
    lower-case word is among them and the list goes on after it (or it ends the list after "and")."""
    j = i
    while j < sent_end and j - i < _MAX_PLAIN and doc[j].lower_ not in ("and", "&") and not _verb_after(doc, i, j) and (
            not doc[j].is_punct and not doc[j].is_space or _contraction(doc[j])
            or is_mark(doc[j].text, "-") and not doc[j - 1].whitespace_ and j > i):
        j += 1
    words_in = doc[i:j]
    if not words_in or not any(t.is_lower and not _possessive(t) for t in words_in) or words_in[-1].lower_ in _EDGE_SMALL:
        return None
    if not (_title_word(doc[i]) or not first and doc[i - 1].text == ","):
        # (a lower-case title only between the commas of a list that has begun)
        return None
    goes_on = j + 1 < sent_end and doc[j].text == "," and (_title_word(doc[j + 1]) or doc[j + 1].is_lower
                                                            and not first and doc[j + 1].lower_ not in _JOINERS)
    ends_list = not first and (j >= sent_end or doc[j].lower_ in ("and", "&") or doc[j].text in ".;")
    return words_in if goes_on or ends_list else None


def _verb_after(doc: Doc, i: int, j: int) -> bool:
    """A finite verb in lower case after a title's first word: the list has ended and its clause goes
    on ("A, B and Harbor Lights showed her range")."""
    return j > i and doc[j].is_lower and doc[j].tag_ in _FINITE


def _past_describers(doc: Doc, i: int, sent_end: int) -> int:
    """Past the words that describe a title before it: "the braggadocious X", "ballad Y", "his hit Z"."""
    j = i
    while j < sent_end and (doc[j].pos_ in ("DET", "ADJ") or doc[j].tag_ == "PRP$" or doc[j].lower_ in _SONG_CUES
                            or _year(doc[j]) or _before_cue(doc, j, sent_end)) and (doc[j].is_lower or _year(doc[j])):
        j += 1
    # "her 2004 classic, X", "his new single, Y": the title set off by a comma after the noun that
    # describes it
    k = j + 1 if j < sent_end and doc[j].pos_ == "NOUN" and doc[j].is_lower else j
    if i < j < k < sent_end - 1 and doc[k].text == ",":
        j = k + 1
    return j if j < sent_end and (_title_word(doc[j]) or is_mark(doc[j].text, OPENING_MARKS)) else i


def _before_cue(doc: Doc, j: int, sent_end: int) -> bool:
    """A noun before a song's cue noun ("classic hit", "party anthem", "love song")."""
    return doc[j].pos_ == "NOUN" and j + 1 < sent_end and doc[j + 1].lower_ in _SONG_CUES


def _year(token: Token) -> bool:
    """A year before a title ("the 1991 hit X")."""
    return token.like_num and len(token.text) == 4 and token.text.isdigit()


def _past_credit(doc: Doc, j: int, sent_end: int) -> int:
    """Past the credit after a title in a list: "A by Bonnie Raitt and B by Whitney Houston"."""
    if j + 1 < sent_end and doc[j].lower_ == "by" and _someone(doc[j + 1 : j + 2]):
        k = j + 1
        while k < sent_end and _title_word(doc[k]):
            k += 1
        return k
    return j


def _past_aside(doc: Doc, j: int, sent_end: int) -> int:
    """Past a short aside in brackets after a title: "A (2002) and B (2003)"."""
    if j < sent_end and doc[j].text == "(":
        close = next((k for k in range(j + 1, min(j + _MAX_ASIDE, sent_end)) if doc[k].text == ")"), None)
        if close is not None:
            return close + 1
    return j


def _quoted(doc: Doc, i: int, sent_end: int) -> Span | None:
    """A title in quotation marks opening at token ``i`` (whatever its case: "Hymne à l'amour",
    "[Expletive] Problem"), as the article's quotation-mark scanner paired them."""
    if i >= sent_end:
        return None
    marked = _marked(doc).get(doc[i].idx)
    if marked is None:
        return None
    span = doc.char_span(marked.start, marked.end, alignment_mode="contract")
    if span is None or len(span) > _MAX_WORDS or span.end > sent_end:
        return None
    if len(span[-1].text) > 1 and span[-1].text.endswith("."):
        # ("the classic 'A-B-C.'": a full stop glued to the last word is the sentence's; the
        # quoted title's own reading trims it)
        return None
    end = span.end - 1 if span[-1].text in ",." else span.end
    return doc[span.start : end] if end > span.start else None


def _marked(doc: Doc) -> dict[int, MarkedSpan]:
    """The article's pairs of quotation marks, by the offset of their opening mark."""
    return {m.open_at: m for m in find_marked_spans(doc_text(doc)) if m.close_at is not None}


def _is_quoted(doc: Doc, span: Span) -> bool:
    return span.start > 0 and is_mark(doc[span.start - 1].text, OPENING_MARKS)


def _past_owner(doc: Doc, i: int, sent_end: int) -> int:
    """Past a possessor before the title ("Jagjit Singh's X", "Coleman Hawkins' Y")."""
    j = i
    while j < sent_end and _title_word(doc[j]):
        j += 1
    if i < j < sent_end and _possessive(doc[j]) and j + 1 < sent_end:
        k = _past_describers(doc, j + 1, sent_end)
        # (a quoted title after the possessive, or a name's: "Nobody's Soldier" is a title's own)
        if is_mark(doc[k].text, OPENING_MARKS) or _title_word(doc[k]) and _owner_before(doc, j):
            return j + 1
    return i


def _run(doc: Doc, i: int, sent_end: int, dated: bool = True) -> Span | None:
    """The capitalised words from ``i`` on, small words between them kept ("Lift Every Voice and Sing");
    unless ``dated`` is off (in a list after "like", "such as"), a day or a time is no title."""
    j = i
    while j < sent_end and j - i < 3 * _MAX_WORDS:
        tok = doc[j]
        if _title_word(tok) or tok.like_num and (j > i or _lone_number(doc, j, sent_end) or _numbered_title(doc, j, sent_end)) \
                or _contraction(tok) and j > i and not _owner_at(doc, j, sent_end):
            j += 1
        elif tok.lower_ == "by" and j > i and j + 1 < sent_end and _someone(doc[j + 1 : j + 2]):
            # "I Can't Make You Love Me by Bonnie Raitt": the credit ends the title ("Stand by Me" goes on)
            break
        elif tok.lower_ in _SMALL and j > i and j + 1 < sent_end and _title_word(doc[j + 1]) \
                and doc[j + 1].ent_type_ not in ("DATE", "TIME"):
            # ("The Late Show on Monday": a day after a small word is the sentence's, not the title's)
            j += 1
        elif _possessive(tok) and j > i and not _owner_before(doc, j) and j + 1 < sent_end and _title_word(doc[j + 1]):
            # "Nobody's Soldier": a possessive after words that name no one is the title's own
            j += 1
        elif tok.lower_ in _SMALL and j > i and j + 2 < sent_end and doc[j + 1].lower_ in _EDGE_SMALL \
                and _title_word(doc[j + 2]):
            # "Ode to the Red Flag"
            j += 2
        elif is_mark(tok.text, "-") and j > i and not tok.whitespace_ and j + 1 < sent_end and _title_word(doc[j + 1]):
            j += 1
        elif tok.text == "." and j > i and doc[j - 1].text in CATALOGUE_MARKS and j + 1 < sent_end \
                and doc[j + 1].like_num:
            # "Symphony No. 2"
            j += 1
        else:
            break
    # "Cello Sonata, Op. 12": the catalogue number set off by a comma is the title's
    j = catalogue_end(doc, j, sent_end) if j > i else j
    if j == i or doc[j - 1].lower_ in _EDGE_SMALL or j < sent_end and _possessive(doc[j]):
        # (a name followed by "'s" owns what comes next: "duet on Reyez's song")
        return None
    span = doc[i:j]
    if span.root.dep_ in labels("subject") and _verb_follows(doc, j, span.root.head.i):
        # "a song Rivera wrote": the name after the cue noun is who made it, the subject of the verb that
        # follows (a title the parser took for a far verb's subject stays: "A, Bend Down Low, C")
        return None
    # (one letter is no title: an excerpt cut off in the middle of one, "his classic C")
    if len(span) == 1 and len(span[0].text) == 1:
        return None
    # "on the Glenvale date", "the Wembley gig": capitalised words before a noun describe it
    if j < sent_end and doc[j].pos_ == "NOUN" and doc[j].is_lower:
        return None
    # "opened on Friday in Glenvale": a date is no title without marks ("originals like Sunday" is one)
    if dated and span[0].ent_type_ in ("DATE", "TIME") and not span[0].like_num:
        return None
    return span


def _owner_at(doc: Doc, j: int, sent_end: int) -> bool:
    """A possessive that ends a name, with no title after it ("Rey Ferg’s, 'Shabba'"), where the
    tagger took a curly "’s" for a verb: the words before it own what comes next."""
    return _possessive(doc[j]) and (j + 1 >= sent_end or not _title_word(doc[j + 1]))


def _verb_follows(doc: Doc, j: int, verb: int) -> bool:
    """Whether the verb at ``verb`` comes after ``j`` in the same stretch, with no mark between."""
    return verb >= j and not any(t.is_punct for t in doc[j:verb])


def _owner_before(doc: Doc, j: int) -> bool:
    """Whether the words before the possessive at ``j`` name someone the model tags: a person
    ("Keith Whitley's X"), or a name that ends there (in "Nobody's Soldier" it runs on through the "'s")."""
    return doc[j - 1].ent_type_ == "PERSON" or bool(doc[j - 1].ent_type_) and doc[j].ent_iob_ != "I"


def _possessive(token: Token) -> bool:
    """ "'s" after a name, also when the tagger takes a curly one for a closing mark."""
    return token.tag_ == "POS" or token.lower_ in _GENITIVE


def _contraction(token: Token) -> bool:
    """The second half of a word the tokenizer split: "Don|'t", "You|'re", "Let|'s"."""
    return token.tag_ != "POS" and (token.text[:1] in "'’" and token.text[1:].isalpha() and len(token.text) <= 3
                                    or token.lower_ in ("n't", "n’t"))


def _numbered_title(doc: Doc, j: int, sent_end: int) -> bool:
    """A title that starts with a number ("7 Worlds Collide", "99 Problems"), not a count ("27 songs")."""
    return j + 1 < sent_end and _title_word(doc[j + 1]) and doc[j].text.isdigit()


def _lone_number(doc: Doc, j: int, sent_end: int) -> bool:
    """A number standing alone as a title ("performed 1999 -"), not a count of something after it."""
    return j + 1 >= sent_end or doc[j + 1].is_punct


def catalogue_end(doc: Doc, end: int, sent_end: int) -> int:
    """The end of a title at ``end`` with the catalogue number after it set off by a comma
    ("Cello Sonata, Op. 12", "Symphony, No. 2"), or ``end`` when none follows."""
    if end + 2 >= sent_end or doc[end].text != "," or doc[end + 1].text.rstrip(".") not in CATALOGUE_MARKS:
        return end
    k = end + 3 if doc[end + 2].text == "." else end + 2
    return k + 1 if k < sent_end and doc[k].like_num else end


def _cut(doc: Doc, span: Span) -> list[Span]:
    """A run holding a list, cut at "and" (unless what follows is a bare verb, part of the title:
    "Lift Every Voice and Sing") and at "to" ("from A to B"); "&" is a title's ("Dinner & Diatribes")."""
    for k in range(span.start + 1, span.end - 1):
        if doc[k].lower_ in ("and", "to"):
            after = doc[k + 1 : span.end]
            if doc[k].lower_ == "to" and doc[span.start - 1].lower_ != "from":
                continue
            if not (len(after) == 1 and after[0].tag_ == "VB"):
                return [*_cut(doc, doc[span.start : k]), *_cut(doc, after)]
    return [span] if len(span) <= _MAX_WORDS else []
def _title_word(token: Token) -> bool:
    """A word a title may start with: capitalised, with a letter ("[Expletive]" aside), or with a
    capital inside it ("iPlan")."""
    text = token.text
    capital = text[:1].isupper() or text[:1].islower() and text.isalpha() and any(c.isupper() for c in text[1:])
    return capital and any(c.isalpha() for c in text) and token.tag_ != "POS"


def _an_owner_elsewhere(doc: Doc, span: Span) -> bool:
    """One unquoted word the article writes elsewhere as an owner ("performances of Liszt and
    Bartók" beside "Liszt's Les préludes"): a composer or an act, named for their music, no title."""
    if len(span) != 1 or _is_quoted(doc, span):
        return False
    text = doc_text(doc)
    return any(f"{span.text}{mark}s " in text for mark in "'’")


def _named_again(doc: Doc, span: Span) -> bool:
    """Whether the words of a span stand elsewhere in the article too: a name, not a title sung once."""
    return doc_text(doc).count(span[-1].text) > 1


def _someone(span: Span) -> bool:
    """A person's name rather than a title: the model says PERSON or ORG, or it starts with a given name."""
    if len(span) == 1 and span[0].ent_type_ in _NAMES:
        return True
    return len(span) <= 3 and (all(t.ent_type_ in ("PERSON", "ORG") for t in span) or is_given_name(span[0].text))
