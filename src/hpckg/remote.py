"""Talk to a remote SPARQL 1.1 server: run saved queries, push the graph.

Queries go through the SPARQL 1.1 Protocol (POST, form-encoded) and come back
as the same :class:`~hpckg.queries.QueryResult` the embedded engine gives.
Uploads use the SPARQL 1.1 Graph Store HTTP Protocol: ``PUT`` replaces a graph,
``POST`` merges into it. Nothing here is specific to one server; Oxigraph
(``/query``, ``/store``) and Apache Jena Fuseki (``/<ds>/sparql``, ``/<ds>/data``)
both work.

**How parameters are bound.** Exactly as for the embedded engine: each value
is converted to an RDF term (:func:`hpckg.queries.bind_params`) and written,
escaped, into a ``VALUES`` block opening the query's outermost group pattern
(:func:`hpckg.binding.bind_values`). The remote server receives the same text
the embedded engine runs, so both give the same rows, and a hostile value such
as ``"} ; DELETE WHERE {?s ?p ?o} #`` stays one string literal. The hpckg
prefixes are declared in front, since a remote server does not know them.

>>> from hpckg.queries import adhoc                       # doctest: +SKIP
>>> run_remote("http://localhost:7878/query", adhoc("ASK { ?s a hk:System }")).boolean  # doctest: +SKIP
True
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

import httpx
import pyoxigraph as ox

from .binding import bind_values
from .errors import FetchError, ParameterError, QueryError
from .queries import QueryResult, SavedQuery, bind_params, to_result
from .store import sparql_prefixes

__all__ = ["push_graph", "remote_query", "run_remote"]

DEFAULT_TIMEOUT = 60.0
_IRI_FORBIDDEN = re.compile(r'[\x00-\x20<>"{}|^`\\]')
_ACCEPT = (
    "application/sparql-results+json, application/sparql-results+xml;q=0.9, "
    "application/n-triples;q=0.8, text/turtle;q=0.7"
)
_RESULT_FORMATS = {
    "application/sparql-results+json": ox.QueryResultsFormat.JSON,
    "application/json": ox.QueryResultsFormat.JSON,
    "application/sparql-results+xml": ox.QueryResultsFormat.XML,
}
_GRAPH_FORMATS = {
    "application/n-triples": ox.RdfFormat.N_TRIPLES,
    "text/plain": ox.RdfFormat.N_TRIPLES,
    "text/turtle": ox.RdfFormat.TURTLE,
}


def _iri(value: str) -> str:
    if _IRI_FORBIDDEN.search(value):
        raise ParameterError(f"{value!r} contains a character an IRI may not hold")
    return f"<{value}>"


# -- the SPARQL 1.1 Protocol ---------------------------------------------------------


def _client(client: httpx.Client | None, timeout: float) -> httpx.Client:
    return client if client is not None else httpx.Client(timeout=timeout, follow_redirects=True)


def _refusal(response: httpx.Response) -> str:
    first = (response.text.strip().splitlines() or [""])[0][:300]
    return f"HTTP {response.status_code}" + (f": {first}" if first else "")


def remote_query(
    endpoint: str,
    sparql: str,
    *,
    default_graphs: Sequence[str] = (),
    client: httpx.Client | None = None,
    timeout: float = DEFAULT_TIMEOUT,
) -> QueryResult:
    """Run a complete SPARQL query on a SPARQL 1.1 query endpoint."""
    form: dict[str, Any] = {"query": sparql}
    if default_graphs:
        form["default-graph-uri"] = list(default_graphs)
    http = _client(client, timeout)
    try:
        response = http.post(endpoint, data=form, headers={"Accept": _ACCEPT})
    except httpx.HTTPError as error:
        raise FetchError(f"cannot reach the SPARQL endpoint: {error}", endpoint) from None
    finally:
        if client is None:
            http.close()
    if response.status_code >= 400:
        raise FetchError(f"the endpoint refused the query: {_refusal(response)}", endpoint)
    kind = response.headers.get("content-type", "").split(";")[0].strip().lower()
    try:
        if kind in _RESULT_FORMATS:
            return to_result(ox.parse_query_results(response.content, format=_RESULT_FORMATS[kind]))
        if kind in _GRAPH_FORMATS:
            quads = ox.parse(response.content, format=_GRAPH_FORMATS[kind])
            return QueryResult(triples=[ox.Triple(q.subject, q.predicate, q.object) for q in quads])
    except (SyntaxError, ValueError) as error:
        raise FetchError(f"unreadable {kind} response: {error}", endpoint) from None
    raise FetchError(f"unexpected response type {kind or '(none)'!r}", endpoint)


def run_remote(
    endpoint: str,
    query: SavedQuery,
    values: Mapping[str, str] | None = None,
    *,
    default_graphs: Sequence[str] = (),
    client: httpx.Client | None = None,
    timeout: float = DEFAULT_TIMEOUT,
) -> QueryResult:
    """Run a saved query on a remote endpoint: the remote twin of :func:`hpckg.queries.run_query`."""
    bindings = bind_params(query, values or {})
    try:
        text = bind_values(query.text, bindings)
    except QueryError as error:
        raise QueryError(error.message, query.name) from None
    return remote_query(
        endpoint, sparql_prefixes() + text, default_graphs=default_graphs, client=client, timeout=timeout
    )


# -- the SPARQL 1.1 Graph Store HTTP Protocol ----------------------------------------


def push_graph(
    url: str,
    data: bytes,
    *,
    graph: str | None = None,
    replace: bool = False,
    media_type: str = "application/n-triples",
    client: httpx.Client | None = None,
    timeout: float = DEFAULT_TIMEOUT,
) -> int:
    """Upload ``data`` to a Graph Store Protocol service; returns the HTTP status.

    ``graph`` None targets the default graph (``?default``), else ``?graph=IRI``.
    ``replace`` sends PUT (the graph's old content is dropped), else POST (merge).
    """
    if graph is not None:
        _iri(graph)
        if ":" not in graph:
            raise ParameterError(f"{graph!r} is not an absolute IRI", param="graph")
    target = httpx.URL(url)
    target = target.copy_add_param("graph", graph) if graph is not None else target.copy_add_param("default", "")
    http = _client(client, timeout)
    try:
        response = http.request(
            "PUT" if replace else "POST", target, content=data, headers={"Content-Type": media_type}
        )
    except httpx.HTTPError as error:
        raise FetchError(f"cannot reach the graph store: {error}", url) from None
    finally:
        if client is None:
            http.close()
    if response.status_code >= 400:
        raise FetchError(f"the graph store refused the upload: {_refusal(response)}", url)
    return response.status_code
