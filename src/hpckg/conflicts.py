"""Find disagreements between sources: same system, same aspect, different values.

Only systems that more than one source describes are searched: curated systems
(they carry a curator's ``hk:summary``) and systems an importer matched
(``hk:Match``); a TOP500-only or Epoch-only system has one source. A handful of
bulk SELECTs fetch the claims of those systems (measurements, supply quantities,
statuses, countries, timeline events) and the pairs are compared here, because one
SPARQL query doing the same pairing and NOT EXISTS checks took seconds on the full
graph. The rules are those the saved query ``conflicts`` documented:

* measurements: same metric, values more than 0.5 % apart once scaled to the same
  unit; the first claim is not a ranking-list entry (two editions' figures are a
  history), and claims as of two different dates are not compared;
* component counts: same role, parts of the same family, different quantities;
* status: different statuses, unless as of two different dates;
* country: different country codes;
* timeline events (other than first/last listed): neither date is a prefix of the
  other (``2023`` agrees with ``2023-05-18``);
* and in every case the two claims share no citation.

Each conflict keeps both values, both tiers and both sources; nothing is overwritten.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import TYPE_CHECKING, Any

import pyoxigraph as ox

from .namespaces import HK, RDFS, SKOS
from .queries import QueryResult

if TYPE_CHECKING:
    from .store import Dataset

__all__ = ["COLUMNS", "candidate_systems", "find_conflicts"]

COLUMNS = [
    "system",
    "label",
    "aspect",
    "valueA",
    "tierA",
    "sourceA",
    "valueB",
    "tierB",
    "sourceB",
    "claimA",
    "claimB",
]

# Timeline events every ranking-list import writes; their dates differ by design.
_LISTING_EVENTS = {str(HK.FirstListed), str(HK.LastListed)}
# Relative gap below which two scaled figures count as the same (rounding in sources).
_TOLERANCE = Decimal("0.005")

_CANDIDATES = """
SELECT DISTINCT ?system WHERE {
  { ?match a hk:Match ; hk:system ?system } UNION { ?system a hk:System ; hk:summary ?summary }
}"""

# One query per kind of claim; ?system is bound by a VALUES block of the candidates.
_CLAIMS = {
    "supply": """SELECT ?system ?claim ?tier ?role ?part ?quantity WHERE {
  ?claim hk:system ?system ; a hk:SupplyRelationship ; hk:role ?role ; hk:part ?part ;
         hk:quantity ?quantity ; hk:tier ?tier .
}""",
    "status": """SELECT ?system ?claim ?tier ?status ?asOf WHERE {
  ?claim hk:system ?system ; a hk:StatusClaim ; hk:status ?status ; hk:tier ?tier .
  OPTIONAL { ?claim hk:asOf ?asOf }
}""",
    "location": """SELECT ?system ?claim ?tier ?country WHERE {
  ?claim hk:system ?system ; a hk:LocationClaim ; hk:country ?country ; hk:tier ?tier .
}""",
    "event": """SELECT ?system ?claim ?tier ?kind ?date WHERE {
  ?claim hk:system ?system ; a hk:TimelineEvent ; hk:eventKind ?kind ; hk:date ?date ; hk:tier ?tier .
}""",
}

# Measurements in two steps: most are ranking-list figures, which are only ever
# the second claim of a pair, so the first step fetches the others and the second
# only the figures of the (system, metric) pairs those name.
_FIRST_FIGURES = """SELECT ?system ?claim ?tier ?metric ?value ?unit ?asOf WHERE {
  ?claim hk:system ?system ; a hk:Measurement ; hk:metric ?metric ; hk:value ?value ;
         hk:unit ?unit ; hk:tier ?tier .
  OPTIONAL { ?claim hk:listEdition ?edition }
  FILTER (!BOUND(?edition))
  OPTIONAL { ?claim hk:asOf ?asOf }
}"""
_FIGURES = """SELECT ?system ?claim ?tier ?metric ?value ?unit ?asOf ?edition WHERE {
  ?claim hk:system ?system ; hk:metric ?metric ; a hk:Measurement ; hk:value ?value ;
         hk:unit ?unit ; hk:tier ?tier .
  OPTIONAL { ?claim hk:asOf ?asOf }
  OPTIONAL { ?claim hk:listEdition ?edition }
}"""

_CITATIONS = """SELECT ?claim ?citation ?title ?url WHERE {
  ?claim hk:citation ?citation .
  OPTIONAL { ?citation dcterms:title ?title }
  OPTIONAL { ?citation hk:url ?url }
}"""


@dataclass
class _Claim:
    """One claim of a candidate system, its tiers and (multi-valued) attributes."""

    iri: ox.NamedNode
    system: ox.NamedNode
    tiers: list[Any] = field(default_factory=list)
    values: dict[str, set[Any]] = field(default_factory=lambda: defaultdict(set))

    def one(self, key: str) -> set[Any]:
        return self.values.get(key, set())


@dataclass(frozen=True)
class _Pair:
    """Two claims that disagree, before the citation check."""

    system: ox.NamedNode
    aspect: str
    a: _Claim
    b: _Claim
    value_a: str
    value_b: str


def _values_block(var: str, terms: Iterable[Any]) -> str:
    # Terms come from the store and are serialised by pyoxigraph (N-Triples syntax).
    return f"VALUES ?{var} {{ {' '.join(str(t) for t in terms)} }}"


def _with_values(query: str, var: str, terms: Iterable[Any]) -> str:
    at = query.index("{") + 1
    return f"{query[:at]}\n  {_values_block(var, terms)}\n{query[at:]}"


def _select(ds: Dataset, query: str) -> Iterator[ox.QuerySolution]:
    yield from ds.query(query)


def candidate_systems(ds: Dataset) -> list[ox.NamedNode]:
    """Systems described by more than one source: curated ones and matched ones."""
    return [row["system"] for row in _select(ds, _CANDIDATES) if isinstance(row["system"], ox.NamedNode)]


def _claims(ds: Dataset, query: str) -> list[_Claim]:
    """The claims a query returns (columns ?system ?claim ?tier and attributes)."""
    claims: dict[ox.NamedNode, _Claim] = {}
    solutions = ds.query(query)
    names = [v.value for v in solutions.variables]
    keys = [n for n in names if n not in ("system", "claim", "tier")]
    seen_tiers: set[tuple[Any, Any]] = set()
    for row in solutions:
        iri = row["claim"]
        claim = claims.get(iri)
        if claim is None:
            claim = claims[iri] = _Claim(iri, row["system"])
        if (iri, row["tier"]) not in seen_tiers:
            seen_tiers.add((iri, row["tier"]))
            claim.tiers.append(row["tier"])
        for key in keys:
            term = row[key]
            if term is not None:
                claim.values[key].add(term)
    return list(claims.values())


def _figures(ds: Dataset, systems: list[ox.NamedNode]) -> list[_Claim]:
    first = _claims(ds, _with_values(_FIRST_FIGURES, "system", systems))
    keys = {(c.system, m) for c in first for m in c.one("metric")}
    if not keys:
        return []
    rows = " ".join(f"({s} {m})" for s, m in keys)
    at = _FIGURES.index("{") + 1
    return _claims(ds, f"{_FIGURES[:at]}\n  VALUES (?system ?metric) {{ {rows} }}\n{_FIGURES[at:]}")


def _lookup(ds: Dataset, subjects: Iterable[Any], predicate: Any) -> dict[Any, list[Any]]:
    """``subject -> [objects]`` of one predicate for a set of subjects."""
    subjects = set(subjects)
    out: dict[Any, list[Any]] = defaultdict(list)
    if not subjects:
        return out
    query = f"SELECT ?s ?o WHERE {{ {_values_block('s', subjects)} ?s <{predicate}> ?o }}"
    for row in _select(ds, query):
        out[row["s"]].append(row["o"])
    return out


def _number(term: Any) -> Decimal | None:
    try:
        return Decimal(term.value)
    except (InvalidOperation, AttributeError):
        return None


def _differ(a: Any, b: Any) -> bool:
    """SPARQL ``!=`` for the literals compared here: numbers by value, others as terms."""
    na, nb = _number(a), _number(b)
    if na is not None and nb is not None:
        return na != nb
    return bool(a != b)


def _dated_apart(a: _Claim, b: _Claim) -> bool:
    """Both claims are as of a date and the dates differ: a history, not a conflict."""
    return any(da != db for da in a.one("asOf") for db in b.one("asOf"))


def _by(claims: list[_Claim], key: str) -> dict[tuple[Any, Any], list[tuple[_Claim, Any]]]:
    groups: dict[tuple[Any, Any], list[tuple[_Claim, Any]]] = defaultdict(list)
    for claim in claims:
        for term in claim.one(key):
            groups[(claim.system, term)].append((claim, term))
    return groups


def _ordered(items: list[tuple[_Claim, Any]]) -> Iterator[tuple[tuple[_Claim, Any], tuple[_Claim, Any]]]:
    """Each unordered pair of distinct claims once, the smaller IRI first."""
    for x in items:
        for y in items:
            if x[0].iri.value < y[0].iri.value:
                yield x, y


def _measurement_pairs(ds: Dataset, claims: list[_Claim]) -> Iterator[_Pair]:
    units = {u for c in claims for u in c.one("unit")}
    notations, scales = _lookup(ds, units, SKOS.notation), _lookup(ds, units, HK.scale)
    labels = _lookup(ds, {m for c in claims for m in c.one("metric")}, SKOS.prefLabel)
    for (system, metric), items in _by(claims, "metric").items():
        for a, _ in items:
            if a.one("edition"):
                continue  # a ranking-list figure is only ever the second of a pair
            for b, _ in items:
                if a is b or (not b.one("edition") and a.iri.value >= b.iri.value) or _dated_apart(a, b):
                    continue
                for va in a.one("value"):
                    for vb in b.one("value"):
                        yield from _compare_figures(system, labels[metric], a, b, va, vb, notations, scales)


def _compare_figures(
    system: ox.NamedNode,
    labels: list[Any],
    a: _Claim,
    b: _Claim,
    va: Any,
    vb: Any,
    notations: dict[Any, list[Any]],
    scales: dict[Any, list[Any]],
) -> Iterator[_Pair]:
    xa, xb = _number(va), _number(vb)
    if xa is None or xb is None:
        return
    for ua in a.one("unit"):
        for ub in b.one("unit"):
            for sa in filter(None, map(_number, scales.get(ua, []))):
                for sb in filter(None, map(_number, scales.get(ub, []))):
                    if abs(xa * sa - xb * sb) <= _TOLERANCE * xb * sb:
                        continue
                    for una in notations.get(ua, []):
                        for unb in notations.get(ub, []):
                            for label in labels:
                                yield _Pair(
                                    system, label.value, a, b, f"{va.value} {una.value}", f"{vb.value} {unb.value}"
                                )


def _supply_pairs(ds: Dataset, claims: list[_Claim]) -> Iterator[_Pair]:
    families = _lookup(ds, {p for c in claims for p in c.one("part")}, HK.family)
    labels = _lookup(ds, {r for c in claims for r in c.one("role")}, SKOS.prefLabel)
    for (system, role), items in _by(claims, "role").items():
        for (a, _), (b, _) in _ordered(items):
            same_family = any(
                fa == fb
                for pa in a.one("part")
                for pb in b.one("part")
                for fa in families.get(pa, [])
                for fb in families.get(pb, [])
            )
            if not same_family:
                continue
            for qa in a.one("quantity"):
                for qb in b.one("quantity"):
                    if _differ(qa, qb):
                        for label in labels[role]:
                            yield _Pair(system, f"{label.value} count", a, b, qa.value, qb.value)


def _status_pairs(ds: Dataset, claims: list[_Claim]) -> Iterator[_Pair]:
    labels = _lookup(ds, {s for c in claims for s in c.one("status")}, SKOS.prefLabel)
    by_system: dict[Any, list[tuple[_Claim, Any]]] = defaultdict(list)
    for claim in claims:
        by_system[claim.system].extend((claim, s) for s in claim.one("status"))
    for system, items in by_system.items():
        for (a, sa), (b, sb) in _ordered(items):
            if sa != sb and not _dated_apart(a, b):
                for la in labels[sa]:
                    for lb in labels[sb]:
                        yield _Pair(system, "status", a, b, la.value, lb.value)


def _location_pairs(claims: list[_Claim]) -> Iterator[_Pair]:
    by_system: dict[Any, list[tuple[_Claim, Any]]] = defaultdict(list)
    for claim in claims:
        by_system[claim.system].extend((claim, c) for c in claim.one("country"))
    for system, items in by_system.items():
        for (a, ca), (b, cb) in _ordered(items):
            if ca != cb:
                yield _Pair(system, "country", a, b, ca.value, cb.value)


def _event_pairs(ds: Dataset, claims: list[_Claim]) -> Iterator[_Pair]:
    labels = _lookup(ds, {k for c in claims for k in c.one("kind")}, SKOS.prefLabel)
    for (system, kind), items in _by(claims, "kind").items():
        if kind.value in _LISTING_EVENTS:
            continue
        for (a, _), (b, _) in _ordered(items):
            for da in a.one("date"):
                for db in b.one("date"):
                    if not da.value.startswith(db.value) and not db.value.startswith(da.value):
                        for label in labels[kind]:
                            yield _Pair(system, label.value, a, b, da.value, db.value)


def _citations(ds: Dataset, claims: set[ox.NamedNode]) -> tuple[dict[Any, set[Any]], dict[Any, str]]:
    """Each claim's citations and its sources text (titles, or URLs where untitled)."""
    cited: dict[Any, set[Any]] = defaultdict(set)
    names: dict[Any, set[str]] = {}
    if claims:
        for row in _select(ds, _with_values(_CITATIONS, "claim", claims)):
            cited[row["claim"]].add(row["citation"])
            found = names.setdefault(row["claim"], set())
            name = row["title"] if row["title"] is not None else row["url"]
            if name is not None:
                found.add(name.value)
    return cited, {claim: " | ".join(sorted(n)) for claim, n in names.items()}


def find_conflicts(ds: Dataset) -> QueryResult:
    """Every disagreement in ``ds``, one row per pair of claims (columns: :data:`COLUMNS`)."""
    systems = candidate_systems(ds)
    if not systems:
        return QueryResult(list(COLUMNS), [])
    claims = {kind: _claims(ds, _with_values(query, "system", systems)) for kind, query in _CLAIMS.items()}
    pairs = [
        *_measurement_pairs(ds, _figures(ds, systems)),
        *_supply_pairs(ds, claims["supply"]),
        *_status_pairs(ds, claims["status"]),
        *_location_pairs(claims["location"]),
        *_event_pairs(ds, claims["event"]),
    ]
    cited, sources = _citations(ds, {c.iri for p in pairs for c in (p.a, p.b)})
    labels = _lookup(ds, {p.system for p in pairs}, RDFS.label)
    rows: list[tuple[Any, ...]] = []
    for p in pairs:
        if cited[p.a.iri] & cited[p.b.iri] or p.a.iri not in sources or p.b.iri not in sources:
            continue  # a shared citation is one source; an uncited claim has no source to show
        for label in labels.get(p.system) or [None]:
            for ta in p.a.tiers:
                for tb in p.b.tiers:
                    rows.append(
                        (
                            p.system,
                            label,
                            ox.Literal(p.aspect),
                            ox.Literal(p.value_a),
                            ta,
                            ox.Literal(sources[p.a.iri]),
                            ox.Literal(p.value_b),
                            tb,
                            ox.Literal(sources[p.b.iri]),
                            p.a.iri,
                            p.b.iri,
                        )
                    )
    rows.sort(
        key=lambda r: (r[1] is not None, r[1].value if r[1] is not None else "", r[2].value, r[9].value, r[10].value)
    )
    return QueryResult(list(COLUMNS), rows)
