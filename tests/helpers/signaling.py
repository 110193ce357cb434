"""Link play's signaling in tests: a mosquitto broker of the test's own, a spy on what it
carried, forged messages, and the check that signaling was sealed.

web/peer.js seals every signaling message (AES-GCM under a key from the invite's fragment)
and sends it to ``pygames/v1/<topic>/...`` on a broker, or through the relay. What a
server carried must hold nothing a player's browser said in plain text: no SDP, no ICE
candidate, no address, no game message, not even the room id (the topic is a hash of it).

``Broker`` runs mosquitto (Debian package) with a plain MQTT listener (for the spy and
for publishing forgeries with ``mosquitto_pub``) and a WebSockets one (for the pages);
``prefix`` runs both inside a network namespace (``["ip", "netns", "exec", ns]``).
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import shutil
import socket
import subprocess
import tempfile
import threading
import time
from pathlib import Path

#: What sealed signaling never shows a server: SDP lines, ICE candidates, game messages.
PLAIN_MARKS = ("v=0", "a=fingerprint", "a=ice-ufrag", "candidate:", "typ host", "typ srflx",
               "typ relay", '"sdp"', '"candidate"', '"offer"', '"answer"', '"hello"',
               '"type"', '"seq"', '"view"', '"legal"')


def available() -> str | None:
    """None if a broker can run here, else why not."""
    for tool in ("mosquitto", "mosquitto_sub", "mosquitto_pub"):
        if not (shutil.which(tool) or Path(f"/usr/sbin/{tool}").exists()):
            return f"no {tool} (Debian packages mosquitto, mosquitto-clients)"
    return None


def _tool(name: str) -> str:
    return shutil.which(name) or f"/usr/sbin/{name}"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_port(host: str, port: int, prefix: list[str], timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    probe = f"import socket; socket.create_connection(({host!r}, {port}), 0.5).close()"
    while time.monotonic() < deadline:
        if not prefix:
            with contextlib.suppress(OSError), socket.create_connection((host, port), 0.5):
                return
        elif subprocess.run([*prefix, "python3", "-c", probe], capture_output=True).returncode == 0:
            return
        time.sleep(0.05)
    raise RuntimeError(f"mosquitto did not listen on {host}:{port}")


class Broker:
    """mosquitto on ``host`` (``mqtt_port`` plain, ``ws_port`` WebSockets); a context
    manager. ``url`` is the pages' broker URL; ``spy()`` starts capturing every message it
    forwards (``captured``: (topic, payload) pairs)."""

    def __init__(self, host: str = "127.0.0.1", prefix: list[str] | None = None,
                 mqtt_port: int | None = None, ws_port: int | None = None) -> None:
        self.host = host
        self.prefix = prefix or []
        self.mqtt_port = mqtt_port or free_port()
        self.ws_port = ws_port or free_port()
        self.url = f"ws://{host}:{self.ws_port}"
        self.captured: list[tuple[str, str]] = []
        self._dir = Path(tempfile.mkdtemp(prefix="pg-mqtt-"))
        self._proc: subprocess.Popen | None = None
        self._spy: subprocess.Popen | None = None

    def __enter__(self) -> Broker:
        conf = self._dir / "mosquitto.conf"
        conf.write_text(f"listener {self.mqtt_port} {self.host}\n"
                        f"listener {self.ws_port} {self.host}\nprotocol websockets\n"
                        "allow_anonymous true\npersistence false\n")
        self.start()
        return self

    def start(self) -> None:
        if self._proc and self._proc.poll() is None:
            return
        log = open(self._dir / "mosquitto.log", "ab")  # noqa: SIM115 (the process keeps it)
        self._proc = subprocess.Popen([*self.prefix, _tool("mosquitto"), "-c",
                                       str(self._dir / "mosquitto.conf")],
                                      stdout=log, stderr=log)
        _wait_port(self.host, self.ws_port, self.prefix)
        _wait_port(self.host, self.mqtt_port, self.prefix)

    def stop(self) -> None:
        if self._proc and self._proc.poll() is None:
            self._proc.terminate()
            try:
                self._proc.wait(5)
            except subprocess.TimeoutExpired:
                self._proc.kill()
                self._proc.wait()

    def spy(self) -> None:
        """Capture every message the broker forwards from now on (topic and payload)."""
        self._spy = subprocess.Popen(
            [*self.prefix, _tool("mosquitto_sub"), "-h", self.host, "-p", str(self.mqtt_port),
             "-t", "#", "-v"], stdout=subprocess.PIPE, text=True)
        spy = self._spy

        def read() -> None:
            assert spy.stdout is not None
            for line in spy.stdout:
                topic, _, payload = line.rstrip("\n").partition(" ")
                self.captured.append((topic, payload))

        threading.Thread(target=read, daemon=True).start()
        time.sleep(0.3)  # subscribed before anything is sent

    def publish(self, topic: str, payload: str) -> None:
        subprocess.run([*self.prefix, _tool("mosquitto_pub"), "-h", self.host, "-p",
                        str(self.mqtt_port), "-t", topic, "-m", payload], check=True,
                       timeout=10)

    def __exit__(self, *exc) -> None:
        for proc in (self._spy, self._proc):
            if proc and proc.poll() is None:
                proc.terminate()
                with contextlib.suppress(subprocess.TimeoutExpired):
                    proc.wait(5)
                if proc.poll() is None:
                    proc.kill()
        shutil.rmtree(self._dir, ignore_errors=True)


def settings_route(context, settings: dict) -> None:
    """Every page of ``context`` reads ``settings`` as its peer.json."""
    body = json.dumps(settings)
    context.route("**/peer.json", lambda route: route.fulfill(
        status=200, content_type="application/json", body=body))


def sealed_problems(texts: list[str], *, secrets: tuple[str, ...] = ()) -> list[str]:
    """What in ``texts`` (what a server carried) is not ciphertext: each plain mark or
    secret (a room id, an address, a key) found, with where."""
    found = []
    for i, text in enumerate(texts):
        for mark in (*PLAIN_MARKS, *secrets):
            if mark and mark in text:
                found.append(f"{mark!r} in message {i}: {text[:120]}")
    return found


def envelopes(texts: list[str]) -> list[dict]:
    """The sealed envelopes in what a server carried (JSON texts; a relay frame's ``data``)."""
    out = []
    for text in texts:
        with contextlib.suppress(ValueError):
            obj = json.loads(text)
            if isinstance(obj, dict) and isinstance(obj.get("data"), dict):
                obj = obj["data"]
            if isinstance(obj, dict) and obj.get("kind") == "sealed":
                out.append(obj)
    return out


def tampered(env: dict) -> dict:
    """``env`` with one byte of its ciphertext flipped."""
    raw = bytearray(base64.urlsafe_b64decode(env["c"] + "=" * (-len(env["c"]) % 4)))
    raw[len(raw) // 2] ^= 0x01
    return {**env, "c": base64.urlsafe_b64encode(bytes(raw)).decode().rstrip("=")}


#: JS (page.evaluate, any secure page): a well-formed envelope sealed under a random key of
#: its own, as another link's page would make: authentic nowhere else.
FOREIGN_JS = """async ([kk]) => {
  const key = await crypto.subtle.generateKey({name: "AES-GCM", length: 256}, false, ["encrypt"]);
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const body = new TextEncoder().encode(JSON.stringify({kind: "hello", from: "someone",
    to: "*", ts: Date.now(), role: "guest"}));
  const ct = new Uint8Array(await crypto.subtle.encrypt({name: "AES-GCM", iv}, key, body));
  const b64 = (b) => btoa(String.fromCharCode(...b)).replace(/\\+/g, "-").replace(/\\//g, "_")
    .replace(/=+$/, "");
  return {kind: "sealed", k: kk, n: b64(iv), c: b64(ct)};
}"""


def page_stats(page) -> dict:
    return page.evaluate("({...window.pygamesPeer.stats})")


def env_flag(name: str) -> bool:
    return os.environ.get(name, "") not in ("", "0")
