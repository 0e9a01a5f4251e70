// What Material's markup lacks for WCAG 2.2 AA and CSS cannot add: a name for the
// search dialog, and a box that scrolls sideways (a wide table, a picture at its natural
// size) made a named region a keyboard can reach and scroll, only while it does scroll.
// Pages that draw later (the Workbench) are followed as they change.
"use strict";

(() => {
  const search = document.querySelector(".md-search[role=dialog]");
  if (search && !search.hasAttribute("aria-label")) search.setAttribute("aria-label", "Search");

  const article = document.querySelector("article.md-typeset");
  if (!article) return;
  function reachable() {
    for (const box of article.querySelectorAll(".md-typeset__scrollwrap, figure")) {
      const scrolls = box.scrollWidth > box.clientWidth + 1;
      if (scrolls && !box.hasAttribute("tabindex")) {
        const caption = box.querySelector("caption, figcaption");
        box.tabIndex = 0;
        box.setAttribute("role", "region");
        box.setAttribute("aria-label", `${caption ? caption.textContent.trim() : "Table"} (scrolls sideways)`);
      } else if (!scrolls && box.getAttribute("role") === "region") {
        for (const name of ["tabindex", "role", "aria-label"]) box.removeAttribute(name);
      }
    }
  }
  let pending = 0;
  const later = () => { cancelAnimationFrame(pending); pending = requestAnimationFrame(reachable); };
  reachable();
  window.addEventListener("resize", later);
  new MutationObserver(later).observe(article, { childList: true, subtree: true });
})();
