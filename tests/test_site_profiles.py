"""The site's bulk profiles and Turtle records equal the per-system ones of hpckg.profile."""

from __future__ import annotations

import dataclasses
import datetime as dt
from pathlib import Path

import pytest

from hpckg.profile import system_profile
from hpckg.site.build import _fill_parents
from hpckg.site.gather import gather
from hpckg.site.profiles import all_profiles, all_turtle
from hpckg.site.systempage import system_turtle
from hpckg.store import Dataset
from test_site_support import load_with_fixture

DAY = dt.date(2026, 1, 1)
HEAD = {
    "label": "rdfs:label",
    "country": "hk:country",
    "purpose": "hk:purpose/skos:prefLabel",
    "read": "hk:summary",
}


@pytest.fixture(scope="module")
def ds(tmp_path_factory: pytest.TempPathFactory) -> Dataset:
    return load_with_fixture(tmp_path_factory.mktemp("profiles"))


def systems(ds: Dataset) -> list[str]:
    return sorted(r["s"].value for r in ds.select("SELECT DISTINCT ?s WHERE { ?s a hk:System }"))


def test_bulk_profiles_equal_system_profile(ds: Dataset) -> None:
    cat = gather(ds, DAY)
    iris = systems(ds)
    bulk = all_profiles(ds, DAY, iris)
    assert set(bulk) == set(iris) and len(iris) > 10
    for iri in iris:
        one = _fill_parents(system_profile(ds, iri, today=DAY), cat)
        many = _fill_parents(bulk[iri], cat)
        # system_profile takes any one value of a repeated head property (LIMIT 1);
        # the bulk one takes the least. Both must be values the graph holds.
        for field, path in HEAD.items():
            held = {r["v"].value for r in ds.select(f"SELECT ?v WHERE {{ <{iri}> {path} ?v }}")}
            if len(held) > 1:
                assert getattr(many, field) in held and getattr(one, field) in held
                one = dataclasses.replace(one, **{field: getattr(many, field)})
        assert many == one, iri


def test_bulk_turtle_equals_system_turtle(ds: Dataset) -> None:
    iris = systems(ds)
    bulk = all_turtle(ds, iris)
    for iri in iris:
        assert bulk[iri] == system_turtle(ds, iri), iri


def test_bulk_profiles_see_a_change(tmp_path: Path) -> None:
    """Guard against a vacuous equality: the fixture system's profile is really there."""
    ds = load_with_fixture(tmp_path)
    iri = next(i for i in systems(ds) if i.endswith("/hostile-test-system"))
    profile = all_profiles(ds, DAY, [iri])[iri]
    assert profile.label == "<script>alert(1)</script>"
    assert [c.role for c in profile.components] == ["Interconnect"]
    assert profile.components[0].parent_iri and profile.components[0].parent_iri.endswith("/nvidia")
