"""Extractors: pure functions from a parsed spaCy Doc to kg's Facts (see ``model``)."""

from kg.extract.model import Entity as Entity
from kg.extract.model import Event as Event
from kg.extract.model import Facts as Facts
from kg.extract.model import Performance as Performance
from kg.extract.model import Place as Place
from kg.extract.model import Quote as Quote
from kg.extract.model import TextSpan as TextSpan
from kg.extract.model import When as When
from kg.extract.model import Work as Work
