"""`hpckg validate`: SHACL validation of the graph, grouped by focus node."""

from __future__ import annotations

from pathlib import Path

import click

from ..store import Dataset
from ..validate import validate
from ._common import data_option


@click.command()
@data_option
@click.option("--inference", is_flag=True, help="Add the OWL RL closure of the ontology and entities (owlrl) first.")
@click.option(
    "--engine",
    type=click.Choice(["fast", "hybrid", "pyshacl"]),
    default="fast",
    show_default=True,
    help="fast compiles the shapes to SPARQL on pyoxigraph; pyshacl is the reference; "
    "hybrid runs pyshacl for core shapes and pyoxigraph for SHACL-SPARQL.",
)
def command(data: tuple[Path, ...], inference: bool, engine: str) -> None:
    """Validate the graph against ontology/shapes.ttl; exit 1 on violations."""
    ds = Dataset.load(data, strict=False)
    report = validate(ds, inference=inference, engine=engine)
    click.echo(report.text())
    if not report.conforms:
        raise SystemExit(1)
