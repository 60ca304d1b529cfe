"""kg.viz: the network page is offline, legible, honest about its cut, and inert to hostile text."""

from __future__ import annotations

import html as html_mod
import json
import re
import struct
from pathlib import Path

import networkx as nx
import pytest
from rdflib import RDF, Dataset, Literal, Namespace

from kg.errors import GraphError
from kg.graph import KnowledgeGraph
from kg.viz import VIEWS, InlinePage, inline_page, network_figure, network_page, write_page, write_png

SDO = Namespace("https://schema.org/")
PROV = Namespace("http://www.w3.org/ns/prov#")
ID = Namespace("https://w3id.org/kg/id/")

HOSTILE_NAME = '</script><script>alert("name")</script>'
HOSTILE_IMG = "<img src=x onerror=alert(1)>"
HOSTILE_QUOTE = "It's \"fine\" \\ really </script><img src=x onerror=alert(2)> & done"


def _data(page: str) -> dict:
    """The JSON block the page draws from, parsed back."""
    match = re.search(r'<script type="application/json" id="kg-data">(.*?)</script>', page, re.S)
    assert match, "no data block"
    return json.loads(match.group(1))


def _small_graph() -> nx.MultiDiGraph:
    graph = nx.MultiDiGraph()
    graph.add_node("p1", type="person", name="Ines Falk", degree=2, articles=2, quotes=[])
    graph.add_node("p2", type="person", name="Oren Pike", degree=1, articles=1, quotes=[])
    graph.add_node("w1", type="work", name="Salt Road", degree=1, articles=1, quotes=[])
    graph.add_node("c1", type="place", name="Marrow Bay", degree=0, articles=1, quotes=[])
    graph.add_edge("p1", "w1", relation="performed", article="a1", date="2024-01-02")
    graph.add_edge("p1", "w1", relation="performed", article="a2", date="2024-02-03")
    graph.add_edge("p1", "p2", relation="mentioned with", article="a1", date=None)
    return graph


def _star(leaves: int) -> nx.MultiDiGraph:
    """One hub with many leaves: the hub is the most connected node."""
    graph = nx.MultiDiGraph()
    graph.add_node("hub", type="event", name="Hub Fest", degree=leaves, quotes=[])
    for i in range(leaves):
        graph.add_node(f"n{i}", type="person", name=f"Leaf {i:03d}", degree=1, quotes=[])
        graph.add_edge(f"n{i}", "hub", relation="performed at", article=f"a{i}")
    return graph


def _hostile_graph() -> nx.MultiDiGraph:
    graph = nx.MultiDiGraph()
    quotes = [{"text": HOSTILE_QUOTE, "article": "<b>a1</b>", "headline": HOSTILE_IMG}]
    graph.add_node("x1", type="person", name=HOSTILE_NAME, degree=1, articles=1, quotes=quotes)
    graph.add_node("x2", type="work", name=HOSTILE_IMG, degree=1, articles=1, quotes=[])
    graph.add_edge("x1", "x2", relation="performed", article="</script>")
    return graph


def test_page_is_offline():
    page = network_page(_small_graph())
    # no script, stylesheet, image or frame pulled from anywhere
    assert not re.search(r"""(?:src|href)\s*=\s*["']?\s*(?:https?:)?//""", page, re.I)
    assert not re.search(r"<link\b", page, re.I)
    assert "cdn.jsdelivr" not in page and "cdnjs" not in page and "bootstrap" not in page.lower()
    # vis-network is inlined instead
    assert "vis.Network" in page and "vis-network" in page


def test_page_has_legend_with_drawn_types_and_filters():
    page = network_page(_small_graph(), title="Small")
    assert re.search(r'data-type="person" checked>.*?person <span class="kg-count">2</span>', page)
    assert re.search(r'data-type="work" checked>.*?work <span class="kg-count">1</span>', page)
    assert 'data-type="place"' in page
    assert 'data-type="event"' not in page  # only types on the page
    assert "<h1>Small</h1>" in page
    assert "4 entities, 2 links" in page


def test_nodes_styled_by_type_and_sized_by_degree():
    data = _data(network_page(_small_graph()))
    nodes = {n["kgName"]: n for n in data["nodes"]}
    assert nodes["Ines Falk"]["shape"] == "dot" and nodes["Salt Road"]["shape"] == "diamond"
    assert nodes["Ines Falk"]["color"] != nodes["Salt Road"]["color"]
    assert nodes["Ines Falk"]["value"] > nodes["Oren Pike"]["value"] > nodes["Marrow Bay"]["value"]
    assert nodes["Ines Falk"]["kgMeta"] == "2 articles \u00b7 2 links"


def test_parallel_edges_drawn_once_with_their_articles():
    edges = _data(network_page(_small_graph()))["edges"]
    performed = [e for e in edges if e["title"].startswith("performed")]
    assert len(performed) == 1
    assert performed[0]["title"] == "performed (articles a1, a2)"
    assert performed[0]["kgLabel"] == "performed"
    assert performed[0]["width"] > 1
    comention = next(e for e in edges if e["title"].startswith("mentioned with"))
    assert comention["dashes"] is True and "kgLabel" not in comention


def test_relations_between_one_pair_share_one_edge():
    graph = _small_graph()
    graph.add_edge("p1", "w1", relation="created", article="a3")
    graph.add_edge("p1", "w1", relation="mentioned with", article="a3")
    edges = [e for e in _data(network_page(graph))["edges"] if e["to"] == "w1"]
    assert len(edges) == 1
    assert edges[0]["kgLabel"] == "performed \u00b7 created"  # the co-mention adds nothing to a named link
    assert edges[0]["title"] == "performed (articles a1, a2)\ncreated (articles a3)\nmentioned with (articles a3)"
    assert "dashes" not in edges[0]


def test_labels_are_drawn_by_the_page_and_tell_namesakes_apart():
    graph = _small_graph()
    graph.add_node("c2", type="place", name="Ines Falk", degree=0, quotes=[])  # a place named like a person
    graph.add_node("https://w3id.org/kg/id/work/salt-road-2", type="work", name="Salt Road", degree=0, quotes=[])
    nodes = {n["id"]: n for n in _data(network_page(graph))["nodes"]}
    # vis-network would draw its own "label" over the others; the page draws kgLabel where there is room
    assert all("label" not in n for n in nodes.values())
    assert nodes["p1"]["kgLabel"] == "Ines Falk (person)"
    assert nodes["c2"]["kgLabel"] == "Ines Falk (place)"
    assert nodes["w1"]["kgLabel"] == "Salt Road (w1)"  # same name and type: the end of the IRI
    assert nodes["https://w3id.org/kg/id/work/salt-road-2"]["kgLabel"] == "Salt Road (salt-road-2)"
    assert nodes["p2"]["kgLabel"] == "Oren Pike"
    assert nodes["c2"]["kgName"] == "Ines Falk"  # the tooltip and the search keep the name as written


def test_cut_keeps_most_connected_and_says_so():
    page = network_page(_star(40), max_nodes=10)
    assert "showing 10 of 41 entities, most connected first" in page
    names = [n["kgName"] for n in _data(page)["nodes"]]
    assert len(names) == 10
    assert "Hub Fest" in names
    assert names[1:] == [f"Leaf {i:03d}" for i in range(9)]  # ties broken by name


def test_no_cut_statement_when_all_fit():
    page = network_page(_star(5), max_nodes=300)
    assert "showing" not in page
    assert "6 entities, 5 links" in page


def test_edge_labels_dropped_when_many_edges():
    assert all("kgLabel" in e for e in _data(network_page(_star(400)))["edges"])
    edges = _data(network_page(_star(401), max_nodes=402))["edges"]
    assert len(edges) == 401
    assert all("kgLabel" not in e and "label" not in e for e in edges)
    assert all(e["title"].startswith("performed at") for e in edges)


def test_hostile_text_is_inert():
    page = network_page(_hostile_graph(), title='<script>alert("t")</script>')
    baseline = network_page(nx.MultiDiGraph())
    # no script tag beyond the page's own (vis-network, data, app; vis has one in a JS string)
    assert page.count("<script") == baseline.count("<script")
    assert page.lower().count("</script") == baseline.lower().count("</script") == 3
    assert "<img" not in page
    assert "<b>a1" not in page
    body = page.split("</head>", 1)[1]  # the head holds vis-network itself, which sets img.onerror
    assert body.count("onerror=") == 4  # two names, a quote and a headline, each only inside \u003c...\u003e
    for match in re.finditer("onerror=", body):
        assert body[: match.start()].endswith("\\u003cimg src=x "), "raw onerror= in page"
    assert "<title>&lt;script&gt;alert(&quot;t&quot;)&lt;/script&gt;</title>" in page
    # the data still says exactly what the article said
    data = _data(page)
    nodes = {n["id"]: n for n in data["nodes"]}
    assert nodes["x1"]["kgName"] == HOSTILE_NAME
    assert nodes["x2"]["kgLabel"] == HOSTILE_IMG
    assert nodes["x1"]["kgQuotes"] == [{"text": HOSTILE_QUOTE, "article": "<b>a1</b>", "headline": HOSTILE_IMG}]
    assert data["edges"][0]["title"] == "performed (articles </script>)"


def test_tooltips_built_as_text_not_markup():
    page = network_page(_small_graph())
    assert "textContent" in page
    assert "innerHTML" not in page.split("<script type=\"application/json\"")[1]


def test_long_names_and_quotes_clipped_for_display():
    graph = nx.MultiDiGraph()
    name = "The Extraordinarily Long Name Of A Touring Orchestra Ensemble"
    quotes = [{"text": "word " * 100, "article": "a1", "headline": "Long headline " * 20}] * 7
    graph.add_node("g", type="group", name=name, degree=0, quotes=quotes)
    node = _data(network_page(graph))["nodes"][0]
    assert node["kgName"] == name
    assert node["kgLabel"].endswith("\u2026") and len(node["kgLabel"]) == 40
    assert len(node["kgQuotes"]) == 3 and node["kgMoreQuotes"] == 4
    assert len(node["kgQuotes"][0]["text"]) <= 220 and node["kgQuotes"][0]["text"].endswith("\u2026")
    assert len(node["kgQuotes"][0]["headline"]) == 80 and node["kgQuotes"][0]["headline"].endswith("\u2026")


def test_undirected_graph_has_no_arrows():
    graph = nx.Graph()
    graph.add_node("a", type="person", name="Ana Rui", degree=1)
    graph.add_node("b", type="group", name="The Vells", degree=1)
    graph.add_edge("a", "b", relation="mentioned with", weight=2, articles=["a1", "a2"])
    edge = _data(network_page(graph))["edges"][0]
    assert edge["arrows"] == {"to": {"enabled": False}}
    assert edge["title"] == "mentioned with (articles a1, a2)"


def test_empty_graph_page():
    page = network_page(nx.MultiDiGraph())
    assert "No entities to show." in page
    assert _data(page)["nodes"] == []


def test_bad_max_nodes():
    with pytest.raises(ValueError, match="max_nodes"):
        network_page(_small_graph(), max_nodes=0)


def _rdf() -> Dataset:
    ds = Dataset()
    article = ID["article/v1"]
    g = ds.graph(article)
    g.add((article, RDF.type, SDO.NewsArticle))
    g.add((article, SDO.identifier, Literal("v1")))
    for slug, name in [("tova-lind", "Tova Lind"), ("sam-orr", HOSTILE_IMG)]:
        person = ID[f"person/{slug}"]
        g.add((person, RDF.type, SDO.Person))
        g.add((person, SDO.name, Literal(name)))
        g.add((article, SDO.mentions, person))
        g.add((person, PROV.wasDerivedFrom, article))
    quote = ID["article/v1/quote/1-9"]
    g.add((quote, RDF.type, SDO.Quotation))
    g.add((quote, SDO.text, Literal(HOSTILE_QUOTE)))
    g.add((quote, SDO.creator, ID["person/tova-lind"]))
    g.add((quote, SDO.isPartOf, article))
    return ds


@pytest.mark.parametrize("view", sorted(VIEWS))
def test_write_page_every_view(tmp_path: Path, view: str):
    path = write_page(_rdf(), tmp_path / "net.html", view=view)
    assert path == tmp_path / "net.html"
    assert [p.name for p in tmp_path.iterdir()] == ["net.html"]  # no temp file left behind
    page = path.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>")
    assert "<img" not in page


def test_write_page_people_view_content(tmp_path: Path):
    page = write_page(_rdf(), tmp_path / "people.html", view="people").read_text(encoding="utf-8")
    nodes = {n["kgName"]: n for n in _data(page)["nodes"]}
    assert set(nodes) == {"Tova Lind", HOSTILE_IMG}
    assert nodes["Tova Lind"]["kgQuotes"] == [{"text": HOSTILE_QUOTE, "article": "v1", "headline": None}]
    assert "2 entities, 1 link" in page


def test_write_page_replaces_existing_file(tmp_path: Path):
    target = tmp_path / "net.html"
    target.write_text("old", encoding="utf-8")
    write_page(_rdf(), target)
    assert target.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


def test_write_page_unknown_view(tmp_path: Path):
    with pytest.raises(ValueError, match="unknown view 'songs': choose one of entities, people, works, events"):
        write_page(_rdf(), tmp_path / "x.html", view="songs")


def test_write_page_makes_a_missing_directory(tmp_path: Path):
    page = write_page(_rdf(), tmp_path / "missing" / "x.html")
    assert page.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


def test_write_page_under_a_file_names_the_file(tmp_path: Path):
    (tmp_path / "plain").write_text("a file", encoding="utf-8")
    with pytest.raises(GraphError, match="cannot make its folder: .*plain is a file, not a folder"):
        write_page(_rdf(), tmp_path / "plain" / "x.html")


# --- unlinked entities, start positions -------------------------------------------------------


def test_unlinked_nodes_start_hidden_with_a_legend_tick():
    page = network_page(_small_graph())
    nodes = {n["kgName"]: n for n in _data(page)["nodes"]}
    assert nodes["Marrow Bay"]["kgLonely"] is True  # no link at all
    assert not any(nodes[name]["kgLonely"] for name in ("Ines Falk", "Oren Pike", "Salt Road"))
    assert "4 entities, 2 links; 1 without links hidden" in page
    assert re.search(r'<input type="checkbox" id="kg-lonely">.*?show unlinked <span class="kg-count">1</span>', page)


def test_node_cut_off_from_its_only_neighbour_counts_as_unlinked():
    page = network_page(_star(3), max_nodes=1)
    node = _data(page)["nodes"][0]
    assert node["kgName"] == "Hub Fest" and node["kgLonely"] is True
    assert "showing 1 of 4 entities, most connected first (0 links); 1 without links hidden" in page


def test_no_unlinked_tick_when_every_node_is_linked():
    page = network_page(_star(4))
    assert 'id="kg-lonely"' not in page
    assert "without links" not in page


def test_start_positions_are_set_and_repeatable():
    first = _data(network_page(_small_graph()))["nodes"]
    second = _data(network_page(_small_graph()))["nodes"]
    assert all(isinstance(n["x"], float) and isinstance(n["y"], float) for n in first)
    assert [(n["x"], n["y"]) for n in first] == [(n["x"], n["y"]) for n in second]
    points = {(n["x"], n["y"]) for n in first}
    assert len(points) == len(first)  # no two nodes on one spot


def test_separate_pieces_do_not_overlap():
    graph = nx.MultiDiGraph()
    for piece in range(3):
        names = [f"p{piece}-{i}" for i in range(4)]
        for name in names:
            graph.add_node(name, type="person", name=name.upper(), degree=3)
        for i, u in enumerate(names):
            for v in names[i + 1 :]:
                graph.add_edge(u, v, relation="mentioned with", article=f"a{piece}")
    nodes = _data(network_page(graph))["nodes"]
    boxes = {}
    for n in nodes:
        piece = n["id"].split("-")[0]
        x0, y0, x1, y1 = boxes.get(piece, (n["x"], n["y"], n["x"], n["y"]))
        boxes[piece] = (min(x0, n["x"]), min(y0, n["y"]), max(x1, n["x"]), max(y1, n["y"]))
    pieces = sorted(boxes.values())
    for i, a in enumerate(pieces):
        for b in pieces[i + 1 :]:
            assert a[2] < b[0] or b[2] < a[0] or a[3] < b[1] or b[3] < a[1], (a, b)


# --- inline notebook view ---------------------------------------------------------------------


def test_inline_page_is_the_page_in_an_inert_srcdoc():
    view = inline_page(_hostile_graph(), title="Hostile", height=500)
    frame = view._repr_html_()
    assert frame.startswith("<iframe srcdoc=\"") and 'height:500px' in frame
    srcdoc = frame.split('srcdoc="', 1)[1].split('" title=', 1)[0]
    assert "<" not in srcdoc and '"' not in srcdoc  # one attribute value, nothing can break out
    assert html_mod.unescape(srcdoc) == view.page == network_page(_hostile_graph(), title="Hostile")


def test_inline_page_saves_the_page(tmp_path: Path):
    view = inline_page(_small_graph())
    path = view.save(tmp_path / "inline.html")
    assert path.read_text(encoding="utf-8") == view.page


def test_knowledge_graph_shows_its_network_inline():
    graph = KnowledgeGraph(_rdf())
    view = graph.show(view="people")
    assert isinstance(view, InlinePage)
    data = _data(view.page)
    assert {n["kgName"] for n in data["nodes"]} == {"Tova Lind", HOSTILE_IMG}
    assert "<h1>kg: people</h1>" in view.page
    assert view._repr_html_().startswith("<iframe srcdoc=")
    assert "showing 1 of 2 entities" in graph.show(max_nodes=1).page  # the entities view by default
    with pytest.raises(ValueError, match="unknown view 'songs'"):
        graph.show(view="songs")


# --- static picture ---------------------------------------------------------------------------


def _png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def test_figure_has_title_summary_legend_and_names():
    fig = network_figure(_small_graph(), title="Small picture")
    ax = fig.axes[0]
    assert fig.get_suptitle() == "Small picture"
    assert ax.get_title(loc="left") == "4 entities, 2 links; 1 without links hidden"
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert legend == ["person (2)", "work (1)", "relation, arrow from who did it", "named in the same article"]
    texts = {t.get_text() for t in ax.texts}
    assert {"Ines Falk", "Oren Pike", "Salt Road", "performed"} <= texts
    assert "Marrow Bay" not in texts  # unlinked: counted in the summary, not drawn


def test_figure_labels_never_overlap():
    graph = _star(40)
    for i in range(40):  # every leaf named with every other: one dense crowd, more names than room
        for j in range(i + 1, 40):
            graph.add_edge(f"n{i}", f"n{j}", relation="mentioned with", article="a1")
        graph.nodes[f"n{i}"]["name"] = f"Leaf {i:03d} of the Coastal Choir"
    fig = network_figure(graph)
    renderer = fig.canvas.get_renderer()
    boxes = {t.get_text(): t.get_window_extent(renderer) for t in fig.axes[0].texts if t.get_text()}
    assert "Hub Fest" in boxes  # the most connected is named first
    assert 1 < len(boxes) < 41
    names = sorted(boxes)
    assert [(a, b) for i, a in enumerate(names) for b in names[i + 1 :] if boxes[a].overlaps(boxes[b])] == []


def test_figure_colours_and_shapes_match_the_page():
    from matplotlib.colors import to_hex

    page_colours = {n["kgType"]: n["color"] for n in _data(network_page(_small_graph()))["nodes"]}
    fig = network_figure(_small_graph())
    drawn = {to_hex(c.get_facecolor()[0]) for c in fig.axes[0].collections}
    assert drawn == {page_colours["person"], page_colours["work"]}


def test_write_png_every_view(tmp_path: Path):
    for view in VIEWS:
        path = write_png(_rdf(), tmp_path / f"{view}.png", view=view, dpi=50)
        assert _png_size(path.read_bytes()) == (600, 400)  # 12 x 8 inches
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(f"{v}.png" for v in VIEWS)  # no temp files


def test_write_png_empty_graph_says_so(tmp_path: Path):
    fig = network_figure(nx.MultiDiGraph())
    assert [t.get_text() for t in fig.axes[0].texts] == ["No linked entities to draw."]
    assert _png_size(write_png(Dataset(), tmp_path / "empty.png").read_bytes()) == (1440, 960)


def test_write_png_errors(tmp_path: Path):
    with pytest.raises(ValueError, match="unknown view 'songs'"):
        write_png(_rdf(), tmp_path / "x.png", view="songs")
    with pytest.raises(GraphError, match="is a folder, not a file"):
        write_png(_rdf(), tmp_path)
    with pytest.raises(ValueError, match="max_nodes"):
        write_png(_rdf(), tmp_path / "x.png", max_nodes=0)


def test_figure_cut_keeps_most_connected():
    fig = network_figure(_star(100))
    assert fig.axes[0].get_title(loc="left").startswith("showing 80 of 101 entities, most connected first")
    names = {t.get_text() for t in fig.axes[0].texts}
    assert "Hub Fest" in names and "Leaf 078" in names and "Leaf 079" not in names


# --- command line -----------------------------------------------------------------------------


def test_cli_viz_png_and_page(tmp_path: Path):
    from click.testing import CliRunner

    from kg.cli import cli

    source = tmp_path / "g.trig"
    _rdf().serialize(source, format="trig")
    png, page = tmp_path / "g.png", tmp_path / "g.html"
    result = CliRunner().invoke(cli, ["viz", str(source), "--png", str(png), "-o", str(page), "--view", "people"])
    assert result.exit_code == 0, result.output
    assert result.output == f"Wrote {page} and {png}.\n"
    assert _png_size(png.read_bytes()) == (1440, 960)
    assert "<h1>kg: people</h1>" in page.read_text(encoding="utf-8")


def test_cli_viz_needs_an_output(tmp_path: Path):
    from click.testing import CliRunner

    from kg.cli import cli

    source = tmp_path / "g.trig"
    _rdf().serialize(source, format="trig")
    result = CliRunner().invoke(cli, ["viz", str(source)])
    assert result.exit_code == 2
    assert "give -o/--output PAGE.html, --png PICTURE.png, or both" in result.output


def test_big_piece_is_left_to_the_browser_to_lay_out():
    page = network_page(_star(600), max_nodes=600)
    data = _data(page)
    assert data["options"]["physics"]["stabilization"]["iterations"] == 600  # a full run, not a polish
    assert len({(n["x"], n["y"]) for n in data["nodes"]}) == 600  # a seeded scatter, no two on one spot
    assert _data(network_page(_star(20)))["options"]["physics"]["stabilization"]["iterations"] == 200


@pytest.mark.slow
def test_big_piece_on_paper_is_laid_out_in_full():
    fig = network_figure(_star(520), max_nodes=521)
    assert fig.axes[0].get_title(loc="left") == "521 entities, 520 links"


def test_same_graph_same_page_and_picture_in_every_process(tmp_path: Path):
    import os
    import subprocess
    import sys

    source = tmp_path / "g.trig"
    graph = _small_graph()
    ds = Dataset()
    article = ID["article/d1"]
    g = ds.graph(article)
    g.add((article, RDF.type, SDO.NewsArticle))
    for node, data in graph.nodes(data=True):
        iri = ID[f"person/{node}"]
        g.add((iri, RDF.type, SDO.Person))
        g.add((iri, SDO.name, Literal(data["name"])))
        g.add((article, SDO.mentions, iri))
    ds.serialize(source, format="trig")
    outputs = []
    # string hashing, and so set order, differs per process unless pinned: the pictures must not
    for hash_seed in ("1", "2"):
        page, png = tmp_path / f"p{hash_seed}.html", tmp_path / f"p{hash_seed}.png"
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        subprocess.run([sys.executable, "-m", "kg", "viz", str(source), "-o", str(page), "--png", str(png)],
                       check=True, env=env, capture_output=True, timeout=120)
        outputs.append((page.read_bytes(), png.read_bytes()))
    assert outputs[0] == outputs[1]
