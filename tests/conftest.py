"""Shared fixtures: the bundled dataset, the real data folder, a CLI runner."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from hpckg.store import Dataset

ROOT = Path(__file__).resolve().parents[1]
SHARED_DATA = ROOT.parent / "shared" / "data"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-golden",
        action="store_true",
        default=False,
        help="Rewrite the golden files under tests/golden instead of comparing against them.",
    )


def shared_data_dir() -> Path:
    """``../shared/data`` beside the repository; skip when absent, fail under CI."""
    if SHARED_DATA.is_dir():
        return SHARED_DATA
    if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
        pytest.fail(f"CI=true but the real data folder {SHARED_DATA} is missing")
    pytest.skip("../shared/data is absent: real-data tests need the shared TOP500 and Epoch files")


@pytest.fixture(scope="session")
def shared_data() -> Path:
    return shared_data_dir()


@pytest.fixture(scope="session")
def dataset() -> Dataset:
    """The bundled graph, loaded once per test session (read-only use only)."""
    return Dataset.load(root=ROOT)


@pytest.fixture()
def runner() -> CliRunner:
    return CliRunner()


@pytest.fixture()
def project_copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A scratch copy of ontology/, graph/ and queries/ that HPCKG_ROOT points at."""
    for folder in ("ontology", "graph", "queries"):
        shutil.copytree(ROOT / folder, tmp_path / folder)
    monkeypatch.setenv("HPCKG_ROOT", str(tmp_path))
    yield tmp_path
