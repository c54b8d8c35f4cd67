"""The three charts of the site, from the graph: data first, then the SVG and its table.

- TOP500 Rmax share by the current parent's ticker of each system's integrator,
  per list edition (a system's Rmax in an edition is its Rmax measurement that
  carries that ``hk:listEdition``);
- accelerator family share of the systems in each list edition;
- AI-cluster capacity (H100 equivalents) by country, operational clusters only.

With no ranking or cluster data the charts say "no data" instead of drawing.
"""

from __future__ import annotations

from collections import defaultdict
from typing import TYPE_CHECKING

from ..countries import country_name
from .charts import Chart, horizontal_bars, no_data, stacked_columns
from .common import num, text

if TYPE_CHECKING:
    from ..store import Dataset
    from .gather import Catalogue

__all__ = ["build_charts"]

TOP_SERIES = 9
OTHER = "Other"


def _editions(ds: Dataset) -> dict[str, dict[str, float]]:
    """Edition key -> system IRI -> Rmax in TFlop/s (summed if a system has two rows)."""
    labels: dict[str, str] = {}
    for r in ds.select(
        """SELECT ?le ?l ?pub WHERE { ?le a hk:ListEdition .
             OPTIONAL { ?le rdfs:label ?l } OPTIONAL { ?le hk:publishedOn ?pub } }"""
    ):
        pub = text(r.get("pub"))
        labels[r["le"].value] = pub[:7] if pub else text(r.get("l"))
    rows = ds.select(
        """SELECT ?le ?s ?v ?scale ?d ?name WHERE {
             ?m a hk:Measurement ; hk:metric hk:Rmax ; hk:listEdition ?le ; hk:system ?s ; hk:value ?v .
             OPTIONAL { ?m hk:unit/hk:scale ?scale } OPTIONAL { ?m hk:asOf ?d }
             OPTIONAL { ?le hk:rankingName ?name } }"""
    )
    out: dict[str, dict[str, float]] = defaultdict(dict)
    seen: set[tuple[str, str, str]] = set()
    for r in rows:
        name = text(r.get("name"))
        if name and "top500" not in name.lower():
            continue
        edition = r["le"].value
        key = labels.get(edition) or text(r.get("d"))[:7] or edition.rsplit("/", 1)[-1]
        value = num(r["v"])
        if value is None or (edition, r["s"].value, r["v"].value) in seen:
            continue  # the same measurement stated in two files counts once
        seen.add((edition, r["s"].value, r["v"].value))
        scale = num(r.get("scale")) or 1e12
        system = r["s"].value
        out[key][system] = out[key].get(system, 0.0) + value * scale / 1e12
    return dict(out)


def _top(totals: dict[str, float], limit: int = TOP_SERIES) -> list[str]:
    ranked = sorted(totals, key=lambda k: (-totals[k], k))
    return ranked[:limit]


def _series(
    per_category: dict[str, dict[str, float]], categories: list[str]
) -> tuple[list[str], list[tuple[str, list[float]]]]:
    """Keep the biggest names overall and fold the rest into "Other"."""
    totals: dict[str, float] = defaultdict(float)
    for shares in per_category.values():
        for name, value in shares.items():
            totals[name] += value
    keep = _top(totals)
    names = keep + ([OTHER] if any(n not in keep for n in totals) else [])
    series = []
    for name in names:
        values = []
        for category in categories:
            shares = per_category.get(category, {})
            if name == OTHER:
                values.append(sum(v for n, v in shares.items() if n not in keep))
            else:
                values.append(shares.get(name, 0.0))
        series.append((name, values))
    return names, series


def _share_rows(categories: list[str], series: list[tuple[str, list[float]]]) -> list[list[str]]:
    rows = []
    for i, category in enumerate(categories):
        total = sum(values[i] for _, values in series)
        rows.append([category] + [f"{100 * values[i] / total:.1f}%" if total else "-" for _, values in series])
    return rows


def ticker_share(ds: Dataset, cat: Catalogue) -> Chart:
    title = "TOP500 Rmax share by current parent ticker"
    editions = _editions(ds)
    integrators: dict[str, list[str]] = defaultdict(list)
    for row in cat.supplies:
        if row.role.lower() == "integrator" and row.parent:
            name = cat.orgs[row.parent.iri].ticker if row.parent.iri in cat.orgs else ""
            integrators[row.system.iri].append(name or f"{row.parent.label} (unlisted)")
    per_edition: dict[str, dict[str, float]] = {}
    for edition, systems in editions.items():
        shares: dict[str, float] = defaultdict(float)
        for system, rmax in systems.items():
            names = sorted(set(integrators.get(system, []))) or ["unknown integrator"]
            for name in names:  # a joint build splits its Rmax evenly between the makers
                shares[name] += rmax / len(names)
        per_edition[edition] = dict(shares)
    categories = sorted(per_edition)
    desc = (
        "Share of the summed Rmax of each TOP500 list edition held by the companies that own the "
        f"system integrators today (roll-up as of {cat.as_of.isoformat()})."
    )
    if not categories:
        return Chart("top500-ticker-share", title, desc, no_data(title, "no data: no TOP500 list editions loaded"))
    names, series = _series(per_edition, categories)
    return Chart(
        "top500-ticker-share",
        title,
        desc,
        stacked_columns(title, categories, series, desc=desc),
        ["List edition", *names],
        _share_rows(categories, series),
        'A joint build ("IBM / NVIDIA / Mellanox") splits its Rmax evenly between its integrators.',
    )


def family_share(ds: Dataset, cat: Catalogue) -> Chart:
    title = "Accelerator family share of TOP500 systems"
    editions = _editions(ds)
    families: dict[str, list[str]] = defaultdict(list)
    for row in cat.supplies:
        if row.role.lower() == "accelerator":
            families[row.system.iri].append(row.family.label if row.family else "unknown family")
    per_edition: dict[str, dict[str, float]] = {}
    for edition, systems in editions.items():
        shares: dict[str, float] = defaultdict(float)
        for system in systems:
            names = sorted(set(families.get(system, []))) or ["none (CPU only)"]
            for name in names:
                shares[name] += 1 / len(names)
        per_edition[edition] = dict(shares)
    categories = sorted(per_edition)
    desc = "Share of the systems in each TOP500 list edition by the family of their accelerator."
    if not categories:
        return Chart("accelerator-family-share", title, desc, no_data(title, "no data: no TOP500 list editions loaded"))
    names, series = _series(per_edition, categories)
    return Chart(
        "accelerator-family-share",
        title,
        desc,
        stacked_columns(title, categories, series, desc=desc),
        ["List edition", *names],
        _share_rows(categories, series),
        "Systems count once per edition; a system with two accelerator families counts half to each.",
    )


def capacity_by_country(ds: Dataset, cat: Catalogue) -> Chart:
    title = "AI-cluster capacity by country (H100 equivalents)"
    status = {s.iri: s.status for s in cat.systems}
    country = {s.iri: s.country for s in cat.systems}
    latest: dict[str, tuple[str, float]] = {}
    for r in ds.select(
        """SELECT ?s ?v ?d WHERE { ?m a hk:Measurement ; hk:system ?s ; hk:metric hk:H100Equivalents ;
             hk:value ?v . OPTIONAL { ?m hk:asOf ?d } FILTER NOT EXISTS { ?m hk:targetYear ?y } }"""
    ):
        value = num(r["v"])
        if value is None:
            continue
        candidate = (text(r.get("d")), value)
        system = r["s"].value
        if system not in latest or candidate > latest[system]:
            latest[system] = candidate
    totals: dict[str, float] = defaultdict(float)
    counts: dict[str, int] = defaultdict(int)
    for system, (_, value) in latest.items():
        if status.get(system, "") not in ("", "operational"):
            continue
        code = country.get(system)
        name = country_name(code) if code else "unknown"
        totals[name] += value
        counts[name] += 1
    desc = (
        "Summed H100-equivalent capacity of operational AI clusters (or clusters of unknown status), "
        "by country, from the latest figure of each cluster."
    )
    if not totals:
        return Chart("ai-capacity-by-country", title, desc, no_data(title, "no data: no AI-cluster capacity loaded"))
    ranked = sorted(totals, key=lambda k: (-totals[k], k))
    shown = [(name, totals[name]) for name in ranked[:20]]
    rows = [[name, f"{totals[name]:,.0f}", str(counts[name])] for name in ranked]
    return Chart(
        "ai-capacity-by-country",
        title,
        desc,
        horizontal_bars(title, shown, "H100e", desc=desc),
        ["Country", "H100 equivalents", "Clusters"],
        rows,
        "The chart shows the 20 largest countries; the table lists all of them.",
    )


def build_charts(ds: Dataset, cat: Catalogue) -> list[Chart]:
    """Every chart of the site, in page order."""
    return [ticker_share(ds, cat), family_share(ds, cat), capacity_by_country(ds, cat)]
