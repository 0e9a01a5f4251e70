// Small helpers for every page: a copy-link button on each rule and clarification
// heading (it copies the rule's short address, /r/br-6/), previews of the rules that
// cross-references name, and links that open the content tab they name.
"use strict";

(() => {
  const RULE = /^(?:br|ld|ca|st)-c?\d+$/;
  const config = document.getElementById("__config");
  // the site's root: relative ("../..") on a page, absolute ("/") on the 404 page
  const root = config ? JSON.parse(config.textContent).base : ".";
  const base = new URL(root.endsWith("/") ? root : `${root}/`, location.href);

  // The printed sheet names the site where it was opened: mkdocs.yml's site_url is where
  // it is published, and a copy served elsewhere says its own address.
  if (base.protocol.startsWith("http")) {
    const address = `${base.host}${base.pathname}`.replace(/\/$/, "");
    for (const place of document.querySelectorAll(".rr-site-address")) place.textContent = address;
  }

  function copyText(text) {
    if (navigator.clipboard && window.isSecureContext) return navigator.clipboard.writeText(text);
    const area = document.createElement("textarea");
    area.value = text;
    area.setAttribute("readonly", "");
    area.style.position = "fixed";
    area.style.opacity = "0";
    document.body.append(area);
    area.select();
    document.execCommand("copy");
    area.remove();
    return Promise.resolve();
  }

  // said to a screen reader when a link is copied: the button's name stays "Copy link to ..."
  const said = document.createElement("p");
  said.className = "rr-said";
  said.setAttribute("role", "status");
  document.body.append(said);

  for (const heading of document.querySelectorAll(".md-typeset :is(h2, h3, h4)[id]")) {
    if (!RULE.test(heading.id)) continue;
    const button = document.createElement("button");
    button.type = "button";
    button.className = "rr-copy-link";
    button.textContent = "Copy link";
    button.setAttribute("aria-label", `Copy link to ${heading.id.toUpperCase()}`); // the visible words first
    button.addEventListener("click", () => {
      const address = new URL(`r/${heading.id}/`, base).href;  // its short address
      copyText(address).then(() => {
        button.textContent = "Copied";
        button.dataset.copied = address;
        said.textContent = `Link to ${heading.id.toUpperCase()} copied`;
        setTimeout(() => { button.textContent = "Copy link"; }, 2000);
      });
    });
    heading.insertBefore(button, heading.querySelector(".rr-code-link"));  // before "code"
  }

  // Previews: a link to a rule shows the rule's title and words, on hover or keyboard
  // focus, and on a touch screen from a small button after the link. The words come
  // from r/index.json (docs/hooks/short_links.py), fetched from this site once.
  let rules = null;
  const preview = document.createElement("div");
  preview.id = "rr-preview";
  preview.className = "rr-preview md-typeset";
  preview.setAttribute("role", "tooltip");
  preview.hidden = true;
  document.body.append(preview);
  let shownFor = null;
  let hideTimer = 0;

  function ruleOf(link) {
    const url = new URL(link.href, location.href);
    const id = url.hash.slice(1);
    if (!RULE.test(id) || url.origin !== location.origin) return null;
    return url.pathname.startsWith(new URL("rules/", base).pathname) ? id : null;
  }

  // the link a preview is wanted for: the words may come after the reader has moved on
  // (a slow network), and a preview for a link no longer hovered or focused would stay
  let wanted = null;

  async function show(link, id) {
    clearTimeout(hideTimer);
    wanted = link;
    if (!rules) {
      try {
        rules = await (await fetch(new URL("r/index.json", base))).json();
      } catch {
        return;  // no preview; the link still works
      }
    }
    if (wanted !== link) return;
    const rule = rules[id];
    if (!rule) return;
    preview.replaceChildren();
    const title = document.createElement("strong");
    title.textContent = `${rule.id} · ${rule.title}`;
    const words = document.createElement("p");
    words.textContent = rule.words;
    preview.append(title, words);
    preview.hidden = false;
    const box = link.getBoundingClientRect();
    const width = Math.min(360, document.documentElement.clientWidth - 16);
    preview.style.width = `${width}px`;
    preview.style.left = `${Math.max(8, Math.min(box.left, document.documentElement.clientWidth - width - 8)) + scrollX}px`;
    preview.style.top = `${box.bottom + scrollY + 6}px`;
    link.setAttribute("aria-describedby", preview.id);
    shownFor = link;
  }

  function hide() {
    wanted = null;
    preview.hidden = true;
    if (shownFor) {
      shownFor.removeAttribute("aria-describedby");
      const button = shownFor.nextElementSibling;
      if (button && button.matches(".rr-preview-button")) button.setAttribute("aria-expanded", "false");
    }
    shownFor = null;
  }

  const touch = matchMedia("(hover: none)").matches;
  for (const link of document.querySelectorAll(".md-content .md-typeset a[href]")) {
    if (link.closest("h1, h2, h3, h4, h5, h6, .md-button") || link.matches(".rr-code-link")) continue;
    const id = ruleOf(link);
    if (!id) continue;
    link.addEventListener("mouseenter", () => show(link, id));
    link.addEventListener("focus", () => show(link, id));
    link.addEventListener("mouseleave", () => { hideTimer = setTimeout(hide, 300); });
    // focus gone, the preview goes at once: it would cover the next field Tab reaches
    link.addEventListener("blur", () => { if (!link.matches(":hover")) hide(); });
    if (touch) {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "rr-preview-button";
      button.textContent = "i";
      button.setAttribute("aria-label", `Preview ${id.toUpperCase()}`);
      button.setAttribute("aria-expanded", "false");
      button.setAttribute("aria-controls", preview.id);
      button.addEventListener("click", (event) => {
        event.stopPropagation();
        if (shownFor === link) { hide(); return; }
        hide();
        show(link, id).then(() => button.setAttribute("aria-expanded", String(!preview.hidden)));
      });
      link.after(button);
    }
  }
  preview.addEventListener("mouseenter", () => clearTimeout(hideTimer));  // can be hovered
  preview.addEventListener("mouseleave", () => { hideTimer = setTimeout(hide, 300); });
  document.addEventListener("keydown", (event) => { if (event.key === "Escape") hide(); });
  document.addEventListener("click", (event) => { if (!preview.contains(event.target)) hide(); });

  // "#without-insane-courage" names a tab (its radio button): open it and show it.
  function openTab() {
    // no id is this long: a longer fragment (a Workbench link, up to megabytes) is no
    // tab, and decoding it and looking it up would block the page
    if (location.hash.length > 256) return;
    const id = decodeURIComponent(location.hash.slice(1));
    const target = id && document.getElementById(id);
    if (target && target.matches(".tabbed-set > input[type=radio]")) {
      target.checked = true;
      target.closest(".tabbed-set").scrollIntoView();
    }
  }
  openTab();
  window.addEventListener("hashchange", openTab);
})();
