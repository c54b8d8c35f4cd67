"""Format query results: a terminal table, CSV, TSV and SPARQL 1.1 Results JSON."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

import pyoxigraph as ox

from .namespaces import PREFIXES
from .queries import QueryResult

__all__ = ["FORMATS", "format_result", "results_json", "term_to_json", "term_text"]

FORMATS = ("table", "csv", "tsv", "json")
_XSD_STRING = "http://www.w3.org/2001/XMLSchema#string"


def term_text(term: Any, compact: bool = True) -> str:
    """A term as a reader wants it: literals by value, IRIs as prefixed names."""
    if term is None:
        return ""
    if isinstance(term, ox.NamedNode):
        if compact:
            for prefix, iri in sorted(PREFIXES.items(), key=lambda kv: -len(kv[1])):
                if term.value.startswith(iri) and "/" not in term.value[len(iri) :]:
                    return f"{prefix}:{term.value[len(iri) :]}"
        return term.value
    return str(term.value)


def term_to_json(term: Any) -> dict[str, str]:
    """One binding in SPARQL 1.1 Query Results JSON."""
    if isinstance(term, ox.NamedNode):
        return {"type": "uri", "value": term.value}
    if isinstance(term, ox.BlankNode):
        return {"type": "bnode", "value": term.value}
    out = {"type": "literal", "value": term.value}
    if term.language:
        out["xml:lang"] = term.language
    elif term.datatype.value != _XSD_STRING:
        out["datatype"] = term.datatype.value
    return out


def results_json(result: QueryResult) -> str:
    if result.boolean is not None:
        return json.dumps({"head": {}, "boolean": result.boolean}, indent=2)
    bindings = [
        {c: term_to_json(t) for c, t in zip(result.columns, row, strict=True) if t is not None} for row in result.rows
    ]
    return json.dumps(
        {"head": {"vars": result.columns}, "results": {"bindings": bindings}}, indent=2, ensure_ascii=False
    )


def _tsv_term(term: Any) -> str:
    return "" if term is None else str(term)


def format_result(result: QueryResult, fmt: str) -> str:
    """Render a result in one of :data:`FORMATS`."""
    if fmt == "json":
        return results_json(result) + "\n"
    if result.triples is not None:
        return "".join(f"{t.subject} {t.predicate} {t.object} .\n" for t in result.triples)
    if result.boolean is not None:
        return ("true" if result.boolean else "false") + "\n"
    if fmt == "csv":
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\r\n")
        writer.writerow(result.columns)
        for row in result.rows:
            writer.writerow([term_text(t, compact=False) for t in row])
        return buffer.getvalue()
    if fmt == "tsv":
        lines = ["\t".join("?" + c for c in result.columns)]
        lines += ["\t".join(_tsv_term(t) for t in row) for row in result.rows]
        return "\n".join(lines) + "\n"
    return _table(result)


def _table(result: QueryResult) -> str:
    from rich.console import Console
    from rich.table import Table

    table = Table(*result.columns, show_lines=False)
    for row in result.rows:
        table.add_row(*[term_text(t) for t in row])
    console = Console(width=200, record=True, file=io.StringIO())
    console.print(table)
    console.print(f"{len(result.rows)} row(s)")
    return console.export_text()
