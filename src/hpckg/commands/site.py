"""`hpckg site` (being built)."""

from __future__ import annotations

import click

from ..errors import UsageError


@click.command()
def command() -> None:
    """Not available yet."""
    raise UsageError("hpckg site is not available yet")
