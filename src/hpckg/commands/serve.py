"""`hpckg serve`: the read-only SPARQL 1.1 endpoint over the graph."""

from __future__ import annotations

from pathlib import Path

import click

from ..server import ServerConfig, create_app
from ._common import data_option, load, store_option


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Interface to listen on.")
@click.option("--port", default=7878, show_default=True, type=click.IntRange(0, 65535), help="TCP port.")
@click.option(
    "--timeout",
    default=10.0,
    show_default=True,
    type=click.FloatRange(min=0, min_open=True),
    help="Seconds a query may run before the answer is 503.",
)
@click.option(
    "--max-rows",
    default=10_000,
    show_default=True,
    type=click.IntRange(min=1),
    help="Most rows (or triples) a result may have; a larger one is refused with 422.",
)
@click.option("--workers", default=4, show_default=True, type=click.IntRange(min=1), help="Query worker threads.")
@click.option(
    "--cache",
    "cache_size",
    default=256,
    show_default=True,
    type=click.IntRange(min=0),
    help="Responses kept for repeated identical requests (the graph is read-only); 0 turns caching off.",
)
@store_option
@data_option
def command(
    host: str,
    port: int,
    timeout: float,
    max_rows: int,
    workers: int,
    cache_size: int,
    store_dir: Path | None,
    data: tuple[Path, ...],
) -> None:
    """Serve the graph as a read-only SPARQL 1.1 endpoint.

    \b
    GET  /                 an HTML query page with the saved queries as examples
    GET  /sparql?query=..  SPARQL 1.1 Protocol (also POST, form or sparql-query body)
    GET  /queries          the saved queries (JSON)
    GET  /queries/NAME     run a saved query; ?param=value binds its parameters

    Results: SPARQL JSON, XML, CSV, TSV; Turtle, N-Triples, JSON-LD for graphs
    (by Accept header or ?format=). Updates are refused. With --store DIR the
    loaded graph is kept on disk and reused on restart while sources are unchanged.
    """
    import uvicorn

    dataset = load(data, store_dir)
    app = create_app(dataset, ServerConfig(timeout=timeout, max_rows=max_rows, workers=workers, cache_size=cache_size))
    shown = f"[{host}]" if ":" in host else host
    click.echo(f"Serving {dataset.triple_count()} triples read-only at http://{shown}:{port}/sparql", err=True)
    uvicorn.run(app, host=host, port=port, log_level="warning")
