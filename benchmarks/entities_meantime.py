"""People and places in real news: kg's detection against MEANTIME (120 Wikinews articles).

Reads ``../shared/data/meantime_en`` (see its SOURCE.md; CC BY 4.0): each article's text
is rebuilt from its tokens (headline, a blank line, then one paragraph a sentence), dated
by its creation time, and run through kg's pipeline. Gold people and places are the
ENTITY instances of type PER and LOC; their named mentions (``syntactic_type`` NAM) are
what kg should find. A kg mention matches a gold mention when their characters overlap
(gold names run long: "Spokeswoman Sandy Angers"). Only NAM mentions are scored: PRE.NAM
are mostly demonyms and premodifiers ("German", "US" in "US airtanker") and many names sit
unlabelled inside descriptions ("the US government"), so a kg mention that overlaps only a
gold person (place) mention of another syntactic type is left out of precision.
Only the headline and first sentences of each article are annotated: the whole article
goes through kg, and only its mentions up to the last annotated sentence are scored.

Scored at two levels: name mentions, and per article the distinct people and places
(a gold entity is found when kg found one of its names; a kg entity is right when one of
its names is a gold name of that type). Confusions (a gold person kg made a place, a gold
place kg made a person) are counted apart: in a knowledge graph they are the costly errors.
MEANTIME is business news (aircraft, Apple, GM, stock markets), not kg's music news. Run:

    .venv/bin/python benchmarks/entities_meantime.py [--data DIR] [--limit N]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import xml.etree.ElementTree as ET
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from kg.extract.model import Facts  # noqa: E402
from kg.io.article import Article  # noqa: E402
from kg.nlp.model import resolve_model_name  # noqa: E402
from kg.nlp.pipeline import facts_from_doc, load_pipeline, make_doc  # noqa: E402

from _machine import machine  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
MEANTIME = ROOT.parent / "shared" / "data" / "meantime_en"
RESULTS = Path(__file__).resolve().parent / "results"

#: Gold entity type -> the scored side of kg's output it should land on.
TYPES = {"PER": "person", "LOC": "place"}

#: Tokens glued to the token before them.
_NO_SPACE_BEFORE = {
    ",", ".", ":", ";", "!", "?", "%", ")", "]", "''", "”", "’", "'", "...", "'s", "n't", "'re", "'ve", "'m", "'ll", "'d",
}
#: Tokens glued to the token after them.
_NO_SPACE_AFTER = {"(", "[", "``", "“", "$", "US$", "CA$", "AU$", "£", "#"}
#: PTB-style quote tokens written as the marks a news text has.
_MARKS = {"``": "“", "''": "”", "`": "‘"}
_PRONOUNS = {"he", "she", "him", "her", "his", "hers", "they", "them", "their", "it", "its", "i", "we", "you"}

Span = tuple[int, int]


@dataclass
class GoldDoc:
    """One article: its rebuilt text and date, and gold named mentions grouped by entity.

    Only the headline and first sentences are annotated: ``scored_end`` is where the last
    annotated sentence ends, and kg's mentions after it are not scored. ``unnamed`` holds
    the mentions of other syntactic types, ``named`` every NAM mention with its entity type.
    """

    doc_id: str
    text: str
    published: str | None
    scored_end: int
    names: dict[str, dict[str, list[Span]]] = field(default_factory=lambda: {t: {} for t in TYPES})
    unnamed: dict[str, list[Span]] = field(default_factory=lambda: {t: [] for t in TYPES})
    named: list[tuple[str, Span]] = field(default_factory=list)


def detokenize(tokens: list[tuple[str, str, str]]) -> tuple[str, dict[str, Span]]:
    """The text of ``(t_id, sentence, word)`` tokens, sentences as paragraphs, and each token's range.

    MEANTIME keeps tokens only ("Airbus 's"); kg must see text as a newspaper prints it,
    and the gold mentions need character offsets into that text.
    """
    text, previous, sentence, open_quote = "", "", "", False
    offsets: dict[str, Span] = {}
    for t_id, sent, word in tokens:
        word = _MARKS.get(word, word)
        if word == '"':
            word, open_quote = ("“", True) if not open_quote else ("”", False)
        if sent != sentence:
            text += "\n\n" if text else ""
        elif word not in _NO_SPACE_BEFORE | {"”"} and previous not in _NO_SPACE_AFTER | {"“", "‘"}:
            text += " "
        sentence, previous = sent, word
        offsets[t_id] = (len(text), len(text) + len(word))
        text += word
    return text, offsets


def load_document(path: Path) -> GoldDoc:
    """Read one CAT XML file: text, creation date and the PER/LOC named mentions."""
    root = ET.parse(path).getroot()
    tokens = [(t.get("t_id", ""), t.get("sentence", ""), t.text or "") for t in root.iter("token")]
    text, offsets = detokenize(tokens)
    markables = root.find("Markables")
    relations = root.find("Relations")
    assert markables is not None and relations is not None, path
    created = next(
        (t.get("value") for t in markables.iter("TIMEX3") if t.get("functionInDocument") == "CREATION_TIME"), None
    )
    sentence = {t_id: int(sent) for t_id, sent, _ in tokens}
    last = max(sentence[a.get("t_id", "")] for a in markables.iter("token_anchor"))
    scored = max(offsets[t_id][1] for t_id, sent, _ in tokens if int(sent) <= last)
    doc = GoldDoc(root.get("doc_id", path.stem), text, created[:10] if created else None, scored)
    types = {e.get("m_id"): e.get("ent_type") for e in markables.iter("ENTITY")}
    mentions = {}
    for m in markables.iter("ENTITY_MENTION"):
        anchors = [offsets[a.get("t_id", "")] for a in m.iter("token_anchor")]
        if anchors:
            mentions[m.get("m_id")] = (m.get("syntactic_type"), (anchors[0][0], anchors[-1][1]))
    for link in relations.iter("REFERS_TO"):
        target = link.find("target")
        entity = target.get("m_id", "") if target is not None else ""
        kind = types.get(entity) or "?"
        for source in link.iter("source"):
            if source.get("m_id") not in mentions:
                continue
            syntactic, span = mentions[source.get("m_id")]
            if syntactic == "NAM":
                doc.named.append((kind, span))
            if kind in TYPES and syntactic == "NAM":
                doc.names[kind].setdefault(entity, []).append(span)
            elif kind in TYPES:
                doc.unnamed[kind].append(span)
    return doc


def overlaps(span: Span, spans: list[Span]) -> bool:
    return any(s < span[1] and span[0] < e for s, e in spans)


def predicted(facts: Facts, end: int) -> dict[str, dict[str, list[Span]]]:
    """kg's name mentions before ``end`` by side ("person", "place", "other") and entity key.

    Pronouns and lower-case descriptions are dropped: this benchmark scores names only.
    """
    out: dict[str, dict[str, list[Span]]] = {"person": {}, "place": {}, "other": {}}
    things = [("person" if e.kind == "person" else "other", e.key, e.mentions) for e in facts.entities]
    things += [("place", p.key, p.mentions) for p in facts.places]
    for side, key, mentions in things:
        names = [m for m in mentions if m.start < end and m.text[:1].isupper() and m.text.lower() not in _PRONOUNS]
        spans = [(m.start, m.end) for m in names]
        if spans:
            out[side].setdefault(key, []).extend(spans)
    return out


def _flat(spans: dict[str, list[Span]]) -> list[Span]:
    return [s for group in spans.values() for s in group]


def _prf(hit_p: int, n_p: int, hit_r: int, n_r: int) -> dict[str, float | int]:
    p = hit_p / n_p if n_p else 0.0
    r = hit_r / n_r if n_r else 0.0
    return {"P": round(p, 3), "R": round(r, 3), "F1": round(2 * p * r / (p + r), 3) if p + r else 0.0,
            "predicted": n_p, "gold": n_r}


def score(pairs: list[tuple[GoldDoc, Facts]]) -> dict[str, object]:
    """Mention- and entity-level P/R/F1 for people and places, and the confusions.

    "became" says what kg made of each gold name (person, place, other: an organisation
    or group; missed); "were gold" says what each kg name is in the gold (PER, LOC, ORG,
    PRO for products, FIN for indices; none: not annotated as a name).
    """
    counts: Counter[str] = Counter()
    became: dict[str, Counter[str]] = {t: Counter() for t in TYPES}
    kg_names: dict[str, Counter[str]] = {t: Counter() for t in TYPES.values()}
    for gold, facts in pairs:
        pred = predicted(facts, gold.scored_end)
        for kind, side in TYPES.items():
            gold_spans = _flat(gold.names[kind])
            mine = _flat(pred[side])
            for span in mine:  # what kg's name is in the gold: its own type first, else any other
                named = sorted(gold.named, key=lambda n: n[0] != kind)
                was = next((k for k, g in named if overlaps(span, [g])), "none")
                kg_names[side][was] += 1
                if overlaps(span, gold_spans):
                    counts[f"{kind} mention hit_p"] += 1
                if overlaps(span, gold_spans) or not overlaps(span, gold.unnamed[kind]):
                    counts[f"{kind} mention n_p"] += 1
            for span in gold_spans:
                counts[f"{kind} mention n_r"] += 1
                found = [s for s, spans in pred.items() if overlaps(span, _flat(spans))]
                counts[f"{kind} mention hit_r"] += side in found
                became[kind][side if side in found else "+".join(sorted(found)) or "missed"] += 1
            for spans in gold.names[kind].values():
                counts[f"{kind} entity n_r"] += 1
                counts[f"{kind} entity hit_r"] += any(overlaps(s, mine) for s in spans)
                other = "place" if side == "person" else "person"
                others = _flat(pred[other])
                # Confused: named as the other side somewhere, and never as its own.
                confused = any(overlaps(s, others) for s in spans) and not any(overlaps(s, mine) for s in spans)
                counts[f"{kind} entity as {other}"] += confused
            for spans in pred[side].values():
                right = any(overlaps(s, gold_spans) for s in spans)
                counts[f"{kind} entity hit_p"] += right
                counts[f"{kind} entity n_p"] += right or not all(overlaps(s, gold.unnamed[kind]) for s in spans)
    result: dict[str, object] = {}
    for kind in TYPES:
        for level in ("mention", "entity"):
            c = [counts[f"{kind} {level} {k}"] for k in ("hit_p", "n_p", "hit_r", "n_r")]
            result[f"{kind} {level}"] = _prf(*c)
        result[f"{kind} gold names became"] = dict(became[kind].most_common())
        result[f"kg {TYPES[kind]} names were gold"] = dict(kg_names[TYPES[kind]].most_common())
    result["confusions"] = {
        "gold PER entities kg made a place": counts["PER entity as place"],
        "gold LOC entities kg made a person": counts["LOC entity as person"],
    }
    return result


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--data", type=Path, default=MEANTIME, help="MEANTIME English folder (default: ../shared/data/meantime_en)"
    )
    parser.add_argument("--limit", type=int, default=None, help="articles to read (default: all 120)")
    parser.add_argument("--model", default=None, help="spaCy model (default: kg's default)")
    parser.add_argument("-o", "--output", type=Path, default=RESULTS / "entities_meantime.json")
    args = parser.parse_args(argv)
    paths = sorted((args.data / "intra-doc_annotation").glob("corpus_*/*.xml"))[: args.limit]
    if not paths:
        sys.exit(f"{args.data}: no MEANTIME files (intra-doc_annotation/corpus_*/*.xml); pass --data")
    gold = [load_document(p) for p in paths]
    model = resolve_model_name(args.model)
    nlp = load_pipeline(model)
    started = time.perf_counter()
    docs = nlp.pipe(make_doc(nlp, Article(id=g.doc_id, text=g.text, published=g.published)) for g in gold)
    pairs = [(g, facts_from_doc(doc)) for g, doc in zip(gold, docs)]
    seconds = time.perf_counter() - started
    scores = score(pairs)
    print(f"articles {len(gold)}  words {sum(len(g.text.split()) for g in gold):,}  ({seconds:.1f}s)")
    print(f"{'':16} {'P':>6} {'R':>6} {'F1':>6} {'kg':>5} {'gold':>5}")
    for kind in TYPES:
        for level in ("mention", "entity"):
            row = scores[f"{kind} {level}"]
            assert isinstance(row, dict)
            figures = f"{row['P']:>6.3f} {row['R']:>6.3f} {row['F1']:>6.3f} {row['predicted']:>5} {row['gold']:>5}"
            print(f"{kind} {level:<12} {figures}")
    for kind in TYPES:
        print(f"{kind} gold names became: {scores[f'{kind} gold names became']}")
        print(f"kg {TYPES[kind]} names were gold: {scores[f'kg {TYPES[kind]} names were gold']}")
    for name, n in scores["confusions"].items():  # type: ignore[attr-defined]
        print(f"{name}: {n}")
    result = {
        "benchmark": "entities_meantime",
        "machine": machine("spacy", model=model),
        "corpus": {"name": "MEANTIME English (intra-doc)", "articles": len(gold), "license": "CC BY 4.0"},
        "seconds": round(seconds, 1),
        "scores": scores,
    }
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    print(f"wrote {args.output}")


if __name__ == "__main__":
    main()
