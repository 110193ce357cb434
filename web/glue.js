// Main-thread glue of the Python worker: the page's only link to Python.
//
// Python (the engines and the table, pgui) runs in a PyScript worker (worker.py), so the
// main thread never waits for it. This file only draws what the worker renders:
//
// - it waits for the worker (script.xworker.ready; py:ready does not fire for workers
//   without cross-origin isolation) and shows staged load progress meanwhile;
// - it opens the table: play.html its own query at once, the lobby the query of Play
//   (window.pygamesWait in boot.js) as soon as the worker is ready, in place;
// - it puts the worker's HTML into #app, sends each [data-cmd] click back, keeps focus
//   where the player was and the log at its newest line, and paces reveal playback;
// - it hands the worker what only a page has: the saved language (localStorage) and the
//   browser's language.
//
// Every worker call returns JSON: {html, animating, over, lang, title, delay}, or
// {error, heading, reason, lang} for a link that cannot be opened (pgui/session_glue.py).
(function () {
  "use strict";
  var root = document.documentElement;
  var STORE = "pygames.lang";
  // Staged progress: [first value, ceiling the bar creeps towards while in this stage].
  var STAGES = { page: [4, 14], runtime: [15, 84], games: [85, 96], ready: [100, 100] };
  var stage = "";
  var creep = null;
  var worker = null;
  var queue = Promise.resolve();
  var busy = 0;
  var heldCmd = "";  // data-cmd focused when the table went inert
  var timer = null;
  var app = null;

  function el(id) { return document.getElementById(id); }

  function savedLang() {
    try { return localStorage.getItem(STORE) || ""; } catch (e) { return ""; }
  }

  // ---------------------------------------------------------------- load progress

  function setStage(name) {
    if (stage === "ready" || stage === "failed") return;
    stage = name;
    if (performance.mark) performance.mark("pygames:" + name);  // for the benchmark
    root.dataset.python = name === "ready" ? "ready" : "loading";
    root.dataset.pythonStage = name;
    var bar = el("load-progress");
    var range = STAGES[name];
    if (bar && range) bar.value = Math.max(Number(bar.value) || 0, range[0]);
    document.querySelectorAll("[data-stage]").forEach(function (s) {
      s.hidden = s.getAttribute("data-stage") !== name;
    });
    if (!creep && name !== "ready") creep = setInterval(creepBar, 100);
    if (name === "ready" && creep) { clearInterval(creep); creep = null; }
  }

  // Between two stages the bar keeps moving, slower and slower, never past the stage.
  function creepBar() {
    var bar = el("load-progress");
    var range = STAGES[stage];
    if (!bar || !range) return;
    var value = Number(bar.value) || 0;
    bar.value = value + (range[1] - value) * 0.04;
  }

  function failed(message) {
    if (creep) { clearInterval(creep); creep = null; }
    stage = "failed";
    root.dataset.python = "failed";
    if (window.pygamesFail) window.pygamesFail(message);
  }

  // ---------------------------------------------------------------- the worker

  // The worker (pyworker.mjs) beside this script. Embeds share one (a SharedWorker: every
  // board of a page on one runtime) where the browser allows it; a page of its own, or a
  // browser without SharedWorker (or refusing it, as some do in a cross-site iframe), gets
  // a dedicated one. Its messages: pyworker.mjs.
  var here = (document.currentScript && document.currentScript.src) || location.href;
  var calls = {};
  var nextCall = 0;
  var started = false;

  function connect(share, bootMode) {
    var url = new URL("./pyworker.mjs", here);
    // ?boot=snapshot|bare: how Python starts (default: from the memory snapshot when the
    // browser has it already), for comparing them (README, "Options").
    bootMode = bootMode || new URLSearchParams(location.search).get("boot");
    if (bootMode === "snapshot" || bootMode === "bare") url.searchParams.set("boot", bootMode);
    if (share && typeof SharedWorker === "function") {
      try {
        var shared = new SharedWorker(url, { type: "module", name: "pygames" });
        shared.port.start();
        return { port: shared.port, events: shared, shared: true, share: share,
                 stop: function () { shared.port.close(); } };
      } catch (e) { /* refused here: a worker of this page's own */ }
    }
    var w = new Worker(url, { type: "module", name: "pygames" });
    return { port: w, events: w, shared: false, share: share,
             stop: function () { w.terminate(); } };
  }

  function start() {
    if (started) return;
    started = true;
    setStage("page");
    try {
      attach(connect(root.dataset.page === "embed"));
    } catch (e) {
      failed(String((e && e.message) || e));
    }
  }

  function attach(link) {
    var heard = false;
    setStage("runtime");
    root.dataset.pythonWorker = link.shared ? "shared" : "dedicated";
    link.port.onmessage = function (e) {
      heard = true;
      var data = e.data || {};
      if (data.runtime) {  // which runtime answers this page (tests count them)
        root.dataset.pythonRuntime = data.runtime.id;
      } else if (data.failed) {
        if (data.retry === "bare" && !link.retried) {  // the snapshot failed: start bare
          link.retried = true;
          link.port.onmessage = null;
          link.stop();
          attach(connect(link.share, "bare"));
        } else if (stage !== "ready") {
          failed(data.failed);
        }
      } else if (data.stage) {
        if (data.stage === "ready") {
          if (data.boot) {  // how Python started, for tests and the benchmark
            root.dataset.pythonBoot = data.boot.snapshot ? "snapshot" : "bare";
            root.dataset.pythonBootMs = data.boot.ms;
          }
          if (stage !== "ready") {
            worker = link.port;
            setStage("ready");
            whenReady();
          }
        } else if (data.stage !== "runtime") {
          setStage(data.stage);
        }
      } else if (data.id in calls) {
        var pending = calls[data.id];
        delete calls[data.id];
        if ("error" in data) pending[1](new Error(data.error));
        else pending[0](data.result);
      }
    };
    link.events.addEventListener("error", function (e) {  // the worker script itself failed
      if (link.shared && !heard) {  // a browser that refuses shared workers in this frame
        link.port.onmessage = null;  // (a cross-site one without storage): one of our own
        attach(connect(false));
        return;
      }
      if (stage !== "ready") failed((e && e.message) || "the Python worker failed to start");
    });
    addEventListener("pagehide", function (e) {
      if (!e.persisted) link.port.postMessage({ bye: true });
    });
  }
  window.pygamesStart = start;

  function post(name, args) {
    return new Promise(function (ok, fail) {
      var id = nextCall++;
      calls[id] = [ok, fail];
      worker.postMessage({ id: id, name: name, args: args });
    });
  }

  // Worker calls run one after the other, in click order. When none is on its way the
  // call is posted at once, not after the task that made it (a redraw), so the worker
  // (a bot thinking) never waits for the page.
  var inFlight = 0;

  function call(name, args) {
    var run = function () { return post(name, args); };
    inFlight += 1;
    var job = (inFlight === 1 ? new Promise(function (ok) { ok(run()); }) : queue.then(run))
      .then(JSON.parse);
    var done = function () { inFlight -= 1; };
    queue = job.then(done, done);  // before the caller's own callbacks run
    return job;
  }

  // While a click is on its way to Python the table on screen is stale: it is inert (no
  // pointer, key or focus reaches it, and nothing on it looks clickable to a script) and
  // #app[data-animating] says "true" (not settled) until the new table is drawn. Focus
  // then comes back where the player was.
  function command(name, args) {
    if (busy === 0) {
      var focused = document.activeElement;
      heldCmd = (focused && app.contains(focused) && focused.getAttribute("data-cmd")) || "";
    }
    busy += 1;
    app.inert = true;
    app.dataset.busy = "true";
    app.dataset.animating = "true";  // not settled: wait for the table Python sends back
    return call(name, args).then(function (r) {
      release();
      return r;
    }, function (err) {
      release();
      throw err;
    });
  }

  function release() {
    busy -= 1;
    if (busy > 0) return;
    app.inert = false;
    app.dataset.busy = "false";
  }

  // ---------------------------------------------------------------- the table

  var lastHtml = null;
  var queued = "";  // a click on a board's first frame, made before Python was ready

  function render(r) {
    lastHtml = r.html;
    var focused = document.activeElement;
    var focusCmd = (focused && focused.getAttribute && focused.getAttribute("data-cmd")) || "";
    if (heldCmd && !(focused && app.contains(focused))) focusCmd = heldCmd;  // was inert
    if (busy === 0) heldCmd = "";
    var typed = {};  // what the player is typing (a pasted code) survives a redraw
    app.querySelectorAll("textarea[id]:not([readonly])").forEach(function (f) { typed[f.id] = f.value; });
    var opened = {};  // and so does every panel the player opened or closed (log, rules...)
    app.querySelectorAll("details").forEach(function (d, i) {
      opened[(d.className || "") + ":" + i] = d.open;
    });
    app.innerHTML = r.html;
    app.querySelectorAll("details").forEach(function (d, i) {
      var key = (d.className || "") + ":" + i;
      if (key in opened) d.open = opened[key];
    });
    Object.keys(typed).forEach(function (id) {
      var f = el(id);
      if (f && !f.readOnly) f.value = typed[id];
    });
    if (navigator.share) {
      app.querySelectorAll('[data-link-cmd="share"]').forEach(function (b) { b.hidden = false; });
    }
    app.dataset.animating = r.animating || busy > 0 ? "true" : "false";
    app.dataset.over = r.over ? "true" : "false";
    app.dataset.thinking = r.thinking ? "true" : "false";  // offline.js waits while it is
    if (r.bot) {  // the bot's last search, for tests and the benchmark
      app.dataset.botMoves = r.bot.n;  // how many moves the bots have made at this table
      app.dataset.botIterations = r.bot.iterations;
      app.dataset.botMs = r.bot.ms;
      app.dataset.botWaited = r.bot.waited;
    }
    root.lang = r.lang;
    document.title = r.title + " — pygames";
    var log = app.querySelector(".log-lines");
    if (log) log.scrollTop = log.scrollHeight;  // keep the newest line in view
    moveInView();
    revealInView();
    var target = app.querySelector(".overlay [autofocus]");
    if (!target && focusCmd) {
      var all = app.querySelectorAll("[data-cmd]");
      for (var i = 0; i < all.length; i++) {
        if (all[i].getAttribute("data-cmd") === focusCmd && !all[i].disabled) {
          target = all[i];
          break;
        }
      }
      if (!target) {
        target = app.querySelector(
          ".controls button:not([disabled]), .hand button:not([disabled])") ||
          app.querySelector(".main button[data-cmd]:not([disabled])");  // any game's table
      }
    }
    // Focus never scrolls: the status line and a reveal stay where the player sees them.
    if (target) target.focus({ preventScroll: !target.closest(".overlay") });
  }

  // What a playback step reveals ([data-reveal], which the table marks: the cards turned
  // over) is brought on screen when it is newly shown and not already in view, clear of
  // the sticky bar and status line (its CSS scroll-margin says by how much): smoothly,
  // unless the player asked for reduced motion, and never moving focus. Not scrollIntoView,
  // which would scroll an embed's parent page too: the page itself scrolls, and so does a
  // box of the table that scrolls sideways (a long row of cards).
  var shownReveal = "";

  function revealInView() {
    var target = app && app.querySelector("[data-reveal]");
    var key = target ? target.getAttribute("data-reveal") : "";
    if (key === shownReveal) return;  // still the same step's: the player may look elsewhere
    shownReveal = key;
    if (!target) return;
    var motion = window.matchMedia && matchMedia("(prefers-reduced-motion: reduce)").matches
      ? "auto" : "smooth";
    var style = getComputedStyle(target);
    var box = target.parentElement;  // sideways first, in the box that scrolls it
    while (box && box !== app && !(box.scrollWidth > box.clientWidth + 1 &&
           /(auto|scroll)/.test(getComputedStyle(box).overflowX))) box = box.parentElement;
    if (box && box !== app) {
      var outer = box.getBoundingClientRect(), r = target.getBoundingClientRect();
      var dx = r.left < outer.left ? r.left - outer.left
        : r.right > outer.right ? Math.min(r.right - outer.right, r.left - outer.left) : 0;
      if (dx) box.scrollBy({ left: dx, behavior: motion });
    }
    var rect = target.getBoundingClientRect();
    if (!rect.height) return;
    var top = 0, bottom = innerHeight;  // what the sticky bar and status line leave free
    app.querySelectorAll(".bar, [data-status]").forEach(function (el) {
      if (el.contains(target) || !/^(sticky|fixed)$/.test(getComputedStyle(el).position)) return;
      var s = el.getBoundingClientRect();
      if (!s.height || s.bottom <= rect.top || s.top >= rect.bottom) return;  // not over it
      if (s.top <= 1) top = Math.max(top, s.bottom);
      else bottom = Math.min(bottom, s.top);
    });
    if (rect.top >= top && rect.bottom <= bottom) return;  // in view: never scroll
    var above = Math.max(parseFloat(style.scrollMarginTop) || 0, top);
    var below = Math.max(parseFloat(style.scrollMarginBottom) || 0, innerHeight - bottom);
    var dy = rect.top < top ? rect.top - above
      : Math.min(rect.bottom - (innerHeight - below), rect.top - above);
    if (dy) window.scrollBy({ top: dy, behavior: motion });
  }

  // A replay: keep the move on screen in view inside its list, also when the page (an
  // embed's iframe) is resized. Not scrollIntoView, which would scroll the page too, and an
  // embed's parent page with it.
  function moveInView() {
    var list = app && app.querySelector(".move-list");
    var step = list && list.querySelector('[aria-current="step"]');
    if (!step) return;
    var top = step.offsetTop;  // .move-list is positioned: relative to the list
    if (top < list.scrollTop || top + step.offsetHeight > list.scrollTop + list.clientHeight) {
      list.scrollTop = Math.max(0, top - (list.clientHeight - step.offsetHeight) / 2);
    }
  }
  addEventListener("resize", moveInView);
  if (window.ResizeObserver) {  // the list's own box changes too (the table grows beside it)
    new ResizeObserver(moveInView).observe(document.documentElement);
  }

  function schedule(r) {
    if (timer !== null) { clearTimeout(timer); timer = null; }
    if (r.animating) timer = setTimeout(tick, r.delay);
  }

  // A game's own stylesheet (its UI module's STYLESHEET), added once after app.css; the
  // promise settles when it has loaded (or failed: the table still works, less styled).
  var sheets = {};

  function stylesheet(href) {
    if (!href) return Promise.resolve();
    if (!sheets[href] && document.querySelector('link[data-game][href$="' + href.replace(/^\.\//, "/") + '"]')) {
      sheets[href] = Promise.resolve();  // a board page has it from the start
    }
    if (!sheets[href]) {
      sheets[href] = new Promise(function (resolve) {
        var link = document.createElement("link");
        link.rel = "stylesheet";
        link.href = new URL(href, here).href;  // from the top of the app, wherever the page is
        link.dataset.game = "true";
        link.onload = link.onerror = function () { resolve(); };
        setTimeout(resolve, 5000);  // never keep the table waiting on a stylesheet
        document.head.appendChild(link);
      });
    }
    return sheets[href];
  }

  function show(r) {
    stylesheet(r.css);
    if (r.thinking) scheduleThink();  // first: the bot thinks while the page draws
    keepLocal(r);
    toolStore(r);
    linkPlay(r);
    render(r);
    schedule(r);
  }

  // What the player did not ask for (the bot's move, the friend's) waits while a finger or
  // the mouse is down on the table, so a redraw never swallows a click half made.
  var pressed = false;
  var pending = null;

  function showSoon(r) {
    if (pressed) {
      // Only the drawing waits: what to send and keep goes now, since a newer result
      // replaces this one as the one to draw (its messages would be lost with it).
      keepLocal(r);
      linkPlay(r);
      r.sends = [];
      r.save = null;
      pending = r;
      return;
    }
    show(r);
  }

  function released() {
    pressed = false;
    if (pending) {
      var r = pending;
      pending = null;
      setTimeout(function () { if (!pressed) show(r); else pending = r; }, 0);
    }
  }

  // A bot thinks in the worker a slice (~40 ms) at a time, so a click waits at most one
  // slice: the page asks for the next slice as soon as one ends (a click in between is
  // queued before it) until the bot has moved.
  var thinkAsked = false;

  function scheduleThink() {
    if (thinkAsked) return;
    thinkAsked = true;
    call("think", []).then(function (r) {
      thinkAsked = false;
      if (r.changed) showSoon(r);
      else if (r.thinking) scheduleThink();
    }, function (err) {
      thinkAsked = false;
      report(err);
    });
  }

  // Local games (bot, pass and play) are kept in this browser after every action
  // (pgui/saved.py): the worker says what to write (r.local.text, only when the game
  // changed); the address then names the game (&resume=<id>) so a reload reopens it. A
  // browser that will not store it gets one notice, and play goes on unsaved.
  var kept = {};  // ids of the saved games this page wrote or read
  var noticeShown = false;

  function keepLocal(r) {
    var l = r.local;
    if (!l) return;
    if (l.text) {
      if (store(l.key, l.text)) kept[l.id] = true;
      else storageNotice(l);
    }
    var params = new URLSearchParams(location.search);
    if (kept[l.id]) params.set("resume", l.id);
    else params.delete("resume");
    var search = "?" + params.toString();
    if (search !== location.search && /play\.html$/.test(location.pathname)) {
      history.replaceState(history.state, "", location.pathname + search + location.hash);
    }
  }

  // Write a saved game; when storage is full, make room by deleting the oldest finished
  // games (never one in progress, never this one) and try again (pgui/saved.py).
  function store(key, text) {
    for (;;) {
      try {
        localStorage.setItem(key, text);
        return true;
      } catch (e) {
        if (!forgetOldestFinished(key)) return false;
      }
    }
  }

  function forgetOldestFinished(keep) {
    var oldest = null, when = Infinity;
    try {
      for (var i = 0; i < localStorage.length; i++) {
        var k = localStorage.key(i);
        if (!k || k === keep || k.indexOf("pygames.saved.") !== 0) continue;
        var env = null;
        try { env = JSON.parse(localStorage.getItem(k)); } catch (e) { continue; }
        if (!env || env.kind !== "pygames.saved" || env.over !== true) continue;
        var t = Number(env.updated) || 0;
        if (t < when) { when = t; oldest = k; }
      }
      if (oldest === null) return false;
      localStorage.removeItem(oldest);
      return true;
    } catch (e) {
      return false;  // storage blocked altogether
    }
  }

  function storageNotice(l) {
    if (noticeShown) return;
    noticeShown = true;
    var box = document.createElement("div");
    box.className = "save-notice";
    box.setAttribute("role", "status");
    app.parentNode.insertBefore(box, app);  // above the table, covering nothing
    var text = document.createElement("p");
    var close = document.createElement("button");
    close.type = "button";
    close.textContent = l.close;
    close.addEventListener("click", function () { box.remove(); });
    text.textContent = l.failed;
    box.appendChild(text);
    box.appendChild(close);
  }

  // A game's tool (pgui/tools.py: a deck builder) says what to write or remove in this
  // browser's storage; a write that fails (full, blocked) is told back to it, which says so
  // in the player's language.
  function toolStore(r) {
    (r.store || []).forEach(function (op) {
      try {
        if (op.op === "set") localStorage.setItem(op.key, op.text);
        else localStorage.removeItem(op.key);
      } catch (e) {
        command("command", ["store-failed:" + op.key]).then(show, report);
      }
    });
  }

  // Link play (peer.js): the worker's session says what to send, what to keep in storage
  // and how to connect; the page does it.
  function linkPlay(r) {
    if (!r.peer || !window.pygamesPeer) return;
    if (r.save) {
      try { localStorage.setItem(r.save.key, r.save.text); } catch (e) { /* storage blocked */ }
    }
    if (r.peer.fragment && location.hash.slice(1) !== r.peer.fragment) {
      history.replaceState(null, "", location.pathname + location.search + "#" + r.peer.fragment);
    }
    window.pygamesPeer.update(r.peer);
    if (r.sends && r.sends.length) window.pygamesPeer.send(r.sends);
  }

  function peerEvent(kind, peer, text) {
    return call("peer", [kind, peer || "", text || ""]).then(function (r) {
      if (r.html === lastHtml && busy === 0) {  // nothing to redraw (a tick, a resync)
        linkPlay(r);
        schedule(r);
        if (r.thinking) scheduleThink();  // a friend's move made it a bot's turn (host)
        return;
      }
      showSoon(r);
    }, report);
  }

  function report(err) {
    console.error("pygames: the Python worker failed:", err);
  }

  function tick() {
    timer = null;
    call("advance", []).then(showSoon, report);
  }

  // A [data-copy-from] button copies the text of the element its value names (a link, an
  // embed snippet, a record) and says so in its [data-copied] status.
  function copyText(button) {
    var source = document.getElementById(button.getAttribute("data-copy-from"));
    if (!source) return;
    var text = "value" in source ? source.value : source.textContent;
    var status = button.parentNode.querySelector("[data-copied]");
    function done(ok) {
      if (status) status.textContent = ok ? status.getAttribute("data-copied") : status.getAttribute("data-copy-failed");
    }
    function fallback() {
      try {
        if (source.select) source.select();
        done(document.execCommand("copy"));
      } catch (err) { done(false); }
    }
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(text).then(function () { done(true); }, fallback);
    } else {
      fallback();
    }
  }

  // Keys a table maps to commands ([data-keys]: the replay's arrows, Home and End).
  function onKey(e) {
    if (e.altKey || e.ctrlKey || e.metaKey || !worker || root.dataset.table !== "open") return;
    var tag = (e.target && e.target.tagName) || "";
    if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") return;
    var holder = app.querySelector("[data-keys]");
    if (!holder) return;
    var keys = {};
    try { keys = JSON.parse(holder.getAttribute("data-keys")); } catch (err) { return; }
    var cmd = keys[e.key];
    if (!cmd) return;
    e.preventDefault();
    if (timer !== null) { clearTimeout(timer); timer = null; }
    command("command", [cmd]).then(show, report);
  }

  // Inside an iframe the page tells its parent how tall it is, whenever that changes:
  // {type: "pygames:height", height: <CSS px>} (README, "Embedding").
  function tellHeight() {
    if (window.parent === window || !window.ResizeObserver) return;
    var last = 0;
    new ResizeObserver(function () {
      var height = Math.ceil(document.body.getBoundingClientRect().height);
      if (height === last) return;
      last = height;
      window.parent.postMessage({ type: "pygames:height", height: height }, "*");
    }).observe(document.body);
  }

  function onClick(e) {
    var copy = e.target.closest("[data-copy-from]");
    if (copy) {
      copyText(copy);
      return;
    }
    var linkCmd = e.target.closest("[data-link-cmd]");
    if (linkCmd && window.pygamesPeer) {
      window.pygamesPeer.command(linkCmd);
      return;
    }
    var target = e.target.closest("[data-cmd]");
    if (target && !target.disabled && app.dataset.static === "true") {
      queued = target.getAttribute("data-cmd");  // a board's first frame: Python is on its way
      start();
      return;
    }
    if (!target || target.disabled || !worker || root.dataset.table !== "open") return;
    var cmd = target.getAttribute("data-cmd");
    // What the player typed goes with the click (data-with: field ids; pgui/tools.py).
    (target.getAttribute("data-with") || "").split(" ").forEach(function (id) {
      var field = id && el(id);
      if (field) cmd += "\n" + String(field.value).replace(/\n/g, " ");
    });
    if (timer !== null) { clearTimeout(timer); timer = null; }
    command("command", [cmd]).then(function (r) {
      if (cmd.indexOf("lang:") === 0) {
        try { localStorage.setItem(STORE, r.lang); } catch (err) { /* storage blocked */ }
        // The address says the language too, so a reload or a shared link keeps it.
        var params = new URLSearchParams(location.search);
        if (params.has("lang") && params.get("lang") !== r.lang) {
          params.set("lang", r.lang);
          history.replaceState(history.state, "", location.pathname + "?" + params.toString()
                               + location.hash);
        }
      }
      show(r);
    }, report);
  }

  // Start the table a query names and show it (a bad link gets the readable error).
  function open(query) {
    query = String(query || "").replace(/^\?/, "");
    // The embed page is always a replay with minimal chrome, whatever its query says.
    if (root.dataset.page === "embed") query = "mode=replay&embed=on&" + query;
    var link = linkStorage(query);
    var page = new URL("./play.html", here).href;
    command("open_table", [query, savedLang(), navigator.language || "en", link.fragment,
                           link.stored, page]).then(function (r) {
      if (r.error) {  // the error screen: what could not be done, then the actual problem
        root.lang = r.lang;
        var heading = el("load-error-title");
        if (heading && r.heading) heading.textContent = r.heading;
        window.pygamesFail(r.heading ? r.reason : r.error);
        return;
      }
      var lobby = el("lobby");
      if (lobby) {  // opened in place from the lobby: the address becomes the table's own
        lobby.hidden = true;
        history.pushState(null, "", "./play.html?" + query);
      }
      if (r.peer) root.dataset.linkRole = r.peer.role;
      return stylesheet(r.css).then(function () {  // the table appears with its own look
        el("loading").hidden = true;
        app.hidden = false;
        delete app.dataset.static;
        root.dataset.table = "open";
        show(r);
        root.dataset.ready = "true";
        if (queued) {  // the click made on the first frame, now that the table is live
          var cmd = queued;
          queued = "";
          command("command", [cmd]).then(show, report);
        }
      });
    }, function (err) {
      failed(String((err && (err.message || err)) || "the table could not start"));
    });
  }

  // Link play: the address's fragment (room and key, never sent to a server) and the
  // session this browser kept for that room (pgui/link.py names the key).
  function linkStorage(query) {
    var mode = new URLSearchParams(query).get("mode");
    var friends = (new URLSearchParams(query).get("seats") || "").split(",").indexOf("link") >= 0;
    var role = mode === "join" ? "guest" : mode === "watch" ? "watch"
      : mode === "link" || friends ? "host" : "";
    var fragment = role ? location.hash.replace(/^#/, "") : "";
    var room = new URLSearchParams(fragment).get("r") || (new URLSearchParams(fragment).get("o") ? "manual" : "");
    var seat = role === "guest" && /^\d{1,2}$/.test(new URLSearchParams(fragment).get("s") || "")
      ? "-" + new URLSearchParams(fragment).get("s") : "";  // a friend's own seat (link.py)
    var stored = "";
    if (role && role !== "watch" && room) {  // a spectator keeps nothing: it watches again
      try { stored = localStorage.getItem("pygames.link." + room + "." + role + seat) || ""; } catch (e) { /* blocked */ }
    }
    var params = new URLSearchParams(query);
    if (params.get("tool")) {  // a game's tool: its entries (pgui/tools.py), {key: text}
      var start = "pygames." + params.get("game") + "." + params.get("tool") + ".", found = {};
      try {
        for (var i = 0; i < localStorage.length; i++) {
          var key = localStorage.key(i);
          if (key && key.indexOf(start) === 0) found[key] = localStorage.getItem(key);
        }
        stored = JSON.stringify(found);
      } catch (e) { stored = ""; /* blocked: the tool starts with nothing saved */ }
      return { fragment: "", stored: stored };
    }
    var resume = new URLSearchParams(query).get("resume");
    if (!role && resume) {  // a saved local game (pgui/saved.py)
      try { stored = localStorage.getItem("pygames.saved." + resume) || ""; } catch (e) { /* blocked */ }
      if (stored) kept[resume] = true;
    }
    return { fragment: fragment, stored: stored };
  }

  function whenReady() {
    if (window.pygamesPeer) {
      window.pygamesPeer.bind(peerEvent);
    }
    if (el("lobby")) {
      window.pygamesOpen = open;
      if (window.pygamesPending) open(window.pygamesPending);  // Play came first
    } else {
      open(location.search);
    }
  }

  // The share panel's embed preview is as tall as its content, as a blog's iframe with
  // the embed code's script would be (the embed reports its height: tellHeight), up to
  // PREVIEW_MAX CSS px (beyond, it scrolls inside), so a runaway report cannot stretch the
  // page. Only from that iframe's own page.
  var PREVIEW_MAX = 2400;

  function onPreviewHeight(e) {
    if (!e.data || e.data.type !== "pygames:height") return;
    var height = Number(e.data.height);
    if (!(height > 0)) return;
    document.querySelectorAll("details[data-preview] iframe").forEach(function (f) {
      if (f.contentWindow === e.source) f.style.height = Math.min(Math.ceil(height), PREVIEW_MAX) + "px";
    });
  }

  // The share panel's embed preview loads only when opened; a record file is read into
  // the box that opens it (the only thing here a page cannot do without a script).
  function onToggle(e) {
    var d = e.target;
    if (!d || !d.matches || !d.matches("details[data-preview]") || !d.open) return;
    var frame = d.querySelector(".frame");
    if (!frame || frame.querySelector("iframe")) return;
    var iframe = document.createElement("iframe");
    iframe.src = d.getAttribute("data-preview");
    iframe.title = d.querySelector("summary").textContent;
    frame.appendChild(iframe);
  }

  function onFile(e) {
    var input = e.target;
    if (!input || !input.matches || !input.matches("input[type=file][data-file-into]")) return;
    var box = document.getElementById(input.getAttribute("data-file-into"));
    var file = input.files && input.files[0];
    if (!box || !file) return;
    file.text().then(function (text) { box.value = text; }, report);
  }

  // Back and Forward show the page the address names: the lobby opens a table in place
  // (pushState), and after a reload that entry's page is no longer this document's. Both
  // listen from the first moment (a Back that lands while the page still loads), and a page
  // the browser restores from its cache showing the lobby at a table's address reloads too.
  window.addEventListener("popstate", function () { location.reload(); });
  window.addEventListener("pageshow", function () {
    var lobby = document.getElementById("lobby");
    if (lobby && !lobby.hidden && /play\.html$/.test(location.pathname)) location.reload();
  });

  function init() {
    document.addEventListener("toggle", onToggle, true);
    addEventListener("message", onPreviewHeight);
    document.addEventListener("change", onFile);
    app = el("app");
    if (!app) return;
    app.addEventListener("click", onClick);
    app.addEventListener("keydown", function (e) {  // Enter in a field presses its button
      var field = e.target;
      if (e.key !== "Enter" || !field.matches || !field.matches("input[data-enter]")) return;
      var button = el(field.getAttribute("data-enter"));
      if (button && !button.disabled) { e.preventDefault(); button.click(); }
    });
    document.addEventListener("keydown", onKey);
    tellHeight();
    app.addEventListener("pointerdown", function () { pressed = true; });
    document.addEventListener("pointerup", released);
    document.addEventListener("pointercancel", released);
    if (el("lobby")) startWhenIdle();
    else if (root.dataset.page === "embed") startInView();
    else start();
  }

  // The lobby is usable without Python: the runtime (several MB) is fetched when the
  // player presses Play (boot.js calls pygamesStart), or before, once the page is idle,
  // unless the browser asks to save data or the connection is a slow one.
  function startWhenIdle() {
    var c = navigator.connection;
    if (c && (c.saveData || /(^|-)2g$/.test(c.effectiveType || ""))) return;
    if (window.requestIdleCallback) requestIdleCallback(start, { timeout: 4000 });
    else setTimeout(start, 1000);
  }

  // An embed starts Python when its board comes into view (a rules page's later boards
  // wait until the reader scrolls to them) or when the reader reaches for it.
  function startInView() {
    ["pointerdown", "keydown", "focusin"].forEach(function (name) {
      document.addEventListener(name, start, { capture: true, once: true });
    });
    if (!window.IntersectionObserver) { start(); return; }
    var seen = new IntersectionObserver(function (entries) {
      if (!entries.some(function (e) { return e.isIntersecting; })) return;
      seen.disconnect();
      start();
    });
    seen.observe(document.body);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
