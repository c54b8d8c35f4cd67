"""The five saved top500-* queries: their p50 on a graph, and their outputs for comparison.

Loads the curated graph plus the given data files, prints the load time, the time
:func:`hpckg.derive.summarise` and :func:`hpckg.derive.summarise_lists` take, and the
p50 of each saved ``top500-*`` query; with ``--dump FILE`` writes every query's rows
(as N-Triples-style term strings) to a JSON file, so two versions can be compared.

    python benchmarks/bench_top500_queries.py [FILE ...] [--runs 5] [--dump out.json]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from timing import p50  # noqa: E402

from hpckg import derive  # noqa: E402
from hpckg.queries import all_saved, run_query  # noqa: E402
from hpckg.store import Dataset  # noqa: E402

# Parameter sets per query: defaults, plus a later start year and an earlier as-of date.
PARAMS: dict[str, list[dict[str, str]]] = {
    "top500-rank-history": [{"system": "summit"}, {"system": "frontier"}, {"system": "top500-176819"}],
    "top500-share-by-parent-ticker": [{}, {"as_of": "2015-01-01", "since": "2010"}],
    "top500-share-by-parent-ticker-at-list-date": [{}, {"since": "2018"}],
    "top500-systems-per-country": [{}, {"since": "2020"}],
    "top500-accelerator-family-share": [{}, {"since": "2020"}],
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--dump", type=Path)
    args = parser.parse_args()
    started = time.perf_counter()
    ds = Dataset.load(args.files, root=ROOT)
    print(f"load: {time.perf_counter() - started:.2f} s, {ds.triple_count(include_derived=True):,} triples")
    for name in ("summarise",):
        func = getattr(derive, name, None)
        if func is not None:
            print(f"{name}(): {p50(lambda f=func: f(ds), 1) * 1000:.0f} ms")
    dump: dict[str, Any] = {}
    for query in all_saved(ROOT):
        if query.name not in PARAMS:
            continue
        for params in PARAMS[query.name]:
            try:
                result = run_query(ds, query, params)
            except Exception as error:  # an unknown system on a small graph, say
                print(f"{query.name} {params}: {error}")
                continue
            key = f"{query.name} {json.dumps(params, sort_keys=True)}"
            dump[key] = {
                "columns": list(result.columns),
                "rows": [[None if t is None else str(t) for t in row] for row in result.rows],
            }
            ms = p50(lambda q=query, p=params: run_query(ds, q, p), args.runs) * 1000
            print(f"{key:75} {ms:8.1f} ms  rows={len(result.rows)}")
    if args.dump:
        args.dump.write_text(json.dumps(dump, indent=1))


if __name__ == "__main__":
    main()
