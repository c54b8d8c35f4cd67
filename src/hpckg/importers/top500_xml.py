"""Read a TOP500 list in its XML format into the rows the spreadsheet formats give.

A list file is one ``top500:list`` element (namespace ``http://www.top500.org/xml/top500/1.0``,
publication date in its ``date`` attribute) holding one ``top500:site`` per ranking row::

    <top500:list xmlns:top500="http://www.top500.org/xml/top500/1.0" date="2019/11/18">
      <top500:site>
        <top500:rank>1</top500:rank>
        <top500:system-id>179397</top500:system-id>
        <top500:r-max>148600000.0</top500:r-max>
        <top500:installation-site>
          <top500:installation-site-name>DOE/SC/Oak Ridge National Laboratory</top500:installation-site-name>
        </top500:installation-site>
        ...

Element names map to the field names of :data:`~.top500_read.HEADER_ALIASES`. Rmax and
Rpeak are GFlop/s in the XML of every edition (the spreadsheets switch to TFlop/s after
2016-11), so the unit is stated in :attr:`ListFile.fields` as a header unit would be.
A row's number is the line of its ``<top500:site>`` start tag.

Parsing uses the standard library's expat (defusedxml is not installed): entity
declarations of any kind and external entity references are refused, so a hostile
file can neither expand entities nor make the parser read another file or URL; a
DOCTYPE naming an external DTD is tolerated but the DTD is never read, and an entity
reference that would need it is refused rather than silently dropped.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, BinaryIO
from xml.parsers import expat

from ..errors import DataError
from .top500_read import ListFile, Row, edition_from_name

__all__ = ["IGNORED_ELEMENTS", "NAMESPACE", "XML_ELEMENTS", "read_xml"]

NAMESPACE = "http://www.top500.org/xml/top500/1.0"
# Local element name -> (field, unit the XML states it in).
XML_ELEMENTS: dict[str, tuple[str, str | None]] = {
    "rank": ("rank", None),
    "system-id": ("system_id", None),
    "system-name": ("name", None),
    "manufacturer": ("manufacturer", None),
    "computer": ("computer", None),
    "r-max": ("rmax", "GFlop/s"),
    "r-peak": ("rpeak", "GFlop/s"),
    "power": ("power", "kW"),
    "n-max": ("nmax", None),
    "n-half": ("nhalf", None),
    "installation-site-name": ("site", None),
    "site-id": ("site_id", None),
    "country": ("country", None),
    "year": ("year", None),
    "number-of-processors": ("cores", None),
}
# Known elements with nothing to import (installation-site only groups its children).
IGNORED_ELEMENTS = frozenset(
    {"installation-site", "system-address", "installation-site-address", "town", "state", "area-of-installation"}
)
_SEPARATOR = " "  # expat joins namespace and local name with it; a URI holds no space
_ROOT = f"{NAMESPACE}{_SEPARATOR}list"
_SITE = f"{NAMESPACE}{_SEPARATOR}site"
_DATE = re.compile(r"^\s*((?:19|20)\d{2})[/-](\d{1,2})(?!\d)")


def _shown(name: str) -> str:
    """``"http://...1.0 r-max"`` -> ``"r-max"``; a foreign name keeps its namespace."""
    uri, _, local = name.rpartition(_SEPARATOR)
    if not uri:
        return local
    return local if uri == NAMESPACE else f"{{{uri}}}{local}"


class _Reader:
    """Expat callbacks that collect the sites of one list file."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.parser = expat.ParserCreate(namespace_separator=_SEPARATOR)
        self.root_seen = False
        self.date: str | None = None
        self.stack: list[str] = []
        self.texts: list[list[str]] = []
        self.row: Row | None = None
        self.rows: list[Row] = []
        # Rank and Rmax are always fields, so a site lacking them is a rejected row, not a silent skip.
        self.fields: dict[str, str | None] = {"rank": XML_ELEMENTS["rank"][1], "rmax": XML_ELEMENTS["r-max"][1]}
        self.headers: dict[str, str] = {"rank": "rank", "rmax": "r-max"}
        self.warnings: list[str] = []
        self._unknown: set[str] = set()
        parser = self.parser
        parser.buffer_text = True
        # Never read an external DTD or parameter entity: nothing outside the file is fetched.
        parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
        parser.EntityDeclHandler = self._refuse_entity
        parser.UnparsedEntityDeclHandler = self._refuse_unparsed
        parser.ExternalEntityRefHandler = self._refuse_external
        # Behind an unread external DTD expat skips undeclared entities: refuse, never drop text silently.
        parser.SkippedEntityHandler = self._refuse_skipped
        parser.StartElementHandler = self._start
        parser.EndElementHandler = self._end
        parser.CharacterDataHandler = self._text

    def _refused(self, what: str) -> DataError:
        return DataError(
            f"{what} refused (TOP500 lists use no entities; a guard against entity expansion); nothing imported",
            self.path,
            self.parser.CurrentLineNumber,
        )

    def _refuse_entity(self, name: str, *_: Any) -> None:
        raise self._refused(f"DOCTYPE entity declaration {name!r}")

    def _refuse_unparsed(self, name: str, *_: Any) -> None:
        raise self._refused(f"DOCTYPE unparsed entity declaration {name!r}")

    def _refuse_external(self, context: str, base: str | None, system_id: str | None, public_id: str | None) -> int:
        raise self._refused(f"external entity reference {system_id or public_id or context!r}")

    def _refuse_skipped(self, name: str, is_parameter_entity: bool) -> None:
        raise self._refused(f"entity reference {name!r} (declared in an external DTD, which is never read)")

    def _start(self, name: str, attributes: dict[str, str]) -> None:
        line = self.parser.CurrentLineNumber
        if not self.root_seen:
            self.root_seen = True
            if name != _ROOT:
                raise DataError(
                    f"not a TOP500 XML list: the root element is {_shown(name)!r}, "
                    f"expected top500:list in namespace {NAMESPACE}",
                    self.path,
                    line,
                )
            self.date = attributes.get("date")
        elif name == _SITE and len(self.stack) == 1:
            self.row = Row(line, {})
        else:
            local = _shown(name)
            known = name.startswith(NAMESPACE + _SEPARATOR) and (local in XML_ELEMENTS or local in IGNORED_ELEMENTS)
            if not known and local not in self._unknown:
                self._unknown.add(local)
                self.warnings.append(f"{self.path.name}: unknown element {local!r} (first at line {line}) ignored")
        self.stack.append(name)
        self.texts.append([])

    def _end(self, name: str) -> None:
        self.stack.pop()
        text = "".join(self.texts.pop()).strip()
        if name == _SITE and len(self.stack) == 1 and self.row is not None:
            self.rows.append(self.row)
            self.row = None
            return
        local = _shown(name)
        if self.row is None or local not in XML_ELEMENTS or not name.startswith(NAMESPACE + _SEPARATOR):
            return
        fieldname, unit = XML_ELEMENTS[local]
        if fieldname in self.row.values:
            self.warnings.append(
                f"{self.path.name}:{self.row.number}: element {local!r} given twice in one site; the first is kept"
            )
            return
        self.row.values[fieldname] = text
        self.fields.setdefault(fieldname, unit)
        self.headers.setdefault(fieldname, local)

    def _text(self, data: str) -> None:
        if self.texts:
            self.texts[-1].append(data)

    def parse(self, stream: BinaryIO) -> None:
        try:
            self.parser.ParseFile(stream)
        except expat.ExpatError as error:
            message = f"malformed XML: {expat.ErrorString(error.code)}; nothing imported from this file"
            raise DataError(message, self.path, error.lineno, error.offset + 1) from None


def _edition(path: Path, date: str | None, warnings: list[str]) -> str:
    """The edition from the ``date`` attribute ("2019/11/18" -> "2019-11"), else the file name."""
    match = _DATE.match(date or "")
    if match and match.group(2).zfill(2) in ("06", "11"):
        edition = f"{match.group(1)}-{match.group(2).zfill(2)}"
        try:
            named = edition_from_name(path)
        except DataError:
            return edition
        if named != edition:
            warnings.append(f"{path.name}: list date {date!r} says {edition}, the file name {named}; using {edition}")
        return edition
    if date is not None:
        warnings.append(f"{path.name}: list date {date!r} is not a June or November list; edition from the file name")
    try:
        return edition_from_name(path)
    except DataError:
        raise DataError(
            "cannot tell the list edition: no usable date attribute on top500:list and no YYYYMM in the file name "
            "(name it like TOP500_201911_all.xml)",
            path,
        ) from None


def read_xml(path: Path) -> ListFile:
    """Read a TOP500 XML list file; raise DataError if it is not a readable list."""
    reader = _Reader(path)
    try:
        with path.open("rb") as stream:
            reader.parse(stream)
    except OSError as error:
        raise DataError(f"cannot read file: {error.strerror}", path) from None
    if not reader.rows:
        raise DataError("no top500:site elements (truncated or not a TOP500 list?)", path)
    edition = _edition(path, reader.date, reader.warnings)
    return ListFile(path, edition, reader.fields, reader.rows, reader.warnings, reader.headers)
