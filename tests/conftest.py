"""Shared test set-up: the dist/ server, Chromium and network hygiene.

Imports need no set-up: pyproject.toml's pytest ``pythonpath`` puts the repository
(``pygames``, ``tools``, ``docs.boards``), ``web/`` (``pgui``) and ``tests/`` (``helpers``,
``tinygame``) on the path. Helpers shared by test modules live in ``tests/helpers/``; no
test module imports another.

Fixtures provided here:

- ``server_url`` (session): ``http://127.0.0.1:<port>`` serving ``dist/`` (built if missing).
  ``base_url`` is the same, so ``page.goto("/play.html")`` works.
- ``page_errors``: list of strings, ``"console.error: ..."`` and ``"pageerror: ..."``, from
  every page of the test's browser contexts. Console errors never fail a test by themselves;
  an uncaught page error (``pageerror``) does, unless the test removes it from the list.
- Every browser context (``context``, ``page``, ``new_context()``) aborts any request to a
  host other than 127.0.0.1/localhost; the test fails listing them. Note that Playwright
  disables the HTTP cache of a context that has routes.
- Every test of a ``test_browser_*.py`` file, and any test that uses a Playwright fixture,
  gets the ``browser`` marker; those that need the built dist/ (``server_url``, ``dist``,
  test_build.py) the ``dist`` marker (the rules are in helpers/marks.py): ``python build.py
  test --quick`` runs ``-m "not browser and not dist"``, every CPython test that needs
  neither Chromium nor a build. Default Playwright timeouts are 60 s.
- Safe under pytest-xdist (``python build.py test`` runs ``-n 2``): each worker serves dist/
  on its own port with its own link-play relay, and only one process at a time builds a
  missing dist/.
"""

from __future__ import annotations

import os
from urllib.parse import urlsplit

import pytest
from helpers.chromium import CHROMIUM_ARGS, chromium_executable
from helpers.dist import ensure_dist
from helpers.marks import BROWSER_FIXTURES, DIST_FIXTURES, DIST_MODULES, is_browser_file

from tools.paths import BENCH_PAGES, DIST

# A game plugged in from outside the registry, as ``id=module:Class[,ui module]`` (how
# tests/test_plugin.py runs the shared tests on tests/tinygame, which no shared file names).
if _plugin := os.environ.get("PYGAMES_PLUGIN"):
    import pgui as _pgui

    import pygames as _pygames

    _gid, _, _rest = _plugin.partition("=")
    _where, _, _ui = _rest.partition(",")
    _module, _, _cls = _where.partition(":")
    _pygames.register(_gid, _module, _cls)
    if _ui:
        _pgui.register_ui(_gid, _ui)

TIMEOUT_MS = 60_000
LOCAL_HOSTS = {"127.0.0.1", "localhost", "::1", "[::1]"}

try:  # Playwright is only needed for browser tests
    from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
    from playwright.sync_api import expect

    expect.set_options(timeout=TIMEOUT_MS)
except ImportError:  # pragma: no cover
    PlaywrightTimeoutError = TimeoutError


def pytest_collection_modifyitems(config, items):
    for item in items:
        fixtures = set(getattr(item, "fixturenames", ()))
        if BROWSER_FIXTURES & fixtures or is_browser_file(item.path):
            item.add_marker(pytest.mark.browser)
        if DIST_FIXTURES & fixtures or item.path.name in DIST_MODULES:
            item.add_marker(pytest.mark.dist)
    # The Chromium tests first (a stable sort: otherwise in order): they are the long ones,
    # and the many short CPython tests behind them even out the two xdist workers' ends.
    items.sort(key=lambda item: item.get_closest_marker("browser") is None)


# --------------------------------------------------------------------------- server


@pytest.fixture(scope="session")
def server_url():
    from tools import relay

    ensure_dist()
    # The benchmark's bare Pyodide page (tools/bench_pages) at /bench/, as the bench has it.
    server, url = relay.start_server_thread(0, DIST, mounts={"/bench/": BENCH_PAGES})
    yield url
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="session")
def base_url(server_url):
    return server_url


# --------------------------------------------------------------------------- Chromium


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    args = dict(browser_type_launch_args)
    exe = chromium_executable()
    if exe:
        args["executable_path"] = exe
    extra = list(CHROMIUM_ARGS)
    # Link play: WebRTC between two pages on this (possibly loopback-only) machine gathers
    # 127.0.0.1 candidates only with this flag (and camera/microphone permission granted
    # to the context). Real users need neither.
    extra.append("--allow-loopback-in-peer-connection")
    if args.get("headless", True):
        extra.insert(0, "--headless")
    args["args"] = [*args.get("args", []), *extra]
    return args


# --------------------------------------------------------------------------- hygiene


class BrowserGuard:
    """Blocks and records off-host requests, records console and page errors."""

    def __init__(self) -> None:
        self.blocked: list[str] = []
        self.page_errors: list[str] = []
        self._reported_blocked = 0
        self._contexts: set[int] = set()

    def _route(self, route) -> None:
        url = route.request.url
        parts = urlsplit(url)
        if parts.scheme in ("http", "https", "ws", "wss") and parts.hostname not in LOCAL_HOSTS:
            self.blocked.append(f"{route.request.method} {url}")
            route.abort("blockedbyclient")
        else:
            route.fallback()

    def _watch_page(self, page) -> None:
        def on_console(msg) -> None:
            if msg.type == "error":
                self.page_errors.append(f"console.error: {msg.text}")

        def on_pageerror(err) -> None:
            self.page_errors.append(f"pageerror: {err}")

        page.on("console", on_console)
        page.on("pageerror", on_pageerror)

    def attach(self, context) -> None:
        if id(context) in self._contexts:
            return
        self._contexts.add(id(context))
        context.set_default_timeout(TIMEOUT_MS)
        context.set_default_navigation_timeout(TIMEOUT_MS)
        context.route("**/*", self._route)
        for page in context.pages:
            self._watch_page(page)
        context.on("page", self._watch_page)

    def check(self) -> None:
        """Fail the test for new off-host requests or uncaught page errors."""
        problems = []
        new_blocked = self.blocked[self._reported_blocked :]
        self._reported_blocked = len(self.blocked)
        if new_blocked:
            problems.append("requests left 127.0.0.1 (aborted):\n  " + "\n  ".join(new_blocked))
        uncaught = [e for e in self.page_errors if e.startswith("pageerror: ")]
        if uncaught:
            self.page_errors[:] = [e for e in self.page_errors if e not in uncaught]
            problems.append("uncaught page errors:\n  " + "\n  ".join(uncaught))
        if problems:
            pytest.fail("\n".join(problems), pytrace=False)


@pytest.fixture
def _browser_guard():
    guard = BrowserGuard()
    yield guard
    guard.check()  # whatever happened after the test body (closing pages...)


@pytest.fixture
def page_errors(_browser_guard) -> list[str]:
    return _browser_guard.page_errors


@pytest.fixture
def new_context(new_context, _browser_guard):
    def _new_context(**kwargs):
        # No service worker unless a test asks for one (test_browser_offline does): its
        # first install fetches and hashes the whole app (14 MB) beside every test's page,
        # CPU the other worker's test then lacks, for nothing any other test checks.
        kwargs.setdefault("service_workers", "block")
        ctx = new_context(**kwargs)
        _browser_guard.attach(ctx)
        return ctx

    return _new_context


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    result = yield
    guard = getattr(item, "funcargs", {}).get("_browser_guard")
    if guard is not None:
        guard.check()
    return result
