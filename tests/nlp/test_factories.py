"""kg's own pipeline components, on Docs built by hand (no model needed)."""

from __future__ import annotations

import spacy
from spacy.tokens import Doc, Span

from kg.nlp.factories import split_entity_lines

#: A blank English vocabulary: it gives tokens their lower-case forms.
_VOCAB = spacy.blank("en").vocab


def _doc(words: list[str], spaces: list[bool], ents: list[tuple[int, int, str]]) -> Doc:
    doc = Doc(_VOCAB, words=words, spaces=spaces)
    doc.ents = [Span(doc, start, end, label=label) for start, end, label in ents]
    return doc


def test_an_entity_read_across_a_spaced_dash_ends_before_it() -> None:
    # a review's headline "Act - Venue, City", read by the model as one name
    doc = _doc(["Mara", "Quinlan", "-", "Brindle", "Hall", ",", "Denver"],
               [True, True, True, True, False, True, False], [(0, 5, "PERSON"), (6, 7, "GPE")])
    assert [(e.text, e.label_) for e in split_entity_lines(doc).ents] == [("Mara Quinlan", "PERSON"), ("Denver", "GPE")]


def test_a_hyphen_inside_a_name_is_kept() -> None:
    doc = _doc(["Mara", "Quinlan", "-", "Reyes", "sang"], [True, False, False, True, False], [(0, 4, "PERSON")])
    assert [e.text for e in split_entity_lines(doc).ents] == ["Mara Quinlan-Reyes"]


def test_an_entity_is_cut_at_a_line_break_into_both_names() -> None:
    doc = _doc(["1", ".", "Mara", "Quinlan", "\n", "Quinlan", "opened"],
               [False, True, True, False, False, True, False], [(2, 6, "PERSON")])
    assert [e.text for e in split_entity_lines(doc).ents] == ["Mara Quinlan", "Quinlan"]


def test_a_name_run_on_into_a_headline_s_verb_ends_where_the_article_s_name_does() -> None:
    words = ["Mara", "Quinlan", "Kicks", "Off", "Her", "Tour", "\n\n", "Mara", "Quinlan", "sang", "."]
    doc = Doc(_VOCAB, words=words, spaces=[True, True, True, True, True, False, False, True, True, False, False],
              pos=["PROPN", "PROPN", "PROPN", "ADP", "PRON", "PROPN", "SPACE", "PROPN", "PROPN", "VERB", "PUNCT"])
    doc.ents = [Span(doc, 0, 4, label="PERSON"), Span(doc, 7, 9, label="PERSON")]
    assert [e.text for e in split_entity_lines(doc).ents] == ["Mara Quinlan", "Mara Quinlan"]


def test_a_name_with_a_small_word_inside_is_kept() -> None:
    words = ["Prince", "of", "Wales", "spoke", ".", "Prince", "spoke"]
    doc = Doc(_VOCAB, words=words, spaces=[True, True, True, False, True, True, False],
              pos=["PROPN", "ADP", "PROPN", "VERB", "PUNCT", "PROPN", "VERB"])
    doc.ents = [Span(doc, 0, 3, label="PERSON"), Span(doc, 5, 6, label="PERSON")]
    assert [e.text for e in split_entity_lines(doc).ents] == ["Prince of Wales", "Prince"]
