"""Fuzzing: the readers on random bytes, the whole pipeline on random and adversarial text.

Neither may raise. The readers report what they cannot read; the pipeline returns
facts that keep the contract of kg/extract/model.py: every span points at its own
text in the article, and every key a record refers to exists.
"""

from __future__ import annotations

import dataclasses
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kg.errors import InputError
from kg.extract.model import Facts, TextSpan
from kg.io import EXTENSIONS, read_articles
from kg.io.article import Article
from kg.io.readers import MAX_CHARS
from kg.nlp import extract

_FIXTURE_OK = [HealthCheck.function_scoped_fixture, HealthCheck.too_slow]

# Bytes that look like each format, mixed with noise, find more paths than pure noise.
_SHAPES = [
    b"", b"\x00", b"\xff\xfe", b"\xfe\xff", b"\xef\xbb\xbf", b"\xff\xfe\x00\x00", b"\r\n", b"\n\n", b"{", b"}",
    b'{"text": "', b'"}', b'{"id": 1, "text": "A b."}\n', b"[", b"null", b"\xc3", b"\xe2\x80", b"\xed\xa0\x80",
    b"<html>", b"<p>", b"</p>", b"<script>", b"<!--", b"<meta charset=\"utf-16\">", b"<?xml ", b"&#0;", b"\\u0000",
    "Na\u00efve \u201cquote\u201d said Ana.".encode(), b"Ana Lind said.", b"\x1b[0m", b"\t",
]
SHAPED_BYTES = st.lists(st.sampled_from(_SHAPES) | st.binary(max_size=20), max_size=12).map(b"".join)


@pytest.mark.parametrize("suffix", EXTENSIONS)
@settings(max_examples=60, deadline=None, suppress_health_check=_FIXTURE_OK)
@given(data=SHAPED_BYTES | st.binary(max_size=300))
def test_readers_never_raise_on_random_bytes(tmp_path, suffix, data):
    path = tmp_path / f"fuzz{suffix}"
    path.write_bytes(data)
    problems: list[str] = []
    articles = list(read_articles([path], on_problem=problems.append))
    # Each source either gives articles or is named in a one-line problem.
    assert articles or problems
    assert all(str(path) in p and "\n" not in p for p in problems)
    for article in articles:
        assert article.text.strip() and "\r" not in article.text and len(article.text) <= MAX_CHARS
        assert article.id and article.source.startswith(str(path))
    # Strict mode fails with InputError (never anything else) exactly when there was a problem.
    try:
        strict = list(read_articles([path], strict=True))
    except InputError:
        assert problems
    else:
        assert not problems and strict == articles


_JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=8,
)
_RECORDS = st.fixed_dictionaries(
    {},
    optional={"id": _JSON_VALUES, "url": _JSON_VALUES, "title": _JSON_VALUES, "published": _JSON_VALUES,
              "text": st.text(max_size=60) | _JSON_VALUES},
)


@settings(max_examples=60, deadline=None, suppress_health_check=_FIXTURE_OK)
@given(st.lists(_RECORDS.map(json.dumps) | st.text(max_size=30).filter(lambda t: "\n" not in t and "\r" not in t),
                max_size=8))
def test_jsonl_reader_names_the_line_of_every_bad_record(tmp_path, lines):
    path = tmp_path / "fuzz.jsonl"
    path.write_text("\n".join(lines), encoding="utf-8")
    problems: list[str] = []
    articles = list(read_articles([path], on_problem=problems.append))
    # A whole-file problem (empty, NUL bytes) names the file alone; a line problem names FILE:LINE.
    bad_lines = {int(p.split(": ")[0].rsplit(":", 1)[1]) for p in problems if not p.startswith(f"{path}: ")}
    if any(p.startswith(f"{path}: ") for p in problems):
        assert not articles and len(problems) == 1
        return
    good_lines = {int(a.source.rsplit(":", 1)[1]) for a in articles}
    # Every non-blank line is either an article or a problem, never both, never neither.
    non_blank = {n for n, line in enumerate("\n".join(lines).split("\n"), start=1) if line.strip()}
    assert bad_lines.isdisjoint(good_lines)
    assert bad_lines | good_lines == non_blank


def spans_of(record: object) -> list[TextSpan]:
    """Every TextSpan inside a fact record, however deep."""
    if isinstance(record, TextSpan):
        return [record]
    if dataclasses.is_dataclass(record):
        return [s for f in dataclasses.fields(record) for s in spans_of(getattr(record, f.name))]
    if isinstance(record, tuple):
        return [s for item in record for s in spans_of(item)]
    return []


def check_contract(text: str, facts: Facts) -> None:
    """Spans point at their own text, exactly as written; references exist."""
    for span in spans_of(facts):
        assert 0 <= span.start <= span.end <= len(text), span
        assert text[span.start:span.end] == span.text, span
    entities = {e.key for e in facts.entities}
    works = {w.key for w in facts.works}
    events = {e.key for e in facts.events}
    places = {p.key for p in facts.places}
    assert all(q.speaker is None or q.speaker in entities for q in facts.quotes)
    for performance in facts.performances:
        assert performance.performer in entities
        assert performance.work is None or performance.work in works
        assert performance.event is None or performance.event in events
        assert performance.location is None or performance.location in places


ADVERSARIAL = {
    "5000 straight quotes": '"' * 5000,
    "5000 curly quotes": "\u201c\u201d" * 2500,
    "unbalanced opening": 'Ana Lind said "this never ends. And Tom Berg said "neither does this.\n\n"Or this',
    "unbalanced closing": 'It ends here," said Ana Lind. Then" more" "" " text."',
    "nested quotes": "\u201cShe said \u2018he said \u201cno\u201d\u2019 twice,\u201d Ana Lind said.",
    "only punctuation": "!?.,;:-\u2014\u2013()[]{}<>/\\|@#$%^&*_+=~`'\"\u201c\u201d\u00ab\u00bb" * 40,
    "very long token": "Ana " + "x" * 100_000 + " said.",
    "long name chain": " ".join(["Ana"] * 3000) + " said hello.",
    "mixed scripts": "\u0410\u043d\u0430 Lind \u05d0\u05de\u05e8\u05d4 \u201c\u0645\u0631\u062d\u0628\u0627 \u4f60\u597d\u201d "
                     "in \u6771\u4eac on Friday at the \u0645\u0633\u0631\u062d Hall. \U0001f3bb\U0001f3b6",
    "bidi controls": "\u202eAna Lind\u202c said \u201c\u2067hello\u2069\u201d at the \u200fGrand Hall\u200e in Oslo.",
    "combining marks": "A\u0301\u0301\u0301na Li\u0308nd said \u201cze\u0301ro\u201d." * 20,
    "controls and nul": "Ana\x00 Lind\x07 said \u201chi\x1b\u201d\x0b in\x0c Oslo.\x00",
    "only newlines": "\n\n\n\r\n\u2028\u2029\x85" * 50,
    "quote per line": "\n".join('"' for _ in range(2000)),
    "dates gone wrong": "On 31 February 2023, 0000-00-00, 99/99/9999 and the 45th of Smarch, Ana Lind said \u201cno\u201d.",
    "say verbs only": "said says told added " * 500,
    "html and turtle": '<p>Ana Lind</p> said "<script>x</script>" . <urn:a> <urn:b> "c"@en .',
}


# Thousands of quote marks take seconds each through the parser: slow.
_HEAVY = {"5000 straight quotes", "5000 curly quotes"}


@pytest.mark.parametrize(
    "text",
    [pytest.param(text, id=name, marks=[pytest.mark.slow] if name in _HEAVY else []) for name, text in ADVERSARIAL.items()],
)
def test_pipeline_survives_adversarial_text(run, text):
    check_contract(text, run(text))


_ALPHABET = st.sampled_from(
    list("\"'\u201c\u201d\u2018\u2019\u00ab\u00bb.,;:!?-\u2014 \n\t()") + ["\n\n", " said ", " says ", " told ",
    "Ana", "Lind", "Tom", "Berg", "Oslo", "the", "Grand", "Hall", "Festival", "Monday", "2024", "March",
    "\u0410\u043d\u0430", "\u05e9\u05dc\u05d5\u05dd", "\u4f60\u597d", "\u202e", "\x00", "\U0001f3bb"]
)


@pytest.mark.slow
@settings(max_examples=40, deadline=None, suppress_health_check=_FIXTURE_OK)
@given(st.lists(_ALPHABET, max_size=80).map("".join) | st.text(max_size=200))
def test_pipeline_survives_random_text(run, text):
    check_contract(text, run(text))


@settings(max_examples=10, deadline=None, suppress_health_check=_FIXTURE_OK)
@given(st.lists(_ALPHABET, min_size=1, max_size=40).map("".join))
def test_pipeline_survives_random_text_quickly(run, text):
    check_contract(text, run(text))


def test_the_limit_is_spacys_own(nlp):
    # The readers refuse what spaCy would refuse: the two limits must agree.
    assert nlp.max_length == MAX_CHARS


def test_library_extract_names_an_overlong_article(nlp):
    # An Article made in code skips the readers' check: extract() refuses it in one line, never cuts it.
    article = Article(id="big", text="Ana Lind said hello. " * 60_000, source="big.txt")
    with pytest.raises(InputError) as refused:
        list(extract(nlp, [article]))
    message = str(refused.value)
    assert message.startswith("big.txt: text too long (1,260,000 characters") and "\n" not in message
    # Without a source, the id names it.
    with pytest.raises(InputError, match="^big: text too long"):
        list(extract(nlp, [Article(id="big", text="x " * (MAX_CHARS // 2 + 1))]))



def test_span_text_is_the_article_text(run):
    # The parser reads NUL, no-break space and tab as spaces; spans give back the characters written.
    text = "Ana\x00Lind, the\u00a0singer, sang at the Grand\tHall in Oslo on Friday."
    facts = run(text)
    spans = spans_of(facts)
    assert any(span.text == "Grand\tHall" for span in spans), spans
    for span in spans:
        assert text[span.start:span.end] == span.text, span
