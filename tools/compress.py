"""Compressed twins in dist/: ``<file>.br`` (brotli) and ``<file>.gz`` (gzip) beside every
file worth compressing, which ``python build.py serve`` (tools/relay.py) sends with
``Content-Encoding`` to a browser that accepts it. The browser decodes them: a page, and
the service worker's precache, see the original bytes (the precache lists no twin).

What is compressed (:func:`worth`): files of at least :data:`MIN_SIZE` bytes of a text or
wasm type (:data:`SUFFIXES`), always; ``.zip`` files under ``py/``, any ``.bin`` (a memory
snapshot, ``py/snapshot.bin``) and Pyodide's ``python_stdlib.zip`` only where gzip saves at
least :data:`MIN_SAVING` of them (measured: python_stdlib.zip, whose members are deflated
already, saves 1.7 % with gzip and 2 % with brotli, so it is sent as it is; wheels are
never tried, they are deflated zips too). ``sw.js`` and ``precache.json`` are not: the
build writes them after this step, and they are small.

Brotli runs in Node, not in this Python: the standard library has no brotli, Node is
there whenever the build is (it runs ``npm ci`` for Pyodide) and its zlib has had
``brotliCompressSync`` since Node 11, so a short ``node -e`` program (:data:`_BROTLI_JS`)
does it with no new dependency (the PyPI ``brotli`` package would be one more pinned
native wheel for every platform the build runs on). Without Node only the ``.gz`` twins
are written (and said so). Gzip is Python's ``gzip`` at level 9 with ``mtime=0``: the same
input gives the same bytes.

Quality: brotli's best (11) costs about 3.6 s per MB, and Pyodide's 9.6 MB
``pyodide.asm.wasm`` would take 35 s on a 2-core machine (quality 10: 20 s). Files of
:data:`LARGE` bytes or more get quality 9 (:data:`LARGE_QUALITY`): the wasm in 2.2 s to
32.3 % of its size (quality 10: 29.1 %, 11: 28.6 %; gzip -9: 36.8 %); the rest get 11
(``pyodide.asm.mjs`` 1.25 MB in 2.1 s to 16.6 %). Node's brotli runs in
:data:`BROTLI_PROCESSES` processes while Python gzips: a first compression of the whole of
dist/ (64 files, 12.1 MB) costs about 8 s of CPU, 7 to 9 s of wall time on that machine
while it was busy with other work; a rerun with nothing changed, 0.1 s.

Only what changed is compressed again: each twin carries its source's modification time
(``os.utime``), and a ``.gz`` also states its source's size in its trailer; a twin is
fresh when both match (:func:`_fresh`). A rebuild that changed nothing reads a few bytes
per file (and gzips again, to decide, the conditional files found not worth it: about
3 MB of zips, 0.1 s). That needs the build's own file syncing to leave the twins of the
files it keeps in place. The server serves a twin only if it is at least as new as its
source, so a file replaced after the last compression is sent as it is, never an old twin.

Twins whose source is gone, or no longer worth compressing, are deleted. dist/ must not
ship files of its own ending in ``.br`` or ``.gz``: they would be taken for twins.
"""

from __future__ import annotations

import gzip
import json
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

from tools.paths import DIST, BuildError, log

#: The twins' suffixes and the Content-Encoding each stands for, in order of preference.
ENCODINGS = {".br": "br", ".gz": "gzip"}
TWIN_SUFFIXES = tuple(ENCODINGS)
#: Text and wasm: always worth compressing (at MIN_SIZE bytes or more).
SUFFIXES = frozenset({".js", ".mjs", ".css", ".html", ".json", ".wasm", ".py", ".svg",
                      ".txt", ".webmanifest"})
MIN_SIZE = 1024
#: Compressed only where gzip saves at least MIN_SAVING of the file.
MIN_SAVING = 0.10
#: Written after this step by the build (write_precache): never compressed.
SKIP = frozenset({"sw.js", "precache.json"})
QUALITY = 11
LARGE = 2_000_000
LARGE_QUALITY = 9
GZIP_LEVEL = 9
BROTLI_PROCESSES = 2

#: Node program: argv[1] is a JSON list of [source, target, quality]; writes each target.
_BROTLI_JS = r"""
const fs = require("fs"), zlib = require("zlib"), C = zlib.constants;
for (const [src, dst, quality] of JSON.parse(process.argv[1])) {
  const data = fs.readFileSync(src);
  fs.writeFileSync(dst, zlib.brotliCompressSync(data, { params: {
    [C.BROTLI_PARAM_QUALITY]: quality,
    [C.BROTLI_PARAM_SIZE_HINT]: data.length,
  } }));
}
"""


def is_twin(rel: str) -> bool:
    """``rel`` names a compressed twin (``<file>.br`` or ``<file>.gz``)."""
    return rel.endswith(TWIN_SUFFIXES)


def _conditional(rel: str) -> bool:
    """Compressed only if it saves MIN_SAVING (zips that may hold stored members, blobs)."""
    return (rel.endswith(".bin") or rel == "pyodide/python_stdlib.zip"
            or (rel.startswith("py/") and rel.endswith(".zip")))


def worth(rel: str, size: int) -> bool | None:
    """Whether the file ``rel`` (of ``size`` bytes) of dist/ gets twins: True, False, or
    None for "if gzip saves MIN_SAVING of it" (see the module docstring)."""
    if size < MIN_SIZE or rel in SKIP or is_twin(rel):
        return False
    if _conditional(rel):
        return None
    return os.path.splitext(rel)[1].lower() in SUFFIXES


def _gz_size_field(path: Path) -> int | None:
    """The uncompressed size (mod 2**32) a gzip file's trailer states, or None."""
    try:
        with open(path, "rb") as f:
            f.seek(-4, os.SEEK_END)
            return int.from_bytes(f.read(4), "little")
    except OSError:
        return None


def _fresh(src: os.stat_result, twin: Path) -> bool:
    try:
        st = twin.stat()
    except FileNotFoundError:
        return False
    if st.st_mtime_ns != src.st_mtime_ns or st.st_size == 0:
        return False
    return twin.suffix != ".gz" or _gz_size_field(twin) == src.st_size & 0xFFFFFFFF


def _walk(dist_dir: Path) -> tuple[dict[str, Path], list[str]]:
    """({rel: path} of every file that is not a twin, [rel of every twin]), hidden files
    and folders left out."""
    files: dict[str, Path] = {}
    twins: list[str] = []
    for dirpath, dirnames, filenames in os.walk(dist_dir):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        for name in sorted(filenames):
            if name.startswith("."):
                continue
            path = Path(dirpath) / name
            rel = path.relative_to(dist_dir).as_posix()
            if is_twin(rel):
                twins.append(rel)
            else:
                files[rel] = path
    return files, twins


def _cost(size: int, quality: int) -> float:
    return size * (16 if quality >= 11 else 1)  # brotli 11 is ~16x slower per byte than 9


def _brotli(node: str, jobs: list[tuple[Path, Path, int]]) -> list[subprocess.Popen]:
    """Start BROTLI_PROCESSES Node processes sharing ``jobs`` (largest first, each to the
    least loaded); wait for them with :func:`_wait`."""
    lanes: list[list] = [[] for _ in range(min(BROTLI_PROCESSES, len(jobs)))]
    loads = [0.0] * len(lanes)
    for src, dst, quality in sorted(jobs, key=lambda j: -_cost(j[0].stat().st_size, j[2])):
        i = loads.index(min(loads))
        lanes[i].append([str(src), str(dst), quality])
        loads[i] += _cost(src.stat().st_size, quality)
    return [subprocess.Popen([node, "-e", _BROTLI_JS, json.dumps(lane)],
                             stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True) for lane in lanes]


def _wait(procs: list[subprocess.Popen]) -> None:
    errors = []
    for p in procs:
        out, err = p.communicate()
        if p.returncode:
            errors.append((out + err).strip())
    if errors:
        raise BuildError("brotli (node) failed:\n" + "\n".join(errors))


def _remove(path: Path) -> None:
    try:
        path.unlink()
    except FileNotFoundError:
        pass


def write_compressed(dist_dir: Path | str = DIST, *, quiet: bool = False
                     ) -> dict[str, tuple[int, int | None, int]]:
    """Write the ``.br`` and ``.gz`` twins of every file of ``dist_dir`` worth it (only
    those whose source changed), delete stale twins. Returns ``{rel: (raw bytes, br bytes
    or None without Node, gz bytes)}`` of every file that has twins now."""
    dist_dir = Path(dist_dir)
    t0 = time.perf_counter()
    node = shutil.which("node")
    files, twins = _walk(dist_dir)
    stats = {rel: path.stat() for rel, path in files.items()}
    verdict = {rel: worth(rel, st.st_size) for rel, st in stats.items()}

    for rel in twins:  # twins of nothing, or of a file not worth compressing
        src = rel[:-3]
        if verdict.get(src) is False or src not in files:
            _remove(dist_dir / rel)

    def fresh(rel: str) -> bool:
        st, path = stats[rel], files[rel]
        br = path.with_name(path.name + ".br")
        if node is None and not _fresh(st, br):
            _remove(br)  # no Node to renew it: better none than an old one
        return _fresh(st, path.with_name(path.name + ".gz")) and (node is None or _fresh(st, br))

    todo = [rel for rel, v in verdict.items() if v is not False and not fresh(rel)]
    done: list[str] = []
    if todo:
        with tempfile.TemporaryDirectory(prefix=".compress-", dir=dist_dir) as tmp:
            staged: dict[str, dict[str, Path]] = {}  # rel -> {suffix: staged file}
            number = {rel: i for i, rel in enumerate(todo)}

            def stage(rel: str, suffix: str) -> Path:
                path = Path(tmp) / f"{number[rel]}{suffix}"
                staged.setdefault(rel, {})[suffix] = path
                return path

            def gzip_one(rel: str) -> bool:
                data = files[rel].read_bytes()
                packed = gzip.compress(data, GZIP_LEVEL, mtime=0)
                if verdict[rel] is None and len(packed) > len(data) * (1 - MIN_SAVING):
                    return False
                stage(rel, ".gz").write_bytes(packed)
                return True

            # The conditional ones first (gzip decides whether brotli is worth it too):
            # they are few and, when not worth it, quick to try.
            kept = [rel for rel in todo if verdict[rel] is not None or gzip_one(rel)]
            for rel in set(todo) - set(kept):
                for suffix in TWIN_SUFFIXES:
                    _remove(files[rel].with_name(files[rel].name + suffix))
            jobs = []
            if node:
                for rel in kept:
                    size = stats[rel].st_size
                    jobs.append((files[rel], stage(rel, ".br"),
                                 LARGE_QUALITY if size >= LARGE else QUALITY))
            procs = _brotli(node, jobs) if jobs else []
            try:
                for rel in kept:  # gzip here while Node compresses
                    if verdict[rel] is not None:
                        gzip_one(rel)
            finally:
                _wait(procs)
            for rel in kept:
                st, path = stats[rel], files[rel]
                try:
                    if path.stat().st_mtime_ns != st.st_mtime_ns:
                        continue  # replaced meanwhile: the next build compresses it
                except FileNotFoundError:
                    continue
                for suffix, staged_file in staged[rel].items():
                    target = path.with_name(path.name + suffix)
                    os.replace(staged_file, target)
                    os.utime(target, ns=(st.st_atime_ns, st.st_mtime_ns))
                if node is None:
                    _remove(path.with_name(path.name + ".br"))
                done.append(rel)

    figures = {}
    for rel, path in files.items():
        gz = path.with_name(path.name + ".gz")
        if verdict[rel] is not False and gz.is_file() and path.is_file():
            br = path.with_name(path.name + ".br")
            figures[rel] = (stats[rel].st_size, br.stat().st_size if br.is_file() else None,
                            gz.stat().st_size)
    if done and not quiet:
        raw = sum(figures[r][0] for r in done)
        br = sum(figures[r][1] or 0 for r in done)
        gz = sum(figures[r][2] for r in done)
        how = f"br {br / 1e6:.2f} MB, " if node else "no brotli (node not found), "
        log(f"compressed {len(done)} file(s) in {time.perf_counter() - t0:.1f} s: "
            f"{raw / 1e6:.2f} MB -> {how}gz {gz / 1e6:.2f} MB")
    return figures


def twins(dist_dir: Path | str = DIST) -> dict[str, tuple[str, ...]]:
    """``{rel: encodings}`` of every file of ``dist_dir`` with a twin the server would
    send (one at least as new as the file): ``("br", "gzip")``, ``("gzip",)``..."""
    dist_dir = Path(dist_dir)
    files, _twins = _walk(dist_dir)
    out = {}
    for rel, path in files.items():
        mtime = path.stat().st_mtime_ns
        found = []
        for suffix, encoding in ENCODINGS.items():
            twin = path.with_name(path.name + suffix)
            if twin.is_file() and twin.stat().st_mtime_ns >= mtime:
                found.append(encoding)
        if found:
            out[rel] = tuple(found)
    return out
