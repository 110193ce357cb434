"""Bytecode for Pyodide's Python, made at build time (issue 11: startup).

Pyodide compiles every module it imports from its source, on every page load: its own
standard library ships no bytecode, and nor would our wheel. For our modules the build
(``tools/dist.py``) ships ``__pycache__/<name>.<tag>.pyc`` beside each source, made by
Pyodide's own Python (Node and ``node_modules/pyodide``, which the build has already), so
the magic number and the bytecode are that interpreter's. They are *unchecked hash-based*
.pyc files (PEP 552): the import system uses them without comparing a timestamp (a wheel's
files get new ones when Pyodide unpacks it). Their header still carries the hash of the
source they were made from, so a test in Pyodide can prove each one is its shipped
source's.

Each result is kept in ``.wheel-cache/pyc/<pyodide version>/`` under its source's sha256,
so an unchanged file is not compiled again. Measured in Chromium (issue 11): opening a
Kiri-ai table went from ~150–330 ms of Python after start-up to ~45–115 ms.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYODIDE = ROOT / "node_modules" / "pyodide"
CACHE = ROOT / ".wheel-cache" / "pyc"

#: Reads [[name, source], ...] as JSON on stdin; prints [cache_tag, [hex of each .pyc]].
NODE_SCRIPT = r"""
import { loadPyodide } from "%(pyodide)s/pyodide.mjs";
const chunks = [];
for await (const c of process.stdin) chunks.push(c);
const py = await loadPyodide({ indexURL: "%(pyodide)s/", stdout: () => {}, stderr: () => {} });
py.globals.set("FILES", Buffer.concat(chunks).toString("utf8"));
const out = py.runPython(`
import importlib.util, json, sys
from importlib._bootstrap_external import _code_to_hash_pyc
done = []
for name, text in json.loads(FILES):
    data = text.encode()
    code = compile(data, name, "exec", dont_inherit=True)
    done.append(_code_to_hash_pyc(code, importlib.util.source_hash(data), False).hex())
json.dumps([sys.implementation.cache_tag, done])
`);
process.stdout.write(out + "\n");
"""


class BytecodeError(RuntimeError):
    pass


def runtime_version() -> str:
    return json.loads((PYODIDE / "package.json").read_text())["version"]


def pyc_files(sources: dict[str, Path]) -> dict[str, Path]:
    """``{"pkg/mod.py": source}`` -> ``{"pkg/__pycache__/mod.<tag>.pyc": cached .pyc}``.

    Compiles (one Node run) only the sources the cache does not hold yet."""
    node = shutil.which("node")
    if not node:
        raise BytecodeError("node not found: the build needs Node.js (it runs npm too)")
    cache = CACHE / runtime_version()
    cache.mkdir(parents=True, exist_ok=True)
    digests = {rel: hashlib.sha256(path.read_bytes()).hexdigest()
               for rel, path in sources.items()}
    tag_file = cache / "cache_tag"
    missing = sorted(rel for rel, d in digests.items() if not (cache / f"{d}.pyc").is_file())
    if missing or not tag_file.is_file():
        todo = missing or sorted(digests)[:1]
        payload = json.dumps([[rel, sources[rel].read_text(encoding="utf-8")]
                              for rel in todo])
        script = NODE_SCRIPT % {"pyodide": PYODIDE.as_posix()}
        run = subprocess.run([node, "--input-type=module", "-e", script], input=payload,
                             capture_output=True, text=True, cwd=ROOT)
        if run.returncode != 0:
            raise BytecodeError(f"compiling for Pyodide failed:\n{run.stderr[-2000:]}")
        tag, blobs = json.loads(run.stdout.strip().splitlines()[-1])
        for rel, blob in zip(todo, blobs, strict=True):
            tmp = cache / f"{digests[rel]}.tmp"
            tmp.write_bytes(bytes.fromhex(blob))
            tmp.replace(cache / f"{digests[rel]}.pyc")
        tag_file.write_text(tag + "\n")
    tag = tag_file.read_text().strip()
    out = {}
    for rel, digest in digests.items():
        folder, _, name = rel.rpartition("/")
        stem = name[:-3] if name.endswith(".py") else name
        out[f"{folder}/__pycache__/{stem}.{tag}.pyc".lstrip("/")] = cache / f"{digest}.pyc"
    return out
