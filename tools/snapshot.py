"""A Pyodide memory snapshot made at build time (Node), for the browser worker to boot from.

:func:`make_snapshot` runs ``node tools/snapshot.mjs``: it boots Pyodide in Node with
``loadPyodide({_makeSnapshot: true})``, unpacks our wheel(s) into site-packages and a zip
into ``/home/pyodide``, imports the given modules and writes
``pyodide.makeMemorySnapshot()`` (the whole Wasm heap plus a small JSON header) to ``out``.

What a snapshot is (Pyodide 314.0.7, read in pyodide.mjs/pyodide.asm.mjs and measured):

* The Wasm heap only. The filesystem (MEMFS) is not in it: after loading, ``/home/pyodide``
  and site-packages are empty. Modules imported before the snapshot work without their
  files; any later import of a module that was not (``pgui.cardia_ui``, ``pygames.records``,
  ``pgui.link``...) fails with ModuleNotFoundError / "cannot import name" until the wheel
  and the zip are unpacked again. Stdlib imports keep working: loadPyodide still fetches
  and writes ``python_stdlib.zip`` (the zipimporter's index in the heap points into it, so
  it must be the very same file).
* It loads only into the same Pyodide build (BUILD_ID check: "Snapshot build id
  mismatch"); the header's magic number is checked too. A Node-made snapshot loads in
  Chromium 156 (module Worker), with the same files: pyodide.mjs, pyodide.asm.mjs, the
  whole pyodide.asm.wasm, pyodide-lock.json and python_stdlib.zip are all still fetched.
* Python holding a JS object at snapshot time fails the build ("Can't serialize object at
  index N") unless the object was reached from ``js`` (globalThis): those are recorded as
  property paths and looked up again in the worker. Our modules reference no JS on import.
* State is frozen for every visitor: ``random``'s seed (two loads draw the same
  numbers: reseed), the str hash secret, ``os.environ`` (LANG=C.UTF-8; ``_`` is made
  "./this.program", not the build's script path). Nothing Node-specific is mounted.
* Size: the heap is 31,457,424 bytes (480 Wasm pages) with either module set; gzip -9
  6.44-6.56 MB (session_glue only) / 7.04-7.11 MB (plus all engines and game UIs);
  brotli (Node zlib) q9 4.95 / 5.56 MB, q10 4.42 / 5.02 MB, q11 4.25 / 4.84 MB
  (q9 takes 6-8 s on this 2-core machine, q10 40-48 s, q11 68-74 s).

Recipe for the worker (measured in /tmp/snap, Chromium 156 headless, 2 cores)::

    const snap = fetch("snapshot.bin").then(r => { if (!r.ok) throw ...; return r.arrayBuffer(); });
    let py, fromSnapshot = true;
    try { py = await loadPyodide({indexURL: "./pyodide/", _loadSnapshot: snap}); }
    catch (e) { fromSnapshot = false; py = await loadPyodide({indexURL: "./pyodide/"}); }
    py.unpackArchive(wheel, "wheel", {extractDir: py._api.sitepackages});  // again, always
    py.unpackArchive(pguiZip, "zip", {extractDir: "/home/pyodide"});       // again, always
    if (fromSnapshot) py.runPython("import random; random.seed()");
    py.runPython("import pgui.session_glue");   // free when the snapshot holds it

``unpackArchive("wheel")`` does not default to site-packages: pass ``extractDir``. In Node
pass a Uint8Array, not a Buffer. The fallback catches a bad/old snapshot (build id) and a
failed fetch (404) alike; it then boots bare with the same files (from the HTTP cache).

Measured, from the page's ``new Worker()`` to the table painted (Kiri-ai replay table,
``game=kiriai&mode=replay&embed=on&seed=1``: a real table; the same query without
``seed`` opens the "Nothing to replay" error screen). Medians of 5, loopback, gzip
transfer; cold = fresh browser profile, warm = second load in it (all from the HTTP
disk cache; 0 bytes fetched); two series (A, B) on a shared 2-core machine whose other tests kept
the load average at 1-7, so single runs vary by up to 2x:

==============================================  ===========  ===========
boot                                             cold A / B   warm A / B
==============================================  ===========  ===========
bare: loadPyodide + unpack + import              4.1 / 5.1 s  2.6 / 3.2 s
snapshot of ``pgui.session_glue``                1.5 / 2.0 s  1.3 / 1.8 s
snapshot of session_glue + engines + game UIs    1.0 / 1.4 s  1.0 / 1.3 s
==============================================  ===========  ===========

Where the time goes (A, cold): the bare loadPyodide takes ~3.8 s (Python's start-up
compiles its stdlib from source); from a snapshot it takes ~0.8 s (fetch, wasm compile,
31 MB copy). Unpacking wheel + zips again: ~0.1-0.15 s. Import in the snapshot what the
first table needs: a module first imported after a snapshot load compiles slowly (the
interpreter's Wasm is not tiered up yet), so opening the table took ~0.4 s after the
session_glue-only snapshot (it imports pgui.replay, urllib.parse, hashlib, the Kiri-ai
engine and UI) and ~15 ms after the full one (bare: ~0.1 s).

Bytes: a first visit transfers 7.66 MB for the bare boot (wasm and .mjs gzipped) and
6.44-6.5 MB more with the snapshot (full one: 7.04 MB; brotli q11 4.25 / 4.84 MB). The
service worker's Cache Storage keeps the decoded 31.5 MB. Throttled to 40 Mbit/s (20 ms
RTT, 3 runs) the cold boot still won (4.7 s vs 7.1 s); at 10 Mbit/s it was even (~14 s
both), while warm boots stayed ~2x faster. In a Playwright ``new_context()`` (incognito,
memory cache) the 7 MB snapshot was not kept for the second load; a real profile keeps it.

Not byte-reproducible: two builds of the same inputs differ in ~8 MB (hash secret, RNG
states; with PYTHONHASHSEED=0 and random.seed(0) still ~2.7 KB: allocator ChaCha states).
So its URL/precache hash changes on every build; build it only when an input changed.

Pass the fetch *promise* as ``_loadSnapshot``: loadPyodide starts the wasm and stdlib
downloads before it awaits the snapshot, so they overlap; awaiting the snapshot first
delays the wasm. A rejected promise makes loadPyodide throw (caught by the fallback, which
then fetches the wasm again, from the HTTP cache).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterable
from pathlib import Path

try:
    from tools.paths import BuildError
except ImportError:  # run from elsewhere: the standard library is enough
    BuildError = RuntimeError  # type: ignore[misc,assignment]

SNAPSHOT_MJS = Path(__file__).resolve().with_name("snapshot.mjs")


class SnapshotError(BuildError):
    """Making the snapshot failed for a reason the message names."""


def _paths(value: str | os.PathLike[str] | Iterable[str | os.PathLike[str]] | None) -> list[Path]:
    if value is None:
        return []
    if isinstance(value, (str, os.PathLike)):
        return [Path(value)]
    return [Path(v) for v in value]


def make_snapshot(pyodide_dir: str | os.PathLike[str],
                  wheels: str | os.PathLike[str] | Iterable[str | os.PathLike[str]],
                  zip_path: str | os.PathLike[str] | Iterable[str | os.PathLike[str]] | None,
                  modules: str | Iterable[str], out: str | os.PathLike[str], *,
                  verify: bool = True, node: str | None = None,
                  timeout: float = 300) -> Path:
    """Write the memory snapshot of Pyodide (``pyodide_dir``: the npm package's folder,
    or dist/pyodide) with ``wheels`` unpacked into site-packages, ``zip_path`` (one zip or
    several) into /home/pyodide and ``modules`` imported, to ``out``; return ``out``.

    ``verify`` loads the result again in Node and checks the modules are there.
    Raises :class:`SnapshotError` if Node is missing, an input is missing, or the Node
    script fails (its stderr tail in the message)."""
    node = node or shutil.which("node")
    if not node:
        raise SnapshotError("node not found: making a Pyodide memory snapshot needs Node.js "
                            "(the same Node the build uses for npm)")
    pyodide = Path(pyodide_dir)
    for name in ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip"):
        if not (pyodide / name).is_file():
            raise SnapshotError(f"{pyodide / name} is missing (run npm ci, or build dist/)")
    wheel_list, zip_list = _paths(wheels), _paths(zip_path)
    for path in wheel_list + zip_list:
        if not path.is_file():
            raise SnapshotError(f"{path} is missing")
    names = [modules] if isinstance(modules, str) else list(modules)
    out = Path(out)
    cmd = [node, str(SNAPSHOT_MJS), "--pyodide", str(pyodide.resolve()),
           "--out", str(out.resolve())]
    for path in wheel_list:
        cmd += ["--wheel", str(path.resolve())]
    for path in zip_list:
        cmd += ["--zip", str(path.resolve())]
    for name in names:
        cmd += ["--import", name]
    if verify:
        cmd.append("--verify")
    try:
        run = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired as exc:
        raise SnapshotError(f"snapshot.mjs took more than {timeout:.0f} s") from exc
    if run.returncode != 0:
        raise SnapshotError(f"making the Pyodide snapshot failed:\n{run.stderr[-3000:]}")
    if not out.is_file():
        raise SnapshotError(f"snapshot.mjs wrote no {out}:\n{run.stderr[-3000:]}")
    return out


def main(argv: list[str] | None = None) -> int:
    """``python -m tools.snapshot --pyodide DIR --wheel W --zip Z --import M --out F``."""
    import argparse

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pyodide", required=True)
    ap.add_argument("--wheel", action="append", default=[])
    ap.add_argument("--zip", action="append", default=[])
    ap.add_argument("--import", dest="modules", action="append", default=[])
    ap.add_argument("--out", required=True)
    ap.add_argument("--no-verify", action="store_true")
    args = ap.parse_args(argv)
    path = make_snapshot(args.pyodide, args.wheel, args.zip, args.modules, args.out,
                         verify=not args.no_verify)
    print(f"{path}: {path.stat().st_size} bytes")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
