"""The page ``kg viz`` writes, opened in headless Chromium with every network request refused.

It must draw its nodes without a network, and text from an article that holds
``<script>`` or ``<img src=x onerror=...>`` must show as text and run nothing,
in the page body, the legend and the hover tooltips alike.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from rdflib import RDF, Dataset, Literal, Namespace

from .browser import browser_page, chromium  # noqa: F401  (fixtures)

SDO = Namespace("https://schema.org/")
PROV = Namespace("http://www.w3.org/ns/prov#")
KG = Namespace("https://w3id.org/kg/ns#")
ID = Namespace("https://w3id.org/kg/id/")

# Each payload would set window.__pwned (or open a dialog) if it ever became markup or code.
IMG = '<img src=x onerror="window.__pwned=1;alert(1)">'
SCRIPT = "<script>window.__pwned=2;alert(2)</script>"
HOSTILE_NAME = f"Vera {IMG} Lusk"
HOSTILE_BAND = f"The {SCRIPT} Tin Wires"
HOSTILE_QUOTE = f"We closed with the new one </script>{SCRIPT} and {IMG} the crowd sang"

STORY = f"""Rooftop show draws a crowd in Lisbon

Singer Tomas Ferreira played a rooftop show at Miradouro Hall in Lisbon on Friday with the band Quiet Harbour.

"{HOSTILE_QUOTE}," Ferreira said after the encore.

"Nobody expected {IMG} this many people," said drummer Ines Calado.
"""


def _kg(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "kg", *args], capture_output=True, text=True, timeout=300)


def _hostile_dataset() -> Dataset:
    """One article in kg's shape: a person and a band with markup in their names, a hostile quotation."""
    ds = Dataset()
    article = ID["article/h1"]
    g = ds.graph(article)
    g.add((article, RDF.type, SDO.NewsArticle))
    g.add((article, SDO.identifier, Literal("h1")))
    g.add((article, SDO.headline, Literal(f"Headline {SCRIPT}")))
    people = [("person/vera-lusk", SDO.Person, HOSTILE_NAME), ("group/tin-wires", SDO.MusicGroup, HOSTILE_BAND),
              ("person/olu-brandt", SDO.Person, "Olu Brandt")]
    for slug, cls, name in people:
        node = ID[slug]
        g.add((node, RDF.type, cls))
        g.add((node, SDO.name, Literal(name)))
        g.add((article, SDO.mentions, node))
        g.add((node, PROV.wasDerivedFrom, article))
    song = ID["work/glass-tide"]
    g.add((song, RDF.type, SDO.MusicComposition))
    g.add((song, SDO.name, Literal("Glass Tide")))
    g.add((song, SDO.creator, ID["person/vera-lusk"]))
    g.add((song, PROV.wasDerivedFrom, article))
    quote = ID["article/h1/quote/10-90"]
    g.add((quote, RDF.type, SDO.Quotation))
    g.add((quote, SDO.text, Literal(HOSTILE_QUOTE)))
    g.add((quote, SDO.creator, ID["person/vera-lusk"]))
    g.add((quote, SDO.isPartOf, article))
    g.add((quote, KG.cue, Literal("said")))
    return ds


def _open(page: Any, path: Path) -> dict[str, Any]:
    """Load the page, wait until vis-network has laid it out, and report what it drew."""
    dialogs: list[str] = []
    errors: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(path.as_uri())
    page.wait_for_function("document.body.getAttribute('data-kg-state') === 'settled'", timeout=30_000)
    drawn = page.evaluate(
        """() => ({
            dataset: window.kgNodes.length,
            body: Object.keys(window.kgNetwork.body.nodes).length,
            visible: window.kgNodes.get({filter: n => !n.hidden}).map(n => n.id),
            positioned: Object.keys(window.kgNetwork.getPositions()).length,
            names: window.kgNodes.get().map(n => n.kgName),
            summary: document.getElementById("kg-summary").textContent,
        })"""
    )
    drawn.update(dialogs=dialogs, errors=errors, blocked=list(page.kg_blocked))
    return drawn


def _assert_inert(page: Any, drawn: dict[str, Any]) -> None:
    """No payload ran: no flag, no dialog, no image element, no script beyond the page's own three."""
    assert page.evaluate("typeof window.__pwned") == "undefined"
    assert drawn["dialogs"] == []
    assert page.evaluate("document.querySelectorAll('img').length") == 0
    assert page.evaluate("document.scripts.length") == 3  # vis-network, the JSON data, the page's code
    assert drawn["errors"] == []
    assert drawn["blocked"] == []  # and the page asked for nothing off the machine


def _hover(page: Any, node_id: str) -> str:
    """Move the mouse onto a node and return its tooltip's text."""
    point = page.evaluate(
        """(id) => {
            const net = window.kgNetwork;
            const dom = net.canvasToDOM(net.getPositions([id])[id]);
            const box = document.querySelector('#kg-network canvas').getBoundingClientRect();
            return {x: box.left + dom.x, y: box.top + dom.y};
        }""",
        node_id,
    )
    page.mouse.move(point["x"] - 30, point["y"] - 30)
    page.mouse.move(point["x"], point["y"], steps=5)
    tip = page.wait_for_selector("div.vis-tooltip", state="visible", timeout=5_000)
    return tip.text_content()


def test_page_draws_offline_and_hostile_text_stays_text(browser_page, tmp_path: Path):  # noqa: F811
    source = tmp_path / "hostile.trig"
    _hostile_dataset().serialize(source, format="trig")
    html_path = tmp_path / "page.html"
    result = _kg("viz", str(source), "-o", str(html_path))
    assert result.returncode == 0, result.stderr

    drawn = _open(browser_page, html_path)
    assert drawn["dataset"] == drawn["body"] == drawn["positioned"] == 4
    assert len(drawn["visible"]) == 4  # every node has a link, none starts hidden
    assert sorted(drawn["names"]) == sorted(["Olu Brandt", "Glass Tide", HOSTILE_NAME, HOSTILE_BAND])
    assert drawn["summary"] == "4 entities, 4 links"
    _assert_inert(browser_page, drawn)

    # the tooltip, built in the browser, shows the name and the quotation as plain text
    tip = _hover(browser_page, str(ID["person/vera-lusk"]))
    assert HOSTILE_NAME in tip
    assert HOSTILE_QUOTE in tip
    assert f"Headline {SCRIPT} (h1)" in tip  # the story, by its headline
    _assert_inert(browser_page, drawn)


def test_filters_hide_and_show_types(browser_page, tmp_path: Path):  # noqa: F811
    source = tmp_path / "hostile.trig"
    _hostile_dataset().serialize(source, format="trig")
    html_path = tmp_path / "page.html"
    assert _kg("viz", str(source), "-o", str(html_path)).returncode == 0
    _open(browser_page, html_path)
    browser_page.uncheck('#kg-legend input[data-type="person"]')
    browser_page.wait_for_function("document.body.getAttribute('data-kg-state') === 'settled'")
    visible = browser_page.evaluate("window.kgNodes.get({filter: n => !n.hidden}).map(n => n.kgName)")
    assert sorted(visible) == sorted([HOSTILE_BAND, "Glass Tide"])
    browser_page.check('#kg-legend input[data-type="person"]')
    browser_page.wait_for_function("document.body.getAttribute('data-kg-state') === 'settled'")
    assert browser_page.evaluate("window.kgNodes.get({filter: n => !n.hidden}).length") == 4


def test_built_article_with_markup_runs_nothing(browser_page, tmp_path: Path):  # noqa: F811
    story = tmp_path / "rooftop.txt"
    story.write_text(STORY, encoding="utf-8")
    graph = tmp_path / "graph.trig"
    built = _kg("build", str(story), "-o", str(graph))
    assert built.returncode == 0, built.stderr
    html_path = tmp_path / "page.html"
    assert _kg("viz", str(graph), "-o", str(html_path)).returncode == 0

    page_text = html_path.read_text(encoding="utf-8")
    data = json.loads(page_text.split('id="kg-data">', 1)[1].split("</script>", 1)[0])
    drawn = _open(browser_page, html_path)
    assert drawn["dataset"] == drawn["body"] == drawn["positioned"] == len(data["nodes"]) > 0
    assert "Tomas Ferreira" in {n["kgName"] for n in data["nodes"]}
    _assert_inert(browser_page, drawn)


@pytest.mark.slow
def test_example_corpus_page_settles_with_its_legend(browser_page, tmp_path: Path):  # noqa: F811
    examples = Path(__file__).resolve().parent.parent / "examples"
    graph = tmp_path / "graph.trig"
    assert _kg("build", str(examples), "-o", str(graph)).returncode == 0
    html_path = tmp_path / "page.html"
    assert _kg("viz", str(graph), "-o", str(html_path)).returncode == 0
    drawn = _open(browser_page, html_path)
    assert drawn["dataset"] == drawn["body"] > 10
    assert 0 < len(drawn["visible"]) <= drawn["dataset"]
    legend = browser_page.evaluate(
        "[...document.querySelectorAll('#kg-legend input[data-type]')].map(b => b.getAttribute('data-type'))"
    )
    assert "person" in legend and "place" in legend
    _assert_inert(browser_page, drawn)
