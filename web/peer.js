// Link play's transport: WebRTC data channels and their signaling, on the main thread.
//
// RTCPeerConnection does not exist in a Web Worker, so this thin module does what only a
// page can: it opens the data channels and hands every channel event and message to
// Python (the session in the worker, pgui/link.py), and sends what Python answers. It
// never reads or makes a game message itself.
//
// - Signaling, way (a): the WebSocket relay of `python build.py serve` on the same origin
//   (tools/relay.py: /relay/<room>), which forwards offers, answers and ICE candidates only.
//   Whoever arrives says hello; the host answers a guest's hello with an offer. Hellos
//   carry an HMAC of "hello|<role>|<the sender's relay id>" and offers and answers one of
//   their SDP, under the link's key (made by Python), so the relay, which never learns the
//   key, cannot put itself in between, and someone who only knows the room cannot make the
//   host answer: a hello without the key is ignored (and its sender with it). The host
//   keeps at most MAX_PENDING offers waiting and closes one unanswered after PENDING_MS.
// - Signaling, way (b), with no server at all: the host makes a complete offer (all ICE
//   candidates in it), compressed into a code the guest gets by link or QR code; the guest
//   answers with a code the host pastes back.
// - ICE servers: ./peer.json ({"iceServers": [...], "relay": "./relay/"}; none by default,
//   which is enough on one machine or a LAN), or the link's own `ice` (base64url JSON).
// - <html data-peer>: waiting, connecting, connected, reconnecting or lost. "connected"
//   means a channel is open *and* something came over it in the last SILENT_MS: the guest's
//   session pings the host when it has heard nothing for 2 s (pgui/link.py), so a silent
//   channel (a network that drops packets) shows "reconnecting" within seconds, long before
//   WebRTC itself calls the connection failed.
// - The host keeps one channel per friend. With its `seats` info (each friend's seat and
//   the peer id of its channel) it also sets <html data-peer-<seat>>: waiting (not joined
//   yet), connected, reconnecting, lost, or bot (a bot plays the seat now), and tells
//   Python ("seats") whenever one changes.
// - A Web Lock per room and role: a second tab of this browser that opens the same game is
//   told it is open elsewhere instead of taking the seat from the first.
//
// glue.js calls window.pygamesPeer.update(info) with every result of the worker that has
// link play's `peer` info, .send(sends) with its messages, .command(button) for the
// buttons marked data-link-cmd; window.pygamesPeer.bind(call) gives it the worker.
(function () {
  "use strict";
  var root = document.documentElement;
  var LOST_AFTER = 30000;   // ms without a channel before "reconnecting" becomes "lost"
  var SILENT_MS = 5000;     // an open channel that said nothing for this long is not live
  var MAX_PENDING = 3;      // offers the host keeps waiting for an answer at once
  var PENDING_MS = 15000;   // an offer not answered (channel not open) by then is closed
  var HELLO_EVERY = 5000;   // a guest with no channel says hello again this often
  var info = null;
  var call = null;          // (kind, peer, text) -> Promise of the worker's result
  var mac = null;           // (text) -> Promise of the HMAC hex
  var started = false;
  var settings = null;
  var ws = null;
  var backoff = 1000;
  var links = {};           // peer id -> {pc, dc, open, queue, made, heard}
  var myId = "";            // this page's id on the relay (its welcome)
  var refused = {};         // relay ids whose hello did not carry the link's key
  var stopped = false;      // this page gave the seat up (another tab or browser has it)
  var lastHello = 0;
  var everOpen = false;
  var since = Date.now();   // when the channel was last lost (or the attempt began)
  var status = "";
  var manualCount = 0;
  var ticker = null;
  // What went over the data channels (for the benchmark: tools/bench.py), and a pending ping.
  // relayOpens/relayCloses: how often this page's relay WebSocket opened and closed.
  var stats = { messagesOut: 0, bytesOut: 0, messagesIn: 0, bytesIn: 0, relayOpens: 0,
                relayCloses: 0, hellosRefused: 0, offersMade: 0 };
  var pings = [];

  function log() {
    if (window.pygamesDebug) console.log.apply(console, ["peer:"].concat([].slice.call(arguments)));
  }

  // ---------------------------------------------------------------- status

  function anyOpen() {
    for (var id in links) if (links[id].open) return true;
    return false;
  }

  // Open, and heard from lately: what "connected" means.
  function anyLive() {
    var now = Date.now();
    for (var id in links) {
      if (links[id].open && now - links[id].heard < SILENT_MS) return true;
    }
    return false;
  }

  function lastHeard() {
    var t = 0;
    for (var id in links) if (links[id].open && links[id].heard > t) t = links[id].heard;
    return t;
  }

  function refresh() {
    if (!info) return;
    var s;
    if (anyLive()) s = "connected";
    else if (anyOpen()) s = Date.now() - lastHeard() > LOST_AFTER ? "lost" : "reconnecting";
    else if (info.role === "guest" && !info.connect && !started) s = "waiting";
    else if (!everOpen) s = info.role === "host" ? "waiting" : "connecting";
    else s = Date.now() - since > LOST_AFTER ? "lost" : "reconnecting";
    if (info.role === "guest" && !everOpen && started && Date.now() - since > LOST_AFTER) s = "lost";
    root.dataset.peer = s;
    refreshSeats();
    if (s !== status) {
      status = s;
      if (call) call("status", "", s);
    }
  }

  // Each friend's seat (the host's): its channel open and heard from lately, or since when not.
  var seatDown = {};
  var seatText = "";

  function refreshSeats() {
    if (!info || info.role !== "host" || !info.seats) return;
    var now = Date.now();
    var out = {};
    info.seats.forEach(function (s) {
      var link = s.peer ? links[s.peer] : null;
      var st;
      if (s.bot) st = "bot";
      else if (!s.joined) st = "waiting";
      else if (link && link.open && now - link.heard < SILENT_MS) st = "connected";
      else {
        if (!seatDown[s.seat]) seatDown[s.seat] = now;
        st = now - seatDown[s.seat] > LOST_AFTER ? "lost" : "reconnecting";
      }
      if (st !== "reconnecting" && st !== "lost") delete seatDown[s.seat];
      out[s.seat] = st;
      root.setAttribute("data-peer-" + s.seat, st);
    });
    var text = JSON.stringify(out);
    if (text !== seatText) {
      seatText = text;
      if (call) call("seats", "", text);
    }
  }

  // ---------------------------------------------------------------- codes (copy and paste)

  function b64url(bytes) {
    var s = "";
    for (var i = 0; i < bytes.length; i++) s += String.fromCharCode(bytes[i]);
    return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }

  function unb64url(text) {
    var s = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
    var out = new Uint8Array(s.length);
    for (var i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
    return out;
  }

  function packCode(obj) {
    var stream = new Blob([JSON.stringify(obj)]).stream()
      .pipeThrough(new CompressionStream("deflate-raw"));
    return new Response(stream).arrayBuffer().then(function (buf) {
      return b64url(new Uint8Array(buf));
    });
  }

  function unpackCode(text) {
    return Promise.resolve().then(function () {
      var clean = String(text || "").trim();
      var hash = clean.indexOf("#o=");
      if (hash >= 0) clean = clean.slice(hash + 3);  // a whole link pasted
      clean = clean.replace(/\s+/g, "");
      var stream = new Blob([unb64url(clean)]).stream()
        .pipeThrough(new DecompressionStream("deflate-raw"));
      return new Response(stream).text();
    }).then(function (json) {
      var obj = JSON.parse(json);
      if (!obj || typeof obj.sdp !== "string" || (obj.t !== "o" && obj.t !== "a")) {
        throw new Error("not a connection code");
      }
      return obj;
    });
  }

  function gathered(pc) {
    return new Promise(function (resolve) {
      if (pc.iceGatheringState === "complete") { resolve(); return; }
      var timer = setTimeout(resolve, 5000);
      pc.addEventListener("icegatheringstatechange", function () {
        if (pc.iceGatheringState === "complete") { clearTimeout(timer); resolve(); }
      });
    });
  }

  // ---------------------------------------------------------------- peer connections

  function iceServers() {
    if (info && info.ice) {
      try {
        var list = JSON.parse(new TextDecoder().decode(unb64url(info.ice)));
        if (Array.isArray(list)) return list;
      } catch (e) { /* a damaged ice parameter: use the settings */ }
    }
    return (settings && Array.isArray(settings.iceServers)) ? settings.iceServers : [];
  }

  function pyPeer(id) { return info.role === "guest" ? "host" : id; }

  function newLink(id, onCandidate) {
    var old = links[id];
    if (old) closeLink(id, true);
    var pc = new RTCPeerConnection({ iceServers: iceServers() });
    var link = { pc: pc, dc: null, open: false, queue: [], out: [], made: Date.now(), heard: 0 };
    links[id] = link;
    pc.onicecandidate = function (e) {
      if (e.candidate && onCandidate) onCandidate(e.candidate.toJSON());
    };
    pc.onconnectionstatechange = function () {
      log("pc", id, pc.connectionState);
      if (pc.connectionState === "failed" || pc.connectionState === "closed") {
        if (links[id] === link) closeLink(id, false);
      }
    };
    return link;
  }

  function wire(id, link, dc) {
    link.dc = dc;
    dc.onopen = function () {
      if (links[id] !== link) return;
      link.open = true;
      link.heard = Date.now();
      everOpen = true;
      log("open", id);
      var early = link.out;
      link.out = [];
      early.forEach(function (text) { sendOn(link, text); });
      refresh();
      call("open", pyPeer(id));
    };
    dc.onmessage = function (e) {
      if (links[id] !== link || typeof e.data !== "string") return;
      var wasLive = anyLive();
      link.heard = Date.now();
      if (!wasLive) refresh();
      stats.messagesIn += 1;
      stats.bytesIn += new Blob([e.data]).size;
      var waiting = pings;
      pings = [];
      waiting.forEach(function (resolve) { resolve(); });
      call("message", pyPeer(id), e.data);
    };
    dc.onclose = function () {
      if (links[id] === link) closeLink(id, false);
    };
  }

  function sendOn(link, text) {
    try {
      link.dc.send(text);
      stats.messagesOut += 1;
      stats.bytesOut += new Blob([text]).size;
    } catch (e) { log("send", e); }
  }

  function closeLink(id, replaced) {
    var link = links[id];
    if (!link) return;
    delete links[id];
    var wasOpen = link.open;
    link.open = false;
    try { if (link.dc) link.dc.close(); } catch (e) { /* already closed */ }
    try { link.pc.close(); } catch (e) { /* already closed */ }
    if (wasOpen) {
      if (!anyOpen()) since = Date.now();
      if (!replaced || info.role === "host") call("close", pyPeer(id));
    }
    refresh();
    // A guest that lost its host says hello again on the relay (a reloaded host answers).
    if (!replaced && info.role === "guest") helloAll();
  }

  function addCandidate(link, cand) {
    if (link.pc.remoteDescription) {
      link.pc.addIceCandidate(cand).catch(function (e) { log("candidate", e); });
    } else {
      link.queue.push(cand);
    }
  }

  function flushCandidates(link) {
    var queue = link.queue;
    link.queue = [];
    queue.forEach(function (c) { addCandidate(link, c); });
  }

  // ---------------------------------------------------------------- relay signaling

  function relayUrl() {
    var base = (settings && settings.relay) || "./relay/";
    var url = new URL(base + encodeURIComponent(info.room), location.href);
    url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
    return url.href;
  }

  var relayPeers = [];

  function openRelay() {
    if (ws || stopped || !info || !info.room || !info.connect) return;
    var sock;
    try { sock = new WebSocket(relayUrl()); } catch (e) { return; }
    ws = sock;
    sock.onopen = function () { backoff = 1000; stats.relayOpens += 1; };
    sock.onmessage = function (e) {
      var m;
      try { m = JSON.parse(e.data); } catch (err) { return; }
      onRelay(m);
    };
    sock.onclose = function () {
      if (ws === sock) ws = null;
      stats.relayCloses += 1;
      relayPeers = [];
      if (stopped) return;
      setTimeout(openRelay, backoff);
      backoff = Math.min(backoff * 2, 15000);
    };
  }

  function signal(to, data) {
    if (ws && ws.readyState === 1) ws.send(JSON.stringify({ to: to, data: data }));
  }

  function helloText(role, id) { return "hello|" + role + "|" + id; }

  function helloAll() {
    if (!myId || stopped) return;
    lastHello = Date.now();
    mac(helloText(info.role, myId)).then(function (m) {
      relayPeers.forEach(function (p) {
        signal(p, { kind: "hello", role: info.role, mac: m });
      });
    });
  }

  function sayHello(to) {
    mac(helloText(info.role, myId)).then(function (m) {
      signal(to, { kind: "hello", role: info.role, mac: m });
    });
  }

  function pendingCount() {
    var n = 0;
    for (var id in links) if (!links[id].open && id.indexOf("manual") !== 0) n += 1;
    return n;
  }

  // The host closes offers nobody answered in time (someone left half way, or never came).
  function closeStale() {
    var now = Date.now();
    Object.keys(links).forEach(function (id) {
      var link = links[id];
      if (!link.open && id.indexOf("manual") !== 0 && now - link.made > PENDING_MS) {
        log("offer not answered in time: closed", id);
        closeLink(id, true);
      }
    });
  }

  // A hello counts only with the link's key, bound to the sender's own relay id (the
  // relay names the sender; a hello copied to another connection does not verify).
  function onHello(from, d) {
    if (refused[from] || typeof d.mac !== "string") {
      if (!refused[from]) stats.hellosRefused += 1;
      refused[from] = true;
      return;
    }
    mac(helloText(d.role, from)).then(function (m) {
      if (m !== d.mac) {
        refused[from] = true;
        stats.hellosRefused += 1;
        log("a hello without the link's key", from);
        return;
      }
      if (info.role === "host" && d.role === "guest") {
        var link = links[from];
        if (link && (link.open || Date.now() - link.made < PENDING_MS)) return;  // in hand
        closeStale();
        if (pendingCount() >= MAX_PENDING) { log("too many offers waiting: hello ignored"); return; }
        makeOffer(from);
      } else if (info.role === "guest" && d.role === "host" && !anyOpen()) {
        sayHello(from);
      }
    });
  }

  function onRelay(m) {
    if (m.type === "welcome") {
      myId = m.id || "";
      refused = {};
      relayPeers = (m.peers || []).slice();
      if (info.role === "host" || !anyOpen()) helloAll();
    } else if (m.type === "join") {
      relayPeers.push(m.id);
    } else if (m.type === "leave") {
      relayPeers = relayPeers.filter(function (p) { return p !== m.id; });
      delete refused[m.id];
    } else if (m.type === "signal" && m.data) {
      onSignal(m.from, m.data);
    } else if (m.type === "error") {
      log("relay error", m.code, m.message);
    }
  }

  function onSignal(from, d) {
    if (d.kind === "hello") {
      onHello(from, d);
    } else if (d.kind === "offer" && info.role === "guest" && typeof d.sdp === "string") {
      mac(d.sdp).then(function (m) {
        if (m !== d.mac) { log("an offer without the link's key: ignored"); return; }
        answerOffer(from, d.sdp);
      });
    } else if (d.kind === "answer" && info.role === "host" && links[from] &&
               typeof d.sdp === "string") {
      mac(d.sdp).then(function (m) {
        if (m !== d.mac || !links[from]) { log("an answer without the link's key: ignored"); return; }
        var link = links[from];
        link.pc.setRemoteDescription({ type: "answer", sdp: d.sdp }).then(function () {
          flushCandidates(link);
        }).catch(function (e) { log("answer", e); });
      });
    } else if (d.kind === "candidate" && links[from] && d.candidate) {
      addCandidate(links[from], d.candidate);
    }
  }

  function makeOffer(to) {
    stats.offersMade += 1;
    var link = newLink(to, function (c) { signal(to, { kind: "candidate", candidate: c }); });
    wire(to, link, link.pc.createDataChannel("pygames", { ordered: true }));
    link.pc.createOffer().then(function (offer) {
      return link.pc.setLocalDescription(offer);
    }).then(function () {
      var sdp = link.pc.localDescription.sdp;
      return mac(sdp).then(function (m) { signal(to, { kind: "offer", sdp: sdp, mac: m }); });
    }).catch(function (e) { log("offer", e); });
  }

  function answerOffer(from, sdp) {
    // One host: a new offer replaces whatever channel there was.
    Object.keys(links).forEach(function (id) { if (id !== from) closeLink(id, true); });
    var link = newLink(from, function (c) { signal(from, { kind: "candidate", candidate: c }); });
    link.pc.ondatachannel = function (e) { wire(from, link, e.channel); };
    link.pc.setRemoteDescription({ type: "offer", sdp: sdp }).then(function () {
      flushCandidates(link);
      return link.pc.createAnswer();
    }).then(function (answer) {
      return link.pc.setLocalDescription(answer);
    }).then(function () {
      var local = link.pc.localDescription.sdp;
      return mac(local).then(function (m) { signal(from, { kind: "answer", sdp: local, mac: m }); });
    }).catch(function (e) { log("answer", e); });
  }

  // ---------------------------------------------------------------- copy and paste

  var manualLink = null;

  function manualOffer() {
    manualCount += 1;
    var id = "manual" + manualCount;
    call("making", "", "");
    var link = newLink(id, null);
    manualLink = link;
    wire(id, link, link.pc.createDataChannel("pygames", { ordered: true }));
    link.pc.createOffer().then(function (offer) {
      return link.pc.setLocalDescription(offer);
    }).then(function () {
      return gathered(link.pc);
    }).then(function () {
      return packCode({ t: "o", sdp: link.pc.localDescription.sdp });
    }).then(function (code) {
      call("offer", "", code);
    }).catch(function (e) { log("manual offer", e); });
  }

  function manualAnswer() {
    var field = document.getElementById("manual-answer");
    var link = manualLink;
    if (!field || !link) return;
    unpackCode(field.value).then(function (obj) {
      if (obj.t !== "a") throw new Error("not an answer code");
      return link.pc.setRemoteDescription({ type: "answer", sdp: obj.sdp });
    }).catch(function (e) {
      log("manual answer", e);
      call("bad_code", "", "");
    });
  }

  function answerManualOffer(code) {
    unpackCode(code).then(function (obj) {
      if (obj.t !== "o") throw new Error("not an offer code");
      var link = newLink("manual", null);
      link.pc.ondatachannel = function (e) { wire("manual", link, e.channel); };
      return link.pc.setRemoteDescription({ type: "offer", sdp: obj.sdp }).then(function () {
        return link.pc.createAnswer();
      }).then(function (answer) {
        return link.pc.setLocalDescription(answer);
      }).then(function () {
        return gathered(link.pc);
      }).then(function () {
        return packCode({ t: "a", sdp: link.pc.localDescription.sdp });
      }).then(function (answerCode) {
        call("answer", "", answerCode);
      });
    }).catch(function (e) {
      log("manual offer in", e);
      call("bad_code", "", "");
    });
  }

  // ---------------------------------------------------------------- start

  function loadSettings() {
    return fetch("./peer.json", { cache: "no-cache" }).then(function (r) {
      return r.ok ? r.json() : {};
    }).catch(function () { return {}; }).then(function (s) { settings = s || {}; });
  }

  // Give the seat up for good on this page: another tab or browser holds it now.
  function stop() {
    if (stopped) return;
    stopped = true;
    Object.keys(links).forEach(function (id) { closeLink(id, true); });
    if (ws) { try { ws.close(); } catch (e) { /* closed */ } ws = null; }
    if (ticker) { clearInterval(ticker); ticker = null; }
  }

  function begin() {
    since = Date.now();
    loadSettings().then(function () {
      if (info.role === "guest" && info.offer) answerManualOffer(info.offer);
      else openRelay();
    });
    if (!ticker) {
      ticker = setInterval(function () {
        refresh();
        if (anyOpen()) call("tick", "", "");
        if (info.role === "host") closeStale();
        else if (!anyOpen() && ws && ws.readyState === 1 && relayPeers.length &&
                 Date.now() - lastHello > HELLO_EVERY) helloAll();
      }, 1000);
    }
  }

  function start() {
    if (started || !info || !info.connect) return;
    started = true;
    refresh();
    if (navigator.locks && navigator.locks.request) {
      navigator.locks.request(info.lock, { ifAvailable: true }, function (lock) {
        if (!lock) {
          root.dataset.peer = status = "lost";
          call("status", "", "elsewhere");
          return null;
        }
        begin();
        return new Promise(function () {});  // held while this page lives
      });
    } else {
      begin();
    }
  }

  window.pygamesPeer = {
    bind: function (callFn, macFn) { call = callFn; mac = macFn; },
    update: function (peerInfo) {
      var first = info === null;
      info = peerInfo;
      if (first) refresh();
      else refreshSeats();
      if (started && !info.connect) { stop(); return; }
      // Connections whose seat another browser took over: told by the session, then closed.
      (info.drop || []).forEach(function (id) {
        setTimeout(function () { if (links[id]) closeLink(id, true); }, 1000);
      });
      start();
    },
    send: function (sends) {
      sends.forEach(function (s) {
        var to = s[0];
        var text = s[1];
        var ids = info.role === "guest" ? Object.keys(links) : [to];
        ids.forEach(function (id) {
          var link = links[id];
          if (link && link.open) sendOn(link, text);
          // A reply to a channel whose open event has not come yet: sent once it does.
          else if (link && link.dc && link.out.length < 100) link.out.push(text);
        });
      });
    },
    stats: stats,
    // A guest asks the host for its picture and waits for the answer: one message each
    // way over the data channel, through Python on both sides (tools/bench.py's round trip).
    ping: function () {
      var t0 = performance.now();
      var answered = new Promise(function (resolve) { pings.push(resolve); });
      call("poll", "", "");
      return answered.then(function () { return performance.now() - t0; });
    },
    command: function (button) {
      var what = button.getAttribute("data-link-cmd");
      var text = button.getAttribute("data-copy") || "";
      if (what === "copy") copy(button, text);
      else if (what === "share" && navigator.share) {
        navigator.share({ url: text }).catch(function () { /* dismissed */ });
      } else if (what === "download") download(button);
      else if (what === "offer") manualOffer();
      else if (what === "answer") manualAnswer();
    },
  };

  // A guest's own part of the game, as a file (pgui/link.py puts it in [data-partial]).
  function download(button) {
    var data = document.querySelector("[data-partial]");
    if (!data) return;
    var url = URL.createObjectURL(new Blob([data.textContent], { type: "application/json" }));
    var a = document.createElement("a");
    a.href = url;
    a.download = button.getAttribute("data-file") || "pygames.json";
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(function () { URL.revokeObjectURL(url); }, 1000);
  }

  function copy(button, text) {
    var done = function () {
      button.setAttribute("data-copied", "true");
      button.textContent = root.lang === "ja" ? "コピーしました" : "Copied";
    };
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(text).then(done, function () { fallbackCopy(text); done(); });
    } else {
      fallbackCopy(text);
      done();
    }
  }

  function fallbackCopy(text) {
    var area = document.createElement("textarea");
    area.value = text;
    area.setAttribute("readonly", "");
    area.style.position = "fixed";
    area.style.opacity = "0";
    document.body.appendChild(area);
    area.select();
    try { document.execCommand("copy"); } catch (e) { /* nothing more to try */ }
    area.remove();
  }
})();
