"""Turn one checked Epoch row into hpckg claims, each cited and tiered.

Citations of a row's claims, every one of them:

- the dataset, ``cite:epoch-gpu-clusters`` (title, publisher, licence, credit), so
  a row with no source URL still has an honest citation;
- one citation per source URL, its IRI a digest of the URL, so a URL cited by
  many rows is one node;
- when the row has a Quote, a row-specific *record* citation that carries it
  (``hk:quote``) and is ``dcterms:isPartOf`` the dataset. Epoch does not say which
  of a row's URLs a quote comes from, and a shared URL's node must not collect
  quotes about other clusters, so the quote stays on the row's own node.

Claim IRIs start with ``epoch-<row key>`` so they stay unique when the row's claims
attach to a reconciled TOP500 or curated system.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal

import pyoxigraph as ox
from rdflib import BNode, Literal, URIRef

from ..countries import country_code
from ..namespaces import DCTERMS, HK, RDF, RDFS, SKOS, XSD, digest, id_iri, slugify
from .epoch_parts import EpochNames
from .epoch_rows import ClusterRow
from .epoch_tiers import cap

__all__ = [
    "DATASET",
    "RowContext",
    "Triples",
    "dataset_triples",
    "decimal_literal",
    "row_claims",
    "url_citation",
]

DATASET = id_iri("citation", "epoch-gpu-clusters")
DATASET_TITLE = "Data on GPU Clusters"
CREDIT = "Epoch AI, Data on GPU Clusters"
PUBLISHER = "Epoch AI"
LICENSE = URIRef("https://creativecommons.org/licenses/by/4.0/")
_STATUS = {"Existing": HK.Operational, "Planned": HK.Planned, "Decommissioned": HK.Decommissioned}
_YEAR = re.compile(r"\b((?:19|20)\d\d)\b")

Term = URIRef | Literal | BNode


class Triples:
    """A set of triples, serialised as sorted N-Triples (stable, diff-friendly)."""

    def __init__(self) -> None:
        self.items: set[tuple[URIRef, URIRef, URIRef | Literal]] = set()

    def add(self, s: URIRef, p: URIRef, o: URIRef | Literal) -> None:
        self.items.add((s, p, o))

    def update(self, other: Iterable[tuple[URIRef, URIRef, URIRef | Literal]]) -> None:
        self.items.update(other)

    def __len__(self) -> int:
        return len(self.items)

    def ntriples(self) -> bytes:
        triples = [ox.Triple(_ox(s), _ox(p), _ox(o)) for s, p, o in self.items]  # type: ignore[arg-type]
        data = ox.serialize(triples, format=ox.RdfFormat.N_TRIPLES) or b""
        lines = sorted(set(data.splitlines()))
        return b"".join(line + b"\n" for line in lines)


def _ox(term: URIRef | Literal) -> ox.NamedNode | ox.Literal:
    if isinstance(term, URIRef):
        return ox.NamedNode(str(term))
    if term.language:
        return ox.Literal(str(term), language=term.language)
    if term.datatype is not None and term.datatype != XSD.string:
        return ox.Literal(str(term), datatype=ox.NamedNode(str(term.datatype)))
    return ox.Literal(str(term))


def decimal_literal(value: Decimal) -> Literal:
    """An xsd:decimal in plain notation (``Decimal("1E+3")`` -> ``"1000"``)."""
    text = format(value, "f")
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return Literal(text or "0", datatype=XSD.decimal)


def partial_date(text: str, precision_hint: str = "") -> Literal | None:
    """``2023-11-08`` -> xsd:date; ``2021-07`` -> xsd:gYearMonth; ``2020`` -> xsd:gYear.

    Epoch writes imprecise dates as a full date (the 15th of the month) and keeps the
    precision in the date note ("2020-04"); a note that is a prefix of the date
    lowers the precision to what the source really said.
    """
    text = text.strip()
    hint = precision_hint.strip()
    if re.fullmatch(r"\d{4}-\d{2}-\d{2}", text):
        if re.fullmatch(r"\d{4}-\d{2}", hint) and text.startswith(hint):
            return Literal(hint, datatype=XSD.gYearMonth)
        if re.fullmatch(r"\d{4}", hint) and text.startswith(hint):
            return Literal(hint, datatype=XSD.gYear)
        return Literal(text, datatype=XSD.date)
    if re.fullmatch(r"\d{4}-\d{2}", text):
        return Literal(text, datatype=XSD.gYearMonth)
    if re.fullmatch(r"\d{4}", text):
        return Literal(text, datatype=XSD.gYear)
    return None


def url_citation(url: str) -> URIRef:
    return id_iri("citation", "url-" + digest(url))


def dataset_triples(out: Triples) -> None:
    """The dataset citation (the same node as the curated ``cite:epoch-gpu-clusters``)."""
    out.add(DATASET, RDF.type, HK.Citation)
    out.add(DATASET, DCTERMS.title, Literal(DATASET_TITLE))
    out.add(DATASET, DCTERMS.publisher, Literal(PUBLISHER))
    out.add(DATASET, DCTERMS.creator, Literal(PUBLISHER))
    out.add(DATASET, DCTERMS.license, LICENSE)
    out.add(DATASET, DCTERMS.rights, Literal("CC BY 4.0"))
    out.add(DATASET, DCTERMS.bibliographicCitation, Literal(CREDIT))
    out.add(DATASET, HK.citationKind, HK.Dataset)


@dataclass
class RowContext:
    """Where a row's claims go and how they are cited and tiered."""

    row: ClusterRow
    key: str  # unique per row: slug of the name, or a digest for anonymised rows
    system: URIRef
    own: bool  # True when the system node is this row's own (not a reconciled one)
    tier: URIRef
    as_of: Literal | None = None  # --as-of: the date the CSV was downloaded


def row_claims(ctx: RowContext, names: EpochNames, out: Triples) -> list[URIRef]:
    """Add every claim of the row to ``out``; return the citations used."""
    row, system = ctx.row, ctx.system
    cites = _citations(ctx, out)
    out.add(system, RDF.type, HK.System)
    if ctx.own:
        out.add(system, RDFS.label, Literal(row.name))
    else:
        out.add(system, SKOS.altLabel, Literal(row.name))
    if row.anonymised:
        out.add(system, HK.anonymised, Literal(True))
    code = country_code(row.country) if row.country else None
    if code and ctx.own:
        out.add(system, HK.country, Literal(code))

    def claim(what: str, cls: URIRef, tier: URIRef | None = None, extra: Iterable[URIRef] = ()) -> URIRef:
        node = id_iri("claim", f"epoch-{ctx.key}-{what}")
        out.add(node, RDF.type, cls)
        out.add(node, HK.system, system)
        out.add(node, HK.tier, tier or ctx.tier)
        for citation in (*cites, *extra):
            out.add(node, HK.citation, citation)
        return node

    for owner in row.owners:
        org = names.org(owner)
        node = claim(f"operation-{slugify(owner)}", HK.Operation)
        out.add(node, HK.operator, org)
        out.add(node, HK.sourceText, Literal(owner))

    status = claim("status", HK.StatusClaim)
    out.add(status, HK.status, _STATUS[row.status])
    out.add(status, HK.sourceText, Literal(row.status))
    if ctx.as_of is not None:
        out.add(status, HK.asOf, ctx.as_of)

    first = partial_date(row.first_operational, row.first_operational_note)
    if first is not None and row.status != "Planned":
        event = claim("first-operational", HK.TimelineEvent)
        out.add(event, HK.eventKind, HK.FirstOperational)
        out.add(event, HK.date, first)
    gone = partial_date(row.decommissioned)
    if gone is not None:
        event = claim("decommissioned", HK.TimelineEvent)
        out.add(event, HK.eventKind, HK.Decommissioning)
        out.add(event, HK.date, gone)

    if code or row.location:
        where = claim("location", HK.LocationClaim)
        if code:
            out.add(where, HK.country, Literal(code))
        if row.location:
            out.add(where, HK.locationText, Literal(row.location))

    for index, (text, quantity, supplier_text) in enumerate(row.chips):
        chip = names.chip(text, supplier_text)
        if chip.part is None and chip.supplier is None:
            continue  # nothing to state but the text: the report lists the chip
        node = claim("supply-" + ("primary" if index == 0 else "secondary"), HK.SupplyRelationship)
        out.add(node, HK.role, HK.Accelerator)
        out.add(node, HK.partDescription, Literal(text))
        if chip.part is not None:
            out.add(node, HK.part, chip.part)
        if chip.supplier is not None:
            out.add(node, HK.supplier, chip.supplier)
        if quantity:
            out.add(node, HK.quantity, Literal(quantity))

    _measurements(ctx, claim, out)
    return cites


def _measurements(ctx: RowContext, claim, out: Triples) -> None:  # type: ignore[no-untyped-def]
    row = ctx.row
    planned_year = _planned_year(row) if row.status == "Planned" else None
    as_of = partial_date(row.first_operational) if row.status != "Planned" else None

    def figure(node: URIRef, metric: URIRef, value: Decimal, unit: URIRef) -> None:
        out.add(node, HK.metric, metric)
        out.add(node, HK.value, decimal_literal(value))
        out.add(node, HK.unit, unit)
        if as_of is not None and as_of.datatype == XSD.date:
            out.add(node, HK.asOf, as_of)
        if planned_year is not None:
            out.add(node, HK.targetYear, Literal(planned_year, datatype=XSD.gYear))

    if row.power_mw is not None:
        # Epoch's own figure when reported, else computed from the chips: an estimate.
        tier = ctx.tier if row.power_reported else cap(ctx.tier, HK.Estimated)
        figure(claim("power-capacity", HK.Measurement, tier), HK.PowerCapacity, row.power_mw, HK.Megawatt)
    if row.reported_cost is not None:
        extra = [_record(ctx, out, "cost", row.cost_quote)] if row.cost_quote else []
        figure(claim("hardware-cost", HK.Measurement, extra=extra), HK.HardwareCost, row.reported_cost, HK.USD)
    if row.h100e is not None:
        # H100 equivalents are Epoch's computation from chip type and count.
        count = row.h100e.quantize(Decimal(1))
        if count > 0:
            node = claim("h100-equivalents", HK.Measurement, cap(ctx.tier, HK.Estimated))
            figure(node, HK.H100Equivalents, count, HK.Count)


def _planned_year(row: ClusterRow) -> str | None:
    for text in (row.first_operational, row.first_operational_note):
        match = _YEAR.search(text)
        if match:
            return match.group(1)
    return None


def _citations(ctx: RowContext, out: Triples) -> list[URIRef]:
    cites = [DATASET]
    for url in ctx.row.sources:
        node = url_citation(url)
        out.add(node, RDF.type, HK.Citation)
        out.add(node, HK.url, Literal(url, datatype=XSD.anyURI))
        out.add(node, HK.citationKind, HK.WebPage)
        cites.append(node)
    if ctx.row.quote:
        cites.append(_record(ctx, out, "", ctx.row.quote))
    return cites


def _record(ctx: RowContext, out: Triples, part: str, quote: str) -> URIRef:
    """A row-specific citation carrying Epoch's verbatim quote."""
    node = id_iri("citation", f"epoch-record-{ctx.key}" + (f"-{part}" if part else ""))
    out.add(node, RDF.type, HK.Citation)
    what = "cost quote" if part == "cost" else "record"
    out.add(node, DCTERMS.title, Literal(f"{CREDIT}: {what} '{ctx.row.name}'"))
    out.add(node, DCTERMS.publisher, Literal(PUBLISHER))
    out.add(node, DCTERMS.isPartOf, DATASET)
    out.add(node, HK.citationKind, HK.Dataset)
    out.add(node, HK.quote, Literal(quote))
    return node
