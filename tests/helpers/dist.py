"""The built dist/ for the tests: built once if missing (one process at a time), and what
its runtime.json names."""

from __future__ import annotations

import contextlib
import hashlib
import json
import tempfile
from pathlib import Path

from tools.paths import DIST, ROOT


@contextlib.contextmanager
def build_lock():
    """One process at a time (xdist workers, parallel runs of this checkout) builds dist/."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows: no lock
        yield
        return
    tag = hashlib.sha256(str(ROOT).encode()).hexdigest()[:12]
    path = Path(tempfile.gettempdir()) / f"pygames-build-{tag}.lock"
    with open(path, "a") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


def ensure_dist() -> Path:
    """dist/, built first if it is missing (one process at a time: :func:`build_lock`)."""
    if not (DIST / "index.html").is_file():
        with build_lock():
            if not (DIST / "index.html").is_file():
                from tools import dist

                dist.build()
    return DIST


def runtime_config() -> dict:
    """dist/runtime.json: what the Python worker starts (web/pyboot.mjs)."""
    return json.loads((DIST / "runtime.json").read_text(encoding="utf-8"))


def wheel_name() -> str:
    """Our own wheel (the one unpacked at start; the others are pinned runtime wheels)."""
    return runtime_config()["wheels"][0].rsplit("/", 1)[-1]
