"""TOP500 units: one unit per metric, whatever the list edition used.

Rmax, Rpeak and HPCG become TFlop/s, power kW, energy efficiency GFlop/s per W.
A header that states its unit ("Rmax [TFlop/s]", "Mflops/Watt") is believed;
a bare header ("Rmax") takes the unit of its edition: GFlop/s and MFlop/s per W
up to the 2016-11 list, TFlop/s and GFlop/s per W from 2017-06 on.
"""

from __future__ import annotations

from decimal import Decimal

from rdflib import URIRef

from ..namespaces import HK

__all__ = ["LAST_GFLOPS_EDITION", "METRICS", "factor", "format_decimal"]

# The last edition whose Rmax / Rpeak are in GFlop/s and efficiency in MFlop/s per W.
LAST_GFLOPS_EDITION = "2016-11"

# field -> (metric, unit of the normalised value)
METRICS: dict[str, tuple[URIRef, URIRef]] = {
    "rmax": (HK.Rmax, HK.TeraFLOPS),
    "rpeak": (HK.Rpeak, HK.TeraFLOPS),
    "hpcg": (HK.HPCG, HK.TeraFLOPS),
    "cores": (HK.Cores, HK.Count),
    "accelerator_cores": (HK.AcceleratorCores, HK.Count),
    "power": (HK.Power, HK.Kilowatt),
    "energy_efficiency": (HK.EnergyEfficiency, HK.GigaFLOPSPerWatt),
}
_THOUSANDTH = Decimal("0.001")


def factor(field: str, header_unit: str | None, edition: str) -> Decimal:
    """Multiplier from the file's unit to the normalised unit of ``field``."""
    unit = (header_unit or "").lower().replace(" ", "")
    if field in ("rmax", "rpeak", "hpcg"):
        if "tflop" in unit:
            return Decimal(1)
        if "gflop" in unit:
            return _THOUSANDTH
        if "pflop" in unit:
            return Decimal(1000)
        # HPCG appears only from 2017-06, in TFlop/s.
        return _THOUSANDTH if field != "hpcg" and edition <= LAST_GFLOPS_EDITION else Decimal(1)
    if field == "energy_efficiency":
        if "mflop" in unit:
            return _THOUSANDTH
        if "gflop" in unit:
            return Decimal(1)
        return _THOUSANDTH if edition <= LAST_GFLOPS_EDITION else Decimal(1)
    if field == "power" and unit == "mw":
        return Decimal(1000)
    return Decimal(1)


def format_decimal(value: Decimal) -> str:
    """An xsd:decimal lexical form: no exponent, no trailing zeros, at least one digit."""
    text = format(value.normalize(), "f")
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return text or "0"
