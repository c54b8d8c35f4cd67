"""hpckg.remote against a mock transport and against hpckg's own server on loopback."""

from __future__ import annotations

import json
from collections.abc import Iterator
from urllib.parse import parse_qs

import httpx
import pyoxigraph as ox
import pytest

from hpckg.errors import FetchError, ParameterError
from hpckg.queries import QueryResult, adhoc, all_saved, run_query
from hpckg.remote import push_graph, remote_query, run_remote
from hpckg.server import ServerConfig, create_app
from hpckg.server.background import serve_in_thread
from hpckg.store import Dataset

EX = "https://example.org/remote/"
HOSTILE = '"} ; DELETE WHERE {?s ?p ?o} #'
BY_LABEL = adhoc(
    f"""#+ param: label (string) : exact label
SELECT ?s ?label WHERE {{ ?s <{EX}label> ?label FILTER(?label = $label) }}"""
)
EMPTY_RESULTS = {"head": {"vars": ["s"]}, "results": {"bindings": []}}


def _mock(handler: object) -> httpx.Client:
    return httpx.Client(transport=httpx.MockTransport(handler))  # type: ignore[arg-type]


def test_run_remote_posts_a_form_with_bound_values_and_prefixes() -> None:
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(200, json=EMPTY_RESULTS, headers={"Content-Type": "application/sparql-results+json"})

    result = run_remote("http://sparql.test/query", BY_LABEL, {"label": HOSTILE}, client=_mock(handler))
    assert result.columns == ["s"] and result.rows == []
    request = seen[0]
    assert request.method == "POST"
    assert request.headers["content-type"] == "application/x-www-form-urlencoded"
    assert "application/sparql-results+json" in request.headers["accept"]
    sent = parse_qs(request.content.decode())["query"][0]
    assert "PREFIX hk: <https://w3id.org/hpckg/ontology#>" in sent
    assert "VALUES (?label)" in sent
    # The hostile value arrives as one escaped literal, and the text is a valid query.
    store = ox.Store()
    store.add(ox.Quad(ox.NamedNode(EX + "x"), ox.NamedNode(EX + "label"), ox.Literal(HOSTILE)))
    rows = list(store.query(sent))
    assert [r["s"] for r in rows] == [ox.NamedNode(EX + "x")]
    assert len(store) == 1


def test_results_json_becomes_pyoxigraph_terms() -> None:
    doc = {
        "head": {"vars": ["s", "n", "l", "d"]},
        "results": {
            "bindings": [
                {
                    "s": {"type": "uri", "value": EX + "a"},
                    "n": {
                        "type": "literal",
                        "value": "3",
                        "datatype": "http://www.w3.org/2001/XMLSchema#integer",
                    },
                    "l": {"type": "literal", "value": "Alpha", "xml:lang": "en"},
                }
            ]
        },
    }

    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, content=json.dumps(doc), headers={"Content-Type": "application/sparql-results+json"})

    result = remote_query("http://sparql.test/query", "SELECT * {}", client=_mock(handler))
    assert result.columns == ["s", "n", "l", "d"]
    assert result.rows == [
        (
            ox.NamedNode(EX + "a"),
            ox.Literal("3", datatype=ox.NamedNode("http://www.w3.org/2001/XMLSchema#integer")),
            ox.Literal("Alpha", language="en"),
            None,
        )
    ]


def test_ask_and_construct_responses() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        query = parse_qs(request.content.decode())["query"][0]
        if query.startswith("ASK"):
            return httpx.Response(
                200,
                json={"head": {}, "boolean": True},
                headers={"Content-Type": "application/sparql-results+json"},
            )
        return httpx.Response(
            200, content=f'<{EX}a> <{EX}p> "v" .\n', headers={"Content-Type": "application/n-triples"}
        )

    client = _mock(handler)
    assert remote_query("http://sparql.test/q", "ASK {}", client=client).boolean is True
    triples = remote_query("http://sparql.test/q", "CONSTRUCT WHERE { ?s ?p ?o }", client=client).triples
    assert triples == [ox.Triple(ox.NamedNode(EX + "a"), ox.NamedNode(EX + "p"), ox.Literal("v"))]


@pytest.mark.parametrize(
    ("response", "message"),
    [
        (httpx.Response(400, text="Parse error: line 3\nmore"), "HTTP 400: Parse error: line 3"),
        (
            httpx.Response(200, text="<html/>", headers={"Content-Type": "text/html"}),
            "unexpected response type",
        ),
        (
            httpx.Response(200, text="{not json", headers={"Content-Type": "application/sparql-results+json"}),
            "unreadable",
        ),
    ],
)
def test_remote_errors_name_the_endpoint(response: httpx.Response, message: str) -> None:
    with pytest.raises(FetchError) as caught:
        remote_query("http://sparql.test/query", "ASK {}", client=_mock(lambda request: response))
    assert message in str(caught.value)
    assert str(caught.value).startswith("http://sparql.test/query: ")


def test_unreachable_endpoint_is_a_fetch_error() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("connection refused")

    with pytest.raises(FetchError, match="cannot reach"):
        remote_query("http://sparql.test/query", "ASK {}", client=_mock(handler))


def test_parameters_are_checked_before_any_request() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        raise AssertionError("no request expected")

    with pytest.raises(ParameterError, match="missing required value"):
        run_remote("http://sparql.test/query", BY_LABEL, {}, client=_mock(handler))


@pytest.mark.parametrize(
    ("graph", "replace", "method", "query"),
    [
        (None, True, "PUT", "default="),
        ("https://example.org/g", False, "POST", "graph=https%3A%2F%2Fexample.org%2Fg"),
    ],
)
def test_push_graph_speaks_the_graph_store_protocol(graph: str | None, replace: bool, method: str, query: str) -> None:
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(204)

    body = f"<{EX}a> <{EX}p> <{EX}b> .\n".encode()
    status = push_graph("http://store.test/ds/data", body, graph=graph, replace=replace, client=_mock(handler))
    assert status == 204
    assert seen[0].method == method
    assert seen[0].url.query.decode() == query
    assert seen[0].headers["content-type"] == "application/n-triples"
    assert seen[0].content == body


def test_push_refusals_are_fetch_errors() -> None:
    client = _mock(lambda request: httpx.Response(401, text="Unauthorized"))
    with pytest.raises(FetchError, match="HTTP 401: Unauthorized"):
        push_graph("http://store.test/ds/data", b"", client=client)
    with pytest.raises(ParameterError, match="not an absolute IRI"):
        push_graph("http://store.test/ds/data", b"", graph="relative", client=client)


# -- against hpckg's own endpoint on loopback ----------------------------------------------


def _normalise(result: QueryResult) -> list[tuple[str, ...]]:
    return sorted(tuple("" if t is None else str(t) for t in row) for row in result.rows)


@pytest.fixture(scope="module")
def own_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Dataset]]:
    extra = tmp_path_factory.mktemp("remote") / "labels.ttl"
    lines = [(EX + "hostile", HOSTILE), (EX + "escape", "a\\u0022b"), (EX + "newline", "two\nlines")]
    extra.write_text("".join(f"<{s}> <{EX}label> {json.dumps(v)} .\n" for s, v in lines), encoding="utf-8")
    dataset = Dataset.load([extra])
    with serve_in_thread(create_app(dataset, ServerConfig(timeout=30))) as url:
        yield url + "/sparql", dataset


@pytest.mark.server
def test_every_saved_query_gives_the_same_rows_through_hpckg_serve(own_server: tuple[str, Dataset]) -> None:
    endpoint, dataset = own_server
    runnable = [q for q in all_saved() if all(not p.required for p in q.params)]
    for query in runnable:
        local = run_query(dataset, query, {})
        remote = run_remote(endpoint, query, {})
        assert remote.columns == local.columns, query.name
        assert _normalise(remote) == _normalise(local), query.name


@pytest.mark.server
@pytest.mark.parametrize("value", [HOSTILE, "a\\u0022b", "two\nlines"])
def test_awkward_values_stay_one_literal_over_http(own_server: tuple[str, Dataset], value: str) -> None:
    endpoint, dataset = own_server
    result = run_remote(endpoint, BY_LABEL, {"label": value})
    assert [row[1].value for row in result.rows] == [value]
    assert result.rows == run_query(dataset, BY_LABEL, {"label": value}).rows
