"""The seed page as plain text: what ``hpckg show`` prints."""

from __future__ import annotations

from .profile import ComponentRow, SystemProfile, format_count

__all__ = ["COMPONENTS_NOTE", "PERFORMANCE_NOTE", "component_cells", "profile_text"]

PERFORMANCE_NOTE = (
    "Figures are as last publicly reported for the configuration described below, not a live "
    "measurement. Where a system was upgraded in place, the post-upgrade configuration is shown "
    "and the earlier one appears in the timeline."
)
COMPONENTS_NOTE = (
    "One row per supplier relationship. \u201cSupplier at build\u201d is the company that shipped the "
    "part at the time; where that company has since been acquired, the parent it rolls up to "
    "today is shown beside it."
)
SOURCE_CHECK_NOTE = (
    "We fetched this system's own citations and recorded whether each page actually mentions it. "
    "This is a corroboration signal, not a fact check."
)


def component_cells(row: ComponentRow) -> dict[str, str]:
    """The cells of one components-table row, as the seed prints them."""
    part = row.part_label or "-"
    if row.description:
        part = f"{part} \u2014 {row.description}"
    supplier = row.supplier_label or "-"
    return {
        "Role": row.role.capitalize() if row.role.islower() else row.role,
        "Part": part,
        "Supplier at build": supplier,
        "Current parent": row.parent_label or supplier,
        "Quantity": format_count(row.quantity) if row.quantity is not None else "-",
        "Confidence": row.tier.capitalize(),
        "Source": ", ".join(s.display for s in row.sources) or "-",
    }


def _table(headers: list[str], rows: list[list[str]]) -> list[str]:
    clean = [[cell.replace("|", "\\|").replace("\n", " ") for cell in row] for row in rows]
    lines = ["| " + " | ".join(headers) + " |", "|" + "|".join("---" for _ in headers) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in clean]
    return lines


def profile_text(p: SystemProfile) -> str:
    out = [p.label, p.title_line]
    if p.aliases:
        out.append("Also known as " + ", ".join(p.aliases))
    out.append("Operated by " + (", ".join(label for label, _ in p.operators) or "-") + ".")
    out += ["", "Measured performance"]
    for key, value in p.performance.display().items():
        out.append(f"- {key}: {value}")
    note = PERFORMANCE_NOTE
    if p.performance.as_of:
        note += f" As of {p.performance.as_of}" + (f" ({p.performance.edition})." if p.performance.edition else ".")
    out.append(note)
    out += ["", "What this machine is made of", COMPONENTS_NOTE]
    headers = ["Role", "Part", "Supplier at build", "Current parent", "Quantity", "Confidence", "Source"]
    cells = [component_cells(c) for c in p.components]
    out += _table(headers, [[c[h] for h in headers] for c in cells]) if cells else ["(no components recorded)"]
    out += ["", "The read", p.read or "-"]
    out += ["", "Timeline"]
    out += [
        f"- {t.date} {t.label}" + (f" ({', '.join(s.display for s in t.sources)})" if t.sources else "")
        for t in p.timeline
    ] or ["-"]
    out += ["", "Change history"]
    out += [f"- {date} {text}" for date, text in p.changes] or ["-"]
    out += ["", "Source check", SOURCE_CHECK_NOTE]
    if p.source_checks:
        rows = [[c.source, c.result, c.found or "-"] for c in p.source_checks]
        out += _table(["Cited source", "Result", "Found on the page"], rows)
        dates = sorted({str(c.checked) for c in p.source_checks if c.checked})
        if dates:
            out.append(f"Checked {dates[-1]} by hpckg verify. Re-run it and the table changes with the web.")
    else:
        out.append("Not checked yet: run `hpckg verify --system " + p.slug + "`.")
    out += ["", "Sources"]
    out += [f"- {s.title}" + (f" <{s.url}>" if s.url else " (no URL)") for s in p.citations] or ["-"]
    return "\n".join(out) + "\n"
