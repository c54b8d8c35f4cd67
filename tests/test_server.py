"""The SPARQL endpoint through httpx's ASGI transport: protocol, formats, errors, saved queries."""

from __future__ import annotations

import csv
import io
import json
import xml.etree.ElementTree as ET
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pyoxigraph as ox
import pytest
import rdflib

from hpckg.queries import parse_saved
from hpckg.server import ServerConfig, create_app
from hpckg.server.protocol import GRAPH_TYPES, RESULT_TYPES, negotiate
from hpckg.store import Dataset

EX = "https://example.org/t/"
HOSTILE = '"} ; DELETE WHERE {?s ?p ?o} #'
FIXTURE = f"""
@prefix ex: <{EX}> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
ex:a a ex:Thing ; rdfs:label "Alpha"@en ; ex:size 3 .
ex:b a ex:Thing ; rdfs:label "Beta, \\"quoted\\"" ; ex:size 5 .
ex:c a ex:Thing ; rdfs:label {json.dumps(HOSTILE)} ; ex:size 7 .
"""
SELECT_THINGS = f"SELECT ?s ?label WHERE {{ ?s a <{EX}Thing> ; rdfs:label ?label }} ORDER BY ?s"
SAVED = [
    parse_saved(
        f"""#+ title: Things at least as big as a size
#+ param: min_size (integer) = 0 : smallest size
SELECT ?s ?size WHERE {{ ?s <{EX}size> ?size FILTER(?size >= $min_size) }} ORDER BY ?s
""",
        "things-by-size",
    ),
    parse_saved(
        """#+ title: A thing by label
#+ param: label (string) : exact label
SELECT ?s WHERE { ?s rdfs:label ?l FILTER(STR(?l) = $label) }
""",
        "thing-by-label",
    ),
    parse_saved(
        f"#+ title: Describe things\nCONSTRUCT {{ ?s a <{EX}Thing> }} WHERE {{ ?s a <{EX}Thing> }}\n",
        "things",
    ),
]


@pytest.fixture(scope="module")
def fixture_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("server") / "things.ttl"
    path.write_text(FIXTURE, encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def dataset(fixture_file: Path) -> Dataset:
    return Dataset.load([fixture_file], bundled=False, derive=False)


def _client(ds: Dataset, config: ServerConfig | None = None) -> httpx.AsyncClient:
    app = create_app(ds, config or ServerConfig(timeout=20, max_rows=100), SAVED)
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://testserver")


@pytest.fixture
async def client(dataset: Dataset) -> AsyncIterator[httpx.AsyncClient]:
    async with _client(dataset) as http:
        yield http


def _labels(doc: dict[str, object]) -> list[str]:
    bindings = doc["results"]["bindings"]  # type: ignore[index]
    return [b["label"]["value"] for b in bindings]  # type: ignore[index]


def _expected(ds: Dataset) -> list[str]:
    return [row["label"].value for row in ds.select(SELECT_THINGS)]


# -- the three protocol paths -----------------------------------------------------------


async def test_get_query(client: httpx.AsyncClient, dataset: Dataset) -> None:
    response = await client.get("/sparql", params={"query": SELECT_THINGS})
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("application/sparql-results+json")
    assert _labels(response.json()) == _expected(dataset)
    assert HOSTILE in _labels(response.json())


async def test_post_form(client: httpx.AsyncClient, dataset: Dataset) -> None:
    response = await client.post("/sparql", data={"query": SELECT_THINGS})
    assert response.status_code == 200
    assert _labels(response.json()) == _expected(dataset)


async def test_post_sparql_query_body(client: httpx.AsyncClient, dataset: Dataset) -> None:
    response = await client.post(
        "/sparql", content=SELECT_THINGS.encode(), headers={"Content-Type": "application/sparql-query"}
    )
    assert response.status_code == 200
    assert _labels(response.json()) == _expected(dataset)


async def test_default_graph_uri_selects_the_dataset(client: httpx.AsyncClient, dataset: Dataset) -> None:
    graph = dataset.source_graphs()[0].value
    inside = await client.get("/sparql", params={"query": SELECT_THINGS, "default-graph-uri": graph})
    outside = await client.get("/sparql", params={"query": SELECT_THINGS, "default-graph-uri": EX + "nothing"})
    assert len(inside.json()["results"]["bindings"]) == 3
    assert outside.json()["results"]["bindings"] == []
    named = await client.get(
        "/sparql",
        params={"query": "SELECT DISTINCT ?g WHERE { GRAPH ?g { ?s ?p ?o } }", "named-graph-uri": graph},
    )
    assert [b["g"]["value"] for b in named.json()["results"]["bindings"]] == [graph]


# -- content negotiation ------------------------------------------------------------------


async def test_results_xml(client: httpx.AsyncClient, dataset: Dataset) -> None:
    response = await client.get(
        "/sparql", params={"query": SELECT_THINGS}, headers={"Accept": "application/sparql-results+xml"}
    )
    assert response.headers["content-type"].startswith("application/sparql-results+xml")
    ns = {"r": "http://www.w3.org/2005/sparql-results#"}
    root = ET.fromstring(response.content)
    labels = [e.text for e in root.findall(".//r:binding[@name='label']/r:literal", ns)]
    assert labels == _expected(dataset)


async def test_results_csv(client: httpx.AsyncClient, dataset: Dataset) -> None:
    response = await client.get("/sparql", params={"query": SELECT_THINGS}, headers={"Accept": "text/csv"})
    assert response.headers["content-type"] == "text/csv; charset=utf-8"
    rows = list(csv.reader(io.StringIO(response.text)))
    assert rows[0] == ["s", "label"]
    assert [r[1] for r in rows[1:]] == _expected(dataset)


async def test_results_tsv(client: httpx.AsyncClient) -> None:
    response = await client.get(
        "/sparql", params={"query": SELECT_THINGS}, headers={"Accept": "text/tab-separated-values"}
    )
    lines = response.text.splitlines()
    assert lines[0] == "?s\t?label"
    assert lines[1] == f'<{EX}a>\t"Alpha"@en'


async def test_ask_in_every_result_format(client: httpx.AsyncClient) -> None:
    query = f"ASK {{ <{EX}a> ?p ?o }}"
    as_json = await client.get("/sparql", params={"query": query})
    assert as_json.json() == {"head": {}, "boolean": True}
    as_xml = await client.get("/sparql", params={"query": query, "format": "xml"})
    assert b"<boolean>true</boolean>" in as_xml.content
    for fmt in ("csv", "tsv"):
        response = await client.get("/sparql", params={"query": query, "format": fmt})
        assert response.status_code == 200
        assert response.text.strip() == "true"


@pytest.mark.parametrize(
    ("accept", "rdflib_format", "media"),
    [
        ("text/turtle", "turtle", "text/turtle"),
        ("application/n-triples", "nt", "application/n-triples"),
        ("application/ld+json", "json-ld", "application/ld+json"),
        (None, "turtle", "text/turtle"),
    ],
)
async def test_construct_formats(
    client: httpx.AsyncClient, dataset: Dataset, accept: str | None, rdflib_format: str, media: str
) -> None:
    query = f"CONSTRUCT {{ ?s <{EX}size> ?n }} WHERE {{ ?s <{EX}size> ?n }}"
    headers = {"Accept": accept} if accept else {}
    response = await client.post("/sparql", data={"query": query}, headers=headers)
    assert response.status_code == 200
    assert response.headers["content-type"].split(";")[0] == media
    graph = rdflib.Graph().parse(data=response.content, format=rdflib_format)
    assert len(graph) == len(dataset.construct(query)) == 3


async def test_describe_is_a_graph(client: httpx.AsyncClient) -> None:
    response = await client.get("/sparql", params={"query": f"DESCRIBE <{EX}a>", "format": "nt"})
    assert response.status_code == 200
    graph = rdflib.Graph().parse(data=response.content, format="nt")
    assert (rdflib.URIRef(EX + "a"), rdflib.URIRef(EX + "size"), rdflib.Literal(3)) in graph


async def test_unacceptable_format_is_406(client: httpx.AsyncClient) -> None:
    response = await client.get("/sparql", params={"query": SELECT_THINGS}, headers={"Accept": "image/png"})
    assert response.status_code == 406
    assert "application/sparql-results+json" in response.text


async def test_format_parameter_for_the_wrong_kind_is_400(client: httpx.AsyncClient) -> None:
    response = await client.get("/sparql", params={"query": SELECT_THINGS, "format": "turtle"})
    assert response.status_code == 400
    assert "turtle" in response.text


def test_negotiate_prefers_quality_then_specificity() -> None:
    assert negotiate("text/csv;q=0.4, application/sparql-results+xml;q=0.9", RESULT_TYPES).name == "xml"
    assert negotiate("*/*;q=0.1, text/tab-separated-values", RESULT_TYPES).name == "tsv"
    assert negotiate("text/*", RESULT_TYPES).name == "csv"
    assert negotiate("text/html,application/xhtml+xml,*/*;q=0.8", GRAPH_TYPES).name == "turtle"
    assert negotiate("application/json", GRAPH_TYPES).name == "jsonld"
    assert negotiate("image/png, text/csv;q=0", RESULT_TYPES) is None


# -- errors --------------------------------------------------------------------------------


async def test_malformed_query_is_400_with_the_parser_message(client: httpx.AsyncClient) -> None:
    bad = await client.get("/sparql", params={"query": "SELECT ?x WHERE { ?x ?p }"})
    assert bad.status_code == 400
    assert "SPARQL syntax error" in bad.text and "1:" in bad.text
    good = await client.get("/sparql", params={"query": SELECT_THINGS})
    assert good.status_code == 200


@pytest.mark.parametrize(
    "update",
    [
        "DELETE WHERE { ?s ?p ?o }",
        f"PREFIX ex: <{EX}>\n# comment\nINSERT DATA {{ ex:z a ex:Thing }}",
        "CLEAR ALL",
        "drop graph <https://example.org/g>",
    ],
)
async def test_update_is_refused_and_changes_nothing(client: httpx.AsyncClient, dataset: Dataset, update: str) -> None:
    before = len(dataset.store)
    for response in (
        await client.get("/sparql", params={"query": update}),
        await client.post("/sparql", data={"update": update}),
        await client.post("/sparql", content=update, headers={"Content-Type": "application/sparql-update"}),
    ):
        assert response.status_code == 403
        assert "read-only" in response.text
    assert len(dataset.store) == before


@pytest.mark.parametrize(
    ("kwargs", "status", "message"),
    [
        ({"method": "GET", "url": "/sparql"}, 400, "missing SPARQL query"),
        ({"method": "GET", "url": "/sparql?query=ASK{}&query=ASK{}"}, 400, "given 2 times"),
        ({"method": "POST", "url": "/sparql", "content": b"ASK {}"}, 415, "unsupported request body type"),
        ({"method": "PUT", "url": "/sparql", "content": b"ASK {}"}, 405, ""),
        (
            {
                "method": "GET",
                "url": "/sparql",
                "params": {"query": "ASK {}", "default-graph-uri": "not an iri"},
            },
            400,
            "default-graph-uri",
        ),
    ],
)
async def test_protocol_errors(client: httpx.AsyncClient, kwargs: dict[str, object], status: int, message: str) -> None:
    response = await client.request(**kwargs)  # type: ignore[arg-type]
    assert response.status_code == status
    assert message in response.text


async def test_row_cap(dataset: Dataset) -> None:
    query = f"SELECT ?s WHERE {{ ?s a <{EX}Thing> }}"
    async with _client(dataset, ServerConfig(max_rows=2)) as http:
        over = await http.get("/sparql", params={"query": query})
        assert over.status_code == 422
        assert "more than 2 rows" in over.text
        graph = await http.get("/sparql", params={"query": f"CONSTRUCT WHERE {{ <{EX}a> ?p ?o }}"})
        assert graph.status_code == 422
        at_cap = await http.get("/sparql", params={"query": query + " LIMIT 2"})
        assert at_cap.status_code == 200
        assert len(at_cap.json()["results"]["bindings"]) == 2


@pytest.fixture(scope="module")
def big(tmp_path_factory: pytest.TempPathFactory) -> Dataset:
    path = tmp_path_factory.mktemp("big") / "big.nt"
    path.write_text("".join(f"<{EX}n{i}> <{EX}p> <{EX}v{i}> .\n" for i in range(150)), encoding="utf-8")
    return Dataset.load([path], bundled=False, derive=False)


async def test_timeout_streaming_query_is_503_and_server_keeps_serving(big: Dataset) -> None:
    # 150^3 rows: the worker stops at the first row past the deadline.
    cross = "SELECT * WHERE { ?a ?p ?b . ?c ?p ?d . ?e ?p ?f }"
    async with _client(big, ServerConfig(timeout=0.3, max_rows=10**9, workers=1)) as http:
        slow = await http.get("/sparql", params={"query": cross})
        assert slow.status_code == 503
        assert "timed out after 0.3 s" in slow.text
        quick = await http.get("/sparql", params={"query": "ASK { ?s ?p ?o }"})
        assert quick.status_code == 200


async def test_timeout_blocking_query_is_503(big: Dataset) -> None:
    # An aggregate computes everything before its first row: the wait is abandoned.
    count = "SELECT (COUNT(*) AS ?n) WHERE { ?a ?p ?b . ?c ?p ?d . ?e ?p ?f }"
    async with _client(big, ServerConfig(timeout=0.2, workers=2)) as http:
        slow = await http.get("/sparql", params={"query": count})
        assert slow.status_code == 503
        quick = await http.get("/sparql", params={"query": "ASK { ?s ?p ?o }"})
        assert quick.status_code == 200


# -- CORS ----------------------------------------------------------------------------------


async def test_cors(client: httpx.AsyncClient) -> None:
    simple = await client.get("/sparql", params={"query": SELECT_THINGS}, headers={"Origin": "https://yasgui.org"})
    assert simple.headers["access-control-allow-origin"] == "*"
    preflight = await client.options(
        "/sparql",
        headers={
            "Origin": "https://yasgui.org",
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "content-type",
        },
    )
    assert preflight.status_code == 200
    assert "POST" in preflight.headers["access-control-allow-methods"]
    assert "content-type" in preflight.headers["access-control-allow-headers"].lower()


# -- saved queries ---------------------------------------------------------------------------


async def test_list_saved_queries(client: httpx.AsyncClient) -> None:
    listed = (await client.get("/queries")).json()
    assert [q["name"] for q in listed] == [q.name for q in SAVED]
    first = listed[0]
    assert first["params"] == [
        {
            "name": "min_size",
            "type": "integer",
            "default": "0",
            "required": False,
            "description": "smallest size",
        }
    ]
    assert first["url"] == "queries/things-by-size"


async def test_saved_query_with_parameters(client: httpx.AsyncClient, dataset: Dataset) -> None:
    response = await client.get("/queries/things-by-size", params={"min_size": "5"})
    assert response.status_code == 200
    sizes = [int(b["size"]["value"]) for b in response.json()["results"]["bindings"]]
    expected = [int(r["n"].value) for r in dataset.select(f"SELECT ?n WHERE {{ ?s <{EX}size> ?n FILTER(?n >= 5) }}")]
    assert sorted(sizes) == sorted(expected) and sizes
    default = await client.get("/queries/things-by-size")
    assert len(default.json()["results"]["bindings"]) == 3


async def test_saved_query_binds_a_hostile_value_as_one_literal(client: httpx.AsyncClient) -> None:
    response = await client.get("/queries/thing-by-label", params={"label": HOSTILE})
    assert response.status_code == 200
    assert [b["s"]["value"] for b in response.json()["results"]["bindings"]] == [EX + "c"]


@pytest.mark.parametrize(
    ("accept", "fmt", "check"),
    [
        ("text/csv", None, lambda r: r.text.splitlines()[0] == "s,size"),
        (None, "tsv", lambda r: r.text.splitlines()[0] == "?s\t?size"),
        ("application/sparql-results+xml", None, lambda r: b'<variable name="size"/>' in r.content),
    ],
)
async def test_saved_query_formats(
    client: httpx.AsyncClient, accept: str | None, fmt: str | None, check: object
) -> None:
    params = {"format": fmt} if fmt else {}
    response = await client.get("/queries/things-by-size", params=params, headers={"Accept": accept} if accept else {})
    assert response.status_code == 200
    assert check(response)  # type: ignore[operator]


async def test_saved_construct_as_ntriples(client: httpx.AsyncClient) -> None:
    response = await client.get("/queries/things", headers={"Accept": "application/n-triples"})
    triples = list(ox.parse(response.content, format=ox.RdfFormat.N_TRIPLES))
    assert len(triples) == 3


@pytest.mark.parametrize(
    ("url", "status", "message"),
    [
        ("/queries/things-by-size?min_size=big", 400, "parameter min_size: expected an integer"),
        ("/queries/things-by-size?colour=red", 400, "unknown parameter"),
        ("/queries/things-by-size?min_size=1&min_size=2", 400, "given more than once"),
        ("/queries/thing-by-label", 400, "parameter label: missing required value"),
        ("/queries/no-such-query", 404, "unknown saved query 'no-such-query' (known: things-by-size"),
    ],
)
async def test_saved_query_errors(client: httpx.AsyncClient, url: str, status: int, message: str) -> None:
    response = await client.get(url)
    assert response.status_code == status
    assert message in response.text


def test_default_saved_queries_are_the_projects(dataset: Dataset) -> None:
    from hpckg.queries import all_saved

    app = create_app(Dataset.load(derive=False))
    assert sorted(app.state.endpoint.saved) == sorted(q.name for q in all_saved())


# -- the HTML page ---------------------------------------------------------------------------


async def test_page_is_offline_and_lists_the_saved_queries(client: httpx.AsyncClient) -> None:
    import html5lib

    response = await client.get("/")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/html")
    document = html5lib.parse(response.text, namespaceHTMLElements=False)
    # Offline: no script, style or link pulled from another host.
    for element in document.iter():
        for attribute in ("src", "href"):
            value = element.get(attribute, "")
            assert not value.startswith(("http:", "https:", "//")), value
    blob = document.find(".//script[@id='saved']")
    assert blob is not None
    examples = json.loads(blob.text or "")
    assert [e["name"] for e in examples] == [q.name for q in SAVED]
    assert document.find(".//form").get("action") == "sparql"


async def test_repeated_requests_reuse_the_cached_body(dataset: Dataset) -> None:
    app = create_app(dataset, ServerConfig(cache_size=2), SAVED)
    cache = app.state.endpoint.cache
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t") as http:
        first = await http.get("/sparql", params={"query": SELECT_THINGS})
        second = await http.get("/sparql", params={"query": SELECT_THINGS})
        assert first.content == second.content and len(cache) == 1
        csv_body = await http.get("/sparql", params={"query": SELECT_THINGS}, headers={"Accept": "text/csv"})
        assert csv_body.headers["content-type"].startswith("text/csv") and len(cache) == 2
        await http.get("/sparql", params={"query": "SELECT (NOW() AS ?t) WHERE {}"})
        await http.get("/sparql", params={"query": "SELECT ?x WHERE { ?x ?p ?y }"})
        assert len(cache) == 2  # volatile query skipped; oldest entry evicted
        assert all("NOW()" not in key[0] for key in cache)
        bad = await http.get("/sparql", params={"query": "SELECT ?x WHERE {"})
        assert bad.status_code == 400 and all(key[0] != "SELECT ?x WHERE {" for key in cache)
