"""Everything the index, organisation and part-family pages show, in a few bulk queries.

A site of thousands of systems cannot afford a query per system per column, so
this module asks for each kind of fact once (labels, statuses, operators, supply
relationships, Rmax) and joins them in Python. Suppliers are rolled up to their
parent on one date with :class:`hpckg.rollup.OwnershipGraph`.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..countries import country_name
from ..namespaces import GRAPH_BASE
from ..rollup import OwnershipGraph
from .common import SlugMap, num, text

if TYPE_CHECKING:
    from ..store import Dataset

__all__ = ["Catalogue", "FamilyPage", "OrgPage", "Ref", "SupplyRow", "SystemRow", "gather"]

_BUNDLED = GRAPH_BASE + "file/"


@dataclass(frozen=True, order=True)
class Ref:
    """A link to a node: its label and IRI."""

    label: str
    iri: str


@dataclass
class SupplyRow:
    """One supply relationship of one system, with the supplier rolled up."""

    system: Ref
    role: str
    part: Ref | None
    family: Ref | None
    supplier: Ref | None
    parent: Ref | None
    quantity: int | None
    tier: str


@dataclass
class SystemRow:
    """One row of the index."""

    iri: str
    label: str
    country: str
    country_name: str
    status: str
    status_as_of: str
    purpose: str
    operators: list[Ref] = field(default_factory=list)
    parents: list[Ref] = field(default_factory=list)
    families: list[Ref] = field(default_factory=list)
    rmax_tflops: float | None = None


@dataclass
class OrgPage:
    iri: str
    label: str
    ticker: str
    exchange: str
    kind: str
    country: str
    comment: str
    unit_of: Ref | None = None
    parent: Ref | None = None
    parent_since: str = ""
    operates: list[Ref] = field(default_factory=list)
    supplied: list[SupplyRow] = field(default_factory=list)
    absorbed: list[tuple[Ref, str, Ref | None]] = field(default_factory=list)


@dataclass
class FamilyPage:
    iri: str
    label: str
    parts: list[Ref] = field(default_factory=list)
    uses: list[SupplyRow] = field(default_factory=list)


@dataclass
class Catalogue:
    """The gathered data of the whole site, plus the slug maps of its page kinds."""

    as_of: dt.date
    systems: list[SystemRow]
    orgs: dict[str, OrgPage]
    families: dict[str, FamilyPage]
    system_slugs: SlugMap
    org_slugs: SlugMap
    family_slugs: SlugMap
    labels: dict[str, str]
    supplies: list[SupplyRow]


def _labels(ds: Dataset) -> dict[str, str]:
    """One label per node: curated files win over imported ones, rdfs:label over skos:prefLabel."""
    best: dict[str, tuple[int, str]] = {}
    rows = ds.select("""SELECT ?x ?l ?g ?p WHERE { GRAPH ?g { VALUES ?p { rdfs:label skos:prefLabel } ?x ?p ?l } }""")
    for r in rows:
        lang = getattr(r["l"], "language", None)
        if lang and not lang.startswith("en"):
            continue
        rank = (0 if r["g"].value.startswith(_BUNDLED) else 2) + (0 if r["p"].value.endswith("label") else 1)
        key = (rank, r["l"].value)
        iri = r["x"].value
        if iri not in best or key < best[iri]:
            best[iri] = key
    return {iri: value for iri, (_, value) in best.items()}


def _latest(rows: list[tuple[str, str]]) -> tuple[str, str]:
    """The (as-of, value) with the latest date; ties broken by value so builds agree."""
    return max(rows)


def gather(ds: Dataset, as_of: dt.date | None = None) -> Catalogue:
    """Read every fact the index, organisation and family pages need."""
    day = as_of or dt.date.today()
    labels = _labels(ds)

    def ref(iri: str) -> Ref:
        return Ref(labels.get(iri) or iri.rsplit("/", 1)[-1], iri)

    system_iris = sorted({r["s"].value for r in ds.select("SELECT DISTINCT ?s WHERE { ?s a hk:System }")})
    system_set = set(system_iris)

    countries: dict[str, str] = {}
    for r in ds.select("SELECT ?s ?c WHERE { ?s a hk:System ; hk:country ?c }"):
        s = r["s"].value
        countries[s] = min(countries.get(s, r["c"].value), r["c"].value)
    purposes: dict[str, set[str]] = defaultdict(set)
    for r in ds.select("SELECT ?s ?p WHERE { ?s a hk:System ; hk:purpose ?p }"):
        purposes[r["s"].value].add(ref(r["p"].value).label)

    statuses: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for r in ds.select(
        """SELECT ?s ?st ?d WHERE { ?c a hk:StatusClaim ; hk:system ?s ; hk:status ?st .
                                    OPTIONAL { ?c hk:asOf ?d } }"""
    ):
        statuses[r["s"].value].append((text(r.get("d")), ref(r["st"].value).label))

    operators: dict[str, set[str]] = defaultdict(set)
    for r in ds.select("SELECT ?s ?o WHERE { ?c a hk:Operation ; hk:system ?s ; hk:operator ?o }"):
        operators[r["s"].value].add(r["o"].value)

    family_of: dict[str, str] = {}
    for r in ds.select("SELECT ?p ?f WHERE { ?p hk:family ?f }"):
        family_of[r["p"].value] = min(family_of.get(r["p"].value, r["f"].value), r["f"].value)

    ownership = OwnershipGraph.from_dataset(ds)
    supplies: list[SupplyRow] = []
    for r in ds.select(
        """SELECT ?c ?s ?role ?part ?sup ?q ?tier WHERE {
             ?c a hk:SupplyRelationship ; hk:system ?s .
             OPTIONAL { ?c hk:role ?role } OPTIONAL { ?c hk:part ?part }
             OPTIONAL { ?c hk:supplier ?sup } OPTIONAL { ?c hk:quantity ?q }
             OPTIONAL { ?c hk:tier ?tier } } ORDER BY ?c"""
    ):
        part = text(r.get("part")) or None
        supplier = text(r.get("sup")) or None
        family = family_of.get(part) if part else None
        quantity = num(r.get("q"))
        supplies.append(
            SupplyRow(
                system=ref(r["s"].value),
                role=ref(r["role"].value).label if "role" in r else "",
                part=ref(part) if part else None,
                family=ref(family) if family else None,
                supplier=ref(supplier) if supplier else None,
                parent=ref(ownership.parent(supplier, day)) if supplier else None,
                quantity=int(quantity) if quantity is not None else None,
                tier=ref(r["tier"].value).label if "tier" in r else "",
            )
        )

    rmax: dict[str, list[tuple[str, float]]] = defaultdict(list)
    for r in ds.select(
        """SELECT ?s ?v ?scale ?d WHERE {
             ?m a hk:Measurement ; hk:system ?s ; hk:metric hk:Rmax ; hk:value ?v .
             OPTIONAL { ?m hk:unit/hk:scale ?scale } OPTIONAL { ?m hk:asOf ?d } }"""
    ):
        value = num(r["v"])
        if value is None:
            continue
        scale = num(r.get("scale")) or 1e12  # the graph convention: Rmax in TFlop/s
        rmax[r["s"].value].append((text(r.get("d")), value * scale / 1e12))

    by_system: dict[str, list[SupplyRow]] = defaultdict(list)
    for row in supplies:
        by_system[row.system.iri].append(row)

    systems: list[SystemRow] = []
    for iri in system_iris:
        status_as_of, status = _latest(statuses[iri]) if statuses.get(iri) else ("", "")
        rows = by_system.get(iri, [])
        systems.append(
            SystemRow(
                iri=iri,
                label=ref(iri).label,
                country=countries.get(iri, ""),
                country_name=country_name(countries[iri]) if iri in countries else "",
                status=status,
                status_as_of=status_as_of,
                purpose=", ".join(sorted(purposes.get(iri, ()))),
                operators=sorted(ref(o) for o in operators.get(iri, ())),
                parents=sorted({r.parent for r in rows if r.parent}),
                families=sorted({r.family for r in rows if r.family and r.role.lower() == "accelerator"}),
                rmax_tflops=max(rmax[iri])[1] if rmax.get(iri) else None,
            )
        )
    systems.sort(key=lambda s: (s.label.casefold(), s.iri))

    orgs = _org_pages(ds, ref, ownership, day, operators, supplies, system_set)
    families = _family_pages(ds, ref, family_of, supplies)
    return Catalogue(
        as_of=day,
        systems=systems,
        orgs=orgs,
        families=families,
        system_slugs=SlugMap("system", system_iris),
        org_slugs=SlugMap("org", orgs),
        family_slugs=SlugMap("family", families),
        labels=labels,
        supplies=supplies,
    )


def _org_pages(
    ds: Dataset,
    make: Callable[[str], Ref],
    ownership: OwnershipGraph,
    day: dt.date,
    operators: dict[str, set[str]],
    supplies: list[SupplyRow],
    systems: set[str],
) -> dict[str, OrgPage]:
    facts: dict[str, dict[str, str]] = defaultdict(dict)
    for r in ds.select(
        """SELECT ?o ?p ?v WHERE { ?o a hk:Organization .
             VALUES ?p { hk:ticker hk:exchange hk:orgKind hk:country rdfs:comment hk:businessUnitOf }
             ?o ?p ?v }"""
    ):
        key = r["p"].value.rsplit("#", 1)[-1]
        value = r["v"].value
        slot = facts[r["o"].value]
        slot[key] = min(slot.get(key, value), value)
    iris = {r["o"].value for r in ds.select("SELECT DISTINCT ?o WHERE { ?o a hk:Organization }")}
    for ops in operators.values():
        iris |= ops
    iris |= {r.supplier.iri for r in supplies if r.supplier} | {r.parent.iri for r in supplies if r.parent}

    pages: dict[str, OrgPage] = {}
    for iri in sorted(iris):
        f = facts.get(iri, {})
        parent = ownership.parent(iri, day)
        since = ""
        if parent != iri:
            for interval in ownership.intervals(iri):
                if interval.covers(day) and interval.start is not None:
                    since = interval.start.isoformat()
        pages[iri] = OrgPage(
            iri=iri,
            label=make(iri).label,
            ticker=f.get("ticker", ""),
            exchange=f.get("exchange", ""),
            kind=make(f["orgKind"]).label if "orgKind" in f else "",
            country=country_name(f["country"]) if "country" in f else "",
            comment=f.get("comment", ""),
            unit_of=make(f["businessUnitOf"]) if "businessUnitOf" in f else None,
            parent=make(parent) if parent != iri else None,
            parent_since=since,
        )
    for system, ops in operators.items():
        for op in ops:
            if system in systems:
                pages[op].operates.append(make(system))
    for row in supplies:
        if row.parent and row.parent.iri in pages:
            pages[row.parent.iri].supplied.append(row)
    for other in sorted(ownership.orgs):
        for interval in ownership.intervals(other):
            if other != interval.parent and interval.parent in pages and interval.covers(day):
                steps = ownership.chain(other, day)
                via = steps[0][1].acquirer if steps else None
                direct = via if via and via != interval.parent else None
                when = interval.start.isoformat() if interval.start else ""
                pages[interval.parent].absorbed.append((make(other), when, make(direct) if direct else None))
    for page in pages.values():
        page.operates.sort()
        page.supplied.sort(key=_supply_key)
        page.absorbed.sort(key=lambda a: (a[1], a[0]))
    return pages


def _supply_key(row: SupplyRow) -> tuple[str, str, str, str]:
    return (
        row.system.label.casefold(),
        row.role,
        row.part.label if row.part else "",
        row.supplier.iri if row.supplier else "",
    )


def _family_pages(
    ds: Dataset, make: Callable[[str], Ref], family_of: dict[str, str], supplies: list[SupplyRow]
) -> dict[str, FamilyPage]:
    iris = {r["f"].value for r in ds.select("SELECT DISTINCT ?f WHERE { ?f a hk:PartFamily }")}
    iris |= set(family_of.values())
    pages = {iri: FamilyPage(iri=iri, label=make(iri).label) for iri in sorted(iris)}
    for part, family in sorted(family_of.items()):
        pages[family].parts.append(make(part))
    for row in supplies:
        if row.family and row.family.iri in pages:
            pages[row.family.iri].uses.append(row)
    for page in pages.values():
        page.parts.sort()
        page.uses.sort(key=_supply_key)
    return pages
