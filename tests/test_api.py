"""The one API battery every registered game must pass (in the spirit of pgx's api_test).

Random legal playouts from many seeds and every option value, checking the protocol's
promises at every step, hidden information among them through each game's own
:meth:`State.hidden_twin`. The suite plays a few hundred games per game here (every one checked
deeply); breadth comes from the golden playthroughs (tests/golden) and from the long
battery, a command run and reported rather than part of every run:
``python -m pygames.battery`` (100,000 games of every game, failures with their seeds).
"""

from __future__ import annotations

import doctest
import importlib
import json
import pkgutil
import random

import pytest
from helpers.protocol import option_combos, public
from hypothesis import given, settings
from hypothesis import strategies as st

import pygames
from pygames import IllegalAction

GAME_IDS = pygames.game_ids()
#: Random games per option combination (240 Kiri-ai games in all; breadth is
#: `python -m pygames.battery`'s 100,000 a game, and every option set's golden playthrough).
PLAYOUTS = 60
#: Games with many option combinations play fewer per combination (>= 200 in all).
PLAYOUTS_BY_GAME: dict[str, int] = {"cardia": 10,  # x 2 decks x 10 locations
                                    "canosa": 25,  # x 2 first turns x 2 caps x 2 layouts
                                    "artofwar": 15,  # x 14 option sets
                                    "electors": 29}  # x 23 option sets x 3 player counts
#: Seeds per option combination for the fast-path and determiniser checks (default 100, 40).
FAST_PATH_SEEDS: dict[str, int] = {"cardia": 12, "canosa": 25, "artofwar": 40, "electors": 2}
DETERMINIZE_SEEDS: dict[str, int] = {"cardia": 8, "canosa": 3, "artofwar": 15, "electors": 1}
#: The share of (step, seat) pairs the determiniser check samples (default half): a long
#: game checks fewer of its steps, every option set and player count still many.
DETERMINIZE_SHARE: dict[str, float] = {"electors": 0.2}
#: Long games check the protocol at every n-th step only, beyond the deep checks of the
#: DEEP seeds' first 40 steps; events are still all checked, each when first seen.
#: Canosa: ~190 actions a game; ART OF WAR ~120.
CHECK_EVERY: dict[str, int] = {"canosa": 6, "artofwar": 3, "electors": 40}
#: Games with no chance at all: the seed changes nothing (perfect information, no dice).
SEEDLESS = {"canosa"}
#: Of those, how many also get the expensive per-step checks (clone, replay, garbage).
DEEP = 60
#: Games whose random games are long check fewer seeds deeply (Electors: ~200-400 actions).
DEEP_SEEDS: dict[str, int] = {"electors": 2}
#: How many get the hidden-information check at every step (it clones per viewer).
HIDDEN = 300


def all_cases():
    for gid in GAME_IDS:
        game = pygames.get_game(gid)
        for opts in option_combos(game):
            for players in range(game.min_players, game.max_players + 1):
                yield pytest.param(gid, opts, players, id=f"{gid}-{players}p-{opts}")


def check_hidden(state, viewer, view_text, events_text, start):
    """A view (and the new events) must not change when only what the viewer may not see
    changes: the game's own twin (:meth:`State.hidden_twin`) gives the very same ones."""
    twin = state.hidden_twin(viewer)
    if twin is None:
        return
    assert json.dumps(twin.view(viewer)) == view_text, (
        f"the view of {viewer} reveals something hidden from it")
    assert json.dumps(twin.events(viewer, start)) == events_text, (
        f"the events for {viewer} reveal something hidden from it")


def garbage_actions(state, player):
    legal = set(state.legal_actions(player))
    candidates = ["", " ", "??", "0", "ZZZZZZ", "pass", "\x00", "CB ", "cb", "1H2", "9H"]
    return [a for a in candidates if a not in legal]


def check_step(state, game, deep, hidden=True, seen=None):
    """Check the protocol's promises on one state. ``seen`` (viewer -> events checked so
    far in this game) lets each event be checked once, when it is new; deep steps also check
    that no earlier event changed."""
    seen = {} if seen is None else seen
    movers = state.to_move()
    for p in range(state.players):
        legal = state.legal_actions(p)
        assert (p in movers) == bool(legal), "to_move and legal_actions disagree"
        assert len(set(legal)) == len(legal), "duplicate legal actions"
        assert all(isinstance(a, str) and a for a in legal)
    counts = set()
    for viewer in [None, *range(state.players)]:
        text = json.dumps(state.view(viewer))
        old = seen.setdefault(viewer, [])
        start = len(old)
        events = state.events(viewer, start)
        events_text = json.dumps(events)
        assert '"_to"' not in events_text and '"_hide"' not in events_text
        assert all(isinstance(e.get("t"), str) for e in events)
        if deep:
            assert state.events(viewer) == old + events, "an earlier event changed"
        old.extend(events)
        counts.add(len(old))
        if hidden:
            check_hidden(state, viewer, text, events_text, start)
    assert counts == {state.event_count()}, "seats see different numbers of events"
    if not deep:
        return
    before = state.clone()
    assert before == state
    for p in range(state.players):
        bad = garbage_actions(state, p) if p in movers else state.legal_actions(movers[0])[:1]
        for action in bad:
            with pytest.raises(IllegalAction):
                state.apply(p, action)
            assert state == before, f"a refused action {action!r} changed the state"
    with pytest.raises(IllegalAction):
        state.apply(state.players, movers[0] if movers else "x")
    with pytest.raises(IllegalAction):
        state.apply(movers[0], None)  # type: ignore[arg-type]
    assert state == before


@pytest.mark.parametrize(("gid", "opts", "players"), list(all_cases()))
def test_random_playouts(gid, opts, players):
    game = pygames.get_game(gid)
    finished = 0
    playouts = PLAYOUTS_BY_GAME.get(gid, PLAYOUTS)
    for seed in range(playouts):
        deep = seed < DEEP_SEEDS.get(gid, DEEP)
        state = game.new_game(seed=seed, players=players, options=opts)
        rng = random.Random(seed)
        steps = 0
        seen = {}
        every = CHECK_EVERY.get(gid, 1)
        while not state.is_over():
            if (deep and steps < 40) or steps % every == 0:
                check_step(state, game, deep and steps < 40, hidden=seed < HIDDEN, seen=seen)
            assert state.outcome() is None
            # One player at a time, so half-programmed states are checked too.
            p = rng.choice(state.to_move())
            state.apply(p, rng.choice(state.legal_actions(p)))
            steps += 1
            assert steps < 10_000, "game does not end"
        assert state.to_move() == []
        assert all(state.legal_actions(p) == [] for p in range(players))
        outcome = state.outcome()
        assert outcome is not None and json.dumps(outcome)
        assert len(outcome["ranks"]) == players
        for w in outcome["winners"]:
            assert outcome["ranks"][w] == 1
        with pytest.raises(IllegalAction):
            state.apply(0, "CB")
        if deep:
            record = json.loads(json.dumps(state.record()))
            assert game.from_record(record) == state
            check_step(state, game, deep=False)
        finished += 1
    assert finished == playouts


@pytest.mark.parametrize(("gid", "opts", "players"), list(all_cases()))
def test_the_fast_path_gives_the_same_states_as_the_public_protocol(gid, opts, players):
    """clone_fast + apply_fast (what search plays with) against clone + apply, step by
    step, from every point of random games: the protocol must not tell them apart."""
    game = pygames.get_game(gid)
    for seed in range(FAST_PATH_SEEDS.get(gid, 100)):
        state = game.new_game(seed=seed, players=players, options=opts)
        rng = random.Random(seed)
        fast = state.clone_fast()
        while not state.is_over():
            assert public(fast) == public(state)
            if rng.random() < 0.2:  # a fast copy of a fast copy, at any point
                fast = fast.clone_fast()
            p = rng.choice(state.to_move())
            action = rng.choice(state.legal_actions(p))
            state.apply(p, action)
            fast.apply_fast(p, action)
        assert public(fast) == public(state)


class _Numbers:
    """A stand-in for random.Random whose ``random()`` gives the numbers handed to it."""

    def __init__(self, *numbers: float) -> None:
        self._numbers = iter(numbers)

    def random(self) -> float:
        return next(self._numbers)


@pytest.mark.parametrize(("gid", "opts", "players"), list(all_cases()))
def test_the_fast_random_action_draws_each_legal_action_equally_often(gid, opts, players):
    """random_action_fast (search's playout move) maps the n equal parts of [0, 1) one to
    one onto legal_actions: every legal action is drawn, nothing else, each equally
    likely. From every point of random games played by it and the fast path."""
    game = pygames.get_game(gid)
    for seed in range(FAST_PATH_SEEDS.get(gid, 100) // 2):
        world = game.new_game(seed=seed, players=players, options=opts).clone_fast()
        rng = random.Random(seed)
        while not world.is_over():
            p = rng.choice(world.to_move())
            legal = world.legal_actions(p)
            n = len(legal)
            drawn = [world.clone_fast().random_action_fast(p, _Numbers((i + 0.5) / n))
                     for i in range(n)]
            assert sorted(drawn) == sorted(legal)
            world.apply_fast(p, world.random_action_fast(p, rng))


def _plain_playout(world, rng, depth):
    """State.playout_fast's promise, spelled out: True if nobody was left to move."""
    for _ in range(depth):
        movers = world.to_move()
        if not movers:
            return True
        for p in movers:
            world.apply_fast(p, world.random_action_fast(p, rng))
    return False


@pytest.mark.parametrize(("gid", "opts", "players"), list(all_cases()))
def test_a_fast_playout_plays_the_moves_of_the_plain_loop(gid, opts, players):
    """playout_fast (a game's own, or State's with the default draw inline) plays exactly
    each mover's random_action_fast by apply_fast with the same numbers, cut off at any
    depth."""
    game = pygames.get_game(gid)
    for seed in range(FAST_PATH_SEEDS.get(gid, 100) // 2):
        rng = random.Random(seed)
        world = game.new_game(seed=seed, players=players, options=opts).clone_fast()
        while True:
            depth = rng.choice([1, 2, 5, 40, 10**6])
            mine, plain = world.clone_fast(), world.clone_fast()
            ended = mine.playout_fast(random.Random(seed + depth), depth)
            assert ended == _plain_playout(plain, random.Random(seed + depth), depth)
            assert public(mine) == public(plain)
            if world.is_over():
                break
            p = rng.choice(world.to_move())
            world.apply_fast(p, world.random_action_fast(p, rng))


@pytest.mark.parametrize(("gid", "opts", "players"), list(all_cases()))
def test_a_determinised_state_agrees_with_everything_the_seat_saw(gid, opts, players):
    """determinize(seat, view, events) gives that seat the very view and legal actions it
    has, and plays on to the end by the fast path."""
    game = pygames.get_game(gid)
    share = DETERMINIZE_SHARE.get(gid, 0.5)
    for seed in range(DETERMINIZE_SEEDS.get(gid, 40)):
        state = game.new_game(seed=seed, players=players, options=opts)
        rng = random.Random(seed)
        while not state.is_over():
            for seat in range(players):
                if rng.random() >= share:
                    continue
                view, legal = state.view(seat), state.legal_actions(seat)
                world = game.determinize(seat, view, state.events(seat),
                                         pygames.Rng(rng.randrange(2**32)))
                assert world.view(seat) == view
                assert world.legal_actions(seat) == legal
                assert world.to_move() == state.to_move()
                for _ in range(400):  # the sampled world plays on like any state
                    if world.is_over():
                        break
                    q = world.to_move()[0]
                    world.apply_fast(q, rng.choice(world.legal_actions(q)))
            p = rng.choice(state.to_move())
            state.apply(p, rng.choice(state.legal_actions(p)))


@pytest.mark.parametrize("gid", GAME_IDS)
def test_record_replays_midgame_and_clone_is_independent(gid):
    game = pygames.get_game(gid)
    state = game.new_game(seed=11)
    rng = random.Random(3)
    for _ in range(3):
        for p in state.to_move():
            state.apply(p, rng.choice(state.legal_actions(p)))
    replayed = game.from_record(json.loads(json.dumps(state.record())))
    assert replayed == state
    assert replayed.view(0) == state.view(0)
    twin = state.clone()
    if not twin.is_over():
        p = twin.to_move()[0]
        twin.apply(p, twin.legal_actions(p)[0])
        assert twin != state


@pytest.mark.parametrize("gid", GAME_IDS)
def test_same_seed_same_game_different_seed_differs(gid):
    game = pygames.get_game(gid)

    def specials_seen(seed):
        return json.dumps(game.new_game(seed=seed).view(0))

    assert specials_seen(5) == specials_seen(5)
    if gid in SEEDLESS:
        assert len({specials_seen(s) for s in range(20)}) == 1, "a seedless game used the seed"
        return
    assert len({specials_seen(s) for s in range(20)}) > 1, "the seed changes nothing"


@pytest.mark.parametrize("gid", GAME_IDS)
def test_bad_setup_is_a_clear_value_error(gid):
    game = pygames.get_game(gid)
    with pytest.raises(ValueError, match="players"):
        game.new_game(seed=1, players=game.max_players + 1)
    with pytest.raises(ValueError, match="unknown option"):
        game.new_game(seed=1, options={"no_such_option": 1})
    for name, spec in game.option_schema.items():
        if "values" in spec:
            with pytest.raises(ValueError, match=name):
                game.new_game(seed=1, options={name: "no-such-value"})


def test_unknown_game_lists_known_ids():
    with pytest.raises(KeyError) as info:
        pygames.get_game("chess")
    for gid in GAME_IDS:
        assert gid in str(info.value)


@pytest.mark.parametrize("gid", GAME_IDS)
def test_malformed_records_are_refused_cleanly(gid):
    game = pygames.get_game(gid)
    good = game.new_game(seed=2).record()
    bad_records = [
        None, [], {}, {**good, "game": "other"}, {**good, "seed": "x"},
        {**good, "actions": "CB"}, {**good, "actions": [["0", "CB"]]},
        {**good, "actions": [[0, "??"]]}, {**good, "options": {"battlefield": "huge"}},
    ]
    for record in bad_records:
        with pytest.raises(ValueError):
            game.from_record(record)


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 2**63), moves=st.lists(st.integers(0, 10**6), max_size=30),
       junk=st.text(max_size=8), player=st.integers(-3, 5))
def test_any_junk_action_is_refused_without_change(seed, moves, junk, player):
    for gid in GAME_IDS:
        game = pygames.get_game(gid)
        state = game.new_game(seed=seed)
        for m in moves:
            if state.is_over():
                break
            p = state.to_move()[m % len(state.to_move())]
            legal = state.legal_actions(p)
            state.apply(p, legal[m % len(legal)])
        before = state.clone()
        legal_for_player = state.legal_actions(player) if 0 <= player < state.players else []
        if junk in legal_for_player:
            return
        with pytest.raises(IllegalAction):
            state.apply(player, junk)
        assert state == before


def test_doctests_in_the_engine_package():
    failures = 0
    for info in pkgutil.walk_packages(pygames.__path__, "pygames."):
        module = importlib.import_module(info.name)
        failures += doctest.testmod(module, verbose=False).failed
    failures += doctest.testmod(pygames).failed
    assert failures == 0


def _randbelow_by_next64(rng, n):
    """Reference randbelow: rejection sampling on next64 (the spec of Rng.randbelow)."""
    limit = (1 << 64) - ((1 << 64) % n)
    while True:
        z = rng.next64()
        if z < limit:
            return z % n


def test_rng_randbelow_and_shuffle_give_next64s_numbers():
    """randbelow and shuffle write next64's step out for speed: the same numbers as the
    reference code on next64 (small n from the limit table, large n, and an n that rejects
    about half the draws)."""
    for seed in (0, 1, 7, 2**64 - 1, 123456789):
        fast, ref = pygames.Rng(seed), pygames.Rng(seed)
        for n in [*range(1, 70), 100, 1000, 2**40 + 3, 2**63 + 1, 3 * 2**62]:
            for _ in range(3):
                assert fast.randbelow(n) == _randbelow_by_next64(ref, n)
        assert fast == ref
        for size in (0, 1, 2, 5, 52, 63, 64, 65, 130):
            items, expected = list(range(size)), list(range(size))
            fast.shuffle(items)
            for i in range(size - 1, 0, -1):
                j = _randbelow_by_next64(ref, i + 1)
                expected[i], expected[j] = expected[j], expected[i]
            assert items == expected
            assert fast == ref
