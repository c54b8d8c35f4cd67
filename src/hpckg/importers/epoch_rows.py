"""Read and check the rows of Epoch AI's ``gpu_clusters.csv``.

Each CSV record becomes one :class:`ClusterRow` or one :class:`Skipped` entry, so
every row of the file is accounted for. A row is skipped only when it cannot be
imported at all (wrong number of fields, no name, an unknown status or
certainty); a bad value in an optional field is dropped with a warning and the rest
of the row imports.
"""

from __future__ import annotations

import csv
import math
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from pathlib import Path

from ..errors import DataError

__all__ = [
    "REQUIRED_COLUMNS",
    "STATUSES",
    "CERTAINTIES",
    "ClusterRow",
    "Skipped",
    "read_clusters",
    "parse_quantity",
    "parse_decimal",
]

# Without these a row cannot be placed at all; the other columns are optional.
REQUIRED_COLUMNS = ("Name", "Status", "Certainty")
STATUSES = ("Existing", "Planned", "Decommissioned")
CERTAINTIES = ("Confirmed", "Likely", "Unlikely")
SOURCE_COLUMNS = tuple(f"Source {i}" for i in range(1, 6))
# Epoch marks anonymised (Chinese) rows by this supplier value and a generic name.
ANONYMISED = "anonymized"
_URL = re.compile(r"^https?://\S+$")


@dataclass(frozen=True)
class ClusterRow:
    """One imported row, with the fields the claims need, already cleaned."""

    number: int  # data row number, 1 = first row after the header
    line: int  # line of the file where the record starts
    name: str
    status: str
    certainty: str
    anonymised: bool
    owners: tuple[str, ...] = ()
    country: str = ""
    location: str = ""
    chips: tuple[tuple[str, int | None, str], ...] = ()  # (chip type, quantity, supplier text)
    first_operational: str = ""
    first_operational_note: str = ""
    decommissioned: str = ""
    power_mw: Decimal | None = None
    power_reported: bool = False
    reported_cost: Decimal | None = None
    cost_quote: str = ""
    h100e: Decimal | None = None
    quote: str = ""
    builds_upon: tuple[str, ...] = ()
    superseded_by: tuple[str, ...] = ()
    sources: tuple[str, ...] = ()
    notes: str = ""
    warnings: tuple[str, ...] = field(default=(), compare=False)


@dataclass(frozen=True)
class Skipped:
    number: int
    line: int
    reason: str
    name: str = ""


def parse_decimal(text: str) -> Decimal | None:
    """``"44.8448"`` -> Decimal; empty -> None; raises ValueError when not a finite number >= 0."""
    text = text.strip().replace(",", "")
    if not text:
        return None
    try:
        value = Decimal(text)
    except InvalidOperation:
        raise ValueError(f"not a number: {text!r}") from None
    if not value.is_finite() or value < 0:
        raise ValueError(f"not a finite non-negative number: {text!r}")
    return value


def parse_quantity(text: str) -> int | None:
    """``"32000.0"`` -> 32000; empty or zero -> None; raises ValueError for fractions or junk."""
    value = parse_decimal(text)
    if value is None or value == 0:
        return None
    if value != value.to_integral_value():
        raise ValueError(f"not a whole number: {text.strip()!r}")
    return int(value)


def _names(text: str) -> tuple[str, ...]:
    """Comma-separated names (owners, "Builds Upon"), stripped and de-duplicated."""
    seen: list[str] = []
    for piece in text.split(","):
        piece = piece.strip()
        if piece and piece not in seen:
            seen.append(piece)
    return tuple(seen)


def _records(path: Path) -> Iterator[tuple[int, list[str] | None, str]]:
    """(line, fields, error) for each record; a csv.Error yields fields None."""
    with path.open(newline="", encoding="utf-8-sig") as handle:
        reader = csv.reader(handle)
        while True:
            line = reader.line_num + 1
            try:
                fields = next(reader)
            except StopIteration:
                return
            except csv.Error as error:
                yield line, None, f"unreadable CSV record: {error}"
                continue
            yield line, fields, ""


def read_clusters(path: str | Path) -> tuple[list[ClusterRow], list[Skipped], list[str]]:
    """Rows, skipped rows and the header of ``path``.

    Raises :class:`DataError` when the file is missing or lacks a required column.
    """
    source = Path(path)
    if not source.is_file():
        raise DataError("no such file", source)
    records = _records(source)
    try:
        _, header, error = next(records)
    except StopIteration:
        raise DataError("empty file: expected a header row", source, 1) from None
    except UnicodeDecodeError as exc:
        raise DataError(f"not UTF-8 text: {exc.reason}", source) from None
    if header is None:
        raise DataError(error, source, 1)
    header = [h.strip() for h in header]
    missing = [c for c in REQUIRED_COLUMNS if c not in header]
    if missing:
        raise DataError(f"missing column(s) {', '.join(missing)}: is this Epoch AI's gpu_clusters.csv?", source, 1)
    rows: list[ClusterRow] = []
    skipped: list[Skipped] = []
    number = 0
    try:
        for line, fields, error in records:
            if fields is not None and not any(f.strip() for f in fields):
                continue  # blank lines are not rows
            number += 1
            if fields is None:
                skipped.append(Skipped(number, line, error))
                continue
            if len(fields) != len(header):
                skipped.append(Skipped(number, line, f"has {len(fields)} fields, expected {len(header)}"))
                continue
            outcome = _row(number, line, dict(zip(header, fields, strict=True)))
            (rows if isinstance(outcome, ClusterRow) else skipped).append(outcome)  # type: ignore[arg-type]
    except UnicodeDecodeError as exc:
        raise DataError(f"not UTF-8 text: {exc.reason}", source) from None
    return rows, skipped, header


def _row(number: int, line: int, raw: dict[str, str]) -> ClusterRow | Skipped:
    def get(column: str) -> str:
        return (raw.get(column) or "").strip()

    name = " ".join(get("Name").split())
    if not name:
        return Skipped(number, line, "no Name")
    status, certainty = get("Status"), get("Certainty")
    if status not in STATUSES:
        return Skipped(number, line, f"unknown Status {status!r} (expected {', '.join(STATUSES)})", name)
    if certainty not in CERTAINTIES:
        return Skipped(number, line, f"unknown Certainty {certainty!r} (expected {', '.join(CERTAINTIES)})", name)
    warnings: list[str] = []

    def number_of(column: str, whole: bool = False) -> Decimal | int | None:
        try:
            return parse_quantity(get(column)) if whole else parse_decimal(get(column))
        except ValueError as exc:
            warnings.append(f"{column}: {exc}; value dropped")
            return None

    anonymised = get("GPU Supplier (primary)").lower() == ANONYMISED
    chips: list[tuple[str, int | None, str]] = []
    for which, supplier_col in (("primary", "GPU Supplier (primary)"), ("secondary", "GPU supplier (secondary)")):
        chip = get(f"Chip type ({which})")
        quantity = number_of(f"Chip quantity ({which})", whole=True)
        if chip:
            chips.append((chip, quantity if isinstance(quantity, int) else None, get(supplier_col)))
    sources: list[str] = []
    for column in SOURCE_COLUMNS:
        url = get(column)
        if not url:
            continue
        if not _URL.match(url):
            warnings.append(f"{column}: not an http(s) URL {url[:60]!r}; dropped")
        elif url not in sources:
            sources.append(url)
    power = number_of("Power Capacity (MW)")
    reported_power = number_of("Reported Power Capacity (MW)")
    h100e = number_of("H100 equivalents")
    return ClusterRow(
        number=number,
        line=line,
        name=name,
        status=status,
        certainty=certainty,
        anonymised=anonymised,
        owners=_names(get("Owner")),
        country=get("Country"),
        location=" ".join(get("Location").split()),
        chips=tuple(chips),
        first_operational=get("First Operational Date"),
        first_operational_note=get("First Operational Date Note"),
        decommissioned=get("Decommissioned Date (if applicable)"),
        power_mw=power if isinstance(power, Decimal) and power > 0 else None,
        power_reported=isinstance(reported_power, Decimal) and reported_power > 0,
        reported_cost=_positive(number_of("Reported Cost")),
        cost_quote=get("Cost Quote"),
        h100e=_positive(h100e),
        quote=get("Quote"),
        builds_upon=_names(get("Builds Upon")),
        superseded_by=_names(get("Superseded by")),
        sources=tuple(sources),
        notes=" ".join(x for x in (get("Note"), get("Certainty Note"), get("Hardware note")) if x),
        warnings=tuple(warnings),
    )


def _positive(value: Decimal | int | None) -> Decimal | None:
    if isinstance(value, Decimal) and value > 0 and not math.isinf(value):
        return value
    return None
