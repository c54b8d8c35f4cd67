"""Match Epoch AI clusters to the TOP500 and curated systems they are.

A cluster that *is* a known system is not a new node: its claims attach to that
system's IRI, next to the TOP500 and curated claims, and disagreements stay side by
side (``hpckg conflicts`` lists them). Every link is an ``hk:Match`` node saying
why it was made. Rules, strongest first:

1. ``graph/mappings/epoch.csv``, a curated override file (``epoch_name,system,action``
   with ``action`` ``link`` or ``unlink``), wins over everything;
2. "TOP500 id in a source URL": a row cites ``top500.org/system/<id>`` and a system
   in the graph carries that ``hk:top500SystemId``;
3. "TOP500 id in the notes": the same, found in the row's notes;
4. "same name and owner": every distinctive word of a system's name is in the
   cluster's name (vendor and generic words such as "NVIDIA", "DGX", "SuperPOD" do
   not count, nor do the words of the system's own site or operator), an owner of
   the cluster resolves to the system's operator or is named in its site, and the
   countries do not differ.

One system takes at most one cluster. When several clusters match one system they
are phases of one machine (Epoch makes a new record per upgrade): the latest phase
takes the system and the earlier ones stay separate, linked by ``hk:upgradeOf``. A
cluster that matches several systems equally well is left alone and reported.
"""

from __future__ import annotations

import csv
import re
import unicodedata
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from rdflib import Literal, URIRef

from .errors import DataError
from .namespaces import HK, ID, RDF, id_iri

if TYPE_CHECKING:
    from .store import Dataset

__all__ = [
    "MATCH_SOURCE",
    "Candidate",
    "ClusterRecord",
    "Link",
    "Override",
    "Reconciliation",
    "candidates_from",
    "load_overrides",
    "match_triples",
    "name_tokens",
    "reconcile",
]

MATCH_SOURCE = "Epoch AI, Data on GPU Clusters"
_TOP500_URL = re.compile(r"top500\.org/system/(\d+)", re.I)
# Words that say what a machine is built from or what it is, not which one it is.
_GENERIC = {
    "nvidia",
    "dgx",
    "superpod",
    "supercomputer",
    "supercomputing",
    "system",
    "systems",
    "cluster",
    "the",
    "of",
    "and",
    "for",
    "ai",
    "hpe",
    "cray",
    "ex",
    "gpu",
    "gpus",
    "h100",
    "a100",
    "v100",
    "h200",
    "gh200",
    "gb200",
    "sxm",
    "sxm5",
    "pod",
    "phase",
    "cloud",
    "computer",
    "computing",
    "center",
    "centre",
    "national",
    "laboratory",
    "lab",
    "nl",
    "university",
    "platform",
    "power",
    "edge",
    "xeon",
    "amd",
    "intel",
    "ibm",
    "dell",
    "lenovo",
    "poweredge",
    "apollo",
    "bullsequana",
    "x",
    "h100e",
    "infiniband",
    "research",
    "new",
    "hpc",
    "inc",
    "corporation",
    "corp",
    "ltd",
}


# Words too common in organization names to show two names mean the same owner.
_OWNER_NOISE = {
    "the",
    "of",
    "and",
    "for",
    "ai",
    "inc",
    "corporation",
    "corp",
    "ltd",
    "co",
    "university",
    "national",
    "laboratory",
    "lab",
    "center",
    "centre",
    "research",
    "institute",
    "cloud",
    "group",
    "computing",
    "supercomputing",
    "department",
    "us",
    "government",
    "technology",
    "systems",
}


@dataclass(frozen=True)
class Candidate:
    """A system already in the graph (curated or TOP500) that a cluster could be."""

    iri: URIRef
    labels: tuple[str, ...]
    top500_id: str | None = None
    country: str | None = None
    operators: frozenset[URIRef] = frozenset()
    owner_words: frozenset[str] = frozenset()
    last_listed: str = ""  # latest hk:LastListed date, for TOP500 systems


@dataclass(frozen=True)
class ClusterRecord:
    """What reconciliation needs of one Epoch row."""

    name: str
    owners: tuple[URIRef, ...] = ()
    owner_names: tuple[str, ...] = ()
    country: str | None = None
    urls: tuple[str, ...] = ()
    notes: str = ""
    date: str = ""  # first operational (ISO), to order phases


@dataclass(frozen=True)
class Override:
    epoch_name: str
    system: URIRef | None
    action: str  # link | unlink
    line: int = 0


@dataclass(frozen=True)
class Link:
    name: str
    system: URIRef
    reason: str


@dataclass
class Reconciliation:
    links: dict[str, Link] = field(default_factory=dict)
    ambiguous: dict[str, list[URIRef]] = field(default_factory=dict)
    earlier_phases: dict[str, URIRef] = field(default_factory=dict)


def _ascii(text: str) -> str:
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()


def name_tokens(text: str) -> set[str]:
    """Words of a name; hyphenated words stay whole ("Eos-DFW" is not "Eos")."""
    text = re.sub(r"\bphase\s*\d+\b", " ", _ascii(text))
    return {w.strip("-") for w in re.split(r"[^a-z0-9-]+", text) if w.strip("-")}


def _distinctive(label: str, owner_words: frozenset[str]) -> frozenset[str]:
    label = re.sub(r"\([^)]*\)", " ", label)  # "Seren (Shanghai AI Lab)": the site is not the name
    words = name_tokens(label) - _GENERIC - owner_words
    return frozenset(w for w in words if len(w) >= 3 and not w.isdigit())


def candidates_from(ds: Dataset) -> list[Candidate]:
    """Every system in ``ds`` with its labels, TOP500 id, country, operators and site words."""
    labels: dict[str, list[str]] = defaultdict(list)
    for r in ds.select("SELECT ?s ?l WHERE { ?s a hk:System . { ?s rdfs:label ?l } UNION { ?s skos:altLabel ?l } }"):
        labels[r["s"].value].append(r["l"].value)
    ids = {
        r["s"].value: r["id"].value for r in ds.select("SELECT ?s ?id WHERE { ?s a hk:System ; hk:top500SystemId ?id }")
    }
    countries = {r["s"].value: r["c"].value for r in ds.select("SELECT ?s ?c WHERE { ?s a hk:System ; hk:country ?c }")}
    operators: dict[str, set[URIRef]] = defaultdict(set)
    words: dict[str, set[str]] = defaultdict(set)
    for r in ds.select(
        """SELECT ?s ?o ?l WHERE { ?c hk:system ?s ; hk:operator ?o . OPTIONAL { ?o rdfs:label ?l } }"""
    ):
        operators[r["s"].value].add(URIRef(r["o"].value))
        if "l" in r:
            words[r["s"].value] |= name_tokens(r["l"].value)
    # Where the system is, as its sources name it: TOP500's "Site" is a location text.
    for query in (
        "SELECT ?s ?l WHERE { ?c a hk:LocationClaim ; hk:system ?s ; hk:locationText ?l }",
        "SELECT ?s ?l WHERE { ?s a hk:System ; hk:site ?site . ?site rdfs:label ?l }",
        "SELECT ?s ?l WHERE { ?c a hk:LocationClaim ; hk:system ?s ; hk:site ?site . ?site rdfs:label ?l }",
    ):
        for r in ds.select(query):
            words[r["s"].value] |= name_tokens(r["l"].value)
    last: dict[str, str] = {}
    for r in ds.select(
        "SELECT ?s (MAX(STR(?d)) AS ?last) WHERE { ?e hk:eventKind hk:LastListed ; "
        "hk:system ?s ; hk:date ?d } GROUP BY ?s"
    ):
        last[r["s"].value] = r["last"].value
    return [
        Candidate(
            URIRef(s),
            tuple(sorted(set(ls))),
            ids.get(s),
            countries.get(s),
            frozenset(operators.get(s, ())),
            frozenset(words.get(s, ())),
            last.get(s, ""),
        )
        for s, ls in sorted(labels.items())
    ]


def load_overrides(path: str | Path) -> list[Override]:
    """The curated mapping file; a bad line is a :class:`DataError` naming it."""
    source = Path(path)
    if not source.is_file():
        return []
    overrides: list[Override] = []
    with source.open(newline="", encoding="utf-8") as handle:
        reader = csv.DictReader(line for line in handle if not line.lstrip().startswith("#"))
        needed = {"epoch_name", "system", "action"}
        if not reader.fieldnames or not needed <= set(reader.fieldnames):
            raise DataError(f"expected columns {', '.join(sorted(needed))}", source, 1)
        for raw in reader:
            line = reader.line_num
            name = (raw.get("epoch_name") or "").strip()
            action = (raw.get("action") or "").strip().lower()
            system = (raw.get("system") or "").strip()
            if not name or action not in {"link", "unlink"}:
                raise DataError("each row needs an epoch_name and action link or unlink", source, line)
            if action == "link" and not system:
                raise DataError("a link needs a system (slug such as 'selene' or a full IRI)", source, line)
            iri = None
            if system:
                iri = URIRef(system) if system.startswith(("http://", "https://")) else id_iri("system", system)
                if not str(iri).startswith(str(ID)):
                    raise DataError(f"{system!r} is not an hpckg system IRI", source, line)
            overrides.append(Override(name, iri, action, line))
    return overrides


def reconcile(
    records: Sequence[ClusterRecord],
    candidates: Iterable[Candidate],
    overrides: Sequence[Override] = (),
) -> Reconciliation:
    """Decide which clusters are which systems, with a reason for each link."""
    pool = list(candidates)
    by_id = {c.top500_id: c for c in pool if c.top500_id}
    known = {c.iri for c in pool}
    by_word: dict[str, list[tuple[Candidate, frozenset[str]]]] = defaultdict(list)
    for cand in pool:
        for label in cand.labels:
            words = _distinctive(label, cand.owner_words)
            if words:
                by_word[min(words)].append((cand, words))
    forced = {o.epoch_name: o for o in overrides if o.action == "link"}
    banned = {(o.epoch_name, o.system) for o in overrides if o.action == "unlink"}
    result = Reconciliation()
    proposals: dict[URIRef, list[tuple[ClusterRecord, str]]] = defaultdict(list)
    for record in records:
        if record.name in forced:
            override = forced[record.name]
            assert override.system is not None
            result.links[record.name] = Link(
                record.name, override.system, f"curated mapping (graph/mappings/epoch.csv line {override.line})"
            )
            continue
        found = _match(record, by_id, by_word)
        found = [
            (c, why) for c, why in found if (record.name, c.iri) not in banned and (record.name, None) not in banned
        ]
        systems = {c.iri for c, _ in found}
        if len(systems) > 1:
            result.ambiguous[record.name] = sorted(systems)
        elif systems:
            cand, why = found[0]
            proposals[cand.iri].append((record, why))
    taken = {link.system for link in result.links.values()}
    for system, claims in sorted(proposals.items()):
        if system in taken or system not in known:
            continue
        claims.sort(key=lambda rc: (rc[0].date, rc[0].name))
        record, why = claims[-1]
        if len(claims) > 1:
            others = ", ".join(r.name for r, _ in claims[:-1])
            why += f"; latest of {len(claims)} Epoch phases matching it (earlier: {others})"
            for earlier, _ in claims[:-1]:
                result.earlier_phases[earlier.name] = system
        result.links[record.name] = Link(record.name, system, why)
    return result


def _match(
    record: ClusterRecord,
    by_id: dict[str, Candidate],
    by_word: dict[str, list[tuple[Candidate, frozenset[str]]]],
) -> list[tuple[Candidate, str]]:
    for texts, where in ((record.urls, "a source URL"), ((record.notes,), "the notes")):
        ids = sorted({m for text in texts for m in _TOP500_URL.findall(text)})
        hits = [(by_id[i], f"TOP500 id {i} in {where}") for i in ids if i in by_id]
        if hits:
            return hits
    tokens = name_tokens(record.name)
    owner_words = {w for name in record.owner_names for w in name_tokens(name)} - _OWNER_NOISE
    out: list[tuple[Candidate, str]] = []
    seen: set[URIRef] = set()
    for word in sorted(tokens):
        for cand, words in by_word.get(word, ()):
            if cand.iri in seen or not words <= tokens:
                continue
            if record.country and cand.country and record.country != cand.country:
                continue
            if _too_late(record.date, cand.last_listed):
                continue  # the system left the TOP500 list years before this cluster ran
            if _numbers(tokens) - _numbers(_all_words(cand)):
                continue  # "SuperCluster 2" is not "SuperCluster": a number names another machine
            same_owner = bool(set(record.owners) & cand.operators) or bool(owner_words & cand.owner_words)
            if same_owner:
                seen.add(cand.iri)
                out.append((cand, f"same name and owner ({' '.join(sorted(words))})"))
    return out


def _too_late(started: str, last_listed: str) -> bool:
    """True when a cluster started more than a year after the system was last listed."""
    if len(started) < 4 or len(last_listed) < 4 or not (started[:4].isdigit() and last_listed[:4].isdigit()):
        return False
    return int(started[:4]) > int(last_listed[:4]) + 1


def _numbers(words: Iterable[str]) -> set[str]:
    return {w for w in words if w.isdigit()}


def _all_words(cand: Candidate) -> set[str]:
    return {w for label in cand.labels for w in name_tokens(label)}


def match_triples(link: Link, key: str) -> list[tuple[URIRef, URIRef, URIRef | Literal]]:
    """The ``hk:Match`` node recording why ``link`` was made."""
    node = id_iri("match", "epoch", key)
    return [
        (node, RDF.type, HK.Match),
        (node, HK.system, link.system),
        (node, HK.matchSource, Literal(MATCH_SOURCE)),
        (node, HK.matchKey, Literal(link.name)),
        (node, HK.matchReason, Literal(link.reason)),
    ]


def top500_ids(texts: Iterable[str]) -> list[str]:
    """TOP500 system ids named in ``texts`` (URLs or notes)."""
    return sorted({m for text in texts for m in _TOP500_URL.findall(text)})
