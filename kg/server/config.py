"""How ``kg serve`` listens and what it limits: one frozen value the CLI fills and every part reads."""

from __future__ import annotations

import os
from dataclasses import dataclass

__all__ = ["DEFAULT_PORT", "ServerConfig"]

DEFAULT_PORT = 8765
"""The port ``kg serve`` listens on unless told (Fuseki has 3030, Oxigraph 7878)."""

@dataclass(frozen=True)
class ServerConfig:
    """How ``kg serve`` listens and what it limits.

    Attributes:
        host: Address to bind; loopback unless the user says otherwise.
        port: TCP port (0 picks a free one).
        timeout: Seconds a query may run before its worker is killed.
        max_results: Rows (or triples) returned at most; the rest are cut.
        workers: Worker processes, each holding the graph; queries beyond them wait.
        max_request_bytes: Largest request body accepted (413 beyond).
        max_connections: Open connections served at once (503 beyond).
        quiet: Do not log each request on stderr.
    """

    host: str = "127.0.0.1"
    port: int = DEFAULT_PORT
    timeout: float = 10.0
    max_results: int = 10_000
    workers: int = max(2, min(4, os.cpu_count() or 2))
    max_request_bytes: int = 1 << 20
    max_connections: int = 512
    quiet: bool = False

