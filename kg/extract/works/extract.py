"""Works: songs, albums, films, shows and books, with kind, creator and year when given.

A title is a work when something says so: a cue noun before it ("her 2011 hit anthem
'X'", "the film X"), a role noun after it ("the 'X' singer", "the X actor"), a byline
("'X' by Y"), a performance verb ("performed 'X'"), or spaCy's WORK_OF_ART label.
A quoted title that is a work is never a quotation: the quotes stage is given the works.
Creators are found after coreference (:func:`link_creators`), from the possessor,
byline or role noun recorded here.
"""

from __future__ import annotations

from dataclasses import replace

from spacy.tokens import Doc, Span

from kg.extract.found import Found
from kg.extract.model import Entity, Work, entity_at
from kg.extract.sieves import Sieve, sieve
from kg.extract.text.doc_index import (
    doc_ents,
    doc_text,
    doc_tokens,
    sentence_bounds,
    token_words,
)
from kg.extract.text.marks import (
    CLOSING_MARKS,
    OPENING_MARKS,
    QUOTE_MARKS,
    find_titled_spans,
    is_mark,
)
from kg.extract.works.collector import Collector
from kg.extract.works.lists import music_titles
from kg.extract.works.titles import (
    CUES,
    DETERMINERS,
    SMALL_WORDS,
    byline_of,
    concert_pieces,
    cue_before,
    described_as_act,
    listed_kind,
    music_title,
    possessor_of,
    role_after,
    sung_in,
    title_after_cue,
    title_set_off,
    titles_before_roles,
    typeset_title,
    year_after,
)

#: The cue nouns, for stages that must not read a title's words as something else.
WORK_CUES = frozenset(CUES)
#: Punctuation trimmed from the edges of a title span.
_EDGE_PUNCT = frozenset("“”‘’\"',.;:!?")
_MAX_TITLE_WORDS = 10

# The sieves that say a title is a work, in the order they are asked (see _consider).
CUE = sieve("work.cue", "a cue before the title that says what it is", "her new single 'Lantern Song' → a song", 0.9)
ROLE = sieve("work.role", "a role noun after the title", "the 'Lantern Song' singer → a song", 0.9)
LISTED = sieve("work.listed", "a title in a setlist slot or in a list of titles of one kind",
               "she sang 'A', 'B' and 'C' → three songs", 0.92)
SUNG = sieve("work.sung", "capitalised words in marks, in a sentence about playing music",
             "The encore was 'Lantern Song'. → a song", 0.75)
BYLINE = sieve("work.byline", "a title credited to someone with 'by'", "'Lantern Song' by Ana Rivera → a work", 0.8)
MODEL = sieve("work.model", "the model's WORK_OF_ART label, on words that are not a quotation",
              "Lantern Song topped the chart → a work", 0.78)
TYPESET = sieve("work.typeset", "capitalised words in quotation marks that no one says, one word too",
                "'Salt In The Wires' smoothly gave way to the encore → a work", 0.73)
CONCERT_PIECE = sieve("work.concert-piece", "a piece named by its form and number",
                      "Mahler's Symphony No. 2 → a work", 0.8)
#: The work sieves in the order they decide.
SIEVES = (CUE, ROLE, LISTED, SUNG, TYPESET, BYLINE, MODEL, CONCERT_PIECE)


def _title_like(text: str) -> bool:
    """Short, mostly capitalised, no sentence punctuation at the end: "Salt In The Wires", not a quote."""
    words = text.split()
    if not words or len(words) > _MAX_TITLE_WORDS or not words[0][:1].isupper():
        return False
    if text.rstrip()[-1:] in ".,;:" or text.isupper() and len(words) > 3:
        return False
    content = [w for w in words if w.lower() not in SMALL_WORDS]
    return not content or sum(w[:1].isupper() or not w[:1].isalpha() for w in content) / len(content) >= 0.6


def _quoted_spans(doc: Doc) -> list[Span]:
    """Token spans inside quotation marks that may hold a title, in text order (the article's
    one quotation-mark scanner, :func:`kg.extract.text.marks.find_titled_spans`)."""
    spans = (doc.char_span(s, e, alignment_mode="contract") for s, e in find_titled_spans(doc_text(doc)))
    return [span for span in spans if span is not None and len(span)]


def extract_works(doc: Doc, found: Found) -> tuple[Work, ...]:
    """Works in order of first mention; creators are linked later by :func:`link_creators`."""
    collector = Collector(doc)
    # names the event rules found win; spaCy's own EVENT labels give way to titles
    events = {k for m in found.event_mentions if not m.from_model for k in range(m.start, m.end)}
    quoted = _quoted_spans(doc)
    candidates: list[tuple[Span, bool]] = [(s, True) for s in quoted]
    # the model's WORK_OF_ART, unless it is a quotation in marks ("We Will Win," he said)
    quotations = [(q.start, q.end) for q in quoted if not _title_like(q.text)]
    # (nor one that runs across marks: "'Baby', 'Company'" is two titles, not one)
    candidates += [(e, False) for e in doc_ents(doc) if e.label_ == "WORK_OF_ART"
                   and not any(s < e.end and e.start < t for s, t in quotations)
                   and not any(is_mark(t.text, QUOTE_MARKS) for t in e[1:-1])]
    candidates += titles_before_roles(doc)
    # cue noun + capitalised title without quotes
    _, sent_ends = sentence_bounds(doc)
    toks = doc_tokens(doc)
    for tok in (toks[k] for k, lower in enumerate(token_words(doc).lower) if lower in CUES):
        # "the musical X": the tagger may call the cue an adjective before a name
        cue = tok.pos_ == "NOUN" or tok.pos_ == "ADJ" and tok.i > 0 and doc[tok.i - 1].lower_ in DETERMINERS
        if tok.lower_ in CUES and cue and tok.i + 1 < len(doc):
            span = title_after_cue(doc, tok.i + 1, sent_ends[tok.i]) or title_set_off(doc, tok.i, sent_ends[tok.i])
            if span is not None:
                candidates.append((span, False))
    candidates.sort(key=lambda c: (c[0].start, -len(c[0])))
    # titles in a setlist's slots, quoted or not, are works (songs unless a cue says otherwise)
    setlist = {(s.start, s.end) for s in music_titles(doc)}
    candidates = sorted([*((doc[s:e], False) for s, e in setlist), *candidates], key=lambda c: (c[0].start, -len(c[0])))
    for span, quoted in candidates:
        if any(t.i in events for t in span) or quoted and (collector.glossed(span) or _not_a_title(doc, span)):
            continue
        _consider(doc, collector, span, quoted, (span.start, span.end) in setlist)
    for span in concert_pieces(doc):
        collector.add(span, "song", None, possessor_of(doc, span.start, span.start), CONCERT_PIECE)
    return collector.build()


def _not_a_title(doc: Doc, span: Span) -> bool:
    """Words in marks that are no title: a nickname inside a name ('Orlando "Maraca" Valle'), or
    where something took place ('performed at "The X Live"')."""
    before = doc[span.start - 2] if span.start >= 2 else None
    after = doc[span.end + 1] if span.end + 1 < len(doc) else None
    if before is not None and after is not None and before.pos_ == "PROPN" and before.is_title \
            and after.pos_ == "PROPN" and after.text[:1].isupper():
        return True
    return before is not None and before.lower_ == "at" and before.head.pos_ == "VERB"


def _on_a_thing(doc: Doc, end: int, sent_end: int) -> bool:
    """Whether a common noun follows the closing mark after token ``end``: the words in marks
    describe it ("the 'X' sign"), unless it names a show of them (a tour, a concert: events)."""
    after = end + 1 if end < sent_end and is_mark(doc[end].text, CLOSING_MARKS) else end
    return after < sent_end and doc[after].pos_ == "NOUN" and doc[after].is_lower and doc[after].dep_ != "ROOT"


def _consider(doc: Doc, collector: Collector, span: Span, quoted: bool, listed: bool = False) -> None:
    """Add ``span`` as a work when a cue, role, byline or label says it is one, or a setlist
    slot holds it (``listed``)."""
    starts, ends = sentence_bounds(doc)
    sent = doc[starts[span.start] : ends[span.start]]
    start, end = span.start, span.end
    # words in marks ending in a comma or full stop: a quotation ("We Will Win," he said),
    # or a title in American punctuation ("Born to Run," the title track): a cue must decide
    punct_inside = quoted and span.text.rstrip()[-1:] in ".,;:!?"
    while start < end and doc[start].text in _EDGE_PUNCT:
        start += 1
    while end > start and doc[end - 1].text in _EDGE_PUNCT:
        end -= 1
    if start >= end:
        return
    # "The A River Runs Out actor": the article belongs to the role noun, not the title
    role = role_after(doc, end, sent.end)
    if role and doc[start].lower_ == "the" and end - start > 1 and not quoted:
        start += 1
    span = doc[start:end]
    # "... the classic 'A-B-C.'": the full stop inside the marks, glued by the tokenizer to the
    # title's last word, is the sentence's and not the title's
    glued = quoted and len(span[-1].text) > 1 and span[-1].text.endswith(".") and (
        end == sent.end or is_mark(doc[end].text, CLOSING_MARKS))
    if not (listed or _title_like(span.text[:-1] if glued else span.text)):
        return
    # (a straight mark with a space after it closes a quotation: '"...," X said')
    open_at = start - 1 if quoted or (start > 0 and is_mark(doc[start - 1].text, OPENING_MARKS)
                                      and not doc[start - 1].whitespace_) else start
    kind, year, first = cue_before(doc, open_at, sent.start)
    # "an illuminated 'X' sign", "matching 'X' T-shirts": words in marks on a thing, no title
    if open_at < start and kind is None and not role and _on_a_thing(doc, end, sent.end):
        return
    rule = CUE if kind else None
    creators = possessor_of(doc, start, first) if kind else []
    creators += byline_of(doc, end, sent.end)
    if role:
        role_kind, made, role_i = role
        rule = rule or (ROLE if role_kind else None)
        kind = kind or role_kind
        if made:
            creators.append((doc[role_i].idx, doc[role_i].idx + len(doc[role_i].text)))
    is_art = any(t.ent_type_ == "WORK_OF_ART" for t in span) and not punct_inside
    # "The Hollow Saints add ...", "the rock band The Hollow Saints": an unmarked name doing something,
    # or named by what it is, is an act, whatever the model says
    if is_art and not quoted and (span.root.dep_ in ("nsubj", "nsubjpass") or described_as_act(doc, start)):
        is_art = False
    if kind is None:
        kind, rule = _kind_by_place(doc, collector, span, sent, open_at, quoted, listed, bool(creators))
    # a quotation in marks with no sign of being a title is left to kg_quotes
    if kind is None and not is_art and not creators:
        return
    # the model's label alone does not make a sentence in marks a title ("I just won the X...")
    if kind is None and not creators and quoted and not typeset_title(span, sent, open_at, 1):
        return
    rule = rule if kind else BYLINE if creators else MODEL
    collector.add(span, kind or "work", year or year_after(doc, end, sent.end), creators, rule, trim=int(glued))


def _kind_by_place(doc: Doc, collector: Collector, span: Span, sent: Span, open_at: int, quoted: bool,
                   listed: bool, credited: bool) -> tuple[str | None, Sieve | None]:
    """The kind a title's place says it has, with no cue noun for it, and the sieve that says so."""
    # a list of titles shares its kind; a quoted title after a song verb is a song
    kind = listed_kind(doc, collector, open_at, sent.start)
    if kind is not None:
        return kind, LISTED
    kind = sung_in(doc, span, sent) if open_at < span.start else None
    if kind is not None:
        return kind, SUNG
    if listed or quoted and music_title(span, sent, open_at):
        # words in marks, every one capitalised, in a sentence about playing music ("Another
        # standout was 'Before He Cheats,'", "bowed out with Hawkins' 'Stuffy'"): a song
        return "song", LISTED if listed else SUNG
    if not credited and quoted and typeset_title(span, sent, open_at, 1):
        # any words in marks set as a title, said by no one ("'Starting Over' smoothly transitioned",
        # "tackled the fiendish 'Listen'"): one capitalised word in marks is a title far more
        # often than a nickname, a sign or a chant, which the checks before this one leave out
        return "work", TYPESET
    return None, None


def link_creators(works: tuple[Work, ...], entities: tuple[Entity, ...]) -> tuple[Work, ...]:
    """The works, each creator resolved to an ``Entity.key`` through coreference.

    Runs after the people are known: the possessor ("her hit"), byline ("by Y") or role noun
    ("the 'X' singer") recorded by :func:`extract_works` is looked up in ``entities``.
    """
    out = []
    for work in works:
        creator = work.creator
        for credit in work.credits:
            if creator is not None:
                break
            entity = entity_at(entities, credit.start, credit.end)
            creator = entity.key if entity is not None else None
        out.append(work if creator == work.creator else replace(work, creator=creator))
    return tuple(out)
