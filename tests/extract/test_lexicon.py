"""Lexicons as data: every shipped list says what it is, where it comes from and its licence."""

from __future__ import annotations

import re

import pytest

from kg.extract import lexicon


@pytest.mark.parametrize("name", lexicon.names())
def test_every_lexicon_names_its_source_and_licence(name):
    head = " ".join(lexicon.header(name))
    assert re.search(r"\bsource\b", head, re.I), name
    assert re.search(r"\blicen[cs]e\b", head, re.I), name
    assert lexicon.words(name), f"{name} has no entries"


def test_a_list_without_a_header_is_refused():
    with pytest.raises(ValueError, match="no header"):
        lexicon.parse("bare", "alpha\nbeta\n")


def test_entries_values_comments_and_blank_lines():
    head, rows = lexicon.parse("demo", "# what it is\n# source: me; licence: MIT\n\nsing\tsure voice\n# a note\nhum\n")
    assert head == ("what it is", "source: me; licence: MIT")
    assert rows == (("sing", "sure voice"), ("hum", ""))


def test_tables_and_tags_read_the_shipped_files():
    assert "sing" in lexicon.tagged("performance_verbs", "voice")
    assert "sing" in lexicon.table("performance_verbs")
    assert "NOUN" in lexicon.labels("nominal") and "VERB" not in lexicon.labels("nominal")
    assert "the" in lexicon.function_words("definite")
    assert lexicon.kinds("place_aliases")["britain"] == "country"
