// Build-time Pyodide memory snapshot: boot Pyodide in Node, unpack our Python, import it,
// and write pyodide.makeMemorySnapshot() to a file the browser worker can boot from with
// loadPyodide({_loadSnapshot}). Called by tools/snapshot.py (make_snapshot); see its
// docstring for what was measured and the exact recipe for loading the result.
//
//   node tools/snapshot.mjs --pyodide node_modules/pyodide \
//        --wheel dist/wheels/pygames-0.1.0-py3-none-any.whl \
//        --zip pgui.zip --import pgui.session_glue --out /tmp/snapshot.bin [--verify]
//
// --wheel and --import may be repeated (or take comma-separated lists); --zip is unpacked
// into /home/pyodide (Pyodide's home and working directory), wheels into site-packages.
// --verify loads the snapshot again in Node and checks the modules are there.
// Progress and sizes go to stderr; stdout stays empty (Python's own output included).
//
// What a snapshot holds and what it does not (Pyodide 314.0.7, read from pyodide.asm.mjs):
// * the whole Wasm heap (Python objects, sys.modules, importlib's caches), plus a JSON
//   list of the JS objects Python referenced; at snapshot time every such object must be
//   reachable from globalThis by a property path (recorded through a proxy) or be
//   Pyodide's own API, else makeMemorySnapshot throws. So: no JS objects kept by Python.
// * NOT the filesystem: MEMFS file data lives in JS, outside the heap. After loading,
//   only python_stdlib.zip (written again by loadPyodide) and the home directory exist;
//   wheels and zips must be unpacked again before importing anything not yet imported.
// * a BUILD_ID check: it loads only with the very same pyodide.asm.wasm/.mjs build.
// * Python's state as of snapshot time, the same for every visitor: random's seed, the str
//   hash secret, os.environ (LANG=C.UTF-8 from Node, where a browser boot says the
//   browser's language), sys.path (loadPyodide inserts "" again: harmless). Reseed
//   `random` after loading (random.seed()).
// * nothing Node-specific: no NODEFS mount (only /dev /home /lib /proc /tmp), and JS
//   objects reached through `js` are recorded as paths from globalThis and looked up again
//   in the worker (read from pyodide.asm.mjs: a Node-only global such as js.process would
//   come back as null, a deeper one such as js.process.versions would make loading throw;
//   our modules reference no JS at import time).

import { parseArgs } from "node:util";
import { readFile, writeFile, rename, mkdir } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";

const HOME = "/home/pyodide";
const MODULE_NAME = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/;

function fail(message) {
  process.stderr.write(`snapshot.mjs: ${message}\n`);
  process.exit(2);
}

function list(values) {
  return (values ?? []).flatMap((v) => v.split(",")).map((v) => v.trim()).filter(Boolean);
}

const { values } = parseArgs({
  options: {
    pyodide: { type: "string" },
    wheel: { type: "string", multiple: true },
    zip: { type: "string", multiple: true },
    import: { type: "string", multiple: true },
    out: { type: "string" },
    verify: { type: "boolean", default: false },
  },
  strict: true,
});
if (!values.pyodide) fail("--pyodide DIR is required");
if (!values.out) fail("--out FILE is required");
const pyodideDir = path.resolve(values.pyodide);
const wheels = list(values.wheel).map((p) => path.resolve(p));
const zips = list(values.zip).map((p) => path.resolve(p));
const modules = list(values.import);
for (const m of modules) if (!MODULE_NAME.test(m)) fail(`not a module name: ${m}`);
const out = path.resolve(values.out);

const log = (text) => process.stderr.write(`snapshot.mjs: ${text}\n`);
const quiet = { stdout: (s) => process.stderr.write(s + "\n"), stderr: (s) => process.stderr.write(s + "\n") };

const { loadPyodide } = await import(pathToFileURL(path.join(pyodideDir, "pyodide.mjs")).href);

// A Uint8Array, not a Node Buffer (Pyodide rejects Buffer: "Unknown typed array type").
async function bytes(file) {
  const b = await readFile(file);
  return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
}

async function unpackAll(py) {
  const site = py._api.sitepackages;
  for (const w of wheels) py.unpackArchive(await bytes(w), "wheel", { extractDir: site });
  for (const z of zips) py.unpackArchive(await bytes(z), "zip", { extractDir: HOME });
}

// Python source that imports the modules (names validated above; JSON strings are valid
// Python literals for them), without handing any JS object to Python.
function importCode(names) {
  return `import importlib\nfor _m in ${JSON.stringify(names)}:\n    importlib.import_module(_m)\ndel _m\n`;
}

// Uncaught errors would make Node print the line of minified pyodide.asm.mjs they came
// from (over 1 MB): print the message and the stack only.
// A Python error's message is its traceback: print that, not the JS stack below it.
const describe = (e) => (e?.type && e?.message) ? `Python ${e.message}` : (e?.stack || String(e));
process.on("uncaughtException", (e) => fail(describe(e)));
process.on("unhandledRejection", (e) => fail(describe(e)));

const t0 = performance.now();
// _sysExecutable: Emscripten's program name, else Node's script path, which would be baked
// into os.environ["_"] of every visitor; "./this.program" is what a browser boot has.
const py = await loadPyodide({
  indexURL: pyodideDir + "/", _makeSnapshot: true, _sysExecutable: "./this.program", ...quiet,
});
await unpackAll(py);
py.runPython(importCode(modules));
// Leave nothing behind that the snapshot should not carry: collected garbage, the
// __main__ helpers, importlib's negative caches.
py.runPython("import gc, importlib; importlib.invalidate_caches(); gc.collect()");
const snapshot = py.makeMemorySnapshot();
await mkdir(path.dirname(out), { recursive: true });
await writeFile(out + ".tmp", snapshot);
await rename(out + ".tmp", out);
log(`${out}: ${snapshot.length} bytes, ${modules.length} module(s) imported, ` +
    `${Math.round(performance.now() - t0)} ms`);

if (values.verify) {
  const again = await loadPyodide({ indexURL: pyodideDir + "/", _loadSnapshot: snapshot, ...quiet });
  const missing = again.runPython(
    `import sys\n",".join(m for m in ${JSON.stringify(modules)} if m not in sys.modules)`);
  if (missing) fail(`verify: not in sys.modules after loading the snapshot: ${missing}`);
  await unpackAll(again);
  log("verify: snapshot loads in Node, modules present, files unpacked again");
}
