"""The service worker's precache list (build.write_precache), checked in CPython: it covers
every file of dist/ the app needs, its hashes are the files', and any change to a file
gives a new version and new service-worker bytes. The browser side is
test_browser_offline.py."""

from __future__ import annotations

import hashlib
import json
import re
import shutil

import pytest

from tools import compress
from tools import dist as tools_dist

DIST = tools_dist.DIST


@pytest.fixture(scope="module")
def dist():
    if not (DIST / "precache.json").is_file():
        tools_dist.build(quiet=True)
    return DIST


def listing(root):
    return json.loads((root / "precache.json").read_text())


def test_the_list_covers_every_file_of_the_app(dist):
    files = listing(dist)["files"]
    on_disk = {p.relative_to(dist).as_posix() for p in dist.rglob("*") if p.is_file()}
    assert set(files) <= on_disk
    left_out = on_disk - set(files)
    assert all(p in ("sw.js", "precache.json", )
               or p.startswith("wheels/.") or compress.is_twin(p) for p in left_out), left_out
    assert not [p for p in files if compress.is_twin(p)]  # the browser decodes those
    for page in ("index.html", "play.html", "embed.html", "runtime.json", "worker.py",
                 "pyworker.mjs", "pyboot.mjs",
                 "app.css", "boot.js", "glue.js", "peer.js", "offline.js",
                 "manifest.webmanifest", "favicon.svg", "icons/icon-192.png",
                 "icons/icon-512.png", "icons/maskable-512.png",
                 "pyodide/pyodide.mjs", "pyodide/pyodide.asm.wasm",
                 "pyodide/python_stdlib.zip", "pyodide/pyodide-lock.json",
                 "docs/en/kiriai.html", "docs/ja/kiriai.html"):
        assert page in files, page
    config = json.loads((dist / "runtime.json").read_text())
    for url in [*config["wheels"], *config["archives"], *config["lazy"].values(), config["main"]]:
        assert url.removeprefix("./") in files, url  # every wheel and archive of modules


def test_hashes_are_the_files_and_the_worker_carries_the_version(dist):
    data = listing(dist)
    for rel, digest in data["files"].items():
        assert hashlib.sha256((dist / rel).read_bytes()).hexdigest().startswith(digest), rel
    sw = (dist / "sw.js").read_text()
    assert f'const VERSION = "{data["version"]}";' in sw
    assert "__PRECACHE_VERSION__" not in sw
    assert re.fullmatch(r"[0-9a-f]{16}", data["version"])


def test_a_changed_file_changes_the_version_and_the_worker(dist, tmp_path):
    copy = tmp_path / "dist"
    shutil.copytree(dist, copy)
    first = tools_dist.write_precache(copy)
    assert first == listing(dist)["version"], "the same files: the same version"
    sw_before = (copy / "sw.js").read_bytes()
    (copy / "glue.js").write_text((copy / "glue.js").read_text() + "\n// changed\n")
    second = tools_dist.write_precache(copy)
    assert second != first
    assert listing(copy)["files"]["glue.js"] != listing(dist)["files"]["glue.js"]
    unchanged = {k: v for k, v in listing(copy)["files"].items() if k != "glue.js"}
    assert unchanged == {k: v for k, v in listing(dist)["files"].items() if k != "glue.js"}
    assert (copy / "sw.js").read_bytes() != sw_before
    (copy / "docs" / "extra.html").write_text("<!doctype html><title>x</title>")
    assert tools_dist.write_precache(copy) not in (first, second), "a new file too"


def test_the_manifest_installs_with_our_own_icons(dist):
    manifest = json.loads((dist / "manifest.webmanifest").read_text())
    assert manifest["start_url"] == "./index.html" and manifest["display"] == "standalone"
    css = (tools_dist.WEB / "app.css").read_text()
    assert manifest["background_color"] in css and manifest["theme_color"] in css
    sizes = {}
    for icon in manifest["icons"]:
        path = dist / icon["src"].removeprefix("./")
        assert path.is_file(), icon
        if icon["type"] == "image/png":
            head = path.read_bytes()[:24]
            assert head[:8] == b"\x89PNG\r\n\x1a\n"
            w, h = int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big")
            assert icon["sizes"] == f"{w}x{h}"
            sizes.setdefault(icon.get("purpose", "any"), set()).add(w)
    assert {192, 512} <= sizes["any"] and 512 in sizes["maskable"]


def test_every_page_loads_the_offline_glue():
    for name in ("index.html", "play.html", "embed.html"):
        assert '<script src="./offline.js" defer></script>' in (DIST / name).read_text(), name
