"""Fetch citation URLs politely and defensively with httpx.

One :class:`Fetcher` serves a whole run: it bounds concurrency overall and per
host, applies a connect/read timeout to every request and a total time cap to
every URL (retries and redirects included), retries 429, 5xx and connection
errors with exponential backoff (honouring ``Retry-After``), follows at most
``max_redirects`` redirects itself so that :mod:`.safety` re-checks every hop,
and streams bodies with a size cap (decompressing incrementally, so a small
gzip bomb cannot expand past the cap either).

The client is injectable: tests pass an ``httpx.AsyncClient`` on a mock transport;
by default the fetcher builds one on :func:`.safety.make_transport`.
"""

from __future__ import annotations

import asyncio
import email.utils
import random
import time
import zlib
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from importlib import metadata
from typing import Any

import httpx

from .safety import RefusedURL, Resolver, UrlPolicy, checked_addresses, make_transport

__all__ = ["USER_AGENT", "FetchConfig", "FetchResult", "Fetcher"]


def _version() -> str:
    try:
        return metadata.version("hpckg")
    except metadata.PackageNotFoundError:  # running from a source tree
        return "dev"


USER_AGENT = f"hpckg/{_version()} (+source verifier)"
_REDIRECTS = {301, 302, 303, 307, 308}
_ACCEPT = "text/html,application/xhtml+xml,application/pdf;q=0.9,text/plain;q=0.8,*/*;q=0.5"


@dataclass(frozen=True)
class FetchConfig:
    """Limits of one run. Times are seconds; ``max_time`` caps a URL from its first request."""

    timeout: float = 15.0
    max_time: float = 60.0
    max_bytes: int = 10_000_000
    max_redirects: int = 5
    retries: int = 3
    backoff: float = 1.0
    max_retry_after: float = 30.0
    concurrency: int = 16
    per_host: int = 4
    allow_loopback: bool = False
    user_agent: str = USER_AGENT


@dataclass
class FetchResult:
    """What one URL gave: status, final URL, headers of interest and a capped body."""

    url: str
    final_url: str | None = None
    status: int | None = None
    content_type: str | None = None
    body: bytes = b""
    truncated: bool = False
    error: str | None = None
    etag: str | None = None
    last_modified: str | None = None
    attempts: int = 0
    redirects: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """A 2xx answer whose body could be read (possibly truncated at the cap)."""
        return self.error is None and self.status is not None and 200 <= self.status < 300

    @property
    def not_modified(self) -> bool:
        return self.error is None and self.status == 304


class _Retry(Exception):
    def __init__(self, reason: str, delay: float | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.delay = delay


def retry_after(value: str | None, now: float | None = None) -> float | None:
    """Seconds to wait from a ``Retry-After`` header (delta-seconds or an HTTP date)."""
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - (now if now is not None else time.time()))


class Fetcher:
    """Fetches URLs under one :class:`FetchConfig`; use as an async context manager."""

    def __init__(
        self,
        config: FetchConfig | None = None,
        client: httpx.AsyncClient | None = None,
        resolver: Resolver | None = None,
    ) -> None:
        self.config = config or FetchConfig()
        self.policy = UrlPolicy(allow_loopback=self.config.allow_loopback)
        self.resolver = resolver or Resolver(timeout=self.config.timeout)
        self._own_client = client is None
        self.client = client or self._make_client()
        self._all = asyncio.Semaphore(self.config.concurrency)
        self._hosts: dict[str, asyncio.Semaphore] = {}
        self.requests = 0

    def _make_client(self) -> httpx.AsyncClient:
        c = self.config
        return httpx.AsyncClient(
            transport=make_transport(self.policy, self.resolver, c.concurrency),
            timeout=httpx.Timeout(c.timeout, pool=None),
            follow_redirects=False,
            trust_env=False,
        )

    async def __aenter__(self) -> Fetcher:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        if self._own_client:
            await self.client.aclose()

    def _host_slot(self, url: httpx.URL) -> asyncio.Semaphore:
        key = f"{url.host}:{url.port}"
        slot = self._hosts.get(key)
        if slot is None:
            slot = self._hosts[key] = asyncio.Semaphore(self.config.per_host)
        return slot

    async def fetch(self, url: str, *, etag: str | None = None, last_modified: str | None = None) -> FetchResult:
        """Fetch ``url``; never raises for network trouble, the result carries the error."""
        result = FetchResult(url=url)
        headers = {
            "User-Agent": self.config.user_agent,
            "Accept": _ACCEPT,
            "Accept-Encoding": "gzip, deflate",
        }
        if etag:
            headers["If-None-Match"] = etag
        if last_modified:
            headers["If-Modified-Since"] = last_modified
        deadline: list[float] = []
        try:
            await self._follow(url, headers, result, deadline)
        except RefusedURL as refused:
            result.error = f"refused: {refused.message}"
        except TimeoutError:
            result.error = f"timed out: no complete answer within {self.config.max_time:g} s"
        except _Retry as gave_up:
            result.error = gave_up.reason
        return result

    async def _follow(self, url: str, headers: dict[str, str], result: FetchResult, deadline: list[float]) -> None:
        current = url
        for _hop in range(self.config.max_redirects + 1):
            await checked_addresses(current, self.policy, self.resolver)
            location = await self._attempts(current, headers, result, deadline)
            if location is None:
                return
            result.redirects.append(current)
            current = location
        result.error = f"more than {self.config.max_redirects} redirects"
        result.final_url = current

    async def _attempts(
        self, url: str, headers: dict[str, str], result: FetchResult, deadline: list[float]
    ) -> str | None:
        """Request ``url`` with retries; returns the next URL on a redirect, else ``None``."""
        c = self.config
        for attempt in range(c.retries + 1):
            try:
                return await self._request(url, headers, result, deadline)
            except _Retry as retry:
                if attempt == c.retries:
                    raise
                delay = retry.delay
                if delay is None:
                    delay = c.backoff * (2**attempt) * (1 + random.random() / 4)
                elif delay > c.max_retry_after:
                    raise _Retry(f"{retry.reason}; Retry-After {delay:g} s exceeds {c.max_retry_after:g} s") from None
                if deadline and asyncio.get_running_loop().time() + delay > deadline[0]:
                    raise _Retry(f"{retry.reason}; no time left to retry") from None
                await asyncio.sleep(delay)
        return None  # pragma: no cover - the loop returns or raises

    @asynccontextmanager
    async def _slot(self, url: httpx.URL, deadline: list[float]) -> AsyncIterator[None]:
        # Host slot first: a request queued behind a busy host holds no global slot.
        # One slot at a time, so redirects across hosts cannot deadlock.
        async with self._host_slot(url), self._all:
            # The clock starts when a request can actually go out, so URLs queued
            # behind a busy host are not timed out by the wait.
            if not deadline:
                deadline.append(asyncio.get_running_loop().time() + self.config.max_time)
            async with asyncio.timeout_at(deadline[0]):
                yield

    async def _request(
        self, url: str, headers: dict[str, str], result: FetchResult, deadline: list[float]
    ) -> str | None:
        parsed = httpx.URL(url)
        result.attempts += 1
        self.requests += 1
        async with self._slot(parsed, deadline):
            try:
                request = self.client.build_request("GET", parsed, headers=headers)
                response = await self.client.send(request, stream=True)
            except httpx.TimeoutException as error:
                raise _Retry(f"timed out ({type(error).__name__})") from None
            except httpx.TransportError as error:
                raise _Retry(f"connection failed ({type(error).__name__}: {error})") from None
            try:
                return await self._handle(url, response, result)
            finally:
                await response.aclose()

    async def _handle(self, url: str, response: httpx.Response, result: FetchResult) -> str | None:
        status = response.status_code
        result.status = status
        result.final_url = url
        result.content_type = response.headers.get("content-type")
        if status in _REDIRECTS and "location" in response.headers:
            try:
                return str(response.url.join(response.headers["location"]))
            except (httpx.InvalidURL, ValueError) as error:
                result.error = f"bad redirect location ({error})"
                return None
        if status == 429 or status >= 500:
            raise _Retry(f"HTTP {status}", retry_after(response.headers.get("retry-after")))
        result.etag = response.headers.get("etag")
        result.last_modified = response.headers.get("last-modified")
        if 200 <= status < 300:
            try:
                result.body, result.truncated = await read_capped(response, self.config.max_bytes)
            except httpx.TimeoutException:
                raise _Retry("timed out reading the body") from None
            except (httpx.TransportError, zlib.error) as error:
                raise _Retry(f"body could not be read ({type(error).__name__})") from None
        return None


async def read_capped(response: httpx.Response, limit: int) -> tuple[bytes, bool]:
    """Read at most ``limit`` decoded bytes; stop the download as soon as it is reached."""
    encoding = response.headers.get("content-encoding", "identity").strip().lower()
    decoder: Any = None
    if encoding in ("gzip", "x-gzip"):
        decoder = zlib.decompressobj(16 + zlib.MAX_WBITS)
    elif encoding == "deflate":
        decoder = zlib.decompressobj()
    chunks: list[bytes] = []
    size = 0
    async for raw in response.aiter_raw():
        data = raw
        while True:
            piece = decoder.decompress(data, limit - size + 1) if decoder else data
            chunks.append(piece)
            size += len(piece)
            if size > limit:
                return b"".join(chunks)[:limit], True
            if not decoder or not decoder.unconsumed_tail:
                break
            data = decoder.unconsumed_tail
    return b"".join(chunks), False
