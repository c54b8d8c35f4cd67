"""Benchmark the TOP500 import on every list in ../shared/data/top500 (prints figures).

Run from the repository root:  python benchmarks/bench_top500.py [--repeat N]

Prints: import time and triples/s (curated graph included), load time of the
result, validation time of the full graph (when hpckg.validate exists) and the p50
of each saved top500 query on it. Targets: import <= 20 s, validation <= 60 s,
each query p50 <= 100 ms.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

from timing import p50

from hpckg.importers.top500 import import_top500, write_import
from hpckg.queries import all_saved, run_query
from hpckg.store import Dataset, find_root

QUERY_PARAMS = {"top500-rank-history": {"system": "summit"}}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="runs per query (default 5)")
    parser.add_argument("--no-validate", action="store_true", help="skip the SHACL validation timing")
    args = parser.parse_args()
    root = find_root()
    folder = root.parent / "shared" / "data" / "top500"
    files = sorted(p for p in folder.glob("TOP500_*") if p.suffix in (".xls", ".xlsx"))
    if not files:
        print(f"no TOP500 lists found in {folder}", file=sys.stderr)
        return 1
    start = time.perf_counter()
    curated = Dataset.load()
    result = import_top500(files, curated)
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "top500.nt"
        write_import(result, out)
        elapsed = time.perf_counter() - start
        triples = result.report.triples
        print(
            f"import: {len(files)} lists, {result.report.rows_imported} rows, {triples} triples "
            f"in {elapsed:.2f} s ({triples / elapsed:,.0f} triples/s; target <= 20 s)"
        )
        start = time.perf_counter()
        ds = Dataset.load([out])
        print(f"load curated + import into the store: {time.perf_counter() - start:.2f} s")
        if not args.no_validate:
            try:
                from hpckg.validate import validate
            except ImportError:
                print("validation: hpckg.validate not available yet; skipped")
            else:
                start = time.perf_counter()
                report = validate(ds)
                conforms = getattr(report, "conforms", None)
                print(
                    f"validation of the full graph: {time.perf_counter() - start:.2f} s "
                    f"(conforms: {conforms}; target <= 60 s)"
                )
        for query in all_saved(root):
            if not query.name.startswith("top500-"):
                continue
            params = QUERY_PARAMS.get(query.name, {})
            rows = len(run_query(ds, query, params).rows)
            ms = p50(lambda q=query, v=params: run_query(ds, q, v), args.repeat) * 1000
            print(f"query {query.name}: p50 {ms:.0f} ms, {rows} rows (target <= 100 ms)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
