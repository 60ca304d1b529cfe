"""The assembled pipeline: what kg changes in the loaded model."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize(
    ("text", "tokens"),
    [
        ("it was late,”Rivera said", ["it", "was", "late", ",", "”", "Rivera", "said"]),
        ("Rivera said,“Look here", ["Rivera", "said", ",", "“", "Look", "here"]),
        ("we won!”After that", ["we", "won", "!", "”", "After", "that"]),
        # marks with their spaces are split as before, and apostrophes stay in words
        ("“Yes,” she said. It’s done.", ["“", "Yes", ",", "”", "she", "said", ".", "It", "’s", "done", "."]),
        # a signing dash glued to the closing mark is a token of its own
        ("“So be it.”― Ana Rivera", ["“", "So", "be", "it", ".", "”", "―", "Ana", "Rivera"]),
        ("“So be it.”—Ana Rivera", ["“", "So", "be", "it", ".", "”", "—", "Ana", "Rivera"]),
        ('"So be it."--Ana Rivera', ['"', "So", "be", "it", ".", '"', "--", "Ana", "Rivera"]),
    ],
)
def test_a_curly_mark_glued_between_punctuation_and_a_word_is_a_token(nlp, text, tokens) -> None:
    assert [t.text for t in nlp.make_doc(text)] == tokens
