// The service worker: the whole app offline after the first visit (README, "Offline and
// installing"). Plain JS, no libraries.
//
// build.py (write_precache) writes dist/precache.json, {version, files: {path: sha256
// prefix}}, listing every file the app needs, and writes this file into dist/sw.js with
// VERSION below set to that version: any change to any listed file gives new bytes here,
// so the browser sees an update.
//
// - install: fetch precache.json (it must name this VERSION), then fill a new cache
//   "pygames-<VERSION>": a file whose hash an older cache holds is copied from there, the
//   rest is fetched (revalidated past the HTTP cache) and checked against its hash. Any
//   failure fails the install (the old version stays); the list itself goes in last, so a
//   cache holding it is complete.
// - the new worker then waits until the page asks it to take over (offline.js shows a
//   banner; the player's "Reload" posts SKIP_WAITING). The very first one activates at
//   once and claims the page, since there is nothing older to replace.
// - activate: delete every other "pygames-" cache of this scope (the switch is atomic: a
//   version's pages are only ever served from its own cache).
// - fetch: GET of a listed file on our origin → the cache (a page ignores its query:
//   play.html?game=... is play.html); anything else (other files, the link-play relay
//   /relay/..., other methods, other origins) → the network, never cached.
// - the deployment's settings (SETTINGS: peer.json, which whoever hosts dist/ may edit
//   after the build: README, "Deploy") are the one exception: fetched at install without
//   checking their hash, then served from the network first, the cached copy offline.
// - the scope is any folder of any origin (README, "Deploy"), and one origin may hold
//   several copies of the app: each scope's caches are its own, named by its path
//   ("pygames-<VERSION>" at the origin's root, "pygames-<VERSION>@/games/pygames/" there),
//   so one copy never deletes or refills another's.
"use strict";

const VERSION = "__PRECACHE_VERSION__";
const PREFIX = "pygames-";
const SCOPE_PATH = new URL(self.registration.scope).pathname;
const SUFFIX = SCOPE_PATH === "/" ? "" : "@" + SCOPE_PATH;
const CACHE = PREFIX + VERSION + SUFFIX;
const LIST = "precache.json";
const SETTINGS = new Set(["peer.json"]);

// One of this scope's caches (of any version), not another copy's of the app.
function ours(name) {
  const m = /^pygames-[0-9a-f]+(.*)$/.exec(name);
  return Boolean(m) && m[1] === SUFFIX;
}

// Files fetched and hashed one at a time: the install runs beside a page being played,
// and six at once made the table's drawings main-thread tasks of up to 150-200 ms on a
// 2-core machine (one at a time: up to about 110), for no faster install (0.8 s either way
// from 127.0.0.1, where the runtime's few big files dominate).
const PARALLEL = 1;

const scope = () => new URL(self.registration.scope);
const urlOf = (path) => new URL(path, scope()).href;

// The path of a request inside our scope ("play.html", "pyodide/pyodide.mjs"), or null.
function pathOf(url) {
  const base = scope();
  if (url.origin !== base.origin || !url.pathname.startsWith(base.pathname)) return null;
  const rel = decodeURIComponent(url.pathname.slice(base.pathname.length));
  return rel === "" || rel.endsWith("/") ? rel + "index.html" : rel;
}

async function sha256Prefix(buffer, length) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", buffer));
  let hex = "";
  for (const b of digest) hex += b.toString(16).padStart(2, "0");
  return hex.slice(0, length);
}

// {hash: [cache name, path]} of every complete older cache of ours.
async function olderCopies() {
  const found = new Map();
  for (const name of await caches.keys()) {
    if (!ours(name) || name === CACHE) continue;
    const cache = await caches.open(name);
    const listed = await cache.match(urlOf(LIST));
    if (!listed) continue;  // incomplete (an install that failed): ignore it
    let list;
    try { list = await listed.json(); } catch (e) { continue; }
    for (const [path, hash] of Object.entries(list.files || {})) {
      if (!found.has(path + "\0" + hash)) found.set(path + "\0" + hash, [cache, path]);
    }
  }
  return found;
}

async function precacheOne(cache, older, path, hash) {
  const url = urlOf(path);
  if (SETTINGS.has(path)) {  // as the host has it now (edited or not); none is no failure
    const response = await fetch(url, { cache: "no-cache", credentials: "same-origin" });
    if (response.ok) await cache.put(url, response);
    return "fetched";
  }
  const old = older.get(path + "\0" + hash);
  if (old) {
    const hit = await old[0].match(urlOf(old[1]));
    if (hit) { await cache.put(url, hit); return "copied"; }
  }
  const response = await fetch(url, { cache: "no-cache", credentials: "same-origin" });
  if (!response.ok) throw new Error(`precache: ${path}: HTTP ${response.status}`);
  const body = await response.clone().arrayBuffer();
  const got = await sha256Prefix(body, hash.length);
  if (got !== hash) throw new Error(`precache: ${path} changed while installing (${got}, not ${hash})`);
  await cache.put(url, response);
  return "fetched";
}

async function install() {
  const response = await fetch(urlOf(LIST), { cache: "no-store", credentials: "same-origin" });
  if (!response.ok) throw new Error(`precache: ${LIST}: HTTP ${response.status}`);
  const text = await response.text();
  const list = JSON.parse(text);
  if (list.version !== VERSION) throw new Error(`precache: ${LIST} is ${list.version}, not ${VERSION}`);
  await caches.delete(CACHE);  // a half-filled cache of an earlier failed install
  const cache = await caches.open(CACHE);
  const older = await olderCopies();
  const todo = Object.entries(list.files);
  const counts = { copied: 0, fetched: 0 };
  async function lane() {
    while (todo.length) {
      const [path, hash] = todo.shift();
      counts[await precacheOne(cache, older, path, hash)] += 1;
    }
  }
  await Promise.all(Array.from({ length: PARALLEL }, lane));
  await cache.put(urlOf(LIST), new Response(text, { headers: { "Content-Type": "application/json" } }));
  return counts;
}

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    await install();
    // Nothing to replace: take the page at once. Otherwise wait for the player's word.
    if (!self.registration.active) await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (ours(name) && name !== CACHE) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

self.addEventListener("message", (event) => {
  const data = event.data || {};
  if (data.type === "SKIP_WAITING") self.skipWaiting();
  else if (data.type === "VERSION" && event.ports[0]) event.ports[0].postMessage(VERSION);
});

let listed = null;  // the set of precached paths, read once from our own cache

async function precached() {
  if (!listed) {
    const cache = await caches.open(CACHE);
    const hit = await cache.match(urlOf(LIST));
    if (!hit) return new Set();  // not installed yet (or the cache was cleared)
    listed = new Set(Object.keys((await hit.json()).files));
  }
  return listed;
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  const path = pathOf(url);
  if (path === null || path.startsWith("relay/") || path === LIST || path === "sw.js") return;
  if (SETTINGS.has(path)) {  // the network's copy (kept for offline), else the kept one
    event.respondWith((async () => {
      const cache = await caches.open(CACHE);
      try {
        const response = await fetch(request);
        if (response.ok) await cache.put(urlOf(path), response.clone());
        return response;
      } catch (err) {
        const kept = await cache.match(urlOf(path));
        if (kept) return kept;
        throw err;
      }
    })());
    return;
  }
  event.respondWith((async () => {
    if ((await precached()).has(path)) {
      const cache = await caches.open(CACHE);
      const hit = await cache.match(urlOf(path), { ignoreSearch: true });
      if (hit) return hit;
    }
    return fetch(request);
  })());
});
