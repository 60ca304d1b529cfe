"""Quotations and their speakers in political news: kg against PolNeAR's train or dev split.

PolNeAR (the public repository networkdynamics/PolNeAR: US political news of 2015-2016
from seven publishers, every attribution annotated by hand with its source, cue and
content) carries no licence, so nothing of it is in this repository and nothing of it
is written to the results. Give a checkout of it, or its git directory, with
``--polnear`` or ``$KG_POLNEAR``. At run time the split is converted into a temporary
folder by ``../shared/eval/polnear.py`` (articles, and gold in the reference scorer's
format: the quotation-marked parts of attributed contents, with their speaker where the
annotated source is a proper name); each article is built alone, as
``kg build ARTICLE -o ID.ttl`` would build it but in one process; then
``../shared/eval/score.py`` scores the graphs. quote_span: a kg quotation and a gold one
share at least half of each other's words. quote_speaker: the same, and the speaker's
name matches; a gold quotation whose source is a pronoun or a description counts for its
span only.

The test split is held out for measuring kg: this script refuses it. Run:

    KG_POLNEAR=path/to/PolNeAR .venv/bin/python benchmarks/quotes_polnear.py [--split dev train] [--limit N]

``--keep DIR`` keeps the articles, gold and graphs (``DIR/SPLIT/{articles,gold,pred}``)
for ``../shared/eval/compare.py``. Writes ``benchmarks/results/quotes_polnear.json``
(figures only; a split not run is kept from the file as it was).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _machine import machine  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
EVAL = ROOT.parent / "shared" / "eval"
CONVERTER = EVAL / "polnear.py"
SCORER = EVAL / "score.py"
RESULTS = ROOT / "benchmarks" / "results" / "quotes_polnear.json"
MEASURES = ("quote_span", "quote_speaker")


def git_dir(polnear: Path) -> Path | None:
    """The git directory of a PolNeAR checkout (``.git`` inside it) or of a bare copy; None if neither."""
    if (polnear / ".git").is_dir():
        return polnear / ".git"
    if (polnear / "HEAD").is_file() and (polnear / "objects").is_dir():
        return polnear
    return None


class ConversionError(Exception):
    """The shared converter failed on a split."""


def convert(gitdir: Path, out: Path, split: str, limit: int | None) -> None:
    """Articles and gold of one split into ``out/articles`` and ``out/gold``, by the shared converter."""
    cmd = [sys.executable, str(CONVERTER), str(gitdir), str(out), "--split", split]
    if limit is not None:
        cmd += ["--limit", str(limit)]
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode:
        raise ConversionError(f"{CONVERTER.name} failed on the {split} split:\n{done.stderr.strip()}")


def build(nlp, articles: Path, pred: Path) -> dict[str, object]:  # type: ignore[no-untyped-def]
    """Each article's graph to ``pred/ID.ttl``; how many quotations kg found, attributed, by rule."""
    from kg.graph import KnowledgeGraph
    from kg.io import read_articles
    from kg.nlp import extract

    pred.mkdir(parents=True, exist_ok=True)
    found = attributed = 0
    rules: Counter[str] = Counter()
    for article, facts in extract(nlp, read_articles([articles], strict=True)):
        graph = KnowledgeGraph()
        graph.add(article, facts)
        graph.save(pred / f"{Path(str(article.source)).stem}.ttl")
        found += len(facts.quotes)
        attributed += sum(q.speaker is not None for q in facts.quotes)
        rules.update(q.rule or "none" for q in facts.quotes)
    return {"kg_quotes": found, "kg_attributed": attributed, "kg_quotes_by_rule": dict(rules.most_common())}


def score(gold: Path, pred: Path) -> dict[str, object]:
    """The reference scorer's totals for the quotation measures."""
    done = subprocess.run([sys.executable, str(SCORER), str(gold), str(pred), "--json"],
                          capture_output=True, text=True, check=True)
    summary = json.loads(done.stdout)["summary"]
    return {m: summary[m] for m in MEASURES}


def run_split(  # type: ignore[no-untyped-def]
    nlp, gitdir: Path, work: Path, split: str, limit: int | None
) -> dict[str, object]:
    """Convert, build and score one split; its figures."""
    started = time.perf_counter()
    convert(gitdir, work, split, limit)
    golds = [json.loads(p.read_text(encoding="utf-8")) for p in sorted((work / "gold").glob("*.json"))]
    converted = time.perf_counter()
    counts = build(nlp, work / "articles", work / "pred")
    built = time.perf_counter()
    figures = score(work / "gold", work / "pred")
    scored = time.perf_counter()
    return {
        "articles": len(golds),
        "words": sum(len(p.read_text(encoding="utf-8").split()) for p in (work / "articles").glob("*.txt")),
        "gold_quotes": sum(len(g["quotes"]) for g in golds),
        "gold_quotes_with_speaker": sum(1 for g in golds for q in g["quotes"] if q.get("speaker")),
        **counts,
        **figures,
        "seconds": {"convert": round(converted - started, 1), "build": round(built - converted, 1),
                    "score": round(scored - built, 1), "total": round(scored - started, 1)},
    }


def _line(split: str, f: dict[str, object]) -> str:
    cells = [f"{m} P {f[m]['precision']:.3f} R {f[m]['recall']:.3f} F1 {f[m]['f1']:.3f}"  # type: ignore[index]
             for m in MEASURES]
    return (f"{split:5} {f['articles']} articles, {f['gold_quotes']} gold quotes ({f['gold_quotes_with_speaker']} "
            f"with a named speaker), kg {f['kg_quotes']} ({f['kg_attributed']} attributed)\n      "
            + "\n      ".join(cells) + f"\n      {f['seconds']['total']} s (build {f['seconds']['build']} s)")  # type: ignore[index]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--polnear", type=Path, default=os.environ.get("KG_POLNEAR"),
                        help="a PolNeAR checkout or its git directory (default: $KG_POLNEAR)")
    parser.add_argument("--split", nargs="+", choices=("dev", "train"), default=["dev"],
                        help="splits to measure (default: dev; the test split is held out)")
    parser.add_argument("--limit", type=int, default=None,
                        help="the first N texts of each split (those without a quotation are dropped)")
    parser.add_argument("--keep", type=Path, default=None, help="keep articles, gold and graphs in DIR/SPLIT/")
    parser.add_argument("--no-write", action="store_true", help=f"do not write {RESULTS.relative_to(ROOT)}")
    args = parser.parse_args()
    if not CONVERTER.is_file() or not SCORER.is_file():
        sys.exit(f"skipped: no {CONVERTER.name} and {SCORER.name} in {EVAL} (the shared folder beside the project)")
    if args.polnear is None:
        sys.exit("skipped: no PolNeAR (give --polnear DIR or set KG_POLNEAR to a checkout of networkdynamics/PolNeAR)")
    gitdir = git_dir(args.polnear)
    if gitdir is None:
        sys.exit(f"skipped: {args.polnear} is no PolNeAR checkout or git directory")
    head = subprocess.run(["git", f"--git-dir={gitdir}", "rev-parse", "HEAD"], capture_output=True, text=True)
    from kg.nlp import load_pipeline  # after the checks: importing spaCy takes seconds
    from kg.nlp.model import resolve_model_name

    nlp = load_pipeline()
    described = {"polnear_commit": head.stdout.strip() or None, "limit": args.limit}
    splits: dict[str, dict[str, object]] = {}
    failed = False
    with tempfile.TemporaryDirectory(prefix="kg-polnear-") as tmp:
        for split in dict.fromkeys(args.split):
            work = (args.keep or Path(tmp)) / split
            try:
                splits[split] = {**described, **run_split(nlp, gitdir, work, split, args.limit)}
            except ConversionError as exc:
                failed = True
                print(exc, file=sys.stderr)
                continue
            print(_line(split, splits[split]), flush=True)
            splits[split]["machine"] = machine("spacy", model=resolve_model_name())
    if splits and not args.no_write:
        write(splits)
    if failed:
        sys.exit(1)


def write(splits: dict[str, dict[str, object]]) -> None:
    """The figures of the splits measured into the results file, beside those of the others."""
    old = json.loads(RESULTS.read_text(encoding="utf-8")) if RESULTS.exists() else {}
    results = {
        "data": "PolNeAR (networkdynamics/PolNeAR; no licence: figures only)",
        "splits": {**old.get("splits", {}), **splits},
    }
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    print(f"wrote {RESULTS}")


if __name__ == "__main__":
    main()
