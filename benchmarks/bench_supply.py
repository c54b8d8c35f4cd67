"""The supply-chain roll-up queries: p50 of each on a loaded graph.

Loads the curated graph plus the given data files (default: the 1M-triple
``build/synthetic-1000000.nt`` from ``benchmarks/synthetic.py``) once, then prints
the load time and the p50 of ``a100-systems-by-current-parent`` and
``parts-supplied-under-parent`` (parent=nvidia and parent=hpe) with their row counts.

    python benchmarks/bench_supply.py [FILE ...] [--runs 5]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from timing import p50  # noqa: E402

from hpckg.queries import load_saved, run_query  # noqa: E402
from hpckg.store import Dataset  # noqa: E402

CASES = (
    ("a100-systems-by-current-parent", {}),
    ("parts-supplied-under-parent", {"parent": "nvidia"}),
    ("parts-supplied-under-parent", {"parent": "hpe"}),
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path, default=[ROOT / "build" / "synthetic-1000000.nt"])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    started = time.perf_counter()
    ds = Dataset.load(args.files, root=ROOT)
    print(f"load: {time.perf_counter() - started:.2f} s")
    for name, params in CASES:
        query = load_saved(name)
        rows = len(run_query(ds, query, params).rows)
        ms = p50(lambda q=query, v=params: run_query(ds, q, v), args.runs) * 1000
        shown = " ".join(f"{k}={v}" for k, v in params.items())
        print(f"{name} {shown}: p50 {ms:.1f} ms, {rows:,} rows")


if __name__ == "__main__":
    main()
