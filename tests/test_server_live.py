"""The endpoint on a real loopback socket: uvicorn in a thread, and `hpckg serve` as a process."""

from __future__ import annotations

import gc
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from click.testing import CliRunner

from hpckg.cli import main
from hpckg.queries import all_saved
from hpckg.server import ServerConfig, create_app
from hpckg.server.background import serve_in_thread
from hpckg.store import Dataset

pytestmark = pytest.mark.server

EX = "https://example.org/live/"
COUNT = "SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }"


@pytest.fixture(scope="module")
def live() -> Iterator[tuple[str, Dataset]]:
    dataset = Dataset.load()
    with serve_in_thread(create_app(dataset, ServerConfig(timeout=30))) as url:
        yield url, dataset


def _count(url: str) -> int:
    response = httpx.get(f"{url}/sparql", params={"query": COUNT})
    response.raise_for_status()
    return int(response.json()["results"]["bindings"][0]["n"]["value"])


def test_real_server_answers_the_protocol(live: tuple[str, Dataset]) -> None:
    url, dataset = live
    expected = int(dataset.select(COUNT)[0]["n"].value)
    assert _count(url) == expected
    posted = httpx.post(
        f"{url}/sparql",
        content=COUNT,
        headers={"Content-Type": "application/sparql-query", "Accept": "text/csv"},
    )
    assert posted.text.splitlines() == ["n", str(expected)]


def test_real_server_survives_errors_and_refuses_updates(live: tuple[str, Dataset]) -> None:
    url, _ = live
    before = _count(url)
    bad = httpx.get(f"{url}/sparql", params={"query": "SELECT * WHERE { ?s ?p"})
    assert bad.status_code == 400
    assert "SPARQL syntax error" in bad.text
    update = httpx.post(f"{url}/sparql", data={"update": "DELETE WHERE { ?s ?p ?o }"})
    assert update.status_code == 403
    smuggled = httpx.post(f"{url}/sparql", data={"query": "DELETE WHERE { ?s ?p ?o }"})
    assert smuggled.status_code == 403
    assert _count(url) == before > 0


def test_real_server_cors_preflight(live: tuple[str, Dataset]) -> None:
    url, _ = live
    response = httpx.options(
        f"{url}/sparql",
        headers={"Origin": "http://localhost:3000", "Access-Control-Request-Method": "POST"},
    )
    assert response.status_code == 200
    assert response.headers["access-control-allow-origin"] == "*"


def test_real_server_runs_every_saved_query(live: tuple[str, Dataset]) -> None:
    url, _ = live
    listed = httpx.get(f"{url}/queries").json()
    assert [q["name"] for q in listed] == [q.name for q in all_saved()]
    for entry in listed:
        if any(p["required"] for p in entry["params"]):
            continue
        response = httpx.get(f"{url}/{entry['url']}", headers={"Accept": "application/sparql-results+json"})
        assert response.status_code == 200, (entry["name"], response.text)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def test_hpckg_serve_command_end_to_end(tmp_path: Path) -> None:
    data = tmp_path / "extra.ttl"
    data.write_text(f"<{EX}x> <{EX}p> 'extra' .\n", encoding="utf-8")
    port = _free_port()
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "hpckg.cli",
            "serve",
            "--port",
            str(port),
            "--data",
            str(data),
            "--timeout",
            "20",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    try:
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        while True:
            if process.poll() is not None:
                raise AssertionError(process.stderr.read().decode() if process.stderr else "serve exited")
            try:
                httpx.get(f"{url}/queries", timeout=2)
                break
            except httpx.TransportError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)
        response = httpx.get(f"{url}/sparql", params={"query": f"ASK {{ <{EX}x> <{EX}p> 'extra' }}"})
        assert response.json()["boolean"] is True
        page = httpx.get(url + "/")
        assert "hpckg SPARQL endpoint" in page.text
    finally:
        process.terminate()
        process.wait(timeout=30)
        for stream in (process.stdout, process.stderr):
            if stream:
                stream.close()


def test_store_dir_persists_so_a_restart_does_not_reload(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two `hpckg serve --store DIR` runs: the second opens the stored graph and loads no file."""
    data = tmp_path / "extra.ttl"
    data.write_text(f"<{EX}x> <{EX}p> 'kept' .\n", encoding="utf-8")
    loads: list[Path] = []
    original = Dataset._load_file

    def counting(self: Dataset, path: Path, base: Path) -> None:
        loads.append(path)
        original(self, path, base)

    apps: list[Any] = []
    monkeypatch.setattr(Dataset, "_load_file", counting)
    monkeypatch.setattr(uvicorn, "run", lambda app, **kwargs: apps.append(app))
    args = ["serve", "--store", str(tmp_path / "store"), "--data", str(data)]

    first = CliRunner().invoke(main, args)
    assert first.exit_code == 0, first.output
    assert data in loads
    first_count = len(loads)
    apps.clear()
    gc.collect()  # the on-disk store is locked until the first Dataset is gone

    second = CliRunner().invoke(main, args)
    assert second.exit_code == 0, second.output
    assert len(loads) == first_count  # nothing loaded again
    dataset = apps[0].state.endpoint.dataset
    assert dataset.ask(f"ASK {{ <{EX}x> <{EX}p> 'kept' }}")
    apps.clear()
    del dataset
    gc.collect()

    data.write_text(f"<{EX}x> <{EX}p> 'changed' .\n", encoding="utf-8")
    third = CliRunner().invoke(main, args)
    assert third.exit_code == 0, third.output
    assert len(loads) > first_count  # a changed source is reloaded
    assert apps[0].state.endpoint.dataset.ask(f"ASK {{ <{EX}x> <{EX}p> 'changed' }}")
    apps.clear()
    gc.collect()
