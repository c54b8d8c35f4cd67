"""The TOP500 importer on small hand-written fixtures: headers, units, bad rows, output."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pyoxigraph as ox
import pytest
from click.testing import CliRunner

from hpckg.cli import main
from hpckg.errors import DataError
from hpckg.importers.top500 import import_top500, write_import
from hpckg.importers.top500_read import header_field, read_list
from hpckg.importers.top500_units import factor
from hpckg.store import Dataset

FIXTURES = Path(__file__).parent / "fixtures" / "top500"
CSV = FIXTURES / "TOP500_201611.csv"
TSV = FIXTURES / "TOP500_202106.tsv"
HK = "https://w3id.org/hpckg/ontology#"


def values(nt: bytes, predicate: str) -> list[str]:
    triples = ox.parse(nt, format=ox.RdfFormat.N_TRIPLES)
    return sorted(t.object.value for t in triples if t.predicate.value == predicate)


@pytest.mark.parametrize(
    ("header", "field", "unit"),
    [
        ("RMax", "rmax", None),
        ("Rmax [TFlop/s]", "rmax", "TFlop/s"),
        ("Cores", "cores", None),
        ("Total Cores", "cores", None),
        ("Effeciency (%)", "efficiency", "%"),
        ("Power (kW)", "power", "kW"),
        ("Mflops/Watt", "energy_efficiency", "Mflops/Watt"),
        ("Power Effeciency [GFlops/Watts]", "energy_efficiency", "GFlops/Watts"),
        ("Energy Efficiency [GFlops/Watts]", "energy_efficiency", "GFlops/Watts"),
        ("Accelerator/Co-Processor", "accelerator", None),
        ("Accelerator", "accelerator", None),
        ("Accelerator/Co-Processor Cores", "accelerator_cores", None),
        ("System ID", "system_id", None),
    ],
)
def test_header_variants(header: str, field: str, unit: str | None) -> None:
    assert header_field(header) == (field, unit)


def test_unit_factors() -> None:
    assert factor("rmax", None, "2016-11") == Decimal("0.001")
    assert factor("rmax", None, "2017-06") == 1
    assert factor("rmax", "TFlop/s", "2016-11") == 1
    assert factor("energy_efficiency", "Mflops/Watt", "2017-06") == Decimal("0.001")
    assert factor("energy_efficiency", None, "2017-06") == 1


@pytest.fixture(scope="module")
def result(dataset: Dataset):  # type: ignore[no-untyped-def]
    return import_top500([CSV, TSV], dataset)


def test_bad_rows_reported_others_import(result) -> None:  # type: ignore[no-untyped-def]
    rejected = {(p.path, p.row, p.column) for p in result.report.rejected}
    assert rejected == {("TOP500_201611.csv", 4, "rmax"), ("TOP500_201611.csv", 5, "Rank")}
    assert result.report.rows_imported == 5
    assert any("Mystery Column" in w for w in result.report.warnings)
    assert "Unknown Builder Ltd" in result.report.unresolved["organization"]


def test_units_normalised_to_teraflops(result) -> None:  # type: ignore[no-untyped-def]
    rmax = values(result.ntriples, HK + "value")
    assert "2000.0005" in rmax  # 2000000.5 GFlop/s in 2016-11
    assert "2100.25" in rmax  # TFlop/s header in 2021-06
    assert "4.2" in rmax and "4" in rmax  # efficiency: 4000 MFlop/s/W -> 4 GFlop/s/W


def test_identity_links_pre_id_rows_to_system_id(result) -> None:  # type: ignore[no-untyped-def]
    nt = result.ntriples.decode()
    assert "/claim/top500/top500-990001/2016-11/rank>" in nt
    assert "/claim/top500/top500-990001/2021-06/rank>" in nt
    assert result.report.systems_linked_to_system_id == 1


def test_suppliers_from_free_text(result) -> None:  # type: ignore[no-untyped-def]
    suppliers = set(values(result.ntriples, HK + "supplier"))
    assert {
        "https://w3id.org/hpckg/id/org/mellanox",
        "https://w3id.org/hpckg/id/org/ibm",
        "https://w3id.org/hpckg/id/org/cray",
        "https://w3id.org/hpckg/id/org/hpe",
    } <= suppliers


def test_output_is_valid_sorted_and_deterministic(result, dataset: Dataset) -> None:  # type: ignore[no-untyped-def]
    lines = result.ntriples.decode().splitlines()
    assert lines == sorted(lines)
    assert len(list(ox.parse(result.ntriples, format=ox.RdfFormat.N_TRIPLES))) == len(lines)
    again = import_top500([CSV, TSV], dataset)
    assert again.ntriples == result.ntriples


def test_corrupt_file_names_the_file_and_keeps_old_output(tmp_path: Path, dataset: Dataset) -> None:
    out = tmp_path / "out.nt"
    out.write_text("old\n")
    with pytest.raises(DataError) as error:
        import_top500([CSV, FIXTURES / "TOP500_201706.xlsx"], dataset)
    assert "TOP500_201706.xlsx" in str(error.value)
    assert out.read_text() == "old\n"


def test_truncated_csv_is_a_data_error(tmp_path: Path) -> None:
    bad = tmp_path / "TOP500_201911.csv"
    bad.write_text("Rank,Name,Rmax\n")
    with pytest.raises(DataError, match="no data rows"):
        read_list(bad)


def test_cli_writes_output_and_report(tmp_path: Path) -> None:
    out, report = tmp_path / "t.nt", tmp_path / "r.json"
    outcome = CliRunner().invoke(
        main, ["import", "top500", str(CSV), str(TSV), "-o", str(out), "--report", str(report)]
    )
    assert outcome.exit_code == 0, outcome.output
    assert out.stat().st_size > 0 and '"rows_imported": 5' in report.read_text()
    first = out.read_bytes()
    CliRunner().invoke(main, ["import", "top500", str(CSV), str(TSV), "-o", str(out)])
    assert out.read_bytes() == first


def test_write_import_is_atomic(tmp_path: Path, result) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "o.nt"
    write_import(result, out)
    assert out.read_bytes() == result.ntriples
    assert [p.name for p in tmp_path.iterdir()] == ["o.nt"]


def test_rpeak_below_rmax_is_dropped_with_a_warning(dataset: Dataset) -> None:
    # Row 3 says Rmax 1661 > Rpeak 181.3 (as the real 2019-11 and 2020-06 lists do):
    # Rmax is kept, Rpeak is not imported, the report names file, row and column.
    path = Path(__file__).parent / "fixtures" / "top500-rpeak" / "TOP500_201911.tsv"
    result = import_top500([path], dataset)
    assert result.report.rows_imported == 2
    assert "TOP500_201911.tsv:3 (column Rpeak [TFlop/s]): Rpeak 181.3 is below Rmax 1661: Rpeak not imported" in (
        result.report.warnings
    )
    assert sum("Rpeak" in w for w in result.report.warnings) == 1  # the sound row is not warned about
    triples = list(ox.parse(result.ntriples, format=ox.RdfFormat.N_TRIPLES))
    rpeak_claims = {t.subject.value for t in triples if t.object.value == HK + "Rpeak"}
    rmax_claims = {t.subject.value for t in triples if t.object.value == HK + "Rmax"}
    assert len(rmax_claims) == 2
    assert len(rpeak_claims) == 1 and "top500-990101" in next(iter(rpeak_claims))
    assert "3000.5" in values(result.ntriples, HK + "value")
    assert "181.3" not in values(result.ntriples, HK + "value")
