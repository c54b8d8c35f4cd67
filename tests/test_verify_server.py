"""The verifier against a real HTTP server on 127.0.0.1 (see fixtures/verify/verify_support.py)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import httpcore
import pytest

sys.path.insert(0, str(Path(__file__).parent / "fixtures" / "verify"))
from verify_support import BIG, PageServer, running_server  # noqa: E402

from hpckg.verify.fetch import USER_AGENT, FetchConfig, Fetcher  # noqa: E402
from hpckg.verify.match import Page  # noqa: E402
from hpckg.verify.safety import Resolver  # noqa: E402
from hpckg.verify.text import extract  # noqa: E402

pytestmark = pytest.mark.server

FAST = FetchConfig(allow_loopback=True, timeout=2.0, max_time=10.0, backoff=0.01, max_bytes=1_000_000)


@pytest.fixture(scope="module")
def server() -> Iterator[PageServer]:
    with running_server() as srv:
        yield srv


@pytest.fixture
def connects(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every address the fetcher's transport opens a socket to."""
    seen: list[str] = []
    original = httpcore.AnyIOBackend.connect_tcp

    async def spy(self, host, port, *args, **kwargs):  # type: ignore[no-untyped-def]
        seen.append(host)
        return await original(self, host, port, *args, **kwargs)

    monkeypatch.setattr(httpcore.AnyIOBackend, "connect_tcp", spy)
    return seen


async def fetch(url: str, config: FetchConfig = FAST, **kwargs: object):  # type: ignore[no-untyped-def]
    async with Fetcher(config, **kwargs) as fetcher:  # type: ignore[arg-type]
        return await fetcher.fetch(url)


async def test_page_naming_everything(server: PageServer) -> None:
    result = await fetch(server.base + "/all")
    assert result.ok and result.status == 200
    assert result.etag and result.final_url == server.base + "/all"
    page = Page(extract(result.body, result.content_type).text)
    assert page.find("Testseren") and page.find("TX100 SXM 80GB") and page.find_count(2288)
    assert USER_AGENT in server.agents and USER_AGENT.startswith("hpckg/")


async def test_page_without_the_count(server: PageServer) -> None:
    result = await fetch(server.base + "/nocount")
    page = Page(extract(result.body, result.content_type).text)
    assert page.find("Testseren") is not None
    assert page.find_count(2288) is None


async def test_404_is_not_retried(server: PageServer) -> None:
    before = server.hits["/missing"]
    result = await fetch(server.base + "/missing")
    assert result.status == 404 and not result.ok and result.error is None
    assert server.hits["/missing"] - before == 1


async def test_500_then_success(server: PageServer) -> None:
    result = await fetch(server.base + "/flaky")
    assert result.ok and result.attempts == 2 and server.hits["/flaky"] == 2


async def test_429_honours_retry_after(server: PageServer) -> None:
    import time

    started = time.monotonic()
    result = await fetch(server.base + "/busy")
    assert result.ok and result.attempts == 2
    assert time.monotonic() - started >= 0.9  # waited the server's Retry-After: 1, not the 0.01 s backoff


async def test_redirect_chain_followed(server: PageServer) -> None:
    result = await fetch(server.base + "/hop/4")
    assert result.ok and result.final_url == server.base + "/all"
    assert len(result.redirects) == 5


async def test_too_many_redirects(server: PageServer) -> None:
    result = await fetch(server.base + "/hop/9")
    assert not result.ok and "redirects" in (result.error or "")


@pytest.mark.parametrize("route, address", [("/to-private", "10.0.0.1"), ("/to-metadata", "169.254.169.254")])
async def test_redirect_to_private_address_refused(
    server: PageServer, connects: list[str], route: str, address: str
) -> None:
    result = await fetch(server.base + route)
    assert not result.ok and result.error and result.error.startswith("refused")
    assert address in result.error
    assert connects and set(connects) == {"127.0.0.1"}  # nothing went anywhere else


async def test_loopback_refused_without_opt_in(server: PageServer, connects: list[str]) -> None:
    result = await fetch(server.base + "/all", FetchConfig())
    assert result.error and "loopback" in result.error
    assert connects == []


async def test_big_body_capped(server: PageServer) -> None:
    result = await fetch(server.base + "/big", FetchConfig(allow_loopback=True, max_bytes=1_000_000))
    assert result.ok and result.truncated and len(result.body) == 1_000_000
    assert server.big_sent < BIG  # the download stopped early


async def test_trickling_server_times_out(server: PageServer) -> None:
    config = FetchConfig(allow_loopback=True, timeout=2.0, max_time=1.0, retries=0)
    result = await fetch(server.base + "/trickle", config)
    assert not result.ok and "timed out" in (result.error or "")


async def test_pdf(server: PageServer) -> None:
    result = await fetch(server.base + "/pdf")
    doc = extract(result.body, result.content_type)
    assert doc.kind == "pdf"
    page = Page(doc.text)
    assert page.find("Seren") and page.find("A100 SXM 80GB") and page.find_count(2288)


@pytest.mark.parametrize("route", ["/cp1252", "/gb2312"])
async def test_non_utf8_html(server: PageServer, route: str) -> None:
    result = await fetch(server.base + route)
    doc = extract(result.body, result.content_type)
    assert "\ufffd" not in doc.text
    assert Page(doc.text).find("Testseren") and Page(doc.text).find_count(2288)
    if route == "/cp1252":
        assert "Café “Testseren”" in doc.text
    else:
        assert "上海人工智能实验室" in doc.text


async def test_connection_goes_to_the_checked_address(server: PageServer, connects: list[str]) -> None:
    """A name is resolved once, checked, and the socket opens to that address."""

    class Fixed(Resolver):
        async def resolve(self, host: str, port: int):  # type: ignore[no-untyped-def]
            import ipaddress

            return [ipaddress.ip_address("127.0.0.1")] if host == "pages.test" else await super().resolve(host, port)

    before = len(server.hosts)
    result = await fetch(f"http://pages.test:{server.server_port}/all", resolver=Fixed())
    assert result.ok
    assert connects == ["127.0.0.1"]
    assert server.hosts[before:] == [f"pages.test:{server.server_port}"]


async def test_dns_rebinding_refused_at_connect(server: PageServer, connects: list[str]) -> None:
    """The pre-check sees loopback, the connect-time resolution sees a private address: refused."""
    import ipaddress

    class Rebinding(Resolver):
        calls = 0

        async def resolve(self, host: str, port: int):  # type: ignore[no-untyped-def]
            Rebinding.calls += 1
            return [ipaddress.ip_address("127.0.0.1" if Rebinding.calls == 1 else "10.0.0.1")]

    result = await fetch(f"http://rebind.test:{server.server_port}/all", resolver=Rebinding())
    assert not result.ok and "10.0.0.1" in (result.error or "")
    assert connects == []
