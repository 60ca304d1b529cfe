"""kg serve: a real ``kg serve`` process answers SPARQLWrapper in every format, refuses writes, stops runaway queries.

The module builds one graph with ``kg build`` from a short article written here and
starts ``kg serve`` on it once, on a free loopback port, with a 2 s time limit and
a 50-row result cap; the protocol tests then talk to it over HTTP.
"""

from __future__ import annotations

import asyncio
import csv
import http.client
import io
import json
import re
import select
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rdflib import Dataset, Graph, Literal, Namespace, URIRef
from rdflib.util import from_n3
from SPARQLWrapper import CSV, JSON, POST, POSTDIRECTLY, TSV, TURTLE, URLENCODED, XML, SPARQLWrapper

from kg import queries
from kg.graph import KnowledgeGraph
from kg.server import (
    QueryRefused,
    QueryResult,
    ServerConfig,
    choose_format,
    make_runner,
    make_server,
    refusal,
    render,
)

SDO = Namespace("https://schema.org/")
PERSON = Namespace("https://w3id.org/kg/id/person/")

TIMEOUT = 2.0
MAX_RESULTS = 50

ARTICLE = """Harbor Lights Festival opens in Lisbon

The singer Mara Quill will perform her song "Salt Road" at the Harbor Lights Festival in Lisbon on Friday.

"I wrote it on a night ferry," Quill said. "Every crossing felt like a rehearsal."

The festival director, Tomas Reyes, said the line-up was the strongest in years. "We sold out in a week," Reyes said.

"Never trust a page that shows <script>alert('x')</script> as code," Quill added.
"""

#: Every triple against every triple, four times over: far past any time limit on a few hundred triples.
RUNAWAY = "SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i . ?j ?k ?l . ?m ?n2 ?o }"

NAMES = """PREFIX schema: <https://schema.org/>
SELECT ?person ?name WHERE { ?person a schema:Person ; schema:name ?name } ORDER BY ?name"""

PEOPLE_GRAPH = """PREFIX schema: <https://schema.org/>
CONSTRUCT { ?person schema:name ?name } WHERE { ?person a schema:Person ; schema:name ?name }"""


# --- the running server ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def graph_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The article's graph, built by the real ``kg build``."""
    folder = tmp_path_factory.mktemp("serve")
    (folder / "harbor.txt").write_text(ARTICLE, encoding="utf-8")
    target = folder / "graph.ttl"
    subprocess.run([sys.executable, "-m", "kg", "build", str(folder / "harbor.txt"), "-o", str(target)],
                   check=True, capture_output=True, timeout=300)
    return target


def start_server(graph: Path | str, *args: str) -> tuple[subprocess.Popen[str], str]:
    """Start ``kg serve`` on a free loopback port; returns the process and its base URL."""
    process = subprocess.Popen(
        [sys.executable, "-m", "kg", "serve", str(graph), "--port", "0", "--quiet", *args],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        ready, _, _ = select.select([process.stdout], [], [], 1.0)
        if ready:
            line = process.stdout.readline()  # type: ignore[union-attr]
            if line.startswith("Serving"):
                return process, line.split(" at ")[1].split()[0]
        if process.poll() is not None:
            break
    process.kill()
    raise AssertionError(f"kg serve did not start: {process.stderr.read()}")  # type: ignore[union-attr]


def stop_server(process: subprocess.Popen[str]) -> None:
    """SIGTERM, as a service manager would; the server stops its workers and exits."""
    process.terminate()
    try:
        process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        process.kill()
        raise


@pytest.fixture(scope="module")
def server(graph_file: Path) -> Iterator[tuple[subprocess.Popen[str], str]]:
    process, url = start_server(graph_file, "--timeout", str(TIMEOUT), "--max-results", str(MAX_RESULTS),
                                "--workers", "2")
    try:
        yield process, url
    finally:
        stop_server(process)


@pytest.fixture(scope="module")
def base(server: tuple[subprocess.Popen[str], str]) -> str:
    return server[1]


@pytest.fixture
def endpoint(base: str) -> str:
    return base + "sparql"


def wrapper(endpoint: str, query: str, fmt: str, *, conneg_only: bool = False) -> SPARQLWrapper:
    client = SPARQLWrapper(endpoint)
    client.setQuery(query)
    client.setReturnFormat(fmt)
    client.setOnlyConneg(conneg_only)
    client.setTimeout(30)
    return client


def request(url: str, data: bytes | None = None, headers: dict[str, str] | None = None,
            method: str | None = None) -> tuple[int, dict[str, str], bytes]:
    """Status, headers and body of one HTTP request; 4xx and 5xx are returned, not raised."""
    req = urllib.request.Request(url, data=data, headers=headers or {}, method=method)
    try:
        with urllib.request.urlopen(req, timeout=30) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as err:
        return err.code, dict(err.headers), err.read()


def get(endpoint: str, query: str, accept: str | None = None, **params: str) -> tuple[int, dict[str, str], bytes]:
    url = endpoint + "?" + urllib.parse.urlencode({"query": query, **params})
    return request(url, headers={"Accept": accept} if accept else {})


# --- SPARQLWrapper, each result format ----------------------------------------------------------


@pytest.mark.parametrize("conneg_only", [False, True], ids=["format-param", "accept-only"])
def test_select_as_sparql_json(endpoint: str, conneg_only: bool) -> None:
    rows = wrapper(endpoint, queries.load("quotes"), JSON, conneg_only=conneg_only).queryAndConvert()
    said = {(b["speaker"]["value"], b["text"]["value"]) for b in rows["results"]["bindings"] if "speaker" in b}
    assert ("Mara Quill", "I wrote it on a night ferry,") in said
    assert ("Tomas Reyes", "We sold out in a week,") in said
    assert rows["head"]["vars"][:2] == ["speaker", "text"]


@pytest.mark.parametrize("conneg_only", [False, True], ids=["format-param", "accept-only"])
def test_select_as_sparql_xml(endpoint: str, conneg_only: bool) -> None:
    document = wrapper(endpoint, NAMES, XML, conneg_only=conneg_only).queryAndConvert()
    names = [b.getElementsByTagName("literal")[0].firstChild.data
             for b in document.getElementsByTagName("binding") if b.getAttribute("name") == "name"]
    assert names == ["Mara Quill", "Tomas Reyes"]


@pytest.mark.parametrize("conneg_only", [False, True], ids=["format-param", "accept-only"])
def test_select_as_csv(endpoint: str, conneg_only: bool) -> None:
    body = wrapper(endpoint, NAMES, CSV, conneg_only=conneg_only).queryAndConvert()
    rows = list(csv.reader(io.StringIO(body.decode("utf-8"))))
    assert rows == [["person", "name"], [str(PERSON["mara-quill"]), "Mara Quill"],
                    [str(PERSON["tomas-reyes"]), "Tomas Reyes"]]


@pytest.mark.parametrize("conneg_only", [False, True], ids=["format-param", "accept-only"])
def test_select_as_tsv(endpoint: str, conneg_only: bool) -> None:
    body = wrapper(endpoint, NAMES, TSV, conneg_only=conneg_only).queryAndConvert()
    lines = body.decode("utf-8").splitlines()
    assert lines[0] == "?person\t?name"
    assert lines[1] == f'<{PERSON["mara-quill"]}>\t"Mara Quill"'


@pytest.mark.parametrize("conneg_only", [False, True], ids=["format-param", "accept-only"])
def test_construct_as_turtle(endpoint: str, conneg_only: bool) -> None:
    body = wrapper(endpoint, PEOPLE_GRAPH, TURTLE, conneg_only=conneg_only).queryAndConvert()
    graph = Graph().parse(data=body.decode("utf-8"), format="turtle")
    assert set(graph) == {(PERSON["mara-quill"], SDO.name, Literal("Mara Quill")),
                          (PERSON["tomas-reyes"], SDO.name, Literal("Tomas Reyes"))}


def test_ask_as_json(endpoint: str) -> None:
    query = 'PREFIX schema: <https://schema.org/> ASK { ?p schema:name "Mara Quill" }'
    assert wrapper(endpoint, query, JSON).queryAndConvert() == {"head": {}, "boolean": True}


@pytest.mark.parametrize("method", [URLENCODED, POSTDIRECTLY], ids=["form", "sparql-query-body"])
def test_post_queries(endpoint: str, method: str) -> None:
    client = wrapper(endpoint, NAMES, JSON)
    client.setMethod(POST)
    client.setRequestMethod(method)
    names = [b["name"]["value"] for b in client.queryAndConvert()["results"]["bindings"]]
    assert names == ["Mara Quill", "Tomas Reyes"]


@pytest.mark.parametrize(("accept", "fmt"), [("application/ld+json", "json-ld"), ("application/n-triples", "nt")])
def test_construct_as_jsonld_and_ntriples(endpoint: str, accept: str, fmt: str) -> None:
    status, headers, body = get(endpoint, PEOPLE_GRAPH, accept)
    assert status == 200 and headers["Content-Type"].startswith(accept)
    graph = Graph().parse(data=body.decode("utf-8"), format=fmt)
    assert (PERSON["tomas-reyes"], SDO.name, Literal("Tomas Reyes")) in graph


def test_accept_quality_values_choose_the_format(endpoint: str) -> None:
    status, headers, body = get(endpoint, NAMES, "text/csv;q=0.4, text/tab-separated-values;q=0.9")
    assert status == 200 and headers["Content-Type"].startswith("text/tab-separated-values")
    assert body.decode().startswith("?person\t?name")


def test_named_query_by_name(endpoint: str) -> None:
    status, _, body = get(endpoint, "quotes", format="json")
    texts = {b["text"]["value"] for b in json.loads(body)["results"]["bindings"]}
    assert status == 200 and "Every crossing felt like a rehearsal." in texts


# --- read-only, limits, errors --------------------------------------------------------------------


def test_update_through_sparqlwrapper_is_refused(endpoint: str) -> None:
    client = wrapper(endpoint, 'INSERT DATA { <urn:x:a> <https://schema.org/name> "Intruder" }', JSON)
    client.setMethod(POST)
    with pytest.raises(urllib.error.HTTPError) as refused:
        client.query()
    assert refused.value.code == 403
    assert b"read-only" in refused.value.read()
    asked = wrapper(endpoint, 'ASK { ?s ?p "Intruder" }', JSON).queryAndConvert()
    assert asked["boolean"] is False


@pytest.mark.parametrize(
    ("how", "message"),
    [
        ("update-param", b"read-only"),
        ("update-body", b"read-only"),
        ("load", b"LOAD"),
        ("drop", b"DROP"),
        ("insert-where", b"INSERT"),
        ("service", b"SERVICE"),
        ("escaped-service", b"SERVICE"),
        ("put", b"read-only"),
    ],
)
def test_writes_and_outside_calls_are_refused(endpoint: str, how: str, message: bytes) -> None:
    form = {"Content-Type": "application/x-www-form-urlencoded"}
    cases = {
        "update-param": lambda: request(endpoint + "?" + urllib.parse.urlencode({"update": "DROP ALL"})),
        "update-body": lambda: request(endpoint, b"DROP ALL", {"Content-Type": "application/sparql-update"}),
        "load": lambda: request(endpoint, urllib.parse.urlencode({"query": "LOAD <http://example.org/g>"}).encode(), form),
        "drop": lambda: get(endpoint, "DROP SILENT ALL"),
        "insert-where": lambda: get(endpoint, "INSERT { ?s ?p 1 } WHERE { ?s ?p ?o }"),
        "service": lambda: get(endpoint, "SELECT * WHERE { SERVICE <http://example.org/sparql> { ?s ?p ?o } }"),
        "escaped-service": lambda: get(endpoint, "SELECT * WHERE { \\u0053ERVICE <http://example.org/q> { ?s ?p ?o } }"),
        "put": lambda: request(endpoint, b"<urn:a> <urn:b> <urn:c> .", {"Content-Type": "text/turtle"}, "PUT"),
    }
    status, _, body = cases[how]()
    assert 400 <= status < 500
    assert message in body


def test_result_cap_cuts_rows_and_says_so(endpoint: str) -> None:
    status, headers, body = get(endpoint, "SELECT * WHERE { ?s ?p ?o }", "application/sparql-results+json")
    assert status == 200
    assert len(json.loads(body)["results"]["bindings"]) == MAX_RESULTS
    assert headers["X-KG-Truncated"] == "true" and headers["X-KG-Max-Results"] == str(MAX_RESULTS)
    status, headers, _ = get(endpoint, NAMES)
    assert headers["X-KG-Truncated"] == "false"


def test_request_size_cap(base: str) -> None:
    host, port = urllib.parse.urlsplit(base).hostname, urllib.parse.urlsplit(base).port
    connection = http.client.HTTPConnection(host, port, timeout=30)
    connection.putrequest("POST", "/sparql")
    connection.putheader("Content-Type", "application/sparql-query")
    connection.putheader("Content-Length", str(2 << 20))
    connection.endheaders()
    response = connection.getresponse()
    assert response.status == 413
    assert b"over the limit" in response.read()
    connection.close()


def test_foreign_host_header_is_refused(endpoint: str) -> None:
    status, _, body = request(endpoint + "?query=ASK%7B%7D", headers={"Host": "attacker.example:80"})
    assert status == 403 and b"loopback" in body


@pytest.mark.parametrize(
    ("query", "accept", "status", "message"),
    [
        ("SELECT ?x WHERE { ?x ", None, 400, b"SPARQL "),
        ("", None, 400, b"exactly one SPARQL query"),
        (NAMES, "text/turtle", 406, b"offered"),
        (NAMES + "", "application/sparql-results+json", 200, b"Mara Quill"),
    ],
    ids=["syntax-error", "empty", "not-acceptable", "ok"],
)
def test_errors_are_one_line_4xx(endpoint: str, query: str, accept: str | None, status: int, message: bytes) -> None:
    got, headers, body = get(endpoint, query, accept)
    assert got == status and message in body
    if status >= 400:
        assert headers["Content-Type"].startswith("text/plain") and body.count(b"\n") == 1


def test_unknown_path_is_404(base: str) -> None:
    assert request(base + "admin")[0] == 404


def test_runaway_query_is_stopped_while_others_are_served(endpoint: str) -> None:
    outcome: dict[str, object] = {}

    def runaway() -> None:
        started = time.monotonic()
        outcome["status"], _, outcome["body"] = get(endpoint, RUNAWAY)
        outcome["seconds"] = time.monotonic() - started

    thread = threading.Thread(target=runaway)
    thread.start()
    time.sleep(0.5)
    status, _, body = get(endpoint, NAMES, "application/sparql-results+json")
    assert status == 200 and b"Tomas Reyes" in body
    # answered while the runaway still runs: it did not wait for it
    assert thread.is_alive() and "status" not in outcome, "another query waited for the runaway one"
    thread.join(timeout=60)  # a hang guard: the request itself gives up after 30 s
    assert outcome["status"] == 503 and b"time limit" in outcome["body"]  # type: ignore[operator]
    assert outcome["seconds"] >= TIMEOUT  # type: ignore[operator]  # stopped at the limit, not before
    # the killed worker is replaced: the server keeps answering, twice in a row
    for _ in range(2):
        assert get(endpoint, NAMES)[0] == 200


def test_binds_loopback_by_default(server: tuple[subprocess.Popen[str], str]) -> None:
    url = urllib.parse.urlsplit(server[1])
    assert url.hostname == "127.0.0.1"
    table = Path("/proc/net/tcp")
    if not table.exists():
        pytest.skip("no /proc/net/tcp to read listening sockets from")
    listening = [line.split()[1] for line in table.read_text().splitlines()[1:] if line.split()[3] == "0A"]
    assert f"0100007F:{url.port:04X}" in listening
    assert f"00000000:{url.port:04X}" not in listening


@pytest.mark.slow
def test_stops_on_sigterm_with_its_workers(graph_file: Path) -> None:
    process, url = start_server(graph_file, "--workers", "2")
    assert get(url + "sparql", "ASK {}")[0] == 200
    children = Path(f"/proc/{process.pid}/task/{process.pid}/children")
    # the worker processes (multiprocessing's resource tracker, also a child, leaves on its own)
    workers = [pid for pid in (children.read_text().split() if children.exists() else [])
               if b"spawn_main" in Path(f"/proc/{pid}/cmdline").read_bytes()]
    assert len(workers) == 2 or not children.exists()
    stop_server(process)
    assert process.returncode == 0
    assert not [pid for pid in workers if Path(f"/proc/{pid}").exists()], "worker processes outlived the server"
    with pytest.raises(urllib.error.URLError):
        urllib.request.urlopen(url + "sparql?query=ASK%7B%7D", timeout=5)


@pytest.mark.slow
def test_serves_a_store_folder_from_every_worker(graph_file: Path) -> None:
    """Each worker opens the on-disk store read-only; queries and the time limit work the same."""
    store = graph_file.parent / "store"
    subprocess.run([sys.executable, "-m", "kg", "build", str(graph_file.parent / "harbor.txt"), "--store", str(store)],
                   check=True, capture_output=True, timeout=300)
    process, url = start_server(store, "--workers", "2", "--timeout", str(TIMEOUT))
    try:
        endpoint = url + "sparql"
        names = [b["name"]["value"] for b in wrapper(endpoint, NAMES, JSON).queryAndConvert()["results"]["bindings"]]
        assert names == ["Mara Quill", "Tomas Reyes"]
        status, _, body = get(endpoint, RUNAWAY)  # the request's own 30 s timeout is the hang guard
        assert status == 503 and b"time limit" in body
        assert get(endpoint, "SELECT * WHERE { SERVICE <http://example.org/sparql> { ?s ?p ?o } }")[0] == 403
        assert get(endpoint, NAMES)[0] == 200
    finally:
        stop_server(process)


@pytest.mark.slow
def test_serves_a_sparql_server_url(endpoint: str) -> None:
    """A SPARQL URL as GRAPH: here the module's own kg serve; the workers may reach that host only."""
    process, url = start_server(endpoint, "--workers", "2")
    try:
        rows = wrapper(url + "sparql", NAMES, CSV).queryAndConvert().decode("utf-8").splitlines()
        assert rows == ["person,name", f"{PERSON['mara-quill']},Mara Quill", f"{PERSON['tomas-reyes']},Tomas Reyes"]
        assert get(url + "sparql", "DROP ALL")[0] == 403
    finally:
        stop_server(process)


# --- the parts, in process ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "query",
    [
        'SELECT ?load ?drop WHERE { ?load <http://ex.org/service> "insert delete" } # DROP ALL',
        "PREFIX load: <http://ex.org/> SELECT * WHERE { ?s load:drop ?o ; load:service.x ?y }",
        'SELECT * WHERE { ?s ?p """with\nSERVICE <x> {}""" . ?s ?q "copy"@en }',
        "ASK { _:clear ?p ?o FILTER(?o < 3 && ?o > 1) }",
        "DESCRIBE <http://ex.org/add>",
    ],
)
def test_refusal_lets_read_only_queries_through(query: str) -> None:
    assert refusal(query) is None


@pytest.mark.parametrize(
    ("query", "word"),
    [
        ("INSERT DATA { <a:b> <a:c> 1 }", "INSERT"),
        ("delete where { ?s ?p ?o }", "DELETE"),
        ("LOAD <http://example.org/data.ttl>", "LOAD"),
        ("CLEAR DEFAULT", "CLEAR"),
        ("CREATE GRAPH <urn:g>", "CREATE"),
        ("ADD DEFAULT TO <urn:g>", "ADD"),
        ("WITH <urn:g> DELETE { ?s ?p ?o } WHERE { ?s ?p ?o }", "DELETE"),
        ("SELECT * { ?s ?p ?o .SERVICE <http://evil.example/> { ?s ?p ?o } }", "SERVICE"),
        ("SELECT * { FILTER(?a < ?b) SERVICE <http://evil.example/> {} FILTER(?c > ?d) }", "SERVICE"),
        ("SELECT * { \\u0053ERVICE <http://evil.example/> {} }", "SERVICE"),
        ("SELECT * { ?s ?p ?o } ; DROP ALL", "DROP"),
    ],
)
def test_refusal_catches_updates_and_service(query: str, word: str) -> None:
    reason = refusal(query)
    assert reason is not None and word in reason


def _tiny_graph() -> KnowledgeGraph:
    dataset = Dataset(default_union=True)
    graph = dataset.graph(URIRef("urn:kg:test"))
    for i in range(5):
        graph.add((URIRef(f"urn:kg:p{i}"), SDO.name, Literal(f"Person {i}")))
    graph.add((URIRef("urn:kg:q"), SDO.text, Literal('tab\there "quoted" \\ <b>bold</b>\nnext\x01line', lang="en")))
    return KnowledgeGraph(dataset)


def test_runner_caps_results_and_refuses_updates() -> None:
    run = make_runner(_tiny_graph(), max_results=3)
    capped = run("SELECT ?s WHERE { ?s <https://schema.org/name> ?n }")
    assert capped.kind == "SELECT" and len(capped.rows) == 3 and capped.truncated
    whole = run("SELECT ?s WHERE { ?s <https://schema.org/text> ?t }")
    assert whole.rows == ((URIRef("urn:kg:q"),),) and not whole.truncated
    assert run("ASK { ?s ?p ?o }").boolean is True
    graph = run("CONSTRUCT { ?s ?p ?o } WHERE { ?s ?p ?o }")
    assert graph.kind == "CONSTRUCT" and len(graph.triples) == 3 and graph.truncated
    with pytest.raises(QueryRefused):
        run("DELETE WHERE { ?s ?p ?o }")


def test_hostile_literal_in_every_results_format() -> None:
    run = make_runner(_tiny_graph(), max_results=10)
    result = run("SELECT ?t WHERE { ?q <https://schema.org/text> ?t }")
    text = 'tab\there "quoted" \\ <b>bold</b>\nnext\x01line'
    parsed = json.loads(render(result, "json"))
    assert parsed["results"]["bindings"][0]["t"] == {"type": "literal", "value": text, "xml:lang": "en"}
    assert list(csv.reader(io.StringIO(render(result, "csv").decode(), newline="")))[1] == [text]
    tsv = render(result, "tsv").decode().split("\n")
    assert tsv[1] == '"tab\\there \\"quoted\\" \\\\ <b>bold</b>\\nnext\x01line"@en'
    xml = render(result, "xml").decode()
    assert "&lt;b&gt;bold&lt;/b&gt;" in xml and "\x01" not in xml and "\ufffd" in xml
    from xml.dom.minidom import parseString

    assert parseString(xml.encode()).getElementsByTagName("literal")[0].getAttribute("xml:lang") == "en"


@pytest.mark.parametrize(
    ("kind", "accept", "fmt", "expected"),
    [
        ("SELECT", None, None, ("application/sparql-results+json", "json")),
        ("SELECT", "text/*", None, ("text/csv", "csv")),
        ("ASK", "application/xml", None, ("application/xml", "xml")),
        ("SELECT", "text/html", "tsv", ("text/tab-separated-values", "tsv")),
        ("CONSTRUCT", "*/*", None, ("text/turtle", "turtle")),
        ("DESCRIBE", "application/sparql-results+json, application/ld+json;q=0.5", None,
         ("application/ld+json", "json-ld")),
        ("CONSTRUCT", None, "xml", ("application/rdf+xml", "xml")),
    ],
)
def test_content_negotiation(kind: str, accept: str | None, fmt: str | None, expected: tuple[str, str]) -> None:
    assert choose_format(kind, accept, fmt) == expected


def test_empty_select_renders_in_every_format() -> None:
    empty = QueryResult("SELECT", variables=("x",))
    assert json.loads(render(empty, "json")) == {"head": {"vars": ["x"]}, "results": {"bindings": []}}
    assert render(empty, "csv") == b"x\r\n"
    assert render(empty, "tsv") == b"?x\n"
    assert b"<results>\n</results>" in render(empty, "xml")


def test_workers_cannot_reach_the_network() -> None:
    """Whatever gets past the query check, a worker process opens no connection, not even to this machine."""
    probe = (
        "import socket, urllib.request\n"
        "from kg.server.readonly import confine_network\n"
        "confine_network(None)\n"
        "for attempt in (lambda: urllib.request.urlopen('http://example.org/', timeout=2),\n"
        "                lambda: socket.socket().connect(('192.0.2.1', 80)),\n"
        "                lambda: socket.socket().connect(('127.0.0.1', 9))):\n"
        "    try:\n"
        "        attempt()\n"
        "    except Exception as err:\n"
        "        print(repr(err))\n"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60)
    lines = out.stdout.splitlines()
    assert len(lines) == 3, out.stdout + out.stderr
    assert "PermissionError(\"kg serve workers do not look up 'example.org'\")" in lines[0]
    assert lines[1] == "PermissionError('kg serve workers do not connect to 192.0.2.1')"
    assert lines[2] == "PermissionError('kg serve workers do not connect to 127.0.0.1')"


def test_queries_go_to_the_worker_in_the_order_they_came() -> None:
    """A busy worker's queries wait, and go to it oldest first, each as soon as it answers the one before."""
    from kg.server.pool import WorkerPool, _Worker

    class Pipe:
        """A worker's pipe that records what it is sent and answers "ok" (the pool's side is what is tested)."""

        def __init__(self) -> None:
            self.sent: list[str] = []

        def send(self, query: tuple[str, object, object]) -> None:
            self.sent.append(query[0])

        def recv(self) -> tuple[str, None]:
            return ("ok", None)

    async def scenario() -> tuple[list[list[str]], list[str]]:
        pool = WorkerPool("unused", workers=1, timeout=30, max_results=1)
        pipe = Pipe()
        worker = _Worker(None, pipe)
        pool._ready.append(worker)
        pool._loop = asyncio.get_running_loop()  # no pipe to watch: answers are read by calling _answered
        asked = []
        for index in range(4):
            asked.append(asyncio.create_task(pool.run(f"q{index}")))
            await asyncio.sleep(0.01)  # arrive in order
        seen = [list(pipe.sent)]
        for _ in range(4):
            pool._answered(worker)
            seen.append(list(pipe.sent))
        await asyncio.gather(*asked)
        return seen, pipe.sent

    seen, sent = asyncio.run(scenario())
    assert seen[:4] == [["q0"], ["q0", "q1"], ["q0", "q1", "q2"], ["q0", "q1", "q2", "q3"]]
    assert sent == ["q0", "q1", "q2", "q3"]


def test_long_error_messages_stay_one_short_line(endpoint: str) -> None:
    status, _, body = get(endpoint, "SELECT * WHERE { ?s ?p " + "?o . " * 2000 + "!!")
    assert status == 400 and body.endswith(b"\n") and body.count(b"\n") == 1 and len(body) <= 1010


def test_overlong_url_is_refused(endpoint: str) -> None:
    status, _, _ = get(endpoint, "SELECT * WHERE { ?s ?p ?o } #" + "x" * 70_000)
    assert status == 414


def test_page_is_served_with_a_strict_policy(base: str) -> None:
    status, headers, body = request(base)
    page = body.decode("utf-8")
    assert status == 200 and headers["Content-Type"] == "text/html; charset=utf-8"
    policy = headers["Content-Security-Policy"]
    assert "default-src 'none'" in policy and "script-src 'sha256-" in policy and "connect-src 'self'" in policy
    assert "unsafe-inline" not in policy and "http" not in policy
    settings = page.split('<script type="application/json" id="kg-settings">')[1].split("</script>")[0]
    assert "<" not in settings  # nothing in the data can close the block
    assert [e["name"] for e in json.loads(settings)["examples"]] == queries.names()
    assert "__KG_SETTINGS__" not in page
    assert re.search(r"""(src|href|url)\s*[=(]\s*["']?(https?:)?//""", page) is None  # nothing loaded from elsewhere


def _sparql_string(text: str) -> str:
    for raw, escaped in (("\\", "\\\\"), ('"', '\\"'), ("\n", "\\n"), ("\r", "\\r")):
        text = text.replace(raw, escaped)
    return f'"{text}"'


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=60))
def test_hostile_text_in_a_literal_is_data_not_a_keyword(text: str) -> None:
    assert refusal(f"SELECT ?s WHERE {{ ?s ?p {_sparql_string(text)} }}") is None


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=60))
def test_hostile_text_round_trips_through_every_results_format(text: str) -> None:
    term = Literal(text)
    result = QueryResult("SELECT", variables=("t",), rows=((term,),))
    assert json.loads(render(result, "json"))["results"]["bindings"][0]["t"]["value"] == text
    assert list(csv.reader(io.StringIO(render(result, "csv").decode("utf-8"), newline="")))[1] == [text]
    cell = render(result, "tsv").decode("utf-8").split("\n")[1]
    assert "\t" not in cell and from_n3(cell) == term


def test_connection_cap_and_busy_workers(graph_file: Path) -> None:
    """One worker, two connections: the third connection is turned away, a queued query gives up at the limit."""
    server = make_server(str(graph_file), ServerConfig(port=0, workers=1, timeout=1.0, max_connections=2, quiet=True))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    endpoint = server.url + "sparql"
    try:
        runaway = threading.Thread(target=get, args=(endpoint, RUNAWAY))
        runaway.start()
        time.sleep(0.3)
        started = time.monotonic()
        status, headers, body = get(endpoint, NAMES)  # waits for the one worker, which the runaway holds
        assert status == 503 and b"busy" in body and headers["Retry-After"] == "1"
        assert time.monotonic() - started >= 0.9  # it waited for the worker up to the limit, not less
        runaway.join(timeout=10)

        held = [socket.create_connection(("127.0.0.1", server.server_address[1])) for _ in range(2)]
        time.sleep(0.2)
        status, _, body = get(endpoint, "ASK {}")
        assert status == 503 and b"too many open connections" in body
        for sock in held:
            sock.close()
    finally:
        server.shutdown()
        server.close()
