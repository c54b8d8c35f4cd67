"""`hpckg query NAME | FILE | --sparql TEXT`: run a saved or ad-hoc query."""

from __future__ import annotations

from pathlib import Path

import click

from ..errors import ParameterError, UsageError
from ..queries import adhoc, load_saved, run_query
from ..results import FORMATS, format_result
from ._common import data_option, load, store_option


def parse_params(pairs: tuple[str, ...]) -> dict[str, str]:
    values: dict[str, str] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name:
            raise UsageError(f"--param {pair!r}: expected name=value")
        values[name.strip()] = value
    return values


@click.command()
@click.argument("name", required=False)
@click.option("--sparql", "sparql", default=None, help="Run this SPARQL text instead of a saved query.")
@click.option("--param", "params", multiple=True, metavar="NAME=VALUE", help="Bind a declared parameter; repeatable.")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(FORMATS),
    default="table",
    show_default=True,
    help="table, csv, tsv, or json (SPARQL 1.1 Query Results JSON).",
)
@click.option(
    "--min-tier",
    "min_tier",
    default=None,
    metavar="TIER",
    help="Only count claims at this tier or above (verified, reported, estimated, weak).",
)
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Write the result to this file (atomically) instead of standard output.",
)
@click.option(
    "--endpoint",
    default=None,
    metavar="URL",
    help="Run on this remote SPARQL 1.1 query endpoint (e.g. Oxigraph http://HOST:7878/query) "
    "instead of the embedded graph; see `hpckg push`.",
)
@data_option
@store_option
def command(
    name: str | None,
    sparql: str | None,
    params: tuple[str, ...],
    fmt: str,
    min_tier: str | None,
    output: Path | None,
    data: tuple[Path, ...],
    store_dir: Path | None,
    endpoint: str | None = None,
) -> None:
    """Run a saved query by NAME (see `hpckg queries`), a .rq FILE, or --sparql TEXT.

    Parameters are bound as RDF terms, never pasted into the query text.
    """
    if (name is None) == (sparql is None):
        raise UsageError("give a saved query NAME or FILE, or --sparql TEXT (one of them)")
    query = load_saved(name) if name is not None else adhoc(sparql or "")
    values = parse_params(params)
    if min_tier is not None:
        if query.param("min_tier") is None:
            raise ParameterError("this query does not take a minimum tier", query.name, "min_tier")
        values["min_tier"] = min_tier
    from ..queries import bind_params

    bind_params(query, values)  # fail on bad parameters before loading the graph
    if endpoint is not None:
        if data or store_dir is not None:
            raise UsageError("--endpoint runs on the remote graph: push --data files there with `hpckg push`")
        from ..remote import run_remote

        result = run_remote(endpoint, query, values)
    else:
        result = run_query(load(data, store_dir), query, values)
    text = format_result(result, fmt)
    if output is not None:
        from ..io import atomic_write

        atomic_write(output, text)
    else:
        click.echo(text, nl=False)
