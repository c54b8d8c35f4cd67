"""Compile the SHACL shapes of hpckg into SPARQL and run them on pyoxigraph.

pyshacl is the reference, but it checks every focus node in Python: 444 s on a
one-million-triple graph. Each constraint here becomes one SPARQL query that
finds all its violations at once, which pyoxigraph answers in milliseconds.

Only the SHACL Core features hpckg's shapes use are compiled: targets by class;
property shapes on a predicate path with min/max count, class, datatype (lexically
valid), in, pattern, min exclusive/inclusive, disjoint and node; node-level or,
xone and and of such shapes; and SHACL-SPARQL constraints. Anything else raises
:class:`UnsupportedShape`, so a new kind of shape can never be skipped silently:
use ``--engine pyshacl`` for it. The tests run every shape snippet through both
engines and require the same focus nodes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import rdflib
from rdflib.collection import Collection
from rdflib.namespace import SH

from .errors import HpckgError
from .namespaces import RDF, RDFS, XSD

if TYPE_CHECKING:
    from .store import Dataset

__all__ = ["Compiler", "Finding", "UnsupportedShape", "run_compiled"]


class UnsupportedShape(HpckgError):
    """The shapes use a SHACL feature this engine does not compile."""


@dataclass(frozen=True)
class Finding:
    focus: str
    path: str
    message: str
    value: str
    shape: str


_CASTABLE = {
    str(XSD[n]) for n in ("date", "dateTime", "gYear", "gYearMonth", "integer", "decimal", "boolean", "double")
}


def _int(term: rdflib.term.Node | None) -> int:
    if not isinstance(term, rdflib.Literal):
        raise UnsupportedShape(f"expected an integer in the shapes, got {term!r}")
    return int(term.toPython())


def _iri(term: rdflib.term.Node | None) -> str:
    if not isinstance(term, rdflib.URIRef):
        raise UnsupportedShape(f"expected an IRI in the shapes, got {term!r}")
    return f"<{term}>"


def _lit(term: rdflib.term.Node) -> str:
    if isinstance(term, rdflib.URIRef):
        return f"<{term}>"
    if isinstance(term, rdflib.Literal):
        return term.n3()
    raise UnsupportedShape(f"cannot compile {term!r}")


class Compiler:
    """Turns one shapes graph into (query, message) pairs."""

    def __init__(self, shapes: rdflib.Graph, subclasses: Callable[[str], list[str]]) -> None:
        self.g = shapes
        self.subclasses = subclasses
        self.counter = 0

    def _list(self, node: rdflib.term.Node) -> list[rdflib.term.Node]:
        return list(Collection(self.g, node))

    def _class_test(self, var: str, cls: rdflib.term.Node) -> str:
        values = " ".join(f"<{c}>" for c in self.subclasses(str(cls)))
        return f"EXISTS {{ VALUES ?k_ {{ {values} }} {var} a ?k_ }}"

    def _datatype_test(self, var: str, datatype: rdflib.term.Node) -> str:
        dt = _iri(datatype)
        test = f"(isLiteral({var}) && datatype({var}) = {dt})"
        if str(datatype) in _CASTABLE:
            test = f"({test} && COALESCE(STRLEN(STR({dt}(STR({var})))) >= 0, false))"
        return test

    def value_test(self, shape: rdflib.term.Node, var: str) -> str:
        """A SPARQL expression true when the value in ``var`` conforms to ``shape``."""
        tests: list[str] = []
        handled = {RDF.type, RDFS.comment, RDFS.label, SH.message, SH.name, SH.description}
        for p, o in self.g.predicate_objects(shape):
            if p in handled:
                continue
            if p == SH.datatype:
                tests.append(self._datatype_test(var, o))
            elif p == SH["class"]:
                tests.append(self._class_test(var, o))
            elif p == SH["in"]:
                tests.append(f"({var} IN ({', '.join(_lit(x) for x in self._list(o))}))")
            elif p == SH.pattern:
                tests.append(f"REGEX(STR({var}), {rdflib.Literal(str(o)).n3()})")
            elif p == SH["or"]:
                tests.append("(" + " || ".join(self.value_test(m, var) for m in self._list(o)) + ")")
            elif p == SH["and"]:
                tests.append("(" + " && ".join(self.value_test(m, var) for m in self._list(o)) + ")")
            elif p == SH.xone:
                ones = " + ".join(f"IF({self.value_test(m, var)}, 1, 0)" for m in self._list(o))
                tests.append(f"(({ones}) = 1)")
            elif p == SH.node:
                tests.append(self.value_test(o, var))
            elif p == SH.path:
                tests.append(self._count_test(shape, var))
            elif p in (SH.minCount, SH.maxCount):
                continue  # part of the path test
            else:
                raise UnsupportedShape(f"unsupported constraint {p} in a nested shape")
        return "(" + " && ".join(tests or ["true"]) + ")"

    def _count_test(self, shape: rdflib.term.Node, var: str) -> str:
        path = _iri(self.g.value(shape, SH.path))
        low = self.g.value(shape, SH.minCount)
        high = self.g.value(shape, SH.maxCount)
        tests = []
        if low is not None:
            if _int(low) > 1:
                raise UnsupportedShape("sh:minCount above 1 in a nested shape")
            if _int(low) == 1:
                tests.append(f"EXISTS {{ {var} {path} [] }}")
        if high is not None:
            if _int(high) == 0:
                tests.append(f"NOT EXISTS {{ {var} {path} [] }}")
            elif _int(high) == 1:
                self.counter += 1
                a, b = f"?a{self.counter}_", f"?b{self.counter}_"
                tests.append(f"NOT EXISTS {{ {var} {path} {a} , {b} . FILTER({a} != {b}) }}")
            else:
                raise UnsupportedShape("sh:maxCount above 1 in a nested shape")
        return "(" + " && ".join(tests or ["true"]) + ")"

    # -- top-level node shapes -------------------------------------------------------

    def queries(self) -> list[tuple[str, str, str, str]]:
        """(query, path, default message, shape) for every constraint of every node shape."""
        out: list[tuple[str, str, str, str]] = []
        for shape in sorted(set(self.g.subjects(SH.targetClass, None)), key=str):
            classes = sorted({c for cls in self.g.objects(shape, SH.targetClass) for c in self.subclasses(str(cls))})
            focus = f"VALUES ?cls_ {{ {' '.join(f'<{c}>' for c in classes)} }} ?this a ?cls_ ."
            name = str(shape)
            message = self.g.value(shape, SH.message)
            for p, o in self.g.predicate_objects(shape):
                if p in (SH.targetClass, RDF.type, RDFS.comment, RDFS.label, SH.message, SH.sparql):
                    continue
                if p == SH.property:
                    out += self._property(focus, o, name)
                elif p in (SH["or"], SH["and"], SH.xone):
                    members = self._list(o)
                    if p == SH["or"]:
                        test = " || ".join(self.value_test(m, "?this") for m in members)
                    elif p == SH["and"]:
                        test = " && ".join(self.value_test(m, "?this") for m in members)
                    else:
                        test = "(" + " + ".join(f"IF({self.value_test(m, '?this')}, 1, 0)" for m in members) + ") = 1"
                    default = str(message) if message else f"does not conform to sh:{str(p).split('#')[-1]}"
                    out.append((f"SELECT DISTINCT ?this WHERE {{ {focus} FILTER(!({test})) }}", "", default, name))
                else:
                    raise UnsupportedShape(f"unsupported node-shape constraint {p} on {shape}")
        return out

    def _property(self, focus: str, prop: rdflib.term.Node, shape: str) -> list[tuple[str, str, str, str]]:
        path_node = self.g.value(prop, SH.path)
        path = _iri(path_node)
        custom = self.g.value(prop, SH.message)
        out = []

        def add(where: str, default: str, select: str = "SELECT DISTINCT ?this ?v", tail: str = "") -> None:
            query = f"{select} WHERE {{ {focus} {where} }} {tail}"
            out.append((query, str(path_node), str(custom) if custom else default, shape))

        for p, o in self.g.predicate_objects(prop):
            if p in (SH.path, SH.message, RDF.type, RDFS.comment, SH.name, SH.description):
                continue
            if p == SH.minCount:
                n = _int(o)
                if n == 1:
                    add(
                        f"FILTER NOT EXISTS {{ ?this {path} [] }}",
                        f"Less than 1 values on {path_node}",
                        "SELECT DISTINCT ?this",
                    )
                elif n > 1:
                    add(
                        f"OPTIONAL {{ ?this {path} ?x_ }}",
                        f"Less than {n} values",
                        "SELECT ?this",
                        f"GROUP BY ?this HAVING (COUNT(DISTINCT ?x_) < {n})",
                    )
            elif p == SH.maxCount:
                add(
                    f"?this {path} ?x_ .",
                    f"More than {_int(o)} values on {path_node}",
                    "SELECT ?this",
                    f"GROUP BY ?this HAVING (COUNT(DISTINCT ?x_) > {_int(o)})",
                )
            elif p == SH["class"]:
                add(f"?this {path} ?v . FILTER(!{self._class_test('?v', o)})", f"Value does not have class {o}")
            elif p == SH.datatype:
                add(f"?this {path} ?v . FILTER(!{self._datatype_test('?v', o)})", f"Value is not of datatype {o}")
            elif p == SH["in"]:
                add(
                    f"?this {path} ?v . FILTER(?v NOT IN ({', '.join(_lit(x) for x in self._list(o))}))",
                    "Value is not in the allowed list",
                )
            elif p == SH.pattern:
                add(
                    f"?this {path} ?v . FILTER(isBlank(?v) || !REGEX(STR(?v), {rdflib.Literal(str(o)).n3()}))",
                    f"Value does not match pattern {o}",
                )
            elif p in (SH.minExclusive, SH.minInclusive, SH.maxExclusive, SH.maxInclusive):
                ops = {
                    str(SH.minExclusive): ">",
                    str(SH.minInclusive): ">=",
                    str(SH.maxExclusive): "<",
                    str(SH.maxInclusive): "<=",
                }
                op = ops[str(p)]
                add(f"?this {path} ?v . FILTER(!COALESCE(?v {op} {_lit(o)}, false))", f"Value is not {op} {o}")
            elif p == SH.disjoint:
                add(f"?this {path} ?v . ?this {_iri(o)} ?v .", f"Value of {path_node} also a value of {o}")
            elif p == SH.node:
                add(f"?this {path} ?v . FILTER(!{self.value_test(o, '?v')})", f"Value does not conform to shape {o}")
            else:
                raise UnsupportedShape(f"unsupported property constraint {p}")
        return out


def run_compiled(ds: Dataset, shapes: rdflib.Graph) -> list[Finding]:
    """Every violation of the (non-SPARQL) shapes, found with one query per constraint."""
    cache: dict[str, list[str]] = {}

    def subclasses(cls: str) -> list[str]:
        if cls not in cache:
            rows = ds.select(f"SELECT DISTINCT ?c WHERE {{ ?c <{RDFS.subClassOf}>* <{cls}> }}")
            cache[cls] = sorted({cls, *(r["c"].value for r in rows)})
        return cache[cls]

    findings: list[Finding] = []
    for query, path, message, shape in Compiler(shapes, subclasses).queries():
        for row in ds.select(query):
            value = row.get("v")
            findings.append(Finding(row["this"].value, path, message, "" if value is None else str(value.value), shape))
    return findings
