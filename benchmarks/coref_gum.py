"""People and their mentions against GUM's Wikinews documents (CC BY): an outside coreference check.

Reads ``../shared/data/gum_wikinews`` (see its SOURCE.md): each document's text is rebuilt
from its tokens (``xml/``), blocks (paragraphs, headings, captions, list items, interview
turns) apart by a blank line, run through kg's pipeline, and the mentions of kg's person
entities are compared with GUM's ``person`` mentions (``coref/gum/conll/``): names,
pronouns and descriptions, singletons included.

A kg mention matches a gold mention when the two overlap and the kg span lies inside the
gold span or ends on its last token ("Rivera" and "Ana Rivera" match "singer Ana Rivera"); each
mention is matched once, an exact span first, then the largest overlap, then the smallest
gold span ("Ana Rivera", not "herself", takes the gold "Ana Rivera herself").
Coreference (MUC, B³) is scored on the matched mentions only, so that mention detection
is not counted twice; the end-to-end scores, unmatched mentions included, are
written to the results as well. A pronoun counts as rightly resolved when most of the other
matched mentions of its kg entity belong to its gold entity.

GUM annotates every person: first- and second-person pronouns, generic "people", speakers
of interviews that are not named in their turns. kg resolves names, third-person pronouns
and definite descriptions, so recall is low by design; precision and the pronoun accuracy
say more. Prints a table and writes ``benchmarks/results/coref_gum.json``. Run:

    .venv/bin/python benchmarks/coref_gum.py [--data DIR] [--limit N]
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Hashable
from dataclasses import asdict, dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _machine import machine  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT.parent / "shared" / "data" / "gum_wikinews"
RESULTS = ROOT / "benchmarks" / "results" / "coref_gum.json"

#: XML elements that stand as blocks of their own: a blank line before and after.
_BLOCKS = frozenset({"p", "head", "item", "caption", "sp", "figure", "list", "l", "lg"})
#: Tokens written against the previous one, and after which the next one is.
_CLITICS = ("n't", "'s", "'re", "'ve", "'ll", "'d", "'m")
_NO_SPACE_BEFORE = frozenset(
    {",", ".", ";", ":", "!", "?", "%", ")", "]", "}", *_CLITICS, *(c.replace("'", "’") for c in _CLITICS)}
)
_NO_SPACE_AFTER = frozenset({"(", "[", "{", "$", "#"})
#: Personal and possessive pronouns in GUM's (TreeTagger) tag set.
_PRONOUN_TAGS = frozenset({"PP", "PP$"})
_MENTION = re.compile(r"(\()?([a-z]+)-(\d+)(?:-[^()]*)?(\))?")

Span = tuple[int, int]
Clusters = list[set[Hashable]]


@dataclass
class Document:
    """One GUM document rebuilt: text, each token's character range, and its person entities."""

    name: str
    genre: str
    published: str | None
    text: str
    tokens: list[Span]
    tags: list[str]
    people: dict[str, list[Span]]  # entity id -> mentions as (first token, last token)


def _xml_tokens(path: Path) -> tuple[str, list[Span], list[str], dict[str, str]]:
    """Detokenize a GUM XML file: spaces as English writes them, a blank line between blocks.

    GUM splits "don't" and "all-girl" into tokens; spaCy's model reads them better glued
    back (``<w>`` holds the pieces of one written word; the tags tell opening quotes from
    closing ones). Returns the text, each token's range, its tag, and the header's attributes.
    """
    pieces: list[str] = []
    tokens: list[Span] = []
    tags: list[str] = []
    header: dict[str, str] = {}
    block = glue_next = in_word = False
    pos = 0
    for line in path.read_text(encoding="utf-8").splitlines():
        element = re.match(r"<(/?)([a-z]+)", line)
        if element:
            closing, name = element.groups()
            if name == "text" and not closing:
                header = dict(re.findall(r'(\w+)="([^"]*)"', line))
            block |= name in _BLOCKS
            if name == "w":
                in_word = not closing
                glue_next &= in_word
            continue
        word, tag = line.split("\t")[:2]
        if tokens:
            space = "\n\n" if block else "" if glue_next or tag == "''" or word.lower() in _NO_SPACE_BEFORE else " "
            pieces.append(space)
            pos += len(space)
        tokens.append((pos, pos + len(word)))
        tags.append(tag)
        pieces.append(word)
        pos += len(word)
        glue_next = in_word or tag == "``" or word in _NO_SPACE_AFTER
        block = False
    return "".join(pieces), tokens, tags, header


def _conll_people(path: Path) -> dict[str, list[Span]]:
    """The person entities of a GUM CoNLL file: id -> mentions as (first token, last token)."""
    people: dict[str, list[Span]] = defaultdict(list)
    opened: dict[str, list[int]] = defaultdict(list)
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line or line.startswith("#"):
            continue
        index, _, marks = line.split("\t")
        for m in _MENTION.finditer(marks):
            opens, kind, ident, closes = m.groups()
            if opens:
                opened[ident].append(int(index))
            if closes:
                first = opened[ident].pop()
                if kind == "person":
                    people[ident].append((first, int(index)))
    return dict(people)


def load_document(data: Path, name: str) -> Document:
    """One GUM document with its text rebuilt and its gold people."""
    text, tokens, tags, header = _xml_tokens(data / "xml" / f"{name}.xml")
    people = _conll_people(data / "coref" / "gum" / "conll" / f"{name}.conll")
    return Document(name, header.get("type", ""), header.get("dateCreated"), text, tokens, tags, people)


def _side(a: Clusters, b: Clusters, muc: bool) -> tuple[float, float]:
    """One side of MUC or B³: the numerator and denominator of the score of ``b`` against ``a``."""
    where = {m: i for i, cluster in enumerate(b) for m in cluster}
    num = den = 0.0
    for cluster in filter(None, a):
        parts = Counter(where.get(m, ("alone", m)) for m in cluster)
        if muc:
            num, den = num + len(cluster) - len(parts), den + len(cluster) - 1
        else:
            own = sum(n * n for part, n in parts.items() if not isinstance(part, tuple))
            num, den = num + own / len(cluster), den + len(cluster)
    return num, den


def muc(key: Clusters, response: Clusters) -> tuple[float, float, float, float]:
    """MUC (Vilain et al. 1995): links kept. Recall's and precision's numerators and denominators.

    Returned unreduced so that documents add up (micro average). A mention missing from
    the other side counts as a partition of its own, as in the CoNLL reference scorer.

    >>> muc([{1, 2, 3}], [{1, 2}, {3}])
    (1.0, 2.0, 1.0, 1.0)
    """
    return (*_side(key, response, True), *_side(response, key, True))


def b_cubed(key: Clusters, response: Clusters) -> tuple[float, float, float, float]:
    """B³ (Bagga and Baldwin 1998): per-mention overlap of its key and response clusters.

    Like :func:`muc`, numerators and denominators of recall and precision; singletons count.

    >>> [round(x, 3) for x in b_cubed([{1, 2, 3}], [{1, 2}, {3}])]
    [1.667, 3.0, 3.0, 3.0]
    """
    return (*_side(key, response, False), *_side(response, key, False))


def _match(kg: list[Span], gold: list[Span], tokens: list[Span]) -> dict[int, int]:
    """kg mention index -> gold mention index, one to one (see the module's docstring for the rule)."""
    pairs = []
    for i, (ks, ke) in enumerate(kg):
        for j, (first, last) in enumerate(gold):
            gs, ge = tokens[first][0], tokens[last][1]
            overlap = min(ke, ge) - max(ks, gs)
            if overlap > 0 and ((gs <= ks and ke <= ge) or tokens[last][0] < ke <= ge):
                pairs.append(((ks, ke) != (gs, ge), -overlap, ge - gs, i, j))
    matched: dict[int, int] = {}
    for *_, i, j in sorted(pairs):
        if i not in matched and j not in matched.values():
            matched[i] = j
    return matched


@dataclass
class Tally:
    """Counts over a set of documents, added document by document (micro averages)."""

    documents: int = 0
    gold_entities: int = 0
    gold_mentions: int = 0
    kg_mentions: int = 0
    matched: int = 0
    muc: list[float] = field(default_factory=lambda: [0.0] * 4)
    b_cubed: list[float] = field(default_factory=lambda: [0.0] * 4)
    muc_end_to_end: list[float] = field(default_factory=lambda: [0.0] * 4)
    b_cubed_end_to_end: list[float] = field(default_factory=lambda: [0.0] * 4)
    pronouns_linked: int = 0
    pronouns_right: int = 0
    gold_by_kind: Counter[str] = field(default_factory=Counter)
    found_by_kind: Counter[str] = field(default_factory=Counter)

    def add(self, other: Tally) -> None:
        """Add another tally's counts to this one."""
        for name, value in vars(other).items():
            mine = getattr(self, name)
            if isinstance(value, list):
                setattr(self, name, [a + b for a, b in zip(mine, value)])
            else:
                setattr(self, name, mine + value)


def _mention_kind(doc: Document, first: int, last: int) -> str:
    """A one-word personal or possessive pronoun, a name (proper nouns only), or a description."""
    if first == last and doc.tags[first] in _PRONOUN_TAGS:
        return "pronoun"
    words = [t for t in doc.tags[first : last + 1] if t != "POS" and any(c.isalpha() for c in t)]
    return "name" if all(t in ("NP", "NPS") for t in words) else "description"


def score(doc: Document, entities: list[list[Span]]) -> Tally:
    """Compare kg's person entities (their mentions as character spans) with the gold people."""
    gold = [m for mentions in doc.people.values() for m in mentions]
    gold_entity = {j: e for j, e in enumerate(e for e, ms in doc.people.items() for _ in ms)}
    kg_spans = [m for mentions in entities for m in mentions]
    kg_entity = [i for i, mentions in enumerate(entities) for _ in mentions]
    to_gold = _match(kg_spans, gold, doc.tokens)
    t = Tally(1, len(doc.people), len(gold), len(kg_spans), len(to_gold))
    key: Clusters = [set() for _ in doc.people]
    index = {e: n for n, e in enumerate(doc.people)}
    for j in to_gold.values():
        key[index[gold_entity[j]]].add(j)
    response: Clusters = [set() for _ in entities]
    for i, j in to_gold.items():
        response[kg_entity[i]].add(j)
    t.muc, t.b_cubed = list(muc(key, response)), list(b_cubed(key, response))
    full_key: Clusters = [set() for _ in doc.people]
    for j in range(len(gold)):
        full_key[index[gold_entity[j]]].add(j)
    full_response: Clusters = [set() for _ in entities]
    for i in range(len(kg_spans)):
        full_response[kg_entity[i]].add(to_gold.get(i, ("kg", i)))
    t.muc_end_to_end, t.b_cubed_end_to_end = list(muc(full_key, full_response)), list(b_cubed(full_key, full_response))
    found = set(to_gold.values())
    for j, (first, last) in enumerate(gold):
        kind = _mention_kind(doc, first, last)
        t.gold_by_kind[kind] += 1
        t.found_by_kind[kind] += j in found
    for i, j in to_gold.items():
        if _mention_kind(doc, *gold[j]) != "pronoun":
            continue
        others = Counter(gold_entity[o] for o in response[kg_entity[i]] if o != j)
        t.pronouns_linked += 1
        t.pronouns_right += bool(others) and others.most_common(1)[0][0] == gold_entity[j]
    return t


def _prf(num_r: float, den_r: float, num_p: float, den_p: float) -> dict[str, float]:
    r, p = (num_r / den_r if den_r else 0.0), (num_p / den_p if den_p else 0.0)
    return {"precision": round(p, 4), "recall": round(r, 4), "f1": round(2 * p * r / (p + r) if p + r else 0.0, 4)}


def figures(t: Tally) -> dict[str, object]:
    """The reported figures of a tally."""
    m, b = _prf(*t.muc), _prf(*t.b_cubed)
    me, be = _prf(*t.muc_end_to_end), _prf(*t.b_cubed_end_to_end)
    return {
        "documents": t.documents,
        "gold_entities": t.gold_entities,
        "gold_mentions": t.gold_mentions,
        "kg_mentions": t.kg_mentions,
        "mentions": _prf(t.matched, t.gold_mentions, t.matched, t.kg_mentions),
        "mention_recall_by_kind": {
            k: {"gold": n, "recall": round(t.found_by_kind[k] / n, 4)} for k, n in sorted(t.gold_by_kind.items())
        },
        "muc": m,
        "b_cubed": b,
        "muc_b_cubed_f1": round((m["f1"] + b["f1"]) / 2, 4),
        "end_to_end": {"muc": me, "b_cubed": be, "muc_b_cubed_f1": round((me["f1"] + be["f1"]) / 2, 4)},
        "pronouns_linked": t.pronouns_linked,
        "pronoun_accuracy": round(t.pronouns_right / t.pronouns_linked, 4) if t.pronouns_linked else None,
    }


def _table(groups: dict[str, dict[str, object]]) -> str:
    rows = [f"{'':10} {'docs':>4} {'ents':>5} {'gold':>5} {'kg':>5}  {'mentions P/R/F1':>17}  "
            f"{'MUC P/R/F1':>17}  {'B3 P/R/F1':>17}  {'avg':>5}  {'pron acc (n)':>12}"]
    for name, f in groups.items():
        cells = [
            " ".join(f"{f[k][x]:.2f}" for x in ("precision", "recall", "f1"))  # type: ignore[index]
            for k in ("mentions", "muc", "b_cubed")
        ]
        acc = f["pronoun_accuracy"]
        rows.append(
            f"{name:10} {f['documents']:>4} {f['gold_entities']:>5} {f['gold_mentions']:>5} {f['kg_mentions']:>5}  "
            f"{cells[0]:>17}  {cells[1]:>17}  {cells[2]:>17}  {f['muc_b_cubed_f1']:>5.2f}  "
            f"{'-' if acc is None else f'{acc:.2f}':>5} ({f['pronouns_linked']})"
        )
    return "\n".join(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DATA, help="the GUM Wikinews folder (default: %(default)s)")
    parser.add_argument("--limit", type=int, default=None, help="documents to read (default: all)")
    parser.add_argument("--no-write", action="store_true", help=f"do not write {RESULTS.relative_to(ROOT)}")
    args = parser.parse_args()
    conll = args.data / "coref" / "gum" / "conll"
    if not conll.is_dir() or not (args.data / "xml").is_dir():
        sys.exit(f"{args.data}: no GUM data here (expected coref/gum/conll/ and xml/; see --data)")
    from kg.io.article import Article  # after the check: importing spaCy takes seconds
    from kg.nlp import extract, load_pipeline
    from kg.nlp.model import resolve_model_name

    names = sorted(p.stem for p in conll.glob("*.conll"))[: args.limit]
    docs = {n: load_document(args.data, n) for n in names}
    nlp = load_pipeline()
    started = time.perf_counter()
    tallies = {"all": Tally(), "news": Tally(), "interview": Tally()}
    articles = (Article(id=n, text=d.text, published=d.published) for n, d in docs.items())
    for article, facts in extract(nlp, articles):
        doc = docs[article.id]
        people = [[(m.start, m.end) for m in e.mentions] for e in facts.entities if e.kind == "person"]
        t = score(doc, people)
        tallies["all"].add(t)
        tallies[doc.genre].add(t)
    seconds = time.perf_counter() - started
    groups = {name: figures(t) for name, t in tallies.items() if t.documents}
    print(_table(groups))
    kinds = groups["all"]["mention_recall_by_kind"]
    by_kind = (f"{k} {v['recall']:.2f} of {v['gold']}" for k, v in kinds.items())  # type: ignore[attr-defined]
    print("mention recall by kind: " + ", ".join(by_kind))
    print(f"{len(names)} documents in {seconds:.1f}s")
    if not args.no_write:
        results = {"data": "GUM Wikinews (news, interview)", "seconds": round(seconds, 1), "groups": groups}
        results["machine"] = machine("spacy", model=resolve_model_name())
        RESULTS.parent.mkdir(parents=True, exist_ok=True)
        RESULTS.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
        print(f"wrote {RESULTS}")


if __name__ == "__main__":
    main()
