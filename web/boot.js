// Thin glue that must run before anything else: pick the language, and turn any start-up
// failure into a readable message instead of a blank page.
//
// Python runs in a worker driven by glue.js. play.html waits for its table at once. The
// lobby starts the worker when the player presses Play (window.pygamesWait) or, before,
// when the page is idle on a connection that is not metered; glue.js then opens the table through window.pygamesOpen, or picks
// up window.pygamesPending when the worker is ready. Load progress is glue.js's too.
(function () {
  "use strict";
  var root = document.documentElement;
  var q = new URLSearchParams(location.search).get("lang");
  var saved = null;
  try { saved = localStorage.getItem("pygames.lang"); } catch (e) { /* private mode */ }
  var nav = (navigator.language || "en").toLowerCase();
  var lang = q || saved || (nav.indexOf("ja") === 0 ? "ja" : "en");
  root.lang = lang === "ja" ? "ja" : "en";
  // ?theme=light|dark|auto (auto: the system's choice); the stylesheet reads data-theme.
  var theme = new URLSearchParams(location.search).get("theme");
  if (theme === "auto") {
    theme = window.matchMedia && matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
  }
  if (theme === "dark" || theme === "light") root.dataset.theme = theme;

  var waiting = false;
  var failure = null;
  window.pygamesPending = "";

  function el(id) { return document.getElementById(id); }
  function tableOpen() { return root.dataset.table === "open"; }

  function showError(message) {
    if (el("load-error-text")) el("load-error-text").textContent = message;
    var open = el("load-error-open");  // an embed: the same board in the app, on our origin
    if (open && !open.dataset.query) {
      open.dataset.query = "true";
      open.href = open.getAttribute("href") + "?mode=replay&" + location.search.replace(/^\?/, "");
    }
    if (el("load-error")) el("load-error").hidden = false;
    if (el("loading")) el("loading").hidden = true;
    root.dataset.failed = "true";
  }

  function fail(message) {
    if (tableOpen()) return;
    failure = message;
    if (waiting) showError(message);
  }
  window.pygamesFail = fail;

  function startWaiting() {
    waiting = true;
    if (failure) showError(failure);
    setTimeout(function check() {
      if (!root.dataset.python) {  // Python has not started (an embed out of view): wait on
        setTimeout(check, 120000);
        return;
      }
      if (!tableOpen() && !failure) {
        fail(root.lang === "ja" ? "読み込みに時間がかかりすぎています。" : "Loading is taking too long.");
      }
    }, 120000);
  }

  // The lobby's Play button: open the table here as soon as Python can.
  window.pygamesWait = function (query) {
    if (failure) {  // Python did not start in the lobby: let the table page try on its own
      location.href = "./play.html?" + query;
      return;
    }
    window.pygamesPending = query;
    if (window.pygamesStart) window.pygamesStart();  // the runtime starts now, if not yet
    if (window.pygamesOpen) {
      window.pygamesOpen(query);
      return;
    }
    if (el("loading")) el("loading").hidden = false;
    startWaiting();
  };

  addEventListener("error", function (e) {
    fail((e && (e.message || (e.error && e.error.message))) || "load error");
  });
  addEventListener("unhandledrejection", function (e) {
    fail(String((e && e.reason && (e.reason.message || e.reason)) || "load error"));
  });
  // PyScript reports Python errors by adding a .py-error element to the page.
  new MutationObserver(function () {
    var err = document.querySelector(".py-error");
    if (err) fail(err.textContent);
  }).observe(root, { childList: true, subtree: true });

  document.addEventListener("DOMContentLoaded", function () {
    if (!el("lobby")) startWaiting();
  });
})();
