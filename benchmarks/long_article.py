"""One long article: time and peak memory against its length, parsed in pieces and whole.

A long article is made of the paragraphs of generated articles (``benchmarks/corpus.py``)
one after another, blank lines between, cut at a paragraph to the length asked: the
text of a long report or live blog, many people, quotations and performances in it.
Each length is built as ``kg build FILE -o FILE.ttl`` does it (read the file, extract,
map into a KnowledgeGraph, write Turtle) in a fresh process, in two ways side by side:

* ``pieces``: kg as it is, the article parsed in pieces of at most ``CHUNK_CHARS``
  characters cut at paragraph breaks (:mod:`kg.nlp.chunks`);
* ``whole``: the article parsed as one spaCy Doc, as kg did before (issue 17), with the
  fixes that came with the pieces (sentence starts set in one go, the name index).

The two take turns at each length (whole first at one, pieces first at the next), so
load on a shared machine weighs on both. Reported per run: wall and CPU seconds (model
loading not counted), peak resident memory of the process and its rise over the
loaded model, microseconds per character, and that cost per character as a multiple
of the shortest length's (1.0 throughout when time grows linearly with the text).
Memory is also given at the end of extraction, before the graph is made: the in-memory
graph grows with its triples by design (``kg build --store`` keeps it on disk). Figures
are printed and written to ``benchmarks/results/long_article.json`` with the
machine described. Run:

    .venv/bin/python benchmarks/long_article.py                          # 25k to 800k characters
    .venv/bin/python benchmarks/long_article.py --lengths 50000 100000 --modes pieces
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
from _machine import machine, save_result  # noqa: E402
from corpus import article  # noqa: E402

RESULTS = Path(__file__).resolve().parent / "results"
LENGTHS = (25_000, 50_000, 100_000, 200_000, 400_000, 800_000)
MODES = ("whole", "pieces")


def long_text(chars: int, seed: int = 1) -> str:
    """At least ``chars`` characters of generated news, whole paragraphs, blank lines between.

    Deterministic, and a longer text starts with a shorter one of the same seed.
    """
    paragraphs: list[str] = []
    length, index = 0, 0
    while length < chars:
        for paragraph in article(seed, index)["text"].strip("\n").split("\n\n"):
            if length >= chars:
                break
            paragraphs.append(paragraph)
            length += len(paragraph) + 2
        index += 1
    return "\n\n".join(paragraphs) + "\n"


def child(path: Path, mode: str) -> dict[str, object]:
    """Build the graph of one article file in this process, as ``kg build`` would; its figures."""
    from kg.graph import KnowledgeGraph
    from kg.io import read_articles
    from kg.nlp import extract, load_pipeline
    from kg.nlp.chunks import CHUNK_CHARS

    nlp = load_pipeline()
    # RSS with the model loaded: what the article's text adds is the peak above it.
    loaded = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    wall, cpu = time.perf_counter(), time.process_time()
    [article_] = read_articles([path])
    chunk_chars = CHUNK_CHARS if mode == "pieces" else max(len(article_.text), 1)
    graph = KnowledgeGraph()
    [(article_, facts)] = extract(nlp, [article_], chunk_chars=chunk_chars)
    # The peak so far is the parse's; mapping and writing add the graph, which grows with its triples.
    parsed = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    graph.add(article_, facts)
    graph.save(path.with_suffix(".ttl"))
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {
        "seconds": round(time.perf_counter() - wall, 2),
        "cpu_seconds": round(time.process_time() - cpu, 2),
        "peak_rss_mib": round(peak),
        "rss_over_model_mib": round(peak - loaded),
        "extract_rss_over_model_mib": round(parsed - loaded),
        "quotes": len(facts.quotes),
        "performances": len(facts.performances),
        "entities": len(facts.entities),
        "triples": graph.stats()["triples"],
    }


def main(argv: list[str] | None = None) -> dict[str, object]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--lengths", type=int, nargs="+", default=list(LENGTHS), help="characters per article")
    parser.add_argument("--modes", nargs="+", choices=MODES, default=list(MODES))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--child", nargs=2, metavar=("FILE", "MODE"), help=argparse.SUPPRESS)
    parser.add_argument("-o", "--output", type=Path, default=RESULTS / "long_article.json")
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(child(Path(args.child[0]), args.child[1])))
        return {}

    from kg.nlp.chunks import CHUNK_CHARS
    from kg.nlp.model import resolve_model_name

    runs: list[dict[str, object]] = []
    with tempfile.TemporaryDirectory() as tmp:
        for turn, length in enumerate(sorted(args.lengths)):
            path = Path(tmp) / f"article{length}.txt"
            text = long_text(length, args.seed)
            path.write_text(text, encoding="utf-8")
            # Take turns: which mode goes first alternates from one length to the next.
            for mode in args.modes if turn % 2 == 0 else reversed(args.modes):
                command = [sys.executable, __file__, "--child", str(path), mode]
                out = subprocess.run(command, check=True, capture_output=True, text=True).stdout
                row: dict[str, object] = {"mode": mode, "chars": len(text), **json.loads(out.strip().splitlines()[-1])}
                row["us_per_char"] = round(1e6 * float(row["seconds"]) / len(text), 1)  # type: ignore[arg-type]
                row["cpu_us_per_char"] = round(1e6 * float(row["cpu_seconds"]) / len(text), 1)  # type: ignore[arg-type]
                runs.append(row)
                print(f"{mode:<6} {len(text):>8,} chars: {row['seconds']:>7} s (CPU {row['cpu_seconds']} s), "
                      f"peak RSS {row['peak_rss_mib']} MiB (+{row['rss_over_model_mib']} over the model, "
                      f"+{row['extract_rss_over_model_mib']} extracting), "
                      f"{row['cpu_us_per_char']} CPU us/char", flush=True)
    growth: dict[str, dict[str, float]] = {}
    for mode in args.modes:
        rows = [r for r in runs if r["mode"] == mode]
        per_char = [float(r["cpu_us_per_char"]) for r in rows]  # type: ignore[arg-type]
        growth[mode] = {str(r["chars"]): round(cost / per_char[0], 2) for r, cost in zip(rows, per_char)}
        print(f"{mode}: CPU per character as a multiple of the shortest: "
              + ", ".join(f"{int(chars):,} x{ratio}" for chars, ratio in growth[mode].items()))
    result = {
        "benchmark": "long_article",
        "machine": machine("spacy", model=resolve_model_name(None)),
        "text": {"generator": "benchmarks/long_article.py long_text (corpus.py paragraphs)", "seed": args.seed},
        "chunk_chars": CHUNK_CHARS,
        "runs": runs,
        "cpu_per_char_vs_shortest": growth,
    }
    save_result(args.output, result)
    return result


if __name__ == "__main__":
    main()
