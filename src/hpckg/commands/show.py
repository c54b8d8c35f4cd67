"""`hpckg show SYSTEM`: the system's profile page as text."""

from __future__ import annotations

from pathlib import Path

import click

from ..profile import find_system, system_profile
from ..render import profile_text
from ._common import data_option, load


@click.command()
@click.argument("system")
@data_option
def command(system: str, data: tuple[Path, ...]) -> None:
    """Show SYSTEM (a slug such as 'seren', a label, an alias or an IRI) as the seed page does."""
    ds = load(data)
    click.echo(profile_text(system_profile(ds, find_system(ds, system))), nl=False)
