"""The calculators in a real browser: headless Chromium (Debian's package) driven by
Playwright against the built site served on 127.0.0.1.

Screenshots are saved in test-artifacts/ for a person to look at."""

from itertools import product
from pathlib import Path
from urllib.parse import quote, urlsplit

import pytest
from sympy import Rational
from test_tables import calculator_fractions

from rulesref.break_test import break_test_probability, reform_test_probability
from rulesref.campaign import Battle, Platoon, Side, Terrain
from rulesref.errors import RulesError
from rulesref.leadership import leadership_target, leadership_test_probability
from rulesref.odds.battle import battle_odds
from rulesref.questions import (
    BreakSetup,
    LeadershipSetup,
    ReformSetup,
    greatest_margin_odds,
    holding_roll_odds,
    viewed,
)
from rulesref.tables import BATTLE_KINDS, CALCULATOR_REROLLS
from rulesref.views import percent

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "test-artifacts"


@pytest.fixture
def visits(view):
    """Opens pages at phone width, recording every request and every dialog."""
    requests, dialogs = [], []
    recorders = {
        "request": lambda request: requests.append(request.url),
        "dialog": lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()),
    }

    def visit(path: str, *, color_scheme: str = "light"):
        return view(path, 390, color_scheme, listeners=recorders)

    visit.requests, visit.dialogs = requests, dialogs
    yield visit
    hosts = {urlsplit(url).hostname for url in requests if not url.startswith("data:")}
    assert hosts <= {"127.0.0.1"}, f"requests to other hosts: {hosts}"
    assert not dialogs, f"a page opened a dialog: {dialogs}"


def ready(page, calculator: str):
    page.wait_for_selector(f"#{calculator}[data-ready=true]")


def enter(page, calculator: str, **values: int | str | bool) -> None:
    """Sets fields of a calculator's form as a player's typing and ticking would, each
    followed by its `input` event (the one the calculators answer), in one call."""
    page.evaluate(
        """([selector, values]) => {
             const form = document.querySelector(`${selector} form`);
             for (const [name, value] of Object.entries(values)) {
               const field = form.elements[name];
               if (field.type === "checkbox") field.checked = value;
               else field.value = String(value);
               field.dispatchEvent(new Event("input", { bubbles: true }));
             }
           }""",
        [f"#{calculator}", values],
    )


def shown(page, calculator: str) -> Rational:
    return Rational(page.text_content(f"#{calculator} .rr-fraction"))


# every option combination, over a spread of Leadership and margins
BREAK_SAMPLE = [
    (ld, by, flags)
    for (ld, by), flags in product([(8, 3), (2, 0), (10, 1), (5, 10), (7, 100)], range(8))
]


def set_break(page, ld: int, by: int, flags: int) -> tuple[bool, bool, bool]:
    """Types a Break test into its calculator; `flags` packs Steadfast, Insane Courage and
    the re-roll, as the data file does."""
    steadfast, courage, reroll = (bool(flags & 4), bool(flags & 2), bool(flags & 1))
    fields = {"steadfast": steadfast, "insane_courage": courage, "reroll": reroll}
    enter(page, "break", leadership=ld, lost_by=by, **fields)
    return steadfast, courage, reroll


def test_break_calculator_shows_the_functions_numbers(visits):
    """For a sample of inputs typed into the form, the exact Python answer (BR-3)."""
    page = visits("/tools/calculators/")
    ready(page, "break")
    for ld, by, flags in BREAK_SAMPLE:
        steadfast, courage, reroll = set_break(page, ld, by, flags)
        expected = break_test_probability(
            ld, by, steadfast=steadfast, insane_courage=courage, reroll=reroll
        )
        assert shown(page, "break") == expected, (ld, by, flags)
        assert Rational(page.text_content("#break .rr-fraction-no")) == 1 - expected
        assert page.text_content("#break .rr-percent") == f"({percent(expected)})"
        assert page.text_content("#break .rr-percent-no") == f"({percent(1 - expected)})"


def test_reform_calculator_shows_the_functions_numbers(visits):
    """BR-15 with each of its options."""
    page = visits("/tools/calculators/")
    ready(page, "reform")
    for ld, by, flags in BREAK_SAMPLE[::2]:
        steadfast, unbreakable, courage = (bool(flags & 4), bool(flags & 2), bool(flags & 1))
        fields = {"steadfast": steadfast, "unbreakable": unbreakable, "insane_courage": courage}
        enter(page, "reform", leadership=ld, lost_by=by, **fields)
        expected = reform_test_probability(
            ld, by, steadfast=steadfast, unbreakable=unbreakable, insane_courage=courage
        )
        assert shown(page, "reform") == expected


def test_leadership_calculator_shows_the_functions_numbers(visits):
    """LD-1, LD-7: every target, re-rolls and Doctrine the calculator offers."""
    page = visits("/tools/calculators/?leadership.target=5&leadership.rerolls=2")
    ready(page, "leadership")
    assert shown(page, "leadership") == Rational(19, 27)
    page.fill("#leadership input[name=target]", "4+")  # as the rules write it
    assert shown(page, "leadership") == leadership_test_probability("4+", rerolls=2)
    for target, rerolls, ignore in product(range(2, 7), range(4), (False, True)):
        enter(page, "leadership", target=target, rerolls=rerolls, ignore=ignore)
        expected = leadership_test_probability(target, rerolls=rerolls, ignore=ignore)
        assert shown(page, "leadership") == expected, (target, rerolls, ignore)


def test_the_d6_calculator_reads_a_leadership_as_rulesref_does(visits):
    """LD-1: the page accepts a written Leadership ("4+") exactly when Python does, by the
    pattern its data file carries from rulesref.leadership."""
    page = visits("/tools/calculators/#leadership-test")
    ready(page, "leadership")
    for text in ["2+", "6+", " 5+ ", "7+", "1+", "4 +", "+4", "4++", "04+", "4+5", "x+"]:
        page.fill("#leadership input[name=target]", text)
        try:
            expected = leadership_test_probability(leadership_target(text.strip()))
        except RulesError:
            assert page.locator("#leadership .rr-error").is_visible(), text
            continue
        assert shown(page, "leadership") == expected, text


def _chart_numbers(page, calculator: str) -> dict[int, Rational]:
    cells = page.evaluate(
        """(rows) => [...document.querySelectorAll(rows)].map(
             (row) => [...row.querySelectorAll("th, td")].map((cell) => cell.textContent))""",
        f"#{calculator} .rr-sweep-numbers tbody tr",
    )
    for _, fraction, shown_percent in cells:
        assert shown_percent == percent(Rational(fraction))
    return {int(value): Rational(fraction) for value, fraction, _ in cells}


def test_each_view_of_a_chart_is_the_distribution_python_reads(visits):
    """The charts by margin (BR-2, BR-3, BR-15) and by re-rolls (LD-7) in each view: every
    bar's fraction is `viewed` of the distribution rulesref.questions gives."""
    page = visits("/tools/calculators/")
    ready(page, "leadership")
    for ld, by, flags in BREAK_SAMPLE[::3]:
        steadfast, courage, reroll = set_break(page, ld, by, flags)
        enter(page, "reform", leadership=ld, steadfast=steadfast, insane_courage=courage)
        margins = greatest_margin_odds(BreakSetup(ld, by, steadfast, courage, reroll))
        reforms = greatest_margin_odds(ReformSetup(ld, by, steadfast, insane_courage=courage))
        for view in ("at least", "exactly", "at most"):
            page.check(f"#break input[name=view][value='{view}']")
            page.check(f"#reform input[name=view][value='{view}']")
            expected = viewed(margins, view)
            assert _chart_numbers(page, "break") == {k: expected[k] for k in range(11)}
            expected = viewed(reforms, view)
            assert _chart_numbers(page, "reform") == {k: expected[k] for k in range(11)}
    for target, ignore in product(range(2, 7), (False, True)):
        enter(page, "leadership", target=f"{target}+", ignore=ignore)
        rolls = holding_roll_odds(LeadershipSetup(target, CALCULATOR_REROLLS, ignore))
        for view in ("at most", "exactly", "at least"):
            page.check(f"#leadership input[name=view][value='{view}']")
            expected = viewed(rolls, view)
            assert _chart_numbers(page, "leadership") == {
                n: expected[n] for n in range(CALCULATOR_REROLLS + 1)
            }


@pytest.mark.parametrize("width", [390, 1280])
def test_a_chart_view_is_chosen_with_the_keyboard_and_shared(view, width):
    """Arrow keys move through the view's radio buttons; the chart, its numbers and the
    address follow, and the address opens the same view."""
    page = view("/tools/calculators/", width, "light")
    page.wait_for_selector("#break[data-ready=true]")
    page.focus("#break input[name=reroll]")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.value") == "at least"
    page.keyboard.press("ArrowRight")
    assert page.is_checked("#break input[name=view][value='exactly']")
    page.wait_for_function("location.search.includes('break.view=exactly')")
    assert "exactly" in page.get_attribute("#break .rr-sweep svg", "aria-label")
    page.keyboard.press("Tab")  # on to the chart's numbers, opened with Enter
    page.keyboard.press("Enter")
    assert page.locator("#break .rr-sweep-numbers table").is_visible()
    assert _chart_numbers(page, "break")[3] == Rational(1, 9)  # 5/18 - 1/6
    page.locator("#break").screenshot(path=str(ARTIFACTS / f"chart-views-{width}.png"))
    friend = view(f"/tools/calculators/?{urlsplit(page.url).query}", width, "dark")
    friend.wait_for_selector("#break[data-ready=true]")
    assert friend.is_checked("#break input[name=view][value='exactly']")
    assert _chart_numbers(friend, "break")[3] == Rational(1, 9)


def test_battle_calculator_shows_the_functions_numbers(visits):
    """CA-2 to CA-18: three cavalry, artillery and infantry battles, in several terrains."""
    page = visits("/tools/calculators/#campaign-battle")
    ready(page, "battle")
    for attacker, defender, terrain, fortified in [
        ((3, 0, 0), (3, 0, 0), "open", False),
        ((2, 1, 0), (3, 0, 0), "mountain", True),
        ((0, 1, 2), (1, 0, 1), "woods", False),
    ]:
        for role, counts in (("attacker", attacker), ("defender", defender)):
            for kind, n in zip(BATTLE_KINDS, counts, strict=True):
                page.fill(f"#battle input[name={role}_{kind}]", str(n))
        page.select_option("#battle select[name=terrain]", label=terrain)
        page.set_checked("#battle input[name=fortified]", fortified)
        sides = [
            Side(
                [
                    Platoon(kind)
                    for kind, n in zip(BATTLE_KINDS, counts, strict=True)
                    for _ in range(n)
                ],
                fortified=fortified and role == "defender",
            )
            for role, counts in (("attacker", attacker), ("defender", defender))
        ]
        victor = battle_odds(Battle(*sides, terrain=Terrain(terrain))).victor
        shown_fractions = page.locator("#battle .rr-fraction").all_text_contents()
        assert [Rational(text) for text in shown_fractions] == [
            victor["attacker"],
            victor["defender"],
            victor[None],
        ]
    page.fill("#battle input[name=attacker_infantry]", "3")  # 3 + 0 + 1 + 2: too many
    assert "each side needs 1 to 3 platoons" in page.text_content("#battle .rr-error")


def test_the_calculators_write_each_percentage_as_python_does(visits):
    """The script's `percent` against rulesref.views.percent, on every answer of every
    data file and its complement, and on fractions at each bound of rounding."""
    fractions = calculator_fractions() | {
        Rational(n, d) for d in (8, 16, 200, 201, 216, 7776) for n in (0, 1, d - 1, d)
    }
    page = visits("/tools/calculators/")
    ready(page, "battle")
    cases = [(str(p.numerator), str(p.denominator), d) for p in sorted(fractions) for d in (0, 1)]
    shown = page.evaluate(
        "(cases) => cases.map(([n, d, digits]) => rulesrefPercent(BigInt(n), BigInt(d), digits))",
        cases,
    )
    expected = [percent(Rational(int(n), int(d)), digits) for n, d, digits in cases]
    assert shown == expected
    assert len(cases) > 300 and ">99.9%" in shown and "<1%" in shown


def test_a_battle_almost_certain_is_not_shown_as_certain(visits):
    """Cavalry and a gun against three fortified guns: the defender wins 7775/7776,
    which is not 100%."""
    page = visits(
        "/tools/calculators/?battle.attacker_infantry=0&battle.attacker_cavalry=1"
        "&battle.attacker_artillery=1&battle.defender_infantry=0&battle.defender_artillery=3"
        "&battle.fortified=1"
    )
    ready(page, "battle")
    answers = page.locator("#battle .rr-answer").all_inner_texts()
    assert answers == [
        "attacker wins: 0 (0.0%)",
        "defender wins: 7775/7776 (>99.9%)",
        "no victor: 1/7776 (<0.1%)",
    ]


def test_a_shared_address_restores_the_inputs(visits):
    page = visits("/tools/calculators/")
    ready(page, "break")
    page.fill("#break input[name=leadership]", "7")
    page.fill("#break input[name=lost_by]", "7")
    page.set_checked("#break input[name=steadfast]", True)
    shared = page.url
    assert "break.steadfast=1" in shared and "break.lost_by=7" in shared
    address = urlsplit(shared)
    friend = visits(f"{address.path}?{address.query}")
    ready(friend, "break")
    assert friend.input_value("#break input[name=leadership]") == "7"
    assert friend.is_checked("#break input[name=steadfast]")
    assert shown(friend, "break") == Rational(7, 12)


@pytest.mark.parametrize(
    "query, message",
    [
        ("break.leadership=<script>window.pwned=1</script>", "leadership must be"),
        ('break.lost_by="><img src=x onerror="window.pwned=1">', "lost_by must be"),
        ("break.leadership=99999999999999999999", "leadership must be"),
        ("break.leadership=11", "from 0 to 10"),
        ("break.lost_by=-3", "lost_by must be"),
        ("break.lost_by=3.5", "lost_by must be"),
        ("break.lost_by=1e2", "lost_by must be"),
        ("break.steadfast=<svg onload=alert(1)>", "steadfast must be 0 or 1"),
        ("reform.leadership=", "leadership must be"),
        ("leadership.target=7", "target must be a Leadership from 2+ to 6+ (2 to 6, or '4+')"),
        ("leadership.rerolls=4", "rerolls must be"),
        ("break.view=more", "view must be one of at least, exactly, at most"),
        ("battle.terrain=sea", "terrain must be one of 0, 1, 2, 3"),
        ("battle.defender_infantry=0", "each side needs 1 to 3 platoons"),
    ],
)
def test_a_bad_address_shows_an_error_and_runs_nothing(visits, query, message):
    key, _, value = query.partition("=")
    page = visits(f"/tools/calculators/?{key}={quote(value)}")
    calculator = key.split(".")[0]
    ready(page, calculator)
    error = page.locator(f"#{calculator} .rr-error")
    assert error.is_visible() and message in error.text_content()
    assert page.locator(f"#{calculator} .rr-result").is_hidden()
    assert page.evaluate("window.pwned") is None
    assert page.locator("img[src=x], svg[onload]").count() == 0


def test_pages_load_nothing_from_elsewhere_and_screenshots(visits):
    """Every main page at 390 px, light and dark; the fixture checks every request."""
    ARTIFACTS.mkdir(exist_ok=True)
    for path in ("/", "/rules/break-test/", "/odds/break-test/", "/glossary/"):
        visits(path).wait_for_load_state("networkidle")
    for scheme in ("light", "dark"):
        page = visits("/tools/calculators/?break.leadership=8&break.lost_by=3", color_scheme=scheme)
        ready(page, "break")
        page.screenshot(path=ARTIFACTS / f"calculators-390-{scheme}.png", full_page=True)
        assert shown(page, "break") == Rational(5, 18)
    assert (ARTIFACTS / "calculators-390-dark.png").stat().st_size > 10_000


# For what the colour scheme cannot change (where things are, what fits, what is shown):
# each width once, the two schemes between them, a phone in the dark and a desktop in the
# light. The colours themselves are measured in both schemes (tests/test_a11y.py).
LAYOUTS = [(390, "dark"), (1280, "light")]


@pytest.mark.parametrize("width, scheme", LAYOUTS)
def test_the_break_test_table_fits_with_readable_text(view, width, scheme):
    """Leadership 2-10 by lost by 0-10, all visible without scrolling sideways, text at
    least 12 px; the same for the reform and d6 Leadership tables."""
    for path in ("/odds/break-test/", "/odds/leadership-test/"):
        page = view(path, width, scheme)
        tables = page.evaluate(
            """() => [...document.querySelectorAll("table.rr-heat")]
                 .filter((t) => t.offsetParent !== null)
                 .map((t) => {
                   const box = t.closest(".rr-odds").getBoundingClientRect();
                   const own = t.getBoundingClientRect();
                   const cells = [...t.querySelectorAll("td, th")];
                   return {
                     rows: t.rows.length, columns: t.rows[0].cells.length,
                     overflow: own.right - box.right, scroll: t.scrollWidth - t.clientWidth,
                     page: document.documentElement.scrollWidth - innerWidth,
                     font: Math.min(...cells.map((c) => parseFloat(getComputedStyle(c).fontSize)
                       || parseFloat(getComputedStyle(c, "::after").fontSize))),  // a phone's cell
                     clipped: cells.some((c) => c.scrollWidth > c.clientWidth + 1),
                   };
                 })"""
        )
        assert tables, path
        for table in tables:
            assert table["overflow"] <= 0.5 and table["scroll"] <= 0 and table["page"] <= 0, table
            assert table["font"] >= 12 and not table["clipped"], table
        if path == "/odds/break-test/":
            assert (tables[0]["rows"], tables[0]["columns"]) == (10, 12)  # header + Ld 2-10


@pytest.mark.parametrize("width", (390, 1280))
def test_the_chain_of_command_fits_the_column_whole(view, width):
    """A tree on a wide screen, an indented list on a phone: the one shown fits the
    column (the force on top and the key included), the page never scrolls sideways."""
    page = view("/rules/leadership/", width, "light")
    found = page.evaluate(
        """() => {
             const shown = [...document.querySelectorAll(".rr-chain svg")]
               .filter((svg) => svg.getBoundingClientRect().width > 0);
             const svg = shown[0], box = svg.getBoundingClientRect();
             const column = svg.closest("article").getBoundingClientRect();
             const texts = [...svg.querySelectorAll("text")].map((t) => t.getBoundingClientRect());
             return {
               shown: shown.map((s) => s.getAttribute("class")),
               inside: texts.every((t) => t.left >= box.left - 1 && t.right <= box.right + 1),
               right: box.right - column.right,
               page: document.documentElement.scrollWidth - innerWidth,
             };
           }"""
    )
    tree = "rr-svg rr-natural-size"  # the list on a phone, the tree on a wide screen
    assert found["shown"] == ["rr-svg" if width == 390 else tree], found
    assert found["inside"] and found["right"] <= 0.5 and found["page"] <= 0, found


@pytest.mark.parametrize("width, scheme", LAYOUTS)
def test_no_code_above_the_first_table_of_an_odds_page(view, width, scheme):
    for path in ("/odds/break-test/", "/odds/leadership-test/", "/odds/campaign-battles/"):
        page = view(path, width, scheme)
        code = page.evaluate(
            """() => {
                 const table = document.querySelector("article table");
                 const code = "article pre, article .jp-CodeCell .jp-InputArea";
                 const before = Node.DOCUMENT_POSITION_FOLLOWING;
                 return [...document.querySelectorAll(code)]
                   .filter((c) => c.offsetParent !== null)
                   .filter((c) => c.compareDocumentPosition(table) & before)
                   .length;
               }"""
        )
        assert code == 0, path


DRAWN = """(td) => {
  const drawn = (where) => {  // '"28" / ""': what is drawn, then what is read aloud
    const content = getComputedStyle(td, where).content;
    return content === "none" || content === "normal" ? [] : [JSON.parse(content.split(" / ")[0])];
  };
  const own = parseFloat(getComputedStyle(td).fontSize) > 0 ? [td.textContent] : [];
  return [...drawn("::before"), ...own, ...drawn("::after")];
}"""


def accessible_name(page, locator) -> str:
    """The name Chromium's own accessibility tree gives the element (CSS content included)."""
    locator.evaluate("(element) => element.setAttribute('data-probe', '')")
    cdp = page.context.new_cdp_session(page)
    root = cdp.send("DOM.getDocument")["root"]["nodeId"]
    node = cdp.send("DOM.querySelector", {"nodeId": root, "selector": "[data-probe]"})["nodeId"]
    tree = cdp.send("Accessibility.getPartialAXTree", {"nodeId": node, "fetchRelatives": False})
    locator.evaluate("(element) => element.removeAttribute('data-probe')")
    return str(tree["nodes"][0]["name"]["value"])


@pytest.mark.parametrize("width, percentage", ((390, "28"), (1280, "27.8")))
def test_exact_fractions_are_a_tap_away(view, width, percentage):
    """A cell is one <td>: its text is the percentage to one decimal (read aloud, copied),
    a phone draws it whole; the switch draws the exact fraction and reads it too."""
    page = view("/odds/break-test/", width, "light")
    cell = (
        page.locator("table.rr-heat").first.locator("tr").nth(7).locator("td").nth(3)
    )  # Ld 8, by 3
    assert cell.evaluate(DRAWN) == [percentage]  # 27.8% rounded on a phone
    assert cell.inner_text() == "27.8" and accessible_name(page, cell) == "27.8"
    assert cell.evaluate("(td) => td.getElementsByTagName('*').length") == 0
    page.locator(".rr-exact").first.click()
    assert cell.evaluate(DRAWN) == ["5", "18"]
    assert accessible_name(page, cell) == "27.8 (exactly 5 in 18)"
    assert cell.bounding_box()["height"] < 40  # numerator over denominator, never side by side


def test_odds_pages_stay_under_1500_elements(view):
    """Issue 22: a light page; each heat cell is a single element."""
    for path in ("/odds/break-test/", "/odds/leadership-test/", "/odds/campaign-battles/"):
        page = view(path, 390, "light")
        assert page.evaluate("document.getElementsByTagName('*').length") < 1500, path


def test_an_old_table_address_opens_its_tab(view):
    page = view("/examples/break-test-tables/#without-insane-courage", 390, "light")
    page.wait_for_url("**/odds/break-test/#without-insane-courage")
    assert page.locator("#without-insane-courage").is_checked()


@pytest.mark.parametrize("width, scheme", LAYOUTS)
def test_copy_link_copies_the_rule_address(view, width, scheme):
    page = view("/rules/break-test/", width, scheme)
    button = page.locator("#br-6 .rr-copy-link")
    assert button.is_visible()  # visible without hovering, so usable on touch
    box = button.bounding_box()
    assert box["height"] >= 24
    button.click()
    page.wait_for_function("document.querySelector('#br-6 .rr-copy-link').dataset.copied")
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied.endswith("/r/br-6/"), copied  # the rule's short address
    said = page.get_by_role("status").filter(has_text="copied")
    assert said.inner_text() == "Link to BR-6 copied"  # to a screen reader
    page.goto(copied)
    page.wait_for_url("**/rules/break-test/#br-6")


@pytest.mark.parametrize("width, scheme", LAYOUTS)
def test_a_shared_calculator_address_opens_at_its_calculator(view, width, scheme):
    for query, calculator in [
        ("?reform.leadership=7&reform.lost_by=2", "reform"),
        ("?leadership.target=5&leadership.rerolls=2#leadership-test", "leadership"),
    ]:
        page = view(f"/tools/calculators/{query}", width, scheme)
        ready(page, calculator)
        assert page.locator(f"#{calculator} form").is_visible()
        in_view = page.evaluate(
            f"""() => {{ const r = document.querySelector("#{calculator}").getBoundingClientRect();
                        return r.top < innerHeight && r.bottom > 0; }}"""
        )
        assert in_view, query
        assert page.locator(f"#{calculator} .rr-sweep svg").count() == 1
    page.fill("#reform input[name=lost_by]", "4")
    assert page.evaluate("location.hash") == "#reform-test"


@pytest.mark.parametrize("width, scheme", LAYOUTS)
def test_no_glossary_underline_inside_headings(view, width, scheme):
    for path in ("/rules/break-test/", "/rules/leadership/", "/odds/break-test/"):
        page = view(path, width, scheme)
        assert page.locator(":is(h1, h2, h3, h4, h5, h6, a) abbr").count() == 0, path


def test_every_published_anchor_resolves(browser, base_url, site):
    """Each address of tests/published_anchors.txt in Chromium: its page has every anchor
    recorded for it. Redirects: every one's target and anchor is checked in the built HTML
    (tests/test_site.py); here one address per kind of redirect and page it lands on (a
    short `/r/` address, an old address whose script carries the anchor along) is followed,
    and lands on a page that has the anchor it carries (one tab for them all)."""
    by_page: dict[str, list[str]] = {}
    for line in (ROOT / "tests/published_anchors.txt").read_text().split():
        url, _, anchor = line.partition("#")
        by_page.setdefault(url, []).append(anchor)
    page = browser.new_context(service_workers="block").new_page()
    followed: set[tuple[bool, str]] = set()
    for url, anchors in by_page.items():
        html = (site / url.lstrip("/") / "index.html").read_text()
        if 'http-equiv="refresh"' not in html:
            page.goto(base_url + url)
            missing = page.evaluate(
                "(ids) => ids.filter((a) => a && !document.getElementById(a))", anchors
            )
            assert not missing, f"{url}: {missing}"
            continue
        kind = (url.startswith("/r/"), html.partition("url=")[2].partition("#")[0])
        anchor = max(anchors)  # one with an anchor, where there is one
        if kind in followed:
            continue
        followed.add(kind)
        page.goto(base_url + url + (f"#{anchor}" if anchor else ""))
        page.wait_for_url(lambda now, url=url: urlsplit(now).path != url)
        page.wait_for_load_state()
        landed = urlsplit(page.url).fragment
        assert landed == (anchor or landed), (url, anchor, page.url)
        assert not landed or page.evaluate("(a) => !!document.getElementById(a)", landed), page.url
    assert len(followed) >= 7, followed  # the four documents' short addresses, three old pages
    page.context.close()


def test_screenshots_at_phone_width(view):
    """For a person to look at: test-artifacts/<page>-390-<scheme>.png."""
    ARTIFACTS.mkdir(exist_ok=True)
    shots = {
        "break-test-odds": "/odds/break-test/",
        "rules-break-test": "/rules/break-test/",
        "calculators": "/tools/calculators/",
    }
    for (name, path), scheme in product(shots.items(), ("light", "dark")):
        page = view(path, 390, scheme)
        if name == "calculators":
            ready(page, "break")
        page.screenshot(path=ARTIFACTS / f"{name}-390-{scheme}.png", full_page=True)
        assert (ARTIFACTS / f"{name}-390-{scheme}.png").stat().st_size > 10_000


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_wide_campaign_table_keeps_its_first_column_in_view(view, scheme):
    page = view("/odds/campaign-battles/", 390, scheme)
    table = page.locator(".jp-RenderedMarkdown table").first
    offset = table.evaluate(
        """(t) => {
             const scroller = t.closest(".md-typeset__scrollwrap");
             scroller.scrollLeft = scroller.scrollWidth;
             return [scroller.scrollLeft, t.rows[1].cells[0].getBoundingClientRect().left
                                          - scroller.getBoundingClientRect().left];
           }"""
    )
    assert offset[0] > 0 and abs(offset[1]) <= 1, offset  # scrolled, yet the names stay


def test_an_address_the_site_lacks_says_where_to_go_without_an_error(browser, base_url, site):
    """A host serves 404.html at any missing address, however deep: its scripts run
    without an error there (the site's root is "/" on that page, not "../.."), and it
    links to the rule index and the home page."""
    page = browser.new_page(viewport={"width": 390, "height": 844})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda message: message.type == "error" and errors.append(message.text))
    missing = (site / "404.html").read_bytes()
    page.route(
        "**/rules/brake-test/",
        lambda route: route.fulfill(status=404, body=missing, content_type="text/html"),
    )
    page.goto(base_url + "/rules/brake-test/")
    page.wait_for_load_state("load")
    page.wait_for_timeout(300)
    assert page.locator("h1").inner_text() == "Page not found"
    links = {a.inner_text(): a.evaluate("a => a.href") for a in page.locator("article a").all()}
    assert links["rule index"] == base_url + "/rule-index/"
    assert links["home page"] == base_url + "/"
    assert [e for e in errors if "404" not in e] == []  # the page's own status aside
    page.close()


@pytest.mark.parametrize("calculator", ["break", "reform", "leadership", "battle"])
def test_on_a_phone_the_answer_comes_before_the_boxes(view, calculator):
    """At 390 px a calculator's answer (or what is wrong) is shown above its boxes, where
    the on-screen keyboard does not hide it; at 1280 px under them, as the page reads;
    a chart follows the boxes, and goes with the answer when there is none."""
    top = "(e) => e.getBoundingClientRect().top"
    for width in (390, 1280):
        page = view("/tools/calculators/", width, "light")
        first = page.locator(f"#{calculator} form input").first
        answer = page.locator(f"#{calculator} .rr-result")
        assert (answer.evaluate(top) < first.evaluate(top)) == (width == 390), width
        first.fill("x")
        error = page.locator(f"#{calculator} .rr-error")
        assert (error.evaluate(top) < first.evaluate(top)) == (width == 390), width
        assert (
            page.locator(f"#{calculator} .rr-sweep svg").count() == 0
            or page.locator(f"#{calculator} .rr-sweep").is_hidden()
        )
