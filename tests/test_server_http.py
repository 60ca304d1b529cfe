"""kg serve's HTTP/1.1 on a real socket: keep-alive, requests sent back to back, HTTP/1.0, HEAD, 100-continue, bad requests.

The server runs in this process (make_server, its workers real processes) over a
graph file written here; the tests speak raw HTTP over a socket, as clients other
than urllib do.
"""

from __future__ import annotations

import re
import socket
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from rdflib import Dataset, Literal, URIRef

from kg.server import ServerConfig, SparqlServer, make_server

ASK = "/sparql?query=ASK%7B%7D"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SparqlServer]:
    dataset = Dataset(default_union=True)
    dataset.graph(URIRef("urn:kg:a")).add((URIRef("urn:kg:p"), URIRef("https://schema.org/name"), Literal("Ana")))
    path = Path(tmp_path_factory.mktemp("http")) / "graph.trig"
    dataset.serialize(path, format="trig")
    server = make_server(str(path), ServerConfig(port=0, workers=1, timeout=5, quiet=True))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.close()
        thread.join(timeout=10)


def exchange(server: SparqlServer, data: bytes, *, then: bytes = b"", seconds: float = 5.0) -> bytes:
    """Send ``data`` (and ``then`` once something came back), read until the server closes or goes quiet."""
    with socket.create_connection(server.server_address[:2], timeout=seconds) as sock:
        sock.sendall(data)
        received = b""
        try:
            while chunk := sock.recv(65536):
                received += chunk
                if then:
                    sock.sendall(then)
                    then = b""
        except socket.timeout:
            pass
    return received


def statuses(raw: bytes) -> list[int]:
    """The status of each answer in ``raw`` (an answer may follow a body that ends without a line break)."""
    return [int(code) for code in re.findall(rb"HTTP/1\.1 (\d{3}) [A-Z]", raw)]


def test_requests_sent_back_to_back_are_answered_in_order(server: SparqlServer) -> None:
    raw = exchange(server, (f"GET {ASK} HTTP/1.1\r\nHost: localhost\r\n\r\n"
                            f"GET {ASK}&format=xml HTTP/1.1\r\nHost: localhost\r\n\r\n"
                            "GET /nowhere HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n").encode())
    assert statuses(raw) == [200, 200, 404]
    assert raw.index(b'"boolean": true') < raw.index(b"<boolean>true</boolean>") < raw.index(b"no such path")
    assert raw.count(b"Connection: close") == 1  # kept alive until asked to close


def test_http_1_0_closes_after_the_answer(server: SparqlServer) -> None:
    raw = exchange(server, f"GET {ASK} HTTP/1.0\r\n\r\n".encode())
    assert statuses(raw) == [200] and b"Connection: close" in raw


def test_head_gets_headers_without_a_body(server: SparqlServer) -> None:
    raw = exchange(server, b"HEAD / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
    head, _, body = raw.partition(b"\r\n\r\n")
    assert statuses(raw) == [501] and b"Content-Length: " in head and body == b""


def test_expect_100_continue_gets_the_go_ahead(server: SparqlServer) -> None:
    query = b"ASK {}"
    raw = exchange(server, b"POST /sparql HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/sparql-query\r\n"
                   b"Expect: 100-continue\r\nConnection: close\r\nContent-Length: " + str(len(query)).encode()
                   + b"\r\n\r\n", then=query)
    assert raw.startswith(b"HTTP/1.1 100 Continue\r\n\r\n") and statuses(raw) == [100, 200]


@pytest.mark.parametrize(
    ("request_bytes", "status"),
    [
        (b"NONSENSE\r\n\r\n", 400),
        (b"GET / HTTP/2.0\r\n\r\n", 400),
        (b"GET / HTTP/1.1\r\nno colon here\r\n\r\n", 400),
        (b"POST /sparql HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n", 411),
        (b"GET /" + b"x" * 70_000 + b" HTTP/1.1\r\n\r\n", 414),
        (b"GET / HTTP/1.1\r\n" + b"X-Filler: " + b"y" * 60_000 + b"\r\n" + b"X-More: " + b"y" * 270_000, 431),
    ],
    ids=["no-request-line", "http-2", "bad-header", "chunked-body", "long-line", "huge-headers"],
)
def test_bad_requests_get_one_line_and_a_closed_connection(server: SparqlServer, request_bytes: bytes,
                                                          status: int) -> None:
    raw = exchange(server, request_bytes)
    head, _, body = raw.partition(b"\r\n\r\n")
    assert statuses(raw) == [status] and b"Connection: close" in head and body.count(b"\n") == 1


def test_the_server_still_answers(server: SparqlServer) -> None:
    answer = exchange(server, f"GET {ASK} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n".encode())
    assert statuses(answer) == [200]
