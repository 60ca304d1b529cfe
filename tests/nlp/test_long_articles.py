"""Long articles, parsed in pieces: the same facts a piece gives alone, at the article's offsets."""

from __future__ import annotations

import dataclasses
import re

import pytest

from kg.extract.model import Facts, TextSpan
from kg.graph import KnowledgeGraph
from kg.io.article import Article
from kg.nlp import extract
from kg.nlp.chunks import chunk_bounds
from kg.nlp.text import map_spans

# One paragraph with a fact of every kind, linked to each other, and a non-breaking
# space (the pipeline reads cleaned text; spans must give the article's own characters).
PARAGRAPH = (
    "Singer Ana\u00a0Rivera performed “Glass Harbour” at the Harbor Lights Festival at Pier Arena in "
    "Portland on Saturday. “We played it loud because the city deserved it,” Rivera said after the show."
)


def _spans(facts: Facts) -> list[TextSpan]:
    found: list[TextSpan] = []
    map_spans(facts, lambda span: found.append(span) or span)
    return found


def _shifted(record, offset: int):  # type: ignore[no-untyped-def]
    return map_spans(record, lambda s: TextSpan(s.start + offset, s.end + offset, s.text))


def test_a_repeated_paragraph_gives_the_facts_of_the_paragraph_alone_at_each_offset(nlp) -> None:
    copies, gap = 5, "\n\n"
    text = gap.join([PARAGRAPH] * copies)
    stride = len(PARAGRAPH) + len(gap)
    # Room for one paragraph a piece, not two: five pieces.
    assert len(chunk_bounds(text, len(PARAGRAPH) + 10)) == copies
    (_, alone), = extract(nlp, [Article(id="alone", text=PARAGRAPH, published="2024-05-06")])
    (_, long), = extract(nlp, [Article(id="long", text=text, published="2024-05-06")], chunk_chars=len(PARAGRAPH) + 10)

    def every_copy(mentions: tuple[TextSpan, ...]) -> tuple[TextSpan, ...]:
        return tuple(_shifted(m, k * stride) for k in range(copies) for m in mentions)

    # One record per person, work, place and event (first copy's keys, dates and links),
    # with the mentions of every copy; a quotation and a performance per copy.
    expected = Facts(
        entities=tuple(dataclasses.replace(e, mentions=every_copy(e.mentions)) for e in alone.entities),
        quotes=tuple(_shifted(q, k * stride) for k in range(copies) for q in alone.quotes),
        works=tuple(dataclasses.replace(w, mentions=every_copy(w.mentions)) for w in alone.works),
        events=tuple(dataclasses.replace(e, mentions=every_copy(e.mentions)) for e in alone.events),
        places=tuple(dataclasses.replace(p, mentions=every_copy(p.mentions)) for p in alone.places),
        performances=tuple(_shifted(p, k * stride) for k in range(copies) for p in alone.performances),
    )
    assert alone.entities and alone.quotes and alone.works and alone.events and alone.places and alone.performances
    assert long == expected
    assert all(span.text == text[span.start : span.end] for span in _spans(long))
    assert long.entities[0].mentions[-1].text == "Rivera"
    assert long.entities[0].mentions[-2].text == "Ana\u00a0Rivera"


def test_a_surname_alone_in_a_later_piece_is_the_person_named_in_full_before(nlp) -> None:
    text = f"{PARAGRAPH}\n\nRivera, who wrote the song in a week, said the crowd had never been louder."
    (article, facts), = extract(nlp, [Article(id="two", text=text)], chunk_chars=len(PARAGRAPH) + 10)
    assert {e.name for e in facts.entities} == {"Ana Rivera", "Rivera"}
    graph = KnowledgeGraph()
    graph.add(article, facts)
    assert graph.stats()["people"] == 1


def test_pieces_are_cut_at_paragraph_breaks_and_keep_every_character() -> None:
    paragraphs = [f"Paragraph {n} says something about the band and the tour." for n in range(40)]
    text = "\n\n".join(paragraphs)
    bounds = chunk_bounds(text, 300)
    assert all(0 < end - start <= 300 for start, end in bounds)
    # Consecutive, and only whitespace between pieces: no text is lost or read twice.
    assert bounds[0][0] == 0 and bounds[-1][1] == len(text)
    gaps = [text[end:start] for (_, end), (start, _) in zip(bounds, bounds[1:])]
    assert all(gap and not gap.strip() for gap in gaps)
    assert all(text[start:end].startswith("Paragraph") and text[start:end].endswith(".") for start, end in bounds)


def test_a_cut_falls_before_a_paragraph_that_reads_on_its_own() -> None:
    text = "\n\n".join([
        "Ana Rivera opened the show with a new song about the harbour, then played the whole of her first "
        "album, in order, with the string section that recorded it.",
        "Bo Lind followed her.",
        "“It was a long night,” he said afterwards, smiling.",
        "She closed the night with the title track.",
    ])
    # The three breaks are in reach (a piece is at least half the limit): the cut skips
    # the quotation and "She" for the paragraph on Bo Lind.
    (_, end), (start, _) = chunk_bounds(text, len(text) - 1)
    assert text[start:].startswith("Bo Lind")
    assert text[:end].endswith("recorded it.")


@pytest.mark.parametrize(
    ("text", "limit", "first_piece"),
    [
        ("One line of text.\nAnother line.\nA third line here.", 40, "One line of text.\nAnother line."),
        ("First sentence here. Second sentence here. Third one.", 45, "First sentence here. Second sentence here."),
        ("word " * 20, 23, "word word word word"),
        ("x" * 50, 20, "x" * 20),
    ],
)
def test_without_paragraph_breaks_a_cut_falls_at_a_line_a_sentence_a_space(
    text: str, limit: int, first_piece: str
) -> None:
    bounds = chunk_bounds(text, limit)
    assert text[slice(*bounds[0])] == first_piece
    assert all(end - start <= limit for start, end in bounds)
    assert re.sub(r"\s", "", "".join(text[slice(*b)] for b in bounds)) == re.sub(r"\s", "", text)


def test_a_text_within_the_limit_is_one_piece() -> None:
    assert chunk_bounds("Short.\n\nText.", 13) == [(0, 13)]
    with pytest.raises(ValueError):
        chunk_bounds("text", 0)


@pytest.mark.slow
def test_two_processes_join_the_pieces_as_one_does(nlp) -> None:
    articles = [
        Article(id="short", text=PARAGRAPH),
        Article(id="long", text="\n\n".join([PARAGRAPH] * 4)),
        Article(id="after", text="Bo Lind sang “Paper Kites” in Leeds."),
    ]
    limit = len(PARAGRAPH) + 10
    serial = list(extract(nlp, articles, chunk_chars=limit))
    assert list(extract(nlp, articles, batch_size=1, n_process=2, chunk_chars=limit)) == serial
    assert [a.id for a, _ in serial] == ["short", "long", "after"]
    assert len(serial[1][1].quotes) == 4
