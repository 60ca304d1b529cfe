"""What keeps ``kg serve`` read-only and local: the lexical query check, and workers that cannot reach the network."""

from __future__ import annotations

import ipaddress
import re
import socket
import sys
from typing import Any

from kg.errors import QueryError

__all__ = ["OPAQUE", "QueryRefused", "confine_network", "is_loopback", "refusal", "require_read_only"]

#: SPARQL Update operations: none of these words can stand bare in a query.
_UPDATE_WORDS = frozenset({"INSERT", "DELETE", "LOAD", "DROP", "CLEAR", "CREATE", "ADD", "MOVE", "COPY", "WITH"})

#: Tokens whose letters are data, not keywords, in the order the SPARQL grammar tries them:
#: strings, IRIs, comments, variables, prefixed names and blank nodes (ex:load, _:b), language tags.
OPAQUE = re.compile(
    r'"""(?:[^"\\]|\\.|"(?!""))*"""'
    r"|'''(?:[^'\\]|\\.|'(?!''))*'''"
    r'|"(?:[^"\\\n\r]|\\.)*"'
    r"|'(?:[^'\\\n\r]|\\.)*'"
    r'|<[^<>"{}|^`\\\x00-\x20]*>'
    r"|#[^\n\r]*"
    r"|[?$]\w+"
    r"|(?<![\w.\-])(?:[^\W\d][\w.\-]*)?:(?:[\w.\-:%]|\\.)*"
    r"|@[A-Za-z]+(?:-[A-Za-z0-9]+)*",
    re.S,
)

#: A word left once the opaque tokens are blanked out: a keyword, a function name or ``a``.
_BARE_WORD = re.compile(r"(?<!\w)[A-Za-z]+(?!\w)")

#: SPARQL's \\u and \\U escapes, which rdflib expands before parsing anything.
_UNICODE_ESCAPE = re.compile(r"\\u([0-9A-Fa-f]{4})|\\U([0-9A-Fa-f]{8})")


#: Host names that mean this machine, for the DNS-rebinding check.
_LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})


class QueryRefused(QueryError):
    """A request this read-only endpoint never carries out (update, SERVICE, graph writes)."""


def refusal(sparql: str) -> str | None:
    """Why this endpoint refuses a query, or None when it may run.

    A lexical check, so it holds for any backend: outside strings, IRIs and comments,
    a bare update keyword (INSERT, DELETE, LOAD, DROP, CLEAR, CREATE, ADD, MOVE, COPY,
    WITH) or ``SERVICE`` cannot belong to a read-only query. The text is checked both
    as sent and with SPARQL's ``\\u`` escapes expanded, since rdflib expands them first.

    >>> refusal('SELECT ?load WHERE { ?s <http://x/service> "drop" }') is None
    True
    >>> refusal("DROP ALL")
    'this endpoint is read-only: SPARQL Update (DROP) is refused'
    """
    for text in _readings(sparql):
        words = {w.upper() for w in _BARE_WORD.findall(OPAQUE.sub(" ", text))}
        # federated queries would make this server fetch from other hosts
        if "SERVICE" in words:
            return "SERVICE clauses are refused: this endpoint never queries other hosts"
        # any update operation: the endpoint never writes
        updates = sorted(words & _UPDATE_WORDS)
        if updates:
            return f"this endpoint is read-only: SPARQL Update ({', '.join(updates)}) is refused"
    return None


def require_read_only(sparql: str) -> None:
    """Raise :class:`QueryRefused` with the reason when :func:`refusal` has one."""
    reason = refusal(sparql)
    if reason:
        raise QueryRefused(reason)


def _readings(sparql: str) -> tuple[str, ...]:
    expanded = _UNICODE_ESCAPE.sub(lambda m: chr(int(m.group(1) or m.group(2), 16)), sparql)
    return (sparql,) if expanded == sparql else (sparql, expanded)


def confine_network(allowed_host: str | None) -> None:
    """Refuse every network connection from this process, loopback included, except to a remote store's host.

    rdflib would fetch ``SERVICE`` endpoints and ``FROM <url>`` graphs from the web;
    the lexical check refuses SERVICE with a clear message, and this makes sure no
    other path through Python code (a parser quirk, a backend feature) reaches the
    network, or a service on this machine, either. Oxigraph's engine is native code
    that Python's audit hooks do not see; it fetches nothing but SERVICE, which the
    lexical check refuses before a query reaches it.
    """
    import rdflib.plugins.sparql

    rdflib.plugins.sparql.SPARQL_LOAD_GRAPHS = False  # FROM <iri> names a graph in the store, never a download
    names = {allowed_host} if allowed_host else set()
    addresses = _resolve(allowed_host) if allowed_host else set()

    def hook(event: str, args: tuple[Any, ...]) -> None:
        # name lookups are the first step of any web fetch
        if event == "socket.getaddrinfo" and args[0] not in names:
            raise PermissionError(f"kg serve workers do not look up {args[0]!r}")
        # internet connections; Unix sockets (string addresses) are local
        if event == "socket.connect" and isinstance(args[1], tuple):
            host = str(args[1][0])
            if host not in addresses:
                raise PermissionError(f"kg serve workers do not connect to {host}")

    sys.addaudithook(hook)


def _resolve(host: str) -> set[str]:
    try:
        return {str(info[4][0]) for info in socket.getaddrinfo(host, None)}
    except OSError:
        return set()


def is_loopback(host: Any) -> bool:
    if isinstance(host, bytes):
        host = host.decode("ascii", "replace")
    if not isinstance(host, str):
        return False
    if host.lower() in _LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False

