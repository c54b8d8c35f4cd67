"""Options and output shared by the importer commands."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol, TypeVar

import click

from ..io import atomic_write

F = TypeVar("F", bound=Callable[..., Any])

__all__ = ["output_options", "write_report"]


class Report(Protocol):
    def to_json(self) -> str: ...

    def to_text(self) -> str: ...


def output_options(func: F) -> F:
    """``-o/--output`` (required N-Triples file) and ``--report`` (optional report file)."""
    func = click.option(
        "--report",
        "report_path",
        type=click.Path(dir_okay=False, path_type=Path),
        default=None,
        help="Also write the import report here (.json for JSON, anything else for text).",
    )(func)
    return click.option(
        "-o",
        "--output",
        "output",
        required=True,
        type=click.Path(dir_okay=False, path_type=Path),
        help="N-Triples file to write (replaced atomically).",
    )(func)


def write_report(report: Report, path: str | Path) -> None:
    """The import report, as JSON when ``path`` ends in .json and as text otherwise."""
    target = Path(path)
    atomic_write(target, report.to_json() if target.suffix.lower() == ".json" else report.to_text())
