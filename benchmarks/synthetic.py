"""Generate a synthetic graph with the shape of the real one (TOP500-style claims).

Every system gets a label, a country, an operator and, for each list it appears on,
a ranking entry, Rmax / Rpeak / cores / power measurements and supply relationships
for integrator, accelerator, CPU and interconnect, each with a citation and a tier.
Suppliers and parts are the curated ones, so roll-ups and saved queries apply.

    python benchmarks/synthetic.py --triples 1000000 -o build/synthetic.nt
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from hpckg.io import atomic_write  # noqa: E402
from hpckg.namespaces import HK, ID  # noqa: E402

XSD = "http://www.w3.org/2001/XMLSchema#"
RDF_TYPE = "<http://www.w3.org/1999/02/22-rdf-syntax-ns#type>"
LABEL = "<http://www.w3.org/2000/01/rdf-schema#label>"
EDITIONS = [f"{y}-{m:02d}" for y in range(2011, 2026) for m in (6, 11)][:-1]  # up to 2025-06
ROLES = [
    (
        "Integrator",
        ["hpe", "cray", "sgi", "dell", "lenovo", "ibm", "bull", "atos", "eviden", "fujitsu", "nec", "inspur"],
        [],
    ),
    ("Accelerator", ["nvidia"], ["nvidia-a100", "nvidia-a100-sxm4-80gb", "nvidia-h100-sxm5-80gb", "nvidia-tesla-v100"]),
    ("CPU", ["intel", "amd", "ibm", "fujitsu"], ["amd-epyc-7742", "ibm-power9", "fujitsu-a64fx"]),
    (
        "Interconnect",
        ["mellanox", "nvidia", "cray", "hpe"],
        ["mellanox-infiniband-edr", "nvidia-infiniband-hdr", "hpe-slingshot-11"],
    ),
]
COUNTRIES = ["US", "CN", "JP", "DE", "FR", "GB", "IT", "KR", "CA", "NL"]


def iri(kind: str, slug: str) -> str:
    return f"<{ID}{kind}/{slug}>"


def hk(name: str) -> str:
    return f"<{HK}{name}>"


def lit(value: object, datatype: str | None = None) -> str:
    text = str(value).replace("\\", "\\\\").replace('"', '\\"')
    return f'"{text}"^^<{XSD}{datatype}>' if datatype else f'"{text}"'


def generate(target_triples: int, seed: int = 42) -> str:
    rng = random.Random(seed)
    lines: list[str] = []
    add = lines.append
    cites = {e: iri("citation", f"synthetic-top500-{e}") for e in EDITIONS}
    for edition, cite in cites.items():
        add(f"{cite} {RDF_TYPE} {hk('Citation')} .")
        add(
            f"{cite} {hk('url')} {lit(f'https://www.top500.org/lists/top500/{edition[:4]}/{edition[5:]}/', 'anyURI')} ."
        )
    n = 0
    while len(lines) < target_triples:
        n += 1
        system = iri("system", f"synthetic-{n}")
        add(f"{system} {RDF_TYPE} {hk('System')} .")
        add(f"{system} {LABEL} {lit(f'Synthetic system {n}')} .")
        add(f"{system} {hk('country')} {lit(rng.choice(COUNTRIES))} .")
        op = iri("claim", f"synthetic-{n}-operation")
        for t in (
            f"{op} {RDF_TYPE} {hk('Operation')} .",
            f"{op} {hk('system')} {system} .",
            f"{op} {hk('operator')} {iri('org', 'oak-ridge-national-laboratory')} .",
            f"{op} {hk('citation')} {cites[EDITIONS[0]]} .",
            f"{op} {hk('tier')} {hk('Verified')} .",
        ):
            add(t)
        first = rng.randrange(len(EDITIONS))
        parts = [(role, rng.choice(sups), rng.choice(ps) if ps else None) for role, sups, ps in ROLES]
        rpeak = rng.uniform(100, 2_000_000)
        for edition in EDITIONS[first : first + rng.randint(1, 8)]:
            cite = cites[edition]
            day = lit(f"{edition}-01", "date")
            listed = iri("list", f"top500-{edition}")
            base = f"synthetic-{n}-{edition}"

            def claim(
                kind: str,
                suffix: str,
                extra: list[tuple[str, str]],
                base: str = base,
                system: str = system,
                cite: str = cite,
            ) -> None:
                node = iri("claim", f"{base}-{suffix}")
                add(f"{node} {RDF_TYPE} {hk(kind)} .")
                add(f"{node} {hk('system')} {system} .")
                add(f"{node} {hk('citation')} {cite} .")
                add(f"{node} {hk('tier')} {hk('Verified')} .")
                for predicate, obj in extra:
                    add(f"{node} {predicate} {obj} .")

            claim(
                "RankingEntry", "rank", [(hk("listEdition"), listed), (hk("rank"), lit(rng.randint(1, 500), "integer"))]
            )
            for metric, value, unit in (
                ("Rmax", rpeak * rng.uniform(0.5, 0.9), "TeraFLOPS"),
                ("Rpeak", rpeak, "TeraFLOPS"),
                ("Cores", rng.randint(1000, 9_000_000), "Count"),
                ("Power", rng.uniform(50, 30000), "Kilowatt"),
            ):
                claim(
                    "Measurement",
                    metric.lower(),
                    [
                        (hk("metric"), hk(metric)),
                        (hk("value"), lit(f"{value:.3f}", "decimal")),
                        (hk("unit"), hk(unit)),
                        (hk("asOf"), day),
                        (hk("listEdition"), listed),
                    ],
                )
            for role, supplier, part in parts:
                extra = [(hk("role"), hk(role)), (hk("supplier"), iri("org", supplier))]
                if part:
                    extra.append((hk("part"), iri("part", part)))
                claim("SupplyRelationship", role.lower(), extra)
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--triples", type=int, default=1_000_000)
    parser.add_argument("-o", "--output", type=Path, default=ROOT / "build" / "synthetic.nt")
    args = parser.parse_args()
    text = generate(args.triples)
    atomic_write(args.output, text)
    print(f"wrote {text.count(chr(10))} triples to {args.output}")


if __name__ == "__main__":
    main()
