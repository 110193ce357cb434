"""Where things are, for every tool (and the tests)."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DIST = ROOT / "dist"
WEB = ROOT / "web"
PUBLIC = ROOT / "public"
DOCS = ROOT / "docs"
TOOLS = ROOT / "tools"
#: Pages only the benchmarks and tests load (served at /bench/ by them, never in dist/).
BENCH_PAGES = TOOLS / "bench_pages"
NODE_MODULES = ROOT / "node_modules"
VENV = ROOT / ".venv"
WHEEL_CACHE = ROOT / ".wheel-cache"


class BuildError(RuntimeError):
    """A build step failed for a reason the user can act on (the message says which)."""


def log(msg: str) -> None:
    print(f"[build] {msg}", flush=True)
