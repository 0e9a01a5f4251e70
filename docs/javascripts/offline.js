// Offline after one visit: registers the site's service worker (sw.js, written at build
// time by docs/hooks/service_worker.py) and says when a new version of the site is ready.
"use strict";

(() => {
  if (!("serviceWorker" in navigator) || !window.isSecureContext) return;
  const root = new URL("..", document.currentScript.src);  // this file is javascripts/offline.js
  const hadWorker = Boolean(navigator.serviceWorker.controller);

  function offer(waiting) {
    if (document.getElementById("rr-update")) return;
    const notice = document.createElement("div");
    notice.id = "rr-update";
    notice.className = "rr-update";
    notice.setAttribute("role", "status");
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = "reload";
    button.addEventListener("click", () => waiting.postMessage("take over"));
    notice.append("A new version is ready — ", button);
    document.body.append(notice);
  }

  // the new worker took over at the reader's request: show its build
  navigator.serviceWorker.addEventListener("controllerchange", () => {
    if (hadWorker) location.reload();
  });

  async function register() {
    let registration;
    try {
      registration = await navigator.serviceWorker.register(new URL("sw.js", root), {
        scope: root.pathname,
      });
    } catch {
      return; // no worker (storage turned off, a private window): the site stays online-only
    }
    if (!registration) return; // a browser (or test harness) that blocks workers
    const watch = (worker) => {
      worker.addEventListener("statechange", () => {
        if (worker.state === "installed" && navigator.serviceWorker.controller) offer(worker);
      });
    };
    if (registration.waiting && navigator.serviceWorker.controller) offer(registration.waiting);
    if (registration.installing) watch(registration.installing);
    registration.addEventListener("updatefound", () => watch(registration.installing));
  }

  // after the page's own files: storing the site must not slow the first reading. The
  // Workbench downloads and starts Python first (4.5 MB, then 31 MB kept in the browser):
  // on its page the site is stored once Python has settled (its data-settled)
  function whenSettled() {
    const workbench = document.getElementById("rr-workbench");
    if (!workbench || workbench.dataset.settled) return register();
    new MutationObserver((_, observer) => {
      if (!workbench.dataset.settled) return;
      observer.disconnect();
      register();
    }).observe(workbench, { attributes: true, attributeFilter: ["data-settled"] });
  }
  if (document.readyState === "complete") whenSettled();
  else window.addEventListener("load", whenSettled);
})();
