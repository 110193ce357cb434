"""Compressed transfer in Chromium: the built dist/'s large files go over the wire as the
build's brotli twins (tools/compress.py, served by tools/relay.py) and the page reads the
files' own bytes. The server's choices and the twins themselves are checked in CPython in
test_compress.py; the service worker's precache of decoded bodies in
test_browser_offline.py (its install checks every file's hash)."""

from __future__ import annotations

import hashlib

from tools.paths import DIST

#: Large files of dist/ that Chromium gets as brotli (it accepts br from 127.0.0.1).
COMPRESSED = ("pyodide/pyodide.asm.wasm", "pyodide/pyodide.asm.mjs", "index.html")

FETCH_AND_HASH = """async (paths) => {
  const out = {};
  for (const path of paths) {
    const response = await fetch(path, {cache: "no-store"});
    const digest = new Uint8Array(
      await crypto.subtle.digest("SHA-256", await response.arrayBuffer()));
    out[path] = {
      encoding: response.headers.get("content-encoding"),
      sha256: Array.from(digest, b => b.toString(16).padStart(2, "0")).join(""),
    };
  }
  return out;
}"""


def test_large_files_come_as_brotli_and_decode_to_the_files(page, server_url):
    """What goes over the wire is the .br twin (its size), what the page reads is the file
    on disk, byte for byte."""
    page.route(f"{server_url}/__blank__.html",
               lambda route: route.fulfill(body="<!doctype html><title>blank</title>",
                                           content_type="text/html; charset=utf-8"))
    responses = {}
    page.on("response", lambda r: responses.setdefault(r.url.removeprefix(server_url), r))
    page.goto(f"{server_url}/__blank__.html")
    got = page.evaluate(FETCH_AND_HASH, [f"/{rel}" for rel in COMPRESSED])
    for rel in COMPRESSED:
        data = (DIST / rel).read_bytes()
        assert got[f"/{rel}"] == {"encoding": "br", "sha256": hashlib.sha256(data).hexdigest()}
        response = responses[f"/{rel}"]
        assert response.header_value("content-encoding") == "br"
        assert response.header_value("vary") == "Accept-Encoding"
        sent = response.request.sizes()["responseBodySize"]
        assert sent == (DIST / f"{rel}.br").stat().st_size < len(data), rel
