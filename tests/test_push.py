"""`hpckg push` against a Graph Store Protocol receiver on loopback."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from pathlib import Path

import pyoxigraph as ox
import pytest
from click.testing import CliRunner
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from hpckg.cli import main
from hpckg.namespaces import DERIVED_GRAPH, HK, RDF
from hpckg.server.background import serve_in_thread
from hpckg.store import Dataset

EX = "https://example.org/push/"


@pytest.fixture(scope="module")
def receiver() -> Iterator[tuple[str, list[dict[str, object]]]]:
    """A minimal GSP server that records each upload and answers 204."""
    received: list[dict[str, object]] = []

    async def store(request: Request) -> Response:
        received.append(
            {
                "method": request.method,
                "query": request.url.query,
                "type": request.headers.get("content-type"),
                "body": await request.body(),
            }
        )
        return Response(status_code=204)

    app = Starlette(routes=[Route("/ds/data", store, methods=["PUT", "POST"])])
    with serve_in_thread(app) as url:
        yield f"{url}/ds/data", received


@pytest.fixture
def extra(tmp_path: Path) -> Path:
    path = tmp_path / "extra.ttl"
    path.write_text(f"<{EX}a> <{EX}p> 'pushed' .\n", encoding="utf-8")
    return path


@pytest.mark.server
def test_push_replaces_the_default_graph_with_everything(
    receiver: tuple[str, list[dict[str, object]]], extra: Path
) -> None:
    url, received = receiver
    received.clear()
    result = CliRunner().invoke(main, ["push", "--endpoint", url, "--replace", "--data", str(extra)])
    assert result.exit_code == 0, result.output
    upload = received[0]
    assert (upload["method"], upload["query"], upload["type"]) == ("PUT", "default=", "application/n-triples")
    triples = {(t.subject, t.predicate, t.object) for t in ox.parse(upload["body"], format=ox.RdfFormat.N_TRIPLES)}
    assert (ox.NamedNode(EX + "a"), ox.NamedNode(EX + "p"), ox.Literal("pushed")) in triples
    # The derived roll-up triples travel too: the roll-up queries read them.
    dataset = Dataset.load([extra])
    derived = list(dataset.store.quads_for_pattern(None, None, None, ox.NamedNode(str(DERIVED_GRAPH))))
    assert derived and all((q.subject, q.predicate, q.object) in triples for q in derived)
    assert len(triples) == dataset.ntriples(include_derived=True).count(b"\n")
    assert f"{len(triples)} triples" in result.output


@pytest.mark.server
def test_push_merges_into_a_named_graph_without_derived(
    receiver: tuple[str, list[dict[str, object]]], extra: Path
) -> None:
    url, received = receiver
    received.clear()
    graph = EX + "g"
    args = ["push", "--endpoint", url, "--graph", graph, "--merge", "--no-derived", "--data", str(extra)]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    upload = received[0]
    assert upload["method"] == "POST"
    assert upload["query"] == "graph=https%3A%2F%2Fexample.org%2Fpush%2Fg"
    body = upload["body"]
    assert isinstance(body, bytes)
    assert f"<{RDF.type}> <{HK.RollUp}> .".encode() not in body


def test_push_to_a_dead_endpoint_is_one_line() -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    result = CliRunner().invoke(main, ["push", "--endpoint", f"http://127.0.0.1:{port}/store"])
    assert result.exit_code == 1
    assert "cannot reach the graph store" in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_push_rejects_a_relative_graph_iri() -> None:
    result = CliRunner().invoke(main, ["push", "--endpoint", "http://127.0.0.1:9/store", "--graph", "g"])
    assert result.exit_code == 2
    assert "not an absolute IRI" in result.output


@pytest.mark.parametrize("name", ["push", "serve"])
def test_commands_have_help(name: str) -> None:
    result = CliRunner().invoke(main, [name, "--help"])
    assert result.exit_code == 0
    assert "Not available yet" not in result.output
    assert ("Graph Store Protocol" if name == "push" else "SPARQL 1.1") in result.output
