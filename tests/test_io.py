"""hpckg.io.atomic_write: content, atomicity and the mode of the file it creates."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from hpckg.io import atomic_write


@pytest.fixture
def umask() -> Iterator[int]:
    """Run the test under umask 022 and restore the caller's umask afterwards."""
    old = os.umask(0o022)
    try:
        yield 0o022
    finally:
        os.umask(old)


def test_new_file_gets_default_mode_not_0600(tmp_path: Path, umask: int) -> None:
    target = atomic_write(tmp_path / "out.nt", "x\n")
    assert stat.S_IMODE(target.stat().st_mode) == 0o666 & ~umask


def test_mode_follows_the_umask(tmp_path: Path) -> None:
    old = os.umask(0o077)
    try:
        target = atomic_write(tmp_path / "private.txt", b"secret")
    finally:
        os.umask(old)
    assert stat.S_IMODE(target.stat().st_mode) == 0o600


def test_replaces_content_and_leaves_no_temp_file(tmp_path: Path, umask: int) -> None:
    target = tmp_path / "sub" / "out.txt"
    atomic_write(target, "old")
    atomic_write(target, "new")
    assert target.read_text() == "new"
    assert [p.name for p in target.parent.iterdir()] == ["out.txt"]
