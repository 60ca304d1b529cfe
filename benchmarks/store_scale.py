"""On-disk Oxigraph store against in-memory rdflib at a million triples: load and named queries.

A deterministic corpus of synthetic articles (Facts made here, no NLP) goes through kg's
own mapping, so the triples have exactly the shape ``kg build`` writes: people shared
across articles, quotations, works, places, events and performances, with evidence.
Both backends then load the same N-Quads and answer kg's named queries; every query
result is checked to be the same on both (row counts) before its time counts. The store's
time is its own answer (evaluated and written as SPARQL JSON results, what a server
sends); its time through ``KnowledgeGraph.query``, which also turns every term into an
rdflib term, and through oxrdflib's rdflib API are reported beside it.

    python benchmarks/store_scale.py --triples 1000000
    python benchmarks/store_scale.py --triples 50000 --no-write   # a quick look

The in-memory side runs each query under a time limit (``--limit``, default 300 s):
one that runs past it is reported as such, and its ratio as a lower bound. The store's
first (cold cache) run of each query is reported beside its best of three.

Both graphs live in this one process, so after loading, ``gc.freeze()`` takes rdflib's
tens of millions of objects out of the garbage collector's sight: otherwise every
collection triggered while the store's results are converted would walk rdflib's heap,
a cost no user of the store alone pays (it tripled the store's query times here).
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import sys
import tempfile
import time
from pathlib import Path

import pyoxigraph as ox
from rdflib import Dataset

from kg import queries
from kg.extract.model import Entity, Event, Facts, Performance, Place, Quote, TextSpan, When, Work
from kg.graph import KnowledgeGraph, QueryTimeout
from kg.io.article import Article
from kg.rdf.mapping import article_graph
from kg.rdf.store import OxigraphBackend

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _machine import machine  # noqa: E402

RESULTS = Path(__file__).resolve().parent / "results" / "store_scale.json"
_FIRST = ("Ines", "Tomas", "Kofi", "Lena", "Arlo", "Noor", "Bram", "Freya", "Idris", "Mei", "Silas", "Carys")
_LAST = ("Penhallow", "Varga", "Lindqvist", "Coombe", "Reyne", "Oduya", "Wexley", "Tregarth", "Sallow", "Holm")
_WORDS = ("Glass", "Harbour", "Static", "Paper", "Lanterns", "Slow", "Signal", "Weather", "Motel", "Open")
_CITIES = ("Lisbon", "Oslo", "Glasgow", "Porto", "Leeds", "Utrecht", "Bergen", "Lyon")
_SAY = ("said", "told reporters", "added", "wrote")


class _Text:
    """Builds an article's text and the spans of what it names."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.length = 0

    def put(self, text: str) -> TextSpan:
        start = self.length + (1 if self.parts else 0)
        self.parts.append(text)
        self.length = start + len(text)
        return TextSpan(start, start + len(text), text)

    def text(self) -> str:
        return " ".join(self.parts)


def synthetic_article(i: int, seed: int) -> tuple[Article, Facts]:
    """Article ``i``: three people (of a pool of 120, so they recur), quotes, a song, an event, a performance."""
    rng = random.Random(seed * 1_000_003 + i)
    t = _Text()
    people = rng.sample([f"{f} {last}" for f in _FIRST for last in _LAST], 3)
    entities = tuple(
        Entity(key=f"person:{n}", kind="person", name=name, aliases=(name.split()[1],),
               descriptions=("the singer",) if n == 0 else (), mentions=(t.put(name),))
        for n, name in enumerate(people)
    )
    city = rng.choice(_CITIES)
    venue = f"{rng.choice(_WORDS)} Hall {city}"
    places = (
        Place(key="place:1", name=city, kind="city", mentions=(t.put(city),)),
        Place(key="place:2", name=venue, kind="venue", contained_in="place:1", mentions=(t.put(venue),)),
    )
    festival = f"{rng.choice(_WORDS)} {city} Festival {2015 + i % 10}"
    year = 2015 + i % 10
    when_text = t.put(f"June {year}")
    events = (Event(key="event:1", name=festival, kind="festival", location="place:2",
                    date=When(when_text.text, f"{year}-06", when_text), mentions=(t.put(festival),)),)
    song = f"{rng.choice(_WORDS)} {rng.choice(_WORDS)} {i % 500}"
    works = (Work(key="work:1", title=song, kind="song", creator="person:0", year=year - 1,
                  mentions=(t.put(song),)),)
    quotes = tuple(
        Quote(span=t.put(f"Line {n} of article {i} was loud and clear."), speaker=f"person:{n % 3}" if n < 3 else None,
              cue=rng.choice(_SAY), confidence=0.8)
        for n in range(rng.randint(2, 4))
    )
    performances = (Performance(performer="person:0", work="work:1", event="event:1", cue="performed",
                                span=t.put(f"{people[0]} performed {song}.")),)
    article = Article(id=f"synthetic-{i}", text=t.text(), title=f"Article {i}", published=f"{year}-06-20",
                      url=f"https://news.example/{i}")
    return article, Facts(entities=entities, quotes=quotes, works=works, events=events, places=places,
                          performances=performances)


def write_corpus(path: Path, target_triples: int, seed: int) -> tuple[int, int, float]:
    """Map articles until the N-Quads file holds ``target_triples`` quads; returns (articles, quads, seconds)."""
    started = time.perf_counter()
    articles = quads = 0
    with path.open("w", encoding="utf-8") as out:
        while quads < target_triples:
            article, facts = synthetic_article(articles, seed)
            graph = article_graph(article, facts)
            ds = Dataset()
            ds.graph(graph.identifier).__iadd__(graph)
            out.write(ds.serialize(format="nquads"))
            quads += len(graph)
            articles += 1
    return articles, quads, time.perf_counter() - started


def timed(run, repeat: int = 1):  # type: ignore[no-untyped-def]
    """(best seconds, result) of ``repeat`` runs."""
    best, result = float("inf"), None
    for _ in range(repeat):
        started = time.perf_counter()
        result = run()
        best = min(best, time.perf_counter() - started)
    return best, result


def native(store: ox.Store, text: str) -> int:
    """The store's own answer: evaluate and serialize as SPARQL JSON results, as a server sends it."""
    return len(store.query(text).serialize(format=ox.QueryResultsFormat.JSON))


def named_query_latency(backend: OxigraphBackend, limit: float | None = None) -> dict[str, dict[str, float]]:
    """Each named query on the store: rows, first (cold) and best-of-three times natively and via KnowledgeGraph.

    With ``limit``, a query whose first run (through KnowledgeGraph) passes that many
    seconds is reported as ``over_limit_s`` and not repeated.
    """
    graph = KnowledgeGraph(backend=backend)
    latency: dict[str, dict[str, float]] = {}
    for name in queries.names():
        text = queries.load(name)
        try:
            cold_s, _ = timed(lambda: graph.query(text, timeout=limit))
        except QueryTimeout:
            latency[name] = {"over_limit_s": float(limit or 0)}
            continue
        ox_s, _ = timed(lambda: native(backend.store, text), repeat=3)
        kg_s, rows = timed(lambda: len(graph.query(text)), repeat=3)
        latency[name] = {"rows": rows, "oxigraph_s": round(ox_s, 4), "oxigraph_cold_s": round(cold_s, 4),
                         "kg_query_s": round(kg_s, 4)}
    return latency


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--triples", type=int, default=1_000_000, help="Quads in the corpus (at least).")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--limit", type=float, default=300.0, help="Time limit of one in-memory query (s).")
    parser.add_argument("--incremental", type=int, default=1000, help="Articles added one by one (transactions).")
    parser.add_argument("--no-write", action="store_true", help=f"Do not write {RESULTS.name}.")
    args = parser.parse_args(argv)

    with tempfile.TemporaryDirectory(prefix="kg-store-scale-") as tmp:
        corpus = Path(tmp) / "corpus.nq"
        n_articles, n_quads, gen_s = write_corpus(corpus, args.triples, args.seed)
        print(f"corpus: {n_articles} articles, {n_quads} quads, mapped in {gen_s:.1f} s", flush=True)

        backend = OxigraphBackend(Path(tmp) / "store")
        ox_load_s, _ = timed(lambda: backend.bulk_load(ox.parse(path=str(corpus), format=ox.RdfFormat.N_QUADS)))
        store = KnowledgeGraph(backend=backend)
        print(f"oxigraph on disk: loaded in {ox_load_s:.1f} s", flush=True)

        dataset = Dataset(default_union=True)
        mem_load_s, _ = timed(lambda: dataset.parse(str(corpus), format="nquads"))
        memory = KnowledgeGraph(dataset)
        print(f"rdflib in memory: loaded in {mem_load_s:.1f} s", flush=True)

        gc.collect()
        gc.freeze()
        view = backend.dataset()  # rdflib's API over the same store (oxrdflib)
        results: dict[str, dict[str, object]] = {}
        for name, row in named_query_latency(backend).items():
            text = queries.load(name)
            ox_s, kg_s, ox_rows = row["oxigraph_s"], row["kg_query_s"], row["rows"]
            via_s, via_rows = timed(lambda: len(list(view.query(text))))
            try:
                mem_s, mem_rows = timed(lambda: len(memory.query(text, timeout=args.limit)))
                timed_out = False
            except QueryTimeout:
                mem_s, mem_rows, timed_out = args.limit, None, True
            if mem_rows is not None and mem_rows != ox_rows:
                raise SystemExit(f"{name}: {mem_rows} rows in memory, {ox_rows} on disk")
            ratio = mem_s / ox_s
            results[name] = {**row, "oxrdflib_s": round(via_s, 4), "oxrdflib_rows": via_rows,
                             "rdflib_memory_s": round(mem_s, 3), "rdflib_timed_out": timed_out,
                             "speedup": round(ratio, 1), "speedup_cold": round(mem_s / row["oxigraph_cold_s"], 1),
                             "speedup_kg_query": round(mem_s / kg_s, 1)}
            bound = ">=" if timed_out else ""
            print(f"{name:<14} {ox_rows:>6} rows  store {ox_s:6.3f} s (cold {row['oxigraph_cold_s']:.3f}, "
                  f"KnowledgeGraph.query {kg_s:.3f}, oxrdflib {via_s:.3f})  rdflib {bound}{mem_s:.2f} s  "
                  f"speedup {bound}{ratio:.1f}x (via KnowledgeGraph.query {bound}{mem_s / kg_s:.1f}x)", flush=True)

        stats_s, stats = timed(store.stats)
        print(f"stats on the store: {stats_s:.2f} s ({stats['triples']} distinct triples)", flush=True)

        incremental = KnowledgeGraph.open(Path(tmp) / "incremental", create=True)
        pairs = [synthetic_article(i, args.seed) for i in range(args.incremental)]
        inc_s, _ = timed(lambda: incremental.add_all(pairs))
        print(f"incremental: {args.incremental} articles added one transaction each in {inc_s:.1f} s "
              f"({args.incremental / inc_s:.0f} articles/s)", flush=True)

    report = {
        "corpus": {"articles": n_articles, "quads": n_quads, "distinct_triples": stats["triples"],
                   "seed": args.seed, "mapping_s": round(gen_s, 1)},
        "load_s": {"oxigraph_bulk": round(ox_load_s, 1), "rdflib_memory": round(mem_load_s, 1)},
        "queries": results,
        "stats_on_store_s": round(stats_s, 2),
        "incremental_articles_per_s": round(args.incremental / inc_s, 1),
        "machine": machine("rdflib", "pyoxigraph", "oxrdflib"),
    }
    if not args.no_write:
        RESULTS.parent.mkdir(parents=True, exist_ok=True)
        RESULTS.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
        print(f"wrote {RESULTS}")
    slow = [n for n, r in results.items() if float(r["speedup"]) < 5]  # type: ignore[arg-type]
    return 1 if slow else 0


if __name__ == "__main__":
    sys.exit(main())
