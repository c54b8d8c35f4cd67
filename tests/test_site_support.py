"""Shared helpers of the site tests: an inline fixture graph, a built site, a loopback server.

The fixture adds one hostile system to the bundled graph: every text field tries to
break out of HTML, its citation URL is a ``javascript:`` URL, and its interconnect was
supplied by Mellanox, which rolls up to NVIDIA.
"""

from __future__ import annotations

import functools
import http.server
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from hpckg.site import SiteSummary, build_site
from hpckg.store import Dataset

ROOT = Path(__file__).resolve().parents[1]
HOSTILE_LABEL = "<script>alert(1)</script>"
HOSTILE_SLUG = "hostile-test-system"

HOSTILE_TTL = r"""
@prefix hk: <https://w3id.org/hpckg/ontology#> .
@prefix system: <https://w3id.org/hpckg/id/system/> .
@prefix org: <https://w3id.org/hpckg/id/org/> .
@prefix part: <https://w3id.org/hpckg/id/part/> .
@prefix cite: <https://w3id.org/hpckg/id/citation/> .
@prefix claim: <https://w3id.org/hpckg/id/claim/> .
@prefix change: <https://w3id.org/hpckg/id/change/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix skos: <http://www.w3.org/2004/02/skos/core#> .
@prefix dcterms: <http://purl.org/dc/terms/> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .

system:hostile-test-system a hk:System ;
    rdfs:label "<script>alert(1)</script>" ;
    skos:altLabel "</script><script>alert(2)</script>" ;
    hk:country "NZ" ;
    hk:purpose hk:AITraining ;
    hk:summary "A <b>bold</b> claim & \"quotes\" ' and </script> inside the read." .

org:hostile-test-operator a hk:Organization ;
    rdfs:label "<img src=x onerror=alert(3)>" .

cite:hostile-test-cite a hk:Citation ;
    hk:url "javascript:alert(4)"^^xsd:anyURI ;
    dcterms:title "<i>Hostile</i> source" .

cite:hostile-test-cite-ok a hk:Citation ;
    hk:url "https://example.org/hostile?a=1&b=<2>"^^xsd:anyURI ;
    dcterms:title "A fine source" .

claim:hostile-test-system-operation a hk:Operation ;
    hk:system system:hostile-test-system ;
    hk:operator org:hostile-test-operator ;
    hk:citation cite:hostile-test-cite ;
    hk:tier hk:Weak .

claim:hostile-test-system-supply-interconnect a hk:SupplyRelationship ;
    hk:system system:hostile-test-system ;
    hk:role hk:Interconnect ;
    hk:part part:mellanox-infiniband-edr ;
    hk:supplier org:mellanox ;
    hk:quantity 1234 ;
    hk:partDescription "Mellanox EDR <u>InfiniBand</u>" ;
    hk:citation cite:hostile-test-cite-ok ;
    hk:tier hk:Reported .

claim:hostile-test-system-status a hk:StatusClaim ;
    hk:system system:hostile-test-system ;
    hk:status hk:Operational ;
    hk:asOf "2025-01-01"^^xsd:date ;
    hk:citation cite:hostile-test-cite-ok ;
    hk:tier hk:Reported .

claim:hostile-test-system-h100e a hk:Measurement ;
    hk:system system:hostile-test-system ;
    hk:metric hk:H100Equivalents ;
    hk:value "4321"^^xsd:decimal ;
    hk:unit hk:Count ;
    hk:asOf "2025-01-01"^^xsd:date ;
    hk:citation cite:hostile-test-cite-ok ;
    hk:tier hk:Estimated .

claim:hostile-test-system-event a hk:TimelineEvent ;
    hk:system system:hostile-test-system ;
    hk:eventKind hk:Announced ;
    hk:date "2025-01"^^xsd:gYearMonth ;
    hk:citation cite:hostile-test-cite ;
    hk:tier hk:Weak .

change:hostile-test-system-2025-01-02 a hk:ChangeRecord ;
    hk:system system:hostile-test-system ;
    dcterms:date "2025-01-02"^^xsd:date ;
    rdfs:comment "Added <em>for tests</em>" .
"""


def fixture_file(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "hostile.ttl"
    path.write_text(HOSTILE_TTL, encoding="utf-8")
    return path


def load_with_fixture(folder: Path) -> Dataset:
    return Dataset.load([fixture_file(folder)], root=ROOT)


def build_fixture_site(folder: Path) -> tuple[Path, SiteSummary]:
    """Build the bundled graph plus the hostile fixture into ``folder/site``."""
    ds = load_with_fixture(folder)
    out = folder / "site"
    return out, build_site(ds, out)


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - stdlib name
        pass


@contextmanager
def serve(folder: Path) -> Iterator[str]:
    """Serve ``folder`` on a loopback port for the duration of the block; yields the base URL."""
    handler = functools.partial(_QuietHandler, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
