"""Turn the raw rows of a list file into checked, unit-normalised entries.

A row whose rank or Rmax is missing or not a number is rejected with its file, row
and column; a bad optional figure (power, HPCG ...) is dropped with a warning and
the rest of the row imports.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any

from .top500_read import ListFile
from .top500_units import METRICS, factor, format_decimal

__all__ = ["Entry", "Problem", "parse_entries"]

_REQUIRED = ("rank", "rmax")
_TEXT_FIELDS = (
    "name",
    "computer",
    "site",
    "manufacturer",
    "country",
    "processor",
    "accelerator",
    "interconnect",
    "interconnect_family",
    "system_model",
    "segment",
    "first_appearance",
)


@dataclass(frozen=True)
class Problem:
    """A rejected row or a dropped value: where it is and why."""

    path: str
    row: int
    column: str
    reason: str

    def __str__(self) -> str:
        return f"{self.path}:{self.row} (column {self.column}): {self.reason}"


@dataclass
class Entry:
    """One ranking row of one list edition, values in normalised units."""

    path: Path
    row: int
    edition: str
    rank: int
    text: dict[str, str]
    figures: dict[str, Decimal]
    system_id: str | None = None
    site_id: str | None = None
    sort_key: tuple[str, int] = field(init=False)

    def __post_init__(self) -> None:
        self.sort_key = (self.edition, self.rank)

    def get(self, name: str) -> str:
        return self.text.get(name, "")


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return " ".join(str(value).split())


def _number(value: Any) -> Decimal | None:
    """A Decimal for a cell, None for an empty cell; ValueError for text."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    if isinstance(value, bool):
        raise ValueError(f"not a number: {value!r}")
    if isinstance(value, (int, float)):
        if isinstance(value, float) and not math.isfinite(value):
            raise ValueError(f"not a finite number: {value!r}")
        # repr gives the shortest text that round-trips, so 93014.594 stays 93014.594.
        return Decimal(repr(value)) if isinstance(value, float) else Decimal(value)
    try:
        number = Decimal(str(value).strip().replace(",", ""))
    except InvalidOperation:
        raise ValueError(f"not a number: {str(value).strip()!r}") from None
    if not number.is_finite():
        raise ValueError(f"not a finite number: {value!r}")
    return number


def _identifier(value: Any) -> str | None:
    text = _text(value)
    if not text:
        return None
    if text.endswith(".0") and text[:-2].isdigit():
        text = text[:-2]
    return text


def _drop_impossible_rpeak(figures: dict[str, Decimal], listing: ListFile, row: int, warnings: list[str]) -> None:
    """Rmax cannot exceed Rpeak; when a row says it does, keep Rmax (the ranking basis)
    and drop Rpeak, so one bad cell does not make the whole graph fail its shapes."""
    rmax, rpeak = figures.get("rmax"), figures.get("rpeak")
    if rmax is None or rpeak is None or rmax <= rpeak:
        return
    del figures["rpeak"]
    column = _header_name(listing, "rpeak")
    message = f"Rpeak {format_decimal(rpeak)} is below Rmax {format_decimal(rmax)}: Rpeak not imported"
    warnings.append(str(Problem(listing.path.name, row, column, message)))


def _header_name(listing: ListFile, fieldname: str) -> str:
    """The column as the file's header spells it, else the field name."""
    return listing.headers.get(fieldname, fieldname)


def parse_entries(listing: ListFile, problems: list[Problem], warnings: list[str]) -> list[Entry]:
    """Checked entries of a list file; rejected rows go to ``problems``."""
    entries: list[Entry] = []
    name = listing.path.name
    for raw in listing.rows:
        values = raw.values
        try:
            rank_value = _number(values.get("rank"))
        except ValueError as error:
            problems.append(Problem(name, raw.number, "Rank", str(error)))
            continue
        if rank_value is None or rank_value != rank_value.to_integral_value() or rank_value < 1:
            problems.append(Problem(name, raw.number, "Rank", "missing or not a positive whole number"))
            continue
        figures: dict[str, Decimal] = {}
        rejected = False
        for fieldname in METRICS:
            if fieldname not in listing.fields:
                continue
            try:
                number = _number(values.get(fieldname))
            except ValueError as error:
                if fieldname in _REQUIRED:
                    problems.append(Problem(name, raw.number, fieldname, str(error)))
                    rejected = True
                    break
                warnings.append(str(Problem(name, raw.number, fieldname, f"{error}; value dropped")))
                continue
            if number is None:
                if fieldname in _REQUIRED:
                    problems.append(Problem(name, raw.number, fieldname, "missing value"))
                    rejected = True
                    break
                continue
            if number < 0:
                warnings.append(str(Problem(name, raw.number, fieldname, f"negative value {number}; dropped")))
                continue
            figures[fieldname] = number * factor(fieldname, listing.fields[fieldname], listing.edition)
        if rejected:
            continue
        _drop_impossible_rpeak(figures, listing, raw.number, warnings)
        text = {f: _text(values.get(f)) for f in _TEXT_FIELDS if _text(values.get(f))}
        entries.append(
            Entry(
                listing.path,
                raw.number,
                listing.edition,
                int(rank_value),
                text,
                figures,
                _identifier(values.get("system_id")),
                _identifier(values.get("site_id")),
            )
        )
    return entries
