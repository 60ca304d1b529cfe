"""Extraction speed: what ``kg build`` costs against bare ``nlp.pipe`` of the same model.

Both sides run over the same generated articles (``benchmarks/corpus.py``), side by side
in one run, with 1 process and with 2 (bare: spaCy's ``n_process``; kg: ``--workers``) at the same batch size,
taking turns on slices of the corpus so that other load on the machine weighs on both:

* bare: ``nlp.pipe(texts)`` of the plain spaCy model, every Doc consumed;
* kg: what ``kg build`` does before writing the file: read the JSONL, run kg's pipeline
  (the model plus kg's components), map each article's facts into a KnowledgeGraph.

It reports articles/s, words/s (whitespace-separated words of the article texts) and
the ratio kg time / bare time (wall clock; and CPU seconds, this process and its
workers, which other load on a shared machine disturbs less), and breaks one-process
time down by component (where the extra cost goes), with the cost of kg's own spaCy
components as a share of what bare ``nlp.pipe`` spends (issue 3: under 25%). Figures
are printed and written to ``benchmarks/results/extraction.json`` with the machine
described. Model loading is not timed. Run:

    .venv/bin/python benchmarks/extraction.py                 # 2,000 articles, 1 and 2 processes
    .venv/bin/python benchmarks/extraction.py --n 300 --processes 1
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

from spacy.language import Language
from spacy.tokens import Doc

from kg._build import extract_articles
from kg.graph import KnowledgeGraph
from kg.io import read_articles
from kg.nlp import load_pipeline
from kg.nlp.factories import KG_COMPONENTS
from kg.nlp.model import load_model, resolve_model_name
from kg.nlp.pipeline import DEFAULT_BATCH_SIZE, facts_from_doc, make_doc

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _machine import machine  # noqa: E402
from corpus import write_jsonl  # noqa: E402

RESULTS = Path(__file__).resolve().parent / "results"
#: kg's own pipeline components: the rest of a pipeline is the model's, which bare nlp.pipe runs too.
KG_PIPES = ("kg_paragraphs", *KG_COMPONENTS)
#: Stages of the breakdown that are no pipeline component (tokenizing is part of nlp.pipe).
NOT_PIPES = ("read", "rdf_mapping")


def measure(model: str, slices: list[tuple[Path, list[str]]], n_process: int, batch_size: int) -> dict[str, float]:
    """Seconds of bare ``nlp.pipe`` and of the ``kg build`` work over the same slices, interleaved.

    The two sides take turns slice by slice (bare first, then kg first, and so on), so a
    machine that gets busier or quieter during the run weighs on both alike. Models are
    loaded once per side, before timing; kg adds every slice to one KnowledgeGraph.
    """
    bare_nlp = load_model(model)
    kg_nlp = load_pipeline(model)
    graph = KnowledgeGraph()
    seconds = {"bare": 0.0, "kg": 0.0, "bare_cpu": 0.0, "kg_cpu": 0.0}

    def bare(texts: list[str]) -> None:
        for _ in bare_nlp.pipe(texts, batch_size=batch_size, n_process=n_process):
            pass

    def kg(path: Path) -> None:
        graph.add_all(extract_articles([path], nlp=kg_nlp, batch_size=batch_size, n_process=n_process))

    for number, (path, texts) in enumerate(slices):
        turns = [("bare", lambda: bare(texts)), ("kg", lambda: kg(path))]
        for side, work in turns if number % 2 == 0 else reversed(turns):
            start, cpu = time.perf_counter(), _cpu_seconds()
            work()
            seconds[side] += time.perf_counter() - start
            seconds[f"{side}_cpu"] += _cpu_seconds() - cpu
    seconds["triples"] = len(graph.dataset)
    return seconds


def _cpu_seconds() -> float:
    """CPU seconds of this process and of its finished children (the worker processes)."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def component_shares(breakdown: dict[str, float]) -> dict[str, float]:
    """kg's own components' time as a percentage of what bare ``nlp.pipe`` spends on the same docs.

    Bare ``nlp.pipe`` is the tokenizer and the model's components; kg's are
    :data:`KG_PIPES`. Besides each component: ``quotes+coref`` (the two issue 3 names)
    and ``all`` of them.
    """
    bare = sum(v for k, v in breakdown.items() if k not in KG_PIPES and k not in NOT_PIPES) or 1.0
    shares = {name: 100 * breakdown[name] / bare for name in KG_PIPES if name in breakdown}
    shares["quotes+coref"] = shares.get("kg_quotes", 0.0) + shares.get("kg_coref", 0.0)
    shares["all"] = sum(shares[name] for name in KG_PIPES if name in shares)
    return shares


def components(model: str, corpus: Path, limit: int) -> dict[str, float]:
    """Seconds per pipeline component (and read, tokenize, RDF mapping) over ``limit`` articles, one process.

    RDF mapping is ``KnowledgeGraph.add_all``, as in ``kg build``: name resolution, triples, store.
    All ``limit`` Docs are alive at once here, as they never are in ``kg build``: the garbage
    collector is kept off what each stage has built (``gc.freeze``), or its walks over every
    Doc's tokens would be charged to whichever stage happened to trigger them.
    """
    nlp = load_pipeline(model)
    times: dict[str, float] = defaultdict(float)
    start = time.perf_counter()
    articles = [a for _, a in zip(range(limit), read_articles([corpus]))]
    times["read"] += time.perf_counter() - start
    start = time.perf_counter()
    docs = [make_doc(nlp, a) for a in articles]
    times["tokenize"] += time.perf_counter() - start
    gc.freeze()
    try:
        docs = _stages(nlp, docs, times)
    finally:
        gc.unfreeze()
    graph = KnowledgeGraph()
    start = time.perf_counter()
    graph.add_all((article, facts_from_doc(doc)) for article, doc in zip(articles, docs))
    times["rdf_mapping"] += time.perf_counter() - start
    return dict(times)


def _stages(nlp: Language, docs: list[Doc], times: dict[str, float]) -> list[Doc]:
    """Run each pipeline component over all ``docs`` in turn, adding its seconds to ``times``."""
    for name, proc in nlp.pipeline:
        start = time.perf_counter()
        if hasattr(proc, "pipe"):
            docs = list(proc.pipe(docs, batch_size=DEFAULT_BATCH_SIZE))
        else:
            docs = [proc(doc) for doc in docs]
        times[name] += time.perf_counter() - start
        gc.freeze()
    return docs


def _slices(corpus: Path, folder: Path, rounds: int) -> list[tuple[Path, list[str]]]:
    """Split the corpus into ``rounds`` JSONL files, each with its article texts."""
    lines = corpus.read_text(encoding="utf-8").splitlines(keepends=True)
    size = -(-len(lines) // max(1, rounds))
    slices = []
    for number in range(0, len(lines), size):
        path = folder / f"slice{number // size}.jsonl"
        path.write_text("".join(lines[number : number + size]), encoding="utf-8")
        slices.append((path, [a.text for a in read_articles([path])]))
    return slices


def main(argv: list[str] | None = None) -> dict[str, object]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", type=int, default=2000, help="generated articles (default 2000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--model", default=None, help="spaCy model (default: kg's default)")
    parser.add_argument("--batch-size", type=int, default=DEFAULT_BATCH_SIZE)
    parser.add_argument("--processes", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--rounds", type=int, default=4, help="slices the two sides take turns on (default 4)")
    parser.add_argument("--profile", type=int, default=300, help="articles for the per-component breakdown (0: none)")
    parser.add_argument("-o", "--output", type=Path, default=RESULTS / "extraction.json")
    args = parser.parse_args(argv)

    model = resolve_model_name(args.model)
    with tempfile.TemporaryDirectory() as tmp:
        corpus = write_jsonl(Path(tmp) / "corpus.jsonl", args.n, args.seed)
        slices = _slices(corpus, Path(tmp), args.rounds)
        n_articles = sum(len(texts) for _, texts in slices)
        words = sum(len(t.split()) for _, texts in slices for t in texts)
        runs = []
        for n_process in args.processes:
            timed = measure(model, slices, n_process, args.batch_size)
            bare, kg_seconds = timed["bare"], timed["kg"]
            row = {
                "processes": n_process,
                "bare_seconds": round(bare, 2),
                "kg_seconds": round(kg_seconds, 2),
                "bare_articles_per_s": round(n_articles / bare, 1),
                "kg_articles_per_s": round(n_articles / kg_seconds, 1),
                "bare_words_per_s": round(words / bare),
                "kg_words_per_s": round(words / kg_seconds),
                "ratio": round(kg_seconds / bare, 3),
                "cpu_ratio": round(timed["kg_cpu"] / timed["bare_cpu"], 3) if timed["bare_cpu"] else None,
                "triples": int(timed["triples"]),
            }
            runs.append(row)
            print(
                f"{n_process} process(es): bare {row['bare_articles_per_s']} art/s {row['bare_words_per_s']} w/s | "
                f"kg {row['kg_articles_per_s']} art/s {row['kg_words_per_s']} w/s | "
                f"ratio {row['ratio']} (CPU {row['cpu_ratio']})",
                flush=True,
            )
        breakdown = components(model, corpus, min(args.profile, args.n)) if args.profile else {}
    total = sum(breakdown.values()) or 1.0
    if breakdown:
        print(f"one process, {min(args.profile, args.n)} articles, seconds by stage:")
        for name, seconds in sorted(breakdown.items(), key=lambda kv: -kv[1]):
            print(f"  {name:<18} {seconds:7.2f}  {100 * seconds / total:5.1f}%")
    shares = component_shares(breakdown) if breakdown else {}
    if shares:
        print("kg's spaCy components, % of bare nlp.pipe time (issue 3: under 25):")
        print("  " + "  ".join(f"{name.removeprefix('kg_')} {share:.1f}" for name, share in shares.items()))
    result = {
        "benchmark": "extraction",
        "machine": machine("spacy", model=model),
        "corpus": {"generator": "benchmarks/corpus.py", "articles": n_articles, "seed": args.seed, "words": words},
        "batch_size": args.batch_size,
        "rounds": args.rounds,
        "runs": runs,
        "stages_seconds": {k: round(v, 3) for k, v in breakdown.items()},
        "stages_articles": min(args.profile, args.n) if args.profile else 0,
        "components_percent_of_bare": {k: round(v, 1) for k, v in shares.items()},
    }
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    print(f"wrote {args.output}")
    return result


if __name__ == "__main__":
    main()
