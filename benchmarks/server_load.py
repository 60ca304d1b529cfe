"""Load test for ``kg serve``: many concurrent clients on loopback for a bounded time.

Builds a graph from the fictional corpus (``corpus.py``; or takes ``--graph``),
starts the real ``kg serve`` on a free loopback port, and runs ``--clients``
concurrent clients (asyncio, one keep-alive HTTP/1.1 connection each) for
``--seconds``. Each client sends a mix of read queries (lookups, an ASK, a count,
a CONSTRUCT and a DESCRIBE, as CSV, JSON, XML, Turtle and JSON-LD) one after
another; then, as long again, only ``ASK {}``, to show the server's own ceiling.
Reports throughput, latency percentiles and every error (there should be none), and
writes ``benchmarks/results/server_load.json`` with the machine described.

With ``--against-oxigraph`` it measures kg against the engine it wraps instead: a
store built by ``kg build --store`` (44 articles, or ``--graph STORE``) served by
``kg serve`` and, from a copy, by ``oxigraph serve-read-only``, the same lookup from
8, 64 and 200 keep-alive clients, the two servers taking turns in rounds; writes
``benchmarks/results/server_vs_oxigraph.json``.

    .venv/bin/python benchmarks/server_load.py                  # 200 clients, 20 s
    .venv/bin/python benchmarks/server_load.py --clients 50 --seconds 5 --articles 20
    .venv/bin/python benchmarks/server_load.py --against-oxigraph   # 3 rounds of 5 s each
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import select
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections import Counter
from pathlib import Path
from urllib.parse import quote, urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parent))
import corpus  # noqa: E402
from _machine import machine  # noqa: E402

RESULTS = Path(__file__).resolve().parent / "results" / "server_load.json"
SIDE_BY_SIDE = Path(__file__).resolve().parent / "results" / "server_vs_oxigraph.json"

_PREFIX = "PREFIX schema: <https://schema.org/>\n"

#: The mix each client cycles through: (label, query, Accept header). Lookups, as programs send
#: to an endpoint; the named queries (whole-graph reports, 0.3-1.5 s each on in-memory rdflib
#: at 7,500 triples) would measure rdflib's evaluator, not the server.
MIX = (
    ("people", _PREFIX + "SELECT ?p ?name WHERE { ?p a schema:Person ; schema:name ?name } LIMIT 100", "text/csv"),
    ("quotes-by", _PREFIX + "SELECT ?speaker ?text WHERE { ?q a schema:Quotation ; schema:text ?text ; "
     "schema:creator ?p . ?p schema:name ?speaker } LIMIT 20", "application/sparql-results+json"),
    ("ask", _PREFIX + 'ASK { ?q a schema:Quotation ; schema:text ?t FILTER(CONTAINS(?t, "the")) }',
     "application/sparql-results+json"),
    ("venues", _PREFIX + "CONSTRUCT { ?v schema:name ?n } WHERE { ?v a schema:MusicVenue ; schema:name ?n } LIMIT 50",
     "text/turtle"),
    ("count", _PREFIX + "SELECT (COUNT(?q) AS ?n) WHERE { ?q a schema:Quotation }", "application/sparql-results+xml"),
    ("describe", _PREFIX + "DESCRIBE ?p WHERE { ?p a schema:Person } LIMIT 1", "application/ld+json"),
)

#: The second phase: a query that costs rdflib next to nothing, so what is measured is the
#: server's own work (HTTP, handing the query to a worker and back, serializing).
TRIVIAL = (("ask-empty", "ASK {}", "application/sparql-results+json"),)

#: Against oxigraph: one lookup, the same on both servers, as SPARQL JSON results.
SIDE_QUERY = (("people", MIX[0][1], "application/sparql-results+json"),)

Mix = tuple[tuple[str, str, str], ...]
Sample = tuple[str, float, str]


def build_graph(folder: Path, articles: int, seed: int, *, store: bool = False) -> Path:
    """A graph file (or with ``store`` a store folder) of ``articles`` fictional articles, built by the real ``kg build``."""
    source = corpus.write_jsonl(folder / "corpus.jsonl", articles, seed)
    graph = folder / ("store" if store else "graph.trig")
    subprocess.run([sys.executable, "-m", "kg", "build", str(source), "--store" if store else "-o", str(graph),
                    "--no-progress"], check=True, stdout=subprocess.DEVNULL)
    return graph


def start_server(graph: Path, workers: int, timeout: float) -> tuple[subprocess.Popen[str], str]:
    """``kg serve`` on a free loopback port; returns the process and its base URL."""
    process = subprocess.Popen(
        [sys.executable, "-m", "kg", "serve", str(graph), "--port", "0", "--quiet",
         "--workers", str(workers), "--timeout", str(timeout)],
        stdout=subprocess.PIPE, text=True,
    )
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline and process.poll() is None:
        if select.select([process.stdout], [], [], 1.0)[0]:
            line = process.stdout.readline()  # type: ignore[union-attr]
            if line.startswith("Serving"):
                return process, line.split(" at ")[1].split()[0]
    process.kill()
    raise SystemExit("kg serve did not start")


def request_bytes(host: str, port: int, query: str, accept: str, path: str = "/sparql") -> bytes:
    return (f"GET {path}?query={quote(query)} HTTP/1.1\r\nHost: {host}:{port}\r\n"
            f"Accept: {accept}\r\nUser-Agent: kg-server-load\r\n\r\n").encode("ascii")


async def exchange(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, payload: bytes) -> tuple[int, bool]:
    """Send one request, read the whole response: (status, whether the server closes the connection)."""
    writer.write(payload)
    await writer.drain()
    status_line = await reader.readline()
    if not status_line:
        raise ConnectionError("connection closed before a response")
    status = int(status_line.split()[1])
    length, closing, chunked = 0, False, False
    while True:
        line = await reader.readline()
        if line in (b"\r\n", b"\n", b""):
            break
        name, _, value = line.decode("latin-1").partition(":")
        name, value = name.strip().lower(), value.strip().lower()
        if name == "content-length":
            length = int(value)
        elif name == "connection" and value == "close":
            closing = True
        elif name == "transfer-encoding" and value == "chunked":
            chunked = True
    if not chunked:
        await reader.readexactly(length)
        return status, closing
    # a streamed body (oxigraph sends results so): chunks until the empty one
    while size := int((await reader.readline()).split(b";")[0], 16):
        await reader.readexactly(size + 2)
    await reader.readline()
    return status, closing


async def client(index: int, host: str, port: int, mix: Mix, stop_at: float, samples: list[Sample],
                 path: str = "/sparql") -> None:
    """One client: a keep-alive connection, queries one after another until the time is up."""
    payloads = [(label, request_bytes(host, port, query, accept, path)) for label, query, accept in mix]
    turn = index  # clients start at different places in the mix
    connection = None
    while time.monotonic() < stop_at:
        label, payload = payloads[turn % len(payloads)]
        turn += 1
        started = time.perf_counter()
        try:
            if connection is None:
                connection = await asyncio.open_connection(host, port)
            status, closing = await exchange(*connection, payload)
            outcome = "ok" if status == 200 else f"HTTP {status}"
        except (OSError, ConnectionError, asyncio.IncompleteReadError, ValueError) as exc:
            outcome, closing = f"{type(exc).__name__}", True
        samples.append((label, time.perf_counter() - started, outcome))
        if closing and connection is not None:
            connection[1].close()
            connection = None
    if connection is not None:
        connection[1].close()


async def load(host: str, port: int, mix: Mix, clients: int, seconds: float,
               path: str = "/sparql") -> tuple[list[Sample], float]:
    """Run ``clients`` clients for ``seconds``; every answer's (label, seconds, outcome) and the wall time.

    Wall time runs until the last answer, so requests still in flight at the end count.
    """
    samples: list[Sample] = []
    started = time.monotonic()
    await asyncio.gather(*(client(i, host, port, mix, started + seconds, samples, path) for i in range(clients)))
    return samples, time.monotonic() - started


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else float("nan")


def summarize(samples: list[Sample], wall: float, mix: Mix) -> dict[str, object]:
    latencies = [seconds for _, seconds, outcome in samples if outcome == "ok"]
    errors = Counter(outcome for _, _, outcome in samples if outcome != "ok")
    per_query = {
        label: {
            "requests": len(times),
            "p50_ms": round(1000 * percentile(times, 0.5), 1),
            "p99_ms": round(1000 * percentile(times, 0.99), 1),
        }
        for label in dict.fromkeys(label for label, _, _ in mix)
        if (times := [s for lab, s, outcome in samples if lab == label and outcome == "ok"])
    }
    return {
        "requests": len(samples),
        "ok": len(latencies),
        "errors": dict(errors),
        "wall_seconds": round(wall, 2),
        "throughput_per_s": round(len(latencies) / wall, 1),
        "latency_ms": {
            "p50": round(1000 * percentile(latencies, 0.5), 1),
            "p90": round(1000 * percentile(latencies, 0.9), 1),
            "p99": round(1000 * percentile(latencies, 0.99), 1),
            "max": round(1000 * max(latencies, default=float("nan")), 1),
            "mean": round(1000 * statistics.fmean(latencies), 1) if latencies else None,
        },
        "per_query": per_query,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--graph", type=Path, default=None, help="Graph to serve (default: build one).")
    parser.add_argument("--articles", type=int, default=None,
                        help="Fictional articles to build the graph from (default 100; 44 against oxigraph).")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--clients", type=int, nargs="+", default=None,
                        help="Concurrent clients (default 200; 8 64 200 against oxigraph).")
    parser.add_argument("--seconds", type=float, default=None,
                        help="Seconds a phase (default 20), or a round against oxigraph (default 5).")
    parser.add_argument("--workers", type=int, default=max(2, min(4, os.cpu_count() or 2)))
    parser.add_argument("--timeout", type=float, default=10.0, help="The per-query time limit of both servers.")
    parser.add_argument("--against-oxigraph", action="store_true",
                        help="Serve one store with kg serve and with oxigraph serve-read-only, side by side.")
    parser.add_argument("--rounds", type=int, default=3, help="Rounds each server gets per client count, in turns.")
    parser.add_argument("--oxigraph-timeout", action="store_true",
                        help="Give oxigraph the time limit too (its --timeout-s; 0.5.13 dies under this load).")
    parser.add_argument("-o", "--output", type=Path, default=None)
    args = parser.parse_args(argv)
    if args.against_oxigraph:
        return side_by_side(args)
    args.articles = args.articles or 100
    args.clients = (args.clients or [200])[0]
    args.seconds = args.seconds or 20.0
    args.output = args.output or RESULTS

    load_at_start = [round(x, 2) for x in os.getloadavg()]  # other work on the machine weighs on the figures
    with tempfile.TemporaryDirectory(prefix="kg-server-load-") as tmp:
        started = time.perf_counter()
        graph = args.graph or build_graph(Path(tmp), args.articles, args.seed)
        build_seconds = time.perf_counter() - started
        process, url = start_server(graph, args.workers, args.timeout)
        try:
            address = urlsplit(url)
            host, port = address.hostname or "127.0.0.1", address.port or 80
            asyncio.run(load(host, port, MIX, 2, 2.0))  # warm up every worker's parser and caches
            phases = {}
            for name, mix in (("lookups", MIX), ("trivial", TRIVIAL)):
                samples, wall = asyncio.run(load(host, port, mix, args.clients, args.seconds))
                phases[name] = {"mix": [label for label, _, _ in mix], **summarize(samples, wall, mix)}
        finally:
            process.terminate()
            process.wait(timeout=30)
        triples = _triples(graph)

    report = {
        "benchmark": "kg serve under concurrent load",
        "graph": {"articles": None if args.graph else args.articles, "triples": triples,
                  "source": str(args.graph) if args.graph else f"corpus.py seed {args.seed}",
                  "build_seconds": None if args.graph else round(build_seconds, 1)},
        "server": {"workers": args.workers, "timeout_s": args.timeout, "http": "asyncio (kg.server.http11)"},
        "load": {"clients": args.clients, "seconds_a_phase": args.seconds,
                 "client": "asyncio, one keep-alive HTTP/1.1 connection per client, same machine"},
        "errors": sum(sum(phase["errors"].values()) for phase in phases.values()),  # type: ignore[attr-defined]
        "phases": phases,
        "machine": {**machine("rdflib"), "load_average_at_start": load_at_start},
        "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    print(f"{args.clients} clients, {args.seconds:g} s a phase, {triples} triples, {args.workers} workers")
    for name, phase in phases.items():
        latency = phase["latency_ms"]
        print(f"{name:<8} {phase['ok']} answers, {phase['throughput_per_s']}/s, p50 {latency['p50']} ms, "  # type: ignore[index]
              f"p99 {latency['p99']} ms, errors {phase['errors'] or 'none'}")  # type: ignore[index]
        for label, figures in phase["per_query"].items():  # type: ignore[attr-defined]
            print(f"  {label:<12} {figures['requests']:>6} answers  p50 {figures['p50_ms']:>8} ms  "
                  f"p99 {figures['p99_ms']:>8} ms")
    print(f"Wrote {args.output}")
    return 1 if report["errors"] else 0


# --- side by side with the engine's own server --------------------------------------------------


def start_oxigraph(store: Path, timeout: float | None) -> tuple[subprocess.Popen[bytes], int]:
    """``oxigraph serve-read-only`` (the PyPI package ``oxigraph``, in the test extras) on a free loopback port.

    With ``timeout``, its ``--timeout-s``: Oxigraph 0.5.13 then starts a thread per query
    that sleeps out the limit, and under this load died within seconds (16,000 sleeping
    threads: "failed to set up alternative stack guard page: Cannot allocate memory").
    So by default it runs without a time limit, as it was first measured.
    """
    binary = shutil.which("oxigraph", path=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}")
    if binary is None:
        raise SystemExit("no oxigraph command: pip install oxigraph (kg's test extras have it)")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    limit = ["--timeout-s", str(max(1, round(timeout)))] if timeout else []
    process = subprocess.Popen([binary, "serve-read-only", "--location", str(store), "--bind", f"127.0.0.1:{port}",
                                *limit], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and process.poll() is None:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/query?query=ASK%7B%7D", timeout=2):
                return process, port
        except OSError:
            time.sleep(0.2)
    process.kill()
    raise SystemExit("oxigraph serve-read-only did not start")


def side_by_side(args: argparse.Namespace) -> int:
    """The same lookup from N keep-alive clients against kg serve and oxigraph serve-read-only on one store.

    Oxigraph serves a copy of the store (a read-only open takes no lock, but two servers
    on one folder would share its page cache unevenly). The two servers take turns, a
    round each per client count, the order swapped every round, so load from other work
    on the machine weighs on both alike.
    """
    output = args.output or SIDE_BY_SIDE
    client_counts = args.clients or [8, 64, 200]
    seconds = args.seconds or 5.0
    load_at_start = [round(x, 2) for x in os.getloadavg()]
    with tempfile.TemporaryDirectory(prefix="kg-server-vs-oxigraph-") as tmp:
        articles = args.articles or 44
        store = args.graph or build_graph(Path(tmp), articles, args.seed, store=True)
        copy = Path(shutil.copytree(store, Path(tmp) / "oxigraph-copy"))
        kg_process, url = start_server(store, args.workers, args.timeout)
        ox_process, ox_port = start_oxigraph(copy, args.timeout if args.oxigraph_timeout else None)
        servers = {"kg": (urlsplit(url).port or 80, "/sparql"), "oxigraph": (ox_port, "/query")}
        runs: dict[int, dict[str, list[tuple[list[Sample], float]]]] = {}
        try:
            for port, path in servers.values():
                asyncio.run(load("127.0.0.1", port, SIDE_QUERY, 2, 2.0, path))  # warm up
            for clients in client_counts:
                runs[clients] = {name: [] for name in servers}
                for round_ in range(args.rounds):
                    for name in (list(servers) if round_ % 2 == 0 else list(reversed(servers))):
                        port, path = servers[name]
                        runs[clients][name].append(asyncio.run(load("127.0.0.1", port, SIDE_QUERY, clients,
                                                                     seconds, path)))
                print(_side_line(clients, runs[clients]), flush=True)
        finally:
            for process in (kg_process, ox_process):
                process.terminate()
                process.wait(timeout=30)
        triples = _store_triples(store)

    by_clients = {}
    for clients, per_server in runs.items():
        figures = {name: summarize([s for samples, _ in rounds for s in samples], sum(w for _, w in rounds), SIDE_QUERY)
                   for name, rounds in per_server.items()}
        ok = {name: figures[name]["throughput_per_s"] for name in figures}
        ratio = round(ok["kg"] / ok["oxigraph"], 2) if ok["oxigraph"] else None  # type: ignore[operator]
        by_clients[str(clients)] = {**figures, "kg_over_oxigraph": ratio}
    report = {
        "benchmark": "kg serve against oxigraph serve-read-only: one store, one lookup, N keep-alive clients",
        "store": {"articles": None if args.graph else articles, "triples": triples,
                  "source": str(args.graph) if args.graph else f"corpus.py seed {args.seed}"},
        "query": SIDE_QUERY[0][1], "accept": SIDE_QUERY[0][2],
        "kg": {"workers": args.workers, "timeout_s": args.timeout, "max_results": 10_000},
        "oxigraph": {"command": "oxigraph serve-read-only",
                     "timeout_s": max(1, round(args.timeout)) if args.oxigraph_timeout else None},
        "load": {"rounds_each": args.rounds, "seconds_a_round": seconds,
                 "client": "asyncio, one keep-alive HTTP/1.1 connection per client, same machine"},
        "errors": sum(sum(f["errors"].values()) for c in by_clients.values() for n, f in c.items() if n != "kg_over_oxigraph"),
        "by_clients": by_clients,
        "machine": {**machine("rdflib", "pyoxigraph", "oxigraph"), "load_average_at_start": load_at_start},
    }
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    print(f"Wrote {output}")
    return 1 if report["errors"] else 0


def _side_line(clients: int, per_server: dict[str, list[tuple[list[Sample], float]]]) -> str:
    rates = {name: sum(sum(1 for s in samples if s[2] == "ok") for samples, _ in rounds) / sum(w for _, w in rounds)
             for name, rounds in per_server.items()}
    errors = Counter(f"{name}: {s[2]}" for name, rounds in per_server.items() for samples, _ in rounds
                     for s in samples if s[2] != "ok")
    ratio = rates["kg"] / rates["oxigraph"] if rates["oxigraph"] else float("nan")
    return (f"{clients:>4} clients  kg {rates['kg']:7.1f}/s  oxigraph {rates['oxigraph']:7.1f}/s  "
            f"kg/oxigraph {ratio:.2f}  errors {dict(errors) or 0}")


def _store_triples(store: Path) -> int:
    from kg.graph import KnowledgeGraph

    with KnowledgeGraph.open(store, read_only=True) as graph:
        return graph.stats()["triples"]


def _triples(graph: Path) -> int:
    from kg.graph import KnowledgeGraph

    return KnowledgeGraph.load(graph).stats()["triples"]


if __name__ == "__main__":
    sys.exit(main())
