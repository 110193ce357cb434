"""The built site: runtime served locally with the right types, config complete, no CDN.
What a page makes of it in Chromium is test_browser_build.py."""

from __future__ import annotations

import hashlib
import re
import shutil
import subprocess
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from helpers.dist import pyscript_config, wheel_name

from tools import dist
from tools.paths import ROOT

DIST = dist.DIST
VENDORED = ("pyodide", "pyscript")  # third-party bundles; they contain CDN URLs as defaults
CDN = re.compile(r"jsdelivr|unpkg|cdnjs|pyscript\.net|//cdn\.", re.IGNORECASE)


def head(url: str):
    req = urllib.request.Request(url, method="HEAD")
    with urllib.request.urlopen(req, timeout=30) as resp:
        return resp.status, resp.headers


@pytest.mark.parametrize(
    ("path", "mime", "cache"),
    [
        ("/pyodide/pyodide.asm.wasm", "application/wasm", "max-age=86400"),
        ("/pyodide/pyodide.mjs", "text/javascript", "max-age=86400"),
        ("/pyodide/pyodide.asm.mjs", "text/javascript", "max-age=86400"),
        ("/pyodide/python_stdlib.zip", "application/zip", "max-age=86400"),
        ("/pyscript/core.js", "text/javascript", "max-age=86400"),
        ("/pyscript.json", "application/json", "no-cache"),
        ("/index.html", "text/html", "no-cache"),
        ("/bench/bare.html", "text/html", "no-cache"),
        ("/pgui/__init__.py", "text/plain", "no-cache"),
    ],
)
def test_served_types_and_cache(server_url, path, mime, cache):
    status, headers = head(server_url + path)
    assert status == 200
    assert headers["Content-Type"].split(";")[0].strip() == mime
    assert cache in headers["Cache-Control"]


def test_wheel_is_served_as_zip(server_url):
    status, headers = head(f"{server_url}/wheels/{wheel_name()}")
    assert status == 200
    assert headers["Content-Type"] == "application/zip"


def test_pyscript_config_names_wheel_and_every_pgui_file():
    config = pyscript_config()
    assert config["interpreter"] == "./pyodide/pyodide.mjs"
    assert (DIST / "pyodide" / "pyodide.mjs").is_file()
    assert config["packages_cache"] == "passthrough"
    assert config["sync_main_only"] is True  # the worker only answers the page's calls
    pkg, *runtime = config["packages"]
    assert pkg.startswith("./wheels/pygames-") and pkg.endswith(".whl")
    # The other wheels are exactly the pinned ones (segno for QR codes), checked by hash.
    assert [Path(p).name for p in runtime] == list(dist.RUNTIME_WHEELS)
    for p in [pkg, *runtime]:
        assert (DIST / p).is_file()
    for name, digest in dist.RUNTIME_WHEELS.items():
        assert hashlib.sha256((DIST / "wheels" / name).read_bytes()).hexdigest() == digest
    assert sorted(p.name for p in (DIST / "wheels").glob("*.whl")) == sorted(
        Path(p).name for p in config["packages"])

    pgui = ROOT / "web" / "pgui"
    expected = {
        f"./pgui/{p.relative_to(pgui).as_posix()}"
        for p in pgui.rglob("*.py")
        if "__pycache__" not in p.parts
    }
    assert expected, "web/pgui has no Python files"
    # each module with its bytecode for Pyodide's Python (bytecode.py)
    tag = next(Path(u).name.split(".")[1] for u in config["files"] if u.endswith(".pyc"))
    expected |= {f"./pgui/__pycache__/{Path(u).stem}.{tag}.pyc" for u in expected}
    assert set(config["files"]) == expected
    for url, dest in config["files"].items():
        assert url == dest
        assert (DIST / url).is_file(), url


def test_pages_are_rendered_by_pgui():
    import pgui.lobby
    import pgui.pages

    assert (DIST / "index.html").read_text(encoding="utf-8") == pgui.lobby.render_lobby()
    assert (DIST / "play.html").read_text(encoding="utf-8") == pgui.pages.render_play()


def test_our_files_name_no_cdn():
    offenders = []
    for path in DIST.rglob("*"):
        rel = path.relative_to(DIST)
        if rel.parts[0] in VENDORED or not path.is_file():
            continue
        if path.suffix not in {".html", ".js", ".mjs", ".json", ".css", ".webmanifest", ".py"}:
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if CDN.search(line):
                offenders.append(f"{rel}:{n}: {line.strip()[:120]}")
    assert not offenders, "CDN references in dist/:\n" + "\n".join(offenders)


def test_no_vendored_runtime_in_git():
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    files = subprocess.run(
        ["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.splitlines()
    assert files, "git ls-files listed nothing"
    bad = [
        f
        for f in files
        if f.startswith(("dist/", "node_modules/", ".venv/"))
        or "/node_modules/" in f
        or f.endswith(("pyodide.asm.wasm", "pyodide.asm.mjs", "python_stdlib.zip", ".whl"))
    ]
    assert not bad, f"vendored runtime or build output committed: {bad[:10]}"


def test_readme_serve_command_serves_the_app_on_the_chosen_port():
    """`python build.py serve --port N`, as the README says, on 127.0.0.1 only."""
    import socket
    import sys
    import time

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([sys.executable, "build.py", "serve", "--port", str(port)],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/index.html") as resp:
                    body = resp.read().decode()
                break
            except OSError:
                assert proc.poll() is None, proc.stdout.read().decode()
                assert time.monotonic() < deadline, "serve never answered"
                time.sleep(0.3)
        assert "Kiri-ai: The Duel" in body
        with urllib.request.urlopen(
                f"http://127.0.0.1:{port}/pyodide/pyodide.asm.wasm") as resp:
            assert resp.headers["Content-Type"] == "application/wasm"
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/play.html") as resp:
            assert '<script type="py" worker src="./worker.py"' in resp.read().decode()
        # The link-play relay is on the same origin (a plain GET is told to upgrade).
        with pytest.raises(urllib.error.HTTPError) as info:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/relay/room-0001")
        assert info.value.code == 426
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    # serve runs the server in a child (inside .venv): it stops with its parent.
    deadline = time.monotonic() + 10
    while True:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) != 0:
                break
        assert time.monotonic() < deadline, "the server outlived `build.py serve`"
        time.sleep(0.2)
