"""Run source checks: fetch each URL once, read it, match every pair citing it, record.

A run is resumable: pairs already checked since ``since`` are skipped, checks
are saved to the output file every few seconds and once more on the way out
(also on Ctrl-C), and a page that was checked before is asked for with its
ETag / Last-Modified so an unchanged page costs a 304 and no download.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import httpx

from .checks import CheckFile, SourceCheck, TermCheck
from .fetch import FetchConfig, Fetcher, FetchResult
from .match import Page
from .targets import Target, Term
from .text import TextError, extract

__all__ = ["Plan", "RunSummary", "match_terms", "plan", "run", "run_checks"]

# Bodies larger than this are read in a worker thread so the event loop keeps moving.
_THREAD_BYTES = 256_000


@dataclass
class Plan:
    """What a run will fetch: URL -> its pairs, and how many pairs are already done."""

    urls: dict[str, list[Target]]
    skipped: int

    @property
    def pairs(self) -> int:
        return sum(len(t) for t in self.urls.values())


@dataclass
class RunSummary:
    output: Path
    planned_urls: int
    planned_pairs: int
    skipped_pairs: int
    checks: list[SourceCheck] = field(default_factory=list)
    requests: int = 0
    elapsed: float = 0.0
    interrupted: bool = False

    @property
    def done_urls(self) -> int:
        return len({c.citation for c in self.checks})

    @property
    def reachable(self) -> int:
        return sum(1 for c in self.checks if c.reachable)

    @property
    def names_system(self) -> int:
        return sum(1 for c in self.checks if c.names_system)


def plan(targets: Iterable[Target], store: CheckFile, since: dt.datetime | None) -> Plan:
    """Group targets by URL, leaving out pairs whose check is at least as new as ``since``."""
    urls: dict[str, list[Target]] = {}
    skipped = 0
    for target in targets:
        previous = store.get(*target.pair)
        if since is not None and previous is not None and previous.checked_at >= since:
            skipped += 1
            continue
        urls.setdefault(target.url, []).append(target)
    return Plan(urls, skipped)


def match_terms(pages: Sequence[Page], terms: Iterable[Term]) -> tuple[TermCheck, ...]:
    """Look for every term, in every spelling, on the pages in order."""
    out = []
    for term in terms:
        found = None
        for page in pages:
            for variant in term.variants:
                found = (
                    page.find_count(int(variant)) if term.kind == "count" else page.find(variant, term.kind == "part")
                )
                if found:
                    break
            if found:
                break
        out.append(TermCheck(term.text, term.kind, found is not None, found.snippet if found else None))
    return tuple(out)


async def _read(result: FetchResult) -> tuple[Page | None, str | None, str | None]:
    """A page from a fetched body, its linked PDF and any reading problem."""
    try:
        if len(result.body) > _THREAD_BYTES or result.body[:5] == b"%PDF-":
            doc = await asyncio.to_thread(extract, result.body, result.content_type)
        else:
            doc = extract(result.body, result.content_type)
    except TextError as error:
        return None, None, str(error)
    return Page(doc.text), doc.pdf_link, None


def _now() -> dt.datetime:
    return dt.datetime.now(dt.UTC).replace(microsecond=0)


async def check_url(
    fetcher: Fetcher, url: str, targets: list[Target], store: CheckFile, now: Callable[[], dt.datetime] = _now
) -> list[SourceCheck]:
    """Fetch one URL and produce the checks of every pair citing it."""
    previous = [store.get(*t.pair) for t in targets]
    same = all(
        p is not None and p.reachable and p.term_set() == t.term_set() for p, t in zip(previous, targets, strict=False)
    )
    first = previous[0] if same else None
    etag = first.etag if first else None
    modified = first.last_modified if first else None
    result = await fetcher.fetch(url, etag=etag, last_modified=modified)
    at = now()
    if result.not_modified and first is not None:
        return [replace(p, checked_at=at, http_status=304, error=None) for p in previous if p is not None]
    error = result.error
    pages: list[Page] = []
    pdf_link = None
    if result.ok:
        page, pdf_link, problem = await _read(result)
        error = problem or (f"body cut at {fetcher.config.max_bytes} bytes" if result.truncated else None)
        if page is not None:
            pages.append(page)
    checks = []
    for target in targets:
        check = SourceCheck(
            target.citation,
            target.system,
            at,
            reachable=result.ok,
            http_status=result.status,
            final_url=result.final_url,
            content_type=result.content_type,
            error=error,
            etag=result.etag,
            last_modified=result.last_modified,
        )
        checks.append(check.with_terms(match_terms(pages, target.terms)) if result.ok else check)
    if pdf_link and result.final_url and any(not all(t.found for t in c.terms) for c in checks):
        checks = await _with_linked_pdf(fetcher, result.final_url, pdf_link, targets, pages, checks)
    return checks


async def _with_linked_pdf(
    fetcher: Fetcher,
    base: str,
    link: str,
    targets: list[Target],
    pages: list[Page],
    checks: list[SourceCheck],
) -> list[SourceCheck]:
    """Read the full text a landing page links to (``citation_pdf_url``, as arXiv gives)."""
    try:
        pdf_url = str(httpx.URL(base).join(link))
    except (httpx.InvalidURL, ValueError):
        return checks
    result = await fetcher.fetch(pdf_url)
    if not result.ok:
        return checks
    page, _, problem = await _read(result)
    if page is None or problem:
        return checks
    return [c.with_terms(match_terms([*pages, page], t.terms)) for c, t in zip(checks, targets, strict=True)]


async def run_checks(
    todo: Plan,
    store: CheckFile,
    fetcher: Fetcher,
    *,
    on_url: Callable[[str, list[SourceCheck]], None] | None = None,
    flush_every: float = 2.0,
    now: Callable[[], dt.datetime] = _now,
    done: list[SourceCheck] | None = None,
) -> list[SourceCheck]:
    """Check every URL of ``todo``; saves as it goes and on the way out, whatever happens."""
    done = [] if done is None else done
    last_save = time.monotonic()

    async def one(url: str, targets: list[Target]) -> None:
        nonlocal last_save
        checks = await check_url(fetcher, url, targets, store, now)
        for check in checks:
            store.put(check)
        done.extend(checks)
        if on_url:
            on_url(url, checks)
        if time.monotonic() - last_save > flush_every:
            store.save()
            last_save = time.monotonic()

    try:
        await asyncio.gather(*(one(url, targets) for url, targets in todo.urls.items()))
    finally:
        if store.dirty:
            store.save()
    return done


def run(
    targets: Sequence[Target],
    output: str | Path,
    *,
    since: dt.datetime | None = None,
    config: FetchConfig | None = None,
    client: httpx.AsyncClient | None = None,
    on_plan: Callable[[Plan], None] | None = None,
    on_url: Callable[[str, list[SourceCheck]], None] | None = None,
) -> RunSummary:
    """Check ``targets`` and record the results in ``output`` (synchronous entry point)."""
    store = CheckFile.open(output)
    todo = plan(targets, store, since)
    if on_plan:
        on_plan(todo)
    summary = RunSummary(Path(output), len(todo.urls), todo.pairs, todo.skipped)
    started = time.monotonic()

    async def main() -> None:
        async with Fetcher(config, client) as fetcher:
            try:
                await run_checks(todo, store, fetcher, on_url=on_url, done=summary.checks)
            finally:
                summary.requests = fetcher.requests

    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        summary.interrupted = True
    summary.elapsed = time.monotonic() - started
    return summary
