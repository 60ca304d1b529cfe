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

import networkx as nx
import pytest
from rdflib import RDF, Dataset, Literal, Namespace

from kg.viz import network_page

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
    assert str(ID["person/vera-lusk"]) in tip  # the IRI tells namesakes apart
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


def _search_graph() -> nx.MultiDiGraph:
    """Namesakes, an accented name, a name holding markup, and one entity with no link (so hidden)."""
    graph = nx.MultiDiGraph()
    nodes = [
        ("p:ines", "person", "In\u00e8s Calado", 3),
        ("pl:calado", "place", "Calado", 1),
        ("p:vera", "person", HOSTILE_NAME, 2),
        ("w:tide", "work", "Glass Tide", 1),
        ("e:tide", "event", "Glass Tide", 1),
        ("p:olu", "person", "Olu Brandt", 0),
    ]
    for key, kind, name, degree in nodes:
        graph.add_node(key, type=kind, name=name, degree=degree, quotes=[])
    graph.add_edge("p:ines", "pl:calado", relation="performed at", article="a1")
    graph.add_edge("p:ines", "p:vera", relation="mentioned with", article="a1")
    graph.add_edge("p:vera", "w:tide", relation="created", article="a1")
    graph.add_edge("p:ines", "e:tide", relation="performed at", article="a2")
    return graph


def _search(page: Any, text: str) -> list[dict[str, str]]:
    """Type into the search box; the listed matches (name, type, id), best first."""
    page.fill("#kg-search", text)
    return page.eval_on_selector_all(
        "#kg-matches button",
        """buttons => buttons.map(b => ({
            name: b.querySelector('.kg-match-name').textContent,
            type: b.querySelector('.kg-match-type').textContent,
            id: b.getAttribute('data-id'),
        }))""",
    )


def _focused(page: Any, node_id: str) -> dict[str, Any]:
    """Wait until the page has focused ``node_id``; the selection and how far it sits from the centre."""
    page.wait_for_function("(id) => document.body.getAttribute('data-kg-focus') === id", arg=node_id)
    page.wait_for_timeout(700)  # the focus animation takes 400 ms
    return page.evaluate(
        """(id) => {
            const net = window.kgNetwork;
            const at = net.canvasToDOM(net.getPositions([id])[id]);
            const box = document.querySelector('#kg-network canvas').getBoundingClientRect();
            return {
                selected: net.getSelectedNodes(),
                off_centre: Math.hypot(at.x - box.width / 2, at.y - box.height / 2),
                hidden: window.kgNodes.get(id).hidden,
                label: (window.kgLabels || []).filter(l => l.id === id).map(l => l.text),
            };
        }""",
        node_id,
    )


def test_search_lists_matches_and_focuses_the_chosen_node(browser_page, tmp_path: Path):  # noqa: F811
    html_path = tmp_path / "page.html"
    html_path.write_text(network_page(_search_graph()), encoding="utf-8")
    drawn = _open(browser_page, html_path)

    # folded case and accents; the whole name first, then names starting so, then words starting so
    assert [m["id"] for m in _search(browser_page, "calado")] == ["pl:calado", "p:ines"]
    assert [m["name"] for m in _search(browser_page, "INES")] == ["In\u00e8s Calado"]
    # namesakes are listed apart, each with its type
    tides = _search(browser_page, "glass tide")
    assert sorted((m["name"], m["type"]) for m in tides) == [("Glass Tide", "event"), ("Glass Tide", "work")]
    assert _search(browser_page, "nobody here") == []
    assert browser_page.text_content("#kg-matches") == "No entity by that name here."

    # a name holding markup is listed as text, and runs nothing
    found = _search(browser_page, "lusk")
    assert [m["name"] for m in found] == [HOSTILE_NAME]
    _assert_inert(browser_page, drawn)

    # choosing a match (Enter takes the first) selects it, centres it and draws its label
    browser_page.press("#kg-search", "Enter")
    state = _focused(browser_page, "p:vera")
    assert state["selected"] == ["p:vera"]
    assert state["off_centre"] < 3
    assert state["label"] == [HOSTILE_NAME[:39] + "\u2026"]  # drawn on the canvas, clipped to 40 characters
    _assert_inert(browser_page, drawn)

    # clicking another match moves the focus there
    _search(browser_page, "calado")
    browser_page.click('#kg-matches button[data-id="pl:calado"]')
    state = _focused(browser_page, "pl:calado")
    assert state["selected"] == ["pl:calado"] and state["off_centre"] < 3


def test_search_shows_a_hidden_node_before_focusing_it(browser_page, tmp_path: Path):  # noqa: F811
    html_path = tmp_path / "page.html"
    html_path.write_text(network_page(_search_graph()), encoding="utf-8")
    _open(browser_page, html_path)
    assert browser_page.evaluate("window.kgNodes.get('p:olu').hidden") is True  # unlinked: hidden at first
    browser_page.uncheck('#kg-legend input[data-type="person"]')
    browser_page.wait_for_function("document.body.getAttribute('data-kg-state') === 'settled'")

    assert _search(browser_page, "olu") == [{"name": "Olu Brandt", "type": "person, hidden", "id": "p:olu"}]
    browser_page.click('#kg-matches button[data-id="p:olu"]')
    state = _focused(browser_page, "p:olu")
    assert state["hidden"] is False and state["selected"] == ["p:olu"] and state["off_centre"] < 3
    assert browser_page.is_checked('#kg-legend input[data-type="person"]')
    assert browser_page.is_checked("#kg-lonely")


def test_labels_never_overlap_and_more_show_when_zoomed_in(browser_page, tmp_path: Path):  # noqa: F811
    # a crowd: one hub, 120 people round it, every fourth also linked to its neighbour
    graph = nx.MultiDiGraph()
    graph.add_node("hub", type="event", name="Harbour Lights Weekender", degree=120, quotes=[])
    for i in range(120):
        graph.add_node(f"p{i}", type="person", name=f"Performer Number {i:03d}", degree=1 + (i % 4 == 0), quotes=[])
        graph.add_edge(f"p{i}", "hub", relation="performed at", article=f"a{i}")
        if i % 4 == 0:
            graph.add_edge(f"p{i}", f"p{i + 1}", relation="mentioned with", article=f"a{i}")
    html_path = tmp_path / "crowd.html"
    html_path.write_text(network_page(graph), encoding="utf-8")
    _open(browser_page, html_path)

    def labels() -> list[dict[str, Any]]:
        browser_page.evaluate("window.kgNetwork.redraw()")
        browser_page.wait_for_timeout(100)
        return browser_page.evaluate("window.kgLabels")

    def overlaps(boxes: list[dict[str, Any]]) -> list[tuple[str, str]]:
        return [
            (a["text"], b["text"])
            for i, a in enumerate(boxes)
            for b in boxes[i + 1 :]
            if a["l"] < b["r"] and b["l"] < a["r"] and a["t"] < b["b"] and b["t"] < a["b"]
        ]

    whole = labels()
    texts = {label["text"] for label in whole}
    assert "Harbour Lights Weekender" in texts  # the hub is named first
    assert overlaps(whole) == []
    assert 0 < len(whole) < 121  # not every name fits the whole picture
    browser_page.evaluate("window.kgNetwork.moveTo({position: {x: 0, y: 0}, scale: window.kgNetwork.getScale() * 4})")
    closer = labels()
    assert overlaps(closer) == []
    assert {label["text"] for label in closer} - texts  # names that had no room now show
