"""Source checks as records, and the file that holds them.

A :class:`SourceCheck` is one dated reading of one (citation, system) pair; its
IRI is derived from the pair alone (``check/<citation>/<system>``), so a new check
replaces the older one of the same pair. :class:`CheckFile` reads and writes the
output file (default ``graph/source-checks.ttl``): sorted, deterministic Turtle,
written atomically. It refuses to write over a file that holds anything but
source checks, so a mistyped ``-o`` cannot clobber a curated file.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import pyoxigraph as ox

from ..errors import DataError
from ..io import atomic_write
from ..namespaces import HK, PREFIXES, RDF, XSD, digest, id_iri, slugify

__all__ = ["CheckFile", "SourceCheck", "TermCheck", "check_iri", "term_iri"]

KINDS = ("system", "part", "count")


def _key(iri: str, prefix: str) -> str:
    """The slug of an hpckg IRI of a given kind, or a digest for any other IRI."""
    base = PREFIXES[prefix]
    local = iri[len(base) :] if iri.startswith(base) else ""
    return local if local and "/" not in local and slugify(local) == local else digest(iri)


def check_iri(citation: str, system: str) -> str:
    """``check/<citation slug>/<system slug>``: one node per pair, stable across runs."""
    return str(id_iri("check", _key(citation, "cite"), _key(system, "system")))


def term_iri(check: str, kind: str, term: str) -> str:
    slug = slugify(term)
    suffix = slug if len(slug) <= 48 and slug == term.lower() else f"{slug[:40]}-{digest(term, length=8)}"
    return f"{check}/{kind}-{suffix}"


@dataclass(frozen=True)
class TermCheck:
    """One term looked for on the page: found or not, with a snippet around it."""

    term: str
    kind: str  # system, part or count
    found: bool
    snippet: str | None = None


@dataclass(frozen=True)
class SourceCheck:
    """One dated reading of a citation for a system."""

    citation: str
    system: str
    checked_at: dt.datetime
    reachable: bool
    http_status: int | None = None
    final_url: str | None = None
    content_type: str | None = None
    error: str | None = None
    etag: str | None = None
    last_modified: str | None = None
    terms: tuple[TermCheck, ...] = ()
    names_system: bool | None = None
    names_part: bool | None = None
    names_count: bool | None = None

    @property
    def iri(self) -> str:
        return check_iri(self.citation, self.system)

    @property
    def pair(self) -> tuple[str, str]:
        return (self.citation, self.system)

    def term_set(self) -> frozenset[tuple[str, str]]:
        return frozenset((t.kind, t.term) for t in self.terms)

    def with_terms(self, terms: Iterable[TermCheck]) -> SourceCheck:
        """This check with ``terms``; the names* flags follow (``None`` when nothing of a kind was asked)."""
        terms = tuple(terms)
        flags = {
            kind: (any(t.found for t in terms if t.kind == kind) if any(t.kind == kind for t in terms) else None)
            for kind in KINDS
        }
        return replace(
            self,
            terms=terms,
            names_system=flags["system"],
            names_part=flags["part"],
            names_count=flags["count"],
        )


_NEEDS_ESCAPE = re.compile(r'["\\\x00-\x1f\x7f\ufffe\uffff]')
_ESCAPES = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t"}
_IRI_BAD = re.compile(r'[<>"{}|^`\\\x00-\x20]')


def _lit(text: str) -> str:
    """A Turtle string literal; page snippets may hold any character."""
    escaped = _NEEDS_ESCAPE.sub(lambda m: _ESCAPES.get(m.group(), f"\\u{ord(m.group()):04X}"), text)
    return '"' + escaped + '"'


def _iri(value: str) -> str:
    # Characters Turtle forbids in an IRIREF; contributors' URLs are not trusted.
    return "<" + _IRI_BAD.sub(lambda m: f"%{ord(m.group()):02X}", value) + ">"


def _typed(value: str, datatype: str) -> str:
    return f'"{value}"^^xsd:{datatype}'


def _bool(value: bool) -> str:
    return "true" if value else "false"


_HEADER = "\n".join(
    [
        f"@prefix hk: <{HK}> .",
        f"@prefix xsd: <{XSD}> .",
        "",
        "# Source checks written by `hpckg verify`: generated, not curated. Re-run the",
        "# command rather than editing; each check replaces the older one of its pair.",
        "",
        "",
    ]
)


def _block(check: SourceCheck) -> str:
    """The Turtle of one check and its term checks."""
    iri = check.iri
    props = [
        ("a", "hk:SourceCheck"),
        ("hk:checkedCitation", _iri(check.citation)),
        ("hk:system", _iri(check.system)),
        ("hk:checkedAt", _typed(check.checked_at.strftime("%Y-%m-%dT%H:%M:%SZ"), "dateTime")),
        ("hk:reachable", _bool(check.reachable)),
    ]
    if check.http_status is not None:
        props.append(("hk:httpStatus", str(check.http_status)))
    if check.final_url:
        props.append(("hk:finalUrl", _lit(check.final_url) + "^^xsd:anyURI"))
    for name, text in (
        ("contentType", check.content_type),
        ("etag", check.etag),
        ("lastModified", check.last_modified),
        ("errorMessage", check.error),
    ):
        if text:
            props.append((f"hk:{name}", _lit(text)))
    for name, flag in (
        ("namesSystem", check.names_system),
        ("namesPart", check.names_part),
        ("namesCount", check.names_count),
    ):
        if flag is not None:
            props.append((f"hk:{name}", _bool(flag)))
    terms = sorted(check.terms, key=lambda t: (KINDS.index(t.kind) if t.kind in KINDS else 9, t.term))
    term_iris = [_iri(term_iri(iri, t.kind, t.term)) for t in terms]
    props += [("hk:termCheck", t) for t in term_iris]
    lines = [_iri(iri) + " " + " ;\n    ".join(f"{p} {o}" for p, o in props) + " ."]
    for term, node in zip(terms, term_iris, strict=True):
        tprops = [
            ("a", "hk:TermCheck"),
            ("hk:term", _lit(term.term)),
            ("hk:termKind", _lit(term.kind)),
            ("hk:found", _bool(term.found)),
        ]
        if term.snippet:
            tprops.append(("hk:snippet", _lit(term.snippet)))
        lines.append(node + " " + " ;\n    ".join(f"{p} {o}" for p, o in tprops) + " .")
    return "\n".join(lines) + "\n\n"


_OWN_TYPES = {str(HK.SourceCheck), str(HK.TermCheck)}


def _parse_time(value: str) -> dt.datetime:
    parsed = dt.datetime.fromisoformat(value.replace("Z", "+00:00"))
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=dt.UTC)


@dataclass
class CheckFile:
    """The output file of source checks: load, replace checks by pair, save atomically."""

    path: Path
    checks: dict[tuple[str, str], SourceCheck] = field(default_factory=dict)
    dirty: bool = False
    # Serialised blocks by pair: a long run rewrites the file often, each check once.
    _blocks: dict[tuple[str, str], tuple[SourceCheck, str, str]] = field(default_factory=dict, repr=False)

    @classmethod
    def open(cls, path: str | Path) -> CheckFile:
        """Read ``path`` if it exists; raise :class:`DataError` if it is not a checks file."""
        target = Path(path)
        store = cls(target)
        if target.exists():
            store.checks = {c.pair: c for c in read_checks(target)}
        return store

    def get(self, citation: str, system: str) -> SourceCheck | None:
        return self.checks.get((citation, system))

    def put(self, check: SourceCheck) -> None:
        self.checks[check.pair] = check
        self.dirty = True

    def turtle(self) -> str:
        """The whole file: header, then one block per check in IRI order (deterministic)."""
        blocks = []
        for pair, check in self.checks.items():
            cached = self._blocks.get(pair)
            if cached is None or cached[0] is not check:
                cached = self._blocks[pair] = (check, check.iri, _block(check))
            blocks.append(cached[1:])
        return _HEADER + "".join(text for _, text in sorted(blocks))

    def save(self) -> Path:
        atomic_write(self.path, self.turtle())
        self.dirty = False
        return self.path


def read_checks(path: Path) -> list[SourceCheck]:
    """The source checks of a file written by :class:`CheckFile`."""
    try:
        quads = list(ox.parse(path=str(path), format=ox.RdfFormat.TURTLE))
    except (SyntaxError, ValueError, OSError) as error:
        raise DataError(f"cannot read source checks ({error})", path) from None
    by_subject: dict[str, dict[str, list[Any]]] = {}
    for quad in quads:
        subject = quad.subject.value
        by_subject.setdefault(subject, {}).setdefault(quad.predicate.value, []).append(quad.object)
    for subject, props in by_subject.items():
        types = {t.value for t in props.get(str(RDF.type), [])}
        if not types & _OWN_TYPES:
            raise DataError(
                f"holds {subject}, which is not a source check; refusing to use it as the checks file", path
            )

    def one(props: dict[str, list[Any]], name: str) -> str | None:
        values = props.get(str(HK[name]))
        return values[0].value if values else None

    def flag(props: dict[str, list[Any]], name: str) -> bool | None:
        value = one(props, name)
        return None if value is None else value in ("true", "1")

    checks = []
    for subject, props in by_subject.items():
        if str(HK.SourceCheck) not in {t.value for t in props.get(str(RDF.type), [])}:
            continue
        terms = []
        for node in props.get(str(HK.termCheck), []):
            tprops = by_subject.get(node.value, {})
            terms.append(
                TermCheck(
                    one(tprops, "term") or "",
                    one(tprops, "termKind") or "",
                    bool(flag(tprops, "found")),
                    one(tprops, "snippet"),
                )
            )
        status = one(props, "httpStatus")
        try:
            checks.append(
                SourceCheck(
                    citation=one(props, "checkedCitation") or "",
                    system=one(props, "system") or "",
                    checked_at=_parse_time(one(props, "checkedAt") or ""),
                    reachable=bool(flag(props, "reachable")),
                    http_status=int(status) if status is not None else None,
                    final_url=one(props, "finalUrl"),
                    content_type=one(props, "contentType"),
                    error=one(props, "errorMessage"),
                    etag=one(props, "etag"),
                    last_modified=one(props, "lastModified"),
                    terms=tuple(terms),
                    names_system=flag(props, "namesSystem"),
                    names_part=flag(props, "namesPart"),
                    names_count=flag(props, "namesCount"),
                )
            )
        except ValueError as error:
            raise DataError(f"bad source check {subject} ({error})", path) from None
    return checks
