"""The ``kg`` command line: a thin wrapper over the library.

Each command parses its arguments, calls the library and reports. Expected
failures (``KgError``) become one line on stderr, ``Error: ...``, and exit 1.
"""

from __future__ import annotations

import json
import logging
import os
import sys
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from kg import __version__, _cli_store, prefixes
from kg._cli_output import FORMAT_HELP, render, table
from kg._cli_store import WAIT_OPTION, writing_store
from kg.errors import KgError

if TYPE_CHECKING:
    from kg.graph import KnowledgeGraph

F = TypeVar("F", bound=Callable[..., Any])

# A graph file, an Oxigraph store folder or a SPARQL server URL (a str: a Path would mangle "http://").
_GRAPH = click.argument("graph", metavar="GRAPH")


class _Problems:
    """Collects non-fatal input problems: each is printed once as a warning line."""

    def __init__(self) -> None:
        self.count = 0

    def __call__(self, message: str) -> None:
        self.count += 1
        click.echo(f"Warning: {message}", err=True)


class _EchoWarnings(logging.Handler):
    """kg's logged warnings (a text read in a legacy encoding) as ``Warning: ...`` lines on stderr.

    They are notes, not problems: everything still went in, so they do not set the exit status.
    """

    def emit(self, record: logging.LogRecord) -> None:
        click.echo(f"Warning: {record.getMessage()}", err=True)


def _show_warnings() -> None:
    """Send the ``kg`` loggers' warnings to stderr, once per process."""
    logger = logging.getLogger("kg")
    if not any(isinstance(handler, _EchoWarnings) for handler in logger.handlers):
        logger.addHandler(_EchoWarnings(logging.WARNING))
        logger.setLevel(logging.WARNING)


def _progress(items, enabled: bool, total: int | None = None, unit: str = "article"):  # type: ignore[no-untyped-def]
    """Wrap an iterator in a progress bar when stderr is a terminal; with a total, it shows an ETA."""
    if not enabled:
        return items
    from tqdm import tqdm

    return tqdm(items, total=total, unit=unit, file=sys.stderr, leave=False)


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
    _show_warnings()


@cli.command()
@click.argument("inputs", nargs=-1, required=True)
@click.option("-o", "--output", type=click.Path(path_type=Path), default=None,
              help="Graph file to write; format from the extension (.ttl .trig .nq .nt .jsonld .rdf).")
@click.option("--store", default=None,
              help="Add the articles to an on-disk store folder (made if missing), a SPARQL server URL, "
                   "or a .trig/.nq/.jsonld file (written back); an article already there is replaced.")
@click.option("--links", type=click.Path(path_type=Path, exists=True, dir_okay=False), default=None,
              help="CSV of (name or IRI, Wikidata id): adds owl:sameAs links to Wikidata.")
@click.option("--model", default=None, help="spaCy pipeline (default: $KG_SPACY_MODEL, else en_core_web_sm).")
@click.option("--workers", default=1, show_default=True, type=click.IntRange(1), help="Processes that run the pipeline.")
@click.option("--batch-size", default=32, show_default=True, type=click.IntRange(1), help="Articles per batch.")
@click.option("--dask", "dask", default=None, metavar="SCHEDULER",
              help="Spread extraction over a Dask cluster: a scheduler address (tcp://host:8786), "
                   "or local[:N] for N worker processes here. Needs the dask extra.")
@click.option("--strict", is_flag=True, help="Stop at the first bad input instead of skipping it.")
@click.option("--progress/--no-progress", default=None, help="Progress bar (default: when stderr is a terminal).")
@WAIT_OPTION
def build(inputs: tuple[str, ...], output: Path | None, store: str | None, links: Path | None,
          model: str | None, workers: int, batch_size: int, dask: str | None, strict: bool,
          progress: bool | None, wait: float) -> None:
    """Read articles (files, folders, or - for stdin) and write their knowledge graph.

    \b
    Example:
        kg build examples/ -o out/graph.ttl
        kg build corpus/ -o out/graph.nq --workers 2
        kg build corpus/ -o out/graph.nq --dask tcp://scheduler:8786
        kg build examples/ --store out/store
        kg build examples/ --store http://127.0.0.1:7878
        kg build examples/ --store out/graph.trig
    """
    from kg.graph import KnowledgeGraph, export_format
    from kg.rdf.resolve import load_links

    if output is None and store is None:
        raise click.UsageError("give -o/--output FILE, --store DIR|URL|FILE, or both")
    if output is not None:
        export_format(output)  # refuse an unknown extension before the slow part
    if dask is not None and workers != 1:
        raise click.UsageError("--workers and --dask do not mix: use --dask local:N for N processes here")
    with ExitStack() as stack:
        # The store stays ours (locked) from reading it to writing it back: see writing_store.
        graph, write_back = (stack.enter_context(writing_store(store, create=True, wait=wait))
                             if store is not None else (KnowledgeGraph(), None))
        graph.links.update(load_links(links) if links is not None else {})
        problems = _Problems()
        articles = _add_articles(graph, inputs, model, workers, batch_size, dask, strict, progress, problems)
        if not articles:
            raise KgError(f"no article found in {', '.join(inputs)}")
        if write_back is not None:
            graph.save(write_back)
        if output is not None:
            graph.save(output)
        click.echo(_summary(graph.stats(), output if output is not None else store))
    if problems.count:
        click.echo(f"{problems.count} input problem(s): not everything went in.", err=True)
        sys.exit(1)


def _add_articles(graph: KnowledgeGraph, inputs: tuple[str, ...], model: str | None, workers: int,
                  batch_size: int, dask: str | None, strict: bool, progress: bool | None,
                  problems: _Problems) -> int:
    """Read, extract and add every article of ``inputs`` to ``graph`` (here or on Dask); how many."""
    from kg._build import extract_articles
    from kg.io import count_articles

    if dask is not None:
        from kg.distributed import add_distributed

        return add_distributed(graph, inputs, dask, model=model, batch_size=batch_size, strict=strict,
                               on_problem=problems)
    pairs = extract_articles(inputs, model=model, batch_size=batch_size, n_process=workers,
                             strict=strict, on_problem=problems)
    show = sys.stderr.isatty() if progress is None else progress
    return graph.add_all(_progress(pairs, show, count_articles(inputs) if show else None))


def _summary(stats: dict[str, int], output: Path | str) -> str:
    order = ("articles", "people", "groups", "quotations", "works", "events", "places", "performances")
    found = ", ".join(f"{stats[k]} {k}" for k in order)
    return f"Wrote {output} ({stats['triples']} triples): {found}."


@cli.command(epilog="\b\nPrefixes a query may use without PREFIX lines (on a file, a store or a server):\n"
                     + prefixes.help_text())
@_GRAPH
@click.argument("sparql", required=False)
@click.option("--named", "named", default=None, help="Run a named query (give no name to list them).",
              is_flag=False, flag_value="")
@click.option("--format", "fmt", type=click.Choice(["table", "csv", "json"]), default="table", show_default=True,
              help=FORMAT_HELP)
@click.option("--timeout", default=None, type=click.FloatRange(0, min_open=True), metavar="SECONDS",
              help="Stop the query after this many seconds (default: no limit; Ctrl-C stops it any time).")
def query(graph: str, sparql: str | None, named: str | None, fmt: str, timeout: float | None) -> None:
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
    if named is not None and sparql is not None:
        raise KgError(f"give a SPARQL query or --named {named or 'NAME'}, not both (the query text would be ignored)")
    if named is not None:
        text = queries.load(named)
    elif sparql is not None and sparql.startswith("@"):
        text = _read_text(Path(sparql[1:]))
    else:
        text = sparql or ""
    from kg.graph import KnowledgeGraph

    try:
        result = KnowledgeGraph.open(graph, read_only=True).query(text, timeout=timeout, interruptible=True)
    except KeyboardInterrupt:
        # Not click's "Aborted.": say what stopped, and that no partial result was printed.
        click.echo("Stopped: the query was interrupted (Ctrl-C); no result was printed.", err=True)
        sys.exit(130)
    click.echo(render(result, fmt), nl=False)


def _read_text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise KgError(f"{path}: cannot read query file ({exc.__class__.__name__})") from None


@cli.command()
@_GRAPH
@click.option("-o", "--output", type=click.Path(path_type=Path), required=True,
              help="File to write; format from the extension (.ttl .trig .nq .nt .jsonld .rdf, "
                   "or .graphml .gexf for the entity network).")
def export(graph: str, output: Path) -> None:
    """Write GRAPH (a file, store folder or SPARQL URL) in another RDF format, or as a network.

    \b
    Example:
        kg export out/graph.ttl -o out/graph.jsonld
        kg export out/store -o out/network.graphml
    """
    from kg.graph import KnowledgeGraph, export_format

    export_format(output)
    KnowledgeGraph.open(graph, read_only=True).save(output)
    click.echo(f"Wrote {output}.")


@cli.command()
@_GRAPH
@click.option("-o", "--output", type=click.Path(path_type=Path), default=None, help="HTML page to write.")
@click.option("--png", "png", type=click.Path(path_type=Path), default=None,
              help="Also (or only) write a static PNG picture of the same projection.")
@click.option("--view", type=click.Choice(["entities", "people", "works", "events"]), default="entities",
              show_default=True, help="Which projection of the graph to draw.")
@click.option("--max-nodes", default=None, type=click.IntRange(1),
              help="Keep at most this many nodes, the most connected first (default: 300 on the page, 80 in the PNG).")
def viz(graph: str, output: Path | None, png: Path | None, view: str, max_nodes: int | None) -> None:
    """Write an interactive network page of GRAPH that works offline, and/or a PNG picture.

    \b
    Example:
        kg viz out/graph.ttl -o out/graph.html --view people
        kg viz out/graph.ttl --png out/graph.png
    """
    if output is None and png is None:
        raise click.UsageError("give -o/--output PAGE.html, --png PICTURE.png, or both")
    from kg.graph import KnowledgeGraph
    from kg.viz import PAGE_MAX_NODES, PNG_MAX_NODES, write_page, write_png

    rdf = KnowledgeGraph.open(graph, read_only=True).rdf_graph()
    written = []
    if output is not None:
        written.append(write_page(rdf, output, view=view, max_nodes=max_nodes or PAGE_MAX_NODES))
    if png is not None:
        written.append(write_png(rdf, png, view=view, max_nodes=max_nodes or PNG_MAX_NODES))
    click.echo(f"Wrote {' and '.join(str(p) for p in written)}.")


@cli.command()
@_GRAPH
def validate(graph: str) -> None:
    """Check GRAPH against kg's SHACL shapes; exit 1 when it does not conform.

    \b
    Example:
        kg validate out/graph.ttl
    """
    from kg.graph import KnowledgeGraph

    conforms, report = KnowledgeGraph.open(graph, read_only=True).validate()
    if conforms:
        click.echo(f"{graph} conforms to kg's shapes.")
        return
    click.echo(report, err=True)
    raise KgError(f"{graph} does not conform to kg's shapes")


@cli.command()
@_GRAPH
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True)
def stats(graph: str, fmt: str) -> None:
    """Count the articles, people, quotations, works, events, places and triples in GRAPH."""
    from kg.graph import KnowledgeGraph

    counts = KnowledgeGraph.open(graph, read_only=True).stats()
    if fmt == "json":
        click.echo(json.dumps(counts, indent=2))
    else:
        click.echo(table(["what", "count"], [[k, str(v)] for k, v in counts.items()]), nl=False)


# The commands that manage a store's articles live in kg/_cli_store.py.
cli.add_command(_cli_store.articles)
cli.add_command(_cli_store.remove)


@cli.command()
@click.argument("graph")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on; anything but loopback lets other machines query the graph.")
@click.option("--port", default=8765, show_default=True, type=click.IntRange(0, 65535), help="TCP port (0: any free one).")
@click.option("--timeout", default=10.0, show_default=True, type=click.FloatRange(0.1),
              help="Seconds a query may run before it is stopped.")
@click.option("--max-results", default=10_000, show_default=True, type=click.IntRange(1),
              help="Rows (or triples) returned at most; the rest are cut and the X-KG-Truncated header says so.")
@click.option("--workers", default=None, type=click.IntRange(1),
              help="Query processes, each holding the graph (default: CPUs, between 2 and 4).")
@click.option("--quiet", is_flag=True, help="Do not log each request on stderr.")
def serve(graph: str, host: str, port: int, timeout: float, max_results: int, workers: int | None,
          quiet: bool) -> None:
    """Serve GRAPH (a file, store folder or SPARQL URL) read-only over the SPARQL 1.1 Protocol, with a query page at /.

    GET and POST queries at /sparql; results as SPARQL JSON, XML, CSV or TSV, graphs as
    Turtle, JSON-LD or N-Triples, by Accept header or format=. Updates, SERVICE and
    writes are refused. Ctrl+C stops it.

    \b
    Example:
        kg serve out/store --port 8765
        curl 'http://127.0.0.1:8765/sparql?query=ASK%7B%7D'
    """
    from kg.server import ServerConfig, SparqlServer
    from kg.server import serve as run_server

    pool = {"workers": workers} if workers is not None else {}
    config = ServerConfig(host=host, port=port, timeout=timeout, max_results=max_results, quiet=quiet, **pool)

    def ready(server: SparqlServer) -> None:
        if not server.loopback_only:
            click.echo(f"Warning: listening on {host}: other machines can query this graph.", err=True)
        click.echo(f"Serving {graph} at {server.url} (SPARQL endpoint {server.url}sparql); Ctrl+C stops.")
        sys.stdout.flush()

    run_server(graph, config, on_ready=ready)


@cli.command(name="eval")
@click.argument("gold", type=click.Path(path_type=Path))
@click.argument("articles", nargs=-1, required=True)
@click.option("--model", default=None, help="spaCy pipeline to evaluate.")
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table", show_default=True)
@click.option("--by-rule", is_flag=True, help="Per extraction sieve: how often it fired and was right; misses by why.")
def eval_(gold: Path, articles: tuple[str, ...], model: str | None, fmt: str, by_rule: bool) -> None:
    """Score extraction against hand-made gold annotations (a .json file or a folder of them).

    Gold files are matched to articles by their "source" file name.

    \b
    Example:
        kg eval examples/gold/ examples/
        kg eval examples/gold/ examples/ --by-rule
    """
    if by_rule:
        from kg.eval_rules import judge_paths, render_rules

        rules = judge_paths(gold, articles, model=model, on_problem=_Problems())
        click.echo(json.dumps(rules.to_dict(), indent=2) if fmt == "json" else render_rules(rules))
        return
    from kg.eval import evaluate_paths, render

    report = evaluate_paths(gold, articles, model=model, on_problem=_Problems())
    click.echo(json.dumps(report.to_dict(), indent=2) if fmt == "json" else render(report))


def main() -> None:
    """Entry point: run the CLI, turning every failure into one line on stderr and a non-zero exit.

    kg's own errors exit 1. Anything else is a bug in kg, but a user still gets one
    line naming it (exit 2); ``KG_DEBUG=1`` shows the traceback for a bug report.
    """
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
    except BrokenPipeError:
        # The reader of our output went away (kg query ... | head): stop quietly, and keep
        # Python's final flush of stdout from failing again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(1)
    except Exception as exc:  # noqa: BLE001 (last resort: a user sees one line, not a traceback)
        if os.environ.get("KG_DEBUG"):
            raise
        detail = " ".join(str(exc).split())[:300]
        click.echo(f"Error: internal error ({type(exc).__name__}: {detail}); rerun with KG_DEBUG=1 "
                   "for a traceback and report it.", err=True)
        sys.exit(2)
