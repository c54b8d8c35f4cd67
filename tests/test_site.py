"""The static site without a browser: structure, escaping, stability, links, validity."""

from __future__ import annotations

import json
import re
from pathlib import Path

import html5lib
import pytest
import rdflib

from hpckg.cli import main
from hpckg.errors import UsageError
from hpckg.namespaces import HK, id_iri
from hpckg.site import build_site, check_links
from hpckg.site.build import MARKER
from hpckg.site.common import SlugMap
from hpckg.site.systempage import script_json
from hpckg.store import Dataset
from test_site_support import HOSTILE_LABEL, HOSTILE_SLUG, ROOT, build_fixture_site, fixture_file


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out, _ = build_fixture_site(tmp_path_factory.mktemp("site"))
    return out


def read(site: Path, rel: str) -> str:
    return (site / rel).read_text(encoding="utf-8")


def test_stable_page_paths(site: Path) -> None:
    for rel in (
        "index.html",
        "charts.html",
        "organisations.html",
        "families.html",
        "systems/seren.html",
        "systems/seren.ttl",
        f"systems/{HOSTILE_SLUG}.html",
        "orgs/nvidia.html",
        "orgs/mellanox.html",
        "families/a100.html",
        "static/site.css",
        "static/site.js",
        MARKER,
    ):
        assert (site / rel).is_file(), rel


def test_every_system_has_a_page_and_turtle(site: Path) -> None:
    ds = Dataset.load([fixture_file(site.parent)], root=ROOT)
    systems = {r["s"].value for r in ds.select("SELECT DISTINCT ?s WHERE { ?s a hk:System }")}
    slugs = SlugMap("system", systems)
    for iri in systems:
        assert (site / "systems" / f"{slugs.get(iri)}.html").is_file()
        assert (site / "systems" / f"{slugs.get(iri)}.ttl").is_file()


def test_seren_page_follows_the_seed(site: Path) -> None:
    page = read(site, "systems/seren.html")
    headings = re.findall(r"<h2[^>]*>([^<]+)</h2>", page)
    assert headings[:6] == [
        "Measured performance",
        "What this machine is made of",
        "The read",
        "Timeline",
        "Change history",
        "Source check",
    ]
    assert "China · operational · ai training" in page
    assert "Operated by" in page and "Shanghai AI Laboratory" in page
    assert "2,288" in page and "NVIDIA A100 SXM4 80GB" in page
    assert 'href="https://arxiv.org/abs/2403.07648"' in page
    assert 'href="seren.ttl"' in page


def test_hostile_values_are_escaped(site: Path) -> None:
    page = read(site, f"systems/{HOSTILE_SLUG}.html")
    index = read(site, "index.html")
    for text in (page, index):
        assert "<script>alert" not in text
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in text
    assert "<img src=x" not in page and "&lt;img src=x onerror=alert(3)&gt;" in page
    assert "<b>bold</b>" not in page and "&lt;b&gt;bold&lt;/b&gt;" in page
    # A javascript: URL from the data is shown as text, never linked.
    assert 'href="javascript:' not in page
    assert 'href="https://example.org/hostile?a=1&amp;b=&lt;2&gt;"' in page
    # Only our own scripts: the JSON-LD block, no other <script>.
    assert page.count("<script") == 1


def test_json_ld_is_safe_and_parses(site: Path) -> None:
    page = read(site, f"systems/{HOSTILE_SLUG}.html")
    match = re.search(r'<script type="application/ld\+json">(.*?)</script>', page, re.S)
    assert match
    payload = match.group(1)
    assert "</" not in payload and "<" not in payload
    data = json.loads(payload)
    assert data["rdfs:label"] == HOSTILE_LABEL
    assert data["@id"] == str(id_iri("system", HOSTILE_SLUG))
    graph = rdflib.Graph().parse(data=payload, format="json-ld")
    assert (rdflib.URIRef(data["@id"]), rdflib.RDF.type, HK.System) in graph


def test_script_json_escapes_closing_tags() -> None:
    text = script_json({"a": "</script><!-- & \u2028"})
    assert "<" not in text and ">" not in text and "&" not in text and "\u2028" not in text
    assert json.loads(text) == {"a": "</script><!-- & \u2028"}


def test_mellanox_interconnect_shows_nvidia_as_current_parent(site: Path) -> None:
    page = read(site, f"systems/{HOSTILE_SLUG}.html")
    row = re.search(r'<tr class="component" data-role="interconnect">.*?</tr>', page, re.S)
    assert row
    assert "Mellanox Technologies" in row.group(0)
    assert re.search(r'class="current-parent"><a href="../orgs/nvidia.html">NVIDIA</a>', row.group(0))


def test_turtle_download_holds_the_record(site: Path) -> None:
    graph = rdflib.Graph().parse(site / "systems" / "seren.ttl", format="turtle")
    seren = id_iri("system", "seren")
    claims = set(graph.subjects(HK.system, seren))
    assert len(claims) >= 4
    assert (seren, rdflib.RDFS.label, None) in graph
    cited = set(graph.objects(None, HK.citation))
    assert cited and all((c, None, None) in graph for c in cited)


def test_org_page_rolls_up_absorbed_companies(site: Path) -> None:
    nvidia = read(site, "orgs/nvidia.html")
    assert "NVDA" in nvidia
    assert "Mellanox Technologies" in nvidia and "2020-04-27" in nvidia
    assert f"systems/{HOSTILE_SLUG}.html" in nvidia  # a Mellanox part, supplied under NVIDIA
    mellanox = read(site, "orgs/mellanox.html")
    assert "Now part of" in mellanox and "NVIDIA" in mellanox


def test_family_page_lists_systems_with_quantity(site: Path) -> None:
    page = read(site, "families/a100.html")
    assert "systems/seren.html" in page and "2,288" in page


def test_charts_have_tables_and_no_data_text(site: Path) -> None:
    page = read(site, "charts.html")
    for slug in ("top500-ticker-share", "accelerator-family-share", "ai-capacity-by-country"):
        svg = read(site, f"charts/{slug}.svg")
        assert svg.startswith("<svg") and "</svg>" in svg
        assert f'src="charts/{slug}.svg"' in page
    capacity = read(site, "charts/ai-capacity-by-country.svg")
    assert "New Zealand" in capacity and "4,321" in capacity
    assert '<th scope="row">New Zealand</th>' in page


def test_charts_say_no_data_without_rankings(tmp_path: Path) -> None:
    empty = tmp_path / "empty.ttl"
    empty.write_text("", encoding="utf-8")
    ds = Dataset.load([empty], root=ROOT, bundled=False)
    build_site(ds, tmp_path / "site")
    for slug in ("top500-ticker-share", "accelerator-family-share", "ai-capacity-by-country"):
        assert "no data" in (tmp_path / "site" / "charts" / f"{slug}.svg").read_text(encoding="utf-8")


def test_index_rows_carry_filter_keys(site: Path) -> None:
    index = read(site, "index.html")
    seren_row = re.search(r'<tr data-country="CN"[^>]*>\s*<td><a href="systems/seren.html">', index)
    assert seren_row and 'data-family="a100"' in seren_row.group(0)
    assert 'data-parent="nvidia"' in seren_row.group(0)
    assert re.search(r"\d+ systems: \d+ with a readable citation that names them, \d+ weakly sourced\.", index)
    for key in ("country", "status", "operator", "parent", "family"):
        assert f'data-filter="{key}"' in index


def test_no_broken_internal_links(site: Path) -> None:
    assert check_links(site) == []


def test_link_checker_finds_broken_links(tmp_path: Path) -> None:
    (tmp_path / "a.html").write_text('<a href="b.html">b</a><a href="a.html#nope">x</a><a href="https://x.org/">x</a>')
    assert check_links(tmp_path) == [("a.html", "a.html#nope"), ("a.html", "b.html")]


def test_html_is_valid(site: Path) -> None:
    """Strict html5lib parse of every page, plus unique ids per page."""
    pages = sorted(site.rglob("*.html"))
    assert len(pages) > 20
    for page in pages:
        text = page.read_text(encoding="utf-8")
        try:
            html5lib.HTMLParser(strict=True, namespaceHTMLElements=False).parse(text)
        except html5lib.html5parser.ParseError as error:
            pytest.fail(f"{page.relative_to(site)}: {error}")
        ids = re.findall(r'\sid="([^"]+)"', text)
        assert len(ids) == len(set(ids)), page


def test_strict_parser_rejects_broken_html() -> None:
    with pytest.raises(html5lib.html5parser.ParseError):
        html5lib.HTMLParser(strict=True).parse("<!DOCTYPE html><p><table></p>")


def test_building_twice_gives_identical_files(tmp_path: Path) -> None:
    first, _ = build_fixture_site(tmp_path / "one")
    second, _ = build_fixture_site(tmp_path / "two")
    files = sorted(p.relative_to(first) for p in first.rglob("*") if p.is_file())
    assert files == sorted(p.relative_to(second) for p in second.rglob("*") if p.is_file())
    for rel in files:
        assert (first / rel).read_bytes() == (second / rel).read_bytes(), rel


def test_failed_build_leaves_previous_site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out, _ = build_fixture_site(tmp_path)
    before = (out / "index.html").read_bytes()

    def boom(*args: object, **kwargs: object) -> None:
        raise RuntimeError("chart failure")

    monkeypatch.setattr("hpckg.site.build.build_charts", boom)
    with pytest.raises(RuntimeError):
        build_site(Dataset.load(root=ROOT), out)
    assert (out / "index.html").read_bytes() == before
    assert [p.name for p in tmp_path.iterdir() if ".building-" in p.name] == []


def test_refuses_to_replace_a_foreign_folder(tmp_path: Path, dataset: Dataset) -> None:
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "notes.txt").write_text("keep me")
    with pytest.raises(UsageError, match="not built by hpckg site"):
        build_site(dataset, folder)
    assert (folder / "notes.txt").read_text() == "keep me"


def test_slug_map_is_unique_and_safe() -> None:
    base = str(id_iri("system", "x"))[: -len("x")]
    slugs = SlugMap("system", [base + "seren", base + "index", "urn:x:Seren", "https://other.example/a b"])
    values = [slug for _, slug in slugs.items()]
    assert len(values) == len(set(values))
    assert slugs.get(base + "seren") == "seren"
    assert all(re.fullmatch(r"[a-z0-9-]+", v) for v in values)
    assert slugs.get(base + "index") != "index"


def test_cli_builds_the_site(tmp_path: Path, runner: object) -> None:
    from click.testing import CliRunner

    assert isinstance(runner, CliRunner)
    result = runner.invoke(main, ["site", str(tmp_path / "out"), "--data", str(fixture_file(tmp_path))])
    assert result.exit_code == 0, result.output
    assert re.search(r"Wrote \d+ pages", result.output)
    assert (tmp_path / "out" / "systems" / f"{HOSTILE_SLUG}.html").is_file()


def test_cli_reports_a_bad_data_file_in_one_line(tmp_path: Path, runner: object) -> None:
    from click.testing import CliRunner

    assert isinstance(runner, CliRunner)
    bad = tmp_path / "bad.ttl"
    bad.write_text("this is not turtle .\n")
    result = runner.invoke(main, ["site", str(tmp_path / "out"), "--data", str(bad)])
    assert result.exit_code == 1
    assert "bad.ttl" in result.output and len(result.output.strip().splitlines()) <= 2
    assert not (tmp_path / "out").exists()


def test_command_has_help(runner: object) -> None:
    from click.testing import CliRunner

    assert isinstance(runner, CliRunner)
    result = runner.invoke(main, ["site", "--help"])
    assert result.exit_code == 0 and "OUT_DIR" in result.output and "--data" in result.output
