"""Facts -> RDF: namespaces, IRI minting, the mapping, serialisation and SHACL validation.

The RDF stage knows nothing of spaCy: it reads :class:`kg.extract.model.Facts` and
:class:`kg.io.article.Article` and writes one named graph per article.
"""

from __future__ import annotations

from kg.rdf.iri import mint, slug
from kg.rdf.mapping import add_article, article_graph, article_iri
from kg.rdf.namespaces import DATA, KG, OA, PROV, SDO, bind_prefixes
from kg.rdf.serialize import FORMATS, format_for, read_dataset, write_dataset
from kg.rdf.validate import validate

__all__ = [
    "DATA",
    "FORMATS",
    "KG",
    "OA",
    "PROV",
    "SDO",
    "add_article",
    "article_graph",
    "article_iri",
    "bind_prefixes",
    "format_for",
    "mint",
    "read_dataset",
    "slug",
    "validate",
    "write_dataset",
]
