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
// With a memory snapshot (runtime.json's `snapshot`, made at build time by
// tools/snapshot.py) Pyodide starts from it, and from scratch if that fails.

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

// -> {py, config, main (worker.py's text, if any), boot: {ms, snapshot: bool}}
export async function boot({ config = "./runtime.json", progress = () => {}, snapshot = true,
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
  const image = snapshot && cfg.snapshot ? fetchOk(url(cfg.snapshot)).catch(() => null) : null;
  for (const p of [...wheels, ...archives, ...files, main]) p.catch(() => {});  // awaited below
  progress("runtime");
  const { loadPyodide } = await import(url(cfg.pyodide + "pyodide.mjs"));
  const options = { indexURL: url(cfg.pyodide), stdout, stderr: stdout };
  let py = null;
  let fromSnapshot = false;
  const bytes = image && await image;
  if (bytes) {
    try {
      py = await loadPyodide({ ...options, _loadSnapshot: bytes });
      fromSnapshot = true;
    } catch (err) {
      console.warn("pygames: the memory snapshot did not load; starting without it", err);
    }
  }
  if (!py) py = await loadPyodide(options);
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
