"""Generated tests for every saved query, plus the parameter binding rules."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pyoxigraph as ox
import pytest

from hpckg.errors import ParameterError, QueryError
from hpckg.queries import SavedQuery, all_saved, bind_params, load_saved, parse_saved, query_variables, run_query
from hpckg.results import term_text
from hpckg.store import Dataset

ROOT = Path(__file__).resolve().parents[1]
SAVED = all_saved(ROOT)
NAMES = [q.name for q in SAVED]


def rows(ds: Dataset, name: str, **params: str) -> list[dict[str, str]]:
    result = run_query(ds, load_saved(name, ROOT), params)
    return [{k: term_text(v, compact=True) for k, v in r.items() if v is not None} for r in result.records()]


def test_at_least_ten_saved_queries() -> None:
    assert len(SAVED) >= 10


@pytest.mark.parametrize("query", SAVED, ids=NAMES)
def test_header_is_complete(query: SavedQuery) -> None:
    assert query.title, f"{query.name}: #+ title missing"
    assert query.description, f"{query.name}: #+ description missing"
    assert query.tags, f"{query.name}: #+ tags missing"
    assert all(p.type and p.name for p in query.params)


@pytest.mark.parametrize("query", SAVED, ids=NAMES)
def test_declared_parameters_match_the_query(query: SavedQuery) -> None:
    assert query_variables(query.text) == {p.name for p in query.params}


@pytest.mark.parametrize("query", SAVED, ids=NAMES)
def test_query_parses_and_runs_on_the_curated_graph(query: SavedQuery, dataset: Dataset) -> None:
    samples = {
        "system": "seren",
        "org": "mellanox",
        "parent": "nvidia",
        "family": "a100",
        "part": "nvidia-a100-sxm4-80gb",
    }
    values = {p.name: samples.get(p.name, samples.get(p.type, "")) for p in query.params if p.required}
    result = run_query(dataset, query, values)
    assert result.columns or result.boolean is not None


# Expected rows on the curated graph, for the core queries. Each check reads the
# rows and asserts facts of the curated files (see graph/), not row counts.
EXPECTED: dict[str, Callable[[Dataset], Any]] = {}


def expect(name: str) -> Callable[[Callable[[Dataset], Any]], Callable[[Dataset], Any]]:
    def register(func: Callable[[Dataset], Any]) -> Callable[[Dataset], Any]:
        EXPECTED[name] = func
        return func

    return register


@expect("a100-systems-by-current-parent")
def _a100(ds: Dataset) -> None:
    found = rows(ds, "a100-systems-by-current-parent")
    seren = [r for r in found if r["system"] == "system:seren"]
    assert seren == [
        {
            "parentLabel": "NVIDIA",
            "system": "system:seren",
            "systemLabel": "Seren (Shanghai AI Lab)",
            "supplierLabel": "NVIDIA",
            "partLabel": "NVIDIA A100 SXM4 80GB",
            "quantity": "2288",
            "tier": "reported",
        }
    ]
    assert all(r["parentLabel"] for r in found)
    # Raising the minimum tier drops the reported Seren row.
    assert not [
        r for r in rows(ds, "a100-systems-by-current-parent", min_tier="verified") if r["system"] == "system:seren"
    ]


@expect("systems-by-operator")
def _operators(ds: Dataset) -> None:
    found = {r["operator"]: r for r in rows(ds, "systems-by-operator")}
    assert "Seren (Shanghai AI Lab)" in found["org:shanghai-ai-laboratory"]["names"]
    assert int(found["org:oak-ridge-national-laboratory"]["systems"]) >= 3  # Titan, Summit, Frontier


@expect("parts-supplied-under-parent")
def _under_parent(ds: Dataset) -> None:
    hpe_today = rows(ds, "parts-supplied-under-parent", parent="hpe")
    suppliers = {r["supplierLabel"] for r in hpe_today}
    assert any(s.startswith("Cray") for s in suppliers) and "Hewlett Packard Enterprise" in suppliers
    hpe_2015 = rows(ds, "parts-supplied-under-parent", parent="hpe", as_of="2015-01-01")
    assert not any(r["supplierLabel"].startswith("Cray") for r in hpe_2015)
    # One row per supplier, role and part: counts and tier range, not one row per system.
    keys = [(r["supplierLabel"], r["role"], r.get("partLabel")) for r in hpe_today]
    assert len(keys) == len(set(keys))
    ranks = ["weak", "estimated", "reported", "verified"]
    assert all(int(r["systems"]) >= 1 for r in hpe_today)
    assert all(ranks.index(r["lowestTier"]) <= ranks.index(r["highestTier"]) for r in hpe_today)


@expect("parent-as-of")
def _parent(ds: Dataset) -> None:
    assert rows(ds, "parent-as-of", org="mellanox")[0]["parentLabel"] == "NVIDIA"
    assert rows(ds, "parent-as-of", org="mellanox", as_of="2020-04-26")[0]["parent"] == "org:mellanox"
    assert rows(ds, "parent-as-of", org="dec")[0]["ticker"] == "HPE"


@expect("ownership-chain")
def _chain(ds: Dataset) -> None:
    chain = rows(ds, "ownership-chain", org="dec")
    assert [r["kind"] for r in chain] == ["acquisition", "merger", "spin-off"]
    assert [r["completedOn"] for r in chain] == sorted(r["completedOn"] for r in chain)
    assert len(rows(ds, "ownership-chain", org="dec", as_of="2005-01-01")) == 2


@expect("system-components")
def _components(ds: Dataset) -> None:
    found = rows(ds, "system-components", system="seren")
    assert [(r["role"], r["partLabel"], r["supplierLabel"], r.get("quantity", "-"), r["tier"]) for r in found] == [
        ("Accelerator", "NVIDIA A100 SXM4 80GB", "NVIDIA", "2288", "reported"),
        ("Interconnect", "NVIDIA InfiniBand HDR", "NVIDIA", "-", "reported"),
    ]
    assert all("arxiv.org/abs/2403.07648" in r["sources"] for r in found)


@expect("leads-below-tier")
def _leads(ds: Dataset) -> None:
    below_verified = rows(ds, "leads-below-tier")
    assert {r["tierLabel"] for r in below_verified} <= {"reported", "estimated", "weak"}
    assert any(r["claim"] == "claim:seren-supply-accelerator" for r in below_verified)
    below_estimated = rows(ds, "leads-below-tier", tier="estimated")
    assert {r["tierLabel"] for r in below_estimated} == {"weak"}


@expect("systems-without-readable-citation")
def _unreadable(ds: Dataset) -> None:
    found = [r["system"] for r in rows(ds, "systems-without-readable-citation")]
    assert "system:songjiang-10000-gpu-cluster" in found
    assert "system:seren" not in found


@expect("coverage")
def _coverage(ds: Dataset) -> None:
    (row,) = rows(ds, "coverage")
    systems = len(ds.select("SELECT ?s WHERE { ?s a hk:System }"))
    assert int(row["systems"]) == systems
    assert int(row["withReadableCitation"]) == systems - len(rows(ds, "systems-without-readable-citation"))


@expect("top-systems-by-rmax")
def _top(ds: Dataset) -> None:
    found = rows(ds, "top-systems-by-rmax")
    values = [float(r["rmaxTflops"]) for r in found]
    assert values == sorted(values, reverse=True) and len(found) <= 25
    assert found[0]["system"] == "system:el-capitan"


CORE = sorted(EXPECTED)


def test_every_core_query_has_expected_rows() -> None:
    owned_elsewhere = ("top500-", "epoch-", "conflicts")
    missing = [n for n in NAMES if not n.startswith(owned_elsewhere) and n not in EXPECTED]
    assert not missing, f"saved queries without expected rows: {missing}"


@pytest.mark.parametrize("name", CORE)
def test_expected_rows(name: str, dataset: Dataset) -> None:
    EXPECTED[name](dataset)


# -- binding -------------------------------------------------------------------------

HOSTILE = '"} ; DELETE WHERE {?s ?p ?o} #'


def test_hostile_value_stays_a_literal(dataset: Dataset) -> None:
    query = parse_saved("#+ param: name (string) : a name\nSELECT ?v WHERE { BIND($name AS ?v) }", "echo")
    result = run_query(dataset, query, {"name": HOSTILE})
    assert result.rows == [(ox.Literal(HOSTILE),)]
    assert dataset.ask("ASK { ?s a hk:System }")


def test_hostile_value_for_an_entity_parameter_is_refused() -> None:
    with pytest.raises(ParameterError, match="parameter system"):
        bind_params(load_saved("system-components", ROOT), {"system": HOSTILE})


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        ("as_of", "yesterday", "expected a date"),
        ("as_of", "2024-02-30", "expected a date"),
        ("min_tier", "gold", "expected one of verified"),
    ],
)
def test_parameter_of_the_wrong_type(name: str, value: str, message: str) -> None:
    with pytest.raises(ParameterError, match=message):
        bind_params(load_saved("a100-systems-by-current-parent", ROOT), {name: value})


def test_unknown_and_missing_parameters() -> None:
    with pytest.raises(ParameterError, match="unknown parameter"):
        bind_params(load_saved("coverage", ROOT), {"x": "1"})
    with pytest.raises(ParameterError, match="missing required value"):
        bind_params(load_saved("parent-as-of", ROOT), {})


def test_unknown_saved_query() -> None:
    with pytest.raises(QueryError, match="unknown saved query"):
        load_saved("no-such-query", ROOT)


def test_syntax_error_names_the_query(dataset: Dataset) -> None:
    with pytest.raises(QueryError, match="query broken: SPARQL syntax error"):
        run_query(dataset, parse_saved("SELECT ?s WHERE { ?s ?p }", "broken"), {})


def test_total_quantity_ignores_claims_without_one(tmp_path: Path) -> None:
    extra = tmp_path / "extra.ttl"
    extra.write_text(
        """@prefix hk: <https://w3id.org/hpckg/ontology#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
<https://w3id.org/hpckg/id/system/q1> a hk:System ; rdfs:label "Q1" .
<https://w3id.org/hpckg/id/claim/q1-acc> a hk:SupplyRelationship ; hk:system <https://w3id.org/hpckg/id/system/q1> ;
    hk:role hk:Accelerator ; hk:part <https://w3id.org/hpckg/id/part/nvidia-a100-sxm4-80gb> ;
    hk:supplier <https://w3id.org/hpckg/id/org/nvidia> ;
    hk:citation <https://w3id.org/hpckg/id/citation/arxiv-2403-07648> ; hk:tier hk:Weak .
""",
        encoding="utf-8",
    )
    ds = Dataset.load([extra], root=ROOT)
    found = rows(ds, "parts-supplied-under-parent", parent="nvidia")
    a100 = next(r for r in found if r["partLabel"] == "NVIDIA A100 SXM4 80GB" and r["role"] == "Accelerator")
    assert a100["systems"] == "2" and a100["totalQuantity"] == "2288"  # Seren's 2,288; Q1 states none
