"""Validate the graph against ``ontology/shapes.ttl``.

pyshacl checks every node and property shape on an rdflib copy of the data. The
SHACL-SPARQL constraints (Rmax <= Rpeak, no ownership cycle) are evaluated on
pyoxigraph instead: each runs once for all focus nodes, with ``$this`` left free and
joined with the target class, which is what pre-binding ``$this`` per focus node
computes, only without one rdflib query per node. ``engine="pyshacl"`` runs
everything in pyshacl, the reference; the tests check both engines agree.
"""

from __future__ import annotations

import re
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import pyoxigraph as ox
import rdflib
from rdflib.namespace import SH

from .errors import DataError, UsageError
from .namespaces import GRAPH_BASE, HK, PREFIXES, RDF, RDFS

if TYPE_CHECKING:
    from .store import Dataset

__all__ = ["Report", "Violation", "load_shapes", "validate"]


@dataclass(frozen=True, order=True)
class Violation:
    focus: str
    path: str
    message: str
    shape: str = ""
    value: str = ""
    severity: str = "Violation"


@dataclass
class Report:
    violations: list[Violation] = field(default_factory=list)
    seconds: float = 0.0
    triples: int = 0

    @property
    def conforms(self) -> bool:
        return not self.violations

    def by_focus(self) -> dict[str, list[Violation]]:
        grouped: dict[str, list[Violation]] = defaultdict(list)
        for violation in sorted(set(self.violations)):
            grouped[violation.focus].append(violation)
        return dict(grouped)

    def text(self) -> str:
        if self.conforms:
            return f"Conforms: {self.triples} triples, 0 violations ({self.seconds:.2f} s)"
        lines = []
        grouped = self.by_focus()
        for focus, items in grouped.items():
            lines.append(focus)
            for v in items:
                where = f"{v.path}: " if v.path else ""
                value = f" (value: {v.value})" if v.value else ""
                lines.append(f"  - {where}{v.message}{value}")
        lines.append(f"Does not conform: {len(set(self.violations))} violation(s) on {len(grouped)} node(s)")
        return "\n".join(lines)


def load_shapes(root: Path) -> rdflib.Graph:
    path = root / "ontology" / "shapes.ttl"
    try:
        return rdflib.Graph().parse(path, format="turtle")
    except Exception as error:  # rdflib raises several parser exception types
        raise DataError(f"cannot parse shapes: {error}", path) from None


def _split_sparql(shapes: rdflib.Graph) -> tuple[rdflib.Graph, list[tuple[str, str, str, str]]]:
    """The shapes without their SPARQL constraints, and those constraints."""
    core = rdflib.Graph()
    for triple in shapes:
        core.add(triple)
    constraints = []
    for shape, constraint in list(shapes.subject_objects(SH.sparql)):
        target = shapes.value(shape, SH.targetClass)
        select = shapes.value(constraint, SH.select)
        message = shapes.value(constraint, SH.message)
        constraints.append((str(shape), str(target), str(select), str(message or "")))
        core.remove((shape, SH.sparql, constraint))
        for triple in list(shapes.triples((constraint, None, None))):
            core.remove(triple)
    return core, constraints


_ORDERED = sorted(PREFIXES.items(), key=lambda kv: -len(kv[1]))


def compact(iri: str) -> str:
    """``https://w3id.org/hpckg/id/system/seren`` -> ``system:seren``."""
    for prefix, ns in _ORDERED:
        if iri.startswith(ns) and "/" not in iri[len(ns) :] and "#" not in iri[len(ns) :]:
            return f"{prefix}:{iri[len(ns) :]}"
    return f"<{iri}>"


def _label(term: rdflib.term.Node | None, graph: rdflib.Graph) -> str:
    if term is None:
        return ""
    if isinstance(term, rdflib.URIRef):
        return compact(str(term))
    return str(term)


def _pyshacl(data: rdflib.Graph, shapes: rdflib.Graph) -> list[Violation]:
    import pyshacl

    _, results, _ = pyshacl.validate(data, shacl_graph=shapes, inference="none", advanced=True, allow_warnings=True)
    violations = []
    for result in results.subjects(RDF.type, SH.ValidationResult):
        focus = results.value(result, SH.focusNode)
        path = results.value(result, SH.resultPath)
        message = results.value(result, SH.resultMessage)
        value = results.value(result, SH.value)
        shape = results.value(result, SH.sourceShape)
        severity = results.value(result, SH.resultSeverity)
        violations.append(
            Violation(
                _label(focus, data),
                _label(path, data),
                str(message or ""),
                _label(shape, data) if isinstance(shape, rdflib.URIRef) else "",
                _label(value, data),
                str(severity).rsplit("#", 1)[-1] if severity else "Violation",
            )
        )
    return violations


def _sparql_constraints(ds: Dataset, constraints: list[tuple[str, str, str, str]]) -> list[Violation]:
    violations = []
    for shape, target, select, message in constraints:
        query = re.sub(r"\$this\b", "?this", select)
        # Join the free ?this with the target class, as pre-binding would.
        query = re.sub(
            r"WHERE\s*\{",
            f"WHERE {{ ?this a/<{RDFS.subClassOf}>* <{target}> . ",
            query,
            count=1,
        )
        for row in ds.select(query):
            text = message
            for name, term in row.items():
                text = text.replace("{?" + name + "}", str(term.value))
            violations.append(Violation(compact(row["this"].value), "", text, compact(shape)))
    return violations


def _compiled(ds: Dataset, core: rdflib.Graph) -> list[Violation]:
    from .shacl_fast import run_compiled

    return [
        Violation(compact(f.focus), compact(f.path) if f.path else "", f.message, compact(f.shape), f.value)
        for f in run_compiled(ds, core)
    ]


ENGINES = ("fast", "hybrid", "pyshacl")


def validate(ds: Dataset, *, inference: bool = False, engine: str = "fast") -> Report:
    """Check the dataset against the shapes.

    ``inference`` first adds the OWL RL closure (owlrl) of the ontology and the
    entity layer, never the claims, which keeps owlrl's input small.
    """
    if engine not in ENGINES:
        raise UsageError(f"unknown validation engine {engine!r} (choose from {', '.join(ENGINES)})")
    started = time.perf_counter()
    shapes = load_shapes(ds.root)
    core, constraints = _split_sparql(shapes)
    inferred = ox.NamedNode(GRAPH_BASE + "inferred")
    if inference:
        ds.store.extend(_to_ox_quad(t, inferred) for t in owlrl_closure(ds))
    try:
        if engine == "fast":
            violations = _compiled(ds, core) + _sparql_constraints(ds, constraints)
        else:
            data = ds.to_rdflib(include_derived=False, include_ontology=True)
            if inference:
                for quad in ds.store.quads_for_pattern(None, None, None, inferred):
                    data.add(_to_rdflib_triple(quad))
            if engine == "pyshacl":
                violations = _pyshacl(data, shapes)
            else:
                violations = _pyshacl(data, core) + _sparql_constraints(ds, constraints)
    finally:
        if inference:
            ds.store.remove_graph(inferred)
    violations += [Violation("ownership", "hk:acquired", error) for error in ds.rollup_errors]
    return Report(sorted(set(violations)), time.perf_counter() - started, ds.triple_count(include_derived=False))


def owlrl_closure(ds: Dataset) -> set[tuple[rdflib.term.Node, rdflib.term.Node, rdflib.term.Node]]:
    """New triples of the OWL RL closure of the ontology and the entity layer.

    owlrl is the reference for OWL RL but slow (62 s for the RDFS closure of 155k
    triples), so it only sees the ontology and entities, never the claim nodes.
    """
    import owlrl

    graphs: list[ox.NamedNode | ox.BlankNode | ox.DefaultGraph] = list(ds.source_graphs(include_derived=False))
    entity_nt = ds.store.query(
        f"CONSTRUCT {{ ?s ?p ?o }} WHERE {{ ?s ?p ?o FILTER NOT EXISTS {{ ?s <{HK.tier}> ?tier }} }}",
        default_graph=graphs,
    )
    assert isinstance(entity_nt, ox.QueryTriples)
    small = rdflib.Graph()
    small.parse(data=ox.serialize(entity_nt, format=ox.RdfFormat.N_TRIPLES) or b"", format="nt")
    before = set(small)
    owlrl.DeductiveClosure(owlrl.OWLRL_Semantics).expand(small)
    return {
        t
        for t in set(small) - before
        if not isinstance(t[0], rdflib.Literal)
        and not isinstance(t[1], rdflib.BNode)
        and not isinstance(t[0], rdflib.BNode)
        and not isinstance(t[2], rdflib.BNode)
    }


def _to_ox_quad(t: tuple[rdflib.term.Node, rdflib.term.Node, rdflib.term.Node], graph: ox.NamedNode) -> ox.Quad:
    from .store import _to_ox

    return ox.Quad(ox.NamedNode(str(t[0])), ox.NamedNode(str(t[1])), _to_ox(t[2]), graph)


def _to_rdflib_triple(quad: ox.Quad) -> tuple[rdflib.term.Node, rdflib.term.Node, rdflib.term.Node]:
    obj = quad.object
    if isinstance(obj, ox.Literal):
        datatype = None if obj.language else rdflib.URIRef(obj.datatype.value)
        o: rdflib.term.Node = rdflib.Literal(obj.value, lang=obj.language, datatype=datatype)
    else:
        o = rdflib.URIRef(str(getattr(obj, "value", obj)))
    return (rdflib.URIRef(str(getattr(quad.subject, "value", quad.subject))), rdflib.URIRef(quad.predicate.value), o)
