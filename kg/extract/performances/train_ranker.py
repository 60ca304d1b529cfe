"""Train the performer ranker (:mod:`kg.extract.performances.ranker`) on annotated articles.

    python -m kg.extract.performances.train_ranker ../shared/dev/real            # writes the model file
    python -m kg.extract.performances.train_ranker ../shared/dev/real --check    # compares, writes nothing

For every mention of a stageable title that the exceptions leave as performed, every person
and group of the article is a candidate; it is a positive example when the gold annotation
has that performer performing that work. A logistic regression (scikit-learn, needed only
here) weighs the features; the decision threshold is the one that gives the best F1 of
(performer, work) pairs by article-level cross-validation, whose figures are written into
the model file beside the coefficients. Training is deterministic: the same articles give
the same file, which a test checks.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path

from kg.eval_match import any_names_match, names_match
from kg.extract.performances.default import staged_mentions
from kg.extract.performances.extract import stated_reading
from kg.extract.performances.ranker import FEATURES, MODEL_FILE, candidates
from kg.gold import gold_aliases, gold_names, load_gold
from kg.io import read_articles
from kg.nlp.factories import found_on
from kg.nlp.pipeline import load_pipeline, make_doc

#: Where the shipped model lives.
MODEL_PATH = Path(__file__).resolve().parents[1] / "resources" / MODEL_FILE
#: Folds of the article-level cross-validation.
FOLDS = 5
#: Inverse regularisation strength of the logistic regression.
C = 1.0
#: Decimals kept of each coefficient: enough for the decisions, stable across machines.
DECIMALS = 4


@dataclass(frozen=True)
class Sample:
    """One (title mention, candidate) pair of one article."""

    article: str
    work: str
    performer: str
    features: tuple[float, ...]
    label: int


def samples(folder: Path) -> list[Sample]:
    """Every candidate of every performed title mention in the annotated articles of ``folder``
    (``articles/*.txt`` and ``gold/*.json``, as the development set keeps them)."""
    nlp = load_pipeline()
    gold = load_gold(folder / "gold")
    out: list[Sample] = []
    for path in sorted((folder / "articles").glob("*.txt")):
        article = next(iter(read_articles([path])))
        if path.name not in gold:
            continue
        doc = nlp(make_doc(nlp, article))
        found = found_on(doc)
        _, stated, cast = stated_reading(doc, found)
        performed = _gold_pairs(gold[path.name])
        for work, span in staged_mentions(doc, found.works, set()):
            for cand in candidates(doc, span, cast):
                names = (cand.entity.name, *cand.entity.aliases)
                label = int(any(names_match(work.title, w) and any_names_match(names, who) for who, w in performed))
                out.append(Sample(path.stem, work.key, cand.entity.key, cand.features, label))
    return out


def _gold_pairs(annotation: dict) -> list[tuple[tuple[str, ...], str]]:
    """The gold's (performer's names, work) pairs."""
    aliases = gold_aliases(annotation)
    return [(gold_names(p["performer"], aliases), p["work"]) for p in annotation.get("performances", [])
            if p.get("work")]


def train(data: list[Sample]) -> dict:
    """Fit the model, choose its threshold by article-level cross-validation; the model file's content."""
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import GroupKFold

    x = [s.features for s in data]
    y = [s.label for s in data]
    groups = [s.article for s in data]
    probabilities = [0.0] * len(data)
    for train_at, test_at in GroupKFold(n_splits=FOLDS).split(x, y, groups):
        model = LogisticRegression(C=C, max_iter=1000).fit([x[i] for i in train_at], [y[i] for i in train_at])
        for i, p in zip(test_at, model.predict_proba([x[i] for i in test_at])[:, 1], strict=True):
            probabilities[i] = float(p)
    # the threshold whose neighbourhood scores best: on a flat stretch of F1 the single best point is
    # noise, and a retraining that moves it by a hair would swing precision against recall; of two
    # that score alike, the higher (the ranker decides last, where a wrong act costs more than none)
    scored = [(t / 100, _pair_figures(data, probabilities, t / 100)) for t in range(20, 90, 5)]
    at = max(range(1, len(scored) - 1),
             key=lambda k: (round(sum(scored[j][1]["f1"] for j in (k - 1, k, k + 1)), 3), k))
    threshold, figures = scored[at]
    model = LogisticRegression(C=C, max_iter=1000).fit(x, y)
    return {
        "about": "Performer ranker of kg's default reading; trained by python -m kg.extract.performances.train_ranker",
        "features": list(FEATURES),
        "coefficients": [round(float(c), DECIMALS) for c in model.coef_[0]],
        "intercept": round(float(model.intercept_[0]), DECIMALS),
        "threshold": threshold,
        "trained_on": {"articles": len(set(groups)), "candidates": len(data), "positives": sum(y)},
        "cross_validation": {"folds": FOLDS, "by": "article", **figures},
    }


def _pair_figures(data: list[Sample], probabilities: list[float], threshold: float) -> dict[str, float]:
    """Precision, recall and F1 of the (article, performer, work) pairs a threshold decides."""
    predicted = {(s.article, s.performer, s.work) for s, p in zip(data, probabilities, strict=True) if p >= threshold}
    wanted = {(s.article, s.performer, s.work) for s in data if s.label}
    right = len(predicted & wanted)
    precision = right / len(predicted) if predicted else 0.0
    recall = right / len(wanted) if wanted else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {"precision": round(precision, 3), "recall": round(recall, 3), "f1": round(f1, 3)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path, help="annotated articles: articles/*.txt and gold/*.json")
    parser.add_argument("--check", action="store_true", help="compare with the shipped model, write nothing")
    args = parser.parse_args(argv)
    model = train(samples(args.folder))
    text = json.dumps(model, indent=1) + "\n"
    if args.check:
        same = MODEL_PATH.read_text(encoding="utf-8") == text
        print("the shipped model is up to date" if same else "the shipped model differs from a retrained one")
        return 0 if same else 1
    MODEL_PATH.write_text(text, encoding="utf-8")
    print(json.dumps(model["cross_validation"]), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
