"""Hand-written SVG charts: deterministic, escaped, well-formed, honest about empty data."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from hpckg.site.charts import OTHER_COLOUR, horizontal_bars, no_data, stacked_columns

SVG = "{http://www.w3.org/2000/svg}"


def test_stacked_columns_are_shares_of_each_column() -> None:
    svg = stacked_columns("t", ["2020-06", "2020-11"], [("A", [1.0, 3.0]), ("Other", [1.0, 1.0])])
    root = ET.fromstring(svg)
    bars = [r for r in root.iter(SVG + "rect") if r.find(SVG + "title") is not None]
    titles = [r.find(SVG + "title").text for r in bars]
    assert titles == ["2020-06: A 50%", "2020-06: Other 50%", "2020-11: A 75%", "2020-11: Other 25%"]
    assert bars[1].get("fill") == OTHER_COLOUR
    heights = [float(r.get("height")) for r in bars]
    assert abs(heights[0] + heights[1] - (heights[2] + heights[3])) < 0.02  # both columns full height


def test_charts_are_deterministic_and_escaped() -> None:
    args = ("<b>&", [("<script>x</script>", 5.0), ("B", 2.5)], "H100e")
    first, second = horizontal_bars(*args), horizontal_bars(*args)
    assert first == second
    assert "<script>" not in first and "&lt;script&gt;" in first
    ET.fromstring(first)  # well-formed XML


def test_empty_charts_say_no_data() -> None:
    for svg in (stacked_columns("t", [], []), horizontal_bars("t", [], "x"), no_data("t")):
        root = ET.fromstring(svg)
        assert "no data" in "".join(root.itertext())
