"""The built site keeps its promises: every clause of a published document has its anchor,
no published anchor is ever lost, and no page loads anything from another host."""

import os
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from rulesref.clauses import CLAUSES

ROOT = Path(__file__).resolve().parent.parent
ANCHORS = ROOT / "tests/published_anchors.txt"
# The page of each source document, by clause prefix. A document's clauses are all
# required as soon as its page exists.
PAGES = {
    "BR": "/rules/break-test/",
    "LD": "/rules/leadership/",
    "CA": "/rules/campaign/",
    "ST": "/rules/army-standard/",
}
RULE_ID = re.compile(r"^(?:BR|LD|CA|ST)-C?\d+$", re.I)


def clause_ids() -> dict[str, list[str]]:
    """The clause ids of each document (clarifications aside), from the registry."""
    by_prefix: dict[str, list[str]] = {}
    for entry in CLAUSES.values():
        if not entry.clarification:
            by_prefix.setdefault(entry.document.name, []).append(entry.id)
    return by_prefix


class _Page(HTMLParser):
    """Collects the ids of a page's headings and rule anchors, links, and loaded assets."""

    def __init__(self):
        super().__init__()
        self.anchors: set[str] = set()
        self.all_ids: set[str] = set()
        self.assets: list[str] = []
        self.links: list[str] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        element_id = attrs.get("id")
        if element_id:
            self.all_ids.add(element_id)
            if re.fullmatch(r"h[1-6]|dt", tag) or RULE_ID.match(element_id):
                self.anchors.add(element_id)
        if tag in ("script", "img", "iframe", "source", "audio", "video") and attrs.get("src"):
            self.assets.append(attrs["src"])
        if tag == "link" and attrs.get("rel") in ("stylesheet", "preload", "icon", "modulepreload"):
            self.assets.append(attrs.get("href", ""))
        if tag == "a" and attrs.get("href"):
            self.links.append(attrs["href"])


def _pages(site: Path) -> dict[str, _Page]:
    pages = {}
    for html in sorted(site.rglob("*.html")):
        parser = _Page()
        parser.feed(html.read_text(encoding="utf-8"))
        url = "/" + html.relative_to(site).as_posix().removesuffix("index.html")
        pages[url] = parser
    return pages


@pytest.fixture(scope="module")
def pages(site):
    return _pages(site)


def published(pages: dict[str, _Page]) -> set[str]:
    return {url for url in pages if url != "/404.html"} | {
        f"{url}#{anchor}" for url, page in pages.items() for anchor in page.anchors
    }


def test_every_clause_has_its_anchor(pages):
    """Each clause (BR-1 ...) under #xx-n on its document's page, once that page exists."""
    published_documents = [prefix for prefix, page in PAGES.items() if page in pages]
    assert "BR" in published_documents
    for prefix in published_documents:
        page = PAGES[prefix]
        missing = [c for c in clause_ids()[prefix] if c.lower() not in pages[page].anchors]
        assert not missing, f"clauses without an anchor on {page}: {missing}"


def test_every_clause_is_named_in_the_code_and_the_tests():
    """Each clause of a published document is cited in rulesref/ and in a test file."""
    for folder in ("rulesref", "tests"):
        files = [p for p in (ROOT / folder).rglob("*.py") if p != Path(__file__)]
        text = "\n".join(p.read_text() for p in files)
        for prefix, page in PAGES.items():
            if (ROOT / "docs" / f"{page.strip('/')}.md").exists():
                missing = [c for c in clause_ids()[prefix] if not re.search(rf"\b{c}\b", text)]
                assert not missing, f"clauses not named in {folder}/: {missing}"


def test_rule_index_links_every_rule(pages):
    index = set(pages["/rule-index/"].links)
    clarifications = set(pages["/clarifications/"].links)
    for url, page in pages.items():
        if not url.startswith("/rules/"):
            continue
        for anchor in filter(RULE_ID.match, page.anchors):
            target = f"..{url}#{anchor}"
            listing = clarifications if "-c" in anchor else index
            assert target in listing, f"{target} is missing from the index pages"


def test_no_published_anchor_is_lost(pages):
    listed = set(ANCHORS.read_text().split())
    lost = sorted(listed - published(pages))
    assert not lost, f"published anchors removed or renamed (restore them): {lost}"


def test_new_anchors_are_recorded(pages):
    new = sorted(published(pages) - set(ANCHORS.read_text().split()))
    assert not new, f"add these lines to {ANCHORS.name}:\n" + "\n".join(new)


def test_internal_links_resolve(pages, site):
    """Every link within the site reaches an existing page and anchor, or file."""
    broken = []
    for url, page in pages.items():
        for href in page.links:
            if re.match(r"^[a-z]+:|^//", href):
                continue
            path, _, anchor = href.partition("#")
            path = path.partition("?")[0]  # a query is for the page's own script
            target = os.path.normpath(os.path.join(url, path)) if path else url
            if os.path.splitext(target)[1] not in ("", ".html"):  # a download or a picture
                if not (site / target.lstrip("/")).is_file():
                    broken.append(f"{url}: {href}")
                continue
            target = target if target.endswith(".html") else target.rstrip("/") + "/"
            if target not in pages or (anchor and anchor not in pages[target].all_ids):
                broken.append(f"{url}: {href}")
    assert not broken, f"broken links: {broken}"


def test_every_download_is_offered_on_a_page(pages, site):
    """Each generated CSV is linked from a page that shows its table."""
    linked = {
        os.path.normpath(os.path.join(url, href))
        for url, page in pages.items()
        for href in page.links
        if href.endswith(".csv")
    }
    downloads = {f"/{p.relative_to(site).as_posix()}" for p in site.glob("downloads/*.csv")}
    assert downloads and downloads <= linked, f"downloads with no link: {downloads - linked}"


def test_nothing_is_loaded_from_another_host(pages, site):
    remote = [
        (url, asset)
        for url, page in pages.items()
        for asset in page.assets
        if re.match(r"^(?:[a-z]+:)?//", asset)
    ]
    assert not remote, f"assets from other hosts: {remote}"
    for html in site.rglob("*.html"):
        scripts = re.findall(r"<script[^>]*>(.*?)</script>", html.read_text(), re.S)
        assert not [s for s in scripts if re.search(r"https?://", s)], f"remote code in {html}"
    for css in site.rglob("*.css"):
        assert not re.search(r"@import\s+(?:url\()?\s*['\"]?https?:", css.read_text()), css


def test_theme_loads_no_web_fonts(site):
    assert "fonts.googleapis" not in (site / "index.html").read_text()


if __name__ == "__main__":  # `make anchors`: record the new anchors of a built site
    import sys

    recorded = set(ANCHORS.read_text().split())
    current = published(_pages(Path(sys.argv[1])))
    ANCHORS.write_text("".join(f"{anchor}\n" for anchor in sorted(recorded | current)))
    print(f"{len(current - recorded)} new anchors recorded in {ANCHORS}")
