// What Material's markup lacks for WCAG 2.2 AA and CSS cannot add: a name for the
// search dialog, the colour-scheme switch named for what it does, a menu the keyboard
// opens and walks on a narrow screen, a box that scrolls
// sideways (a wide table, a picture at its natural size) made a named region a keyboard
// can reach and scroll, only while it does scroll, and no landmark for the copy button
// of a code block.
// Pages that draw later (the Workbench) are followed as they change.
"use strict";

(() => {
  const search = document.querySelector(".md-search[role=dialog]");
  if (search && !search.hasAttribute("aria-label")) search.setAttribute("aria-label", "Search");

  // Material's colour-scheme switch is two radios, and a page opens with neither checked:
  // Tab reached the first, named "Switch to dark mode", whatever the scheme shown, and in
  // the dark scheme it switched to light. The radio of the scheme shown is checked, by
  // Material's own rule: the reader's stored choice, else the system's scheme. The radio
  // Tab reaches is then named for what it does, and the visible switch, a label for the
  // other radio, still changes the scheme when clicked.
  const schemes = [...document.querySelectorAll("input[name=__palette]")];
  if (schemes.length && !schemes.some((input) => input.checked)) {
    const stored = window.__md_get?.("__palette");
    const shown = stored && schemes[stored.index]
      ? schemes[stored.index]
      : schemes.find((input) => matchMedia(input.dataset.mdColorMedia).matches);
    if (shown) shown.checked = true;
  }

  // On a narrow screen (a phone, or a window zoomed to 400%) the site's pages are in a
  // drawer that Material's menu button opens: a label for a hidden checkbox, which no key
  // reached (WCAG 2.1.1), and a label may not be given a button's role. It is replaced by
  // a button that looks the same; it says whether the menu is open, Enter or Space opens
  // it on the first thing shown in it (the open drawer covers the button), and Escape, or
  // Tab out of it, shuts it (what it covers is then seen).
  const drawer = document.getElementById("__drawer");
  const label = document.querySelector('.md-header label[for="__drawer"]');
  const sidebar = document.querySelector(".md-sidebar--primary");
  if (drawer && label && sidebar) {
    const menu = document.createElement("button");
    menu.type = "button";
    menu.className = `${label.className} rr-menu`;
    menu.setAttribute("aria-label", "Menu");
    menu.append(...label.childNodes);  // its icon
    label.replaceWith(menu);
    const said = () => menu.setAttribute("aria-expanded", String(drawer.checked));
    const toggle = (open) => {
      drawer.checked = open;
      drawer.dispatchEvent(new Event("change"));  // as a click on the label would
    };
    const shown = (element) => element.getClientRects().length && getComputedStyle(element).visibility === "visible";
    said();
    drawer.addEventListener("change", said);
    menu.addEventListener("click", () => {
      toggle(!drawer.checked);
      const stops = sidebar.querySelectorAll("a[href]:not([tabindex='-1']), input");
      // the drawer is still sliding in: scrolled to, its pane would land aside
      if (drawer.checked) [...stops].find(shown)?.focus({ preventScroll: true });
    });
    document.addEventListener("keydown", (event) => {
      if (event.key !== "Escape" || !drawer.checked) return;
      toggle(false);
      menu.focus();
    });
    sidebar.addEventListener("focusout", (event) => {
      if (drawer.checked && event.relatedTarget && !sidebar.contains(event.relatedTarget)) toggle(false);
    });
    // A pane opens from a checkbox of Material's that extra.css lets Tab reach: named for
    // the pane (its two labels, the section's name and the pane's title, would name it
    // twice over), checked while the pane is open; Space opens or shuts it, and Enter
    // too, as a reader of a menu expects.
    for (const box of sidebar.querySelectorAll(".md-nav__toggle")) {
      const title = box.parentElement.querySelector(":scope > nav > .md-nav__title");
      if (title) box.setAttribute("aria-label", title.textContent.trim());
      box.addEventListener("keydown", (event) => {
        if (event.key === "Enter") box.click();
      });
    }
    // the drawer's title holds a second link home, its icon hidden and its box under the
    // title: Tab stopped there, on nothing seen (WCAG 2.4.7); the "Home" link stays
    sidebar.querySelector(".md-nav__title .md-logo")?.setAttribute("tabindex", "-1");
  }

  const article = document.querySelector("article.md-typeset");
  if (!article) return;
  // a region's name, its own on the page (regions of one name are one landmark to a
  // screen reader's list of them, axe: landmark-unique): its caption, else the heading
  // it comes under, numbered when one name would be given twice
  function regionName(box, given) {
    const caption = box.querySelector("caption, figcaption");
    const under = [...article.querySelectorAll("h1, h2, h3, h4, h5, h6")].filter((h) => h.compareDocumentPosition(box) & Node.DOCUMENT_POSITION_FOLLOWING).pop();
    const title = (element) => element.textContent.replace("¶", "").trim();
    const kind = box.localName === "figure" ? "Picture" : "Table";
    const name = caption ? title(caption) : under ? `${kind} under “${title(under)}”` : kind;
    given.set(name, (given.get(name) || 0) + 1);
    return `${name}${given.get(name) > 1 ? ` (${given.get(name)})` : ""} (scrolls sideways)`;
  }
  function reachable() {
    const given = new Map();
    for (const box of article.querySelectorAll(".md-typeset__scrollwrap, figure")) {
      const scrolls = box.scrollWidth > box.clientWidth + 1;
      if (scrolls) {
        box.tabIndex = 0;
        box.setAttribute("role", "region");
        box.setAttribute("aria-label", regionName(box, given));
      } else if (box.getAttribute("role") === "region") {
        for (const name of ["tabindex", "role", "aria-label"]) box.removeAttribute(name);
      }
    }
    // a code block's copy button sits in a <nav> of Material's: not a way about the site,
    // and a dozen unnamed ones on a Code page were landmarks of one name
    for (const nav of article.querySelectorAll("nav.md-code__nav:not([role])")) nav.setAttribute("role", "none");
  }
  let pending = 0;
  const later = () => { cancelAnimationFrame(pending); pending = requestAnimationFrame(reachable); };
  reachable();
  window.addEventListener("resize", later);
  new MutationObserver(later).observe(article, { childList: true, subtree: true });
})();
