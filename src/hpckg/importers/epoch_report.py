"""The Epoch import report: every row accounted for, and what did not resolve."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from .epoch_hardware import HardwareReport
from .epoch_rows import Skipped

__all__ = ["EpochReport"]


@dataclass
class EpochReport:
    source: str
    rows_in: int = 0
    imported: int = 0
    skipped: list[Skipped] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    tiers: Counter[str] = field(default_factory=Counter)
    links: dict[str, tuple[str, str]] = field(default_factory=dict)
    ambiguous: dict[str, list[str]] = field(default_factory=dict)
    earlier_phases: dict[str, str] = field(default_factory=dict)
    upgrade_links: set[tuple[str, str]] = field(default_factory=set)
    minted_orgs: dict[str, str] = field(default_factory=dict)
    unknown_chips: dict[str, int] = field(default_factory=dict)
    hardware: HardwareReport | None = None
    systems: int = 0
    triples: int = 0
    seconds: float = 0.0

    @property
    def accounted(self) -> bool:
        """True when imported + skipped is every row read."""
        return self.imported + len(self.skipped) == self.rows_in

    def summary(self) -> str:
        return (
            f"{self.source}: {self.rows_in} rows, {self.imported} imported, {len(self.skipped)} skipped; "
            f"{self.systems} systems ({len(self.links)} merged with curated/TOP500 systems), "
            f"{len(self.upgrade_links)} upgrade links, {self.triples} triples, {self.seconds:.2f} s"
        )

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "source": self.source,
            "rows_in": self.rows_in,
            "imported": self.imported,
            "skipped": [{"row": s.number, "line": s.line, "name": s.name, "reason": s.reason} for s in self.skipped],
            "all_rows_accounted_for": self.accounted,
            "tiers": dict(sorted(self.tiers.items())),
            "systems": self.systems,
            "triples": self.triples,
            "links": {k: {"system": v[0], "reason": v[1]} for k, v in self.links.items()},
            "ambiguous": self.ambiguous,
            "earlier_phases_kept_separate": self.earlier_phases,
            "upgrade_links": len(self.upgrade_links),
            "minted_organizations": self.minted_orgs,
            "unknown_chips": self.unknown_chips,
            "warnings": self.warnings,
        }
        if self.hardware is not None:
            out["hardware"] = {
                "rows": self.hardware.rows,
                "parts_with_specs": self.hardware.parts,
                "measurements": self.hardware.measurements,
                "not_in_catalogue": self.hardware.unresolved,
                "problems": self.hardware.problems,
            }
        return out

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=2, ensure_ascii=False) + "\n"

    def to_text(self) -> str:
        lines = [self.summary(), ""]
        lines.append(f"Rows: {self.rows_in} in = {self.imported} imported + {len(self.skipped)} skipped")
        for s in self.skipped:
            lines.append(f"  skipped row {s.number} (line {s.line}){' ' + s.name if s.name else ''}: {s.reason}")
        lines.append("Tiers (rows):")
        lines += [f"  {reason}: {n}" for reason, n in sorted(self.tiers.items())]
        lines.append(f"Merged with curated/TOP500 systems: {len(self.links)}")
        lines += [f"  {name} -> {system} ({reason})" for name, (system, reason) in self.links.items()]
        if self.ambiguous:
            lines.append(f"Ambiguous (not merged): {len(self.ambiguous)}")
            lines += [f"  {name}: {', '.join(systems)}" for name, systems in self.ambiguous.items()]
        if self.earlier_phases:
            lines.append("Earlier phases kept as their own systems:")
            lines += [f"  {name} (phase before {system})" for name, system in self.earlier_phases.items()]
        lines.append(f"Organizations minted (not in the curated graph): {len(self.minted_orgs)}")
        lines += [f"  {iri}  {label}" for iri, label in self.minted_orgs.items()]
        lines.append(f"Unknown chip names: {len(self.unknown_chips)}")
        lines += [f"  {name} (x{n})" for name, n in self.unknown_chips.items()]
        if self.hardware is not None:
            h = self.hardware
            lines.append(
                f"Hardware: {h.rows} rows, {h.parts} catalogue parts with {h.measurements} figures; "
                f"{len(h.unresolved)} chips not in the catalogue"
            )
            lines += [f"  not in catalogue: {name}" for name in h.unresolved]
            lines += [f"  problem: {p}" for p in h.problems]
        if self.warnings:
            lines.append(f"Warnings: {len(self.warnings)}")
            lines += [f"  {w}" for w in self.warnings]
        return "\n".join(lines) + "\n"
