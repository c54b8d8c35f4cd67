"""Every IRI hpckg mints or reads comes from here.

Ontology terms live under ``HK`` (``https://w3id.org/hpckg/ontology#``); data nodes
under ``https://w3id.org/hpckg/id/<kind>/<slug>``. Identifiers are derived
deterministically from their inputs, so re-importing the same data gives the same
IRIs and git diffs of ``graph/`` show only real changes.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata

from rdflib import Namespace, URIRef
from rdflib.namespace import DCTERMS, OWL, PROV, RDF, RDFS, SKOS, XSD

__all__ = [
    "BASE",
    "DCTERMS",
    "DERIVED_GRAPH",
    "GRAPH_BASE",
    "HK",
    "ID",
    "OWL",
    "PREFIXES",
    "PROV",
    "RDF",
    "RDFS",
    "SCHEMA",
    "SKOS",
    "TIERS",
    "XSD",
    "digest",
    "id_iri",
    "slugify",
]

BASE = "https://w3id.org/hpckg/"
HK = Namespace(BASE + "ontology#")
ID = Namespace(BASE + "id/")
GRAPH_BASE = BASE + "graph/"
DERIVED_GRAPH = URIRef(GRAPH_BASE + "derived")
SCHEMA = Namespace("http://schema.org/")

PREFIXES: dict[str, str] = {
    "hk": str(HK),
    "system": str(ID) + "system/",
    "org": str(ID) + "org/",
    "part": str(ID) + "part/",
    "family": str(ID) + "family/",
    "site": str(ID) + "site/",
    "region": str(ID) + "region/",
    "cite": str(ID) + "citation/",
    "claim": str(ID) + "claim/",
    "list": str(ID) + "list/",
    "change": str(ID) + "change/",
    "check": str(ID) + "check/",
    "rdf": str(RDF),
    "rdfs": str(RDFS),
    "owl": str(OWL),
    "xsd": str(XSD),
    "skos": str(SKOS),
    "dcterms": str(DCTERMS),
    "prov": str(PROV),
    "schema": str(SCHEMA),
}

# Highest first; the number is hk:tierRank in the ontology.
TIERS: dict[str, tuple[URIRef, int]] = {
    "verified": (HK.Verified, 4),
    "reported": (HK.Reported, 3),
    "estimated": (HK.Estimated, 2),
    "weak": (HK.Weak, 1),
}


def slugify(text: str) -> str:
    """Lower-case ASCII slug: ``"NVIDIA A100 SXM4 80GB"`` -> ``"nvidia-a100-sxm4-80gb"``."""
    folded = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    slug = re.sub(r"[^a-z0-9]+", "-", folded.lower()).strip("-")
    return slug or digest(text)


def digest(*parts: object, length: int = 16) -> str:
    """A short stable hash of ``parts``, for IRIs that have no natural key."""
    joined = "\x1f".join(str(p) for p in parts)
    return hashlib.sha256(joined.encode()).hexdigest()[:length]


def id_iri(kind: str, *key: str) -> URIRef:
    """``id_iri("system", "seren")`` -> ``https://w3id.org/hpckg/id/system/seren``.

    Several key parts are joined by ``/`` after slugifying each one.
    """
    return URIRef(str(ID) + kind + "/" + "/".join(slugify(k) for k in key))
