"""The one error hierarchy of hpckg.

::

    HpckgError                  anything hpckg reports as a one-line message
    +-- UsageError              the command line is wrong (exit 2)
    +-- DataError               a bad input file: keeps .path, .line (and .column)
    +-- QueryError              an unknown query or a SPARQL error: keeps .query
    |   +-- ParameterError      a missing, unknown or ill-typed parameter: keeps .param
    +-- ValidationError         the graph does not conform to the shapes
    +-- FetchError              a URL could not be fetched or was refused: keeps .url

The CLI turns each into one line and an exit code in one place (``hpckg.cli``).
"""

from __future__ import annotations

from pathlib import Path

__all__ = [
    "DataError",
    "FetchError",
    "HpckgError",
    "ParameterError",
    "QueryError",
    "UsageError",
    "ValidationError",
]


class HpckgError(Exception):
    """Base class: ``str(error)`` is a complete one-line message."""

    exit_code = 1
    hint: str | None = None


class UsageError(HpckgError):
    """The command was called wrongly."""

    exit_code = 2


class DataError(HpckgError):
    """A data file could not be read: the message names the file and line."""

    def __init__(
        self,
        message: str,
        path: str | Path | None = None,
        line: int | None = None,
        column: str | int | None = None,
    ) -> None:
        self.message = message
        self.path = str(path) if path is not None else None
        self.line = line
        self.column = column
        super().__init__(str(self))

    def __str__(self) -> str:
        where = self.path or ""
        if self.line is not None:
            where += f":{self.line}"
        if self.column is not None:
            where += f" (column {self.column})"
        return f"{where}: {self.message}" if where else self.message


class QueryError(HpckgError):
    """A query is unknown or failed to parse or run."""

    def __init__(self, message: str, query: str | None = None) -> None:
        self.message = message
        self.query = query
        super().__init__(f"query {query}: {message}" if query else message)


class ParameterError(QueryError):
    """A query parameter is missing, unknown or of the wrong type."""

    exit_code = 2

    def __init__(self, message: str, query: str | None = None, param: str | None = None) -> None:
        self.param = param
        text = f"parameter {param}: {message}" if param else message
        super().__init__(text, query)


class ValidationError(HpckgError):
    """The graph violates the shapes."""


class FetchError(HpckgError):
    """A URL was refused or could not be fetched."""

    def __init__(self, message: str, url: str) -> None:
        self.message = message
        self.url = url
        super().__init__(f"{url}: {message}")
