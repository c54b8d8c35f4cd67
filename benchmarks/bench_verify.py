"""Benchmark the source verifier: 1,000 URLs on a loopback server, 32 at a time.

The server is a bare asyncio HTTP/1.1 server with keep-alive in its own process,
so it is not the bottleneck. The timed part is a whole verifier run: fetch,
read the HTML, match the terms of each pair and write the checks file.

    python benchmarks/bench_verify.py [--urls 1000] [--concurrency 32]
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import tempfile
import time
from pathlib import Path

from hpckg.verify import FetchConfig, Fetcher, run
from hpckg.verify.targets import Target, Term, part_variants, system_variants

PAGE = (
    b"<!doctype html><html><head><title>Bench system</title><script>var x = 1;</script></head><body>"
    + b"<p>Filler text about clusters and interconnects. </p>" * 40
    + b"<p>Benchmark-7 has 2,288 NVIDIA A100-SXM 80GB GPUs.</p></body></html>"
)
RESPONSE = b"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: %d\r\n\r\n" % len(PAGE) + PAGE


async def _serve(port_out: multiprocessing.connection.Connection) -> None:
    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                if not head:
                    break
                writer.write(RESPONSE)
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            writer.close()

    server = await asyncio.start_server(handle, "127.0.0.1", 0, backlog=512)
    port_out.send(server.sockets[0].getsockname()[1])
    async with server:
        await server.serve_forever()


def serve(port_out: multiprocessing.connection.Connection) -> None:
    asyncio.run(_serve(port_out))


def targets(base: str, n: int) -> list[Target]:
    terms = (
        Term("Benchmark-7", "system", system_variants("Benchmark-7 (Bench Lab)")),
        Term("NVIDIA A100 SXM4 80GB", "part", part_variants("NVIDIA A100 SXM4 80GB", ["A100"])),
        Term("2288", "count", ("2288",)),
    )
    return [Target(f"urn:bench:cite:{i}", f"{base}/p/{i}", "urn:bench:system", terms) for i in range(n)]


async def fetch_only(urls: list[str], config: FetchConfig) -> float:
    async with Fetcher(config) as fetcher:
        started = time.perf_counter()
        results = await asyncio.gather(*(fetcher.fetch(u) for u in urls))
        elapsed = time.perf_counter() - started
    assert all(r.ok for r in results)
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--urls", type=int, default=1000)
    parser.add_argument("--concurrency", type=int, default=32)
    args = parser.parse_args()
    receive, send = multiprocessing.Pipe(duplex=False)
    process = multiprocessing.Process(target=serve, args=(send,), daemon=True)
    process.start()
    try:
        base = f"http://127.0.0.1:{receive.recv()}"
        config = FetchConfig(allow_loopback=True, concurrency=args.concurrency, per_host=args.concurrency)
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / "checks.ttl"
            started = time.perf_counter()
            summary = run(targets(base, args.urls), out, config=config)
            elapsed = time.perf_counter() - started
            named = summary.names_system
            full = sum(1 for c in summary.checks if c.names_part and c.names_count)
        assert named == full == args.urls, (named, full)
        urls = [f"{base}/q/{i}" for i in range(args.urls)]
        fetch_elapsed = asyncio.run(fetch_only(urls, config))
    finally:
        process.terminate()
        process.join(5)
    print(
        f"verify run: {args.urls} URLs, {args.concurrency} at a time: "
        f"{elapsed:.2f} s = {args.urls / elapsed:.0f} URLs/s"
        f" (fetch + read + match + write; all {named} pages named system, part and count)"
    )
    print(f"fetch only: {args.urls} URLs in {fetch_elapsed:.2f} s = {args.urls / fetch_elapsed:.0f} URLs/s")


if __name__ == "__main__":
    main()
