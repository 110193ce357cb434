"""The HTTP server of ``python build.py serve``: dist/ plus the link-play signaling relay.

One aiohttp application on one origin serves two things:

- **Static files** from a directory (``dist/``): explicit MIME types (``.wasm`` as
  ``application/wasm``, ``.mjs`` as ``text/javascript``...), ``Cache-Control: public,
  max-age=86400`` under ``/pyodide/``, ``/pyscript/`` and ``/wheels/`` and ``no-cache``
  elsewhere, ``/`` and any directory answered by its ``index.html`` (a directory asked for
  without its final ``/`` is redirected to it), 404 for anything missing or outside the
  directory. GET and HEAD. No access log; 4xx/5xx answers are printed to stderr as
  ``[serve] 404 GET /path`` (not a missing ``/favicon.ico``; a relay path is printed as
  ``/relay/<room>``).
- **The signaling relay** at ``GET /relay/{room}``, a WebSocket that carries the offers,
  answers and ICE candidates two browsers exchange to open a WebRTC data channel. Games are
  played over that channel, peer to peer: game messages never go through the relay.

Relay protocol
--------------

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

Client to server: ``{"to": ID, "data": {"kind": KIND, ...}}``, forwarded unchanged as a
``signal`` to peer ``ID`` of the same room. ``KIND`` is one of ``hello``, ``offer``,
``answer``, ``candidate``, ``bye``; other keys of ``data`` are up to the clients.

Error codes:

============== ================================================================
``not_json``   the text frame is not JSON (NaN and Infinity are not JSON either)
``malformed``  not an object with a string ``to`` and an object ``data``; a binary frame
``not_signaling`` ``data.kind`` is not one of the five kinds above
``no_such_peer``  ``to`` is not another peer of this room (now)
``too_big``    the frame is over ``max_message`` bytes; then closed with 1009
``rate``       over ``rate`` messages in ``rate_window`` s: dropped; over twice that, the
               connection is closed with 1008
``room_full``  the room has ``peers_per_room`` peers already; closed with 1008
``too_many_rooms`` the relay holds ``max_rooms`` rooms; closed with 1013 (try later)
``idle``       nothing sent for ``idle`` s; closed with 1000 (reconnect when needed)
``origin``     HTTP 403 before the upgrade (see below), not a WebSocket message
============== ================================================================

A close frame's reason is the code name (``too_big``, ``rate``...). When the server stops,
connections are closed with 1001. Connections that stop answering WebSocket pings
(aiohttp's heartbeat, every ``heartbeat`` s) are dropped; so is a peer so slow to read
that 256 messages wait for it (1013 is not sent, the socket is cut).

Limits (:class:`Limits`, defaults): ``max_message`` 16384 bytes of UTF-8 per text frame;
``rate`` 60 messages per ``rate_window`` 10 s per connection (every frame counts, refused
ones too); ``peers_per_room`` 8; ``max_rooms`` 1000; ``idle`` 600 s; ``heartbeat`` 30 s.

Origin rule: a WebSocket upgrade whose ``Origin`` header is present and is not the
server's own origin (the scheme of the request plus the host and port of its ``Host``
header, e.g. ``http://127.0.0.1:8000``) is refused with HTTP 403, so a page of another site
cannot use a served relay. A request without ``Origin`` (not a browser) is accepted.

The relay logs nothing about rooms or messages: no room id, no content.

Used by build.py (``serve``, ``start_server_thread``), which imports this module lazily:
it needs aiohttp, installed into ``.venv`` from pyproject.toml's ``test`` extra.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import secrets
import signal
import sys
import threading
from collections import deque
from dataclasses import dataclass
from pathlib import Path

from aiohttp import WSCloseCode, WSMsgType, web
from yarl import URL

DIST = Path(__file__).resolve().parent / "dist"

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
CACHED_PREFIXES = ("/pyodide/", "/pyscript/", "/wheels/")

ROOM_ID = re.compile(r"[A-Za-z0-9_-]{8,64}")
KINDS = frozenset({"hello", "offer", "answer", "candidate", "bye"})
OUTBOX = 256  # messages waiting for one slow reader before it is cut off


@dataclass(frozen=True)
class Limits:
    """What one relay allows (see the module docstring)."""

    max_message: int = 16384  # bytes of one text frame
    rate: int = 60  # messages per rate_window per connection
    rate_window: float = 10.0  # seconds
    peers_per_room: int = 8
    max_rooms: int = 1000
    idle: float = 600.0  # seconds without a message from the client
    heartbeat: float = 30.0  # seconds between WebSocket pings


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


def _static_handler(root: Path):
    async def static(request: web.Request) -> web.StreamResponse:
        found = _file_for(root, request.path)
        if isinstance(found, str):  # a directory: its address ends with "/"
            path, sep, query = request.raw_path.partition("?")
            raise web.HTTPMovedPermanently(path + "/" + sep + query)
        if found is None:
            raise web.HTTPNotFound()
        headers = {}
        mime = MIME_TYPES.get(found.suffix.lower())
        if mime:
            headers["Content-Type"] = mime
        return web.FileResponse(found, headers=headers)

    return static


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


class Relay:
    """Rooms of peers and the forwarding between them. Lives on one event loop."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.rooms: dict[str, dict[str, Peer]] = {}

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
        await ws.prepare(request)

        peer = Peer(self._new_id(room_id), ws, request)
        peer.writer = asyncio.create_task(peer.write_loop())
        room = self.rooms.get(room_id)
        code, reason = WSCloseCode.OK, ""
        joined = False
        try:
            if room is None and len(self.rooms) >= limits.max_rooms:
                raise _Closing(
                    WSCloseCode.TRY_AGAIN_LATER,
                    "too_many_rooms",
                    "The relay holds as many rooms as it can; try again later.",
                )
            if room is not None and len(room) >= limits.peers_per_room:
                raise _Closing(
                    WSCloseCode.POLICY_VIOLATION,
                    "room_full",
                    f"This room already has {limits.peers_per_room} peers.",
                )
            room = self.rooms.setdefault(room_id, {})
            others = list(room.values())
            room[peer.id] = peer
            joined = True
            # Queued in this order before any other task runs: welcome comes first.
            peer.send(_dumps({"type": "welcome", "id": peer.id, "peers": [p.id for p in others]}))
            join = _dumps({"type": "join", "id": peer.id})
            for other in others:
                other.send(join)
            await self._read_loop(peer, room)
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
        return ws

    def _new_id(self, room_id: str) -> str:
        room = self.rooms.get(room_id, {})
        while (peer_id := secrets.token_urlsafe(9)) in room:
            pass
        return peer_id

    def _leave(self, room_id: str, peer: Peer) -> None:
        room = self.rooms.get(room_id)
        if room is None or room.get(peer.id) is not peer:
            return
        del room[peer.id]
        if not room:
            del self.rooms[room_id]
            return
        leave = _dumps({"type": "leave", "id": peer.id})
        for other in room.values():
            other.send(leave)

    async def _read_loop(self, peer: Peer, room: dict[str, Peer]) -> None:
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
                    f"Nothing was sent for {limits.idle:g} s: the relay closes idle "
                    "connections. Reconnect when you need it again.",
                ) from None
            if msg.type not in (WSMsgType.TEXT, WSMsgType.BINARY):
                return  # closed, closing or broken
            now = loop.time()
            deadline = now + limits.idle
            if msg.type is WSMsgType.TEXT and len(msg.data.encode()) > limits.max_message:
                raise _Closing(
                    WSCloseCode.MESSAGE_TOO_BIG,
                    "too_big",
                    f"A message may be at most {limits.max_message} bytes.",
                )
            if self._over_rate(peer, now):
                continue
            if msg.type is WSMsgType.BINARY:
                peer.send(_error("malformed", "Send JSON in text frames, not binary ones."))
                continue
            self._forward(peer, room, msg.data)

    def _over_rate(self, peer: Peer, now: float) -> bool:
        """Count one message; True if it is to be dropped (raises if it is far over)."""
        limits = self.limits
        received = peer.received
        received.append(now)
        while received and received[0] <= now - limits.rate_window:
            received.popleft()
        if len(received) <= limits.rate:
            return False
        text = f"At most {limits.rate} messages every {limits.rate_window:g} s."
        if len(received) > 2 * limits.rate:
            raise _Closing(WSCloseCode.POLICY_VIOLATION, "rate", text + " Closing.")
        peer.send(_error("rate", text + " This one was dropped."))
        return True

    def _forward(self, peer: Peer, room: dict[str, Peer], text: str) -> None:
        try:
            message = json.loads(text, parse_constant=_not_json)
        except (ValueError, RecursionError):
            peer.send(_error("not_json", "That message is not JSON."))
            return
        if not (
            isinstance(message, dict)
            and isinstance(message.get("to"), str)
            and isinstance(message.get("data"), dict)
        ):
            peer.send(
                _error(
                    "malformed",
                    'A message is a JSON object {"to": a peer id, "data": {"kind": ...}}.',
                )
            )
            return
        data = message["data"]
        kind = data.get("kind")
        if not isinstance(kind, str) or kind not in KINDS:
            peer.send(
                _error(
                    "not_signaling",
                    "The relay carries signaling only: data.kind must be one of "
                    + ", ".join(sorted(KINDS))
                    + ".",
                )
            )
            return
        target = room.get(message["to"])
        if target is None or target is peer:
            peer.send(_error("no_such_peer", "There is no other peer with that id in this room."))
            return
        try:
            forwarded = _dumps({"type": "signal", "from": peer.id, "data": data})
        except (ValueError, RecursionError):
            peer.send(_error("not_json", "That message is nested too deeply."))
            return
        target.send(forwarded)

    async def close_all(self, _app: web.Application | None = None) -> None:
        """Close every connection with 1001 (the server is going away)."""
        sockets = [p.ws for room in self.rooms.values() for p in room.values()]
        await asyncio.gather(
            *(ws.close(code=WSCloseCode.GOING_AWAY, message=b"shutdown") for ws in sockets),
            return_exceptions=True,
        )


def _not_json(constant: str) -> None:
    raise ValueError(f"{constant} is not JSON")


# --------------------------------------------------------------------------- the app

RELAY = web.AppKey("relay", Relay)


def make_app(
    directory: Path | str = DIST, *, limits: Limits = DEFAULT_LIMITS, log_errors: bool = True
) -> web.Application:
    """The application: the relay at /relay/{room}, static files of ``directory`` elsewhere."""
    root = Path(directory).resolve()
    app = web.Application()
    relay = Relay(limits)
    app[RELAY] = relay
    app.router.add_get("/relay/{room}", relay.handle, allow_head=False)
    app.router.add_get("/{tail:.*}", _static_handler(root))

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
) -> tuple[ServerThread, str]:
    """Serve ``directory`` (and the relay) from a daemon thread; returns once listening.

    Returns (server, base URL ``http://127.0.0.1:PORT``); port 0 picks a free port. Stop it
    with ``server.shutdown()``.
    """
    server = ServerThread(make_app(directory, limits=limits, log_errors=log_errors), host, port)
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
