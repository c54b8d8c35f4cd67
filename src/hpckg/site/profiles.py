"""Every system's profile and Turtle record in a few bulk queries.

:func:`hpckg.profile.system_profile` asks about a dozen queries per system: right
for ``hpckg show``, too slow for a site of 4,000 systems (about 0.1 s each on the
full graph, so minutes in all). This module builds the very same
:class:`~hpckg.profile.SystemProfile` objects from one query per kind of fact for
all systems at once; ``tests/test_site_profiles.py`` checks it against
``system_profile`` for every system of the bundled graph, so the two cannot drift.
Formatting (``Performance.display``, ``title_line``) stays in ``hpckg.profile``.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from decimal import Decimal
from typing import TYPE_CHECKING, Any

import pyoxigraph as ox

from ..namespaces import DERIVED_GRAPH, HK
from ..profile import ComponentRow, Performance, Source, SystemProfile, TimelineRow, component_row, source_of
from ..rollup import OwnershipGraph
from .systempage import turtle_bytes

if TYPE_CHECKING:
    from ..store import Dataset

__all__ = ["all_profiles", "all_turtle"]

_ROLE_ORDER = {"Integrator": 0, "Accelerator": 1, "CPU": 2, "Interconnect": 3, "Storage": 4}


def _v(row: dict[str, Any], key: str) -> str | None:
    term = row.get(key)
    return None if term is None else str(term.value)


def _multi(ds: Dataset, sparql: str) -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in ds.select(sparql):
        out[row["s"].value].append(row)
    return out


def all_profiles(ds: Dataset, day: dt.date, systems: list[str]) -> dict[str, SystemProfile]:
    """The profile of every system in ``systems``, as ``system_profile`` gives it."""
    head = _multi(
        ds,
        """SELECT ?s ?label ?country ?purposeLabel ?read WHERE { ?s a hk:System ; rdfs:label ?label .
        OPTIONAL { ?s hk:country ?country } OPTIONAL { ?s hk:purpose/skos:prefLabel ?purposeLabel }
        OPTIONAL { ?s hk:summary ?read } }""",
    )
    aliases = _multi(ds, "SELECT ?s ?a WHERE { ?s a hk:System ; skos:altLabel ?a }")
    operators = _multi(
        ds,
        """SELECT ?s ?o ?label WHERE { ?c a hk:Operation ; hk:system ?s ; hk:operator ?o .
        OPTIONAL { ?o rdfs:label ?l } BIND(COALESCE(?l, STR(?o)) AS ?label) }""",
    )
    statuses = _multi(
        ds,
        """SELECT ?s ?statusLabel ?asOf ?rank WHERE { ?c a hk:StatusClaim ; hk:system ?s ;
        hk:status/skos:prefLabel ?statusLabel ; hk:tier/hk:tierRank ?rank .
        OPTIONAL { ?c hk:asOf ?asOf } }""",
    )
    # Citations are read once each; claims and systems point at them. Only supply
    # claims and timeline events show their own sources, so only they are listed
    # claim by claim (measurements, the bulk of an imported graph, are not).
    details: dict[str, set[Source]] = defaultdict(set)
    for r in ds.select("""SELECT ?cite ?url ?title ?publisher WHERE {
            { SELECT DISTINCT ?cite WHERE { ?claim hk:system ?s ; hk:citation ?cite } }
            OPTIONAL { ?cite hk:url ?url } OPTIONAL { ?cite dcterms:title ?title }
            OPTIONAL { ?cite dcterms:publisher ?publisher } }"""):
        details[r["cite"].value].add(source_of(_v(r, "url"), _v(r, "title"), _v(r, "publisher")))
    sources: dict[str, set[Source]] = defaultdict(set)
    for r in ds.select("""SELECT ?claim ?cite WHERE { VALUES ?type { hk:SupplyRelationship hk:TimelineEvent }
            ?claim a ?type ; hk:system ?s ; hk:citation ?cite }"""):
        sources[r["claim"].value] |= details[r["cite"].value]
    cited: dict[str, set[Source]] = defaultdict(set)
    for r in ds.select("SELECT DISTINCT ?s ?cite WHERE { ?claim hk:system ?s ; hk:citation ?cite }"):
        cited[r["s"].value] |= details[r["cite"].value]
    components = _multi(
        ds,
        """SELECT ?s ?c ?roleLabel ?part ?partLabel ?family ?familyLabel ?desc ?supplier
        ?supplierLabel ?qty ?tierLabel WHERE {
          ?c a hk:SupplyRelationship ; hk:system ?s ; hk:role ?role ; hk:tier ?tier .
          ?role skos:prefLabel ?roleLabel . ?tier skos:prefLabel ?tierLabel ; hk:tierRank ?rank .
          VALUES ?role { hk:Integrator hk:Accelerator hk:CPU hk:Interconnect hk:Storage }
          OPTIONAL { ?c hk:part ?part . OPTIONAL { ?part rdfs:label ?partLabel }
                     OPTIONAL { ?part hk:family ?family . OPTIONAL { ?family rdfs:label ?familyLabel } } }
          OPTIONAL { ?c hk:partDescription ?desc } OPTIONAL { ?c hk:quantity ?qty }
          OPTIONAL { ?c hk:supplier ?supplier . OPTIONAL { ?supplier rdfs:label ?supplierLabel } } }""",
    )
    timeline = _multi(
        ds,
        """SELECT ?s ?c ?date ?kindLabel WHERE { ?c a hk:TimelineEvent ; hk:system ?s ;
        hk:eventKind/skos:prefLabel ?kindLabel ; hk:date ?date . }""",
    )
    changes = _multi(
        ds,
        """SELECT ?s ?d ?t WHERE { ?c a hk:ChangeRecord ; hk:system ?s ; dcterms:date ?d ;
        rdfs:comment ?t }""",
    )
    perf = _multi(
        ds,
        """SELECT ?s ?metric ?value ?scale ?asOf ?edition WHERE {
        ?m a hk:Measurement ; hk:system ?s ; hk:metric ?metric ; hk:value ?value ; hk:unit ?unit .
        ?unit hk:scale ?scale . OPTIONAL { ?m hk:asOf ?asOf }
        OPTIONAL { ?m hk:listEdition/rdfs:label ?edition }
        FILTER(?metric IN (hk:Rmax, hk:Rpeak, hk:Cores, hk:Power)) }""",
    )
    checked = {r["s"].value for r in ds.select("SELECT DISTINCT ?s WHERE { ?k a hk:SourceCheck ; hk:system ?s }")}
    ownership = OwnershipGraph.from_dataset(ds)

    profiles: dict[str, SystemProfile] = {}
    for iri in systems:
        if iri not in head:
            continue  # no rdfs:label: system_profile refuses it too
        h = min(
            head[iri],
            key=lambda r: tuple(_v(r, k) or "" for k in ("label", "country", "purposeLabel", "read")),
        )

        def src(claim: str) -> tuple[Source, ...]:
            return tuple(sorted(sources.get(claim, set())))

        status = max(statuses.get(iri, []), key=lambda r: (_v(r, "asOf") or "", int(r["rank"].value)), default=None)
        checks: list[Any] = []
        if iri in checked:
            from ..verify.report import source_check_rows

            checks = list(source_check_rows(ds, iri))
        profiles[iri] = SystemProfile(
            iri=iri,
            slug=iri.rsplit("/", 1)[-1],
            label=str(h["label"].value),
            aliases=sorted({str(r["a"].value) for r in aliases.get(iri, [])}),
            country=_v(h, "country"),
            status=_v(status, "statusLabel") if status else None,
            status_as_of=_v(status, "asOf") if status else None,
            purpose=_v(h, "purposeLabel"),
            operators=sorted({(str(r["label"].value), str(r["o"].value)) for r in operators.get(iri, [])}),
            performance=_performance(perf.get(iri, [])),
            components=_components(components.get(iri, []), src, ownership, day),
            read=_v(h, "read"),
            timeline=[
                TimelineRow(str(r["date"].value), str(r["kindLabel"].value), src(str(r["c"].value)))
                for r in sorted(timeline.get(iri, []), key=lambda r: (r["date"].value, r["kindLabel"].value))
            ],
            changes=sorted((str(r["d"].value), str(r["t"].value)) for r in changes.get(iri, [])),
            source_checks=checks,
            citations=sorted(cited.get(iri, ())),
        )
    return profiles


def _components(rows: list[dict[str, Any]], src: Any, ownership: OwnershipGraph, day: dt.date) -> list[ComponentRow]:
    def key(r: dict[str, Any]) -> tuple[int, bool, str, str]:
        label = _v(r, "partLabel")
        return (_ROLE_ORDER.get(str(r["roleLabel"].value), 9), label is not None, label or "", r["c"].value)

    out = []
    for r in sorted(rows, key=key):
        supplier = _v(r, "supplier")
        parent = ownership.parent(supplier, day) if supplier else None
        # parent_label is filled by the caller from the catalogue's labels
        out.append(component_row(r, parent, None, src(str(r["c"].value))))
    return out


def _performance(rows: list[dict[str, Any]]) -> Performance:
    """The latest figure of each metric, as ``hpckg.profile`` picks it."""
    latest: dict[str, tuple[Decimal, str | None, str | None]] = {}
    for r in sorted(rows, key=lambda r: _v(r, "asOf") or "", reverse=True):
        metric = str(r["metric"].value).rsplit("#", 1)[-1]
        if metric not in latest:
            value = Decimal(str(r["value"].value)) * Decimal(str(r["scale"].value))
            latest[metric] = (value, _v(r, "asOf"), _v(r, "edition"))

    def get(metric: str, scale: Decimal) -> Decimal | None:
        return latest[metric][0] / scale if metric in latest else None

    as_of = latest.get("Rmax", latest.get("Cores", (Decimal(0), None, None)))
    cores = get("Cores", Decimal(1))
    return Performance(
        rmax=get("Rmax", Decimal("1e12")),
        rpeak=get("Rpeak", Decimal("1e12")),
        cores=int(cores) if cores is not None else None,
        power_kw=get("Power", Decimal("1e3")),
        as_of=as_of[1],
        edition=as_of[2],
    )


def all_turtle(ds: Dataset, systems: list[str]) -> dict[str, bytes]:
    """Each system's record (the node, the nodes pointing at it with ``hk:system``, the
    citations and term checks those use) as Turtle, read by triple pattern, not SPARQL,
    because it touches most of the graph."""
    store = ds.store
    system_pred = ox.NamedNode(str(HK.system))
    links = [ox.NamedNode(str(HK[name])) for name in ("citation", "checkedCitation", "termCheck")]
    members: dict[str, set[ox.NamedNode]] = {s: {ox.NamedNode(s)} for s in systems}
    derived = ox.NamedNode(str(DERIVED_GRAPH))
    for quad in store.quads_for_pattern(None, system_pred, None):
        if not isinstance(quad.object, ox.NamedNode) or not isinstance(quad.subject, ox.NamedNode):
            continue
        if quad.graph_name == derived:
            continue
        bucket = members.get(quad.object.value)
        if bucket is not None:
            bucket.add(quad.subject)
    out: dict[str, bytes] = {}
    cache: dict[ox.NamedNode, set[ox.Triple]] = {}

    def triples_of(node: ox.NamedNode) -> set[ox.Triple]:
        found = cache.get(node)
        if found is None:
            # Derived summaries are computed at load, not part of the record.
            found = {
                ox.Triple(q.subject, q.predicate, q.object)
                for q in store.quads_for_pattern(node, None, None)
                if q.graph_name != derived
            }
            cache[node] = found
        return found

    for system in systems:
        nodes = set(members[system])
        for node in list(nodes):
            if node.value != system:
                for link in links:
                    nodes.update(
                        q.object
                        for q in store.quads_for_pattern(node, link, None)
                        if isinstance(q.object, ox.NamedNode)
                    )
        triples: set[ox.Triple] = set()
        for node in nodes:
            triples |= triples_of(node)
        out[system] = turtle_bytes(sorted(triples, key=_key))
    return out


def _key(t: ox.Triple) -> tuple[str, str, str]:
    return (str(t.subject), str(t.predicate), str(t.object))
