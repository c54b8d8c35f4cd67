"""`hpckg push`: load the graph into a SPARQL 1.1 server (Graph Store Protocol)."""

from __future__ import annotations

from pathlib import Path

import click

from ..remote import push_graph
from ._common import data_option, load


@click.command()
@click.option(
    "--endpoint",
    required=True,
    metavar="URL",
    help="The Graph Store Protocol URL: Oxigraph http://HOST:7878/store, Fuseki http://HOST:3030/DATASET/data.",
)
@click.option("--graph", metavar="IRI", default=None, help="Target named graph (default: the default graph).")
@click.option(
    "--replace/--merge",
    default=False,
    show_default=True,
    help="--replace drops the target graph's old content (HTTP PUT); --merge adds to it (HTTP POST).",
)
@click.option(
    "--derived/--no-derived",
    default=True,
    show_default=True,
    help="Include the derived hk:RollUp triples that the roll-up queries read.",
)
@click.option("--timeout", default=300.0, show_default=True, type=float, help="Seconds to wait for the server.")
@data_option
def command(
    endpoint: str, graph: str | None, replace: bool, derived: bool, timeout: float, data: tuple[Path, ...]
) -> None:
    """Push the graph to a SPARQL 1.1 server through the Graph Store Protocol.

    Sends the ontology, the curated graph, any --data files and (by default) the
    derived roll-up triples as one N-Triples document into one graph. Query it
    afterwards with `hpckg query NAME --endpoint QUERY-URL` (Oxigraph:
    http://HOST:7878/query, Fuseki: http://HOST:3030/DATASET/sparql). When you
    push into a named graph, the server must treat the union of graphs as its
    default graph (Oxigraph: serve --union-default-graph) or the saved queries
    will not see it.
    """
    dataset = load(data)
    body = dataset.ntriples(include_derived=derived)
    status = push_graph(endpoint, body, graph=graph, replace=replace, timeout=timeout)
    triples = body.count(b"\n")
    where = f"graph <{graph}>" if graph else "the default graph"
    verb = "replaced" if replace else "merged into"
    click.echo(f"{verb} {where} at {endpoint}: {triples} triples (HTTP {status})")
