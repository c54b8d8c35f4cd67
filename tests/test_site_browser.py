"""The built site in a real headless Chromium: what a reader sees, and that filtering works.

Two drivers: playwright (with the system's Chromium, never a downloaded one) for
interaction, and Chromium's own ``--headless --dump-dom`` for a bookmarked filter.
Without /usr/bin/chromium these tests skip, except under CI=true where they fail.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import html5lib
import pytest

from test_site_support import HOSTILE_LABEL, HOSTILE_SLUG, build_fixture_site, serve

pytestmark = pytest.mark.browser

CHROMIUM = os.environ.get("HPCKG_CHROMIUM", "/usr/bin/chromium")
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SECTIONS = [
    "Measured performance",
    "What this machine is made of",
    "The read",
    "Timeline",
    "Change history",
    "Source check",
]


def _need_chromium() -> str:
    if Path(CHROMIUM).is_file() and os.access(CHROMIUM, os.X_OK):
        return CHROMIUM
    message = f"{CHROMIUM} is absent: install Debian's chromium package to run the browser tests"
    if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
        pytest.fail(message)
    pytest.skip(message)


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    _need_chromium()
    site, _ = build_fixture_site(tmp_path_factory.mktemp("browser"))
    with serve(site) as url:
        yield url


@pytest.fixture(scope="module")
def browser(base_url: str) -> Iterator[Any]:
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        instance = p.chromium.launch(executable_path=_need_chromium(), args=FLAGS[1:])
        yield instance
        instance.close()


@pytest.fixture()
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context()
    tab = context.new_page()
    tab.dialogs = []  # any alert() fired by injected markup lands here
    tab.on("dialog", lambda d: (tab.dialogs.append(d.message), d.dismiss()))
    yield tab
    context.close()


def visible_rows(page: Any) -> list[Any]:
    return [r for r in page.locator("#systems tbody tr").all() if r.is_visible()]


def test_index_shows_coverage_and_all_systems(page: Any, base_url: str) -> None:
    page.goto(base_url + "index.html")
    coverage = page.locator("#coverage").inner_text()
    match = re.fullmatch(
        r"([\d,]+) systems: ([\d,]+) with a readable citation that names them, ([\d,]+) weakly sourced\.",
        coverage,
    )
    assert match, coverage
    total = int(match.group(1).replace(",", ""))
    assert len(visible_rows(page)) == total
    assert page.locator("#filters").is_visible()  # the script revealed the controls
    assert page.get_by_role("link", name="Seren (Shanghai AI Lab)").is_visible()


def test_filtering_by_country_and_family_in_the_browser(page: Any, base_url: str) -> None:
    page.goto(base_url + "index.html")
    total = len(visible_rows(page))
    page.select_option("#f-country", "CN")
    rows = visible_rows(page)
    assert 0 < len(rows) < total
    assert all(r.locator("td").nth(1).inner_text() == "China" for r in rows)
    assert page.locator("#shown-count").inner_text() == str(len(rows))
    assert "country=CN" in page.url
    page.select_option("#f-family", "a100")
    names = [r.locator("td").first.inner_text() for r in visible_rows(page)]
    assert "Seren (Shanghai AI Lab)" in names and len(names) < len(rows)
    page.fill("#f-text", "seren")
    assert [r.locator("td").first.inner_text() for r in visible_rows(page)] == ["Seren (Shanghai AI Lab)"]
    page.click("#f-reset")
    page.wait_for_function(f"document.getElementById('shown-count').textContent === '{total}'")
    assert len(visible_rows(page)) == total


def test_filtering_by_parent_company_and_sorting(page: Any, base_url: str) -> None:
    page.goto(base_url + "index.html")
    page.select_option("#f-parent", "nvidia")
    rows = visible_rows(page)
    assert rows and all("NVIDIA" in r.locator("td").nth(4).inner_text() for r in rows)
    page.select_option("#f-parent", "")
    page.get_by_role("button", name=re.compile("Rmax")).click()  # ascending
    page.get_by_role("button", name=re.compile("Rmax")).click()  # descending
    values = []
    for r in visible_rows(page):
        text = r.locator("td").nth(6).inner_text().replace(",", "")
        if text != "-":
            values.append(float(text))
    assert len(values) >= 3 and values == sorted(values, reverse=True)


def test_seren_page_reads_like_the_seed(page: Any, base_url: str) -> None:
    page.goto(base_url + "systems/seren.html")
    assert page.locator("h1").inner_text() == "Seren (Shanghai AI Lab)"
    assert page.locator(".title-line").inner_text() == "China · operational · ai training"
    assert "Operated by Shanghai AI Laboratory" in page.locator(".operated").inner_text()
    headings = page.locator("h2").all_inner_texts()
    assert headings[: len(SECTIONS)] == SECTIONS
    figures = dict(
        zip(
            page.locator("dl.figures dt").all_inner_texts(),
            page.locator("dl.figures dd").all_inner_texts(),
            strict=True,
        )
    )
    assert figures["Rmax"] == "-" and figures["Per watt"] == "- GF/W"
    rows = page.locator("table.components tbody tr")
    texts = rows.all_inner_texts()
    accelerator = next(t for t in texts if t.startswith("Accelerator"))
    assert "NVIDIA A100 SXM4 80GB" in accelerator and "2,288" in accelerator and "Reported" in accelerator
    assert any(t.startswith("Interconnect") for t in texts)
    assert "2024-03" in page.locator("ul.timeline").inner_text()
    assert page.locator("a[href='https://arxiv.org/abs/2403.07648']").count() >= 1
    assert re.search(r"\d+ with a readable citation that names them", page.locator(".coverage").inner_text())


def test_mellanox_interconnect_rolls_up_to_nvidia(page: Any, base_url: str) -> None:
    page.goto(base_url + f"systems/{HOSTILE_SLUG}.html")
    row = page.locator("table.components tr[data-role='interconnect']")
    assert row.locator(".supplier").inner_text() == "Mellanox Technologies"
    assert row.locator(".current-parent").inner_text() == "NVIDIA"
    assert row.locator("td").nth(3).inner_text() == "1,234"


def test_hostile_name_is_shown_as_text(page: Any, base_url: str) -> None:
    page.goto(base_url + f"systems/{HOSTILE_SLUG}.html")
    assert page.locator("h1").inner_text() == HOSTILE_LABEL
    assert page.title().startswith(HOSTILE_LABEL)
    assert "<img src=x onerror=alert(3)>" in page.locator(".operated").inner_text()
    assert page.locator("img").count() == 0
    assert page.evaluate("document.querySelectorAll('script:not([type=\"application/ld+json\"])').length") == 0
    page.goto(base_url + "index.html")
    assert page.get_by_role("link", name=HOSTILE_LABEL).is_visible()
    page.wait_for_timeout(200)
    assert page.dialogs == []


def test_bookmarked_filter_with_chromium_dump_dom(base_url: str, tmp_path: Path) -> None:
    """Chromium's own headless mode runs the script and applies ?country=CN from the URL."""
    chromium = _need_chromium()
    result = subprocess.run(
        [
            chromium,
            *FLAGS,
            f"--user-data-dir={tmp_path / 'profile'}",
            "--dump-dom",
            base_url + "index.html?country=CN",
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    tree = html5lib.parse(result.stdout, namespaceHTMLElements=False)
    rows = tree.findall(".//table[@id='systems']/tbody/tr")
    shown = [r for r in rows if r.get("hidden") is None]
    assert rows and 0 < len(shown) < len(rows)
    assert all(r.get("data-country") == "CN" for r in shown)
    assert tree.find(".//form[@id='filters']").get("hidden") is None
    shutil.rmtree(tmp_path / "profile", ignore_errors=True)
