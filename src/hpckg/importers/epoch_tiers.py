"""Map Epoch AI's own Certainty and sourcing of a row to an hpckg confidence tier.

The mapping (documented in ``docs/epoch.md`` and pinned by the tests):

=====================================  ==============  =========================================
row                                    tier            why
=====================================  ==============  =========================================
anonymised (Chinese) row               ``hk:Weak``     identity withheld, figures rounded to one
                                                       significant figure by Epoch
Unlikely                               ``hk:Weak``     Epoch itself doubts it
Likely                                 ``hk:Estimated`` an analyst's judgement
Confirmed, no source URL               ``hk:Estimated`` confirmed by Epoch, but no primary source
                                                       we can point a reader to
Confirmed, with a source URL           ``hk:Reported`` stated by a primary source Epoch links
=====================================  ==============  =========================================

Figures Epoch *derives* rather than reads (power computed from chip counts, H100
equivalents) are capped at ``hk:Estimated``: an analyst's inference by definition.
Nothing from Epoch is ``hk:Verified``: that needs an independent authoritative
source such as a TOP500 list entry, which the TOP500 import supplies on its own.
"""

from __future__ import annotations

from rdflib import URIRef

from ..namespaces import HK, TIERS

__all__ = ["RANK", "cap", "row_tier"]

RANK: dict[URIRef, int] = {iri: rank for iri, rank in TIERS.values()}


def row_tier(certainty: str, has_source: bool, anonymised: bool) -> tuple[URIRef, str]:
    """The tier of a row's reported claims and the reason, for the report."""
    if anonymised:
        return HK.Weak, "anonymised row"
    if certainty == "Unlikely":
        return HK.Weak, "Certainty Unlikely"
    if certainty == "Likely":
        return HK.Estimated, "Certainty Likely"
    if certainty == "Confirmed" and has_source:
        return HK.Reported, "Certainty Confirmed with a source URL"
    if certainty == "Confirmed":
        return HK.Estimated, "Certainty Confirmed without a source URL"
    raise ValueError(f"unknown Certainty {certainty!r}")


def cap(tier: URIRef, ceiling: URIRef) -> URIRef:
    """The lower of two tiers: ``cap(hk:Reported, hk:Estimated)`` is ``hk:Estimated``."""
    return tier if RANK[tier] <= RANK[ceiling] else ceiling
