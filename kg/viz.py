"""Network pictures of a kg projection: an interactive offline page, an inline notebook view, a PNG.

The page (:func:`network_page`, :func:`write_page`, ``kg viz -o``) draws with
vis-network and is one self-contained HTML file that works offline and from a
``file://`` URL: vis-network's script and style are inlined from the copy pyvis
ships (pyvis's own template would still fetch Bootstrap from a CDN). Nothing from
an article is ever parsed as markup: node and edge data go into a JSON block with
``<``, ``>`` and ``&`` escaped, and tooltips are built in the browser with
``textContent``, so a name such as ``</script><img src=x onerror=alert(1)>`` shows
as text and runs nothing. The page draws the names itself, each only where it
covers no other name or node (vis-network would draw them all, overlapping), so
more appear as you zoom in; a search box finds a node by name and centres it.
:func:`inline_page` (or ``KnowledgeGraph.show()``) shows the same page in Jupyter, and
:func:`write_png` (``kg viz --png``) draws the same selection, colours and shapes
as a static picture for reports, with matplotlib.

Node limit and the order of cutting: a page draws at most ``max_nodes`` nodes
(300 by default; a PNG 80, where labels must stay readable on paper). The nodes
kept are the most connected first: sorted by ``degree`` (distinct neighbours in
the whole projection, before the cut), highest first, ties broken by name and
then by IRI, so the same graph always gives the same cut. Edges are kept when
both their ends are; the page says what was cut ("showing 300 of 5,000 entities,
most connected first"). Entities left with no drawn link are hidden at first (a
cloud of unlinked dots is what makes a picture a hairball); one tick in the
legend shows them. Above 400 drawn links, relations show on hover only.
Measured by ``benchmarks/viz_5000.py`` (5,000 entities; docs/viz.md has the
figures): the default page's 300 nodes settle in headless Chromium in 1.4 s on a
quiet 2-CPU machine, 1.8 s at load 5.6, under 4 s at load 10.
"""

from __future__ import annotations

import html
import io
import json
import math
import os
from collections import defaultdict
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from string import Template
from typing import TYPE_CHECKING, Any, NamedTuple

import networkx as nx
from pyvis.network import Network
from rdflib import Graph

from kg._files import write_atomic
from kg.network import (
    NODE_TYPES,
    _tail,
    entity_graph,
    events_graph,
    people_graph,
    works_graph,
)

if TYPE_CHECKING:
    from matplotlib.figure import Figure

__all__ = [
    "PAGE_MAX_NODES",
    "PNG_MAX_NODES",
    "VIEWS",
    "InlinePage",
    "inline_page",
    "network_figure",
    "network_page",
    "project",
    "view_title",
    "write_page",
    "write_png",
]

#: Projections :func:`write_page` and :func:`write_png` can draw, by name.
VIEWS: dict[str, Callable[[Graph], nx.Graph]] = {
    "entities": entity_graph,
    "people": people_graph,
    "works": works_graph,
    "events": events_graph,
}

#: Default node limit of a page: vis-network settles 300 nodes in a couple of seconds.
PAGE_MAX_NODES = 300
#: Default node limit of a PNG: past about 80 names a printed picture cannot be read.
PNG_MAX_NODES = 80

# type -> (colour, vis shape, legend symbol, matplotlib marker); Tableau 10 colours,
# distinct in colour-blind palettes too.
_STYLE = {
    "person": ("#4e79a7", "dot", "\u25cf", "o"),
    "group": ("#b07aa1", "hexagon", "\u2b22", "h"),
    "organization": ("#76b7b2", "square", "\u25a0", "s"),
    "work": ("#f28e2b", "diamond", "\u25c6", "D"),
    "event": ("#e15759", "star", "\u2605", "*"),
    "place": ("#59a14f", "triangle", "\u25b2", "^"),
}
_OTHER_STYLE = ("#9c9c9c", "dot", "\u25cf", "o")

_COMENTION = "mentioned with"
_EDGE_COLOUR = "#8c959f"
_COMENTION_COLOUR = "#c4cad1"
_EDGE_LABEL_LIMIT = 400  # above this many edges, relations show on hover only (the page draws a label only where it has room)
_PNG_EDGE_LABEL_LIMIT = 40  # on paper labels crowd sooner
_LABEL_CHARS = 40
_PNG_LABEL_CHARS = 28
_LINK = 2.0  # median link length of the layout, in its own units
_BIG_PIECE = 500  # nodes: from here a piece is not laid out in Python for the page
_PAGE_SCALE = 65  # page pixels per layout unit: links about 130 px long
_STRETCH = 1.5  # labels are wide: more room across than down keeps neighbours' names apart
_TIP_QUOTES = 3  # a tooltip is a glance, not a reader
_TIP_QUOTE_CHARS = 220
_IFRAME_HEIGHT = 700

# Escapes that keep JSON inert inside <script>: no tag can open or close, no entity can start.
_JSON_ESCAPES = str.maketrans(
    {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028", "\u2029": "\\u2029"}
)

# the vis-network build pyvis ships (and its own template inlines for cdn_resources="in_line")
_VIS_LIB = resources.files("pyvis") / "templates" / "lib" / "vis-9.1.2"


class _Selection(NamedTuple):
    """What a picture draws: the kept nodes, their merged edges, and which kept nodes have none."""

    total: int
    kept: list[Any]
    edges: dict[tuple[Any, Any], dict[str, list[str]]]
    lonely: frozenset[Any]


class InlinePage:
    """A network page that Jupyter shows inline: an ``<iframe srcdoc>`` holding the whole page.

    The iframe keeps the page's script and style apart from the notebook's, and
    needs no server or network, so it shows the same in JupyterLab, classic
    Notebook, VS Code and an exported HTML file.

    Attributes:
        page: the page's HTML text (what :func:`network_page` returns).
        height: the frame's height in CSS pixels.
    """

    def __init__(self, page: str, height: int = _IFRAME_HEIGHT) -> None:
        self.page = page
        self.height = height

    def __repr__(self) -> str:
        return f"<InlinePage: kg network page, {len(self.page):,} characters>"

    def _repr_html_(self) -> str:
        # srcdoc is an attribute: escaping the whole page (quotes too) keeps it one inert string
        return (
            f'<iframe srcdoc="{html.escape(self.page, quote=True)}" title="kg network" '
            f'style="width:100%;height:{int(self.height)}px;border:1px solid #d0d7de;border-radius:6px" '
            'sandbox="allow-scripts"></iframe>'
        )

    def save(self, path: str | os.PathLike[str]) -> Path:
        """Write the page itself (not the iframe) to a file, atomically."""
        data = self.page.encode("utf-8")
        return write_atomic(Path(path), lambda out: out.write(data))


def network_page(graph: nx.Graph, *, title: str = "kg network", max_nodes: int = PAGE_MAX_NODES) -> str:
    """Draw a projection as one self-contained, offline HTML page.

    Too many nodes make a hairball, so only the ``max_nodes`` most connected are
    drawn (ties broken by name) and the page says so ("showing 300 of 5,000
    entities, most connected first"). All edges between two nodes are drawn as
    one line labelled with their relations, thicker the more articles state them;
    labels move to hover titles when there are more than 400 lines. Nodes left
    without a drawn link start hidden, with a legend tick to show them.

    Args:
        graph: a projection from :mod:`kg.network` (node attributes ``type``,
            ``name``, ``degree``; optional ``quotes``, ``articles``, ``iri``).
        title: the page heading.
        max_nodes: how many nodes to draw at most.

    Returns:
        The HTML text.

    Raises:
        ValueError: if ``max_nodes`` is below 1.
    """
    chosen = _select(graph, max_nodes)
    net = Network(directed=True, cdn_resources="in_line")
    # start from the packed layout: vis-network then only polishes it, quickly and the same every time
    start = _layout(chosen.kept, chosen.edges, seed=7, exact=False)
    polish_only = all(len(piece) < _BIG_PIECE for piece in _pieces(chosen.kept, chosen.edges)[1])
    labels = _labels(graph, chosen.kept)
    for node in chosen.kept:
        x, y = start[node]
        at = (round(x * _PAGE_SCALE, 1), round(-y * _PAGE_SCALE, 1))  # the canvas's y axis points down
        _add_node(net, node, graph.nodes[node], label=labels[node], lonely=node in chosen.lonely, at=at)
    labelled = len(chosen.edges) <= _EDGE_LABEL_LIMIT
    for (source, target), relations in chosen.edges.items():
        _add_edge(net, source, target, relations, directed=graph.is_directed(), labelled=labelled)
    data = {"nodes": net.nodes, "edges": net.edges, "options": _options(polish_only)}
    page = Template((resources.files("kg") / "_assets" / "network.html").read_text(encoding="utf-8"))
    return page.substitute(
        title=html.escape(title),
        summary=html.escape(_summary(chosen)),
        legend=_legend(graph, chosen),
        data=json.dumps(data, ensure_ascii=False, separators=(",", ":")).translate(_JSON_ESCAPES),
        vis_css=(_VIS_LIB / "vis-network.css").read_text(encoding="utf-8"),
        vis_js=(_VIS_LIB / "vis-network.min.js").read_text(encoding="utf-8"),
    )


def inline_page(
    graph: nx.Graph,
    *,
    title: str = "kg network",
    max_nodes: int = PAGE_MAX_NODES,
    height: int = _IFRAME_HEIGHT,
) -> InlinePage:
    """The network page of a projection, ready to show in a notebook cell.

    Example:
        >>> view = inline_page(nx.MultiDiGraph())
        >>> view._repr_html_().startswith("<iframe srcdoc=")
        True

    Args:
        graph: a projection from :mod:`kg.network`.
        title: the page heading.
        max_nodes: how many nodes to draw at most (most connected first).
        height: the frame's height in CSS pixels.

    Returns:
        An object Jupyter displays as the interactive page.
    """
    return InlinePage(network_page(graph, title=title, max_nodes=max_nodes), height=height)


def write_page(
    g: Graph, path: str | os.PathLike[str], view: str = "entities", max_nodes: int = PAGE_MAX_NODES
) -> Path:
    """Project an RDF graph and write the page, atomically (a reader never sees half a file).

    Args:
        g: an rdflib Graph, ConjunctiveGraph or Dataset in kg's RDF shape.
        path: the HTML file to write.
        view: which projection to draw, one of :data:`VIEWS`.
        max_nodes: how many nodes to draw at most (most connected first).

    Returns:
        The path written.

    Raises:
        ValueError: for an unknown view.
        GraphError: if the file cannot be written.
    """
    projection = project(g, view)
    text = network_page(projection, title=view_title(view), max_nodes=max_nodes).encode("utf-8")
    return write_atomic(Path(path), lambda out: out.write(text))


def network_figure(
    graph: nx.Graph, *, title: str = "kg network", max_nodes: int = PNG_MAX_NODES, seed: int = 7
) -> Figure:
    """Draw a projection as a matplotlib Figure: the page's cut, colours and shapes, on paper.

    Only linked entities are drawn (the subtitle counts the rest); names sit under
    their nodes with a white halo, relations label the lines while there are at
    most 40 of them, and a legend names the types and line styles. The layout is
    a spring layout with a fixed seed, each connected piece on its own, packed in rows, so one graph always gives
    one picture.

    Args:
        graph: a projection from :mod:`kg.network`.
        title: the picture's heading.
        max_nodes: how many nodes to consider at most (most connected first).
        seed: the layout's random seed.

    Returns:
        A Figure not tied to pyplot (no global state, no GUI backend needed).

    Raises:
        ValueError: if ``max_nodes`` is below 1.
    """
    from matplotlib.figure import Figure

    chosen = _select(graph, max_nodes)
    drawn = [n for n in chosen.kept if n not in chosen.lonely]
    fig = Figure(figsize=(12, 8), dpi=100, layout="constrained")
    ax = fig.add_subplot()
    ax.set_axis_off()
    fig.suptitle(title, x=0.01, ha="left", fontsize=15, fontweight="bold")
    ax.set_title(_summary(chosen), loc="left", fontsize=10, color="#57606a")
    if drawn:
        pos = _layout(drawn, chosen.edges, seed, exact=True)
        _draw_edges(ax, graph, pos, chosen.edges)
        _draw_nodes(ax, graph, pos, drawn)
        _pad_limits(ax, pos)
    else:
        ax.text(0.5, 0.5, "No linked entities to draw.", ha="center", va="center", fontsize=12, color="#57606a")
    _png_legend(ax, graph, drawn, chosen.edges)
    if drawn:
        _draw_labels(fig, ax, graph, pos, drawn, chosen.edges)  # last: it needs the final place of everything else
    return fig


def write_png(
    g: Graph,
    path: str | os.PathLike[str],
    view: str = "entities",
    max_nodes: int = PNG_MAX_NODES,
    dpi: int = 120,
) -> Path:
    """Project an RDF graph and write a static PNG of it for reports, atomically.

    Args:
        g: an rdflib Graph, ConjunctiveGraph or Dataset in kg's RDF shape.
        path: the PNG file to write.
        view: which projection to draw, one of :data:`VIEWS`.
        max_nodes: how many nodes to consider at most (most connected first).
        dpi: resolution; the picture is 12 x 8 inches.

    Returns:
        The path written.

    Raises:
        ValueError: for an unknown view.
        GraphError: if the file cannot be written.
    """
    fig = network_figure(project(g, view), title=view_title(view), max_nodes=max_nodes)
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=dpi, facecolor="white")
    data = buffer.getvalue()
    return write_atomic(Path(path), lambda out: out.write(data))


def project(g: Graph, view: str) -> nx.Graph:
    """The named projection of ``g``, one of :data:`VIEWS`.

    Raises:
        ValueError: for an unknown view.
    """
    if view not in VIEWS:
        raise ValueError(f"unknown view {view!r}: choose one of {', '.join(VIEWS)}")
    return VIEWS[view](g)


def view_title(view: str) -> str:
    """The heading of a page or picture of the named projection."""
    return "kg: entities and their links" if view == "entities" else f"kg: {view}"


def _select(graph: nx.Graph, max_nodes: int) -> _Selection:
    """The cut both pictures share: most connected nodes, their merged edges, the unlinked among them."""
    if max_nodes < 1:
        raise ValueError(f"max_nodes must be at least 1, got {max_nodes}")
    kept = _most_connected(graph, max_nodes)
    edges = _merged_edges(graph, set(kept))
    linked = {end for pair in edges for end in pair}
    return _Selection(graph.number_of_nodes(), kept, edges, frozenset(n for n in kept if n not in linked))


def _most_connected(graph: nx.Graph, limit: int) -> list[Any]:
    """The ``limit`` nodes with most neighbours, ties by name then key, so the cut is stable."""

    def rank(node: Any) -> tuple[int, str, str]:
        data = graph.nodes[node]
        return (-int(data.get("degree", graph.degree(node))), str(data.get("name", node)), str(node))

    return sorted(graph.nodes, key=rank)[:limit]


def _add_node(
    net: Network, node: Any, data: dict[str, Any], *, label: str, lonely: bool, at: tuple[float, float]
) -> None:
    """One styled node; the ``kg*`` fields feed the browser-built labels, tooltip, search and filters.

    The node has no vis-network ``label``: the page draws ``kgLabel`` itself, only
    where it overlaps no other label or node (vis-network draws every label, overlapping).
    """
    kind = data.get("type", "")
    colour, shape, _, _ = _STYLE.get(kind, _OTHER_STYLE)
    name = str(data.get("name", node))
    degree = int(data.get("degree", 0))
    quotes = list(data.get("quotes", []))
    net.add_node(
        str(node),
        kgLabel=label,
        shape=shape,
        color=colour,
        value=round(1 + math.sqrt(degree), 2),  # square root: one hub must not flatten all the rest
        kgType=kind,
        kgName=name,
        kgMeta=_meta(data),
        kgQuotes=[
            {
                "text": _clip(str(q.get("text", "")), _TIP_QUOTE_CHARS),
                "article": q.get("article"),
                "headline": _clip(str(q["headline"]), _LABEL_CHARS * 2) if q.get("headline") else None,
            }
            for q in quotes[:_TIP_QUOTES]
        ],
        kgMoreQuotes=max(len(quotes) - _TIP_QUOTES, 0),
        kgLonely=lonely,
        x=at[0],
        y=at[1],
    )
    del net.node_map[str(node)]["label"]  # pyvis falls back to the id (the IRI) for a missing label


def _labels(graph: nx.Graph, nodes: list[Any]) -> dict[Any, str]:
    """Short drawn names, told apart when two drawn entities share one.

    A shared name gets its type (``Avery (person)``, ``Avery (place)``), or, between
    two entities of one type, the end of its IRI; the tooltip and the search list
    show the whole name and the IRI.
    """
    names = {node: _clip(str(graph.nodes[node].get("name", node)), _LABEL_CHARS) for node in nodes}
    holders: dict[str, list[Any]] = defaultdict(list)
    for node, name in names.items():
        holders[name.casefold()].append(node)
    for same in holders.values():
        if len(same) < 2:
            continue
        kinds = [graph.nodes[node].get("type") or "other" for node in same]
        for node, kind in zip(same, kinds):
            tag = kind if kinds.count(kind) == 1 else _tail(node)
            names[node] = f"{names[node]} ({tag})"
    return names


def _add_edge(
    net: Network,
    source: Any,
    target: Any,
    relations: dict[str, list[str]],
    *,
    directed: bool,
    labelled: bool,
) -> None:
    """One drawn edge for every edge between two nodes: one line reads better than a bundle."""
    title = "\n".join(
        f"{relation} (articles {', '.join(articles)})" if articles else relation
        for relation, articles in relations.items()
    )
    count = max(max(len(articles) for articles in relations.values()), 1)
    options: dict[str, Any] = {"title": title, "width": round(1 + min(count - 1, 4) * 0.75, 2)}
    named = [relation for relation in relations if relation != _COMENTION]
    # only named together: the weakest tie, drawn light, dashed, unlabelled, without arrow
    if not named:
        options.update(
            dashes=True,
            # in a crowd of lines (no labels fit then either) the weakest ties fade further
            color={"color": _COMENTION_COLOUR, "opacity": 0.8 if labelled else 0.35},
            arrows={"to": {"enabled": False}},
        )
    else:
        options["arrows"] = {"to": {"enabled": directed, "scaleFactor": 0.5}}
        if labelled:
            options["kgLabel"] = " \u00b7 ".join(named)  # drawn by the page where it has room, like node labels
    net.add_edge(str(source), str(target), **options)


def _merged_edges(graph: nx.Graph, kept: set[Any]) -> dict[tuple[Any, Any], dict[str, list[str]]]:
    """(source, target) -> relation -> the article ids stating it, among kept nodes."""
    merged: dict[tuple[Any, Any], dict[str, list[str]]] = defaultdict(dict)
    for u, v, data in graph.edges(data=True):
        if u not in kept or v not in kept or u == v:
            continue
        seen = merged[(u, v)].setdefault(str(data.get("relation", "linked")), [])
        articles = data.get("articles") or ([data["article"]] if data.get("article") else [])
        seen.extend(str(a) for a in articles if str(a) not in seen)
    return merged


def _meta(data: dict[str, Any]) -> str:
    """The tooltip's small print: how many articles and links."""
    parts = []
    if "articles" in data:
        parts.append(_plural(int(data["articles"]), "article"))
    parts.append(_plural(int(data.get("degree", 0)), "link"))
    return " \u00b7 ".join(parts)


def _legend(graph: nx.Graph, chosen: _Selection) -> str:
    """One checkbox row per type present (symbol, name, how many drawn), and one for unlinked nodes."""
    drawn = _type_counts(graph, chosen.kept)
    rows = []
    for kind, count in drawn.items():
        colour, _, symbol, _ = _STYLE.get(kind, _OTHER_STYLE)
        label = html.escape(kind or "other")
        rows.append(
            f'      <li><label><input type="checkbox" data-type="{html.escape(kind)}" checked> '
            f'<span class="kg-symbol" style="color:{colour}">{symbol}</span> {label} '
            f'<span class="kg-count">{count}</span></label></li>'
        )
    # unlinked entities start hidden: shown, they scatter as dots round the linked picture
    if chosen.lonely:
        rows.append(
            '      <li class="kg-extra"><label><input type="checkbox" id="kg-lonely"> '
            '<span class="kg-symbol" style="color:#9c9c9c">\u25cb</span> show unlinked '
            f'<span class="kg-count">{len(chosen.lonely)}</span></label></li>'
        )
    return "\n".join(rows)


def _type_counts(graph: nx.Graph, nodes: list[Any]) -> dict[str, int]:
    """Type -> how many of ``nodes`` have it, in legend order (kg's types first, others by name)."""
    counts: dict[str, int] = defaultdict(int)
    for node in nodes:
        counts[graph.nodes[node].get("type", "")] += 1
    order = [t for t in NODE_TYPES if t in counts] + sorted(t for t in counts if t not in NODE_TYPES)
    return {kind: counts[kind] for kind in order}


def _summary(chosen: _Selection) -> str:
    """What the picture shows: the cut when there is one, and how many unlinked entities wait hidden."""
    if chosen.total == 0:
        return "No entities to show."
    links = _plural(len(chosen.edges), "link")
    if len(chosen.kept) < chosen.total:
        text = f"showing {len(chosen.kept):,} of {chosen.total:,} entities, most connected first ({links})"
    else:
        text = f"{_plural(chosen.total, 'entity', 'entities')}, {links}"
    if chosen.lonely:
        text += f"; {len(chosen.lonely):,} without links hidden"
    return text


def _plural(n: int, one: str, many: str | None = None) -> str:
    """``1 link``, ``2 links``."""
    return f"{n:,} {one if n == 1 else (many or one + 's')}"


def _clip(text: str, limit: int) -> str:
    """At most ``limit`` characters, an ellipsis marking a cut."""
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "\u2026"


def _options(polish_only: bool) -> dict[str, Any]:
    """vis-network options: settle once with forceAtlas2, hover tooltips; no labels (the page draws them).

    From the packed start a short polish is enough; a big piece scattered at random
    needs the full run.
    """
    return {
        "autoResize": True,
        "layout": {"randomSeed": 7},  # the same graph gives the same picture on every load
        "height": "100%",
        "width": "100%",
        "physics": {
            "solver": "forceAtlas2Based",
            "forceAtlas2Based": {
                "gravitationalConstant": -160,
                "centralGravity": 0.015,
                "springLength": 120,
                "springConstant": 0.06,
                "avoidOverlap": 1,
            },
            "stabilization": {"enabled": True, "iterations": 200 if polish_only else 600, "fit": True},
            "minVelocity": 0.75,
        },
        "interaction": {"hover": True, "tooltipDelay": 120, "hideEdgesOnDrag": True},
        # labels are drawn by the page (see network.html), so these style shapes and lines only
        "nodes": {"borderWidth": 1, "scaling": {"min": 10, "max": 30}},
        "edges": {
            "smooth": {"enabled": True, "type": "continuous", "roundness": 0.3},
            "color": {"color": _EDGE_COLOUR, "highlight": "#24292f", "hover": "#24292f"},
        },
    }


def _layout(
    nodes: list[Any], edges: dict[tuple[Any, Any], dict[str, list[str]]], seed: int, *, exact: bool
) -> dict[Any, tuple[float, float]]:
    """Each connected piece laid out on its own at one link length, then the pieces packed in rows.

    One force layout of the whole pushes small pieces to the rim or into each
    other and squeezes each piece's nodes together; packing keeps every link about
    the same length, so labels get the same room everywhere. The PNG uses it as is
    (``exact``); the page as the start that vis-network polishes, which also lays
    out from scratch pieces too big to lay out quickly here.
    """
    simple, pieces = _pieces(nodes, edges)
    laid_out = []
    for piece in pieces:
        # a fresh graph in sorted order: a subgraph view iterates a set, whose order changes per process
        sub = nx.Graph()
        sub.add_nodes_from(sorted(piece, key=str))
        sub.add_edges_from(simple.subgraph(piece).edges)
        laid_out.append(_piece_layout(sub, seed, exact))
    return _pack(laid_out)


def _pieces(nodes: list[Any], edges: dict[tuple[Any, Any], Any]) -> tuple[nx.Graph, list[set[Any]]]:
    """The simple undirected graph of ``nodes`` and its connected pieces, largest first, in a stable order."""
    simple = nx.Graph()
    simple.add_nodes_from(nodes)
    simple.add_edges_from((u, v) for u, v in edges if u in simple and v in simple)
    return simple, sorted(nx.connected_components(simple), key=lambda c: (-len(c), min(map(str, c))))


def _piece_layout(piece: nx.Graph, seed: int, exact: bool) -> dict[Any, tuple[float, float]]:
    """Force layout of one connected piece, scaled so its median link is :data:`_LINK` long."""
    size = piece.number_of_nodes()
    if size == 1:
        return {next(iter(piece)): (0.0, 0.0)}
    # Fruchterman-Reingold on numpy: quick below 500 nodes (from there networkx wants scipy)
    if size < _BIG_PIECE:
        raw = nx.spring_layout(piece, iterations=150, seed=seed, method="force")
    # a big piece for the page: a seeded scatter of the right size, vis-network's solver does the rest
    elif not exact:
        side = math.sqrt(size) * _LINK
        return {n: (float(x) * side, float(y) * side) for n, (x, y) in nx.random_layout(piece, seed=seed).items()}
    # a big piece on paper: ForceAtlas2 (numpy only; slow, tens of seconds at 1,000 nodes)
    else:
        raw = nx.forceatlas2_layout(piece, max_iter=200, seed=seed)
    lengths = sorted(math.dist(raw[u], raw[v]) for u, v in piece.edges)
    scale = _LINK / (lengths[len(lengths) // 2] or 1.0)
    return {n: (float(x) * scale * _STRETCH, float(y) * scale) for n, (x, y) in raw.items()}


def _pack(pieces: list[dict[Any, tuple[float, float]]]) -> dict[Any, tuple[float, float]]:
    """Shelf-pack laid-out pieces, largest first, into rows about 1.6 times as wide as the whole is tall."""
    if not pieces:
        return {}
    boxes = []
    for piece in pieces:
        xs = [x for x, _ in piece.values()]
        ys = [y for _, y in piece.values()]
        boxes.append((min(xs), max(ys), max(xs) - min(xs) + _LINK, max(ys) - min(ys) + _LINK))
    area = sum(w * h for _, _, w, h in boxes)
    row_width = max(math.sqrt(area * 1.6), max(w for _, _, w, _ in boxes))
    pos: dict[Any, tuple[float, float]] = {}
    x = y = row_height = 0.0
    for piece, (left, top, width, height) in zip(pieces, boxes):
        # a piece that would overflow the row starts the next one
        if x > 0 and x + width > row_width:
            x, y, row_height = 0.0, y - row_height, 0.0
        for node, (nx_, ny) in piece.items():
            pos[node] = (x + nx_ - left, y - (top - ny))
        x += width
        row_height = max(row_height, height)
    return pos


def _draw_edges(
    ax: Any, graph: nx.Graph, pos: dict[Any, tuple[float, float]], edges: dict[tuple[Any, Any], dict[str, list[str]]]
) -> None:
    """Relations solid with an arrow (on a directed projection), co-mentions light and dashed."""
    for (source, target), relations in edges.items():
        named = any(r != _COMENTION for r in relations)
        articles = max(len(a) for a in relations.values())
        width = 0.8 + min(max(articles, 1) - 1, 4) * 0.5
        style = dict(
            arrowstyle="-|>" if named and graph.is_directed() else "-",
            color=_EDGE_COLOUR if named else _COMENTION_COLOUR,
            linestyle="-" if named else (0, (4, 3)),
            linewidth=width,
            shrinkA=9,
            shrinkB=9,
            mutation_scale=11,
            connectionstyle="arc3,rad=0.08",
        )
        ax.annotate("", xy=pos[target], xytext=pos[source], arrowprops=style, zorder=1)


def _draw_nodes(ax: Any, graph: nx.Graph, pos: dict[Any, tuple[float, float]], drawn: list[Any]) -> None:
    """One marker per node in its type's colour and shape, area by degree."""
    by_type: dict[str, list[Any]] = defaultdict(list)
    for node in drawn:
        by_type[graph.nodes[node].get("type", "")].append(node)
    for kind, members in by_type.items():
        colour, _, _, marker = _STYLE.get(kind, _OTHER_STYLE)
        sizes = [_marker_area(graph.nodes[n], marker) for n in members]
        xs, ys = zip(*(pos[n] for n in members))
        ax.scatter(xs, ys, s=sizes, c=colour, marker=marker, edgecolors="white", linewidths=1.0, zorder=3)


def _draw_labels(
    fig: Figure,
    ax: Any,
    graph: nx.Graph,
    pos: dict[Any, tuple[float, float]],
    drawn: list[Any],
    edges: dict[tuple[Any, Any], dict[str, list[str]]],
) -> None:
    """Names and relations where they overlap nothing, the page's rule on paper.

    In order (most connected nodes first, then relations), each label goes below its
    node, else above, right or left, at the first place that covers no label and no
    other node and stays inside the picture; with no such place it is left out, so
    no two labels ever overlap. The ten most connected may cover other nodes.
    """
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.transforms import Bbox

    FigureCanvasAgg(fig)
    fig.draw_without_rendering()  # run the layout first: it moves the axes, and the boxes below with them
    renderer = fig.canvas.get_renderer()
    points = fig.dpi / 72  # pixels per point
    centre = {node: ax.transData.transform(pos[node]) for node in drawn}
    radius = {node: math.sqrt(_marker_area(graph.nodes[node], "o")) / 2 * points for node in drawn}
    shapes = {node: Bbox.from_bounds(*(centre[node] - radius[node]), 2 * radius[node], 2 * radius[node]) for node in drawn}
    room = _LabelRoom(ax, renderer, points, shapes)
    _label_nodes(ax, graph, pos, drawn, radius, room)
    _label_edges(ax, pos, edges, room)


class _LabelRoom:
    """Where a label may still go on a drawn picture: inside the axes, over no label placed
    before it and, but for the most connected nodes, over no other node."""

    def __init__(self, ax: Any, renderer: Any, points: float, shapes: dict[Any, Any]) -> None:
        self.ax = ax
        self.renderer = renderer
        self.points = points
        self.shapes = shapes
        self.labels: list[Any] = []

    def fits(self, text: Any, own: Any, hub: bool) -> bool:
        """Whether ``text`` (the label of node ``own``, if any) stands clear where it is."""
        box = text.get_window_extent(self.renderer).padded(2 * self.points)
        bbox = self.ax.bbox
        inside = bbox.containsx(box.x0) and bbox.containsx(box.x1) and bbox.containsy(box.y0) and bbox.containsy(box.y1)
        covers_node = any(box.overlaps(shape) for node, shape in self.shapes.items() if node != own)
        return inside and (hub or not covers_node) and not any(box.overlaps(other) for other in self.labels)

    def take(self, text: Any) -> None:
        """Keep ``text`` where it is: no later label may cover it."""
        self.labels.append(text.get_window_extent(self.renderer).padded(2 * self.points))


def _label_nodes(
    ax: Any,
    graph: nx.Graph,
    pos: dict[Any, tuple[float, float]],
    drawn: list[Any],
    radius: dict[Any, float],
    room: _LabelRoom,
) -> None:
    """Each node's name below it, else above, right or left, wherever it first fits."""
    points = room.points
    for rank, node in enumerate(drawn):
        data = graph.nodes[node]
        gap = radius[node] / points + 2  # points from the centre to the label
        for dx, dy, ha, va in ((0, -gap, "center", "top"), (0, gap, "center", "bottom"), (gap, 0, "left", "center"), (-gap, 0, "right", "center")):
            text = ax.annotate(
                _clip(str(data.get("name", node)), _PNG_LABEL_CHARS), pos[node], xytext=(dx, dy), textcoords="offset points",
                ha=ha, va=va, fontsize=min(8 + int(data.get("degree", 0)) * 0.5, 12), color="#1f2328", zorder=4,
                path_effects=_halo(3), annotation_clip=False,
            )
            text.set_in_layout(False)
            if room.fits(text, node, hub=False) or (rank < 10 and room.fits(text, node, hub=True)):
                room.take(text)
                break
            text.remove()


def _label_edges(
    ax: Any, pos: dict[Any, tuple[float, float]], edges: dict[tuple[Any, Any], dict[str, list[str]]], room: _LabelRoom
) -> None:
    """Each named relation's label at the middle of its line, where it fits."""
    # the page labels named relations only; so does the picture, while they fit
    named = [(pair, [r for r in rel if r != _COMENTION]) for pair, rel in edges.items()]
    if sum(1 for _, relations in named if relations) > _PNG_EDGE_LABEL_LIMIT:
        return
    for (source, target), relations in named:
        if not relations:
            continue
        (x1, y1), (x2, y2) = pos[source], pos[target]
        text = ax.text(
            (x1 + x2) / 2, (y1 + y2) / 2, _clip(" \u00b7 ".join(relations), _PNG_LABEL_CHARS),
            fontsize=7, color="#57606a", ha="center", va="center", zorder=2, path_effects=_halo(2),
        )
        text.set_in_layout(False)
        if room.fits(text, None, hub=False):
            room.take(text)
        else:
            text.remove()


def _marker_area(data: dict[str, Any], marker: str) -> float:
    """Marker area in points squared, growing with the square root of degree like the page's nodes."""
    area = (7 + 3.5 * math.sqrt(int(data.get("degree", 0)))) ** 2
    return area * 1.8 if marker == "*" else area  # a star fills less of its box than a disc


def _halo(width: float) -> list[Any]:
    """A white outline that keeps text readable over lines."""
    from matplotlib import patheffects

    return [patheffects.withStroke(linewidth=width, foreground="white")]


def _pad_limits(ax: Any, pos: dict[Any, tuple[float, float]]) -> None:
    """Room round the outermost nodes for their labels."""
    xs = [x for x, _ in pos.values()]
    ys = [y for _, y in pos.values()]
    dx = (max(xs) - min(xs)) or 1.0
    dy = (max(ys) - min(ys)) or 1.0
    ax.set_xlim(min(xs) - 0.08 * dx, max(xs) + 0.08 * dx)
    ax.set_ylim(min(ys) - 0.1 * dy, max(ys) + 0.06 * dy)


def _png_legend(
    ax: Any, graph: nx.Graph, drawn: list[Any], edges: dict[tuple[Any, Any], dict[str, list[str]]]
) -> None:
    """The page's legend on paper: a marker and count per type, then the two kinds of line."""
    from matplotlib.lines import Line2D

    handles = []
    for kind, count in _type_counts(graph, drawn).items():
        colour, _, _, marker = _STYLE.get(kind, _OTHER_STYLE)
        handles.append(
            Line2D([], [], linestyle="", marker=marker, markersize=10, color=colour, label=f"{kind or 'other'} ({count})")
        )
    relations = list(edges.values())
    if any(r != _COMENTION for rel in relations for r in rel):
        handles.append(Line2D([], [], color=_EDGE_COLOUR, label="relation, arrow from who did it"))
    if any(_COMENTION in rel for rel in relations):
        handles.append(
            Line2D([], [], color=_COMENTION_COLOUR, linestyle=(0, (4, 3)), label="named in the same article")
        )
    if handles:
        ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.0, 1.0), frameon=False, fontsize=10)
