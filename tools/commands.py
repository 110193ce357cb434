"""What ``python build.py serve|test|bench`` run (inside .venv, where build.py moves first)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tools import chromium, dist, venv
from tools.paths import DIST, ROOT, log


def serve(port: int, host: str = "127.0.0.1") -> int:
    """Build, then serve dist/ and the relay (tools/relay.py) until Ctrl-C or SIGTERM."""
    dist.build()
    from tools import relay  # aiohttp: .venv has it

    try:
        return relay.serve(port, DIST, host)
    except OSError as e:
        print(f"build.py: cannot serve on {host}:{port}: {e}", file=sys.stderr)
        return 1


def _lint() -> bool:
    py = sys.executable
    log("ruff check .")
    if subprocess.run([py, "-m", "ruff", "check", "."], cwd=ROOT).returncode != 0:
        print("ruff found lint errors (see above)", file=sys.stderr)
        return False
    log("mypy (pyproject.toml [tool.mypy])")
    if subprocess.run([py, "-m", "mypy"], cwd=ROOT).returncode != 0:
        print("mypy found type errors (see above)", file=sys.stderr)
        return False
    return True


def test(pytest_args: list[str], processes: int = 2) -> int:
    """ruff, mypy, build, then pytest on ``processes`` pytest-xdist workers (``-n``, with
    work stealing).

    Two suits a 2-core machine: the engine tests keep one core busy while a browser test
    waits on Chromium. Arguments that choose their own ``-n``/``--numprocesses``, turn
    xdist off (``-p no:xdist``) or debug (``--pdb``, ``--trace``) run as given.
    ``--quick``: no build and no Chromium, only the tests that need neither.
    """
    quick = "--quick" in pytest_args
    pytest_args = [a for a in pytest_args if a != "--quick"]
    if not _lint():
        return 1
    if quick:
        pytest_args = ["-m", "not browser and not dist", *pytest_args]
        exe = ""
    else:
        dist.build()
        exe = chromium.require(venv.python())
    args = [*os.environ.get("PYTEST_ADDOPTS", "").split(), *pytest_args]
    own = any(
        a in ("-n", "--numprocesses", "--pdb", "--trace")
        or a.startswith("--numprocesses=")
        or (a.startswith("-n") and not a.startswith("--"))
        or a.endswith("no:xdist")
        for a in args
    )
    if processes > 1 and not own:
        # worksteal: a worker that runs out takes tests queued on the other, instead of
        # idling while the other works through a queue of long browser tests (a third of
        # the run's worker time went idle that way under the default ``load``).
        pytest_args = ["-n", str(processes), "--dist", "worksteal", *pytest_args]
    cmd = [sys.executable, "-m", "pytest", *pytest_args]
    log(" ".join(["pytest", *pytest_args]))
    rc = subprocess.run(cmd, cwd=ROOT, env=chromium.child_env(exe)).returncode
    if rc == 5:
        print("pytest collected no tests: treating that as a failure", file=sys.stderr)
        return 1
    return rc


def shots(out: str) -> int:
    """Build, then screenshots of every table (tools/shots.py) with a contact sheet."""
    dist.build()
    exe = chromium.require(venv.python())
    os.environ.update(chromium.child_env(exe))
    from tools import shots as screenshots  # Playwright: .venv has it

    return screenshots.run(DIST, Path(out).resolve())


def bench(budget: float = 2.0, runs: int = 3) -> int:
    """Build, then the benchmarks (tools/bench.py) in Chromium."""
    dist.build()
    exe = chromium.require(venv.python())
    os.environ.update(chromium.child_env(exe))
    from tools import bench as benchmarks  # Playwright: .venv has it

    return benchmarks.run(DIST, budget, runs)
