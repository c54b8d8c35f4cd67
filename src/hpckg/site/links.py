"""Check every internal link of a built site: each ``href``/``src`` that is not an
absolute URL must name a file in the site, and a ``#fragment`` an id in that file."""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

__all__ = ["check_links"]


class _Collector(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.links: list[str] = []
        self.ids: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if value is None:
                continue
            if name in ("href", "src"):
                self.links.append(value)
            elif name == "id":
                self.ids.add(value)


def _parse(path: Path) -> _Collector:
    collector = _Collector()
    collector.feed(path.read_text(encoding="utf-8"))
    collector.close()
    return collector


def check_links(site: str | Path) -> list[tuple[str, str]]:
    """Every broken internal link as (page, link), sorted; empty when all resolve."""
    root = Path(site).resolve()
    parsed = {p: _parse(p) for p in sorted(root.rglob("*.html"))}
    broken: list[tuple[str, str]] = []
    for page, collector in parsed.items():
        for link in collector.links:
            parts = urlsplit(link)
            if parts.scheme or parts.netloc or link.startswith(("mailto:", "//")):
                continue
            target = (page.parent / unquote(parts.path)).resolve() if parts.path else page
            rel = page.relative_to(root).as_posix()
            if root not in target.parents and target != root or not target.is_file():
                broken.append((rel, link))
                continue
            if parts.fragment and target.suffix == ".html":
                ids = parsed[target].ids if target in parsed else _parse(target).ids
                if parts.fragment not in ids:
                    broken.append((rel, link))
    return sorted(broken)
