"""What a spectator of link play may be sent (tests/test_spectate.py, test_link_table.py).

A message to a spectator must hold exactly nobody's part of the game: ``view(None)``, the
spectator's copy of the events, the public ply, movers and outcome, and nothing else. Its
raw text is also scanned for what a seat sees and a spectator does not (:func:`hidden_needles`:
a hand's cards, a face-down card, a drawn card), so a leak shows even where a check of the
fields would miss it.
"""

from __future__ import annotations

import json

import pygames
from pygames.session import (
    ERRORS,
    MAX_HOST_MESSAGE,
    TO_SPECTATOR,
    _validate,
    canonical,
    event_digest,
    picture_hash,
    spectator_picture,
    unpack,
)


def plain(obj):
    return json.loads(json.dumps(obj))


def _differences(seen, public, key, out):
    """Where a seat's view (``seen``) shows more than nobody's (``public``): the seat's
    value under the nearest key, as the canonical JSON a message would carry it in."""
    if isinstance(seen, dict) and isinstance(public, dict):
        for k, v in seen.items():
            _differences(v, public.get(k), k, out)
    elif (isinstance(seen, list) and isinstance(public, list) and len(seen) == len(public)
          and seen != public):
        for a, b in zip(seen, public, strict=True):
            _differences(a, b, key, out)
    elif seen != public and seen not in (None, [], {}, "") and key not in ("you",):
        out.add(f'"{key}":{canonical(seen)}')


def hidden_needles(state):
    """Texts that would appear in a message only if it carried something hidden from a
    spectator now: each seat's view where it shows more than ``view(None)`` (its hand,
    its face-down cards, its options of the moment), and each event's hidden fields
    (the cards a seat drew) as the canonical JSON ``"key":value``. A text that the public
    picture itself holds (the same card face up elsewhere) is left out by
    :func:`leaked`."""
    public = plain(state.view(None))
    needles: set[str] = set()
    for seat in range(state.players):
        _differences(plain(state.view(seat)), public, "", needles)
    for event in state.log:
        for name in event.get("_hide", ()):
            if name in event and event[name] not in (None, [], {}, ""):
                needles.add(f'"{name}":{canonical(plain(event[name]))}')
    return needles


def leaked(state, text, expected=None):
    """The hidden texts (:func:`hidden_needles`) that ``text`` holds and the public picture
    (``view(None)``, every spectator event) does not."""
    needles = expected["needles"] if expected else hidden_needles(state)
    found = [n for n in needles if n in text]
    if not found:
        return []
    shown = canonical(plain(state.view(None))) + canonical(plain(state.events(None)))
    return [n for n in found if n not in shown]


class Expected:
    """What a spectator may be sent at the host's current point (worked out once per
    point: both spectators' messages, and the digest carried on from the last point)."""

    state = None   # the state last worked out for (held, so no other state gets its id)
    point: tuple = ()
    count, digest = 0, ""
    now: dict = {}

    @classmethod
    def of(cls, host):
        state = host.state
        point = (host.match, host.ply, state.event_count())
        if state is not cls.state or point != cls.point:
            if state is not cls.state:
                cls.state, cls.count, cls.digest = state, 0, ""
            cls.digest = event_digest(cls.digest, plain(state.events(None, cls.count)))
            cls.count, cls.point = state.event_count(), point
            cls.now = {"view": plain(state.view(None)), "needles": hidden_needles(state),
                       "hash": picture_hash(spectator_picture(state, host.ply, cls.digest)),
                       "outcome": plain(state.outcome())}
        return cls.now


def check_spectator_message(host, text):
    """A host message to a spectator holds exactly a spectator's part of the game now, and
    nothing else (raises AssertionError naming what is wrong)."""
    msg = unpack(text, MAX_HOST_MESSAGE)
    assert msg["type"] in TO_SPECTATOR, f"a spectator was sent {msg['type']!r}"
    _validate(msg, TO_SPECTATOR)   # no field the protocol does not name
    state = host.state
    assert host.secret.hex() not in text, "the host's secret went to a spectator"
    for value in host.values.values():
        assert value not in text, "a seed value went to a spectator"
    hashes = [h for s in [host.step or {}, *host.steps.values()]
              for h in s.get("commits", {}).values()]
    nonces = [r[1] for r in (host.step or {}).get("reveals", {}).values()]
    nonces += [n for s in host.steps.values() for n in s["nonces"].values()]
    for secret in hashes + nonces + [i["token"] for i in host.seats.values()]:
        assert secret not in text, "a commitment, nonce or seat token went to a spectator"
    kind = msg["type"]
    if kind == "error":
        assert msg["code"] in ERRORS and msg["code"] != "internal", msg
        return msg
    if kind == "pong":
        assert msg["match"] == host.match
        return msg
    if kind == "spectate":
        assert (msg["match"], msg["game"], msg["players"], msg["options"], msg["host_seat"],
                msg["seats"], msg["started"]) == (
            host.match, host.game.id, host.players, plain(host.options), host.seat,
            host.seat_kinds(), state is not None)
        if state is None:
            assert set(msg) <= {"type", "seq", "sum", "v", "match", "game", "players",
                                "options", "host_seat", "seats", "started"}
            return msg
    assert state is not None
    assert str(state.seed) not in text, "the seed went to a spectator"
    assert msg["ply"] == host.ply and msg["to_move"] == state.to_move()
    now = Expected.of(host)
    assert msg["over"] == state.is_over() and msg.get("outcome") == now["outcome"]
    assert msg["hash"] == now["hash"]
    if "view" in msg:
        assert msg["view"] == now["view"], "a view that is not nobody's"
        start = msg.get("start") or 0
        assert msg["events"] == plain(state.events(None, start)), "events not redacted"
    else:
        assert msg.get("same") is True
    if kind == "update":
        assert msg["legal"] == []
    assert not leaked(state, text, now), f"a spectator was sent {leaked(state, text)}"
    return msg



def check_spectator_texts(record, texts):
    """Messages a spectator was sent during the game of ``record`` (``spectate`` and
    ``update``, in any order), each checked against that game replayed to the message's
    ply: its view is ``view(None)`` there, its events the spectator's copies, its raw text
    holds nothing hidden. Returns how many held a picture."""
    game = pygames.get_game(record["game"])
    state = game.new_game(seed=record["seed"], players=record["players"],
                          options=record["options"])
    at: dict[int, dict] = {}
    wanted: dict[int, list] = {}
    for text in texts:
        msg = unpack(text, MAX_HOST_MESSAGE)
        assert msg["type"] in TO_SPECTATOR, msg["type"]
        _validate(msg, TO_SPECTATOR)
        if "view" in msg:
            wanted.setdefault(msg["ply"], []).append((msg, text))
    for ply in range(len(record["actions"]) + 1):
        if ply in wanted:
            at[ply] = {"view": plain(state.view(None)), "events": plain(state.events(None)),
                       "to_move": state.to_move(), "needles": hidden_needles(state)}
            for msg, text in wanted[ply]:
                mine = at[ply]
                assert msg["view"] == mine["view"], ply
                assert msg["to_move"] == mine["to_move"] and msg.get("legal", []) == []
                start = msg.get("start") or 0
                assert msg["events"] == mine["events"][start:start + len(msg["events"])]
                assert not leaked(state, text, mine), leaked(state, text)
        if ply < len(record["actions"]):
            seat, action = record["actions"][ply]
            state.apply(seat, action)
    assert not set(wanted) - set(at), "a picture of a ply the game never had"
    return sum(len(v) for v in wanted.values())
