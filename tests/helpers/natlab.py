"""An internet with home routers, for browser tests: Linux network namespaces joined by veth
pairs, NAT done by nftables (issue 24 point 6).

Link play is WebRTC between two browsers, usually each behind a home router. Whether a data
channel opens then depends on the routers (a symmetric NAT defeats STUN: only TURN connects
it), and the signaling goes through an MQTT broker on the internet. ``netlab.py`` runs
everything on one loopback; a NatLab builds the real shape::

                         inet (the internet)  pgl-<pid>-<n>-inet
          br0: 203.0.113.10/24 servers, 203.0.113.1/24 everybody's default gateway
           python3 -m http.server  203.0.113.10:8000   (static files: the site's root)
           turnserver (coturn)     203.0.113.10:3478   udp+tcp, STUN and TURN, relay
                                                       ports 49152-49279
           mosquitto               203.0.113.10:1883   MQTT   (test tools, spy())
                                   203.0.113.10:8080   MQTT over WebSockets (pages)
              |                        |                         |
     wan 203.0.113.101        wan 203.0.113.102        wan 203.0.113.103
      nat-a (router)           nat-b (router)           nat-c (router)
      "cone": masquerade       "symmetric": masquerade   "cone"
     lan 192.168.1.1/24        fully-random              lan 192.168.3.1/24
              |               lan 192.168.2.1/24                 |
     eth0 192.168.1.2             |                      eth0 192.168.3.2
      home a (Chromium)      eth0 192.168.2.2             home c (Chromium)
                              home b (Chromium)

The homes and their NAT types are a parameter (``homes={"a": "cone", ...}``, in order: the
n-th home gets 192.168.n.0/24 and 203.0.113.(100+n)); the default is the picture above.

- A **cone** router is a plain nftables ``masquerade``: Linux keeps the source port of a UDP
  flow whenever it is free, so one socket gets one public port whatever it sends to
  (endpoint-independent mapping); replies are let in only from where the home sent to
  (conntrack: address-and-port-dependent filtering, a "port-restricted cone"). STUN then
  finds the public port and two such homes connect directly by hole punching.
- A **symmetric** router is ``masquerade fully-random``: every new destination gets a new
  random public port, so the port STUN saw is not the port the peer sees and direct ICE
  fails against another NAT; only a TURN relay connects it.
- Every router forwards LAN to WAN and lets in only replies (``ct state established``), so a
  home reaches the internet's addresses (and other routers' WAN addresses) but never another
  home's private address. The internet does not forward (no route to 192.168.0.0/16).
- Every router also drops, on its input hook, whatever arrives on its WAN side that is not a
  reply, as home routers do. Without that, two cone homes did not connect: a peer's first
  ICE check, arriving before the home had sent anything to that peer, got a conntrack entry
  of its own (for the router itself), which then owned the port pair, so the home's own
  packets to that peer left from another port: a symmetric NAT by accident.
- IPv6 is off in every namespace (no link-local candidates to wait for).

Needs root, ``ip``, ``nft`` (with NAT), ``turnserver`` (Debian ``coturn``), ``mosquitto`` and
``mosquitto_sub``/``mosquitto_pub`` (``mosquitto-clients``); ``available()`` says why not.
In a test module, a module-scoped lab serving dist/ with an edited ``peer.json``::

    from helpers import natlab

    lab = natlab.fixture(lambda lab: {"iceServers": [lab.stun, lab.turn],
                                      "broker": lab.broker_ws})   # skips when unavailable

    def test_link_across_nats(playwright, lab):
        host = natlab.launch(playwright, lab, "a")
        guest = natlab.launch(playwright, lab, "b")       # behind the symmetric NAT
        try:
            page = host.new_context().new_page()
            page.goto(lab.url + "play.html?game=kiriai&mode=link")
            ...
            lab.cut("b"); ...; lab.restore("b")            # the guest's network dies
        finally:
            host.close()
            guest.close()

or by hand: ``root = natlab.site(DIST, tmp / "www", settings, "games")`` then
``with natlab.lab(root, path="games") as lab: ...``.

Notes:

- The addresses are constants (``SERVER`` ...), the same in every lab: labs of other
  processes (pytest-xdist workers) live in namespaces of their own. The test process itself
  is outside every lab: ``lab.run(where, cmd)`` runs a command in ``"inet"``, a home
  (``"a"``) or a router (``"nat-a"``).
- ``lab.url`` ends with ``/`` (``http://203.0.113.10:8000/`` plus ``path``). The origin is
  plain http on a public-looking address, not a secure context for Chromium, so
  ``launch()`` passes ``--unsafely-treat-insecure-origin-as-secure=<origin>``
  (``crypto.subtle``, service workers and SharedWorker need one). It drops
  ``--allow-loopback-in-peer-connection``: the homes have real interfaces, as users do.
- ``spy()`` runs ``mosquitto_sub -t '#'`` in inet; ``broker_capture()`` is every
  (topic, payload bytes) the broker forwarded since. ``stop_broker()`` kills mosquitto
  (clients see their connection reset), ``start_broker()`` starts it again (the spy
  reconnects by itself and is subscribed again when it returns).
- ``cut(home)`` drops every packet through that home's router (TCP stalls, no reset;
  WebRTC sees silence); ``restore(home)`` ends that.
- Measured on a 2-core Debian 12 machine (coturn 4.6.1, mosquitto 2.0.11): a 3-home lab
  starts in 0.4 s on an idle machine (up to 2 s under a load of 12), most of it the ~60
  ``ip`` commands and the servers' start; it is gone in 0.2-0.5 s. A data channel between
  the cone homes opens in about 1 s, and through TURN as fast.
- coturn needed no peer-address option: it denies only loopback peers (and multicast, with
  ``no-multicast-peers``) by default, and our peers are on 203.0.113.0/24. Debian's
  /etc/turnserver.conf says ``syslog``, so the lab passes a config file of its own.
  mosquitto 2.0's WebSockets listener accepts any path (``/``, ``/mqtt``) with the ``mqtt``
  subprotocol, and listens on all of inet's addresses whatever the ``listener`` line says.
  There is no ``ping`` here: ``lab.can_connect(where, host, port)`` tries TCP.
- On exit (or failure while starting) the lab stops its servers, ends any process still in
  its namespaces (a browser the test did not close), deletes the namespaces (with them the
  veths, the bridge and the rules) and its temp dir (configs, logs, wrapper scripts). A lab
  left by a killed process (``pgl-<dead pid>-...``) is swept by the next lab, as netlab's.
"""

from __future__ import annotations

import atexit
import contextlib
import functools
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from helpers.chromium import CHROMIUM_ARGS, chromium_executable
from helpers.netlab import (
    PREFIX,
    _counter,
    _err,
    _kill_pids,
    _run,
    _tool,
    launch_wrapped,
    sweep_stale,
)

SERVER = "203.0.113.10"  # every server of the internet
GATEWAY = "203.0.113.1"  # the routers' default gateway (inet does not forward: a dead end)
HTTP_PORT = 8000
STUN_PORT = 3478
MQTT_PORT = 1883
WS_PORT = 8080
RELAY_PORTS = (49152, 49279)
TURN_USER = "natlab"
TURN_PASSWORD = "natlab-secret"
REALM = "natlab"
NAT_TYPES = ("cone", "symmetric")
HOMES = {"a": "cone", "b": "symmetric", "c": "cone"}
SETUP_TIMEOUT = 10.0  # seconds for the servers to answer
CUT_TABLE = "pgl_cut"

_open_labs: weakref.WeakSet[NatLab] = weakref.WeakSet()
_HOME_RE = re.compile(r"^[a-z][a-z0-9]{0,7}$")

# Run inside inet: waits until every "tcp:PORT" accepts and every "stun:PORT" answers a
# STUN Binding request (coturn's UDP socket exists a moment before it serves).
_PROBE = r"""
import os, socket, sys, time
host, deadline = sys.argv[1], time.monotonic() + float(sys.argv[2])
todo = sys.argv[3:]
while todo and time.monotonic() < deadline:
    for want in list(todo):
        kind, port = want.split(":")
        try:
            if kind == "tcp":
                socket.create_connection((host, int(port)), timeout=0.2).close()
            else:
                s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
                s.settimeout(0.2)
                tid = os.urandom(12)
                s.sendto(b"\x00\x01\x00\x00\x21\x12\xa4\x42" + tid, (host, int(port)))
                if s.recv(2048)[8:20] != tid:
                    continue
            todo.remove(want)
        except OSError:
            pass
    if todo:
        time.sleep(0.02)
print(" ".join(todo))
"""


@functools.cache
def available() -> str | None:
    """None if NAT labs work here, else why not (for ``pytest.skip``)."""
    if not sys.platform.startswith("linux"):
        return "NAT labs need Linux network namespaces"
    if os.geteuid() != 0:
        return "NAT labs need root (ip netns, nft)"
    for tool, package in (
        ("ip", "iproute2"),
        ("nft", "nftables"),
        ("turnserver", "coturn"),
        ("mosquitto", "mosquitto"),
        ("mosquitto_sub", "mosquitto-clients"),
        ("mosquitto_pub", "mosquitto-clients"),
    ):
        if not _tool(tool):
            return f"NAT labs need `{tool}` (Debian package {package})"
    ip, nft = _tool("ip") or "ip", _tool("nft") or "nft"
    probe = f"{PREFIX}{os.getpid()}-0-natprobe"
    try:
        _run([ip, "netns", "add", probe])
    except (subprocess.CalledProcessError, subprocess.TimeoutExpired, OSError) as e:
        detail = _err(e) if isinstance(e, subprocess.CalledProcessError) else str(e)
        return f"cannot create a network namespace: {detail}"
    try:
        rules = (
            "table ip pgl_probe {\n  chain p {\n"
            "    type nat hook postrouting priority srcnat;\n    masquerade fully-random\n  }\n}\n"
        )
        _run([ip, "netns", "exec", probe, nft, "-f", "-"], input=rules)
    except (subprocess.CalledProcessError, subprocess.TimeoutExpired, OSError) as e:
        detail = _err(e) if isinstance(e, subprocess.CalledProcessError) else str(e)
        return f"nft cannot masquerade in a network namespace: {detail}"
    finally:
        _run([ip, "netns", "delete", probe], check=False)
    return None


def site(
    dist: str | os.PathLike, dest: str | os.PathLike, settings: dict, subpath: str = ""
) -> Path:
    """A copy of ``dist`` made of symlinks (``cp -rs``) at ``dest/subpath``, its
    ``peer.json`` replaced by ``settings`` (written as JSON); returns ``dest`` (the root
    to serve: ``lab(dest, path=subpath)``). ``dest`` must not exist or be empty."""
    src, root = Path(dist).resolve(), Path(dest)
    target = root / subpath.strip("/") if subpath.strip("/") else root
    if root.exists() and any(root.iterdir()):
        raise FileExistsError(f"{root} is not empty")
    target.parent.mkdir(parents=True, exist_ok=True)
    _run(["cp", "-rs", str(src), str(target)] if not target.exists() else
         ["cp", "-rs", f"{src}/.", str(target)])  # fmt: skip
    peer = target / "peer.json"
    peer.unlink(missing_ok=True)
    peer.write_text(json.dumps(settings, indent=2) + "\n")
    return root


@dataclass
class Home:
    """One home: a computer (``ns``) behind its router (``nat_ns``)."""

    name: str
    nat: str  # "cone" or "symmetric"
    index: int  # n: 192.168.n.0/24, WAN 203.0.113.(100+n)
    ns: str
    nat_ns: str
    chromium: str = ""  # wrapper script running Chromium in ``ns`` (executable_path)

    @property
    def addr(self) -> str:
        return f"192.168.{self.index}.2"

    @property
    def router(self) -> str:
        return f"192.168.{self.index}.1"

    @property
    def wan(self) -> str:
        return f"203.0.113.{100 + self.index}"


class NatLab:
    """The internet, its servers and the homes; a context manager (see the module's doc).

    Attributes once entered: ``url``, ``origin``, ``stun``, ``turn``, ``broker_ws``,
    ``homes`` (name -> :class:`Home`), ``namespaces`` ("inet", "a", "nat-a", ... -> name),
    ``root`` (the directory served), ``tmpdir``, ``setup_seconds``, ``teardown_seconds``.
    """

    def __init__(
        self,
        root: str | os.PathLike,
        homes: dict[str, str] | None = None,
        path: str = "",
        chromium: str | None = None,
    ) -> None:
        homes = dict(HOMES if homes is None else homes)
        for name, nat in homes.items():
            if not _HOME_RE.match(name) or name == "inet":
                raise ValueError(f"home name {name!r}: 1-8 of [a-z0-9], not 'inet'")
            if nat not in NAT_TYPES:
                raise ValueError(f"home {name!r}: NAT type {nat!r} is not one of {NAT_TYPES}")
        if not 1 <= len(homes) <= 99:
            raise ValueError("a lab has 1 to 99 homes")
        self.root = Path(root)
        base = f"{PREFIX}{os.getpid()}-{next(_counter)}"
        self.prefix = base + "-"
        self.namespaces = {"inet": f"{base}-inet"}
        self.homes: dict[str, Home] = {}
        for i, (name, nat) in enumerate(homes.items(), 1):
            home = Home(name, nat, i, ns=f"{base}-home-{name}", nat_ns=f"{base}-nat-{name}")
            self.homes[name] = home
            self.namespaces[name] = home.ns
            self.namespaces[f"nat-{name}"] = home.nat_ns
        sub = path.strip("/")
        self.origin = f"http://{SERVER}:{HTTP_PORT}"
        self.url = f"{self.origin}/{sub + '/' if sub else ''}"
        self.stun = {"urls": f"stun:{SERVER}:{STUN_PORT}"}
        self.turn = {
            "urls": f"turn:{SERVER}:{STUN_PORT}?transport=udp",
            "username": TURN_USER,
            "credential": TURN_PASSWORD,
        }
        self.broker = SERVER
        self.broker_ws = f"ws://{SERVER}:{WS_PORT}"
        self.chromium_target = chromium  # None: the tests' choice (resolved on enter)
        self.tmpdir = ""
        self.setup_seconds = 0.0
        self.teardown_seconds = 0.0
        self._ip = _tool("ip") or "ip"
        self._nft = _tool("nft") or "nft"
        self._made: list[str] = []  # namespaces created, in order
        self._procs: dict[str, subprocess.Popen] = {}
        self._logs: dict[str, Path] = {}
        self._cuts: set[str] = set()
        self._capture: list[tuple[str, bytes]] = []
        self._spy_lock = threading.Lock()
        self._subscribed = threading.Condition(self._spy_lock)
        self._subscriptions = 0

    # ------------------------------------------------------------------ life cycle

    def __enter__(self) -> NatLab:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.close()

    def start(self) -> NatLab:
        t0 = time.monotonic()
        if reason := available():
            raise RuntimeError(reason)
        if not self.root.is_dir():
            raise FileNotFoundError(f"nothing to serve: {self.root} is not a directory")
        sweep_stale()
        _open_labs.add(self)
        try:
            self.tmpdir = tempfile.mkdtemp(prefix=f"{self.prefix}natlab-")
            self._build_network()
            self._start_servers()
            if self.chromium_target is None:
                self.chromium_target = chromium_executable()
            self.set_chromium_target(self.chromium_target or "/usr/bin/chromium")
        except BaseException:
            self.close()
            raise
        self.setup_seconds = time.monotonic() - t0
        return self

    def _build_network(self) -> None:
        ip = shlex.quote(self._ip)
        inet = self.namespaces["inet"]
        lines = ["set -e"]
        for ns in self.namespaces.values():
            lines.append(f"{ip} netns add {ns}")
            self._made.append(ns)  # (close() deletes what exists of these)
            # Before any interface exists: new ones take "default"'s setting.
            lines.append(
                f"{ip} netns exec {ns} sh -c 'for k in all default; do "
                "echo 1 > /proc/sys/net/ipv6/conf/$k/disable_ipv6; done'"
            )
            lines.append(f"{ip} -n {ns} link set lo up")
        lines += [
            f"{ip} -n {inet} link add br0 type bridge",
            f"{ip} -n {inet} addr add {SERVER}/24 dev br0",
            f"{ip} -n {inet} addr add {GATEWAY}/24 dev br0",
            f"{ip} -n {inet} link set br0 up",
        ]
        for h in self.homes.values():
            n, r = h.ns, h.nat_ns
            lines += [
                f"{ip} -n {inet} link add w-{h.name} type veth peer name wan netns {r}",
                f"{ip} -n {inet} link set w-{h.name} master br0 up",
                f"{ip} -n {r} link add lan type veth peer name eth0 netns {n}",
                f"{ip} -n {r} addr add {h.wan}/24 dev wan",
                f"{ip} -n {r} addr add {h.router}/24 dev lan",
                f"{ip} -n {r} link set wan up",
                f"{ip} -n {r} link set lan up",
                f"{ip} -n {r} route add default via {GATEWAY}",
                f"{ip} netns exec {r} sh -c 'echo 1 > /proc/sys/net/ipv4/ip_forward'",
                f"{ip} -n {n} addr add {h.addr}/24 dev eth0",
                f"{ip} -n {n} link set eth0 up",
                f"{ip} -n {n} route add default via {h.router}",
            ]
        try:
            _run(["sh", "-c", "\n".join(lines)])
        except subprocess.CalledProcessError as e:
            raise RuntimeError(f"building the lab's network: {_err(e)}") from e
        for h in self.homes.values():
            self._nft_run(h.nat_ns, self._nat_rules(h))

    @staticmethod
    def _nat_rules(home: Home) -> str:
        random = " fully-random" if home.nat == "symmetric" else ""
        return (
            "table ip pgl_nat {\n"
            "  chain postrouting {\n"
            "    type nat hook postrouting priority srcnat; policy accept;\n"
            f'    oifname "wan" masquerade{random}\n'
            "  }\n"
            "  chain forward {\n"
            "    type filter hook forward priority filter; policy drop;\n"
            "    ct state established,related accept\n"
            '    iifname "lan" oifname "wan" accept\n'
            "  }\n"
            # The router itself serves nothing on its WAN side. Dropping what is not a reply
            # here, before conntrack confirms it, matters: an unsolicited packet that got an
            # entry (a peer's first ICE check) would own the port pair, and the home's own
            # packet to that peer would then leave from another port (no hole punching).
            "  chain input {\n"
            "    type filter hook input priority filter; policy accept;\n"
            '    iifname "wan" ct state established,related accept\n'
            '    iifname "wan" drop\n'
            "  }\n"
            "}\n"
        )

    def _nft_run(self, ns: str, script: str) -> None:
        try:
            _run([self._ip, "netns", "exec", ns, self._nft, "-f", "-"], input=script)
        except subprocess.CalledProcessError as e:
            raise RuntimeError(f"nft in {ns}: {_err(e)}") from e

    def _write(self, name: str, text: str) -> str:
        path = Path(self.tmpdir) / name
        path.write_text(text)
        path.chmod(0o644)
        return str(path)

    def _start_servers(self) -> None:
        os.chmod(self.tmpdir, 0o755)  # mosquitto reads its config, then runs as "mosquitto"
        python = "/usr/bin/python3" if os.access("/usr/bin/python3", os.X_OK) else sys.executable
        self._spawn("http", [python, "-m", "http.server", "--bind", SERVER, str(HTTP_PORT),
                             "--directory", str(self.root)])  # fmt: skip
        turn_conf = self._write(
            "turnserver.conf",
            "\n".join(
                [
                    f"listening-ip={SERVER}",
                    f"relay-ip={SERVER}",
                    f"listening-port={STUN_PORT}",
                    f"min-port={RELAY_PORTS[0]}",
                    f"max-port={RELAY_PORTS[1]}",
                    "lt-cred-mech",
                    f"user={TURN_USER}:{TURN_PASSWORD}",
                    f"realm={REALM}",
                    "fingerprint",
                    "no-tls",
                    "no-dtls",
                    "no-cli",
                    "no-rfc5780",
                    "no-multicast-peers",
                    "log-file=stdout",
                    "simple-log",
                    f"pidfile={self.tmpdir}/turnserver.pid",
                    f"userdb={self.tmpdir}/turndb",
                    "",
                ]
            ),
        )
        self._spawn("turnserver", [_tool("turnserver") or "turnserver", "-c", turn_conf])
        self._write_broker_conf()
        self._spawn_broker()
        self._wait_serving(
            [f"tcp:{HTTP_PORT}", f"stun:{STUN_PORT}", f"tcp:{MQTT_PORT}", f"tcp:{WS_PORT}"]
        )

    def use_relay(self, directory: str | os.PathLike) -> None:
        """Serve ``directory`` with our own server instead (``python -m tools.relay``: the
        static files and the signaling relay at ``./relay/``), at the same URL, as
        ``python build.py serve`` would on a host of its own (tools/bench_link.py)."""
        from tools.paths import ROOT

        self._stop("http")
        venv = ROOT / ".venv" / "bin" / "python"
        python = str(venv) if venv.exists() else sys.executable
        self._spawn("relay", [python, "-m", "tools.relay", "--host", SERVER, "--port",
                              str(HTTP_PORT), "--dir", str(directory)], cwd=str(ROOT))  # fmt: skip
        self._wait_serving([f"tcp:{HTTP_PORT}"])

    def _write_broker_conf(self) -> None:
        self._write(
            "mosquitto.conf",
            "\n".join(
                [
                    "per_listener_settings false",
                    "allow_anonymous true",
                    "persistence false",
                    "log_dest stdout",
                    "log_type error",
                    "log_type warning",
                    "log_type notice",
                    f"listener {MQTT_PORT} {SERVER}",
                    f"listener {WS_PORT} {SERVER}",
                    "protocol websockets",
                    "",
                ]
            ),
        )

    def _spawn_broker(self) -> None:
        conf = str(Path(self.tmpdir) / "mosquitto.conf")
        self._spawn("mosquitto", [_tool("mosquitto") or "mosquitto", "-c", conf])

    def _spawn(self, name: str, cmd: list[str], **kwargs) -> subprocess.Popen:
        log = self._logs.setdefault(name, Path(self.tmpdir) / f"{name}.log")
        with open(log, "ab") as out:
            proc = self.popen(
                "inet",
                cmd,
                stdin=subprocess.DEVNULL,
                stdout=kwargs.pop("stdout", out),
                stderr=out,
                **kwargs,
            )
        self._procs[name] = proc
        return proc

    def _wait_serving(self, wants: list[str]) -> None:
        r = self.run(
            "inet",
            [sys.executable, "-c", _PROBE, SERVER, str(SETUP_TIMEOUT), *wants],
            timeout=SETUP_TIMEOUT + 10,
        )
        if missing := r.stdout.split():
            raise RuntimeError(f"the lab's servers did not answer {missing}:\n{self.logs()}")

    def logs(self) -> str:
        """The servers' output so far (for a failure message)."""
        out = []
        for name, path in self._logs.items():
            with contextlib.suppress(OSError):
                text = path.read_text(errors="replace")
                out.append(f"--- {name}\n" + "\n".join(text.splitlines()[-40:]))
        return "\n".join(out)

    def set_chromium_target(self, path: str) -> None:
        """(Re)write each home's wrapper so that it runs ``path`` inside that home."""
        self.chromium_target = path
        for h in self.homes.values():
            h.chromium = str(Path(self.tmpdir) / f"chromium-{h.name}")
            Path(h.chromium).write_text(
                "#!/bin/sh\n"
                f"exec {shlex.quote(self._ip)} netns exec {shlex.quote(h.ns)} "
                f'{shlex.quote(path)} "$@"\n'
            )
            os.chmod(h.chromium, 0o755)

    def close(self) -> None:
        """Stop everything, delete the namespaces and the temp dir. Idempotent."""
        t0 = time.monotonic()
        for name in list(self._procs):
            self._stop(name)
        for ns in reversed(self._made):
            _kill_pids(self._ip, ns)
        for ns in reversed(self._made):
            _run([self._ip, "netns", "delete", ns], check=False)
        self._made.clear()
        self._cuts.clear()
        if self.tmpdir:
            shutil.rmtree(self.tmpdir, ignore_errors=True)
        _open_labs.discard(self)
        self.teardown_seconds = time.monotonic() - t0

    def _stop(self, name: str, grace: float = 3.0) -> None:
        proc = self._procs.pop(name, None)
        if proc is None:
            return
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(timeout=grace)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()

    def pids(self) -> dict[str, int]:
        """The pids of the lab's running servers (and spy), by name."""
        return {name: p.pid for name, p in self._procs.items() if p.poll() is None}

    # ------------------------------------------------------------------ inside the lab

    def run(
        self,
        where: str,
        cmd: list[str],
        *,
        check: bool = True,
        input: str | None = None,
        timeout: float = 30,
    ) -> subprocess.CompletedProcess:
        """Run ``cmd`` in ``where``: "inet", a home ("a") or a router ("nat-a")."""
        ns = self.namespaces[where]
        return _run([self._ip, "netns", "exec", ns, *cmd], check=check, input=input,
                    timeout=timeout)  # fmt: skip

    def popen(self, where: str, cmd: list[str], **kwargs) -> subprocess.Popen:
        """Start ``cmd`` in ``where`` (``subprocess.Popen`` keywords); its pid is the
        command's own (``ip netns exec`` execs it). The lab ends it if it still runs."""
        return subprocess.Popen([self._ip, "netns", "exec", self.namespaces[where], *cmd],
                                **kwargs)  # fmt: skip

    def can_connect(self, where: str, host: str, port: int, timeout: float = 1.0) -> bool:
        """True if a TCP connection from ``where`` to ``host:port`` is accepted within
        ``timeout`` (there is no ``ping`` here: Debian's is not installed)."""
        code = (
            "import socket, sys\n"
            "try:\n"
            f"    socket.create_connection(({host!r}, {int(port)}), timeout={timeout!r}).close()\n"
            "except OSError as e:\n"
            "    sys.exit(str(e) or type(e).__name__)\n"
        )
        return self.run(where, [sys.executable, "-c", code], check=False).returncode == 0

    def publish(self, topic: str, payload: bytes | str, where: str = "inet") -> None:
        """Publish one MQTT message (QoS 1) with ``mosquitto_pub`` run in ``where``."""
        data = payload.encode() if isinstance(payload, str) else payload
        cmd = [_tool("mosquitto_pub") or "mosquitto_pub", "-h", SERVER, "-p", str(MQTT_PORT),
               "-q", "1", "-t", topic, "-s"]  # fmt: skip
        r = subprocess.run(
            [self._ip, "netns", "exec", self.namespaces[where], *cmd],
            input=data,
            capture_output=True,
            timeout=15,
        )
        if r.returncode:
            msg = r.stderr.decode(errors="replace").strip()
            raise RuntimeError(f"mosquitto_pub in {where}: {msg or r.returncode}")

    # ------------------------------------------------------------------ the broker

    def stop_broker(self) -> None:
        """Kill mosquitto (its clients' connections end)."""
        self._stop("mosquitto", grace=2.0)

    def start_broker(self) -> None:
        """Start mosquitto again (after ``stop_broker()``); returns once it serves, and once
        the spy (if any) is subscribed again."""
        if "mosquitto" in self.pids():
            return
        with self._spy_lock:
            before = self._subscriptions
        self._spawn_broker()
        self._wait_serving([f"tcp:{MQTT_PORT}", f"tcp:{WS_PORT}"])
        if "spy" in self.pids():
            self._wait_subscribed(before + 1)

    def spy(self) -> None:
        """Start recording every message the broker forwards (``broker_capture()``);
        returns once subscribed. Idempotent."""
        if "spy" in self.pids():
            return
        # -d: says "Subscribed" (each time: it reconnects by itself). stdbuf: its stdout is a
        # pipe here, which stdio would buffer.
        sub = _tool("mosquitto_sub") or "mosquitto_sub"
        cmd = [_tool("stdbuf") or "stdbuf", "-oL", sub, "-d", "-h", SERVER,
               "-p", str(MQTT_PORT), "-t", "#", "-F", "M\t%t\t%x"]  # fmt: skip
        with self._spy_lock:
            before = self._subscriptions
        proc = self._spawn("spy", cmd, stdout=subprocess.PIPE)
        threading.Thread(target=self._read_spy, args=(proc.stdout,), daemon=True).start()
        self._wait_subscribed(before + 1)

    def _read_spy(self, stream) -> None:
        with stream:  # (closed here at EOF, when mosquitto_sub has ended)
            self._read_spy_lines(stream)

    def _read_spy_lines(self, stream) -> None:
        for raw in stream:
            line = raw.decode(errors="replace").rstrip("\n")
            with self._spy_lock:
                if line.startswith("M\t"):
                    _, topic, hexed = line.split("\t", 2)
                    self._capture.append((topic, bytes.fromhex(hexed)))
                elif line.startswith("Subscribed"):
                    self._subscriptions += 1
                    self._subscribed.notify_all()

    def _wait_subscribed(self, count: int, timeout: float = SETUP_TIMEOUT) -> None:
        with self._spy_lock:
            if not self._subscribed.wait_for(lambda: self._subscriptions >= count, timeout):
                raise RuntimeError(f"the spy did not subscribe:\n{self.logs()}")

    def broker_capture(self) -> list[tuple[str, bytes]]:
        """(topic, payload) of every message the broker forwarded since ``spy()``."""
        with self._spy_lock:
            return list(self._capture)

    # ------------------------------------------------------------------ breaking homes

    def cut(self, home: str) -> None:
        """Drop every packet through ``home``'s router, both ways, until ``restore()``."""
        h = self.homes[home]
        script = (
            f"add table inet {CUT_TABLE}\n"
            f"delete table inet {CUT_TABLE}\n"
            f"table inet {CUT_TABLE} {{\n"
            "  chain forward { type filter hook forward priority -10; policy drop; }\n"
            "}\n"
        )
        self._nft_run(h.nat_ns, script)
        self._cuts.add(home)

    def restore(self, home: str) -> None:
        h = self.homes[home]
        self._nft_run(h.nat_ns, f"add table inet {CUT_TABLE}\ndelete table inet {CUT_TABLE}\n")
        self._cuts.discard(home)

    def rules(self, where: str) -> str:
        """The nftables ruleset of a namespace (for debugging)."""
        return self.run(where, [self._nft, "list", "ruleset"], check=False).stdout


def lab(
    root: str | os.PathLike,
    homes: dict[str, str] | None = None,
    path: str = "",
    chromium: str | None = None,
) -> NatLab:
    """A new ``NatLab`` serving ``root`` (``lab.url`` is its ``path``):
    ``with lab(root) as lab: ...``."""
    return NatLab(root, homes, path, chromium)


def fixture(
    settings: dict | Callable[[NatLab], dict] | None = None,
    *,
    dist: str | os.PathLike | None = None,
    path: str = "",
    homes: dict[str, str] | None = None,
    scope: str = "module",
):
    """A pytest fixture (assign it to a module-level name) yielding a started NatLab that
    serves ``site(dist, ..., settings, path)``; ``dist`` defaults to the built dist/
    (built if missing); ``settings`` may be a function of the lab (for its addresses).
    Skips the test when ``available()`` says no."""
    import pytest

    @pytest.fixture(scope=scope)
    def _natlab(tmp_path_factory):
        if reason := available():
            pytest.skip(reason)
        src = dist
        if src is None:
            from helpers.dist import ensure_dist
            from tools.paths import DIST

            ensure_dist()
            src = DIST
        the_lab = NatLab(tmp_path_factory.mktemp("natlab") / "www", homes, path)
        given = settings(the_lab) if callable(settings) else (settings or {})
        site(src, the_lab.root, given, path)
        with the_lab:
            yield the_lab

    return _natlab


def launch(playwright, lab: NatLab, home: str, headless: bool = True, **kwargs):
    """A Playwright Browser running in ``home``, with the tests' flags (without loopback
    candidates) and the lab's origin treated as secure."""
    h = lab.homes[home]
    args = [a for a in CHROMIUM_ARGS if a != "--allow-loopback-in-peer-connection"]
    args.append(f"--unsafely-treat-insecure-origin-as-secure={lab.origin}")
    return launch_wrapped(playwright, lab, lambda: h.chromium, args, headless, **kwargs)


@atexit.register
def _close_open_labs() -> None:
    for each in list(_open_labs):
        with contextlib.suppress(Exception):
            each.close()
