"""Saved queries that read summaries derived at load give the answer the raw claims give.

The list groups (hpckg.listgroups), supply summaries (hpckg.supply) and operator
summaries (hpckg.operations) exist only for speed. Each saved query reading them has a reference in tests/reference/ that
computes the same answer from the claims themselves; here the two must agree on
hand-made edge cases and on a synthetic TOP500-shaped graph (the real lists are
checked in test_import_top500_real.py).
"""

from __future__ import annotations

import importlib.util
import sys
from decimal import Decimal
from pathlib import Path

import pyoxigraph as ox
import pytest

from conftest import reference_answer, same_rows
from hpckg.derive import materialise_summaries
from hpckg.queries import load_saved, run_query
from hpckg.store import Dataset

ROOT = Path(__file__).resolve().parents[1]
EDGE_CASES = ROOT / "tests" / "fixtures" / "summaries" / "edge-cases.ttl"

CASES = [
    ("top500-systems-per-country", {}),
    ("top500-systems-per-country", {"since": "2009"}),
    ("top500-accelerator-family-share", {}),
    ("top500-accelerator-family-share", {"since": "2009"}),
    ("top500-share-by-parent-ticker", {}),
    ("top500-share-by-parent-ticker", {"as_of": "2019-06-30"}),
    ("top500-share-by-parent-ticker", {"as_of": "2005-01-01", "since": "2000"}),
    ("top500-share-by-parent-ticker-at-list-date", {}),
    ("parts-supplied-under-parent", {"parent": "nvidia"}),
    ("parts-supplied-under-parent", {"parent": "nvidia", "as_of": "2019-01-01"}),
    ("parts-supplied-under-parent", {"parent": "nvidia", "min_tier": "reported"}),
    ("parts-supplied-under-parent", {"parent": "hpe", "min_tier": "verified"}),
    ("parts-supplied-under-parent", {"parent": "hpe", "as_of": "2015-01-01"}),
    ("parts-supplied-under-parent", {"parent": "amd"}),
    ("systems-by-operator", {}),
    ("systems-by-operator", {"min_tier": "verified"}),
]


@pytest.fixture(scope="module")
def edge() -> Dataset:
    return Dataset.load([EDGE_CASES], root=ROOT)


@pytest.fixture(scope="module")
def synthetic(tmp_path_factory: pytest.TempPathFactory, dataset: Dataset) -> Dataset:
    spec = importlib.util.spec_from_file_location("synthetic_for_summaries", ROOT / "benchmarks" / "synthetic.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    path = tmp_path_factory.mktemp("summaries") / "synthetic.nt"
    path.write_text(module.generate(8000, seed=11, dataset=dataset), encoding="utf-8")
    return Dataset.load([path], root=ROOT)


@pytest.mark.parametrize(("name", "params"), CASES)
def test_edge_cases_match_the_raw_claims(edge: Dataset, name: str, params: dict[str, str]) -> None:
    derived, reference = reference_answer(edge, name, params)
    assert derived.rows, "the edge cases should exercise the query"
    assert same_rows(derived) == same_rows(reference)


@pytest.mark.parametrize(("name", "params"), CASES)
def test_synthetic_graph_matches_the_raw_claims(synthetic: Dataset, name: str, params: dict[str, str]) -> None:
    derived, reference = reference_answer(synthetic, name, params)
    assert derived.rows, "the synthetic graph should exercise the query"
    assert same_rows(derived) == same_rows(reference)


def _figures(ds: Dataset, name: str, params: dict[str, str], edition: str) -> dict[str, tuple[int, Decimal]]:
    """(systems, Rmax) per grouping label of a top500 share query, for one list edition."""
    result = run_query(ds, load_saved(name, ROOT), params)
    out = {}
    for row in result.rows:
        record = dict(zip(result.columns, row, strict=True))
        if record["edition"].value.endswith(f"top500-{edition}"):
            key = next(record[c].value for c in ("ticker", "country", "family") if c in record)
            out[key] = (int(record["systems"].value), Decimal(record["rmaxTFlops"].value))
    return out


def _added(
    edge: Dataset, curated: Dataset, name: str, params: dict[str, str], edition: str = "2009-11"
) -> dict[str, tuple[int, Decimal]]:
    """What the edge-case rows add to each label's figures (the curated graph has rows too)."""
    after, before = _figures(edge, name, params, edition), _figures(curated, name, params, edition)
    added = {}
    for key, (systems, rmax) in after.items():
        old = before.get(key, (0, Decimal(0)))
        if (systems, rmax) != old:
            added[key] = (systems - old[0], rmax - old[1])
    return added


def test_edge_case_figures(edge: Dataset, dataset: Dataset) -> None:
    # A system with two countries counts for each, with both its Rmax rows.
    assert _added(edge, dataset, "top500-systems-per-country", {}) == {
        "US": (1, Decimal("190.5")),
        "DE": (1, Decimal("190.5")),
        "CN": (1, Decimal("50.25")),
    }
    # A counts once under HPE although Cray and HPE both integrate it; C has no integrator.
    tickers = _added(edge, dataset, "top500-share-by-parent-ticker", {"as_of": "2020-06-01"})
    assert tickers == {"HPE": (1, Decimal("190.5")), "0992": (1, Decimal("50.25"))}
    # B's A100 claim names no list edition, so B has no accelerator on the list.
    assert _added(edge, dataset, "top500-accelerator-family-share", {}) == {
        "A100": (2, Decimal("215.5")),
        "(unresolved)": (1, Decimal("190.5")),
        "none": (1, Decimal("50.25")),
    }


def test_integrators_roll_up_at_the_list_date(edge: Dataset, dataset: Dataset) -> None:
    # In June 2009 Cray was not HPE's; today it is.
    at_list = _added(edge, dataset, "top500-share-by-parent-ticker-at-list-date", {}, "2009-06")
    assert list(at_list.values()) == [(1, Decimal(80))] and "HPE" not in at_list
    today = _added(edge, dataset, "top500-share-by-parent-ticker", {}, "2009-06")
    assert today == {"HPE": (1, Decimal(80))}


def test_supply_summary_counts_each_tier_threshold(edge: Dataset) -> None:
    def a100(params: dict[str, str]) -> dict[str, tuple[str, ...]]:
        rows = run_query(edge, load_saved("parts-supplied-under-parent", ROOT), params).rows
        return {
            r[0].value: tuple("" if t is None else t.value for t in r[3:])
            for r in rows
            if r[1].value == "Accelerator" and r[2] is not None and r[2].value == "NVIDIA A100"
        }

    # Only the fixture has Mellanox supplying A100s: C, verified, no quantity stated.
    assert a100({"parent": "nvidia"})["Mellanox Technologies"] == ("1", "0", "0", "verified", "verified")
    assert "Mellanox Technologies" not in a100({"parent": "nvidia", "as_of": "2019-01-01"})  # before the deal


def test_supply_summary_thresholds_add_up(edge: Dataset, dataset: Dataset) -> None:
    def nvidia_a100(ds: Dataset, tier: str) -> tuple[int, int, int]:
        rows = run_query(ds, load_saved("parts-supplied-under-parent", ROOT), {"parent": "nvidia", "min_tier": tier})
        for r in rows.rows:
            if r[0].value == "NVIDIA" and r[1].value == "Accelerator" and r[2] and r[2].value == "NVIDIA A100":
                return int(r[3].value), int(r[4].value), int(r[5].value)
        return 0, 0, 0

    def added(tier: str) -> tuple[int, ...]:
        after, before = nvidia_a100(edge, tier), nvidia_a100(dataset, tier)
        return tuple(a - b for a, b in zip(after, before, strict=True))

    assert added("weak") == (2, 520, 2)  # A (512, reported) and B (8, estimated)
    assert added("reported") == (1, 512, 1)
    assert added("verified") == (0, 0, 0)


def test_summaries_follow_a_changed_graph(edge: Dataset) -> None:
    """Deriving again after a new claim changes the totals (nothing is cached stale)."""
    store_copy = Dataset.load([EDGE_CASES], root=ROOT)
    hk = "https://w3id.org/hpckg/ontology#"
    claim = ox.NamedNode("https://w3id.org/hpckg/id/claim/fixture-b-rmax")
    value = ox.NamedNode(hk + "value")
    old = next(iter(store_copy.store.quads_for_pattern(claim, value, None)))
    store_copy.store.remove(old)
    store_copy.store.add(ox.Quad(claim, value, ox.Literal("60.25", datatype=old.object.datatype), old.graph_name))
    materialise_summaries(store_copy)
    assert _added(store_copy, edge, "top500-systems-per-country", {}) == {"CN": (0, Decimal(10))}
    derived, reference = reference_answer(store_copy, "top500-systems-per-country", {})
    assert same_rows(derived) == same_rows(reference)
