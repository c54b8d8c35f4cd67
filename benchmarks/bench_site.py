"""Benchmark: build the static site for the full graph and print the time and page count.

The full graph is the curated data plus every TOP500 list and the Epoch AI clusters
(about 4,000 systems). By default the importers are run on ``../shared/data`` first
(their time is reported separately and not counted); ``--data FILE`` uses import
outputs you already have; ``--synthetic N`` (or a missing importer or data folder)
generates N systems of the same shape instead, and says so.

    python benchmarks/bench_site.py                      # import, then build
    python benchmarks/bench_site.py --data build/top500.nt --data build/epoch.nt
    python benchmarks/bench_site.py --synthetic 4000

Target (issue 6): the build takes at most 60 s.
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import sys
import tempfile
import time
from pathlib import Path

from click.testing import CliRunner

from hpckg.cli import main
from hpckg.namespaces import HK, id_iri
from hpckg.site import build_site, check_links
from hpckg.store import Dataset
from hpckg.verify.report import coverage

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "data"
TARGET_SECONDS = 60.0


def _run_importers(folder: Path) -> list[Path]:
    """Run the TOP500 and Epoch importers on the shared data; empty list if unavailable."""
    if not SHARED.is_dir():
        return []
    if any(importlib.util.find_spec(f"hpckg.importers.{n}") is None for n in ("top500", "epoch")):
        return []
    runner = CliRunner()
    top500 = folder / "top500.nt"
    lists = sorted(str(p) for p in (SHARED / "top500").glob("TOP500_*.xls*"))
    started = time.perf_counter()
    result = runner.invoke(main, ["import", "top500", *lists, "-o", str(top500)])
    if result.exit_code != 0:
        print(f"TOP500 import failed, falling back: {result.output.strip()[-300:]}")
        return []
    epoch = folder / "epoch.nt"
    result = runner.invoke(
        main,
        [
            "import",
            "epoch",
            str(SHARED / "epoch" / "gpu_clusters.csv"),
            "--top500",
            str(top500),
            "-o",
            str(epoch),
        ],
    )
    files = [top500] + ([epoch] if result.exit_code == 0 else [])
    if result.exit_code != 0:
        print(f"Epoch import failed, building without it: {result.output.strip()[-300:]}")
    print(f"imports: {time.perf_counter() - started:.1f} s (not counted)")
    return files


def synthetic_graph(path: Path, systems: int, seed: int = 6) -> Path:
    """N-Triples of ``systems`` systems shaped like imported TOP500 rows: operator,
    integrator, accelerator, CPU and interconnect supply claims on curated orgs and
    parts, status, Rmax/Rpeak/cores/power per list edition, a timeline event and a
    citation each."""
    rng = random.Random(seed)
    ds = Dataset.load()
    orgs = sorted(r["o"].value for r in ds.select("SELECT ?o WHERE { ?o a hk:Organization }"))
    parts = {
        role: sorted(
            r["p"].value
            for r in ds.select("SELECT ?p WHERE { ?c hk:role $role ; hk:part ?p }", {"role": _node(HK[role])})
        )
        for role in ("Accelerator", "CPU", "Interconnect")
    }
    editions = [f"{y}-{m}" for y in range(2011, 2026) for m in ("06", "11")][:25]
    countries = ["US", "CN", "JP", "DE", "FR", "GB", "IT", "KR", "CA", "NL", "IN", "BR", "NZ"]
    nt = []

    def t(s: str, p: str, o: str) -> None:
        nt.append(f"{s} {p} {o} .\n")

    def iri(x: object) -> str:
        return f"<{x}>"

    def lit(text: str, dtype: str = "http://www.w3.org/2001/XMLSchema#string") -> str:
        return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + f'"^^<{dtype}>'

    dec = "http://www.w3.org/2001/XMLSchema#decimal"
    rdf_type, label = (
        "<http://www.w3.org/1999/02/22-rdf-syntax-ns#type>",
        "<http://www.w3.org/2000/01/rdf-schema#label>",
    )
    for n in range(systems):
        s = iri(id_iri("system", f"bench-{n:05d}"))
        cite = iri(id_iri("citation", f"bench-{n:05d}"))
        t(s, rdf_type, iri(HK.System))
        t(s, label, lit(f"Bench system {n:05d}"))
        t(s, iri(HK.country), lit(rng.choice(countries)))
        t(s, iri(HK.purpose), iri(rng.choice([HK.Research, HK.Academic, HK.Industry, HK.AITraining])))
        t(cite, rdf_type, iri(HK.Citation))
        t(
            cite,
            iri(HK.url),
            lit(f"https://www.top500.org/system/{100000 + n}", "http://www.w3.org/2001/XMLSchema#anyURI"),
        )
        t(cite, "<http://purl.org/dc/terms/title>", lit(f"TOP500 system page {n}"))

        def claim(kind: str, key: str, *pairs: tuple[str, str], n: int = n, s: str = s, cite: str = cite) -> None:
            c = iri(id_iri("claim", f"bench-{n:05d}-{key}"))
            t(c, rdf_type, iri(HK[kind]))
            t(c, iri(HK.system), s)
            t(c, iri(HK.citation), cite)
            t(c, iri(HK.tier), iri(HK.Verified))
            for p, o in pairs:
                t(c, p, o)

        claim("Operation", "operation", (iri(HK.operator), iri(rng.choice(orgs))))
        claim(
            "SupplyRelationship",
            "integrator",
            (iri(HK.role), iri(HK.Integrator)),
            (iri(HK.supplier), iri(rng.choice(orgs))),
        )
        for role in ("Accelerator", "CPU", "Interconnect"):
            if parts[role] and (role != "Accelerator" or rng.random() < 0.4):
                claim(
                    "SupplyRelationship",
                    role.lower(),
                    (iri(HK.role), iri(HK[role])),
                    (iri(HK.part), iri(rng.choice(parts[role]))),
                    (iri(HK.supplier), iri(rng.choice(orgs))),
                    (
                        iri(HK.quantity),
                        lit(str(rng.randint(8, 50000)), "http://www.w3.org/2001/XMLSchema#integer"),
                    ),
                )
        claim(
            "StatusClaim",
            "status",
            (iri(HK.status), iri(HK.Operational)),
            (iri(HK.asOf), lit("2025-06-01", "http://www.w3.org/2001/XMLSchema#date")),
        )
        first = rng.randrange(len(editions))
        for edition in editions[first : first + rng.randint(1, 6)]:
            le = iri(id_iri("list", f"top500-{edition}"))
            for metric, unit, value in (
                (HK.Rmax, HK.TeraFLOPS, rng.uniform(50, 500000)),
                (HK.Rpeak, HK.TeraFLOPS, rng.uniform(500000, 900000)),
                (HK.Cores, HK.Count, rng.randint(1000, 9000000)),
                (HK.Power, HK.Kilowatt, rng.uniform(10, 30000)),
            ):
                claim(
                    "Measurement",
                    f"{metric.rsplit('#', 1)[-1].lower()}-{edition}",
                    (iri(HK.metric), iri(metric)),
                    (iri(HK.value), lit(f"{value:.3f}", dec)),
                    (iri(HK.unit), iri(unit)),
                    (iri(HK.listEdition), le),
                    (iri(HK.asOf), lit(f"{edition}-01", "http://www.w3.org/2001/XMLSchema#date")),
                )
        claim(
            "TimelineEvent",
            "first-listed",
            (iri(HK.eventKind), iri(HK.FirstListed)),
            (iri(HK.date), lit(editions[first], "http://www.w3.org/2001/XMLSchema#gYearMonth")),
        )
    path.write_text("".join(nt), encoding="utf-8")
    return path


def _node(term: object) -> object:
    import pyoxigraph as ox

    return ox.NamedNode(str(term))


def main_(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", action="append", default=[], type=Path, help="import output to add")
    parser.add_argument("--synthetic", type=int, default=0, help="generate N synthetic systems instead")
    parser.add_argument("--check-links", action="store_true", help="also run the link check (not timed)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        data: list[Path] = list(args.data)
        kind = "given data files"
        if args.synthetic:
            data = [synthetic_graph(folder / "synthetic.nt", args.synthetic)]
            kind = f"SYNTHETIC graph of {args.synthetic} systems"
        elif not data:
            data = _run_importers(folder)
            kind = "curated + TOP500 + Epoch imports"
            if not data:
                data = [synthetic_graph(folder / "synthetic.nt", 4000)]
                kind = "SYNTHETIC graph of 4000 systems (importers or ../shared/data unavailable)"
        started = time.perf_counter()
        ds = Dataset.load(data)
        loaded = time.perf_counter() - started
        started = time.perf_counter()
        coverage(ds)
        covered = time.perf_counter() - started
        started = time.perf_counter()
        summary = build_site(ds, folder / "site")
        built = time.perf_counter() - started
        print(f"graph: {kind}; {ds.triple_count():,} triples")
        print(f"load: {loaded:.1f} s")
        print(f"coverage line alone (hpckg.verify.report.coverage, also inside the build): {covered:.1f} s")
        print(
            f"site build: {built:.1f} s for {summary.pages:,} pages "
            f"({summary.systems:,} systems, {summary.organisations:,} organisations, "
            f"{summary.families:,} part families; {summary.files:,} files)"
        )
        print(f"target: <= {TARGET_SECONDS:.0f} s -> {'met' if built <= TARGET_SECONDS else 'MISSED'}")
        if args.check_links:
            broken = check_links(folder / "site")
            print(f"broken internal links: {len(broken)}")
    return 0


if __name__ == "__main__":
    sys.exit(main_())
