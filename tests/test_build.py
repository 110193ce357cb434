"""The built site: runtime served locally with the right types, config complete, no CDN.
What a page makes of it in Chromium is test_browser_build.py."""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import subprocess
import urllib.error
import urllib.request
import zipfile
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from helpers.dist import runtime_config, wheel_name

from tools import dist
from tools.paths import ROOT

DIST = dist.DIST
VENDORED = ("pyodide",)  # a third-party bundle; it contains CDN URLs as defaults
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
        ("/pyworker.mjs", "text/javascript", "no-cache"),
        ("/runtime.json", "application/json", "no-cache"),
        ("/py/app.zip", "application/zip", "no-cache"),
        ("/index.html", "text/html", "no-cache"),
        ("/bench/bare.html", "text/html", "no-cache"),
        ("/pgui/kiriai.css", "text/css", "no-cache"),
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


def test_runtime_config_names_wheel_and_every_pgui_module_once():
    """runtime.json: our wheel unpacked at start; pgui's modules in py/app.zip, but each
    game's own in py/<game id>.zip, fetched when imported (lazy), as is the QR-code wheel;
    every module with its bytecode for Pyodide's Python (bytecode.py)."""
    import pygames

    config = runtime_config()
    assert config["pyodide"] == "./pyodide/"
    assert (DIST / "pyodide" / "pyodide.mjs").is_file()
    (pkg,) = config["wheels"]
    assert pkg.startswith("./wheels/pygames-") and pkg.endswith(".whl")
    # The other wheels are exactly the pinned ones (segno for QR codes), checked by hash.
    lazy_wheels = sorted(Path(u).name for u in config["lazy"].values() if u.endswith(".whl"))
    assert lazy_wheels == sorted(dist.RUNTIME_WHEELS)
    assert config["lazy"]["segno"] == f"./wheels/{next(iter(dist.RUNTIME_WHEELS))}"
    for name, digest in dist.RUNTIME_WHEELS.items():
        assert hashlib.sha256((DIST / "wheels" / name).read_bytes()).hexdigest() == digest
    assert sorted(p.name for p in (DIST / "wheels").glob("*.whl")) == sorted(
        [Path(pkg).name, *lazy_wheels])
    assert (DIST / config["main"]).is_file()

    pgui = ROOT / "web" / "pgui"
    modules = {p.relative_to(pgui).as_posix() for p in pgui.glob("*.py")}
    assert modules, "web/pgui has no Python files"
    held: dict[str, str] = {}
    for archive in [*config["archives"], *set(config["lazy"].values())]:
        if archive.endswith(".whl"):
            continue
        with zipfile.ZipFile(DIST / archive) as z:
            names = z.namelist()
        for name in names:
            if name.endswith(".py"):
                assert name not in held, f"{name} in {archive} and {held[name]}"
                held[name] = archive
                tag_pyc = [n for n in names if n.startswith(f"pgui/__pycache__/{name[5:-3]}.")]
                assert len(tag_pyc) == 1, f"{name}: bytecode {tag_pyc}"
    assert set(held) == {f"pgui/{m}" for m in modules}
    for gid in pygames.game_ids():
        own = {m for m in held if m.startswith(f"pgui/{gid}_")}
        assert own and {held[m] for m in own} == {f"./py/{gid}.zip"}
        for m in own:
            assert config["lazy"][m[:-3].replace("/", ".")] == f"./py/{gid}.zip"
    assert not [m for m, a in held.items() if a == "./py/app.zip"
                and any(m.startswith(f"pgui/{g}_") for g in pygames.game_ids())]


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


def test_the_built_peer_settings_name_no_outside_server():
    """dist/peer.json, the settings a deployment edits (README, "Deploy"), names nobody's
    server as built: the relay is the app's own (a relative URL), no MQTT broker, no STUN
    or TURN server; every address in it is relative."""
    settings = json.loads((DIST / "peer.json").read_text(encoding="utf-8"))
    assert settings.get("brokers", []) == []
    assert settings.get("iceServers", []) == []

    def strings(value):
        if isinstance(value, str):
            yield value
        elif isinstance(value, dict):
            for v in value.values():
                yield from strings(v)
        elif isinstance(value, list):
            for v in value:
                yield from strings(v)

    outside = [s for s in strings(settings) if urlsplit(s).scheme or s.startswith("//")]
    assert outside == [], f"peer.json names servers: {outside}"
    assert urlsplit(settings["relay"]).path.startswith("./")


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
            assert '<script src="./glue.js" defer></script>' in resp.read().decode()
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


def test_the_memory_snapshot_is_named_by_its_inputs_and_described_to_the_worker():
    """runtime.json names the build's one snapshot, with the size and head (magic number,
    Pyodide's build id) the worker checks before booting from bytes it got."""
    config = runtime_config()
    image = DIST / config["snapshot"]
    assert image.is_file() and re.fullmatch(r"snapshot-[0-9a-f]{16}\.bin", image.name)
    assert [p.name for p in (DIST / "py").glob("snapshot-*.bin")] == [image.name]
    data = image.read_bytes()
    assert config["snapshot_size"] == len(data) > 10_000_000
    assert config["snapshot_head"] == data[:48].hex()
