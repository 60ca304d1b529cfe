"""How fast ``kg viz`` draws a big graph: 5,000 generated entities, written, opened and settled.

Generates (seeded, so every run draws the same graph) a corpus in kg's RDF shape:
1,000 articles naming 5,000 entities (people, groups, works, events, places) with
a few much-named hubs, as news has, plus performances, credits, event venues,
place nesting and quotations. Then, for each node limit:

1. runs ``kg viz GRAPH -o PAGE --max-nodes N`` as a user would (a new process:
   reading the TriG file, projecting, cutting, writing the page);
2. opens the page in headless Chromium, started and cut off from the network
   as the browser tests do (tests/browser.py), and waits for vis-network's
   ``stabilizationIterationsDone``, which the page marks with
   ``data-kg-state="settled"`` and ``window.kgSettledMs`` (ms since navigation);
3. reads the node and edge counts vis-network holds.

Prints the figures and writes them, with the machine, to
``benchmarks/results/viz_5000.json``. Run:

    .venv/bin/python benchmarks/viz_5000.py [--entities 5000] [--limits 300 1000]
"""

from __future__ import annotations

import argparse
import json
import math
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from rdflib import RDF, XSD, Dataset, Literal, Namespace, URIRef

SDO = Namespace("https://schema.org/")
PROV = Namespace("http://www.w3.org/ns/prov#")
KG = Namespace("https://w3id.org/kg/ns#")
ID = Namespace("https://w3id.org/kg/id/")

# the browser tests' way to start Chromium and refuse the network, so both measure the same thing
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from browser import launch, offline_page  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _machine import machine  # noqa: E402

RESULTS = Path(__file__).resolve().parent / "results" / "viz_5000.json"

# share of entities by kind, and the class each is typed with
_KINDS = (
    ("person", 0.40, SDO.Person),
    ("group", 0.06, SDO.MusicGroup),
    ("work", 0.24, SDO.MusicComposition),
    ("event", 0.10, SDO.MusicEvent),
    ("place", 0.20, SDO.MusicVenue),
)
_SYLLABLES = ("ka", "lo", "mi", "ren", "sa", "to", "vel", "dor", "an", "is", "ru", "bel", "cor", "fen", "ga", "ho")


def _name(rng: random.Random, words: int) -> str:
    return " ".join("".join(rng.choice(_SYLLABLES) for _ in range(rng.randint(2, 3))).title() for _ in range(words))


def make_corpus(entities: int, articles: int, seed: int = 5000) -> Dataset:
    """A seeded corpus in kg's RDF shape: one named graph per article, hubs named often."""
    rng = random.Random(seed)
    pools: dict[str, list[URIRef]] = {}
    names: dict[URIRef, tuple[URIRef, str]] = {}
    for kind, share, cls in _KINDS:
        count = round(entities * share)
        pools[kind] = [ID[f"{kind}/{kind}-{i:05d}"] for i in range(count)]
        for iri in pools[kind]:
            names[iri] = (cls, _name(rng, 2 if kind in ("person", "work") else 3))
    # each place sits in one of the first 60 places (the "cities"), each event at one place
    city_of = {p: rng.choice(pools["place"][:60]) for p in pools["place"][60:]}
    venue_of = {e: rng.choice(pools["place"]) for e in pools["event"]}
    creator_of = {w: rng.choice(pools["person"]) for w in pools["work"] if rng.random() < 0.5}

    def pick(kind: str) -> URIRef:
        # Zipf-like: a few entities are in many articles, most in one or two
        pool = pools[kind]
        return pool[min(int(rng.paretovariate(1.1)) - 1, len(pool) - 1) if rng.random() < 0.5 else rng.randrange(len(pool))]

    ds = Dataset()
    unnamed = {kind: list(pool) for kind, pool in pools.items()}
    for kind in unnamed:
        rng.shuffle(unnamed[kind])
    for a in range(articles):
        article = ID[f"article/bench{a:05d}"]
        g = ds.graph(article)
        g.add((article, RDF.type, SDO.NewsArticle))
        g.add((article, SDO.identifier, Literal(f"bench{a:05d}")))
        g.add((article, SDO.headline, Literal(f"Benchmark story {a}")))
        g.add((article, SDO.datePublished, Literal(f"2024-{1 + a % 12:02d}-{1 + a % 28:02d}", datatype=XSD.date)))
        named = {pick(kind) for kind, _, _ in _KINDS for _ in range(rng.randint(1, 2))}
        # every entity is named by some article: hand out the not yet named ones in turn
        for kind, pool in pools.items():
            for _ in range(math.ceil(len(pool) / articles)):
                if unnamed[kind]:
                    named.add(unnamed[kind].pop())
        performer = next((e for e in sorted(named) if "/person/" in e or "/group/" in e), None)
        work = next((e for e in sorted(named) if "/work/" in e), None)
        event = next((e for e in sorted(named) if "/event/" in e), None)
        for entity in sorted(named):
            cls, name = names[entity]
            g.add((entity, RDF.type, cls))
            g.add((entity, SDO.name, Literal(name)))
            g.add((article, SDO.mentions, entity))
            g.add((entity, PROV.wasDerivedFrom, article))
            if entity in venue_of:
                g.add((entity, SDO.location, venue_of[entity]))
            if entity in city_of:
                g.add((entity, SDO.containedInPlace, city_of[entity]))
            if entity in creator_of and creator_of[entity] in named:
                g.add((entity, SDO.creator, creator_of[entity]))
        if performer is not None and (work is not None or event is not None):
            perf = URIRef(f"{article}/performance/1")
            g.add((perf, RDF.type, SDO.MusicEvent))
            g.add((perf, SDO.performer, performer))
            g.add((perf, PROV.wasDerivedFrom, article))
            if work is not None:
                g.add((perf, SDO.workPerformed, work))
            if event is not None:
                g.add((perf, SDO.superEvent, event))
        if performer is not None and "/person/" in performer:
            quote = URIRef(f"{article}/quote/0-40")
            g.add((quote, RDF.type, SDO.Quotation))
            g.add((quote, SDO.text, Literal(f"Line {a} was said here, and it was {_name(rng, 1)}.")))
            g.add((quote, SDO.creator, performer))
            g.add((quote, SDO.isPartOf, article))
            g.add((quote, KG.cue, Literal("said")))
    return ds


def run_viz(graph: Path, page: Path, max_nodes: int) -> float:
    """``kg viz`` in a new process, as a user runs it; returns its wall time in seconds."""
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "kg", "viz", str(graph), "-o", str(page), "--max-nodes", str(max_nodes)],
        check=True,
        capture_output=True,
    )
    return time.perf_counter() - start


def open_page(browser, page_path: Path) -> dict[str, float | int]:  # type: ignore[no-untyped-def]
    """Load the page offline and wait for the layout to settle; what vis-network drew and when."""
    page = offline_page(browser, viewport={"width": 1280, "height": 800})
    start = time.perf_counter()
    page.goto(page_path.as_uri())
    page.wait_for_function("document.body.getAttribute('data-kg-state') === 'settled'", timeout=120_000)
    wall = time.perf_counter() - start
    figures = page.evaluate(
        """() => ({
            settled_ms: window.kgSettledMs,
            nodes: window.kgNetwork.body.data.nodes.length,
            shown_nodes: window.kgNodes.get({filter: n => !n.hidden}).length,
            edges: window.kgNetwork.body.data.edges.length,
        })"""
    )
    page.context.close()
    figures["settled_wall_s"] = round(wall, 3)
    figures["settled_ms"] = round(figures["settled_ms"])
    figures["blocked_requests"] = len(page.kg_blocked)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--entities", type=int, default=5000)
    parser.add_argument("--articles", type=int, default=1000)
    parser.add_argument("--limits", type=int, nargs="+", default=[300, 1000])
    args = parser.parse_args()

    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        start = time.perf_counter()
        ds = make_corpus(args.entities, args.articles)
        graph = folder / "bench.trig"
        ds.serialize(graph, format="trig")
        made = time.perf_counter() - start
        triples = len(ds)
        results: dict[str, object] = {
            "entities": args.entities,
            "articles": args.articles,
            "triples": triples,
            "generate_seconds": round(made, 2),
            "runs": [],
        }
        print(f"corpus: {args.entities:,} entities, {args.articles:,} articles, {triples:,} triples ({made:.1f} s)")
        with sync_playwright() as playwright:
            browser = launch(playwright)
            for limit in args.limits:
                page = folder / f"page_{limit}.html"
                cli_seconds = run_viz(graph, page, limit)
                drawn = open_page(browser, page)
                run = {"max_nodes": limit, "kg_viz_seconds": round(cli_seconds, 2), "page_bytes": page.stat().st_size}
                run.update(drawn)
                results["runs"].append(run)  # type: ignore[union-attr]
                print(
                    f"max-nodes {limit:>5}: kg viz {cli_seconds:.2f} s, page {run['page_bytes'] / 1e6:.2f} MB; "
                    f"browser settled after {drawn['settled_ms']} ms ({drawn['settled_wall_s']} s wall), "
                    f"{drawn['nodes']} nodes ({drawn['shown_nodes']} shown), {drawn['edges']} edges, "
                    f"{drawn['blocked_requests']} network requests"
                )
            results["machine"] = {**machine("pyvis"), "chromium": browser.version}
            browser.close()
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    print(f"wrote {RESULTS}")


if __name__ == "__main__":
    main()
