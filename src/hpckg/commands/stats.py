"""`hpckg stats`: the coverage line and the size of the graph."""

from __future__ import annotations

from pathlib import Path

import click

from ..verify.report import coverage
from ._common import data_option, load

_COUNTS = """
SELECT
  (COUNT(DISTINCT ?system) AS ?systems) (COUNT(DISTINCT ?org) AS ?orgs)
  (COUNT(DISTINCT ?part) AS ?parts) (COUNT(DISTINCT ?claim) AS ?claims)
  (COUNT(DISTINCT ?cite) AS ?citations)
WHERE {
  { ?system a hk:System } UNION { ?org a hk:Organization } UNION { ?part a hk:Part }
  UNION { ?claim hk:tier ?t } UNION { ?cite a hk:Citation }
}"""


@click.command()
@data_option
def command(data: tuple[Path, ...]) -> None:
    """Print the seed's coverage line: N of M systems have a readable citation that names them."""
    ds = load(data)
    click.echo(coverage(ds).line())
    row = ds.select(_COUNTS)[0]
    click.echo(
        ", ".join(f"{row[k].value} {k}" for k in ("systems", "orgs", "parts", "claims", "citations"))
        + f", {ds.triple_count(include_derived=False)} triples"
    )
