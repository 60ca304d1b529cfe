"""Name hygiene rules on hand-built parses: what the small model's slips must not cost a name."""

from __future__ import annotations

import spacy
from spacy.tokens import Doc

from kg.extract.people.name_rules import trim_of


def _parsed(words: list[str], pos: list[str], deps: list[str], heads: list[int]) -> Doc:
    return Doc(spacy.blank("en").vocab, words=words, pos=pos, deps=deps, heads=heads)


def test_a_capitalised_subject_the_tagger_read_as_a_verb_stays_a_name() -> None:
    # "Crumble admires the mayor.": a surname that is also an English verb
    doc = _parsed(["Crumble", "admires", "the", "mayor", "."], ["VERB", "VERB", "DET", "NOUN", "PUNCT"],
                  ["nsubj", "ROOT", "det", "dobj", "punct"], [1, 1, 3, 1, 1])
    assert trim_of(doc, 0, 1) == (0, 1)


def test_a_verb_at_the_edge_of_a_name_that_is_no_subject_is_trimmed() -> None:
    # "Meet Crumble": the imperative verb the model swept into the name goes
    doc = _parsed(["Meet", "Crumble", "."], ["VERB", "PROPN", "PUNCT"], ["ROOT", "dobj", "punct"], [0, 0, 0])
    assert trim_of(doc, 0, 2) == (1, 2)


def test_a_name_ending_in_a_kind_of_place_or_show_is_no_person() -> None:
    # "Milo City" and "Elton County" start with given names but are towns and counties
    from kg.extract.people.name_rules import given_name_first, is_venue

    words = ["Milo", "City", "and", "Nina", "Park", "and", "Elton", "County", "on", "Lena", "Ortiz", "Show"]
    doc = Doc(spacy.blank("en").vocab, words=words)
    assert [is_venue(doc[a:b]) for a, b in ((0, 2), (3, 5), (6, 8), (9, 12))] == [True, False, True, True]
    assert [given_name_first(doc[a:b]) for a, b in ((0, 2), (3, 5))] == [False, True]


def test_the_person_after_a_possessive_in_one_entity_is_kept() -> None:
    # "Acme Weekly's Dana Hale said": the model tags the whole run as one organisation
    from kg.extract.people.name_rules import possessed_name

    words = ["Acme", "Weekly", "'s", "Dana", "Hale", "said"]
    doc = Doc(spacy.blank("en").vocab, words=words, pos=["PROPN"] * 2 + ["PART"] + ["PROPN"] * 2 + ["VERB"],
              tags=["NNP", "NNP", "POS", "NNP", "NNP", "VBD"])
    owned = possessed_name(doc, 0, 5)
    assert owned is not None and owned.text == "Dana Hale"
    # "Acme's Annual Report": the words after the possessive are no person
    report = Doc(spacy.blank("en").vocab, words=["Acme", "'s", "Annual", "Report"], tags=["NNP", "POS", "NNP", "NNP"])
    assert possessed_name(report, 0, 4) is None


def test_a_name_headed_by_an_organisation_word_before_of_or_for_is_an_organisation() -> None:
    # the small model tags such names PERSON now and then; "de" and "bin" are parts of names
    from kg.extract.people.name_rules import mention_of

    words = ["Department", "of", "Harbour", "Safety", "and", "Committee", "for", "a", "Fair", "Levy", "and",
             "Oscar", "de", "la", "Vega", "and", "Rafa", "Nadal"]
    doc = Doc(spacy.blank("en").vocab, words=words)
    kinds = [mention_of(doc[a:b], "person").kind for a, b in ((0, 4), (5, 10), (11, 15), (16, 18))]
    assert kinds == ["organization", "organization", "person", "person"]


def _with_ents(words: list[str], tags: list[str], deps: list[str], heads: list[int], ents: list[str]) -> Doc:
    from kg.nlp.extensions import set_doc_extensions

    set_doc_extensions()
    return Doc(spacy.blank("en").vocab, words=words, tags=tags, deps=deps, heads=heads, ents=ents)


def test_the_surname_of_one_person_named_in_full_is_no_group_whatever_its_verb() -> None:
    # "Nora Fell spoke. Fell say it hurt.": the parser's plural verb does not make her a band
    from kg.extract.people.name_rules import plural_names

    words = ["Nora", "Fell", "spoke", ".", "Fell", "say", "it", "hurt", "."]
    tags = ["NNP", "NNP", "VBD", ".", "NNP", "VBP", "PRP", "VBD", "."]
    deps = ["compound", "nsubj", "ROOT", "punct", "nsubj", "ROOT", "nsubj", "ccomp", "punct"]
    heads = [1, 2, 2, 2, 5, 5, 7, 5, 5]
    ents = ["B-PERSON", "I-PERSON", "O", "O", "B-PERSON", "O", "O", "O", "O"]
    assert plural_names(_with_ents(words, tags, deps, heads, ents)) == frozenset()
    # two full names sharing it: "Fell" may be the siblings' band, and its plural verb says so
    words = ["Nora", "Fell", "and", "Ida", "Fell", "sang", ".", "Fell", "say", "it", "is", "over", "."]
    tags = ["NNP", "NNP", "CC", "NNP", "NNP", "VBD", ".", "NNP", "VBP", "PRP", "VBZ", "RB", "."]
    deps = ["compound", "nsubj", "cc", "compound", "conj", "ROOT", "punct", "nsubj", "ROOT", "nsubj", "ccomp",
            "advmod", "punct"]
    heads = [1, 5, 1, 4, 1, 5, 5, 8, 8, 10, 8, 10, 8]
    ents = ["B-PERSON", "I-PERSON", "O", "B-PERSON", "I-PERSON", "O", "O", "B-PERSON", "O", "O", "O", "O", "O"]
    assert plural_names(_with_ents(words, tags, deps, heads, ents)) == frozenset({"Fell"})
