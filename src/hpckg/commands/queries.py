"""`hpckg queries`: list the saved queries with their titles and parameters."""

from __future__ import annotations

import click

from ..queries import all_saved


@click.command()
@click.option("--tag", default=None, help="Only queries with this tag.")
def command(tag: str | None) -> None:
    """List saved queries (queries/*.rq) with their titles and parameters."""
    for query in all_saved():
        if tag and tag not in query.tags:
            continue
        click.echo(f"{query.name}: {query.title}")
        for p in query.params:
            default = f" = {p.default}" if p.default is not None else " (required)"
            doc = f"  {p.description}" if p.description else ""
            click.echo(f"    --param {p.name}=<{p.type}>{default}{doc}")
