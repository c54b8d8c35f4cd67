"""The code base stays lint-clean and type-clean (ruff and mypy strict)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _tool(name: str) -> str:
    path = Path(sys.executable).parent / name
    if path.exists():
        return str(path)
    found = shutil.which(name)
    if not found:
        pytest.skip(f"{name} is not installed (pip install -e '.[test]')")
    return found


def test_ruff_is_clean() -> None:
    result = subprocess.run(
        [_tool("ruff"), "check", "src", "tests", "benchmarks"], cwd=ROOT, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_strict_is_clean() -> None:
    result = subprocess.run([_tool("mypy")], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
