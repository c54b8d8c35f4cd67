"""Whole verifier runs against a real loopback server: records, shapes, reports, resume, CLI."""

from __future__ import annotations

import datetime as dt
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

sys.path.insert(0, str(Path(__file__).parent / "fixtures" / "verify"))
from verify_support import PageServer, running_server, write_data  # noqa: E402

from hpckg.cli import main  # noqa: E402
from hpckg.store import Dataset, find_root  # noqa: E402
from hpckg.validate import validate  # noqa: E402
from hpckg.verify import CheckFile, FetchConfig, coverage, run, source_check_rows, targets  # noqa: E402
from hpckg.verify.runner import Plan  # noqa: E402

pytestmark = pytest.mark.server

ROOT = find_root(Path(__file__).parent)
SYSTEM = "https://w3id.org/hpckg/id/system/testseren"
FAST = FetchConfig(allow_loopback=True, timeout=2.0, max_time=10.0, backoff=0.01)
ROUTES = ["/all", "/nocount", "/missing", "/cp1252", "/landing", "/plain", "/to-private"]


@pytest.fixture
def server() -> Iterator[PageServer]:
    with running_server() as srv:
        yield srv


def _load(*files: Path) -> Dataset:
    return Dataset.load([ROOT / "ontology" / "hpckg.ttl", *files], root=ROOT, bundled=False)


def _by_route(checks: dict[tuple[str, str], object], route: str):  # type: ignore[no-untyped-def]
    slug = route.strip("/")
    return checks[(f"https://w3id.org/hpckg/id/citation/test-{slug}", SYSTEM)]


def test_run_records_conforming_checks_and_reports(server: PageServer, tmp_path: Path) -> None:
    data = write_data(tmp_path / "data.ttl", server.base, ROUTES)
    out = tmp_path / "checks.ttl"
    summary = run(targets(_load(data)), out, config=FAST)
    assert summary.planned_pairs == len(ROUTES) and len(summary.checks) == len(ROUTES)
    checks = CheckFile.open(out).checks

    full = _by_route(checks, "/all")
    assert (full.reachable, full.names_system, full.names_part, full.names_count) == (True, True, True, True)
    assert full.http_status == 200 and full.etag and "text/html" in full.content_type
    count = next(t for t in full.terms if t.kind == "count")
    assert count.term == "2288" and "2,288" in (count.snippet or "")
    nocount = _by_route(checks, "/nocount")
    assert (nocount.names_system, nocount.names_part, nocount.names_count) == (True, True, False)
    missing = _by_route(checks, "/missing")
    assert (missing.reachable, missing.http_status, missing.names_system) == (False, 404, None)
    assert _by_route(checks, "/cp1252").names_count is True
    assert _by_route(checks, "/plain").names_part is True
    assert _by_route(checks, "/landing").names_count is True  # read through its citation_pdf_url
    private = _by_route(checks, "/to-private")
    assert not private.reachable and "10.0.0.1" in (private.error or "")

    ds = _load(data, out)
    report = validate(ds)
    assert report.conforms, report.text()

    rows = {row.url.rsplit("/", 1)[1]: row for row in source_check_rows(ds, SYSTEM)}
    assert rows["all"].result == "names system, part and count"
    assert rows["all"].found == "Testvendor TX100 SXM 80GB · counts: 2288"
    assert rows["all"].source == "127.0.0.1" and rows["all"].checked == dt.datetime.now(dt.UTC).date()
    assert rows["nocount"].result == "names system and part"
    assert rows["missing"].result == "unreachable (404)"
    assert rows["to-private"].result == "unreachable (refused: private address 10.0.0.1)"
    cov = coverage(ds)
    assert (cov.systems, cov.named, cov.weak, cov.unreachable) == (1, 1, 0, 2)
    assert cov.line() == (
        "1 of 1 systems have a readable citation that names them; 0 are weakly sourced; 2 citations are unreachable"
    )


def test_interrupted_run_resumes_without_refetching(server: PageServer, tmp_path: Path) -> None:
    routes = ["/all", "/nocount", "/cp1252", "/gb2312", "/plain", "/flaky"]
    data = write_data(tmp_path / "data.ttl", server.base, routes)
    out = tmp_path / "checks.ttl"
    wanted = targets(_load(data))
    started = dt.datetime.now(dt.UTC).replace(microsecond=0)
    done: list[str] = []

    def stop_after_two(url: str, checks: object) -> None:
        done.append(url)
        if len(done) == 2:
            raise KeyboardInterrupt

    config = FetchConfig(allow_loopback=True, timeout=2.0, concurrency=1, per_host=1, backoff=0.01)
    first = run(wanted, out, since=started, config=config, on_url=stop_after_two)
    assert first.interrupted
    saved = CheckFile.open(out).checks
    assert {c.citation.rsplit("test-", 1)[1] for c in saved.values()} == {u.rsplit("/", 1)[1] for u in done}
    hits_before = dict(server.hits)

    second = run(wanted, out, since=started, config=FAST)
    assert second.skipped_pairs == len(saved)
    fetched = {path for path, n in server.hits.items() if n > hits_before.get(path, 0)}
    assert fetched == set(routes) - {"/" + u.rsplit("/", 1)[1] for u in done}
    assert len(CheckFile.open(out).checks) == len(routes)

    hits_before = dict(server.hits)
    third = run(wanted, out, since=started, config=FAST)
    assert third.planned_urls == 0 and third.requests == 0
    assert dict(server.hits) == hits_before  # nothing fetched at all


def test_conditional_request_reuses_unchanged_page(server: PageServer, tmp_path: Path) -> None:
    data = write_data(tmp_path / "data.ttl", server.base, ["/all"])
    out = tmp_path / "checks.ttl"
    wanted = targets(_load(data))
    run(wanted, out, config=FAST)
    again = run(wanted, out, since=None, config=FAST)  # refresh everything
    check = again.checks[0]
    assert check.http_status == 304 and check.reachable
    assert (check.names_system, check.names_part, check.names_count) == (True, True, True)
    assert server.hits["/all"] == 2


def test_cli_verify_dry_run_then_run(server: PageServer, tmp_path: Path) -> None:
    data = write_data(tmp_path / "data.ttl", server.base, ["/all", "/missing"])
    out = tmp_path / "checks.ttl"
    args = ["verify", "--data", str(data), "--system", "system:testseren", "-o", str(out), "--allow-loopback"]
    runner = CliRunner()
    dry = runner.invoke(main, [*args, "--dry-run"])
    assert dry.exit_code == 0, dry.output
    assert f"{server.base}/all" in dry.output and "2 URLs, 2 pairs" in dry.output
    assert server.total == 0 and not out.exists()

    result = runner.invoke(main, [*args, "--timeout", "2"])
    assert result.exit_code == 0, result.output
    assert "checked 2 of 2 pairs" in result.output and out.exists()
    again = runner.invoke(main, args)
    assert again.exit_code == 0 and "2 already checked" in again.output
    assert server.total == 2


def test_cli_refuses_to_overwrite_a_curated_file(tmp_path: Path) -> None:
    data = write_data(tmp_path / "data.ttl", "http://127.0.0.1:9", ["/all"])
    before = data.read_bytes()
    result = CliRunner().invoke(main, ["verify", "--data", str(data), "--system", "testseren", "-o", str(data)])
    assert result.exit_code == 1
    assert "not a source check" in result.output
    assert data.read_bytes() == before


def test_cli_unknown_system(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["verify", "--system", "no-such-system", "--dry-run"])
    assert result.exit_code == 2 and "unknown system" in result.output


def test_plan_counts_pairs() -> None:
    assert Plan({"u": [], "v": []}, 3).pairs == 0
