"""hpckg: a knowledge graph of supercomputers and AI clusters.

The public API is exactly the names in ``__all__``; ``tests/test_api.py`` pins it.
"""

from __future__ import annotations

from .errors import (
    DataError,
    FetchError,
    HpckgError,
    ParameterError,
    QueryError,
    UsageError,
    ValidationError,
)
from .queries import QueryResult, SavedQuery, all_saved, load_saved, run_query
from .rollup import current_parent, ownership_chain
from .store import Dataset

__all__ = [
    "DataError",
    "Dataset",
    "FetchError",
    "HpckgError",
    "ParameterError",
    "QueryError",
    "QueryResult",
    "SavedQuery",
    "UsageError",
    "ValidationError",
    "all_saved",
    "current_parent",
    "load_saved",
    "ownership_chain",
    "run_query",
]

__version__ = "0.1.0"
