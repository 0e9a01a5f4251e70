// Small helpers for every page: a copy-link button on each rule and clarification
// heading, and links that open the content tab they name.
"use strict";

(() => {
  const RULE = /^(?:br|ld|ca|st)-c?\d+$/;

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

  for (const heading of document.querySelectorAll(".md-typeset :is(h2, h3, h4)[id]")) {
    if (!RULE.test(heading.id)) continue;
    const button = document.createElement("button");
    button.type = "button";
    button.className = "rr-copy-link";
    button.textContent = "Copy link";
    button.setAttribute("aria-label", `Copy link to ${heading.id.toUpperCase()}`); // the visible words first
    button.addEventListener("click", () => {
      const address = `${location.origin}${location.pathname}#${heading.id}`;
      copyText(address).then(() => {
        button.textContent = "Copied";
        button.dataset.copied = address;
        setTimeout(() => { button.textContent = "Copy link"; }, 2000);
      });
    });
    heading.append(button);
  }

  // "#without-insane-courage" names a tab (its radio button): open it and show it.
  function openTab() {
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
