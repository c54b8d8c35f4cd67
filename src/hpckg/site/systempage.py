"""What a system page needs beyond :func:`hpckg.profile.system_profile`: its JSON-LD
and its Turtle download.

The Turtle file holds the system node, every node that points at it with
``hk:system`` (claims, change records, source checks) and the citations and term
checks those nodes use, so a reader can take one machine's record away whole.
It is serialised by pyoxigraph from sorted triples: byte-stable, fast enough for
thousands of pages, and it keeps the one rdflib crossing in ``hpckg.store``.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import pyoxigraph as ox

from ..namespaces import DERIVED_GRAPH, HK, PREFIXES, RDFS, SCHEMA, SKOS

if TYPE_CHECKING:
    from ..profile import SystemProfile
    from ..store import Dataset

__all__ = ["json_ld", "script_json", "system_turtle", "turtle_bytes"]

_BUNDLE = """
CONSTRUCT { ?x ?p ?o } WHERE {
  { $s ?p ?o . BIND($s AS ?x) }
  UNION { ?x hk:system $s . ?x ?p ?o }
  UNION { ?c hk:system $s . ?c hk:citation|hk:checkedCitation|hk:termCheck ?x . ?x ?p ?o }
}"""

# Only the prefixes a system record uses, so the downloaded file reads cleanly.
_TTL_PREFIXES = {
    k: PREFIXES[k]
    for k in (
        "hk",
        "system",
        "org",
        "part",
        "family",
        "site",
        "cite",
        "claim",
        "list",
        "change",
        "check",
        "rdfs",
        "skos",
        "dcterms",
        "xsd",
    )
}


def _key(triple: ox.Triple) -> tuple[str, str, str]:
    return (str(triple.subject), str(triple.predicate), str(triple.object))


def turtle_bytes(triples: list[ox.Triple]) -> bytes:
    """Turtle of ``triples`` in the order given, with a fixed, sorted prefix block."""
    body = ox.serialize(triples, format=ox.RdfFormat.TURTLE, prefixes=_TTL_PREFIXES) or b""
    # pyoxigraph does not promise an order for the @prefix lines: write them ourselves.
    lines = [line for line in body.split(b"\n") if not line.startswith(b"@prefix ")]
    head = "".join(f"@prefix {k}: <{v}> .\n" for k, v in sorted(_TTL_PREFIXES.items()))
    return head.encode() + b"\n" + b"\n".join(lines).lstrip(b"\n")


def system_turtle(ds: Dataset, iri: str) -> bytes:
    """The system's own record (node, claims, their citations) as Turtle, sorted."""
    derived = ox.NamedNode(str(DERIVED_GRAPH))
    triples = {
        _key(t): t
        for t in ds.construct(_BUNDLE, {"s": ox.NamedNode(iri)})
        # Derived summaries are computed at load, not part of the record.
        if ox.Quad(t.subject, t.predicate, t.object, derived) not in ds.store
    }
    return turtle_bytes([triples[k] for k in sorted(triples)])


def _ref(label: str | None, iri: str | None) -> dict[str, Any]:
    node: dict[str, Any] = {"rdfs:label": label} if label else {}
    if iri:
        node["@id"] = iri
    return node


def json_ld(profile: SystemProfile) -> dict[str, Any]:
    """The page's own data as JSON-LD: the system, its supply claims, figures and sources.

    Supply relationships are given under ``@reverse hk:system``, the same shape as
    the graph; page-level figures use schema.org PropertyValues.
    """
    perf = profile.performance.display()
    figures = [
        {"@type": "schema:PropertyValue", "schema:name": name, "schema:value": value}
        for name, value in perf.items()
        if value.strip("- GF/W")
    ]
    for name, value in (
        ("status", profile.status),
        ("status as of", profile.status_as_of),
        ("purpose", profile.purpose),
        ("figures as of", profile.performance.as_of),
    ):
        if value:
            figures.append({"@type": "schema:PropertyValue", "schema:name": name, "schema:value": value})
    components = []
    for c in profile.components:
        claim: dict[str, Any] = {"@type": "hk:SupplyRelationship", "schema:name": c.role}
        if c.claim_iri:
            claim["@id"] = c.claim_iri
        if c.part_iri or c.part_label:
            claim["hk:part"] = _ref(c.part_label, c.part_iri)
        if c.supplier_iri or c.supplier_label:
            claim["hk:supplier"] = _ref(c.supplier_label, c.supplier_iri)
        if c.parent_iri:
            claim["schema:parentOrganization"] = _ref(c.parent_label, c.parent_iri)
        if c.quantity is not None:
            claim["hk:quantity"] = c.quantity
        if c.description:
            claim["hk:partDescription"] = c.description
        claim["schema:citation"] = [_source(s) for s in c.sources]
        components.append(claim)
    data: dict[str, Any] = {
        "@context": {"hk": str(HK), "rdfs": str(RDFS), "skos": str(SKOS), "schema": str(SCHEMA)},
        "@id": profile.iri,
        "@type": "hk:System",
        "rdfs:label": profile.label,
    }
    if profile.aliases:
        data["skos:altLabel"] = list(profile.aliases)
    if profile.country:
        data["hk:country"] = profile.country
    if profile.read:
        data["hk:summary"] = profile.read
    if profile.operators:
        data["schema:maintainer"] = [_ref(label, iri) for label, iri in profile.operators]
    if figures:
        data["schema:additionalProperty"] = figures
    if components:
        data["@reverse"] = {"hk:system": components}
    data["schema:citation"] = [_source(s) for s in profile.citations]
    return data


def _source(source: Any) -> dict[str, Any]:
    node: dict[str, Any] = {"@type": "schema:CreativeWork", "schema:name": source.title}
    if source.url:
        node["schema:url"] = source.url
    return node


def script_json(data: Any) -> str:
    """JSON safe to place inside ``<script>``: no ``<``, ``>`` or ``&`` survive literally,
    so a value such as ``</script>`` cannot close the element."""
    text = json.dumps(data, ensure_ascii=False, sort_keys=True, indent=1)
    return (
        text.replace("&", "\\u0026")
        .replace("<", "\\u003c")
        .replace(">", "\\u003e")
        .replace("\u2028", "\\u2028")
        .replace("\u2029", "\\u2029")
    )
