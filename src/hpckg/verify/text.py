"""Turn a fetched body into the text a reader sees: HTML, plain text or PDF.

HTML is parsed with the standard library's :class:`html.parser.HTMLParser` (no
script runs, nothing is loaded): script, style and similar elements are dropped,
block elements become line breaks. The charset comes from a byte-order mark, the
``Content-Type`` header, a ``<meta charset>`` or, failing those, UTF-8 with a
windows-1252 fallback. PDFs go through pypdf, page by page, up to a page limit.
"""

from __future__ import annotations

import codecs
import io
import logging
import re
import warnings
from dataclasses import dataclass
from html.parser import HTMLParser

__all__ = ["Document", "TextError", "decode", "extract", "html_to_text", "pdf_to_text", "sniff_kind"]

_SKIP = {"script", "style", "noscript", "template", "iframe", "object", "embed", "canvas", "svg", "math"}
_BLOCK = {
    "p",
    "div",
    "br",
    "li",
    "ul",
    "ol",
    "tr",
    "td",
    "th",
    "table",
    "section",
    "article",
    "header",
    "footer",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "pre",
    "blockquote",
    "dd",
    "dt",
    "dl",
    "title",
    "figcaption",
    "caption",
    "main",
    "nav",
    "aside",
    "hr",
}
_VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
_META_CHARSET = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?\s*([A-Za-z0-9_.:-]+)""", re.IGNORECASE)
_HEADER_CHARSET = re.compile(r"""charset\s*=\s*["']?([A-Za-z0-9_.:-]+)""", re.IGNORECASE)
# WHATWG: labels a browser decodes with a wider encoding than the name says.
_WIDER = {
    "gb2312": "gb18030",
    "gbk": "gb18030",
    "iso-8859-1": "windows-1252",
    "latin1": "windows-1252",
    "latin-1": "windows-1252",
    "us-ascii": "windows-1252",
    "ascii": "windows-1252",
    "iso8859-1": "windows-1252",
    "x-sjis": "shift_jis",
    "ks_c_5601-1987": "euc-kr",
}
_MAX_PDF_PAGES = 200


class TextError(ValueError):
    """A body could not be turned into text (a broken PDF, say)."""


@dataclass(frozen=True)
class Document:
    """The readable text of a page, its kind and, for HTML, a linked PDF of the same work."""

    text: str
    kind: str  # "html", "pdf", "text" or "other"
    encoding: str | None = None
    pdf_link: str | None = None


def _codec(label: str | None) -> str | None:
    if not label:
        return None
    name = _WIDER.get(label.strip().lower(), label.strip().lower())
    try:
        return codecs.lookup(name).name
    except LookupError:
        return None


def decode(body: bytes, content_type: str | None = None, sniff_meta: bool = False) -> tuple[str, str]:
    """Decode ``body``; returns the text and the codec used."""
    for bom, name in (
        (codecs.BOM_UTF8, "utf-8-sig"),
        (codecs.BOM_UTF16_LE, "utf-16"),
        (codecs.BOM_UTF16_BE, "utf-16"),
    ):
        if body.startswith(bom):
            return body.decode(name, errors="replace"), name
    declared = None
    if content_type:
        found = _HEADER_CHARSET.search(content_type)
        declared = _codec(found.group(1)) if found else None
    if declared is None and sniff_meta:
        meta = _META_CHARSET.search(body[:4096])
        declared = _codec(meta.group(1).decode("ascii", "replace")) if meta else None
    if declared is not None and declared.startswith("utf-16"):
        declared = "utf-8"  # an ASCII-compatible page cannot really be UTF-16 (WHATWG)
    if declared is not None:
        return body.decode(declared, errors="replace"), declared
    try:
        return body.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        return body.decode("windows-1252", errors="replace"), "cp1252"


class _Visible(HTMLParser):
    """Collects visible text; notes a ``citation_pdf_url`` meta tag."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.skip: list[str] = []
        self.pdf_link: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "meta":
            values = dict(attrs)
            if (values.get("name") or "").lower() == "citation_pdf_url" and values.get("content"):
                self.pdf_link = self.pdf_link or values["content"]
            return
        if tag in _VOID:
            if tag in ("br", "hr"):
                self.parts.append("\n")
            return
        if tag in _SKIP:
            self.skip.append(tag)
        if tag in _BLOCK:
            self.parts.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in self.skip:
            # Drop everything opened after it too: authors forget closing tags.
            del self.skip[len(self.skip) - 1 - self.skip[::-1].index(tag) :]
        if tag in _BLOCK:
            self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        if not self.skip:
            self.parts.append(data)


def html_to_text(html: str) -> tuple[str, str | None]:
    """Visible text of an HTML document and its ``citation_pdf_url``, if any."""
    parser = _Visible()
    parser.feed(html)
    parser.close()
    text = "".join(parser.parts)
    text = re.sub(r"[ \t\r\f\v]+", " ", text)
    text = re.sub(r" ?\n[\n ]*", "\n", text)
    return text.strip(), parser.pdf_link


def pdf_to_text(body: bytes, max_pages: int = _MAX_PDF_PAGES) -> str:
    """The text of a PDF's first ``max_pages`` pages."""
    from pypdf import PdfReader
    from pypdf.errors import PyPdfError

    logging.getLogger("pypdf").setLevel(logging.ERROR)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # pypdf warns about every small defect of real PDFs
        try:
            reader = PdfReader(io.BytesIO(body), strict=False)
            if reader.is_encrypted:
                reader.decrypt("")
            pages = []
            for number, page in enumerate(reader.pages):
                if number >= max_pages:
                    break
                pages.append(page.extract_text() or "")
        except (PyPdfError, ValueError, KeyError, TypeError, IndexError, AttributeError, OSError) as error:
            raise TextError(f"unreadable PDF ({type(error).__name__}: {error})") from None
    return "\n".join(pages)


def sniff_kind(body: bytes, content_type: str | None) -> str:
    """``"pdf"``, ``"html"``, ``"text"`` or ``"other"``, from the header and the first bytes."""
    media = (content_type or "").split(";")[0].strip().lower()
    head = body[:1024].lstrip().lower()
    if media == "application/pdf" or body[:5] == b"%PDF-":
        return "pdf"
    if media in ("text/html", "application/xhtml+xml") or head.startswith((b"<!doctype html", b"<html")):
        return "html"
    if media.startswith("text/") or media in ("application/json", "application/xml") or not media:
        return "text"
    return "other"


def extract(body: bytes, content_type: str | None) -> Document:
    """The :class:`Document` of a body; raises :class:`TextError` for an unreadable one."""
    kind = sniff_kind(body, content_type)
    if kind == "pdf":
        return Document(pdf_to_text(body), "pdf")
    if kind == "html":
        html, encoding = decode(body, content_type, sniff_meta=True)
        text, pdf_link = html_to_text(html)
        return Document(text, "html", encoding, pdf_link)
    if kind == "text":
        text, encoding = decode(body, content_type)
        return Document(text, "text", encoding)
    raise TextError(f"cannot read content type {content_type or 'unknown'}")
