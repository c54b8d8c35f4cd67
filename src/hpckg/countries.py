"""ISO 3166-1 alpha-2 codes for the countries that appear in the sources.

Datasets spell countries many ways ("Korea, South", "Korea (Republic of)",
"United States of America"); :func:`country_code` folds them to one code and
:func:`country_name` gives the short English name back.
"""

from __future__ import annotations

import re

__all__ = ["NAMES", "country_code", "country_name"]

NAMES: dict[str, str] = {
    "RS": "Serbia",
    "PK": "Pakistan",
    "OM": "Oman",
    "IR": "Iran",
    "CY": "Cyprus",
    "AE": "United Arab Emirates",
    "AR": "Argentina",
    "AT": "Austria",
    "AU": "Australia",
    "BE": "Belgium",
    "BG": "Bulgaria",
    "BR": "Brazil",
    "CA": "Canada",
    "CH": "Switzerland",
    "CL": "Chile",
    "CN": "China",
    "CZ": "Czechia",
    "DE": "Germany",
    "DK": "Denmark",
    "EE": "Estonia",
    "EG": "Egypt",
    "ES": "Spain",
    "FI": "Finland",
    "FR": "France",
    "GB": "United Kingdom",
    "GR": "Greece",
    "HK": "Hong Kong",
    "HR": "Croatia",
    "HU": "Hungary",
    "ID": "Indonesia",
    "IE": "Ireland",
    "IL": "Israel",
    "IN": "India",
    "IS": "Iceland",
    "IT": "Italy",
    "JP": "Japan",
    "KR": "South Korea",
    "KZ": "Kazakhstan",
    "LU": "Luxembourg",
    "MA": "Morocco",
    "MX": "Mexico",
    "MY": "Malaysia",
    "NL": "Netherlands",
    "NO": "Norway",
    "NZ": "New Zealand",
    "PH": "Philippines",
    "PL": "Poland",
    "PT": "Portugal",
    "QA": "Qatar",
    "RO": "Romania",
    "RU": "Russia",
    "SA": "Saudi Arabia",
    "SE": "Sweden",
    "SG": "Singapore",
    "SI": "Slovenia",
    "SK": "Slovakia",
    "TH": "Thailand",
    "TR": "Turkey",
    "TW": "Taiwan",
    "UA": "Ukraine",
    "US": "United States",
    "VN": "Vietnam",
    "ZA": "South Africa",
}

_ALIASES = {
    "czech republic": "CZ",
    "korea, south": "KR",
    "korea (republic of)": "KR",
    "republic of korea": "KR",
    "korea": "KR",
    "philippines (the)": "PH",
    "slovak republic": "SK",
    "turkiye": "TR",
    "türkiye": "TR",
    "united kingdom of great britain and northern ireland": "GB",
    "uk": "GB",
    "great britain": "GB",
    "united states of america": "US",
    "usa": "US",
    "u.s.": "US",
    "us": "US",
    "russian federation": "RU",
    "uae": "AE",
    "viet nam": "VN",
    "hong kong sar": "HK",
    "taiwan, province of china": "TW",
}
_BY_NAME = {name.lower(): code for code, name in NAMES.items()} | _ALIASES


def country_code(name: str) -> str | None:
    """``"Korea, South"`` -> ``"KR"``; None when the name is unknown or empty."""
    key = re.sub(r"\s+", " ", name.strip().lower())
    if not key:
        return None
    if key.upper() in NAMES:
        return key.upper()
    return _BY_NAME.get(key)


def country_name(code: str) -> str:
    """``"CN"`` -> ``"China"``; unknown codes come back as they are."""
    return NAMES.get(code.upper(), code)
