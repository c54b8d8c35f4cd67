"""Read one TOP500 list file (XLS, XLSX, CSV, TSV, XML) into normalised rows.

Every header spelling used between 2011 and 2025 maps to one field name
(``"Rmax [TFlop/s]"``, ``"RMax"`` and ``"Rmax"`` are all ``rmax``); a unit stated
in the header is kept so the caller can convert. Unknown columns are warnings.
A file that cannot be read at all raises :class:`~hpckg.errors.DataError` naming
the file, so nothing is imported from it. XML lists are read by :mod:`.top500_xml`
into the same structure.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import DataError

__all__ = ["HEADER_ALIASES", "ListFile", "Row", "edition_from_name", "header_field", "read_list"]

# Normalised header text (lower case, units removed, punctuation to spaces) -> field.
HEADER_ALIASES: dict[str, str] = {
    "rank": "rank",
    "previous rank": "previous_rank",
    "first appearance": "first_appearance",
    "first rank": "first_rank",
    "name": "name",
    "system name": "name",
    "computer": "computer",
    "system": "computer",
    "site": "site",
    "installation site": "site",
    "manufacturer": "manufacturer",
    "vendor": "manufacturer",
    "country": "country",
    "year": "year",
    "segment": "segment",
    "application area": "application_area",
    "cores": "cores",
    "total cores": "cores",
    "accelerator cores": "accelerator_cores",
    "accelerator co processor cores": "accelerator_cores",
    "rmax": "rmax",
    "rpeak": "rpeak",
    "effeciency": "efficiency",
    "efficiency": "efficiency",
    "nmax": "nmax",
    "nhalf": "nhalf",
    "hpcg": "hpcg",
    "power": "power",
    "power source": "power_source",
    "mflops watt": "energy_efficiency",
    "power effeciency": "energy_efficiency",
    "power efficiency": "energy_efficiency",
    "energy efficiency": "energy_efficiency",
    "memory": "memory",
    "architecture": "architecture",
    "processor": "processor",
    "processor technology": "processor_technology",
    "processor speed": "processor_speed",
    "proc frequency": "processor_speed",
    "processor family": "processor_family",
    "processor cores": "cores_per_socket",
    "cores per socket": "cores_per_socket",
    "processor generation": "processor_generation",
    "operating system": "operating_system",
    "os family": "os_family",
    "accelerator": "accelerator",
    "accelerator co processor": "accelerator",
    "system model": "system_model",
    "system family": "system_family",
    "interconnect family": "interconnect_family",
    "interconnect": "interconnect",
    "region": "region",
    "continent": "continent",
    "site id": "site_id",
    "system id": "system_id",
}
_UNIT_IN_HEADER = re.compile(r"[\[(]([^\])]*)[\])]")
_EDITION_IN_NAME = re.compile(r"(?<!\d)((?:19|20)\d{2})[-_]?(06|11)(?!\d)")


@dataclass
class Row:
    """One data row: ``number`` is the 1-based row of the sheet (the header is row 1),
    or for XML the line of the row's ``<top500:site>`` start tag."""

    number: int
    values: dict[str, Any]


@dataclass
class ListFile:
    """A list file read into rows, with the header fields it had and any warnings."""

    path: Path
    edition: str  # "YYYY-MM"
    fields: dict[str, str | None]  # field -> unit stated in its header, if any
    rows: list[Row] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    headers: dict[str, str] = field(default_factory=dict)  # field -> header text as the file writes it


def header_field(text: str) -> tuple[str | None, str | None]:
    """``"Rmax [TFlop/s]"`` -> ``("rmax", "TFlop/s")``.

    ``"Mflops/Watt"`` -> ``("energy_efficiency", "Mflops/Watt")``.
    """
    raw = str(text).strip()
    unit_match = _UNIT_IN_HEADER.search(raw)
    unit = unit_match.group(1).strip() if unit_match else None
    key = " ".join(re.sub(r"[^a-z0-9]+", " ", _UNIT_IN_HEADER.sub(" ", raw).lower()).split())
    name = HEADER_ALIASES.get(key)
    if name == "energy_efficiency" and unit is None and "flops" in raw.lower():
        unit = raw  # "Mflops/Watt" carries its unit in the name itself
    return name, unit


def edition_from_name(path: Path, sheet_names: list[str] | None = None) -> str:
    """The list edition "YYYY-MM" from the file name (``TOP500_202406.xlsx``), else from
    a sheet named by the list number (the 63rd list is 2024-06)."""
    match = _EDITION_IN_NAME.search(path.stem)
    if match:
        return f"{match.group(1)}-{match.group(2)}"
    for sheet in sheet_names or []:
        if sheet.strip().isdigit():
            number = int(sheet.strip())
            year = 1993 + (number - 1) // 2
            return f"{year}-{'06' if number % 2 else '11'}"
    raise DataError(
        "cannot tell the list edition: name the file like TOP500_YYYYMM.xlsx (e.g. TOP500_202406.csv)", path
    )


def _read_workbook(path: Path) -> tuple[list[list[Any]], list[str]]:
    from python_calamine import CalamineWorkbook

    try:
        book = CalamineWorkbook.from_path(str(path))
        names = list(book.sheet_names)
        if not names:
            raise DataError("the workbook has no sheets", path)
        return book.get_sheet_by_index(0).to_python(skip_empty_area=False), names
    except DataError:
        raise
    except Exception as error:  # calamine raises its own error types for corrupt files
        raise DataError(f"cannot read spreadsheet ({type(error).__name__}: {error})", path) from None


def _read_text(path: Path, delimiter: str | None) -> list[list[Any]]:
    try:
        text = path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError:
        text = path.read_text(encoding="latin-1")
    except OSError as error:
        raise DataError(f"cannot read file: {error.strerror}", path) from None
    if delimiter is None:
        first = text.split("\n", 1)[0]
        delimiter = "\t" if first.count("\t") > first.count(",") else ","
    try:
        return [list(r) for r in csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)]
    except csv.Error as error:
        raise DataError(f"malformed CSV: {error}", path) from None


def read_list(path: str | Path) -> ListFile:
    """Read a list file; raise DataError if it is not a readable TOP500 list."""
    path = Path(path)
    if not path.is_file():
        raise DataError("no such file", path)
    suffix = path.suffix.lower()
    if suffix == ".xml":
        from .top500_xml import read_xml  # imported here: it builds on this module's ListFile

        return read_xml(path)
    sheets: list[str] = []
    if suffix in (".xls", ".xlsx", ".xlsm", ".xlsb", ".ods"):
        table, sheets = _read_workbook(path)
    elif suffix in (".csv", ".tsv", ".txt", ".tab"):
        table = _read_text(path, "\t" if suffix in (".tsv", ".tab") else None)
    else:
        raise DataError(f"unsupported file type {suffix!r} (use .xls, .xlsx, .csv, .tsv or .xml)", path)
    edition = edition_from_name(path, sheets)
    header_at = next((i for i, r in enumerate(table[:10]) if any(str(c).strip().lower() == "rank" for c in r)), None)
    if header_at is None:
        raise DataError(
            "no header row with a 'Rank' column in the first 10 rows (truncated or not a TOP500 list?)", path
        )
    listing = ListFile(path, edition, {})
    columns: list[str | None] = []
    for index, cell in enumerate(table[header_at]):
        name, unit = header_field(str(cell))
        if name is None or name in listing.fields:
            if str(cell).strip():
                reason = "duplicate" if name else "unknown"
                listing.warnings.append(
                    f"{path.name}: {reason} column {str(cell).strip()!r} (column {index + 1}) ignored"
                )
            columns.append(None)
            continue
        listing.fields[name] = unit
        listing.headers[name] = str(cell).strip()
        columns.append(name)
    for required in ("rank", "rmax"):
        if required not in listing.fields:
            raise DataError(f"no {required!r} column in the header", path, header_at + 1)
    for offset, raw in enumerate(table[header_at + 1 :], start=header_at + 2):
        if not any(str(c).strip() for c in raw):
            continue
        values = {
            name: (cell.strip() if isinstance(cell, str) else cell)
            for name, cell in zip(columns, raw, strict=False)
            if name is not None
        }
        listing.rows.append(Row(offset, values))
    if not listing.rows:
        raise DataError("no data rows (truncated file?)", path)
    return listing
