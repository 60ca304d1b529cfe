"""The Dask build: scheduler specs, partition loading, and a LocalCluster build equal to a serial one."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from rdflib import RDF, Dataset, Literal

from kg.cli import cli
from kg.distributed import add_partition, article_nquads, parse_scheduler
from kg.errors import KgError
from kg.extract.model import Entity, Facts, TextSpan
from kg.graph import KnowledgeGraph
from kg.io.article import Article
from kg.rdf.iri import mint
from kg.rdf.mapping import article_iri
from kg.rdf.namespaces import SDO

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def _quads(dataset: Dataset) -> set[tuple[object, object, object, object]]:
    """Every quad of ``dataset`` with the graph given by its name."""
    return {(s, p, o, getattr(g, "identifier", g)) for s, p, o, g in dataset.quads((None, None, None, None))}


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        ("local", ("local", None)),
        ("local:2", ("local", 2)),
        (" local:16 ", ("local", 16)),
        ("tcp://10.1.2.3:8786", ("tcp://10.1.2.3:8786", None)),
        ("scheduler.example.org:8786", ("scheduler.example.org:8786", None)),
    ],
)
def test_parse_scheduler(spec: str, expected: tuple[str, int | None]) -> None:
    assert parse_scheduler(spec) == expected


@pytest.mark.parametrize("spec", ["", "local:", "local:0", "local:two", "local:-1"])
def test_parse_scheduler_refuses_bad_specs(spec: str) -> None:
    with pytest.raises(KgError, match="scheduler"):
        parse_scheduler(spec)


def _facts(*names: str) -> Facts:
    """Facts naming each of ``names`` once, as people."""
    return Facts(
        entities=tuple(
            Entity(key=f"person:{i}", kind="person", name=name, mentions=(TextSpan(0, len(name), name),))
            for i, name in enumerate(names, start=1)
        )
    )


def test_add_partition_replaces_each_articles_graph() -> None:
    graph = KnowledgeGraph()
    graph.add(Article(id="a1", text="Ana Rivera sang."), _facts("Ana Rivera"))
    graph.add(Article(id="a2", text="Tom Vale sang."), _facts("Tom Vale"))
    # The same article re-extracted on a worker, with different facts.
    again = Article(id="a1", text="Ana Rivas sang.")
    facts = _facts("Ana Rivas")
    assert add_partition(graph, [again], [(facts, article_nquads(again, facts))]) == 1
    assert set(graph.dataset.graph(article_iri("a1")).objects(None, SDO.name)) == {Literal("Ana Rivas")}
    # The other article's graph is left as it was.
    assert set(graph.dataset.graph(article_iri("a2")).objects(None, SDO.name)) == {Literal("Tom Vale")}


def test_add_partition_resolves_against_the_whole_graph_as_add_does() -> None:
    first = (Article(id="b1", text="Ana Rivera sang."), _facts("Ana Rivera"))
    # A later article names her by surname only: the worker cannot know who that is.
    later = (Article(id="b2", text="Rivera said so. Tom Vale agreed."), _facts("Rivera", "Tom Vale"))
    serial = KnowledgeGraph()
    serial.add_all([first, later])
    spread = KnowledgeGraph()
    for article, facts in (first, later):
        add_partition(spread, [article], [(facts, article_nquads(article, facts))])
    assert _quads(spread.dataset) == _quads(serial.dataset)
    # Not vacuous: the surname went to the person the first article named in full.
    people = set(spread.dataset.graph(article_iri("b2")).subjects(RDF.type, SDO.Person))
    assert mint("person", "Ana Rivera") in people


def test_cli_refuses_workers_with_dask(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["build", str(EXAMPLES), "-o", str(tmp_path / "g.nq"), "--dask", "local",
                                      "--workers", "2"])
    assert result.exit_code == 2
    assert "--workers and --dask do not mix" in result.output


@pytest.mark.slow
def test_local_cluster_build_equals_single_process_build(nlp, tmp_path: Path) -> None:
    pytest.importorskip("distributed")
    from kg._build import build
    from kg.distributed import build_distributed

    serial = build([EXAMPLES], nlp=nlp)
    spread = build_distributed([EXAMPLES], "local:2", partition_size=2)
    assert _quads(spread.dataset) == _quads(serial.dataset)
    # Not vacuous: every example article is there, with its quotations.
    stats = spread.stats()
    graphs = {getattr(g, "identifier", g) for *_, g in spread.dataset.quads((None, None, None, None))}
    assert stats["articles"] == serial.stats()["articles"] == len(graphs) >= 10
    assert stats["quotations"] == serial.stats()["quotations"] > 0
