"""Hostile text end to end: JSONL with hostile names, titles, quotations, ids and URLs -> kg.build
-> every export -> read back by rdflib AND pyoxigraph (an independent parser), same triples.

Hostile means what breaks naive writers: quote marks, angle brackets, backslashes,
newlines, control and bidi characters, and text shaped like IRIs, Turtle or HTML.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pyoxigraph as ox
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rdflib import BNode, Dataset, Graph, Literal, URIRef
from rdflib.graph import DATASET_DEFAULT_GRAPH_ID
from rdflib.namespace import XSD

import kg
from kg.rdf.serialize import union_graph

PIECES = [
    '"', "'", "\u201c", "\u201d", "\u2018", "<", ">", "\\", "\\n", "\\u0041", "\n", "\r\n", "\t", "\x00", "\x07",
    "\x1b[31m", "\x7f", "\u0085", "\u2028", "\u202e", "\u200f", "\u2066", "\ufeff", "\ufffe", "\U0001f3bb",
    "<http://evil.example/x>", '> . <urn:a> <urn:b> "c" .', "@prefix ex: <http://x.example/> .", '"""', "'''",
    "_:b0", "^^<http://www.w3.org/2001/XMLSchema#integer>", "@en", "&amp;", "&#0;", "<script>alert(1)</script>",
    "]]>", "<!--", "%41", "%", "#frag", "?q=1&r=2", "{", "}", "|", "^", "`", " ", "javascript:alert(1)",
    "urn:x", "\u05e9\u05dc\u05d5\u05dd", "\u0627\u0644\u062e\u0628\u0631", "\u65b0\u95fb", "\u0301",
]
HOSTILE = st.lists(st.sampled_from(PIECES) | st.text(max_size=4), min_size=1, max_size=6).map("".join)

# Export formats and what each holds: a quad format keeps the article graphs, a triple one their union.
EXPORTS = {".ttl": False, ".nt": False, ".rdf": False, ".trig": True, ".nq": True, ".jsonld": True}
_RDFLIB_FORMAT = {".ttl": "turtle", ".nt": "nt", ".rdf": "xml", ".trig": "trig", ".nq": "nquads", ".jsonld": "json-ld"}


def article_line(parts: list[str], index: int) -> str:
    """One JSONL line whose every field carries hostile text where extraction will pick it up."""
    name, title, quote, venue, ident, url = parts
    text = (
        f"Mara {name}Quillfield, the cellist, played at the {venue} Hall in Oslo on Friday.\n\n"
        f"\u201c{quote}\u201d, Quillfield said.\n\n"
        f'"{quote}," said Jonas {name}Berg. He added: "{title}"'
    )
    record = {"id": f"{ident}-{index}", "title": title, "url": f"https://example.org/{url}", "text": text}
    return json.dumps(record)


def _key(term: object) -> tuple[str, ...]:
    """One term, rdflib's or pyoxigraph's, as comparable plain strings (blank nodes all alike)."""
    if isinstance(term, (URIRef, ox.NamedNode)):
        return ("iri", str(term) if isinstance(term, URIRef) else term.value)
    if isinstance(term, (BNode, ox.BlankNode)):
        return ("bnode",)
    if isinstance(term, Literal):
        datatype = str(term.datatype or (None if term.language else XSD.string))
        return ("literal", str(term), (term.language or "").lower(), datatype if not term.language else "")
    if isinstance(term, ox.Literal):
        lang = term.language or ""
        return ("literal", term.value, lang.lower(), "" if lang else term.datatype.value)
    if isinstance(term, ox.DefaultGraph) or term is None:
        return ("default",)
    raise AssertionError(f"unexpected term {term!r}")


def expected_statements(graph: kg.KnowledgeGraph, quads: bool) -> set[tuple]:
    dataset = graph.dataset
    if not quads:
        return {tuple(map(_key, t)) for t in union_graph(dataset)}
    return {
        (*map(_key, t), _key(g.identifier))
        for g in dataset.graphs()
        if isinstance(g.identifier, URIRef) and g.identifier != DATASET_DEFAULT_GRAPH_ID
        for t in g
    }


def rdflib_statements(path: Path, quads: bool) -> tuple[int, set[tuple]]:
    fmt = _RDFLIB_FORMAT[path.suffix]
    if not quads:
        graph = Graph().parse(path, format=fmt)
        return len(graph), {tuple(map(_key, t)) for t in graph}
    dataset = Dataset()
    dataset.parse(path, format=fmt)
    rows = [(*map(_key, (s, p, o)), _key(g)) for s, p, o, g in dataset.quads((None, None, None, None))
            if isinstance(g, URIRef) and g != DATASET_DEFAULT_GRAPH_ID]
    return len(rows), set(rows)


def oxigraph_statements(path: Path, quads: bool) -> tuple[int, set[tuple]]:
    rows = []
    for quad in ox.parse(path=str(path), format=ox.RdfFormat.from_extension(path.suffix[1:])):
        row = (_key(quad.subject), _key(quad.predicate), _key(quad.object))
        rows.append((*row, _key(quad.graph_name)) if quads else row)
    return len(rows), set(rows)


def check_round_trips(graph: kg.KnowledgeGraph, folder: Path) -> None:
    for suffix, quads in EXPORTS.items():
        path = graph.save(folder / f"graph{suffix}")
        expected = expected_statements(graph, quads)
        assert expected
        count, by_rdflib = rdflib_statements(path, quads)
        ox_count, by_oxigraph = oxigraph_statements(path, quads)
        assert count == ox_count == len(expected), suffix
        assert by_rdflib == by_oxigraph == expected, (suffix, by_rdflib ^ by_oxigraph, by_rdflib ^ expected)


def all_iris(graph: kg.KnowledgeGraph) -> set[str]:
    dataset = graph.dataset
    return {str(term) for s, p, o, _ in dataset.quads((None, None, None, None)) for term in (s, p, o)
            if isinstance(term, URIRef)}


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                  HealthCheck.too_slow])
@given(st.lists(HOSTILE, min_size=6, max_size=6), st.lists(HOSTILE, min_size=6, max_size=6))
def test_hostile_articles_round_trip_through_every_export(nlp, tmp_path_factory, first, second):
    folder = tmp_path_factory.mktemp("hostile")
    corpus = folder / "corpus.jsonl"
    corpus.write_text(article_line(first, 1) + "\n" + article_line(second, 2) + "\n", encoding="utf-8")
    problems: list[str] = []
    graph = kg.build([corpus], nlp=nlp, on_problem=problems.append)
    assert problems == []
    assert graph.stats()["articles"] == 2
    # Every IRI minted from article text is one pyoxigraph accepts as an IRI.
    for iri in all_iris(graph):
        ox.NamedNode(iri)
    check_round_trips(graph, folder)


def test_iris_are_stable_across_builds(nlp, tmp_path):
    parts = ['<a href="x">\\', "Tit\u202ele\n", '"q" > . <urn:a>', "\x00Grand", "id/../#?", "p%20a th?x=<1>"]
    corpus = tmp_path / "c.jsonl"
    corpus.write_text(article_line(parts, 1) + "\n", encoding="utf-8")
    first, second = kg.build([corpus], nlp=nlp), kg.build([corpus], nlp=nlp)
    assert all_iris(first) == all_iris(second)
    first.save(tmp_path / "a.nq")
    second.save(tmp_path / "b.nq")
    assert sorted((tmp_path / "a.nq").read_text().splitlines()) == sorted((tmp_path / "b.nq").read_text().splitlines())


def test_hostile_text_survives_as_text(nlp, tmp_path):
    # The words around the hostile parts come back intact, and no IRI-shaped text became an IRI.
    parts = ["<b>", 'Headline "with" <i>tags</i> \\ and \u202eRTL', "I said <script>alert(1)</script> then",
             "Grand", "hostile", "a b<c>"]
    corpus = tmp_path / "c.jsonl"
    corpus.write_text(article_line(parts, 1) + "\n", encoding="utf-8")
    graph = kg.build([corpus], nlp=nlp)
    literals = {str(o) for _, _, o, _ in graph.dataset.quads((None, None, None, None)) if isinstance(o, Literal)}
    assert 'Headline "with" <i>tags</i> \\ and \u202eRTL' in literals
    assert any("<script>alert(1)</script>" in text for text in literals)
    assert "https://example.org/a%20b%3Cc%3E" in all_iris(graph)
    assert not any(iri.startswith(("urn:a", "http://evil", "javascript:")) for iri in all_iris(graph))
    check_round_trips(graph, tmp_path)


@pytest.mark.parametrize("suffix", list(EXPORTS))
def test_control_characters_are_dropped_not_written(nlp, tmp_path, suffix):
    # XML 1.0 forbids most C0 controls: kg drops them from literals so every syntax can hold the text.
    parts = ["\x00", "Title\x07 with\x1b bell", "quote\x0b here", "Grand", "ctl", "x"]
    corpus = tmp_path / "c.jsonl"
    corpus.write_text(article_line(parts, 1) + "\n", encoding="utf-8")
    graph = kg.build([corpus], nlp=nlp)
    path = graph.save(tmp_path / f"g{suffix}")
    raw = path.read_bytes()
    assert b"\x00" not in raw and b"\x07" not in raw and b"\x1b" not in raw
    _, statements = oxigraph_statements(path, EXPORTS[suffix])
    assert any(row[2][:2] == ("literal", "Title with bell") for row in statements)


def page_data(page: str) -> dict:
    """The JSON the viz page carries its nodes and edges in."""
    return json.loads(page.split('id="kg-data">', 1)[1].split("</script>", 1)[0])


@pytest.fixture(scope="module")
def benign_page(nlp, tmp_path_factory) -> str:
    from kg.viz import write_page

    folder = tmp_path_factory.mktemp("benign")
    corpus = folder / "c.jsonl"
    corpus.write_text(article_line(["", "Title", "A fine night", "Grand", "benign", "x"], 1) + "\n", encoding="utf-8")
    graph = kg.build([corpus], nlp=nlp)
    return write_page(graph.rdf_graph(), folder / "page.html").read_text(encoding="utf-8")


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                  HealthCheck.too_slow])
@given(st.lists(HOSTILE, min_size=6, max_size=6))
def test_viz_page_carries_hostile_text_as_data_only(nlp, tmp_path_factory, benign_page, parts):
    from kg.viz import write_page

    folder = tmp_path_factory.mktemp("vizhostile")
    corpus = folder / "c.jsonl"
    corpus.write_text(article_line(parts, 1) + "\n", encoding="utf-8")
    graph = kg.build([corpus], nlp=nlp)
    page = write_page(graph.rdf_graph(), folder / "page.html").read_text(encoding="utf-8")
    # No tag the article text could open or close: the page's own scripts and nothing else.
    assert page.count("<script") == benign_page.count("<script")
    assert page.lower().count("</script") == benign_page.lower().count("</script")
    assert page.lower().count("<!--") == benign_page.lower().count("<!--")
    # The names drawn are exactly names in the graph, intact.
    names = {str(o) for o in graph.rdf_graph().objects(None, URIRef("https://schema.org/name"))}
    assert {node["kgName"] for node in page_data(page)["nodes"]} <= names


def test_viz_page_in_a_browser_shows_hostile_quotation_as_text(tmp_path):
    from tests.browser import offline_page, require_browser

    require_browser()
    from playwright.sync_api import sync_playwright

    # No straight double quote inside: the quotation would end there (the extractor, not the page).
    quote = "I \\ said <img src=x onerror=window.__pwned=1> and \u202ethen\u202c </script><b>bold</b> too"
    corpus = tmp_path / "c.jsonl"
    corpus.write_text(article_line(["", "Night", quote, "Grand", "browser", "x"], 1) + "\n", encoding="utf-8")
    graph, page_path = tmp_path / "g.trig", tmp_path / "page.html"
    for args in (["build", str(corpus), "-o", str(graph)], ["viz", str(graph), "-o", str(page_path)]):
        result = subprocess.run([sys.executable, "-m", "kg", *args], capture_output=True, text=True, timeout=300)
        assert result.returncode == 0, result.stderr
    speaker = next(n["id"] for n in page_data(page_path.read_text(encoding="utf-8"))["nodes"]
                   if "Berg" in n["kgName"])
    with sync_playwright() as playwright:
        from tests.browser import launch

        browser = launch(playwright)
        try:
            page = offline_page(browser, viewport={"width": 1280, "height": 800})
            dialogs: list[str] = []
            page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
            page.goto(page_path.as_uri())
            page.wait_for_function("document.body.getAttribute('data-kg-state') === 'settled'", timeout=30_000)
            point = page.evaluate(
                """(id) => {
                    const net = window.kgNetwork;
                    const dom = net.canvasToDOM(net.getPositions([id])[id]);
                    const box = document.querySelector('#kg-network canvas').getBoundingClientRect();
                    return {x: box.left + dom.x, y: box.top + dom.y};
                }""",
                speaker,
            )
            page.mouse.move(point["x"] - 30, point["y"] - 30)
            page.mouse.move(point["x"], point["y"], steps=5)
            tip = page.wait_for_selector("div.vis-tooltip", state="visible", timeout=5_000).text_content()
            assert quote in tip
            assert page.evaluate("typeof window.__pwned") == "undefined" and dialogs == []
            assert page.evaluate("document.querySelectorAll('img, b').length") == 0
        finally:
            browser.close()
