"""Links that preview, in Chromium: a cross-reference to a rule shows that rule's title and
words on hover and on keyboard focus (Escape closes it), and on a touch screen from a
small button after the link (docs/javascripts/site.js, words from r/index.json)."""

import pytest

from rulesref.clauses import clause


def _preview_of(page) -> str:
    preview = page.locator("#rr-preview")
    preview.wait_for(state="visible")
    return preview.inner_text()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_hover_and_focus_preview_the_linked_rule(browser, base_url, scheme):
    page = browser.new_page(viewport={"width": 1280, "height": 900}, color_scheme=scheme)
    page.goto(base_url + "/rules/break-test/")
    link = page.locator("#br-1 ~ p a[href='#br-c5']").first
    link.hover()
    assert _preview_of(page).startswith(f"BR-C5 · {clause('BR-C5').title}")
    assert link.get_attribute("aria-describedby") == "rr-preview"
    page.keyboard.press("Escape")
    assert page.locator("#rr-preview").is_hidden()
    page.mouse.move(0, 0)
    link.focus()  # the keyboard gets the same preview
    assert "A draw is not a loss" in _preview_of(page)
    page.keyboard.press("Tab")  # gone at once: it would cover what Tab reached
    assert page.evaluate("document.getElementById('rr-preview').hidden")
    page.close()


def test_a_touch_screen_previews_from_a_small_button(browser, base_url):
    context = browser.new_context(
        viewport={"width": 390, "height": 844},
        is_mobile=True,
        has_touch=True,
        service_workers="block",
    )
    page = context.new_page()
    page.goto(base_url + "/rules/break-test/")
    button = page.locator(".rr-preview-button[aria-label='Preview BR-C5']").first
    box = button.bounding_box()
    assert box["width"] >= 24 and box["height"] >= 24  # a target a finger can hit
    button.tap()
    assert "BR-C5" in _preview_of(page) and button.get_attribute("aria-expanded") == "true"
    button.tap()
    assert page.locator("#rr-preview").is_hidden()
    context.close()


def test_words_that_come_after_the_reader_moved_on_show_no_preview(browser, base_url):
    """On a slow network the rules' words can arrive after focus has left the link: the
    preview must not then appear over whatever has focus."""
    page = browser.new_page(viewport={"width": 390, "height": 844})
    words = []

    def slowly(route):
        words.append(route)  # answered after focus has moved on

    page.route("**/r/index.json", slowly)
    page.goto(base_url + "/rules/break-test/")
    link = page.locator("#br-1 ~ p a[href='#br-c5']").first
    link.focus()
    for _ in range(100):  # Playwright calls the route's handler in a task of its own
        if words:
            break
        page.wait_for_timeout(20)
    assert len(words) == 1
    page.locator("body").focus()
    page.keyboard.press("Tab")  # on past the link
    page.wait_for_timeout(400)  # the hide timer has run
    words[0].continue_()
    page.wait_for_timeout(300)
    assert page.locator("#rr-preview").is_hidden()
    link.focus()  # the words are here now: the link still previews
    assert "BR-C5" in _preview_of(page)
    page.close()
