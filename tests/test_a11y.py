"""Readable by everyone (WCAG 2.2 AA), in headless Chromium against the built site:

- axe-core (pinned, tests/a11y.py) on every page at 390 and 1280 px, light and dark:
  no finding of any impact, minor to critical;
- contrast axe cannot measure: each heat-table cell's text on its shade (4.5:1) and the
  outline of every outlined button (3:1), in both themes;
- a keyboard-only pass through each calculator: Tab reaches every control in order, each
  shows a focus outline of 2 px or more at 3:1, and answers follow keyboard input;
- text of charts and diagrams at least 11 px as displayed on a phone.

Each page's axe findings of every impact go to test-artifacts/axe/ for a person to read.
"""

import json
import re
from itertools import product
from pathlib import Path

import pytest
import test_browser
from a11y import axe_source
from test_browser import ARTIFACTS, ready, shown

from rulesref.break_test import break_test_probability
from rulesref.leadership import leadership_test_probability

VIEWS = list(product((390, 1280), ("light", "dark")))


def page_files(site: Path) -> dict[str, Path]:
    """The address and file of every page of the built site (not the redirects of old
    addresses)."""
    found = {}
    for html in sorted(site.rglob("*.html")):
        if 'http-equiv="refresh"' in html.read_text()[:2000]:
            continue
        address = "/" + html.relative_to(site).as_posix()
        found[address.removesuffix("index.html")] = html
    return found


def pages(site: Path) -> list[str]:
    """The address of every page of the built site (not the redirects of old addresses)."""
    return list(page_files(site))


# The colours of a page, read in the browser: the luminance contrast of WCAG 2.2.
CONTRAST_JS = """
window.rrColour = (text) => {
  const probe = document.createElement("canvas").getContext("2d");
  probe.fillStyle = "#000"; probe.fillStyle = text;  // any CSS colour, as sRGB
  probe.clearRect(0, 0, 1, 1); probe.fillRect(0, 0, 1, 1);
  const [r, g, b, a] = probe.getImageData(0, 0, 1, 1).data;
  return [r, g, b, a / 255];
};
window.rrOver = (top, below) => top.slice(0, 3).map(
  (c, i) => c * top[3] + below[i] * (1 - top[3])).concat([1]);
window.rrBackground = (element) => {
  const layers = [];
  for (let e = element; e; e = e.parentElement) {
    const colour = rrColour(getComputedStyle(e).backgroundColor);
    if (colour[3] > 0) layers.push(colour);
    if (colour[3] === 1) break;
  }
  return layers.reduceRight((below, top) => rrOver(top, below), [255, 255, 255, 1]);
};
// the contrast of words in `colour` (perhaps translucent) on `element`'s background
window.rrTextContrast = (colour, element) => {
  const behind = rrBackground(element);
  return rrContrast(rrOver(rrColour(colour), behind), behind);
};
window.rrContrast = (one, two) => {
  const lum = (c) => {
    const [r, g, b] = c.slice(0, 3).map((v) => {
      const s = v / 255;
      return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [a, b] = [lum(one), lum(two)].sort((x, y) => y - x);
  return (a + 0.05) / (b + 0.05);
};
"""


@pytest.fixture(scope="module")
def axe():
    return axe_source()


# Highlighted code draws a dozen colours over thousands of tokens (the API and Code pages
# hold 3,000-12,000 of them): axe would measure each token's contrast, half of its time on
# those pages. The audit leaves the code out (not its copy buttons); the palette test
# below measures every colour the code is drawn in, once each, in both schemes.
CODE = "pre > code"


def axe_violations(page, axe: str) -> list[dict]:
    """axe-core's default rules (WCAG 2.2 A and AA, best practices) and the experimental
    check that a control's name contains its visible text, on all but the code's text."""
    page.add_script_tag(content=axe)
    return page.evaluate(
        """async (code) => {
             const found = await axe.run({exclude: [[code]]}, {
               resultTypes: ["violations"],
               rules: {"label-content-name-mismatch": {enabled: true}},
             });
             return found.violations.map((v) => ({
               id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.length,
               where: v.nodes.slice(0, 5).map((n) => n.target.join(" ")),
             }));
           }""",
        CODE,
    )


def settle(page, path: str) -> None:
    """Wait for what scripts draw: the calculators' answers, the Workbench's first one (the
    answer worked out at build time, drawn as the live one is: Python's start is the
    Workbench tests' to time, not the page audit's)."""
    if path.startswith("/tools/calculators/"):
        for calculator in ("break", "reform", "leadership", "battle"):
            ready(page, calculator)
    if path.startswith("/workbench/"):
        page.wait_for_selector("#rr-workbench[data-answered], .rr-wb-precomputed", timeout=120_000)


# every page at both widths and in both schemes: a phone in the dark, a desktop in the light
# (the four pairings take twice as long; the heat cells and buttons are checked in both
# schemes below)
AUDITED = test_browser.LAYOUTS
# each pairing's pages in four parts, every fourth page each: the parts run side by side
# when `make test` spreads the tests over the machine's cores
PARTS = 4


@pytest.mark.parametrize("part", range(PARTS))
@pytest.mark.parametrize("width, scheme", AUDITED)
def test_axe_finds_nothing_on_any_page(view, site, axe, width, scheme, part):
    report, failures = {}, []
    for path in pages(site)[part::PARTS]:
        page = view(path, width, scheme)
        settle(page, path)
        found = axe_violations(page, axe)
        report[path] = found
        failures += [(path, v["id"], v["where"]) for v in found]
    out = ARTIFACTS / "axe"
    out.mkdir(parents=True, exist_ok=True)
    (out / f"axe-{width}-{scheme}-{part}.json").write_text(json.dumps(report, indent=1))
    assert not failures, failures


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_heat_cells_and_outlined_buttons_have_the_contrast_of_wcag_aa(view, scheme):
    """Text on every shade of the heat tables 4.5:1 (axe cannot mix their colours); the
    outline of each outlined button 3:1 against the page, its text 4.5:1."""
    for path in ("/odds/break-test/", "/odds/leadership-test/"):
        page = view(path, 1280, scheme)
        page.add_script_tag(content=CONTRAST_JS)
        worst = page.evaluate(
            """() => Math.min(...[...document.querySelectorAll("table.rr-heat td")].map((td) =>
                 rrTextContrast(getComputedStyle(td).color, td)))"""
        )
        assert worst >= 4.5, (path, worst)
    page = view("/rules/break-test/", 1280, scheme)
    page.add_script_tag(content=CONTRAST_JS)
    buttons = page.evaluate(
        """() => [...document.querySelectorAll(".md-button, .rr-copy-link")].map((b) => {
             const style = getComputedStyle(b), behind = rrBackground(b.parentElement);
             return {
               text: b.textContent.trim(),
               outline: rrContrast(rrOver(rrColour(style.borderTopColor), behind), behind),
               words: rrTextContrast(style.color, b),
             };
           })"""
    )
    assert buttons
    for button in buttons:
        assert button["words"] >= 4.5 and button["outline"] >= 3, button


def code_tokens(site: Path) -> dict[str, set[str]]:
    """Each page with code and the kinds of token its code shows in words (Pygments'
    classes; not the spans of spaces alone)."""
    found = {}
    for path, file in page_files(site).items():
        blocks = re.findall(r"<pre[^>]*>(.*?)</pre>", file.read_text(), re.S)
        tokens = [re.findall(r'<span class="(\w+)">([^<]*)<', block) for block in blocks]
        kinds = {kind for spans in tokens for kind, text in spans if text.strip()}
        if kinds:
            found[path] = kinds
    return found


def covering(kinds_of: dict[str, set[str]]) -> list[str]:
    """A few pages that between them show every kind of token: the most first."""
    chosen, left = [], set().union(*kinds_of.values())
    while left:
        best = max(kinds_of, key=lambda path: len(kinds_of[path] & left))
        chosen.append(best)
        left -= kinds_of[best]
    return chosen


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_colour_of_highlighted_code_has_the_contrast_of_wcag_aa(view, site, scheme):
    """Each colour code is drawn in, on the code's background, 4.5:1 (the text axe leaves
    out): every kind of token the site's code shows, measured on pages that show them all."""
    kinds_of = code_tokens(site)
    assert {"/api/", "/code/break-test/"} <= set(kinds_of)
    contrasts: dict[str, float] = {}
    for path in covering(kinds_of):
        page = view(path, 1280, scheme)
        page.add_script_tag(content=CONTRAST_JS)
        found = page.evaluate(
            """(code) => {
             const found = {};
             for (const token of document.querySelectorAll(`${code}, ${code} span`)) {
               const key = `${token.className} ${getComputedStyle(token).color}`;
               if (!(key in found) && token.textContent.trim())
                 found[key] = rrTextContrast(getComputedStyle(token).color, token);
             }
             return found;
           }""",
            CODE,
        )
        for key, contrast in found.items():  # the least on any page
            contrasts[key] = min(contrast, contrasts.get(key, contrast))
    measured = {key.split(" ")[0] for key in contrasts}
    assert set().union(*kinds_of.values()) <= measured, "a kind of token not measured"
    low = {key: contrast for key, contrast in contrasts.items() if contrast < 4.5}
    assert not low, low


def focus_ring(page) -> dict:
    """The focused element and how its focus shows: its outline's width and contrast."""
    return page.evaluate(
        """() => {
             const e = document.activeElement, style = getComputedStyle(e);
             const width = style.outlineStyle === "none" ? 0 : parseFloat(style.outlineWidth);
             return {
               name: e.name || e.textContent.trim().slice(0, 30), width,
               contrast: rrTextContrast(style.outlineColor, e.parentElement),
             };
           }"""
    )


@pytest.mark.parametrize("width, scheme", VIEWS)
def test_each_calculator_works_from_the_keyboard_alone(view, width, scheme):
    """Tab from the top of the page reaches every control of every calculator, in the
    order of the form, each with a visible focus (2 px or more, 3:1); typing and Space
    change the answers."""
    page = view("/tools/calculators/", width, scheme)
    for calculator in ("break", "reform", "leadership", "battle"):
        ready(page, calculator)
    page.add_script_tag(content=CONTRAST_JS)
    controls = page.evaluate(
        """() => [...document.querySelectorAll(".rr-calculator")].flatMap((calculator) => [
             ...[...calculator.querySelector("form").elements]
               .filter((e) => e.name && (e.type !== "radio" || e.checked)).map((e) => e.name),
             ...[...calculator.querySelectorAll("summary")].map((e) => e.textContent.trim()),
           ])"""  # a radio group is one stop of Tab (its arrows move); then the chart's numbers
    )
    reached = []
    for _ in range(200):
        page.keyboard.press("Tab")
        ring = focus_ring(page)
        if page.evaluate("!!document.activeElement.closest('.rr-calculator')"):
            reached.append(ring["name"])
            assert ring["width"] >= 2 and ring["contrast"] >= 3, ring
        if len(reached) == len(controls):
            break
    assert reached == controls
    # answers follow the keyboard: a value typed, a box ticked with Space
    page.focus("#break input[name=leadership]")
    page.keyboard.press("ControlOrMeta+a")
    page.keyboard.type("7")
    assert shown(page, "break") == break_test_probability(7, 3)
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")  # past lost by, to Steadfast
    page.keyboard.press("Space")
    assert shown(page, "break") == break_test_probability(7, 3, steadfast=True)
    page.focus("#leadership input[name=rerolls]")
    page.keyboard.press("ControlOrMeta+a")
    page.keyboard.type("2")
    assert shown(page, "leadership") == leadership_test_probability(4, rerolls=2)
    page.focus("#battle select[name=terrain]")
    page.keyboard.press("ArrowDown")
    assert page.input_value("#battle select[name=terrain]") == "1"  # forest
    before = page.locator("#battle .rr-fraction").all_text_contents()
    page.focus("#battle input[name=attacker_infantry]")
    page.keyboard.press("ControlOrMeta+a")
    page.keyboard.type("2")
    assert page.locator("#battle .rr-fraction").all_text_contents() != before


# The focus as a reader sees it: on a pane's checkbox (hidden, reached by Tab) it is the
# ring drawn on the name shown for it, the section's or the open pane's title.
FOCUSED = """() => { const e = document.activeElement, box = e.matches(".md-nav__toggle");
  const ringed = !box ? e : e.parentElement.querySelector(
    e.checked ? ":scope > nav > .md-nav__title" : ":scope > label.md-nav__link");
  const r = ringed.getBoundingClientRect();
  const top = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
  return {name: (e.getAttribute("aria-label") || e.textContent).trim().replace(/\\s+/g, " "),
          seen: !!top && ringed.contains(top), drawer: !!e.closest(".md-sidebar--primary"),
          open: box ? e.checked : null,
          ring: !box || getComputedStyle(ringed).outlineStyle === "solid"}; }"""
SLID = "!document.querySelector('.md-sidebar--primary').getAnimations({subtree: true}).length"


def test_on_a_phone_tab_reaches_nothing_off_the_screen_until_the_drawer_is_opened(view):
    """At 390 px the navigation drawer is off-screen until opened: Tab from the top reaches
    the page's own links, never one of the drawer's unseen; opened, its links are reached
    and seen."""
    page = view("/rules/break-test/", 390, "dark")
    reached = []
    for _ in range(12):
        page.keyboard.press("Tab")
        reached.append(
            page.evaluate(
                """() => { const e = document.activeElement, r = e.getBoundingClientRect();
                   return {name: (e.textContent || e.name || "").trim().slice(0, 30),
                           inside: r.right > 0 && r.left < innerWidth,
                           drawer: !!e.closest(".md-sidebar--primary")}; }"""
            )
        )
    assert all(each["inside"] for each in reached), reached
    assert not any(each["drawer"] for each in reached), reached
    page.get_by_role("button", name="Menu").click()
    page.wait_for_function(SLID)  # its slide, however late it starts on a busy machine
    opened = page.evaluate(FOCUSED)
    assert opened["drawer"] and opened["seen"], opened  # no ring: opened by the pointer


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_on_a_phone_the_keyboard_opens_the_menu_and_walks_it(view, scheme):
    """At 390 px the site's pages are in Material's drawer, one pane of links at a time:
    its menu button is the first stop of Tab after the skip link, named and saying whether
    the menu is open; Enter opens it on the pane shown; a pane is a checkbox Tab reaches,
    named for it and checked while it is open, ringed on the name shown, which Space or Enter
    opens and shuts; Tab walks only what is seen; Escape, or Tab out of it, shuts the menu."""
    page = view("/rules/break-test/", 390, scheme)

    def key(name: str) -> dict:
        page.keyboard.press(name)
        page.wait_for_function(SLID)
        return page.evaluate(FOCUSED)

    def seen(name: str, open: bool | None = None) -> dict:
        return {"name": name, "seen": True, "drawer": True, "open": open, "ring": True}

    key("Tab")  # the skip link, Material's first
    menu = page.get_by_role("button", name="Menu")
    assert key("Tab") == {**seen("Menu"), "drawer": False}
    assert menu.get_attribute("aria-expanded") == "false"
    ring = menu.evaluate("(e) => getComputedStyle(e).outlineStyle")
    assert ring == "solid", ring
    assert key("Enter") == seen("Rules", open=True)  # ringed on the pane's title
    assert menu.get_attribute("aria-expanded") == "true" and page.is_checked("#__drawer")
    assert key("Tab") == seen("Table of contents", open=False)  # the page's own pane
    assert key("Tab") == seen("d6 Leadership tests")
    key("Shift+Tab")
    assert key("Shift+Tab") == seen("Rules", open=True)
    assert key("Space") == seen("Rules", open=False)  # back to the sections
    assert key("Tab") == seen("Odds", open=False)
    assert key("Enter") == seen("Odds", open=True)
    assert key("Tab") == seen("Calculators")
    key("Shift+Tab")
    assert key("Space") == seen("Odds", open=False)
    assert key("Space") == seen("Odds", open=True)
    assert key("Tab") == seen("Calculators")
    assert page.evaluate("scrollY") == 0  # Space opened, and did not scroll
    key("Escape")
    assert not page.is_checked("#__drawer")
    assert menu.get_attribute("aria-expanded") == "false"
    assert page.evaluate(FOCUSED)["name"] == "Menu"
    key("Space")
    assert page.is_checked("#__drawer")
    assert key("Shift+Tab")["drawer"] is False  # out of the drawer, before it
    assert not page.is_checked("#__drawer")


def test_on_a_wide_screen_the_panes_are_no_stops_of_tab(view):
    """At 1280 px the drawer's sections are headings of the sidebar, not panes: Tab stops on
    none of their checkboxes, and the menu button is not shown."""
    page = view("/rules/break-test/", 1280, "light")
    boxes = page.locator(".md-sidebar--primary .md-nav__toggle")
    assert boxes.count() > 3
    assert boxes.evaluate_all("(all) => all.every((box) => !box.getClientRects().length)")
    assert page.get_by_role("button", name="Menu").is_hidden()


def test_a_contents_pane_left_open_on_a_phone_turned_sideways_hides_nothing(view):
    """At 390 px a page's contents are a pane of the drawer; at 1000 px they have a sidebar
    of their own: a contents pane left open then neither hides the section's links nor
    takes a stop of Tab."""
    page = view("/rules/break-test/", 390, "light")
    page.get_by_role("button", name="Menu").click()
    page.locator("label[for=__toc].md-nav__link").click()
    page.wait_for_function(SLID)
    assert page.is_checked("#__toc")
    page.set_viewport_size({"width": 1000, "height": 800})
    try:
        link = page.locator(".md-sidebar--primary a.md-nav__link", has_text="Army Standard")
        assert link.first.evaluate("(e) => getComputedStyle(e).visibility") == "visible"
        assert page.evaluate("document.getElementById('__toc').getClientRects().length") == 0
    finally:
        page.set_viewport_size({"width": 390, "height": 900})  # as the other tests have it


@pytest.mark.parametrize("width, scheme", test_browser.LAYOUTS)
def test_the_shut_search_takes_no_focus_unseen(view, width, scheme):
    """Shut, the search's list of results is a box of no height (of no size on a phone):
    hidden, Tab passes it by; opened from its field, it is shown."""
    page = view("/rules/break-test/", width, scheme)
    results = page.locator(".md-search__scrollwrap")
    assert results.evaluate("(e) => getComputedStyle(e).visibility") == "hidden"
    if width < 960:  # a phone opens the search from its icon
        page.click("label.md-header__button[for=__search]")
    page.focus("input.md-search__input")
    page.keyboard.type("steadfast")
    page.locator(".md-search-result__item").first.wait_for()
    assert results.evaluate("(e) => getComputedStyle(e).visibility") == "visible"


SCHEME = {"light": "default", "dark": "slate"}  # Material's name of each scheme


def _tab_to_the_scheme_switch(page) -> str:
    """Tab from the top of the page to the colour-scheme switch; its name."""
    for _ in range(10):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.name") == "__palette":
            return page.evaluate("document.activeElement.getAttribute('aria-label')")
    raise AssertionError("Tab never reached the colour-scheme switch")


@pytest.mark.parametrize("width, scheme", test_browser.LAYOUTS + [(390, "light"), (1280, "dark")])
def test_the_scheme_switch_tab_reaches_is_named_for_what_it_does(view, width, scheme):
    """Tab reaches the colour-scheme switch named for the other scheme, and Enter
    switches to it (Material's pair of radios, neither checked, named the first one
    "Switch to dark mode" in either scheme). On the next page, the reader's choice shown,
    the switch is named for the system's scheme, and a click on it switches back."""
    other = {"light": "dark", "dark": "light"}[scheme]
    page = view("/glossary/", width, scheme)
    try:
        assert _tab_to_the_scheme_switch(page) == f"Switch to {other} mode"
        page.keyboard.press("Enter")
        assert page.evaluate("document.body.dataset.mdColorScheme") == SCHEME[other]
        page.goto(page.url.replace("/glossary/", "/rule-index/"))
        assert page.evaluate("document.body.dataset.mdColorScheme") == SCHEME[other]
        assert _tab_to_the_scheme_switch(page) == f"Switch to {scheme} mode"
        page.click("form[data-md-component=palette] label:not([hidden])")
        assert page.evaluate("document.body.dataset.mdColorScheme") == SCHEME[scheme]
    finally:  # Material keeps the reader's choice: the next test's page opens as it would
        page.evaluate("localStorage.clear()")


# pages with pictures drawn by rulesref.views, the calculators' charts and the notebooks'
PICTURES = (
    "/rules/leadership/",
    "/rules/army-standard/",
    "/rules/campaign/",
    "/odds/break-test/",
    "/odds/leadership-test/",
    "/odds/campaign-battles/",
    "/tools/calculators/",
)


@pytest.mark.parametrize("path", PICTURES)
def test_picture_text_is_at_least_11_px_as_displayed_on_a_phone(view, path):
    """An SVG scaled down to the column shrinks its words: each text of each picture,
    its font size times the picture's scale, is 11 px or more; no picture is cut."""
    page = view(path, 390, "light")
    if path == "/tools/calculators/":
        ready(page, "break")
    found = page.evaluate(
        """() => [...document.querySelectorAll("article svg")]
             .filter((svg) => svg.querySelector("text") && svg.getBoundingClientRect().width)
             .map((svg) => {
               const box = svg.viewBox.baseVal, drawn = svg.getBoundingClientRect();
               const scale = box && box.width ? drawn.width / box.width : 1;
               const sizes = [...svg.querySelectorAll("text")].map((t) =>
                 parseFloat(getComputedStyle(t).fontSize) * scale);
               const column = svg.closest("article").getBoundingClientRect();
               return {
                 title: (svg.querySelector("title") || {}).textContent,
                 smallest: Math.min(...sizes),
                 right: drawn.right - column.right,
               };
             })"""
    )
    assert found, path
    for picture in found:
        assert picture["smallest"] >= 11, (path, picture)


def test_pages_list_finds_every_page(site):
    found = pages(site)
    assert {"/", "/tools/calculators/", "/workbench/", "/rules/break-test/"} <= set(found)
    assert not [p for p in found if re.search(r"/examples/", p)]  # redirects only
