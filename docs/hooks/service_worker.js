// The site's service worker (docs/hooks/service_worker.py writes CACHE and FILES above).
// It stores the whole build on install and answers from that build's cache alone, so a
// page never mixes two builds; a new build waits until the page asks it to take over.
"use strict";

self.addEventListener("install", (event) => {
  // every file, fresh from the server (not the browser's HTTP cache), or none: a worker
  // whose build could not be stored whole never takes over
  event.waitUntil(
    caches.open(CACHE).then((cache) =>
      cache.addAll(FILES.map((file) => new Request(file, { cache: "reload" })))
    )
  );
});

self.addEventListener("activate", (event) => {
  // the new build is stored whole: the old ones go
  event.waitUntil(
    caches.keys().then((names) =>
      Promise.all(
        names.filter((name) => name.startsWith("rulesref-") && name !== CACHE)
          .map((name) => caches.delete(name))
      )
    )
  );
});

self.addEventListener("message", (event) => {
  if (event.data === "take over") self.skipWaiting();
});

self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== "GET" || url.origin !== self.location.origin) return;
  event.respondWith(
    caches.open(CACHE).then(async (cache) => {
      // a calculator's inputs ride in the query: the page is the same file. Only for an
      // address with a query (even a bare "?") is it ignored: a match that ignores it reads
      // every entry of the cache (about 100 ms a file here), an exact one goes to its own
      const stored = await cache.match(event.request, { ignoreSearch: event.request.url.includes("?") });
      return stored || fetch(event.request);
    })
  );
});
