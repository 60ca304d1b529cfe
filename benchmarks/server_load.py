"""Load test for ``kg serve``: many concurrent clients on loopback for a bounded time.

Builds a graph from the fictional corpus (``corpus.py``; or takes ``--graph``),
starts the real ``kg serve`` on a free loopback port, and runs ``--clients``
concurrent clients (asyncio, one keep-alive HTTP/1.1 connection each) for
``--seconds``. Each client sends a mix of read queries (lookups, an ASK, a count,
a CONSTRUCT and a DESCRIBE, as CSV, JSON, XML, Turtle and JSON-LD) one after
another; then, as long again, only ``ASK {}``, to show the server's own ceiling.
Reports throughput, latency percentiles and every error (there should be none), and
writes ``benchmarks/results/server_load.json`` with the machine described.

    .venv/bin/python benchmarks/server_load.py                  # 200 clients, 20 s
    .venv/bin/python benchmarks/server_load.py --clients 50 --seconds 5 --articles 20
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import select
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from urllib.parse import quote, urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parent))
import corpus  # noqa: E402
from _machine import machine  # noqa: E402

RESULTS = Path(__file__).resolve().parent / "results" / "server_load.json"

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

Mix = tuple[tuple[str, str, str], ...]
Sample = tuple[str, float, str]


def build_graph(folder: Path, articles: int, seed: int) -> Path:
    """A graph of ``articles`` fictional articles, built by the real ``kg build``."""
    source = corpus.write_jsonl(folder / "corpus.jsonl", articles, seed)
    graph = folder / "graph.trig"
    subprocess.run([sys.executable, "-m", "kg", "build", str(source), "-o", str(graph), "--no-progress"],
                   check=True, stdout=subprocess.DEVNULL)
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


def request_bytes(host: str, port: int, query: str, accept: str) -> bytes:
    return (f"GET /sparql?query={quote(query)} HTTP/1.1\r\nHost: {host}:{port}\r\n"
            f"Accept: {accept}\r\nUser-Agent: kg-server-load\r\n\r\n").encode("ascii")


async def exchange(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, payload: bytes) -> tuple[int, bool]:
    """Send one request, read the whole response: (status, whether the server closes the connection)."""
    writer.write(payload)
    await writer.drain()
    status_line = await reader.readline()
    if not status_line:
        raise ConnectionError("connection closed before a response")
    status = int(status_line.split()[1])
    length, closing = 0, False
    while True:
        line = await reader.readline()
        if line in (b"\r\n", b"\n", b""):
            break
        name, _, value = line.decode("latin-1").partition(":")
        if name.strip().lower() == "content-length":
            length = int(value)
        elif name.strip().lower() == "connection" and value.strip().lower() == "close":
            closing = True
    await reader.readexactly(length)
    return status, closing


async def client(index: int, host: str, port: int, mix: Mix, stop_at: float, samples: list[Sample]) -> None:
    """One client: a keep-alive connection, queries one after another until the time is up."""
    payloads = [(label, request_bytes(host, port, query, accept)) for label, query, accept in mix]
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


async def load(host: str, port: int, mix: Mix, clients: int, seconds: float) -> tuple[list[Sample], float]:
    """Run ``clients`` clients for ``seconds``; every answer's (label, seconds, outcome) and the wall time.

    Wall time runs until the last answer, so requests still in flight at the end count.
    """
    samples: list[Sample] = []
    started = time.monotonic()
    await asyncio.gather(*(client(i, host, port, mix, started + seconds, samples) for i in range(clients)))
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
    parser.add_argument("--articles", type=int, default=100, help="Fictional articles to build the graph from.")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--clients", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--workers", type=int, default=max(2, min(4, os.cpu_count() or 2)))
    parser.add_argument("--timeout", type=float, default=10.0, help="kg serve's per-query time limit.")
    parser.add_argument("-o", "--output", type=Path, default=RESULTS)
    args = parser.parse_args(argv)

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
        "server": {"workers": args.workers, "timeout_s": args.timeout, "http": "http.server.ThreadingHTTPServer"},
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


def _triples(graph: Path) -> int:
    from kg.graph import KnowledgeGraph

    return KnowledgeGraph.load(graph).stats()["triples"]


if __name__ == "__main__":
    sys.exit(main())
