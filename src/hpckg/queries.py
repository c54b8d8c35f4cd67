"""Saved SPARQL queries: ``queries/<name>.rq`` files with a ``#+`` metadata header.

The header is a block of comment lines, so each file stays valid SPARQL::

    #+ title: A100 systems by current parent
    #+ description: Every system using an A100-family accelerator, grouped by ...
    #+ tags: supply-chain, accelerators
    #+ param: as_of (date) = today : date at which suppliers are rolled up
    #+ param: min_tier (tier) = weak : lowest confidence tier counted

A parameter appears in the query as ``$name``. Values are bound as RDF terms via
pyoxigraph substitutions, never pasted into the query text.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pyoxigraph as ox

from .errors import ParameterError, QueryError
from .namespaces import ID, PREFIXES, TIERS, XSD

if TYPE_CHECKING:
    from .store import Dataset

__all__ = [
    "PARAM_TYPES",
    "adhoc",
    "convert",
    "queries_dir",
    "to_result",
    "Param",
    "QueryResult",
    "SavedQuery",
    "all_saved",
    "bind_params",
    "load_saved",
    "parse_saved",
    "query_variables",
    "run_query",
]

# Parameter types: a user-facing name -> the IRI folder of the kind, for entity types.
ENTITY_KINDS = {"system": "system", "org": "org", "part": "part", "family": "family", "region": "region"}
PARAM_TYPES = ("string", "integer", "decimal", "date", "iri", "tier", *ENTITY_KINDS)

_HEADER = re.compile(r"^#\+\s*(\w+)\s*:\s*(.*)$")
_PARAM = re.compile(
    r"^(?P<name>[A-Za-z_]\w*)\s*\((?P<type>\w+)\)\s*(?:=\s*(?P<default>[^:]*?))?\s*(?::\s*(?P<doc>.*))?$"
)
_DOLLAR_VAR = re.compile(r"\$([A-Za-z_]\w*)")
_SLUG = re.compile(r"^[a-z0-9][a-z0-9-]*$")


@dataclass(frozen=True)
class Param:
    name: str
    type: str
    default: str | None = None
    description: str = ""

    @property
    def required(self) -> bool:
        return self.default is None


@dataclass(frozen=True)
class SavedQuery:
    """One saved query: its metadata and its text."""

    name: str
    title: str
    description: str
    params: tuple[Param, ...]
    tags: tuple[str, ...]
    text: str
    path: Path | None = None

    def param(self, name: str) -> Param | None:
        return next((p for p in self.params if p.name == name), None)


@dataclass
class QueryResult:
    """The outcome of a SELECT (columns + rows), an ASK (boolean) or a graph query (triples)."""

    columns: list[str] = field(default_factory=list)
    rows: list[tuple[Any, ...]] = field(default_factory=list)
    boolean: bool | None = None
    triples: list[Any] | None = None

    def records(self) -> list[dict[str, Any]]:
        return [dict(zip(self.columns, row, strict=True)) for row in self.rows]


def query_variables(text: str) -> set[str]:
    """The ``$name`` parameters a query uses (comment lines ignored)."""
    body = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("#"))
    body = re.sub(r'"(?:[^"\\]|\\.)*"', '""', body)
    return set(_DOLLAR_VAR.findall(body))


def parse_saved(text: str, name: str, path: Path | None = None) -> SavedQuery:
    """Read the ``#+`` header of a saved query."""
    meta: dict[str, str] = {}
    params: list[Param] = []
    for number, line in enumerate(text.splitlines(), start=1):
        match = _HEADER.match(line.strip())
        if not match:
            continue
        key, value = match.group(1).lower(), match.group(2).strip()
        if key == "param":
            pm = _PARAM.match(value)
            if not pm or pm.group("type") not in PARAM_TYPES:
                raise QueryError(
                    f"line {number}: bad parameter declaration {value!r} "
                    f"(expected 'name (type) = default : description', type one of {', '.join(PARAM_TYPES)})",
                    name,
                )
            default = pm.group("default")
            params.append(
                Param(
                    pm.group("name"),
                    pm.group("type"),
                    default.strip() if default else None,
                    (pm.group("doc") or "").strip(),
                )
            )
        else:
            meta[key] = value
    tags = tuple(t.strip() for t in meta.get("tags", "").split(",") if t.strip())
    return SavedQuery(name, meta.get("title", ""), meta.get("description", ""), tuple(params), tags, text, path)


def queries_dir(root: Path | None = None) -> Path:
    from .store import find_root

    return (root or find_root()) / "queries"


def all_saved(root: Path | None = None) -> list[SavedQuery]:
    """Every saved query, sorted by name."""
    folder = queries_dir(root)
    return [parse_saved(p.read_text(encoding="utf-8"), p.stem, p) for p in sorted(folder.glob("*.rq"))]


def load_saved(name_or_path: str, root: Path | None = None) -> SavedQuery:
    """A saved query by name (``top-systems-by-rmax``) or by path to a ``.rq`` file."""
    candidate = Path(name_or_path)
    if candidate.suffix == ".rq" or candidate.is_file():
        if not candidate.is_file():
            raise QueryError("no such query file", name_or_path)
        return parse_saved(candidate.read_text(encoding="utf-8"), candidate.stem, candidate)
    path = queries_dir(root) / f"{name_or_path}.rq"
    if not path.is_file():
        known = ", ".join(q.name for q in all_saved(root))
        raise QueryError(f"unknown saved query (known: {known})", name_or_path)
    return parse_saved(path.read_text(encoding="utf-8"), name_or_path, path)


def _expand_iri(value: str, query: str, param: str) -> ox.NamedNode:
    if ":" in value and not value.startswith(("http://", "https://", "urn:")):
        prefix, _, local = value.partition(":")
        if prefix in PREFIXES and re.fullmatch(r"[\w.-]*", local):
            return ox.NamedNode(PREFIXES[prefix] + local)
    if re.fullmatch(r"(https?|urn):[^\s<>\"{}|\\^`]+", value):
        return ox.NamedNode(value)
    raise ParameterError(f"{value!r} is not an IRI or prefixed name", query, param)


def convert(param: Param, value: str, query: str = "") -> Any:
    """Turn a command-line string into the RDF term of the parameter's type."""
    kind = param.type
    if kind == "string":
        return ox.Literal(value)
    if kind == "integer":
        if not re.fullmatch(r"[+-]?\d+", value.strip()):
            raise ParameterError(f"expected an integer, got {value!r}", query, param.name)
        return ox.Literal(str(int(value)), datatype=ox.NamedNode(str(XSD.integer)))
    if kind == "decimal":
        try:
            number = Decimal(value.strip())
        except InvalidOperation:
            raise ParameterError(f"expected a number, got {value!r}", query, param.name) from None
        if not number.is_finite():
            raise ParameterError(f"expected a finite number, got {value!r}", query, param.name)
        return ox.Literal(str(number), datatype=ox.NamedNode(str(XSD.decimal)))
    if kind == "date":
        if value == "today":
            day = dt.date.today()
        else:
            try:
                day = dt.date.fromisoformat(value.strip())
            except ValueError:
                raise ParameterError(
                    f"expected a date YYYY-MM-DD or 'today', got {value!r}", query, param.name
                ) from None
        return ox.Literal(day.isoformat(), datatype=ox.NamedNode(str(XSD.date)))
    if kind == "tier":
        tier = TIERS.get(value.strip().lower())
        if tier is None:
            raise ParameterError(f"expected one of {', '.join(TIERS)}, got {value!r}", query, param.name)
        return ox.NamedNode(str(tier[0]))
    if kind == "iri":
        return _expand_iri(value, query, param.name)
    folder = ENTITY_KINDS[kind]
    if _SLUG.match(value):
        return ox.NamedNode(f"{ID}{folder}/{value}")
    term = _expand_iri(value, query, param.name)
    if not term.value.startswith(f"{ID}{folder}/"):
        raise ParameterError(
            f"{value!r} is not a {kind} (expected a slug such as 'seren' or a {kind}: IRI)", query, param.name
        )
    return term


def bind_params(query: SavedQuery, values: Mapping[str, str]) -> dict[str, Any]:
    """Check ``values`` against the declared parameters and convert them to RDF terms."""
    unknown = sorted(set(values) - {p.name for p in query.params})
    if unknown:
        declared = ", ".join(p.name for p in query.params) or "none"
        raise ParameterError(f"unknown parameter (this query takes: {declared})", query.name, unknown[0])
    bound: dict[str, Any] = {}
    for param in query.params:
        raw = values.get(param.name, param.default)
        if raw is None:
            raise ParameterError("missing required value (use --param name=value)", query.name, param.name)
        bound[param.name] = convert(param, raw, query.name)
    return bound


def run_query(ds: Dataset, query: SavedQuery, values: Mapping[str, str] | None = None) -> QueryResult:
    """Run a saved (or ad-hoc) query on the dataset with its parameters bound."""
    bindings = bind_params(query, values or {})
    outcome = ds.query(query.text, bindings, name=query.name)
    return to_result(outcome)


def to_result(outcome: Any) -> QueryResult:
    if isinstance(outcome, ox.QuerySolutions):
        columns = [v.value for v in outcome.variables]
        rows = [tuple(solution[c] for c in columns) for solution in outcome]
        return QueryResult(columns, rows)
    if isinstance(outcome, ox.QueryBoolean):
        return QueryResult(boolean=bool(outcome))
    return QueryResult(triples=list(outcome))


def adhoc(text: str, name: str = "sparql") -> SavedQuery:
    """An ad-hoc query; it may declare typed parameters with its own ``#+ param:`` lines."""
    return parse_saved(text, name)
