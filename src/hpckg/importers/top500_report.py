"""The import report: what was read, made, merged, left unresolved and rejected."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import Any

from .top500_entries import Problem

__all__ = ["ImportReport"]


@dataclass
class ImportReport:
    """Counts and lists of one TOP500 import, as text or JSON."""

    files: dict[str, dict[str, Any]] = field(default_factory=dict)  # name -> edition, rows read, imported
    rows_read: int = 0
    rows_imported: int = 0
    systems: int = 0
    systems_created: int = 0
    systems_merged_with_curated: int = 0
    systems_linked_to_system_id: int = 0
    triples: int = 0
    claims: int = 0
    rejected: list[Problem] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    unresolved: dict[str, dict[str, int]] = field(default_factory=dict)
    skipped_names: dict[str, int] = field(default_factory=dict)
    unknown_countries: dict[str, int] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["rejected"] = [asdict(p) | {"message": str(p)} for p in self.rejected]
        return data

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=2, sort_keys=True, ensure_ascii=False) + "\n"

    def summary(self) -> str:
        """A few lines for the terminal."""
        unresolved = sum(len(v) for v in self.unresolved.values())
        return (
            f"{len(self.files)} list file(s), {self.rows_read} rows read, {self.rows_imported} imported, "
            f"{len(self.rejected)} rejected\n"
            f"{self.systems} systems: {self.systems_created} created, {self.systems_merged_with_curated} merged "
            f"with curated systems, {self.systems_linked_to_system_id} linked to a later System ID\n"
            f"{self.claims} claims, {self.triples} triples; {unresolved} distinct names unresolved, "
            f"{len(self.warnings)} warnings"
        )

    def to_text(self) -> str:
        lines = ["TOP500 import report", "", self.summary(), "", "Files:"]
        for name, info in sorted(self.files.items()):
            lines.append(
                f"  {name}: edition {info['edition']}, {info['rows_read']} rows read, {info['rows_imported']} imported"
            )
        if self.rejected:
            lines += ["", "Rejected rows:"] + [f"  {p}" for p in self.rejected]
        if self.warnings:
            lines += ["", "Warnings:"] + [f"  {w}" for w in self.warnings]
        for kind, names in sorted(self.unresolved.items()):
            lines += ["", f"Unresolved {kind} names (count):"]
            lines += [f"  {n} ({c})" for n, c in sorted(names.items())]
        if self.skipped_names:
            lines += ["", "Names that are not organizations (skipped):"]
            lines += [f"  {n} ({c})" for n, c in sorted(self.skipped_names.items())]
        if self.unknown_countries:
            lines += ["", "Unknown country names:"]
            lines += [f"  {n} ({c})" for n, c in sorted(self.unknown_countries.items())]
        return "\n".join(lines) + "\n"
