#!/usr/bin/env python3
"""Build, serve, test and benchmark pygames (standard library only, Python 3.11+).

    python build.py [build]              assemble dist/ (runtime from npm, our wheel, the app)
    python build.py serve [--port N] [--host H]
                                         build, then serve dist/ and the link-play relay
                                         on http://127.0.0.1:N (8000); --host 0.0.0.0 for a LAN
    python build.py test [pytest args]   .venv + ruff + mypy + build + pytest (Chromium via
                                         Playwright)
    python build.py test --quick [args]  .venv + ruff + mypy + the CPython tests that need
                                         neither Chromium nor dist/ (-m "not browser and not dist")
    python build.py bench                CPython playouts/s, page-ready times and main-thread
                                         tasks in Chromium (bench.py)

Nothing is fetched at run time from a CDN: Pyodide and PyScript come from npm (``npm ci``,
checked against package-lock.json's integrity hashes) and are served from dist/.

The server (static files plus the WebSocket signaling relay) is server.py, on aiohttp; like
the tests and the benchmark (bench.py) it runs inside .venv, which this script creates and
fills from pyproject.toml's ``test`` extra.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import tomllib
import zipfile
from pathlib import Path

import bytecode

ROOT = Path(__file__).resolve().parent
DIST = ROOT / "dist"
WEB = ROOT / "web"
PUBLIC = ROOT / "public"
NODE_MODULES = ROOT / "node_modules"
NPM_STAMP = NODE_MODULES / ".pygames-stamp"
VENV = ROOT / ".venv"
VENV_STAMP = VENV / ".pygames-test-requirements.json"

PYODIDE_FILES = [
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
    "pyodide.js",  # optional
]
# Top-level entries of dist/ that the build manages itself (not copied from web/ or public/).
RUNTIME_DIRS = ("pyodide", "pyscript", "wheels")
SKIP_NAMES = {"__pycache__", ".DS_Store"}
SKIP_SUFFIXES = {".pyc", ".pyo"}

CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--allow-loopback-in-peer-connection",
]


class BuildError(RuntimeError):
    pass


def log(msg: str) -> None:
    print(f"[build] {msg}", flush=True)


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
                if rel not in mapping and not keep(rel):
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
        and (NODE_MODULES / "@pyscript" / "core" / "dist").is_dir()
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
    log("npm ci (Pyodide + PyScript, integrity-checked by package-lock.json)")
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
    core = NODE_MODULES / "@pyscript" / "core" / "dist"
    changed += _sync(_tree_files(core, skip_suffixes=(".map",)), DIST / "pyscript")
    return changed


def _source_hash() -> str:
    h = hashlib.sha256()
    files = {f"pygames/{k}": v for k, v in _tree_files(ROOT / "pygames").items()}
    files["pyproject.toml"] = ROOT / "pyproject.toml"
    files["bytecode.py"] = ROOT / "bytecode.py"  # the wheel carries its .pyc files
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
WHEEL_CACHE = ROOT / ".wheel-cache"


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
    for p in (str(WEB), str(ROOT)):
        if p not in sys.path:
            sys.path.insert(0, p)
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


def pyscript_config(wheel: Path, pycs: dict[str, Path] | None = None) -> dict:
    pgui_files = sorted(_tree_files(WEB / "pgui"))
    return {
        "interpreter": "./pyodide/pyodide.mjs",
        # A "./" path is resolved by PyScript against the URL of this config file, then
        # handed to loadPyodide({packages}) unchanged ("passthrough": no micropip).
        "packages": [f"./wheels/{wheel.name}", *(f"./wheels/{n}" for n in RUNTIME_WHEELS)],
        "packages_cache": "passthrough",
        # The modules of the app, each with its bytecode for Pyodide's Python (bytecode.py).
        "files": {f"./{rel}": f"./{rel}" for rel in
                  [f"pgui/{r}" for r in pgui_files if r.endswith(".py")] + sorted(pycs or {})},
        # Python runs in a worker that only answers the page's calls (no window/document
        # without cross-origin isolation, on purpose): this tells PyScript not to warn.
        "sync_main_only": True,
    }


GENERATED = ("index.html", "play.html", "embed.html", "pyscript.json", "sw.js", "precache.json")


def copy_app(wheel: Path) -> int:
    """Copy web/ then public/ into dist/, drop stale files, write the generated ones."""
    mapping = _tree_files(WEB)
    mapping.update(_tree_files(PUBLIC))
    pycs = pgui_bytecode()
    mapping.update(pycs)
    for rel in GENERATED:
        mapping.pop(rel, None)
    import docsbuild  # the rules pages: written into dist/docs/ (if changed), kept by _sync

    docs = DIST / "docs"
    mapping.update({f"docs/{p.relative_to(docs).as_posix()}": p
                    for p in docsbuild.build_docs(docs)})
    changed = _sync(
        mapping,
        DIST,
        keep=lambda rel: rel in GENERATED or rel.split("/", 1)[0] in RUNTIME_DIRS,
    )
    lobby, play, embed = _render_pages()
    changed += _write_if_changed(DIST / "index.html", lobby)
    changed += _write_if_changed(DIST / "play.html", play)
    changed += _write_if_changed(DIST / "embed.html", embed)
    config = json.dumps(pyscript_config(wheel, pycs), indent=2) + "\n"
    changed += _write_if_changed(DIST / "pyscript.json", config)
    return changed


#: What the service worker does not precache: itself, its list, the benchmark's pages and
#: the build's own stamps (every other file of dist/ is the app's, offline included).
PRECACHE_SKIP = ("sw.js", "precache.json", "bench/", "wheels/.", "icons/make_icons.py")


def precache_files(dist_dir: Path | str = DIST) -> dict[str, str]:
    """{path in dist/: sha256 prefix} of every file the service worker precaches."""
    out = {}
    for rel, path in _tree_files(Path(dist_dir), bytecode=True).items():
        if not rel.startswith(PRECACHE_SKIP) and not rel.startswith("."):
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
    write_precache(DIST)  # last: it lists and hashes the finished dist/
    if not quiet:
        app = _size(DIST) - sum(_size(DIST / d) for d in RUNTIME_DIRS)
        log(
            f"dist/ ready in {time.perf_counter() - t0:.1f} s: "
            f"pyodide {_mb(_size(DIST / 'pyodide'))}, pyscript {_mb(_size(DIST / 'pyscript'))}, "
            f"wheel {wheel.name} {_mb(_size(wheel))}, app {_mb(app)}"
        )
    return DIST


# --------------------------------------------------------------------------- serving
# The server itself (static dist/ plus the link-play signaling relay) is server.py, on
# aiohttp: it runs inside .venv, so it is imported only when a server is started.


def _server_module():
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    try:
        import server
    except ImportError as e:
        raise BuildError(
            f"server.py needs aiohttp ({e}): run it with {venv_python()}, "
            "or use `python build.py serve`, which sets .venv up"
        ) from e
    return server


def start_server_thread(port: int = 0, directory: Path | str = DIST, log_errors: bool = True):
    """Serve ``directory`` and the relay from a daemon thread (server.py; needs aiohttp).

    Returns (server, base URL ``http://127.0.0.1:PORT``); stop it with ``server.shutdown()``.
    """
    return _server_module().start_server_thread(port, directory, log_errors=log_errors)


def serve(port: int, host: str = "127.0.0.1") -> int:
    """Build, set .venv up, then run server.py in it until Ctrl-C (or SIGTERM)."""
    build()
    py = ensure_venv()
    cmd = [str(py), str(ROOT / "build.py"), "_serve", str(port), host]
    # The child stops by itself on Ctrl-C (same process group), on SIGTERM (forwarded
    # below) and when its stdin closes (this process died without forwarding anything).
    proc = subprocess.Popen(cmd, cwd=ROOT, stdin=subprocess.PIPE)
    previous = signal.signal(signal.SIGTERM, lambda *_: proc.terminate())
    try:
        while True:
            try:
                return proc.wait()
            except KeyboardInterrupt:
                try:
                    return proc.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    proc.terminate()
    finally:
        signal.signal(signal.SIGTERM, previous)
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def _serve_child(port: int, host: str) -> int:
    """Runs inside .venv: the server until Ctrl-C, SIGTERM or the end of stdin."""
    server = _server_module()
    try:
        return server.serve(port, DIST, host, stop_on_stdin_eof=True)
    except OSError as e:
        print(f"build.py: cannot serve on {host}:{port}: {e}", file=sys.stderr)
        return 1


# --------------------------------------------------------------------------- venv + Chromium


def venv_python() -> Path:
    return VENV / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def test_requirements() -> list[str]:
    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return list(data["project"]["optional-dependencies"]["test"])


def ensure_venv() -> Path:
    py = venv_python()
    if not py.exists():
        log("creating .venv")
        _run([sys.executable, "-m", "venv", str(VENV)])
    reqs = test_requirements()
    want = json.dumps(sorted(reqs))
    if not VENV_STAMP.exists() or VENV_STAMP.read_text() != want:
        log("installing test requirements into .venv: " + " ".join(reqs))
        _run([str(py), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", *reqs])
        VENV_STAMP.write_text(want)
    return py


def find_chromium(py: Path) -> str | None:
    """Path of a Chromium to use, "" for Playwright's own browser, None if there is none."""
    for candidate in (os.environ.get("CHROMIUM"), "/usr/bin/chromium"):
        if candidate and Path(candidate).is_file():
            return candidate
    probe = (
        "from pathlib import Path\n"
        "from playwright.sync_api import sync_playwright\n"
        "with sync_playwright() as p:\n"
        "    print(Path(p.chromium.executable_path).is_file())\n"
    )
    r = subprocess.run([str(py), "-c", probe], capture_output=True, text=True)
    if r.returncode == 0 and r.stdout.strip().endswith("True"):
        return ""
    return None


def require_chromium(py: Path) -> str:
    exe = find_chromium(py)
    if exe is None:
        env = os.environ.get("CHROMIUM")
        print(
            "No Chromium found for the browser tests. Looked at:\n"
            f"  $CHROMIUM           ({env or 'not set'})\n"
            "  /usr/bin/chromium   (missing)\n"
            "  Playwright's own chromium (not installed)\n"
            "Get one of them:\n"
            "  apt-get install -y chromium                (Debian/Ubuntu, as root)\n"
            f"  {VENV / 'bin' / 'playwright'} install chromium\n"
            "  or export CHROMIUM=/path/to/chromium",
            file=sys.stderr,
        )
        raise SystemExit(2)
    log(f"Chromium: {exe or 'Playwright bundled chromium'}")
    return exe


def _child_env(chromium: str) -> dict[str, str]:
    env = dict(os.environ)
    env["PYGAMES_CHROMIUM"] = chromium
    extra = os.pathsep.join([str(ROOT), str(WEB)])
    env["PYTHONPATH"] = extra + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    env.setdefault("PYTHONDONTWRITEBYTECODE", "1")
    return env


def run_tests(pytest_args: list[str], processes: int = 2) -> int:
    """ruff, mypy, build, then pytest on ``processes`` pytest-xdist workers (``-n``).

    Two suits a 2-core machine: the engine tests keep one core busy while a browser test
    waits on Chromium. Arguments that choose their own ``-n``/``--numprocesses``, turn
    xdist off (``-p no:xdist``) or debug (``--pdb``, ``--trace``) run as given.
    ``--quick``: no build and no Chromium, only the tests that need neither.
    """
    quick = "--quick" in pytest_args
    pytest_args = [a for a in pytest_args if a != "--quick"]
    py = ensure_venv()
    log("ruff check .")
    if subprocess.run([str(py), "-m", "ruff", "check", "."], cwd=ROOT).returncode != 0:
        print("ruff found lint errors (see above)", file=sys.stderr)
        return 1
    log("mypy (pyproject.toml [tool.mypy])")
    if subprocess.run([str(py), "-m", "mypy"], cwd=ROOT).returncode != 0:
        print("mypy found type errors (see above)", file=sys.stderr)
        return 1
    if quick:
        pytest_args = ["-m", "not browser and not dist", *pytest_args]
        chromium = ""
    else:
        build()
        chromium = require_chromium(py)
    args = [*os.environ.get("PYTEST_ADDOPTS", "").split(), *pytest_args]
    own = any(
        a in ("-n", "--numprocesses", "--pdb", "--trace")
        or a.startswith("--numprocesses=")
        or (a.startswith("-n") and not a.startswith("--"))
        or a.endswith("no:xdist")
        for a in args
    )
    if processes > 1 and not own:
        pytest_args = ["-n", str(processes), *pytest_args]
    cmd = [str(py), "-m", "pytest", *pytest_args]
    log(" ".join(["pytest", *pytest_args]))
    rc = subprocess.run(cmd, cwd=ROOT, env=_child_env(chromium)).returncode
    if rc == 5:
        print("pytest collected no tests: treating that as a failure", file=sys.stderr)
        return 1
    return rc


# --------------------------------------------------------------------------- benchmark
# The benchmarks themselves live in bench.py; this only prepares and starts them.


def bench(budget: float = 2.0, runs: int = 3) -> int:
    py = ensure_venv()
    build()
    chromium = require_chromium(py)
    cmd = [str(py), str(ROOT / "build.py"), "_bench", str(budget), str(runs)]
    return subprocess.run(cmd, cwd=ROOT, env=_child_env(chromium)).returncode


def _bench_child(budget: float, runs: int) -> int:
    """Runs inside .venv (Playwright): CPython playouts, then page timings in Chromium."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    import bench as bench_module

    return bench_module.run(DIST, budget, runs, start_server_thread, CHROMIUM_FLAGS)


# --------------------------------------------------------------------------- CLI


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    cmd = argv.pop(0) if argv and not argv[0].startswith("-") else "build"
    try:
        if cmd == "build":
            argparse.ArgumentParser(prog="build.py build").parse_args(argv)
            build()
            return 0
        if cmd == "serve":
            ap = argparse.ArgumentParser(prog="build.py serve")
            ap.add_argument("--port", type=int, default=8000)
            ap.add_argument(
                "--host", default="127.0.0.1", help="address to bind (0.0.0.0: your LAN too)"
            )
            args = ap.parse_args(argv)
            return serve(args.port, args.host)
        if cmd == "test":
            return run_tests(argv)
        if cmd == "bench":
            argparse.ArgumentParser(prog="build.py bench").parse_args(argv)
            return bench()
        if cmd == "_serve":  # internal: runs inside .venv
            return _serve_child(int(argv[0]), argv[1])
        if cmd == "_bench":  # internal: runs inside .venv
            return _bench_child(float(argv[0]), int(argv[1]))
    except BuildError as e:
        print(f"build.py: {e}", file=sys.stderr)
        return 1
    except subprocess.CalledProcessError as e:
        print(
            f"build.py: command failed ({e.returncode}): {' '.join(map(str, e.cmd))}",
            file=sys.stderr,
        )
        return 1
    print(__doc__, file=sys.stderr)
    print(f"unknown command: {cmd}", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
