"""Read recorded source checks back out of a :class:`~hpckg.store.Dataset`.

These are the two views the rest of hpckg shows: the "Source check" table of a
system page (:func:`source_check_rows`) and the one-line coverage summary of
``hpckg stats`` (:func:`coverage`). Both are plain SPARQL over whatever checks
the dataset holds (``graph/source-checks.ttl`` or files given with ``--data``).

>>> from hpckg.store import Dataset                          # doctest: +SKIP
>>> coverage(Dataset.load()).line()                          # doctest: +SKIP
'1 of 1 systems have a readable citation that names them; 0 are weakly sourced; 0 citations are unreachable'
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import pyoxigraph as ox

from ..namespaces import TIERS
from ..store import Dataset

__all__ = ["Coverage", "SourceCheckRow", "coverage", "result_text", "source_check_rows"]

# Claims at or below this rank do not count as a real source.
_ESTIMATED_RANK = TIERS["estimated"][1]


@dataclass(frozen=True)
class SourceCheckRow:
    """One row of a system page's "Source check" table."""

    source: str  # the cited host, "arxiv.org"
    url: str
    result: str  # "names system, part and count", "unreachable (404)" ...
    found: str  # "NVIDIA A100 SXM4 80GB · counts: 2288"
    checked: dt.date | None
    reachable: bool
    http_status: int | None
    names_system: bool
    names_part: bool
    names_count: bool
    citation: str
    check: str
    final_url: str | None = None
    error: str | None = None


@dataclass(frozen=True)
class Coverage:
    """How well the systems of a dataset are sourced, as the seed page states it."""

    systems: int  # M
    named: int  # N: a reachable citation names them
    weak: int  # K: no claim above estimated
    unreachable: int  # L: citations whose latest check failed
    checked_citations: int = 0
    checked_systems: int = 0

    def line(self) -> str:
        """The seed's summary: ``"N of M systems have a readable citation that names them;
        K are weakly sourced; L citations are unreachable"``."""
        return (
            f"{self.named} of {self.systems} systems have a readable citation that names them; "
            f"{self.weak} are weakly sourced; {self.unreachable} citations are unreachable"
        )


_ROWS = """
SELECT ?check ?citation ?url ?at ?reachable ?status ?final ?error ?sys ?part ?count WHERE {
  ?check a hk:SourceCheck ; hk:system ?system ; hk:checkedCitation ?citation ;
         hk:checkedAt ?at ; hk:reachable ?reachable .
  OPTIONAL { ?citation hk:url ?url }
  OPTIONAL { ?check hk:httpStatus ?status }
  OPTIONAL { ?check hk:finalUrl ?final }
  OPTIONAL { ?check hk:errorMessage ?error }
  OPTIONAL { ?check hk:namesSystem ?sys }
  OPTIONAL { ?check hk:namesPart ?part }
  OPTIONAL { ?check hk:namesCount ?count }
}
"""

_TERMS = """
SELECT ?check ?term ?kind WHERE {
  ?check a hk:SourceCheck ; hk:system ?system ; hk:termCheck ?tc .
  ?tc hk:term ?term ; hk:termKind ?kind ; hk:found true .
}
"""


def _bool(term: Any) -> bool:
    return term is not None and term.value in ("true", "1")


def _host(url: str | None) -> str:
    if not url:
        return "(no URL)"
    host = urlsplit(url).hostname or url
    return host[4:] if host.startswith("www.") else host


def _join(words: list[str]) -> str:
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def result_text(
    reachable: bool,
    http_status: int | None,
    names_system: bool,
    names_part: bool,
    names_count: bool,
    error: str | None = None,
) -> str:
    """The seed's wording of a check: ``"names system, part and count"``, ``"unreachable (404)"``."""
    if not reachable:
        if error:
            return f"unreachable ({error.split(';')[0].strip()[:60]})"
        return f"unreachable ({http_status if http_status is not None else 'no response'})"
    named = [w for w, flag in (("system", names_system), ("part", names_part), ("count", names_count)) if flag]
    if not named:
        return "names none of the terms"
    text = "names " + _join(named)
    return text if names_system else text + ", not the system"


def source_check_rows(ds: Dataset, system_iri: Any) -> list[SourceCheckRow]:
    """The latest check of each citation of one system, ordered by host then URL."""
    system = ox.NamedNode(str(system_iri.value if isinstance(system_iri, ox.NamedNode) else system_iri))
    rows = ds.select(_ROWS, {"system": system})
    found: dict[str, tuple[list[str], list[str], list[str]]] = {}
    for row in ds.select(_TERMS, {"system": system}):
        systems, parts, counts = found.setdefault(row["check"].value, ([], [], []))
        bucket = {"system": systems, "part": parts, "count": counts}.get(row["kind"].value)
        if bucket is not None and row["term"].value not in bucket:
            bucket.append(row["term"].value)
    latest: dict[str, SourceCheckRow] = {}
    for row in rows:
        check = row["check"].value
        systems, parts, counts = found.get(check, ([], [], []))
        text = ", ".join(sorted(parts))
        if counts:
            numbers = ", ".join(sorted(counts, key=lambda c: (len(c), c)))
            text = f"{text} · counts: {numbers}" if text else f"counts: {numbers}"
        if not text and systems:
            text = ", ".join(sorted(systems))
        status = int(row["status"].value) if "status" in row else None
        error = row["error"].value if "error" in row else None
        reachable = _bool(row.get("reachable"))
        flags = (_bool(row.get("sys")), _bool(row.get("part")), _bool(row.get("count")))
        url = row["url"].value if "url" in row else None
        item = SourceCheckRow(
            source=_host(url),
            url=url or "",
            result=result_text(reachable, status, *flags, error=error),
            found=text or "-",
            checked=_date(row["at"].value),
            reachable=reachable,
            http_status=status,
            names_system=flags[0],
            names_part=flags[1],
            names_count=flags[2],
            citation=row["citation"].value,
            check=check,
            final_url=row["final"].value if "final" in row else None,
            error=error,
        )
        previous = latest.get(item.citation)
        if previous is None or (item.checked or dt.date.min) >= (previous.checked or dt.date.min):
            latest[item.citation] = item
    return sorted(latest.values(), key=lambda r: (r.source, r.url, r.citation))


def _date(value: str) -> dt.date | None:
    try:
        return dt.datetime.fromisoformat(value.replace("Z", "+00:00")).date()
    except ValueError:
        try:
            return dt.date.fromisoformat(value[:10])
        except ValueError:
            return None


_SYSTEMS = "SELECT (COUNT(DISTINCT ?s) AS ?n) WHERE { ?s a hk:System }"

# Start from the few checks that name a system, not from every system.
_NAMED = """
SELECT (COUNT(DISTINCT ?s) AS ?n) WHERE {
  ?check hk:namesSystem true ; hk:reachable true ; a hk:SourceCheck ; hk:system ?s .
  ?s a hk:System .
}
"""

# A system's best tier is derived at load (hk:bestTierRank, see hpckg.derive), so
# counting the strong ones reads one value per system instead of every claim
# (it is written for systems only, so needs no type check).
_STRONG_DERIVED = """
SELECT (COUNT(DISTINCT ?s) AS ?n) WHERE {
  ?s hk:bestTierRank ?best .
  FILTER(?best > %d)
}
"""

_HAS_SUMMARIES = "ASK { ?s hk:readableCitation ?any }"

# Without the derived summaries (a dataset loaded with derive=False): start from the
# few strong tiers and join outwards; pyoxigraph evaluates a FILTER EXISTS per
# system, which took minutes on the full TOP500 graph.
_STRONG = """
SELECT (COUNT(DISTINCT ?s) AS ?n) WHERE {
  VALUES ?tier { %s }
  ?claim hk:tier ?tier ; hk:system ?s .
  ?s a hk:System .
}
"""

_CITATION_CHECKS = """
SELECT ?citation ?system ?at ?reachable WHERE {
  ?check a hk:SourceCheck ; hk:checkedCitation ?citation ; hk:system ?system ;
         hk:checkedAt ?at ; hk:reachable ?reachable .
}
"""


def _count(ds: Dataset, sparql: str) -> int:
    rows = ds.select(sparql)
    return int(rows[0]["n"].value) if rows and "n" in rows[0] else 0


def coverage(ds: Dataset) -> Coverage:
    """Count M systems, N named by a readable citation, K weakly sourced, L unreachable citations."""
    strong_tiers = " ".join(f"<{iri}>" for iri, rank in TIERS.values() if rank > _ESTIMATED_RANK)
    systems = _count(ds, _SYSTEMS)
    named = _count(ds, _NAMED)
    if systems and ds.ask(_HAS_SUMMARIES):
        strong = _count(ds, _STRONG_DERIVED % _ESTIMATED_RANK)
    else:
        strong = _count(ds, _STRONG % strong_tiers)
    latest: dict[str, tuple[str, bool]] = {}
    checked_systems: set[str] = set()
    for row in ds.select(_CITATION_CHECKS):
        citation, at = row["citation"].value, row["at"].value
        checked_systems.add(row["system"].value)
        # ISO timestamps in one time zone compare correctly as text.
        if citation not in latest or at > latest[citation][0]:
            latest[citation] = (at, _bool(row["reachable"]))
    unreachable = sum(1 for _, ok in latest.values() if not ok)
    return Coverage(
        systems=systems,
        named=named,
        weak=systems - strong,
        unreachable=unreachable,
        checked_citations=len(latest),
        checked_systems=len(checked_systems),
    )
