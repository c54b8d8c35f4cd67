"""Find system names, parts and counts in page text, however the page writes them.

Names are compared on their letters and digits only, case-folded and
NFKC-normalised, so hyphens, spaces, line-break hyphenation, soft hyphens and
full-width forms do not matter ("A100-SXM 80GB" finds "A100 SXM 80 GB" and
"A100-\\nSXM80GB"); a match must still start and end on a word boundary of the
page, so "A100" does not match "A1000". Counts match digits grouped any usual
way ("2288", "2,288", "2.288", "2 288", thin and no-break spaces) but not as a
part of a longer number ("12,288", "2,288,000").

>>> page = Page("Seren has 2,288 NVIDIA A100-SXM 80GB GPUs.")
>>> page.find("a100 sxm 80gb") is not None, page.find_count(2288) is not None
(True, True)
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_right
from dataclasses import dataclass
from functools import lru_cache

__all__ = ["Found", "Page", "fold"]

_RUN = re.compile(r"[^\W_]+")
_GROUP_SEP = "[,.'\u00a0\u2009\u202f\u2007 ]"
_SNIPPET = 70


def fold(text: str) -> str:
    """Letters and digits only, NFKC-normalised and case-folded: the matching key."""
    return "".join(unicodedata.normalize("NFKC", run).casefold() for run in _RUN.findall(text))


def _spaced(text: str) -> bool:
    """Whether the script separates words with spaces (CJK text does not)."""
    return not any(
        "\u2e80" <= ch <= "\ua4cf" or "\uac00" <= ch <= "\ud7af" or "\uf900" <= ch <= "\ufaff" for ch in text
    )


@lru_cache(maxsize=4096)
def _ascii_pattern(key: str, plural: bool) -> re.Pattern[str]:
    """``key``'s letters with any non-alphanumerics between them, on word boundaries."""
    body = r"[\W_]*".join(re.escape(ch) for ch in key)
    tail = r"(?:[\W_]*s)?" if plural else ""
    return re.compile(rf"(?<![A-Za-z0-9]){body}{tail}(?![A-Za-z0-9])", re.IGNORECASE)


@dataclass(frozen=True)
class Found:
    """Where a term was found: its span in the page text and a short snippet."""

    start: int
    end: int
    snippet: str


class Page:
    """The text of one page, indexed once for many look-ups."""

    def __init__(self, text: str) -> None:
        self.text = text
        pieces: list[str] = []
        self._origin: list[int] = []  # page offset of each run
        self._cum: list[int] = []  # offset of each run in the folded string
        self._lengths: list[int] = []
        at = 0
        # ASCII pages (the common case) are searched with one regex per term instead.
        self._ascii = text.isascii()
        if not self._ascii:
            for run in _RUN.finditer(text):
                piece = unicodedata.normalize("NFKC", run.group()).casefold()
                pieces.append(piece)
                self._origin.append(run.start())
                self._cum.append(at)
                self._lengths.append(len(run.group()))
                at += len(piece)
            self.folded = "".join(pieces)
            self._ends = {c + len(p) for c, p in zip(self._cum, pieces, strict=True)}
        else:
            self.folded = ""
            self._ends = set()
        self._starts = set(self._cum)

    def _page_offset(self, folded_at: int, end: bool = False) -> int:
        index = max(0, bisect_right(self._cum, folded_at - (1 if end else 0)) - 1)
        inside = min(folded_at - self._cum[index], self._lengths[index])
        return self._origin[index] + inside

    def find(self, term: str, plural: bool = False) -> Found | None:
        """The first place the page names ``term`` on word boundaries, or ``None``."""
        key = fold(term)
        if not key:
            return None
        if self._ascii:
            if not key.isascii():
                return None
            hit = _ascii_pattern(key, plural and _spaced(term)).search(self.text)
            return self._found(hit.start(), hit.end()) if hit else None
        if not self.folded:
            return None
        bounded = _spaced(term)
        at = self.folded.find(key)
        while at >= 0:
            end = at + len(key)
            if (
                not bounded
                or at in self._starts
                and (end in self._ends or plural and self.folded[end : end + 1] == "s" and end + 1 in self._ends)
            ):
                return self._found(self._page_offset(at), self._page_offset(end, end=True))
            at = self.folded.find(key, at + 1)
        return None

    def find_count(self, count: int) -> Found | None:
        """The first place the page writes the number ``count``, or ``None``."""
        digits = str(count)
        head = len(digits) % 3 or 3
        groups = [digits[:head]] + [digits[i : i + 3] for i in range(head, len(digits), 3)]
        body = (_GROUP_SEP + "?").join(groups) if len(groups) > 1 else digits
        # Not inside a word or a longer number on either side.
        pattern = rf"(?<![\w])(?<!\d[.,]){body}(?![\d])(?!{_GROUP_SEP}\d)"
        hit = re.search(pattern, self.text)
        return self._found(hit.start(), hit.end()) if hit else None

    def _found(self, start: int, end: int) -> Found:
        left = max(0, start - _SNIPPET)
        right = min(len(self.text), end + _SNIPPET)
        snippet = " ".join(self.text[left:right].split())
        return Found(start, end, ("…" if left else "") + snippet + ("…" if right < len(self.text) else ""))
