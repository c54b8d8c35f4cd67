"""Name resolution against a small inline catalogue (independent of the curated files)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from hpckg.catalogue import Catalogue, norm_name, norm_part
from hpckg.namespaces import HK, id_iri
from hpckg.store import Dataset

TTL = """
@prefix hk: <https://w3id.org/hpckg/ontology#> .
@prefix org: <https://w3id.org/hpckg/id/org/> .
@prefix part: <https://w3id.org/hpckg/id/part/> .
@prefix family: <https://w3id.org/hpckg/id/family/> .
@prefix change: <https://w3id.org/hpckg/id/change/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix skos: <http://www.w3.org/2004/02/skos/core#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
org:nvidia a hk:Organization ; rdfs:label "NVIDIA" ; skos:altLabel "Nvidia" .
org:mellanox a hk:Organization ; rdfs:label "Mellanox Technologies" ; skos:altLabel "Mellanox" .
org:ibm a hk:Organization ; rdfs:label "IBM" .
org:hpe a hk:Organization ; rdfs:label "Hewlett Packard Enterprise" ; skos:altLabel "HPE" ; skos:hiddenLabel "Cray/HPE" .
org:cray a hk:Organization ; rdfs:label "Cray" ; skos:altLabel "Cray Inc." .
org:dell a hk:Organization ; rdfs:label "Dell Technologies" ; skos:altLabel "Dell EMC" .
org:fujitsu a hk:Organization ; rdfs:label "Fujitsu" .
org:nudt a hk:Organization ; rdfs:label "National University of Defense Technology" ; skos:altLabel "NUDT" .
org:intel a hk:Organization ; rdfs:label "Intel" .
org:ieee a hk:Organization ; rdfs:label "IEEE" ; hk:orgKind hk:Consortium .
family:a100 a hk:PartFamily ; rdfs:label "A100" .
part:nvidia-a100 a hk:Part ; rdfs:label "NVIDIA A100" ; hk:family family:a100 ; hk:partKind hk:Accelerator ; hk:designer org:nvidia .
part:nvidia-a100-sxm4-40gb a hk:Part ; rdfs:label "NVIDIA A100 SXM4 40GB" ; hk:family family:a100 ; hk:partKind hk:Accelerator ; hk:designer org:nvidia .
part:nvidia-a100-80gb a hk:Part ; rdfs:label "NVIDIA A100 80GB" ; hk:family family:a100 ; hk:partKind hk:Accelerator ; hk:designer org:nvidia .
part:mellanox-infiniband-edr a hk:Part ; rdfs:label "Mellanox InfiniBand EDR" ; hk:partKind hk:Interconnect ; hk:designer org:mellanox .
part:slingshot-11 a hk:Part ; rdfs:label "HPE Slingshot-11" ; hk:partKind hk:Interconnect ; hk:designer org:cray .
part:10g-ethernet a hk:Part ; rdfs:label "10G Ethernet" ; hk:partKind hk:Interconnect ; hk:designer org:ieee .
change:mellanox a hk:OwnershipChange ; hk:acquired org:mellanox ; hk:acquirer org:nvidia ; hk:completedOn "2020-04-27"^^xsd:date .
change:cray a hk:OwnershipChange ; hk:acquired org:cray ; hk:acquirer org:hpe ; hk:completedOn "2019-09-25"^^xsd:date .
"""


@pytest.fixture(scope="module")
def cat(tmp_path_factory: pytest.TempPathFactory) -> Catalogue:
    folder: Path = tmp_path_factory.mktemp("catalogue")
    (folder / "cat.ttl").write_text(TTL)
    return Catalogue.from_dataset(Dataset.load([folder / "cat.ttl"], bundled=False))


def org(slug: str) -> object:
    return id_iri("org", slug)


def test_norm_name_strips_suffixes_and_punctuation() -> None:
    assert norm_name("Cray Inc.") == "cray"
    assert norm_name("E4 Computer Engineering S.p.A.") == "e4 computer engineering"


def test_norm_part_keys_most_specific_first() -> None:
    assert norm_part("NVIDIA Tesla A100 80G") == ["a100 80gb", "a100"]
    assert norm_part("NVIDIA A100 80GB\u200b")[0] == "a100 80gb"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("IBM / NVIDIA / Mellanox", ["ibm", "nvidia", "mellanox"]),
        ("HPE", ["hpe"]),
        ("Hewlett Packard Enterprise", ["hpe"]),
        ("HPE Cray", ["hpe"]),
        ("Cray/HPE", ["hpe"]),
        ("DELL EMC", ["dell"]),
        ("Cray Inc.", ["cray"]),
        ("Nvidia", ["nvidia"]),
    ],
)
def test_resolve_orgs(cat: Catalogue, text: str, expected: list[str]) -> None:
    assert cat.resolve_orgs(text) == [org(s) for s in expected]


def test_unresolved_org_is_reported_not_invented(cat: Catalogue) -> None:
    assert cat.resolve_orgs("Nobody Computers Ltd") == []
    assert "Nobody Computers Ltd" in cat.report()["organization"]
    assert cat.resolve_orgs("Self-made") == []
    assert "Self-made" in cat.skipped


@pytest.mark.parametrize(
    ("text", "slug"),
    [
        ("NVIDIA A100", "nvidia-a100"),
        ("NVIDIA A100 SXM4 40 GB", "nvidia-a100-sxm4-40gb"),
        ("NVIDIA Tesla A100 80G", "nvidia-a100-80gb"),
    ],
)
def test_resolve_part(cat: Catalogue, text: str, slug: str) -> None:
    part = cat.resolve_part(text, HK.Accelerator)
    assert part == id_iri("part", slug)
    assert cat.family(part) == id_iri("family", "a100")
    assert cat.designer(part) == org("nvidia")


def test_interconnect_vendor_and_supplier_at_build(cat: Catalogue) -> None:
    part, supplier = cat.interconnect_vendor("Dual-rail Mellanox EDR Infiniband", dt.date(2018, 6, 1))
    assert part == id_iri("part", "mellanox-infiniband-edr") and supplier == org("mellanox")
    assert cat.interconnect_vendor("Dual-rail Mellanox EDR Infiniband", dt.date(2021, 6, 1))[1] == org("nvidia")
    assert cat.interconnect_vendor("Slingshot-11", dt.date(2019, 6, 1))[1] == org("cray")
    assert cat.interconnect_vendor("Slingshot-11", dt.date(2021, 6, 1))[1] == org("hpe")
    assert cat.interconnect_vendor("Tofu interconnect D")[1] == org("fujitsu")
    assert cat.interconnect_vendor("TH Express-2")[1] == org("nudt")
    assert cat.interconnect_vendor("Aries interconnect ")[1] == org("cray")
    # A standards body designs Ethernet but ships nothing: no supplier is guessed.
    assert cat.interconnect_vendor("10G Ethernet") == (id_iri("part", "10g-ethernet"), None)
