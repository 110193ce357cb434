// Starting Python: Pyodide from our own origin, our wheel and the app's modules (pgui).
//
// Used by the Python worker (pyworker.mjs) and by the tests' probes. It reads runtime.json
// (written by the build, tools/dist.py) beside this file:
//   {pyodide: "./pyodide/", wheels: [...], archives: [...], files: {url: path},
//    lazy: {module: url}, main: "./worker.py", snapshot: "./py/snapshot.bin" | null}
// - every download starts at once, beside Pyodide's own (they do not wait for each other);
// - wheels are unpacked into site-packages, archives (the app's modules) and files into
//   the home folder, which is on sys.path;
// - `lazy` names modules fetched only when first imported (a game's own UI, the QR-code
//   wheel): worker.py's importer fetches them then.
//
// It touches no storage (no localStorage, IndexedDB or Cache Storage, unlike PyScript's
// package cache), so it starts in a cross-site iframe whose browser refuses all of them.
//
// The memory snapshot (runtime.json's `snapshot`, made at build time by tools/snapshot.py:
// Pyodide's memory with our modules imported) starts Python several times faster, but it
// is ~4.5 MB more to download. `snapshot`:
//   "cached" (default): boot from it when the browser has it already (the offline copy
//            fetches it in the background after a first start; the HTTP cache), else bare;
//   "always": fetch it now (beside Pyodide's files) and boot from it;
//   "never":  bare.
// A snapshot that does not load (another Pyodide build, a failed download) falls back to
// the bare boot. A snapshot holds no files: ours are unpacked again either way.

const HOME = "/home/pyodide";

function fetchOk(url, as) {
  return fetch(url).then((r) => {
    if (!r.ok) throw new Error(`${url}: HTTP ${r.status}`);
    return as === "text" ? r.text() : r.arrayBuffer();
  });
}

function writeFile(py, path, data) {
  const parts = path.split("/");
  let dir = HOME;
  for (const part of parts.slice(0, -1)) {
    dir += "/" + part;
    try { py.FS.mkdir(dir); } catch (e) { /* exists */ }
  }
  py.FS.writeFile(HOME + "/" + path, typeof data === "string" ? data : new Uint8Array(data));
}

// The snapshot runtime.json names, byte for byte where it counts: its size and its head
// (magic number, header length, Pyodide's build id).
function isSnapshot(bytes, cfg) {
  if (!bytes || bytes.byteLength !== cfg.snapshot_size) return false;
  const head = new Uint8Array(bytes, 0, 48);
  let hex = "";
  for (const b of head) hex += b.toString(16).padStart(2, "0");
  return hex === cfg.snapshot_head;
}

// -> {py, config, main (worker.py's text, if any), boot: {ms, snapshot: bool}}
export async function boot({ config = "./runtime.json", progress = () => {}, snapshot = "cached",
                             stdout = (t) => console.log(t) } = {}) {
  const t0 = performance.now();
  const configUrl = new URL(config, import.meta.url);
  const cfg = await fetchOk(configUrl, "text").then(JSON.parse);
  const url = (p) => new URL(p, configUrl).href;
  // Everything downloads at once, beside Pyodide's own files.
  const wheels = (cfg.wheels || []).map((w) => fetchOk(url(w)));
  const archives = (cfg.archives || []).map((a) => fetchOk(url(a)));
  const files = Object.entries(cfg.files || {}).map(
    ([u, path]) => fetchOk(url(u)).then((data) => [path.replace(/^\.\//, ""), data]));
  const main = cfg.main ? fetchOk(url(cfg.main), "text") : Promise.resolve("");
  let image = null;
  if (cfg.snapshot && snapshot === "always") {
    image = fetchOk(url(cfg.snapshot));
    image.catch(() => {});  // a failed download: the bare boot below
    // Pyodide's own files download meanwhile (into the HTTP cache, where it finds them).
    for (const f of ["pyodide.asm.wasm", "python_stdlib.zip", "pyodide.asm.mjs"]) {
      fetch(url(cfg.pyodide + f)).then((r) => r.arrayBuffer(), () => {}).catch(() => {});
    }
  } else if (cfg.snapshot && snapshot !== "never") {
    image = await fetch(url(cfg.snapshot), { cache: "only-if-cached", mode: "same-origin" })
      .then((r) => (r.ok ? r.arrayBuffer() : null), () => null);
  }
  for (const p of [...wheels, ...archives, ...files, main]) p.catch(() => {});  // awaited below
  progress("runtime");
  const { loadPyodide } = await import(url(cfg.pyodide + "pyodide.mjs"));
  const options = { indexURL: url(cfg.pyodide), stdout, stderr: stdout };
  let py;
  let fromSnapshot = false;
  // The snapshot's bytes are checked before Pyodide starts: Pyodide cannot be started
  // twice in one worker after a failed start (and may wait forever on a snapshot promise
  // that fails late), so a snapshot that is not this build's means a bare start here, and
  // one that passes the check but fails to load asks for a new worker that starts bare
  // (err.retryBare: pyworker.mjs, glue.js).
  const bytes = image ? await Promise.resolve(image).catch(() => null) : null;
  if (bytes && isSnapshot(bytes, cfg)) {
    try {
      py = await loadPyodide({ ...options, _loadSnapshot: bytes });
      fromSnapshot = true;
    } catch (err) {
      const retry = new Error(`the memory snapshot did not load (${(err && err.message) || err})`);
      retry.retryBare = true;
      throw retry;
    }
  } else {
    if (bytes) console.warn("pygames: not this build's memory snapshot; starting without it");
    py = await loadPyodide(options);
  }
  // Everyone's snapshot holds the same random state: draw a fresh one (deals, seeds).
  if (fromSnapshot) py.runPython("import random\nrandom.seed()");
  progress("games");
  const site = py.runPython("import sysconfig; sysconfig.get_path('purelib')");
  for (const w of await Promise.all(wheels)) py.unpackArchive(w, "wheel", { extractDir: site });
  for (const a of await Promise.all(archives)) py.unpackArchive(a, "zip", { extractDir: HOME });
  for (const [path, data] of await Promise.all(files)) writeFile(py, path, data);
  const lazy = {};
  for (const [name, u] of Object.entries(cfg.lazy || {})) lazy[name] = url(u);
  py.globals.set("_PYGAMES_LAZY", py.toPy(lazy));
  py.runPython(`import sys\nif ${JSON.stringify(HOME)} not in sys.path: sys.path.insert(0, ${JSON.stringify(HOME)})`);
  return { py, config: cfg, main: await main,
           boot: { ms: Math.round(performance.now() - t0), snapshot: fromSnapshot } };
}
