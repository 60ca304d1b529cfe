"""Gold annotations: loading files and folders, one-line errors for malformed ones, the shipped examples."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kg.errors import InputError
from kg.gold import gold_aliases, gold_key, gold_names, load_gold
from kg.io import Article, read_articles

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


# --- gold files -------------------------------------------------------------------------------


def _write(path: Path, data) -> Path:
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_load_gold_from_folder_with_object_and_list_files(tmp_path):
    _write(tmp_path / "a.json", {"source": "a.txt"})
    (tmp_path / "sub").mkdir()
    _write(tmp_path / "sub" / "feed.json", [{"source": "feed.jsonl:1"}, {"source": "feed.jsonl:2"}])
    (tmp_path / "notes.md").write_text("not gold", encoding="utf-8")
    assert sorted(load_gold(tmp_path)) == ["a.txt", "feed.jsonl:1", "feed.jsonl:2"]
    assert list(load_gold(tmp_path / "a.json")) == ["a.txt"]


def test_gold_key_is_the_file_name_with_jsonl_line():
    assert gold_key(Article(id="gig", text="t", source="reports/gig.txt")) == "gig.txt"
    assert gold_key(Article(id="x", text="t", source="/data/feed.jsonl:12")) == "feed.jsonl:12"


@pytest.mark.parametrize(
    ("data", "problem"),
    [
        ([1], "a gold annotation must be a JSON object, got int"),
        ({"people": []}, '"source" (the article\'s file name) must be a non-empty string'),
        (
            {"source": "a.txt", "quote": []},
            "unknown key 'quote'; expected source, note, people, groups, quotes, performances, event_venues, works",
        ),
        ({"source": "a.txt", "quotes": {}}, '"quotes" must be a list, got dict'),
        (
            {"source": "a.txt", "quotes": [{"text": "Hi."}]},
            'quotes[0]: "speaker" is missing (use null for an unknown speaker)',
        ),
        (
            {"source": "a.txt", "quotes": [{"speaker": None, "text": ""}]},
            'quotes[0]: "text" must be a non-empty string',
        ),
        (
            {"source": "a.txt", "quotes": [{"speaker": None, "text": "Hi.", "speker": "X"}]},
            "quotes[0]: unknown key 'speker'; expected text, speaker, optional, note",
        ),
        (
            {"source": "a.txt", "people": [{"name": "A", "aliases": "B"}]},
            'people[0]: "aliases" must be a list of strings',
        ),
        (
            {"source": "a.txt", "people": [{"name": "A", "age": "37"}]},
            'people[0]: "age" must be a whole number or null',
        ),
        (
            {"source": "a.txt", "works": [{"title": "T", "optional": "yes"}]},
            'works[0]: "optional" must be true or false',
        ),
        (
            {"source": "a.txt", "performances": [{"performer": "A", "work": 3}]},
            'performances[0]: "work" must be a string or null, got int',
        ),
    ],
)
def test_malformed_gold_names_the_file_and_problem(tmp_path, data, problem):
    path = _write(tmp_path / "bad.json", data)
    with pytest.raises(InputError) as error:
        load_gold(path)
    assert str(error.value) == f"{path}: {problem}"


@pytest.mark.parametrize(
    ("setup", "message"),
    [
        (lambda d: d / "missing.json", "missing.json: no such file or folder"),
        (lambda d: d, "no *.json gold files in this folder"),
        (
            lambda d: (d / "x.json").write_text("{oops", encoding="utf-8") and d / "x.json",
            "x.json: invalid JSON (Expecting property name enclosed in double quotes at line 1, column 2)",
        ),
    ],
    ids=["missing", "empty-folder", "invalid-json"],
)
def test_unreadable_gold_is_an_input_error(tmp_path, setup, message):
    with pytest.raises(InputError) as error:
        load_gold(setup(tmp_path))
    assert str(error.value).endswith(message)


def test_same_source_twice_is_an_error(tmp_path):
    _write(tmp_path / "a.json", {"source": "a.txt"})
    _write(tmp_path / "b.json", {"source": "a.txt"})
    with pytest.raises(InputError, match=r"b\.json: source 'a\.txt' is already annotated in .*a\.json"):
        load_gold(tmp_path)


# --- the example gold files -----------------------------------------------------------------------


@pytest.fixture(scope="module")
def example_articles() -> dict[str, Article]:
    return {gold_key(a): a for a in read_articles([EXAMPLES])}


def test_example_gold_files_load_and_name_example_articles(example_articles):
    gold = load_gold(EXAMPLES / "gold")
    assert {"concert_review.txt", "award_show.html", "music_news.jsonl:1", "music_news.jsonl:2"} <= set(gold)
    assert set(gold) <= set(example_articles)


def test_example_gold_quotes_and_names_occur_in_their_articles(example_articles):
    for source, gold in load_gold(EXAMPLES / "gold").items():
        text = example_articles[source].text
        for quote in gold["quotes"]:
            assert quote["text"] in text, (source, quote["text"])
        for record in [*gold["people"], *gold["groups"]]:
            assert all(name in text for name in (record["name"], *record["aliases"])), (source, record["name"])
        for work in gold["works"]:
            assert work["title"] in text, (source, work["title"])
        for perf in gold["performances"]:
            names = [perf[k] for k in ("performer", "work", "event", "venue", "city") if perf[k]]
            assert all(name in text for name in names), (source, perf)


def test_one_person_appears_in_two_example_articles():
    gold = load_gold(EXAMPLES / "gold")
    people = {source: {p["name"] for p in g["people"]} for source, g in gold.items()}
    assert "Mara Quillfeather" in people["concert_review.txt"] & people["award_show.html"]
    assert "Tomas Reyne" in people["concert_review.txt"] & people["music_news.jsonl:2"]


def test_seed_gold_loads():
    gold = load_gold(EXAMPLES / "gold" / "seed.json")
    assert gold["seed.txt"]["quotes"][0]["speaker"] == "Lady Gaga"


def test_gold_names_come_with_the_aliases_of_their_record():
    gold = {
        "source": "gig.txt",
        "people": [{"name": "Ruth Ayling", "aliases": ["Ayling"]}],
        "groups": [{"name": "The Marsh Lights"}],
    }
    aliases = gold_aliases(gold)
    assert gold_names("Ruth Ayling", aliases) == ("Ruth Ayling", "Ayling")
    assert gold_names("The Marsh Lights", aliases) == ("The Marsh Lights",)
    assert gold_names("A Stranger", aliases) == ("A Stranger",)
