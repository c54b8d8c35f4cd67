"""``hpckg import epoch gpu_clusters.csv -o OUT``: Epoch AI's GPU clusters as claims.

Library entry point: :func:`import_epoch` reads the clusters (and optionally the
ML hardware file), reconciles each cluster with the curated and TOP500 systems of
the loaded graph (:mod:`hpckg.reconcile`), and returns sorted N-Triples and an
:class:`EpochReport` that accounts for every row. :func:`write_epoch` writes both
atomically. Tiers follow :mod:`hpckg.importers.epoch_tiers`; citations and claim
shapes :mod:`hpckg.importers.epoch_claims`.

>>> result = import_epoch("gpu_clusters.csv", top500=["build/top500.nt"])  # doctest: +SKIP
>>> write_epoch(result, "build/epoch.nt")                                     # doctest: +SKIP
"""

from __future__ import annotations

import datetime as dt
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import click
from rdflib import Literal, URIRef

from ..catalogue import Catalogue
from ..countries import country_code
from ..errors import UsageError
from ..io import atomic_write
from ..namespaces import HK, RDF, RDFS, XSD, digest, id_iri, slugify
from ..reconcile import ClusterRecord, candidates_from, load_overrides, match_triples, reconcile
from ..store import Dataset
from ._cli import output_options, write_report
from .epoch_claims import RowContext, Triples, dataset_triples, row_claims
from .epoch_hardware import import_hardware
from .epoch_parts import EpochNames
from .epoch_report import EpochReport
from .epoch_rows import ClusterRow, read_clusters
from .epoch_tiers import row_tier

__all__ = ["EpochImport", "EpochReport", "command", "import_epoch", "row_keys", "write_epoch"]

MAPPINGS = Path("graph") / "mappings" / "epoch.csv"


@dataclass
class EpochImport:
    ntriples: bytes
    report: EpochReport


def row_keys(rows: Sequence[ClusterRow]) -> list[str]:
    """A stable key per row: the slug of its name, or for anonymised rows (which all
    share one name) a digest of their content, numbered when rows are identical."""
    keys: list[str] = []
    seen: Counter[str] = Counter()
    for row in rows:
        if row.anonymised:
            fields = (
                row.status,
                row.certainty,
                row.owners,
                row.country,
                row.location,
                row.chips,
                row.first_operational,
                row.power_mw,
                row.h100e,
                row.quote,
                row.notes,
            )
            base = "anonymised-" + digest(*fields, length=12)
        else:
            base = slugify(row.name)
        seen[base] += 1
        keys.append(base if seen[base] == 1 else f"{base}-{seen[base]}")
    return keys


def import_epoch(
    clusters: str | Path,
    *,
    hardware: str | Path | None = None,
    top500: Sequence[str | Path] = (),
    data: Sequence[str | Path] = (),
    mappings: str | Path | None = None,
    as_of: dt.date | None = None,
    dataset: Dataset | None = None,
) -> EpochImport:
    """Import ``clusters`` against the bundled graph plus ``top500`` and ``data`` files."""
    started = time.perf_counter()
    rows, skipped, _ = read_clusters(clusters)
    ds = dataset if dataset is not None else Dataset.load([*top500, *data])
    catalogue = Catalogue.from_dataset(ds)
    names = EpochNames(catalogue)
    keys = row_keys(rows)
    report = EpochReport(source=Path(clusters).name, rows_in=len(rows) + len(skipped), skipped=skipped)
    for row in rows:
        report.warnings += [f"row {row.number} (line {row.line}, {row.name}): {w}" for w in row.warnings]

    # Reconcile named clusters (anonymised ones have no name to match on).
    records = [
        ClusterRecord(
            name=row.name,
            owners=tuple(names.org(o) for o in row.owners),
            owner_names=row.owners,
            country=country_code(row.country) if row.country else None,
            urls=row.sources,
            notes=" ".join((row.notes, row.quote)),
            date=row.first_operational,
        )
        for row in rows
        if not row.anonymised
    ]
    mapping_path = Path(mappings) if mappings is not None else ds.root / MAPPINGS
    outcome = reconcile(records, candidates_from(ds), load_overrides(mapping_path))
    report.links = {name: (str(link.system), link.reason) for name, link in sorted(outcome.links.items())}
    report.ambiguous = {name: [str(s) for s in systems] for name, systems in sorted(outcome.ambiguous.items())}
    report.earlier_phases = {name: str(s) for name, s in sorted(outcome.earlier_phases.items())}

    out = Triples()
    dataset_triples(out)
    as_of_literal = Literal(as_of.isoformat(), datatype=XSD.date) if as_of else None
    system_of: dict[str, URIRef] = {}
    for row, key in zip(rows, keys, strict=True):
        link = None if row.anonymised else outcome.links.get(row.name)
        system = link.system if link else id_iri("system", "epoch-" + key)
        system_of.setdefault(row.name, system)
        tier, reason = row_tier(row.certainty, bool(row.sources), row.anonymised)
        report.tiers[reason] += 1
        row_claims(RowContext(row, key, system, link is None, tier, as_of_literal), names, out)
        if link is not None:
            out.update(match_triples(link, key))
        report.imported += 1
    for org, label in names.minted.items():
        out.add(org, RDF.type, HK.Organization)
        out.add(org, RDFS.label, Literal(label))
    _upgrades(rows, system_of, out, report)

    if hardware is not None:
        report.hardware = import_hardware(hardware, catalogue, out)
    report.minted_orgs = {str(k): v for k, v in sorted(names.minted.items())}
    report.unknown_chips = dict(sorted(names.unknown_chips.items()))
    report.systems = len(
        set(system_of.values())
        | {id_iri("system", "epoch-" + k) for r, k in zip(rows, keys, strict=True) if r.anonymised}
    )
    report.triples = len(out)
    data_bytes = out.ntriples()
    report.seconds = time.perf_counter() - started
    return EpochImport(data_bytes, report)


def _upgrades(rows: Sequence[ClusterRow], system_of: dict[str, URIRef], out: Triples, report: EpochReport) -> None:
    """ "Builds Upon" and "Superseded by" as hk:upgradeOf (newer -> older)."""
    for row in rows:
        if row.anonymised:
            continue
        pairs = [(row.name, older) for older in row.builds_upon] + [(newer, row.name) for newer in row.superseded_by]
        for newer, older in pairs:
            a, b = system_of.get(newer), system_of.get(older)
            if a is None or b is None:
                missing = newer if a is None else older
                report.warnings.append(
                    f"row {row.number} ({row.name}): upgrade chain names unknown cluster {missing!r}"
                )
                continue
            if a != b:
                out.add(a, HK.upgradeOf, b)
                report.upgrade_links.add((str(a), str(b)))


def write_epoch(result: EpochImport, output: str | Path, report_path: str | Path | None = None) -> None:
    """Write the triples and, if asked, the report (JSON for ``.json``, else text), atomically."""
    atomic_write(output, result.ntriples)
    if report_path is not None:
        write_report(result.report, report_path)


@click.command("epoch")
@click.argument("clusters", type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "--hardware",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Epoch AI ml_hardware.csv: adds chip specifications to catalogue parts.",
)
@output_options
@click.option(
    "--top500",
    "top500",
    multiple=True,
    type=click.Path(dir_okay=False, path_type=Path),
    help="TOP500 import output (from `hpckg import top500`) to reconcile with; repeatable.",
)
@click.option(
    "--data",
    "data",
    multiple=True,
    type=click.Path(dir_okay=False, path_type=Path),
    help="Extra data file added to the bundled graph before reconciling; repeatable.",
)
@click.option(
    "--mappings",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Override mapping CSV (epoch_name,system,action); default graph/mappings/epoch.csv.",
)
@click.option(
    "--as-of",
    "as_of",
    default=None,
    help="Date the CSV was downloaded (YYYY-MM-DD): the as-of date of the status claims.",
)
def command(
    clusters: Path,
    hardware: Path | None,
    output: Path,
    report_path: Path | None,
    top500: tuple[Path, ...],
    data: tuple[Path, ...],
    mappings: Path | None,
    as_of: str | None,
) -> None:
    """Import Epoch AI's GPU clusters CSV into OUTPUT as N-Triples.

    Every row is accounted for in the report. Clusters that are curated or TOP500
    systems (give the TOP500 import with --top500) are merged into those systems,
    each link recorded as an hk:Match with its reason.
    """
    day = None
    if as_of:
        try:
            day = dt.date.fromisoformat(as_of)
        except ValueError:
            raise UsageError(f"--as-of: expected a date YYYY-MM-DD, got {as_of!r}") from None
    result = import_epoch(clusters, hardware=hardware, top500=top500, data=data, mappings=mappings, as_of=day)
    write_epoch(result, output, report_path)
    click.echo(result.report.summary())
    if result.report.skipped:
        first = result.report.skipped[0]
        click.echo(
            f"{len(result.report.skipped)} row(s) skipped; "
            f"first: row {first.number} (line {first.line}): {first.reason}",
            err=True,
        )
