"""Roll-up through ownership changes, checked the day before and the day of each deal."""

from __future__ import annotations

import datetime as dt

import pyoxigraph as ox
import pytest

from hpckg.errors import ValidationError
from hpckg.namespaces import ID
from hpckg.rollup import Change, OwnershipGraph, current_parent, ownership_chain
from hpckg.store import Dataset


def org(slug: str) -> str:
    return f"{ID}org/{slug}"


def completed(ds: Dataset, acquired: str, acquirer: str) -> dt.date:
    rows = ds.select(
        "SELECT ?d WHERE { ?c a hk:OwnershipChange ; hk:acquired $a ; hk:acquirer $b ; hk:completedOn ?d }",
        {"a": ox.NamedNode(org(acquired)), "b": ox.NamedNode(org(acquirer))},
    )
    assert rows, f"no ownership change {acquired} -> {acquirer} in the curated graph"
    return dt.date.fromisoformat(rows[0]["d"].value)


# (acquired, acquirer, the org whose parent we check, parent before, parent after)
DEALS = [
    ("dec", "compaq", "dec", "dec", "compaq"),
    ("compaq", "hp", "dec", "compaq", "hp"),
    ("hp", "hpe", "dec", "hp", "hpe"),
    ("sgi", "hpe", "sgi", "sgi", "hpe"),
    ("appro", "cray", "appro", "appro", "cray"),
    ("cray", "hpe", "appro", "cray", "hpe"),
    ("voltaire", "mellanox", "voltaire", "voltaire", "mellanox"),
    ("mellanox", "nvidia", "voltaire", "mellanox", "nvidia"),
    ("bull", "atos", "bull", "bull", "atos"),
    ("ibm-x86-server-business", "lenovo", "ibm-x86-server-business", "ibm", "lenovo"),
    ("sun-microsystems", "oracle", "sun-microsystems", "sun-microsystems", "oracle"),
    ("ati", "amd", "ati", "ati", "amd"),
    ("xilinx", "amd", "xilinx", "xilinx", "amd"),
]


@pytest.mark.parametrize(("acquired", "acquirer", "subject", "before", "after"), DEALS)
def test_roll_up_before_and_after_each_deal(
    dataset: Dataset, acquired: str, acquirer: str, subject: str, before: str, after: str
) -> None:
    day = completed(dataset, acquired, acquirer)
    assert current_parent(dataset, org(subject), day - dt.timedelta(days=1)) == org(before)
    assert current_parent(dataset, org(subject), day) == org(after)


@pytest.mark.parametrize(
    ("subject", "parent"),
    [
        ("dec", "hpe"),
        ("appro", "hpe"),
        ("voltaire", "nvidia"),
        ("mellanox", "nvidia"),
        ("eviden", "atos"),
        ("nvidia", "nvidia"),
    ],
)
def test_current_parent_today(dataset: Dataset, subject: str, parent: str) -> None:
    assert current_parent(dataset, org(subject)) == org(parent)


def test_ownership_chain_of_dec_is_three_steps(dataset: Dataset) -> None:
    steps = ownership_chain(dataset, org("dec"))
    assert [change.acquirer for _, change in steps] == [org("compaq"), org("hp"), org("hpe")]


def test_materialised_intervals_agree_with_python(dataset: Dataset) -> None:
    for subject, day in [
        ("dec", "2000-01-01"),
        ("cray", "2019-09-24"),
        ("cray", "2019-09-25"),
        ("mellanox", "2020-01-01"),
    ]:
        rows = dataset.select(
            """SELECT ?p WHERE { ?r a hk:RollUp ; hk:org $o ; hk:parent ?p .
               OPTIONAL { ?r hk:validFrom ?f } OPTIONAL { ?r hk:validUntil ?u }
               FILTER((!BOUND(?f) || ?f <= $d) && (!BOUND(?u) || $d < ?u)) }""",
            {
                "o": ox.NamedNode(org(subject)),
                "d": ox.Literal(day, datatype=ox.NamedNode("http://www.w3.org/2001/XMLSchema#date")),
            },
        )
        assert [r["p"].value for r in rows] == [current_parent(dataset, org(subject), dt.date.fromisoformat(day))]


def test_cycle_is_an_error() -> None:
    graph = OwnershipGraph(
        [
            Change("a", "b", dt.date(2000, 1, 1), "1"),
            Change("b", "c", dt.date(2001, 1, 1), "2"),
            Change("c", "a", dt.date(2002, 1, 1), "3"),
        ],
        {},
        set(),
    )
    with pytest.raises(ValidationError, match="ownership cycle: a -> b -> c -> a"):
        graph.intervals("a")


def test_business_unit_follows_its_company_until_sold() -> None:
    graph = OwnershipGraph(
        [Change("unit", "buyer", dt.date(2014, 10, 1), "1"), Change("company", "holding", dt.date(2010, 1, 1), "2")],
        {"unit": "company"},
        set(),
    )
    assert graph.parent("unit", dt.date(2005, 1, 1)) == "company"
    assert graph.parent("unit", dt.date(2012, 1, 1)) == "holding"
    assert graph.parent("unit", dt.date(2015, 1, 1)) == "buyer"
