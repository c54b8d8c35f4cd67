"""Bounded load on `hpckg serve`: 16 concurrent clients for 20 s, mixing saved queries.

Starts `hpckg serve` on a free loopback port (the bundled graph plus any --data
files), runs the load from this process with asyncio + httpx, prints requests/s,
p50 / p99 latency and the error count, then stops the server.

    python benchmarks/load_serve.py [--clients 16] [--seconds 20] [--data FILE]...

Target on the curated graph: 0 errors and p99 <= 250 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import socket
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field

import httpx

ENTITY_CLASSES = {"system": "hk:System", "org": "hk:Organization", "part": "hk:Part", "region": "hk:Region"}
SAMPLES = {"string": "a", "integer": "1", "decimal": "1", "date": "2020-01-01", "tier": "weak"}
ADHOC = [
    "SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }",
    "SELECT ?s ?label WHERE { ?s a hk:System ; rdfs:label ?label } ORDER BY ?label",
]
Mix = list[tuple[str, dict[str, str]]]


@dataclass
class Tally:
    latencies: list[float] = field(default_factory=list)
    errors: int = 0
    first_error: str = ""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def start_server(port: int, data: list[str]) -> subprocess.Popen[bytes]:
    args = [sys.executable, "-m", "hpckg.cli", "serve", "--port", str(port)]
    for path in data:
        args += ["--data", path]
    return subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def wait_until_up(url: str, process: subprocess.Popen[bytes], seconds: float = 120) -> None:
    deadline = time.monotonic() + seconds
    while True:
        if process.poll() is not None:
            raise SystemExit("hpckg serve exited before answering")
        try:
            httpx.get(f"{url}/queries", timeout=2).raise_for_status()
            return
        except httpx.HTTPError:
            if time.monotonic() > deadline:
                raise SystemExit("hpckg serve did not come up") from None
            time.sleep(0.2)


def request_mix(url: str, skip: list[str]) -> Mix:
    """GET requests to cycle through: every saved query (required params filled in) + ad-hoc SPARQL."""
    mix: Mix = []
    for entry in httpx.get(f"{url}/queries").json():
        if entry["name"] in skip:
            continue
        params: dict[str, str] = {}
        for param in entry["params"]:
            if not param["required"]:
                continue
            if param["type"] in SAMPLES:
                params[param["name"]] = SAMPLES[param["type"]]
                continue
            cls = ENTITY_CLASSES.get(param["type"], "?class")
            query = f"SELECT ?x WHERE {{ ?x a {cls} }} ORDER BY ?x LIMIT 1"
            rows = httpx.get(f"{url}/sparql", params={"query": query}).json()["results"]["bindings"]
            if rows:
                params[param["name"]] = rows[0]["x"]["value"]
        mix.append((f"{url}/{entry['url']}", params))
    mix += [(f"{url}/sparql", {"query": q}) for q in ADHOC]
    return mix


async def one_client(http: httpx.AsyncClient, mix: Mix, start: int, stop: float, tally: Tally) -> None:
    for target, params in itertools.islice(itertools.cycle(mix), start, None):
        if time.monotonic() >= stop:
            return
        began = time.perf_counter()
        try:
            response = await http.get(target, params=params, headers={"Accept": "application/sparql-results+json"})
            ok = response.status_code == 200
            problem = f"{response.status_code} {target}: {response.text[:120]}"
        except httpx.HTTPError as error:
            ok, problem = False, f"{target}: {error!r}"
        tally.latencies.append(time.perf_counter() - began)
        if not ok:
            tally.errors += 1
            tally.first_error = tally.first_error or problem


async def run_load(mix: Mix, clients: int, seconds: float) -> tuple[Tally, float]:
    tally = Tally()
    limits = httpx.Limits(max_connections=clients, max_keepalive_connections=clients)
    async with httpx.AsyncClient(limits=limits, timeout=30) as http:
        began = time.monotonic()
        stop = began + seconds
        # Bounded: clients stop starting requests at `stop`; stragglers get 60 s more at most.
        await asyncio.wait_for(
            asyncio.gather(*(one_client(http, mix, i, stop, tally) for i in range(clients))),
            timeout=seconds + 60,
        )
        elapsed = time.monotonic() - began
    return tally, elapsed


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(share * (len(ordered) - 1))))]


def main() -> None:
    parser = argparse.ArgumentParser(description="Bounded load on hpckg serve.")
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--data", action="append", default=[], help="extra data file for the server")
    parser.add_argument("--skip", action="append", default=[], help="leave this saved query out of the mix")
    options = parser.parse_args()

    port = free_port()
    url = f"http://127.0.0.1:{port}"
    process = start_server(port, options.data)
    try:
        wait_until_up(url, process)
        mix = request_mix(url, options.skip)
        tally, elapsed = asyncio.run(run_load(mix, options.clients, options.seconds))
    finally:
        process.terminate()
        process.wait(timeout=30)
    count = len(tally.latencies)
    print(f"clients           {options.clients}")
    print(f"duration          {elapsed:.1f} s")
    print(f"request kinds     {len(mix)} ({len(mix) - len(ADHOC)} saved queries, {len(ADHOC)} ad-hoc)")
    print(f"requests          {count}")
    print(f"requests/s        {count / elapsed:.1f}")
    if count:
        print(f"latency p50       {percentile(tally.latencies, 0.50) * 1000:.1f} ms")
        print(f"latency p99       {percentile(tally.latencies, 0.99) * 1000:.1f} ms")
        print(f"latency mean      {statistics.fmean(tally.latencies) * 1000:.1f} ms")
    print(f"errors            {tally.errors}")
    if tally.first_error:
        print(f"first error       {tally.first_error}")


if __name__ == "__main__":
    main()
