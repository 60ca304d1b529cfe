"""Interactive network pages: a kg projection drawn with vis-network, one self-contained HTML file.

The page works offline and from a ``file://`` URL: vis-network's script and style
are inlined from the copy pyvis ships (pyvis's own template would still fetch
Bootstrap from a CDN). Nothing from an article is ever parsed as markup: node and
edge data go into a JSON block with ``<``, ``>`` and ``&`` escaped, and tooltips
are built in the browser with ``textContent``, so a name such as
``</script><img src=x onerror=alert(1)>`` shows as text and runs nothing.
"""

from __future__ import annotations

import html
import json
import math
import os
import tempfile
from collections import defaultdict
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from string import Template
from typing import Any

import networkx as nx
from pyvis.network import Network
from rdflib import Graph

from kg.errors import GraphError
from kg.network import NODE_TYPES, entity_graph, events_graph, people_graph, works_graph

__all__ = ["VIEWS", "network_page", "write_page"]

#: Projections :func:`write_page` can draw, by name.
VIEWS: dict[str, Callable[[Graph], nx.Graph]] = {
    "entities": entity_graph,
    "people": people_graph,
    "works": works_graph,
    "events": events_graph,
}

# type -> (colour, vis shape, legend symbol); Tableau 10 colours, distinct in colour-blind palettes too.
_STYLE = {
    "person": ("#4e79a7", "dot", "\u25cf"),
    "group": ("#b07aa1", "hexagon", "\u2b22"),
    "organization": ("#76b7b2", "square", "\u25a0"),
    "work": ("#f28e2b", "diamond", "\u25c6"),
    "event": ("#e15759", "star", "\u2605"),
    "place": ("#59a14f", "triangle", "\u25b2"),
}
_OTHER_STYLE = ("#9c9c9c", "dot", "\u25cf")

_COMENTION = "mentioned with"
_EDGE_LABEL_LIMIT = 150  # above this many edges, labels become hover titles: a wall of text helps no one
_LABEL_CHARS = 40
_TIP_QUOTES = 3  # a tooltip is a glance, not a reader
_TIP_QUOTE_CHARS = 220

# Escapes that keep JSON inert inside <script>: no tag can open or close, no entity can start.
_JSON_ESCAPES = str.maketrans(
    {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028", "\u2029": "\\u2029"}
)

# the vis-network build pyvis ships (and its own template inlines for cdn_resources="in_line")
_VIS_LIB = resources.files("pyvis") / "templates" / "lib" / "vis-9.1.2"


def network_page(graph: nx.Graph, *, title: str = "kg network", max_nodes: int = 300) -> str:
    """Draw a projection as one self-contained, offline HTML page.

    Too many nodes make a hairball, so only the ``max_nodes`` most connected are
    drawn (ties broken by name) and the page says so ("showing 300 of 5000
    entities, most connected first"). All edges between two nodes are drawn as
    one line labelled with their relations, thicker the more articles state them;
    labels move to hover titles when there are more than 150 lines.

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
    if max_nodes < 1:
        raise ValueError(f"max_nodes must be at least 1, got {max_nodes}")
    kept = _most_connected(graph, max_nodes)
    net = Network(directed=True, cdn_resources="in_line")
    for node in kept:
        _add_node(net, node, graph.nodes[node])
    edges = _merged_edges(graph, set(kept))
    labelled = len(edges) <= _EDGE_LABEL_LIMIT
    for (source, target), relations in edges.items():
        _add_edge(net, source, target, relations, directed=graph.is_directed(), labelled=labelled)
    data = {"nodes": net.nodes, "edges": net.edges, "options": _options()}
    page = Template((resources.files("kg") / "_assets" / "network.html").read_text(encoding="utf-8"))
    return page.substitute(
        title=html.escape(title),
        summary=html.escape(_summary(graph.number_of_nodes(), len(kept), len(edges))),
        legend=_legend(graph, kept),
        data=json.dumps(data, ensure_ascii=False, separators=(",", ":")).translate(_JSON_ESCAPES),
        vis_css=(_VIS_LIB / "vis-network.css").read_text(encoding="utf-8"),
        vis_js=(_VIS_LIB / "vis-network.min.js").read_text(encoding="utf-8"),
    )


def write_page(g: Graph, path: str | os.PathLike[str], view: str = "entities", max_nodes: int = 300) -> Path:
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
    if view not in VIEWS:
        raise ValueError(f"unknown view {view!r}: choose one of {', '.join(VIEWS)}")
    title = f"kg: {view}" if view != "entities" else "kg: entities and their links"
    text = network_page(VIEWS[view](g), title=title, max_nodes=max_nodes)
    target = Path(path)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    except OSError as err:
        raise GraphError(f"cannot write {target}: {err.strerror or err}") from err
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
        os.chmod(tmp, 0o644)
        os.replace(tmp, target)
    except OSError as err:
        Path(tmp).unlink(missing_ok=True)
        raise GraphError(f"cannot write {target}: {err.strerror or err}") from err
    return target


def _most_connected(graph: nx.Graph, limit: int) -> list[Any]:
    """The ``limit`` nodes with most neighbours, ties by name then key, so the cut is stable."""

    def rank(node: Any) -> tuple[int, str, str]:
        data = graph.nodes[node]
        return (-int(data.get("degree", graph.degree(node))), str(data.get("name", node)), str(node))

    return sorted(graph.nodes, key=rank)[:limit]


def _add_node(net: Network, node: Any, data: dict[str, Any]) -> None:
    """One styled node; the ``kg*`` fields feed the browser-built tooltip."""
    kind = data.get("type", "")
    colour, shape, _ = _STYLE.get(kind, _OTHER_STYLE)
    name = str(data.get("name", node))
    degree = int(data.get("degree", 0))
    quotes = list(data.get("quotes", []))
    net.add_node(
        str(node),
        label=name if len(name) <= _LABEL_CHARS else name[: _LABEL_CHARS - 1] + "\u2026",
        shape=shape,
        color=colour,
        value=round(1 + math.sqrt(degree), 2),  # square root: one hub must not flatten all the rest
        kgType=kind,
        kgName=name,
        kgMeta=_meta(data),
        kgQuotes=[
            {"text": _clip(str(q.get("text", "")), _TIP_QUOTE_CHARS), "article": q.get("article")}
            for q in quotes[:_TIP_QUOTES]
        ],
        kgMoreQuotes=max(len(quotes) - _TIP_QUOTES, 0),
    )


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
        options.update(dashes=True, color={"color": "#c4cad1", "opacity": 0.8}, arrows={"to": {"enabled": False}})
    else:
        options["arrows"] = {"to": {"enabled": directed, "scaleFactor": 0.5}}
        if labelled:
            options["label"] = " \u00b7 ".join(named)
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


def _legend(graph: nx.Graph, kept: list[Any]) -> str:
    """One checkbox row per type present: symbol, name and how many are drawn."""
    drawn = defaultdict(int)
    for node in kept:
        drawn[graph.nodes[node].get("type", "")] += 1
    order = [t for t in NODE_TYPES if t in drawn] + sorted(t for t in drawn if t not in NODE_TYPES)
    rows = []
    for kind in order:
        colour, _, symbol = _STYLE.get(kind, _OTHER_STYLE)
        label = html.escape(kind or "other")
        rows.append(
            f'      <li><label><input type="checkbox" data-type="{html.escape(kind)}" checked> '
            f'<span class="kg-symbol" style="color:{colour}">{symbol}</span> {label} '
            f'<span class="kg-count">{drawn[kind]}</span></label></li>'
        )
    return "\n".join(rows)


def _summary(total: int, shown: int, edges: int) -> str:
    """What the page shows, and the cut when there is one."""
    if total == 0:
        return "No entities to show."
    links = _plural(edges, "link")
    if shown < total:
        return f"showing {shown:,} of {total:,} entities, most connected first ({links})"
    return f"{_plural(total, 'entity', 'entities')}, {links}"


def _plural(n: int, one: str, many: str | None = None) -> str:
    """``1 link``, ``2 links``."""
    return f"{n:,} {one if n == 1 else (many or one + 's')}"


def _clip(text: str, limit: int) -> str:
    """At most ``limit`` characters, an ellipsis marking a cut."""
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "\u2026"


def _options() -> dict[str, Any]:
    """vis-network options: settle once with forceAtlas2, readable labels, hover tooltips."""
    return {
        "autoResize": True,
        "layout": {"randomSeed": 7},  # the same graph gives the same picture on every load
        "height": "100%",
        "width": "100%",
        "physics": {
            "solver": "forceAtlas2Based",
            "forceAtlas2Based": {
                "gravitationalConstant": -90,
                "centralGravity": 0.01,
                "springLength": 140,
                "springConstant": 0.06,
                "avoidOverlap": 0.5,
            },
            "stabilization": {"enabled": True, "iterations": 600, "fit": True},
            "minVelocity": 0.75,
        },
        "interaction": {"hover": True, "tooltipDelay": 120, "hideEdgesOnDrag": True},
        "nodes": {
            "borderWidth": 1,
            # bigger nodes get bigger labels, so hubs stay named when zoomed out
            "scaling": {
                "min": 10,
                "max": 30,
                "label": {"enabled": True, "min": 13, "max": 22, "maxVisible": 24, "drawThreshold": 5},
            },
            "font": {"size": 14, "face": "system-ui, sans-serif", "strokeWidth": 3, "strokeColor": "#ffffff"},
        },
        "edges": {
            "smooth": {"enabled": True, "type": "continuous", "roundness": 0.3},
            "color": {"color": "#8c959f", "highlight": "#24292f", "hover": "#24292f"},
            "font": {"size": 10, "color": "#57606a", "strokeWidth": 3, "strokeColor": "#ffffff", "align": "horizontal"},
        },
    }
