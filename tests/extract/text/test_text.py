"""The shared token tests of kg.extract.text.doc_index, on Docs built by hand (no model needed)."""

from __future__ import annotations

import pytest
import spacy
from spacy.tokens import Doc

from kg.extract.text.doc_index import is_spaced_dash, named_after_cue, title_run_start, token_words
from kg.nlp.extensions import set_doc_extensions

set_doc_extensions()

#: A blank English vocabulary: it gives tokens their lower-case forms.
_VOCAB = spacy.blank("en").vocab


def _doc(words: list[str], spaces: list[bool], pos: list[str] | None = None) -> Doc:
    return Doc(_VOCAB, words=words, spaces=spaces, pos=pos or ["PROPN"] * len(words))


def test_a_dash_with_spaces_on_both_sides_is_punctuation() -> None:
    doc = _doc(["Mara", "Quinlan", "-", "Brindle", "Hall"], [True, True, True, True, False])
    assert is_spaced_dash(doc[2])
    joined = _doc(["Quinlan", "-", "Reyes"], [False, False, False])
    assert not is_spaced_dash(joined[1])


def test_a_run_of_capitalised_words_stops_at_a_spaced_dash_but_not_at_a_hyphen() -> None:
    headline = _doc(["Mara", "Quinlan", "-", "Brindle", "Hall"], [True, True, True, True, False])
    assert headline[title_run_start(headline, 4, 0) : 5].text == "Brindle Hall"
    hyphened = _doc(["Fenmore", "-", "Park", "Hall"], [False, False, True, False])
    assert hyphened[title_run_start(hyphened, 3, 0) : 4].text == "Fenmore-Park Hall"


def test_token_words_lists_each_tokens_strings_in_order() -> None:
    doc = Doc(_VOCAB, words=["Mara", "Sang"], spaces=[True, False], pos=["PROPN", "VERB"], lemmas=["Mara", "Sing"])
    words = token_words(doc)
    assert (words.text, words.lower, words.lemma, words.pos) == (["Mara", "Sang"], ["mara", "sang"], ["mara", "sing"],
                                                                 ["PROPN", "VERB"])


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("“No,” said Denver resident and season-ticket holder Edna Pike of the soloist.", "Pike"),
        ("“No,” said Tom Hale on Tuesday.", "Hale"),
        ("“No,” said Hale Tuesday.", "Hale"),
        ("“No,” said the manager, who left.", None),
    ],
)
def test_named_after_cue(nlp, text: str, name: str | None) -> None:
    doc = nlp(text)
    verb = next(t for t in doc if t.lower_ == "said")
    named = named_after_cue(verb)
    assert (named.text if named is not None else None) == name
