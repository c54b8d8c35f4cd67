"""Derived summaries: their load cost and the saved queries that read them.

Loads the curated graph plus the given data files (default: the 1M-triple
``build/synthetic-1000000.nt`` from ``benchmarks/synthetic.py``), then prints the
time each kind of summary adds to a load (per system, list groups, supply, operator),
the p50 of each saved query that reads the summaries, and the p50 of
:func:`hpckg.verify.report.coverage`.

    python benchmarks/bench_derive.py [FILE ...] [--runs 5]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import pyoxigraph as ox

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from timing import p50  # noqa: E402

from hpckg import listgroups, operations, supply  # noqa: E402
from hpckg.derive import materialise_summaries, summarise  # noqa: E402
from hpckg.namespaces import DERIVED_GRAPH  # noqa: E402
from hpckg.queries import load_saved, run_query  # noqa: E402
from hpckg.store import Dataset  # noqa: E402
from hpckg.verify.report import coverage  # noqa: E402

QUERIES = (
    "coverage",
    "systems-without-readable-citation",
    "top-systems-by-rmax",
    "leads-below-tier",
    "parts-supplied-under-parent",
    "systems-by-operator",
    "top500-share-by-parent-ticker",
    "top500-share-by-parent-ticker-at-list-date",
    "top500-systems-per-country",
    "top500-accelerator-family-share",
)
PARAMS = {"parts-supplied-under-parent": {"parent": "nvidia"}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path, default=[ROOT / "build" / "synthetic-1000000.nt"])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    started = time.perf_counter()
    ds = Dataset.load(args.files, root=ROOT)
    print(
        f"load (with summaries): {time.perf_counter() - started:.2f} s, "
        f"{ds.triple_count(include_derived=True):,} triples"
    )
    graph = ox.NamedNode(str(DERIVED_GRAPH))
    print(f"all summaries, computed and written: {p50(lambda: materialise_summaries(ds), 1):.2f} s, of which:")
    print(f"  per system (hpckg.derive.summarise): {p50(lambda: summarise(ds), 1):.2f} s")
    print(f"  list groups (hpckg.listgroups): {p50(lambda: listgroups.list_quads(ds, graph), 1):.2f} s")
    print(f"  supply (hpckg.supply): {p50(lambda: supply.supply_quads(ds, graph), 1):.2f} s")
    print(f"  operators (hpckg.operations): {p50(lambda: operations.operation_quads(ds, graph), 1):.2f} s")
    for name in QUERIES:
        query = load_saved(name, ROOT)
        params = PARAMS.get(name, {})
        rows = len(run_query(ds, query, params).rows)
        print(f"{name:45} {p50(lambda q=query, v=params: run_query(ds, q, v), args.runs) * 1000:8.1f} ms  rows={rows}")
    print(f"{'coverage()':40} {p50(lambda: coverage(ds), args.runs) * 1000:8.1f} ms")


if __name__ == "__main__":
    main()
