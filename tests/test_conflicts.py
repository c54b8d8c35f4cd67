"""`hpckg conflicts`: both values, both sources, both tiers; nothing overwritten."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from hpckg.cli import main
from hpckg.commands.conflicts import find_conflicts
from hpckg.importers.epoch import import_epoch, write_epoch
from hpckg.store import Dataset

FIXTURES = Path(__file__).parent / "fixtures" / "epoch"
TOP500 = FIXTURES / "top500-sample.ttl"


@pytest.fixture(scope="module")
def epoch_nt(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("conflicts") / "epoch.nt"
    write_epoch(import_epoch(FIXTURES / "clusters.csv", top500=[TOP500]), out)
    return out


def test_count_disagreement_listed_with_both_sides(epoch_nt: Path) -> None:
    result = find_conflicts(Dataset.load([epoch_nt, TOP500]))
    rows = [r for r in result.records() if r["system"].value.endswith("/top500-999001")]
    assert len(rows) == 1
    row = rows[0]
    assert row["aspect"].value == "Accelerator count"
    assert {row["valueA"].value, row["valueB"].value} == {"2000", "1800"}
    tiers = {row["tierA"].value.rsplit("#", 1)[-1], row["tierB"].value.rsplit("#", 1)[-1]}
    assert tiers == {"Reported", "Verified"}
    sources = row["sourceA"].value + " | " + row["sourceB"].value
    assert "Test ranking list" in sources and "Data on GPU Clusters" in sources


def test_no_conflict_without_a_second_source(epoch_nt: Path) -> None:
    result = find_conflicts(Dataset.load([epoch_nt]))
    assert not [r for r in result.records() if "999001" in r["system"].value]


def test_cli(epoch_nt: Path, runner: CliRunner) -> None:
    done = runner.invoke(main, ["conflicts", "--data", str(epoch_nt), "--data", str(TOP500), "--format", "csv"])
    assert done.exit_code == 0, done.output
    assert "Accelerator count" in done.output and "1800" in done.output


def test_help_describes_the_command(runner: CliRunner) -> None:
    done = runner.invoke(main, ["conflicts", "--help"])
    assert done.exit_code == 0 and "disagreements" in done.output.lower()


def test_saved_query_agrees_with_the_finder_on_countries(epoch_nt: Path) -> None:
    from hpckg.queries import load_saved, run_query

    ds = Dataset.load([epoch_nt, TOP500])
    saved = {(r["claimA"], r["claimB"]) for r in run_query(ds, load_saved("conflicts", ds.root)).records()}
    found = {(r["claimA"], r["claimB"]) for r in find_conflicts(ds).records() if r["aspect"].value == "country"}
    assert saved == found
