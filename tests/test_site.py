"""The built site keeps its promises: every clause of a published document has its anchor,
no published anchor is ever lost (a moved page redirects, carrying the anchor), no page
loads anything from another host or names a missing file, every page can be found and
shared, and every number a player reads is checked."""

import os
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from rulesref.clauses import CLAUSES

ROOT = Path(__file__).resolve().parent.parent
DOCS_HOOKS = ROOT / "docs" / "hooks"
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
        self.references: list[str] = []  # every src and href
        self.meta: dict[str, str] = {}
        self.canonical = ""
        self.redirect = ""  # the target of a redirect page
        self.abbr_in: list[str] = []  # for each <abbr>: "heading", "a", or the section
        self._open: list[str] = []
        self._section = 0

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
        for name in ("src", "href"):
            if attrs.get(name):
                self.references.append(attrs[name])
        if tag == "meta" and (attrs.get("name") or attrs.get("property")):
            self.meta[attrs.get("name") or attrs["property"]] = attrs.get("content", "")
        if tag == "meta" and attrs.get("http-equiv") == "refresh":
            self.redirect = attrs["content"].partition("url=")[2]
        if tag == "link" and attrs.get("rel") == "canonical":
            self.canonical = attrs["href"]
        if re.fullmatch(r"h[1-6]", tag):
            self._section += 1
        if tag == "abbr":
            inside = [t for t in self._open if t == "a" or re.fullmatch(r"h[1-6]", t)]
            self.abbr_in.append(f"{inside[0]}" if inside else f"section {self._section}")
        if tag in ("a", "h1", "h2", "h3", "h4", "h5", "h6"):
            self._open.append(tag)

    def handle_endtag(self, tag):
        if self._open and tag == self._open[-1]:
            self._open.pop()


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


def _redirected(url: str, pages: dict[str, _Page]) -> str:
    """The page a redirect page sends its reader to (itself if it is no redirect)."""
    page = pages.get(url)
    if page is None or not page.redirect:
        return url
    return os.path.normpath(os.path.join(url, page.redirect)).rstrip("/") + "/"


def test_no_published_anchor_is_lost(pages, site):
    """Each published address still works: on its page, or on the page its old address
    redirects to, whose script carries the #anchor along."""
    listed = set(ANCHORS.read_text().split())
    lost = []
    for address in sorted(listed - published(pages)):
        url, _, anchor = address.partition("#")
        if url in pages and anchor in pages[url].all_ids:
            continue  # kept by another element (a moved API name's old id)
        target = _redirected(url, pages)
        if target == url or target not in pages:
            lost.append(address)
            continue
        script = (site / url.lstrip("/") / "index.html").read_text()
        carries = "location.hash" in script
        if anchor and not (carries and anchor in pages[target].all_ids):
            lost.append(address)
    assert not lost, f"published anchors removed or renamed (restore them): {lost}"


def test_the_old_table_addresses_redirect():
    """mkdocs-redirects writes the moved notebooks' old addresses (checked above)."""
    config = (ROOT / "mkdocs.yml").read_text()
    for old in ("break-test-tables", "leadership-tables", "campaign-battle-odds"):
        assert f"examples/{old}.md: odds/" in config


def test_every_local_reference_exists(pages, site):
    """No page, 404.html included, names a local file (script, style, picture, link)
    that the site does not have."""
    missing = []
    for url, page in pages.items():
        base = "/" if url == "/404.html" else url
        for reference in page.references:
            if re.match(r"^[a-z]+:|^//|^#", reference):
                continue
            path = reference.partition("#")[0].partition("?")[0]
            target = site / os.path.normpath(os.path.join(base, path)).lstrip("/")
            if not (target.is_file() or (target / "index.html").is_file()):
                missing.append(f"{url}: {reference}")
    assert not missing, f"references to missing files: {missing}"


def test_every_page_has_its_own_description_and_canonical_link(pages, site):
    content = {url: page for url, page in pages.items() if url != "/404.html" and not page.redirect}
    descriptions = [page.meta.get("description", "") for page in content.values()]
    assert all(descriptions) and len(set(descriptions)) == len(descriptions), descriptions
    for url, page in content.items():
        assert page.canonical.endswith(url), (url, page.canonical)
    sitemap = (site / "sitemap.xml").read_text()
    listed = {
        re.sub(r"^https?://[^/]+", "", loc) for loc in re.findall(r"<loc>(.*?)</loc>", sitemap)
    }
    assert set(content) <= listed, f"pages missing from the sitemap: {set(content) - listed}"


def test_every_page_previews_as_itself_in_a_chat(pages):
    """Open Graph and Twitter tags carry each page's own title and description."""
    for url, page in pages.items():
        if url == "/404.html" or page.redirect:
            continue
        meta = page.meta
        assert meta["og:description"] == meta["twitter:description"] == meta["description"], url
        assert meta["og:title"] == meta["twitter:title"] and meta["og:title"], url
        assert meta["og:url"] == page.canonical, url


def test_every_rule_has_a_short_address_that_previews_it(pages, site):
    """/r/br-6/ carries the rule's id and title, and its quick answer as the description of
    a chat's preview, and sends the reader on to the rule (a refresh and a visible link);
    r/index.json has the rule's first paragraph for the previews on the rules pages."""
    import json

    from rulesref.clauses import CLAUSES

    words = json.loads((site / "r/index.json").read_text(encoding="utf-8"))
    assert set(words) == {entry.anchor for entry in CLAUSES.values()}
    for entry in CLAUSES.values():
        short = pages[f"/r/{entry.anchor}/"]
        rule = f"/{entry.document.page.removesuffix('.md')}/"
        target = os.path.join(f"/r/{entry.anchor}/", short.redirect.partition("#")[0])
        assert os.path.normpath(target) + "/" == rule, entry.id
        assert short.redirect.endswith(f"#{entry.anchor}") and short.redirect in short.links
        assert short.meta["og:title"] == f"{entry.id} · {entry.title} · rulesref", entry.id
        assert short.meta["twitter:title"] == short.meta["og:title"], entry.id
        assert entry.quick and short.meta["og:description"] == entry.quick, entry.id
        assert short.meta["description"] == short.meta["twitter:description"] == entry.quick
        summary = words[entry.anchor]["words"]
        assert summary and summary != entry.quick, entry.id  # the paragraph, for the rules pages
        assert "](" not in summary and "**" not in summary, summary  # plain words
        assert short.canonical.endswith(f"{rule}#{entry.anchor}"), short.canonical


def test_no_glossary_term_is_underlined_in_a_heading_or_a_link(pages):
    for url, page in pages.items():
        assert all(place.startswith("section") for place in page.abbr_in), url


def test_no_term_is_underlined_twice_in_a_section(site):
    for html in site.rglob("*.html"):
        text = html.read_text(encoding="utf-8")
        for section in re.split(r"<h[1-6][ >]", text):
            terms = re.findall(r'<abbr title="([^"]*)"', section)
            assert len(terms) == len(set(terms)), (html, sorted(terms))


def test_search_previews_are_prose(site):
    """Code and notebook inputs stay out of the search index; rule ids are kept whole."""
    import json

    index = json.loads((site / "search/search_index.json").read_text())
    code = [d["location"] for d in index["docs"] if re.search(r"\bimport \w+|^from \w", d["text"])]
    assert not code, f"code in search previews: {code}"
    br6 = [d for d in index["docs"] if d["location"].endswith("#br-6")]
    # its other spellings weigh as title words, in an element no result shows
    visible, _, hidden = br6[0]["title"].partition('<span class="rr-alias" hidden>')
    assert br6 and "BR6" in hidden and "BR6" not in visible and br6[0]["text"]
    odds = [d["text"] for d in index["docs"] if d["location"].startswith("odds/break-test/")]
    assert any("Insane Courage" in text for text in odds), "the odds pages' prose is searchable"


PROSE_NUMBER = re.compile(r"(?<![\w/.#-])(\d+/\d+|\d+(?:\.\d+)?%)(?![\w/])")


def _prose(markdown: str) -> str:
    markdown = re.sub(r"^---\n.*?\n---\n", "", markdown, flags=re.S)
    markdown = re.sub(r"^( *)(`{3,}).*?^\1\2\s*$", "", markdown, flags=re.S | re.M)
    return re.sub(r"`[^`\n]*`|\]\([^)]*\)", "", markdown)


def test_every_probability_in_prose_is_checked_on_its_page():
    """A fraction or percentage a player reads on a page is printed by an executed
    example of the same page (its `#>` lines), so a change in the code fails the tests."""
    unchecked = []
    for path in sorted((ROOT / "docs").rglob("*.md")):
        text = path.read_text(encoding="utf-8")
        printed = " ".join(re.findall(r"#>(.*)", text))
        for number in set(PROSE_NUMBER.findall(_prose(text))):
            if not re.search(rf"(?<![\d/.]){re.escape(number)}(?![\d/])", printed):
                unchecked.append(f"{path.relative_to(ROOT)}: {number}")
    assert not unchecked, f"numbers in prose that no example prints: {sorted(unchecked)}"


NOTEBOOK_PAGES = {
    "break-test-tables": "odds/break-test",
    "leadership-tables": "odds/leadership-test",
    "campaign-battle-odds": "odds/campaign-battles",
}


def test_every_probability_in_notebook_prose_is_computed_on_its_page(site):
    """A fraction or percentage in a notebook's prose is shown by one of its executed cells
    on the built page, so no sentence of an odds page can drift from the numbers."""
    import json

    unchecked = []
    notebooks = sorted((ROOT / "examples").glob("*.ipynb"))
    assert {path.stem for path in notebooks} == set(NOTEBOOK_PAGES)
    for path in notebooks:
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        prose = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
        built = (site / NOTEBOOK_PAGES[path.stem] / "index.html").read_text(encoding="utf-8")
        computed = " ".join(
            re.sub(r"<[^>]+>", " ", chunk)
            for chunk in built.split('<div class="jp-Cell ')
            if not chunk.startswith("jp-MarkdownCell")
        )
        for number in set(PROSE_NUMBER.findall(_prose(prose))):
            if not re.search(rf"(?<![\d/.]){re.escape(number)}(?![\d/])", computed):
                unchecked.append(f"{path.name}: {number}")
    assert not unchecked, f"numbers in notebook prose that no cell computes: {sorted(unchecked)}"


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


def test_the_notebook_cache_is_keyed_to_the_package_source(tmp_path, monkeypatch):
    """A change to any module of rulesref (or a data file of examples/) re-executes the
    notebooks; nothing else about the checkout does."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "notebook_cache", DOCS_HOOKS / "notebook_cache.py"
    )
    hook = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(hook)
    for folder in ("rulesref/odds", "examples"):
        (tmp_path / folder).mkdir(parents=True)
    (tmp_path / "rulesref/odds/cascade.py").write_text("X = 1\n")
    (tmp_path / "examples/force.json").write_text("{}")
    (tmp_path / "README.md").write_text("unrelated")
    monkeypatch.setattr(hook, "ROOT", tmp_path)
    first = hook.package_hash()
    (tmp_path / "README.md").write_text("still unrelated")
    assert hook.package_hash() == first
    (tmp_path / "rulesref/odds/cascade.py").write_text("X = 2\n")
    second = hook.package_hash()
    (tmp_path / "examples/force.json").write_text("[]")
    assert len({first, second, hook.package_hash()}) == 3
