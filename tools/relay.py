"""The HTTP server of ``python build.py serve``: dist/ plus the link-play signaling relay.

One aiohttp application on one origin serves two things:

- **Static files** from a directory (``dist/``): explicit MIME types (``.wasm`` as
  ``application/wasm``, ``.mjs`` as ``text/javascript``...), ``Cache-Control: public,
  max-age=86400`` under ``/pyodide/`` (named by its version) and ``no-cache``
  elsewhere, ``/`` and any directory answered by its ``index.html`` (a directory asked for
  without its final ``/`` is redirected to it), 404 for anything missing or outside the
  directory. GET and HEAD. A file with a compressed twin beside it (``<file>.br`` or
  ``<file>.gz``, written by the build: tools/compress.py) at least as new as itself is sent
  as that twin when the request's ``Accept-Encoding`` allows it (brotli first, then gzip; a
  coding with ``q=0`` is refused), with ``Content-Encoding``, the file's own
  ``Content-Type`` and the twin's length; every answer for such a file says ``Vary:
  Accept-Encoding``, and a Range request always gets the file itself. A twin asked for by
  its own name is a plain file. No access log; 4xx/5xx answers are printed to stderr as
  ``[serve] 404 GET /path`` (not a missing ``/favicon.ico``; a relay path is printed as
  ``/relay/<room>``).
- **The signaling relay** at ``GET /relay/{room}``, a WebSocket that carries the offers,
  answers and ICE candidates two browsers exchange to open a WebRTC data channel, sealed.
  Games are played over that channel, peer to peer: game messages never go through the
  relay.

Relay protocol
--------------

The relay carries only sealed messages: web/peer.js encrypts and authenticates every
signaling message (AES-GCM, under a key from the invite link's fragment, which never
reaches a server) before it sends it. The relay cannot read them nor forge one the pages
would accept; what it sees is a room topic (the first 32 hex digits of sha256 of
``"pygames room|" + room``, not the room itself) and ciphertext. It checks only the
envelope's shape and size, and still logs no room id and no content.

A room id is 8 to 64 characters from ``A-Z a-z 0-9 _ -`` (anything else: HTTP 400). Every
message is one JSON object in one text frame.

Server to client:

- ``{"type": "welcome", "id": ID, "peers": [IDS]}``: first message after connecting. ``ID``
  is this connection's id (12 URL-safe characters, random); ``peers`` the ids already in
  the room, oldest first.
- ``{"type": "join", "id": ID}``: another peer entered the room.
- ``{"type": "leave", "id": ID}``: a peer's connection closed (a room is deleted when its
  last peer leaves).
- ``{"type": "signal", "from": ID, "data": {...}}``: what peer ``ID`` sent to you.
- ``{"type": "error", "code": CODE, "message": "plain English"}``: the message you just
  sent was refused and not forwarded; the connection stays open unless said below.

Client to server: ``{"to": ID, "data": DATA}``, forwarded unchanged as a ``signal`` to peer
``ID`` of the same room. ``DATA`` is a sealed envelope (what web/peer.js sends), exactly
these four keys::

    {"kind": "sealed", "k": "p" or "w", "n": NONCE, "c": CIPHERTEXT}

``k`` names the key it is sealed under (the players' or the spectators'); ``NONCE`` is the
12-byte AES-GCM nonce in base64url: 16 characters of ``A-Z a-z 0-9 _ -``; ``CIPHERTEXT`` is
the ciphertext and its tag in base64url without padding: 1 to ``max_sealed`` characters of
that alphabet, of a length base64url can have (not 1 more than a multiple of 4).

Error codes:

======================== ===============================================================
``not_json``             the text frame is not JSON (NaN and Infinity are not JSON either)
``malformed``            not an object with a string ``to`` and an object ``data``; a
                         binary frame; a ``sealed`` ``data`` not of the shape above (a key
                         missing, extra or of the wrong type, ``k`` not ``p`` or ``w``, a
                         character outside base64url's alphabet, a nonce not of 16
                         characters, a ciphertext of no possible length)
``not_signaling``        ``data.kind`` is missing or is not ``"sealed"`` (such as the old
                         plaintext hello, offer, answer, candidate and bye)
``too_big``              a ciphertext ``c`` over ``max_sealed`` bytes (refused, the
                         connection stays open); the whole frame over ``max_message``
                         bytes: then closed with 1009
``no_such_peer``         ``to`` is not another peer of this room (now)
``rate``                 over ``rate`` messages in ``rate_window`` s on this connection, or
                         over ``client_rate`` from this client address: dropped; over twice
                         ``rate`` on this connection, the connection is closed with 1008
``room_full``            the room has ``peers_per_room`` peers already; closed with 1008
``too_many_rooms``       the relay holds ``max_rooms`` rooms, or ``rooms_per_client`` of
                         them were created from your address (the message says which);
                         closed with 1013 (try later)
``too_many_connections`` your address has ``connections_per_client`` connections open
                         already; closed with 1013 (try later)
``idle``                 none of your messages was forwarded for ``idle`` s (refused ones,
                         binary frames and pongs do not count); closed with 1000 (reconnect
                         when needed)
``origin``               HTTP 403 before the upgrade (see below), not a WebSocket message
======================== ===============================================================

A close frame's reason is the code name (``too_big``, ``rate``...). When the server stops,
connections are closed with 1001. Connections that stop answering WebSocket pings
(aiohttp's heartbeat, every ``heartbeat`` s) are dropped; so is a peer so slow to read
that 256 messages wait for it (1013 is not sent, the socket is cut).

Limits (:class:`Limits`, defaults): ``max_message`` 16384 bytes of UTF-8 per text frame;
``max_sealed`` 12288 bytes per ciphertext ``c`` (room for an offer's SDP, sealed and in
base64url); ``rate`` 60 messages per ``rate_window`` 10 s per connection and
``client_rate`` 400 per ``rate_window`` per client address, all its connections together
(every frame counts, refused ones too); ``peers_per_room`` 8; ``max_rooms`` 1000 rooms in
all and ``rooms_per_client`` 20 per client address (a room counts for the address that
created it, i.e. entered it first, until its last peer leaves; joining a room does not
count); ``connections_per_client`` 40 open connections per client address; ``idle`` 600 s;
``heartbeat`` 30 s. The limits count what a connection sends, never what it is sent: a
peer is not closed because others signal it a lot (only if it does not read them, above).

Client address: the per-client limits count by the IP address the TCP connection comes
from (aiohttp's ``request.remote``); no header is trusted. Known limits: behind a reverse
proxy every client has the proxy's address, so all of them share one address's limits;
and one IPv6 host may use many addresses. (``make_app(client_key=...)`` replaces the
function from request to client address; the tests use it.)

Origin rule: a WebSocket upgrade whose ``Origin`` header is present and is not the
server's own origin (the scheme of the request plus the host and port of its ``Host``
header, e.g. ``http://127.0.0.1:8000``) is refused with HTTP 403, so a page of another site
cannot use a served relay. A request without ``Origin`` (not a browser) is accepted.

The relay logs nothing about rooms or messages: no room id (a topic now), no content.

Test hook: ``make_app(tap=...)`` (or ``Relay(..., tap=...)``) is called as ``tap(room,
text)`` for every frame the relay forwards, where ``room`` is the room id of the URL (the
topic) and ``text`` the exact text frame sent to the recipient (the ``signal`` message), on
the relay's event loop, once the frame is queued for its recipient: it must not block nor
raise. The tests capture with it what the relay carried. Nothing is logged with it.

Run by ``python build.py serve``, the tests and the benchmarks; it needs aiohttp, installed
into ``.venv`` from pyproject.toml's ``test`` extra. From the command line (in .venv)::

    python -m tools.relay [--port 8000] [--host 127.0.0.1] [--dir dist] [--stop-on-stdin-eof]
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import mimetypes
import os
import re
import secrets
import signal
import stat
import sys
import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from aiohttp import WSCloseCode, WSMsgType, hdrs, web
from yarl import URL

DIST = Path(__file__).resolve().parent.parent / "dist"

MIME_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".htm": "text/html; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".js": "text/javascript",
    ".mjs": "text/javascript",
    ".wasm": "application/wasm",
    ".whl": "application/zip",
    ".zip": "application/zip",
    ".json": "application/json",
    ".webmanifest": "application/manifest+json",
    ".svg": "image/svg+xml",
    ".py": "text/plain; charset=utf-8",
    ".txt": "text/plain; charset=utf-8",
    ".md": "text/plain; charset=utf-8",
    ".toml": "text/plain; charset=utf-8",
    ".png": "image/png",
    ".ico": "image/x-icon",
    ".webp": "image/webp",
    ".jpg": "image/jpeg",
    ".woff2": "font/woff2",
}
#: Files named by their version (Pyodide's, from npm; the memory snapshot, named by what
#: went into it): a day in the HTTP cache. Everything
#: else, our wheel (whose name stays "pygames-0.1.0" as its code changes) and the app's
#: modules included, is revalidated on every load (a 304 when unchanged).
CACHED_PREFIXES = ("/pyodide/", "/py/snapshot-")
#: The compressed twins a file may have beside it (tools/compress.py), best first.
TWINS = ((".br", "br"), (".gz", "gzip"))

ROOM_ID = re.compile(r"[A-Za-z0-9_-]{8,64}")
OUTBOX = 256  # messages waiting for one slow reader before it is cut off
#: The one shape of ``data`` the relay forwards: a sealed envelope (web/peer.js's "sealing").
SEALED_KEYS = frozenset({"kind", "k", "n", "c"})
SEAL_KEYS = ("p", "w")  # sealed under the players' key or the spectators'
SEAL_NONCE = re.compile(r"[A-Za-z0-9_-]{16}")  # 12 bytes in base64url
BASE64URL = re.compile(r"[A-Za-z0-9_-]+")  # no padding


@dataclass(frozen=True)
class Limits:
    """What one relay allows (see the module docstring)."""

    max_message: int = 16384  # bytes of one text frame
    rate: int = 60  # messages per rate_window per connection
    rate_window: float = 10.0  # seconds
    peers_per_room: int = 8
    max_rooms: int = 1000
    idle: float = 600.0  # seconds without a forwarded message from the client
    heartbeat: float = 30.0  # seconds between WebSocket pings
    rooms_per_client: int = 20  # rooms held that were created from one client address
    connections_per_client: int = 40  # open connections from one client address
    client_rate: int = 400  # messages per rate_window from one address, all connections
    max_sealed: int = 12288  # bytes (base64url characters) of a sealed message's ciphertext


DEFAULT_LIMITS = Limits()


# --------------------------------------------------------------------------- static files


def _dumps(obj: object) -> str:
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def _file_for(root: Path, url_path: str) -> Path | str | None:
    """The file that answers ``url_path`` (decoded), "redirect" for a directory without its
    final "/", or None (404: missing, or outside ``root``)."""
    parts = [p for p in url_path.split("/") if p not in ("", ".")]
    if any(p == ".." or "\\" in p or "\0" in p or ":" in p for p in parts):
        return None
    try:
        target = root.joinpath(*parts).resolve()
    except (OSError, ValueError):
        return None
    if not target.is_relative_to(root):
        return None
    if target.is_dir():
        if not url_path.endswith("/"):
            return "redirect"
        target = target / "index.html"
    return target if target.is_file() else None


def _static_handler(root: Path, mounts: dict[str, Path] | None = None):
    mounted = sorted((mounts or {}).items(), key=lambda kv: -len(kv[0]))

    async def static(request: web.Request) -> web.StreamResponse:
        base, path = root, request.path
        for prefix, directory in mounted:
            if path.startswith(prefix):
                base, path = directory, path[len(prefix) - 1 :]
                break
        found = _file_for(base, path)
        if isinstance(found, str):  # a directory: its address ends with "/"
            path, sep, query = request.raw_path.partition("?")
            raise web.HTTPMovedPermanently(path + "/" + sep + query)
        if found is None:
            raise web.HTTPNotFound()
        headers = {}
        twins = _fresh_twins(found)
        twin = None if hdrs.RANGE in request.headers else _pick_twin(twins, request)
        mime = MIME_TYPES.get(found.suffix.lower())
        if twin and not mime:  # not guessed from the twin's name (".br": application/x-brotli)
            mime = mimetypes.guess_type(found.name)[0] or "application/octet-stream"
        if mime:
            headers["Content-Type"] = mime
        if twins:
            headers["Vary"] = "Accept-Encoding"
        if twin:
            return _FileResponse(twin[0], twin[1], headers=headers)
        return _FileResponse(found, None, headers=headers)

    return static


class _FileResponse(web.FileResponse):
    """A FileResponse that sends exactly ``path``, with Content-Encoding ``encoding`` (or
    none). aiohttp's own sends a ``.br`` or ``.gz`` beside the file whenever Accept-Encoding
    names the coding anywhere, even for a Range request, a twin older than the file or
    ``br;q=0``: the static handler chooses (:func:`_pick_twin`) and this only sends. (It
    overrides a private method of the pinned aiohttp; tests/test_server.py checks the
    headers and bytes of each case.)"""

    def __init__(self, path: Path, encoding: str | None, **kwargs) -> None:
        super().__init__(path, **kwargs)
        self._pygames_encoding = encoding

    def _get_file_path_stat_encoding(self, accept_encoding: str):
        st = self._path.stat()
        return (self._path if stat.S_ISREG(st.st_mode) else None), st, self._pygames_encoding


def _fresh_twins(found: Path) -> list[tuple[Path, str]]:
    """[(twin, coding)] of the compressed twins of ``found`` at least as new as it is
    (regular files, not symbolic links), best first."""
    try:
        mtime = found.stat().st_mtime_ns
    except OSError:
        return []
    out = []
    for suffix, coding in TWINS:
        twin = found.with_name(found.name + suffix)
        try:
            st = twin.lstat()
        except OSError:
            continue
        if stat.S_ISREG(st.st_mode) and st.st_mtime_ns >= mtime:
            out.append((twin, coding))
    return out


def _accept_encoding(header: str) -> dict[str, float]:
    """{coding: q} of an Accept-Encoding header (lower case; "*" too; a bad q is 0)."""
    weights = {}
    for item in header.lower().split(","):
        coding, *params = (part.strip() for part in item.split(";"))
        if not coding:
            continue
        q = 1.0
        for param in params:
            name, _, value = param.partition("=")
            if name.strip() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        weights[coding] = q
    return weights


def _pick_twin(twins: list[tuple[Path, str]], request: web.Request) -> tuple[Path, str] | None:
    """The first of ``twins`` whose coding the request accepts (q > 0), or None."""
    if not twins:
        return None
    weights = _accept_encoding(request.headers.get(hdrs.ACCEPT_ENCODING, ""))
    other = weights.get("*", 0.0)
    for twin, coding in twins:
        q = weights.get(coding, weights.get("x-gzip", other) if coding == "gzip" else other)
        if q > 0:
            return twin, coding
    return None


def _log_path(request: web.Request) -> str:
    if request.path.startswith("/relay/"):
        return "/relay/<room>"  # room ids are never logged
    return request.raw_path


# --------------------------------------------------------------------------- relay


def _error(code: str, message: str) -> str:
    return _dumps({"type": "error", "code": code, "message": message})


def _http_error(status: int, code: str, message: str) -> web.Response:
    return web.Response(
        status=status,
        text=_error(code, message),
        content_type="application/json",
    )


def _same_origin(request: web.Request) -> bool:
    origin = request.headers.get("Origin")
    if origin is None:
        return True
    try:
        theirs = URL(origin)
        ours = URL(f"{request.scheme}://{request.host}")
        return (
            theirs.scheme.lower() in ("http", "https")
            and theirs.scheme.lower() == ours.scheme.lower()
            and (theirs.host or "").lower() == (ours.host or "").lower()
            and theirs.port == ours.port
            and theirs.path in ("", "/")
        )
    except (ValueError, TypeError):
        return False


class _Closing(Exception):
    """Ends a connection: send ``message`` (if any) then close with ``code``."""

    def __init__(self, code: int, reason: str, message: str | None = None) -> None:
        super().__init__(reason)
        self.code, self.reason, self.message = code, reason, message


class Peer:
    """One relay connection: its id, its socket and the queue of what it is sent."""

    def __init__(self, peer_id: str, ws: web.WebSocketResponse, request: web.Request) -> None:
        self.id = peer_id
        self.ws = ws
        self.request = request
        self.outbox: asyncio.Queue[str | None] = asyncio.Queue(OUTBOX)
        self.writer: asyncio.Task | None = None
        self.received: deque[float] = deque()

    def send(self, text: str) -> None:
        """Queue ``text`` for this peer; a peer that does not keep up is cut off."""
        try:
            self.outbox.put_nowait(text)
        except asyncio.QueueFull:
            transport = self.request.transport
            if transport is not None:
                transport.abort()

    async def write_loop(self) -> None:
        while (text := await self.outbox.get()) is not None:
            try:
                await self.ws.send_str(text)
            except (ConnectionError, RuntimeError):
                return

    async def flush(self, timeout: float = 5.0) -> None:
        """Send what is queued (for at most ``timeout`` s), then stop the writer."""
        if self.writer is None:
            return
        with contextlib.suppress(asyncio.QueueFull):
            self.outbox.put_nowait(None)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.writer, timeout)  # cancels the writer on timeout


def client_address(request: web.Request) -> str:
    """The default client key: the IP address the connection comes from (never a header)."""
    return request.remote or ""


class _Client:
    """What one client address holds: open connections, rooms it created, recent messages."""

    __slots__ = ("connections", "rooms", "received")

    def __init__(self) -> None:
        self.connections = 0
        self.rooms = 0
        self.received: deque[float] = deque()


class Relay:
    """Rooms of peers and the forwarding between them. Lives on one event loop.

    ``client_key`` maps a request to its client address, the key of the per-client
    limits (default :func:`client_address`). ``tap(room, text)``, a test hook, is called
    with every frame forwarded: the room id and the exact text sent to the recipient.
    """

    def __init__(
        self,
        limits: Limits,
        client_key: Callable[[web.Request], str] | None = None,
        tap: Callable[[str, str], None] | None = None,
    ) -> None:
        self.limits = limits
        self.client_key = client_key or client_address
        self.tap = tap
        self.rooms: dict[str, dict[str, Peer]] = {}
        self.creators: dict[str, str] = {}  # room id -> the client address that created it
        self.clients: dict[str, _Client] = {}  # only addresses with connections or rooms

    async def handle(self, request: web.Request) -> web.StreamResponse:
        room_id = request.match_info["room"]
        if not ROOM_ID.fullmatch(room_id):
            return _http_error(
                400, "malformed", "A room id is 8 to 64 characters from A-Z, a-z, 0-9, _ and -."
            )
        if not _same_origin(request):
            return _http_error(
                403, "origin", "This relay only accepts WebSocket connections from its own pages."
            )
        limits = self.limits
        ws = web.WebSocketResponse(
            heartbeat=limits.heartbeat,
            # Bigger frames than this are cut by aiohttp itself (1009, no error message).
            max_msg_size=max(4 * limits.max_message, 65536),
            compress=False,
            timeout=5.0,
        )
        if not ws.can_prepare(request).ok:
            return web.Response(
                status=426,
                headers={"Upgrade": "websocket", "Connection": "Upgrade"},
                text=_error("malformed", "This address is a WebSocket (the link-play relay)."),
                content_type="application/json",
            )
        key = self.client_key(request) or ""
        client = self.clients.setdefault(key, _Client())
        client.connections += 1  # refused connections count too, until they are closed
        try:
            await ws.prepare(request)
            await self._serve(request, ws, room_id, key, client)
        finally:
            client.connections -= 1
            self._forget(key)
        return ws

    async def _serve(
        self,
        request: web.Request,
        ws: web.WebSocketResponse,
        room_id: str,
        key: str,
        client: _Client,
    ) -> None:
        limits = self.limits
        peer = Peer(self._new_id(room_id), ws, request)
        peer.writer = asyncio.create_task(peer.write_loop())
        room = self.rooms.get(room_id)
        code, reason = WSCloseCode.OK, ""
        joined = False
        try:
            if client.connections > limits.connections_per_client:
                raise _Closing(
                    WSCloseCode.TRY_AGAIN_LATER,
                    "too_many_connections",
                    f"There are {limits.connections_per_client} connections from your address "
                    "open already; close one or try again later.",
                )
            if room is None and len(self.rooms) >= limits.max_rooms:
                raise _Closing(
                    WSCloseCode.TRY_AGAIN_LATER,
                    "too_many_rooms",
                    "The relay holds as many rooms as it can; try again later.",
                )
            if room is None and client.rooms >= limits.rooms_per_client:
                raise _Closing(
                    WSCloseCode.TRY_AGAIN_LATER,
                    "too_many_rooms",
                    f"{limits.rooms_per_client} rooms of the relay were created from your "
                    "address; leave one or try again later.",
                )
            if room is not None and len(room) >= limits.peers_per_room:
                raise _Closing(
                    WSCloseCode.POLICY_VIOLATION,
                    "room_full",
                    f"This room already has {limits.peers_per_room} peers.",
                )
            if room is None:
                room = self.rooms[room_id] = {}
                self.creators[room_id] = key
                client.rooms += 1
            others = list(room.values())
            room[peer.id] = peer
            joined = True
            # Queued in this order before any other task runs: welcome comes first.
            peer.send(_dumps({"type": "welcome", "id": peer.id, "peers": [p.id for p in others]}))
            join = _dumps({"type": "join", "id": peer.id})
            for other in others:
                other.send(join)
            await self._read_loop(peer, room_id, room, client)
        except _Closing as closing:
            code, reason = closing.code, closing.reason
            if closing.message:
                peer.send(_error(closing.reason, closing.message))
        finally:
            if joined:
                self._leave(room_id, peer)
            await peer.flush()
            if not ws.closed:
                await ws.close(code=code, message=reason.encode())

    def _new_id(self, room_id: str) -> str:
        room = self.rooms.get(room_id, {})
        while (peer_id := secrets.token_urlsafe(9)) in room:
            pass
        return peer_id

    def _forget(self, key: str) -> None:
        """Drop a client address that holds nothing any more."""
        client = self.clients.get(key)
        if client is not None and client.connections <= 0 and client.rooms <= 0:
            del self.clients[key]

    def _leave(self, room_id: str, peer: Peer) -> None:
        room = self.rooms.get(room_id)
        if room is None or room.get(peer.id) is not peer:
            return
        del room[peer.id]
        if not room:
            del self.rooms[room_id]
            creator = self.creators.pop(room_id)
            self.clients[creator].rooms -= 1
            self._forget(creator)
            return
        leave = _dumps({"type": "leave", "id": peer.id})
        for other in room.values():
            other.send(leave)

    async def _read_loop(
        self, peer: Peer, room_id: str, room: dict[str, Peer], client: _Client
    ) -> None:
        limits = self.limits
        loop = asyncio.get_running_loop()
        deadline = loop.time() + limits.idle
        while True:
            try:
                # One deadline for the whole wait: the heartbeat's pongs do not count.
                async with asyncio.timeout_at(deadline):
                    msg = await peer.ws.receive()
            except TimeoutError:
                raise _Closing(
                    WSCloseCode.OK,
                    "idle",
                    f"Nothing was signaled for {limits.idle:g} s: the relay closes idle "
                    "connections. Reconnect when you need it again.",
                ) from None
            if msg.type not in (WSMsgType.TEXT, WSMsgType.BINARY):
                return  # closed, closing or broken
            now = loop.time()
            if msg.type is WSMsgType.TEXT and len(msg.data.encode()) > limits.max_message:
                raise _Closing(
                    WSCloseCode.MESSAGE_TOO_BIG,
                    "too_big",
                    f"A message may be at most {limits.max_message} bytes.",
                )
            if self._over_rate(peer, client, now):
                continue
            if msg.type is WSMsgType.BINARY:
                peer.send(_error("malformed", "Send JSON in text frames, not binary ones."))
                continue
            if self._forward(peer, room_id, room, msg.data):
                deadline = now + limits.idle  # only signaling that got through counts

    def _over_rate(self, peer: Peer, client: _Client, now: float) -> bool:
        """Count one message; True if it is to be dropped (raises if it is far over)."""
        limits = self.limits
        since = now - limits.rate_window
        for received in (peer.received, client.received):
            received.append(now)
            while received and received[0] <= since:
                received.popleft()
        if len(peer.received) > limits.rate:
            text = f"At most {limits.rate} messages every {limits.rate_window:g} s."
            if len(peer.received) > 2 * limits.rate:
                raise _Closing(WSCloseCode.POLICY_VIOLATION, "rate", text + " Closing.")
            peer.send(_error("rate", text + " This one was dropped."))
            return True
        if len(client.received) > limits.client_rate:
            peer.send(
                _error(
                    "rate",
                    f"At most {limits.client_rate} messages every {limits.rate_window:g} s "
                    "from your address, all its connections together. This one was dropped.",
                )
            )
            return True
        return False

    def _forward(self, peer: Peer, room_id: str, room: dict[str, Peer], text: str) -> bool:
        """Forward one text frame to its target; False if it was refused (with an error)."""
        try:
            message = json.loads(text, parse_constant=_not_json)
        except (ValueError, RecursionError):
            peer.send(_error("not_json", "That message is not JSON."))
            return False
        if not (
            isinstance(message, dict)
            and isinstance(message.get("to"), str)
            and isinstance(message.get("data"), dict)
        ):
            peer.send(
                _error(
                    "malformed",
                    'A message is a JSON object {"to": a peer id, "data": {"kind": '
                    '"sealed", ...}}.',
                )
            )
            return False
        data = message["data"]
        if data.get("kind") != "sealed":
            peer.send(
                _error(
                    "not_signaling",
                    'The relay carries sealed signaling only: data.kind must be "sealed".',
                )
            )
            return False
        refused = _sealed_error(data, self.limits)
        if refused is not None:
            peer.send(_error(*refused))
            return False
        target = room.get(message["to"])
        if target is None or target is peer:
            peer.send(_error("no_such_peer", "There is no other peer with that id in this room."))
            return False
        # Serializable and ASCII: every value was checked by _sealed_error.
        text = _dumps({"type": "signal", "from": peer.id, "data": data})
        target.send(text)
        if self.tap is not None:
            self.tap(room_id, text)
        return True

    async def close_all(self, _app: web.Application | None = None) -> None:
        """Close every connection with 1001 (the server is going away)."""
        sockets = [p.ws for room in self.rooms.values() for p in room.values()]
        await asyncio.gather(
            *(ws.close(code=WSCloseCode.GOING_AWAY, message=b"shutdown") for ws in sockets),
            return_exceptions=True,
        )


def _not_json(constant: str) -> None:
    raise ValueError(f"{constant} is not JSON")


SEALED_SHAPE = (
    'A sealed message is {"kind": "sealed", "k": "p" or "w", "n": its 12-byte nonce in '
    'base64url (16 characters of A-Z a-z 0-9 _ -), "c": its ciphertext in base64url without '
    "padding}, nothing else."
)


def _sealed_error(data: dict, limits: Limits) -> tuple[str, str] | None:
    """Why ``data`` (of kind "sealed") may not be forwarded: (code, message), or None."""
    k, n, c = data.get("k"), data.get("n"), data.get("c")
    if not (
        data.keys() == SEALED_KEYS
        and isinstance(k, str)
        and k in SEAL_KEYS
        and isinstance(n, str)
        and SEAL_NONCE.fullmatch(n) is not None
        and isinstance(c, str)
        and BASE64URL.fullmatch(c) is not None
        and len(c) % 4 != 1  # no byte string has a base64url of that length
    ):
        return "malformed", SEALED_SHAPE
    if len(c) > limits.max_sealed:  # ASCII: characters are bytes
        return (
            "too_big",
            f"A sealed message's ciphertext may be at most {limits.max_sealed} bytes; "
            "this message was not forwarded.",
        )
    return None


# --------------------------------------------------------------------------- the app

RELAY = web.AppKey("relay", Relay)


def make_app(
    directory: Path | str = DIST,
    *,
    limits: Limits = DEFAULT_LIMITS,
    log_errors: bool = True,
    client_key: Callable[[web.Request], str] | None = None,
    mounts: dict[str, Path] | None = None,
    tap: Callable[[str, str], None] | None = None,
) -> web.Application:
    """The application: the relay at /relay/{room}, static files of ``directory`` elsewhere.

    ``mounts`` maps URL prefixes ending in "/" to other directories served there instead
    (the benchmarks' and tests' own pages at ``/bench/``, which dist/ never holds).

    ``client_key(request)`` gives the client address the relay's per-client limits count
    by (default :func:`client_address`, the connection's IP address).

    ``tap(room, text)``, for tests, is called with every frame the relay forwards: the
    room id of the URL (the topic) and the exact text sent to the recipient (see the
    module docstring).
    """
    root = Path(directory).resolve()
    app = web.Application()
    relay = Relay(limits, client_key, tap)
    app[RELAY] = relay
    app.router.add_get("/relay/{room}", relay.handle, allow_head=False)
    app.router.add_get(
        "/{tail:.*}",
        _static_handler(root, {k: Path(v).resolve() for k, v in (mounts or {}).items()}),
    )

    async def headers_and_log(request: web.Request, response: web.StreamResponse) -> None:
        if isinstance(response, web.WebSocketResponse):
            return
        if "Cache-Control" not in response.headers:
            cached = request.path.startswith(CACHED_PREFIXES)
            response.headers["Cache-Control"] = "public, max-age=86400" if cached else "no-cache"
        status = response.status
        if log_errors and status >= 400 and not (status == 404 and request.path == "/favicon.ico"):
            sys.stderr.write(f"[serve] {status} {request.method} {_log_path(request)}\n")

    app.on_response_prepare.append(headers_and_log)
    app.on_shutdown.append(relay.close_all)
    return app


async def _start(app: web.Application, host: str, port: int, shutdown_timeout: float):
    runner = web.AppRunner(app, access_log=None, shutdown_timeout=shutdown_timeout)
    await runner.setup()
    site = web.TCPSite(runner, host, port)
    try:
        await site.start()
    except BaseException:
        await runner.cleanup()
        raise
    return runner, runner.addresses[0][1]


class ServerThread:
    """An app served on its own event loop in a daemon thread (see start_server_thread)."""

    def __init__(self, app: web.Application, host: str, port: int) -> None:
        self.app = app
        self.host = host
        self.port = port
        self._loop = asyncio.new_event_loop()
        self._ready = threading.Event()
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, name="pygames-http", daemon=True)

    def start(self) -> None:
        self._thread.start()
        self._ready.wait()
        if self._error is not None:
            self._thread.join()
            raise self._error

    def _run(self) -> None:
        loop = self._loop
        asyncio.set_event_loop(loop)
        try:
            runner, self.port = loop.run_until_complete(
                _start(self.app, self.host, self.port, shutdown_timeout=2.0)
            )
        except BaseException as e:  # noqa: BLE001 - handed to the starting thread
            self._error = e
            self._ready.set()
            loop.close()
            return
        self._ready.set()
        try:
            loop.run_forever()
        finally:
            loop.run_until_complete(runner.cleanup())
            loop.run_until_complete(loop.shutdown_asyncgens())
            loop.close()

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    def shutdown(self) -> None:
        """Stop serving (open WebSockets are closed with 1001) and wait for the thread."""
        if self._thread.is_alive():
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(timeout=15)

    def server_close(self) -> None:
        """Same as shutdown (kept so callers of the old http.server API work)."""
        self.shutdown()


def start_server_thread(
    port: int = 0,
    directory: Path | str = DIST,
    log_errors: bool = True,
    limits: Limits = DEFAULT_LIMITS,
    host: str = "127.0.0.1",
    mounts: dict[str, Path] | None = None,
) -> tuple[ServerThread, str]:
    """Serve ``directory`` (and the relay) from a daemon thread; returns once listening.

    Returns (server, base URL ``http://127.0.0.1:PORT``); port 0 picks a free port. Stop it
    with ``server.shutdown()``.
    """
    app = make_app(directory, limits=limits, log_errors=log_errors, mounts=mounts)
    server = ServerThread(app, host, port)
    server.start()
    return server, server.url


def _url_host(host: str) -> str:
    return f"[{host}]" if ":" in host else host


def serve(
    port: int = 8000,
    directory: Path | str = DIST,
    host: str = "127.0.0.1",
    *,
    limits: Limits = DEFAULT_LIMITS,
    stop_on_stdin_eof: bool = False,
) -> int:
    """Serve until Ctrl-C or SIGTERM (or, if asked, until stdin closes: a parent died)."""
    app = make_app(directory, limits=limits)

    async def main() -> None:
        loop = asyncio.get_running_loop()
        stop = asyncio.Event()
        runner, real_port = await _start(app, host, port, shutdown_timeout=5.0)
        try:
            for sig in (signal.SIGINT, signal.SIGTERM):
                with contextlib.suppress(NotImplementedError, RuntimeError):
                    loop.add_signal_handler(sig, stop.set)  # not on Windows
            if stop_on_stdin_eof:

                def watch_stdin() -> None:
                    # os.read, not sys.stdin: a daemon thread blocked in a buffered read
                    # holds its lock and breaks the interpreter's exit.
                    with contextlib.suppress(OSError, ValueError):
                        while os.read(sys.stdin.fileno(), 4096):
                            pass
                    with contextlib.suppress(RuntimeError):  # the loop is already closed
                        loop.call_soon_threadsafe(stop.set)

                threading.Thread(target=watch_stdin, name="stdin-eof", daemon=True).start()
            name = Path(directory).name
            print(
                f"Serving {name}/ at http://{_url_host(host)}:{real_port}/  (Ctrl-C to stop)",
                flush=True,
            )
            await stop.wait()
        finally:
            await runner.cleanup()

    try:
        asyncio.run(main())
    except KeyboardInterrupt:  # where signal handlers are not available (Windows)
        pass
    print("\nstopped", flush=True)
    return 0


def main(argv: list[str] | None = None) -> int:
    import argparse

    ap = argparse.ArgumentParser(prog="python -m tools.relay", description=__doc__.split("\n\n")[0])
    ap.add_argument("--port", type=int, default=8000, help="0 picks a free port")
    ap.add_argument("--host", default="127.0.0.1", help="address to bind (0.0.0.0: your LAN too)")
    ap.add_argument("--dir", type=Path, default=DIST, help="the directory to serve (dist/)")
    ap.add_argument(
        "--stop-on-stdin-eof",
        action="store_true",
        help="also stop when stdin closes (a parent process died)",
    )
    args = ap.parse_args(argv)
    try:
        return serve(args.port, args.dir, args.host, stop_on_stdin_eof=args.stop_on_stdin_eof)
    except OSError as e:
        print(f"tools.relay: cannot serve on {args.host}:{args.port}: {e}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
