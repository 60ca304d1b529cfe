"""Events named by description: where the article's own words for them end."""

from __future__ import annotations

import spacy
from spacy.tokens import Doc

from kg.extract.events.descriptions import _of_phrase_end


def _parsed(words: list[str], heads: list[int], deps: list[str], pos: list[str]) -> Doc:
    return Doc(spacy.blank("en").vocab, words=words, heads=heads, deps=deps, pos=pos)


def test_the_of_phrase_ends_with_whose_event_it_is_not_with_the_place_hung_on_it():
    # the parse the small model gives "the funeral of Tom Brindle in Galway": "in" hangs on the name
    words = ["the", "funeral", "of", "Tom", "Brindle", "in", "Galway", "."]
    heads = [1, 1, 1, 4, 2, 4, 5, 1]
    deps = ["det", "ROOT", "prep", "compound", "pobj", "prep", "pobj", "punct"]
    pos = ["DET", "NOUN", "ADP", "PROPN", "PROPN", "ADP", "PROPN", "PUNCT"]
    doc = _parsed(words, heads, deps, pos)
    assert doc[1 : _of_phrase_end(doc, 1, len(doc))].text == "funeral of Tom Brindle"


def test_an_of_phrase_that_names_no_one_is_no_part_of_the_name():
    words = ["the", "funeral", "of", "a", "friend", "."]
    heads = [1, 1, 1, 4, 2, 1]
    deps = ["det", "ROOT", "prep", "det", "pobj", "punct"]
    pos = ["DET", "NOUN", "ADP", "DET", "NOUN", "PUNCT"]
    doc = _parsed(words, heads, deps, pos)
    assert _of_phrase_end(doc, 1, len(doc)) == 2
