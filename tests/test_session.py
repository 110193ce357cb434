"""Link play sessions (``pygames.session``) for every registered game.

Whole games between random bots, acting through a Host and a Guest over an in-memory
network that drops, duplicates, reorders, delays and corrupts messages; every message
meant for the guest is scanned against the engine's own view of its seat when it is sent.
Then bad messages, cheats, resume after reloads, and rematch.
"""

from __future__ import annotations

import copy
import json
import random

import pytest
from helpers.protocol import option_combos

import pygames
from pygames import IllegalAction
from pygames.bots import RandomBot
from pygames.session import (
    HOST,
    MAX_MESSAGE,
    TO_GUEST,
    Guest,
    Host,
    commit_hash,
    pack,
    picture_hash,
    unpack,
)

GAME_IDS = pygames.game_ids()


def has_simultaneous_choices(game_id, games=3):
    """Whether several players ever choose at once in random games of ``game_id``."""
    game = pygames.get_game(game_id)
    rng = random.Random(0)
    for seed in range(games):
        state = game.new_game(seed=seed)
        while not state.is_over():
            movers = state.to_move()
            if len(movers) > 1:
                return True
            state.apply(movers[0], rng.choice(state.legal_actions(movers[0])))
    return False
#: Whole games over the bad network, per game (options cycle through every combination).
BAD_GAMES = 24
GSEAT = 1  # the guest's seat (the host plays seat 0)


def plain(obj):
    return json.loads(json.dumps(obj))


def mangle(rng, text):
    """A message damaged on the way: a changed character, cut short, or garbage added."""
    how = rng.randrange(3)
    if how == 0:
        i = rng.randrange(len(text))
        return text[:i] + rng.choice("0123456789abcdef{}[]\",:x") + text[i + 1:]
    if how == 1:
        return text[:rng.randrange(len(text))]
    return text + rng.choice(["}", "x", "\x00", " "])


class Table:
    """One host, one guest, two random bots and a network between them (seeded)."""

    def __init__(self, game_id, seed, *, options=None, bad=True, host_cls=Host):
        self.rng = random.Random(seed)
        self.host = host_cls(game_id, options=options, random_bytes=self.rng.randbytes)
        self.guest = Guest(random_bytes=self.rng.randbytes)
        self.peer = "g1"
        self.bots = {0: RandomBot(seed), 1: RandomBot(seed + 1)}
        self.rates = (dict(drop=0.08, dup=0.05, corrupt=0.05, reorder=0.12) if bad
                      else dict(drop=0, dup=0, corrupt=0, reorder=0))
        self.flight: list[tuple[str, str, str]] = []  # (from, to, text)
        self.complete_sent: set[int] = set()   # plies whose full commitments the guest got
        self.codes: list[str] = []             # every error code the host sent
        self.to_guest: list[str] = []          # every host message meant for the guest
        self.honest = True                     # False: skip comparing views (a cheat)
        self.post_guest(self.guest.join())

    # -- the network ------------------------------------------------------------------------
    def _queue(self, frm, to, text):
        r, rng = self.rates, self.rng
        if rng.random() < r["drop"]:
            return
        if rng.random() < r["corrupt"]:
            text = mangle(rng, text)
        for _ in range(2 if rng.random() < r["dup"] else 1):
            if self.flight and rng.random() < r["reorder"]:
                self.flight.insert(rng.randrange(len(self.flight)), (frm, to, text))
            else:
                self.flight.append((frm, to, text))

    def post_host(self, sends):
        for to, text in sends:
            if to == self.peer:
                self.scan(text)
                self.to_guest.append(text)
            self._queue(HOST, to, text)

    def post_guest(self, sends):
        for to, text in sends:
            assert to == HOST
            self._queue(self.peer, HOST, text)

    def deliver(self):
        frm, to, text = self.flight.pop(0)
        if to == HOST:
            self.check_reveal(text)
            self.post_host(self.host.receive(frm, text))
        elif to == self.peer:
            self.post_guest(self.guest.receive(text))

    def flush(self):
        while self.flight:
            self.deliver()

    # -- what the guest may see -------------------------------------------------------------
    def scan(self, text):
        """A host message to the guest holds only what the guest's seat may see now."""
        msg = json.loads(text)
        kind = msg["type"]
        assert set(msg) <= set(TO_GUEST[kind]) | {"type", "seq", "sum"}, msg.keys()
        host, state = self.host, self.host.state
        if kind == "error":
            self.codes.append(msg["code"])
            assert msg["code"] != "internal", msg
        if kind != "end":
            assert host.secret.hex() not in text, "the secret before the end"
            if state is not None:
                assert str(state.seed) not in text, "the seed before the end"
            nonces = [r[1] for r in (host.step or {}).get("reveals", {}).values()]
            nonces += [n for s in host.steps.values() for n in s["nonces"].values()]
            for nonce in nonces:
                assert nonce not in text, "a choice's nonce before the end"
        else:
            assert state is not None and state.is_over()
        if kind in ("update", "state") and "view" in msg and self.honest:
            assert msg["view"] == plain(state.view(GSEAT))
            assert msg["legal"] == state.legal_actions(GSEAT)
            assert msg["events"] == plain(state.events(GSEAT, msg["start"]))
            assert msg["to_move"] == state.to_move()
        if kind == "commits":
            assert all(len(h) == 64 for h in msg["commits"].values())
            step = host.step
            if msg["complete"]:
                assert sorted(msg["commits"]) == sorted(str(s) for s in msg["movers"])
                if host.seat in msg["movers"]:
                    assert msg["commits"][str(host.seat)] == step["commits"][host.seat]
                self.complete_sent.add(msg["ply"])

    def check_reveal(self, text):
        """The guest reveals only after the host showed every commitment, its own too."""
        try:
            msg = unpack(text)
        except ValueError:
            return
        if msg["type"] == "reveal" and msg.get("ply") == self.host.ply:
            assert msg["ply"] in self.complete_sent

    # -- playing ----------------------------------------------------------------------------
    def tick(self, act_rate=0.5):
        """One step: deliver a message, or let a bot choose, or the guest poll when idle."""
        host, guest, rng = self.host, self.guest, self.rng
        if self.flight and rng.random() < 0.85:
            self.deliver()
            return
        moved = False
        if host.legal and rng.random() < act_rate:
            self.post_host(host.act(self.bots[0].choose(host.view, host.legal)))
            moved = True
        if guest.legal and rng.random() < act_rate:
            self.post_guest(guest.act(self.bots[1].choose(guest.view, guest.legal)))
            moved = True
        if not moved and not self.flight and not host.legal and not guest.legal:
            self.post_guest(guest.poll())

    def done(self):
        return self.host.over and self.guest.verdict is not None and not self.flight

    def play(self, until=None, limit=40_000):
        until = until or self.done
        for _ in range(limit):
            if until():
                return
            self.tick()
        raise AssertionError("the game did not finish")

    def check_same_end(self):
        host, guest = self.host, self.guest
        assert guest.over and host.over
        assert guest.outcome == plain(host.outcome)
        assert guest.view == plain(host.state.view(GSEAT))
        assert guest.events == plain(host.state.events(GSEAT))


def host_but_its_counts(host):
    """Everything that matters in a host, but the count of messages it has sent."""
    data = json.loads(host.to_json())
    for info in data["seats"].values():
        del info["out"]
    return data


# -- whole games ---------------------------------------------------------------------------
@pytest.mark.parametrize("game_id", GAME_IDS)
def test_whole_games_over_a_bad_network(game_id):
    combos = option_combos(pygames.get_game(game_id))
    codes = set()
    for n in range(BAD_GAMES):
        table = Table(game_id, 100 + n, options=combos[n % len(combos)])
        table.play()
        table.check_same_end()
        assert table.guest.verdict.ok, table.guest.verdict.problems
        codes.update(table.codes)
    assert codes & {"corrupt", "not_json", "replayed", "stale"}, "the network was too kind"


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_clean_network_needs_no_error_and_no_resync(game_id):
    table = Table(game_id, 7, bad=False)
    table.play()
    table.check_same_end()
    assert table.guest.verdict == (True, [])
    assert table.codes == []
    kinds = [json.loads(t)["type"] for t in table.to_guest]
    assert kinds.count("state") == 2  # one before the seed, one at the start
    assert kinds[-1] == "end"


# -- bad messages --------------------------------------------------------------------------
def started(game_id, seed=3):
    table = Table(game_id, seed, bad=False)
    table.flush()
    assert table.guest.started
    return table


def raw(table, kind, **fields):
    """A message from the guest's connection, with the guest's next seq."""
    table.guest.out_seq += 1
    return pack({"type": kind, "seq": table.guest.out_seq, **fields})


def refused(table, text, code):
    """The host answers ``text`` with one error ``code`` and changes nothing."""
    before = host_but_its_counts(table.host)
    sends = table.host.receive(table.peer, text)
    assert len(sends) == 1, sends
    msg = unpack(sends[0].text, 1 << 20)
    assert (msg["type"], msg["code"]) == ("error", code), msg
    assert msg["message"]
    assert host_but_its_counts(table.host) == before
    table.post_host(sends)
    table.flush()
    return msg


def advance(table, until):
    """Play on (cleanly) until ``until(host)``; False if the game ended first."""
    for _ in range(5000):
        if until(table.host) and not table.flight:
            return True
        if table.host.over:
            return False
        table.tick(act_rate=1.0)
    raise AssertionError("stuck")


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_malformed_oversized_and_replayed_messages_are_refused(game_id):
    table = started(game_id)
    ply = table.host.ply
    refused(table, "{not json", "not_json")
    refused(table, "NaN", "not_json")
    refused(table, "[1, 2]", "malformed")
    refused(table, 42, "malformed")
    refused(table, json.dumps({"type": "resync", "seq": 99}), "malformed")  # no sum
    good = raw(table, "resync")
    refused(table, good.replace('"resync"', '"resynC"'), "corrupt")
    refused(table, raw(table, "teleport"), "unknown_type")
    refused(table, raw(table, "act", ply=str(ply), action="x"), "malformed")
    refused(table, raw(table, "act", ply=ply, action="x", extra=1), "malformed")
    refused(table, raw(table, "commit", ply=ply, hash="zz"), "malformed")
    refused(table, raw(table, "act", ply=ply, action="x" * MAX_MESSAGE), "too_big")
    refused(table, raw(table, "join", v=99, token="0" * 32, conn="0" * 16), "version")
    # A message the host accepted, sent again: refused as a replay.
    accepted = raw(table, "resync")
    table.post_host(table.host.receive(table.peer, accepted))
    table.flush()
    refused(table, accepted, "replayed")
    # A connection that never joined.
    sends = table.host.receive("stranger", raw(table, "resync"))
    assert unpack(sends[0].text)["code"] == "not_joined"
    assert unpack(sends[0].text)["seq"] == 0
    # The game goes on.
    table.play()
    table.check_same_end()
    assert table.guest.verdict.ok, table.guest.verdict.problems


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_out_of_turn_stale_and_illegal_messages_are_refused(game_id):
    table = started(game_id)
    host, guest = table.host, table.guest
    seen = set()
    bad_action = "not an action"
    for _ in range(400):
        if host.over:
            break
        movers = host.to_move
        if movers == [host.seat] and "host" not in seen:
            seen.add("host")
            refused(table, raw(table, "act", ply=host.ply, action=host.legal[0]),
                    "not_your_turn")
            refused(table, raw(table, "commit", ply=host.ply, hash="0" * 64),
                    "not_your_turn")
        elif movers == [GSEAT] and "guest" not in seen:
            seen.add("guest")
            refused(table, raw(table, "act", ply=host.ply, action=bad_action), "illegal")
            refused(table, raw(table, "act", ply=host.ply + 1, action=guest.legal[0]),
                    "stale")
            refused(table, raw(table, "commit", ply=host.ply, hash="0" * 64), "wrong_step")
            refused(table, raw(table, "act", ply=host.ply, action=guest.legal[0], seat=0),
                    "not_your_seat")
        elif len(movers) > 1 and GSEAT in movers and "sim" not in seen and not host.step:
            seen.add("sim")
            ply, action = host.ply, guest.legal[0]
            nonce = "ab" * 16
            refused(table, raw(table, "act", ply=ply, action=action), "wrong_step")
            refused(table, raw(table, "reveal", ply=ply, action=action, nonce=nonce),
                    "no_commitment")
            h = commit_hash(ply, GSEAT, action, nonce)
            table.post_host(host.receive(table.peer, raw(table, "commit", ply=ply, hash=h)))
            table.flush()
            refused(table, raw(table, "commit", ply=ply, hash="1" * 64), "already_committed")
            if host.seat in movers and host.chosen is None:
                refused(table, raw(table, "reveal", ply=ply, action=action, nonce=nonce),
                        "too_early")
                table.post_host(host.act(host.legal[0]))
                table.flush()
            other = [a for a in guest._legal if a != action][0]
            msg = refused(table, raw(table, "reveal", ply=ply, action=other, nonce=nonce),
                          "reveal_mismatch")
            assert "commitment" in msg["message"]
            refused(table, raw(table, "reveal", ply=ply, action=action, nonce=nonce,
                               seat=host.seat), "not_your_seat")
            # The honest guest knows nothing of this commitment: play it for it.
            table.post_host(host.receive(table.peer, raw(table, "reveal", ply=ply,
                                                         action=action, nonce=nonce)))
            guest.sent[ply] = action
            guest.pending = {"ply": ply, "kind": "commit", "action": action,
                             "nonce": nonce, "hash": h, "revealed": True}
            guest._step_commits[ply] = {str(s): host.steps[ply]["commits"][s]
                                        for s in movers}
            table.flush()
            assert host.ply > ply
        table.tick(act_rate=1.0)
    assert seen, "no point of the game was tried"
    table.play()
    refused(table, raw(table, "act", ply=host.ply, action="x"), "game_over")
    table.check_same_end()
    assert guest.verdict.ok, guest.verdict.problems


def test_every_kind_of_turn_is_tried_by_some_game():
    kinds = set()
    for game_id in GAME_IDS:
        table = started(game_id)
        while not table.host.over:
            movers = table.host.to_move
            kinds.add("sim" if len(movers) > 1 else "host" if movers == [0] else "guest")
            table.tick(act_rate=1.0)
    assert kinds == {"sim", "host", "guest"}


def test_an_illegal_reveal_drops_the_commitment_so_the_guest_chooses_again():
    table = started("kiriai")
    host = table.host
    ply, nonce = host.ply, "cd" * 16
    h = commit_hash(ply, GSEAT, "QQ", nonce)
    table.post_host(host.receive(table.peer, raw(table, "commit", ply=ply, hash=h)))
    table.post_host(host.act(host.legal[0]))
    sends = host.receive(table.peer, raw(table, "reveal", ply=ply, action="QQ", nonce=nonce))
    msg = unpack(sends[0].text)
    assert msg["code"] == "illegal" and "not a program" in msg["message"]
    assert GSEAT not in host.step["commits"] and host.ply == ply
    table.post_host(sends)
    table.play()
    assert table.guest.verdict.ok


# -- cheats --------------------------------------------------------------------------------
class ChangesItsChoice(Host):
    """Plays another choice than the one it committed to, once it has seen the reveal."""

    def _resolve_step(self, step):
        if self.seat in step["reveals"]:
            action, nonce = step["reveals"][self.seat]
            others = [a for a in self.state.legal_actions(self.seat) if a != action]
            if others:
                step["reveals"][self.seat] = [others[0], nonce]
        return super()._resolve_step(step)


class ChangesItsSecret(Host):
    def _end_msg(self):
        msg = super()._end_msg()
        msg["secret"] = bytes(32).hex()
        return msg


class ShowsAnotherView(Host):
    """Once, sends the guest a view that is not the engine's (consistently hashed)."""

    lied = False

    def _update_msg(self, seat):
        msg = super()._update_msg(seat)
        if not self.lied and self.ply >= 1:
            self.lied = True
            msg["view"] = {**msg["view"], "round": 99}
            count, digest = self._digest[seat]
            picture = {k: msg[k] for k in ("ply", "to_move", "view", "legal", "over",
                                           "outcome")}
            msg["hash"] = picture_hash({**picture, "events": digest})
        return msg


def cheat_problems(game_id, host_cls, seed=5):
    table = Table(game_id, seed, bad=False, host_cls=host_cls)
    table.honest = host_cls is not ShowsAnotherView
    table.play()
    verdict = table.guest.verdict
    assert not verdict.ok
    return " ".join(verdict.problems)


# (only games where players choose at once have commitments to break)
@pytest.mark.parametrize("game_id", [g for g in GAME_IDS if has_simultaneous_choices(g)])
def test_a_host_that_changes_its_choice_after_the_reveal_is_found_out(game_id):
    problems = cheat_problems(game_id, ChangesItsChoice)
    assert "The choice of the host at ply" in problems
    assert "does not match the commitment" in problems


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_host_that_changes_its_secret_is_found_out(game_id):
    problems = cheat_problems(game_id, ChangesItsSecret)
    assert "secret does not match the commitment" in problems
    assert "seed is not the one" in problems


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_host_that_shows_a_view_the_record_does_not_give_is_found_out(game_id):
    problems = cheat_problems(game_id, ShowsAnotherView)
    assert "What you were shown at ply" in problems


# -- end messages that cannot be checked: never a silent "Checking…" ------------------------
def _other_game(game_id):
    return next(g for g in GAME_IDS if g != game_id)


def _illegal_last(msg):
    msg["record"]["actions"][-1][1] = "no such action"


def _no_actions(msg):
    msg["record"]["actions"] = msg["record"]["actions"][: len(msg["record"]["actions"]) // 2]


#: What a cheating (or broken) host may send as its end message, as a change of the real
#: one (``msg`` is the packed message as a dict; None: the text itself is changed below).
BAD_ENDS = {
    "missing secret": lambda msg: msg.pop("secret"),
    "missing record": lambda msg: msg.pop("record"),
    "record not an object": lambda msg: msg.update(record=[1, 2, 3]),
    "record without seed": lambda msg: msg["record"].pop("seed"),
    "record seed not a number": lambda msg: msg["record"].update(seed="x"),
    "record of another game": lambda msg: msg["record"].update(game=_other_game(
        msg["record"]["game"])),
    "record does not replay": _illegal_last,
    "truncated record": _no_actions,
    "actions not a list": lambda msg: msg["record"].update(actions="C"),
    "another match": lambda msg: msg.update(match=msg["match"] + 1),
    "values not an object": lambda msg: msg.update(values=[]),
    "extra field": lambda msg: msg.update(note="x"),
    "oversized": lambda msg: msg["record"].update(pad="x" * (1024 * 1024)),
    "cut short in every copy": None,
}


class SendsABadEnd(Host):
    """Sends every end message changed by ``how`` (a key of BAD_ENDS), with a right sum
    unless the text itself is cut short."""

    how = ""

    def _send(self, seat, msg):
        out = super()._send(seat, msg)
        if msg["type"] != "end" or not out:
            return out
        change = BAD_ENDS[self.how]
        text = out[0].text
        if change is None:
            text = text[: len(text) // 2]
        else:
            data = json.loads(text)
            change(data)
            text = pack(data)
        return [out[0]._replace(text=text)]


@pytest.mark.parametrize("how", sorted(BAD_ENDS))
def test_an_end_message_that_cannot_be_checked_is_shown_as_not_verified(how):
    game_id = GAME_IDS[sorted(BAD_ENDS).index(how) % len(GAME_IDS)]  # every game in turn
    host_cls = type("Bad", (SendsABadEnd,), {"how": how})
    table = Table(game_id, 11, bad=False, host_cls=host_cls)
    table.honest = False
    scan = table.scan

    def scan_all_but_the_end(text):  # the bad end breaks the scanner's own rules
        try:
            if json.loads(text)["type"] == "end":
                return
        except ValueError:
            return
        scan(text)

    table.scan = scan_all_but_the_end
    table.play()
    verdict = table.guest.verdict
    assert verdict is not None and not verdict.ok and verdict.problems, how
    assert not table.guest.awaiting_end  # nothing left to wait for: the screen can say so
    assert table.guest.record is None  # nothing that does not replay is offered to share
    # What it was is said (one readable sentence at least), and a reload keeps the verdict.
    assert all(isinstance(p, str) and p.endswith(".") for p in verdict.problems)
    again = Guest.from_json(table.guest.to_json())
    assert again.verdict == verdict and again.record is None



def test_a_host_that_never_sends_the_end_is_not_verified_and_a_late_end_still_counts():
    class KeepsItsEnd(Host):
        hold = True

        def _send(self, seat, msg):
            if msg["type"] == "end" and self.hold:
                self.info_out = self.seats[seat]["out"]
                return []
            return super()._send(seat, msg)

    table = Table("kiriai", 3, bad=False, host_cls=KeepsItsEnd)
    table.play(until=lambda: table.guest.over and not table.flight)
    guest = table.guest
    assert guest.verdict is None and guest.awaiting_end
    guest.end_missing()  # the page waited long enough
    assert not guest.verdict.ok and "has not sent" in guest.verdict.problems[0]
    assert guest.awaiting_end  # a real end may still come
    table.host.hold = False
    table.post_guest(guest.poll())
    table.flush()
    assert guest.verdict == (True, []) and guest.record is not None


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_host_that_plays_for_the_guest_is_found_out(game_id):
    table = started(game_id)
    host = table.host
    assert advance(table, lambda h: GSEAT in h.to_move and not h.step)
    movers = host.to_move
    host.step = None
    # what the guest is about to send (its bot's next choice): the host plays another
    guess = copy.deepcopy(table.bots[1]).choose(table.guest.view, table.guest.legal)
    host._apply([(s, next(a for a in reversed(host.state.legal_actions(s))
                          if s != GSEAT or a != guess)) for s in sorted(movers)])
    table.post_host(host._after_change())
    table.play()
    problems = " ".join(table.guest.verdict.problems)
    assert "for your seat" in problems and "that you did not send" in problems


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_guest_cannot_act_for_the_host(game_id):
    table = started(game_id)
    host = table.host
    assert advance(table, lambda h: h.seat in h.to_move)
    kind = "act" if len(host.to_move) == 1 else "commit"
    field = {"action": host.legal[0]} if kind == "act" else {"hash": "0" * 64}
    msg = refused(table, raw(table, kind, ply=host.ply, seat=host.seat, **field),
                  "not_your_seat")
    assert "seat 1" in msg["message"]


# -- resume --------------------------------------------------------------------------------
def reload_host(table):
    saved = table.host.to_json()
    table.host = type(table.host).from_json(saved, random_bytes=table.rng.randbytes)
    table.flight = [m for m in table.flight if m[1] != HOST]  # lost with the old page
    table.peer = table.peer + "'"
    table.post_guest(table.guest.join())


def reload_guest(table, keep):
    old = table.guest
    if keep:
        table.guest = Guest.from_json(old.to_json(), random_bytes=table.rng.randbytes)
    else:
        table.guest = Guest(token=old.token, random_bytes=table.rng.randbytes)
    table.flight = [m for m in table.flight if m[1] != table.peer]
    table.peer = table.peer + "'"
    table.post_guest(table.guest.join())


@pytest.mark.parametrize("game_id", GAME_IDS)
@pytest.mark.parametrize("bad", [False, True], ids=["clean", "bad"])
def test_the_host_is_saved_and_restored_mid_game(game_id, bad):
    table = Table(game_id, 11, bad=bad)
    table.play(until=lambda: table.host.ply >= 4)
    reload_host(table)
    # Once more while the host's own simultaneous choice waits (its nonce must survive).
    if advance(table, lambda h: h.chosen is not None):
        reload_host(table)
    table.play()
    table.check_same_end()
    assert table.guest.verdict.ok, table.guest.verdict.problems


@pytest.mark.parametrize("game_id", GAME_IDS)
@pytest.mark.parametrize("keep", [True, False], ids=["saved", "token-only"])
def test_the_guest_reloads_mid_game(game_id, keep):
    table = Table(game_id, 12)
    table.play(until=lambda: table.host.ply >= 3)
    seat = table.guest.seat
    reload_guest(table, keep)
    table.play(until=lambda: table.guest.started and table.guest.seat is not None)
    assert table.guest.seat == seat
    table.play()
    table.check_same_end()
    assert table.guest.verdict.ok, table.guest.verdict.problems
    if not keep:
        assert table.guest.history_from >= 3


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_second_joiner_is_told_the_seat_is_taken(game_id):
    table = started(game_id)
    intruder = Guest()
    sends = table.host.receive("tab2", intruder.join()[0].text)
    msg = unpack(sends[0].text)
    assert (msg["type"], msg["code"], msg["seq"]) == ("error", "seat_taken", 0)
    intruder.receive(sends[0].text)
    assert intruder.seat is None and intruder.last_error[0] == "seat_taken"
    # With the token, a second tab takes the seat over; the first is told so at once (and
    # the transport may close it: Host.moved_peers), then refused.
    twin = Guest(token=table.guest.token)
    sends = table.host.receive("tab3", twin.join()[0].text)
    assert [(s.to, unpack(s.text, 1 << 20)["type"]) for s in sends] == [
        (table.peer, "error"), ("tab3", "welcome"), ("tab3", "state")]
    assert unpack(sends[0].text)["code"] == "seat_taken" and unpack(sends[0].text)["seq"] == 0
    assert table.host.moved_peers() == {table.peer}
    sends = table.host.receive(table.peer, table.guest.poll()[0].text)
    assert unpack(sends[0].text)["code"] == "seat_taken"
    assert table.guest.receive(sends[0].text) == []  # no fight over the seat


# -- rematch -------------------------------------------------------------------------------
@pytest.mark.parametrize("game_id", GAME_IDS)
def test_rematch_makes_a_new_seed_the_same_way(game_id):
    table = Table(game_id, 21)
    table.play()
    first = table.host.state.record()
    with pytest.raises(ValueError):
        Host(game_id).rematch()
    table.post_host(table.host.rematch())
    assert table.host.match == 2 and not table.host.started
    table.play(until=lambda: table.guest.match == 2 and table.guest.started)
    assert table.guest.verdict is None and table.guest.events[:1] == plain(
        table.host.state.events(GSEAT))[:1]
    table.play()
    table.check_same_end()
    assert table.guest.verdict.ok, table.guest.verdict.problems
    assert table.host.state.record()["seed"] != first["seed"]
    assert table.guest.seat == GSEAT



def test_a_lost_rematch_state_is_found_by_the_guests_poll():
    """After a checked game the guest's poll asks only whether a rematch began (a ping);
    if the rematch's state was lost on the way, the pong's match number brings it."""
    table = Table("kiriai", 5, bad=False)
    table.play()
    assert table.guest.verdict.ok
    table.host.rematch()                      # its state message is lost
    sent = table.guest.poll()
    assert [json.loads(s.text)["type"] for s in sent] == ["ping"]
    table.post_guest(sent)
    table.play(until=lambda: table.guest.match == 2 and table.guest.started)
    table.play()
    table.check_same_end()
    assert table.guest.verdict.ok

# -- the local API -------------------------------------------------------------------------
def test_local_choices_out_of_turn_raise():
    table = started("kiriai")
    host, guest = table.host, table.guest
    with pytest.raises(IllegalAction):
        host.act("QQ")
    with pytest.raises(IllegalAction):
        guest.act("QQ")
    table.post_guest(guest.act(guest.legal[0]))
    assert guest.legal == [] and guest.chosen is not None
    with pytest.raises(IllegalAction):
        guest.act(guest._legal[0])
    table.post_host(host.act(host.legal[0]))
    assert host.legal == [] and host.chosen is not None
    table.flush()
    assert host.ply == 2 and guest.ply == 2 and guest.chosen is None


# -- a star of three seats (a toy game: no registered game has three players yet) --------
class BidGame(pygames.Game):
    """Three players bid 0–3 at once; the highest (lowest seat on ties) then scores 1 or 2."""

    id = "bid3"
    names = {"en": "Bid", "ja": "ビッド"}
    min_players = max_players = 3

    def new_game(self, *, seed, players=3, options=None):
        return super().new_game(seed=seed, players=players, options=options)

    def _new_state(self, seed, players, options):
        return BidState(self, seed, players, options)


class BidState(pygames.State):
    def __init__(self, game, seed, players, options):
        super().__init__(game, seed, players, options)
        self.bids, self.chooser, self.scores, self.round = [None] * 3, None, [0] * 3, 1

    def to_move(self):
        if self.round > 3:
            return []
        if self.chooser is not None:
            return [self.chooser]
        return [p for p in range(3) if self.bids[p] is None]

    def legal_actions(self, player):
        if player not in self.to_move():
            return []
        return ["1", "2"] if self.chooser is not None else ["0", "1", "2", "3"]

    def _apply(self, player, action):
        if self.chooser is not None:
            self.scores[player] += int(action)
            self.log.append({"t": "score", "p": player, "n": int(action)})
            self.chooser, self.bids, self.round = None, [None] * 3, self.round + 1
            return
        self.bids[player] = int(action)
        if None not in self.bids:
            self.chooser = max(range(3), key=lambda p: (self.bids[p], -p))
            self.log.append({"t": "bids", "bids": list(self.bids)})

    def is_over(self):
        return self.round > 3

    def outcome(self):
        if not self.is_over():
            return None
        best = max(self.scores)
        return {"winners": [p for p in range(3) if self.scores[p] == best],
                "ranks": [1 + sum(s > x for s in self.scores) for x in self.scores],
                "scores": list(self.scores), "reason": "rounds"}

    def view(self, player):
        return {"round": self.round, "scores": list(self.scores), "chooser": self.chooser,
                "mine": None if player is None else self.bids[player],
                "ready": [b is not None for b in self.bids]}


def test_a_star_of_three_seats(monkeypatch):
    monkeypatch.setitem(pygames._GAMES, "bid3", BidGame())  # for get_game() only
    rng = random.Random(3)
    host = Host("bid3", players=3, seat=1, random_bytes=rng.randbytes)
    guests = {"p0": Guest(random_bytes=rng.randbytes), "p2": Guest(random_bytes=rng.randbytes)}
    bots = [RandomBot(s) for s in range(3)]
    flight = []

    def post(frm, sends):
        flight.extend((frm, s.to, s.text) for s in sends)

    def flush():
        while flight:
            frm, to, text = flight.pop(0)
            if to == HOST:
                post(HOST, host.receive(frm, text))
            else:
                msg = json.loads(text)
                assert msg["type"] != "error", msg
                if "view" in msg:  # each guest sees only its own seat
                    seat = msg.get("seat", guests[to].seat)
                    assert msg["view"] == plain(host.state.view(seat))
                post(to, guests[to].receive(text))

    for peer, guest in guests.items():
        post(peer, guest.join())
        flush()
        assert not host.started or peer == "p2"
    assert host.started and sorted(g.seat for g in guests.values()) == [0, 2]
    while not host.over:
        if host.legal:
            post(HOST, host.act(bots[1].choose(host.view, host.legal)))
        for peer, guest in guests.items():
            if guest.legal:
                post(peer, guest.act(bots[guest.seat].choose(guest.view, guest.legal)))
        flush()
    assert len(host.steps) == 3 and all(s["movers"] == [0, 1, 2] for s in host.steps.values())
    for guest in guests.values():
        assert guest.verdict == (True, []) and guest.outcome == plain(host.outcome)
    # A fourth joiner finds no seat.
    sends = host.receive("p3", Guest().join()[0].text)
    assert unpack(sends[0].text)["code"] == "seat_taken"


# -- nothing makes either side raise --------------------------------------------------------
@pytest.mark.parametrize("game_id", GAME_IDS)
def test_mangled_and_misplaced_messages_never_raise(game_id):
    rng = random.Random(9)
    table = Table(game_id, 9, bad=False)
    table.play(until=lambda: table.host.ply >= 2)
    to_host = [table.guest.poll()[0].text, raw(table, "act", ply=1, action="x"),
               raw(table, "reveal", ply=2, action="1", nonce="0" * 32)]
    to_guest = table.to_guest[-12:]
    for _ in range(1500):
        text = mangle(rng, rng.choice(to_host))
        for _to, reply in table.host.receive(rng.choice([table.peer, "x"]), text):
            assert unpack(reply, 1 << 20)["type"] in ("error", "state")  # " " appended: fine
        msg = json.loads(rng.choice(to_guest))
        key = rng.choice(sorted(msg))
        msg[key] = rng.choice([None, 1, "x", [], {}, -1, True, {"a": [1]}])
        for text in (mangle(rng, rng.choice(to_guest)), pack(msg)):
            table.guest.receive(text)
    assert "internal" not in table.codes
    table.flight.clear()
    table.play()
    table.check_same_end()
    assert table.guest.verdict.ok, table.guest.verdict.problems
