"""Every command has help text and is documented in the README."""

from __future__ import annotations

from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from hpckg.cli import main

README = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")


def commands() -> list[tuple[str, click.Command]]:
    found = []
    for name, command in main.commands.items():
        found.append((name, command))
        if isinstance(command, click.Group):
            found += [(f"{name} {sub}", c) for sub, c in command.commands.items()]
    return found


@pytest.mark.parametrize(("name", "command"), commands(), ids=[n for n, _ in commands()])
def test_command_has_help_and_docs(name: str, command: click.Command) -> None:
    assert command.help and len(command.help.strip()) > 20, f"{name} has no help text"
    result = CliRunner().invoke(main, [*name.split(), "--help"])
    assert result.exit_code == 0
    assert f"hpckg {name}" in README, f"`hpckg {name}` is missing from README.md"


def test_public_api_is_pinned() -> None:
    import hpckg

    assert sorted(hpckg.__all__) == [
        "DataError",
        "Dataset",
        "FetchError",
        "HpckgError",
        "ParameterError",
        "QueryError",
        "QueryResult",
        "SavedQuery",
        "UsageError",
        "ValidationError",
        "all_saved",
        "current_parent",
        "load_saved",
        "ownership_chain",
        "run_query",
    ]
