"""KnowledgeGraph: the one object users hold, in a notebook or a script.

It wraps an rdflib Dataset (one named graph per article) and offers what users do
with it: add articles' facts, query with SPARQL, save in any RDF format, validate,
count, and show a summary in Jupyter.
"""

from __future__ import annotations

import html
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from rdflib import Dataset, URIRef
from rdflib.namespace import RDF
from rdflib.query import Result

from kg import queries
from kg.errors import QueryError
from kg.extract.model import Facts
from kg.io.article import Article
from kg.rdf.mapping import add_article
from kg.rdf.namespaces import SDO
from kg.rdf.serialize import read_dataset, write_dataset
from kg.rdf.validate import validate as shacl_validate

#: What ``stats()`` counts: label -> the schema.org classes whose instances it counts.
_COUNTED: dict[str, tuple[URIRef, ...]] = {
    "articles": (SDO.NewsArticle,),
    "people": (SDO.Person,),
    "groups": (SDO.MusicGroup, SDO.Organization),
    "quotations": (SDO.Quotation,),
    "works": (
        SDO.MusicComposition,
        SDO.MusicRecording,
        SDO.MusicAlbum,
        SDO.Movie,
        SDO.TVSeries,
        SDO.Book,
        SDO.CreativeWork,
    ),
    "events": (
        SDO.Event,
        SDO.MusicEvent,
        SDO.Festival,
        SDO.TheaterEvent,
        SDO.SportsEvent,
    ),
    "places": (
        SDO.Place,
        SDO.MusicVenue,
        SDO.StadiumOrArena,
        SDO.PerformingArtsTheater,
        SDO.City,
        SDO.AdministrativeArea,
        SDO.Country,
    ),
}


class KnowledgeGraph:
    """An RDF knowledge graph of people, events and works, one named graph per article.

    Example:
        >>> kg = KnowledgeGraph()
        >>> kg.stats()["triples"]
        0
    """

    def __init__(self, dataset: Dataset | None = None) -> None:
        self.dataset = dataset if dataset is not None else Dataset(default_union=True)
        self.dataset.default_union = True

    @classmethod
    def load(cls, path: str | Path) -> KnowledgeGraph:
        """Read a graph written by ``save`` (or any RDF file rdflib reads)."""
        return cls(read_dataset(Path(path)))

    def rdf_graph(self) -> Dataset:
        """The underlying rdflib Dataset (queries see the union of all articles)."""
        return self.dataset

    def add(self, article: Article, facts: Facts) -> None:
        """Add (or replace) one article's facts as its own named graph."""
        add_article(self.dataset, article, facts)

    def add_all(self, pairs: Iterable[tuple[Article, Facts]]) -> int:
        """Add many ``(article, facts)`` pairs; returns how many."""
        count = 0
        for article, facts in pairs:
            self.add(article, facts)
            count += 1
        return count

    def save(self, path: str | Path, fmt: str | None = None) -> Path:
        """Write the graph, its format from the file extension unless ``fmt`` is given."""
        return write_dataset(self.dataset, Path(path), fmt)

    def query(self, sparql: str) -> Result:
        """Run a SPARQL query (or the name of a named query) over all articles.

        Raises:
            QueryError: when the query does not parse or cannot run.
        """
        text = queries.load(sparql) if sparql in queries.names() else sparql
        try:
            return self.dataset.query(text)
        except Exception as exc:  # rdflib raises pyparsing and other errors
            raise QueryError(f"SPARQL query failed: {_one_line(exc)}") from None

    def query_rows(self, sparql: str) -> list[dict[str, Any]]:
        """Run a SELECT query; each row is a dict of variable -> Python value (None when unbound)."""
        result = self.query(sparql)
        names = [str(v) for v in result.vars or ()]
        return [
            {name: (None if value is None else value.toPython()) for name, value in zip(names, row)}
            for row in result
        ]

    def query_df(self, sparql: str):  # type: ignore[no-untyped-def]
        """Run a SELECT query into a pandas DataFrame (pandas must be installed)."""
        try:
            import pandas as pd
        except ImportError:
            raise QueryError("query_df needs pandas: pip install pandas") from None
        result = self.query(sparql)
        columns = [str(v) for v in result.vars or ()]
        return pd.DataFrame(self.query_rows(sparql), columns=columns)

    def validate(self) -> tuple[bool, str]:
        """Check the graph against kg's SHACL shapes: ``(conforms, report text)``."""
        return shacl_validate(self.dataset)

    def stats(self) -> dict[str, int]:
        """Counts of articles, people, quotations, works, events, places and triples."""
        ds = self.dataset
        counts = {
            label: len({s for cls in classes for s in ds.subjects(RDF.type, cls)})
            for label, classes in _COUNTED.items()
        }
        counts["performances"] = len(set(ds.subjects(SDO.performer, None)))
        counts["triples"] = len(set(ds.triples((None, None, None))))
        return counts

    def __len__(self) -> int:
        return len(self.dataset)

    def _repr_html_(self) -> str:
        rows = "".join(
            f"<tr><td>{html.escape(k)}</td><td style='text-align:right'>{v:,}</td></tr>"
            for k, v in self.stats().items()
        )
        return f"<table><caption>kg KnowledgeGraph</caption>{rows}</table>"

    def __repr__(self) -> str:
        s = self.stats()
        return f"<KnowledgeGraph {s['articles']} articles, {s['triples']} triples>"


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split()) or type(exc).__name__
