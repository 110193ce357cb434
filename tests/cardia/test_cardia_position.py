"""Cardia — positions by hand (``CardiaGame.from_position``) and the ``Game.from_position``
hook every game has.

Round trips from the views of seeded random games (every deck and location, many points
of play, choices included), play going on from a rebuilt position exactly as from the
original, the short hand-made forms and their defaults, §9's worked examples played from
hand-made positions, every refusal (each a ``ValueError`` that says what is wrong), the
positions that end at once (§6.3), position strings (``pygames.records``) and the base
class's loud default. Seat 0 is "A" (row letter ``a``), seat 1 is "B" (``b``).
"""

from __future__ import annotations

import json
import random

import pytest

import pygames
from pygames import records
from pygames.cardia import LOCATIONS
from pygames.core import Game

GAME = pygames.get_game("cardia")
A, B = 0, 1
ALL_OPTIONS = [{"deck": deck, "location": loc} for deck in ("I", "II")
               for loc in ("none", *LOCATIONS)]


# -- helpers ---------------------------------------------------------------------------------
def json_copy(data):
    """What a position is after travelling (an embed, a position string): JSON data."""
    return json.loads(json.dumps(data))


def full_position(state):
    """``view(None)`` with what it hides filled in from each seat's own view: both hands,
    the face-down cards' values and the chooser's view of the choice (Successor's kept)."""
    pos = state.view(None)
    views = [state.view(A), state.view(B)]
    pos["hands"] = [views[A]["hand"], views[B]["hand"]]
    for i, enc in enumerate(pos["row"]):
        for p in (A, B):
            if enc["cards"][p]["value"] is None:
                enc["cards"][p] = views[p]["row"][i]["cards"][p]
    for p in (A, B):
        if pos["placing"][p]["placed"] and pos["placing"][p]["value"] is None:
            pos["placing"][p] = views[p]["placing"][p]
    if pos["choice"] is not None:
        pos["choice"] = views[pos["choice"]["seat"]]["choice"]
    return json_copy(pos)


def random_points(options, seeds, every=2):
    """States met along seeded random games (actions picked by ``random.Random(seed)``),
    every ``every``-th step and the end."""
    for seed in seeds:
        state = GAME.new_game(seed=seed, options=options)
        rng = random.Random(seed)
        step = 0
        while True:
            if step % every == 0 or state.is_over():
                yield seed, step, state
            if state.is_over():
                break
            p = rng.choice(state.to_move())
            state.apply(p, rng.choice(state.legal_actions(p)))
            step += 1


def same_for_every_seat(original, twin):
    for seat in (None, A, B):
        assert twin.view(seat) == original.view(seat), seat
    for p in (A, B):
        assert twin.legal_actions(p) == original.legal_actions(p), p
    assert twin.to_move() == original.to_move()


def build(pos, options=None):
    return GAME.from_position(json_copy(pos), options=options)


def play(state, va, vb):
    """Both seats place (A first; Fortune Teller's order is the caller's business)."""
    state.apply(A, str(va))
    state.apply(B, str(vb))


def new_events(state, start, kind=None):
    return [e for e in state.events(None, start) if kind is None or e["t"] == kind]


# -- round trips -----------------------------------------------------------------------------
@pytest.mark.parametrize("options", ALL_OPTIONS,
                         ids=[f"{o['deck']}-{o['location']}" for o in ALL_OPTIONS])
def test_round_trip_from_the_views_of_random_games(options):
    """From ``view(None)`` and the hidden parts every seat's view and legal set come back;
    from ``view(None)`` alone the spectator's view, from ``view(seat)`` alone that seat's
    view and legal set (what the view hides is dealt at random)."""
    choices = points = 0
    for seed, step, state in random_points(options, range(6)):
        where = (seed, step)
        twin = build(full_position(state), options=state.options)
        same_for_every_seat(state, twin)
        assert twin.is_over() == state.is_over() and twin.outcome() == state.outcome()
        spectator = build(state.view(None), options=state.options)
        assert spectator.view(None) == state.view(None), where
        assert spectator.to_move() == state.to_move(), where
        for seat in (A, B):
            mine = build(state.view(seat), options=state.options)
            assert mine.view(seat) == state.view(seat), (where, seat)
            assert mine.legal_actions(seat) == state.legal_actions(seat), (where, seat)
        # The view's own options are enough: the options argument may be left out.
        assert build(full_position(state)).view(None) == state.view(None)
        points += 1
        choices += state.view(None)["choice"] is not None
    assert points > 40 and choices > 2


def _procedure(state):
    """What is left of the encounter being resolved under its choice, read off the engine
    (the position's ``procedure``; a view does not carry it)."""
    lib, bm, serpent = [0, 0], [[], []], [0, 0]
    for task in reversed(state.tasks):  # (a stack: the next one is last)
        if task["k"] == "librarian":
            lib[task["p"]] += 1
        elif task["k"] == "blackmail":
            bm[task["p"]].append(task["colour"])
        elif task["k"] == "serpent_win":
            serpent[task["p"]] += 1
    if not any(serpent) and state.location == "serpent_temple":
        serpent = list(state.serpent)  # (not processed yet: counted for the Finish)
    ids = [enc["id"] for enc in state.row]
    return {"encounter": ids.index(state.cur) + 1 if state.cur in ids else None,
            "librarian": lib, "blackmail": bm, "serpent": serpent}


@pytest.mark.parametrize("options", ALL_OPTIONS,
                         ids=[f"{o['deck']}-{o['location']}" for o in ALL_OPTIONS])
def test_play_goes_on_from_a_rebuilt_position_as_from_the_original(options):
    """Given also what no view shows (deck order, the effects that went with a placed
    card, the rest of the procedure under a choice), the rebuilt state plays on exactly as
    the original, until something is drawn from the PRNG (Puppeteer, Witch King's shuffle,
    the next round's deal): the same views and legal sets after every action."""
    checked = 0
    for seed, step, state in random_points(options, range(3), every=3):
        if state.is_over():
            continue
        pos = full_position(state)
        pos["decks"] = [list(d) for d in state.decks]
        for p in (A, B):
            card = state.placed[p]
            if card is not None:
                pos["placing"][p].update(librarian=card["lib"], engineer=card["eng"],
                                         blackmail=list(card["bm"]))
        if state.choice is not None:
            pos["procedure"] = _procedure(state)
        twin = build(pos, options=state.options)
        assert twin.tasks == state.tasks, (seed, step)
        original = state.clone()
        rng = random.Random(seed * 1000 + step)
        while not original.is_over():
            p = rng.choice(original.to_move())
            action = rng.choice(original.legal_actions(p))
            start = original.event_count()
            original.apply(p, action)
            twin.apply(p, action)
            if any(e["t"] in ("replace", "shuffle", "round")
                   for e in original.open_events(start)):
                break
            same_for_every_seat(original, twin)
        checked += 1
    assert checked > 15


# -- short forms and defaults ----------------------------------------------------------------
def test_short_form_defaults():
    state = build({"hands": [[1, 2, 3, 4, 5], [1, 2, 3, 4, 5]], "row": [[16, 6], [7, 15]]})
    view = state.view(None)
    assert view["round"] == 1 and view["wins"] == [0, 0] and view["results"] == []
    assert view["deck"] == "I" and view["location"] == "none" and view["phase"] == "place"
    assert [e["revealed"] and e["evaluated"] for e in view["row"]] == [True, True]
    assert [e["winner"] for e in view["row"]] == [A, B]  # §4.1 from the row
    assert view["signets"] == [1, 1] and view["hand_sizes"] == [5, 5]
    assert view["deck_sizes"] == [9, 9] and view["to_move"] == [A, B]
    assert view["row"][0]["cards"][0] == {"value": 16, "influence": 16, "modifiers": 0,
                                          "ongoing": False, "signets": 1, "face_up": True}
    assert sorted(state.decks[A]) == [6, 8, 9, 10, 11, 12, 13, 14, 15]
    # The deck's order comes from the state's own PRNG: the same seed, the same deck.
    again = build({"hands": [[1, 2, 3, 4, 5], [1, 2, 3, 4, 5]], "row": [[16, 6], [7, 15]]})
    assert again.decks == state.decks and again == state
    other = build({"hands": [[1, 2, 3, 4, 5], [1, 2, 3, 4, 5]], "row": [[16, 6], [7, 15]],
                   "seed": 99})
    assert sorted(other.decks[A]) == sorted(state.decks[A]) and other.seed == 99
    # No history: an empty log and record (a record replays to a new game, not this one).
    assert state.events(None) == [] and state.record()["actions"] == []
    assert GAME.from_record(state.record()).view(None) != view


def test_explicit_decks_placing_and_pending():
    state = build({
        "hands": [[1, 2], [3, 4]], "decks": [[5, 6], [7, 8]],
        "discards": [[3, 4, *range(7, 17)], [1, 2, 5, 6, *range(9, 16)]],
        "placing": [None, {"placed": True, "value": 16, "face_up": False, "modifiers": 3}],
        "pending": {"next_modifier": [-5, 0]},
    }, options={"deck": "I"})
    # Each seat's 16 cards: hand, deck, discards (and B's placed 16).
    assert state.to_move() == [A] and state.decks == [[5, 6], [7, 8]]
    assert state.view(A)["placing"][B] == {"placed": True, "value": None, "face_up": False,
                                           "modifiers": 3}
    state.apply(A, "2")  # 2 - 5 = -3 against 16 + 3
    assert state.view(None)["row"][0]["cards"][A]["influence"] == -3
    assert state.view(None)["row"][0]["winner"] == B


def test_hidden_cards_are_dealt_from_what_is_left():
    """A hand given only by its size, and face-down cards without a value, are dealt at
    random from the seat's cards found nowhere else; the deck is what remains."""
    pos = {"hands": [[1, 2, 3], None], "hand_sizes": [3, 4],
           "row": [[16, 15], {"cards": [{"value": 14}, {"value": None}],
                              "revealed": False}],
           "deck_sizes": [11, 10]}
    state = build(pos, options={"deck": "I", "location": "foggy_swamp"})
    hand, deck, down = state.hands[B], state.decks[B], state.row[1]["cards"][B]["v"]
    assert len(hand) == 4 and len(deck) == 10 and down not in hand + deck + [15]
    assert sorted(hand + deck + [down, 15]) == list(range(1, 17))
    assert state.view(A)["row"][1]["cards"][B]["value"] is None
    assert state.view(None)["row"][1]["revealed"] is False


# -- §9 worked examples from hand-made positions ------------------------------------------------
def test_example1_palace_guard_turnaround():
    state = build({"hands": [[7, 1, 2], [11, 1, 2]]})  # B holds no Red card but the 11
    play(state, 7, 11)
    assert state.to_move() == [A] and state.view(A)["choice"]["kind"] == "colour"
    state.apply(A, "R")
    assert state.legal_actions(B) == ["pass"]  # asked anyway: it never leaks the hand
    state.apply(B, "pass")
    view = state.view(None)
    assert view["signets"] == [1, 0] and view["row"][0]["winner"] == A
    assert view["row"][0]["cards"][A]["influence"] == 14
    assert [e["card"] for e in new_events(state, 0, "ability")] == [7]  # Clockmaker: no


def test_example2_mediator_then_void_mage():
    state = build({"hands": [[4, 6, 1], [9, 2, 1]]})
    play(state, 4, 9)
    assert state.view(None)["signets"] == [0, 0]  # Mediator: a tie
    play(state, 6, 2)  # Void Mage's one target and one kind are taken by themselves
    view = state.view(None)
    assert view["signets"] == [1, 1] and view["row"][0]["cards"][A]["ongoing"] is False
    assert [e["card"] for e in new_events(state, 0, "ability")] == [4, 2]


def test_example3_losing_with_the_djinn():
    state = build({"hands": [[16, 1], [12, 1]], "pending": {"next_modifier": [-5, 0]}})
    play(state, 16, 12)
    assert state.view(None)["wins"] == [1, 0] and state.view(None)["round"] == 2
    assert new_events(state, 0, "round_end")[0]["reason"] == "djinn"


def test_example4_hired_blade_shift():
    state = build({"hands": [[1, 2], [8, 2]], "row": [[5, 3]]})
    play(state, 1, 8)
    view = state.view(None)
    assert len(view["row"]) == 1 and view["signets"] == [1, 0]
    assert 1 in view["discards"][A] and 8 in view["discards"][B]
    play(state, 2, 2)
    assert [e["n"] for e in state.view(None)["row"]] == [1, 2]


def test_example5_poisoner():
    state = build({"hands": [[1, 2], [10, 2]]}, options={"deck": "II"})
    play(state, 1, 10)
    card = state.view(None)["row"][0]["cards"][B]
    assert card["modifiers"] == -9 and card["influence"] == 1
    assert state.view(None)["signets"] == [0, 0] and state.view(None)["row"][0]["winner"] is None


def test_example6_signet_race_tie_then_win():
    won = [16, 15, 14, 13, 12]
    lost = [1, 2, 3, 4, 7]
    row = [[w, v] for w, v in zip(won, lost, strict=True)] + [
        [v, w] for w, v in zip(won, lost, strict=True)]
    state = build({"hands": [[6, 8], [5, 8]], "row": row})  # 5 and 5: the round goes on
    assert state.view(None)["signets"] == [5, 5] and state.to_move() == [A, B]
    play(state, 6, 5)  # B's Saboteur fires, then A has 6 signets at the Finish
    assert state.view(None)["wins"] == [1, 0]
    assert new_events(state, 0, "round_end")[0]["reason"] == "signets"


def test_procedure_left_under_a_librarian_choice():
    """The rest of an encounter's procedure, which no view shows, can be given: here a
    Blackmailer's check still to come after seat a's Librarian choice."""
    pos = {"hands": [[1, 2], [1, 2, 5]],
           "row": [[4, 3], {"cards": [10, 7], "evaluated": False}],
           "choice": {"kind": "librarian", "seat": A, "ability": "librarian", "card": 6,
                      "at": None, "target": [2, A]},
           "procedure": {"blackmail": [[], ["G"]]}}
    state = build(pos, options={"deck": "II"})
    assert state.view(None)["row"][1]["evaluated"] is False
    state.apply(A, "+")
    assert new_events(state, 0, "blackmail") == [{"t": "blackmail", "p": B, "colour": "G",
                                                  "hit": True}]
    assert state.view(B)["choice"]["kind"] == "discard" and state.legal_actions(B) == [
        "x1", "x2", "x5"]
    state.apply(B, "x1")
    state.apply(B, "x2")
    view = state.view(None)
    assert view["row"][1]["winner"] == A and view["choice"]["kind"] == "prodigy_target"
    # Without it, evaluation follows the Librarian at once.
    del pos["procedure"]
    state = build(pos, options={"deck": "II"})
    state.apply(A, "-")
    assert new_events(state, 0, "blackmail") == []
    assert state.view(None)["row"][1]["evaluated"] is True


def test_a_seat_to_place_with_no_card_at_all_loses_the_round_at_once():
    every = list(range(1, 17))
    pos = {"hands": [[], [3]], "discards": [every, []]}
    state = build(pos)  # §6.3: A cannot play
    view = state.view(None)
    assert view["wins"] == [0, 1] and view["round"] == 2 and view["results"] == [B]
    assert view["hand_sizes"] == [5, 5] and view["row"] == []
    assert [e["t"] for e in state.events(None)][:2] == ["round_end", "round"]
    assert state.events(None)[0]["reason"] == "no_cards"
    state = build({**pos, "wins": [0, 1]})  # B's second round: the match is over
    assert state.is_over() and state.outcome()["winners"] == [B]
    # Seat a has placed its last card and waits: nothing ends yet.
    state = build({"hands": [[], [3]], "discards": [every[:-1], []], "placing": [16, None]})
    assert state.to_move() == [B] and not state.is_over()


def test_a_finished_match():
    state = build({"hands": [[1], [2]], "wins": [2, 1], "results": [A, B, A]})
    assert state.is_over() and state.to_move() == [] and state.view(None)["round"] == 3
    assert state.outcome() == {"winners": [A], "ranks": [1, 2], "scores": [2, 1],
                               "reason": "rounds"}


def test_options_from_the_position_and_a_random_location():
    state = build({"hands": [[1], [2]], "deck": "II", "location": "bazaar"})
    assert state.options == {"deck": "II", "location": "bazaar"}
    state = build({"hands": [[1], [2]], "location": "scrapyard"},
                  options={"location": "random"})
    assert state.options["location"] == "random" and state.location == "scrapyard"
    drawn = build({"hands": [[1], [2]]}, options={"location": "random"})
    assert drawn.location in LOCATIONS  # drawn by the seeded PRNG, as a new game draws it
    assert build({"hands": [[1], [2]]}, options={"location": "random"}).location == (
        drawn.location)


# -- refusals ----------------------------------------------------------------------------------
def _base(**changes):
    pos = {"hands": [[1, 2, 3, 4, 5], [1, 2, 3, 4, 5]], "row": [[16, 6], [7, 15]]}
    pos.update(changes)
    return pos


def _card(value, **kw):
    return {"value": value, **kw}


ROW_FIVE = [[16, 1], [15, 2], [14, 3], [13, 4], [12, 7]]  # A holds five signets
DII = {"deck": "II"}

REFUSALS = [
    # (id, position, options, words in the message)
    ("not-a-dict", [], None, "must be an object"),
    ("other-game", _base(game="kiriai"), None, "not 'cardia'"),
    ("unknown-card", _base(hands=[[1, 2, 3, 4, 17], [1, 2, 3, 4, 5]]), None,
     "17 is not a Cardia card"),
    ("card-zero", _base(row=[[0, 6]]), None, "not a Cardia card"),
    ("card-twice", _base(hands=[[1, 2, 3, 4, 16], [1, 2, 3, 4, 5]]), None,
     "card 16 (Djinn) is in two places: encounter 1 and the hand"),
    ("card-twice-discards", _base(discards=[[1], []]), None, "in two places"),
    ("no-hand", {"row": [[16, 6]]}, None, "seat a's hand is not given"),
    ("hand-not-a-list", _base(hands=[5, [1]]), None, "must be a list of card values"),
    ("hand-size", _base(hand_sizes=[4, 5]), None, "not hand_sizes 4"),
    ("deck-size", _base(deck_sizes=[9, 8]), None, "not deck_sizes 8"),
    ("decks-do-not-add-up", _base(decks=[[6, 8], None]), None,
     "seat a's cards do not add up to 16: 9 given and 0 hidden (hand, face-down cards) make 9"),
    ("hidden-too-many", {"hands": [[1], None], "hand_sizes": [1, 17]}, None,
     "hand_sizes must be a whole number from 0 to 16"),
    ("hidden-do-not-fit", {"hands": [[1], None], "hand_sizes": [1, 16], "row": [[2, 3]]},
     None, "cards do not add up to 16"),
    ("row-too-long", _base(hands=[[], []], row=[[v, v] for v in range(1, 17)] + [[1, 1]]),
     None, "only 16 cards"),
    ("row-not-a-list", _base(row=5), None, "row must be a list"),
    ("encounter-shape", _base(row=[[16]]), None, "encounter 1's cards must be two entries"),
    ("encounter-number", _base(row=[{"n": 2, "cards": [16, 6]}]), None, "numbered"),
    ("signets-not-4-1", _base(row=[[_card(16, signets=0), 6]]), None,
     "seat a's card holds 0 signet(s), but §4.1 gives it 1"),
    ("signets-negative", _base(row=[[_card(16, signets=-1), 6]]), None,
     "signets must be a whole number from 0"),
    ("winner-not-4-1", _base(row=[{"cards": [16, 6], "winner": 1}]), None,
     "winner is 1, but §4.1 gives 0"),
    ("total-signets", _base(signets=[2, 0]), None, "signets [2, 0] is not what"),
    ("influence", _base(row=[[_card(16, influence=15), 6]]), None, "influence 15"),
    ("modifiers", _base(row=[[_card(16, modifiers=1.5), 6]]), None, "modifiers must be"),
    ("face-down-revealed", _base(row=[[_card(16, face_up=False), 6]]), None,
     "face down in a revealed encounter"),
    ("revealed-needs-value", _base(row=[[_card(None), 6]]), None,
     "revealed encounter: give its value"),
    ("unrevealed-without-foggy", _base(row=[{"cards": [16, 6], "revealed": False}]), None,
     "revealed as soon as both cards are placed"),
    ("foggy-newest-revealed", _base(row=[{"cards": [16, 6], "revealed": True}]),
     {"location": "foggy_swamp"}, "under Foggy Swamp"),
    ("token-face-down", _base(row=[[16, 6], {"cards": [_card(8, ongoing=True), 9],
                                             "revealed": False}]),
     {"location": "foggy_swamp"}, "ongoing token but is not revealed"),
    ("both-face-up", _base(row=[{"cards": [_card(8, face_up=True), _card(9, face_up=True)],
                                 "revealed": False}]),
     {"location": "foggy_swamp"}, "one of its cards at most is face up"),
    ("unevaluated", _base(row=[{"cards": [16, 6], "evaluated": False}]), None,
     "cannot be unevaluated"),
    ("both-placed", _base(placing=[8, 9]), None, "both seats have placed"),
    ("fortune-order", _base(placing=[None, 9], pending={"fortune_teller": 0}), None,
     "places first"),
    ("face-up-slot", _base(placing=[{"value": 9, "face_up": True}, None]), None,
     "face up exactly when"),
    ("placed-with-pending", _base(placing=[9, None], pending={"next_modifier": [-5, 0]}),
     None, "went with that card"),
    ("librarian-in-deck-I", _base(pending={"librarian": [1, 0]}), None,
     "the Librarian is a Deck II card"),
    ("fortune-in-deck-II", _base(pending={"fortune_teller": 1}), DII,
     "the Fortune Teller is a Deck I card"),
    ("next-modifier-deck-II", _base(pending={"next_modifier": [3, 0]}), DII, "Envoy"),
    ("next-modifier-type", _base(pending={"next_modifier": [0, "x"]}), None,
     "next_modifier must be a whole number"),
    ("fortune-seat", _base(pending={"fortune_teller": 2}), None, "must be a seat"),
    ("blackmail-colour", _base(pending={"blackmail": [["P"], []]}), DII,
     "list of colours"),
    ("waiting-on-revealed", _base(pending={"waiting": [{"n": 1, "seat": 0, "librarian": 1}]}),
     DII, "no longer waiting"),
    ("engineer-after-finish", _base(pending={"waiting": [{"n": 1, "seat": 0,
                                                          "engineer": 1}]}),
     DII, "no Engineer waits"),
    ("waiting-in-deck-I", _base(pending={"waiting": [{"n": 1, "seat": 0, "engineer": 1}]}),
     None, "Deck II cards"),
    ("waiting-twice", _base(pending={"waiting": [{"n": 1, "seat": 0}, {"n": 1, "seat": 0}]}),
     DII, "twice"),
    ("waiting-no-encounter", _base(pending={"waiting": [{"n": 3, "seat": 0}]}), DII,
     "from 1 to 2"),
    ("elemental-at-rest", _base(pending={"elemental_draw": [1, 0]}), DII,
     "Elemental's extra draw"),
    ("mechanical-djinn-list", _base(pending={"mechanical_djinn": [[1, 0]]}), DII,
     "active Mechanical Djinns"),
    ("to-move", _base(to_move=[0]), None, "to_move [0] is not what this position gives"),
    ("phase", _base(phase="choice"), None, "phase 'choice'"),
    ("outcome", _base(outcome={"winners": [0]}), None, "outcome"),
    ("options-now", _base(you=0, hand=[1, 2, 3, 4, 5], options_now=["1"]), None,
     "options_now"),
    ("hand-without-you", {"hand": [1], "hands": [[1], [1]]}, None, "give you"),
    ("hand-not-hands", _base(you=0, hand=[1, 2]), None, "is not hands[0]"),
    ("deck-contradicts-options", _base(deck="II"), {"deck": "I"}, "deck 'II' is not"),
    ("location-contradicts-options", _base(location="bazaar"), {"location": "none"},
     "location 'bazaar' is not"),
    ("location-unknown", _base(location="moon"), None, "location 'moon' is not one of"),
    ("location-none-random", _base(location="none"), {"location": "random"},
     "cannot be 'none'"),
    ("options-disagree", _base(options={"deck": "II"}), {"deck": "I"}, "are not the options"),
    ("bad-option", _base(), {"deck": "III"}, "must be one of"),
    ("unknown-option", _base(), {"speed": 1}, "unknown option"),
    ("seed", _base(seed="x"), None, "seed must be a whole number"),
    ("wins-two-two", _base(wins=[2, 2]), None, "match ends"),
    ("wins-results", _base(wins=[1, 0], results=[1]), None, "are not the rounds won"),
    ("results-values", _base(results=[3]), None, "results must list"),
    ("match-over-last", _base(results=[0, 0, 1]), None, "match ends"),
    ("round", _base(round=3), None, "round 3 does not follow"),
    ("choice-when-over", _base(wins=[2, 0], choice={"kind": "colour", "seat": 0}), None,
     "the match is over"),
    ("choice-kind", _base(choice={"kind": "dance", "seat": 0}), None,
     "unknown choice kind 'dance'"),
    ("choice-field", _base(choice={"kind": "colour", "seat": 0, "ability": "ambusher",
                                   "colour": "G"}), None, "has no field(s) colour"),
    ("choice-seat", _base(choice={"kind": "colour", "seat": 3}), None, "choice seat"),
    ("choice-ability", _base(choice={"kind": "colour", "seat": 0, "ability": "djinn"}),
     None, "comes from palace_guard or ambusher"),
    ("choice-other-deck", _base(choice={"kind": "librarian", "seat": 0, "target": [2, 0]}),
     None, "not in Deck I"),
    ("choice-card", _base(choice={"kind": "colour", "seat": 0, "ability": "ambusher",
                                  "card": 7}), None, "asks is 9, not 7"),
    ("choice-at", _base(choice={"kind": "colour", "seat": 0, "ability": "ambusher",
                                "at": [1, 0]}), None, "the card the ability acts as"),
    ("choice-at-seat", _base(choice={"kind": "colour", "seat": 0, "ability": "ambusher",
                                     "at": [1, 1]}), None, "must be a card of seat a"),
    ("choice-target-missing", _base(choice={"kind": "void_kind", "seat": 0}), None,
     "needs target"),
    ("choice-target-not-in-row", _base(choice={"kind": "void_kind", "seat": 0,
                                               "target": [5, 0]}), None,
     "no revealed encounter 5"),
    ("choice-no-option", _base(row=[[13, 14]], choice={"kind": "swamp_target", "seat": 0,
                                                       "at": [1, 0]}), None, "no option"),
    ("choice-automatic", _base(row=[[_card(16, modifiers=2), 6], [7, 15]],
                               choice={"kind": "void_target", "seat": 1}), None,
     "takes by itself"),
    ("choice-magistra-at", _base(choice={"kind": "magistra_target", "seat": 0}), None,
     "needs at"),
    ("choice-colour", _base(choice={"kind": "palace_guard_discard", "seat": 1,
                                    "colour": "P"}), None, "needs the colour named"),
    ("choice-small-hand", _base(hands=[[1, 2], [1, 2]], choice={
        "kind": "discard", "seat": 1, "ability": "revolutionary", "count": 2}), DII,
     "more cards than it discards"),
    ("choice-why", _base(choice={"kind": "discard", "seat": 1, "ability": "revolutionary",
                                 "why": "blackmailer", "count": 1}), DII, "must be the same"),
    ("choice-location", _base(choice={"kind": "scrapyard_under", "seat": 0}), None,
     "needs that location"),
    ("choice-kept", _base(choice={"kind": "successor_keep", "seat": 1, "count": 1,
                                  "kept": [9]}), DII, "kept 1 card(s) of the keeper's hand"),
    ("choice-while-placed", _base(placing=[9, None], choice={"kind": "colour", "seat": 0,
                                                              "ability": "ambusher"}), None,
     "nobody has placed"),
    ("choice-librarian-target", _base(row=[[16, 6], {"cards": [7, 15], "evaluated": False}],
                                      choice={"kind": "librarian", "seat": 0,
                                              "target": [1, 0]}), DII,
     "the chooser's card in the encounter being revealed"),
    ("choice-librarian-evaluated", _base(row=[[16, 6], {"cards": [7, 15], "evaluated": True}],
                                         choice={"kind": "librarian", "seat": 0,
                                                 "target": [2, 0]}), DII,
     "cannot be evaluated"),
    ("procedure-without-choice", _base(procedure={"serpent": [1, 0]}), None,
     "only with an open choice"),
    ("procedure-serpent", _base(choice={"kind": "colour", "seat": 0, "ability": "ambusher"},
                                procedure={"serpent": [1, 0]}), None, "Serpent Temple"),
    ("procedure-librarian", _base(choice={"kind": "colour", "seat": 0,
                                          "ability": "ambusher"},
                                  procedure={"librarian": [1, 0]}), None,
     "only while a reveal's effects"),
    ("procedure-encounter", _base(choice={"kind": "colour", "seat": 0,
                                          "ability": "ambusher"},
                                  procedure={"encounter": 1}), None, "newest revealed"),
    ("procedure-field", _base(choice={"kind": "colour", "seat": 0, "ability": "ambusher"},
                              procedure={"tasks": []}), None, "has no field(s) tasks"),
    ("five-signets", {"hands": [[5, 6], [5, 6]], "row": ROW_FIVE}, None, "(§6.2)"),
    ("founders-day", {"hands": [[5, 6], [5, 6]], "row": ROW_FIVE[:3]},
     {"location": "founders_day"}, "Founder's Day"),
    ("mechanical-djinn", {"hands": [[5, 6], [5, 6]],
                          "row": [[_card(15, ongoing=True), 16], [9, 1]]}, DII,
     "Mechanical Djinn's owner"),
    ("empty-hand-full-deck", {"hands": [[], [1]]}, None, "would have drawn"),
]


@pytest.mark.parametrize("pos, options, words", [c[1:] for c in REFUSALS],
                         ids=[c[0] for c in REFUSALS])
def test_each_impossible_position_is_refused_saying_why(pos, options, words):
    with pytest.raises(ValueError) as exc:
        GAME.from_position(pos, options=options)
    assert type(exc.value) is ValueError
    assert words in str(exc.value), str(exc.value)


def test_the_positions_the_refusals_start_from_build():
    """Each refusal above changes one thing of a position that builds."""
    for pos, options in ((_base(), None), (_base(), DII),
                         ({"hands": [[5, 6], [5, 6]], "row": ROW_FIVE[:4]}, None)):
        GAME.from_position(pos, options=options)


# -- the hook every game has, and position strings ----------------------------------------------
def test_a_game_without_positions_fails_loudly():
    kiriai = pygames.get_game("kiriai")
    assert type(kiriai).from_position is Game.from_position
    with pytest.raises(NotImplementedError, match="Kiri-ai.* has no from_position"):
        kiriai.from_position({})
    with pytest.raises(NotImplementedError):
        kiriai.from_position({"anything": 1}, options={})
    for kwargs in ({"position": {}}, {}, {"board": 1}):
        with pytest.raises(records.RecordError) as exc:
            records.position_to_string("kiriai", kwargs)
        assert exc.value.code == "game" and "has no positions" in str(exc.value)


def test_position_strings_for_cardia():
    state = GAME.new_game(seed=5, options={"deck": "II", "location": "bazaar"})
    rng = random.Random(5)
    for _ in range(9):
        p = rng.choice(state.to_move())
        state.apply(p, rng.choice(state.legal_actions(p)))
    kwargs = {"position": full_position(state), "options": state.options}
    text = records.position_to_string("cardia", kwargs)
    assert records.position_from_string(text) == ("cardia", kwargs)
    same_for_every_seat(state, records.load(text))
    with pytest.raises(records.RecordError) as exc:
        records.position_to_string("cardia", {"position": {"row": [[16, 16]]}})
    assert exc.value.code == "position" and "hand is not given" in str(exc.value)
