"""Per-list-edition groups, so the ``top500-*`` aggregates read hundreds of nodes, not every row.

A TOP500-style list has one row per system: an Rmax measurement with
``hk:listEdition``. The saved aggregate queries ask, per edition, how many systems
and how much Rmax each country, accelerator family or integrator's parent has.
Aggregating 12 500 rows (every TOP500 list) in SPARQL costs 70-200 ms; the answer
only depends on a few facts per row, so :func:`list_quads` groups the rows once at
load, in Python, and writes into the derived graph:

- one ``hk:EditionSummary`` per edition: ``hk:listEdition`` and ``hk:rmaxTotal``,
  the sum of the edition's Rmax values (TFlop/s, as stated);
- per edition and facet, one group per distinct *set* of facet values that rows
  have: ``hk:listEdition``, every value of the set, ``hk:systemCount`` (distinct
  systems) and ``hk:rmaxTotal`` (sum of the rows' Rmax):

  - ``hk:CountryGroup``: ``hk:country`` (the countries of the row's location
    claims for that edition); rows with no country are left out;
  - ``hk:AcceleratorGroup``: ``hk:acceleratorFamily`` (labelled part families of
    the accelerator supply claims for that edition) and
    ``hk:unresolvedAccelerator true`` (some such claim names no labelled
    family); rows with neither form the group with no family ("none");
  - ``hk:IntegratorGroup``: ``hk:integrator`` (the integrator suppliers for that
    edition, as named) and ``hk:parentAtListDate`` (the parents they roll up to on
    the edition's reference date); rows with no integrator are left out.

Each row falls in exactly one group per facet, and all rows of one system in one
edition share their facet values, so summing groups that contain a value gives
that value's exact system count and Rmax: a system with two countries counts once
for each, and a system whose two integrators roll up to one parent counts once for
it (the queries keep each (group, parent) once).
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import TYPE_CHECKING

import pyoxigraph as ox

from .namespaces import HK, RDF, XSD, digest, id_iri

if TYPE_CHECKING:
    from .store import Dataset

__all__ = ["KINDS", "list_quads"]

_TOTALS = """
SELECT ?edition ?v WHERE { ?m hk:metric hk:Rmax ; hk:listEdition ?edition ; hk:value ?v . }
"""
_ROWS = """
SELECT DISTINCT ?m ?edition ?system ?rmax WHERE {
  ?m hk:metric hk:Rmax ; hk:listEdition ?edition ; hk:system ?system ; hk:value ?rmax . }
"""
_COUNTRIES = """
SELECT DISTINCT ?edition ?system ?country WHERE {
  ?loc a hk:LocationClaim ; hk:listEdition ?edition ; hk:system ?system ; hk:country ?country . }
"""
# A claim whose parts have no labelled family leaves ?family unbound: "(unresolved)".
_ACCELERATORS = """
SELECT DISTINCT ?sup ?edition ?system ?family WHERE {
  ?sup a hk:SupplyRelationship ; hk:role hk:Accelerator ; hk:listEdition ?edition ; hk:system ?system .
  OPTIONAL { ?sup hk:part/hk:family ?family . ?family rdfs:label ?label } }
"""
_INTEGRATORS = """
SELECT DISTINCT ?edition ?system ?supplier WHERE {
  ?sup a hk:SupplyRelationship ; hk:role hk:Integrator ; hk:listEdition ?edition ; hk:system ?system ;
       hk:supplier ?supplier . }
"""
_EDITION_DAYS = "SELECT ?e ?d WHERE { ?e a hk:ListEdition ; hk:publishedOn ?d }"

_Key = tuple[ox.NamedNode, ox.NamedNode]  # (edition, system)
_Value = tuple[ox.NamedNode, ox.NamedNode | ox.Literal]  # (property, object)


def _n(term: object) -> ox.NamedNode:
    return ox.NamedNode(str(term))


_RDF_TYPE = _n(RDF.type)
_HK_LIST_EDITION = _n(HK.listEdition)
_HK_RMAX_TOTAL = _n(HK.rmaxTotal)
_HK_SYSTEM_COUNT = _n(HK.systemCount)
_HK_COUNTRY = _n(HK.country)
_HK_ACCELERATOR_FAMILY = _n(HK.acceleratorFamily)
_HK_UNRESOLVED = _n(HK.unresolvedAccelerator)
_HK_INTEGRATOR = _n(HK.integrator)
_HK_PARENT_AT_LIST_DATE = _n(HK.parentAtListDate)
_TRUE = ox.Literal("true", datatype=_n(XSD.boolean))

_EDITION_SUMMARY = _n(HK.EditionSummary)
_COUNTRY_GROUP = _n(HK.CountryGroup)
_ACCELERATOR_GROUP = _n(HK.AcceleratorGroup)
_INTEGRATOR_GROUP = _n(HK.IntegratorGroup)
# The kinds of node this module writes; :mod:`hpckg.derive` clears them before a rerun.
KINDS = (_EDITION_SUMMARY, _COUNTRY_GROUP, _ACCELERATOR_GROUP, _INTEGRATOR_GROUP)


# SPARQL's SUM keeps xsd:integer while every value is an integer and gives xsd:decimal
# once one is a decimal; a total here is written the way SUM would write it.
_INTEGERS = {
    str(XSD[name])
    for name in (
        "integer", "int", "long", "short", "byte", "nonNegativeInteger", "positiveInteger",
        "nonPositiveInteger", "negativeInteger", "unsignedLong", "unsignedInt", "unsignedShort", "unsignedByte",
    )
}  # fmt: skip
_DECIMAL = str(XSD.decimal)


@dataclass(frozen=True)
class _Sum:
    """An exact sum of xsd:integer / xsd:decimal values; ``None`` for anything else."""

    value: Decimal = Decimal(0)
    decimal: bool = False  # some value was an xsd:decimal


def _number(term: ox.Literal) -> _Sum | None:
    datatype = term.datatype.value
    if datatype not in _INTEGERS and datatype != _DECIMAL:
        return None  # the shapes want xsd:decimal; a double would not sum exactly here
    try:
        number = Decimal(term.value)
    except InvalidOperation:
        return None  # the shapes report a bad number; its group gets no total
    return _Sum(number, datatype == _DECIMAL) if number.is_finite() else None


def _add(total: _Sum | None, value: _Sum | None) -> _Sum | None:
    if total is None or value is None:
        return None
    return _Sum(total.value + value.value, total.decimal or value.decimal)


def _literal(total: _Sum) -> ox.Literal:
    if total.decimal:
        return ox.Literal(format(total.value.normalize(), "f"), datatype=_n(XSD.decimal))
    return ox.Literal(str(int(total.value)), datatype=_n(XSD.integer))


@dataclass
class _Group:
    """Rows of one edition sharing one set of facet values."""

    systems: set[ox.NamedNode] = field(default_factory=set)
    total: _Sum | None = _Sum()  # None once a row's value is not a number


def _facets(ds: Dataset) -> dict[ox.NamedNode, dict[_Key, frozenset[_Value]]]:
    """Per facet kind, the facet values of each (edition, system)."""
    countries: dict[_Key, set[_Value]] = defaultdict(set)
    for edition, system, country in ds.query(_COUNTRIES):
        countries[(edition, system)].add((_HK_COUNTRY, country))
    accelerators: dict[_Key, set[_Value]] = defaultdict(set)
    for _sup, edition, system, family in ds.query(_ACCELERATORS):
        value = (_HK_UNRESOLVED, _TRUE) if family is None else (_HK_ACCELERATOR_FAMILY, family)
        accelerators[(edition, system)].add(value)
    integrators: dict[_Key, set[_Value]] = defaultdict(set)
    for edition, system, supplier in ds.query(_INTEGRATORS):
        integrators[(edition, system)].add((_HK_INTEGRATOR, supplier))
    for key, parents in _parents_at_list_date(ds, integrators).items():
        integrators[key] |= {(_HK_PARENT_AT_LIST_DATE, p) for p in parents}
    return {
        _COUNTRY_GROUP: {k: frozenset(v) for k, v in countries.items()},
        _ACCELERATOR_GROUP: {k: frozenset(v) for k, v in accelerators.items()},
        _INTEGRATOR_GROUP: {k: frozenset(v) for k, v in integrators.items()},
    }


def _parents_at_list_date(ds: Dataset, integrators: dict[_Key, set[_Value]]) -> dict[_Key, set[ox.NamedNode]]:
    """The parents each row's integrators roll up to on its edition's reference date."""
    from .errors import ValidationError
    from .rollup import OwnershipGraph

    days = {e.value: dt.date.fromisoformat(d.value) for e, d in ds.query(_EDITION_DAYS)}
    ownership = OwnershipGraph.from_dataset(ds)
    parents: dict[_Key, set[ox.NamedNode]] = defaultdict(set)
    for (edition, system), suppliers in integrators.items():
        day = days.get(edition.value)
        if day is None:
            continue
        for _prop, supplier in suppliers:
            try:
                parent = ownership.parent(supplier.value, day)
            except ValidationError:  # an ownership cycle: validation reports it; no roll-up
                continue
            parents[(edition, system)].add(ox.NamedNode(parent))
    return parents


def _edition_summaries(ds: Dataset, graph: ox.NamedNode) -> Iterable[ox.Quad]:
    totals: dict[ox.NamedNode, _Sum | None] = {}
    for edition, value in ds.query(_TOTALS):
        totals[edition] = _add(totals.get(edition, _Sum()), _number(value))
    for edition, total in sorted(totals.items(), key=lambda item: item[0].value):
        if total is None:  # SUM over a non-number is an error, unbound: no summary
            continue
        node = _n(id_iri("edition-summary", digest(edition.value)))
        yield ox.Quad(node, _RDF_TYPE, _EDITION_SUMMARY, graph)
        yield ox.Quad(node, _HK_LIST_EDITION, edition, graph)
        yield ox.Quad(node, _HK_RMAX_TOTAL, _literal(total), graph)


def list_quads(ds: Dataset, graph: ox.NamedNode) -> list[ox.Quad]:
    """The edition summaries and list groups (see the module docstring), as quads of ``graph``."""
    quads = list(_edition_summaries(ds, graph))
    rows = [(edition, system, _number(rmax)) for _m, edition, system, rmax in ds.query(_ROWS)]
    for kind, facet in _facets(ds).items():
        groups: dict[tuple[ox.NamedNode, frozenset[_Value]], _Group] = defaultdict(_Group)
        for edition, system, rmax in rows:
            values = facet.get((edition, system), frozenset())
            if not values and kind != _ACCELERATOR_GROUP:  # only accelerators have a "none" group
                continue
            group = groups[(edition, values)]
            group.systems.add(system)
            group.total = _add(group.total, rmax)
        for (edition, values), group in groups.items():
            ordered = sorted(values, key=lambda v: (v[0].value, v[1].value))
            node = _n(id_iri("list-group", digest(kind.value, edition.value, *(f"{p.value} {o}" for p, o in ordered))))
            quads += [
                ox.Quad(node, _RDF_TYPE, kind, graph),
                ox.Quad(node, _HK_LIST_EDITION, edition, graph),
                ox.Quad(node, _HK_SYSTEM_COUNT, ox.Literal(str(len(group.systems)), datatype=_n(XSD.integer)), graph),
            ]
            if group.total is not None:
                quads.append(ox.Quad(node, _HK_RMAX_TOTAL, _literal(group.total), graph))
            quads += [ox.Quad(node, p, o, graph) for p, o in ordered]
    return quads
