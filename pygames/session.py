"""Link play: one host, its guests and spectators over any transport, fair, checkable and
resumable.

A :class:`Host` holds the authoritative :class:`~pygames.core.State`; a :class:`Guest`
holds only what its own seat may see (view, legal actions, redacted events) and never the
state or the seed while the game goes on; a :class:`Spectator` holds only what nobody's seat
sees (``view(None)`` and the spectator's copy of each event). None does any I/O, reads a
clock or starts a thread: ``receive`` takes one incoming message (JSON text) and returns
what to send as :class:`Send` ``(to, text)`` pairs, so a WebRTC data channel, an in-memory
test transport or plain calls can carry them. Nothing here imports js, pyodide or pyscript.

A host and a guest over direct calls (a real transport carries ``Send.text``)::

    >>> from pygames.bots import RandomBot
    >>> host, guest = Host("kiriai"), Guest()
    >>> def carry(sends):
    ...     while sends:
    ...         to, text = sends.pop(0)
    ...         sends += host.receive("g", text) if to == HOST else guest.receive(text)
    >>> carry(guest.join())
    >>> guest.seat, guest.to_move
    (1, [0, 1])
    >>> carry(host.act("CB"))   # a simultaneous choice: the host only commits
    >>> carry(guest.act("CH"))  # the guest commits, both are in, the guest reveals
    >>> guest.view["board"]["wounds"]
    [0, 1]
    >>> bots = RandomBot(1), RandomBot(2)
    >>> while not guest.over:
    ...     if host.legal:
    ...         carry(host.act(bots[0].choose(host.view, host.legal)))
    ...     if guest.legal:
    ...         carry(guest.act(bots[1].choose(guest.view, guest.legal)))
    >>> guest.verdict
    Verdict(ok=True, problems=[])
    >>> guest.outcome == host.outcome
    True

A spectator over the same host (the transport marks its connection)::

    >>> spectator = Spectator()
    >>> host.add_watcher("w-1")
    >>> for _, text in host.receive("w-1", spectator.watch()[0].text):
    ...     _ = spectator.receive(text)
    >>> spectator.over, spectator.outcome == host.outcome, spectator.legal, spectator.seat
    (True, True, [], None)
    >>> spectator.view == _plain(host.state.view(None))
    True

Shape
-----

A star for 2–4 seats: each guest talks only to the host; the host plays seat 0 unless
told otherwise (``Host(..., seat=n)``), and the seats of its bots (``Host(..., bots=[...])``:
the host's page chooses their moves and plays them with ``act(action, seat=n)``, as it
plays its own). Guests get the other seats: the one their ``join`` asks for (an invite per
seat), else the first free one in order of joining. :meth:`Host.hand_to_bot` gives a guest
seat to a bot mid-game (its guest gone): that guest's token is refused from then on
(``replaced``).
The transport names each connection with a ``peer`` string of its choosing;
``Host.receive(peer, text)`` and ``Send.to`` use it. A guest's messages always go to
:data:`HOST`.

Spectators hang off the host too, any number of them: a connection the transport let in
with the spectator link's key is marked with :meth:`Host.add_watcher` before its first
message (any connection without a seat that sends ``watch`` becomes one as well). A
spectator's connection never gets a seat: ``join``, ``seed``, ``act``, ``commit`` and
``reveal`` from it are refused (``spectator``) and change nothing; it gives no seed value,
so it cannot bear on the deal, and the host never waits for it. It is sent only
``view(None)`` and the spectator's copy of each event (:func:`~pygames.core.redact_event`
with ``None``), never a commitment, a seed value or the ``end`` (whose record holds every
hidden card). :attr:`Host.watching` names the spectators watching now.

Messages
--------

Every message is a JSON object with ``type``, ``seq`` and ``sum``. ``seq`` counts each
direction separately (guest → host per guest, host → guest per seat), from 1. ``sum`` is
the first 16 hex digits of sha256 of the message's canonical JSON without ``sum``
(canonical: ``json.dumps(obj, sort_keys=True, separators=(",", ":"))``); it catches
corruption in transit, not forgery. A guest message may be at most :data:`MAX_MESSAGE`
bytes (UTF-8), a host message :data:`MAX_HOST_MESSAGE`.

Guest → host:

==========  =============================================================================
``join``    ``v`` (:data:`PROTOCOL`), ``token`` (32 hex, the seat token the guest drew:
            keep it to rejoin after a reload), ``conn`` (16 hex, new for every page load),
            [``seat``: the seat this guest's invite is for]. Replies ``welcome`` and
            ``state``; a new token when every seat is taken (or the seat asked for is
            taken, or not a guest's) gets the error ``seat_taken``; a token whose seat
            was given to a bot gets ``replaced``. A join with a known token gets its own
            seat back, whatever ``seat`` says. A join restarts the guest's ``seq`` count.
``seed``    ``match``, ``value`` (64 hex: 32 random bytes): the guest's part of the seed.
``act``     ``ply``, ``action`` [, ``seat``]: a sequential choice (one player to move).
``commit``  ``ply``, ``hash`` [, ``seat``]: a simultaneous choice, hidden (see below).
``reveal``  ``ply``, ``action``, ``nonce`` [, ``seat``]: opens the commitment, sent only
            once the host has shown every mover's commitment for that ply.
``resync``  [``known``]: send me my whole picture again; with ``known`` (the ``hash``
            the guest holds) the host leaves out view, legal and events if nothing
            changed (``same``: true). A guest polls with it when it has heard nothing.
``ping``    (no fields): answered by ``pong``. A guest pings when it has heard nothing
            for a moment, so both ends always know whether the channel is alive.
``watch``   ``v``, ``conn`` (16 hex, new for every page load): a spectator's (below); from
            a connection that holds a seat it is refused (``seated``).
==========  =============================================================================

``ply`` is the number of actions applied so far, so a message meant for an earlier point
of the game is refused (``stale``) instead of acting on the wrong one. ``seat``, if given,
must be the sender's own seat (``not_your_seat``): the host knows who sent what from the
connection, never from the message.

Host → guest:

===========  ============================================================================
``welcome``  ``v``, ``seat``: your seat (a ``state`` follows).
``state``    The whole picture: ``match`` (1, 2, … for rematches), ``game``, ``players``,
             ``options``, ``seat``, ``host_seat``, ``commitment`` (sha256 hex of the
             host's secret for this match), ``value`` (your seed value as the host holds
             it, or null: send ``seed``), ``started``, ``guests`` (the seats whose seed
             values make this match's seed, in seat order; absent: every seat but the
             host's); once started also ``ply``,
             ``to_move``, ``over``, ``outcome``, ``hash``, ``step`` (as ``commits`` below,
             or null) and either ``view``, ``legal``, ``events`` (all, ``start`` 0) or
             ``same``: true.
``update``   After every change: ``ply``, ``to_move``, ``view``, ``legal``, ``start`` (index
             of the first event in ``events``), ``events`` (the new ones), ``over``,
             ``outcome``, ``hash``.
``commits``  The open simultaneous step: ``ply``, ``movers``, ``commits`` ({seat: hash}
             of every mover, the host's own included), ``complete``, ``revealed``
             (guest seats whose reveal the host holds), ``handed`` (seats given to a bot
             during this match: their commitment may be made again). Never any choice
             or nonce.
``end``      Once the game is over: ``match``, ``secret`` (64 hex), ``values`` ({seat:
             hex} of every seat in ``guests``), ``record`` (:meth:`State.record`), ``nonces``
             ({ply: {seat: nonce}} of every simultaneous step).
``error``    ``code``, ``message`` (plain English), ``re`` (the ``seq`` refused, or null).
             Sent with ``seq`` 0 to a connection that holds no seat: ``not_joined`` (a
             guest that had a seat joins again by itself: the host reloaded) or
             ``seat_taken`` (another connection took the seat over: it stays away; sent
             at once to the old connection when a join with its token comes from a new
             one, and again whenever it speaks; :meth:`Host.moved_peers` names them) or
             ``replaced`` (the host gave this connection's seat to a bot).
``pong``     (no fields): the answer to ``ping``.
===========  ============================================================================

Spectator → host (``seq`` per connection, from 1, as a guest's):

==========  =============================================================================
``watch``   ``v``, ``conn``: watch this table (again after a reload: the first message of
            every connection). Replies ``spectate``. A watch restarts the connection's
            ``seq`` count.
``resync``  [``known``]: as a guest's; answered with ``spectate`` (``same``: true when
            ``known`` is the picture's hash).
``ping``    answered by ``pong``.
==========  =============================================================================

Anything else from a spectator's connection is refused: ``join``, ``seed``, ``act``,
``commit``, ``reveal`` with ``spectator``; ``resync`` or ``ping`` before its ``watch``
(a host that reloaded forgot it) with ``not_joined``, upon which it watches again.

Host → spectator (``seq`` per connection, from 1):

============  ===========================================================================
``spectate``  The whole picture: ``v``, ``match``, ``game``, ``players``, ``options``,
              ``host_seat``, ``seats`` (per seat ``host``, ``guest`` or ``bot``),
              ``started``; once started also ``ply``, ``to_move``, ``over``, ``outcome``,
              ``hash`` and either ``view`` (``view(None)``), ``events`` (every event, the
              spectator's copy; ``start`` 0) or ``same``: true. Sent on ``watch`` and
              ``resync``, when the game starts, on a rematch and when a seat goes to a
              bot.
``update``    As a guest's, of the spectator's picture: ``view`` is ``view(None)``,
              ``legal`` always ``[]``, ``events`` the spectator's copies.
``error``     As a guest's, in the connection's ``seq`` (``seq`` 0 to a connection the
              host does not know as a spectator's).
``pong``      As a guest's.
============  ===========================================================================

A spectator's picture and ``hash`` are a guest's with ``view(None)``, ``legal`` ``[]``
and the spectator's events (:func:`spectator_picture`); it applies updates as a guest
does (next ``seq``, ``start``, hash) and asks for ``resync`` otherwise.

``hash`` is sha256 of the canonical JSON of the seat's *picture* at that ply: ``{"ply",
"to_move", "view", "legal", "events", "over", "outcome"}`` where ``events`` is the running
digest of the seat's events (``d = sha256(d + canonical(event))`` hex over each event in
turn, from ``d = ""``), so one hash covers everything the table draws. The guest applies
an update only if ``seq`` is the next one, ``start`` is the number of events it holds and
the hash of the result matches; on a gap, a duplicate, a mismatch or an error it asks for
``resync`` (one at a time) and applies nothing. It keeps every ``(ply, hash)`` it showed.

Error codes: see :data:`ERRORS`. A refused message changes nothing in the game (record,
commitments, seed values, seats, the sender's ``seq`` count); the one documented
exception is ``illegal`` on a reveal, which also drops that seat's commitment so it may
choose again. ``receive`` never raises on bad input.

Fairness
--------

*Seed.* For every match the host draws a 32-byte ``secret`` and shows only
``sha256(secret)`` (``commitment``) before any guest gives its ``value``; the game starts
once every guest seat has one. ``seed = int.from_bytes(sha256(secret ‖ value_1 ‖ … ‖
value_k)[:8], "big")`` with the guest seats' 32-byte values in seat order
(:func:`derive_seed`; the seats are the match's ``guests``: a seat handed to a bot later
keeps its value in the seed). The host cannot choose the shuffle (its secret is fixed before it
sees a value); a guest cannot compute it before the end (it never sees the secret).

*Simultaneous choices* (whenever ``to_move()`` has two players or more: Kiri-ai
programs and Advanced start, Cardia placements). Each mover, the host's own seat too,
first commits to ``sha256(f"{ply}|{seat}|{action}|{nonce}")`` hex (:func:`commit_hash`;
``nonce`` = 32 random hex digits, so the hash says nothing of the choice and cannot be
reused at another ply or seat). The host shows every commitment to every guest
(``commits``); a guest reveals only when the commitments of all movers are in, its own
among them, so the host has published its own commitment before it can learn the guest's
choice. The host checks each reveal against its commitment (``reveal_mismatch``) and the
rules (``illegal``) and applies the step, in seat order, once every reveal is in. The
host's own choice and nonce, and those of other guests, reach a guest only in ``end``: a
choice may stay hidden after its step (a face-down Cardia card under Foggy Swamp).
Sequential choices need no commitment.

*End check* (:attr:`Guest.verdict`). It cannot be silenced: an ``end`` whose sum is right
but whose fields are not (so no resync can mend it), one for another match, one too big,
one unreadable :data:`END_TRIES` times in a row, or a record that does not parse, is of
another game or does not replay, all end in a failed verdict naming the problem, and the
guest then keeps no record (:attr:`Guest.record` is only ever one its engine replays to
the end). With no ``end`` at all, the page calls :meth:`Guest.end_missing` after a while:
a failed verdict that a real ``end`` arriving later still replaces. The guest checks that
the secret matches the commitment, its own seed value is the one it sent, the seed
follows from secret and values and is the record's; it replays the record in its own
engine, checks that each simultaneous step it took part in holds exactly the movers, in
seat order, with choices that open the commitments it saw before revealing, that every
action of its own seat in the record is one it sent, and that each picture hash it was
shown is the one the replay gives its seat at that ply; and that the final outcome is the
one it was shown. Result: ``Verdict(ok, problems)``, each problem a readable sentence.

*What this cannot protect.* A modified host app can look at the guest's hand and the
whole state during play (the host's device holds it), and can leave, or quit and start a
new match, when it dislikes how the game goes (the guest then keeps its view and events
and never gets the end check). A host in league with one guest can share what it knows
with that guest. The check runs when the game ends: a cheat is found out, not prevented.
Nothing here authenticates a peer: that is the transport's part (the invite link's
secret, DTLS).

*Resume.* :meth:`Host.to_json` / :meth:`Host.from_json` keep the match (record, secret,
values, commitments, the host's own open choice, seat tokens and ``seq`` counts);
connections are not kept, so guests join again with their token and get a ``state``,
and spectators are told ``not_joined`` and watch again (a spectator needs nothing kept:
:meth:`Spectator.to_json` holds only its picture, to show while it watches again).
:meth:`Guest.to_json` / :meth:`Guest.from_json` keep a guest's token and everything it
needs for the end check; a guest that kept only its token (``Guest(token=...)``) gets its
seat back too, and its end check covers what it saw from then on. A second joiner
without the token is told ``seat_taken``; a join with the token takes the seat over from
the old connection (an unrevealed commitment of that seat is dropped, so the new page may
choose; a reloaded page that kept its choice commits to it again: a guest can move its
seat to another browser with its token). :meth:`Host.rematch` starts a new match with the
same seats: a new secret and seed, made the same way.
"""

from __future__ import annotations

import copy
import hashlib
import json
import secrets
from collections.abc import Callable, Iterable
from typing import Any, NamedTuple

from . import get_game
from .core import IllegalAction, State

__all__ = ["Host", "Guest", "Spectator", "Send", "Verdict", "BadMessage", "HOST", "PROTOCOL",
           "MAX_MESSAGE", "MAX_HOST_MESSAGE", "ERRORS", "canonical", "pack", "unpack",
           "secret_commitment", "derive_seed", "commit_hash", "event_digest",
           "seat_picture", "spectator_picture", "picture_hash"]

#: Version of this protocol (``join`` and ``welcome`` carry it).
PROTOCOL = 1
#: Largest message a host accepts from a guest, in bytes of UTF-8.
MAX_MESSAGE = 64 * 1024
#: Largest message a guest accepts from the host (a full ``state`` carries every event).
MAX_HOST_MESSAGE = 1024 * 1024
#: The destination of everything a guest sends.
HOST = "host"

SECRET_BYTES = 32
#: Unreadable messages in a row after the game ended before the guest stops waiting for a
#: readable ``end`` and shows the game as not verified.
END_TRIES = 3
VALUE_BYTES = 32

#: Every error code a host sends, and what it means.
ERRORS: dict[str, str] = {
    "too_big": "the message is larger than MAX_MESSAGE",
    "not_json": "the message is not JSON text",
    "malformed": "a field is missing, of the wrong type, or unexpected",
    "corrupt": "the message's sum does not match its content",
    "unknown_type": "no such message type",
    "version": "the guest speaks another protocol version",
    "not_joined": "this connection holds no seat: send join",
    "seat_taken": "every seat is taken (or the seat moved to another connection)",
    "replaced": "the host gave this seat to a bot (its guest was gone)",
    "replayed": "the seq is not newer than the last one accepted",
    "not_your_seat": "the message names a seat that is not the sender's",
    "not_started": "the game waits for seed values",
    "game_over": "the game is over",
    "stale": "the message is for another ply (or match) than the current one",
    "not_your_turn": "the sender's seat is not to move",
    "wrong_step": "act for a sequential choice, commit/reveal for a simultaneous one",
    "illegal": "the action is not legal now (the message says why)",
    "already_committed": "a different commitment for this ply is already in",
    "no_commitment": "a reveal without a commitment",
    "too_early": "a reveal before every commitment is in",
    "already_revealed": "a different reveal for this ply is already in",
    "reveal_mismatch": "the reveal does not open the commitment",
    "seed_given": "a different seed value for this seat is already in",
    "internal": "the host failed on this message (a bug): nothing was changed",
    "spectator": "a spectator's connection cannot take a seat, give a seed value or act",
    "seated": "this connection holds a seat: it plays, it does not watch",
}


class Send(NamedTuple):
    """One outgoing message: ``to`` is a peer (from the host) or :data:`HOST`."""

    to: str
    text: str


class Verdict(NamedTuple):
    """The guest's end check: ``ok`` when nothing failed, else the readable ``problems``."""

    ok: bool
    problems: list[str]


class BadMessage(ValueError):
    """A message refused: ``code`` (see :data:`ERRORS`) and a plain English message."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


# -- hashing and framing ------------------------------------------------------------------
def canonical(obj: Any) -> str:
    """The one JSON text of ``obj`` that hashes are taken over."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"))


def _sha(text: str | bytes) -> str:
    return hashlib.sha256(text.encode() if isinstance(text, str) else text).hexdigest()


def _plain(obj: Any) -> Any:
    """``obj`` as it comes back out of JSON (tuples as lists, keys as strings)."""
    return json.loads(json.dumps(obj))


def _sum(msg: dict[str, Any]) -> str:
    return _sha(canonical({k: v for k, v in msg.items() if k != "sum"}))[:16]


def pack(msg: dict[str, Any]) -> str:
    """The JSON text of ``msg`` with its ``sum``.

    >>> text = pack({"type": "resync", "seq": 1})
    >>> text.startswith('{"seq":1,"sum":"'), unpack(text)["type"]
    (True, 'resync')
    """
    msg = _plain({k: v for k, v in msg.items() if k != "sum"})
    msg["sum"] = _sum(msg)
    return canonical(msg)


def unpack(text: Any, limit: int = MAX_MESSAGE) -> dict[str, Any]:
    """The message in ``text``, or :class:`BadMessage` saying what is wrong with it."""
    if not isinstance(text, str):
        raise BadMessage("malformed", "a message is JSON text")
    if len(text) > limit or len(text.encode("utf-8", "replace")) > limit:
        raise BadMessage("too_big", f"the message is larger than {limit} bytes")
    try:
        msg = json.loads(text, parse_constant=_no_constant)
    except (ValueError, RecursionError):
        raise BadMessage("not_json", "the message is not JSON text") from None
    if not isinstance(msg, dict):
        raise BadMessage("malformed", "a message is a JSON object")
    if not isinstance(msg.get("sum"), str):
        raise BadMessage("malformed", "the message has no sum")
    if msg["sum"] != _sum(msg):
        raise BadMessage("corrupt", "the message's sum does not match: it was changed on "
                         "the way")
    if not isinstance(msg.get("type"), str):
        raise BadMessage("malformed", "the message has no type")
    if not _is_int(msg.get("seq")) or msg["seq"] < 0:
        raise BadMessage("malformed", "the message's seq must be a non-negative integer")
    return msg


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _is_hex(x: Any, length: int) -> bool:
    return (isinstance(x, str) and len(x) == length
            and all(c in "0123456789abcdef" for c in x))


_CHECKS: dict[str, Callable[[Any], bool]] = {
    "int": _is_int,
    "str": lambda x: isinstance(x, str),
    "bool": lambda x: isinstance(x, bool),
    "list": lambda x: isinstance(x, list),
    "dict": lambda x: isinstance(x, dict),
    "hex16": lambda x: _is_hex(x, 16),
    "hex32": lambda x: _is_hex(x, 32),
    "hex64": lambda x: _is_hex(x, 64),
    "any": lambda x: True,
}
_WORDS = {"int": "an integer", "str": "a text", "bool": "true or false", "list": "a list",
          "dict": "an object", "hex16": "16 hex digits", "hex32": "32 hex digits",
          "hex64": "64 hex digits", "any": "anything"}

#: Fields of each message type (``?``: may be absent or null).
TO_HOST: dict[str, dict[str, str]] = {
    "join": {"v": "int", "token": "hex32", "conn": "hex16", "seat": "int?"},
    "seed": {"match": "int", "value": "hex64"},
    "act": {"ply": "int", "action": "str", "seat": "int?"},
    "commit": {"ply": "int", "hash": "hex64", "seat": "int?"},
    "reveal": {"ply": "int", "action": "str", "nonce": "hex32", "seat": "int?"},
    "resync": {"known": "hex64?"},
    "ping": {},
    "watch": {"v": "int", "conn": "hex16"},
}
TO_GUEST: dict[str, dict[str, str]] = {
    "welcome": {"v": "int", "seat": "int"},
    "state": {"match": "int", "game": "str", "players": "int", "options": "dict",
              "seat": "int", "host_seat": "int", "commitment": "hex64", "value": "hex64?",
              "started": "bool", "guests": "list?", "ply": "int?", "to_move": "list?",
              "over": "bool?", "outcome": "any?", "hash": "hex64?", "step": "dict?",
              "same": "bool?", "view": "dict?", "legal": "list?", "events": "list?",
              "start": "int?"},
    "update": {"ply": "int", "to_move": "list", "view": "dict", "legal": "list",
               "start": "int", "events": "list", "over": "bool", "outcome": "any?",
               "hash": "hex64"},
    "commits": {"ply": "int", "movers": "list", "commits": "dict", "complete": "bool",
                "revealed": "list", "handed": "list?"},
    "end": {"match": "int", "secret": "hex64", "values": "dict", "record": "dict",
            "nonces": "dict"},
    "error": {"code": "str", "message": "str", "re": "int?"},
    "pong": {"match": "int?"},
}
#: What the host sends a spectator: the whole picture (``spectate``), then ``update`` (as
#: a guest's, ``legal`` always empty), ``error`` and ``pong``; never ``commits`` or ``end``.
TO_SPECTATOR: dict[str, dict[str, str]] = {
    "spectate": {"v": "int", "match": "int", "game": "str", "players": "int",
                 "options": "dict", "host_seat": "int", "seats": "list", "started": "bool",
                 "ply": "int?", "to_move": "list?", "over": "bool?", "outcome": "any?",
                 "hash": "hex64?", "same": "bool?", "view": "dict?", "events": "list?",
                 "start": "int?"},
    "update": TO_GUEST["update"],
    "error": TO_GUEST["error"],
    "pong": TO_GUEST["pong"],
}


def _validate(msg: dict[str, Any], table: dict[str, dict[str, str]]) -> None:
    spec = table.get(msg["type"])
    if spec is None:
        raise BadMessage("unknown_type", f"there is no message type {msg['type']!r}")
    for name in msg:
        if name not in spec and name not in ("type", "seq", "sum"):
            raise BadMessage("malformed", f"a {msg['type']} message has no field {name!r}")
    for name, kind in spec.items():
        optional = kind.endswith("?")
        kind = kind.rstrip("?")
        value = msg.get(name)
        if value is None and optional:
            continue
        if not _CHECKS[kind](value):
            raise BadMessage("malformed", f"field {name!r} of a {msg['type']} message must "
                             f"be {_WORDS[kind]}")


# -- fairness ------------------------------------------------------------------------------
def secret_commitment(secret: bytes) -> str:
    """What the host shows of its secret before the game: sha256 hex."""
    return _sha(secret)


def derive_seed(secret: bytes, values: list[bytes]) -> int:
    """The game's seed: the first 8 bytes of sha256(secret ‖ guest values in seat order).

    >>> derive_seed(bytes(32), [bytes(32)]) == derive_seed(bytes(32), [bytes(32)])
    True
    """
    return int.from_bytes(hashlib.sha256(secret + b"".join(values)).digest()[:8], "big")


def commit_hash(ply: int, seat: int, action: str, nonce: str) -> str:
    """The commitment to a simultaneous choice: sha256 hex of ``"ply|seat|action|nonce"``."""
    return _sha(f"{ply}|{seat}|{action}|{nonce}")


def event_digest(digest: str, events: list[dict[str, Any]]) -> str:
    """The running digest of a seat's events, extended by ``events`` (start from "")."""
    for event in events:
        digest = _sha(digest + canonical(event))
    return digest


def seat_picture(state: State, seat: int, ply: int, digest: str) -> dict[str, Any]:
    """Everything ``seat`` is shown at ``ply``, with its events as their ``digest``."""
    return _plain({"ply": ply, "to_move": state.to_move(), "view": state.view(seat),
                   "legal": state.legal_actions(seat), "events": digest,
                   "over": state.is_over(), "outcome": state.outcome()})


def spectator_picture(state: State, ply: int, digest: str) -> dict[str, Any]:
    """Everything a spectator is shown at ``ply``: :func:`seat_picture` of nobody's seat
    (``view(None)``, the spectator's copy of each event as their ``digest``, no legal
    actions)."""
    return _plain({"ply": ply, "to_move": state.to_move(), "view": state.view(None),
                   "legal": [], "events": digest, "over": state.is_over(),
                   "outcome": state.outcome()})


def picture_hash(picture: dict[str, Any]) -> str:
    """The ``hash`` of a seat's picture (see :func:`seat_picture`)."""
    return _sha(canonical(picture))


def _int_keys(d: dict[str, Any]) -> dict[int, Any]:
    return {int(k): v for k, v in d.items()}


def _str_keys(d: dict[int, Any]) -> dict[str, Any]:
    return {str(k): v for k, v in d.items()}


# -- the host ------------------------------------------------------------------------------
class Host:
    """The authoritative side: holds the state, answers every guest, plays its own seat.

    ``random_bytes(n)`` draws the secret, nonces (inject a seeded one in tests only).
    """

    def __init__(self, game_id: str, *, players: int = 2,
                 options: dict[str, Any] | None = None, seat: int = 0,
                 bots: Iterable[int] = (), secret: bytes | None = None,
                 random_bytes: Callable[[int], bytes] = secrets.token_bytes) -> None:
        self.game = get_game(game_id)
        self.game.check_players(players)
        self.players = players
        self.options = self.game.resolve_options(options)
        if not _is_int(seat) or not 0 <= seat < players:
            raise ValueError(f"the host's seat must be 0–{players - 1}, not {seat!r}")
        self.seat = seat
        #: The seats of the host's bots (the host's page chooses their moves).
        self.bots: set[int] = set(bots)
        if any(not _is_int(b) or not 0 <= b < players or b == seat for b in self.bots):
            raise ValueError(f"a bot's seat must be 0–{players - 1} and not the host's")
        if not self.guest_seats:
            raise ValueError("a link game needs a seat for a guest")
        self._random = random_bytes
        #: Guest seats: ``{seat: {"token", "conn", "peer", "in", "out"}}``.
        self.seats: dict[int, dict[str, Any]] = {}
        self._peers: dict[str, int] = {}
        self._moved: set[str] = set()  # connections whose seat another one took over
        #: Tokens of guests whose seat :meth:`hand_to_bot` gave a bot: ``{token: seat}``.
        self.replaced: dict[str, int] = {}
        #: Spectators' connections: ``{peer: {"conn", "in", "out", "sent"}}`` (``conn`` None
        #: until its ``watch``; ``sent``: events it has been sent this match). Not saved.
        self.watchers: dict[str, dict[str, Any]] = {}
        self.match = 0
        self._new_match(secret)

    def _new_match(self, secret: bytes | None) -> None:
        self.match += 1
        self.secret = secret if secret is not None else self._random(SECRET_BYTES)
        if not isinstance(self.secret, bytes) or len(self.secret) != SECRET_BYTES:
            raise ValueError(f"the secret must be {SECRET_BYTES} bytes")
        self.values: dict[int, str] = {}
        #: The seats whose seed values make this match's seed (the guests' at its start).
        self.value_seats: list[int] = self.guest_seats
        self.state: State | None = None
        self.ply = 0
        #: The open simultaneous step: ``{"ply", "movers", "commits", "reveals"}``.
        self.step: dict[str, Any] | None = None
        #: Closed simultaneous steps by ply: ``{"movers", "commits", "nonces"}``.
        self.steps: dict[int, dict[str, Any]] = {}
        self._digest: dict[int | None, tuple[int, str]] = {}
        self._sent_events: dict[int, int] = {}
        for info in self.watchers.values():
            info["sent"] = 0
        #: Seats given to a bot during this match (:meth:`hand_to_bot`).
        self.handed: set[int] = set()

    @property
    def guest_seats(self) -> list[int]:
        """The seats guests play (every seat but the host's own and its bots')."""
        return [s for s in range(self.players) if s not in self.own_seats]

    @property
    def own_seats(self) -> set[int]:
        """The seats the host plays: its own and its bots'."""
        return {self.seat, *self.bots}

    def gone(self) -> list[int]:
        """Guest seats whose guest joined and has no connection now (a bot may take them)."""
        return [s for s in self.guest_seats if s in self.seats and self.seats[s]["peer"] is None]

    def seat_of(self, peer: str) -> int | None:
        """The seat the connection ``peer`` plays (None: none)."""
        return self._peers.get(peer)

    def add_watcher(self, peer: str) -> None:
        """The transport says ``peer`` is a spectator's connection (let in with the
        spectator link's key, not the players'): it never gets a seat, whatever it sends;
        its ``watch`` brings it the picture. A connection that holds a seat cannot be one
        (ValueError)."""
        if peer in self._peers:
            raise ValueError(f"connection {peer!r} holds a seat")
        self.watchers.setdefault(peer, {"conn": None, "in": 0, "out": 0, "sent": 0})

    @property
    def watching(self) -> list[str]:
        """The spectators' connections watching now (each has sent ``watch``)."""
        return sorted(p for p, info in self.watchers.items() if info["conn"] is not None)

    def seat_kinds(self) -> list[str]:
        """Who plays each seat, as a spectator is told: ``host``, ``guest`` or ``bot``."""
        return ["host" if s == self.seat else "bot" if s in self.bots else "guest"
                for s in range(self.players)]

    # -- what the host's own table draws -------------------------------------------------
    @property
    def started(self) -> bool:
        return self.state is not None

    @property
    def view(self) -> dict[str, Any] | None:
        return None if self.state is None else self.state.view(self.seat)

    @property
    def to_move(self) -> list[int]:
        return [] if self.state is None else self.state.to_move()

    @property
    def chosen(self) -> str | None:
        """The host's own choice in the open simultaneous step (not applied yet)."""
        return self.chosen_for(self.seat)

    def chosen_for(self, seat: int) -> str | None:
        """A seat's choice in the open simultaneous step, as the host holds it (its own
        and its bots' from the start; a guest's once revealed)."""
        if self.step and self.step["ply"] == self.ply and seat in self.step["reveals"]:
            return str(self.step["reveals"][seat][0])
        return None

    @property
    def legal(self) -> list[str]:
        """The host seat's legal actions now ([] once it has chosen in an open step)."""
        return self.legal_for(self.seat)

    def legal_for(self, seat: int) -> list[str]:
        """A seat's legal actions now ([] once it has chosen in an open step)."""
        if self.state is None or self.chosen_for(seat) is not None:
            return []
        return self.state.legal_actions(seat)

    @property
    def events(self) -> list[dict[str, Any]]:
        return [] if self.state is None else self.state.events(self.seat)

    @property
    def over(self) -> bool:
        return self.state is not None and self.state.is_over()

    @property
    def outcome(self) -> dict[str, Any] | None:
        return None if self.state is None else self.state.outcome()

    @property
    def waiting_for(self) -> list[int]:
        """Seats the game waits for: to join or give a seed value, or to choose."""
        if self.state is None:
            return [s for s in self.value_seats if s not in self.values]
        if self.step and self.step["ply"] == self.ply:
            if len(self.step["commits"]) < len(self.step["movers"]):
                return [s for s in self.step["movers"] if s not in self.step["commits"]]
            return [s for s in self.step["movers"] if s not in self.step["reveals"]]
        return self.state.to_move()

    # -- the host's own moves ---------------------------------------------------------------
    def act(self, action: str, seat: int | None = None) -> list[Send]:
        """Play the host's own seat (or ``seat``, one of its bots'); an action it may not
        take raises IllegalAction."""
        seat = self.seat if seat is None else seat
        if seat not in self.own_seats:
            raise IllegalAction(f"seat {seat} is a guest's, not the host's")
        state = self.state
        if state is None:
            raise IllegalAction("the game has not started: it waits for the guests")
        movers = state.to_move()
        if seat not in movers:
            raise IllegalAction("it is not your turn")
        if self.chosen_for(seat) is not None:
            raise IllegalAction("you have already chosen: it waits for the others")
        if action not in state.legal_actions(seat):
            raise IllegalAction(state.explain_illegal(seat, action))
        if len(movers) == 1:
            self._apply([(seat, action)])
            return self._after_change()
        step = self._open_step()
        nonce = self._random(16).hex()
        step["commits"][seat] = commit_hash(self.ply, seat, action, nonce)
        step["reveals"][seat] = [action, nonce]
        return self._commits_all() + self._maybe_resolve()

    def hand_to_bot(self, seat: int) -> list[Send]:
        """A guest seat becomes a bot's (its guest is gone): the host plays it from now on
        (``act(action, seat=seat)``), a choice the guest committed but did not reveal is
        dropped, and its token is refused (``replaced``) if its guest comes back. The
        seat's seed value stays in this match's seed; a rematch seeds without it."""
        if seat not in self.guest_seats:
            raise ValueError(f"seat {seat} is not a guest's")
        if self.state is None:
            raise ValueError("a seat goes to a bot only once the game has started")
        out: list[Send] = []
        info = self.seats.pop(seat, None)
        self.bots.add(seat)
        self.handed.add(seat)
        if info is not None:
            self.replaced[info["token"]] = seat
            peer = info["peer"]
            if peer is not None and self._peers.pop(peer, None) is not None:
                self._moved.add(peer)
                out += self._error(peer, "replaced", "the host gave your seat to a bot", None)
        self._forget_open_commit(seat)
        out += self._watch_all()   # the seat is a bot's now: spectators see who plays it
        return out + self._commits_all() if self._step_open() else out

    def rematch(self, secret: bytes | None = None) -> list[Send]:
        """A new match, same seats, once this one is over: a new secret and seed."""
        if not self.over:
            raise ValueError("a rematch starts only when the game is over")
        self._new_match(secret)
        out: list[Send] = []
        for seat in self.seats:
            out += self._send(seat, self._state_msg(seat))
        return out + self._watch_all()

    def drop(self, peer: str) -> None:
        """The transport lost ``peer``: send it nothing until its guest joins again (a
        spectator's connection is forgotten: it watches again)."""
        self.watchers.pop(peer, None)
        seat = self._peers.pop(peer, None)
        if seat is not None:
            self.seats[seat]["peer"] = None

    # -- incoming ---------------------------------------------------------------------------
    def receive(self, peer: str, text: Any) -> list[Send]:
        """Handle one message from ``peer``; return the replies and updates to send."""
        msg: dict[str, Any] = {}
        try:
            msg = unpack(text)
            _validate(msg, TO_HOST)
            if peer in self.watchers or (msg["type"] == "watch" and peer not in self._peers):
                return self._from_watcher(peer, msg)
            if msg["type"] == "watch":
                raise BadMessage("seated", "this connection holds a seat: it cannot watch")
            if msg["type"] == "join":
                return self._on_join(peer, msg)
            seat = self._peers.get(peer)
            if seat is None and peer in self._moved:
                raise BadMessage("seat_taken", "another connection has taken your seat over "
                                 "(the same player in another tab?)")
            if seat is None:
                raise BadMessage("not_joined", "this connection holds no seat: join first")
            info = self.seats[seat]
            if msg["seq"] <= info["in"]:
                raise BadMessage("replayed", f"message {msg['seq']} is old: the last one "
                                 f"taken was {info['in']}")
            if msg.get("seat") is not None and msg["seat"] != seat:
                raise BadMessage("not_your_seat", f"you play seat {seat}, not seat "
                                 f"{msg['seat']}")
            out = getattr(self, "_on_" + msg["type"])(seat, msg)
            info["in"] = msg["seq"]
            return out
        except BadMessage as exc:
            return self._error(peer, exc.code, str(exc), msg.get("seq"))
        except Exception as exc:  # a bug must not stop the game: refuse the message
            return self._error(peer, "internal", f"the host failed: {exc!r}", msg.get("seq"))

    def _from_watcher(self, peer: str, msg: dict[str, Any]) -> list[Send]:
        """A message from a spectator's connection: ``watch``, ``resync`` and ``ping``
        are answered; anything a player sends is refused (``spectator``), changing
        nothing."""
        kind = msg["type"]
        if kind == "watch":
            if msg["v"] != PROTOCOL:
                raise BadMessage("version", f"this host speaks protocol {PROTOCOL}, not "
                                 f"{msg['v']}")
            info = self.watchers.setdefault(peer, {"conn": None, "in": 0, "out": 0,
                                                   "sent": 0})
            if info["conn"] != msg["conn"] or msg["seq"] > info["in"]:
                info["in"] = msg["seq"]
            info["conn"] = msg["conn"]
            return self._watch_full(peer)
        if kind not in ("resync", "ping"):
            raise BadMessage("spectator", "a spectator watches: it cannot take a seat, give "
                             "a seed value or play")
        info = self.watchers[peer]
        if info["conn"] is None:
            raise BadMessage("not_joined", "this connection is not watching: send watch")
        if msg["seq"] <= info["in"]:
            raise BadMessage("replayed", f"message {msg['seq']} is old: the last one "
                             f"taken was {info['in']}")
        if kind == "resync":
            out = self._watch_full(peer, msg.get("known"))
        else:
            out = self._watch_send(peer, {"type": "pong", "match": self.match})
        info["in"] = msg["seq"]
        return out

    def _on_join(self, peer: str, msg: dict[str, Any]) -> list[Send]:
        if msg["v"] != PROTOCOL:
            raise BadMessage("version", f"this host speaks protocol {PROTOCOL}, not "
                             f"{msg['v']}")
        if msg["token"] in self.replaced:
            raise BadMessage("replaced", "the host gave your seat to a bot")
        seat = next((s for s, i in self.seats.items() if i["token"] == msg["token"]), None)
        if peer in self._peers and self._peers[peer] != seat:
            raise BadMessage("seat_taken", "this connection already holds another seat")
        if seat is None:
            free = [s for s in self.guest_seats if s not in self.seats]
            want = msg.get("seat")
            if want is not None and want not in free:
                raise BadMessage("seat_taken", f"seat {want} at this table is taken"
                                 if want in self.seats else f"seat {want} is not a guest's")
            if not free:
                raise BadMessage("seat_taken", "every seat at this table is taken")
            seat = free[0] if want is None else want
            self.seats[seat] = {"token": msg["token"], "conn": msg["conn"], "peer": None,
                                "in": 0, "out": 0}
        info = self.seats[seat]
        duplicate = info["peer"] == peer and info["conn"] == msg["conn"]
        if not duplicate or msg["seq"] > info["in"]:
            info["in"] = msg["seq"]
        out: list[Send] = []
        if info["peer"] != peer:
            old = info["peer"]
            if self._peers.pop(old, None) is not None:
                self._moved.add(old)
                out += self._error(old, "seat_taken", "your seat moved to another connection "
                                   "(the same player in another tab or browser)", None)
            self._moved.discard(peer)
            self._peers[peer] = seat
            info["peer"] = peer
        if info["conn"] != msg["conn"]:
            self._forget_open_commit(seat)
        info["conn"] = msg["conn"]
        out += self._send(seat, {"type": "welcome", "v": PROTOCOL, "seat": seat})
        return out + self._full(seat)

    def _forget_open_commit(self, seat: int) -> None:
        """Another page took the seat (a reload, another browser): a commitment it has
        not revealed is dropped, so the new page can choose (a reloaded page that kept
        its choice simply commits to it again). A revealed choice stays."""
        step = self.step
        if (step is not None and step["ply"] == self.ply and seat in step["commits"]
                and seat not in step["reveals"]):
            del step["commits"][seat]

    def _on_resync(self, seat: int, msg: dict[str, Any]) -> list[Send]:
        return self._full(seat, msg.get("known"))

    def _on_ping(self, seat: int, msg: dict[str, Any]) -> list[Send]:
        return self._send(seat, {"type": "pong", "match": self.match})

    def moved_peers(self) -> set[str]:
        """Connections whose seat was taken over by another connection (told so)."""
        return set(self._moved)

    def _on_seed(self, seat: int, msg: dict[str, Any]) -> list[Send]:
        if msg["match"] != self.match:
            raise BadMessage("stale", f"that seed value is for match {msg['match']}; this is "
                             f"match {self.match}")
        if seat in self.values:
            if self.values[seat] == msg["value"]:
                return []
            raise BadMessage("seed_given", "your seed value for this match is already in")
        if seat not in self.value_seats:
            raise BadMessage("stale", "this match was seeded without your seat's value")
        self.values[seat] = msg["value"]
        if any(s not in self.values for s in self.value_seats):
            return []
        seed = derive_seed(self.secret, [bytes.fromhex(self.values[s])
                                         for s in self.value_seats])
        self.state = self.game.new_game(seed=seed, players=self.players,
                                        options=self.options)
        out: list[Send] = []
        for s in self.seats:
            out += self._full(s)
        return out + self._watch_all()

    def _check_turn(self, seat: int, ply: int) -> list[int]:
        if self.state is None:
            raise BadMessage("not_started", "the game has not started: it waits for seed "
                             "values")
        if self.state.is_over():
            raise BadMessage("game_over", "the game is over")
        if ply != self.ply:
            raise BadMessage("stale", f"that message is for ply {ply}; the game is at ply "
                             f"{self.ply}")
        movers = self.state.to_move()
        if seat not in movers:
            raise BadMessage("not_your_turn", "it is not your turn")
        return movers

    def _on_act(self, seat: int, msg: dict[str, Any]) -> list[Send]:
        movers = self._check_turn(seat, msg["ply"])
        if len(movers) > 1:
            raise BadMessage("wrong_step", "this choice is simultaneous: send commit first, "
                             "then reveal")
        self._check_legal(seat, msg["action"])
        self._apply([(seat, msg["action"])])
        return self._after_change()

    def _check_legal(self, seat: int, action: str) -> None:
        assert self.state is not None
        if action not in self.state.legal_actions(seat):
            raise BadMessage("illegal", self.state.explain_illegal(seat, action))

    def _on_commit(self, seat: int, msg: dict[str, Any]) -> list[Send]:
        movers = self._check_turn(seat, msg["ply"])
        if len(movers) < 2:
            raise BadMessage("wrong_step", "only you choose now: send act, no commitment")
        held = self._held_step()["commits"].get(seat)
        if held is not None:
            if held != msg["hash"]:
                raise BadMessage("already_committed", "you have already committed to a "
                                 "choice for this ply")
            return self._send(seat, self._commits_msg())
        self._open_step()["commits"][seat] = msg["hash"]
        return self._commits_all()

    def _on_reveal(self, seat: int, msg: dict[str, Any]) -> list[Send]:
        movers = self._check_turn(seat, msg["ply"])
        if len(movers) < 2:
            raise BadMessage("wrong_step", "only you choose now: send act")
        step = self._held_step()
        held = step["commits"].get(seat)
        if held is None:
            raise BadMessage("no_commitment", "commit to your choice before revealing it")
        if len(step["commits"]) < len(movers):
            raise BadMessage("too_early", "wait until every commitment is in")
        reveal = [msg["action"], msg["nonce"]]
        if seat in step["reveals"]:
            if step["reveals"][seat] == reveal:
                return []
            raise BadMessage("already_revealed", "your choice for this ply is already in")
        if commit_hash(self.ply, seat, msg["action"], msg["nonce"]) != held:
            raise BadMessage("reveal_mismatch", "your reveal does not match your "
                             "commitment: it was refused")
        assert self.state is not None
        if msg["action"] not in self.state.legal_actions(seat):
            why = self.state.explain_illegal(seat, msg["action"])
            del step["commits"][seat]  # the one change a refusal makes: choose again
            return (self._error(self.seats[seat]["peer"], "illegal",
                                f"{why}; your commitment was dropped: choose again",
                                msg["seq"]) + self._commits_all())
        step["reveals"][seat] = reveal
        return self._maybe_resolve() or self._commits_all()

    # -- the game moving on -----------------------------------------------------------------
    def _held_step(self) -> dict[str, Any]:
        """The open step as it stands (an empty one if nothing is in yet; not kept)."""
        if self.step is not None and self.step["ply"] == self.ply:
            return self.step
        return {"ply": self.ply, "movers": self.to_move, "commits": {}, "reveals": {}}

    def _open_step(self) -> dict[str, Any]:
        assert self.state is not None
        if self.step is None or self.step["ply"] != self.ply:
            self.step = {"ply": self.ply, "movers": self.state.to_move(), "commits": {},
                         "reveals": {}}
        return self.step

    def _maybe_resolve(self) -> list[Send]:
        step = self.step
        if step is None or any(s not in step["reveals"] for s in step["movers"]):
            return []
        return self._resolve_step(step)

    def _resolve_step(self, step: dict[str, Any]) -> list[Send]:
        """Apply a simultaneous step whose reveals are all in, in seat order."""
        self.steps[step["ply"]] = {
            "movers": list(step["movers"]), "commits": dict(step["commits"]),
            "nonces": {s: r[1] for s, r in step["reveals"].items()}}
        self._apply([(s, step["reveals"][s][0]) for s in sorted(step["movers"])])
        self.step = None
        return self._after_change()

    def _apply(self, actions: list[tuple[int, str]]) -> None:
        assert self.state is not None
        for seat, action in actions:
            self.state.apply(seat, action)
            self.ply += 1

    def _after_change(self) -> list[Send]:
        out: list[Send] = []
        for seat in self.seats:
            out += self._send(seat, self._update_msg(seat))
            if self.over:
                out += self._send(seat, self._end_msg())
        return out + self._watch_updates()

    # -- outgoing ---------------------------------------------------------------------------
    def _send(self, seat: int, msg: dict[str, Any]) -> list[Send]:
        info = self.seats[seat]
        if info["peer"] is None:
            return []
        info["out"] += 1
        msg["seq"] = info["out"]
        return [Send(info["peer"], pack(msg))]

    def _error(self, peer: str | None, code: str, message: str, re: Any) -> list[Send]:
        msg = {"type": "error", "code": code, "message": message,
               "re": re if _is_int(re) else None}
        if isinstance(peer, str) and peer in self.watchers:
            return self._watch_send(peer, msg)   # in the spectator's own sequence
        seat = self._peers.get(peer) if isinstance(peer, str) else None
        if code in ("seat_taken", "replaced"):
            seat = None   # said outside any seat's sequence (seq 0)
        if seat is not None:
            return self._send(seat, msg)
        if not isinstance(peer, str):
            return []
        msg["seq"] = 0
        return [Send(peer, pack(msg))]

    def _picture(self, seat: int | None) -> dict[str, Any]:
        """A seat's picture now (None: a spectator's)."""
        assert self.state is not None
        count, digest = self._digest.get(seat, (0, ""))
        if count != self.state.event_count():
            digest = event_digest(digest, _plain(self.state.events(seat, count)))
            self._digest[seat] = (self.state.event_count(), digest)
        if seat is None:
            return spectator_picture(self.state, self.ply, digest)
        return seat_picture(self.state, seat, self.ply, digest)

    def _update_msg(self, seat: int) -> dict[str, Any]:
        assert self.state is not None
        start = self._sent_events.get(seat, 0)
        picture = self._picture(seat)
        msg = {k: v for k, v in picture.items() if k != "events"}
        msg.update(type="update", start=start, events=self.state.events(seat, start),
                   hash=picture_hash(picture))
        self._sent_events[seat] = self.state.event_count()
        return msg

    def _state_msg(self, seat: int, known: str | None = None) -> dict[str, Any]:
        msg: dict[str, Any] = {
            "type": "state", "match": self.match, "game": self.game.id,
            "players": self.players, "options": self.options, "seat": seat,
            "host_seat": self.seat, "commitment": secret_commitment(self.secret),
            "value": self.values.get(seat), "started": self.state is not None,
            "guests": list(self.value_seats)}
        if self.state is None:
            return msg
        picture = self._picture(seat)
        digest_hash = picture_hash(picture)
        msg.update({k: v for k, v in picture.items() if k in ("ply", "to_move", "over",
                                                              "outcome")})
        msg["hash"] = digest_hash
        msg["step"] = self._commits_msg() if self._step_open() else None
        if msg["step"] is not None:
            del msg["step"]["type"]
        if known == digest_hash:
            msg["same"] = True
        else:
            msg.update(view=picture["view"], legal=picture["legal"], start=0,
                       events=self.state.events(seat))
        self._sent_events[seat] = self.state.event_count()
        return msg

    def _full(self, seat: int, known: str | None = None) -> list[Send]:
        out = self._send(seat, self._state_msg(seat, known))
        if self.over:
            out += self._send(seat, self._end_msg())
        return out

    def _step_open(self) -> bool:
        return self.step is not None and self.step["ply"] == self.ply and not self.over

    def _commits_msg(self) -> dict[str, Any]:
        step = self._open_step()
        return {"type": "commits", "ply": step["ply"], "movers": list(step["movers"]),
                "commits": _str_keys(step["commits"]),
                "complete": len(step["commits"]) == len(step["movers"]),
                "revealed": sorted(s for s in step["reveals"] if s not in self.own_seats),
                "handed": sorted(self.handed)}

    def _commits_all(self) -> list[Send]:
        out: list[Send] = []
        for seat in self.seats:
            out += self._send(seat, self._commits_msg())
        return out

    # -- spectators: only ever what nobody's seat sees (view(None), events(None)) -----------
    def _watch_send(self, peer: str, msg: dict[str, Any]) -> list[Send]:
        info = self.watchers[peer]
        info["out"] += 1
        msg["seq"] = info["out"]
        return [Send(peer, pack(msg))]

    def _watch_full(self, peer: str, known: str | None = None) -> list[Send]:
        """A spectator's whole picture (``spectate``)."""
        msg: dict[str, Any] = {
            "type": "spectate", "v": PROTOCOL, "match": self.match, "game": self.game.id,
            "players": self.players, "options": self.options, "host_seat": self.seat,
            "seats": self.seat_kinds(), "started": self.state is not None}
        if self.state is not None:
            picture = self._picture(None)
            msg.update({k: picture[k] for k in ("ply", "to_move", "over", "outcome")})
            msg["hash"] = picture_hash(picture)
            if known == msg["hash"]:
                msg["same"] = True
            else:
                msg.update(view=picture["view"], start=0, events=self.state.events(None))
            self.watchers[peer]["sent"] = self.state.event_count()
        return self._watch_send(peer, msg)

    def _watch_all(self) -> list[Send]:
        out: list[Send] = []
        for peer in self.watching:
            out += self._watch_full(peer)
        return out

    def _watch_updates(self) -> list[Send]:
        """The ``update`` of every watching spectator (made once for all that hold the
        same events)."""
        peers = self.watching
        if not peers or self.state is None:
            return []
        picture = self._picture(None)
        body = {k: v for k, v in picture.items() if k != "events"}
        body.update(type="update", hash=picture_hash(picture))
        made: dict[int, list[dict[str, Any]]] = {}
        out: list[Send] = []
        for peer in peers:
            info = self.watchers[peer]
            start = info["sent"]
            if start not in made:
                made[start] = self.state.events(None, start)
            out += self._watch_send(peer, {**body, "start": start, "events": made[start]})
            info["sent"] = self.state.event_count()
        return out

    def _end_msg(self) -> dict[str, Any]:
        assert self.state is not None
        return {"type": "end", "match": self.match, "secret": self.secret.hex(),
                "values": _str_keys(self.values), "record": self.state.record(),
                "nonces": {str(p): _str_keys(s["nonces"]) for p, s in self.steps.items()}}

    # -- resume -----------------------------------------------------------------------------
    def to_json(self) -> str:
        """Everything needed to go on after a reload (connections excepted): keep it private,
        it holds the secret and the host's own open choice."""
        step = None
        if self.step is not None:
            step = {"ply": self.step["ply"], "movers": self.step["movers"],
                    "commits": _str_keys(self.step["commits"]),
                    "reveals": _str_keys(self.step["reveals"])}
        return json.dumps({
            "session": PROTOCOL, "game": self.game.id, "players": self.players,
            "options": self.options, "seat": self.seat, "match": self.match,
            "secret": self.secret.hex(), "values": _str_keys(self.values),
            "record": None if self.state is None else self.state.record(),
            "step": step,
            "steps": {str(p): {"movers": s["movers"], "commits": _str_keys(s["commits"]),
                               "nonces": _str_keys(s["nonces"])}
                      for p, s in self.steps.items()},
            "seats": {str(s): {k: i[k] for k in ("token", "conn", "in", "out")}
                      for s, i in self.seats.items()},
            "bots": sorted(self.bots), "value_seats": self.value_seats,
            "replaced": self.replaced, "handed": sorted(self.handed),
        })

    @classmethod
    def from_json(cls, text: str,
                  random_bytes: Callable[[int], bytes] = secrets.token_bytes) -> Host:
        """A host saved by :meth:`to_json`; guests join again with their tokens."""
        data = json.loads(text)
        if not isinstance(data, dict) or data.get("session") != PROTOCOL:
            raise ValueError("this is not a saved host session")
        host = cls(data["game"], players=data["players"], options=data["options"],
                   seat=data["seat"], bots=data.get("bots", ()),
                   secret=bytes.fromhex(data["secret"]), random_bytes=random_bytes)
        host.match = data["match"]
        host.value_seats = list(data.get("value_seats", host.value_seats))
        host.replaced = dict(data.get("replaced", {}))
        host.handed = set(data.get("handed", ()))
        host.values = _int_keys(data["values"])
        if data["record"] is not None:
            host.state = host.game.from_record(data["record"])
            host.ply = len(data["record"]["actions"])
        if data["step"] is not None:
            s = data["step"]
            host.step = {"ply": s["ply"], "movers": s["movers"],
                         "commits": _int_keys(s["commits"]),
                         "reveals": _int_keys(s["reveals"])}
        host.steps = {int(p): {"movers": s["movers"], "commits": _int_keys(s["commits"]),
                               "nonces": _int_keys(s["nonces"])}
                      for p, s in data["steps"].items()}
        host.seats = {int(s): {**i, "peer": None} for s, i in data["seats"].items()}
        return host


# -- a guest -------------------------------------------------------------------------------
_GUEST_KEEP = ("token", "seat", "want_seat", "guests", "out_seq", "match", "game_id",
               "players", "options",
               "host_seat", "commitment", "value", "value_mine", "started", "ply", "to_move",
               "view", "_legal", "events", "_digest", "_hash", "over", "outcome", "step",
               "pending", "shown", "_seen_commits", "_step_commits", "sent", "history_from",
               "verdict", "verdict_provisional", "end_tries", "problems", "last_error",
               "record")


class Guest:
    """One seat away from the host: sees only its seat, sends its choices, checks the end.

    What its table draws: :attr:`view`, :attr:`legal`, :attr:`events`, :attr:`to_move`,
    :attr:`over`, :attr:`outcome`, :attr:`chosen`; at the end :attr:`verdict`. The
    connection's state is the transport's business; :attr:`last_error` is the host's last
    refusal as ``(code, message)``.
    """

    def __init__(self, *, token: str | None = None, seat: int | None = None,
                 random_bytes: Callable[[int], bytes] = secrets.token_bytes) -> None:
        """``seat``: the seat this guest's invite is for (None: any free one)."""
        self._random = random_bytes
        self.want_seat = seat
        self.token = token if token is not None else random_bytes(16).hex()
        if not _is_hex(self.token, 32):
            raise ValueError("a seat token is 32 lowercase hex digits")
        self.conn = random_bytes(8).hex()
        self.seat: int | None = None
        self.out_seq = 0
        self.in_seq = 0
        self.match: int | None = None
        self.last_error: tuple[str, str] | None = None
        self._awaiting_welcome = False
        self._awaiting_state = False
        self._reset_match()

    def _reset_match(self) -> None:
        self.game_id: str | None = None
        self.players = 0
        self.options: dict[str, Any] = {}
        self.host_seat: int | None = None
        self.guests: list[int] | None = None   # the seats whose values make the seed
        self.commitment: str | None = None
        self.value: str | None = None      # this seat's seed value (hex)
        self.value_mine = False            # drawn here (not only heard from the host)
        self.started = False
        self.ply = 0
        self.to_move: list[int] = []
        self.view: dict[str, Any] | None = None
        self._legal: list[str] = []
        self.events: list[dict[str, Any]] = []
        self._digest = ""
        self._hash: str | None = None
        self.over = False
        self.outcome: dict[str, Any] | None = None
        self.step: dict[str, Any] | None = None      # the latest ``commits`` status
        self.pending: dict[str, Any] | None = None   # my choice not yet applied
        self.shown: list[list[Any]] = []             # [ply, hash] of every picture shown
        self._seen_commits: dict[int, dict[str, str]] = {}
        self._step_commits: dict[int, dict[str, str]] = {}  # as seen when I revealed
        self.sent: dict[int, str] = {}               # my choice at each ply
        self.history_from: int | None = None         # first ply of which I saw all
        self.verdict: Verdict | None = None
        self.verdict_provisional = False   # failed only because no ``end`` came (yet)
        self.end_tries = 0                 # unreadable messages since the game ended
        self._replayed = False
        self.problems: list[str] = []                # noticed during play
        self.record: dict[str, Any] | None = None    # the host's, from ``end``

    # -- what the table draws ---------------------------------------------------------------
    @property
    def chosen(self) -> str | None:
        """My choice at this ply while it waits to be applied."""
        if self.pending and self.pending["ply"] == self.ply and not self.over:
            return self.pending["action"]
        return None

    @property
    def legal(self) -> list[str]:
        """My legal actions now ([] while my choice waits, or before the game starts)."""
        if not self.started or self.over or self.chosen is not None:
            return []
        return list(self._legal)

    # -- outgoing ---------------------------------------------------------------------------
    def _send(self, msg: dict[str, Any]) -> list[Send]:
        self.out_seq += 1
        msg["seq"] = self.out_seq
        return [Send(HOST, pack(msg))]

    def join(self) -> list[Send]:
        """Ask for a seat (again, after a reload or a new connection: same token)."""
        self._awaiting_welcome = True
        msg = {"type": "join", "v": PROTOCOL, "token": self.token, "conn": self.conn}
        if self.want_seat is not None:
            msg["seat"] = self.want_seat
        return self._send(msg)

    def act(self, action: str) -> list[Send]:
        """Choose ``action`` for my seat; one not in :attr:`legal` raises IllegalAction."""
        if self.seat is None or not self.started:
            raise IllegalAction("the game has not started")
        if self.over:
            raise IllegalAction("the game is over")
        if self.chosen is not None:
            raise IllegalAction("you have already chosen: it waits for the others")
        if self.seat not in self.to_move:
            raise IllegalAction("it is not your turn")
        if action not in self._legal:
            raise IllegalAction(f"{action!r} is not a legal action now")
        self.sent[self.ply] = action
        if len(self.to_move) == 1:
            self.pending = {"ply": self.ply, "kind": "act", "action": action}
            return self._send({"type": "act", "ply": self.ply, "action": action})
        nonce = self._random(16).hex()
        digest = commit_hash(self.ply, self.seat, action, nonce)
        self.pending = {"ply": self.ply, "kind": "commit", "action": action,
                        "nonce": nonce, "hash": digest, "revealed": False}
        return self._send({"type": "commit", "ply": self.ply, "hash": digest})

    def poll(self) -> list[Send]:
        """Call when nothing has come for a while, or after reconnecting: asks the host
        for whatever may have been lost (once the game is over and checked, only whether a
        rematch began: a ``ping``, whose ``pong`` names the host's match)."""
        if self.seat is None or self._awaiting_welcome:
            return self.join()
        if self.over and not self.awaiting_end:
            # Checked and done: only ask whether a rematch began (its state may be lost).
            return self.ping()
        self._awaiting_state = True
        known = None if self.over else self._hash
        return self._send({"type": "resync", "known": known})

    def ping(self) -> list[Send]:
        """Ask the host for a ``pong``: traffic that proves the channel is alive while
        nothing else is said (the page reads the channel's liveness from it)."""
        if self.seat is None or self._awaiting_welcome:
            return []
        return self._send({"type": "ping"})

    def _on_pong(self, msg: dict[str, Any]) -> list[Send]:
        if msg.get("match") is not None and msg["match"] > self.match:
            return self._ask_resync()   # the host began a rematch whose state was lost
        return []

    def _ask_resync(self) -> list[Send]:
        if self._awaiting_state or self.seat is None:
            return []
        self._awaiting_state = True
        return self._send({"type": "resync"})

    # -- incoming ---------------------------------------------------------------------------
    def receive(self, text: Any) -> list[Send]:
        """Handle one message from the host; return what to send back. Never raises."""
        try:
            msg = unpack(text, MAX_HOST_MESSAGE)
        except BadMessage as exc:
            return self._unreadable(exc)   # garbled on the way: as good as lost
        try:
            _validate(msg, TO_GUEST)
        except BadMessage as exc:
            if msg["type"] == "end" and self.awaiting_end:
                # Its sum is right, so the host's app wrote it so: no resync can mend it.
                self._end_failed(f"The host's end message is malformed: {exc}.")
                return []
            return self._unreadable(exc)
        try:
            return self._dispatch(msg)
        except Exception as exc:  # noqa: BLE001 - nothing the host sends may stop the guest
            self.last_error = ("malformed", f"a {msg['type']} message from the host could "
                               f"not be used: {exc!r}")
            self._awaiting_state = False
            return self._ask_resync()

    @property
    def awaiting_end(self) -> bool:
        """The game is over here and its end check has not run on a real ``end`` yet."""
        return bool(self.started and self.over and (self.verdict is None
                                                    or self.verdict_provisional))

    def _unreadable(self, exc: BadMessage) -> list[Send]:
        """A message that could not be read: ask again, but a finished game whose end
        message keeps coming unreadable is not verified (the host cannot stall the check)."""
        if self.awaiting_end:
            self.end_tries += 1
            if exc.code == "too_big":
                self._end_failed(f"The host sent a message larger than {MAX_HOST_MESSAGE} "
                                 "bytes after the game ended.")
                return []
            if self.end_tries >= END_TRIES:
                self._end_failed(f"The host's end message could not be read {END_TRIES} "
                                 f"times in a row ({exc}).")
                return []
        self._awaiting_state = False
        return self._ask_resync()

    def _end_failed(self, problem: str) -> None:
        """The end check fails for good on what the host sent (no record to share)."""
        self.verdict = Verdict(False, self.problems + [problem])
        self.verdict_provisional = False
        self.record = None

    def end_missing(self) -> None:
        """The page waited long enough for the host's ``end``: show the game as not
        verified (if a real ``end`` comes later, its check replaces this)."""
        if self.awaiting_end and self.verdict is None:
            self.verdict = Verdict(False, self.problems + [
                "The host has not sent the finished game's record, so it cannot be checked."])
            self.verdict_provisional = True

    def _dispatch(self, msg: dict[str, Any]) -> list[Send]:
        kind, seq = msg["type"], msg["seq"]
        if kind == "welcome":
            if not self._awaiting_welcome:
                return []
            self._awaiting_welcome = False
            self.seat, self.in_seq = msg["seat"], seq
            self._awaiting_state = True  # a state follows
            return []
        if kind == "error" and seq == 0:
            self.last_error = (msg["code"], msg["message"])
            if msg["code"] == "not_joined" and self.seat is not None:
                return self.join()  # the host forgot this connection (it reloaded)
            return []
        if self.seat is None:
            return []
        if kind == "state":
            if seq <= self.in_seq:
                return self._ask_resync()
            self.in_seq = seq
            self._awaiting_state = False
            return self._on_state(msg)
        if seq != self.in_seq + 1:
            return self._ask_resync()
        self.in_seq = seq
        return getattr(self, "_on_" + kind)(msg)

    def _on_error(self, msg: dict[str, Any]) -> list[Send]:
        self.last_error = (msg["code"], msg["message"])
        if msg["code"] == "illegal" and self.pending:
            self.sent.pop(self.pending["ply"], None)
            self.pending = None
        return self._ask_resync()

    def _on_state(self, msg: dict[str, Any]) -> list[Send]:
        out: list[Send] = []
        if msg["match"] != self.match:
            self.match = msg["match"]
            self._reset_match()
        if msg["seat"] != self.seat:
            raise ValueError("a state for another seat")
        self.game_id, self.players = msg["game"], msg["players"]
        self.options, self.host_seat = msg["options"], msg["host_seat"]
        self.guests = msg.get("guests")
        if self.commitment is None:
            self.commitment = msg["commitment"]
        elif self.commitment != msg["commitment"]:
            self._problem(f"The host changed its seed commitment during match {self.match}.")
        if msg["value"] is None:
            if self.started or msg["started"]:
                raise ValueError("a started game without a seed value")
            if self.value is None:
                self.value, self.value_mine = self._random(VALUE_BYTES).hex(), True
            out += self._send({"type": "seed", "match": self.match, "value": self.value})
        elif self.value is None:
            self.value = msg["value"]   # lost with a reload: the end check cannot vouch
        elif self.value != msg["value"]:
            self._problem("The host holds a different seed value for your seat than the "
                          "one you sent.")
        if not msg["started"]:
            return out
        if msg.get("same"):
            if msg["hash"] != self._hash:
                self._awaiting_state = False
                return out + self._ask_resync()
        else:
            digest = event_digest("", msg["events"])
            picture = {"ply": msg["ply"], "to_move": msg["to_move"], "view": msg["view"],
                       "legal": msg["legal"], "events": digest, "over": msg["over"],
                       "outcome": msg.get("outcome")}
            if picture_hash(picture) != msg["hash"]:
                self.last_error = ("mismatch", "a full state did not match its hash")
                return out + self._ask_resync()
            self._show(picture, list(msg["events"]), msg["hash"])
        if self.history_from is None:
            self.history_from = msg["ply"]
        self.step = msg["step"]
        if self.step is not None:
            self._note_commits(self.step)
        return out + self._reconcile(resend=True)

    def _show(self, picture: dict[str, Any], events: list[dict[str, Any]], h: str) -> None:
        self.started = True
        if picture["ply"] != self.ply:
            self.step = None
        self.ply, self.to_move = picture["ply"], picture["to_move"]
        self.view, self._legal = picture["view"], picture["legal"]
        self.events, self._digest, self._hash = events, picture["events"], h
        self.over, self.outcome = picture["over"], picture["outcome"]
        if [self.ply, h] not in self.shown:
            self.shown.append([self.ply, h])
        if self.pending and self.pending["ply"] < self.ply:
            self.pending = None

    def _on_update(self, msg: dict[str, Any]) -> list[Send]:
        if not self.started or msg["start"] != len(self.events) or msg["ply"] < self.ply:
            return self._ask_resync()
        digest = event_digest(self._digest, msg["events"])
        picture = {"ply": msg["ply"], "to_move": msg["to_move"], "view": msg["view"],
                   "legal": msg["legal"], "events": digest, "over": msg["over"],
                   "outcome": msg.get("outcome")}
        if picture_hash(picture) != msg["hash"]:
            return self._ask_resync()
        self._show(picture, self.events + list(msg["events"]), msg["hash"])
        return []

    def _note_commits(self, status: dict[str, Any]) -> None:
        seen = self._seen_commits.setdefault(status["ply"], {})
        # A seat the host gave a bot chooses again (its guest's choice is lost with it).
        handed = {str(s) for s in status.get("handed") or ()}
        frozen = self._step_commits.get(status["ply"])
        for seat, h in status["commits"].items():
            if seat in handed:
                seen[seat] = h
                if frozen is not None:
                    frozen[seat] = h
                continue
            if seen.get(seat, h) != h and seat != str(self.seat):
                self._problem(f"The host changed seat {seat}'s commitment at ply "
                              f"{status['ply']}.")
            seen.setdefault(seat, h)

    def _on_commits(self, msg: dict[str, Any]) -> list[Send]:
        if not self.started or msg["ply"] != self.ply:
            return []
        self.step = msg
        self._note_commits(msg)
        return self._reconcile(resend=False)

    def _reconcile(self, resend: bool) -> list[Send]:
        """Send what my pending choice still needs (after a state: anything lost)."""
        p = self.pending
        if p is None or p["ply"] != self.ply or self.over or self.seat is None:
            return []
        if p["kind"] == "act":
            if resend and self.seat in self.to_move:
                return self._send({"type": "act", "ply": p["ply"], "action": p["action"]})
            return []
        status = self.step if self.step and self.step["ply"] == self.ply else None
        mine = str(self.seat)
        commits = status["commits"] if status else {}
        if mine not in commits:
            if resend:
                return self._send({"type": "commit", "ply": p["ply"], "hash": p["hash"]})
            return []
        if commits[mine] != p["hash"]:
            self._problem(f"The host shows another commitment for your seat at ply "
                          f"{self.ply} than the one you sent.")
            return []
        assert status is not None
        everyone = sorted(commits) == sorted(str(s) for s in status["movers"])
        if not (status["complete"] and everyone):
            return []
        if p["revealed"] and not (resend and self.seat not in status["revealed"]):
            return []
        frozen = self._step_commits.setdefault(self.ply, dict(commits))
        if frozen != commits:
            self._problem(f"The commitments at ply {self.ply} changed after you revealed.")
        p["revealed"] = True
        return self._send({"type": "reveal", "ply": p["ply"], "action": p["action"],
                           "nonce": p["nonce"]})

    def _problem(self, text: str) -> None:
        if text not in self.problems:
            self.problems.append(text)

    def _on_end(self, msg: dict[str, Any]) -> list[Send]:
        if not self.over:  # the update before it was lost: catch up first
            return self._ask_resync()
        if self.awaiting_end and msg["match"] != self.match:
            self._end_failed(f"The host's end message is for match {msg['match']}, not for "
                             f"this one ({self.match}).")
        elif self.awaiting_end:
            self._replayed = False
            try:
                problems = self._check_end(msg)
            except Exception as exc:  # noqa: BLE001 - a failed check is always shown
                problems = [f"The host's end message could not be read ({exc!r})."]
            problems = self.problems + [p for p in problems if p not in self.problems]
            self.verdict = Verdict(not problems, problems)
            self.verdict_provisional = False
            # Kept (to save and share) only if it is a record this engine replays whole.
            self.record = msg["record"] if self._replayed else None
        return []

    # -- the end check ----------------------------------------------------------------------
    def _check_end(self, msg: dict[str, Any]) -> list[str]:
        problems: list[str] = []
        secret = bytes.fromhex(msg["secret"])
        if secret_commitment(secret) != self.commitment:
            problems.append("The host's secret does not match the commitment it sent before "
                            "the game: it could have chosen the shuffle.")
        seats = (sorted(self.guests) if self.guests is not None else
                 [s for s in range(self.players) if s != self.host_seat])
        values = msg["values"]
        if sorted(values) != sorted(str(s) for s in seats) or self.seat not in seats:
            problems.append("The host's seed values are not one per guest seat.")
            return problems
        if self.value_mine and values[str(self.seat)] != self.value:
            problems.append("The seed value the host used for your seat is not the one you "
                            "sent.")
        seed = derive_seed(secret, [bytes.fromhex(values[str(s)]) for s in seats])
        record = msg["record"]
        game = get_game(self.game_id or "")
        if (record.get("game"), record.get("players"), record.get("options")) != (
                self.game_id, self.players, self.options):
            problems.append("The record is for another game, player count or options than "
                            "the one announced.")
        if record.get("seed") != seed:
            problems.append("The record's seed is not the one the host's secret and the "
                            "seed values give.")
        actions = record.get("actions")
        if not isinstance(actions, list):
            return problems + ["The record has no list of actions."]
        return problems + self._replay(game, record, actions, msg["nonces"])

    def _replay(self, game: Any, record: dict[str, Any], actions: list[Any],
                nonces: dict[str, Any]) -> list[str]:
        problems: list[str] = []
        seat = self.seat
        assert seat is not None
        state = game.new_game(seed=record["seed"], players=self.players,
                              options=self.options)
        shown: dict[int, set[str]] = {}
        for ply, h in self.shown:
            shown.setdefault(ply, set()).add(h)
        since = self.history_from if self.history_from is not None else 0
        digest, count, ply = "", 0, 0
        steps_seen: set[int] = set()

        def check_shown() -> None:
            nonlocal digest, count
            if ply not in shown:
                return
            digest = event_digest(digest, _plain(state.events(seat, count)))
            count = state.event_count()
            h = picture_hash(seat_picture(state, seat, ply, digest))
            for bad in sorted(shown[ply] - {h}):
                problems.append(f"What you were shown at ply {ply} is not what the record "
                                f"gives your seat there (hash {bad[:12]}…).")

        def who(s: int) -> str:
            return "your seat" if s == seat else ("the host" if s == self.host_seat
                                                  else f"seat {s}")

        while True:
            check_shown()
            if ply >= len(actions):
                break
            movers = state.to_move()
            if not movers:
                problems.append(f"The record goes on after the game ended (ply {ply}).")
                break
            size = len(movers) if len(movers) > 1 else 1
            entries = actions[ply:ply + size]
            if any(not isinstance(e, list) or len(e) != 2 for e in entries):
                problems.append(f"The record's action at ply {ply} is not [seat, action].")
                break
            if size > 1:
                steps_seen.add(ply)
                if [e[0] for e in entries] != sorted(movers):
                    problems.append(f"The simultaneous choices at ply {ply} are not those "
                                    "of the players to move, in seat order.")
                    break
                seen = self._step_commits.get(ply)
                for s, action in entries:
                    if seen is None:
                        break
                    nonce = nonces.get(str(ply), {}).get(str(s))
                    if not isinstance(nonce, str) or commit_hash(
                            ply, s, action, nonce) != seen.get(str(s)):
                        problems.append(f"The choice of {who(s)} at ply {ply} ({action!r}) "
                                        "does not match the commitment you saw before "
                                        "revealing yours.")
                if seat in movers and seen is None and ply >= since:
                    problems.append(f"The record has a simultaneous choice of your seat at "
                                    f"ply {ply} that you never revealed.")
            for offset, (s, action) in enumerate(entries):
                if s == seat and ply >= since and self.sent.get(ply) != action:
                    problems.append(f"The record has an action for your seat at ply "
                                    f"{ply + offset} ({action!r}) that you did not send.")
                try:
                    state.apply(s, action)
                except IllegalAction as exc:
                    problems.append(f"The record cannot be replayed: action "
                                    f"#{ply + offset + 1} {[s, action]!r}: "
                                    f"{str(exc).rstrip('.')}.")
                    return problems
            ply += size
        for p in sorted(set(self._step_commits) - steps_seen):
            problems.append(f"You revealed a choice at ply {p}, but the record has no "
                            "simultaneous choice there.")
        for p in sorted(p for p in shown if p > len(actions)):
            problems.append(f"You were shown ply {p}, beyond the end of the record.")
        if not state.is_over():
            problems.append("The record does not finish the game.")
        elif _plain(state.outcome()) != self.outcome:
            problems.append("The record's outcome is not the one you were shown.")
        if state.is_over() and ply == len(actions):
            try:
                self._replayed = game.from_record(record).is_over()
            except ValueError as exc:
                problems.append(f"The record cannot be read as a record: "
                                f"{str(exc).rstrip('.')}.")
        return problems

    # -- resume -----------------------------------------------------------------------------
    def to_json(self) -> str:
        """Everything this guest needs after a reload (its seat token included)."""
        data = {name: getattr(self, name) for name in _GUEST_KEEP}
        data["_seen_commits"] = _str_keys(self._seen_commits)
        data["_step_commits"] = _str_keys(self._step_commits)
        data["sent"] = _str_keys(self.sent)
        data["session"] = PROTOCOL
        return json.dumps(data)

    @classmethod
    def from_json(cls, text: str,
                  random_bytes: Callable[[int], bytes] = secrets.token_bytes) -> Guest:
        """A guest saved by :meth:`to_json`; call :meth:`join` to take its seat again."""
        data = json.loads(text)
        if not isinstance(data, dict) or data.get("session") != PROTOCOL:
            raise ValueError("this is not a saved guest session")
        guest = cls(token=data["token"], random_bytes=random_bytes)
        for name in _GUEST_KEEP:
            if name in data:  # a save from before a field existed keeps its default
                setattr(guest, name, copy.deepcopy(data[name]))
        guest._seen_commits = _int_keys(data["_seen_commits"])
        guest._step_commits = _int_keys(data["_step_commits"])
        guest.sent = _int_keys(data["sent"])
        if guest.verdict is not None:
            guest.verdict = Verdict(*guest.verdict)
        saved_error: Any = guest.last_error  # set from JSON above: a list, not a tuple
        if isinstance(saved_error, list):
            guest.last_error = tuple(saved_error)
        return guest


# -- a spectator ---------------------------------------------------------------------------
_SPECTATOR_KEEP = ("match", "game_id", "players", "options", "host_seat", "kinds", "started",
                   "ply", "to_move", "view", "events", "_digest", "_hash", "over", "outcome")
#: Messages a spectator lets pass while it waits for the whole picture it asked for,
#: before it asks again (the request or its answer was lost while the game went on).
RESYNC_AFTER = 8


class Spectator:
    """Someone watching: sees what nobody's seat sees (``view(None)``, the spectator's
    copy of each event), holds no seat and sends no choice, so it can neither act nor
    change the deal; the host never waits for it.

    What its table draws: :attr:`view`, :attr:`events`, :attr:`to_move`, :attr:`over`,
    :attr:`outcome`, and who plays each seat (:attr:`kinds`: ``host``, ``guest``,
    ``bot``). It follows rematches. It gets no ``end``: the record holds every hidden
    card, so a spectator has no record and no end check (:attr:`legal` is always empty,
    :attr:`seat`, :attr:`record` and :attr:`verdict` None).
    """

    seat: int | None = None
    record: dict[str, Any] | None = None
    verdict: Verdict | None = None
    chosen: str | None = None

    def __init__(self, *, random_bytes: Callable[[int], bytes] = secrets.token_bytes) -> None:
        self._random = random_bytes
        self.conn = random_bytes(8).hex()
        self.out_seq = 0
        self.in_seq = 0
        self.match: int | None = None
        self.last_error: tuple[str, str] | None = None
        #: The host has sent this page's connection a picture (its ``watch`` was heard).
        self.watching = False
        self._awaiting = False   # a whole picture was asked for and has not come
        self._waited = 0         # messages let pass while awaiting it
        self._reset_match()

    def _reset_match(self) -> None:
        self.game_id: str | None = None
        self.players = 0
        self.options: dict[str, Any] = {}
        self.host_seat: int | None = None
        self.kinds: list[str] = []
        self.started = False
        self.ply = 0
        self.to_move: list[int] = []
        self.view: dict[str, Any] | None = None
        self.events: list[dict[str, Any]] = []
        self._digest = ""
        self._hash: str | None = None
        self.over = False
        self.outcome: dict[str, Any] | None = None

    @property
    def legal(self) -> list[str]:
        """A spectator has no legal action, ever."""
        return []

    # -- outgoing ---------------------------------------------------------------------------
    def _send(self, msg: dict[str, Any]) -> list[Send]:
        self.out_seq += 1
        msg["seq"] = self.out_seq
        return [Send(HOST, pack(msg))]

    def watch(self) -> list[Send]:
        """Ask to watch (again, after a reload or on a new connection): the host answers
        with the whole picture."""
        self._awaiting, self._waited = True, 0
        self.watching = False   # until the host's answer (whatever seq it comes with)
        return self._send({"type": "watch", "v": PROTOCOL, "conn": self.conn})

    def poll(self) -> list[Send]:
        """Call when nothing has come for a while: asks for whatever may have been lost
        (the host leaves out view and events if nothing changed)."""
        if not self.watching:
            return self.watch()
        self._awaiting, self._waited = True, 0
        return self._send({"type": "resync", "known": self._hash if self.started else None})

    def ping(self) -> list[Send]:
        """Ask the host for a ``pong`` (the channel's liveness; a rematch whose picture
        was lost)."""
        return self._send({"type": "ping"}) if self.watching else []

    def _ask_resync(self) -> list[Send]:
        if self._awaiting:
            self._waited += 1
            if self._waited < RESYNC_AFTER:
                return []
        self._awaiting, self._waited = True, 0
        return self._send({"type": "resync"})

    # -- incoming ---------------------------------------------------------------------------
    def receive(self, text: Any) -> list[Send]:
        """Handle one message from the host; return what to send back. Never raises."""
        try:
            msg = unpack(text, MAX_HOST_MESSAGE)
            _validate(msg, TO_SPECTATOR)
        except BadMessage:
            return self._ask_resync() if self.watching else []
        try:
            return self._dispatch(msg)
        except Exception as exc:  # noqa: BLE001 - nothing the host sends may stop it
            self.last_error = ("malformed", f"a {msg['type']} message from the host could "
                               f"not be used: {exc!r}")
            self._awaiting = False
            return self._ask_resync()

    def _dispatch(self, msg: dict[str, Any]) -> list[Send]:
        kind, seq = msg["type"], msg["seq"]
        if kind == "error" and (seq == 0 or msg["code"] == "not_joined"):
            self.last_error = (msg["code"], msg["message"])
            if msg["code"] == "not_joined":   # the host forgot this connection (reloaded)
                self.watching = False
                return self.watch()
            return []
        if kind == "spectate":
            if seq <= self.in_seq and self.watching:
                return self._ask_resync()
            self.in_seq, self.watching = seq, True
            self._awaiting, self._waited = False, 0
            return self._on_spectate(msg)
        if not self.watching:
            return []
        if seq != self.in_seq + 1:
            return self._ask_resync()
        self.in_seq = seq
        if kind == "error":
            self.last_error = (msg["code"], msg["message"])
            return []
        if kind == "pong":
            if msg.get("match") is not None and self.match is not None and (
                    msg["match"] > self.match):
                return self._ask_resync()   # a rematch whose picture was lost
            return []
        return self._on_update(msg)

    def _on_spectate(self, msg: dict[str, Any]) -> list[Send]:
        if msg["match"] != self.match:
            self.match = msg["match"]
            self._reset_match()
        self.game_id, self.players = msg["game"], msg["players"]
        self.options, self.host_seat = msg["options"], msg["host_seat"]
        self.kinds = list(msg["seats"])
        if not msg["started"]:
            return []
        if msg.get("same"):
            if msg["hash"] != self._hash or not self.started:
                self._hash = None   # not the picture held: ask for all of it
                return self._ask_resync()
            return []
        picture = {"ply": msg["ply"], "to_move": msg["to_move"], "view": msg["view"],
                   "legal": [], "events": event_digest("", msg["events"]),
                   "over": msg["over"], "outcome": msg.get("outcome")}
        if picture_hash(picture) != msg["hash"]:
            self.last_error = ("mismatch", "a whole picture did not match its hash")
            return self._ask_resync()
        self._show(picture, list(msg["events"]), msg["hash"])
        return []

    def _on_update(self, msg: dict[str, Any]) -> list[Send]:
        if not self.started or msg["start"] != len(self.events) or msg["ply"] < self.ply:
            return self._ask_resync()
        picture = {"ply": msg["ply"], "to_move": msg["to_move"], "view": msg["view"],
                   "legal": msg["legal"], "events": event_digest(self._digest, msg["events"]),
                   "over": msg["over"], "outcome": msg.get("outcome")}
        if msg["legal"] or picture_hash(picture) != msg["hash"]:
            return self._ask_resync()
        self._show(picture, self.events + list(msg["events"]), msg["hash"])
        return []

    def _show(self, picture: dict[str, Any], events: list[dict[str, Any]], h: str) -> None:
        self.started = True
        self.ply, self.to_move, self.view = picture["ply"], picture["to_move"], picture["view"]
        self.events, self._digest, self._hash = events, picture["events"], h
        self.over, self.outcome = picture["over"], picture["outcome"]

    # -- resume -----------------------------------------------------------------------------
    def to_json(self) -> str:
        """The picture this spectator holds (a reloaded page shows it while it watches
        again; nothing in it is secret)."""
        data = {name: getattr(self, name) for name in _SPECTATOR_KEEP}
        data["session"] = PROTOCOL
        data["spectator"] = True
        return json.dumps(data)

    @classmethod
    def from_json(cls, text: str,
                  random_bytes: Callable[[int], bytes] = secrets.token_bytes) -> Spectator:
        """A spectator saved by :meth:`to_json` (a new connection): call :meth:`watch`."""
        data = json.loads(text)
        if not isinstance(data, dict) or data.get("session") != PROTOCOL or not data.get(
                "spectator"):
            raise ValueError("this is not a saved spectator")
        spectator = cls(random_bytes=random_bytes)
        for name in _SPECTATOR_KEEP:
            if name in data:
                setattr(spectator, name, copy.deepcopy(data[name]))
        return spectator
