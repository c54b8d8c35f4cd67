"""The Epoch importer on small hand-written fixtures (tests/fixtures/epoch/)."""

from __future__ import annotations

from pathlib import Path

import pyoxigraph as ox
import pytest
from click.testing import CliRunner

from hpckg.cli import main
from hpckg.errors import DataError
from hpckg.importers.epoch import import_epoch, write_epoch
from hpckg.importers.epoch_claims import DATASET, decimal_literal, partial_date, url_citation
from hpckg.importers.epoch_tiers import cap, row_tier
from hpckg.namespaces import HK, XSD
from hpckg.store import Dataset

FIXTURES = Path(__file__).parent / "fixtures" / "epoch"
CLUSTERS = FIXTURES / "clusters.csv"
HARDWARE = FIXTURES / "hardware.csv"
TOP500 = FIXTURES / "top500-sample.ttl"


@pytest.fixture(scope="module")
def result():  # type: ignore[no-untyped-def]
    return import_epoch(CLUSTERS, hardware=HARDWARE, top500=[TOP500])


@pytest.fixture(scope="module")
def graph(result, tmp_path_factory):  # type: ignore[no-untyped-def]
    out = tmp_path_factory.mktemp("epoch") / "epoch.nt"
    write_epoch(result, out)
    return Dataset.load([out, TOP500])


def test_every_row_accounted_for(result) -> None:  # type: ignore[no-untyped-def]
    report = result.report
    assert report.rows_in == 11
    assert report.imported == 8 and len(report.skipped) == 3
    assert report.accounted
    reasons = {s.number: s.reason for s in report.skipped}
    assert "expected 31" in reasons[9]
    assert "Rumoured" in reasons[10]
    assert reasons[11] == "no Name"
    assert any("'many'" in w and "row 8" in w for w in report.warnings)


@pytest.mark.parametrize(
    ("certainty", "source", "anonymised", "tier"),
    [
        ("Confirmed", True, False, HK.Reported),
        ("Confirmed", False, False, HK.Estimated),
        ("Likely", True, False, HK.Estimated),
        ("Unlikely", True, False, HK.Weak),
        ("Confirmed", True, True, HK.Weak),
    ],
)
def test_tier_mapping(certainty: str, source: bool, anonymised: bool, tier: object) -> None:
    assert row_tier(certainty, source, anonymised)[0] == tier


def test_cap_takes_the_lower_tier() -> None:
    assert cap(HK.Reported, HK.Estimated) == HK.Estimated
    assert cap(HK.Weak, HK.Estimated) == HK.Weak


def test_tiers_in_graph(graph: Dataset) -> None:
    def tier_of(claim: str) -> str:
        rows = graph.select(f"SELECT ?t WHERE {{ claim:{claim} hk:tier ?t }}")
        return rows[0]["t"].value

    assert tier_of("epoch-test-alpha-phase-1-status") == str(HK.Reported)
    assert tier_of("epoch-test-beta-status") == str(HK.Estimated)
    assert tier_of("epoch-test-gamma-status") == str(HK.Weak)
    # derived figures are capped at estimated, even on a reported row
    assert tier_of("epoch-test-alpha-phase-1-power-capacity") == str(HK.Estimated)
    assert tier_of("epoch-test-alpha-phase-2-power-capacity") == str(HK.Reported)


def test_every_claim_cites_the_dataset_and_has_one_tier(graph: Dataset) -> None:
    rows = graph.select(
        """SELECT ?c WHERE { ?c hk:system ?s . FILTER(STRSTARTS(STR(?c), STR(claim:epoch-)))
             FILTER NOT EXISTS { ?c hk:citation cite:epoch-gpu-clusters } }"""
    )
    assert rows == []
    counts = graph.select(
        """SELECT ?c (COUNT(?t) AS ?n) WHERE { ?c hk:tier ?t FILTER(STRSTARTS(STR(?c), STR(claim:epoch-))) }
           GROUP BY ?c HAVING (COUNT(?t) != 1)"""
    )
    assert counts == []


def test_dataset_citation_credits_epoch(graph: Dataset) -> None:
    rows = graph.select(
        "SELECT DISTINCT ?t ?p ?credit WHERE { ?d dcterms:title ?t ; dcterms:publisher ?p ; dcterms:bibliographicCitation ?credit }",
        {"d": ox.NamedNode(str(DATASET))},
    )
    assert [(r["t"].value, r["p"].value, r["credit"].value) for r in rows] == [
        ("Data on GPU Clusters", "Epoch AI", "Epoch AI, Data on GPU Clusters")
    ]


def test_shared_url_is_one_node_and_quotes_stay_on_row_records(graph: Dataset) -> None:
    shared = ox.NamedNode(str(url_citation("https://example.org/shared")))
    users = graph.select("SELECT DISTINCT ?s WHERE { ?c hk:citation $u ; hk:system ?s }", {"u": shared})
    assert len(users) == 2
    assert graph.select("SELECT ?q WHERE { $u hk:quote ?q }", {"u": shared}) == []
    quotes = graph.select("SELECT ?q WHERE { cite:epoch-record-test-alpha-phase-1 hk:quote ?q }")
    assert [r["q"].value for r in quotes] == ["Alpha has 1,000 A100 GPUs"]


def test_anonymised_rows_are_separate_weak_systems(graph: Dataset) -> None:
    rows = graph.select("SELECT ?s WHERE { ?s hk:anonymised true }")
    assert len(rows) == 2
    weak = graph.select(
        "SELECT ?c WHERE { ?s hk:anonymised true . ?c hk:system ?s ; hk:tier ?t FILTER(?t != hk:Weak) }"
    )
    assert weak == []


def test_chips_resolve_to_parts_with_designer_as_supplier(graph: Dataset) -> None:
    rows = graph.select(
        """SELECT ?part ?supplier ?q WHERE { claim:epoch-test-alpha-phase-1-supply-primary
             hk:part ?part ; hk:supplier ?supplier ; hk:quantity ?q }"""
    )
    assert [
        (r["part"].value.rsplit("/", 1)[-1], r["supplier"].value.rsplit("/", 1)[-1], r["q"].value) for r in rows
    ] == [("nvidia-a100", "nvidia", "1000")]


def test_unknown_chips_and_minted_orgs_reported(result) -> None:  # type: ignore[no-untyped-def]
    assert result.report.unknown_chips == {"NVIDIA Imaginary X1": 1}
    assert "Example Cloud Co" in result.report.minted_orgs.values()
    assert "Microsoft" not in result.report.minted_orgs.values()


def test_planned_figures_carry_a_target_year(graph: Dataset) -> None:
    rows = graph.select("SELECT ?y WHERE { claim:epoch-test-beta-h100-equivalents hk:targetYear ?y }")
    assert [r["y"].value for r in rows] == ["2027"]


def test_dates_keep_their_precision(graph: Dataset) -> None:
    rows = graph.select("SELECT ?d WHERE { claim:epoch-test-alpha-phase-1-first-operational hk:date ?d }")
    assert rows[0]["d"].datatype.value == str(XSD.gYearMonth)
    rows = graph.select("SELECT ?d WHERE { claim:epoch-test-delta-decommissioned hk:date ?d }")
    assert rows[0]["d"].value == "2024-11"
    assert partial_date("2023-11-08").datatype == XSD.date  # type: ignore[union-attr]
    assert partial_date("soon") is None


def test_decimal_literals_are_plain() -> None:
    from decimal import Decimal

    assert str(decimal_literal(Decimal("1.5E+8"))) == "150000000"
    assert str(decimal_literal(Decimal("44.84480"))) == "44.8448"


def test_upgrade_chain(graph: Dataset) -> None:
    rows = graph.select("SELECT ?new ?old WHERE { ?new hk:upgradeOf ?old }")
    pairs = {(r["new"].value.rsplit("/", 1)[-1], r["old"].value.rsplit("/", 1)[-1]) for r in rows}
    # Phase 2 was reconciled to the TOP500 system, Phase 1 stays its own node.
    assert ("top500-999001", "epoch-test-alpha-phase-1") in pairs
    assert not any("test-alpha-phase-2" in new or "test-alpha-phase-2" in old for new, old in pairs)


def test_hardware_specs_on_parts(graph: Dataset, result) -> None:  # type: ignore[no-untyped-def]
    rows = graph.select(
        """SELECT ?v ?u ?t WHERE { ?m hk:part part:nvidia-h100-sxm5-80gb ; hk:metric hk:PeakFP16 ;
             hk:value ?v ; hk:unit ?u ; hk:tier ?t }"""
    )
    assert [(r["v"].value, r["u"].value, r["t"].value) for r in rows] == [("989", str(HK.TeraFLOPS), str(HK.Reported))]
    assert result.report.hardware.unresolved == ["Imaginary Chip 9000"]


def test_reimport_is_identical_and_sorted(result) -> None:  # type: ignore[no-untyped-def]
    again = import_epoch(CLUSTERS, hardware=HARDWARE, top500=[TOP500])
    assert again.ntriples == result.ntriples
    lines = result.ntriples.splitlines()
    assert lines == sorted(lines)


def test_failed_run_leaves_previous_output(tmp_path: Path, runner: CliRunner) -> None:
    out = tmp_path / "epoch.nt"
    out.write_text("previous\n")
    missing = runner.invoke(main, ["import", "epoch", str(tmp_path / "nope.csv"), "-o", str(out)])
    assert missing.exit_code == 1
    assert "nope.csv" in missing.output
    assert out.read_text() == "previous\n"


def test_bad_header_is_one_clear_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.csv"
    bad.write_text("Foo,Bar\n1,2\n")
    with pytest.raises(DataError, match="bad.csv:1.*missing column"):
        import_epoch(bad)


def test_cli_writes_output_and_report(tmp_path: Path, runner: CliRunner) -> None:
    out, report = tmp_path / "e.nt", tmp_path / "r.json"
    done = runner.invoke(
        main,
        [
            "import",
            "epoch",
            str(CLUSTERS),
            "--hardware",
            str(HARDWARE),
            "--top500",
            str(TOP500),
            "-o",
            str(out),
            "--report",
            str(report),
        ],
    )
    assert done.exit_code == 0, done.output
    assert "11 rows, 8 imported, 3 skipped" in done.output
    assert '"all_rows_accounted_for": true' in report.read_text()
    assert out.stat().st_size > 0


def test_graph_conforms_to_shapes(graph: Dataset) -> None:
    validate = pytest.importorskip("hpckg.validate")
    report = validate.validate(graph)
    assert report.conforms, report.text()[:3000]


def _chip_families(graph: Dataset, **params: str) -> dict[str, tuple[int, int]]:
    """epoch-clusters-by-chip-family as family label -> (clusters, chips)."""
    from hpckg.queries import load_saved, run_query

    result = run_query(graph, load_saved("epoch-clusters-by-chip-family"), params)
    return {row[1].value: (int(row[4].value), int(row[5].value)) for row in result.rows}


def test_clusters_by_chip_family_honours_the_minimum_tier(graph: Dataset) -> None:
    # The tier filter sits in a sub-SELECT: it only bites because parameters are bound there too.
    everything = _chip_families(graph)
    assert everything["GB200"] == (1, 50000)  # Test Beta, "Likely": estimated
    assert everything["TPU v4"] == (1, 4096)  # Test Gamma, "Unlikely": weak
    reported = _chip_families(graph, min_tier="reported")
    assert "GB200" not in reported and "TPU v4" not in reported
    assert reported["H100"] == everything["H100"]
    assert reported["A100"][0] < everything["A100"][0]


def test_clusters_by_chip_family_counts_a_cluster_once(graph: Dataset) -> None:
    # Test Alpha Phase 2 has H100s and a second, unknown NVIDIA chip: still one H100 cluster.
    families = _chip_families(graph)
    clusters = graph.select(
        "SELECT (COUNT(DISTINCT ?system) AS ?n) WHERE { ?s hk:citation cite:epoch-gpu-clusters ; "
        "hk:role hk:Accelerator ; hk:system ?system ; hk:part/hk:family family:h100 }"
    )
    assert families["H100"][0] == int(clusters[0]["n"].value)


def test_h100e_by_country_owner_counts_operational_clusters(graph: Dataset) -> None:
    from hpckg.queries import load_saved, run_query

    query = load_saved("epoch-h100e-by-country-owner")
    rows = {
        (row[0].value, row[2].value): (int(row[3].value), int(row[4].value)) for row in run_query(graph, query, {}).rows
    }
    # Alpha's two phases (300.4 rounds to 300, plus 2,000); the two anonymised Chinese rows.
    # Delta is decommissioned and Beta planned: neither counts.
    assert rows == {("US", "NVIDIA"): (2, 2300), ("CN", "(anonymised or unknown)"): (2, 40000)}
    # H100 equivalents are Epoch's computation, capped at estimated.
    assert run_query(graph, query, {"min_tier": "reported"}).rows == []
