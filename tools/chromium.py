"""Which Chromium the browser tests and benchmarks drive, and how it is launched.

``python build.py test|bench`` finds one (``$CHROMIUM``, ``/usr/bin/chromium``, or
Playwright's own) and hands it to its child processes as ``$PYGAMES_CHROMIUM``; the tests
(``tests/conftest.py``) and the benchmarks (``tools/bench.py``) launch it with
:data:`FLAGS` through :func:`launch_args`.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from tools.paths import VENV, log

#: The launch flags that work on these machines (see ../shared/notes/browser.md).
FLAGS = [
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
ENV = "PYGAMES_CHROMIUM"


def find(py: Path) -> str | None:
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


def require(py: Path) -> str:
    exe = find(py)
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


def child_env(chromium: str) -> dict[str, str]:
    """The environment of a test or benchmark process: the Chromium found, and no stray
    bytecode files in the checkout."""
    env = dict(os.environ)
    env[ENV] = chromium
    env.setdefault("PYTHONDONTWRITEBYTECODE", "1")
    return env


def launch_args(flags: list[str] | None = None) -> dict[str, Any]:
    """Keyword arguments for Playwright's ``chromium.launch``: the Chromium of
    ``$PYGAMES_CHROMIUM`` (else ``$CHROMIUM``, else Playwright's own) with :data:`FLAGS`."""
    exe = os.environ.get(ENV) or os.environ.get("CHROMIUM") or ""
    args: dict[str, Any] = {"args": list(FLAGS if flags is None else flags)}
    if exe:
        args["executable_path"] = exe
    return args
