"""``hpckg import top500 FILE... -o OUT``: TOP500 list editions as cited, tiered claims.

Library entry point: :func:`import_top500` reads the list files, recognises each
machine across editions, resolves suppliers and parts through the curated
catalogue and returns the triples (sorted N-Triples) and an :class:`ImportReport`.
:func:`write_import` writes them atomically. Import every edition in one run: a
machine is only recognised across the lists given together.

>>> result = import_top500(["TOP500_202406.xlsx"])           # doctest: +SKIP
>>> write_import(result, "build/top500.nt")                   # doctest: +SKIP
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from pathlib import Path

import click
from rdflib import URIRef

from ..catalogue import Catalogue
from ..errors import DataError
from ..io import atomic_write
from ..store import Dataset
from ._cli import output_options, write_report
from .top500_claims import ClaimBuilder, Existing
from .top500_entries import Entry, Problem, parse_entries
from .top500_identity import Track, assign_systems
from .top500_read import read_list
from .top500_report import ImportReport

__all__ = ["ImportResult", "command", "curated_system_ids", "existing_facts", "import_top500", "write_import"]


@dataclass
class ImportResult:
    """The output of one import: N-Triples bytes and the report."""

    ntriples: bytes
    report: ImportReport


def curated_system_ids(ds: Dataset) -> dict[str, URIRef]:
    """System ID -> the curated system that carries it (``hk:top500SystemId``)."""
    rows = ds.select("SELECT ?s ?id WHERE { ?s a hk:System ; hk:top500SystemId ?id }")
    found: dict[str, URIRef] = {}
    for row in sorted(rows, key=lambda r: (r["id"].value, r["s"].value)):
        found.setdefault(row["id"].value.strip(), URIRef(row["s"].value))
    return found


def existing_facts(ds: Dataset) -> Existing:
    """List editions, citations and per-list TOP500 facts the curated graph already has."""
    existing = Existing()
    for row in ds.select("SELECT ?n WHERE { { ?n a hk:ListEdition } UNION { ?n a hk:Citation } }"):
        existing.nodes.add(row["n"].value)
    for row in ds.select("SELECT ?n WHERE { ?n a hk:ListEdition ; hk:publishedOn ?d }"):
        existing.published.add(row["n"].value)
    for row in ds.select(
        "SELECT ?s ?e ?m WHERE { ?c a hk:Measurement ; hk:system ?s ; hk:listEdition ?e ; hk:metric ?m }"
    ):
        existing.facts.add((row["s"].value, row["e"].value.rsplit("top500-", 1)[-1], row["m"].value))
    for row in ds.select("SELECT ?s ?e WHERE { ?c a hk:RankingEntry ; hk:system ?s ; hk:listEdition ?e }"):
        existing.facts.add((row["s"].value, row["e"].value.rsplit("top500-", 1)[-1], "rank"))
    return existing


def import_top500(paths: Sequence[str | Path], dataset: Dataset | None = None) -> ImportResult:
    """Import TOP500 list files against the curated graph (loaded if not given).

    Raises DataError for an unreadable file (nothing is imported from any file then:
    the caller's previous output stays as it was), or two files of one edition.
    """
    ds = dataset if dataset is not None else Dataset.load()
    catalogue = Catalogue.from_dataset(ds)
    curated = curated_system_ids(ds)
    report = ImportReport()
    entries: list[Entry] = []
    seen_editions: dict[str, Path] = {}
    for raw_path in paths:
        listing = read_list(raw_path)
        if listing.edition in seen_editions:
            raise DataError(
                f"edition {listing.edition} given twice (also in {seen_editions[listing.edition].name})", listing.path
            )
        seen_editions[listing.edition] = listing.path
        report.warnings += listing.warnings
        problems: list[Problem] = []
        parsed = parse_entries(listing, problems, report.warnings)
        report.rejected += problems
        report.files[listing.path.name] = {
            "edition": listing.edition,
            "rows_read": len(listing.rows),
            "rows_imported": len(parsed),
        }
        report.rows_read += len(listing.rows)
        report.rows_imported += len(parsed)
        entries += parsed
    if not entries:
        raise DataError("no rows to import", paths[0] if paths else None)
    rmax_anchors: dict[tuple[str, Decimal | None], URIRef] = {}
    anchors = {
        (r["e"].value.rsplit("top500-", 1)[-1], int(r["r"].value)): URIRef(r["s"].value)
        for r in ds.select(
            "SELECT ?s ?e ?r WHERE { ?x a hk:RankingEntry ; hk:system ?s ; hk:listEdition ?e ; hk:rank ?r }"
        )
        if r["r"].value.isdigit()
    }
    for r in ds.select(
        "SELECT ?s ?e ?v WHERE { ?x a hk:Measurement ; hk:metric hk:Rmax ; "
        "hk:system ?s ; hk:listEdition ?e ; hk:value ?v }"
    ):
        rmax_anchors[(r["e"].value.rsplit("top500-", 1)[-1], _decimal(r["v"].value))] = URIRef(r["s"].value)
    tracks, iris = assign_systems(entries, curated, anchors)
    tracks, iris = split_by_anchor(tracks, iris, rmax_anchors)
    editions = sorted(seen_editions)
    curated_nodes = set(curated.values()) | set(anchors.values())
    builder = ClaimBuilder(catalogue, curated_nodes, editions[0], existing_facts(ds))
    for index in sorted(range(len(tracks)), key=lambda i: str(iris[i])):
        builder.add_track(tracks[index], iris[index], editions[-1])
    stats = builder.stats
    report.systems = len(set(iris.values()))
    report.systems_merged_with_curated = len({iris[i] for i in iris if iris[i] in curated_nodes})
    report.systems_created = report.systems - report.systems_merged_with_curated
    report.systems_linked_to_system_id = stats.linked_across_id
    report.claims = stats.claims
    report.triples = len(builder.out)
    report.unresolved = catalogue.report()
    report.skipped_names = dict(sorted(catalogue.skipped.items()))
    report.unknown_countries = dict(sorted(stats.unknown_countries.items()))
    return ImportResult(builder.out.serialize(), report)


def _decimal(text: str) -> Decimal | None:
    try:
        return Decimal(text).normalize()
    except InvalidOperation:
        return None


def split_by_anchor(
    tracks: list[Track], iris: dict[int, URIRef], rmax_anchors: dict[tuple[str, Decimal | None], URIRef]
) -> tuple[list[Track], dict[int, URIRef]]:
    """Give a row to the curated system that states its Rmax for that list, even when
    the curator split the machine into configurations (Tianhe-2, then Tianhe-2A)."""
    out_tracks: list[Track] = []
    out_iris: dict[int, URIRef] = {}
    for index, track in enumerate(tracks):
        groups: dict[URIRef, list[Entry]] = {}
        for entry in track.entries:
            rmax = entry.figures.get("rmax")
            key = (entry.edition, rmax.normalize() if rmax is not None else None)
            groups.setdefault(rmax_anchors.get(key, iris[index]), []).append(entry)
        for iri, members in groups.items():
            part = Track(members, track.system_id if iri == iris[index] else None, track.keys, track.linked)
            out_iris[len(out_tracks)] = iri
            out_tracks.append(part)
    return out_tracks, out_iris


def write_import(result: ImportResult, out: str | Path, report_path: str | Path | None = None) -> None:
    """Write the triples (and the report: JSON for ``.json``, else text) atomically."""
    atomic_write(out, result.ntriples)
    if report_path is not None:
        write_report(result.report, report_path)


@click.command("top500")
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False, path_type=Path))
@output_options
@click.option(
    "--data",
    "data",
    multiple=True,
    type=click.Path(dir_okay=False, path_type=Path),
    help="Extra data file added to the bundled graph before resolving names; repeatable.",
)
def command(files: tuple[Path, ...], output: Path, report_path: Path | None, data: tuple[Path, ...]) -> None:
    """Import TOP500 list files (XLS, XLSX, CSV, TSV, XML) into OUTPUT as N-Triples.

    Give every edition in one run, so each machine is recognised across lists.
    Rows are merged into curated systems that carry their TOP500 System ID.
    """
    result = import_top500(files, Dataset.load(data))
    write_import(result, output, report_path)
    click.echo(result.report.summary())
    if result.report.rejected:
        click.echo(f"{len(result.report.rejected)} row(s) rejected; first: {result.report.rejected[0]}", err=True)
