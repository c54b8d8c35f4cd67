"""Run one query on the store under a deadline and a row cap, and serialise it.

Queries run in a small pool of worker threads (pyoxigraph releases the GIL while
it evaluates, so the event loop keeps serving). The caller stops waiting at the
deadline and answers 503. pyoxigraph cannot cancel a running query, so:

* a query still queued when its deadline passes never starts;
* a streaming query (no ORDER BY, GROUP BY or DISTINCT over everything) stops at
  the next row after the deadline, because rows are pulled one at a time here;
* a query stuck in one blocking step (sorting or aggregating a huge
  intermediate result) finishes in the background, holding one worker thread.
  The pool is bounded, so such queries cannot pile up without limit; while all
  workers are busy, new queries wait and may time out themselves.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import pyoxigraph as ox

from ..namespaces import PREFIXES
from ..results import term_to_json
from .protocol import MediaType

__all__ = ["Outcome", "QueryFailed", "QueryTimeout", "RowCapExceeded", "evaluate", "render"]


class QueryTimeout(Exception):
    """The query ran past its deadline."""


class RowCapExceeded(Exception):
    """The query produced more rows (or triples) than the server's cap."""

    def __init__(self, cap: int) -> None:
        self.cap = cap
        super().__init__(f"the result has more than {cap} rows, the server's limit: add a LIMIT or narrow the query")


class QueryFailed(Exception):
    """The query parsed but could not be evaluated (bad dataset IRI, type error ...)."""


@dataclass
class Outcome:
    """A fully read result: solutions (variables + rows), a boolean, or triples."""

    kind: str  # "solutions" | "boolean" | "triples"
    variables: list[str] = field(default_factory=list)
    rows: list[tuple[Any, ...]] = field(default_factory=list)
    boolean: bool = False
    triples: list[ox.Triple] = field(default_factory=list)


def _graphs(iris: Sequence[str], which: str) -> list[ox.NamedNode]:
    try:
        return [ox.NamedNode(iri) for iri in iris]
    except ValueError as error:
        raise QueryFailed(f"bad {which} IRI: {error}") from None


def evaluate(
    store: ox.Store,
    text: str,
    *,
    deadline: float,
    max_rows: int,
    default_graphs: Sequence[str] = (),
    named_graphs: Sequence[str] = (),
) -> Outcome:
    """Run ``text`` and read the whole result, checking the deadline and cap per row.

    ``SyntaxError`` from the parser propagates unchanged (the caller tells a
    malformed query from a refused update). With no ``default_graphs`` the
    default graph is the union of all graphs, as in :meth:`Dataset.query`.
    """
    if time.monotonic() > deadline:
        raise QueryTimeout
    options: dict[str, Any] = {"prefixes": PREFIXES}
    if default_graphs:
        options["default_graph"] = _graphs(default_graphs, "default-graph-uri")
    else:
        options["use_default_graph_as_union"] = True
    if named_graphs:
        options["named_graphs"] = _graphs(named_graphs, "named-graph-uri")
    try:
        result = store.query(text, **options)
    except (ValueError, RuntimeError, OSError, TypeError) as error:
        raise QueryFailed(str(error)) from None
    if isinstance(result, ox.QueryBoolean):
        return Outcome("boolean", boolean=bool(result))
    if isinstance(result, ox.QuerySolutions):
        variables = [v.value for v in result.variables]
        rows, problem = _read(result, deadline, max_rows, lambda s: tuple(s[v] for v in variables))
        outcome = Outcome("solutions", variables=variables, rows=rows)
    else:
        triples, problem = _read(result, deadline, max_rows, lambda t: t)
        outcome = Outcome("triples", triples=triples)
    # pyoxigraph result iterators must be dropped on the thread that made them,
    # so drop it here before raising: a traceback would carry it elsewhere.
    del result
    if problem == "timeout":
        raise QueryTimeout
    if problem == "cap":
        raise RowCapExceeded(max_rows)
    if problem is not None:
        raise QueryFailed(problem)
    return outcome


def _read(items: Any, deadline: float, cap: int, convert: Callable[[Any], Any]) -> tuple[list[Any], str | None]:
    """The items, and None or why reading stopped early ("timeout", "cap" or a message)."""
    out: list[Any] = []
    try:
        for item in items:
            if len(out) >= cap:
                return out, "cap"
            if time.monotonic() > deadline:
                return out, "timeout"
            out.append(convert(item))
    except (ValueError, RuntimeError, OSError, TypeError) as error:
        return out, str(error) or type(error).__name__
    return out, None


def _results_json(outcome: Outcome) -> bytes:
    if outcome.kind == "boolean":
        doc: dict[str, Any] = {"head": {}, "boolean": outcome.boolean}
    else:
        names = outcome.variables
        bindings = [
            {n: term_to_json(t) for n, t in zip(names, row, strict=True) if t is not None} for row in outcome.rows
        ]
        doc = {"head": {"vars": names}, "results": {"bindings": bindings}}
    return json.dumps(doc, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def render(outcome: Outcome, media: MediaType) -> bytes:
    """Serialise an outcome in ``media`` (a result format or an RDF format)."""
    fmt = media.format
    if outcome.kind == "triples":
        if not isinstance(fmt, ox.RdfFormat):
            raise TypeError(f"{media.name} is not an RDF format")
        prefixes = PREFIXES if fmt == ox.RdfFormat.TURTLE else None
        return ox.serialize(outcome.triples, format=fmt, prefixes=prefixes) or b""
    if not isinstance(fmt, ox.QueryResultsFormat):
        raise TypeError(f"{media.name} is not a query results format")
    data = _results_json(outcome)
    if fmt == ox.QueryResultsFormat.JSON:
        return data
    # pyoxigraph owns the W3C XML/CSV/TSV writers; feed them the JSON just built.
    parsed = ox.parse_query_results(data, format=ox.QueryResultsFormat.JSON)
    return parsed.serialize(format=fmt) or b""
