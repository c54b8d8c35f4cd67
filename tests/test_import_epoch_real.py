"""The Epoch importer on the real ``../shared/data/epoch`` files (skipped when absent)."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from hpckg.importers.epoch import import_epoch, write_epoch
from hpckg.importers.epoch_tiers import row_tier
from hpckg.store import Dataset


@pytest.fixture(scope="module")
def real(shared_data: Path, tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    clusters = shared_data / "epoch" / "gpu_clusters.csv"
    result = import_epoch(clusters, hardware=shared_data / "epoch" / "ml_hardware.csv")
    out = tmp_path_factory.mktemp("real") / "epoch.nt"
    write_epoch(result, out)
    return clusters, result, Dataset.load([out])


def test_every_row_accounted_for(real) -> None:  # type: ignore[no-untyped-def]
    clusters, result, _ = real
    with clusters.open(newline="", encoding="utf-8") as handle:
        expected = sum(1 for _ in csv.DictReader(handle))
    assert result.report.rows_in == expected
    assert result.report.imported + len(result.report.skipped) == expected
    assert result.report.accounted


def test_tiers_follow_certainty(real) -> None:  # type: ignore[no-untyped-def]
    clusters, result, ds = real
    with clusters.open(newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    expected: dict[str, int] = {}
    for row in rows:
        has_url = any(row[f"Source {i}"].strip() for i in range(1, 6))
        _, reason = row_tier(row["Certainty"], has_url, row["GPU Supplier (primary)"] == "Anonymized")
        expected[reason] = expected.get(reason, 0) + 1
    assert dict(result.report.tiers) == expected
    anonymised = ds.select("SELECT (COUNT(DISTINCT ?s) AS ?n) WHERE { ?s hk:anonymised true }")[0]["n"].value
    assert int(anonymised) == expected.get("anonymised row", 0)


def test_every_claim_has_citation_and_tier(real) -> None:  # type: ignore[no-untyped-def]
    _, _, ds = real
    bad = ds.select(
        """SELECT ?c WHERE { ?c a ?k . ?k rdfs:subClassOf hk:Claim .
             FILTER NOT EXISTS { ?c hk:citation ?x . ?c hk:tier ?t } } LIMIT 5"""
    )
    assert bad == []


def test_named_chips_are_one_part_each(real) -> None:  # type: ignore[no-untyped-def]
    _, _, ds = real
    for text, part in [
        ("NVIDIA H100 SXM5 80GB", "nvidia-h100-sxm5-80gb"),
        ("NVIDIA A100", "nvidia-a100"),
        ("NVIDIA GB200", "nvidia-gb200"),
    ]:
        rows = ds.select(
            "SELECT DISTINCT ?p WHERE { ?c hk:partDescription ?d ; hk:part ?p FILTER(STR(?d) = $t) }",
            {"t": __import__("pyoxigraph").Literal(text)},
        )
        assert [r["p"].value.rsplit("/", 1)[-1] for r in rows] == [part]


def test_upgrade_chains_link_up(real) -> None:  # type: ignore[no-untyped-def]
    _, result, ds = real
    assert len(result.report.upgrade_links) > 20
    rows = ds.select("SELECT ?new WHERE { ?new hk:upgradeOf system:epoch-xai-colossus-memphis-phase-1 }")
    assert [r["new"].value.rsplit("/", 1)[-1] for r in rows] == ["epoch-xai-colossus-memphis-phase-2"]


def test_curated_overlaps_merged(real) -> None:  # type: ignore[no-untyped-def]
    _, result, _ = real
    links = {name: system.rsplit("/", 1)[-1] for name, (system, _) in result.report.links.items()}
    assert links.get("NVIDIA Eos Phase 2") == "nvidia-eos"
    assert links.get("NVIDIA Selene Phase 2") == "nvidia-selene"
    assert links.get("Microsoft Azure Eagle") == "microsoft-eagle"
    assert "NVIDIA CoreWeave Eos-DFW Phase 1" not in links


def test_top500_overlaps_merged_with_conflicts_kept(shared_data: Path, tmp_path: Path) -> None:
    top500 = pytest.importorskip("hpckg.importers.top500")
    lists = sorted((shared_data / "top500").glob("TOP500_202[0-5]*.xls*"))
    t500 = tmp_path / "top500.nt"
    top500.write_import(top500.import_top500(lists), t500)
    result = import_epoch(shared_data / "epoch" / "gpu_clusters.csv", top500=[t500])
    links = result.report.links
    assert links["Microsoft Azure Voyager-EUS2"][1] == "TOP500 id 180024 in a source URL"
    assert links["Microsoft Azure Pioneer-WEU"][1] == "TOP500 id 179968 in a source URL"
    out = tmp_path / "epoch.nt"
    write_epoch(result, out)
    ds = Dataset.load([t500, out])
    voyager = links["Microsoft Azure Voyager-EUS2"][0]
    kinds = ds.select(
        """SELECT DISTINCT ?cite WHERE { ?c hk:system $s ; hk:role hk:Accelerator ; hk:citation ?cite }""",
        {"s": __import__("pyoxigraph").NamedNode(voyager)},
    )
    cited = {r["cite"].value.rsplit("/", 1)[-1] for r in kinds}
    assert "epoch-gpu-clusters" in cited and any(c.startswith("top500-") for c in cited)
