"""The TOP500 importer on every real list in ../shared/data/top500 (one import per session)."""

from __future__ import annotations

from collections import defaultdict
from decimal import Decimal
from pathlib import Path

import pytest

from conftest import reference_answer, same_rows
from hpckg.importers.top500 import import_top500, write_import
from hpckg.importers.top500_entries import parse_entries
from hpckg.importers.top500_read import read_list
from hpckg.queries import load_saved, run_query
from hpckg.store import Dataset

pytestmark = pytest.mark.realdata


@pytest.fixture(scope="session")
def lists(shared_data: Path) -> list[Path]:
    files = sorted(p for p in (shared_data / "top500").glob("TOP500_*") if p.suffix in (".xls", ".xlsx"))
    assert len(files) == 25
    return files


@pytest.fixture(scope="session")
def imported(lists: list[Path], tmp_path_factory: pytest.TempPathFactory) -> Dataset:
    out = tmp_path_factory.mktemp("top500") / "top500.nt"
    write_import(import_top500(lists), out)
    return Dataset.load([out])


def test_each_list_has_500_ranking_entries(imported: Dataset, lists: list[Path]) -> None:
    rows = imported.select(
        "SELECT ?e (COUNT(DISTINCT ?s) AS ?n) WHERE { ?x a hk:RankingEntry ; hk:listEdition ?e ; hk:system ?s } GROUP BY ?e"
    )
    counts = {r["e"].value.rsplit("top500-", 1)[-1]: int(r["n"].value) for r in rows}
    assert len(counts) == len(lists)
    assert set(counts.values()) == {500}


def test_rmax_totals_match_the_files(imported: Dataset, lists: list[Path]) -> None:
    rows = imported.select(
        """SELECT ?e ?s (SAMPLE(?v) AS ?rmax) WHERE { ?m hk:metric hk:Rmax ; hk:listEdition ?e ; hk:system ?s ;
           hk:value ?v } GROUP BY ?e ?s"""
    )
    totals: dict[str, Decimal] = defaultdict(Decimal)
    for r in rows:
        totals[r["e"].value.rsplit("top500-", 1)[-1]] += Decimal(r["rmax"].value)
    for path in lists:
        listing = read_list(path)
        expected = sum((e.figures["rmax"] for e in parse_entries(listing, [], [])), Decimal())
        assert totals[listing.edition] == expected, listing.edition


@pytest.mark.parametrize(("system_id", "name"), [("179397", "Summit"), ("179398", "Sierra"), ("180047", "Frontier")])
def test_flagship_is_one_system_across_lists(imported: Dataset, lists: list[Path], system_id: str, name: str) -> None:
    systems = imported.select(f'SELECT DISTINCT ?s WHERE {{ ?s hk:top500SystemId "{system_id}" }}')
    assert len(systems) == 1, systems
    editions = imported.select(
        "SELECT (COUNT(DISTINCT ?e) AS ?n) WHERE { ?x a hk:RankingEntry ; hk:system ?s ; hk:listEdition ?e . }",
        {"s": systems[0]["s"]},
    )
    in_files = sum(
        any(str(row.values.get("system_id", "")).removesuffix(".0") == system_id for row in read_list(p).rows)
        for p in lists
        if p.name >= "TOP500_201711"
    )
    assert in_files >= 4
    assert int(editions[0]["n"].value) == in_files, name


def test_no_system_id_is_split(imported: Dataset) -> None:
    rows = imported.select(
        "SELECT ?id (COUNT(DISTINCT ?s) AS ?n) WHERE { ?s a hk:System ; hk:top500SystemId ?id } GROUP BY ?id HAVING (COUNT(DISTINCT ?s) > 1)"
    )
    assert rows == []


def test_one_entry_per_system_per_list(imported: Dataset) -> None:
    rows = imported.select(
        """SELECT ?s ?e (COUNT(DISTINCT ?rank) AS ?n) WHERE { ?x a hk:RankingEntry ; hk:system ?s ;
           hk:listEdition ?e ; hk:rank ?rank } GROUP BY ?s ?e HAVING (COUNT(DISTINCT ?rank) > 1)"""
    )
    assert rows == []


def test_curated_systems_merged_not_duplicated(imported: Dataset) -> None:
    curated = imported.select(
        """SELECT ?s ?id WHERE { GRAPH ?g { ?s a hk:System ; hk:top500SystemId ?id }
           FILTER(CONTAINS(STR(?g), "/file/graph/")) }"""
    )
    assert curated, "the curated graph has systems with TOP500 IDs"
    for row in curated:
        minted = imported.select(
            "SELECT ?x WHERE { ?x hk:top500SystemId ?id FILTER(?x != ?s) }", {"id": row["id"], "s": row["s"]}
        )
        assert minted == [], row["id"].value
        entries = imported.select("SELECT ?x WHERE { ?x a hk:RankingEntry ; hk:system ?s }", {"s": row["s"]})
        assert entries


def test_pre_2017_rows_join_their_system_id(imported: Dataset) -> None:
    # Sunway TaihuLight was first listed in 2016-06, before System IDs existed.
    rows = imported.select(
        """SELECT DISTINCT ?s WHERE { ?x a hk:RankingEntry ; hk:system ?s ; hk:rank 1 ;
           hk:listEdition <https://w3id.org/hpckg/id/list/top500-2016-06> }"""
    )
    later = imported.select("SELECT ?id WHERE { ?s hk:top500SystemId ?id }", {"s": rows[0]["s"]})
    assert later, "the 2016-06 number one carries a System ID from a later list"


@pytest.mark.parametrize(
    ("name", "params"),
    [
        ("top500-share-by-parent-ticker", {}),
        ("top500-share-by-parent-ticker-at-list-date", {}),
        ("top500-accelerator-family-share", {"since": "2020"}),
        ("top500-systems-per-country", {"since": "2024"}),
        ("top500-rank-history", {"system": "summit"}),
    ],
)
def test_saved_queries_run(imported: Dataset, name: str, params: dict[str, str]) -> None:
    result = run_query(imported, load_saved(name), params)
    assert result.rows
    if "share" in result.columns:
        index = result.columns.index("share")
        for row in result.rows:
            assert 0 < float(row[index].value) <= 1.0001


@pytest.mark.parametrize(
    ("name", "params"),
    [
        ("top500-share-by-parent-ticker", {}),
        ("top500-share-by-parent-ticker", {"as_of": "2015-01-01", "since": "2010"}),
        ("top500-share-by-parent-ticker-at-list-date", {}),
        ("top500-accelerator-family-share", {}),
        ("top500-systems-per-country", {}),
        ("parts-supplied-under-parent", {"parent": "nvidia"}),
        ("parts-supplied-under-parent", {"parent": "hpe", "as_of": "2015-01-01"}),
        ("parts-supplied-under-parent", {"parent": "intel", "min_tier": "verified"}),
        ("systems-by-operator", {}),
    ],
)
def test_summaries_give_the_raw_claims_answer(imported: Dataset, name: str, params: dict[str, str]) -> None:
    """Every list, every row: the derived summaries change the speed, not the answer."""
    derived, reference = reference_answer(imported, name, params)
    assert derived.rows
    assert same_rows(derived) == same_rows(reference)
