"""How soon a timed query stops, and what it leaves behind: the figures the tests no longer assert.

A runaway query (every triple against every triple, five times over, on sixty triples)
runs under a 1 s limit on an in-memory graph and on an on-disk store, ``--runs`` times
each. Reported per backend: the seconds from the call to :class:`QueryTimeout` (the
limit plus the overrun), and the CPU seconds and resident memory this process adds in
the 3 s after it (a query left running would spend them). The tests in
``tests/rdf/test_deadline.py`` assert only that the query stops and nothing is left
running: wall-clock figures on a shared machine belong here.

    .venv/bin/python benchmarks/query_deadline.py            # 5 runs a backend
    .venv/bin/python benchmarks/query_deadline.py --runs 20
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from rdflib import Literal, URIRef

from kg.graph import KnowledgeGraph, QueryTimeout

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _machine import machine, save_result  # noqa: E402

RESULTS = Path(__file__).resolve().parent / "results" / "query_deadline.json"
RUNAWAY = "SELECT (COUNT(*) AS ?x) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i . ?j ?k ?l . ?m ?n ?o }"
LIMIT = 1.0


def sixty_triples(graph: KnowledgeGraph) -> KnowledgeGraph:
    """The graph with sixty names in it: 60^5 rows for the runaway query."""
    triples = [(URIRef(f"urn:kg:p{i}"), URIRef("https://schema.org/name"), Literal(f"Person {i}")) for i in range(60)]
    if graph.backend == "memory":
        for triple in triples:
            graph.rdf_graph().graph(URIRef("urn:kg:g")).add(triple)
    else:
        body = " ".join(f"<{s}> <{p}> {o.n3()} ." for s, p, o in triples)
        graph._backend.store.update(f"INSERT DATA {{ {body} GRAPH <urn:kg:g> {{ {body} }} }}")  # type: ignore[attr-defined]
    return graph


def cpu_seconds() -> float:
    times = os.times()
    return times.user + times.system


def rss_mib() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def one_run(graph: KnowledgeGraph) -> dict[str, float]:
    """Seconds to the timeout, then CPU seconds and MiB added in the 3 s after it."""
    memory, started = rss_mib(), time.monotonic()
    try:
        graph.query(RUNAWAY, timeout=LIMIT)
        raise SystemExit("the runaway query finished under the limit: no timeout to measure")
    except QueryTimeout:
        stopped = time.monotonic() - started
    cpu = cpu_seconds()
    time.sleep(3)
    return {"to_timeout_s": stopped, "cpu_after_s": cpu_seconds() - cpu, "rss_added_mib": rss_mib() - memory}


def summary(runs: list[dict[str, float]]) -> dict[str, float]:
    return {f"{key}_{how}": round(fn([r[key] for r in runs]), 3)
            for key in runs[0] for how, fn in (("median", statistics.median), ("max", max))}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="Timed-out queries per backend.")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        graphs = {"memory": KnowledgeGraph(), "store": KnowledgeGraph.open(Path(tmp) / "store", create=True)}
        figures = {}
        for name, graph in graphs.items():
            sixty_triples(graph)
            figures[name] = summary([one_run(graph) for _ in range(args.runs)])
            print(name, figures[name])
    save_result(RESULTS, {"machine": machine("rdflib", "pyoxigraph"), "limit_s": LIMIT, "runs": args.runs,
                          "backends": figures})


if __name__ == "__main__":
    main()
