"""Extractors: pure functions from a parsed spaCy Doc to kg's Facts (see ``model``)."""

from kg.extract.model import Entity, Event, Facts, Performance, Place, Quote, TextSpan, When, Work

__all__ = ["Entity", "Event", "Facts", "Performance", "Place", "Quote", "TextSpan", "When", "Work"]
