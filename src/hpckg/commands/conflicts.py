"""`hpckg conflicts`: list disagreements between sources about the same system.

The finder is :func:`hpckg.conflicts.find_conflicts` (same system, same metric /
role / event / location, different values, no citation in common, with both
values, both sources and both tiers); this command formats its rows. The saved
query ``conflicts`` is a narrower, fast SPARQL view of the same data.
"""

from __future__ import annotations

from pathlib import Path

import click

from ..conflicts import find_conflicts
from ..results import FORMATS, format_result
from ._common import data_option, load, store_option

__all__ = ["command", "find_conflicts"]


@click.command()
@data_option
@store_option
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="table", show_default=True, help="Output format.")
def command(data: tuple[Path, ...], store_dir: Path | None, fmt: str) -> None:
    """List disagreements: two sources giving one system different values.

    Each row has the system, what is disputed (a metric, a component count, an
    event date, the status or the country), both values, both tiers and both
    sources. Both claims stay in the graph; nothing is overwritten.
    """
    result = find_conflicts(load(data, store_dir))
    click.echo(format_result(result, fmt), nl=False)
