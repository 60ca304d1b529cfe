"""Quotation spans and speakers against LitBank (fiction, CC BY 4.0), as a rough outside check.

Reads ``../shared/data/litbank`` (see its SOURCE.md): each document's sentences are joined
with single spaces (LitBank keeps no paragraph breaks), run through kg's pipeline, and
compared with the gold quotations. A span counts when its words equal a gold quotation's
words; a speaker counts when one of the predicted entity's mentions overlaps a mention of
the gold speaker's coreference chain.

LitBank is fiction: dialogue alternates speakers without cues and without the paragraph
breaks that would show it, so its numbers understate what kg does on news. Run:

    .venv/bin/python benchmarks/quotes_litbank.py [--limit N]
"""

from __future__ import annotations

import argparse
import time
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from kg.extract.text.marks import strip_marks
from kg.io.article import Article
from kg.nlp import extract, load_pipeline

LITBANK = Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "litbank"


@dataclass(frozen=True)
class GoldQuote:
    key: str
    start: int
    end: int
    speaker_spans: tuple[tuple[int, int], ...]


def _offsets(lines: list[str]) -> tuple[str, list[list[tuple[int, int]]]]:
    """The text with sentences joined by spaces, and each token's character range."""
    pieces, offsets, pos = [], [], 0
    for line in lines:
        row = []
        for tok in line.split(" "):
            row.append((pos, pos + len(tok)))
            pieces.append(tok)
            pos += len(tok) + 1
        offsets.append(row)
    return " ".join(pieces), offsets


def _chars(offsets: list[list[tuple[int, int]]], s1: str, t1: str, s2: str, t2: str) -> tuple[int, int]:
    return offsets[int(s1)][int(t1)][0], offsets[int(s2)][int(t2)][1]


def load_document(name: str) -> tuple[str, list[GoldQuote]]:
    """One LitBank document: its text and gold quotations with their speaker chains."""
    base = LITBANK / "quotations" / "tsv" / name
    lines = base.with_suffix(".txt").read_text(encoding="utf-8").rstrip("\n").split("\n")
    text, offsets = _offsets(lines)
    mentions: dict[str, tuple[int, int]] = {}
    chains: dict[str, list[tuple[int, int]]] = defaultdict(list)
    coref = (LITBANK / "coref" / "tsv" / name).with_suffix(".ann")
    for row in coref.read_text(encoding="utf-8").splitlines():
        cols = row.split("\t")
        if cols[0] == "MENTION":
            mentions[cols[1]] = _chars(offsets, *cols[2:6])
        elif cols[0] == "COREF" and cols[1] in mentions:
            chains[cols[2]].append(mentions[cols[1]])
    spans: dict[str, tuple[int, int, str]] = {}
    speakers: dict[str, str] = {}
    for row in base.with_suffix(".ann").read_text(encoding="utf-8").splitlines():
        cols = row.split("\t")
        if cols[0] == "QUOTE":
            start, end = _chars(offsets, *cols[2:6])
            spans[cols[1]] = (start, end, strip_marks(text[start:end]))
        elif cols[0] == "ATTRIB":
            speakers[cols[1]] = cols[2]
    gold = [
        GoldQuote(key, s, e, tuple(chains.get(speakers.get(qid, ""), ())))
        for qid, (s, e, key) in spans.items()
    ]
    return text, gold


def _overlap(a: tuple[int, int], spans: tuple[tuple[int, int], ...]) -> bool:
    return any(s < a[1] and a[0] < e for s, e in spans)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=None, help="documents to read (default: all)")
    args = parser.parse_args()
    names = sorted(p.name for p in (LITBANK / "quotations" / "tsv").glob("*.ann"))[: args.limit]
    docs = {n: load_document(n) for n in names}
    nlp = load_pipeline()
    articles = [Article(id=n, text=docs[n][0]) for n in names]
    gold_n = pred_n = span_hit = attributed = speaker_hit = 0
    started = time.perf_counter()
    for article, facts in extract(nlp, articles):
        gold = {g.key: g for g in docs[article.id][1]}
        gold_n += len(gold)
        by_key = {e.key: e for e in facts.entities}
        for quote in facts.quotes:
            pred_n += 1
            g = gold.get(strip_marks(quote.span.text))
            if g is None:
                continue
            span_hit += 1
            if quote.speaker is None:
                continue
            attributed += 1
            entity = by_key[quote.speaker]
            if any(_overlap((m.start, m.end), g.speaker_spans) for m in entity.mentions):
                speaker_hit += 1
    seconds = time.perf_counter() - started
    p = span_hit / pred_n if pred_n else 0.0
    r = span_hit / gold_n if gold_n else 0.0
    f = 2 * p * r / (p + r) if p + r else 0.0
    sp = speaker_hit / attributed if attributed else 0.0
    wp, wr = (speaker_hit / pred_n if pred_n else 0.0), (speaker_hit / gold_n if gold_n else 0.0)
    wf = 2 * wp * wr / (wp + wr) if wp + wr else 0.0
    print(f"documents {len(names)}  gold quotes {gold_n}  predicted {pred_n}  ({seconds:.1f}s)")
    print(f"span            P {p:.3f}  R {r:.3f}  F1 {f:.3f}")
    print(
        f"speaker         precision {sp:.3f} over {attributed} attributed, "
        f"coverage {attributed / max(span_hit, 1):.3f}"
    )
    print(f"span+speaker    P {wp:.3f}  R {wr:.3f}  F1 {wf:.3f}")


if __name__ == "__main__":
    main()
