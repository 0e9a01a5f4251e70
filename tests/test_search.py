"""Search finds what a player means: the site's own search (Material's, lunr in a worker),
driven in headless Chromium as a player types, returns the rule or page the player
means first, with a clean title and a prose preview (docs/hooks/pages.py)."""

import json
import re

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

# (what a player types, the rule or page it must find first; several when each would do)
QUERIES = [
    ("insane courage", {"rules/break-test/#br-5"}),
    ("double 1", {"rules/break-test/#br-5"}),
    ("reform", {f"rules/break-test/#br-{n}" for n in (11, 12, 13, 14, 15)}),
    ("standard captured", {"rules/army-standard/#st-1"}),
    ("steadfast", {"rules/break-test/#br-6"}),
    ("re-roll", {"rules/leadership/#ld-7"}),
    ("fubar", {"rules/campaign/#ca-9"}),
    ("battle damage", {"rules/campaign/#ca-12"}),
    ("BR-6", {"rules/break-test/#br-6"}),
    ("br6", {"rules/break-test/#br-6"}),
    ("BR6", {"rules/break-test/#br-6"}),
    ("BR 6", {"rules/break-test/#br-6"}),
    ("br-c1", {"rules/break-test/#br-c1"}),
    ("LD-C5", {"rules/leadership/#ld-c5"}),
    ("ldc5", {"rules/leadership/#ld-c5"}),
    ("ca12", {"rules/campaign/#ca-12"}),
    ("ST 7", {"rules/army-standard/#st-7"}),
    ("LD-3", {"rules/leadership/#ld-3"}),
    ("doctrine", {"rules/leadership/#ld-7"}),
    ("out of supply", {"rules/campaign/#ca-11"}),
    ("disrupted", {"rules/break-test/#br-9"}),
    ("skirmishers", {"rules/break-test/#br-10"}),
    ("artillery", {"rules/campaign/#ca-3"}),
    ("fortifications", {"rules/campaign/#ca-6"}),
    ("mountain", {"rules/campaign/#ca-7", "rules/campaign/#ca-10"}),
    ("below half", {"rules/leadership/#ld-5"}),
    ("garrison surrender", {"rules/campaign/#ca-20"}),
    ("hq surrender", {"rules/campaign/#ca-24", "rules/campaign/#ca-c17"}),
    ("army standard bearer", {"rules/army-standard/#st-6"}),
    ("who reforms first", {"rules/break-test/#br-11"}),
]


# the first result's best link (a section, else the page): address, title and preview
FIRST_FOUND = """() => {
  const links = document.querySelectorAll(
    ".md-search-result__item:first-child a.md-search-result__link");
  const best = links.length > 1 ? links[1] : links[0];
  if (!best) return null;
  const text = (element) => (element ? element.innerText : "");
  const [title, preview] = [best.querySelector("h1, h2"), best.querySelector("p")];
  return [best.getAttribute("href"), text(title), text(preview)];
}"""


def _searcher(browser, base_url, width: int):
    """Types into the site's search box, as a player does, at a given width."""
    page = browser.new_page(viewport={"width": width, "height": 900})
    page.goto(base_url + "/")
    if width < 1220:  # a phone opens the search from its icon
        page.locator("label[for=__search]").first.click()
    box = page.locator("input.md-search__input")
    results = page.locator(".md-search-result__item")

    def first(query: str) -> tuple[str, str, str]:
        """The first rule or page found: its address, its title and its preview."""
        for _ in range(20):  # until the index has loaded in its worker
            # an empty query clears the results; then the whole query and one key (Material
            # searches on keyup): one search only, so the results shown are the query's,
            # never a prefix's ("BR-") or the last query's
            box.fill("")
            box.press("End")
            results.first.wait_for(state="detached")
            box.fill(query)
            box.press("End")
            try:
                results.first.wait_for(timeout=3_000)
            except PlaywrightTimeout:
                continue
            found = page.evaluate(FIRST_FOUND)  # read at once: a slow worker may redraw them
            if found:
                break
        else:
            raise AssertionError(f"search shows nothing for {query!r}")
        address, title, preview = found
        path, _, anchor = address.removeprefix(base_url + "/").partition("#")
        return f"{path.partition('?')[0]}#{anchor}".removesuffix("#"), title, preview

    return page, first


@pytest.fixture(scope="module")
def search(browser, base_url):
    page, first = _searcher(browser, base_url, 1280)
    yield first
    page.close()


@pytest.fixture(scope="module")
def phone_search(browser, base_url):
    page, first = _searcher(browser, base_url, 390)
    yield first
    page.close()


def test_player_queries_find_their_rule_first(search):
    wrong = []
    for query, wanted in QUERIES:
        found, title, preview = search(query)
        if found not in wanted:
            wrong.append(f"{query!r}: {found} ({title}), wanted {sorted(wanted)}")
    assert len(QUERIES) >= 25
    assert not wrong, f"{len(QUERIES) - len(wrong)}/{len(QUERIES)} found first:\n" + "\n".join(
        wrong
    )


@pytest.mark.parametrize("query", ["BR6", "steadfast", "fubar", "insane courage"])
def test_titles_carry_no_alias_and_previews_are_prose(search, query):
    found, title, preview = search(query)
    rule = found.rpartition("#")[2].upper()
    assert title.startswith(rule + " · ") and "¶" not in title, title
    assert rule.replace("-", "") not in title.replace(rule, ""), title  # no "BR6" alias shown
    assert preview and "import" not in preview and "↓" not in preview, preview


@pytest.mark.parametrize("query", ["BR-6", "br6", "BR6", "steadfast"])
def test_a_phone_finds_the_rule_first_with_a_prose_preview(phone_search, query):
    found, title, preview = phone_search(query)
    assert found == "rules/break-test/#br-6" and title.startswith("BR-6 · "), (found, title)
    assert "Steadfast" in preview and "import" not in preview, preview


def test_the_index_holds_words_not_the_tables_controls(site):
    """The odds pages' "exact fractions" switch and CSV link are controls: their words in
    the index made previews read "exact fractionsCSV exact fractionsCSV"."""
    index = json.loads((site / "search/search_index.json").read_text(encoding="utf-8"))
    odds = [doc for doc in index["docs"] if doc["location"].startswith("odds/break-test/")]
    assert odds and any("Leadership" in doc["text"] for doc in odds)
    controls = re.compile(r"exact fractions\s*CSV")
    assert not [doc["location"] for doc in index["docs"] if controls.search(doc["text"])]
