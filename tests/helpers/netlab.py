"""A network we can break, for browser tests: a private network namespace per lab.

Link play runs over WebRTC data channels (UDP) after signaling through the relay in
``tools/relay.py`` (a WebSocket, TCP). To test what the page does when the peer-to-peer path dies
while the relay still works (or when everything dies), a test must drop packets. Doing that
on the machine's own loopback would break every other test, other xdist workers and whatever
else runs here. So a lab is a fresh network namespace holding only a loopback interface,
with the app's server (dist/ and the relay, ``python -m tools.relay``) and Chromium both running
inside it: nftables rules in that namespace touch only the lab's own packets, and the
namespace disappears with everything in it when the lab ends.

Needs root, ``ip`` (iproute2) and ``nft`` (nftables); ``available()`` says why not, so::

    from helpers import netlab

    def test_udp_cut(playwright):
        if reason := netlab.available():
            pytest.skip(reason)
        with netlab.lab("udp-cut") as lab:
            browser = netlab.launch(playwright, lab)
            try:
                ctx = browser.new_context(permissions=["camera", "microphone"])
                page = ctx.new_page()
                page.goto(lab.url + "/play.html?game=kiriai&mode=link&lang=en&speed=0")
                ...
                lab.cut_udp()      # every WebRTC packet is dropped, the relay still works
                ...
                lab.restore_udp()
            finally:
                browser.close()

Notes:

- ``lab.url`` (``http://127.0.0.1:PORT``) is valid inside the namespace only: the browser
  from ``launch()`` reaches it, the test process does not. Use ``lab.run([...])`` to run a
  command inside the namespace (``lab.udp_ok()`` is such a probe).
- Contexts made with ``browser.new_context()`` do not get conftest's hygiene (off-host
  requests blocked, page errors recorded); a test that wants it can request the
  ``_browser_guard`` fixture and call ``_browser_guard.attach(ctx)``.
- ``cut_udp()`` drops on output too, so a UDP ``sendto`` inside the namespace fails with
  EPERM (Chromium sees send errors); ``cut_udp(silent=True)`` drops on input only, so sends
  succeed and nothing arrives, as on a dead link. Under ``cut_all()`` TCP stalls and
  retransmits (no reset), and resumes after ``restore_all()``.
- On exit the lab stops the server, ends any process still in its namespace (a browser the
  test did not close), deletes the rules, the namespace and the wrapper script. Namespaces
  left by a process that was killed (``pgl-<dead pid>-...``) are removed by the next lab.
"""

from __future__ import annotations

import atexit
import collections
import contextlib
import functools
import itertools
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import weakref
from pathlib import Path

from helpers.chromium import CHROMIUM_ARGS, chromium_executable
from helpers.dist import ensure_dist
from tools.paths import ROOT

PREFIX = "pgl-"
SETUP_TIMEOUT = 30.0  # seconds for the server to say it is serving
UDP_TABLE = "pgl_cut_udp"
ALL_TABLE = "pgl_cut_all"

_counter = itertools.count(1)
_open_labs: weakref.WeakSet[NetLab] = weakref.WeakSet()
_NAME_RE = re.compile(r"^pgl-(\d+)-\d+(?:-|$)")
_SERVING_RE = re.compile(r"Serving \S+ at (http://[^/\s]+)")


def _tool(name: str) -> str | None:
    return shutil.which(name) or next(
        (p for p in (f"/usr/sbin/{name}", f"/sbin/{name}") if os.access(p, os.X_OK)), None
    )


def _run(cmd: list[str], *, check: bool = True, input: str | None = None, timeout: float = 30):
    return subprocess.run(
        cmd, input=input, capture_output=True, text=True, check=check, timeout=timeout
    )


def _err(e: subprocess.CalledProcessError) -> str:
    return (e.stderr or e.stdout or "").strip() or f"exit status {e.returncode}"


def _server_python() -> str:
    venv = ROOT / ".venv" / "bin" / "python"
    return str(venv) if venv.exists() else sys.executable


@functools.cache
def available() -> str | None:
    """None if labs work here, else why not (for ``pytest.skip``)."""
    if not sys.platform.startswith("linux"):
        return "network labs need Linux network namespaces"
    if os.geteuid() != 0:
        return "network labs need root (ip netns, nft)"
    ip, nft = _tool("ip"), _tool("nft")
    if not ip:
        return "network labs need `ip` (iproute2)"
    if not nft:
        return "network labs need `nft` (nftables)"
    probe = f"{PREFIX}{os.getpid()}-0-probe"
    try:
        _run([ip, "netns", "add", probe])
    except (subprocess.CalledProcessError, subprocess.TimeoutExpired, OSError) as e:
        detail = _err(e) if isinstance(e, subprocess.CalledProcessError) else str(e)
        return f"cannot create a network namespace: {detail}"
    try:
        _run([ip, "netns", "exec", probe, nft, "add table inet pgl_probe"])
    except (subprocess.CalledProcessError, subprocess.TimeoutExpired, OSError) as e:
        detail = _err(e) if isinstance(e, subprocess.CalledProcessError) else str(e)
        return f"nft does not work in a network namespace: {detail}"
    finally:
        _run([ip, "netns", "delete", probe], check=False)
    return None


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _kill_pids(ip: str, ns: str, grace: float = 3.0) -> None:
    """End every process still inside namespace ``ns`` (TERM, then KILL)."""

    def pids() -> list[int]:
        out = _run([ip, "netns", "pids", ns], check=False).stdout
        return [int(p) for p in out.split() if p.isdigit() and int(p) != os.getpid()]

    for sig, wait in ((signal.SIGTERM, grace), (signal.SIGKILL, 2.0)):
        left = pids()
        if not left:
            return
        for pid in left:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, sig)
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline and pids():
            time.sleep(0.05)


def sweep_stale() -> list[str]:
    """Delete lab namespaces (and wrapper dirs) whose creating process is gone; returns the
    namespaces' names."""
    ip = _tool("ip")
    if not ip:
        return []
    gone = []
    for line in _run([ip, "netns", "list"], check=False).stdout.splitlines():
        name = line.split()[0] if line.split() else ""
        m = _NAME_RE.match(name)
        if m and not _pid_alive(int(m.group(1))):
            _kill_pids(ip, name)
            _run([ip, "netns", "delete", name], check=False)
            gone.append(name)
    for path in Path(tempfile.gettempdir()).glob(f"{PREFIX}*"):  # their wrapper scripts
        m = _NAME_RE.match(path.name)
        if m and path.is_dir() and not _pid_alive(int(m.group(1))):
            shutil.rmtree(path, ignore_errors=True)
    return gone


class NetLab:
    """A private network namespace with the app's server in it; a context manager.

    Attributes once entered: ``ns`` (namespace name), ``url`` (``http://127.0.0.1:PORT``,
    valid inside the namespace), ``chromium`` (path of a wrapper script that runs Chromium
    inside the namespace, for ``executable_path``), ``setup_seconds``.
    """

    def __init__(self, name_hint: str = "lab", chromium: str | None = None) -> None:
        hint = re.sub(r"[^a-z0-9_]+", "_", name_hint.lower()).strip("_")[:20]
        self.ns = f"{PREFIX}{os.getpid()}-{next(_counter)}" + (f"-{hint}" if hint else "")
        self.url = ""
        self.chromium = ""
        self.chromium_target = chromium  # None: the tests' choice (resolved on enter)
        self.setup_seconds = 0.0
        self.server_output: collections.deque[str] = collections.deque(maxlen=200)
        self._ip = _tool("ip") or "ip"
        self._nft = _tool("nft") or "nft"
        self._proc: subprocess.Popen | None = None
        self._tmpdir: str | None = None
        self._ns_made = False
        self._cuts: set[str] = set()

    # ------------------------------------------------------------------ life cycle

    def __enter__(self) -> NetLab:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.close()

    def start(self) -> NetLab:
        t0 = time.monotonic()
        reason = available()
        if reason:
            raise RuntimeError(reason)
        sweep_stale()
        ensure_dist()
        _open_labs.add(self)
        try:
            _run([self._ip, "netns", "add", self.ns])
            self._ns_made = True
            self.run([self._ip, "link", "set", "lo", "up"])
            self._start_server()
            self._tmpdir = tempfile.mkdtemp(prefix=f"{self.ns}-")
            self.chromium = str(Path(self._tmpdir) / "chromium")
            if self.chromium_target is None:
                self.chromium_target = chromium_executable()
            self.set_chromium_target(self.chromium_target or "/usr/bin/chromium")
        except BaseException:
            self.close()
            raise
        self.setup_seconds = time.monotonic() - t0
        return self

    def _start_server(self) -> None:
        cmd = [
            self._ip, "netns", "exec", self.ns,
            _server_python(), "-m", "tools.relay", "--port", "0", "--host", "127.0.0.1",
            "--stop-on-stdin-eof",
        ]  # fmt: skip
        # `ip netns exec` execs the command (no fork): the pid is the server's own.
        self._proc = subprocess.Popen(
            cmd,
            cwd=ROOT,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            bufsize=1,
        )
        ready = threading.Event()
        found: list[str] = []

        def drain(stream) -> None:  # keeps the pipe from filling; the URL line sets `ready`
            for line in stream:
                self.server_output.append(line.rstrip("\n"))
                if not found and (m := _SERVING_RE.search(line)):
                    found.append(m.group(1))
                    ready.set()
            ready.set()  # EOF: the server ended

        threading.Thread(target=drain, args=(self._proc.stdout,), daemon=True).start()
        if not ready.wait(SETUP_TIMEOUT) or not found:
            out = "\n".join(self.server_output)
            raise RuntimeError(f"lab server in {self.ns} did not start:\n{out}")
        self.url = found[0]

    def set_chromium_target(self, path: str) -> None:
        """(Re)write the wrapper so that it runs ``path`` inside the namespace."""
        self.chromium_target = path
        script = (
            "#!/bin/sh\n"
            f"exec {shlex.quote(self._ip)} netns exec {shlex.quote(self.ns)} "
            f'{shlex.quote(path)} "$@"\n'
        )
        Path(self.chromium).write_text(script)
        os.chmod(self.chromium, 0o755)

    def close(self) -> None:
        """Stop the server and anything else in the namespace, delete it all. Idempotent."""
        proc, self._proc = self._proc, None
        if proc is not None:
            if proc.poll() is None:
                with contextlib.suppress(OSError):
                    proc.stdin.close()  # the server stops by itself when stdin closes
                try:
                    proc.wait(timeout=5)
                except subprocess.TimeoutExpired:
                    proc.terminate()
                    try:
                        proc.wait(timeout=5)
                    except subprocess.TimeoutExpired:
                        proc.kill()
                        proc.wait()
            with contextlib.suppress(OSError):
                proc.stdin.close()
        if self._ns_made:
            self._ns_made = False
            for table in sorted(self._cuts):
                self._delete_table(table)
            self._cuts.clear()
            _kill_pids(self._ip, self.ns)
            _run([self._ip, "netns", "delete", self.ns], check=False)
        if self._tmpdir:
            shutil.rmtree(self._tmpdir, ignore_errors=True)
            self._tmpdir = None
        _open_labs.discard(self)

    # ------------------------------------------------------------------ inside the lab

    def run(
        self, cmd: list[str], *, check: bool = True, input: str | None = None, timeout: float = 30
    ) -> subprocess.CompletedProcess:
        """Run ``cmd`` inside the namespace (text output captured)."""
        return _run(
            [self._ip, "netns", "exec", self.ns, *cmd], check=check, input=input, timeout=timeout
        )

    def udp_ok(self, timeout: float = 0.5) -> bool:
        """True if a UDP datagram to 127.0.0.1 inside the namespace gets through."""
        code = (
            "import socket\n"
            "r = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); r.bind(('127.0.0.1', 0))\n"
            f"r.settimeout({timeout!r})\n"
            "s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)\n"
            "try:\n"
            "    s.sendto(b'ping', r.getsockname()); ok = r.recv(16) == b'ping'\n"
            "except OSError:\n"
            "    ok = False\n"
            "print('ok' if ok else 'blocked')\n"
        )
        return self.run([sys.executable, "-c", code]).stdout.strip() == "ok"

    def _nft_table(self, table: str, rule: str, output: bool = True) -> None:
        # add + delete + define in one transaction: replaces the table if it is there.
        hooks = ("input", "output") if output else ("input",)
        chains = "".join(
            f"  chain {hook} {{\n"
            f"    type filter hook {hook} priority -10; policy accept; {rule}\n"
            "  }\n"
            for hook in hooks
        )
        script = (
            f"add table inet {table}\n"
            f"delete table inet {table}\n"
            f"table inet {table} {{\n{chains}}}\n"
        )
        try:
            self.run([self._nft, "-f", "-"], input=script)
        except subprocess.CalledProcessError as e:
            raise RuntimeError(f"nft in {self.ns}: {_err(e)}") from e
        self._cuts.add(table)

    def _delete_table(self, table: str) -> None:
        script = f"add table inet {table}\ndelete table inet {table}\n"
        self.run([self._nft, "-f", "-"], input=script, check=False)
        self._cuts.discard(table)

    def cut_udp(self, silent: bool = False) -> None:
        """Drop every UDP packet in and out (all of WebRTC); TCP (page, relay) still works.

        A send then fails at once with EPERM (the output hook drops it). ``silent=True``
        drops UDP on input only: sends succeed and the packets vanish, as on a dead link.
        """
        self._nft_table(UDP_TABLE, "meta l4proto udp drop", output=not silent)

    def restore_udp(self) -> None:
        self._delete_table(UDP_TABLE)

    def cut_all(self) -> None:
        """Drop every packet: WebRTC and the relay's WebSocket stall (no reset), new page
        loads hang. TCP connections resume after ``restore_all()`` if they have not timed
        out; the page's own timers decide what it sees meanwhile."""
        self._nft_table(ALL_TABLE, "drop")

    def restore_all(self) -> None:
        self._delete_table(ALL_TABLE)

    def rules(self) -> str:
        """The namespace's nftables ruleset (for debugging)."""
        return self.run([self._nft, "list", "ruleset"], check=False).stdout


def lab(name_hint: str = "lab", chromium: str | None = None) -> NetLab:
    """A new ``NetLab``: ``with lab("udp-cut") as lab: ...``."""
    return NetLab(name_hint, chromium)


def launch(playwright, lab: NetLab, headless: bool = True, **kwargs):
    """A Playwright Browser running inside the lab's namespace, with the tests' flags."""
    return launch_wrapped(playwright, lab, lambda: lab.chromium,
                          [*CHROMIUM_ARGS, "--allow-loopback-in-peer-connection"],
                          headless, **kwargs)


def launch_wrapped(playwright, lab, wrapper, args: list[str], headless: bool = True,
                   **kwargs):
    """Chromium launched through a lab's wrapper script (``wrapper()``: its path, which
    runs ``lab.chromium_target`` inside a namespace; Playwright's own Chromium unless the
    lab names one) with ``args`` after any the caller gives; netlab's and natlab's."""
    if not wrapper():
        raise RuntimeError("the lab is not started (use it in a `with` block)")
    if not lab.chromium_target or not Path(lab.chromium_target).is_file():
        lab.set_chromium_target(playwright.chromium.executable_path)  # Playwright's own
    if headless:
        args = ["--headless", *args]
    args = [*kwargs.pop("args", []), *args]
    return playwright.chromium.launch(
        executable_path=wrapper(), headless=headless, args=args, **kwargs
    )


@atexit.register
def _close_open_labs() -> None:
    for each in list(_open_labs):
        with contextlib.suppress(Exception):
            each.close()
