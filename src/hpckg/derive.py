"""Per-system summaries, computed once at load so queries need not touch every claim.

On a graph of a million triples, any saved query that asks "what is the best tier
of this system's claims", "does any claim about it cite a readable source" or
"what is its highest Rmax" has to read all ~160 000 claims, which costs seconds
in SPARQL. :func:`materialise_summaries` reads the claims a few times in bulk,
groups them in Python and writes the answers into the derived graph, beside the
roll-up intervals (:mod:`hpckg.rollup`):

- ``?system hk:bestTierRank n``: the highest ``hk:tierRank`` of any claim with
  ``hk:system ?system`` (absent when it has no tiered claim);
- ``?system hk:readableCitation true|false``: some claim about it cites a source
  that has an ``hk:url`` (a cited node is a ``hk:Citation`` by the range of
  ``hk:citation``);
- one ``hk:RmaxSummary`` per system and minimum tier rank ``r``: ``hk:system``,
  ``hk:minTierRank r``, ``hk:highestRmax`` (the highest Rmax in TFlop/s among Rmax
  measurements of tier rank >= r) and the ``hk:asOf`` / ``hk:listEdition`` of the
  earliest measurement with that value.

Two more kinds of summary have their own modules: per list edition, groups of
ranking rows for the ``top500-*`` aggregates (:mod:`hpckg.listgroups`), and per
supplier, role and part, supply totals for ``parts-supplied-under-parent``
(:mod:`hpckg.supply`), and per operator, its systems for ``systems-by-operator``
(:mod:`hpckg.operations`).

The summaries are never curated, never validated and not exported unless asked
(``hpckg export --with-derived``).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import TYPE_CHECKING

import pyoxigraph as ox

from . import listgroups, operations, supply
from .namespaces import DERIVED_GRAPH, HK, RDF, XSD, digest, id_iri
from .tierranks import thresholds, tier_ranks

if TYPE_CHECKING:
    from .store import Dataset

__all__ = [
    "DERIVED_VERSION",
    "RmaxBest",
    "SystemSummary",
    "materialise_summaries",
    "summarise",
]

# Part of the on-disk store fingerprint: bump it when the derived triples change, so
# a store written by an older hpckg is rebuilt instead of reused without them.
DERIVED_VERSION = "summaries-6"

_TERA = Decimal(10) ** 12

# (TFlop/s, order key of the measurement, its date, its edition)
_Candidate = tuple[Decimal, tuple[bool, str, bool, str], ox.Literal | None, ox.NamedNode | None]

_SYSTEMS = "SELECT DISTINCT ?s WHERE { ?s a hk:System }"
# DISTINCT in the engine: far fewer rows cross into Python than there are claims.
_CLAIM_TIERS = "SELECT DISTINCT ?s ?t WHERE { ?c hk:system ?s ; hk:tier ?t }"
# Start from the few sources with a URL, then the claims citing them.
_READABLE = "SELECT DISTINCT ?s WHERE { ?cite hk:url ?url . ?c hk:citation ?cite ; hk:system ?s }"
_RMAX = """
SELECT ?s ?v ?scale ?t ?day ?edition WHERE {
  ?m hk:metric hk:Rmax ; a hk:Measurement ; hk:system ?s ; hk:value ?v ; hk:unit ?u ; hk:tier ?t .
  ?u hk:scale ?scale .
  OPTIONAL { ?m hk:asOf ?day }
  OPTIONAL { ?m hk:listEdition ?edition }
}
"""


@dataclass(frozen=True)
class RmaxBest:
    """A system's highest Rmax (TFlop/s) among measurements of tier rank >= ``min_rank``."""

    min_rank: ox.Literal
    tflops: Decimal
    as_of: ox.Literal | None
    edition: ox.NamedNode | None


@dataclass
class SystemSummary:
    """What :func:`summarise` finds for one system."""

    system: ox.NamedNode
    best_tier_rank: ox.Literal | None = None
    readable_citation: bool = False
    rmax: tuple[RmaxBest, ...] = ()


def _number(term: ox.Literal) -> Decimal | None:
    try:
        number = Decimal(term.value)
    except InvalidOperation:
        return None  # the shapes report a bad number; summaries skip it
    return number if number.is_finite() else None


def _first_key(day: ox.Literal | None, edition: ox.NamedNode | None) -> tuple[bool, str, bool, str]:
    """Order measurements of equal value: earliest date first, undated last, then edition."""
    return (day is None, day.value if day else "", edition is None, edition.value if edition else "")


def summarise(ds: Dataset) -> list[SystemSummary]:
    """Every system's summary, read from the dataset with a few bulk queries."""
    ranks = tier_ranks(ds)
    levels = thresholds(ranks)
    summaries = {row[0]: SystemSummary(row[0]) for row in ds.query(_SYSTEMS)}

    best: dict[ox.NamedNode, tuple[int, ox.Literal]] = {}
    for system, tier in ds.query(_CLAIM_TIERS):
        rank = ranks.get(tier)
        if rank is not None and system in summaries and (system not in best or rank[0] > best[system][0]):
            best[system] = rank
    for system, rank in best.items():
        summaries[system].best_tier_rank = rank[1]

    for (system,) in ds.query(_READABLE):
        if system in summaries:
            summaries[system].readable_citation = True

    # Per system and tier rank: the best (value, first measurement) of that exact rank.
    by_rank: dict[ox.NamedNode, dict[int, _Candidate]] = defaultdict(dict)
    for system, value, scale, tier, day, edition in ds.query(_RMAX):
        rank = ranks.get(tier)
        v, s = _number(value), _number(scale)
        if rank is None or v is None or s is None or system not in summaries:
            continue
        tflops = v * s / _TERA
        key = _first_key(day, edition)
        candidate: _Candidate = (tflops, key, day, edition)
        seen = by_rank[system].get(rank[0])
        if seen is None or _better(candidate, seen):
            by_rank[system][rank[0]] = candidate
    for system, per_rank in by_rank.items():
        summaries[system].rmax = tuple(_suffix_best(per_rank, levels))
    return [summaries[s] for s in sorted(summaries, key=lambda n: n.value)]


def _better(candidate: _Candidate, current: _Candidate) -> bool:
    """A higher value wins; of equal values, the first measurement."""
    return candidate[0] > current[0] or (candidate[0] == current[0] and candidate[1] < current[1])


def _suffix_best(
    per_rank: dict[int, _Candidate],
    levels: list[tuple[int, ox.Literal]],
) -> Iterable[RmaxBest]:
    """For each minimum rank, the best over all ranks at or above it."""
    current = None
    for number, literal in reversed(levels):
        candidate = per_rank.get(number)
        if candidate is not None and (current is None or _better(candidate, current)):
            current = candidate
        if current is not None:
            yield RmaxBest(literal, current[0], current[2], current[3])


def _decimal_literal(number: Decimal) -> ox.Literal:
    text = format(number.normalize(), "f")
    return ox.Literal(text, datatype=ox.NamedNode(str(XSD.decimal)))


def _quads(summary: SystemSummary, graph: ox.NamedNode) -> list[ox.Quad]:
    system = summary.system
    quads = [
        ox.Quad(
            system,
            _HK_READABLE,
            ox.Literal("true" if summary.readable_citation else "false", datatype=ox.NamedNode(str(XSD.boolean))),
            graph,
        ),
    ]
    if summary.best_tier_rank is not None:
        quads.append(ox.Quad(system, _HK_BEST, summary.best_tier_rank, graph))
    for item in summary.rmax:
        node = ox.NamedNode(str(id_iri("rmax-summary", digest(system.value, item.min_rank.value))))
        quads += [
            ox.Quad(node, _RDF_TYPE, _HK_RMAX_SUMMARY, graph),
            ox.Quad(node, _HK_SYSTEM, system, graph),
            ox.Quad(node, _HK_MIN_TIER_RANK, item.min_rank, graph),
            ox.Quad(node, _HK_HIGHEST_RMAX, _decimal_literal(item.tflops), graph),
        ]
        if item.as_of is not None:
            quads.append(ox.Quad(node, _HK_AS_OF, item.as_of, graph))
        if item.edition is not None:
            quads.append(ox.Quad(node, _HK_LIST_EDITION, item.edition, graph))
    return quads


_RDF_TYPE = ox.NamedNode(str(RDF.type))
_HK_READABLE = ox.NamedNode(str(HK.readableCitation))
_HK_BEST = ox.NamedNode(str(HK.bestTierRank))
_HK_RMAX_SUMMARY = ox.NamedNode(str(HK.RmaxSummary))
_HK_SYSTEM = ox.NamedNode(str(HK.system))
_HK_MIN_TIER_RANK = ox.NamedNode(str(HK.minTierRank))
_HK_HIGHEST_RMAX = ox.NamedNode(str(HK.highestRmax))
_HK_AS_OF = ox.NamedNode(str(HK.asOf))
_HK_LIST_EDITION = ox.NamedNode(str(HK.listEdition))


def _clear(ds: Dataset, graph: ox.NamedNode) -> None:
    """Drop summaries of an earlier run, so deriving twice gives the same graph."""
    store = ds.store
    old = [q for p in (_HK_READABLE, _HK_BEST) for q in store.quads_for_pattern(None, p, None, graph)]
    kinds = (_HK_RMAX_SUMMARY, *listgroups.KINDS, *supply.KINDS, *operations.KINDS)
    for node in [q.subject for k in kinds for q in store.quads_for_pattern(None, _RDF_TYPE, k, graph)]:
        old += list(store.quads_for_pattern(node, None, None, graph))
    for quad in old:
        store.remove(quad)


def materialise_summaries(ds: Dataset) -> int:
    """Write every system's summary into the derived graph; returns the triples added.

    Runs after :func:`hpckg.rollup.materialise_rollups` (which empties the derived
    graph); summaries of an earlier run are replaced.
    """
    graph = ox.NamedNode(str(DERIVED_GRAPH))
    _clear(ds, graph)
    quads = [quad for summary in summarise(ds) for quad in _quads(summary, graph)]
    quads += listgroups.list_quads(ds, graph)
    quads += supply.supply_quads(ds, graph)
    quads += operations.operation_quads(ds, graph)
    ds.store.extend(quads)
    return len(quads)
