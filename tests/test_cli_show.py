"""`hpckg show seren` reproduces the seed page field for field."""

from __future__ import annotations

import re
from pathlib import Path

from click.testing import CliRunner

from hpckg.cli import main

SEED = Path(__file__).resolve().parents[2] / "shared" / "seeds" / "seren-system-page.txt"


def seed_text() -> str:
    from conftest import shared_data_dir

    if not SEED.is_file():
        shared_data_dir()  # skips (or fails under CI) with the reason
    return SEED.read_text(encoding="utf-8")


def show(runner: CliRunner, *args: str) -> str:
    result = runner.invoke(main, ["show", *args])
    assert result.exit_code == 0, result.output
    return result.output


def test_title_operator_and_aliases(runner: CliRunner) -> None:
    seed = seed_text().splitlines()
    out = show(runner, "seren").splitlines()
    assert out[0] == seed[2] == "Seren (Shanghai AI Lab)"
    assert out[1] == seed[1] == "China · operational · ai training"
    assert out[2] == seed[3] == "Also known as Seren"
    assert out[3].rstrip(".") == seed[4].rstrip(" .")


def test_measured_performance_is_unknown_everywhere(runner: CliRunner) -> None:
    seed = seed_text()
    block = seed.split("Measured performance\n", 1)[1].split("Figures are", 1)[0].splitlines()
    fields = dict(zip(block[0::2], block[1::2], strict=True))  # "- Rmax": "- -"
    out = show(runner, "seren")
    for key, value in fields.items():
        assert f"{key}: {value[2:]}" in out


def test_component_rows_match_the_seed(runner: CliRunner) -> None:
    seed_rows = [
        line
        for line in seed_text().splitlines()
        if line.startswith("| Accelerator") or line.startswith("| Interconnect")
    ]
    out_rows = [
        line for line in show(runner, "seren").splitlines() if line.startswith(("| Accelerator", "| Interconnect"))
    ]
    assert len(seed_rows) == len(out_rows) == 2
    for seed_row, out_row in zip(seed_rows, out_rows, strict=True):
        s = [c.strip() for c in seed_row.strip("|").split("|")]
        o = [c.strip() for c in out_row.strip("|").split("|")]
        role, part, supplier, quantity, tier, source = s
        assert o[0] == role
        assert o[1].split(" \u2014 ")[0] in part  # part label
        assert o[1].split(" \u2014 ")[1] in part  # the source's description
        assert o[2] == supplier and o[3] == supplier  # no roll-up: NVIDIA is its own parent
        assert o[4] == quantity.replace(" reported", "")
        assert o[5] == tier and o[6] == source


def test_read_timeline_and_change_history(runner: CliRunner) -> None:
    seed = seed_text()
    out = show(runner, "seren")
    read = seed.split("The read\n", 1)[1].split("\nTimeline", 1)[0].strip()
    assert read in out
    assert "- 2024-03 Announced (arxiv.org)" in out and "- 2024-03 Announced source" in seed
    change = re.search(r"- 2026-10-02 .*", seed)
    assert change and change.group(0) in out


def test_source_check_table(runner: CliRunner) -> None:
    seed = seed_text()
    out = show(runner, "seren")
    row = next(line for line in seed.splitlines() if line.startswith("| arxiv.org"))
    assert row in out
    assert "Checked 2026-10-09 by hpckg verify." in out


def test_show_by_label_and_unknown_system(runner: CliRunner) -> None:
    assert show(runner, "Seren (Shanghai AI Lab)").startswith("Seren (Shanghai AI Lab)")
    missing = runner.invoke(main, ["show", "deep-thought"])
    assert missing.exit_code == 1 and "no system named 'deep-thought'" in missing.output


def test_supplier_at_build_and_current_parent_side_by_side(runner: CliRunner) -> None:
    out = show(runner, "summit")
    rows = [line for line in out.splitlines() if line.startswith("| Interconnect")]
    assert any("| Mellanox" in r and "| NVIDIA |" in r for r in rows), rows
