// Thin glue that must run before Python exists: pick the language, show load progress,
// and turn any start-up failure into a readable message instead of a blank page.
(function () {
  "use strict";
  var root = document.documentElement;
  var q = new URLSearchParams(location.search).get("lang");
  var saved = null;
  try { saved = localStorage.getItem("pygames.lang"); } catch (e) { /* private mode */ }
  var nav = (navigator.language || "en").toLowerCase();
  var lang = q || saved || (nav.indexOf("ja") === 0 ? "ja" : "en");
  root.lang = lang === "ja" ? "ja" : "en";

  var steps = 0;
  addEventListener("py:progress", function (e) {
    steps += 1;
    var bar = document.getElementById("load-progress");
    var detail = document.getElementById("load-detail");
    if (bar) bar.value = Math.min(steps, bar.max - 1);
    if (detail) detail.textContent = String(e.detail || "");
  });

  function fail(message) {
    if (root.dataset.ready === "true") return;
    var box = document.getElementById("load-error");
    var text = document.getElementById("load-error-text");
    var loading = document.getElementById("loading");
    if (!box) return;
    if (text) text.textContent = message;
    box.hidden = false;
    if (loading) loading.hidden = true;
    root.dataset.failed = "true";
  }
  window.pygamesFail = fail;
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
  }).observe(document.documentElement, { childList: true, subtree: true });
  setTimeout(function () {
    if (root.dataset.ready !== "true") {
      fail(root.lang === "ja" ? "読み込みに時間がかかりすぎています。" : "Loading is taking too long.");
    }
  }, 120000);
})();
