"""Peak memory of extraction at two corpus sizes: does it stay flat as the corpus grows?

Each measurement runs in a fresh process over a generated corpus (``benchmarks/corpus.py``)
and reports that process's peak resident set size (RSS):

* ``extract``: ``kg build``'s read + extract loop with each article's facts dropped once
  taken: the streaming part, whose memory must not grow with the corpus;
* ``graph``: the same, with the facts mapped into an in-memory KnowledgeGraph: grows with
  the triples of the final graph, which is kept by design. (An on-disk store, when kg has
  one, is the way to keep this flat.)

Figures are printed and written to ``benchmarks/results/memory.json`` with the machine
described. Run:

    .venv/bin/python benchmarks/memory.py                       # 2,000 against 20,000 articles
    .venv/bin/python benchmarks/memory.py --sizes 500 2000 --modes extract
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from corpus import write_jsonl  # noqa: E402
from extraction import machine  # noqa: E402

RESULTS = Path(__file__).resolve().parent / "results"


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


def main(argv: list[str] | None = None) -> dict[str, object]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", type=int, nargs=2, default=[2000, 20000], metavar=("SMALL", "LARGE"))
    parser.add_argument("--modes", nargs="+", choices=["extract", "graph"], default=["extract", "graph"])
    parser.add_argument("--seed", type=int, default=1)
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
    with tempfile.TemporaryDirectory() as tmp:
        for size in args.sizes:
            corpus = write_jsonl(Path(tmp) / f"corpus{size}.jsonl", size, args.seed)
            for mode in args.modes:
                command = [sys.executable, __file__, "--child", mode, str(corpus), "--workers", str(args.workers)]
                if args.model:
                    command += ["--model", args.model]
                out = subprocess.run(command, check=True, capture_output=True, text=True).stdout
                row = {"mode": mode, "size": size, **json.loads(out.strip().splitlines()[-1])}
                runs.append(row)
                print(f"{mode:<8} {size:>6} articles: peak RSS {row['peak_rss_mib']} MiB "
                      f"({row['triples']} triples, {row['seconds']} s)", flush=True)
    ratios = {}
    for mode in args.modes:
        small, large = (r["peak_rss_mib"] for r in runs if r["mode"] == mode)
        ratios[mode] = round(large / small, 3)
        print(f"{mode}: peak RSS x{ratios[mode]} for {args.sizes[1]} against {args.sizes[0]} articles")
    result = {
        "benchmark": "memory",
        "machine": machine(resolve_model_name(args.model)),
        "workers": args.workers,
        "runs": runs,
        "ratio_large_to_small": ratios,
    }
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    print(f"wrote {args.output}")
    return result


if __name__ == "__main__":
    main()
