"""Options and helpers shared by the commands."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

import click

from ..store import Dataset

F = TypeVar("F", bound=Callable[..., Any])

__all__ = ["data_option", "load", "store_option"]


def data_option(func: F) -> F:
    """``--data FILE`` (repeatable): data files added to the bundled graph."""
    return click.option(
        "--data",
        "data",
        multiple=True,
        type=click.Path(dir_okay=False, path_type=Path),
        help="Extra data file (.ttl, .nt, .nq, .jsonld) added to the bundled graph; repeatable.",
    )(func)


def store_option(func: F) -> F:
    return click.option(
        "--store",
        "store_dir",
        type=click.Path(file_okay=False, path_type=Path),
        default=None,
        help="Keep the loaded graph in an on-disk store in DIR and reuse it while the sources are unchanged.",
    )(func)


def load(data: Sequence[Path] = (), store_dir: Path | None = None) -> Dataset:
    return Dataset.load(data, store_dir=store_dir)
