"""Bind query parameters as RDF terms.

pyoxigraph's ``substitutions`` follow SEP-0007 and only replace variables that
appear in the SELECT projection, which rules out parameters used in FILTERs of
aggregate queries. So hpckg binds every parameter the standard SPARQL 1.1 way: an
inline ``VALUES`` block opening the outermost group pattern. Each value is
serialised as an RDF term by pyoxigraph (N-Triples escaping), so user input is
always one term and never becomes query syntax; ``"} ; DELETE WHERE {?s ?p ?o} #"``
stays a string literal. The same text runs unchanged on any SPARQL 1.1 endpoint,
which is why the embedded and remote engines give the same rows.

A parameter is one constant throughout the query. A sub-SELECT does not see the
bindings of the group around it, so every sub-SELECT whose pattern mentions a
parameter opens with its own VALUES block for it: a parameter can filter rows
before a sub-SELECT groups or de-duplicates them.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import pyoxigraph as ox

from .errors import QueryError

__all__ = ["bind_values", "term_sparql"]

_VAR = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_FORM = re.compile(r"\b(SELECT|CONSTRUCT|ASK|DESCRIBE)\b", re.IGNORECASE)


def term_sparql(term: Any) -> str:
    """A term in SPARQL/N-Triples syntax, escaped by pyoxigraph."""
    if isinstance(term, (ox.NamedNode, ox.Literal)):
        return str(term)
    raise QueryError(f"cannot bind {term!r}: only IRIs and literals can be parameters")


def _mask(text: str) -> str:
    """The query with comments, strings and IRIs blanked out, same length."""
    out = list(text)
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == "#":
            j = text.find("\n", i)
            j = n if j < 0 else j
        elif text.startswith(('"""', "'''"), i):
            j = text.find(text[i : i + 3], i + 3)
            j = n if j < 0 else j + 3
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
        elif c == "<" and re.match(r"<[^\s<>\"{}|^`\\]*>", text[i:]):
            j = i + re.match(r"<[^\s<>\"{}|^`\\]*>", text[i:]).end()  # type: ignore[union-attr]
        else:
            i += 1
            continue
        for k in range(i, j):
            if out[k] != "\n":
                out[k] = " "
        i = j
    return "".join(out)


def _first_brace(masked: str, start: int) -> int:
    """The first ``{`` at parenthesis depth 0 from ``start`` (skips ``(EXISTS {...} AS ?x)``)."""
    depth = 0
    for i in range(start, len(masked)):
        c = masked[i]
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
        elif c == "{" and depth == 0:
            return i
    raise QueryError("the query has no group pattern to bind parameters in")


def _group_start(text: str) -> int:
    """Index just after the ``{`` that opens the outermost group pattern."""
    masked = _mask(text)
    form = _FORM.search(masked)
    if form is None:
        raise QueryError("not a SPARQL query (no SELECT, CONSTRUCT, ASK or DESCRIBE)")
    i = form.end()
    if form.group(1).upper() == "CONSTRUCT":
        if re.match(r"\s*WHERE\b", masked[i:], re.IGNORECASE):
            raise QueryError(
                "parameters cannot be bound in the CONSTRUCT WHERE short form; "
                "write CONSTRUCT { template } WHERE { pattern }"
            )
        depth = 0
        for j in range(_first_brace(masked, i), len(masked)):
            depth += {"{": 1, "}": -1}.get(masked[j], 0)
            if depth == 0:
                i = j + 1
                break
    return _first_brace(masked, i) + 1


def _group_end(masked: str, start: int) -> int:
    """Index of the ``}`` closing the group whose body begins at ``start``."""
    depth = 1
    for i in range(start, len(masked)):
        depth += {"{": 1, "}": -1}.get(masked[i], 0)
        if depth == 0:
            return i
    raise QueryError("unbalanced braces in the query")


def _sub_select_groups(text: str, outer: int) -> list[tuple[int, int]]:
    """(body start, body end) of the WHERE group of every sub-SELECT after ``outer``."""
    masked = _mask(text)
    groups = []
    for match in re.finditer(r"(?<![?$\w])SELECT\b", masked[outer:], re.IGNORECASE):
        start = _first_brace(masked, outer + match.end()) + 1
        groups.append((start, _group_end(masked, start)))
    return groups


def _values(names: list[str], bindings: Mapping[str, Any]) -> str:
    variables = " ".join(f"?{n}" for n in names)
    values = " ".join(term_sparql(bindings[n]) for n in names)
    return f" VALUES ({variables}) {{ ({values}) }} "


def bind_values(query: str, bindings: Mapping[str, Any]) -> str:
    """The query with ``bindings`` (name -> pyoxigraph term) in inline VALUES blocks.

    One block opens the outermost group pattern; one more opens each sub-SELECT
    that uses a bound variable, for the variables it uses.
    """
    if not bindings:
        return query
    names = sorted(bindings)
    for name in names:
        if not _VAR.match(name):
            raise QueryError(f"bad parameter name {name!r}")
    at = _group_start(query)
    masked = _mask(query)
    inserts = [(at, _values(names, bindings))]
    for start, end in _sub_select_groups(query, at):
        body = masked[start:end]
        used = [n for n in names if re.search(rf"[?$]{n}\b", body)]
        if used:
            inserts.append((start, _values(used, bindings)))
    for position, block in sorted(inserts, reverse=True):
        query = f"{query[:position]}{block}{query[position:]}"
    return query
