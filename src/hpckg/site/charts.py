"""Static SVG charts, written by hand so the bytes depend only on the data.

No plotting library: every coordinate is computed here and printed with fixed
precision, so building the site twice gives identical files, and every label is
XML-escaped. Each chart is paired with its data table on the charts page; the
SVG itself carries a ``<title>`` and ``<desc>`` for screen readers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from html import escape

__all__ = ["Chart", "PALETTE", "horizontal_bars", "no_data", "stacked_columns"]

# Colour-blind-safe categorical palette (Okabe-Ito order, then two neutral tones);
# "Other" is always the last grey.
PALETTE = (
    "#0072B2",
    "#E69F00",
    "#009E73",
    "#CC79A7",
    "#56B4E9",
    "#D55E00",
    "#F0E442",
    "#000000",
    "#7F6000",
    "#6A3D9A",
)
OTHER_COLOUR = "#BBBBBB"
_FONT = 'font-family="system-ui, sans-serif" font-size="12"'


@dataclass
class Chart:
    """One chart: its file name, title, the SVG text and the table beside it."""

    slug: str
    title: str
    description: str
    svg: str
    columns: list[str] = field(default_factory=list)
    rows: list[list[str]] = field(default_factory=list)
    note: str = ""

    @property
    def empty(self) -> bool:
        return not self.rows


def _f(value: float) -> str:
    """Fixed two-decimal coordinates: stable text across platforms."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _open(width: int, height: int, title: str, desc: str) -> list[str]:
    return [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" role="img" aria-labelledby="t d">',
        f'<title id="t">{escape(title)}</title>',
        f'<desc id="d">{escape(desc)}</desc>',
        f'<rect width="{width}" height="{height}" fill="#ffffff"/>',
    ]


def no_data(title: str, message: str = "no data") -> str:
    """A small placeholder chart that says there is nothing to draw."""
    lines = _open(480, 80, title, message)
    lines.append(f'<text x="240" y="45" text-anchor="middle" {_FONT} fill="#555555">{escape(message)}</text>')
    lines.append("</svg>")
    return "\n".join(lines) + "\n"


def _colour(index: int, name: str, other: str) -> str:
    if name == other:
        return OTHER_COLOUR
    return PALETTE[index % len(PALETTE)]


def stacked_columns(
    title: str,
    categories: Sequence[str],
    series: Sequence[tuple[str, Sequence[float]]],
    *,
    other: str = "Other",
    desc: str = "",
) -> str:
    """100 % stacked columns: one column per category, shares of each series in it.

    ``series`` values are raw amounts; each column is normalised to its own total.
    """
    if not categories or not series:
        return no_data(title)
    width, height = 820, 420
    left, right, top, bottom = 48, 190, 16, 70
    plot_w, plot_h = width - left - right, height - top - bottom
    n = len(categories)
    step = plot_w / n
    bar = max(step * 0.8, 1.0)
    lines = _open(width, height, title, desc or title)
    for pct in (0, 25, 50, 75, 100):
        y = top + plot_h * (1 - pct / 100)
        lines.append(f'<line x1="{left}" y1="{_f(y)}" x2="{left + plot_w}" y2="{_f(y)}" stroke="#dddddd"/>')
        lines.append(f'<text x="{left - 6}" y="{_f(y + 4)}" text-anchor="end" {_FONT}>{pct}%</text>')
    for i, category in enumerate(categories):
        total = sum(values[i] for _, values in series)
        x = left + i * step + (step - bar) / 2
        y = top + plot_h
        if total > 0:
            for j, (name, values) in enumerate(series):
                h = plot_h * values[i] / total
                if h <= 0:
                    continue
                y -= h
                lines.append(
                    f'<rect x="{_f(x)}" y="{_f(y)}" width="{_f(bar)}" height="{_f(h)}" '
                    f'fill="{_colour(j, name, other)}"><title>{escape(category)}: {escape(name)} '
                    f"{_f(100 * values[i] / total)}%</title></rect>"
                )
        # Label every column when few, else every other one, rotated to fit.
        if n <= 16 or i % 2 == 0:
            lx, ly = x + bar / 2, top + plot_h + 10
            lines.append(
                f'<text x="{_f(lx)}" y="{_f(ly)}" transform="rotate(60 {_f(lx)} {_f(ly)})" {_FONT}>'
                f"{escape(category)}</text>"
            )
    for j, (name, _) in enumerate(series):
        y = top + 4 + j * 20
        lines.append(
            f'<rect x="{width - right + 14}" y="{y}" width="12" height="12" fill="{_colour(j, name, other)}"/>'
        )
        lines.append(f'<text x="{width - right + 32}" y="{y + 10}" {_FONT}>{escape(name)}</text>')
    lines.append("</svg>")
    return "\n".join(lines) + "\n"


def horizontal_bars(title: str, items: Sequence[tuple[str, float]], unit: str, *, desc: str = "") -> str:
    """One horizontal bar per item, longest first as given, with its value printed."""
    if not items:
        return no_data(title)
    width = 820
    left, right, top, row = 170, 120, 10, 22
    height = top * 2 + row * len(items)
    plot_w = width - left - right
    peak = max(value for _, value in items) or 1.0
    lines = _open(width, height, title, desc or title)
    for i, (label, value) in enumerate(items):
        y = top + i * row
        w = plot_w * value / peak
        lines.append(f'<text x="{left - 8}" y="{y + 15}" text-anchor="end" {_FONT}>{escape(label)}</text>')
        lines.append(f'<rect x="{left}" y="{y + 3}" width="{_f(w)}" height="{row - 6}" fill="{PALETTE[0]}"/>')
        lines.append(f'<text x="{_f(left + w + 6)}" y="{y + 15}" {_FONT}>{escape(f"{value:,.0f} {unit}")}</text>')
    lines.append("</svg>")
    return "\n".join(lines) + "\n"
