"""Lexicons as data: every shipped list says what it is, where it comes from and its licence."""

from __future__ import annotations

import re

import pytest

from kg.extract.text import lexicon


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


def _word_literals() -> list[tuple[str, int, list[str]]]:
    """Collections of strings written in kg/extract code that hold words.

    Not words: spaCy's labels (POS, dependency, entity types), the tags of kg's own lexicons,
    the entity kinds of the model (person, group, organization), and the pairs of a table of
    pairs (a tuple inside a tuple). The keys of a dict of constants (a table of words) count
    as its words; a dict of computed values is a record, its keys field names.
    """
    import ast
    from pathlib import Path

    from spacy.glossary import GLOSSARY

    vocabulary = set(GLOSSARY) | {"person", "group", "organization"}
    vocabulary |= {t for name in lexicon.names() for value in lexicon.table(name).values() for t in value.split()}
    found = []
    for path in sorted((Path(lexicon.__file__).parent).glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        inner = {id(e) for node in ast.walk(tree) if isinstance(node, ast.Tuple) for e in node.elts}
        for node in ast.walk(tree):
            if isinstance(node, ast.Dict):
                table = all(isinstance(v, ast.Constant) for v in node.values)
                elts = [k for k in node.keys if k is not None] if table else []
            elif isinstance(node, (ast.Set, ast.List, ast.Tuple)) and id(node) not in inner:
                elts = node.elts
            else:
                continue
            values = [e.value for e in elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
            if elts and len(values) == len(elts) and any(any(c.isalpha() for c in v) and v not in vocabulary
                                                     for v in values):
                found.append((path.name, node.lineno, values))
    return found


def test_word_lists_live_in_data_not_in_code():
    found = _word_literals()
    assert not [f for f in found if len(f[2]) >= 6], "long word lists belong in kg/extract/resources"
    # a few closed-class words in a grammatical test stay legible in code; lists do not
    assert len(found) <= 30, "\n".join(f"{p}:{n} {v}" for p, n, v in found)
