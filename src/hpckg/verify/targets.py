"""What to look for: every (citation with a URL, system) pair of the graph and its terms.

For a pair, the terms are the system's labels and aliases, the parts of the
claims about that system citing that citation (by label, aliases and family),
and the quantities of those claims. Each term carries the variants a page may
use for it: "Seren (Shanghai AI Lab)" is also looked for as "Seren"; a part
"NVIDIA A100 SXM4 80GB" also as "A100 SXM4 80GB", "A100 SXM4" and "A100".
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

import pyoxigraph as ox

from ..namespaces import PREFIXES
from ..store import Dataset

__all__ = ["Target", "Term", "part_variants", "system_variants", "targets"]

_LABEL = "(rdfs:label|skos:prefLabel|skos:altLabel|skos:hiddenLabel)"

_PAIRS = """
SELECT DISTINCT ?citation ?url ?system WHERE {
  ?claim hk:system ?system ; hk:citation ?citation .
  ?citation hk:url ?url .
}
"""
_SYSTEM_LABELS = f"SELECT DISTINCT ?system ?label WHERE {{ ?system a hk:System ; {_LABEL} ?label }}"
_PARTS = """
SELECT DISTINCT ?citation ?system ?part WHERE {
  ?claim hk:system ?system ; hk:citation ?citation ; hk:part ?part .
}
"""
_PART_LABELS = f"""
SELECT DISTINCT ?part ?label ?main ?family ?designer WHERE {{
  ?claim hk:part ?part .
  OPTIONAL {{ ?part {_LABEL} ?label }}
  OPTIONAL {{ ?part rdfs:label|skos:prefLabel ?main }}
  OPTIONAL {{ ?part hk:family/(rdfs:label|skos:prefLabel|skos:altLabel) ?family }}
  OPTIONAL {{ ?part hk:designer/(rdfs:label|skos:prefLabel|skos:altLabel) ?designer }}
}}
"""
_COUNTS = """
SELECT DISTINCT ?citation ?system ?quantity WHERE {
  ?claim hk:system ?system ; hk:citation ?citation ; hk:quantity ?quantity .
}
"""

# Vendor words a part label may start with when the graph does not name the designer.
_VENDORS = {
    "nvidia",
    "amd",
    "intel",
    "ibm",
    "hpe",
    "cray",
    "mellanox",
    "fujitsu",
    "arm",
    "huawei",
    "nec",
    "sunway",
    "hygon",
    "ampere",
    "google",
    "aws",
    "amazon",
    "microsoft",
    "graphcore",
    "cerebras",
    "sambanova",
    "marvell",
    "broadcom",
    "cisco",
    "ddn",
    "lenovo",
    "dell",
    "supermicro",
    "inspur",
    "sugon",
    "atos",
    "bull",
    "eviden",
    "sgi",
    "penguin",
    "habana",
    "xilinx",
}
_UNIT = re.compile(r"^\d+(\.\d+)?(gb|tb|mb|c|ghz|mhz|w|kw|rd|th|st|nd|x|gbps|gb/s|nm)$", re.IGNORECASE)


@dataclass(frozen=True)
class Term:
    """A term to look for: what it is reported as, its kind and the spellings that count."""

    text: str
    kind: str  # system, part or count
    variants: tuple[str, ...]


@dataclass(frozen=True)
class Target:
    """One (citation, system) pair to check, with the page's URL and the terms."""

    citation: str
    url: str
    system: str
    terms: tuple[Term, ...]

    @property
    def pair(self) -> tuple[str, str]:
        return (self.citation, self.system)

    def term_set(self) -> frozenset[tuple[str, str]]:
        return frozenset((t.kind, t.text) for t in self.terms)


def _unique(items: Iterable[str]) -> tuple[str, ...]:
    seen: dict[str, None] = {}
    for item in items:
        item = " ".join(item.split())
        if item and item.casefold() not in {s.casefold() for s in seen}:
            seen[item] = None
    return tuple(seen)


def system_variants(label: str) -> tuple[str, ...]:
    """A label and the shorter names it contains: "Seren (Shanghai AI Lab)" -> also "Seren";
    a TOP500 "Frontier - HPE Cray EX235a, ..." -> also "Frontier"."""
    out = [label]
    bare = re.sub(r"\s*[(\[][^)\]]*[)\]]", "", label).strip()
    out.append(bare)
    for sep in (" - ", " – ", " — ", ", "):
        if sep in bare:
            out.append(bare.split(sep)[0])
    return _unique(v for v in out if len(v) >= 2)


def _model_code(words: list[str]) -> str | None:
    """The first model-number-like word ("A100", "MI250X", "POWER9"), not a size or a clock."""
    for word in words:
        if len(word) >= 3 and re.search(r"[A-Za-z]", word) and re.search(r"\d", word) and not _UNIT.match(word):
            return word
    return None


def part_variants(
    label: str, families: Iterable[str] = (), designers: Iterable[str] = (), aliases: Iterable[str] = ()
) -> tuple[str, ...]:
    """A part label, its family names, its aliases and their forms without the vendor, plus
    the label's model number: "NVIDIA A100 SXM4 80GB" -> ..., "A100 SXM4 80GB", "A100"."""
    vendors = {d.casefold() for d in designers} | _VENDORS

    def bare(text: str) -> str:
        words = text.split()
        rest = words[1:]
        # "Sunway interconnect" must not become "interconnect": keep one-word rests only with a digit.
        if len(words) > 1 and words[0].casefold() in vendors and (len(rest) > 1 or re.search(r"\d", rest[0])):
            return " ".join(rest)
        return text

    out = [label, *families, bare(label)]
    code = _model_code(bare(label).split())
    if code:
        out.append(code)
    for alias in aliases:
        out += [alias, bare(alias)]
    return _unique(out)


def _slug_label(iri: str) -> str:
    return iri.rstrip("/").rsplit("/", 1)[-1].replace("-", " ")


def targets(ds: Dataset, systems: Iterable[str] | None = None) -> list[Target]:
    """Every (citation with URL, system) pair of ``ds``, optionally for some systems only."""
    wanted = set(systems) if systems is not None else None
    labels: dict[str, list[str]] = {}
    for row in ds.select(_SYSTEM_LABELS):
        labels.setdefault(row["system"].value, []).append(row["label"].value)
    parts: dict[str, dict[str, list[str]]] = {}
    for row in ds.select(_PART_LABELS):
        info = parts.setdefault(row["part"].value, {"label": [], "main": [], "family": [], "designer": []})
        for key in info:
            if key in row and row[key].value not in info[key]:
                info[key].append(row[key].value)
    by_pair: dict[tuple[str, str], dict[str, list[object]]] = {}
    urls: dict[str, str] = {}
    for row in ds.select(_PAIRS):
        citation, system = row["citation"].value, row["system"].value
        if wanted is not None and system not in wanted:
            continue
        urls.setdefault(citation, row["url"].value)
        by_pair.setdefault((citation, system), {"part": [], "count": []})
    pair: tuple[str, str]
    for row in ds.select(_PARTS):
        pair = (row["citation"].value, row["system"].value)
        if pair in by_pair and row["part"].value not in by_pair[pair]["part"]:
            by_pair[pair]["part"].append(row["part"].value)
    for row in ds.select(_COUNTS):
        pair = (row["citation"].value, row["system"].value)
        try:
            quantity = int(float(row["quantity"].value))
        except ValueError:
            continue
        if pair in by_pair and quantity > 0 and quantity not in by_pair[pair]["count"]:
            by_pair[pair]["count"].append(quantity)
    out = []
    for (citation, system), found in sorted(by_pair.items()):
        terms: list[Term] = []
        names = labels.get(system) or [_slug_label(system)]
        for name in sorted(set(names)):
            variants = system_variants(name)
            if variants:  # a one-letter name ("K") cannot be told apart from any other text
                terms.append(Term(name, "system", variants))
        for part in sorted(str(p) for p in found["part"]):
            info = parts.get(part, {})
            main = sorted(info.get("main") or [_slug_label(part)])[0]
            aliases = sorted(set(info.get("label", [])) - {main})
            variants = part_variants(main, sorted(info.get("family", [])), info.get("designer", []), aliases)
            terms.append(Term(main, "part", variants))
        for count in sorted(int(str(c)) for c in found["count"]):
            terms.append(Term(str(count), "count", (str(count),)))
        out.append(Target(citation, urls[citation], system, tuple(terms)))
    return out


def resolve_system(ds: Dataset, name: str) -> str | None:
    """A system IRI from an IRI, a prefixed name (``system:seren``) or a bare slug."""
    if name.startswith(("http://", "https://")):
        iri = name
    elif ":" in name and name.split(":", 1)[0] in PREFIXES:
        prefix, local = name.split(":", 1)
        iri = PREFIXES[prefix] + local
    else:
        iri = PREFIXES["system"] + name
    exists = ds.ask("ASK { ?s a hk:System }", {"s": ox.NamedNode(iri)})
    return iri if exists else None
