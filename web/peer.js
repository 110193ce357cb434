// Link play's transport: WebRTC data channels and their signaling, on the main thread.
//
// RTCPeerConnection does not exist in a Web Worker, so this thin module does what only a
// page can: it opens the data channels and hands every channel event and message to
// Python (the session in the worker, pgui/link.py), and sends what Python answers. It
// never reads or makes a game message itself.
//
// Signaling (how two browsers exchange offers, answers and ICE candidates) is sealed end
// to end on every path: each message is encrypted and authenticated with AES-GCM under a
// key derived with HKDF-SHA256 from the secret in the link's fragment (`k`; a spectator's
// `w`), with a fresh random 96-bit nonce each (WebCrypto; on a page that is no secure
// context, such as a LAN game over plain http, the same from @noble in vendor/). The sealed plaintext names its sender, its
// addressee ("*" for a hello to all) and its sender's clock, so a message that does not
// decrypt (tampered, or sealed under another link's key) is dropped and counted
// (stats.rejected), and so is one seen before, one addressed to an earlier page, or a hello
// older than SKEW_MS (stats.replayed). A server carrying them sees a room topic (the first
// 32 hex digits of sha256 of "pygames room|<room>") and ciphertext: never an SDP, an
// address or a game message. Paths, tried in order with the one in use shown
// (<html data-signal>, and Python's "signal" event):
// - (a) the WebSocket relay of `python build.py serve` (tools/relay.py: <relay>/<topic>),
//   the settings' `relay` ("./relay/" by default): the default wherever it is reachable.
//   The relay names each sender; a message whose sealed sender is not that name is refused.
// - (b) MQTT over WebSockets, through each broker of the settings' `brokers` (or the
//   link's own `b`, base64url JSON) in turn: the `mqtt` client from npm
//   (vendor/mqtt.esm.js), imported only when link play gets this far. Topics:
//   pygames/v1/<topic>/all (hellos) and pygames/v1/<topic>/<page id> (the rest).
// - (c) with no server at all: the host makes a complete offer (all ICE candidates in it),
//   sealed and compressed into a code the guest gets by link or QR code; the guest answers
//   with a code the host pastes back.
// When no path works the status says so ("none") and the list is tried again, slower.
// - The host answers a guest's hello with an offer; it keeps at most MAX_PENDING offers
//   waiting and closes one unanswered after PENDING_MS. Hellos sealed under the spectator
//   key (the host's info.watch) come from spectators: their connections are named
//   "w-<id>" for Python, which never gives them a seat.
// - ICE servers (STUN, TURN): the settings' `iceServers`, or the link's own `ice`
//   (base64url JSON). The built settings name none. Once a channel is open the type of
//   path in use ("direct", or "turn" when either end's candidate is a TURN relay) is told
//   to Python ("path") and shown (<html data-peer-path>). A connection attempt with no
//   open channel after NOPATH_MS is told as "nopath" (<html data-peer-nopath>).
// - Settings: peer.json beside this script ({"relay": "./relay/", "brokers": [],
//   "iceServers": []}).
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
  var script = document.currentScript;
  var here = new URL(".", (script && script.src) || location.href);
  var LOST_AFTER = 30000;   // ms without a channel before "reconnecting" becomes "lost"
  var SILENT_MS = 5000;     // an open channel that said nothing for this long is not live
  var MAX_PENDING = 3;      // offers the host keeps waiting for an answer at once
  var PENDING_MS = 15000;   // an offer not answered (channel not open) by then is closed
  var HELLO_EVERY = 5000;   // a guest with no channel says hello again this often
  var NOPATH_MS = 8000;     // an attempt with no open channel by then: "no direct path yet"
  var SKEW_MS = 600000;     // a hello stamped further from this page's clock is a replay
  var BROKER_WAIT = 6000;   // ms for a broker to accept the connection before the next one
  var SEEN_MAX = 4000;      // nonces remembered (replays of older ones fail on time or id)
  var info = null;
  var call = null;          // (kind, peer, text) -> Promise of the worker's result
  var started = false;
  var settings = null;
  var backoff = 1000;
  var links = {};           // link id -> {pc, dc, open, queue, made, heard, to, kk, path}
  var myId = randomId();    // this page's name in signaling (the relay's welcome replaces it)
  var stopped = false;      // this page gave the seat up (another tab or browser has it)
  var lastHello = 0;
  var everOpen = false;
  var since = Date.now();   // when the channel was last lost (or the attempt began)
  var status = "";
  var manualCount = 0;
  var ticker = null;
  // What went over the data channels and signaling (tools/bench.py, the tests), and a
  // pending ping. relayOpens/relayCloses: how often this page's relay WebSocket opened and
  // closed; signalOut/signalIn: sealed signaling messages and their bytes on the wire.
  var stats = { messagesOut: 0, bytesOut: 0, messagesIn: 0, bytesIn: 0, relayOpens: 0,
                relayCloses: 0, offersMade: 0, rejected: 0, replayed: 0,
                signalOut: 0, signalBytesOut: 0, signalIn: 0, signalBytesIn: 0,
                via: "", path: "", cipher: "webcrypto" };
  var pings = [];

  function log() {
    if (window.pygamesDebug) console.log.apply(console, ["peer:"].concat([].slice.call(arguments)));
  }

  function randomId() {
    return b64url(crypto.getRandomValues(new Uint8Array(9)));
  }

  // ---------------------------------------------------------------- status

  // A player's channel (the host's spectators, "w-<id>", are not the friend it waits for).
  function player(id) { return id.indexOf("w-") !== 0; }

  function anyOpen() {
    for (var id in links) if (links[id].open && player(id)) return true;
    return false;
  }

  // Open, and heard from lately: what "connected" means.
  function anyLive() {
    var now = Date.now();
    for (var id in links) {
      if (links[id].open && player(id) && now - links[id].heard < SILENT_MS) return true;
    }
    return false;
  }

  function lastHeard() {
    var t = 0;
    for (var id in links) {
      if (links[id].open && player(id) && links[id].heard > t) t = links[id].heard;
    }
    return t;
  }

  function refresh() {
    if (!info) return;
    var s;
    var guestLike = info.role !== "host";
    if (anyLive()) s = "connected";
    else if (anyOpen()) s = Date.now() - lastHeard() > LOST_AFTER ? "lost" : "reconnecting";
    else if (guestLike && !info.connect && !started) s = "waiting";
    else if (!everOpen) s = guestLike ? "connecting" : "waiting";
    else s = Date.now() - since > LOST_AFTER ? "lost" : "reconnecting";
    if (guestLike && !everOpen && started && Date.now() - since > LOST_AFTER) s = "lost";
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

  // ---------------------------------------------------------------- bytes

  var encoder = new TextEncoder();
  var decoder = new TextDecoder();

  function b64url(bytes) {
    var s = "";
    for (var i = 0; i < bytes.length; i++) s += String.fromCharCode(bytes[i]);
    return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }

  function unb64url(text) {
    var s = atob(String(text).replace(/-/g, "+").replace(/_/g, "/"));
    var out = new Uint8Array(s.length);
    for (var i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
    return out;
  }

  function hex(buf) {
    return Array.prototype.map.call(new Uint8Array(buf), function (b) {
      return (b < 16 ? "0" : "") + b.toString(16);
    }).join("");
  }

  function deflate(bytes, how) {
    var stream = new Blob([bytes]).stream().pipeThrough(
      how === "in" ? new DecompressionStream("deflate-raw") : new CompressionStream("deflate-raw"));
    return new Response(stream).arrayBuffer().then(function (buf) { return new Uint8Array(buf); });
  }

  // ---------------------------------------------------------------- sealing

  var keys = {};   // "p": the players' key (from k), "w": the spectators' (from w): Promises
  var topic = "";  // the room's name on the relay and brokers
  var seen = {};
  var seenOrder = [];

  function mine() { return info.role === "watch" ? "w" : "p"; }

  // The cipher: WebCrypto, or where the page is no secure context (a LAN game over plain
  // http has no crypto.subtle) the same AES-GCM, HKDF and SHA-256 from @noble (vendor/).
  // Both seal alike, so a page of each kind play together.
  var SALT = "pygames signaling v1";
  var cipher = null;

  var webCipher = {
    key: function (secret, label) {
      return crypto.subtle.importKey("raw", encoder.encode(secret), "HKDF", false, ["deriveKey"])
        .then(function (ikm) {
          return crypto.subtle.deriveKey(
            { name: "HKDF", hash: "SHA-256", salt: encoder.encode(SALT), info: encoder.encode(label) },
            ikm, { name: "AES-GCM", length: 256 }, false, ["encrypt", "decrypt"]);
        });
    },
    seal: function (key, iv, data, bytes) {
      return crypto.subtle.encrypt({ name: "AES-GCM", iv: iv, additionalData: data }, key, bytes)
        .then(function (ct) { return new Uint8Array(ct); });
    },
    open: function (key, iv, data, bytes) {
      return crypto.subtle.decrypt({ name: "AES-GCM", iv: iv, additionalData: data }, key, bytes)
        .then(function (plain) { return new Uint8Array(plain); });
    },
    digest: function (bytes) {
      return crypto.subtle.digest("SHA-256", bytes).then(function (d) { return new Uint8Array(d); });
    },
  };

  function nobleCipher(gcm, hkdf, sha256) {
    return {
      key: function (secret, label) {
        return Promise.resolve(hkdf(sha256, encoder.encode(secret), encoder.encode(SALT),
                                    encoder.encode(label), 32));
      },
      seal: function (key, iv, data, bytes) {
        return Promise.resolve().then(function () { return gcm(key, iv, data).encrypt(bytes); });
      },
      open: function (key, iv, data, bytes) {
        return Promise.resolve().then(function () { return gcm(key, iv, data).decrypt(bytes); });
      },
      digest: function (bytes) { return Promise.resolve(sha256(bytes)); },
    };
  }

  function loadCipher() {
    if (window.crypto && crypto.subtle) return Promise.resolve(webCipher);
    var load = function (path) { return import(new URL("vendor/" + path, here).href); };
    return Promise.all([load("noble-ciphers/aes.js"), load("noble-hashes/hkdf.js"),
                        load("noble-hashes/sha2.js")]).then(function (m) {
      stats.cipher = "noble";
      return nobleCipher(m[0].gcm, m[1].hkdf, m[2].sha256);
    });
  }

  function prepareKeys() {
    return loadCipher().then(function (c) {
      cipher = c;
      var label = "seal|" + info.room;
      keys = {};
      keys[mine()] = cipher.key(info.key || "", label);
      if (info.role === "host" && info.watch) keys.w = cipher.key(info.watch, label);
      return cipher.digest(encoder.encode("pygames room|" + info.room));
    }).then(function (d) {
      topic = hex(d).slice(0, 32);
      return Promise.all([keys.p, keys.w]);
    });
  }

  function aad(kk, what) { return encoder.encode(what + "|" + topic + "|" + kk); }

  // bytes -> {n, c} (base64url nonce and ciphertext with its tag), under key kk.
  function sealBytes(kk, bytes, what) {
    var iv = crypto.getRandomValues(new Uint8Array(12));
    return keys[kk].then(function (key) {
      return cipher.seal(key, iv, aad(kk, what), bytes);
    }).then(function (ct) { return { n: b64url(iv), c: b64url(ct) }; });
  }

  // -> Promise of the plaintext bytes, or null (not authentic: counted) or undefined (not
  // for this page: another audience's key).
  function openBytes(kk, n, c, what) {
    if (!keys[kk]) return Promise.resolve(undefined);
    var iv, ct;
    try {
      iv = unb64url(n);
      ct = unb64url(c);
      if (iv.length !== 12) throw new Error("nonce");
    } catch (e) {
      stats.rejected += 1;
      tellRejected();
      return Promise.resolve(null);
    }
    return keys[kk].then(function (key) {
      return cipher.open(key, iv, aad(kk, what), ct);
    }).then(function (plain) {
      if (seen[n]) { stats.replayed += 1; tellRejected(); return null; }
      seen[n] = true;
      seenOrder.push(n);
      if (seenOrder.length > SEEN_MAX) delete seen[seenOrder.shift()];
      return plain;
    }, function () {
      stats.rejected += 1;
      tellRejected();
      return null;
    });
  }

  var toldRejected = 0;
  function tellRejected() {
    var n = stats.rejected + stats.replayed;
    if (n !== toldRejected && call) { toldRejected = n; call("rejected", "", String(n)); }
  }

  function sealMessage(kk, m) {
    return sealBytes(kk, encoder.encode(JSON.stringify(m)), "signal").then(function (box) {
      return { kind: "sealed", k: kk, n: box.n, c: box.c };
    });
  }

  // A sealed signaling message in: its plaintext if authentic, new, and for this page.
  // `sender`: the relay's name for whoever sent it (null on a broker).
  function openMessage(env, sender) {
    if (!env || env.kind !== "sealed" || (env.k !== "p" && env.k !== "w") ||
        typeof env.n !== "string" || typeof env.c !== "string") {
      stats.rejected += 1;
      tellRejected();
      return Promise.resolve(null);
    }
    return openBytes(env.k, env.n, env.c, "signal").then(function (plain) {
      if (!plain) return null;
      var m;
      try { m = JSON.parse(decoder.decode(plain)); } catch (e) { m = null; }
      if (!m || typeof m.from !== "string" || typeof m.to !== "string" ||
          typeof m.kind !== "string" || typeof m.ts !== "number") {
        stats.rejected += 1;
        tellRejected();
        return null;
      }
      if (m.from === myId) return null;   // our own hello, back from a broker
      var stale = m.to === "*" ? Math.abs(Date.now() - m.ts) > SKEW_MS : m.to !== myId;
      if (stale || (sender !== null && sender !== m.from)) {
        stats.replayed += 1;
        tellRejected();
        return null;
      }
      m.kk = env.k;
      return m;
    });
  }

  // ---------------------------------------------------------------- codes (copy and paste)

  function packCode(obj) {
    return deflate(encoder.encode(JSON.stringify(obj)), "out").then(function (bytes) {
      return sealBytes("p", bytes, "code");
    }).then(function (box) { return box.n + "." + box.c; });
  }

  function unpackCode(text) {
    return Promise.resolve().then(function () {
      var clean = String(text || "").trim();
      var hash = clean.indexOf("o=");
      if (clean.indexOf("#") >= 0 && hash >= 0) {   // a whole link pasted
        clean = clean.slice(hash + 2).split("&")[0];
      }
      clean = clean.replace(/\s+/g, "");
      var parts = clean.split(".");
      if (parts.length !== 2) throw new Error("not a connection code");
      return openBytes("p", parts[0], parts[1], "code");
    }).then(function (bytes) {
      if (!bytes) throw new Error("not a connection code of this link");
      return deflate(bytes, "in");
    }).then(function (bytes) {
      var obj = JSON.parse(decoder.decode(bytes));
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

  function linkList(value) {
    if (!value) return null;
    try {
      var list = JSON.parse(decoder.decode(unb64url(value)));
      if (Array.isArray(list)) return list;
    } catch (e) { /* a damaged parameter: the settings instead */ }
    return null;
  }

  function iceServers() {
    return linkList(info && info.ice) ||
      ((settings && Array.isArray(settings.iceServers)) ? settings.iceServers : []);
  }

  function pyPeer(id) { return info.role === "host" ? id : "host"; }

  function newLink(id, onCandidate) {
    var old = links[id];
    if (old) closeLink(id, true);
    var pc = new RTCPeerConnection({ iceServers: iceServers() });
    var link = { pc: pc, dc: null, open: false, queue: [], out: [], made: Date.now(), heard: 0,
                 path: "" };
    links[id] = link;
    pc.onicecandidate = function (e) {
      if (e.candidate && onCandidate) onCandidate(e.candidate.toJSON());
    };
    pc.onconnectionstatechange = function () {
      log("pc", id, pc.connectionState);
      if (pc.connectionState === "connected") checkPath(id, link);
      if (pc.connectionState === "failed" || pc.connectionState === "closed") {
        if (links[id] === link) closeLink(id, false);
      }
    };
    return link;
  }

  // Which path the channel takes: "turn" when either end's candidate is a TURN relay's.
  function checkPath(id, link) {
    if (!link.open) return;
    link.pc.getStats().then(function (report) {
      var pair = null;
      var byId = {};
      report.forEach(function (r) { byId[r.id] = r; });
      report.forEach(function (r) {
        if (r.type === "transport" && r.selectedCandidatePairId) pair = byId[r.selectedCandidatePairId];
      });
      if (!pair) {
        report.forEach(function (r) {
          if (r.type === "candidate-pair" && r.nominated && r.state === "succeeded") pair = r;
        });
      }
      if (!pair || links[id] !== link) return;
      var local = byId[pair.localCandidateId] || {};
      var remote = byId[pair.remoteCandidateId] || {};
      var path = local.candidateType === "relay" || remote.candidateType === "relay" ? "turn" : "direct";
      if (path !== link.path) {
        link.path = path;
        showPath();
        call("path", pyPeer(id), path);
      }
    }).catch(function (e) { log("stats", e); });
  }

  function showPath() {
    var path = "";
    for (var id in links) {
      if (links[id].open && links[id].path) path = path === "turn" ? path : links[id].path;
    }
    stats.path = path;
    if (path) root.setAttribute("data-peer-path", path);
    else root.removeAttribute("data-peer-path");
  }

  var noPath = false;
  function checkNoPath() {
    var trying = false;
    var now = Date.now();
    for (var id in links) {
      if (!links[id].open && now - links[id].made > NOPATH_MS) trying = true;
    }
    var want = trying && !anyOpen();
    if (want !== noPath) {
      noPath = want;
      if (want) root.setAttribute("data-peer-nopath", "true");
      else root.removeAttribute("data-peer-nopath");
      call("nopath", "", want ? "" : "clear");
    }
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
      checkNoPath();
      call("open", pyPeer(id));
      checkPath(id, link);
    };
    dc.onmessage = function (e) {
      if (links[id] !== link || typeof e.data !== "string") return;
      var wasLive = anyLive();
      link.heard = Date.now();
      if (!wasLive) refresh();
      stats.messagesIn += 1;
      stats.bytesIn += new Blob([e.data]).size;
      if (Array.isArray(window.pygamesCapture)) window.pygamesCapture.push(e.data);  // tests
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
    showPath();
    refresh();
    // A guest that lost its host says hello again (a reloaded host answers).
    if (!replaced && info.role !== "host") helloAll();
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

  // ---------------------------------------------------------------- signaling paths

  var sig = null;       // the path in use: {via, host, ready, sendTo(id, env), broadcast(env), close()}
  var pathIndex = -1;
  var retryTimer = null;
  var mqttModule = null;

  function brokers() {
    var list = linkList(info && info.brokers) ||
      ((settings && Array.isArray(settings.brokers)) ? settings.brokers : []);
    return list.filter(function (u) { return typeof u === "string" && /^wss?:\/\//.test(u); });
  }

  function paths() {
    var out = [];
    if (settings && settings.relay !== null && settings.relay !== "") {
      out.push({ via: "relay", url: (settings && settings.relay) || "./relay/" });
    }
    brokers().forEach(function (url) { out.push({ via: "broker", url: url }); });
    return out;
  }

  function announce(via, host) {
    stats.via = via;
    root.setAttribute("data-signal", via);
    if (call) call("signal", "", JSON.stringify({ via: via, host: host || "" }));
  }

  function startSignaling() {
    if (stopped || sig) return;
    pathIndex = -1;
    nextPath();
  }

  function nextPath() {
    if (sig) { var old = sig; sig = null; old.close(); }
    if (stopped) return;
    var list = paths();
    pathIndex += 1;
    if (pathIndex >= list.length) {
      // Nothing answered: say so (copy and paste still works), and start over later.
      announce("none", "");
      pathIndex = -1;
      clearTimeout(retryTimer);
      retryTimer = setTimeout(nextPath, backoff);
      backoff = Math.min(backoff * 2, 15000);
      return;
    }
    var p = list[pathIndex];
    sig = p.via === "relay" ? relayPath(p.url) : brokerPath(p.url);
  }

  // The path failed before it ever worked: the next one.
  function failed(p) {
    if (sig !== p) return;
    log("signaling path failed", p.via, p.host);
    nextPath();
  }

  function ready(p) {
    if (sig !== p) return;
    backoff = 1000;
    announce(p.via, p.host);
    if (info.role === "host" || !anyOpen()) helloAll();
  }

  function onEnvelope(p, env, sender) {
    if (sig !== p) return;
    openMessage(env, sender).then(function (m) { if (m) onSignal(m); });
  }

  function countOut(text) {
    stats.signalOut += 1;
    stats.signalBytesOut += encoder.encode(text).length;
  }

  function countIn(size) {
    stats.signalIn += 1;
    stats.signalBytesIn += size;
  }

  function relayPath(base) {
    var url = new URL(base + encodeURIComponent(topic), location.href);
    if (url.protocol === "https:") url.protocol = "wss:";
    else if (url.protocol === "http:") url.protocol = "ws:";  // ws: and wss: as they are
    var p = { via: "relay", host: "", ready: false, opened: false, peers: [], closed: false };
    var sock;
    try { sock = new WebSocket(url.href); } catch (e) {
      setTimeout(function () { failed(p); }, 0);
      p.close = function () {};
      return p;
    }
    sock.onopen = function () { p.opened = true; stats.relayOpens += 1; };
    sock.onmessage = function (e) {
      if (typeof e.data !== "string") return;
      var m;
      try { m = JSON.parse(e.data); } catch (err) { return; }
      if (m.type === "welcome") {
        myId = m.id || myId;
        p.peers = (m.peers || []).slice();
        p.ready = true;
        ready(p);
      } else if (m.type === "join") {
        p.peers.push(m.id);
      } else if (m.type === "leave") {
        p.peers = p.peers.filter(function (id) { return id !== m.id; });
      } else if (m.type === "signal" && m.data) {
        countIn(encoder.encode(e.data).length);
        onEnvelope(p, m.data, m.from);
      } else if (m.type === "error") {
        log("relay error", m.code, m.message);
      }
    };
    sock.onclose = function () {
      if (p.opened) stats.relayCloses += 1;
      if (p.closed || sig !== p) return;
      if (!p.ready) { failed(p); return; }  // no welcome: not a relay that works
      // It worked and went away: reconnect to it (a new welcome, a new name).
      sig = null;
      setTimeout(function () {
        if (!sig && !stopped) { pathIndex -= 1; nextPath(); }
      }, backoff);
      backoff = Math.min(backoff * 2, 15000);
    };
    p.sendTo = function (id, env) {
      if (sock.readyState !== 1) return;
      var text = JSON.stringify({ to: id, data: env });
      countOut(text);
      sock.send(text);
    };
    p.broadcast = function (env) { p.peers.forEach(function (id) { p.sendTo(id, env); }); };
    p.close = function () { p.closed = true; try { sock.close(); } catch (e) { /* closed */ } };
    return p;
  }

  function loadMqtt() {
    if (!mqttModule) {
      mqttModule = import(new URL("vendor/mqtt.esm.js", here).href).then(function (m) {
        return m.default || m;
      });
      mqttModule.catch(function () { mqttModule = null; });
    }
    return mqttModule;
  }

  function brokerPath(url) {
    var host = "";
    try { host = new URL(url).host; } catch (e) { /* a damaged setting: it fails below */ }
    var p = { via: "broker", host: host, ready: false, opened: false, closed: false, client: null };
    var base = "pygames/v1/" + topic + "/";
    var timer = setTimeout(function () { if (!p.opened) failed(p); }, BROKER_WAIT);
    loadMqtt().then(function (mqtt) {
      if (p.closed || sig !== p) return;
      var client = mqtt.connect(url, { clientId: "pygames-" + randomId(), clean: true,
                                       connectTimeout: BROKER_WAIT, reconnectPeriod: 0,
                                       keepalive: 20 });
      p.client = client;
      client.on("connect", function () {
        if (p.closed) return;
        p.opened = true;
        clearTimeout(timer);
        client.options.reconnectPeriod = 2000;  // it worked: keep it, reconnecting if need be
        client.subscribe([base + "all", base + myId], { qos: 0 }, function (err) {
          if (err || p.closed) { if (!p.opened) failed(p); return; }
          p.ready = true;
          ready(p);
        });
      });
      client.on("message", function (t, payload) {
        var text = typeof payload === "string" ? payload : decoder.decode(payload);
        countIn(encoder.encode(text).length);
        var env;
        try { env = JSON.parse(text); } catch (e) { stats.rejected += 1; tellRejected(); return; }
        onEnvelope(p, env, null);
      });
      client.on("offline", function () { p.ready = false; });
      var down = function () { if (!p.opened && !p.closed) { client.end(true); failed(p); } };
      client.on("error", down);
      client.on("close", down);
    }).catch(function (e) { log("mqtt", e); clearTimeout(timer); failed(p); });
    p.sendTo = function (id, env) { publish(base + id, env); };
    p.broadcast = function (env) { publish(base + "all", env); };
    function publish(t, env) {
      if (!p.client || !p.ready) return;
      var text = JSON.stringify(env);
      countOut(text);
      p.client.publish(t, text, { qos: 0 });
    }
    p.close = function () {
      p.closed = true;
      clearTimeout(timer);
      if (p.client) { try { p.client.end(true); } catch (e) { /* closed */ } }
    };
    return p;
  }

  // ---------------------------------------------------------------- signaling messages

  function send(to, kk, m) {
    m.from = myId;
    m.to = to;
    m.ts = Date.now();
    m.role = info.role;
    var path = sig;
    sealMessage(kk, m).then(function (env) {
      if (path && path === sig && path.ready) path.sendTo(to, env);
    }).catch(function (e) { log("seal", e); });
  }

  function helloAll() {
    if (!sig || !sig.ready || stopped) return;
    lastHello = Date.now();
    var path = sig;
    Object.keys(keys).forEach(function (kk) {
      if (!keys[kk]) return;
      sealMessage(kk, { kind: "hello", from: myId, to: "*", ts: Date.now(), role: info.role })
        .then(function (env) { if (path === sig && path.ready) path.broadcast(env); });
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

  // The host's name for a connection: a spectator's (sealed with the watch key) is "w-<id>".
  function linkId(m) { return info.role === "host" && m.kk === "w" ? "w-" + m.from : m.from; }

  function onSignal(m) {
    var id = linkId(m);
    var host = info.role === "host";
    if (m.kind === "hello") {
      if (host && ((m.role === "guest" && m.kk === "p") || (m.role === "watch" && m.kk === "w"))) {
        var link = links[id];
        if (link && (link.open || Date.now() - link.made < PENDING_MS)) return;  // in hand
        closeStale();
        if (pendingCount() >= MAX_PENDING) { log("too many offers waiting: hello ignored"); return; }
        makeOffer(id, m.from, m.kk);
      } else if (!host && m.role === "host" && !anyOpen()) {
        send(m.from, m.kk, { kind: "hello" });
      }
    } else if (m.kind === "offer" && !host && m.role === "host" && typeof m.sdp === "string") {
      answerOffer(m.from, m.kk, m.sdp);
    } else if (m.kind === "answer" && host && links[id] && typeof m.sdp === "string") {
      var answered = links[id];
      answered.pc.setRemoteDescription({ type: "answer", sdp: m.sdp }).then(function () {
        flushCandidates(answered);
      }).catch(function (e) { log("answer", e); });
    } else if (m.kind === "candidate" && links[id] && m.candidate &&
               typeof m.candidate === "object") {
      addCandidate(links[id], m.candidate);
    }
  }

  function makeOffer(id, to, kk) {
    stats.offersMade += 1;
    var link = newLink(id, function (c) { send(to, kk, { kind: "candidate", candidate: c }); });
    wire(id, link, link.pc.createDataChannel("pygames", { ordered: true }));
    link.pc.createOffer().then(function (offer) {
      return link.pc.setLocalDescription(offer);
    }).then(function () {
      send(to, kk, { kind: "offer", sdp: link.pc.localDescription.sdp });
    }).catch(function (e) { log("offer", e); });
  }

  function answerOffer(from, kk, sdp) {
    // One host: a new offer replaces whatever channel there was.
    Object.keys(links).forEach(function (id) { if (id !== from) closeLink(id, true); });
    var link = newLink(from, function (c) { send(from, kk, { kind: "candidate", candidate: c }); });
    link.pc.ondatachannel = function (e) { wire(from, link, e.channel); };
    link.pc.setRemoteDescription({ type: "offer", sdp: sdp }).then(function () {
      flushCandidates(link);
      return link.pc.createAnswer();
    }).then(function (answer) {
      return link.pc.setLocalDescription(answer);
    }).then(function () {
      send(from, kk, { kind: "answer", sdp: link.pc.localDescription.sdp });
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
    return fetch(new URL("peer.json", here).href, { cache: "no-cache" }).then(function (r) {
      return r.ok ? r.json() : {};
    }).catch(function () { return {}; }).then(function (s) {
      settings = (s && typeof s === "object") ? s : {};
    });
  }

  // Give the seat up for good on this page: another tab or browser holds it now.
  function stop() {
    if (stopped) return;
    stopped = true;
    Object.keys(links).forEach(function (id) { closeLink(id, true); });
    if (sig) { var old = sig; sig = null; old.close(); }
    clearTimeout(retryTimer);
    if (ticker) { clearInterval(ticker); ticker = null; }
  }

  function begin() {
    since = Date.now();
    loadSettings().then(prepareKeys).then(function () {
      if (info.role !== "host" && info.offer) answerManualOffer(info.offer);
      else startSignaling();
    }).catch(function (e) {
      log("cannot seal", e);
      root.setAttribute("data-signal", "insecure");
      call("signal", "", JSON.stringify({ via: "insecure", host: "" }));
    });
    if (!ticker) {
      ticker = setInterval(function () {
        refresh();
        checkNoPath();
        if (Object.keys(links).some(function (id) { return links[id].open; })) {
          call("tick", "", "");
          Object.keys(links).forEach(function (id) { checkPath(id, links[id]); });
        }
        if (info.role === "host") closeStale();
        else if (!anyOpen() && sig && sig.ready && Date.now() - lastHello > HELLO_EVERY) helloAll();
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
    bind: function (callFn) { call = callFn; },
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
        var ids = info.role === "host" ? [to] : Object.keys(links);
        ids.forEach(function (id) {
          var link = links[id];
          if (link && link.open) sendOn(link, text);
          // A reply to a channel whose open event has not come yet: sent once it does.
          else if (link && link.dc && link.out.length < 100) link.out.push(text);
        });
      });
    },
    stats: stats,
    // The room's topic on the relay and brokers (the tests look for it in what they carried).
    topic: function () { return topic; },
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
