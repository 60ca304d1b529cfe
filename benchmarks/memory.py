"""Peak memory of extraction and of ``kg build --store`` at two corpus sizes: flat as the corpus grows?

Each measurement runs in a fresh process over a generated corpus (``benchmarks/corpus.py``)
and reports that process's peak resident set size (RSS):

* ``extract``: ``kg build``'s read + extract loop with each article's facts dropped once
  taken: the streaming part, whose memory must not grow with the corpus;
* ``graph``: the same, with the facts mapped into an in-memory KnowledgeGraph: grows with
  the triples of the final graph, which is kept by design;
* ``build``: the real ``kg build CORPUS --store DIR`` in a child process, the way users
  build a large graph: its peak RSS (the main process, and with its spaCy workers), a
  timeline of RSS against articles done, then named-query latency on the resulting store
  (the larger size's). The on-disk store is the way to keep memory flat, so this must not
  grow with the corpus.

Figures are printed and written to ``benchmarks/results/memory.json`` with the machine
described. Run:

    .venv/bin/python benchmarks/memory.py                       # 2,000 against 20,000 articles
    .venv/bin/python benchmarks/memory.py --sizes 500 2000 --modes extract
    .venv/bin/python benchmarks/memory.py --modes build         # kg build --store, same sizes

Runs of modes not measured are kept from an earlier results file.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from corpus import write_jsonl  # noqa: E402
from _machine import machine  # noqa: E402

RESULTS = Path(__file__).resolve().parent / "results"
# tqdm's count in `kg build --progress` output: "| 900/2000 [" (a total known), "900article [" (not).
_DONE = re.compile(rb"(\d+)(?:/\d+|article) \[")


def _rss_mib(pid: int) -> tuple[float, float]:
    """(RSS of ``pid``, RSS of ``pid`` and all its descendants) in MiB, read from /proc."""
    children: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            ppid = int(stat.read_bytes().rsplit(b")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        children.setdefault(ppid, []).append(int(stat.parent.name))
    page = os.sysconf("SC_PAGE_SIZE") / 2**20
    own = total = 0.0
    todo = [pid]
    while todo:
        current = todo.pop()
        try:
            rss = int(Path(f"/proc/{current}/statm").read_text().split()[1]) * page
        except (OSError, IndexError, ValueError):
            continue
        own = rss if current == pid else own
        total += rss
        todo += children.get(current, [])
    return own, total


def build(corpus: Path, store: Path, model: str | None, workers: int, log: Path) -> dict[str, object]:
    """``kg build CORPUS --store STORE`` in a child process, its RSS sampled every half second."""
    command = [sys.executable, "-m", "kg", "build", str(corpus), "--store", str(store),
               "--workers", str(workers), "--progress"]
    if model:
        command += ["--model", model]
    start = time.perf_counter()
    peak_main = peak_tree = 0.0
    timeline: list[dict[str, float]] = []
    with log.open("wb") as err:
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=err)
        while process.poll() is None:
            main_rss, tree_rss = _rss_mib(process.pid)
            peak_main, peak_tree = max(peak_main, main_rss), max(peak_tree, tree_rss)
            elapsed = time.perf_counter() - start
            if not timeline or elapsed - timeline[-1]["s"] >= 30:
                done = _DONE.findall(log.read_bytes()[-400:])
                timeline.append({"s": round(elapsed), "articles": int(done[-1]) if done else 0,
                                 "main_rss_mib": round(main_rss), "tree_rss_mib": round(tree_rss)})
                print(f"  {timeline[-1]}", flush=True)
            time.sleep(0.5)
    if process.returncode:
        raise SystemExit(f"kg build failed ({process.returncode}): {log.read_text(errors='replace')[-500:]}")
    # The largest single process, as the kernel kept it (catches peaks between samples).
    largest = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    return {"peak_rss_mib": round(peak_main, 1), "peak_rss_with_workers_mib": round(peak_tree, 1),
            "largest_process_rss_mib": round(largest, 1), "seconds": round(time.perf_counter() - start, 1),
            "timeline": timeline}


def child(mode: str, corpus: Path, model: str | None, workers: int) -> dict[str, float]:
    """Run one measurement in this process and return its figures."""
    from kg._build import extract_articles
    from kg.graph import KnowledgeGraph

    start = time.perf_counter()
    pairs = extract_articles([corpus], model=model, n_process=workers)
    if mode == "graph":
        graph = KnowledgeGraph()
        articles = graph.add_all(pairs)
        triples = len(graph.dataset)
    else:
        articles = sum(1 for _ in pairs)
        triples = 0
    # ru_maxrss is in KiB on Linux.
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {"articles": articles, "triples": triples, "peak_rss_mib": round(peak, 1),
            "seconds": round(time.perf_counter() - start, 1)}


def store_latency(store: Path, limit: float) -> dict[str, object]:
    """Named-query latency on the store ``kg build`` left, opened read-only as ``kg serve`` would."""
    from store_scale import named_query_latency

    from kg.rdf.store import OxigraphBackend

    backend = OxigraphBackend(store, read_only=True)
    try:
        latency = named_query_latency(backend, limit=limit)
    finally:
        backend.close()
    for name, row in latency.items():
        if "over_limit_s" in row:
            print(f"sparql {name:<13} over {limit:.0f} s", flush=True)
            continue
        print(f"sparql {name:<13} {row['rows']:>6} rows: {row['oxigraph_s']:.3f} s (cold {row['oxigraph_cold_s']:.3f} s, "
              f"KnowledgeGraph.query {row['kg_query_s']:.3f} s)", flush=True)
    return latency


def main(argv: list[str] | None = None) -> dict[str, object]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", type=int, nargs=2, default=[2000, 20000], metavar=("SMALL", "LARGE"))
    parser.add_argument("--modes", nargs="+", choices=["extract", "graph", "build"], default=["extract", "graph"])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--query-limit", type=float, default=120.0, help="Time limit of one named query (s).")
    parser.add_argument("--model", default=None)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--child", nargs=2, metavar=("MODE", "CORPUS"), help=argparse.SUPPRESS)
    parser.add_argument("-o", "--output", type=Path, default=RESULTS / "memory.json")
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(child(args.child[0], Path(args.child[1]), args.model, args.workers)))
        return {}

    from kg.nlp.model import resolve_model_name

    runs = []
    latency: dict[str, object] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for size in args.sizes:
            corpus = write_jsonl(Path(tmp) / f"corpus{size}.jsonl", size, args.seed)
            for mode in args.modes:
                if mode == "build":
                    store = Path(tmp) / f"store{size}"
                    row = {"mode": mode, "size": size,
                           **build(corpus, store, args.model, args.workers, Path(tmp) / f"build{size}.log")}
                    runs.append(row)
                    print(f"build    {size:>6} articles: peak RSS {row['peak_rss_mib']} MiB, with workers "
                          f"{row['peak_rss_with_workers_mib']} MiB ({row['seconds']} s)", flush=True)
                    if size == max(args.sizes):
                        latency = store_latency(store, args.query_limit)
                    continue
                command = [sys.executable, __file__, "--child", mode, str(corpus), "--workers", str(args.workers)]
                if args.model:
                    command += ["--model", args.model]
                out = subprocess.run(command, check=True, capture_output=True, text=True).stdout
                row = {"mode": mode, "size": size, **json.loads(out.strip().splitlines()[-1])}
                runs.append(row)
                print(f"{mode:<8} {size:>6} articles: peak RSS {row['peak_rss_mib']} MiB "
                      f"({row['triples']} triples, {row['seconds']} s)", flush=True)
    earlier = json.loads(args.output.read_text(encoding="utf-8")) if args.output.exists() else {}
    kept = [{"workers": earlier.get("workers"), **r} for r in earlier.get("runs", []) if r["mode"] not in args.modes]
    runs = kept + [{"workers": args.workers, **r} for r in runs]
    ratios = {}
    for mode in dict.fromkeys(r["mode"] for r in runs):
        small, large = (r for r in runs if r["mode"] == mode)
        ratios[mode] = round(large["peak_rss_mib"] / small["peak_rss_mib"], 3)
        print(f"{mode}: peak RSS x{ratios[mode]} for {large['size']} against {small['size']} articles")
    result = {
        "benchmark": "memory",
        "machine": machine("spacy", "pyoxigraph", model=resolve_model_name(args.model)),
        "runs": runs,
        "ratio_large_to_small": ratios,
        "sparql_on_build_store": latency or earlier.get("sparql_on_build_store"),
    }
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    print(f"wrote {args.output}")
    return result


if __name__ == "__main__":
    main()
