"""Shared fixtures: the bundled dataset, the real data folder, a CLI runner."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from hpckg.queries import QueryResult, load_saved, parse_saved, run_query
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


def reference_answer(ds: Dataset, name: str, params: dict[str, str]) -> tuple[QueryResult, QueryResult]:
    """A saved query that reads derived summaries, and its reference on the raw claims.

    ``tests/reference/NAME.rq`` computes the same answer straight from the claims
    (what the saved query did before the summaries existed).
    """
    path = ROOT / "tests" / "reference" / f"{name}.rq"
    reference = parse_saved(path.read_text(encoding="utf-8"), f"reference {name}", path)
    return run_query(ds, load_saved(name, ROOT), params), run_query(ds, reference, params)


def same_rows(result: QueryResult) -> tuple[list[str], list[tuple[str, ...]]]:
    """Columns and rows as sorted term strings: ties in ORDER BY may come in any order.

    A ``names`` column (GROUP_CONCAT, in no set order) compares as its sorted names.
    """

    def text(column: str, term: Any) -> str:
        if term is None:
            return ""
        if column == "names":
            return " | ".join(sorted(term.value.split(" | ")))
        return str(term)

    columns = list(result.columns)
    rows = sorted(tuple(text(c, t) for c, t in zip(columns, row, strict=True)) for row in result.rows)
    return columns, rows
