"""`hpckg stats` prints the seed's coverage line."""

from __future__ import annotations

import re

from click.testing import CliRunner

from hpckg.cli import main
from hpckg.store import Dataset


def test_coverage_line(runner: CliRunner, dataset: Dataset) -> None:
    result = runner.invoke(main, ["stats"])
    assert result.exit_code == 0, result.output
    line = result.output.splitlines()[0]
    match = re.fullmatch(
        r"(\d+) of (\d+) systems have a readable citation that names them; (\d+) are weakly sourced; (\d+) citations are unreachable",
        line,
    )
    assert match, line
    systems = len(dataset.select("SELECT ?s WHERE { ?s a hk:System }"))
    assert int(match.group(2)) == systems
    assert int(match.group(1)) >= 1  # Seren's recorded check names it
    assert f"{systems} systems" in result.output.splitlines()[1]
