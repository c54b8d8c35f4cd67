"""Matching Epoch clusters to known systems: each rule, phases, ambiguity, overrides."""

from __future__ import annotations

from pathlib import Path

import pytest
from rdflib import URIRef

from hpckg.errors import DataError
from hpckg.namespaces import id_iri
from hpckg.reconcile import (
    Candidate,
    ClusterRecord,
    Override,
    load_overrides,
    match_triples,
    name_tokens,
    reconcile,
)

NVIDIA = id_iri("org", "nvidia")
EOS = Candidate(
    id_iri("system", "top500-180239"),
    ("Eos NVIDIA DGX SuperPOD",),
    "180239",
    "US",
    frozenset(),
    frozenset({"nvidia", "corporation"}),
)
SELENE = Candidate(
    id_iri("system", "nvidia-selene"), ("Selene", "Selene (NVIDIA DGX SuperPOD)"), "179842", "US", frozenset({NVIDIA})
)
EAGLE = Candidate(
    id_iri("system", "microsoft-eagle"),
    ("Eagle",),
    None,
    "US",
    frozenset(),
    frozenset({"microsoft", "azure"}),
    "2025-06",
)
OLD_EC2 = Candidate(
    id_iri("system", "top500-2011"),
    ("Amazon EC2 Cluster",),
    None,
    "US",
    frozenset(),
    frozenset({"amazon", "web", "services"}),
    "2011-06",
)


def record(name: str, owners: tuple[str, ...] = ("NVIDIA",), **kw: object) -> ClusterRecord:
    iris = tuple(NVIDIA for o in owners if o == "NVIDIA")
    return ClusterRecord(name=name, owners=iris, owner_names=owners, country=kw.pop("country", "US"), **kw)  # type: ignore[arg-type]


def test_name_tokens_keep_hyphenated_words_and_drop_phases() -> None:
    assert name_tokens("NVIDIA CoreWeave Eos-DFW Phase 1") == {"nvidia", "coreweave", "eos-dfw"}


def test_top500_id_in_a_source_url_wins() -> None:
    rec = record("NVIDIA Selene Phase 1", urls=("https://web.archive.org/web/1/https://top500.org/system/179842/",))
    links = reconcile([rec], [SELENE, EOS]).links
    assert links["NVIDIA Selene Phase 1"].system == SELENE.iri
    assert links["NVIDIA Selene Phase 1"].reason == "TOP500 id 179842 in a source URL"


def test_top500_id_in_the_notes() -> None:
    rec = record("Some cluster", notes="listed as top500.org/system/180239")
    assert reconcile([rec], [EOS]).links["Some cluster"].reason == "TOP500 id 180239 in the notes"


def test_same_name_and_owner() -> None:
    links = reconcile([record("Microsoft Azure Eagle", ("Microsoft",), date="2023-11-15")], [EAGLE]).links
    assert links["Microsoft Azure Eagle"].reason.startswith("same name and owner")


def test_other_owner_or_country_does_not_match() -> None:
    assert reconcile([record("Someone Eagle", ("Someone",))], [EAGLE]).links == {}
    assert reconcile([record("Microsoft Azure Eagle", ("Microsoft",), country="NL")], [EAGLE]).links == {}


def test_eos_dfw_is_not_eos() -> None:
    assert reconcile([record("NVIDIA CoreWeave Eos-DFW Phase 1")], [EOS]).links == {}


def test_a_number_names_another_machine() -> None:
    rsc = Candidate(
        id_iri("system", "rsc"), ("Meta Research SuperCluster (RSC)",), None, "US", frozenset(), frozenset({"meta"})
    )
    assert reconcile([record("Meta Research SuperCluster 2 (RSC-2)", ("Meta",))], [rsc]).links == {}


def test_cluster_years_after_last_listing_is_not_that_system() -> None:
    late = record("AWS EC2 P5 UltraClusters", ("Amazon",), date="2023-07-26")
    assert reconcile([late], [OLD_EC2]).links == {}


def test_latest_phase_takes_the_system() -> None:
    one = record("NVIDIA Eos Phase 1", date="2023-05-22")
    two = record("NVIDIA Eos Phase 2", date="2023-11-01")
    result = reconcile([one, two], [EOS])
    assert result.links["NVIDIA Eos Phase 2"].system == EOS.iri
    assert "latest of 2 Epoch phases" in result.links["NVIDIA Eos Phase 2"].reason
    assert result.earlier_phases == {"NVIDIA Eos Phase 1": EOS.iri}
    assert "NVIDIA Eos Phase 1" not in result.links


def test_two_equal_matches_are_ambiguous() -> None:
    twin = Candidate(id_iri("system", "top500-1"), ("Selene",), None, "US", frozenset({NVIDIA}))
    result = reconcile([record("NVIDIA Selene")], [SELENE, twin])
    assert result.links == {}
    assert sorted(result.ambiguous["NVIDIA Selene"]) == sorted([SELENE.iri, twin.iri])


def test_overrides_link_and_unlink() -> None:
    rec = record("NVIDIA Eos Phase 2")
    assert reconcile([rec], [EOS], [Override("NVIDIA Eos Phase 2", None, "unlink")]).links == {}
    forced = reconcile([record("Mystery")], [EOS], [Override("Mystery", EOS.iri, "link", 7)]).links["Mystery"]
    assert forced.system == EOS.iri and "line 7" in forced.reason


def test_load_overrides(tmp_path: Path) -> None:
    path = tmp_path / "epoch.csv"
    path.write_text("# comment\nepoch_name,system,action\nNVIDIA Eos Phase 2,nvidia-eos,link\nX,,unlink\n")
    overrides = load_overrides(path)
    assert overrides[0].system == id_iri("system", "nvidia-eos") and overrides[1].system is None
    path.write_text("epoch_name,system,action\nX,,merge\n")
    with pytest.raises(DataError, match="epoch.csv:2"):
        load_overrides(path)


def test_match_node_explains_the_link() -> None:
    link = reconcile([record("NVIDIA Eos Phase 2")], [EOS]).links["NVIDIA Eos Phase 2"]
    triples = match_triples(link, "nvidia-eos-phase-2")
    props = {str(p).rsplit("#", 1)[-1]: str(o) for _, p, o in triples}
    assert props["matchKey"] == "NVIDIA Eos Phase 2" and props["system"] == str(EOS.iri)
    assert props["matchReason"].startswith("same name and owner")
    assert isinstance(triples[0][0], URIRef)


def test_bundled_mapping_file_parses(dataset) -> None:  # type: ignore[no-untyped-def]
    assert isinstance(load_overrides(dataset.root / "graph" / "mappings" / "epoch.csv"), list)
