"""The confidence tiers' ranks as the loaded graph states them, for the summaries computed at load.

Every summary that counts "claims of at least tier r" (:mod:`hpckg.derive`,
:mod:`hpckg.supply`, :mod:`hpckg.operations`) reads the ranks here, once per load,
and writes one node per rank the graph defines (the thresholds).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pyoxigraph as ox

if TYPE_CHECKING:
    from .store import Dataset

__all__ = ["TierRanks", "thresholds", "tier_ranks"]

# tier -> (rank, the rank's literal as stated, reused in the summaries' hk:minTierRank)
TierRanks = dict[ox.NamedNode, tuple[int, ox.Literal]]

_TIER_RANKS = "SELECT ?t ?rank WHERE { ?t hk:tierRank ?rank }"


def tier_ranks(ds: Dataset) -> TierRanks:
    """Each tier's rank; a rank that is not an integer is left out (the shapes report it)."""
    ranks: TierRanks = {}
    for tier, literal in ds.query(_TIER_RANKS):
        try:
            ranks[tier] = (int(literal.value), literal)
        except ValueError:
            continue
    return ranks


def thresholds(ranks: TierRanks) -> list[tuple[int, ox.Literal]]:
    """The distinct ranks, lowest first: one summary per minimum tier rank."""
    return sorted(set(ranks.values()), key=lambda rank: rank[0])
