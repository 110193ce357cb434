"""Compressed transfer in CPython: the build's ``.br``/``.gz`` twins (tools/compress.py)
decode to their file's bytes, are written again only when the file changed and removed
when it is gone; the server (tools/relay.py) sends brotli, gzip or the file itself by
``Accept-Encoding``, with the file's type and ``Vary``, and a Range request always gets the
file itself. Each test has a small directory of its own; brotli is decoded by Node's zlib
(what encoded it). That Chromium gets brotli and decodes it: test_browser_build.py; that
the service worker precaches what it decoded: test_browser_offline.py and test_offline.py.
"""

from __future__ import annotations

import gzip
import hashlib
import http.client
import io
import json
import os
import random
import shutil
import subprocess
import zipfile
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from tools import compress, dist

NODE = shutil.which("node")
needs_node = pytest.mark.skipif(NODE is None, reason="brotli is written and read by Node")


def _text(n: int, seed: int = 0) -> bytes:
    rng = random.Random(seed)
    words = ["board", "card", "seat", "move", "turn", "score", "round", "pass", "play"]
    out, size = [], 0
    while size < n:
        out.append(f"const {rng.choice(words)}{rng.randrange(999)} = {rng.random()};\n")
        size += len(out[-1])
    return "".join(out).encode()[:n]


def _stored_zip(files: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_STORED) as z:
        for name, data in files.items():
            z.writestr(name, data)
    return buf.getvalue()


#: The files of a small dist/ and, for each, whether it gets twins.
def _site_files() -> dict[str, tuple[bytes, bool]]:
    noise = random.Random(1).randbytes
    return {
        "app.js": (_text(20_000), True),
        "index.html": (b"<!doctype html><title>lobby</title>" + _text(5_000, 2), True),
        "docs/en/kiriai.html": (b"<!doctype html>" + _text(3_000, 3), True),
        "app.css": (b"body{}", False),  # under MIN_SIZE
        "pyodide/pyodide.asm.wasm": (b"\0asm\1\0\0\0" + _text(120_000, 4), True),
        "pyodide/python_stdlib.zip": (noise(50_000), False),  # saves nothing
        "py/app.zip": (_stored_zip({"pgui/a.py": _text(30_000, 5)}), True),  # saves a lot
        "py/kiriai.zip": (noise(5_000), False),
        "py/snapshot.bin": (bytes(40_000) + noise(4_000), True),
        "wheels/segno-1.6.6-py3-none-any.whl": (_text(5_000, 6), False),  # never tried
        "wheels/.source-sha256": (b"0" * 2_000, False),  # hidden
        "icons/icon.png": (_text(5_000, 7), False),  # not a text type
        "sw.js": (_text(5_000, 8), False),  # written after compression
        "precache.json": (_text(5_000, 9), False),
    }


#: Brotli's quality for large files from this size on (the fake wasm is one, the rest not).
LARGE = 50_000


def make_site(root: Path) -> Path:
    for rel, (data, _worth) in _site_files().items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_bytes(data)
    return root


@pytest.fixture(autouse=True)
def _large(monkeypatch):
    monkeypatch.setattr(compress, "LARGE", LARGE)


@pytest.fixture
def site(tmp_path) -> Path:
    return make_site(tmp_path / "dist")


COMPRESSED = sorted(rel for rel, (_data, worth) in _site_files().items() if worth)


def twin(root: Path, rel: str, suffix: str) -> Path:
    return root / (rel + suffix)


def all_twins(root: Path) -> set[str]:
    return {p.relative_to(root).as_posix() for p in root.rglob("*")
            if p.is_file() and compress.is_twin(p.name)}


def brotli_sha256(paths: list[Path]) -> list[str]:
    """sha256 of each ``.br`` file decoded by Node's zlib."""
    js = ("const z = require('zlib'), fs = require('fs'), c = require('crypto');"
          "console.log(JSON.stringify(JSON.parse(process.argv[1]).map(p => c.createHash"
          "('sha256').update(z.brotliDecompressSync(fs.readFileSync(p))).digest('hex'))));")
    out = subprocess.run([NODE, "-e", js, json.dumps([str(p) for p in paths])],
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def identity_of(root: Path) -> dict[str, tuple[int, int, int]]:
    """Every twin's (inode, mtime, ctime): any rewrite changes one of them."""
    out = {}
    for rel in all_twins(root):
        st = (root / rel).stat()
        out[rel] = (st.st_ino, st.st_mtime_ns, st.st_ctime_ns)
    return out


# --------------------------------------------------------------------------- the twins


@needs_node
def test_twins_decode_to_the_files_bytes(site):
    figures = compress.write_compressed(site, quiet=True)
    assert sorted(figures) == COMPRESSED
    assert all_twins(site) == {rel + s for rel in COMPRESSED for s in (".br", ".gz")}
    decoded = brotli_sha256([twin(site, rel, ".br") for rel in COMPRESSED])
    for rel, br_digest in zip(COMPRESSED, decoded, strict=True):
        data = (site / rel).read_bytes()
        gz = twin(site, rel, ".gz").read_bytes()
        assert gzip.decompress(gz) == data, rel
        assert br_digest == sha256(data), rel
        br_size = twin(site, rel, ".br").stat().st_size
        assert figures[rel] == (len(data), br_size, len(gz))
        assert br_size < len(gz) < len(data) * (1 - compress.MIN_SAVING), rel
        # Each twin carries its file's time: the server sends it (at least as new).
        for suffix in (".br", ".gz"):
            assert twin(site, rel, suffix).stat().st_mtime_ns == (site / rel).stat().st_mtime_ns
    assert compress.twins(site) == {rel: ("br", "gzip") for rel in COMPRESSED}


def test_gzip_is_deterministic(site, monkeypatch):
    monkeypatch.setattr(compress.shutil, "which", lambda name: None)  # gzip only: quicker
    compress.write_compressed(site, quiet=True)
    first = {rel: twin(site, rel, ".gz").read_bytes() for rel in COMPRESSED}
    assert all(gz[4:8] == bytes(4) for gz in first.values())  # MTIME 0 in the header
    for rel in all_twins(site):
        (site / rel).unlink()
    (site / "app.js").touch()  # a new time, the same bytes
    compress.write_compressed(site, quiet=True)
    assert {rel: twin(site, rel, ".gz").read_bytes() for rel in COMPRESSED} == first


@needs_node
def test_a_rerun_rewrites_nothing_and_a_change_only_its_own_twins(site):
    figures = compress.write_compressed(site, quiet=True)
    before = identity_of(site)
    assert compress.write_compressed(site, quiet=True) == figures
    assert identity_of(site) == before

    new = _text(30_000, 42)
    (site / "app.js").write_bytes(new)
    st = (site / "app.js").stat()
    os.utime(site / "app.js", ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000))
    figures = compress.write_compressed(site, quiet=True)
    after = identity_of(site)
    changed = {rel for rel in after if after[rel] != before[rel]}
    assert changed == {"app.js.br", "app.js.gz"}
    assert gzip.decompress(twin(site, "app.js", ".gz").read_bytes()) == new
    assert brotli_sha256([twin(site, "app.js", ".br")]) == [sha256(new)]
    assert figures["app.js"][0] == len(new)


def test_a_file_of_the_same_time_but_another_size_is_compressed_again(site, monkeypatch):
    monkeypatch.setattr(compress.shutil, "which", lambda name: None)
    compress.write_compressed(site, quiet=True)
    st = (site / "index.html").stat()
    (site / "index.html").write_bytes(b"<!doctype html>" + _text(9_000, 11))
    os.utime(site / "index.html", ns=(st.st_atime_ns, st.st_mtime_ns))  # same time
    compress.write_compressed(site, quiet=True)
    gz = twin(site, "index.html", ".gz").read_bytes()
    assert gzip.decompress(gz) == (site / "index.html").read_bytes()


@needs_node
def test_stale_twins_are_removed(site):
    compress.write_compressed(site, quiet=True)
    (site / "app.js").unlink()  # gone
    (site / "index.html").write_bytes(b"<p>short</p>")  # now under MIN_SIZE
    (site / "py" / "snapshot.bin").write_bytes(random.Random(5).randbytes(9_000))  # no gain
    (site / "gone.js.gz").write_bytes(b"orphan")  # of nothing
    (site / "sw.js.br").write_bytes(b"never")  # of a file never compressed
    figures = compress.write_compressed(site, quiet=True)
    left = {"docs/en/kiriai.html", "pyodide/pyodide.asm.wasm", "py/app.zip"}
    assert set(figures) == left
    assert all_twins(site) == {rel + s for rel in left for s in (".br", ".gz")}


def test_without_node_only_gzip(site, monkeypatch):
    monkeypatch.setattr(compress.shutil, "which", lambda name: None)
    (site / "app.js.br").write_bytes(b"an old brotli twin")
    figures = compress.write_compressed(site, quiet=True)
    assert sorted(figures) == COMPRESSED
    assert all(br is None for _raw, br, _gz in figures.values())
    assert all_twins(site) == {rel + ".gz" for rel in COMPRESSED}
    assert compress.twins(site) == {rel: ("gzip",) for rel in COMPRESSED}
    monkeypatch.undo()
    if NODE:  # with Node back, the brotli twins are added
        compress.write_compressed(site, quiet=True)
        assert compress.twins(site) == {rel: ("br", "gzip") for rel in COMPRESSED}


def test_the_build_keeps_twins_of_the_files_it_keeps(site, monkeypatch):
    """dist._sync (copy_runtime, copy_app) deletes what its mapping does not hold: not the
    twins of the files it keeps, or every build would compress everything again."""
    monkeypatch.setattr(compress.shutil, "which", lambda name: None)
    src = site.parent / "web"
    shutil.copytree(site / "docs", src / "docs")
    (src / "app.js").write_bytes((site / "app.js").read_bytes())
    compress.write_compressed(site, quiet=True)
    before = all_twins(site)
    mapping = {"app.js": src / "app.js", "docs/en/kiriai.html": src / "docs/en/kiriai.html"}
    dist._sync(mapping, site, keep=lambda rel: rel == "index.html"
               or rel.split("/", 1)[0] in ("pyodide", "py", "wheels"))
    kept = {"app.js", "index.html", "docs/en/kiriai.html", "pyodide/pyodide.asm.wasm",
            "py/app.zip", "py/snapshot.bin"}
    assert all_twins(site) == {t for t in before if t[:-3] in kept}


def test_precache_lists_no_twin(site, monkeypatch):
    monkeypatch.setattr(compress.shutil, "which", lambda name: None)
    compress.write_compressed(site, quiet=True)
    listed = dist.precache_files(site)
    assert "app.js" in listed and "pyodide/pyodide.asm.wasm" in listed
    assert not [rel for rel in listed if compress.is_twin(rel)]


# --------------------------------------------------------------------------- the server


@contextmanager
def serving(root: Path):
    relay = pytest.importorskip("tools.relay")
    srv, url = relay.start_server_thread(0, root, log_errors=False)
    try:
        yield url
    finally:
        srv.shutdown()


def get(url: str, path: str, method: str = "GET", **headers: str):
    """(status, headers, body) of one request, sent with exactly ``headers`` (http.client
    says ``Accept-Encoding: identity`` unless told otherwise)."""
    parts = urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10)
    try:
        conn.request(method, path, headers={k.replace("_", "-"): v for k, v in headers.items()})
        resp = conn.getresponse()
        return resp.status, resp.headers, resp.read()
    finally:
        conn.close()


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """A compressed site, served; read only (a test that changes files has its own)."""
    if NODE is None:
        pytest.skip("brotli is written by Node")
    site = make_site(tmp_path_factory.mktemp("served"))
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(compress, "LARGE", LARGE)
        compress.write_compressed(site, quiet=True)
    with serving(site) as url:
        yield site, url


@pytest.mark.parametrize(
    ("accept", "coding"),
    [
        ("gzip, deflate, br, zstd", "br"),
        ("gzip, deflate", "gzip"),
        ("br;q=0, gzip", "gzip"),
        ("BR", "br"),
        ("x-gzip", "gzip"),
        ("*", "br"),
        ("br;q=0, *;q=0.5", "gzip"),
        ("gzip;q=0, br;q=0", None),
        ("identity", None),
        ("", None),
    ],
)
@pytest.mark.parametrize(
    ("rel", "mime", "cache"),
    [
        ("pyodide/pyodide.asm.wasm", "application/wasm", "public, max-age=86400"),
        ("app.js", "text/javascript", "no-cache"),
        ("py/snapshot.bin", "application/octet-stream", "no-cache"),
    ],
)
def test_the_server_sends_what_the_browser_accepts(served, accept, coding, rel, mime, cache):
    root, url = served
    status, headers, body = get(url, f"/{rel}", Accept_Encoding=accept)
    assert status == 200
    assert headers["Content-Type"] == mime
    assert headers["Cache-Control"] == cache
    assert headers["Vary"] == "Accept-Encoding"
    assert headers.get("Content-Encoding") == coding
    sent = {"br": ".br", "gzip": ".gz", None: ""}[coding]
    assert body == (root / (rel + sent)).read_bytes()
    assert int(headers["Content-Length"]) == len(body)
    if coding == "gzip":
        assert gzip.decompress(body) == (root / rel).read_bytes()


def test_head_says_the_twins_length(served):
    root, url = served
    status, headers, body = get(url, "/index.html", "HEAD", Accept_Encoding="gzip, br")
    assert (status, body) == (200, b"")
    assert headers["Content-Encoding"] == "br"
    assert headers["Content-Type"] == "text/html; charset=utf-8"
    assert int(headers["Content-Length"]) == (root / "index.html.br").stat().st_size
    assert headers["Cache-Control"] == "no-cache"


def test_each_coding_has_its_own_etag(served):
    _root, url = served
    tags = {get(url, "/app.js", Accept_Encoding=ae)[1]["ETag"] for ae in ("br", "gzip", "")}
    assert len(tags) == 3


def test_a_range_request_gets_the_file_itself(served):
    root, url = served
    data = (root / "pyodide/pyodide.asm.wasm").read_bytes()
    status, headers, body = get(url, "/pyodide/pyodide.asm.wasm", Accept_Encoding="br, gzip",
                                Range="bytes=100-199")
    assert status == 206
    assert "Content-Encoding" not in headers
    assert body == data[100:200]
    assert headers["Content-Range"] == f"bytes 100-199/{len(data)}"
    assert headers["Content-Type"] == "application/wasm"


def test_a_twin_asked_by_its_name_is_a_plain_file(served):
    root, url = served
    status, headers, body = get(url, "/app.js.br", Accept_Encoding="br, gzip")
    assert status == 200
    assert "Content-Encoding" not in headers
    assert body == (root / "app.js.br").read_bytes()


def test_files_without_twins_are_sent_as_they_are(served):
    root, url = served
    for rel in ("app.css", "sw.js", "py/kiriai.zip", "wheels/segno-1.6.6-py3-none-any.whl"):
        status, headers, body = get(url, f"/{rel}", Accept_Encoding="br, gzip")
        assert status == 200, rel
        assert "Content-Encoding" not in headers and "Vary" not in headers, rel
        assert body == (root / rel).read_bytes(), rel


@needs_node
def test_a_file_newer_than_its_twins_is_sent_as_it_is(site):
    compress.write_compressed(site, quiet=True)
    new = _text(25_000, 77)
    (site / "app.js").write_bytes(new)
    st = (site / "app.js").stat()
    os.utime(site / "app.js", ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000))
    with serving(site) as url:
        status, headers, body = get(url, "/app.js", Accept_Encoding="br, gzip")
        assert (status, body) == (200, new)
        assert "Content-Encoding" not in headers
        compress.write_compressed(site, quiet=True)
        status, headers, body = get(url, "/app.js", Accept_Encoding="gzip")
        assert headers["Content-Encoding"] == "gzip"
        assert gzip.decompress(body) == new
