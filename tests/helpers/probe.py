"""Run Python in Chromium's Pyodide exactly as the app starts it (``web/pyboot.mjs``: our
wheel, the app's modules, the lazy ones on import), on a probe page beside the app's own.

    out = run_python(page, server_url, "result = json.dumps(...)")

The code runs after ``import json``; it sets ``result`` (a string), which comes back.
"""

from __future__ import annotations

import json

from playwright.sync_api import Page

from helpers.browser import READY

PAGE = """<!doctype html><html data-ready="false"><head><meta charset="utf-8"><title>probe</title>
<script type="module">
const out = document.getElementById("out");
const worker = new Worker("./__probe_worker__.mjs", {{ type: "module" }});
worker.onmessage = (e) => {{
  document.getElementById("out").textContent = e.data;
  document.documentElement.dataset.ready = "true";
}};
worker.onerror = (e) => {{
  document.getElementById("out").textContent = "ERROR " + e.message;
  document.documentElement.dataset.ready = "true";
}};
worker.postMessage({{ code: {code}, snapshot: {snapshot} }});
</script></head><body><pre id="out"></pre></body></html>
"""

#: A worker, as the app's (pyworker.mjs): its lazy importer uses synchronous requests,
#: which only a worker may make.
WORKER = """import { boot } from "./pyboot.mjs";
self.onmessage = async (e) => {
  try {
    const { py, main } = await boot({ snapshot: e.data.snapshot });
    const scope = py.globals.get("dict")();
    py.runPython(main, { globals: scope, filename: "worker.py" });
    py.runPython("import json\\n" + e.data.code, { globals: scope });
    postMessage(String(scope.get("result")));
  } catch (err) {
    postMessage("ERROR " + ((err && err.message) || err));
  }
};
"""


def run_python(page: Page, server_url: str, code: str, name: str = "probe",
               snapshot: str = "cached", timeout: float = 120_000) -> str:
    """``snapshot``: web/pyboot.mjs's mode ("cached", "always", "never")."""
    url = f"{server_url}/__{name}__.html"
    body = PAGE.format(code=json.dumps(code), snapshot=json.dumps(snapshot))
    page.route(url, lambda route: route.fulfill(body=body,
                                                content_type="text/html; charset=utf-8"))
    page.route(f"{server_url}/__probe_worker__.mjs", lambda route: route.fulfill(
        body=WORKER, content_type="text/javascript; charset=utf-8"))
    page.goto(url)
    page.wait_for_selector(READY, state="attached", timeout=timeout)
    out = page.locator("#out").text_content() or ""
    assert not out.startswith("ERROR"), out
    return out
