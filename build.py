#!/usr/bin/env python3
"""Build, serve, test and benchmark pygames (Python 3.11+).

    python build.py [build]              assemble dist/ (runtime from npm, our wheel, the app)
    python build.py serve [--port N] [--host H]
                                         build, then serve dist/ and the link-play relay
                                         on http://127.0.0.1:N (8000); --host 0.0.0.0 for a LAN
    python build.py test [pytest args]   ruff + mypy + build + pytest (Chromium via Playwright)
    python build.py test --quick [args]  ruff + mypy + the CPython tests that need neither
                                         Chromium nor dist/ (-m "not browser and not dist")
    python build.py bench                CPython playouts/s, page-ready times and main-thread
                                         tasks in Chromium (tools/bench.py)
    python build.py shots [--out DIR]    screenshots of every table, phone and desktop, both
                                         languages, with a contact sheet (tools/shots.py)

Every command runs inside .venv, which this script creates (or brings up to date) from
pyproject.toml's ``test`` extra and then re-runs itself in. The work is done by the modules
of ``tools/`` (see tools/__init__.py); this is only the command line.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys

from tools import venv
from tools.paths import BuildError


def _in_venv(argv: list[str]) -> int:
    """Run this command again with .venv's Python (creating .venv first if need be)."""
    py = str(venv.ensure())
    if os.name == "nt":  # no exec there: wait for a child instead
        return subprocess.run([py, __file__, *argv]).returncode
    os.execv(py, [py, __file__, *argv])
    return 0  # not reached


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not venv.inside():
        return _in_venv(argv)
    venv.ensure()  # the test extra may have changed since .venv was made
    from tools import commands, dist

    cmd = argv.pop(0) if argv and not argv[0].startswith("-") else "build"
    try:
        if cmd == "build":
            argparse.ArgumentParser(prog="build.py build").parse_args(argv)
            dist.build()
            return 0
        if cmd == "serve":
            ap = argparse.ArgumentParser(prog="build.py serve")
            ap.add_argument("--port", type=int, default=8000)
            ap.add_argument(
                "--host", default="127.0.0.1", help="address to bind (0.0.0.0: your LAN too)"
            )
            args = ap.parse_args(argv)
            return commands.serve(args.port, args.host)
        if cmd == "test":
            return commands.test(argv)
        if cmd == "bench":
            argparse.ArgumentParser(prog="build.py bench").parse_args(argv)
            return commands.bench()
        if cmd == "shots":
            ap = argparse.ArgumentParser(prog="build.py shots")
            ap.add_argument("--out", default="shots", help="folder for the PNGs and index.html")
            return commands.shots(ap.parse_args(argv).out)
    except BuildError as e:
        print(f"build.py: {e}", file=sys.stderr)
        return 1
    except subprocess.CalledProcessError as e:
        print(
            f"build.py: command failed ({e.returncode}): {' '.join(map(str, e.cmd))}",
            file=sys.stderr,
        )
        return 1
    print(__doc__, file=sys.stderr)
    print(f"unknown command: {cmd}", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
