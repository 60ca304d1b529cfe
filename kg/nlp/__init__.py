"""spaCy side of kg: model resolution, kg's components, and running articles through them."""

from kg.nlp.pipeline import add_kg_components, extract, facts_from_doc, load_pipeline

__all__ = ["add_kg_components", "extract", "facts_from_doc", "load_pipeline"]
