"""HTML pages: the main text without boilerplate, and the page's own metadata.

The body comes from trafilatura, which drops navigation, footers, scripts and
comment sections. Title, publication date and URL are read from the page's
metadata (Open Graph, ``article:*`` meta tags, ``<link rel="canonical">``,
JSON-LD, ``<title>``) rather than guessed from the text, so a date mentioned in
the story is never taken for the publication date.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

import lxml.html
import trafilatura
from lxml import etree

# Meta tags (property= or name= or itemprop=, lower-cased) that give the publication date, best first.
_DATE_KEYS = (
    "article:published_time",
    "og:published_time",
    "datepublished",
    "date",
    "pubdate",
    "publish-date",
    "publish_date",
    "parsely-pub-date",
    "sailthru.date",
    "dc.date.issued",
    "dc.date",
    "dcterms.created",
)
# Meta tags that give the headline, best first (<title> is the last resort: it often carries the site name).
_TITLE_KEYS = ("og:title", "twitter:title", "headline", "dc.title")
_URL_KEYS = ("og:url", "twitter:url")
_ISO_DATE = re.compile(r"^\s*(\d{4})-(\d{2})-(\d{2})")


@dataclass(frozen=True)
class HtmlPage:
    """What kg keeps of an HTML page."""

    text: str
    title: str | None = None
    url: str | None = None
    published: str | None = None


def parse_html(html: str) -> HtmlPage:
    """Extract the main text and metadata of an HTML page.

    Args:
        html: The page source, already decoded.

    Returns:
        The page; ``text`` is empty when no main text was found. Paragraphs are
        joined with a blank line, so each starts a new sentence downstream.
    """
    root = _document(html)
    meta = _metadata(root) if root is not None else {}
    text = _main_text(html)
    if root is not None and _only_links(text, root):
        text = ""
    return HtmlPage(
        text=text,
        title=meta.get("title"),
        url=meta.get("url"),
        published=meta.get("published"),
    )


def iso_date(value: str) -> str | None:
    """The ``YYYY-MM-DD`` date at the start of an ISO 8601 date or date-time, else None.

    >>> iso_date("2025-03-10T18:30:00+00:00")
    '2025-03-10'
    >>> iso_date("March 10") is None
    True
    """
    match = _ISO_DATE.match(value)
    if not match:
        return None
    year, month, day = (int(g) for g in match.groups())
    # Reject impossible months and days rather than pass them on as facts.
    if not (1 <= month <= 12 and 1 <= day <= 31):
        return None
    return f"{year:04d}-{month:02d}-{day:02d}"


def _main_text(html: str) -> str:
    """The page's main text, one block a paragraph, blocks joined by a blank line."""
    text = trafilatura.extract(
        html,
        output_format="txt",
        include_comments=False,
        include_tables=False,
        include_images=False,
        deduplicate=False,
    )
    if not text:
        return ""
    # trafilatura puts one block a line; kg wants paragraphs apart by a blank line.
    lines = [line.strip() for line in text.splitlines()]
    return "\n\n".join(line for line in lines if line)


def _document(html: str) -> lxml.html.HtmlElement | None:
    """The parsed page, or None when lxml finds no document in it."""
    try:
        return lxml.html.document_fromstring(html)
    except (etree.ParserError, ValueError):
        return None


def _only_links(text: str, root: lxml.html.HtmlElement) -> bool:
    """Whether every paragraph of ``text`` is the text of a link or of navigation: a menu, not an article.

    On a page without an article trafilatura falls back to whatever text there is, and
    a page that is only a navigation bar would become an article whose text is "Home".
    """
    blocks = [" ".join(block.split()) for block in text.split("\n\n") if block.strip()]
    if not blocks:
        return False
    links = {" ".join(element.text_content().split()) for element in root.xpath("//a | //nav | //nav//*")}
    return all(block in links for block in blocks)


def _metadata(root: lxml.html.HtmlElement) -> dict[str, str]:
    """Title, URL and publication date from meta tags, canonical link, JSON-LD and <title>."""
    tags = _meta_tags(root)
    ld = _json_ld(root)
    found: dict[str, str] = {}

    title = _first(tags, _TITLE_KEYS) or ld.get("headline") or _element_text(root, "//title")
    if title:
        found["title"] = title

    canonical = root.xpath("//link[contains(concat(' ', normalize-space(@rel), ' '), ' canonical ')]/@href")
    urls = [str(u).strip() for u in canonical] + [_first(tags, _URL_KEYS) or "", ld.get("url", "")]
    # Only an absolute web address identifies the article; relative links are dropped.
    url = next((u for u in urls if u.startswith(("http://", "https://"))), None)
    if url:
        found["url"] = url

    dates = [_first(tags, _DATE_KEYS) or "", ld.get("datePublished", "")]
    dates += [str(d) for d in root.xpath("//time[@itemprop='datePublished' or @pubdate]/@datetime")]
    published = next((d for d in (iso_date(v) for v in dates if v) if d), None)
    if published:
        found["published"] = published
    return found


def _meta_tags(root: lxml.html.HtmlElement) -> dict[str, str]:
    """Meta tag values by lower-cased property, name or itemprop; the first of each wins."""
    tags: dict[str, str] = {}
    for meta in root.iter("meta"):
        content = (meta.get("content") or "").strip()
        if not content:
            continue
        for attr in ("property", "name", "itemprop"):
            key = (meta.get(attr) or "").strip().lower()
            if key:
                tags.setdefault(key, content)
    return tags


def _json_ld(root: lxml.html.HtmlElement) -> dict[str, str]:
    """String fields of the first JSON-LD article object (NewsArticle, Article, ...)."""
    for script in root.xpath("//script[@type='application/ld+json']"):
        try:
            data = json.loads(script.text or "")
        except json.JSONDecodeError:
            continue
        for item in _ld_items(data):
            kind = item.get("@type", "")
            kinds = kind if isinstance(kind, list) else [kind]
            # Only article-like objects describe the page itself (not the publisher or a breadcrumb).
            if any(isinstance(k, str) and k.endswith("Article") for k in kinds):
                return {k: v.strip() for k, v in item.items() if isinstance(v, str)}
    return {}


def _ld_items(data: object) -> list[dict]:
    """The objects of a JSON-LD document: a single object, a list, or an @graph."""
    if isinstance(data, list):
        return [d for d in data if isinstance(d, dict)]
    if isinstance(data, dict):
        graph = data.get("@graph")
        return _ld_items(graph) if isinstance(graph, list) else [data]
    return []


def _first(tags: dict[str, str], keys: tuple[str, ...]) -> str | None:
    """The value of the first key present in ``tags``."""
    return next((tags[k] for k in keys if k in tags), None)


def _element_text(root: lxml.html.HtmlElement, xpath: str) -> str | None:
    """The whitespace-collapsed text of the first element matching ``xpath``."""
    for element in root.xpath(xpath):
        text = " ".join(element.text_content().split())
        if text:
            return text
    return None
