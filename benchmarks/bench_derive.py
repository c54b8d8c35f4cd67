"""Derived per-system summaries: their load cost and the saved queries that read them.

Loads the curated graph plus the given data files (default: the 1M-triple
``build/synthetic.nt`` from ``benchmarks/synthetic.py``), then prints the time
:func:`hpckg.derive.summarise` adds to a load, the p50 of each saved query that
reads the summaries, and the p50 of :func:`hpckg.verify.report.coverage`.

    python benchmarks/bench_derive.py [FILE ...] [--runs 5]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from hpckg.derive import summarise  # noqa: E402
from hpckg.queries import load_saved, run_query  # noqa: E402
from hpckg.store import Dataset  # noqa: E402
from hpckg.verify.report import coverage  # noqa: E402

QUERIES = ("coverage", "systems-without-readable-citation", "top-systems-by-rmax", "leads-below-tier")


def p50(func: Callable[[], Any], runs: int) -> float:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        func()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path, default=[ROOT / "build" / "synthetic.nt"])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    started = time.perf_counter()
    ds = Dataset.load(args.files, root=ROOT)
    print(
        f"load (with summaries): {time.perf_counter() - started:.2f} s, "
        f"{ds.triple_count(include_derived=True):,} triples"
    )
    print(f"summarise (the part of the load the summaries add, less writing): {p50(lambda: summarise(ds), 1):.2f} s")
    for name in QUERIES:
        query = load_saved(name, ROOT)
        rows = len(run_query(ds, query).rows)
        print(f"{name:40} {p50(lambda q=query: run_query(ds, q), args.runs) * 1000:8.1f} ms  rows={rows}")
    print(f"{'coverage()':40} {p50(lambda: coverage(ds), args.runs) * 1000:8.1f} ms")


if __name__ == "__main__":
    main()
