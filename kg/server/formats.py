"""Content negotiation and the result formats: SPARQL JSON, XML, CSV and TSV results, and RDF graphs."""

from __future__ import annotations

import csv
import io
import json
import re
from xml.sax.saxutils import escape as xml_escape
from xml.sax.saxutils import quoteattr

import pyoxigraph as ox
from rdflib import BNode, Literal
from rdflib.term import Node

from kg.errors import KgError
from kg.server.results import QueryResult, Term

__all__ = ["NotAcceptable", "choose_format", "render", "utf8"]

#: pyoxigraph's term classes and the kind of term each is in SPARQL results.
_OX_KINDS: dict[type, str] = {ox.NamedNode: "uri", ox.BlankNode: "bnode", ox.Literal: "literal"}
_XSD_STRING = "http://www.w3.org/2001/XMLSchema#string"

#: pyoxigraph terms written as SPARQL JSON, kept up to :data:`_JSON_TERMS_KEPT` of them (then begun again).
_JSON_TERMS: dict[Term, str] = {}
_JSON_TERMS_KEPT = 100_000

#: A JSON string literal of a str, non-ASCII kept (what ``json.dumps(..., ensure_ascii=False)`` writes).
_quote = json.encoder.encode_basestring  # type: ignore[attr-defined]

#: Lone UTF-16 surrogates: a Python string can hold them, UTF-8 cannot.
_SURROGATE = re.compile("[\ud800-\udfff]")

#: Characters XML 1.0 cannot carry at all, not even as character references.
_XML_INVALID = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")

#: Result media types for SELECT/ASK, the default first: (media type, serializer name).
_RESULT_TYPES = (
    ("application/sparql-results+json", "json"),
    ("application/sparql-results+xml", "xml"),
    ("text/csv", "csv"),
    ("text/tab-separated-values", "tsv"),
    ("application/json", "json"),
    ("application/xml", "xml"),
    ("text/xml", "xml"),
)

#: Graph media types for CONSTRUCT/DESCRIBE, the default first: (media type, rdflib format).
_GRAPH_TYPES = (
    ("text/turtle", "turtle"),
    ("application/ld+json", "json-ld"),
    ("application/n-triples", "nt"),
    ("application/rdf+xml", "xml"),
    ("application/x-turtle", "turtle"),
    ("application/turtle", "turtle"),
    ("application/json", "json-ld"),
    ("text/plain", "nt"),
)

#: ``format=`` (or ``output=``) values: short name -> (results serializer, graph format).
_FORMAT_PARAM = {
    "json": ("json", "json-ld"),
    "xml": ("xml", "xml"),
    "csv": ("csv", None),
    "tsv": ("tsv", None),
    "turtle": (None, "turtle"),
    "ttl": (None, "turtle"),
    "json-ld": (None, "json-ld"),
    "jsonld": (None, "json-ld"),
    "nt": (None, "nt"),
    "ntriples": (None, "nt"),
    "n-triples": (None, "nt"),
    "rdf": (None, "xml"),
    "rdfxml": (None, "xml"),
    "rdf+xml": (None, "xml"),
}

class NotAcceptable(KgError):
    """No offered media type matches the request."""


def choose_format(kind: str, accept: str | None, fmt: str | None = None) -> tuple[str, str]:
    """Pick the response media type and serializer for a result kind.

    ``format=`` (or ``output=``) wins over the Accept header; without either, SELECT
    and ASK get SPARQL JSON and CONSTRUCT/DESCRIBE get Turtle.

    Returns:
        ``(media type, serializer)``: json/xml/csv/tsv for results, an rdflib format for graphs.

    Raises:
        NotAcceptable: Nothing offered matches (the message lists what is).

    >>> choose_format("SELECT", "text/csv;q=0.5, application/sparql-results+xml")
    ('application/sparql-results+xml', 'xml')
    >>> choose_format("CONSTRUCT", None, "json")
    ('application/ld+json', 'json-ld')
    """
    is_graph = kind in ("CONSTRUCT", "DESCRIBE")
    offered = _GRAPH_TYPES if is_graph else _RESULT_TYPES
    if fmt:
        return _by_format_param(fmt.strip().lower(), offered, is_graph)
    for wanted in _accepted(accept or "*/*"):
        for media, serializer in offered:
            if _matches(wanted, media):
                return media, serializer
    choices = ", ".join(dict.fromkeys(m for m, _ in offered))
    raise NotAcceptable(f"cannot answer a {kind} query as {accept!r}; offered: {choices}")


def _by_format_param(fmt: str, offered: tuple[tuple[str, str], ...], is_graph: bool) -> tuple[str, str]:
    # a full media type is accepted as a format value too
    for media, serializer in offered:
        if fmt == media:
            return media, serializer
    results_name, graph_name = _FORMAT_PARAM.get(fmt, (None, None))
    serializer = graph_name if is_graph else results_name
    if serializer is None:
        valid = sorted(k for k, (r, g) in _FORMAT_PARAM.items() if (g if is_graph else r))
        kind = "CONSTRUCT/DESCRIBE" if is_graph else "SELECT/ASK"
        raise NotAcceptable(f"format {fmt!r} does not suit a {kind} query; use one of {', '.join(valid)}")
    media = next(m for m, s in offered if s == serializer)
    return media, serializer


def _accepted(accept: str) -> list[str]:
    """Media ranges of an Accept header, best first (q=0 ranges dropped, order kept among equals)."""
    ranked = []
    for position, part in enumerate(accept.split(",")):
        media, _, params = part.partition(";")
        quality = 1.0
        for param in params.split(";"):
            name, _, value = param.partition("=")
            if name.strip().lower() == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        if media.strip() and quality > 0:
            ranked.append((-quality, position, media.strip().lower()))
    return [media for _, _, media in sorted(ranked)]


def _matches(wanted: str, media: str) -> bool:
    if wanted in ("*/*", "*"):
        return True
    if wanted.endswith("/*"):
        return media.startswith(wanted[:-1])
    return wanted == media


def render(result: QueryResult, serializer: str) -> bytes:
    """Serialize a QueryResult: SPARQL results (json/xml/csv/tsv) or a graph (an rdflib format)."""
    if result.kind in ("CONSTRUCT", "DESCRIBE"):
        return _graph_bytes(result, serializer)
    return {"json": _results_json, "xml": _results_xml, "csv": _results_csv, "tsv": _results_tsv}[serializer](result)


def utf8(text: str) -> bytes:
    """UTF-8 bytes; a lone surrogate (possible in a parsed literal, impossible in UTF-8) becomes U+FFFD."""
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        return _SURROGATE.sub("\ufffd", text).encode("utf-8")


def _results_json(result: QueryResult) -> bytes:
    """SPARQL JSON results, written as text piece by piece: a dict per term for ``json.dumps`` cost twice as much."""
    if result.kind == "ASK":
        return b'{"head": {}, "boolean": ' + (b"true" if result.boolean else b"false") + b"}"
    names = [_quote(name) + ": " for name in result.variables]
    if len(_JSON_TERMS) > _JSON_TERMS_KEPT:
        _JSON_TERMS.clear()
    bindings = ", ".join(
        "{" + ", ".join(name + _json_term(term) for name, term in zip(names, row) if term is not None) + "}"
        for row in result.rows
    )
    head = ", ".join(_quote(name) for name in result.variables)
    return utf8(f'{{"head": {{"vars": [{head}]}}, "results": {{"bindings": [{bindings}]}}}}')


def _parts(term: Term) -> tuple[str, str, str | None, str | None]:
    """``(kind, value, language, datatype)`` of an rdflib or pyoxigraph term; kind is uri, bnode or literal.

    A pyoxigraph string literal loses its ``xsd:string`` datatype, as it does when read
    into rdflib (:func:`kg.rdf.store.from_ox_result`): the answer is the same either way.
    """
    kind = _OX_KINDS.get(type(term))
    if kind == "literal":
        language = term.language  # type: ignore[union-attr]
        datatype = None if language else term.datatype.value  # type: ignore[union-attr]
        return kind, term.value, language, None if datatype == _XSD_STRING else datatype  # type: ignore[union-attr]
    if kind is not None:
        return kind, term.value, None, None  # type: ignore[union-attr]
    if isinstance(term, Literal):
        return "literal", str(term), term.language, str(term.datatype) if term.datatype else None
    return ("bnode" if isinstance(term, BNode) else "uri"), str(term), None, None


def _json_term(term: Term) -> str:
    """A term as SPARQL JSON; pyoxigraph's terms are written once and kept (the same people recur in answer after answer)."""
    known = _JSON_TERMS.get(term) if type(term) in _OX_KINDS else None
    if known is not None:
        return known
    kind, value, language, datatype = _parts(term)
    if language:
        text = f'{{"type": "literal", "value": {_quote(value)}, "xml:lang": {_quote(language)}}}'
    elif datatype:
        text = f'{{"type": "literal", "value": {_quote(value)}, "datatype": {_quote(datatype)}}}'
    else:
        text = f'{{"type": "{kind}", "value": {_quote(value)}}}'
    if type(term) in _OX_KINDS:
        _JSON_TERMS[term] = text
    return text


def _results_xml(result: QueryResult) -> bytes:
    out = ['<?xml version="1.0" encoding="utf-8"?>\n<sparql xmlns="http://www.w3.org/2005/sparql-results#">']
    if result.kind == "ASK":
        out.append(f"<head/><boolean>{'true' if result.boolean else 'false'}</boolean>")
    else:
        out.append("<head>" + "".join(f"<variable name={quoteattr(v)}/>" for v in result.variables) + "</head>")
        out.append("<results>")
        for row in result.rows:
            cells = "".join(
                f"<binding name={quoteattr(name)}>{_xml_term(term)}</binding>"
                for name, term in zip(result.variables, row)
                if term is not None
            )
            out.append(f"<result>{cells}</result>")
        out.append("</results>")
    out.append("</sparql>\n")
    return utf8("\n".join(out))


def _xml_term(term: Term) -> str:
    kind, value, language, datatype = _parts(term)
    if kind != "literal":
        return f"<{kind}>{xml_escape(_xml_text(value))}</{kind}>"
    attrs = ""
    if language:
        attrs = f" xml:lang={quoteattr(language)}"
    elif datatype:
        attrs = f" datatype={quoteattr(_xml_text(datatype))}"
    return f"<literal{attrs}>{xml_escape(_xml_text(value))}</literal>"


def _xml_text(text: str) -> str:
    """Replace the characters XML 1.0 cannot carry with U+FFFD (the other formats keep them)."""
    return _XML_INVALID.sub("\ufffd", text)


def _results_csv(result: QueryResult) -> bytes:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    if result.kind == "ASK":
        writer.writerows([["_askResult"], ["true" if result.boolean else "false"]])
    else:
        writer.writerow(result.variables)
        writer.writerows([_csv_term(term) for term in row] for row in result.rows)
    return utf8(buffer.getvalue())


def _csv_term(term: Term | None) -> str:
    if term is None:
        return ""
    kind, value, _, _ = _parts(term)
    return f"_:{value}" if kind == "bnode" else value


def _results_tsv(result: QueryResult) -> bytes:
    if result.kind == "ASK":
        return f"?_askResult\n{'true' if result.boolean else 'false'}\n".encode()
    lines = ["\t".join(f"?{v}" for v in result.variables)]
    lines += ["\t".join("" if term is None else _nt_term(term) for term in row) for row in result.rows]
    return utf8("\n".join(lines) + "\n")


def _nt_term(term: Term) -> str:
    """A term in N-Triples syntax, with tabs and line breaks escaped so TSV cells stay one cell."""
    kind, value, language, datatype = _parts(term)
    if kind == "uri":
        return f"<{value}>"
    if kind == "bnode":
        return f"_:{value}"
    for raw, escaped in (("\\", "\\\\"), ('"', '\\"'), ("\n", "\\n"), ("\r", "\\r"), ("\t", "\\t")):
        value = value.replace(raw, escaped)
    if language:
        return f'"{value}"@{language}'
    return f'"{value}"^^<{datatype}>' if datatype else f'"{value}"'


def _graph_bytes(result: QueryResult, fmt: str) -> bytes:
    from rdflib import Graph

    from kg.rdf.namespaces import bind_prefixes
    from kg.rdf.serialize import JSONLD_CONTEXT
    from kg.rdf.store import from_ox

    graph = bind_prefixes(Graph())
    for triple in result.triples:
        graph.add(tuple(term if isinstance(term, Node) else from_ox(term) for term in triple))  # type: ignore[arg-type]
    options = {"context": JSONLD_CONTEXT, "auto_compact": True} if fmt == "json-ld" else {}
    return graph.serialize(format=fmt, encoding="utf-8", **options)

