"""Build the claims of a TOP500 import: one set per row, plus one per system.

Per row (list edition): a ranking entry and measurements (Rmax, Rpeak, HPCG,
cores, accelerator cores, power, energy efficiency), each citing the list page
and, where the System ID is known, the system page. Per system: supply
relationships (integrator, accelerator, CPU, interconnect) and locations, each
citing every list that states them; first-listed / last-listed timeline events.
All claims are tier verified; all IRIs are derived from their content.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from rdflib import URIRef

from ..catalogue import Catalogue
from ..countries import country_code
from ..namespaces import DCTERMS as _DCTERMS
from ..namespaces import HK as _HK_NS
from ..namespaces import RDF as _RDF
from ..namespaces import RDFS as _RDFS
from ..namespaces import SKOS as _SKOS
from ..namespaces import XSD as _XSD
from ..namespaces import digest, id_iri
from .top500_entries import Entry
from .top500_identity import Track
from .top500_ntriples import Lit, TripleSet
from .top500_units import METRICS, format_decimal

__all__ = [
    "BuildStats",
    "ClaimBuilder",
    "Existing",
    "edition_date",
    "edition_from_number",
    "list_iri",
    "list_url",
    "system_url",
]


class _Terms:
    """Namespace terms cached as attributes: rdflib's Namespace lookup is slow in hot loops."""

    def __init__(self, namespace: Any) -> None:
        self._namespace = namespace

    def __getattr__(self, name: str) -> URIRef:
        value = URIRef(self._namespace[name])
        setattr(self, name, value)
        return value


HK, RDF, RDFS, SKOS, DCTERMS, XSD = (_Terms(n) for n in (_HK_NS, _RDF, _RDFS, _SKOS, _DCTERMS, _XSD))

_MONTHS = {"06": "June", "11": "November"}
_TOP500_LIST_URL = "https://www.top500.org/lists/top500/{year}/{month}/"
_TOP500_SYSTEM_URL = "https://www.top500.org/system/{id}"
_METRIC_SLUG = {
    "rmax": "rmax",
    "rpeak": "rpeak",
    "hpcg": "hpcg",
    "cores": "cores",
    "accelerator_cores": "accelerator-cores",
    "power": "power",
    "energy_efficiency": "energy-efficiency",
}
_ROLE_SLUG = {
    HK.Integrator: "integrator",
    HK.Accelerator: "accelerator",
    HK.CPU: "cpu",
    HK.Interconnect: "interconnect",
}


def edition_date(edition: str) -> dt.date:
    """The date used for a list edition: the first day of its month (the files carry no day)."""
    year, month = edition.split("-")
    return dt.date(int(year), int(month), 1)


def edition_from_number(number: str) -> str | None:
    """TOP500 list number -> edition: the 63rd list is "2024-06"."""
    try:
        n = int(float(number))
    except ValueError:
        return None
    if n < 1:
        return None
    return f"{1993 + (n - 1) // 2}-{'06' if n % 2 else '11'}"


def list_iri(edition: str) -> URIRef:
    return id_iri("list", f"top500-{edition}")


def list_url(edition: str) -> str:
    year, month = edition.split("-")
    return _TOP500_LIST_URL.format(year=year, month=month)


def system_url(system_id: str) -> str:
    return _TOP500_SYSTEM_URL.format(id=system_id)


@dataclass
class Existing:
    """Nodes and facts the curated graph already holds (see :func:`existing_from`)."""

    # Plain str: an rdflib URIRef hashes differently from its str, so test ``str(node) in``.
    nodes: set[str] = field(default_factory=set)  # list editions and citations
    published: set[str] = field(default_factory=set)  # list editions with hk:publishedOn
    facts: set[tuple[str, str, str]] = field(default_factory=set)  # (system, edition, metric IRI | "rank")


@dataclass
class _Supply:
    role: URIRef
    part: URIRef | None
    supplier: URIRef | None
    descriptions: list[str] = field(default_factory=list)
    editions: set[str] = field(default_factory=set)


@dataclass
class BuildStats:
    systems: int = 0
    merged_with_curated: int = 0
    linked_across_id: int = 0
    claims: int = 0
    unknown_countries: dict[str, int] = field(default_factory=lambda: defaultdict(int))


class ClaimBuilder:
    """Writes the triples of tracks of entries into a :class:`TripleSet`."""

    def __init__(
        self,
        catalogue: Catalogue,
        curated: set[URIRef],
        earliest_edition: str,
        existing: Existing | None = None,
    ) -> None:
        self.cat = catalogue
        # What the curated graph already states: never restated, so nothing is duplicated.
        self.existing = existing or Existing()
        # Rows of the earliest imported list may have appeared in older lists.
        self.earliest_edition = earliest_edition
        self.curated = curated
        self.out = TripleSet()
        self.stats = BuildStats()
        self._editions: set[str] = set()
        self._system_citations: set[str] = set()
        self._supply_cache: dict[tuple[object, ...], list[_Supply]] = {}

    # -- shared nodes -------------------------------------------------------------

    def _list_citation(self, edition: str) -> URIRef:
        node = id_iri("citation", f"top500-list-{edition}")
        if edition not in self._editions:
            self._editions.add(edition)
            year, month = edition.split("-")
            label = f"TOP500 list, {_MONTHS.get(month, month)} {year}"
            if str(node) not in self.existing.nodes:
                self.out.add(node, RDF.type, HK.Citation)
                self.out.add(node, HK.url, Lit(list_url(edition), XSD.anyURI))
                self.out.add(node, DCTERMS.title, Lit(label))
                self.out.add(node, DCTERMS.publisher, Lit("TOP500"))
                self.out.add(node, HK.citationKind, HK.RankingList)
            lst = list_iri(edition)
            if str(lst) not in self.existing.nodes:
                self.out.add(lst, RDF.type, HK.ListEdition)
                self.out.add(lst, RDFS.label, Lit(f"TOP500 {_MONTHS.get(month, month)} {year}"))
                self.out.add(lst, HK.rankingName, Lit("TOP500"))
                self.out.add(lst, HK.date, Lit(edition, XSD.gYearMonth))
            if str(lst) not in self.existing.published:
                self.out.add(lst, HK.publishedOn, Lit(edition_date(edition).isoformat(), XSD.date))
        return node

    def _system_citation(self, system_id: str, label: str) -> URIRef:
        node = id_iri("citation", f"top500-system-{system_id}")
        if system_id not in self._system_citations and str(node) not in self.existing.nodes:
            self._system_citations.add(system_id)
            self.out.add(node, RDF.type, HK.Citation)
            self.out.add(node, HK.url, Lit(system_url(system_id), XSD.anyURI))
            self.out.add(node, DCTERMS.title, Lit(f"TOP500 system page: {label}"))
            self.out.add(node, DCTERMS.publisher, Lit("TOP500"))
            self.out.add(node, HK.citationKind, HK.WebPage)
        return node

    def _claim(self, node: URIRef, kind: URIRef, system: URIRef, citations: list[URIRef]) -> None:
        self.out.add(node, RDF.type, kind)
        self.out.add(node, HK.system, system)
        self.out.add(node, HK.tier, HK.Verified)
        for citation in citations:
            self.out.add(node, HK.citation, citation)
        self.stats.claims += 1

    # -- one system ---------------------------------------------------------------

    def add_track(self, track: Track, system: URIRef, latest_edition: str) -> None:
        """All triples of one machine across the lists it appears in."""
        slug = system.rsplit("/", 1)[-1]
        curated = system in self.curated
        self.stats.systems += 1
        self.stats.merged_with_curated += curated
        self.stats.linked_across_id += track.linked
        label = _label(track.last)
        sys_cite = self._system_citation(track.system_id, label) if track.system_id else None
        if not curated:
            self.out.add(system, RDF.type, HK.System)
            self.out.add(system, RDFS.label, Lit(label))
            for entry in track.entries:
                other = _label(entry)
                if other != label:
                    self.out.add(system, SKOS.altLabel, Lit(other))
            if track.system_id:
                self.out.add(system, HK.top500SystemId, Lit(track.system_id))
            site_id = next((e.site_id for e in reversed(track.entries) if e.site_id), None)
            if site_id:
                self.out.add(system, HK.top500SiteId, Lit(site_id))
            country = country_code(track.last.get("country"))
            if country:
                self.out.add(system, HK.country, Lit(country))
        per_edition: dict[str, int] = defaultdict(int)
        for entry in track.entries:
            per_edition[entry.edition] += 1
        build_day = edition_date(track.first.edition)
        supplies: dict[URIRef, _Supply] = {}
        locations: dict[tuple[str, str], set[str]] = defaultdict(set)
        for entry in track.entries:
            key = entry.edition if per_edition[entry.edition] == 1 else f"{entry.edition}-r{entry.rank}"
            key = f"{self._claim_base(slug)}/{key}"
            cites = [self._list_citation(entry.edition)] + ([sys_cite] if sys_cite else [])
            self._row_claims(entry, system, slug, key, cites)
            for item in self._supplies(entry, build_day):
                claim = id_iri(
                    "claim",
                    "top500",
                    slug,
                    "supply",
                    _ROLE_SLUG[item.role],
                    (item.part or item.supplier or "").rsplit("/", 1)[-1],
                )
                merged = supplies.setdefault(claim, _Supply(item.role, item.part, item.supplier))
                merged.editions.add(entry.edition)
                for text in item.descriptions:
                    if text not in merged.descriptions:
                        merged.descriptions.append(text)
            country = country_code(entry.get("country"))
            if entry.get("country") and country is None:
                self.stats.unknown_countries[entry.get("country")] += 1
            if country or entry.get("site"):
                locations[(country or "", entry.get("site"))].add(entry.edition)
        for claim, item in sorted(supplies.items()):
            cites = [self._list_citation(e) for e in sorted(item.editions)] + ([sys_cite] if sys_cite else [])
            self._claim(claim, HK.SupplyRelationship, system, cites)
            self.out.add(claim, HK.role, item.role)
            if item.part is not None:
                self.out.add(claim, HK.part, item.part)
            if item.supplier is not None:
                self.out.add(claim, HK.supplier, item.supplier)
            for edition in item.editions:
                self.out.add(claim, HK.listEdition, list_iri(edition))
            self.out.add(claim, HK.partDescription, Lit(item.descriptions[0]))
            for text in item.descriptions:
                self.out.add(claim, HK.sourceText, Lit(text))
        for (country, site), editions in sorted(locations.items()):
            claim = id_iri("claim", "top500", slug, "location", country or "xx", digest(site, length=8))
            cites = [self._list_citation(e) for e in sorted(editions)] + ([sys_cite] if sys_cite else [])
            self._claim(claim, HK.LocationClaim, system, cites)
            if country:
                self.out.add(claim, HK.country, Lit(country))
            if site:
                self.out.add(claim, HK.locationText, Lit(site))
            for edition in editions:
                self.out.add(claim, HK.listEdition, list_iri(edition))
        self._timeline(track, system, slug, latest_edition, sys_cite)

    @staticmethod
    def _claim_base(slug: str) -> str:
        return str(id_iri("claim", "top500", slug))

    def _row_claims(self, entry: Entry, system: URIRef, slug: str, key: str, cites: list[URIRef]) -> None:
        """Ranking entry and measurements of one row; ``key`` is the claim IRI prefix."""
        edition_node = list_iri(entry.edition)
        done = self.existing.facts
        sys_key = str(system)
        rank_claim = None if (sys_key, entry.edition, "rank") in done else URIRef(f"{key}/rank")
        if rank_claim is not None:
            self._write_rank(rank_claim, entry, system, edition_node, cites)
        as_of = Lit(edition_date(entry.edition).isoformat(), XSD.date)
        for fieldname, value in entry.figures.items():
            if fieldname == "accelerator_cores" and value == 0:
                continue  # TOP500 writes 0 for "no accelerator", not a measured zero
            metric, unit = METRICS[fieldname]
            if (sys_key, entry.edition, str(metric)) in done:
                continue
            claim = URIRef(f"{key}/{_METRIC_SLUG[fieldname]}")
            self._claim(claim, HK.Measurement, system, cites)
            self.out.add(claim, HK.metric, metric)
            self.out.add(claim, HK.value, Lit(format_decimal(value), XSD.decimal))
            self.out.add(claim, HK.unit, unit)
            self.out.add(claim, HK.listEdition, edition_node)
            self.out.add(claim, HK.asOf, as_of)

    def _write_rank(
        self, rank_claim: URIRef, entry: Entry, system: URIRef, edition_node: URIRef, cites: list[URIRef]
    ) -> None:
        self._claim(rank_claim, HK.RankingEntry, system, cites)
        self.out.add(rank_claim, HK.listEdition, edition_node)
        self.out.add(rank_claim, HK.rank, Lit(entry.rank, XSD.integer))

    def _supplies(self, entry: Entry, build_day: dt.date) -> list[_Supply]:
        """Supply items of a row; memoised, as the same texts recur across lists."""
        key = (
            entry.get("manufacturer"),
            entry.get("accelerator"),
            entry.get("processor"),
            entry.get("interconnect"),
            build_day,
        )
        cached = self._supply_cache.get(key)
        if cached is None:
            cached = self._supply_cache[key] = self._resolve_supplies(entry, build_day)
        return cached

    def _resolve_supplies(self, entry: Entry, build_day: dt.date) -> list[_Supply]:
        items: list[_Supply] = []
        cat = self.cat
        for org in cat.resolve_orgs(entry.get("manufacturer")):
            items.append(_Supply(HK.Integrator, None, cat.supplier_at(org, build_day), [entry.get("manufacturer")]))
        accelerator = entry.get("accelerator")
        if accelerator and accelerator.lower() not in ("none", "n/a", "-"):
            items += self._parts(accelerator, HK.Accelerator, build_day)
        if entry.get("processor"):
            items += self._parts(entry.get("processor"), HK.CPU, build_day)
        interconnect = entry.get("interconnect")
        if interconnect:
            part, supplier = cat.interconnect_vendor(interconnect, build_day)
            if part is not None or supplier is not None:
                items.append(_Supply(HK.Interconnect, part, supplier, [interconnect]))
        return items

    def _parts(self, text: str, role: URIRef, build_day: dt.date) -> list[_Supply]:
        """One supply per part named; "K40/Xeon Phi 7120P" names two."""
        cat = self.cat
        part = cat.resolve_part(text, role, log=False)
        pieces = [text] if part is not None else [p.strip() for p in text.replace(",", "/").split("/") if p.strip()]
        items: list[_Supply] = []
        for piece in pieces:
            found = part if piece == text else cat.resolve_part(piece, role, log=False)
            if found is None:
                cat.unresolved[_ROLE_SLUG[role]][piece] += 1
            designer = cat.designer(found) or cat.designer_from_text(piece)
            supplier = cat.supplier_at(designer, build_day)
            if found is not None or supplier is not None:
                items.append(_Supply(role, found, supplier, [text]))
        return items

    def _timeline(self, track: Track, system: URIRef, slug: str, latest: str, sys_cite: URIRef | None) -> None:
        first = track.first
        stated = [edition_from_number(e.get("first_appearance")) for e in track.entries if e.get("first_appearance")]
        earliest = min([s for s in stated if s] + [first.edition])
        known = bool(stated) or first.edition != self.earliest_edition
        if known:
            claim = id_iri("claim", "top500", slug, "first-listed")
            source = next((e for e in track.entries if e.get("first_appearance")), first)
            self._claim(
                claim,
                HK.TimelineEvent,
                system,
                [self._list_citation(source.edition)] + ([sys_cite] if sys_cite else []),
            )
            self.out.add(claim, HK.eventKind, HK.FirstListed)
            self.out.add(claim, HK.date, Lit(earliest, XSD.gYearMonth))
            self._list_citation(earliest)  # makes sure the ListEdition node exists
            self.out.add(claim, HK.listEdition, list_iri(earliest))
        if track.last.edition < latest:
            last = track.last
            claim = id_iri("claim", "top500", slug, "last-listed")
            self._claim(
                claim, HK.TimelineEvent, system, [self._list_citation(last.edition)] + ([sys_cite] if sys_cite else [])
            )
            self.out.add(claim, HK.eventKind, HK.LastListed)
            self.out.add(claim, HK.date, Lit(last.edition, XSD.gYearMonth))
            self.out.add(claim, HK.listEdition, list_iri(last.edition))


def _label(entry: Entry) -> str:
    name = entry.get("name")
    if name:
        return name
    computer = entry.get("computer").split(",")[0].strip() or "TOP500 system"
    site = entry.get("site")
    return f"{computer} ({site})" if site else computer
