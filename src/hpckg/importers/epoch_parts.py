"""Resolve Epoch's chip and organization names through the shared catalogue.

:class:`EpochNames` wraps :class:`hpckg.catalogue.Catalogue` (never edits it): the
catalogue resolves what the curated labels carry; the small tables here hold only
spellings peculiar to the Epoch files. Organizations that do not resolve get an IRI
minted from their name (``org:<slug>``), so the same name is the same node on
every import and becomes the curated node as soon as a curator adds it; each
minted organization is listed in the import report.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from rdflib import URIRef

from ..catalogue import Catalogue, norm_name
from ..namespaces import HK, id_iri

__all__ = ["Chip", "EpochNames"]

# Epoch spellings -> curated org slugs (used only when the slug exists in the graph).
_ORG_ALIASES = {
    "amazon aws": "amazon",
    "aws": "amazon",
    "meta ai": "meta",
    "google deepmind": "google",
    "deepmind": "google",
    "pezy": "pezy-computing",
    "hewlett packard enterprise": "hpe",
}
# Supplier column values that name no one.
_NO_SUPPLIER = {"", "unknown", "anonymized", "anonymised"}


@dataclass(frozen=True)
class Chip:
    """A chip name resolved: the part (when catalogued), its family and its supplier."""

    text: str
    part: URIRef | None
    family: URIRef | None
    supplier: URIRef | None


@dataclass
class EpochNames:
    """Organization and chip resolution for one import, with what did not resolve."""

    catalogue: Catalogue
    minted: dict[URIRef, str] = field(default_factory=dict)
    unknown_chips: Counter[str] = field(default_factory=Counter)

    def org(self, name: str) -> URIRef:
        """The organization for one owner name: curated when possible, else minted."""
        name = " ".join(name.split())
        slug = _ORG_ALIASES.get(norm_name(name))
        if slug is not None and self.catalogue.org(slug) is not None:
            return id_iri("org", slug)
        found = self.catalogue.resolve_orgs(name)
        if len(found) == 1:
            return found[0]
        node = id_iri("org", name)
        if node in self.catalogue.orgs:
            return node
        self.minted.setdefault(node, name)
        return node

    def supplier(self, text: str) -> URIRef | None:
        """The organization of Epoch's "GPU Supplier" column, curated only (no minting)."""
        if text.strip().lower() in _NO_SUPPLIER:
            return None
        slug = _ORG_ALIASES.get(norm_name(text))
        if slug is not None:
            return self.catalogue.org(slug)
        found = self.catalogue.resolve_orgs(text)
        return found[0] if len(found) == 1 else None

    def chip(self, text: str, supplier_text: str = "") -> Chip:
        """Resolve a chip type; the supplier is the part's designer, else the supplier column."""
        part = self.catalogue.resolve_part(text, HK.Accelerator, log=False)
        if part is None:
            part = self.catalogue.resolve_part(text, log=False)
        if part is None:
            self.unknown_chips[text] += 1
        designer = self.catalogue.designer(part)
        supplier = designer or self.supplier(supplier_text) or self.catalogue.designer_from_text(text)
        return Chip(text, part, self.catalogue.family(part), supplier)
