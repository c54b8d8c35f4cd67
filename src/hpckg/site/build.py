"""Build the static site: gather the data, render the templates, swap the folder in.

The whole site is written into a fresh temporary folder next to ``OUT_DIR`` and
only renamed into place once every page rendered, so a failed build leaves the
previous site as it was. Everything is sorted and nothing carries a build time,
so building twice from the same graph gives byte-identical files.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import shutil
import tempfile
from collections import Counter
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from jinja2 import Environment, PackageLoader, StrictUndefined
from markupsafe import Markup

from ..errors import DataError, UsageError
from ..verify.report import coverage
from .chartdata import build_charts
from .gather import Catalogue, Ref, SystemRow, gather
from .profiles import all_profiles, all_turtle
from .systempage import json_ld, script_json

if TYPE_CHECKING:
    from ..store import Dataset

__all__ = ["MARKER", "SiteSummary", "build_site", "environment"]

# A site folder carries this file, so ``hpckg site`` never replaces a folder it did not build.
MARKER = ".hpckg-site"
STATIC_FILES = ("site.css", "site.js")


@dataclass(frozen=True)
class SiteSummary:
    """What a build wrote."""

    out_dir: Path
    pages: int
    files: int
    systems: int
    organisations: int
    families: int


def http_url(value: object) -> str:
    """The value when it is an http(s) URL, else ``""``: escaping alone would still let a
    ``javascript:`` URL from the data run when clicked."""
    text = str(value or "")
    return text if text.lower().startswith(("http://", "https://")) else ""


def environment() -> Environment:
    """The Jinja2 environment: autoescape always on, undefined names are errors."""
    env = Environment(
        loader=PackageLoader("hpckg", "templates"),
        autoescape=True,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters["http_url"] = http_url
    return env


def coverage_line(ds: Dataset) -> str:
    c = coverage(ds)
    return f"{c.systems:,} systems: {c.named:,} with a readable citation that names them, {c.weak:,} weakly sourced."


class _Writer:
    """Writes files under one folder and counts them."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.files = 0
        self.pages = 0

    def write(self, rel: str, data: str | bytes) -> None:
        path = self.root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
        self.files += 1
        if rel.endswith(".html"):
            self.pages += 1


def _keys(refs: list[Any], slugs: Any) -> str:
    return " ".join(sorted({slugs.get(r.iri) or "" for r in refs} - {""}))


def _index_rows(cat: Catalogue) -> list[dict[str, Any]]:
    rows = []
    for s in cat.systems:
        rows.append(
            {
                **vars(s),
                "status_key": s.status.replace(" ", "-"),
                "operator_keys": _keys(s.operators, cat.org_slugs),
                "parent_keys": _keys(s.parents, cat.org_slugs),
                "family_keys": _keys(s.families, cat.family_slugs),
            }
        )
    return rows


def _options(systems: list[SystemRow], cat: Catalogue) -> list[dict[str, Any]]:
    """The choices of each index filter, with how many systems each one keeps."""
    country: Counter[tuple[str, str]] = Counter()
    status: Counter[tuple[str, str]] = Counter()
    operator: Counter[tuple[str, str]] = Counter()
    parent: Counter[tuple[str, str]] = Counter()
    family: Counter[tuple[str, str]] = Counter()
    for s in systems:
        if s.country:
            country[(s.country, s.country_name or s.country)] += 1
        if s.status:
            status[(s.status.replace(" ", "-"), s.status)] += 1
        for refs, counter, slugs in (
            (s.operators, operator, cat.org_slugs),
            (s.parents, parent, cat.org_slugs),
            (s.families, family, cat.family_slugs),
        ):
            for r in set(refs):
                slug = slugs.get(r.iri)
                if slug:
                    counter[(slug, r.label)] += 1

    def opts(counter: Counter[tuple[str, str]]) -> list[tuple[str, str, int]]:
        return sorted(((k, label, n) for (k, label), n in counter.items()), key=lambda o: (o[1].casefold(), o[0]))

    return [
        {"key": "country", "label": "Country", "options": opts(country)},
        {"key": "status", "label": "Status", "options": opts(status)},
        {"key": "operator", "label": "Operator", "options": opts(operator)},
        {"key": "parent", "label": "Parent company", "options": opts(parent)},
        {"key": "family", "label": "Accelerator family", "options": opts(family)},
    ]


def _fill_parents(profile: Any, cat: Catalogue, parents: dict[str, Ref] | None = None) -> Any:
    """Give each component its current parent (IRI and label) from the catalogue's roll-up,
    which rolled every supplier up on the same date with the same library."""
    if parents is None:
        parents = {r.supplier.iri: r.parent for r in cat.supplies if r.supplier and r.parent}
    rows = []
    for c in profile.components:
        parent = parents.get(c.supplier_iri) if c.supplier_iri else None
        if parent is not None and parent.iri != c.supplier_iri:
            c = dataclasses.replace(c, parent_iri=parent.iri, parent_label=parent.label)
        rows.append(c)
    profile.components = rows
    return profile


def render_into(ds: Dataset, folder: Path, as_of: dt.date | None = None) -> SiteSummary:
    """Render the whole site into ``folder`` (which should be empty)."""
    env = environment()
    cat = gather(ds, as_of)
    day = cat.as_of
    out = _Writer(folder)
    pages: dict[str, str] = {}
    for iri, slug in cat.system_slugs.items():
        pages[iri] = f"systems/{slug}.html"
    for iri, slug in cat.org_slugs.items():
        pages[iri] = f"orgs/{slug}.html"
    for iri, slug in cat.family_slugs.items():
        pages[iri] = f"families/{slug}.html"
    cover = coverage_line(ds)

    for name in STATIC_FILES:
        out.write(f"static/{name}", resources.files("hpckg").joinpath("static", name).read_bytes())
    out.write(MARKER, "hpckg static site; `hpckg site` replaces this folder as a whole.\n")

    out.write(
        "index.html",
        env.get_template("index.html").render(
            title="Systems",
            root="",
            crumbs=[],
            pages=pages,
            coverage_line=cover,
            systems=_index_rows(cat),
            filters=_options(cat.systems, cat),
        ),
    )

    system_tpl = env.get_template("system.html")
    crumbs = [("Systems", "index.html")]
    iris = [iri for iri, _ in cat.system_slugs.items()]
    profiles = all_profiles(ds, day, iris)
    turtle = all_turtle(ds, iris)
    parents = {r.supplier.iri: r.parent for r in cat.supplies if r.supplier and r.parent}
    for iri, slug in cat.system_slugs.items():
        if iri not in profiles:
            raise DataError(f"system {iri} has no rdfs:label, so it cannot have a page")
        profile = _fill_parents(profiles[iri], cat, parents)
        checked = max((r.checked for r in profile.source_checks if getattr(r, "checked", None)), default=None)
        out.write(
            f"systems/{slug}.html",
            system_tpl.render(
                title=profile.label,
                root="../",
                crumbs=crumbs,
                pages=pages,
                p=profile,
                slug=slug,
                perf=profile.performance.display(),
                coverage_line=cover,
                # script_json leaves no < > & in the text, so it is safe inside <script>.
                jsonld=Markup(script_json(json_ld(profile))),
                checked=checked.isoformat() if checked else "",
            ),
        )
        out.write(f"systems/{slug}.ttl", turtle[iri])

    org_tpl = env.get_template("org.html")
    for iri, slug in cat.org_slugs.items():
        o = cat.orgs[iri]
        out.write(
            f"orgs/{slug}.html",
            org_tpl.render(
                title=o.label, root="../", crumbs=[("Organisations", "organisations.html")], pages=pages, o=o
            ),
        )
    family_tpl = env.get_template("family.html")
    for iri, slug in cat.family_slugs.items():
        f = cat.families[iri]
        total = sum(r.quantity or 0 for r in f.uses)
        out.write(
            f"families/{slug}.html",
            family_tpl.render(
                title=f.label,
                root="../",
                crumbs=[("Part families", "families.html")],
                pages=pages,
                f=f,
                total=total,
            ),
        )

    list_tpl = env.get_template("list.html")
    orgs = sorted(cat.orgs.values(), key=lambda o: (o.label.casefold(), o.iri))
    out.write(
        "organisations.html",
        list_tpl.render(
            title="Organisations",
            root="",
            crumbs=[],
            pages=pages,
            columns=[
                ("Organisation", "text"),
                ("Ticker", "text"),
                ("Now part of", "text"),
                ("Systems operated", "number"),
                ("Supply relationships", "number"),
            ],
            items=[
                (
                    Ref(o.label, o.iri),
                    [o.ticker or "-", o.parent.label if o.parent else "-", len(o.operates), len(o.supplied)],
                )
                for o in orgs
            ],
        ),
    )
    fams = sorted(cat.families.values(), key=lambda f: (f.label.casefold(), f.iri))
    out.write(
        "families.html",
        list_tpl.render(
            title="Part families",
            root="",
            crumbs=[],
            pages=pages,
            columns=[("Family", "text"), ("Models", "number"), ("Systems using it", "number")],
            items=[(Ref(f.label, f.iri), [len(f.parts), len({u.system for u in f.uses})]) for f in fams],
        ),
    )

    charts = build_charts(ds, cat)
    for chart in charts:
        out.write(f"charts/{chart.slug}.svg", chart.svg)
    out.write(
        "charts.html",
        env.get_template("charts.html").render(title="Charts", root="", crumbs=[], pages=pages, charts=charts),
    )

    return SiteSummary(folder, out.pages, out.files, len(cat.systems), len(cat.orgs), len(cat.families))


def _check_target(out_dir: Path) -> None:
    if out_dir.exists():
        if not out_dir.is_dir():
            raise UsageError(f"{out_dir} exists and is not a folder")
        if any(out_dir.iterdir()) and not (out_dir / MARKER).is_file():
            raise UsageError(
                f"{out_dir} is not empty and was not built by hpckg site; "
                "choose an empty or new folder (the build replaces the folder as a whole)"
            )


def build_site(ds: Dataset, out_dir: str | Path, as_of: dt.date | None = None) -> SiteSummary:
    """Build the site into ``out_dir``, replacing a previous build only when this one succeeds."""
    target = Path(out_dir).absolute()
    _check_target(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{target.name}.building-", dir=target.parent))
    try:
        summary = render_into(ds, staging, as_of)
        staging.chmod(0o755)
        old = None
        if target.exists():
            old = Path(tempfile.mkdtemp(prefix=f".{target.name}.old-", dir=target.parent))
            old.rmdir()
            target.rename(old)
        staging.rename(target)
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return SiteSummary(target, summary.pages, summary.files, summary.systems, summary.organisations, summary.families)
