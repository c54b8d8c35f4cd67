"""The static site: one page per system, organisation and part family, plus charts.

>>> from hpckg.store import Dataset                              # doctest: +SKIP
>>> build_site(Dataset.load(), "build/site").pages               # doctest: +SKIP
180
"""

from __future__ import annotations

from .build import SiteSummary, build_site
from .links import check_links

__all__ = ["SiteSummary", "build_site", "check_links"]
