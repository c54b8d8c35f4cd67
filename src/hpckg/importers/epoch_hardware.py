"""Specifications from Epoch AI's ``ml_hardware.csv`` as claims about catalogue parts.

Only chips that resolve to a catalogue part get claims (the catalogue is curated;
this import does not invent parts); the others are listed in the report. Each
figure is an ``hk:Measurement`` with ``hk:part``: peak throughput per precision in
``hk:TeraFLOPS`` (integer formats in tera-operations per second, the same scale),
memory per board in ``hk:Gigabyte``, memory bandwidth in ``hk:BytesPerSecond``. The
release date becomes the figures' ``hk:asOf``: the shapes only allow timeline
events about systems, and a datasheet figure is the figure as of release.

Tier: ``hk:Reported`` when the row links the datasheet (cited as well), else
``hk:Estimated``. Every figure also cites the dataset.
"""

from __future__ import annotations

import csv
import re
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path

from rdflib import Literal, URIRef

from ..catalogue import Catalogue
from ..errors import DataError
from ..namespaces import DCTERMS, HK, RDF, XSD, id_iri, slugify
from .epoch_claims import LICENSE, PUBLISHER, Triples, decimal_literal, url_citation
from .epoch_rows import parse_decimal

__all__ = ["HARDWARE_DATASET", "HardwareReport", "import_hardware"]

HARDWARE_DATASET = id_iri("citation", "epoch-ml-hardware")
# Read on Epoch's documentation page of the dataset (its suggested citation).
HARDWARE_URL = "https://epoch.ai/data/machine-learning-hardware"
HARDWARE_TITLE = "Data on Machine Learning Hardware"

# column -> (metric, unit, divisor from the file's unit)
SPEC_COLUMNS: dict[str, tuple[URIRef, URIRef, Decimal]] = {
    "FP64 (double precision) performance (FLOP/s)": (HK.PeakFP64, HK.TeraFLOPS, Decimal(10) ** 12),
    "FP32 (single precision) performance (FLOP/s)": (HK.PeakFP32, HK.TeraFLOPS, Decimal(10) ** 12),
    "TF32 (TensorFloat-32) performance (FLOP/s)": (HK.PeakTF32, HK.TeraFLOPS, Decimal(10) ** 12),
    "Tensor-FP16/BF16 performance (FLOP/s)": (HK.PeakFP16, HK.TeraFLOPS, Decimal(10) ** 12),
    "FP8 performance (FLOP/s)": (HK.PeakFP8, HK.TeraFLOPS, Decimal(10) ** 12),
    "INT8 performance (OP/s)": (HK.PeakINT8, HK.TeraFLOPS, Decimal(10) ** 12),
    "Memory size per board (Byte)": (HK.MemoryCapacity, HK.Gigabyte, Decimal(10) ** 9),
    "Memory bandwidth (byte/s)": (HK.MemoryBandwidth, HK.BytesPerSecond, Decimal(1)),
}


@dataclass
class HardwareReport:
    rows: int = 0
    parts: int = 0
    measurements: int = 0
    unresolved: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def _dataset(out: Triples) -> None:
    out.add(HARDWARE_DATASET, RDF.type, HK.Citation)
    out.add(HARDWARE_DATASET, HK.url, Literal(HARDWARE_URL, datatype=XSD.anyURI))
    out.add(HARDWARE_DATASET, DCTERMS.title, Literal(HARDWARE_TITLE))
    out.add(HARDWARE_DATASET, DCTERMS.publisher, Literal(PUBLISHER))
    out.add(HARDWARE_DATASET, DCTERMS.license, LICENSE)
    out.add(HARDWARE_DATASET, DCTERMS.rights, Literal("CC BY 4.0"))
    out.add(HARDWARE_DATASET, DCTERMS.bibliographicCitation, Literal(f"{PUBLISHER}, {HARDWARE_TITLE}"))
    out.add(HARDWARE_DATASET, HK.citationKind, HK.Dataset)


def import_hardware(path: str | Path, catalogue: Catalogue, out: Triples) -> HardwareReport:
    """Add the specifications of catalogued chips in ``path`` to ``out``."""
    source = Path(path)
    if not source.is_file():
        raise DataError("no such file", source)
    report = HardwareReport()
    with source.open(newline="", encoding="utf-8-sig") as handle:
        reader = csv.DictReader(handle)
        if not reader.fieldnames or "Hardware name" not in reader.fieldnames:
            raise DataError("missing column 'Hardware name': is this Epoch AI's ml_hardware.csv?", source, 1)
        _dataset(out)
        parts: set[URIRef] = set()
        for number, raw in enumerate(reader, start=1):
            report.rows += 1
            name = (raw.get("Hardware name") or "").strip()
            part = catalogue.resolve_part(name, log=False) if name else None
            if part is None:
                report.unresolved.append(name or f"row {number}: no name")
                continue
            parts.add(part)
            report.measurements += _specs(number, name, part, raw, out, report)
    report.parts = len(parts)
    return report


def _specs(
    number: int, name: str, part: URIRef, raw: dict[str, str | None], out: Triples, report: HardwareReport
) -> int:
    cites = [HARDWARE_DATASET]
    sheet = (raw.get("Link to datasheet") or "").strip()
    if re.match(r"^https?://\S+$", sheet):
        node = url_citation(sheet)
        out.add(node, RDF.type, HK.Citation)
        out.add(node, HK.url, Literal(sheet, datatype=XSD.anyURI))
        out.add(node, HK.citationKind, HK.WebPage)
        cites.append(node)
    tier = HK.Reported if len(cites) > 1 else HK.Estimated
    released = (raw.get("Release date") or "").strip()
    as_of = Literal(released, datatype=XSD.date) if re.fullmatch(r"\d{4}-\d{2}-\d{2}", released) else None
    made = 0
    for column, (metric, unit, divisor) in SPEC_COLUMNS.items():
        try:
            value = parse_decimal(raw.get(column) or "")
        except ValueError as error:
            report.problems.append(f"row {number} ({name}): {column}: {error}")
            continue
        if value is None or value == 0:
            continue
        node = id_iri("claim", f"epoch-hw-{slugify(name)}-{slugify(str(metric).rsplit('#', 1)[-1])}")
        out.add(node, RDF.type, HK.Measurement)
        out.add(node, HK.part, part)
        out.add(node, HK.metric, metric)
        out.add(node, HK.value, decimal_literal(value / divisor))
        out.add(node, HK.unit, unit)
        out.add(node, HK.tier, tier)
        out.add(node, HK.sourceText, Literal(f"{name}: {column} = {(raw.get(column) or '').strip()}"))
        if as_of is not None:
            out.add(node, HK.asOf, as_of)
        for citation in cites:
            out.add(node, HK.citation, citation)
        made += 1
    return made
