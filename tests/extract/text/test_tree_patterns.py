"""Tree patterns as data: the shipped DependencyMatcher patterns load, name their source, use
kg's word lists, find the shapes they say they find, and find what spaCy's own
DependencyMatcher finds with them."""

from __future__ import annotations

import json

import pytest
from spacy.matcher import DependencyMatcher

from kg.extract.text import tree_patterns as tp

#: Invented sentences with the shapes the patterns are for, and without them.
SENTENCES = (
    "The Quarry Festival returns to Orla Park in July.",
    "The Quarry Festival, held at Orla Park every summer, sold out.",
    "The Quarry Festival, which returns to Orla Park in July, sold out.",
    "The final will be played at Brindle Stadium.",
    "The “Lantern Song” singer waved to the crowd.",
    "She sang “Tide” from the album “Lantern Song”, ranging from ballads to anthems.",
    "A car radio was playing “Lantern Song” outside, and “Tide” played from a car radio.",
    "“Lantern Song”, sung originally by Tom Reyes, closed the night.",
    "Rivera played “Lantern Song” on the main stage at Orla Park.",
)


def _at(nlp, text: str, word: str, name: str, node: str) -> list[dict[str, str]]:
    doc = nlp(text)
    token = next(t for t in doc if t.text == word)
    return [{key: t.text for key, t in m.items()} for m in tp.matches_at(token, name, node)]


def test_every_pattern_says_what_it_finds_and_uses_the_word_lists():
    patterns = tp.tree_patterns()
    assert {"event-own-verb", "title-modifies-noun", "played-on-a-medium"} <= set(patterns)
    for name, (trees, what) in patterns.items():
        assert what and trees, name
        assert '"@' not in json.dumps(trees), f"{name} has a word list that was not filled in"
    verbs = patterns["event-own-verb"][0][0][0]["RIGHT_ATTRS"]["LEMMA"]["IN"]
    assert "return" in verbs and verbs == sorted(verbs)


def test_a_pattern_file_without_its_source_or_with_an_unknown_relation_is_refused():
    with pytest.raises(ValueError, match="'source'"):
        tp.parse(json.dumps({"about": "demo", "licence": "MIT", "patterns": {}}))
    loop = [{"RIGHT_ID": "a", "RIGHT_ATTRS": {}}, {"LEFT_ID": "a", "REL_OP": ".", "RIGHT_ID": "b", "RIGHT_ATTRS": {}}]
    spec = {"about": "demo", "source": "me", "licence": "MIT", "patterns": {"p": {"what": "x", "trees": [loop]}}}
    with pytest.raises(ValueError, match="cannot match"):
        tp.parse(json.dumps(spec))


def test_an_event_that_is_its_verbs_subject_or_that_a_clause_describes(nlp):
    assert _at(nlp, SENTENCES[0], "Festival", "event-own-verb", "event") == [{"event": "Festival", "verb": "returns"}]
    assert _at(nlp, SENTENCES[1], "Festival", "event-described-by-verb", "event") == [
        {"event": "Festival", "verb": "held"}]
    assert {"event": "Festival", "verb": "returns", "relative": "which"} in _at(
        nlp, SENTENCES[2], "Festival", "event-described-by-verb", "event")
    assert _at(nlp, SENTENCES[8], "Rivera", "event-own-verb", "event") == []


def test_a_title_that_only_describes_the_noun_after_it(nlp):
    assert _at(nlp, SENTENCES[4], "Song", "title-modifies-noun", "title") == [{"title": "Song", "noun": "singer"}]
    assert _at(nlp, SENTENCES[8], "Song", "title-modifies-noun", "title") == []


@pytest.mark.parametrize("text", SENTENCES)
def test_the_search_from_a_token_finds_what_spacys_matcher_finds(nlp, text):
    _agree(nlp, nlp(text))


def test_the_search_agrees_with_spacys_matcher_on_real_news(nlp, shared_dir):
    paths = sorted((shared_dir / "dev" / "real" / "articles").glob("*.txt"))[:4]
    assert paths, "no real article to compare on"
    for path in paths:
        _agree(nlp, nlp(path.read_text(encoding="utf-8")))


def _agree(nlp, doc) -> None:
    """Every pattern's matches in ``doc``, found from each token, are the ones spaCy finds."""
    for name, (trees, _) in tp.tree_patterns().items():
        matcher = DependencyMatcher(nlp.vocab)
        nodes = {}
        for k, tree in enumerate(trees):
            matcher.add(f"{name}#{k}", [tree])
            nodes[nlp.vocab.strings[f"{name}#{k}"]] = [n["RIGHT_ID"] for n in tree]
        spacy_found = {frozenset(zip(nodes[key], ids)) for key, ids in matcher(doc)}
        anchor = trees[0][0]["RIGHT_ID"]
        ours = {frozenset((n, t.i) for n, t in m.items()) for token in doc for m in tp.matches_at(token, name, anchor)}
        assert ours == spacy_found, name
