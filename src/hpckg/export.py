"""Export the graph as deterministic Turtle, compact JSON-LD or N-Triples.

Turtle is written by hand rather than by rdflib so that the bytes depend only on
the triples: fixed prefixes, subjects sorted, ``rdf:type`` first, then predicates
and objects sorted. Two exports of the same graph are byte-identical on any machine.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pyoxigraph as ox

from .errors import UsageError
from .namespaces import PREFIXES, RDF

if TYPE_CHECKING:
    from .store import Dataset

__all__ = ["EXPORT_FORMATS", "export", "jsonld", "load_context", "turtle"]

EXPORT_FORMATS = ("ttl", "jsonld", "nt")
_LOCAL = re.compile(r"^[A-Za-z0-9_]([A-Za-z0-9_.-]*[A-Za-z0-9_-])?$")
_PLAIN_TYPES = {
    "http://www.w3.org/2001/XMLSchema#integer": re.compile(r"^[+-]?\d+$"),
    "http://www.w3.org/2001/XMLSchema#decimal": re.compile(r"^[+-]?\d*\.\d+$"),
    "http://www.w3.org/2001/XMLSchema#boolean": re.compile(r"^(true|false)$"),
}
_STRING = "http://www.w3.org/2001/XMLSchema#string"
_RDF_TYPE = str(RDF.type)
# Longest namespace first, so ``system:`` wins over a shorter prefix of it.
_ORDERED = sorted(PREFIXES.items(), key=lambda kv: -len(kv[1]))


def _iri(value: str) -> str:
    for prefix, ns in _ORDERED:
        if value.startswith(ns):
            local = value[len(ns) :]
            if local == "" or _LOCAL.match(local):
                return f"{prefix}:{local}"
    return str(ox.NamedNode(value))


def _term(term: Any) -> str:
    if isinstance(term, ox.NamedNode):
        return "a" if term.value == _RDF_TYPE else _iri(term.value)
    if isinstance(term, ox.BlankNode):
        return f"_:{term.value}"
    literal = str(ox.Literal(term.value))  # escaped lexical form in quotes
    if term.language:
        return f"{literal}@{term.language}"
    datatype = term.datatype.value
    if datatype == _STRING:
        return literal
    pattern = _PLAIN_TYPES.get(datatype)
    if pattern and pattern.match(term.value):
        return str(term.value)
    return f"{literal}^^{_iri(datatype)}"


def _sort_key(term: Any) -> tuple[int, str, str]:
    if isinstance(term, ox.NamedNode):
        return (0, term.value, "")
    if isinstance(term, ox.BlankNode):
        return (1, term.value, "")
    return (2, term.value, term.language or term.datatype.value)


def turtle(triples: list[ox.Triple]) -> str:
    """Deterministic Turtle for ``triples``."""
    by_subject: dict[Any, dict[Any, set[Any]]] = defaultdict(lambda: defaultdict(set))
    for t in triples:
        by_subject[t.subject][t.predicate].add(t.object)
    lines = [f"@prefix {p}: <{ns}> ." for p, ns in sorted(PREFIXES.items())]
    for subject in sorted(by_subject, key=_sort_key):
        predicates = by_subject[subject]
        ordered = sorted(predicates, key=lambda p: (p.value != _RDF_TYPE, p.value))
        chunks = []
        for predicate in ordered:
            objects = ", ".join(_term(o) for o in sorted(predicates[predicate], key=_sort_key))
            chunks.append(f"    {_term(predicate)} {objects}")
        lines.append("")
        lines.append(_term(subject) + "\n" + " ;\n".join(chunks) + " .")
    return "\n".join(lines) + "\n"


def load_context(root: Path) -> dict[str, Any]:
    with (root / "ontology" / "context.jsonld").open(encoding="utf-8") as handle:
        context: dict[str, Any] = json.load(handle)["@context"]
    return context


def _sorted_json(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _sorted_json(value[k]) for k in sorted(value)}
    if isinstance(value, list):
        items = [_sorted_json(v) for v in value]
        return sorted(items, key=lambda v: json.dumps(v, sort_keys=True, ensure_ascii=False))
    return value


def jsonld(ds: Dataset, triples_nt: bytes) -> str:
    """Compact JSON-LD with the project context, keys and arrays sorted."""
    import rdflib

    graph = rdflib.Graph()
    graph.parse(data=triples_nt, format="nt")
    context = load_context(ds.root)
    text = graph.serialize(format="json-ld", context=context, auto_compact=True)
    document = json.loads(text)
    document["@context"] = "https://w3id.org/hpckg/context.jsonld"
    body = _sorted_json({k: v for k, v in document.items() if k != "@context"})
    out = {"@context": context, **body}
    return json.dumps(out, indent=2, ensure_ascii=False, sort_keys=False) + "\n"


def export(ds: Dataset, fmt: str, *, include_ontology: bool = False, include_derived: bool = False) -> str:
    """The graph (curated plus data files) in ``fmt``: ``ttl``, ``jsonld`` or ``nt``."""
    if fmt not in EXPORT_FORMATS:
        raise UsageError(f"unknown export format {fmt!r} (choose from {', '.join(EXPORT_FORMATS)})")
    nt = ds.ntriples(include_derived=include_derived, include_ontology=include_ontology)
    if fmt == "nt":
        lines = sorted(set(nt.decode("utf-8").splitlines()))
        return "\n".join(line for line in lines if line.strip()) + "\n"
    if fmt == "jsonld":
        return jsonld(ds, nt)
    triples = list(ox.parse(nt, format=ox.RdfFormat.N_TRIPLES))
    return turtle(triples)
