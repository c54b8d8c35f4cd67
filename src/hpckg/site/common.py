"""Small helpers shared by the site modules: page slugs, term values, labels, countries.

Page paths must be stable across builds and safe as file names, so every node gets
its slug from its IRI (the part after ``id/<kind>/``), falling back to a slug of
the whole IRI, with a short digest appended only on a collision.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from ..namespaces import ID, digest, slugify

__all__ = [
    "SlugMap",
    "fmt_int",
    "fmt_number",
    "num",
    "text",
]

_SAFE_SLUG = re.compile(r"^[a-z0-9][a-z0-9-]{0,150}$")


def text(term: Any) -> str:
    """The lexical value of a pyoxigraph term (``""`` for None)."""
    return "" if term is None else str(term.value)


def num(term: Any) -> float | None:
    """A numeric literal as a float, or None when absent or not a number."""
    if term is None:
        return None
    try:
        return float(term.value)
    except (TypeError, ValueError):
        return None


def fmt_number(value: float | None, digits: int = 2) -> str:
    """``12345.678`` -> ``"12,345.68"``; ``None`` -> ``"-"``; integers lose the decimals."""
    if value is None:
        return "-"
    if float(value).is_integer() and abs(value) >= 1:
        return f"{int(value):,}"
    return f"{value:,.{digits}f}"


def fmt_int(value: int | float | None) -> str:
    return "-" if value is None else f"{round(value):,}"


class SlugMap:
    """IRI -> unique, file-name-safe slug for one kind of page (system, org, family)."""

    def __init__(self, kind: str, iris: Iterable[str]) -> None:
        self.kind = kind
        self._by_iri: dict[str, str] = {}
        taken: set[str] = set()
        prefix = f"{ID}{kind}/"
        # Natural slugs first, so a clash never steals a clean IRI's slug.
        ordered = sorted(set(iris), key=lambda i: (not self._natural(i, prefix), i))
        for iri in ordered:
            slug = self._natural(iri, prefix) or slugify(iri.rsplit("/", 1)[-1] or iri)[:100]
            if slug in taken or slug in {"index"}:
                slug = f"{slug[:80]}-{digest(iri, length=8)}"
            taken.add(slug)
            self._by_iri[iri] = slug

    @staticmethod
    def _natural(iri: str, prefix: str) -> str | None:
        if iri.startswith(prefix):
            tail = iri[len(prefix) :]
            if _SAFE_SLUG.match(tail):
                return tail
        return None

    def __contains__(self, iri: object) -> bool:
        return iri in self._by_iri

    def get(self, iri: str | None) -> str | None:
        return self._by_iri.get(iri) if iri else None

    def items(self) -> list[tuple[str, str]]:
        return sorted(self._by_iri.items())
