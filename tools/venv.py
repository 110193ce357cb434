"""``.venv``: the environment every tool and test runs in.

It holds pyproject.toml's ``test`` extra (pinned) and a ``pygames-dev.pth`` file naming the
repository and ``web/``, so ``pygames``, ``pgui`` (the app's modules, web/pgui), ``tools``
and ``docs.boards`` import there as they are: the one place the import path is set
(pytest adds ``tests/`` too, by pyproject's ``pythonpath``).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path

from tools.paths import ROOT, VENV, log

STAMP = VENV / ".pygames-test-requirements.json"
#: Directories the .pth file puts on .venv's import path (relative to the repository), as
#: pyproject's pytest ``pythonpath`` does for the tests: the benches that drive the tests'
#: labs (tools/bench_link.py) import ``helpers`` too.
IMPORT_PATHS = (".", "web", "tests")
PTH_NAME = "pygames-dev.pth"


def python() -> Path:
    return VENV / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def inside() -> bool:
    """True when this process is .venv's Python."""
    return Path(sys.prefix).resolve() == VENV.resolve()


def test_requirements() -> list[str]:
    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return list(data["project"]["optional-dependencies"]["test"])


def _site_packages(py: Path) -> Path:
    probe = "import sysconfig; print(sysconfig.get_paths()['purelib'])"
    out = subprocess.run([str(py), "-c", probe], check=True, capture_output=True,
                         text=True).stdout.strip()
    return Path(out)


def pth_text() -> str:
    return "".join(f"{(ROOT / p).resolve()}\n" for p in IMPORT_PATHS)


def ensure() -> Path:
    """Create .venv if needed, install the test extra when it changed, write the .pth file;
    returns .venv's Python."""
    py = python()
    if not py.exists():
        log("creating .venv")
        subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
    reqs = test_requirements()
    want = json.dumps(sorted(reqs))
    if not STAMP.exists() or STAMP.read_text() != want:
        log("installing test requirements into .venv: " + " ".join(reqs))
        subprocess.run([str(py), "-m", "pip", "install", "--quiet",
                        "--disable-pip-version-check", *reqs], check=True)
        STAMP.write_text(want)
    pth = _site_packages(py) / PTH_NAME
    if not pth.is_file() or pth.read_text() != pth_text():
        pth.write_text(pth_text())
    return py
