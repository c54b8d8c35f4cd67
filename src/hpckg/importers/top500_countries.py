"""TOP500 country names -> ISO 3166-1 alpha-2 codes (every spelling seen 2011-2025)."""

from __future__ import annotations

__all__ = ["COUNTRIES", "iso_country"]

COUNTRIES: dict[str, str] = {
    "argentina": "AR", "australia": "AU", "austria": "AT", "belgium": "BE", "brazil": "BR",
    "bulgaria": "BG", "canada": "CA", "chile": "CL", "china": "CN", "croatia": "HR",
    "cyprus": "CY", "czech republic": "CZ", "czechia": "CZ", "denmark": "DK", "egypt": "EG",
    "estonia": "EE", "finland": "FI", "france": "FR", "germany": "DE", "greece": "GR",
    "hong kong": "HK", "hungary": "HU", "iceland": "IS", "india": "IN", "indonesia": "ID",
    "iran": "IR", "ireland": "IE", "israel": "IL", "italy": "IT", "japan": "JP",
    "korea, south": "KR", "south korea": "KR", "korea": "KR", "republic of korea": "KR",
    "luxembourg": "LU", "malaysia": "MY", "mexico": "MX", "morocco": "MA", "netherlands": "NL",
    "new zealand": "NZ", "norway": "NO", "oman": "OM", "pakistan": "PK", "philippines": "PH",
    "poland": "PL", "portugal": "PT", "qatar": "QA", "romania": "RO", "russia": "RU",
    "russian federation": "RU", "saudi arabia": "SA", "serbia": "RS", "singapore": "SG",
    "slovak republic": "SK", "slovakia": "SK", "slovenia": "SI", "south africa": "ZA",
    "spain": "ES", "sweden": "SE", "switzerland": "CH", "taiwan": "TW", "thailand": "TH",
    "turkey": "TR", "turkiye": "TR", "ukraine": "UA", "united arab emirates": "AE",
    "united kingdom": "GB", "uk": "GB", "united states": "US", "usa": "US", "vietnam": "VN",
    "viet nam": "VN",
}


def iso_country(name: str) -> str | None:
    """``"Korea, South"`` -> ``"KR"``; None when the name is not known."""
    key = " ".join(name.lower().split())
    if len(key) == 2 and key.isalpha() and key.upper() in COUNTRIES.values():
        return key.upper()
    return COUNTRIES.get(key)
