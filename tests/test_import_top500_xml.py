"""The TOP500 importer on hand-written XML list files: fields, units, edition, bad input, CLI."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pyoxigraph as ox
import pytest
from click.testing import CliRunner

from hpckg.cli import main
from hpckg.errors import DataError
from hpckg.importers.top500 import import_top500
from hpckg.importers.top500_entries import Problem, parse_entries
from hpckg.importers.top500_read import HEADER_ALIASES, read_list
from hpckg.importers.top500_xml import XML_ELEMENTS
from hpckg.namespaces import HK, id_iri
from hpckg.store import Dataset

FIXTURES = Path(__file__).parent / "fixtures" / "top500-xml"
LIST = FIXTURES / "list-2019-11.xml"
BAD_ROWS = FIXTURES / "bad-rows.xml"
OPEN = '<top500:list xmlns:top500="http://www.top500.org/xml/top500/1.0"{date}>\n'
SITE = "  <top500:site><top500:rank>{rank}</top500:rank><top500:r-max>{rmax}</top500:r-max></top500:site>\n"


def site_lines(path: Path) -> list[int]:
    """Line numbers of the ``<top500:site>`` start tags, read from the fixture itself."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return [number for number, line in enumerate(lines, start=1) if "<top500:site>" in line]


def small_list(tmp_path: Path, name: str, date: str | None = ' date="2024/11/18"', body: str = "") -> Path:
    path = tmp_path / name
    date_attr = date or ""
    path.write_text(OPEN.format(date=date_attr) + (body or SITE.format(rank=1, rmax="1000.0")) + "</top500:list>\n")
    return path


def values_of(nt: bytes, subject: str, predicate: str) -> list[str]:
    triples = ox.parse(nt, format=ox.RdfFormat.N_TRIPLES)
    return sorted(t.object.value for t in triples if t.subject.value == subject and t.predicate.value == predicate)


def test_xml_elements_map_to_canonical_fields() -> None:
    assert {name for name, _ in XML_ELEMENTS.values()} <= set(HEADER_ALIASES.values())


def test_rows_and_fields_read() -> None:
    listing = read_list(LIST)
    assert [row.number for row in listing.rows] == site_lines(LIST)
    summit = listing.rows[0].values
    assert summit["name"] == "Summit"
    assert summit["system_id"] == "179397"
    assert summit["site"] == "DOE/SC/Oak Ridge National Laboratory"
    assert summit["site_id"] == "48553"
    assert summit["cores"] == "2414592"
    assert summit["rmax"] == "148600000.0"
    assert [row.values["name"] for row in listing.rows[1:]] == ["Fixture XML One", "Fixture XML Two"]
    # Known elements with nothing to import are dropped without a warning.
    assert "town" not in summit and "state" not in summit
    assert listing.warnings == []
    assert listing.fields["rmax"] == "GFlop/s" and listing.fields["rpeak"] == "GFlop/s"
    assert listing.fields["power"] == "kW"


def test_edition_from_date_attribute() -> None:
    assert read_list(LIST).edition == "2019-11"  # the file name carries no date
    assert read_list(BAD_ROWS).edition == "2020-06"


def test_edition_from_file_name_without_date(tmp_path: Path) -> None:
    assert read_list(small_list(tmp_path, "TOP500_202411_all.xml", date=None)).edition == "2024-11"


def test_edition_unknown_names_the_file(tmp_path: Path) -> None:
    with pytest.raises(DataError, match="cannot tell the list edition") as error:
        read_list(small_list(tmp_path, "undated.xml", date=None))
    assert error.value.path is not None and error.value.path.endswith("undated.xml")


def test_gflops_become_teraflops() -> None:
    listing = read_list(LIST)
    entries = parse_entries(listing, [], [])
    summit = next(e for e in entries if e.system_id == "179397")
    assert summit.figures["rmax"] == Decimal("148600")
    assert summit.figures["rpeak"] == Decimal("200794.88")
    assert summit.figures["power"] == Decimal("10096")


def test_truncated_file_is_one_error_naming_the_file(tmp_path: Path) -> None:
    text = LIST.read_text(encoding="utf-8")
    cut = tmp_path / "TOP500_201911_all.xml"
    cut.write_text(text[: text.index("Fixture XML One")])
    with pytest.raises(DataError, match="malformed XML") as error:
        read_list(cut)
    message = str(error.value)
    assert "TOP500_201911_all.xml:" in message and "\n" not in message
    assert error.value.line is not None and error.value.line > 1


def test_truncated_file_imports_nothing(tmp_path: Path, dataset: Dataset) -> None:
    cut = tmp_path / "TOP500_202006_all.xml"
    cut.write_text(LIST.read_text(encoding="utf-8")[:400])
    with pytest.raises(DataError, match="TOP500_202006_all.xml"):
        import_top500([LIST, cut], dataset)


@pytest.mark.parametrize(
    ("body", "shown"),
    [
        ('<?xml version="1.0"?>\n<rss><channel/></rss>\n', "'rss'"),
        ('<list xmlns="http://example.invalid/ns"><site/></list>\n', "'{http://example.invalid/ns}list'"),
    ],
)
def test_foreign_root_is_refused(tmp_path: Path, body: str, shown: str) -> None:
    path = tmp_path / "TOP500_201911.xml"
    path.write_text(body)
    with pytest.raises(DataError, match="not a TOP500 XML list") as error:
        read_list(path)
    assert shown in str(error.value) and "TOP500_201911.xml" in str(error.value)


@pytest.mark.parametrize(
    "doctype",
    [
        '<!DOCTYPE l [ <!ENTITY a "aaaaaaaaaa"> <!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"> ]>',
        '<!DOCTYPE l [ <!ENTITY xxe SYSTEM "file:///nonexistent/secret"> ]>',
        '<!DOCTYPE l [ <!ENTITY % p SYSTEM "http://example.invalid/p.dtd"> %p; ]>',
    ],
)
def test_entity_declarations_are_refused(tmp_path: Path, doctype: str) -> None:
    path = tmp_path / "TOP500_201911.xml"
    path.write_text(f'<?xml version="1.0"?>\n{doctype}\n' + OPEN.format(date="") + SITE.format(rank=1, rmax="&b;"))
    with pytest.raises(DataError, match="refused") as error:
        read_list(path)
    assert "TOP500_201911.xml:2" in str(error.value)


def test_entity_from_unread_external_dtd_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "TOP500_201911.xml"
    path.write_text(
        '<?xml version="1.0"?>\n<!DOCTYPE l SYSTEM "http://example.invalid/l.dtd">\n'
        + OPEN.format(date="")
        + SITE.format(rank="&ext;", rmax="1.0")
        + "</top500:list>\n"
    )
    with pytest.raises(DataError, match="'ext'.*refused"):
        read_list(path)


def test_no_sites_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "TOP500_201911.xml"
    path.write_text(OPEN.format(date="") + "</top500:list>\n")
    with pytest.raises(DataError, match="no top500:site"):
        read_list(path)


def test_unknown_element_warns_once() -> None:
    listing = read_list(BAD_ROWS)
    mystery = [w for w in listing.warnings if "mystery-figure" in w]
    assert len(mystery) == 1  # two sites carry it: one warning per element name
    assert "bad-rows.xml" in mystery[0]


def test_bad_rows_reported_with_file_and_row_others_import() -> None:
    listing = read_list(BAD_ROWS)
    problems: list[Problem] = []
    entries = parse_entries(listing, problems, [])
    lines = site_lines(BAD_ROWS)
    assert {(p.path, p.row, p.column) for p in problems} == {
        ("bad-rows.xml", lines[1], "rmax"),
        ("bad-rows.xml", lines[2], "Rank"),
    }
    assert [e.system_id for e in entries] == ["990103"]


def test_cli_import_merges_summit_with_curated(tmp_path: Path, runner: CliRunner, dataset: Dataset) -> None:
    out = tmp_path / "out.nt"
    result = runner.invoke(main, ["import", "top500", str(LIST), str(BAD_ROWS), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert "2 row(s) rejected" in result.output
    nt = out.read_bytes()
    curated_summit = dataset.select("SELECT ?s WHERE { ?s hk:top500SystemId '179397' }")
    summit = curated_summit[0]["s"].value
    rmax_claim = str(id_iri("claim", "top500", summit.rsplit("/", 1)[-1], "2019-11", "rmax"))
    assert values_of(nt, rmax_claim, str(HK.system)) == [summit]
    assert values_of(nt, rmax_claim, str(HK.value)) == ["148600"]
    assert values_of(nt, rmax_claim, str(HK.unit)) == [str(HK.TeraFLOPS)]
    # The curated system is not re-declared; made-up systems are created with their System ID.
    assert values_of(nt, summit, str(HK.top500SystemId)) == []
    ids = {
        t.object.value
        for t in ox.parse(nt, format=ox.RdfFormat.N_TRIPLES)
        if t.predicate.value == str(HK.top500SystemId)
    }
    assert ids == {"990101", "990102", "990103"}
