"""The ``kg`` command line: a thin wrapper over the library.

Each command parses its arguments, calls the library and reports. Expected
failures (``KgError``) become one line on stderr, ``Error: ...``, and exit 1.
"""

from __future__ import annotations

import csv
import io
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from kg import __version__
from kg.errors import KgError

F = TypeVar("F", bound=Callable[..., Any])

_GRAPH = click.argument("graph", type=click.Path(path_type=Path))


class _Problems:
    """Collects non-fatal input problems: each is printed once as a warning line."""

    def __init__(self) -> None:
        self.count = 0

    def __call__(self, message: str) -> None:
        self.count += 1
        click.echo(f"Warning: {message}", err=True)


def _progress(items, enabled: bool, unit: str = "article"):  # type: ignore[no-untyped-def]
    """Wrap an iterator in a progress bar when stderr is a terminal."""
    if not enabled:
        return items
    from tqdm import tqdm

    return tqdm(items, unit=unit, file=sys.stderr, leave=False)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="kg")
def cli() -> None:
    """Build a knowledge graph of people, events and works from news articles.

    \b
    Example:
        kg build examples/ -o out/graph.ttl
        kg query out/graph.ttl --named quotes
        kg viz out/graph.ttl -o out/graph.html
    """


@cli.command()
@click.argument("inputs", nargs=-1, required=True)
@click.option("-o", "--output", type=click.Path(path_type=Path), required=True,
              help="Graph file to write; format from the extension (.ttl .trig .nq .nt .jsonld .rdf).")
@click.option("--model", default=None, help="spaCy pipeline (default: $KG_SPACY_MODEL, else en_core_web_sm).")
@click.option("--workers", default=1, show_default=True, type=click.IntRange(1), help="spaCy processes.")
@click.option("--batch-size", default=32, show_default=True, type=click.IntRange(1), help="Articles per batch.")
@click.option("--strict", is_flag=True, help="Stop at the first bad input instead of skipping it.")
@click.option("--progress/--no-progress", default=None, help="Progress bar (default: when stderr is a terminal).")
def build(inputs: tuple[str, ...], output: Path, model: str | None, workers: int, batch_size: int,
          strict: bool, progress: bool | None) -> None:
    """Read articles (files, folders, or - for stdin) and write their knowledge graph.

    \b
    Example:
        kg build examples/ -o out/graph.ttl
    """
    from kg._build import extract_articles
    from kg.graph import KnowledgeGraph
    from kg.rdf.serialize import format_for

    format_for(output)  # refuse an unknown extension before the slow part
    problems = _Problems()
    pairs = extract_articles(inputs, model=model, batch_size=batch_size, n_process=workers,
                             strict=strict, on_problem=problems)
    graph = KnowledgeGraph()
    show = sys.stderr.isatty() if progress is None else progress
    articles = graph.add_all(_progress(pairs, show))
    if not articles:
        raise KgError(f"no article found in {', '.join(inputs)}")
    graph.save(output)
    click.echo(_summary(graph.stats(), output))
    if problems.count:
        click.echo(f"{problems.count} input problem(s): not everything went in.", err=True)
        sys.exit(1)


def _summary(stats: dict[str, int], output: Path) -> str:
    order = ("articles", "people", "groups", "quotations", "works", "events", "places", "performances")
    found = ", ".join(f"{stats[k]} {k}" for k in order)
    return f"Wrote {output} ({stats['triples']} triples): {found}."


@cli.command()
@_GRAPH
@click.argument("sparql", required=False)
@click.option("--named", "named", default=None, help="Run a named query (give no name to list them).",
              is_flag=False, flag_value="")
@click.option("--format", "fmt", type=click.Choice(["table", "csv", "json"]), default="table", show_default=True)
def query(graph: Path, sparql: str | None, named: str | None, fmt: str) -> None:
    """Run a SPARQL query (text, @file.rq, or --named NAME) over GRAPH.

    \b
    Example:
        kg query out/graph.ttl --named quotes --format csv
        kg query out/graph.ttl 'SELECT ?n WHERE { ?p a <https://schema.org/Person> ; <https://schema.org/name> ?n }'
    """
    from kg import queries

    if named == "" or (named is None and sparql is None):
        click.echo("Named queries:")
        for name in queries.names():
            click.echo(f"  {name:<14} {queries.describe(name)}")
        return
    if named is not None:
        text = queries.load(named)
    elif sparql is not None and sparql.startswith("@"):
        text = _read_text(Path(sparql[1:]))
    else:
        text = sparql or ""
    from kg.graph import KnowledgeGraph

    result = KnowledgeGraph.load(graph).query(text)
    click.echo(_render(result, fmt), nl=False)


def _read_text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise KgError(f"{path}: cannot read query file ({exc.__class__.__name__})") from None


def _render(result, fmt: str) -> str:  # type: ignore[no-untyped-def]
    """Render a query result as a text table, CSV or SPARQL JSON results."""
    if result.type == "ASK":
        return ("true" if result.askAnswer else "false") + "\n"
    if result.type in ("CONSTRUCT", "DESCRIBE"):
        return result.serialize(format="turtle").decode("utf-8")
    if fmt == "json":
        return result.serialize(format="json").decode("utf-8") + "\n"
    names = [str(v) for v in result.vars]
    rows = [["" if v is None else str(v) for v in row] for row in result]
    if fmt == "csv":
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(names)
        writer.writerows(rows)
        return buffer.getvalue()
    return _table(names, rows)


def _table(names: list[str], rows: list[list[str]], width: int = 70) -> str:
    """A plain aligned table; long cells are cut with an ellipsis."""
    def cut(cell: str) -> str:
        cell = " ".join(cell.split())
        return cell if len(cell) <= width else cell[: width - 1] + "…"

    cells = [[cut(c) for c in row] for row in rows]
    widths = [max([len(n)] + [len(r[i]) for r in cells]) for i, n in enumerate(names)]
    line = lambda row: "  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip()  # noqa: E731
    out = [line(names), line(["-" * w for w in widths])] + [line(r) for r in cells]
    out.append(f"({len(rows)} row{'s' if len(rows) != 1 else ''})")
    return "\n".join(out) + "\n"


@cli.command()
@_GRAPH
@click.option("-o", "--output", type=click.Path(path_type=Path), required=True,
              help="File to write; format from the extension (.ttl .trig .nq .nt .jsonld .rdf).")
def export(graph: Path, output: Path) -> None:
    """Write GRAPH in another RDF format.

    \b
    Example:
        kg export out/graph.ttl -o out/graph.jsonld
    """
    from kg.graph import KnowledgeGraph
    from kg.rdf.serialize import format_for

    format_for(output)
    KnowledgeGraph.load(graph).save(output)
    click.echo(f"Wrote {output}.")


@cli.command()
@_GRAPH
@click.option("-o", "--output", type=click.Path(path_type=Path), required=True, help="HTML page to write.")
@click.option("--view", type=click.Choice(["entities", "people", "works", "events"]), default="entities",
              show_default=True, help="Which projection of the graph to draw.")
@click.option("--max-nodes", default=300, show_default=True, type=click.IntRange(1),
              help="Keep at most this many nodes, the most connected first.")
def viz(graph: Path, output: Path, view: str, max_nodes: int) -> None:
    """Write an interactive network page of GRAPH that works offline.

    \b
    Example:
        kg viz out/graph.ttl -o out/graph.html --view people
    """
    from kg.graph import KnowledgeGraph
    from kg.viz import write_page

    write_page(KnowledgeGraph.load(graph).rdf_graph(), output, view=view, max_nodes=max_nodes)
    click.echo(f"Wrote {output}.")


@cli.command()
@_GRAPH
def validate(graph: Path) -> None:
    """Check GRAPH against kg's SHACL shapes; exit 1 when it does not conform.

    \b
    Example:
        kg validate out/graph.ttl
    """
    from kg.graph import KnowledgeGraph

    conforms, report = KnowledgeGraph.load(graph).validate()
    if conforms:
        click.echo(f"{graph} conforms to kg's shapes.")
        return
    click.echo(report, err=True)
    raise KgError(f"{graph} does not conform to kg's shapes")


@cli.command()
@_GRAPH
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True)
def stats(graph: Path, fmt: str) -> None:
    """Count the articles, people, quotations, works, events, places and triples in GRAPH."""
    from kg.graph import KnowledgeGraph

    counts = KnowledgeGraph.load(graph).stats()
    if fmt == "json":
        click.echo(json.dumps(counts, indent=2))
    else:
        click.echo(_table(["what", "count"], [[k, str(v)] for k, v in counts.items()]), nl=False)


@cli.command(name="eval")
@click.argument("gold", type=click.Path(path_type=Path))
@click.argument("articles", nargs=-1, required=True)
@click.option("--model", default=None, help="spaCy pipeline to evaluate.")
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True)
def eval_(gold: Path, articles: tuple[str, ...], model: str | None, fmt: str) -> None:
    """Score extraction against hand-made gold annotations (a .json file or a folder of them).

    Gold files are matched to articles by their "source" file name.

    \b
    Example:
        kg eval examples/gold/ examples/
    """
    from kg._build import extract_articles
    from kg.eval import evaluate, gold_key, load_gold, render, summarize

    golds = load_gold(gold)
    scores = []
    for article, facts in extract_articles(articles, model=model, on_problem=_Problems()):
        key = gold_key(article)
        if key in golds:
            scores.append(evaluate(golds[key], article, facts))
    if not scores:
        raise KgError(f"no article in {', '.join(articles)} matches a gold file in {gold}")
    report = summarize(scores)
    click.echo(json.dumps(report.to_dict(), indent=2) if fmt == "json" else render(report))


def main() -> None:
    """Entry point: run the CLI, turning kg's errors into one line and exit status 1."""
    try:
        cli.main(standalone_mode=False, prog_name="kg")
    except KgError as exc:
        click.echo(f"Error: {exc}", err=True)
        sys.exit(1)
    except click.exceptions.Abort:
        click.echo("Aborted.", err=True)
        sys.exit(130)
    except click.ClickException as exc:
        exc.show()
        sys.exit(exc.exit_code)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
