"""`hpckg export`: the graph as Turtle, JSON-LD or N-Triples."""

from __future__ import annotations

from pathlib import Path

import click

from ..export import EXPORT_FORMATS, export
from ..io import atomic_write
from ._common import data_option, load


@click.command()
@click.option(
    "--format",
    "fmt",
    type=click.Choice(EXPORT_FORMATS),
    default="ttl",
    show_default=True,
    help="ttl (deterministic Turtle), jsonld (compact JSON-LD) or nt (sorted N-Triples).",
)
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Write to this file (atomically) instead of standard output.",
)
@click.option("--with-ontology", is_flag=True, help="Include the ontology triples.")
@click.option("--with-derived", is_flag=True, help="Include derived roll-up intervals.")
@data_option
def command(fmt: str, output: Path | None, with_ontology: bool, with_derived: bool, data: tuple[Path, ...]) -> None:
    """Export the graph (curated plus --data files)."""
    ds = load(data)
    text = export(ds, fmt, include_ontology=with_ontology, include_derived=with_derived)
    if output is None:
        click.echo(text, nl=False)
    else:
        atomic_write(output, text)
        click.echo(f"Wrote {output}", err=True)
