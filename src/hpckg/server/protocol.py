"""SPARQL 1.1 Protocol: read a query request, negotiate the response format.

Only the query operation is served; the endpoint is read-only. A request may
carry its query three ways (SPARQL 1.1 Protocol, section 2.1):

* ``GET /sparql?query=...``
* ``POST /sparql`` with ``application/x-www-form-urlencoded`` body ``query=...``
* ``POST /sparql`` with an ``application/sparql-query`` body (the query itself)

``default-graph-uri`` and ``named-graph-uri`` are honoured (they become the
query's RDF dataset). An update (``update=`` or ``application/sparql-update``)
is refused with :class:`ProtocolError` status 403.

>>> negotiate("text/csv;q=0.5, application/sparql-results+json", RESULT_TYPES).name
'json'
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from urllib.parse import parse_qsl

import pyoxigraph as ox

__all__ = [
    "FORMAT_ALIASES",
    "GRAPH_TYPES",
    "RESULT_TYPES",
    "MediaType",
    "ProtocolError",
    "QueryRequest",
    "looks_like_update",
    "negotiate",
    "parse_request",
]

READ_ONLY = "this endpoint is read-only: SPARQL Update is refused"


class ProtocolError(Exception):
    """A request the endpoint answers with an HTTP error: ``status`` and a one-line message."""

    def __init__(self, status: int, message: str) -> None:
        self.status = status
        self.message = message
        super().__init__(message)


@dataclass(frozen=True)
class MediaType:
    """One response format: its short name, media type and pyoxigraph format."""

    name: str
    media_type: str
    format: ox.QueryResultsFormat | ox.RdfFormat

    @property
    def content_type(self) -> str:
        # JSON and XML define their own encoding; the text formats need the charset.
        textual = self.media_type.startswith("text/") or self.media_type == "application/n-triples"
        return f"{self.media_type}; charset=utf-8" if textual else self.media_type


_JSON = MediaType("json", "application/sparql-results+json", ox.QueryResultsFormat.JSON)
_XML = MediaType("xml", "application/sparql-results+xml", ox.QueryResultsFormat.XML)
_CSV = MediaType("csv", "text/csv", ox.QueryResultsFormat.CSV)
_TSV = MediaType("tsv", "text/tab-separated-values", ox.QueryResultsFormat.TSV)
_TURTLE = MediaType("turtle", "text/turtle", ox.RdfFormat.TURTLE)
_NTRIPLES = MediaType("ntriples", "application/n-triples", ox.RdfFormat.N_TRIPLES)
_JSONLD = MediaType("jsonld", "application/ld+json", ox.RdfFormat.JSON_LD)

# Media type accepted in Accept -> format; the first entry is the default.
RESULT_TYPES: dict[str, MediaType] = {
    "application/sparql-results+json": _JSON,
    "application/json": _JSON,
    "application/sparql-results+xml": _XML,
    "text/csv": _CSV,
    "text/tab-separated-values": _TSV,
    "application/xml": _XML,
    "text/xml": _XML,
}
GRAPH_TYPES: dict[str, MediaType] = {
    "text/turtle": _TURTLE,
    "application/x-turtle": _TURTLE,
    "application/n-triples": _NTRIPLES,
    "text/plain": _NTRIPLES,
    "application/ld+json": _JSONLD,
    "application/json": _JSONLD,
}
# ``?format=`` overrides Accept (handy in a browser address bar).
FORMAT_ALIASES: dict[str, tuple[MediaType | None, MediaType | None]] = {
    "json": (_JSON, _JSONLD),
    "xml": (_XML, None),
    "csv": (_CSV, None),
    "tsv": (_TSV, None),
    "turtle": (None, _TURTLE),
    "ttl": (None, _TURTLE),
    "ntriples": (None, _NTRIPLES),
    "nt": (None, _NTRIPLES),
    "jsonld": (None, _JSONLD),
}


@dataclass(frozen=True)
class QueryRequest:
    """A parsed protocol request: the query text and its RDF dataset, if given."""

    query: str
    default_graphs: tuple[str, ...] = ()
    named_graphs: tuple[str, ...] = ()
    format: str | None = None


def _one(pairs: Sequence[tuple[str, str]], key: str) -> str | None:
    values = [v for k, v in pairs if k == key]
    if len(values) > 1:
        raise ProtocolError(400, f"the '{key}' parameter is given {len(values)} times; give it once")
    return values[0] if values else None


def _media_type(content_type: str | None) -> str:
    return (content_type or "").split(";")[0].strip().lower()


def parse_request(method: str, query_string: str, content_type: str | None, body: bytes) -> QueryRequest:
    """Read the query and dataset of a SPARQL 1.1 Protocol request.

    Raises :class:`ProtocolError` (400 missing or repeated query, 403 update,
    415 unsupported body type, 405 other methods).
    """
    url_pairs = parse_qsl(query_string, keep_blank_values=True)
    if method == "GET":
        pairs = url_pairs
        query = _one(pairs, "query")
    elif method == "POST":
        kind = _media_type(content_type)
        if kind == "application/sparql-update":
            raise ProtocolError(403, READ_ONLY)
        if kind == "application/x-www-form-urlencoded":
            try:
                text = body.decode("utf-8")
            except UnicodeDecodeError:
                raise ProtocolError(400, "the form body is not UTF-8") from None
            pairs = url_pairs + parse_qsl(text, keep_blank_values=True)
            query = _one(pairs, "query")
        elif kind == "application/sparql-query":
            pairs = url_pairs
            if _one(pairs, "query") is not None:
                raise ProtocolError(400, "an application/sparql-query body must not also carry a 'query' parameter")
            try:
                query = body.decode("utf-8")
            except UnicodeDecodeError:
                raise ProtocolError(400, "the query body is not UTF-8") from None
        else:
            raise ProtocolError(
                415,
                f"unsupported request body type {kind or '(none)'!r}: use application/sparql-query "
                "or application/x-www-form-urlencoded",
            )
    else:
        raise ProtocolError(405, f"method {method} is not allowed: use GET or POST")
    if any(k in ("update", "using-graph-uri", "using-named-graph-uri") for k, _ in pairs):
        raise ProtocolError(403, READ_ONLY)
    if query is None or not query.strip():
        raise ProtocolError(400, "missing SPARQL query: pass it as the 'query' parameter")
    return QueryRequest(
        query=query,
        default_graphs=tuple(v for k, v in pairs if k == "default-graph-uri"),
        named_graphs=tuple(v for k, v in pairs if k == "named-graph-uri"),
        format=_one(pairs, "format"),
    )


_PROLOGUE = re.compile(
    r"""\A(?:\s+|\#[^\n]*\n?|(?i:BASE)\s*<[^>]*>|(?i:PREFIX)\s*[\w.-]*:\s*<[^>]*>)*""",
)
_UPDATE_KEYWORD = re.compile(r"(?i:INSERT|DELETE|LOAD|CLEAR|CREATE|DROP|COPY|MOVE|ADD|WITH)\b")


def looks_like_update(text: str) -> bool:
    """True when ``text`` (which failed to parse as a query) starts like a SPARQL Update.

    Only called after the query parser rejected the text, so it never lets an
    update through: it just picks the clearer error message.
    """
    rest = text[_PROLOGUE.match(text).end() :]  # type: ignore[union-attr]
    return _UPDATE_KEYWORD.match(rest) is not None


def _accept_entries(accept: str) -> list[tuple[str, float, int]]:
    entries = []
    for index, part in enumerate(accept.split(",")):
        pieces = [p.strip() for p in part.split(";")]
        kind = pieces[0].lower()
        if not kind:
            continue
        quality = 1.0
        for piece in pieces[1:]:
            key, _, value = piece.partition("=")
            if key.strip().lower() == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        entries.append((kind, quality, index))
    return entries


def negotiate(accept: str | None, table: Mapping[str, MediaType]) -> MediaType | None:
    """The best format of ``table`` for an Accept header; None when nothing fits.

    Higher q wins, then the more specific range, then the client's order, then
    the table's order (its first entry is the default for ``*/*`` and no header).
    """
    default = next(iter(table.values()))
    if not accept or not accept.strip():
        return default
    best: tuple[float, int, int, int] | None = None
    chosen: MediaType | None = None
    order = list(table)
    for kind, quality, index in _accept_entries(accept):
        if quality <= 0:
            continue
        if kind == "*/*":
            candidates = [(order[0], 0)]
        elif kind.endswith("/*"):
            candidates = [(m, 1) for m in order if m.startswith(kind[:-1])][:1]
        elif kind in table:
            candidates = [(kind, 2)]
        else:
            candidates = []
        for media, specificity in candidates:
            key = (quality, specificity, -index, -order.index(media))
            if best is None or key > best:
                best, chosen = key, table[media]
    return chosen
