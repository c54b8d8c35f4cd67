"""Unit tests of the verifier: address policy, matching, text, records, reports (no network)."""

from __future__ import annotations

import datetime as dt
import gzip
import ipaddress
from pathlib import Path

import httpx
import pytest

import hpckg.verify as verify
from hpckg.errors import DataError
from hpckg.verify.checks import CheckFile, SourceCheck, TermCheck, check_iri
from hpckg.verify.fetch import FetchConfig, Fetcher, retry_after
from hpckg.verify.match import Page
from hpckg.verify.report import result_text
from hpckg.verify.safety import UrlPolicy, address_problem
from hpckg.verify.targets import part_variants, system_variants
from hpckg.verify.text import decode, extract, html_to_text

FIXTURES = Path(__file__).parent / "fixtures" / "verify"


def test_public_api_is_pinned() -> None:
    assert sorted(verify.__all__) == sorted(
        [
            "USER_AGENT",
            "CheckFile",
            "Coverage",
            "Document",
            "FetchConfig",
            "FetchResult",
            "Fetcher",
            "Page",
            "Plan",
            "RefusedURL",
            "RunSummary",
            "SourceCheck",
            "SourceCheckRow",
            "Target",
            "Term",
            "TermCheck",
            "UrlPolicy",
            "address_problem",
            "check_iri",
            "coverage",
            "extract",
            "plan",
            "resolve_system",
            "run",
            "source_check_rows",
            "targets",
        ]
    )


@pytest.mark.parametrize(
    "address, problem",
    [
        ("93.184.216.34", None),
        ("2606:4700::1111", None),
        ("127.0.0.1", "loopback"),
        ("::1", "loopback"),
        ("10.0.0.1", "private"),
        ("172.16.5.4", "private"),
        ("192.168.1.1", "private"),
        ("169.254.169.254", "link-local"),
        ("fe80::1", "link-local"),
        ("224.0.0.1", "multicast"),
        ("0.0.0.0", "unspecified"),
        ("240.0.0.1", ""),  # reserved; Python also calls it private
        ("100.64.0.1", "non-global"),
        ("::ffff:10.0.0.1", "private"),
        ("64:ff9b::a00:1", "private"),
        ("2002:a00:1::", "private"),
        ("fc00::1", "private"),
    ],
)
def test_address_policy(address: str, problem: str | None) -> None:
    found = address_problem(ipaddress.ip_address(address))
    assert (found is None) if problem is None else (found is not None and problem in found)


def test_loopback_opt_in_keeps_private_refused() -> None:
    assert address_problem(ipaddress.ip_address("127.0.0.1"), allow_loopback=True) is None
    assert address_problem(ipaddress.ip_address("::ffff:127.0.0.1"), allow_loopback=True) is None
    assert address_problem(ipaddress.ip_address("10.0.0.1"), allow_loopback=True) == "private address"


@pytest.mark.parametrize(
    "url, reason",
    [
        ("ftp://example.org/x", "scheme"),
        ("file:///etc/passwd", "scheme"),
        ("javascript:alert(1)", "scheme"),
        ("http://user:pw@example.org/", "credentials"),
        ("http:///nohost", "host"),
    ],
)
def test_url_syntax_refused(url: str, reason: str) -> None:
    with pytest.raises(verify.RefusedURL, match=reason):
        UrlPolicy().check_syntax(url)


def test_one_private_address_among_public_ones_refuses_the_host() -> None:
    with pytest.raises(verify.RefusedURL, match="10.0.0.1"):
        UrlPolicy().check_addresses(
            "http://x/", [ipaddress.ip_address("93.184.216.34"), ipaddress.ip_address("10.0.0.1")]
        )


async def test_redirect_to_private_refused_before_any_request() -> None:
    seen: list[str] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(str(request.url))
        return httpx.Response(302, headers={"Location": "http://192.168.0.10/admin"})

    client = httpx.AsyncClient(transport=httpx.MockTransport(handler))
    async with Fetcher(FetchConfig(), client=client) as fetcher:
        result = await fetcher.fetch("http://93.184.216.34/page")
    await client.aclose()
    assert seen == ["http://93.184.216.34/page"]
    assert result.error == "refused: private address 192.168.0.10"


async def test_gzip_bomb_is_capped_while_decompressing() -> None:
    bomb = gzip.compress(b"A" * 20_000_000)

    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(
            200,
            stream=httpx.ByteStream(bomb),
            headers={"Content-Encoding": "gzip", "Content-Type": "text/plain"},
        )

    client = httpx.AsyncClient(transport=httpx.MockTransport(handler))
    async with Fetcher(FetchConfig(max_bytes=100_000), client=client) as fetcher:
        result = await fetcher.fetch("http://93.184.216.34/bomb")
    await client.aclose()
    assert result.ok and result.truncated and len(result.body) == 100_000


async def test_retry_after_too_long_gives_up() -> None:
    calls = 0

    def handler(request: httpx.Request) -> httpx.Response:
        nonlocal calls
        calls += 1
        return httpx.Response(429, headers={"Retry-After": "3600"})

    client = httpx.AsyncClient(transport=httpx.MockTransport(handler))
    async with Fetcher(FetchConfig(max_retry_after=5), client=client) as fetcher:
        result = await fetcher.fetch("http://93.184.216.34/")
    await client.aclose()
    assert calls == 1 and "Retry-After 3600" in (result.error or "") and result.status == 429


def test_retry_after_parsing() -> None:
    assert retry_after("7") == 7.0
    assert (
        retry_after(
            "Wed, 21 Oct 2015 07:28:10 GMT",
            now=dt.datetime(2015, 10, 21, 7, 28, 0, tzinfo=dt.UTC).timestamp(),
        )
        == 10.0
    )
    assert retry_after("soon") is None and retry_after(None) is None


@pytest.mark.parametrize(
    "text, term, expected",
    [
        ("uses NVIDIA A100-SXM 80GB GPUs", "A100 SXM 80GB", True),
        ("uses A100-\nSXM80 GB", "A100-SXM 80GB", True),
        ("THE SEREN CLUSTER", "Seren", True),
        ("Se\u00adren", "Seren", True),
        ("Ｓｅｒｅｎ ｈａｓ", "Seren", True),
        ("an A1000 board", "A100", False),
        ("Serenity", "Seren", False),
        ("神威太湖之光系统", "太湖之光", True),
    ],
)
def test_names_match_whatever_the_spelling(text: str, term: str, expected: bool) -> None:
    assert (Page(text).find(term) is not None) is expected


@pytest.mark.parametrize(
    "text, expected",
    [
        ("2288 GPUs", True),
        ("2,288 GPUs", True),
        ("2 288 GPUs", True),
        ("2\u2009288", True),
        ("2\u202f288", True),
        ("2.288 GPUs", True),
        ("12,288", False),
        ("2,288,000", False),
        ("22880", False),
        ("A2288", False),
        ("v1.2288", False),
    ],
)
def test_counts_match_any_grouping(text: str, expected: bool) -> None:
    assert (Page(text).find_count(2288) is not None) is expected


def test_snippet_shows_the_match_in_context() -> None:
    found = Page("x " * 100 + "Seren has 2,288 GPUs" + " y" * 100).find_count(2288)
    assert found and "Seren has 2,288 GPUs" in found.snippet and found.snippet.startswith("…")


def test_html_visible_text_only() -> None:
    text, pdf = html_to_text((FIXTURES / "page-all.html").read_text())
    assert "Testseren has 2,288" in text and "Testseren cluster" in text
    assert "hidden" not in text and pdf is None


def test_html_citation_pdf_link() -> None:
    _, pdf = html_to_text('<meta name="citation_pdf_url" content="https://example.org/p.pdf"><p>x</p>')
    assert pdf == "https://example.org/p.pdf"


@pytest.mark.parametrize(
    "name, codec, phrase",
    [
        ("page-cp1252.html", "cp1252", "Café “Testseren” – 2\u00a0288"),
        ("page-gb2312.html", "gb18030", "上海人工智能实验室"),
    ],
)
def test_charset_from_meta(name: str, codec: str, phrase: str) -> None:
    doc = extract((FIXTURES / name).read_bytes(), "text/html")
    assert doc.encoding == codec and phrase in doc.text


def test_header_charset_wins_and_undeclared_falls_back() -> None:
    assert decode("é".encode("latin-1"), "text/plain; charset=ISO-8859-1")[0] == "é"
    assert decode("é".encode("cp1252"))[1] == "cp1252"
    assert decode("é".encode())[1] == "utf-8"


def test_unreadable_pdf_is_a_text_error() -> None:
    with pytest.raises(verify.text.TextError):
        extract(b"%PDF-1.4 garbage", "application/pdf")


def test_variants() -> None:
    assert "Seren" in system_variants("Seren (Shanghai AI Lab)")
    assert "Frontier" in system_variants("Frontier - HPE Cray EX235a, AMD EPYC")
    variants = part_variants("NVIDIA A100 SXM4 80GB", ["A100"])
    assert {"A100", "A100 SXM4 80GB"} <= set(variants) and "80GB" not in variants
    assert "interconnect" not in part_variants("Sunway interconnect")


def _check(**kw: object) -> SourceCheck:
    base = SourceCheck(
        "https://w3id.org/hpckg/id/citation/c1",
        "https://w3id.org/hpckg/id/system/s1",
        dt.datetime(2026, 10, 9, 12, 0, tzinfo=dt.UTC),
        True,
        200,
    )
    return (
        base.with_terms([TermCheck("S1", "system", True, 'say "S1"\n\tnow \\ \x01'), TermCheck("2288", "count", False)])
        if not kw
        else base
    )


def test_check_iri_is_deterministic_and_readable() -> None:
    assert (
        check_iri("https://w3id.org/hpckg/id/citation/arxiv-2403-07648", "https://w3id.org/hpckg/id/system/seren")
        == "https://w3id.org/hpckg/id/check/arxiv-2403-07648/seren"
    )
    other = check_iri("https://example.org/c", "https://w3id.org/hpckg/id/system/seren")
    assert other.endswith("/seren") and other == check_iri(
        "https://example.org/c", "https://w3id.org/hpckg/id/system/seren"
    )


def test_checks_file_round_trip_and_replacement(tmp_path: Path) -> None:
    store = CheckFile(tmp_path / "checks.ttl")
    check = _check()
    store.put(check)
    store.save()
    first = store.path.read_bytes()
    again = CheckFile.open(store.path)
    assert again.checks[check.pair] == check
    again.save()
    assert again.path.read_bytes() == first  # deterministic
    newer = SourceCheck(check.citation, check.system, check.checked_at + dt.timedelta(days=1), False, 404)
    again.put(newer)
    again.save()
    assert list(CheckFile.open(store.path).checks.values()) == [newer]


def test_checks_file_refuses_curated_data(tmp_path: Path) -> None:
    curated = tmp_path / "seren.ttl"
    curated.write_text("<https://w3id.org/hpckg/id/system/x> a <https://w3id.org/hpckg/ontology#System> .\n")
    with pytest.raises(DataError, match="not a source check"):
        CheckFile.open(curated)


@pytest.mark.parametrize(
    "args, text",
    [
        ((True, 200, True, True, True), "names system, part and count"),
        ((True, 200, True, False, False), "names system"),
        ((True, 200, False, True, False), "names part, not the system"),
        ((True, 200, False, False, False), "names none of the terms"),
        ((False, 404, False, False, False), "unreachable (404)"),
    ],
)
def test_result_text(args: tuple[bool, int, bool, bool, bool], text: str) -> None:
    assert result_text(*args) == text
