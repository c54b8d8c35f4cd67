"""Core benchmark: load, validation and saved queries, pyoxigraph against rdflib.

For the curated graph and a synthetic graph of about one million triples with the
same shape (``benchmarks/synthetic.py``) it prints: load time, validation time,
each saved query's p50 on pyoxigraph, the same query on rdflib's own SPARQL engine
(capped at 60 s) and the ratio between the two.

    python benchmarks/bench_core.py [--triples 1000000] [--runs 7] [--rdflib-cap 60] [--references]

With ``--references`` it also times the raw-claims versions of the queries that read
summaries derived at load (``tests/reference/``), the same text on both engines.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "benchmarks"))

from timing import p50  # noqa: E402

from hpckg.binding import bind_values  # noqa: E402
from hpckg.namespaces import PREFIXES  # noqa: E402
from hpckg.queries import SavedQuery, adhoc, all_saved, bind_params, parse_saved, run_query  # noqa: E402
from hpckg.store import Dataset  # noqa: E402
from hpckg.validate import validate  # noqa: E402

SAMPLES = {"system": "seren", "org": "mellanox", "parent": "nvidia", "family": "a100", "part": "nvidia-a100"}


# The system listed most often, so rank history and components have rows to read.
MOST_RANKED = """
SELECT ?s (COUNT(?e) AS ?n) WHERE { ?e a hk:RankingEntry ; hk:system ?s } GROUP BY ?s ORDER BY DESC(?n) ?s LIMIT 1
"""


def samples_for(ds: Dataset) -> dict[str, str]:
    rows = ds.select(MOST_RANKED)
    return {**SAMPLES, "system": rows[0]["s"].value} if rows else dict(SAMPLES)


def params_for(query: SavedQuery, samples: dict[str, str] = SAMPLES) -> dict[str, str]:
    return {p.name: samples.get(p.name, samples.get(p.type, "")) for p in query.params if p.required}


def _rdflib_worker(nt: bytes, conn: Any) -> None:
    import rdflib

    graph = rdflib.Graph()
    graph.parse(data=nt, format="nt")
    conn.send("ready")
    while True:
        text = conn.recv()
        if text is None:
            return
        started = time.perf_counter()
        rows = list(graph.query(text, initNs=PREFIXES))
        conn.send((time.perf_counter() - started, len(rows)))


class RdflibRunner:
    """rdflib in a child process, so a query over the cap can be stopped."""

    def __init__(self, nt: bytes) -> None:
        self.nt = nt
        self.proc: Any = None
        self.parse_seconds = 0.0

    def _start(self) -> None:
        # spawn, not fork: a forked child shares the store's pages copy-on-write, and
        # the page faults that follow slowed the pyoxigraph timings by up to 2x.
        context = mp.get_context("spawn")
        parent, child = context.Pipe()
        self.conn = parent
        started = time.perf_counter()
        self.proc = context.Process(target=_rdflib_worker, args=(self.nt, child), daemon=True)
        self.proc.start()
        self.conn.recv()
        self.parse_seconds = time.perf_counter() - started

    def run(self, text: str, cap: float) -> float | None:
        if self.proc is None or not self.proc.is_alive():
            self._start()
        self.conn.send(text)
        if self.conn.poll(cap):
            seconds, _ = self.conn.recv()
            return float(seconds)
        self.proc.terminate()
        self.proc.join()
        self.proc = None
        return None

    def close(self) -> None:
        if self.proc is not None and self.proc.is_alive():
            self.conn.send(None)
            self.proc.join(5)


def compare(
    ds: Dataset, rdf: RdflibRunner, queries: list[SavedQuery], samples: dict[str, str], runs: int, cap: float
) -> tuple[float, list[float]]:
    """Print each query's pyoxigraph p50, rdflib time and ratio; return the worst p50 and the ratios."""
    print(f"{'query':50} {'oxigraph p50':>13} {'rdflib':>10} {'ratio':>9}")
    worst = 0.0
    ratios = []
    for query in queries:
        values = params_for(query, samples)
        oxi = p50(lambda q=query, v=values: run_query(ds, q, v), runs)
        worst = max(worst, oxi)
        text = "".join(f"PREFIX {p}: <{ns}>\n" for p, ns in PREFIXES.items()) + bind_values(
            query.text, bind_params(query, values)
        )
        slow = rdf.run(text, cap)
        shown = f"{slow:.3f} s" if slow is not None else f">{cap:.0f} s"
        ratio = (slow if slow is not None else cap) / max(oxi, 1e-6)
        ratios.append(ratio)
        mark = ">=" if slow is None else ""
        print(f"{query.name:50} {oxi * 1000:10.2f} ms {shown:>10} {mark}{ratio:8,.0f}x")
    return worst, ratios


# A query that reads nothing: what each engine costs before it does any work.
EMPTY = "SELECT ?x WHERE { BIND(1 AS ?x) }"


def references() -> list[SavedQuery]:
    """The raw-claims versions of the summarised saved queries (tests/reference/)."""
    folder = ROOT / "tests" / "reference"
    return [parse_saved(p.read_text(encoding="utf-8"), f"raw: {p.stem}", p) for p in sorted(folder.glob("*.rq"))]


def bench(name: str, data: list[Path], runs: int, cap: float, with_references: bool) -> None:
    print(f"\n== {name}")
    started = time.perf_counter()
    ds = Dataset.load(data, root=ROOT)
    load = time.perf_counter() - started
    triples = ds.triple_count(include_derived=True)
    print(f"load: {load:.2f} s ({triples:,} triples, {triples / load:,.0f} triples/s)")
    report = validate(ds)
    print(f"validate (fast engine): {report.seconds:.2f} s, conforms={report.conforms}")
    samples = samples_for(ds)
    print(f"sample parameters: {samples}")
    rdf = RdflibRunner(ds.ntriples(include_derived=True))
    try:
        worst, ratios = compare(ds, rdf, all_saved(ROOT), samples, runs, cap)
        floor_oxi = p50(lambda: run_query(ds, adhoc(EMPTY), {}), runs)
        floor_rdf = statistics.median(rdf.run(EMPTY, cap) or cap for _ in range(runs))
        if with_references:
            print("the raw-claims versions of the summarised queries (tests/reference/), same text on both engines:")
            compare(ds, rdf, references(), samples, runs, cap)
    finally:
        rdf.close()
    met = sum(r >= 1000 for r in ratios)
    print(
        f"slowest saved query p50: {worst * 1000:.2f} ms; rdflib parse: {rdf.parse_seconds:.1f} s; "
        f"median ratio: {statistics.median(ratios):,.0f}x, min ratio: {min(ratios):,.0f}x; "
        f"{met} of {len(ratios)} queries >= 1000x"
    )
    print(
        f"engine floor (a query that reads nothing): pyoxigraph {floor_oxi * 1e6:.0f} us, rdflib "
        f"{floor_rdf * 1000:.1f} ms; a query pyoxigraph answers in t shows 1000x only if rdflib needs 1000 t"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--triples", type=int, default=1_000_000)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--rdflib-cap", type=float, default=60.0)
    parser.add_argument("--skip-curated", action="store_true")
    parser.add_argument(
        "--references", action="store_true", help="also time the raw-claims reference queries on both engines"
    )
    args = parser.parse_args()
    if not args.skip_curated:
        bench("curated graph", [], args.runs, args.rdflib_cap, args.references)
    from synthetic import generate

    path = ROOT / "build" / f"synthetic-{args.triples}.nt"
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(generate(args.triples), encoding="utf-8")
    bench(f"synthetic graph ({args.triples:,} generated triples)", [path], args.runs, args.rdflib_cap, args.references)


if __name__ == "__main__":
    main()
