"""One system's profile: everything its page shows, gathered from the graph.

Used by ``hpckg show`` (text) and by the static site (HTML), so both say the same.
The layout follows the seed page: title line, operator, measured performance,
components with supplier at build beside current parent, the read, timeline,
change history and source check.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from decimal import Decimal
from typing import TYPE_CHECKING, Any
from urllib.parse import urlparse

import pyoxigraph as ox

from .errors import QueryError
from .namespaces import ID, PREFIXES

if TYPE_CHECKING:
    from .store import Dataset

__all__ = [
    "ComponentRow",
    "Performance",
    "Source",
    "SystemProfile",
    "TimelineRow",
    "component_row",
    "find_system",
    "format_count",
    "system_profile",
]


@dataclass(frozen=True, order=True)
class Source:
    host: str
    url: str | None
    title: str

    @property
    def display(self) -> str:
        return self.host or self.title


@dataclass(frozen=True)
class Performance:
    rmax: Decimal | None = None  # TFlop/s
    rpeak: Decimal | None = None  # TFlop/s
    cores: int | None = None
    power_kw: Decimal | None = None
    as_of: str | None = None
    edition: str | None = None

    @property
    def ratio(self) -> Decimal | None:
        if self.rmax is None or not self.rpeak:
            return None
        return self.rmax / self.rpeak

    @property
    def gf_per_w(self) -> Decimal | None:
        if self.rmax is None or not self.power_kw:
            return None
        # TFlop/s -> GFlop/s is x1000; kW -> W is x1000: the factors cancel.
        return self.rmax / self.power_kw

    def display(self) -> dict[str, str]:
        """Each figure as the page prints it, ``-`` when unknown."""
        return {
            "Rmax": _flops(self.rmax),
            "Rpeak": _flops(self.rpeak),
            "Rmax ÷ Rpeak": f"{self.ratio * 100:.1f}%" if self.ratio is not None else "-",
            "Cores": format_count(self.cores) if self.cores is not None else "-",
            "Power": f"{format_count(round(self.power_kw))} kW" if self.power_kw is not None else "-",
            "Per watt": f"{self.gf_per_w:.2f} GF/W" if self.gf_per_w is not None else "- GF/W",
        }


@dataclass(frozen=True)
class ComponentRow:
    role: str
    part_label: str | None
    part_iri: str | None
    part_family_label: str | None
    part_family_iri: str | None
    description: str | None
    supplier_label: str | None
    supplier_iri: str | None
    parent_label: str | None
    parent_iri: str | None
    quantity: int | None
    tier: str
    sources: tuple[Source, ...]
    claim_iri: str = ""


@dataclass(frozen=True)
class TimelineRow:
    date: str
    label: str
    sources: tuple[Source, ...]


@dataclass
class SystemProfile:
    iri: str
    slug: str
    label: str
    aliases: list[str]
    country: str | None
    status: str | None
    status_as_of: str | None
    purpose: str | None
    operators: list[tuple[str, str]]
    performance: Performance
    components: list[ComponentRow]
    read: str | None
    timeline: list[TimelineRow]
    changes: list[tuple[str, str]]
    source_checks: list[Any] = field(default_factory=list)
    citations: list[Source] = field(default_factory=list)

    @property
    def title_line(self) -> str:
        parts = [self.country_name or "-", self.status or "-", self.purpose or "-"]
        return " · ".join(parts)

    @property
    def country_name(self) -> str | None:
        from .countries import country_name

        return country_name(self.country) if self.country else None


def format_count(value: int | Decimal) -> str:
    """``2288`` -> ``"2,288"``."""
    return f"{int(value):,}"


def _flops(tflops: Decimal | None) -> str:
    if tflops is None:
        return "-"
    if tflops >= 1000:
        return f"{tflops / 1000:,.2f} PFlop/s"
    return f"{tflops:,.2f} TFlop/s"


def _v(row: dict[str, Any], key: str) -> str | None:
    term = row.get(key)
    return None if term is None else str(term.value)


def component_row(
    r: dict[str, Any], parent: str | None, parent_label: str | None, sources: tuple[Source, ...]
) -> ComponentRow:
    """One row of the components table from a supply-claim row (``c``, ``roleLabel``,
    ``part``, ``partLabel``, ``family``, ``familyLabel``, ``desc``, ``supplier``,
    ``supplierLabel``, ``qty``, ``tierLabel``); the parent shows only where it differs
    from the supplier."""
    supplier = _v(r, "supplier")
    qty = _v(r, "qty")
    differs = parent is not None and parent != supplier
    return ComponentRow(
        role=str(r["roleLabel"].value),
        part_label=_v(r, "partLabel"),
        part_iri=_v(r, "part"),
        part_family_label=_v(r, "familyLabel"),
        part_family_iri=_v(r, "family"),
        description=_v(r, "desc"),
        supplier_label=_v(r, "supplierLabel") or supplier,
        supplier_iri=supplier,
        parent_label=parent_label if differs else None,
        parent_iri=parent if differs else None,
        quantity=int(qty) if qty is not None else None,
        tier=str(r["tierLabel"].value),
        sources=sources,
        claim_iri=str(r["c"].value),
    )


def source_of(url: str | None, title: str | None, publisher: str | None) -> Source:
    host = ""
    if url:
        host = urlparse(url).hostname or url
        host = host.removeprefix("www.")
    return Source(host, url, title or publisher or host)


def find_system(ds: Dataset, text: str) -> str:
    """The IRI of the system named by a slug, IRI, prefixed name, label or alias."""
    if text.startswith(("http://", "https://")):
        candidates = [text]
    elif text.startswith("system:"):
        candidates = [PREFIXES["system"] + text.split(":", 1)[1]]
    elif re.fullmatch(r"[a-z0-9][a-z0-9-]*", text):
        candidates = [f"{ID}system/{text}"]
    else:
        candidates = []
    for iri in candidates:
        if ds.ask("ASK { $s a hk:System }", {"s": ox.NamedNode(iri)}):
            return iri
    rows = ds.select(
        """SELECT DISTINCT ?s $text WHERE { ?s a hk:System ; rdfs:label|skos:altLabel ?l .
           FILTER(LCASE(STR(?l)) = LCASE($text)) } ORDER BY ?s""",
        {"text": ox.Literal(text)},
    )
    if len(rows) == 1:
        return str(rows[0]["s"].value)
    if len(rows) > 1:
        names = ", ".join(r["s"].value.rsplit("/", 1)[-1] for r in rows)
        raise QueryError(f"{text!r} names several systems: {names}", "show")
    raise QueryError(f"no system named {text!r} (try a slug such as 'seren')", "show")


_PERF = """
SELECT ?metric ?value ?scale ?asOf ?edition $s WHERE {
  ?m a hk:Measurement ; hk:system $s ; hk:metric ?metric ; hk:value ?value ; hk:unit ?unit .
  ?unit hk:scale ?scale .
  OPTIONAL { ?m hk:asOf ?asOf }
  OPTIONAL { ?m hk:listEdition/rdfs:label ?edition }
  FILTER(?metric IN (hk:Rmax, hk:Rpeak, hk:Cores, hk:Power))
} ORDER BY DESC(?asOf)"""

_COMPONENTS = """
SELECT ?c ?roleLabel ?part ?partLabel ?family ?familyLabel ?desc ?supplier ?supplierLabel
       ?parent ?parentLabel ?qty ?tierLabel ?rank ?order $s $today WHERE {
  ?c a hk:SupplyRelationship ; hk:system $s ; hk:role ?role ; hk:tier ?tier .
  ?role skos:prefLabel ?roleLabel .
  ?tier skos:prefLabel ?tierLabel ; hk:tierRank ?rank .
  OPTIONAL { ?c hk:part ?part . OPTIONAL { ?part rdfs:label ?partLabel }
             OPTIONAL { ?part hk:family ?family . OPTIONAL { ?family rdfs:label ?familyLabel } } }
  OPTIONAL { ?c hk:partDescription ?desc }
  OPTIONAL { ?c hk:quantity ?qty }
  OPTIONAL { ?c hk:supplier ?supplier . OPTIONAL { ?supplier rdfs:label ?supplierLabel } }
  OPTIONAL {
    ?r a hk:RollUp ; hk:org ?supplier ; hk:parent ?parent .
    OPTIONAL { ?r hk:validFrom ?from } OPTIONAL { ?r hk:validUntil ?until }
    OPTIONAL { ?parent rdfs:label ?parentLabel }
    FILTER((!BOUND(?from) || ?from <= $today) && (!BOUND(?until) || $today < ?until))
  }
  VALUES (?role ?order) { (hk:Integrator 0) (hk:Accelerator 1) (hk:CPU 2) (hk:Interconnect 3) (hk:Storage 4) }
} ORDER BY ?order ?partLabel ?c"""

_SOURCES = """
SELECT ?claim ?url ?title ?publisher $s WHERE {
  ?claim hk:system $s ; hk:citation ?cite .
  OPTIONAL { ?cite hk:url ?url } OPTIONAL { ?cite dcterms:title ?title }
  OPTIONAL { ?cite dcterms:publisher ?publisher }
}"""

_HEAD = """
SELECT ?label ?country ?purposeLabel ?read $s WHERE {
  $s rdfs:label ?label .
  OPTIONAL { $s hk:country ?country }
  OPTIONAL { $s hk:purpose/skos:prefLabel ?purposeLabel }
  OPTIONAL { $s hk:summary ?read }
} LIMIT 1"""

_STATUS = """
SELECT ?statusLabel ?asOf ?rank $s WHERE {
  ?c a hk:StatusClaim ; hk:system $s ; hk:status/skos:prefLabel ?statusLabel ; hk:tier/hk:tierRank ?rank .
  OPTIONAL { ?c hk:asOf ?asOf }
} ORDER BY DESC(?asOf) DESC(?rank) LIMIT 1"""

_TIMELINE = """
SELECT ?c ?date ?kindLabel $s WHERE {
  ?c a hk:TimelineEvent ; hk:system $s ; hk:eventKind/skos:prefLabel ?kindLabel ; hk:date ?date .
} ORDER BY STR(?date) ?kindLabel"""


def system_profile(ds: Dataset, iri: str, today: dt.date | None = None) -> SystemProfile:
    """Gather the profile of the system ``iri``."""
    s = ox.NamedNode(iri)
    day = ox.Literal(
        (today or dt.date.today()).isoformat(), datatype=ox.NamedNode("http://www.w3.org/2001/XMLSchema#date")
    )
    head = ds.select(_HEAD, {"s": s})
    if not head:
        raise QueryError(f"no system {iri}", "show")
    h = head[0]
    aliases = sorted({str(r["a"].value) for r in ds.select("SELECT ?a $s WHERE { $s skos:altLabel ?a }", {"s": s})})
    operators = sorted(
        {
            (str(r["label"].value), str(r["o"].value))
            for r in ds.select(
                """SELECT ?o ?label $s WHERE { ?c a hk:Operation ; hk:system $s ; hk:operator ?o .
                   OPTIONAL { ?o rdfs:label ?l } BIND(COALESCE(?l, STR(?o)) AS ?label) }""",
                {"s": s},
            )
        }
    )
    status = ds.select(_STATUS, {"s": s})
    sources_by_claim: dict[str, set[Source]] = {}
    for r in ds.select(_SOURCES, {"s": s}):
        sources_by_claim.setdefault(str(r["claim"].value), set()).add(
            source_of(_v(r, "url"), _v(r, "title"), _v(r, "publisher"))
        )

    def sources(claim: str) -> tuple[Source, ...]:
        return tuple(sorted(sources_by_claim.get(claim, set())))

    components = []
    for r in ds.select(_COMPONENTS, {"s": s, "today": day}):
        components.append(component_row(r, _v(r, "parent"), _v(r, "parentLabel"), sources(str(r["c"].value))))
    timeline = [
        TimelineRow(str(r["date"].value), str(r["kindLabel"].value), sources(str(r["c"].value)))
        for r in ds.select(_TIMELINE, {"s": s})
    ]
    changes = [
        (str(r["d"].value), str(r["t"].value))
        for r in ds.select(
            "SELECT ?d ?t $s WHERE { ?c a hk:ChangeRecord ; hk:system $s ; "
            "dcterms:date ?d ; rdfs:comment ?t } ORDER BY ?d ?t",
            {"s": s},
        )
    ]
    citations = sorted({src for group in sources_by_claim.values() for src in group})
    try:
        from .verify.report import source_check_rows

        checks: list[Any] = list(source_check_rows(ds, iri))
    except ImportError:
        checks = []
    return SystemProfile(
        iri=iri,
        slug=iri.rsplit("/", 1)[-1],
        label=str(h["label"].value),
        aliases=aliases,
        country=_v(h, "country"),
        status=_v(status[0], "statusLabel") if status else None,
        status_as_of=_v(status[0], "asOf") if status else None,
        purpose=_v(h, "purposeLabel"),
        operators=operators,
        performance=_performance(ds, s),
        components=components,
        read=_v(h, "read"),
        timeline=timeline,
        changes=changes,
        source_checks=checks,
        citations=citations,
    )


def _performance(ds: Dataset, s: ox.NamedNode) -> Performance:
    """The latest figure of each metric (post-upgrade configuration first)."""
    latest: dict[str, tuple[Decimal, str | None, str | None]] = {}
    for r in ds.select(_PERF, {"s": s}):
        metric = str(r["metric"].value).rsplit("#", 1)[-1]
        if metric in latest:
            continue
        value = Decimal(str(r["value"].value)) * Decimal(str(r["scale"].value))
        latest[metric] = (value, _v(r, "asOf"), _v(r, "edition"))

    def get(metric: str, scale: Decimal) -> Decimal | None:
        return latest[metric][0] / scale if metric in latest else None

    rmax = get("Rmax", Decimal("1e12"))
    as_of = latest.get("Rmax", latest.get("Cores", (Decimal(0), None, None)))
    cores = get("Cores", Decimal(1))
    return Performance(
        rmax=rmax,
        rpeak=get("Rpeak", Decimal("1e12")),
        cores=int(cores) if cores is not None else None,
        power_kw=get("Power", Decimal("1e3")),
        as_of=as_of[1],
        edition=as_of[2],
    )
