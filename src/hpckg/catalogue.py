"""Resolve free-text names of organizations and parts to curated graph nodes.

Importers meet the curated graph here. A name resolves through, in order:

1. the whole text against every ``rdfs:label`` / ``skos:prefLabel`` /
   ``skos:altLabel`` / ``skos:hiddenLabel`` of the curated nodes, after
   normalisation (case, punctuation, corporate suffixes such as "Inc.", "SAS");
2. for organizations, the text split on ``/`` and ``,`` ("IBM / NVIDIA / Mellanox"
   names three suppliers), each piece resolved as in 1;
3. a small table of patterns in code (``_ORG_PATTERNS``, ``_INTERCONNECTS``) for
   names that labels cannot carry, such as "Slingshot-11" being a Cray design.

A pattern only yields a node that exists in the curated graph: nothing is invented.
Every name that does not resolve is counted in :attr:`Catalogue.unresolved` for the
import report.

>>> cat = Catalogue.from_dataset(Dataset.load())          # doctest: +SKIP
>>> cat.resolve_orgs("IBM / NVIDIA / Mellanox")            # doctest: +SKIP
[URIRef('.../org/ibm'), URIRef('.../org/nvidia'), URIRef('.../org/mellanox')]
"""

from __future__ import annotations

import datetime as dt
import re
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from rdflib import URIRef

from .namespaces import HK, id_iri

if TYPE_CHECKING:
    from .rollup import OwnershipGraph
    from .store import Dataset

__all__ = ["Catalogue", "norm_name", "norm_part"]

_SUFFIXES = {
    "inc",
    "incorporated",
    "ltd",
    "limited",
    "llc",
    "corp",
    "corporation",
    "co",
    "company",
    "sa",
    "sas",
    "se",
    "ag",
    "gmbh",
    "spa",
    "plc",
    "bv",
    "nv",
    "kk",
}
_ZERO_WIDTH = dict.fromkeys(map(ord, "\u200b\u200c\u200d\ufeff"), None)


def _ascii(text: str) -> str:
    folded = unicodedata.normalize("NFKD", text.translate(_ZERO_WIDTH))
    return folded.encode("ascii", "ignore").decode().lower()


def norm_name(text: str) -> str:
    """Normalise an organization name: ``"Cray Inc."`` -> ``"cray"``."""
    words = re.sub(r"[^a-z0-9]+", " ", _ascii(text).replace("&", " and ")).split()
    # "S.p.A." becomes "s p a": rejoin single letters so the suffix test sees "spa".
    joined: list[str] = []
    for word in words:
        if len(word) == 1 and joined and len(joined[-1]) < 3 and joined[-1].isalpha() and word.isalpha():
            joined[-1] += word
        else:
            joined.append(word)
    while len(joined) > 1 and joined[-1] in _SUFFIXES:
        joined.pop()
    return " ".join(joined)


# Words that carry no model information in part names ("NVIDIA Tesla V100").
_PART_NOISE = {
    "nvidia",
    "amd",
    "intel",
    "tesla",
    "instinct",
    "ati",
    "gpu",
    "superchip",
    "the",
    "ibm",
    "mellanox",
    "hpe",
    "cray",
}
_FORM_FACTOR = re.compile(r"\b(sxm\d?|pcie|nvlink|hgx|dgx|oam|\d+w)\b")
_MEMORY = re.compile(r"\b(\d+)\s*(?:g|gb|gib)\b")
_HBM = re.compile(r"\bhbm\d?e?\b")
_CORES_FREQ = re.compile(r"\b\d+c\b|\b\d+(?:\.\d+)?\s*[gm]hz\b")


def norm_part(text: str) -> list[str]:
    """Keys for a part name, most specific first.

    ``"NVIDIA Tesla A100 80G"`` -> ``["a100 80gb", "a100"]``;
    ``"NVIDIA H100 SXM5 80GB"`` -> ``["h100 sxm5 80gb", "h100 80gb", "h100"]``.
    """
    text = _ascii(text)
    text = _MEMORY.sub(lambda m: f" {m.group(1)}gb ", text)
    text = _HBM.sub(" ", text)
    text = _CORES_FREQ.sub(" ", text)
    words = [w for w in re.sub(r"[^a-z0-9]+", " ", text).split() if w not in _PART_NOISE]
    full = " ".join(words)
    no_form = " ".join(_FORM_FACTOR.sub(" ", full).split())
    bare = " ".join(w for w in no_form.split() if not re.fullmatch(r"\d+gb", w))
    keys: list[str] = []
    for key in (full, no_form, bare):
        if key and key not in keys:
            keys.append(key)
    return keys


# Organization patterns for names that labels cannot carry (applied to norm_name
# output, whole text or one piece of a split). Values are org slugs.
_ORG_PATTERNS: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"^hpe cray$|^cray hpe$"), "hpe"),
    (re.compile(r"^hewlett packard enterprise\b"), "hpe"),
    (re.compile(r"^dell emc\b|^dell\b"), "dell"),
    (re.compile(r"^bull\b.*atos"), "bull"),
    (re.compile(r"^huawei\b"), "huawei"),
    (re.compile(r"^inspur\b"), "inspur"),
    (re.compile(r"^sugon\b|^dawning\b"), "sugon"),
    (re.compile(r"^lenovo\b"), "lenovo"),
    (re.compile(r"^fujitsu\b"), "fujitsu"),
    (re.compile(r"^megware\b"), "megware"),
    (re.compile(r"^supermicro\b|^super micro\b"), "supermicro"),
    (re.compile(r"^eviden\b"), "eviden"),
]
# Names that are not organizations: reported as skipped, never as unresolved orgs.
_NOT_ORGS = {"self made", "none", "n a", "na", "unknown", "various", "others"}

# Interconnect free text -> (part key, vendor slug named or implied by the technology).
# The part key is looked up in the parts catalogue; the vendor is the designer.
_INTERCONNECTS: list[tuple[re.Pattern[str], str | None, str | None]] = [
    (re.compile(r"slingshot[- ]?11"), "slingshot 11", "cray"),
    (re.compile(r"slingshot[- ]?10"), "slingshot 10", "cray"),
    (re.compile(r"slingshot"), "slingshot", "cray"),
    (re.compile(r"\baries\b"), "aries", "cray"),
    (re.compile(r"\bgemini\b"), "gemini", "cray"),
    (re.compile(r"\bxt4\b|seastar"), "seastar", "cray"),
    (re.compile(r"tofu interconnect d\b|tofud"), "tofu interconnect d", "fujitsu"),
    (re.compile(r"tofu interconnect 2\b|tofu2"), "tofu interconnect 2", "fujitsu"),
    (re.compile(r"\btofu\b"), "tofu interconnect", "fujitsu"),
    (re.compile(r"th express[- ]?2"), "th express 2", "nudt"),
    (re.compile(r"th express"), "th express", "nudt"),
    (re.compile(r"\bbxi\b"), "bxi", "bull"),
    (re.compile(r"omni ?path|opa\b"), "omni path", "intel"),
    (re.compile(r"true ?scale|truscale"), "truescale", "intel"),
    (re.compile(r"numalink"), "numalink", "sgi"),
    (re.compile(r"\bsunway\b"), "sunway network", "nrcpc"),
    (re.compile(r"mn core directconnect"), "mn core directconnect", "preferred networks"),
    (re.compile(r"\bspectrum x\b"), "spectrum x", "nvidia"),
    (re.compile(r"connectx 7"), "infiniband ndr", "nvidia"),
    (re.compile(r"connectx 6"), "infiniband hdr", "mellanox"),
    (re.compile(r"infini ?band.*\bndr\d*|\bndr\d*\b.*infini ?band"), "infiniband ndr", None),
    (re.compile(r"infini ?band.*\bhdr\d*|\bhdr\d*\b.*infini ?band|mellanox hdr"), "infiniband hdr", None),
    (re.compile(r"infini ?band.*\bedr\b|\bedr\b.*infini ?band"), "infiniband edr", None),
    (re.compile(r"infini ?band.*\bfdr\d*|\bfdr\b.*infini ?band"), "infiniband fdr", None),
    (re.compile(r"infini ?band.*\bqdr\b"), "infiniband qdr", None),
    (re.compile(r"infin i?band.*\bddr\b|infiniband.*\bddr\b|infinband ddr"), "infiniband ddr", None),
    (re.compile(r"\bfederation\b|\bsp switch\b"), None, "ibm"),
    (re.compile(r"\bmyrinet\b"), "myrinet", None),
]
# Vendors named in interconnect text; the first found wins.
_NAMED_VENDORS: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"\bmellanox\b"), "mellanox"),
    (re.compile(r"\bnvidia\b"), "nvidia"),
    (re.compile(r"\bcornelis\b"), "cornelis-networks"),
    (re.compile(r"\beviden\b"), "eviden"),
    (re.compile(r"\batos\b"), "atos"),
    (re.compile(r"\bbull\b"), "bull"),
    (re.compile(r"\bbroadcom\b|\bbcm\d+"), "broadcom"),
    (re.compile(r"\bdell\b"), "dell"),
    (re.compile(r"\bintel\b"), "intel"),
    (re.compile(r"\bcray\b"), "cray"),
]
# Keywords of processor and accelerator names -> designer slug.
_DESIGNER_WORDS: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"\bnvidia\b|\bnvdia\b|\bndiva\b|\btesla\b|\bgrace\b|\bgh200\b|\b[ahkmpv]\d{2,3}x?\b"), "nvidia"),
    (re.compile(r"\bxeon\b|\bintel\b|\bitanium\b|\bmic\b|\bgpu max\b"), "intel"),
    (re.compile(r"\bamd\b|\bepyc\b|\bopteron\b|\binstinct\b|\bradeon\b|\bfirepro\b|\bati\b|\bmi\d{3}"), "amd"),
    (re.compile(r"\bpower\s?\d*\b|\bpowerpc\b|\bpowerxcell\b|\bpower bqc\b"), "ibm"),
    (re.compile(r"\bsparc64\b|\ba64fx\b|\bsparc\b"), "fujitsu"),
    (re.compile(r"\bshenwei\b|\bsw\d{4,5}\b|\bsunway\b"), "nrcpc"),
    (re.compile(r"\bmatrix 2000\b"), "nudt"),
    (re.compile(r"\bpezy\b"), "pezy-computing"),
    (re.compile(r"\bmn core\b"), "preferred-networks"),
    (re.compile(r"\bthunderx2?\b"), "cavium"),
    (re.compile(r"\bsx aurora\b|\bvector engine\b|\bnec\b"), "nec"),
    (re.compile(r"\bhygon\b"), "hygon"),
    (re.compile(r"\bkunpeng\b"), "huawei"),
]


@dataclass
class Catalogue:
    """Name indexes over the curated organizations and parts, and an unresolved log."""

    org_labels: dict[str, URIRef]
    part_labels: dict[str, URIRef]
    part_reduced: dict[str, URIRef | None]
    family_labels: dict[str, URIRef]
    families: dict[URIRef, URIRef]
    designers: dict[URIRef, URIRef]
    part_kinds: dict[URIRef, URIRef]
    orgs: set[URIRef]
    ownership: OwnershipGraph | None = None
    # Standards bodies design specifications (InfiniBand, Ethernet) but ship nothing.
    non_suppliers: set[URIRef] = field(default_factory=set)
    unresolved: dict[str, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))
    skipped: Counter[str] = field(default_factory=Counter)

    # -- construction -------------------------------------------------------------

    @classmethod
    def from_dataset(cls, ds: Dataset) -> Catalogue:
        """Index the labels of every hk:Organization, hk:Part and hk:PartFamily."""
        from .rollup import OwnershipGraph

        label_query = """SELECT ?n ?l WHERE {{
            ?n a {cls} .
            {{ ?n rdfs:label ?l }} UNION {{ ?n skos:prefLabel ?l }}
            UNION {{ ?n skos:altLabel ?l }} UNION {{ ?n skos:hiddenLabel ?l }} }}"""
        org_rows = ds.select(label_query.format(cls="hk:Organization"))
        part_rows = ds.select(label_query.format(cls="hk:Part"))
        family_rows = ds.select(label_query.format(cls="hk:PartFamily"))
        orgs = {URIRef(r["o"].value) for r in ds.select("SELECT DISTINCT ?o WHERE { ?o a hk:Organization }")}
        facts = ds.select(
            """SELECT ?p ?f ?d ?k WHERE { ?p a hk:Part .
                 OPTIONAL { ?p hk:family ?f } OPTIONAL { ?p hk:designer ?d } OPTIONAL { ?p hk:partKind ?k } }"""
        )
        consortia = {
            URIRef(r["o"].value)
            for r in ds.select("SELECT ?o WHERE { ?o a hk:Organization ; hk:orgKind hk:Consortium }")
        }
        return cls.build(
            orgs=orgs,
            non_suppliers=consortia,
            org_labels=[(URIRef(r["n"].value), r["l"].value) for r in org_rows],
            part_labels=[(URIRef(r["n"].value), r["l"].value) for r in part_rows],
            family_labels=[(URIRef(r["n"].value), r["l"].value) for r in family_rows],
            families={URIRef(r["p"].value): URIRef(r["f"].value) for r in facts if "f" in r},
            designers={URIRef(r["p"].value): URIRef(r["d"].value) for r in facts if "d" in r},
            part_kinds={URIRef(r["p"].value): URIRef(r["k"].value) for r in facts if "k" in r},
            ownership=OwnershipGraph.from_dataset(ds),
        )

    @classmethod
    def build(
        cls,
        *,
        orgs: Iterable[URIRef],
        org_labels: Iterable[tuple[URIRef, str]],
        part_labels: Iterable[tuple[URIRef, str]] = (),
        family_labels: Iterable[tuple[URIRef, str]] = (),
        families: dict[URIRef, URIRef] | None = None,
        designers: dict[URIRef, URIRef] | None = None,
        part_kinds: dict[URIRef, URIRef] | None = None,
        ownership: OwnershipGraph | None = None,
        non_suppliers: Iterable[URIRef] = (),
    ) -> Catalogue:
        """Build from plain label lists (sorted first, so ties resolve the same way every run)."""
        org_index: dict[str, URIRef] = {}
        for node, label in sorted(org_labels):
            org_index.setdefault(norm_name(label), node)
        part_index: dict[str, URIRef] = {}
        reduced: dict[str, URIRef | None] = {}
        for node, label in sorted(part_labels):
            keys = norm_part(label)
            part_index.setdefault(keys[0], node)
            for key in keys[1:]:
                # A reduced key names a part only when exactly one part reduces to it.
                if key in reduced and reduced[key] != node:
                    reduced[key] = None
                else:
                    reduced[key] = node
        family_index: dict[str, URIRef] = {}
        for node, label in sorted(family_labels):
            for key in norm_part(label)[:1]:
                family_index.setdefault(key, node)
        return cls(
            org_labels=org_index,
            part_labels=part_index,
            part_reduced=reduced,
            family_labels=family_index,
            families=dict(families or {}),
            designers=dict(designers or {}),
            part_kinds=dict(part_kinds or {}),
            orgs=set(orgs),
            ownership=ownership,
            non_suppliers=set(non_suppliers),
        )

    # -- organizations ------------------------------------------------------------

    def org(self, slug: str) -> URIRef | None:
        """The curated organization ``org:<slug>``, or None when the graph lacks it."""
        node = id_iri("org", slug)
        return node if node in self.orgs else None

    def _resolve_one(self, text: str) -> URIRef | None:
        key = norm_name(text)
        if not key:
            return None
        hit = self.org_labels.get(key)
        if hit is not None:
            return hit
        for pattern, slug in _ORG_PATTERNS:
            if pattern.search(key):
                return self.org(slug)
        return None

    def resolve_org(self, text: str) -> URIRef | None:
        """One organization for ``text``, or None (and the name is logged as unresolved)."""
        found = self.resolve_orgs(text)
        return found[0] if len(found) == 1 else None

    def resolve_orgs(self, text: str | None) -> list[URIRef]:
        """All organizations named in ``text`` ("IBM / NVIDIA / Mellanox" gives three).

        The whole text is tried first, so a curated hidden label such as "Cray/HPE"
        wins over splitting it.
        """
        if not text or not text.strip():
            return []
        text = text.strip()
        if norm_name(text) in _NOT_ORGS:
            self.skipped[text] += 1
            return []
        whole = self._resolve_one(text)
        if whole is not None:
            return [whole]
        pieces = [p.strip() for p in re.split(r"\s*[/,;]\s*|\s+\+\s+", text) if p.strip()]
        found: list[URIRef] = []
        for piece in pieces:
            node = self._resolve_one(piece) if len(pieces) > 1 else None
            if node is None:
                self.unresolved["organization"][piece] += 1
            elif node not in found:
                found.append(node)
        return found

    def supplier_at(self, org: URIRef | None, day: dt.date | None) -> URIRef | None:
        """The company that shipped ``org``'s product on ``day``: ``org`` itself, or the
        company that had acquired it by then (Mellanox in 2021 is NVIDIA)."""
        if org is None or day is None or self.ownership is None:
            return org
        parent = URIRef(self.ownership.parent(str(org), day))
        return parent if parent in self.orgs or parent == org else org

    # -- parts --------------------------------------------------------------------

    def resolve_part(self, text: str | None, kind: URIRef | None = None, *, log: bool = True) -> URIRef | None:
        """The catalogue part named by ``text`` (optionally of role ``kind``), or None."""
        if not text or not text.strip() or text.strip().lower() in {"none", "n/a"}:
            return None
        keys = norm_part(text)
        for key in keys:
            hit = self.part_labels.get(key) or self.part_reduced.get(key)
            if hit is not None and (kind is None or self.part_kinds.get(hit, kind) == kind):
                return hit
        if log:
            self.unresolved[_kind_name(kind)][text.strip()] += 1
        return None

    def resolve_family(self, text: str) -> URIRef | None:
        """The part family named by ``text`` ("NVIDIA A100" -> family A100), or None."""
        for key in norm_part(text):
            hit = self.family_labels.get(key)
            if hit is not None:
                return hit
        part = self.resolve_part(text, log=False)
        return self.family(part) if part is not None else None

    def family(self, part: URIRef | None) -> URIRef | None:
        return self.families.get(part) if part is not None else None

    def designer(self, part: URIRef | None) -> URIRef | None:
        return self.designers.get(part) if part is not None else None

    def designer_from_text(self, text: str) -> URIRef | None:
        """The designer a processor or accelerator name implies ("Xeon" -> Intel)."""
        key = " ".join(re.sub(r"[^a-z0-9]+", " ", _ascii(text)).split())
        for pattern, slug in _DESIGNER_WORDS:
            if pattern.search(key):
                return self.org(slug)
        return None

    def interconnect_vendor(self, text: str | None, on: dt.date | None = None) -> tuple[URIRef | None, URIRef | None]:
        """``(part, supplier)`` for free interconnect text.

        The supplier is the vendor the text names, else the technology's designer
        (Aries is Cray's, Tofu Fujitsu's), else the catalogue part's designer; with
        ``on`` it becomes the company that shipped it then (Slingshot in 2022 is HPE).
        Plain Ethernet or "Custom" yields no supplier rather than a guess.
        """
        if not text or not text.strip():
            return None, None
        key = " ".join(re.sub(r"[^a-z0-9]+", " ", _ascii(text)).split())
        part: URIRef | None = None
        vendor: URIRef | None = None
        for pattern, part_key, slug in _INTERCONNECTS:
            if pattern.search(key):
                if part_key is not None:
                    part = self.part_labels.get(part_key) or self.part_reduced.get(part_key)
                vendor = self.org(slug.replace(" ", "-")) if slug else None
                break
        if part is None:
            part = self.resolve_part(text, HK.Interconnect, log=False)
        for pattern, slug in _NAMED_VENDORS:
            if pattern.search(key) and self.org(slug) is not None:
                vendor = self.org(slug)
                break
        if vendor is None:
            vendor = self.designer(part)
        if vendor in self.non_suppliers:
            vendor = None
        if part is None and vendor is None:
            self.unresolved["interconnect"][text.strip()] += 1
        elif part is None:
            self.unresolved["interconnect part"][text.strip()] += 1
        return part, self.supplier_at(vendor, on)

    def report(self) -> dict[str, dict[str, int]]:
        """Unresolved names by kind, each with how often it was seen (sorted)."""
        return {kind: dict(sorted(names.items())) for kind, names in sorted(self.unresolved.items()) if names}


def _kind_name(kind: URIRef | None) -> str:
    if kind is None:
        return "part"
    return {HK.Accelerator: "accelerator", HK.CPU: "cpu", HK.Interconnect: "interconnect"}.get(kind, "part")
