"""kg: news articles in, a knowledge graph of people, events and works out.

The public API is small::

    import kg
    graph = kg.build(["examples/"])
    graph.query("quotes")          # a named query, or any SPARQL
    graph.save("out/graph.ttl")

Heavy imports (spaCy, rdflib) happen on first use, so ``kg --help`` stays quick.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"
__all__ = ["Article", "Facts", "KnowledgeGraph", "KgError", "build", "load_pipeline", "__version__"]

if TYPE_CHECKING:
    from kg._build import build
    from kg.errors import KgError
    from kg.extract.model import Facts
    from kg.graph import KnowledgeGraph
    from kg.io.article import Article
    from kg.nlp import load_pipeline

_WHERE = {
    "Article": "kg.io.article",
    "Facts": "kg.extract.model",
    "KnowledgeGraph": "kg.graph",
    "KgError": "kg.errors",
    "build": "kg._build",
    "load_pipeline": "kg.nlp",
}


def __getattr__(name: str) -> Any:
    if name in _WHERE:
        import importlib

        return getattr(importlib.import_module(_WHERE[name]), name)
    raise AttributeError(f"module 'kg' has no attribute {name!r}")
