"""The source verifier: fetch every cited page and record whether it names the
system, the part and the count.

Modules, one job each: :mod:`.safety` (which URLs and addresses may be
contacted), :mod:`.fetch` (polite, capped HTTP), :mod:`.text` (HTML, text and
PDF to text), :mod:`.match` (finding names and numbers), :mod:`.targets` (what
to look for, from the graph), :mod:`.checks` (check records and their file),
:mod:`.runner` (a whole run) and :mod:`.report` (tables and coverage for
``hpckg show`` / ``hpckg stats``).

Errors (all :class:`hpckg.errors.HpckgError`)::

    FetchError
    +-- RefusedURL        the URL policy forbids the URL or an address it resolves to
    DataError             the checks file is not a checks file, or is unreadable

Network trouble never raises out of a run: it is recorded in the check.
"""

from __future__ import annotations

from .checks import CheckFile, SourceCheck, TermCheck, check_iri
from .fetch import USER_AGENT, FetchConfig, Fetcher, FetchResult
from .match import Page
from .report import Coverage, SourceCheckRow, coverage, source_check_rows
from .runner import Plan, RunSummary, plan, run
from .safety import RefusedURL, UrlPolicy, address_problem
from .targets import Target, Term, resolve_system, targets
from .text import Document, extract

__all__ = [
    "USER_AGENT",
    "CheckFile",
    "Coverage",
    "Document",
    "FetchConfig",
    "FetchResult",
    "Fetcher",
    "Page",
    "Plan",
    "RefusedURL",
    "RunSummary",
    "SourceCheck",
    "SourceCheckRow",
    "Target",
    "Term",
    "TermCheck",
    "UrlPolicy",
    "address_problem",
    "check_iri",
    "coverage",
    "extract",
    "plan",
    "resolve_system",
    "run",
    "source_check_rows",
    "targets",
]
