"""End to end on the seed article: build, export Turtle, and ask an independent SPARQL
engine (Oxigraph) the questions the project was described with."""

from __future__ import annotations

import json
import re

import pytest

from kg import build

from .conftest import EXAMPLES

pyoxigraph = pytest.importorskip("pyoxigraph")

PREFIX = "PREFIX schema: <https://schema.org/>\n"


@pytest.fixture(scope="module")
def store(nlp, tmp_path_factory):
    path = tmp_path_factory.mktemp("seed") / "graph.ttl"
    build([EXAMPLES / "seed.txt"], nlp=nlp).save(path)
    store = pyoxigraph.Store()
    store.load(path=str(path), format=pyoxigraph.RdfFormat.TURTLE)
    return store


def select(store, sparql: str) -> list[tuple[str, ...]]:
    return [tuple(term.value if term is not None else None for term in row)
            for row in store.query(PREFIX + sparql)]


def _words(text: str) -> set[str]:
    return set(re.findall(r"\w+", text.lower()))


def _same_quote(a: str, b: str) -> bool:
    wa, wb = _words(a), _words(b)
    shared = len(wa & wb)
    return shared >= len(wa) / 2 and shared >= len(wb) / 2


def test_quotes_have_the_right_speaker(store):
    gold = json.loads((EXAMPLES / "gold" / "seed.json").read_text(encoding="utf-8"))
    required = [q for q in gold["quotes"] if not q.get("optional")]
    rows = select(store, """SELECT ?speaker ?text WHERE { ?q a schema:Quotation ; schema:text ?text ;
                            schema:creator/schema:name ?speaker }""")
    for speaker, text in rows:
        matches = [q for q in gold["quotes"] if _same_quote(q["text"], text)]
        assert matches, f"quotation not in gold: {text!r}"
        assert all(m["speaker"] in (None, speaker) for m in matches), f"{text!r} given to {speaker}"
    found = [q for q in required if any(s == q["speaker"] and _same_quote(q["text"], t) for s, t in rows)]
    assert len(found) == len(required), [q["text"][:40] for q in required if q not in found]


def test_titles_are_not_quotations(store):
    texts = [t for (t,) in select(store, "SELECT ?t WHERE { ?q a schema:Quotation ; schema:text ?t }")]
    assert not any(t.strip(" ,.").lower() in {"born this way", "backlash"} for t in texts)


def test_song_performed_during_residency_at_venue_in_city(store):
    rows = select(store, """
        SELECT DISTINCT ?event ?venue ?outer WHERE {
          ?perf schema:performer/schema:name "Lady Gaga" ; schema:workPerformed/schema:name "Born This Way" ;
                schema:superEvent ?e .
          ?e schema:name ?event ; schema:location ?v .
          ?v schema:name ?venue ; schema:containedInPlace+/schema:name ?outer .
        }""")
    assert rows, "no performance of the song within an event at a venue"
    assert {r[1] for r in rows} == {"Dolby Live"}
    assert {"Park MGM", "Las Vegas"} <= {r[2] for r in rows}
    assert all("Jazz & Piano" in r[0] for r in rows)


def test_song_is_a_2011_composition_by_the_singer(store):
    rows = select(store, """SELECT ?year ?creator WHERE { ?w a schema:MusicComposition ;
        schema:name "Born This Way" ; schema:creator/schema:name ?creator . OPTIONAL { ?w schema:dateCreated ?year } }""")
    assert ("2011", "Lady Gaga") in rows


@pytest.mark.parametrize(
    ("event", "place"),
    [("2023 Steamy Awards", "Los Angeles"), ("2022 Grammys", "Las Vegas")],
)
def test_events_located_in_cities(store, event, place):
    rows = select(store, f"""SELECT ?name WHERE {{ ?e schema:name ?name ;
        schema:location/schema:containedInPlace* ?p . ?p schema:name "{place}" }}""")
    assert any(event in name for (name,) in rows), rows


def test_film_is_a_movie(store):
    rows = select(store, 'SELECT ?w WHERE { ?w a schema:Movie ; schema:name "A Star Is Born" }')
    assert rows


def test_every_quotation_and_performance_names_its_sieve_and_confidence(store):
    """What decided each fact is in the graph, so a user can filter by it in SPARQL."""
    from kg.extract.sieves import registered

    rows = select(store, """PREFIX kg: <https://w3id.org/kg/ns#>
        SELECT ?node ?rule ?confidence WHERE {
          { ?node a schema:Quotation } UNION { ?node a schema:MusicEvent ; schema:performer ?p }
          OPTIONAL { ?node kg:rule ?rule } OPTIONAL { ?node kg:confidence ?confidence } }""")
    assert any("quote" in node for node, _, _ in rows) and any("performance" in node for node, _, _ in rows)
    sieves = registered()
    for node, rule, confidence in rows:
        assert rule in sieves, (node, rule)
        assert float(confidence) == pytest.approx(sieves[rule].confidence), (node, rule, confidence)


def test_the_seed_graph_conforms_to_the_shapes(nlp):
    from kg.rdf import validate

    conforms, report = validate(build([EXAMPLES / "seed.txt"], nlp=nlp).dataset)
    assert conforms, report
