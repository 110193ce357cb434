// Offline and updates: registers the service worker (sw.js) and, when a new version of the
// app is waiting, offers it in a small banner. It never switches by itself: only the
// player's "Reload to update" posts SKIP_WAITING to the waiting worker, which takes over
// (controllerchange), and then this page reloads. "Later" hides the banner; the next
// visit offers it again.
//
// The first registration waits until Python is up (or failed, or 15 s after it started
// loading), so the precache does not compete with the first start; once installed, the update check runs at once. Where there is no service worker to have (a cross-origin
// iframe with partitioned or blocked storage, a sandboxed frame, file://) nothing happens:
// every failure is caught and the page works as before.
//
// For tests: html[data-offline] is "ready" once an active service worker controls the
// page, and "update" while the banner is offered.
(function () {
  "use strict";
  var root = document.documentElement;
  // Beside this script, wherever the page is (a rules page's board is in docs/<lang>/).
  var script = new URL("./sw.js", (document.currentScript && document.currentScript.src) || location.href);
  var sw;
  try {
    sw = navigator.serviceWorker;
  } catch (e) {  // an opaque-origin (sandboxed) frame throws on the getter
    return;
  }
  if (!sw || !window.isSecureContext) return;

  var accepted = false;
  var banner = null;

  function span(lang, text) {
    var s = document.createElement("span");
    s.lang = lang;
    s.className = "l-" + lang;
    s.textContent = text;
    return s;
  }

  function button(action, en, ja) {
    var b = document.createElement("button");
    b.type = "button";
    b.dataset.update = action;
    b.append(span("en", en), span("ja", ja));
    return b;
  }

  function hide() {
    if (banner) banner.remove();
    banner = null;
    if (root.dataset.offline === "update") root.dataset.offline = "ready";
  }

  function offer(waiting) {
    if (banner || accepted) return;
    banner = document.createElement("div");
    banner.id = "update-banner";
    banner.className = "update-banner";
    banner.setAttribute("role", "status");
    banner.setAttribute("aria-live", "polite");
    var text = document.createElement("p");
    text.append(span("en", "A new version is ready."), span("ja", "新しいバージョンがあります。"));
    var reload = button("reload", "Reload to update", "再読み込みして更新");
    var later = button("later", "Later", "あとで");
    reload.classList.add("primary");
    reload.addEventListener("click", function () {
      accepted = true;
      reload.disabled = later.disabled = true;
      waiting.postMessage({ type: "SKIP_WAITING" });
    });
    later.addEventListener("click", hide);
    banner.addEventListener("keydown", function (e) {
      if (e.key === "Escape") hide();
    });
    var actions = document.createElement("p");
    actions.className = "actions";
    actions.append(reload, later);
    banner.append(text, actions);
    document.body.append(banner);
    root.dataset.offline = "update";
  }

  function watch(reg) {
    if (reg.waiting && sw.controller) offer(reg.waiting);
    reg.addEventListener("updatefound", function () {
      var installing = reg.installing;
      if (!installing) return;
      installing.addEventListener("statechange", function () {
        // Installed while an older version controls this page: it waits for the player.
        if (installing.state === "installed" && sw.controller) offer(installing);
      });
    });
  }

  sw.addEventListener("controllerchange", function () {
    if (accepted) location.reload();  // the player asked for the new version
  });

  function register() {
    var reg;
    try {
      reg = sw.register(script.href);
    } catch (e) {
      return;
    }
    reg.then(function (r) {
      if (!r) throw new Error("service workers are blocked in this browser");
      watch(r);
      return sw.ready;
    }).then(function () {
      if (sw.controller) root.dataset.offline = root.dataset.offline || "ready";
      else sw.addEventListener("controllerchange", function () {
        if (!root.dataset.offline) root.dataset.offline = "ready";
      });
    }).catch(function (e) {
      // Partitioned or blocked storage, an unsupported context: no offline, no harm.
      root.dataset.offline = "unavailable";
      if (window.console) console.info("pygames: no offline copy here:", e && e.message);
    });
  }

  // Once the page is drawn with Python behind it (html[data-ready], the lobby's or the
  // table's), or Python is up or failed, or 15 s after Python started loading, whichever
  // comes first, and never while the bot thinks: the first install hashes every file of
  // the app, and on a small machine that work took two thirds of the bot's second of
  // thought (#app[data-thinking]), and started with Python (before the table's first
  // drawing) it made that drawing and the next ones main-thread tasks of up to 150 ms
  // instead of 50-100 (2 cores, Chromium). A lobby that has not started Python (glue.js
  // waits for Play, or for an idle moment on a connection that is not metered) installs
  // nothing: the offline copy is the runtime's bytes too.
  var started = false, waited = false, timer = null;
  function pythonDone() {
    var state = root.dataset.python;
    return waited || root.dataset.ready === "true" || state === "ready" || state === "failed" ||
      Boolean(root.dataset.failed);
  }
  function botThinking() {
    var app = document.getElementById("app");
    return Boolean(app && app.dataset.thinking === "true");
  }
  function maybeStart() {
    if (!timer && root.dataset.python === "loading") {
      timer = setTimeout(function () { waited = true; maybeStart(); }, 15000);
    }
    if (!started && pythonDone() && !botThinking()) start();
  }
  function start() {
    if (started) return;
    started = true;
    observer.disconnect();
    register();
  }
  var observer = new MutationObserver(maybeStart);
  observer.observe(root, { attributes: true, subtree: true,
                           attributeFilter: ["data-python", "data-ready", "data-failed",
                                             "data-thinking"] });
  addEventListener("load", function () {
    if (!window.pygamesStart) start();  // a page without Python
    else maybeStart();
  });
  // Installed already (this page came from the cache): look for an update at once; that
  // fetches sw.js, and an update copies its unchanged files from the cache.
  if (sw.controller || root.dataset.ready === "true") start();
})();
