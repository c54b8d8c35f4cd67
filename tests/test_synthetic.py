"""benchmarks/synthetic.py: the generated graph has the shape of a TOP500 import and conforms."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

from hpckg.queries import load_saved, run_query
from hpckg.store import Dataset
from hpckg.validate import validate

ROOT = Path(__file__).resolve().parents[1]
RANKED = "?r a hk:RankingEntry ; hk:system ?s ; hk:listEdition ?l ."


def _load_generator() -> ModuleType:
    """benchmarks/ is not a package: import the script by path."""
    spec = importlib.util.spec_from_file_location("synthetic_benchmark", ROOT / "benchmarks" / "synthetic.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up here
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def synthetic(tmp_path_factory: pytest.TempPathFactory, dataset: Dataset) -> tuple[str, Dataset]:
    text = _load_generator().generate(5000, seed=7, dataset=dataset)
    path = tmp_path_factory.mktemp("synthetic") / "synthetic.nt"
    path.write_text(text, encoding="utf-8")
    return text, Dataset.load([path], root=ROOT)


def _count(ds: Dataset, where: str) -> int:
    rows = ds.select(f"SELECT (COUNT(*) AS ?n) WHERE {{ {where} }}")
    return int(rows[0]["n"].value)


def test_same_seed_same_text_and_no_duplicate_triples(dataset: Dataset, synthetic: tuple[str, Dataset]) -> None:
    text, _ = synthetic
    assert _load_generator().generate(5000, seed=7, dataset=dataset) == text
    lines = text.splitlines()
    assert len(lines) == len(set(lines))


def test_every_ranking_entry_edition_is_published(synthetic: tuple[str, Dataset]) -> None:
    _, ds = synthetic
    entries = "?e a hk:RankingEntry ; hk:system ?s ; hk:listEdition ?l . FILTER(CONTAINS(STR(?s), '/synthetic-'))"
    assert _count(ds, entries) > 0
    assert _count(ds, entries + " FILTER NOT EXISTS { ?l hk:publishedOn ?d }") == 0


def test_supply_and_location_claims_name_every_list_of_their_system(synthetic: tuple[str, Dataset]) -> None:
    _, ds = synthetic
    synthetic_claim = "?c a ?kind ; hk:system ?s . FILTER(CONTAINS(STR(?s), '/synthetic-'))"
    for kind in ("hk:SupplyRelationship", "hk:LocationClaim"):
        claims = synthetic_claim.replace("?kind", kind)
        assert _count(ds, claims) > 0
        # Each list the system is ranked on is a listEdition of the claim, and vice versa.
        assert _count(ds, claims + RANKED + " FILTER NOT EXISTS { ?c hk:listEdition ?l }") == 0
        assert _count(ds, claims + " ?c hk:listEdition ?l . FILTER NOT EXISTS { " + RANKED + " }") == 0
    # One location claim per system, as the importer writes for a machine that never moved.
    assert _count(ds, "?s a hk:System . FILTER(CONTAINS(STR(?s), '/synthetic-'))") == _count(
        ds, synthetic_claim.replace("?kind", "hk:LocationClaim")
    )


def test_generated_graph_conforms(synthetic: tuple[str, Dataset]) -> None:
    _, ds = synthetic
    report = validate(ds)
    assert report.conforms, report.text()


def test_list_queries_see_the_synthetic_systems(synthetic: tuple[str, Dataset]) -> None:
    _, ds = synthetic
    result = run_query(ds, load_saved("top500-systems-per-country", root=ROOT), {})
    editions = {str(row[0]) for row in result.rows}
    assert any("top500-1993-06" in e for e in editions)
    assert len(editions) >= 60  # the lists are spread over 1993-06 .. 2025-06
