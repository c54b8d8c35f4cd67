"""`hpckg verify`: fetch every cited page and record whether it names the system, part and count."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from ..errors import UsageError
from ..verify.checks import SourceCheck
from ..verify.fetch import FetchConfig
from ..verify.runner import Plan, run
from ..verify.targets import resolve_system, targets
from ._common import data_option, load, store_option

__all__ = ["command"]


def _since(value: str | None) -> dt.datetime:
    if value is None:
        today = dt.datetime.now(dt.UTC).date()
        return dt.datetime.combine(today, dt.time(), dt.UTC)
    try:
        day = dt.date.fromisoformat(value)
    except ValueError:
        raise UsageError(f"--since {value!r} is not a date (YYYY-MM-DD)") from None
    return dt.datetime.combine(day, dt.time(), dt.UTC)


@click.command()
@data_option
@store_option
@click.option(
    "--system",
    "systems",
    multiple=True,
    metavar="S",
    help="Only this system (IRI, system:slug or slug); repeatable.",
)
@click.option(
    "--since",
    metavar="DATE",
    default=None,
    help="Keep checks recorded on or after DATE and fetch only the rest (default: today: a rerun resumes).",
)
@click.option(
    "--concurrency",
    type=click.IntRange(1, 256),
    default=16,
    show_default=True,
    help="Requests in flight at once.",
)
@click.option(
    "--per-host",
    type=click.IntRange(1, 64),
    default=4,
    show_default=True,
    help="Requests in flight to one host.",
)
@click.option(
    "--timeout",
    type=click.FloatRange(0.1, 600),
    default=15.0,
    show_default=True,
    help="Connect and read timeout of each request, in seconds.",
)
@click.option(
    "--max-time",
    type=click.FloatRange(0.1, 3600),
    default=60.0,
    show_default=True,
    help="Total time allowed per URL, retries and redirects included, in seconds.",
)
@click.option(
    "--max-bytes",
    type=click.IntRange(1024),
    default=10_000_000,
    show_default=True,
    help="Read at most this many bytes of a page.",
)
@click.option("--dry-run", is_flag=True, help="List what would be fetched and stop.")
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Checks file to update (default: graph/source-checks.ttl).",
)
@click.option(
    "--allow-loopback",
    is_flag=True,
    help="Allow 127.0.0.0/8 and ::1 (for local testing only; other private addresses stay refused).",
)
def command(
    data: tuple[Path, ...],
    store_dir: Path | None,
    systems: tuple[str, ...],
    since: str | None,
    concurrency: int,
    per_host: int,
    timeout: float,
    max_time: float,
    max_bytes: int,
    dry_run: bool,
    output: Path | None,
    allow_loopback: bool,
) -> None:
    """Fetch every cited page and record whether it names the system, the part and the count.

    Each (citation, system) pair becomes a dated hk:SourceCheck in the checks file,
    replacing the older check of the same pair. Runs are resumable: pairs checked
    since --since are not fetched again, and an interrupted run keeps what it did.
    """
    ds = load(data, store_dir)
    chosen = None
    if systems:
        chosen = []
        for name in systems:
            iri = resolve_system(ds, name)
            if iri is None:
                raise UsageError(f"unknown system {name!r}")
            chosen.append(iri)
    todo_targets = targets(ds, chosen)
    out = output or ds.root / "graph" / "source-checks.ttl"
    config = FetchConfig(
        timeout=timeout,
        max_time=max_time,
        max_bytes=max_bytes,
        concurrency=concurrency,
        per_host=per_host,
        allow_loopback=allow_loopback,
    )
    console = Console(stderr=True)
    progress = Progress(
        TextColumn("[bold]verify"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("{task.fields[last]}"),
        console=console,
        transient=True,
    )
    task = None

    if dry_run:
        from ..verify.checks import CheckFile
        from ..verify.runner import plan

        todo = plan(todo_targets, CheckFile.open(out), _since(since))
        for url, pairs in todo.urls.items():
            click.echo(url)
            for target in pairs:
                click.echo(f"  {target.system}  ({len(target.terms)} terms)")
        click.echo(f"{len(todo.urls)} URLs, {todo.pairs} pairs to check; {todo.skipped} pairs already checked")
        return

    def on_plan(todo: Plan) -> None:
        nonlocal task
        progress.start()
        task = progress.add_task("verify", total=len(todo.urls), last="")

    def on_url(url: str, checks: list[SourceCheck]) -> None:
        if task is not None:
            progress.update(task, advance=1, last=url[:60])

    try:
        summary = run(todo_targets, out, since=_since(since), config=config, on_plan=on_plan, on_url=on_url)
    finally:
        progress.stop()
    state = "interrupted after" if summary.interrupted else "checked"
    click.echo(
        f"{state} {len(summary.checks)} of {summary.planned_pairs} pairs ({summary.done_urls} URLs) in "
        f"{summary.elapsed:.1f} s: {summary.reachable} reachable, {summary.names_system} name their system; "
        f"{summary.skipped_pairs} already checked; wrote {summary.output}"
    )
