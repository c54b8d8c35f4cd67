"""`hpckg site OUT_DIR`: build the static site from the graph."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import click

from ..site import build_site
from ._common import data_option, load, store_option

__all__ = ["command"]


@click.command()
@click.argument("out_dir", type=click.Path(file_okay=False, path_type=Path))
@data_option
@store_option
@click.option(
    "--as-of",
    "as_of",
    type=click.DateTime(formats=["%Y-%m-%d"]),
    default=None,
    help="Roll suppliers up to their parents on this date (YYYY-MM-DD); default today.",
)
def command(out_dir: Path, data: tuple[Path, ...], store_dir: Path | None, as_of: dt.datetime | None) -> None:
    """Build the static site into OUT_DIR: an index, one page per system, organisation
    and part family, and charts. The folder is replaced only when the build succeeds."""
    ds = load(data, store_dir)
    summary = build_site(ds, out_dir, as_of.date() if as_of else None)
    click.echo(
        f"Wrote {summary.pages} pages ({summary.systems} systems, {summary.organisations} organisations, "
        f"{summary.families} part families; {summary.files} files) to {summary.out_dir}"
    )
