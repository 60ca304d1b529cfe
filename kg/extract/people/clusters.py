"""Names grouped into entities: the clusters coreference starts from.

Longer names first, then shorter ones join the name they are part of ("Rivera" joins "Ana
Rivera", "Loretta Lynch" joins "Loretta E. Lynch"); titles are left out when names are
compared ("Bishop Curry" joins "Michael Curry", a title alone names nobody), and two names
coordinated in one phrase never join ("President Obama and first lady Michelle Obama" are
two people). A name given as another name of one before it is that person's too ("Hyoyeon,
also known as DJ Hyo").
"""

from __future__ import annotations

from dataclasses import dataclass, field

from spacy.tokens import Doc

from kg.extract.people.name_rules import NameMention
from kg.extract.people.titles import bare, title_in_name, title_split, words_of
from kg.extract.text.doc_index import doc_ents
from kg.extract.text.gazetteer import given_name_gender
from kg.extract.text.lexicon import words as lexicon_words
from kg.extract.text.marks import (
    HONORIFICS,
)


@dataclass(eq=False)
class Cluster:
    kind: str
    names: list[str]
    mentions: list[tuple[int, int]] = field(default_factory=list)
    descriptions: list[str] = field(default_factory=list)
    gender: str | None = None
    age: int | None = None

    def fullest(self) -> str:
        """The fullest name as written, preferring one not led by a title ("Ana Rivera" over "Bishop Rivera")."""
        return max(self.names, key=lambda n: (bare(n) == n or title_in_name(n), len(n.split()), len(n)))

    def full_name(self) -> str:
        """The fullest name without an honorific the rest does not need ("Sir Tomos Hale" -> "Tomos Hale")."""
        return title_split(self.fullest())[1] if self.kind == "person" else self.fullest()

    def other_names(self) -> list[str]:
        """The names besides :meth:`full_name`; a part of it with a title ("Sir Tomos") is no other name."""
        name = self.full_name()
        return [n for n in self.names if n != name and not (bare(n) != n and words_of(bare(n), name))]


def cluster_names(doc: Doc, names: list[NameMention]) -> tuple[list[Cluster], dict[int, Cluster]]:
    """Group name mentions: longer names first, then shorter ones join the name they are part of."""
    clusters: list[Cluster] = []
    by_name: dict[str, Cluster] = {}
    for m in sorted(names, key=lambda m: (-len(bare(m.text).split()), m.start)):
        key = bare(m.text).lower()
        if not key:
            # a title alone ("Sir") names nobody
            continue
        cluster = by_name.get(key) or _containing(doc, clusters, m)
        if cluster is None:
            cluster = Cluster(kind=m.kind, names=[])
            clusters.append(cluster)
        by_name[key] = cluster
        if m.text not in cluster.names:
            cluster.names.append(m.text)
        if m.honorific and cluster.gender is None:
            cluster.gender = HONORIFICS.get(m.honorific)
    _join_aliases(doc, names, clusters, by_name)
    of_token: dict[int, Cluster] = {}
    for m in names:
        cluster = by_name.get(bare(m.text).lower())
        if cluster is None:
            continue
        cluster.mentions.append((doc[m.start].idx, doc[m.end - 1].idx + len(doc[m.end - 1])))
        for i in range(m.start, m.end):
            of_token[i] = cluster
    for cluster in clusters:
        first = cluster.fullest().split()[0].lower()
        name = cluster.full_name()
        if name != cluster.fullest():
            # "Sir Tomos Hale", "Sen. Ana Rivera": the title is a description, as one written outside the name
            cluster.descriptions.append(title_split(cluster.fullest())[0])
        if cluster.gender is None and first in HONORIFICS:
            # "Lady X", "Sir Y": the title tells the gender
            cluster.gender = HONORIFICS[first]
        elif cluster.gender is None and cluster.kind == "person" and len(name.split()) > 1:
            # a common given name tells the gender of a full name
            cluster.gender = given_name_gender(name.split()[0])
    return clusters, of_token


#: Words that make the name after them another name of the one before ("also known as", "aka").
_ALIAS_CUES = lexicon_words("alias_cues")


def _join_aliases(doc: Doc, names: list[NameMention], clusters: list[Cluster], by_name: dict[str, Cluster]) -> None:
    """Merge the cluster of a name given as another name of the one just before it: "X, also known
    as DJ Y", "X (aka Y)" (one capitalised word, a stage title like "DJ", may stand before it)."""
    ordered = sorted(names, key=lambda m: m.start)
    for first, second in zip(ordered, ordered[1:]):
        gap = [t for t in doc[first.end : second.start] if not t.is_punct]
        if gap and gap[-1].text[:1].isupper() and len(gap) > 1:
            gap = gap[:-1]
        if " ".join(t.lower_ for t in gap) not in _ALIAS_CUES or first.kind != second.kind:
            continue
        keep, drop = by_name.get(bare(first.text).lower()), by_name.get(bare(second.text).lower())
        if keep is None or drop is None or keep is drop:
            continue
        keep.names.extend(n for n in drop.names if n not in keep.names)
        keep.gender = keep.gender or drop.gender
        for key, cluster in list(by_name.items()):
            if cluster is drop:
                by_name[key] = keep
        clusters.remove(drop)


def _containing(doc: Doc, clusters: list[Cluster], m: NameMention) -> Cluster | None:
    """The one cluster whose longer name has ``m`` as its last words (surname), else first words.

    Titles are left out on both sides ("Bishop Rivera" joins "Ana Rivera"); a name never
    joins a person it is coordinated with ("President Obama and first lady Michelle Obama"
    are two people).
    """
    words = bare(m.text).lower().split()
    beside = _names_beside(doc, m)
    for side in (-1, 1):
        hits = []
        for c in clusters:
            if c.kind != m.kind and m.kind != "person" or beside.intersection(c.names):
                continue
            for name in c.names:
                parts = bare(name).lower().split()
                if len(parts) > len(words) and (
                    (parts[-len(words) :] if side < 0 else parts[: len(words)]) == words
                    # "Loretta Lynch" is "Loretta E. Lynch" with the middle initial left out
                    or side < 0 and "." in name and [p for p in parts if not _initial(p)] == words
                ):
                    hits.append(c)
                    break
        if len(hits) == 1:
            return hits[0]
        if hits:
            # two people share the part: ambiguous, keep it apart rather than guess
            return None
    return None


def _initial(word: str) -> bool:
    """A middle initial as written in a name: "E." (a bare letter may be a name's own part)."""
    return len(word) == 2 and word[0].isalpha() and word[1] == "."


def _names_beside(doc: Doc, m: NameMention) -> frozenset[str]:
    """The names coordinated with ``m`` ("X and Y", "X, Y and Z"): never the same person as ``m``."""
    root = doc[m.start : m.end].root
    linked = {c.i for c in root.children if c.dep_ == "conj"} | ({root.head.i} if root.dep_ == "conj" else set())
    if not linked:
        return frozenset()
    return frozenset(e.text for e in doc_ents(doc) if any(e.start <= i < e.end for i in linked))
