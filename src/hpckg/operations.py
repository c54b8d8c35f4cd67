"""The systems of each operator, so ``systems-by-operator`` reads one node per operator and tier.

Grouping every operation claim by operator costs about 40 ms at a million triples
(five index lookups per claim), too close to the 50 ms a saved query may take.
:func:`operation_quads` groups them once at load and writes one
``hk:OperatorSummary`` per operator and minimum tier rank ``r``, for the operation
claims of tier rank >= r whose system has a label:

- ``hk:summaryOperator`` and ``hk:minTierRank r``;
- ``hk:systemCount``: how many distinct systems;
- ``hk:summarySystem``: each of those systems;
- ``hk:systemNames``: their distinct labels, sorted and joined with " | " (looking
  up and joining thousands of labels per query cost 30 ms on its own).
"""

from __future__ import annotations

from collections import defaultdict
from typing import TYPE_CHECKING

import pyoxigraph as ox

from .namespaces import HK, RDF, XSD, digest, id_iri
from .tierranks import thresholds, tier_ranks

if TYPE_CHECKING:
    from .store import Dataset

__all__ = ["KINDS", "operation_quads"]

# The labelled systems of operation claims, with their tiers.
_CLAIMS = """
SELECT DISTINCT ?operator ?system ?tier ?label WHERE {
  ?claim a hk:Operation ; hk:operator ?operator ; hk:system ?system ; hk:tier ?tier .
  ?system rdfs:label ?label .
}
"""


def _n(term: object) -> ox.NamedNode:
    return ox.NamedNode(str(term))


_RDF_TYPE = _n(RDF.type)
_OPERATOR_SUMMARY = _n(HK.OperatorSummary)
KINDS = (_OPERATOR_SUMMARY,)


def operation_quads(ds: Dataset, graph: ox.NamedNode) -> list[ox.Quad]:
    """The operator summaries (see the module docstring), as quads of ``graph``."""
    ranks = tier_ranks(ds)
    best: dict[ox.NamedNode, dict[ox.NamedNode, int]] = defaultdict(dict)  # operator -> system -> best rank
    labels: dict[ox.NamedNode, set[str]] = defaultdict(set)
    for operator, system, tier, label in ds.query(_CLAIMS):
        rank = ranks.get(tier)
        if rank is None:
            continue  # an untiered claim: the shapes report it, the query never counted it
        labels[system].add(label.value)
        if rank[0] > best[operator].get(system, rank[0] - 1):
            best[operator][system] = rank[0]
    quads: list[ox.Quad] = []
    for operator, systems in best.items():
        for number, literal in thresholds(ranks):
            counted = sorted((s for s, rank in systems.items() if rank >= number), key=lambda s: s.value)
            if not counted:
                break
            node = _n(id_iri("operator-summary", digest(operator.value, literal.value)))
            quads += [
                ox.Quad(node, _RDF_TYPE, _OPERATOR_SUMMARY, graph),
                ox.Quad(node, _n(HK.summaryOperator), operator, graph),
                ox.Quad(node, _n(HK.minTierRank), literal, graph),
                ox.Quad(node, _n(HK.systemCount), ox.Literal(str(len(counted)), datatype=_n(XSD.integer)), graph),
            ]
            names = " | ".join(sorted({name for system in counted for name in labels[system]}))
            quads.append(ox.Quad(node, _n(HK.systemNames), ox.Literal(names), graph))
            quads += [ox.Quad(node, _n(HK.summarySystem), system, graph) for system in counted]
    return quads
