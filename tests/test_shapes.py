"""Each SHACL shape gets a conforming and a violating inline-Turtle snippet, and both
validation engines (hybrid and pure pyshacl) must agree on every snippet."""

from __future__ import annotations

from pathlib import Path

import pytest

from hpckg.store import Dataset
from hpckg.validate import validate

ROOT = Path(__file__).resolve().parents[1]

PREFIXES = """
@prefix hk: <https://w3id.org/hpckg/ontology#> .
@prefix system: <https://w3id.org/hpckg/id/system/> .
@prefix org: <https://w3id.org/hpckg/id/org/> .
@prefix part: <https://w3id.org/hpckg/id/part/> .
@prefix family: <https://w3id.org/hpckg/id/family/> .
@prefix cite: <https://w3id.org/hpckg/id/citation/> .
@prefix claim: <https://w3id.org/hpckg/id/claim/> .
@prefix list: <https://w3id.org/hpckg/id/list/> .
@prefix region: <https://w3id.org/hpckg/id/region/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix dcterms: <http://purl.org/dc/terms/> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
"""

# A small world every snippet can refer to.
BASE = """
system:s a hk:System ; rdfs:label "S" .
org:a a hk:Organization ; rdfs:label "A" .
org:b a hk:Organization ; rdfs:label "B" .
part:p a hk:Part ; rdfs:label "P" .
cite:c a hk:Citation ; hk:url "https://example.org/paper"^^xsd:anyURI .
list:top500-2024-06 a hk:ListEdition ; rdfs:label "TOP500 June 2024" .
region:r a hk:Region ; rdfs:label "R" .
"""

CASES: dict[str, tuple[str, str, str]] = {
    # shape: (conforming snippet, violating snippet, expected message fragment)
    "claim needs citation": (
        "claim:x a hk:Operation ; hk:system system:s ; hk:operator org:a ; hk:citation cite:c ; hk:tier hk:Reported .",
        "claim:x a hk:Operation ; hk:system system:s ; hk:operator org:a ; hk:tier hk:Reported .",
        "citation",
    ),
    "claim needs exactly one tier": (
        "claim:x a hk:StatusClaim ; hk:system system:s ; hk:status hk:Operational ; hk:citation cite:c ; hk:tier hk:Weak .",
        "claim:x a hk:StatusClaim ; hk:system system:s ; hk:status hk:Operational ; hk:citation cite:c ; hk:tier hk:Weak , hk:Verified .",
        "tier",
    ),
    "tier from the scheme": (
        'claim:x a hk:TimelineEvent ; hk:system system:s ; hk:eventKind hk:Announced ; hk:date "2024-03"^^xsd:gYearMonth ; hk:citation cite:c ; hk:tier hk:Estimated .',
        'claim:x a hk:TimelineEvent ; hk:system system:s ; hk:eventKind hk:Announced ; hk:date "2024-03"^^xsd:gYearMonth ; hk:citation cite:c ; hk:tier hk:Operational .',
        "tier",
    ),
    "system claim names a system": (
        "claim:x a hk:RankingEntry ; hk:system system:s ; hk:listEdition list:top500-2024-06 ; hk:rank 3 ; hk:citation cite:c ; hk:tier hk:Verified .",
        "claim:x a hk:RankingEntry ; hk:listEdition list:top500-2024-06 ; hk:rank 3 ; hk:citation cite:c ; hk:tier hk:Verified .",
        "hk:System",
    ),
    "rank is a positive integer": (
        "claim:x a hk:RankingEntry ; hk:system system:s ; hk:listEdition list:top500-2024-06 ; hk:rank 1 ; hk:citation cite:c ; hk:tier hk:Verified .",
        "claim:x a hk:RankingEntry ; hk:system system:s ; hk:listEdition list:top500-2024-06 ; hk:rank 0 ; hk:citation cite:c ; hk:tier hk:Verified .",
        "rank",
    ),
    "quantity is a positive integer": (
        "claim:x a hk:SupplyRelationship ; hk:system system:s ; hk:role hk:Accelerator ; hk:part part:p ; hk:supplier org:a ; hk:quantity 2288 ; hk:citation cite:c ; hk:tier hk:Reported .",
        "claim:x a hk:SupplyRelationship ; hk:system system:s ; hk:role hk:Accelerator ; hk:part part:p ; hk:supplier org:a ; hk:quantity -4 ; hk:citation cite:c ; hk:tier hk:Reported .",
        "positive integer",
    ),
    "supply names a part or a supplier": (
        "claim:x a hk:SupplyRelationship ; hk:system system:s ; hk:role hk:Integrator ; hk:supplier org:a ; hk:citation cite:c ; hk:tier hk:Reported .",
        "claim:x a hk:SupplyRelationship ; hk:system system:s ; hk:role hk:Integrator ; hk:citation cite:c ; hk:tier hk:Reported .",
        "",
    ),
    "figure is a non-negative decimal with a unit": (
        "claim:x a hk:Measurement ; hk:system system:s ; hk:metric hk:Power ; hk:value 21100.0 ; hk:unit hk:Kilowatt ; hk:citation cite:c ; hk:tier hk:Verified .",
        "claim:x a hk:Measurement ; hk:system system:s ; hk:metric hk:Power ; hk:value -1.5 ; hk:citation cite:c ; hk:tier hk:Verified .",
        "",
    ),
    "figure value is a decimal, not text": (
        "claim:x a hk:Measurement ; hk:region region:r ; hk:metric hk:ComputeCapacity ; hk:value 120000.0 ; hk:unit hk:PetaFLOPS ; hk:citation cite:c ; hk:tier hk:Weak .",
        'claim:x a hk:Measurement ; hk:region region:r ; hk:metric hk:ComputeCapacity ; hk:value "about 120000" ; hk:unit hk:PetaFLOPS ; hk:citation cite:c ; hk:tier hk:Weak .',
        "decimal",
    ),
    "measurement is about exactly one subject": (
        "claim:x a hk:Measurement ; hk:part part:p ; hk:metric hk:PeakFP64 ; hk:value 19.5 ; hk:unit hk:TeraFLOPS ; hk:citation cite:c ; hk:tier hk:Reported .",
        "claim:x a hk:Measurement ; hk:part part:p ; hk:system system:s ; hk:metric hk:PeakFP64 ; hk:value 19.5 ; hk:unit hk:TeraFLOPS ; hk:citation cite:c ; hk:tier hk:Reported .",
        "",
    ),
    "dates are valid": (
        'claim:x a hk:StatusClaim ; hk:system system:s ; hk:status hk:Operational ; hk:asOf "2023-08-31"^^xsd:date ; hk:citation cite:c ; hk:tier hk:Reported .',
        'claim:x a hk:StatusClaim ; hk:system system:s ; hk:status hk:Operational ; hk:asOf "2023-02-30"^^xsd:date ; hk:citation cite:c ; hk:tier hk:Reported .',
        "",
    ),
    "timeline date is a date, month or year": (
        'claim:x a hk:TimelineEvent ; hk:system system:s ; hk:eventKind hk:Announced ; hk:date "2024"^^xsd:gYear ; hk:citation cite:c ; hk:tier hk:Reported .',
        'claim:x a hk:TimelineEvent ; hk:system system:s ; hk:eventKind hk:Announced ; hk:date "March 2024" ; hk:citation cite:c ; hk:tier hk:Reported .',
        "",
    ),
    "location country is ISO alpha-2": (
        'claim:x a hk:LocationClaim ; hk:system system:s ; hk:country "CN" ; hk:citation cite:c ; hk:tier hk:Reported .',
        'claim:x a hk:LocationClaim ; hk:system system:s ; hk:country "China" ; hk:citation cite:c ; hk:tier hk:Reported .',
        "ISO",
    ),
    "ownership change is complete": (
        'claim:x a hk:OwnershipChange ; hk:acquirer org:a ; hk:acquired org:b ; hk:changeKind hk:Acquisition ; hk:completedOn "2020-04-27"^^xsd:date ; hk:citation cite:c ; hk:tier hk:Verified .',
        "claim:x a hk:OwnershipChange ; hk:acquirer org:a ; hk:acquired org:a ; hk:changeKind hk:Acquisition ; hk:citation cite:c ; hk:tier hk:Verified .",
        "",
    ),
    "ownership changes form no cycle": (
        'claim:x a hk:OwnershipChange ; hk:acquirer org:a ; hk:acquired org:b ; hk:changeKind hk:Acquisition ; hk:completedOn "2020-04-27"^^xsd:date ; hk:citation cite:c ; hk:tier hk:Verified .',
        'claim:x a hk:OwnershipChange ; hk:acquirer org:a ; hk:acquired org:b ; hk:changeKind hk:Acquisition ; hk:completedOn "2020-04-27"^^xsd:date ; hk:citation cite:c ; hk:tier hk:Verified .\n'
        'claim:y a hk:OwnershipChange ; hk:acquirer org:b ; hk:acquired org:a ; hk:changeKind hk:Acquisition ; hk:completedOn "2021-01-01"^^xsd:date ; hk:citation cite:c ; hk:tier hk:Verified .',
        "cycle",
    ),
    "citation URL is http(s)": (
        'cite:d a hk:Citation ; hk:url "http://example.org/a"^^xsd:anyURI .',
        'cite:d a hk:Citation ; hk:url "javascript:alert(1)"^^xsd:anyURI .',
        "http",
    ),
    "citation without URL has title and publisher": (
        'cite:d a hk:Citation ; dcterms:title "Inside Shanghai\'s 10,000-GPU clusters" ; dcterms:publisher "unknown" .',
        'cite:d a hk:Citation ; dcterms:title "Inside Shanghai\'s 10,000-GPU clusters" .',
        "",
    ),
    "Rmax is no greater than Rpeak": (
        'claim:x a hk:Measurement ; hk:system system:s ; hk:metric hk:Rmax ; hk:value 1353000.0 ; hk:unit hk:TeraFLOPS ; hk:asOf "2024-11-01"^^xsd:date ; hk:citation cite:c ; hk:tier hk:Verified .\n'
        'claim:y a hk:Measurement ; hk:system system:s ; hk:metric hk:Rpeak ; hk:value 2055.72 ; hk:unit hk:PetaFLOPS ; hk:asOf "2024-11-01"^^xsd:date ; hk:citation cite:c ; hk:tier hk:Verified .',
        'claim:x a hk:Measurement ; hk:system system:s ; hk:metric hk:Rmax ; hk:value 1353000.0 ; hk:unit hk:TeraFLOPS ; hk:asOf "2024-11-01"^^xsd:date ; hk:citation cite:c ; hk:tier hk:Verified .\n'
        'claim:y a hk:Measurement ; hk:system system:s ; hk:metric hk:Rpeak ; hk:value 1300.0 ; hk:unit hk:PetaFLOPS ; hk:asOf "2024-11-01"^^xsd:date ; hk:citation cite:c ; hk:tier hk:Verified .',
        "exceeds Rpeak",
    ),
    "system has a label and an ISO country": (
        'system:t a hk:System ; rdfs:label "T" ; hk:country "JP" .',
        'system:t a hk:System ; hk:country "Japan" .',
        "",
    ),
    "listed company has an exchange": (
        'org:c a hk:Organization ; rdfs:label "C" ; hk:ticker "NVDA" ; hk:exchange "NASDAQ" .',
        'org:c a hk:Organization ; rdfs:label "C" ; hk:ticker "NVDA" .',
        "exchange",
    ),
    "part has a label and one family": (
        'part:q a hk:Part ; rdfs:label "Q" ; hk:partKind hk:Accelerator .',
        "part:q a hk:Part ; hk:partKind hk:Accelerator ; hk:family system:s .",
        "",
    ),
    "source check is complete": (
        '<https://w3id.org/hpckg/id/check/c/s> a hk:SourceCheck ; hk:checkedCitation cite:c ; hk:system system:s ; hk:checkedAt "2026-10-09T10:00:00Z"^^xsd:dateTime ; hk:reachable true .',
        '<https://w3id.org/hpckg/id/check/c/s> a hk:SourceCheck ; hk:checkedCitation cite:c ; hk:system system:s ; hk:reachable "yes" .',
        "",
    ),
    "change record is dated": (
        '<https://w3id.org/hpckg/id/change/s-1> a hk:ChangeRecord ; hk:system system:s ; <http://purl.org/dc/terms/date> "2026-10-02"^^xsd:date ; rdfs:comment "added" .',
        '<https://w3id.org/hpckg/id/change/s-1> a hk:ChangeRecord ; hk:system system:s ; rdfs:comment "added" .',
        "",
    ),
}


def _validate(tmp_path: Path, snippet: str, engine: str) -> list[str]:
    path = tmp_path / "snippet.ttl"
    path.write_text(PREFIXES + BASE + snippet + "\n", encoding="utf-8")
    ds = Dataset.load([ROOT / "ontology" / "hpckg.ttl", path], root=ROOT, bundled=False, strict=False)
    report = validate(ds, engine=engine)
    return [f"{v.focus} {v.path} {v.message}" for v in report.violations]


@pytest.mark.parametrize("engine", ["fast", "hybrid", "pyshacl"])
@pytest.mark.parametrize("case", sorted(CASES))
def test_shape_accepts_conforming_and_rejects_violating(case: str, engine: str, tmp_path: Path) -> None:
    good, bad, fragment = CASES[case]
    assert _validate(tmp_path, good, engine) == []
    violations = _validate(tmp_path, bad, engine)
    assert violations, f"{case}: violating snippet passed"
    if fragment:
        assert any(fragment.lower() in v.lower() for v in violations), violations


def test_engines_agree_on_focus_nodes(tmp_path: Path) -> None:
    bad = "\n".join(snippets[1] for snippets in CASES.values() if "cycle" not in snippets[2])

    def focus_and_path(engine: str) -> set[tuple[str, str]]:
        # pyshacl also reports sh:node failures with the value as a nested focus;
        # the engines must agree on the real focus nodes (IRIs) and their paths.
        pairs = {tuple(v.split(" ", 2)[:2]) for v in _validate(tmp_path, bad, engine)}
        return {(f, p) for f, p in pairs if ":" in f and not f.startswith('"')}

    reference = focus_and_path("pyshacl")
    assert len(reference) > 15
    for engine in ("fast", "hybrid"):
        assert focus_and_path(engine) == reference
