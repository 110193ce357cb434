"""Spectators of link play (``pygames.session.Spectator``) for every registered game.

Whole games between random bots through a Host, a Guest and two Spectators over an
in-memory network (clean, or one that drops, duplicates, reorders and corrupts). Every
message meant for a spectator is checked when the host sends it, against the host's state
at that moment: each field is exactly what nobody's seat may know (``view(None)``, the
spectator's copy of the events, the public ply, movers and outcome), nothing the protocol
does not name, no secret, seed value, commitment or nonce, and its raw text holds none of
the values a seat sees that a spectator does not (a hand's cards, a face-down card). Hosts
that leak are shown to be caught. Then: a spectator can neither take a seat nor act, late
and reloaded spectators catch up, spectators change nothing of the game and never hold it
up, they follow rematches, a host's reload and a seat given to a bot.
"""

from __future__ import annotations

import json
import random

import pytest
from helpers.protocol import option_combos
from helpers.spectate import check_spectator_message, leaked, plain

import pygames
from pygames.bots import RandomBot
from pygames.session import (
    HOST,
    MAX_HOST_MESSAGE,
    Guest,
    Host,
    Spectator,
    pack,
    unpack,
)

GAME_IDS = pygames.game_ids()
GSEAT = 1   # the guest's seat (the host plays seat 0, its bots any seat after the guest's)


def mangle(rng, text):
    how = rng.randrange(3)
    if how == 0:
        i = rng.randrange(len(text))
        return text[:i] + rng.choice("0123456789abcdef{}[]\",:x") + text[i + 1:]
    if how == 1:
        return text[:rng.randrange(len(text))]
    return text + rng.choice(["}", "x", "\x00", " "])


# -- a table with spectators -------------------------------------------------------------------
class Watched:
    """One host (seat 0, its bots after the guest's seat), one guest, spectators and a
    network between them, each party with its own seeded randomness."""

    def __init__(self, game_id, seed, *, options=None, players=2, spectators=2, bad=False,
                 host_cls=Host, deliver_to_spectators=True):
        self.rng = random.Random(seed)
        self.net = random.Random(seed + 1)
        bots = list(range(GSEAT + 1, players))
        self.host = host_cls(game_id, options=options, players=players, bots=bots,
                             random_bytes=random.Random(seed + 2).randbytes)
        self.guest = Guest(random_bytes=random.Random(seed + 3).randbytes)
        self.peer = "g1"
        self.bots = {p: RandomBot(seed + 10 + p) for p in range(players)}
        self.rates = (dict(drop=0.08, dup=0.05, corrupt=0.05, reorder=0.12) if bad
                      else dict(drop=0, dup=0, corrupt=0, reorder=0))
        self.open = deliver_to_spectators
        self.flight: list[tuple[str, str, str]] = []
        self.specs: dict[str, Spectator] = {}
        self.spec_rng = random.Random(seed + 4)
        self.checked = 0
        self.kinds: list[str] = []   # every kind of message a spectator was sent
        self.post_guest(self.guest.join())
        for n in range(spectators):
            self.add_spectator(f"w-{n}")

    def add_spectator(self, peer, spectator=None):
        """A spectator's connection opens: the transport marks it, the spectator watches."""
        spectator = spectator or Spectator(random_bytes=self.spec_rng.randbytes)
        self.specs[peer] = spectator
        self.host.add_watcher(peer)
        self.post_from(peer, spectator.watch())
        return spectator

    # -- the network ------------------------------------------------------------------------
    def _queue(self, frm, to, text):
        r, rng = self.rates, self.net
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
            if to in self.specs or to.startswith("w-"):
                check_spectator_message(self.host, text)
                self.checked += 1
                self.kinds.append(json.loads(text)["type"])
                if not self.open:
                    continue
            self._queue(HOST, to, text)

    def post_guest(self, sends):
        self.post_from(self.peer, sends)

    def post_from(self, peer, sends):
        for to, text in sends:
            assert to == HOST
            self._queue(peer, HOST, text)

    def deliver(self):
        frm, to, text = self.flight.pop(0)
        if to == HOST:
            self.post_host(self.host.receive(frm, text))
        elif to == self.peer:
            self.post_guest(self.guest.receive(text))
        elif to in self.specs:
            self.post_from(to, self.specs[to].receive(text))

    def flush(self):
        while self.flight:
            self.deliver()

    # -- playing ----------------------------------------------------------------------------
    def tick(self, act_rate=0.5):
        host, guest, rng = self.host, self.guest, self.rng
        if self.flight and rng.random() < 0.85:
            self.deliver()
            return
        moved = False
        for seat in sorted(host.own_seats):
            if host.legal_for(seat) and rng.random() < act_rate:
                view = host.state.view(seat)
                self.post_host(host.act(self.bots[seat].choose(view, host.legal_for(seat)),
                                        seat=seat))
                moved = True
        if guest.legal and rng.random() < act_rate:
            self.post_guest(guest.act(self.bots[GSEAT].choose(guest.view, guest.legal)))
            moved = True
        if not moved and not self.flight:
            if not guest.legal and not any(host.legal_for(s) for s in host.own_seats):
                self.post_guest(guest.poll())
            for peer, spectator in self.specs.items():   # an idle spectator checks in
                if self.open and (spectator.ply != host.ply or not spectator.watching):
                    self.post_from(peer, spectator.poll())

    def done(self):
        return (self.host.over and self.guest.verdict is not None and not self.flight
                and all(self.caught_up(s) for s in self.specs.values()))

    def caught_up(self, spectator):
        return not self.open or (spectator.over and spectator.ply == self.host.ply
                                 and spectator.match == self.host.match)

    def play(self, until=None, limit=60_000):
        until = until or self.done
        for _ in range(limit):
            if until():
                return
            self.tick()
        raise AssertionError("the game did not finish")

    def check_spectators(self):
        """Every spectator holds exactly nobody's picture of the host's game now."""
        state = self.host.state
        for peer, s in self.specs.items():
            assert s.match == self.host.match, peer
            assert s.view == plain(state.view(None)), peer
            assert s.events == plain(state.events(None)), peer
            assert (s.ply, s.to_move, s.over) == (self.host.ply, state.to_move(),
                                                  state.is_over()), peer
            assert s.outcome == plain(self.host.outcome), peer
            assert s.kinds == self.host.seat_kinds() and s.game_id == self.host.game.id
            assert s.legal == [] and s.seat is None and s.record is None


def host_but_its_counts(host):
    data = json.loads(host.to_json())
    for info in data["seats"].values():
        del info["out"]
    return data


def started(game_id, seed=3, **kw):
    table = Watched(game_id, seed, **kw)
    table.flush()
    assert table.guest.started and all(s.started for s in table.specs.values())
    return table


def play_until(table, until):
    """Play on (cleanly) until ``until(host)``; False if the game ended first."""
    for _ in range(20_000):
        if until(table.host) and not table.flight:
            return True
        if table.host.over:
            return False
        table.tick(act_rate=1.0)
    raise AssertionError("stuck")


# -- whole games ----------------------------------------------------------------------------
@pytest.mark.parametrize("game_id", GAME_IDS)
def test_two_spectators_watch_whole_games_and_see_only_what_nobody_sees(game_id):
    game = pygames.get_game(game_id)
    combos = option_combos(game)
    for n in range(3):
        table = Watched(game_id, 500 + n, options=combos[n % len(combos)])
        table.play()
        table.check_spectators()
        assert table.guest.verdict.ok, table.guest.verdict.problems
        # Nothing but the picture: no commitments, and no end (its record holds every card).
        assert set(table.kinds) == {"spectate", "update"}, set(table.kinds)
        assert table.kinds.count("spectate") == 2 * 2   # on watch, then at the start
        assert table.checked > 2 * table.host.ply // 2


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_spectators_catch_up_over_a_bad_network(game_id):
    combos = option_combos(pygames.get_game(game_id))
    for n in range(2):
        table = Watched(game_id, 700 + n, options=combos[n % len(combos)], bad=True)
        table.play()
        table.check_spectators()
        assert table.guest.verdict.ok, table.guest.verdict.problems


def test_spectators_of_a_game_for_three_with_a_bot_seat():
    game_id = next(g for g in GAME_IDS if pygames.get_game(g).max_players >= 3)
    table = Watched(game_id, 31, players=3)
    table.play()
    table.check_spectators()
    assert table.specs["w-0"].kinds == ["host", "guest", "bot"]


def test_the_checker_finds_hidden_cards_in_a_message():
    """The check is real: a host that shows a spectator seat 0's view, or the events as a
    seat or an open replay sees them, fails it (with the raw text scan alone too)."""
    found = 0
    for game_id in GAME_IDS:
        if pygames.get_game(game_id).perfect_information:
            continue
        table = started(game_id, 9)
        play_until(table, lambda h: h.ply >= 4)
        host, state = table.host, table.host.state
        good = host._watch_full("w-0")[0].text
        check_spectator_message(host, good)
        msg = unpack(good, MAX_HOST_MESSAGE)
        leaks = {"seat 0's view": {**msg, "view": plain(state.view(0))},
                 "seat 0's events": {**msg, "events": plain(state.events(0))},
                 "every event": {**msg, "events": plain(state.open_events())}}
        for name, bad in leaks.items():
            text = pack(bad)
            if text == pack(msg):
                continue   # nothing hidden in this part at this point of this game
            with pytest.raises(AssertionError):
                check_spectator_message(host, text)
            needles = leaked(state, text)
            if name == "seat 0's view" and plain(state.view(0)).get("hand"):
                assert needles, f"{game_id}: the scan missed {name}"
            found += bool(needles)
    assert found >= 2


class ShowsASeatsView(Host):
    """Shows spectators seat 0's picture (its hand) instead of nobody's."""

    def _picture(self, seat):
        return super()._picture(0 if seat is None else seat)


class ShowsASeatsEvents(Host):
    """Sends spectators seat 0's copy of the new events (the cards it drew)."""

    def _watch_updates(self):
        out = super()._watch_updates()
        state = self.state
        fixed = []
        for to, text in out:
            msg = unpack(text, MAX_HOST_MESSAGE)
            msg["events"] = plain(state.events(0, msg["start"]))
            fixed.append((to, pack(msg)))
        return fixed


class SendsTheEnd(Host):
    """Sends spectators the end message (its record holds every card of the deal)."""

    def _after_change(self):
        out = super()._after_change()
        if self.over:
            for peer in self.watching:
                out += self._watch_send(peer, self._end_msg())
        return out


def private_events(game_id, seed=1):
    """Whether a random game of ``game_id`` has events that hide something from a
    spectator (a card drawn)."""
    state, rng = pygames.get_game(game_id).new_game(seed=seed), random.Random(seed)
    while not state.is_over():
        for p in state.to_move():
            state.apply(p, rng.choice(state.legal_actions(p)))
    return any("_hide" in e for e in state.log)


SECRET_GAMES = [g for g in GAME_IDS if not pygames.get_game(g).perfect_information]
LEAKS = [(g, cls) for g in SECRET_GAMES for cls in (ShowsASeatsView, SendsTheEnd)]
LEAKS += [(g, ShowsASeatsEvents) for g in SECRET_GAMES if private_events(g)]


@pytest.mark.parametrize(("game_id", "host_cls"), LEAKS,
                         ids=[f"{g}-{cls.__name__}" for g, cls in LEAKS])
def test_a_host_that_leaks_to_spectators_is_caught(game_id, host_cls):
    table = Watched(game_id, 51, host_cls=host_cls)
    with pytest.raises(AssertionError):
        table.play()


# -- a spectator cannot play ---------------------------------------------------------------
def _raw(seq, kind, **fields):
    return pack({"type": kind, "seq": seq, **fields})


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_spectator_cannot_take_a_seat_give_a_seed_or_act(game_id):
    # Before the game starts: no seed value, no seat (the guest's is still free).
    table = Watched(game_id, 41)
    host = table.host
    table.add_spectator("w-x")
    token = "ab" * 16
    for text in (_raw(90, "join", v=1, token=token, conn="1" * 16),
                 _raw(91, "join", v=1, token=token, conn="1" * 16, seat=GSEAT),
                 _raw(92, "seed", match=1, value="cd" * 32)):
        before = host_but_its_counts(host)
        sends = host.receive("w-x", text)
        assert [unpack(s.text)["code"] for s in sends] == ["spectator"]
        check_spectator_message(host, sends[0].text)
        assert host_but_its_counts(host) == before and host.seats == {}
    # A marked connection whose first message is a join is refused the same way.
    host.add_watcher("w-y")
    assert unpack(host.receive("w-y", _raw(1, "join", v=1, token=token, conn="2" * 16))[0]
                  .text)["code"] == "spectator"
    table.flush()
    assert table.guest.seat == GSEAT and host.started
    assert sorted(host.values) == [GSEAT]   # the seed is the guest's value and the secret
    # During the game: nothing a player sends is taken from a spectator.
    play_until(table, lambda h: h.ply >= 2)
    state = host.state
    mover = state.to_move()[0]
    legal = state.legal_actions(mover)
    tries = [_raw(100, "act", ply=host.ply, action=legal[0]),
             _raw(101, "act", ply=host.ply, action=legal[0], seat=mover),
             _raw(102, "commit", ply=host.ply, hash="ef" * 32),
             _raw(103, "reveal", ply=host.ply, action=legal[0], nonce="0" * 32),
             _raw(104, "seed", match=1, value="cd" * 32),
             _raw(105, "join", v=1, token=table.guest.token, conn="3" * 16)]
    for text in tries:
        before, record = host_but_its_counts(host), state.record()
        sends = host.receive("w-x", text)
        assert [unpack(s.text)["code"] for s in sends] == ["spectator"]
        assert host_but_its_counts(host) == before and state.record() == record
        assert host.seat_of("w-x") is None
    assert table.guest.seat == GSEAT and host.seats[GSEAT]["peer"] == "g1"
    # A seated connection does not become a spectator, by either way.
    with pytest.raises(ValueError):
        host.add_watcher("g1")
    sends = host.receive("g1", _raw(999, "watch", v=1, conn="4" * 16))
    assert unpack(sends[0].text)["code"] == "seated" and "g1" not in host.watchers
    table.play()
    table.check_spectators()
    assert table.guest.verdict.ok, table.guest.verdict.problems


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_spectators_change_nothing_and_never_hold_the_game_up(game_id):
    """The same seeds give the same game with no spectator, with two, and with two whose
    messages never arrive (gone, or very slow): the host waits for no spectator."""
    records = []
    for spectators, open_ in ((0, True), (2, True), (2, False)):
        table = Watched(game_id, 61, spectators=spectators, deliver_to_spectators=open_)
        table.play()
        records.append(table.host.state.record())
        if spectators and open_:
            table.check_spectators()
    assert records[0] == records[1] == records[2]


# -- joining late, reloading, following the host -------------------------------------------
@pytest.mark.parametrize("game_id", GAME_IDS)
def test_late_and_reloaded_spectators_catch_up(game_id):
    table = Watched(game_id, 71, bad=True)
    table.play(until=lambda: table.host.ply >= 5)
    table.add_spectator("w-late")               # opens the spectator link mid-game
    # w-0 reloads: a new page on the same connection id (a new conn), w-1 on a new
    # connection, its old one gone; w-2 reloads from what it saved.
    table.flight = [m for m in table.flight if not {"w-0", "w-1"} & {m[0], m[1]}]
    table.add_spectator("w-0")
    table.host.drop("w-1")
    del table.specs["w-1"]
    table.add_spectator("w-1b")
    table.play(until=lambda: table.host.ply >= 8 or table.host.over)
    saved = table.specs["w-late"].to_json()
    table.host.drop("w-late")
    table.flight = [m for m in table.flight if "w-late" not in m[:2]]
    restored = Spectator.from_json(saved)
    assert restored.view == table.specs["w-late"].view and not restored.watching
    del table.specs["w-late"]
    table.add_spectator("w-late2", restored)
    table.play()
    table.check_spectators()
    assert sorted(table.host.watching) == ["w-0", "w-1b", "w-late2"]


def test_a_spectator_that_watches_after_the_end_sees_the_finished_game():
    table = Watched("cardia", 73)
    table.play()
    table.add_spectator("w-after")
    table.flush()
    table.check_spectators()
    assert table.specs["w-after"].over


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_spectators_follow_a_rematch(game_id):
    table = Watched(game_id, 81)
    table.play()
    table.check_spectators()
    table.post_host(table.host.rematch())
    table.flush()
    for s in table.specs.values():
        assert s.match == 2 and s.started and s.view == plain(table.host.state.view(None))
        assert s.events == plain(table.host.state.events(None))
    table.play()
    table.check_spectators()


def test_a_lost_rematch_picture_is_found_by_the_spectators_ping():
    table = Watched("kiriai", 83)
    table.play()
    table.host.rematch()                          # its messages are lost
    table.flush()
    peer, spectator = next(iter(table.specs.items()))
    sent = spectator.ping()
    assert [json.loads(s.text)["type"] for s in sent] == ["ping"]
    table.post_from(peer, sent)
    table.flush()
    assert spectator.match == 2
    table.play()
    table.check_spectators()


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_spectators_watch_again_after_the_host_reloads(game_id):
    table = Watched(game_id, 91, bad=True)
    table.play(until=lambda: table.host.ply >= 4)
    saved = table.host.to_json()
    assert "w-0" not in saved                      # spectators are not kept
    table.host = Host.from_json(saved, random_bytes=random.Random(5).randbytes)
    table.flight = [m for m in table.flight if m[1] != HOST]
    table.post_guest(table.guest.join())
    # The host's page marks the spectators' connections again only for one of them; the
    # other is unknown to it. Both are told so at their next word, and watch again.
    table.host.add_watcher("w-0")
    for peer, spectator in table.specs.items():
        table.post_from(peer, spectator.poll())
    table.play()
    table.check_spectators()
    assert sorted(table.host.watching) == ["w-0", "w-1"]


def test_spectators_see_a_seat_go_to_a_bot():
    table = Watched("kiriai", 95)
    play_until(table, lambda h: h.ply >= 3)
    table.post_host(table.host.hand_to_bot(GSEAT))
    table.flush()
    for s in table.specs.values():
        assert s.kinds == ["host", "bot"]
    table.guest = Guest()   # the old guest is gone; the bot plays its seat
    table.play(until=lambda: table.host.over and not table.flight
               and all(table.caught_up(s) for s in table.specs.values()))
    table.check_spectators()


# -- robustness --------------------------------------------------------------------------------
@pytest.mark.parametrize("game_id", GAME_IDS)
def test_mangled_and_misplaced_messages_never_break_a_spectator(game_id):
    table = started(game_id, 99)
    play_until(table, lambda h: h.ply >= 3)
    rng = random.Random(game_id)
    peer, spectator = next(iter(table.specs.items()))
    good = [t for _, t in table.host._watch_full(peer)]
    good += [pack({"type": "update", "seq": 1, "ply": 0, "to_move": [], "view": {},
                   "legal": ["x"], "start": 0, "events": [], "over": False, "hash": "0" * 64}),
             pack({"type": "end", "seq": 2}), pack({"type": "state", "seq": 3}),
             pack({"type": "error", "seq": 0, "code": "seat_taken", "message": "x", "re": None}),
             "{", "null", 7, None, "[]"]
    for text in good * 3:
        sends = spectator.receive(mangle(rng, text) if isinstance(text, str) and rng.random()
                                  < 0.5 else text)
        assert all(s.to == HOST for s in sends)
        for s in sends:
            assert unpack(s.text)["type"] in ("resync", "watch")
    table.post_from(peer, spectator.poll())
    table.play()
    table.check_spectators()


def test_a_saved_spectator_is_only_a_spectator():
    with pytest.raises(ValueError):
        Spectator.from_json(Guest().to_json())
    with pytest.raises(ValueError):
        Spectator.from_json("[]")
    s = Spectator.from_json(Spectator().to_json())
    assert s.view is None and not s.started and s.legal == []
