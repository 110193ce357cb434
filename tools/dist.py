"""Assembling dist/: the runtime files from npm, our wheel (with Pyodide's bytecode), the
app (web/ and public/, the rules pages, the generated pages), the app's Python modules as
archives (``py/``, with Pyodide's bytecode), the worker's ``runtime.json`` and, last, the
service worker's precache list.

Nothing is fetched at run time from a CDN: Pyodide comes from npm (``npm ci``, checked
against package-lock.json's integrity hashes) and is served from dist/; the runtime wheels
come from PyPI through pip, each checked against its pinned sha256.

``runtime.json`` is what ``web/pyboot.mjs`` starts: Pyodide's folder, the wheels to unpack,
``py/app.zip`` (pgui without any game's own modules), and ``lazy``: the modules fetched
only when imported, each game's own (``py/<game id>.zip``: ``pgui/<game id>_*.py``) and
the QR-code wheel (only link play draws a QR code).
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

from tools import bytecode, compress, docsbuild, snapshot
from tools.paths import DIST, NODE_MODULES, PUBLIC, ROOT, WEB, WHEEL_CACHE, BuildError, log

NPM_STAMP = NODE_MODULES / ".pygames-stamp"

PYODIDE_FILES = [
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
    "pyodide.js",  # optional
]
# Top-level entries of dist/ that the build manages itself (not copied from web/ or public/).
RUNTIME_DIRS = ("pyodide", "py", "wheels", "vendor")
#: Browser modules from npm besides Pyodide, copied into dist/vendor/ as they are (with their
#: licences): the MQTT client link play imports (only then) to signal through a broker.
VENDOR_FILES = {
    "mqtt.esm.js": ("mqtt", "dist/mqtt.esm.js"),
    "mqtt.LICENSE.md": ("mqtt", "LICENSE.md"),
    # AES-GCM, HKDF and SHA-256 in plain JS for pages that are no secure context (a LAN
    # game over plain http has no WebCrypto): link play seals its signaling with them there.
    **{f"noble-ciphers/{name}": ("@noble/ciphers", name)
       for name in ("aes.js", "_polyval.js", "utils.js", "LICENSE")},
    **{f"noble-hashes/{name}": ("@noble/hashes", name)
       for name in ("hkdf.js", "hmac.js", "sha2.js", "_md.js", "_u64.js", "utils.js", "LICENSE")},
}
SKIP_NAMES = {"__pycache__", ".DS_Store"}
SKIP_SUFFIXES = {".pyc", ".pyo"}

def _run(cmd: list[str], **kw) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, check=True, **kw)


# --------------------------------------------------------------------------- file syncing


def _wanted(path: Path, bytecode: bool = False) -> bool:
    if bytecode and (path.name == "__pycache__" or path.suffix == ".pyc"):
        return True
    return path.name not in SKIP_NAMES and path.suffix not in SKIP_SUFFIXES


def _tree_files(src: Path, skip_suffixes: tuple[str, ...] = (),
                bytecode: bool = False) -> dict[str, Path]:
    """Relative posix path -> source file, for every wanted file under ``src`` (with
    ``bytecode``, the .pyc files the build ships too)."""
    out: dict[str, Path] = {}
    if not src.is_dir():
        return out
    for dirpath, dirnames, filenames in os.walk(src):
        dirnames[:] = sorted(d for d in dirnames if _wanted(Path(d), bytecode))
        for name in sorted(filenames):
            p = Path(dirpath) / name
            if _wanted(p, bytecode) and not name.endswith(skip_suffixes):
                out[p.relative_to(src).as_posix()] = p
    return out


def _copy_if_changed(src: Path, dst: Path) -> bool:
    try:
        s, d = src.stat(), dst.stat()
        if s.st_size == d.st_size and s.st_mtime_ns == d.st_mtime_ns:
            return False
    except FileNotFoundError:
        pass
    dst.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy2(src, dst)
    return True


def _sync(mapping: dict[str, Path], dst_root: Path, keep=lambda rel: False) -> int:
    """Make ``dst_root`` hold exactly ``mapping`` (plus what ``keep(rel)`` protects)."""
    changed = 0
    for rel, src in mapping.items():
        changed += _copy_if_changed(src, dst_root / rel)
    if dst_root.is_dir():
        for dirpath, _dirnames, filenames in os.walk(dst_root, topdown=False):
            for name in filenames:
                p = Path(dirpath) / name
                rel = p.relative_to(dst_root).as_posix()
                source = rel[:-3] if compress.is_twin(rel) else rel  # twins go with their file
                if not any(r in mapping or keep(r) for r in (rel, source)):
                    p.unlink()
                    changed += 1
            d = Path(dirpath)
            if d != dst_root and not any(d.iterdir()):
                d.rmdir()
    return changed


# --------------------------------------------------------------------------- build steps


def ensure_node_modules() -> None:
    lock = ROOT / "package-lock.json"
    fresh = (
        NPM_STAMP.exists()
        and (NODE_MODULES / "pyodide").is_dir()
        and NPM_STAMP.stat().st_mtime >= lock.stat().st_mtime
    )
    if fresh:
        return
    npm = shutil.which("npm")
    if not npm:
        raise BuildError(
            "npm not found: install Node.js (which provides npm); build.py runs `npm ci` "
            "to fetch the pinned Pyodide and PyScript from the npm registry."
        )
    log("npm ci (Pyodide, integrity-checked by package-lock.json)")
    _run([npm, "ci", "--no-audit", "--no-fund"], cwd=ROOT)
    NPM_STAMP.write_text(f"npm ci at {time.strftime('%Y-%m-%d %H:%M:%S')}\n")


def copy_runtime() -> int:
    ensure_node_modules()
    pyo = NODE_MODULES / "pyodide"
    mapping = {}
    for name in PYODIDE_FILES:
        if (pyo / name).is_file():
            mapping[name] = pyo / name
        elif name != "pyodide.js":
            raise BuildError(f"missing {pyo / name}: delete node_modules/ and rebuild")
    changed = _sync(mapping, DIST / "pyodide")
    vendor = {}
    for name, (package, rel) in VENDOR_FILES.items():
        vendor[name] = NODE_MODULES / package / rel
        if not vendor[name].is_file():
            raise BuildError(f"missing {vendor[name]}: delete node_modules/ and rebuild")
    return changed + _sync(vendor, DIST / "vendor")


def _source_hash() -> str:
    h = hashlib.sha256()
    files = {f"pygames/{k}": v for k, v in _tree_files(ROOT / "pygames").items()}
    files["pyproject.toml"] = ROOT / "pyproject.toml"
    files["tools/bytecode.py"] = ROOT / "tools" / "bytecode.py"  # the wheel carries its .pyc
    for rel in sorted(files):
        h.update(rel.encode() + b"\0" + files[rel].read_bytes() + b"\0")
    h.update(bytecode.runtime_version().encode())
    return h.hexdigest()


#: Pure-Python wheels from PyPI that the app loads in Pyodide, pinned by name and sha256
#: (segno draws the invite link's QR code). pip downloads them into .wheel-cache/ once.
RUNTIME_WHEELS = {
    "segno-1.6.6-py3-none-any.whl":
        "28c7d081ed0cf935e0411293a465efd4d500704072cdb039778a2ab8736190c7",
}


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def fetch_runtime_wheels() -> list[Path]:
    """RUNTIME_WHEELS in dist/wheels/, each checked against its pinned sha256."""
    wheels = DIST / "wheels"
    wheels.mkdir(parents=True, exist_ok=True)
    out = []
    for name, digest in RUNTIME_WHEELS.items():
        cached = WHEEL_CACHE / name
        if not cached.is_file() or _sha256(cached) != digest:
            project, version = name.split("-")[:2]
            log(f"downloading {name} (pip download)")
            WHEEL_CACHE.mkdir(exist_ok=True)
            _run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps",
                  "--disable-pip-version-check", "--only-binary=:all:", "-d", str(WHEEL_CACHE),
                  f"{project}=={version}"], cwd=ROOT)
        if not cached.is_file() or _sha256(cached) != digest:
            raise BuildError(f"{name}: missing or not the pinned file (sha256 {digest})")
        _copy_if_changed(cached, wheels / name)
        out.append(wheels / name)
    for stale in wheels.glob("*.whl"):
        if stale.name not in RUNTIME_WHEELS and not stale.name.startswith("pygames-"):
            stale.unlink()
    return out


def build_wheel() -> Path:
    wheels = DIST / "wheels"
    stamp = wheels / ".source-sha256"
    digest = _source_hash()
    existing = sorted(wheels.glob("pygames-*.whl"))
    if len(existing) == 1 and stamp.exists() and stamp.read_text().strip() == digest:
        return existing[0]
    if not (ROOT / "pygames" / "__init__.py").is_file():
        raise BuildError("pygames/__init__.py is missing: there is no package to build")
    log("building the pygames wheel (pip wheel, flit_core backend)")
    with tempfile.TemporaryDirectory(prefix="pygames-wheel-") as tmp:
        _run(
            [
                sys.executable,
                "-m",
                "pip",
                "wheel",
                "--no-deps",
                "--quiet",
                "--disable-pip-version-check",
                "-w",
                tmp,
                str(ROOT),
            ],
            cwd=ROOT,
        )
        built = sorted(Path(tmp).glob("pygames-*.whl"))
        if len(built) != 1:
            raise BuildError(f"expected one pygames wheel, pip produced {built}")
        wheels.mkdir(parents=True, exist_ok=True)
        for old in wheels.glob("pygames-*.whl"):
            old.unlink()
        target = wheels / built[0].name
        _add_bytecode(built[0], target)
    stamp.write_text(digest + "\n")
    return target


def _add_bytecode(wheel: Path, target: Path) -> None:
    """Copy ``wheel`` to ``target`` with Pyodide's bytecode beside each module
    (:mod:`bytecode`), listed in its RECORD as a wheel's files must be."""
    with zipfile.ZipFile(wheel) as zin, tempfile.TemporaryDirectory() as tmp:
        names = [n for n in zin.namelist() if n.endswith(".py")]
        for n in names:
            zin.extract(n, tmp)
        pycs = bytecode.pyc_files({n: Path(tmp) / n for n in names})
        record = next(n for n in zin.namelist() if n.endswith(".dist-info/RECORD"))
        lines = zin.read(record).decode().splitlines()
        with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as zout:
            for item in zin.infolist():
                if item.filename != record:
                    zout.writestr(item, zin.read(item))
            for rel, path in sorted(pycs.items()):
                data = path.read_bytes()
                zout.writestr(zipfile.ZipInfo(rel, date_time=(2020, 1, 1, 0, 0, 0)), data,
                              zipfile.ZIP_DEFLATED)
                digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
                lines.insert(-1, f"{rel},sha256={digest.decode()},{len(data)}")
            zout.writestr(zin.getinfo(record), "\n".join(lines) + "\n")


def _render_pages() -> tuple[str, str, str]:
    # Drop cached pgui modules so a long-lived process (tests, serve) renders current code.
    for name in [m for m in sys.modules if m == "pgui" or m.startswith("pgui.")]:
        del sys.modules[name]
    from pgui.lobby import render_lobby
    from pgui.pages import render_embed, render_play

    pages = render_lobby(), render_play(), render_embed()
    for html in pages:
        if not isinstance(html, str) or not html.strip():
            raise BuildError("pgui.lobby/pages rendered no HTML")
    return pages


def pgui_bytecode() -> dict[str, Path]:
    """``pgui/__pycache__/<module>.<tag>.pyc`` for every module of web/pgui (:mod:`bytecode`)."""
    modules = _tree_files(WEB / "pgui")
    return bytecode.pyc_files({f"pgui/{rel}": path for rel, path in modules.items()
                               if rel.endswith(".py")})


def _game_of(rel: str, ids: list[str]) -> str:
    """The game whose own module ``rel`` (``<name>.py`` in pgui/) is, or ""."""
    name = rel.rsplit("/", 1)[-1]
    return next((gid for gid in ids if name.startswith(f"{gid}_")), "")


def _zip(path: Path, members: dict[str, Path]) -> bool:
    """Write ``members`` ({name in zip: file}) to ``path`` with fixed dates (same files,
    same bytes: the service worker's version changes only when the code does)."""
    buf = io.BytesIO()
    # Stored, not deflated: the server's brotli twin (tools/compress.py) is a quarter smaller
    # than deflate would be, and a worker unpacks stored members at no cost.
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_STORED) as z:
        for name in sorted(members):
            z.writestr(zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0)),
                       members[name].read_bytes(), zipfile.ZIP_STORED)
    data = buf.getvalue()
    if path.is_file() and path.read_bytes() == data:
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return True


def app_archives(pycs: dict[str, Path]) -> dict[str, dict[str, Path]]:
    """``{"app": {...}, "<game id>": {...}}``: pgui's modules and their bytecode, the
    games' own (``<game id>_*.py``) apart from the rest."""
    import pygames

    ids = list(pygames.game_ids())
    out: dict[str, dict[str, Path]] = {"app": {}}
    for rel, path in _tree_files(WEB / "pgui").items():
        if not rel.endswith(".py"):
            continue
        owner = _game_of(rel, ids) or "app"
        out.setdefault(owner, {})[f"pgui/{rel}"] = path
        pyc = next((k for k in pycs if k.startswith(f"pgui/__pycache__/{rel[:-3]}.")), None)
        if pyc:
            out[owner][pyc] = pycs[pyc]
    return out


def write_archives(pycs: dict[str, Path]) -> dict[str, dict[str, Path]]:
    """``dist/py/<name>.zip`` for each of :func:`app_archives` (which it returns); stale
    ones removed."""
    archives = app_archives(pycs)
    folder = DIST / "py"
    for name, members in archives.items():
        _zip(folder / f"{name}.zip", members)
    for stale in folder.glob("*.zip"):
        if stale.stem not in archives:
            stale.unlink()
    return archives


#: What the memory snapshot has imported already: the session, the tables a page opens
#: (a replay, link play), records, every engine, and the standard modules they need. Not a
#: game's own UI module, which stays a download of its own (py/<id>.zip).
SNAPSHOT_MODULES = ("pgui.session_glue", "pgui.table", "pgui.replay", "pgui.link",
                    "pgui.share", "pgui.saved", "pygames.records", "pygames.bots",
                    "urllib.parse", "hashlib", "json")
SNAPSHOT_CACHE = WHEEL_CACHE / "snapshot"


def write_snapshot(wheel: Path) -> str:
    """``dist/py/snapshot-<key>.bin``: Pyodide's memory with our wheel and pgui imported
    (:mod:`tools.snapshot`), made only when what goes into it changed (it takes ~15 s, and
    two makings of the same inputs differ in bytes); the name carries the inputs' key, so
    a browser never boots a stale one. Returns its path relative to dist/."""
    import pygames

    modules = [*SNAPSHOT_MODULES, *(f"pygames.{gid}" for gid in pygames.game_ids())]
    h = hashlib.sha256()
    app = DIST / "py" / "app.zip"
    for part in (wheel, app, snapshot.SNAPSHOT_MJS):
        h.update(part.read_bytes())
    h.update(bytecode.runtime_version().encode() + "\0".join(modules).encode())
    key = h.hexdigest()[:16]
    name = f"snapshot-{key}.bin"
    target = DIST / "py" / name
    if not target.is_file():
        cached = SNAPSHOT_CACHE / name
        if not cached.is_file():
            log(f"making the Pyodide memory snapshot ({len(modules)} modules imported)")
            SNAPSHOT_CACHE.mkdir(parents=True, exist_ok=True)
            for old in SNAPSHOT_CACHE.glob("snapshot-*.bin"):
                old.unlink()
            snapshot.make_snapshot(NODE_MODULES / "pyodide", [wheel], [app], modules,
                                   cached.with_suffix(".tmp"))
            cached.with_suffix(".tmp").replace(cached)
        shutil.copyfile(cached, target)
    for stale in (DIST / "py").glob("snapshot-*.bin"):
        if stale.name != name:
            stale.unlink()
    return f"py/{name}"


def runtime_config(wheel: Path, archives: dict[str, dict[str, Path]],
                   image: str | None = None) -> dict:
    """``runtime.json``: what ``web/pyboot.mjs`` starts (see the module docstring), from
    :func:`write_archives`' archives. Paths are relative to the file itself."""
    lazy = {member[:-3].replace("/", "."): f"./py/{name}.zip"
            for name, members in sorted(archives.items()) if name != "app"
            for member in sorted(members) if member.endswith(".py")}
    for whl in RUNTIME_WHEELS:
        lazy[whl.split("-", 1)[0]] = f"./wheels/{whl}"
    return {
        "pyodide": "./pyodide/",
        "wheels": [f"./wheels/{wheel.name}"],
        "archives": ["./py/app.zip"],
        "files": {},
        "lazy": lazy,
        "main": "./worker.py",
        # Booted from when the browser has it already (the offline copy, the HTTP cache)
        # or the page asks for it (?boot=snapshot): web/pyboot.mjs.
        "snapshot": f"./{image}" if image else None,
        # What the worker checks before booting from a snapshot it got (a stale cache, a
        # proxy's error page): its size and the first 48 bytes (magic, build id).
        **({"snapshot_size": (DIST / image).stat().st_size,
            "snapshot_head": _head(DIST / image, 48).hex()} if image else {}),
    }


def _head(path: Path, n: int) -> bytes:
    with open(path, "rb") as f:
        return f.read(n)


GENERATED = ("index.html", "play.html", "embed.html", "runtime.json", "sw.js", "precache.json")


def copy_app(wheel: Path) -> int:
    """Copy web/ then public/ into dist/ (pgui's Python goes into archives, its stylesheets
    as they are), drop stale files, write the generated ones."""
    mapping = {rel: p for rel, p in _tree_files(WEB).items()
               if not (rel.startswith("pgui/") and rel.endswith(".py"))}
    mapping.update(_tree_files(PUBLIC))
    for rel in GENERATED:
        mapping.pop(rel, None)
    # The rules pages: written into dist/docs/ (if changed), kept by _sync.
    docs = DIST / "docs"
    mapping.update({f"docs/{p.relative_to(docs).as_posix()}": p
                    for p in docsbuild.build_docs(docs)})
    changed = _sync(
        mapping,
        DIST,
        keep=lambda rel: rel in GENERATED or rel.split("/", 1)[0] in RUNTIME_DIRS,
    )
    archives = write_archives(pgui_bytecode())
    image = write_snapshot(wheel)
    lobby, play, embed = _render_pages()
    changed += _write_if_changed(DIST / "index.html", lobby)
    changed += _write_if_changed(DIST / "play.html", play)
    changed += _write_if_changed(DIST / "embed.html", embed)
    config = json.dumps(runtime_config(wheel, archives, image), indent=2) + "\n"
    changed += _write_if_changed(DIST / "runtime.json", config)
    return changed


#: What the service worker does not precache: itself, its list and the build's own stamps
#: (every other file of dist/ is the app's, offline included).
PRECACHE_SKIP = ("sw.js", "precache.json", "wheels/.")


def precache_files(dist_dir: Path | str = DIST) -> dict[str, str]:
    """{path in dist/: sha256 prefix} of every file the service worker precaches."""
    out = {}
    for rel, path in _tree_files(Path(dist_dir), bytecode=True).items():
        if (not rel.startswith(PRECACHE_SKIP) and not rel.startswith(".")
                and not compress.is_twin(rel)):  # the server sends twins, not the SW
            out[rel] = _sha256(path)[:16]
    return out


def write_precache(dist_dir: Path | str = DIST) -> str:
    """Write dist/precache.json ({version, files}) and dist/sw.js (web/sw.js with that
    version in it) from what ``dist_dir`` holds now; returns the version. Any change to a
    listed file, or to web/sw.js, gives a new version and so new service-worker bytes."""
    dist_dir = Path(dist_dir)
    files = precache_files(dist_dir)
    template = (WEB / "sw.js").read_text(encoding="utf-8")
    h = hashlib.sha256(template.encode())
    for rel in sorted(files):
        h.update(f"{rel}\0{files[rel]}\n".encode())
    version = h.hexdigest()[:16]
    marker = '"__PRECACHE_VERSION__"'
    if marker not in template:
        raise BuildError(f"web/sw.js lacks {marker}")
    listing = json.dumps({"version": version, "files": files}, indent=1, sort_keys=True)
    _write_if_changed(dist_dir / "precache.json", listing + "\n")
    _write_if_changed(dist_dir / "sw.js", template.replace(marker, json.dumps(version), 1))
    return version


def _write_if_changed(path: Path, text: str) -> bool:
    if path.exists() and path.read_text(encoding="utf-8") == text:
        return False
    path.write_text(text, encoding="utf-8")
    return True


def _size(path: Path) -> int:
    if path.is_file():
        return path.stat().st_size
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def _mb(n: int) -> str:
    return f"{n / 1e6:.1f} MB" if n >= 1e5 else f"{n / 1e3:.1f} kB"


def build(quiet: bool = False) -> Path:
    """Assemble dist/. Returns the dist directory. Raises BuildError."""
    t0 = time.perf_counter()
    DIST.mkdir(exist_ok=True)
    copy_runtime()
    wheel = build_wheel()
    fetch_runtime_wheels()
    copy_app(wheel)
    compress.write_compressed(DIST)  # .br/.gz twins (tools/compress.py)
    write_precache(DIST)  # last: it lists and hashes the finished dist/
    if not quiet:
        app = _size(DIST) - sum(_size(DIST / d) for d in RUNTIME_DIRS)
        log(
            f"dist/ ready in {time.perf_counter() - t0:.1f} s: "
            f"pyodide {_mb(_size(DIST / 'pyodide'))}, app modules {_mb(_size(DIST / 'py'))}, "
            f"wheel {wheel.name} {_mb(_size(wheel))}, app {_mb(app)}"
        )
    return DIST
