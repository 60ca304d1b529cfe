"""Serialisation: every format round-trips through rdflib and parses in Oxigraph; writes are atomic."""

from __future__ import annotations

import json
import os

import pyoxigraph
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rdflib import Dataset, Graph, URIRef
from rdflib.compare import isomorphic

from kg.errors import GraphError
from kg.extract.model import Entity, Event, Facts, Quote, TextSpan, When
from kg.queries import load
from kg.rdf import add_article, format_for, read_dataset, write_dataset
from kg.rdf.serialize import FORMATS, QUAD_FORMATS, union_graph

_OXIGRAPH = {
    "turtle": pyoxigraph.RdfFormat.TURTLE,
    "trig": pyoxigraph.RdfFormat.TRIG,
    "nquads": pyoxigraph.RdfFormat.N_QUADS,
    "nt": pyoxigraph.RdfFormat.N_TRIPLES,
    "json-ld": pyoxigraph.RdfFormat.JSON_LD,
    "xml": pyoxigraph.RdfFormat.RDF_XML,
}


@pytest.fixture
def two_articles(make_article, facts, span) -> Dataset:
    """Two articles sharing a person: 2 named graphs, overlapping triples."""
    ds = Dataset(default_union=True)
    add_article(ds, make_article("one"), facts)
    add_article(ds, make_article("two", title='Quotes "inside", <tags> & \\ slashes\nand lines'), facts)
    return ds


def _named_graphs(ds: Dataset) -> dict[URIRef, Graph]:
    """The non-empty named graphs of a dataset, by name."""
    return {g.identifier: g for g in ds.graphs() if len(g) and not str(g.identifier).startswith("urn:x-rdflib:")}


@pytest.mark.parametrize("extension", sorted(FORMATS))
def test_round_trip(tmp_path, two_articles, extension):
    path = tmp_path / f"graph{extension}"
    write_dataset(two_articles, path)
    back = read_dataset(path)
    fmt = FORMATS[extension]
    union = union_graph(two_articles)
    # Every format carries the same triples, isomorphic to the union of the article graphs.
    assert isomorphic(union_graph(back), union)
    data = path.read_bytes()
    parsed = list(pyoxigraph.parse(data, format=_OXIGRAPH[fmt]))
    if fmt in QUAD_FORMATS:
        # Quad formats keep one named graph per article, in rdflib and in Oxigraph.
        original, read = _named_graphs(two_articles), _named_graphs(back)
        assert set(read) == set(original) == {
            URIRef("https://w3id.org/kg/id/article/one"),
            URIRef("https://w3id.org/kg/id/article/two"),
        }
        for name, graph in original.items():
            assert isomorphic(read[name], graph)
        assert len(parsed) == sum(len(g) for g in original.values())
        assert {q.graph_name.value for q in parsed} == {str(n) for n in original}
    else:
        assert len(parsed) == len(union)


def test_jsonld_uses_a_compact_context(tmp_path, two_articles):
    path = tmp_path / "graph.jsonld"
    write_dataset(two_articles, path)
    document = json.loads(path.read_text(encoding="utf-8"))
    assert document["@context"]["schema"] == "https://schema.org/"
    assert document["@context"]["kg"] == "https://w3id.org/kg/ns#"
    assert '"schema:name": "Ana Rivera"' in path.read_text(encoding="utf-8")


def test_turtle_uses_kg_prefixes(tmp_path, two_articles):
    path = tmp_path / "graph.ttl"
    write_dataset(two_articles, path)
    text = path.read_text(encoding="utf-8")
    for line in ("@prefix schema: <https://schema.org/> .", "@prefix kg: <https://w3id.org/kg/ns#> .",
                 "@prefix oa: <http://www.w3.org/ns/oa#> .", "@prefix prov: <http://www.w3.org/ns/prov#> ."):
        assert line in text


def test_explicit_format_overrides_the_extension(tmp_path, two_articles):
    path = tmp_path / "graph.data"
    write_dataset(two_articles, path, fmt="nquads")
    quads = list(pyoxigraph.parse(path.read_bytes(), format=pyoxigraph.RdfFormat.N_QUADS))
    assert len(quads) == len(list(two_articles.quads((None, None, None, None))))
    names = {f"<{g}>" for g in _named_graphs(two_articles)}
    assert len(names) == 2 and {str(q.graph_name) for q in quads} == names


def test_unknown_format_name_is_refused(tmp_path, two_articles):
    with pytest.raises(GraphError, match=r"graph\.ttl: unknown RDF format 'csv'; use one of json-ld, nquads"):
        write_dataset(two_articles, tmp_path / "graph.ttl", fmt="csv")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("extension", [".trig", ".nq", ".jsonld", ".ttl"])
def test_read_dataset_answers_the_named_queries(tmp_path, two_articles, extension):
    path = tmp_path / f"graph{extension}"
    write_dataset(two_articles, path)
    rows = list(read_dataset(path).query(load("quotes")))
    speakers = {None if row.speaker is None else str(row.speaker) for row in rows}
    # One attributed and one unattributed quotation, in each of the two articles.
    assert len(rows) == 4
    assert speakers == {"Ana Rivera", None}


def test_unknown_extension_is_named_with_the_valid_ones():
    with pytest.raises(GraphError, match=r"graph\.csv: unknown RDF file extension '\.csv'; use one of \.ttl, \.trig"):
        format_for("out/graph.csv")
    assert format_for("X.TTL") == "turtle"


def test_written_file_is_not_private(tmp_path, two_articles):
    path = tmp_path / "graph.nq"
    write_dataset(two_articles, path)
    umask = os.umask(0o022)
    os.umask(umask)
    assert path.stat().st_mode & 0o777 == 0o666 & ~umask


def test_write_is_atomic_on_error(tmp_path, two_articles, monkeypatch):
    path = tmp_path / "graph.ttl"
    path.write_text("old contents", encoding="utf-8")

    def boom(*args, **kwargs):
        raise RuntimeError("serializer failed")

    monkeypatch.setattr(Graph, "serialize", boom)
    with pytest.raises(RuntimeError, match="serializer failed"):
        write_dataset(two_articles, path)
    assert path.read_text(encoding="utf-8") == "old contents"
    assert os.listdir(tmp_path) == ["graph.ttl"]


def test_write_to_a_missing_folder_makes_it(tmp_path, two_articles):
    target = tmp_path / "new" / "folder" / "graph.nq"
    write_dataset(two_articles, target)
    assert isomorphic(union_graph(read_dataset(target)), union_graph(two_articles))


def test_write_where_a_folder_cannot_be_made_raises_graph_error(tmp_path, two_articles):
    (tmp_path / "plain").write_text("a file, not a folder", encoding="utf-8")
    with pytest.raises(GraphError, match="plain/graph.nq: cannot make its folder: .*plain is a file, not a folder"):
        write_dataset(two_articles, tmp_path / "plain" / "graph.nq")


def test_write_to_a_folder_says_it_is_one(tmp_path, two_articles):
    with pytest.raises(GraphError, match=r": is a folder, not a graph file"):
        write_dataset(two_articles, tmp_path)


def test_read_missing_file(tmp_path):
    with pytest.raises(GraphError, match=r"absent\.ttl: no such file"):
        read_dataset(tmp_path / "absent.ttl")


@pytest.mark.parametrize(
    ("name", "content", "where"),
    [
        ("bad.ttl", "<a> <b> .", "not valid Turtle, line 1: "),
        ("bad.nq", "<http://x/a> <http://x/b> <http://x/c> .\nnot rdf at all\n", "not valid N-Quads, line 2: "),
        ("bad.jsonld", "{", "not valid JSON-LD, line 1: "),
        ("bad.rdf", "<rdf:RDF", "not valid RDF/XML, line 1: "),
        ("bad.trig", '@prefix s: <http://x/> .\ns:a s:b "open string\ns:c s:d s:e .\n', "not valid TriG, line 2: "),
    ],
)
def test_read_unparsable_file_is_one_clean_line_naming_file_and_line(tmp_path, name, content, where):
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    with pytest.raises(GraphError) as info:
        read_dataset(path)
    message = str(info.value)
    assert message.startswith(f"{path}: {where}"), message
    assert "\n" not in message and "b'" not in message and "\\n" not in message


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=st.text(alphabet=st.characters(codec=None, exclude_categories=()), max_size=40))
def test_any_article_text_survives_every_format(tmp_path, make_article, text):
    article = make_article(text or "x", title=text, url="https://news.example/" + text)
    facts = Facts(
        entities=(Entity(key="p", kind="person", name=text, aliases=(text + "'",), descriptions=(text,)),),
        quotes=(Quote(span=TextSpan(0, len(text), text), speaker="p", cue=text),),
        events=(Event(key="e", name=text, date=When(text, text)),),
    )
    ds = Dataset(default_union=True)
    add_article(ds, article, facts)
    union = union_graph(ds)
    for extension, fmt in FORMATS.items():
        path = tmp_path / f"any{extension}"
        write_dataset(ds, path)
        assert isomorphic(union_graph(read_dataset(path)), union), fmt
        assert len(list(pyoxigraph.parse(path.read_bytes(), format=_OXIGRAPH[fmt]))) == len(union), fmt
