"""The one timing helper the benchmark scripts share."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from typing import Any


def p50(func: Callable[[], Any], runs: int) -> float:
    """The median wall time of ``runs`` calls of ``func``, in seconds."""
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        func()
        times.append(time.perf_counter() - started)
    return statistics.median(times)
