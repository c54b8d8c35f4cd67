"""Supply totals per supplier, role and part, so ``parts-supplied-under-parent`` reads a few nodes.

"What does NVIDIA supply once Mellanox is counted" aggregates every supply claim
of the suppliers under a parent: 21 000 claims for NVIDIA in the benchmark graph,
400 ms in SPARQL. The roll-up date and the parent are parameters, but the totals
per supplier are not, so :func:`supply_quads` computes them once at load and
writes one ``hk:SupplySummary`` per supplier (as named at build), role, labelled
part (or none) and minimum tier rank ``r``, counting the supply claims of tier
rank >= r:

- ``hk:summarySupplier``, ``hk:summaryRole``, ``hk:summaryPart`` (absent for claims
  naming no labelled part) and ``hk:minTierRank r``;
- ``hk:systemCount``: the distinct systems of those claims;
- ``hk:quantityTotal``: the sum of the quantities they state (a claim without one
  adds nothing) and ``hk:quantityClaims``: how many state one;
- ``hk:lowestTier`` / ``hk:highestTier``: the lowest and highest tier among them.

A summary exists only where some claim reaches rank r. The query rolls each
supplier up to its parent on the as-of date and adds the summaries of one
supplier, role and part: exact, since a summary is the only one of its key and
threshold.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import TYPE_CHECKING

import pyoxigraph as ox

from .namespaces import HK, RDF, XSD, digest, id_iri
from .tierranks import TierRanks, thresholds, tier_ranks

if TYPE_CHECKING:
    from .store import Dataset

__all__ = ["KINDS", "supply_quads"]

# DISTINCT drops the duplicate rows a part with two labels would give.
_CLAIMS = """
SELECT DISTINCT ?claim ?supplier ?role ?part ?system ?tier ?quantity WHERE {
  ?claim a hk:SupplyRelationship ; hk:supplier ?supplier ; hk:role ?role ; hk:system ?system ; hk:tier ?tier .
  OPTIONAL { ?claim hk:part ?part . ?part rdfs:label ?label }
  OPTIONAL { ?claim hk:quantity ?quantity }
}
"""


def _n(term: object) -> ox.NamedNode:
    return ox.NamedNode(str(term))


_RDF_TYPE = _n(RDF.type)
_SUPPLY_SUMMARY = _n(HK.SupplySummary)
_INTEGER = _n(XSD.integer)
KINDS = (_SUPPLY_SUMMARY,)

_Key = tuple[ox.NamedNode, ox.NamedNode, ox.NamedNode | None]  # (supplier, role, part)


@dataclass(frozen=True)
class _Claim:
    rank: int
    tier: ox.NamedNode
    system: ox.NamedNode
    quantity: int | None  # None: no quantity stated
    bad_quantity: bool  # a quantity that is not an integer: the total is unknown


def _integer(value: int) -> ox.Literal:
    return ox.Literal(str(value), datatype=_INTEGER)


def _claims(ds: Dataset, ranks: TierRanks) -> dict[_Key, list[_Claim]]:
    by_key: dict[_Key, list[_Claim]] = defaultdict(list)
    for _claim, supplier, role, part, system, tier, quantity in ds.query(_CLAIMS):
        rank = ranks.get(tier)
        if rank is None:
            continue  # an untiered claim: the shapes report it, the query never counted it
        number, bad = None, False
        if quantity is not None:
            try:
                number = int(quantity.value)
            except ValueError:
                bad = True
        by_key[(supplier, role, part)].append(_Claim(rank[0], tier, system, number, bad))
    return by_key


def supply_quads(ds: Dataset, graph: ox.NamedNode) -> list[ox.Quad]:
    """The supply summaries (see the module docstring), as quads of ``graph``."""
    ranks = tier_ranks(ds)
    quads: list[ox.Quad] = []
    for (supplier, role, part), claims in _claims(ds, ranks).items():
        for number, literal in thresholds(ranks):
            counted = [c for c in claims if c.rank >= number]
            if not counted:
                break
            node = _n(
                id_iri("supply-summary", digest(supplier.value, role.value, part.value if part else "", literal.value))
            )
            lowest = min(counted, key=lambda c: c.rank)
            highest = max(counted, key=lambda c: c.rank)
            stated = [c for c in counted if c.quantity is not None or c.bad_quantity]
            quads += [
                ox.Quad(node, _RDF_TYPE, _SUPPLY_SUMMARY, graph),
                ox.Quad(node, _n(HK.summarySupplier), supplier, graph),
                ox.Quad(node, _n(HK.summaryRole), role, graph),
                ox.Quad(node, _n(HK.minTierRank), literal, graph),
                ox.Quad(node, _n(HK.systemCount), _integer(len({c.system for c in counted})), graph),
                ox.Quad(node, _n(HK.quantityClaims), _integer(len(stated)), graph),
                ox.Quad(node, _n(HK.lowestTier), lowest.tier, graph),
                ox.Quad(node, _n(HK.highestTier), highest.tier, graph),
            ]
            if part is not None:
                quads.append(ox.Quad(node, _n(HK.summaryPart), part, graph))
            if not any(c.bad_quantity for c in stated):
                total = sum(c.quantity or 0 for c in counted)
                quads.append(ox.Quad(node, _n(HK.quantityTotal), _integer(total), graph))
    return quads
