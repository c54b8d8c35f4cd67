"""Benchmark the Epoch import and the Epoch saved queries on the full graph.

Prints the import time (target <= 10 s) and the p50 time of each saved query
(epoch-*.rq and conflicts.rq; target <= 100 ms) on curated + TOP500 + Epoch.

    python benchmarks/bench_epoch.py [--top500 build/top500.nt] [--repeat 5]

Without --top500 the TOP500 lists in ../shared/data/top500 are imported first.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from hpckg.importers.epoch import import_epoch, write_epoch
from hpckg.queries import all_saved, run_query
from hpckg.store import Dataset, find_root


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--top500", type=Path, default=None)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    data = find_root().parent / "shared" / "data"
    work = Path(tempfile.mkdtemp(prefix="bench-epoch-"))
    top500 = args.top500
    if top500 is None:
        from hpckg.importers.top500 import import_top500, write_import

        top500 = work / "top500.nt"
        started = time.perf_counter()
        write_import(import_top500(sorted((data / "top500").glob("TOP500_*"))), top500)
        print(f"TOP500 import (setup): {time.perf_counter() - started:.1f} s")
    clusters = data / "epoch" / "gpu_clusters.csv"
    times = []
    for _ in range(max(1, min(args.repeat, 3))):
        started = time.perf_counter()
        result = import_epoch(clusters, hardware=data / "epoch" / "ml_hardware.csv", top500=[top500])
        times.append(time.perf_counter() - started)
    out = work / "epoch.nt"
    write_epoch(result, out)
    print(
        f"Epoch import (with --top500, hardware): p50 {statistics.median(times):.2f} s "
        f"(runs {', '.join(f'{t:.2f}' for t in times)}; target <= 10 s); {result.report.summary()}"
    )
    ds = Dataset.load([top500, out])
    print(f"full graph: {ds.triple_count()} quads")
    for query in all_saved():
        if not (query.name.startswith("epoch-") or query.name == "conflicts"):
            continue
        runs = []
        for _ in range(args.repeat):
            started = time.perf_counter()
            rows = run_query(ds, query, {}).rows
            runs.append(time.perf_counter() - started)
        p50 = statistics.median(runs) * 1000
        flag = "ok" if p50 <= 100 else "OVER TARGET"
        print(f"  {query.name}: p50 {p50:.0f} ms over {args.repeat} runs, {len(rows)} rows [{flag}]")


if __name__ == "__main__":
    main()
