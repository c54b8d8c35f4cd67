"""Who owns a supplier today: roll-up through completed ownership changes.

An organization rolls up to the acquirer of its latest completed ownership change,
transitively. A business unit rolls up to the company it belongs to until it is
sold. The result is materialised as ``hk:RollUp`` intervals (organization, parent,
valid from, valid until) in the derived graph, so SPARQL can roll up at any date
without per-hop date filters, which property paths cannot express.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from dataclasses import dataclass
from typing import TYPE_CHECKING

import pyoxigraph as ox

from .errors import ValidationError
from .namespaces import DERIVED_GRAPH, HK, RDF, XSD, digest, id_iri

if TYPE_CHECKING:
    from .store import Dataset

__all__ = ["Interval", "OwnershipGraph", "current_parent", "materialise_rollups", "ownership_chain"]


@dataclass(frozen=True)
class Interval:
    """``org`` rolls up to ``parent`` on dates in [start, end); None is unbounded."""

    org: str
    parent: str
    start: dt.date | None
    end: dt.date | None
    hops: int

    def covers(self, day: dt.date) -> bool:
        return (self.start is None or self.start <= day) and (self.end is None or day < self.end)


@dataclass(frozen=True)
class Change:
    acquired: str
    acquirer: str
    completed: dt.date
    iri: str


class OwnershipGraph:
    """Ownership changes and business-unit links, with cycle detection."""

    def __init__(self, changes: list[Change], units: dict[str, str], orgs: set[str]) -> None:
        self.changes: dict[str, list[Change]] = defaultdict(list)
        for change in changes:
            self.changes[change.acquired].append(change)
        for items in self.changes.values():
            items.sort(key=lambda c: (c.completed, c.acquirer))
        self.units = units
        self.orgs = orgs | set(self.changes) | {c.acquirer for c in changes} | set(units)
        self._memo: dict[str, list[Interval]] = {}

    @classmethod
    def from_dataset(cls, ds: Dataset) -> OwnershipGraph:
        rows = ds.select(
            """SELECT ?c ?acquired ?acquirer ?on WHERE {
                 ?c a hk:OwnershipChange ; hk:acquired ?acquired ; hk:acquirer ?acquirer ;
                    hk:completedOn ?on . }"""
        )
        changes = []
        for r in rows:
            try:
                day = dt.date.fromisoformat(r["on"].value)
            except ValueError:
                continue  # the shapes report the bad date; roll-up ignores the change
            changes.append(Change(r["acquired"].value, r["acquirer"].value, day, r["c"].value))
        units = {r["u"].value: r["p"].value for r in ds.select("SELECT ?u ?p WHERE { ?u hk:businessUnitOf ?p }")}
        orgs = {r["o"].value for r in ds.select("SELECT DISTINCT ?o WHERE { ?o a hk:Organization }")}
        return cls(changes, units, orgs)

    def intervals(self, org: str, _stack: tuple[str, ...] = ()) -> list[Interval]:
        """Every (parent, period) the organization rolls up to, oldest first."""
        if org in self._memo:
            return self._memo[org]
        if org in _stack:
            cycle = " -> ".join([*_stack[_stack.index(org) :], org])
            raise ValidationError(f"ownership cycle: {cycle}")
        stack = (*_stack, org)
        unit_parent = self.units.get(org)
        base = (
            [Interval(org, i.parent, i.start, i.end, i.hops + 1) for i in self.intervals(unit_parent, stack)]
            if unit_parent
            else [Interval(org, org, None, None, 0)]
        )
        result: list[Interval] = []
        cursor: dt.date | None = None
        segments: list[tuple[dt.date | None, dt.date | None, list[Interval]]] = []
        for change in self.changes.get(org, []):
            segments.append((cursor, change.completed, base))
            base = [Interval(org, j.parent, j.start, j.end, j.hops + 1) for j in self.intervals(change.acquirer, stack)]
            cursor = change.completed
        segments.append((cursor, None, base))
        for start, end, source in segments:
            for interval in source:
                lo = _later(interval.start, start)
                hi = _earlier(interval.end, end)
                if lo is None or hi is None or lo < hi:
                    result.append(Interval(org, interval.parent, lo, hi, interval.hops))
        self._memo[org] = result
        return result

    def parent(self, org: str, day: dt.date) -> str:
        for interval in self.intervals(org):
            if interval.covers(day):
                return interval.parent
        return org

    def chain(self, org: str, day: dt.date) -> list[tuple[str, Change]]:
        """The ownership steps from ``org`` to its parent at ``day``."""
        steps: list[tuple[str, Change]] = []
        seen = {org}
        current = org
        while True:
            done = [c for c in self.changes.get(current, []) if c.completed <= day]
            if not done:
                unit_parent = self.units.get(current)
                if unit_parent is None or unit_parent in seen:
                    return steps
                current = unit_parent
                seen.add(current)
                continue
            change = done[-1]
            steps.append((current, change))
            if change.acquirer in seen:
                raise ValidationError(f"ownership cycle through {change.acquirer}")
            seen.add(change.acquirer)
            current = change.acquirer


def _later(a: dt.date | None, b: dt.date | None) -> dt.date | None:
    if a is None:
        return b
    if b is None:
        return a
    return max(a, b)


def _earlier(a: dt.date | None, b: dt.date | None) -> dt.date | None:
    if a is None:
        return b
    if b is None:
        return a
    return min(a, b)


def current_parent(ds: Dataset, org: str, as_of: dt.date | None = None) -> str:
    """The IRI ``org`` rolls up to on ``as_of`` (default: today)."""
    return OwnershipGraph.from_dataset(ds).parent(str(org), as_of or dt.date.today())


def ownership_chain(ds: Dataset, org: str, as_of: dt.date | None = None) -> list[tuple[str, Change]]:
    return OwnershipGraph.from_dataset(ds).chain(str(org), as_of or dt.date.today())


def materialise_rollups(ds: Dataset, strict: bool = True) -> list[str]:
    """Write every organization's roll-up intervals into the derived graph.

    Returns the ownership cycles found (organizations in a cycle get no roll-up);
    with ``strict`` the first cycle raises :class:`ValidationError` instead.
    """
    graph = ox.NamedNode(str(DERIVED_GRAPH))
    if graph in set(ds.store.named_graphs()):
        ds.store.remove_graph(graph)
    ownership = OwnershipGraph.from_dataset(ds)
    quads = []
    date = ox.NamedNode(str(XSD.date))
    errors: list[str] = []
    for org in sorted(ownership.orgs):
        try:
            intervals = ownership.intervals(org)
        except ValidationError as cycle:
            if strict:
                raise
            errors.append(str(cycle))
            continue
        for interval in intervals:
            node = ox.NamedNode(str(id_iri("rollup", digest(org, interval.parent, interval.start))))
            quads += [
                ox.Quad(node, ox.NamedNode(str(RDF.type)), ox.NamedNode(str(HK.RollUp)), graph),
                ox.Quad(node, ox.NamedNode(str(HK.org)), ox.NamedNode(org), graph),
                ox.Quad(node, ox.NamedNode(str(HK.parent)), ox.NamedNode(interval.parent), graph),
                ox.Quad(
                    node,
                    ox.NamedNode(str(HK.hops)),
                    ox.Literal(str(interval.hops), datatype=ox.NamedNode(str(XSD.integer))),
                    graph,
                ),
            ]
            if interval.start is not None:
                quads.append(
                    ox.Quad(
                        node,
                        ox.NamedNode(str(HK.validFrom)),
                        ox.Literal(interval.start.isoformat(), datatype=date),
                        graph,
                    )
                )
            if interval.end is not None:
                quads.append(
                    ox.Quad(
                        node,
                        ox.NamedNode(str(HK.validUntil)),
                        ox.Literal(interval.end.isoformat(), datatype=date),
                        graph,
                    )
                )
    ds.store.extend(quads)
    return sorted(set(errors))
