"""Cardia — rule tests against ``shared/rules/cardia.md``.

The six worked examples of §9, every card of both decks, every location, the edge cases
of §7, the decisions C1–C19 that can be observed, round end (§6), the match, hidden
information and refused actions — all driven through the public protocol (``apply`` /
``legal_actions`` / ``view`` / ``events``).

Positions are set up with :func:`table`: a fresh game whose hands, decks and row are then
overwritten (row encounters are revealed and evaluated, as if played earlier), after which
play goes through ``apply`` only. Seat 0 is "A" (row letter ``a``), seat 1 is "B" (``b``).
Decks are lists whose last item is the top card.

Every game set up by :func:`table` is also played by search's fast path (the autouse
fixture :func:`_fast_twins`): each rule test doubles as a differential test of
``clone_fast`` / ``apply_fast`` / ``playout_fast`` against the public protocol.
"""

from __future__ import annotations

import json
import random

import pytest
from helpers import protocol

import pygames
import pygames.cardia
from pygames import IllegalAction
from pygames.cardia import (
    CARD_TITLES,
    COLOUR_TITLES,
    LOCATION_NAMES,
    ONGOING,
    CardiaGame,
    CardiaState,
    _new_card,
    colour_of,
)

GAME = pygames.get_game("cardia")
A, B = 0, 1


# -- helpers ---------------------------------------------------------------------------------
def E(va, vb, ma=0, mb=0, ona=False, onb=False):  # noqa: N802 - reads like a row entry
    """An earlier encounter for :func:`table`: values, modifiers, ongoing tokens."""
    return (va, vb, ma, mb, ona, onb)


def table(deck="I", location="none", hands=((), ()), decks=((), ()), row=(), seed=1):
    """A game in the placement phase with exactly these hands, decks and row."""
    s = GAME.new_game(seed=seed, options={"deck": deck, "location": location})
    s.hands = [sorted(h) for h in hands]
    s.decks = [list(d) for d in decks]
    s.row = []
    for va, vb, ma, mb, ona, onb in row:
        cards = []
        for v, m, on in ((va, ma, ona), (vb, mb, onb)):
            card = _new_card(v, True)
            card["mod"], card["on"] = m, on
            cards.append(card)
        s.row.append({"id": s.next_id, "cards": cards, "revealed": True, "evald": True,
                      "win": None})
        s.next_id += 1
    s._reevaluate()
    s.serpent = [0, 0]
    s.mark = len(s.log)
    _TWINS[id(s)] = [s, s.clone_fast()]
    return s


#: id(state) -> [a state set up by table(), its fast twin] (see _fast_twins).
_TWINS: dict[int, list] = {}


@pytest.fixture(autouse=True)
def _fast_twins(monkeypatch):
    """Every game :func:`table` sets up is also played by search's fast path: each
    ``apply`` is played on a fast copy too (``apply_fast``), and every field, view and
    legal set must stay the public path's; from every position reached, the fused
    ``playout_fast`` must play what the public protocol plays with the same numbers
    (:func:`_check_playouts`). A test that changed its state by hand gets a fresh twin at
    its next ``apply``."""
    _TWINS.clear()
    apply = CardiaState.apply

    def apply_both(self, player, action):
        entry = _TWINS.get(id(self))
        if entry is None or entry[0] is not self:
            apply(self, player, action)
            return
        if _fields(entry[1]) != _fields(self):
            entry[1] = self.clone_fast()
        apply(self, player, action)
        twin = entry[1]
        twin.apply_fast(player, action)
        assert _fields(twin) == _fields(self)
        assert _public_and_a_non_seat(twin) == _public_and_a_non_seat(self)
        _check_playouts(self)

    monkeypatch.setattr(CardiaState, "apply", apply_both)
    yield
    _TWINS.clear()


def _check_playouts(s, runs=((0, 1000), (1, 5))):
    """From ``s``, the fused fast playout and the public protocol's moves with the same
    numbers (``(seed, depth)`` each) give the same fields and the same end."""
    for seed, depth in runs:
        fast, public = s.clone_fast(), s.clone()
        ended = fast.playout_fast(random.Random(seed), depth)
        assert ended == _public_playout(public, random.Random(seed), depth)
        assert _fields(fast) == _fields(public)


def play(s, va, vb):
    """Place one encounter: A's card and B's (the Fortune Teller's victim goes first)."""
    first = s.to_move()
    if first == [B]:
        s.apply(B, str(vb))
        s.apply(A, str(va))
    else:
        s.apply(A, str(va))
        s.apply(B, str(vb))


def new_events(s, t=None, seat=None):
    """Public events since the table was set up (optionally of one kind)."""
    out = s.events(seat)[getattr(s, "mark", 0):]
    return [e for e in out if t is None or e["t"] == t]


def signets(s):
    return s.view(None)["signets"]


def card(s, n, seat, viewer=None):
    return s.view(viewer)["row"][n - 1]["cards"][seat]


def values(s):
    return [[c["value"] for c in enc["cards"]] for enc in s.view(None)["row"]]


def choice(s):
    return s.view(None)["choice"]


def round_end(s):
    ends = new_events(s, "round_end")
    return ends[-1] if ends else None


# -- §9 worked examples ----------------------------------------------------------------------
def test_example1_palace_guard_turnaround():
    s = table(hands=([7, 1], [11, 2, 6]), decks=([3], [4]))
    play(s, 7, 11)
    assert choice(s)["kind"] == "colour" and s.to_move() == [A]
    s.apply(A, "R")
    # B holds no Red card: still asked (C7 hides information), and may only pass.
    assert choice(s)["kind"] == "palace_guard_discard" and choice(s)["colour"] == "R"
    assert s.legal_actions(B) == ["pass"]
    s.apply(B, "pass")
    assert card(s, 1, A)["influence"] == 14
    assert signets(s) == [1, 0]
    assert [e["ability"] for e in new_events(s, "ability")] == ["palace_guard"]  # no Clockmaker


def test_example2_mediator_then_void_mage():
    s = table(hands=([4, 6, 1], [9, 2, 3]), decks=([5], [7]))
    play(s, 4, 9)
    assert card(s, 1, A)["ongoing"] is True
    assert signets(s) == [0, 0] and s.view(None)["row"][0]["winner"] is None
    play(s, 6, 2)
    # Void Mage: the only target is the Mediator, with only a token: both picks automatic.
    assert card(s, 1, A)["ongoing"] is False
    assert s.view(None)["row"][0]["winner"] == B
    assert signets(s) == [1, 1]
    assert [e["ability"] for e in new_events(s, "ability")] == ["mediator", "void_mage"]


def test_example3_losing_with_the_djinn():
    s = table(hands=([3, 16], [5, 12, 1]), decks=([2, 4], [6, 7]))
    play(s, 3, 5)  # Surgeon loses: A's next card gets −5
    assert s.view(None)["pending"]["next_modifier"] == [-5, 0]
    play(s, 16, 12)
    end = round_end(s)
    assert end["winner"] == A and end["reason"] == "djinn"
    assert s.wins == [1, 0] and s.round == 2


def test_example4_hired_blade_shift():
    s = table(hands=([1, 2], [8, 9]), decks=([3], [4]), row=[E(5, 3)])
    play(s, 1, 8)
    assert values(s) == [[5, 3]]
    assert signets(s) == [1, 0]
    assert new_events(s, "delete") == [{"t": "delete", "e": 2}]
    assert s.discards == [[1], [8]]
    s.apply(A, "2")
    s.apply(B, "9")
    assert values(s) == [[5, 3], [2, 9]]
    assert s.view(None)["row"][1]["n"] == 2


def test_example5_poisoner():
    s = table(deck="II", hands=([1, 2], [10, 3]), decks=([5], [6]))
    play(s, 1, 10)
    assert card(s, 1, B)["influence"] == 1 and card(s, 1, B)["modifiers"] == -9
    assert signets(s) == [0, 0]
    assert [e["ability"] for e in new_events(s, "ability")] == ["poisoner"]


def test_example6_signet_race_tie_then_win():
    row = [E(9, 1), E(10, 2), E(11, 3), E(12, 4), E(13, 5),
           E(1, 9), E(2, 10), E(3, 11), E(4, 12), E(5, 13)]
    s = table(hands=([6, 14], [7, 15]), decks=([16], [8]), row=row)
    assert signets(s) == [5, 5]
    play(s, 14, 15)  # B wins: 5 v 6 (Magistra finds no card as strong as itself)
    assert new_events(s, "evaluate")[-1]["signets"] == [0, 1]
    assert round_end(s)["winner"] == B and round_end(s)["reason"] == "signets"
    assert s.wins == [0, 1]


def test_example6_equal_five_continues():
    row = [E(9, 1), E(10, 2), E(11, 3), E(12, 4), E(13, 5),
           E(1, 9), E(2, 10), E(3, 11), E(4, 12)]
    s = table(hands=([14, 8], [15, 6]), decks=([16], [7]), row=row)
    play(s, 14, 15)   # B wins: 5 v 5, play goes on
    assert signets(s) == [5, 5] and round_end(s) is None
    play(s, 8, 6)     # A wins: 6 v 5
    assert round_end(s)["winner"] == A and round_end(s)["reason"] == "signets"


# -- Deck I ----------------------------------------------------------------------------------
def test_hired_blade_own_encounter_disappears():
    s = table(hands=([1, 2], [8, 9]), decks=([3], [4]))
    play(s, 1, 8)
    assert values(s) == [] and signets(s) == [0, 0]


def test_void_mage_offers_the_kind_when_the_card_has_both():  # C1
    s = table(hands=([2, 3], [6, 4]), decks=([5], [7]), row=[E(11, 9, mb=4, onb=True)])
    assert signets(s) == [0, 1]
    play(s, 2, 6)
    assert choice(s)["kind"] == "void_kind" and choice(s)["target"] == [1, B]
    assert s.legal_actions(A) == ["m", "o"]
    s.apply(A, "m")
    assert card(s, 1, B)["modifiers"] == 0 and card(s, 1, B)["ongoing"] is True
    assert signets(s) == [1, 1]


def test_void_mage_without_target_has_no_effect():
    s = table(hands=([2, 3], [6, 4]), decks=([5], [7]))
    play(s, 2, 6)
    assert new_events(s, "ability")[0]["none"] is True


def test_surgeon_minus_five_on_next_card_below_one():  # C10
    s = table(hands=([3, 4], [6, 5]), decks=([7], [8]))
    play(s, 3, 6)
    play(s, 4, 5)     # Mediator 4 − 5 = −1 loses to 5, then makes it a tie
    assert card(s, 2, A)["influence"] == -1
    places = [e for e in new_events(s, "place") if e["p"] == A]
    assert places[-1]["mod"] == -5
    assert s.view(None)["pending"]["next_modifier"] == [0, 0]


def test_mediator_tie_and_judge_wins_it():  # C3
    s = table(hands=([9, 1], [4, 2]), decks=([5], [7]), row=[E(8, 3, ona=True)])
    play(s, 9, 4)   # B's Mediator loses and makes encounter 2 a tie; A's Judge takes it
    assert card(s, 2, B)["ongoing"] is True
    assert card(s, 2, A)["signets"] == 1 and card(s, 2, B)["signets"] == 0


def test_saboteur_discards_top_two_of_opponent_deck():
    s = table(hands=([5, 1], [8, 2]), decks=([3], [4, 6, 7]))
    play(s, 5, 8)
    assert s.discards[B] == [7, 6]
    assert s.hands[B] == [2, 4]  # the 4 was drawn at Finish


def test_saboteur_with_short_deck():
    s = table(hands=([5, 1], [8, 2]), decks=([3], [4]))
    play(s, 5, 8)
    assert s.discards[B] == [4] and s.decks[B] == []


def test_fortune_teller_victim_places_face_up_first():
    s = table(hands=([6, 1, 2], [9, 3, 7]), decks=([5], [4]))
    play(s, 6, 9)
    assert s.view(None)["pending"]["fortune_teller"] == B
    assert s.to_move() == [B] and s.legal_actions(A) == []
    s.apply(B, "7")
    slot = s.view(A)["placing"][B]
    assert slot == {"placed": True, "value": 7, "face_up": True, "modifiers": 0}
    assert new_events(s, "place", A)[-1]["card"] == 7
    assert s.to_move() == [A]
    s.apply(A, "1")
    assert s.view(None)["pending"]["fortune_teller"] is None
    assert s.to_move() == [A, B]


def test_palace_guard_victim_discards_and_guard_stays_beaten():
    s = table(hands=([7, 1], [11, 3, 15]), decks=([2], [4]))
    play(s, 7, 11)
    s.apply(A, "R")
    assert s.legal_actions(B) == ["x3", "x15", "pass"]
    s.apply(B, "x3")
    assert card(s, 1, A)["influence"] == 7 and signets(s) == [0, 1]
    assert 3 in s.discards[B]


def test_palace_guard_decline_while_holding_the_colour():  # C7
    s = table(hands=([7, 1], [11, 3]), decks=([2], [4]))
    play(s, 7, 11)
    s.apply(A, "R")
    s.apply(B, "pass")
    assert card(s, 1, A)["influence"] == 14 and signets(s) == [1, 0]
    assert new_events(s, "decline") == [{"t": "decline", "p": B}]


def test_judge_takes_earlier_ties():
    s = table(hands=([8, 1], [10, 2]), decks=([3], [4]), row=[E(5, 5)])
    play(s, 8, 10)
    assert card(s, 1, A)["signets"] == 1 and card(s, 1, B)["signets"] == 0
    assert signets(s) == [1, 1]


def test_judge_for_both_players():
    s = table(hands=([11, 1], [8, 2]), decks=([4], [6]), row=[E(5, 5), E(8, 3, ona=True)])
    assert signets(s) == [2, 0]
    play(s, 11, 8)
    assert card(s, 1, A)["signets"] == 1 and card(s, 1, B)["signets"] == 1
    assert signets(s) == [3, 1]


def test_ambusher_discards_every_card_of_the_colour():
    s = table(hands=([9, 2], [13, 1, 5, 6]), decks=([3], [4]))
    play(s, 9, 13)
    s.apply(A, "G")
    assert s.discards[B] == [1, 5] and s.hands[B] == [4, 6]


def test_ambusher_empties_hand_and_cannot_play_is_checked_at_finish():
    s = table(hands=([9, 2], [13, 1]), decks=([3], []))
    play(s, 9, 13)
    s.apply(A, "G")
    end = round_end(s)
    assert end["winner"] == A and end["reason"] == "no_cards"


def test_puppeteer_replaces_the_winner_with_a_random_hand_card():
    s = table(hands=([10, 1], [12, 3]), decks=([2], [4]))
    play(s, 10, 12)
    assert values(s) == [[10, 3]]
    assert signets(s) == [1, 0]
    assert 12 in s.discards[B]
    assert s.view(None)["pending"]["next_modifier"] == [0, 0]  # the 3 (Surgeon) never acts
    assert new_events(s, "replace") == [{"t": "replace", "p": B, "e": 1, "old": 12, "new": 3}]


def test_puppeteer_with_an_empty_opposing_hand_wins_the_round():
    s = table(hands=([10, 1], [12]), decks=([2], [4]))
    play(s, 10, 12)
    assert round_end(s)["winner"] == A and round_end(s)["reason"] == "puppeteer"


def test_puppeteer_new_card_gets_no_pending_modifier():
    s = table(hands=([10, 1], [12, 3]), decks=([2], [4]))
    s.apply(B, "12")
    s.next_mod[B] = -5  # a "next card" effect of B's that is still waiting
    s.apply(A, "10")
    assert card(s, 1, B) == {"value": 3, "influence": 3, "modifiers": 0, "ongoing": False,
                             "signets": 0, "face_up": True}
    assert s.view(None)["pending"]["next_modifier"] == [0, -5]


def test_clockmaker_previous_and_next():
    s = table(hands=([11, 2], [13, 4]), decks=([3], [5]), row=[E(9, 10)])
    play(s, 11, 13)
    assert card(s, 1, A)["influence"] == 12 and signets(s) == [1, 1]
    play(s, 2, 4)
    assert card(s, 3, A)["influence"] == 5


def test_clockmaker_without_previous_encounter():
    s = table(hands=([11, 2], [13, 1]), decks=([3], [4]))
    play(s, 11, 13)
    assert [e["by"] for e in new_events(s, "modifier")] == []
    assert s.view(None)["pending"]["next_modifier"] == [3, 0]


def test_treasurer_extra_signet_for_either_player():
    s = table(hands=([12, 2], [14, 1]), decks=([3], [4]), row=[E(5, 9)])
    play(s, 12, 14)
    assert card(s, 1, B)["signets"] == 2 and signets(s) == [0, 3]


def test_swamp_guardian_returns_a_card_and_the_row_shifts():
    s = table(hands=([13, 2], [15, 1]), decks=([4], [6]), row=[E(9, 5), E(3, 7)])
    play(s, 13, 15)
    assert choice(s)["kind"] == "swamp_target"
    assert s.legal_actions(A) == ["1a", "2a"]
    s.apply(A, "1a")
    assert values(s) == [[3, 7], [13, 15]]
    assert 9 in s.hands[A] and 5 in s.discards[B]
    assert signets(s) == [0, 2]
    assert new_events(s, "return") == [{"t": "return", "p": A, "e": 1, "card": 9}]


def test_swamp_guardian_needs_another_played_card():
    s = table(hands=([13, 2], [15, 1]), decks=([4], [6]))
    play(s, 13, 15)
    assert new_events(s, "ability")[0]["none"] is True


def test_magistra_copies_the_djinn():
    s = table(hands=([14, 2], [15, 1]), decks=([4], [6]), row=[E(16, 4)])
    play(s, 14, 15)
    abilities = new_events(s, "ability")
    assert [(e["ability"], e.get("via")) for e in abilities] == [
        ("magistra", None), ("djinn", "magistra")]
    assert round_end(s)["winner"] == A and round_end(s)["reason"] == "djinn"


def test_magistra_copy_acts_as_the_magistra():
    # Copying Clockmaker: +3 to A's card left of the *Magistra* (encounter 2), not enc 0.
    s = table(hands=([14, 2], [15, 1]), decks=([4], [6]), row=[E(11, 16, ma=5), E(9, 10)])
    play(s, 14, 15)
    assert card(s, 2, A)["influence"] == 12
    assert card(s, 1, A)["influence"] == 16


def test_magistra_needs_a_card_at_least_as_strong():
    s = table(hands=([14, 2], [15, 1]), decks=([4], [6]), row=[E(13, 4)])
    play(s, 14, 15)
    assert new_events(s, "ability")[0]["none"] is True


def test_inventor_plus_then_minus():
    s = table(hands=([15, 2], [16, 1]), decks=([4], [6]))
    play(s, 15, 16)
    assert choice(s)["kind"] == "inventor_plus"
    assert s.legal_actions(A) == ["1a", "1b"]
    s.apply(A, "1b")  # +3 on the Djinn: the −3 can only go on the Inventor (automatic)
    assert card(s, 1, B)["influence"] == 19 and card(s, 1, A)["influence"] == 12


def test_inventor_minus_step_is_automatic_with_one_option():
    s = table(hands=([15, 2], [16, 1]), decks=([4], [6]))
    play(s, 15, 16)
    s.apply(A, "1a")
    assert choice(s) is None  # one option left: made automatically
    assert card(s, 1, A)["influence"] == 18 and card(s, 1, B)["influence"] == 13
    assert signets(s) == [1, 0]
    mods = new_events(s, "modifier")
    assert [(m["p"], m["delta"]) for m in mods] == [(A, 3), (B, -3)]


def test_inventor_choice_between_many_cards():
    s = table(hands=([15, 2], [16, 1]), decks=([4], [6]), row=[E(9, 10)])
    play(s, 15, 16)
    s.apply(A, "1a")
    assert s.legal_actions(A) == ["1b", "2a", "2b"]
    s.apply(A, "2b")
    assert signets(s) == [2, 0]


def test_djinn_wins_the_round():
    s = table(hands=([16, 2], [1, 3]), decks=([4], [6]))
    s.next_mod[A] = -16
    play(s, 16, 1)
    assert round_end(s)["winner"] == A and round_end(s)["reason"] == "djinn"


# -- Deck II ---------------------------------------------------------------------------------
def test_kinesis_moves_a_token():
    s = table(deck="II", hands=([2, 1], [9, 3]), decks=([4], [6]),
              row=[E(3, 5), E(8, 4, ona=True)])
    assert signets(s) == [2, 1]  # the Aristocrat's extra signet
    play(s, 2, 9)
    assert choice(s)["kind"] == "kinesis_to" and choice(s)["from"] == [2, A]
    s.apply(A, "1a")
    assert card(s, 2, A)["ongoing"] is False and card(s, 1, A)["ongoing"] is True
    assert card(s, 2, A)["signets"] == 1
    assert new_events(s, "move")[0]["token"] is True


def test_kinesis_modifiers_add_to_the_destination():  # C17
    s = table(deck="II", hands=([2, 1], [9, 3]), decks=([11], [12]),
              row=[E(7, 8, ma=2), E(4, 6, ma=1)])
    assert signets(s) == [1, 1]
    play(s, 2, 9)
    s.apply(A, "1a")   # from encounter 1
    s.apply(A, "2a")   # to encounter 2
    assert card(s, 2, A)["modifiers"] == 3 and card(s, 1, A)["modifiers"] == 0
    assert s.view(None)["row"][0]["winner"] == B and s.view(None)["row"][1]["winner"] == A


def test_kinesis_needs_two_own_cards():
    s = table(deck="II", hands=([2, 1], [9, 3]), decks=([4], [6]))
    play(s, 2, 9)
    assert new_events(s, "ability")[0]["none"] is True


def test_envoy_row_card_or_next_card():
    s = table(deck="II", hands=([3, 1], [6, 2]), decks=([4], [5]))
    play(s, 3, 6)
    assert s.legal_actions(A) == ["1a", "1b", "n"]
    s.apply(A, "1b")
    assert card(s, 1, B)["influence"] == 3 and signets(s) == [0, 0]
    s2 = table(deck="II", hands=([3, 1], [6, 2]), decks=([4], [5]))
    play(s2, 3, 6)
    s2.apply(A, "n")
    assert s2.view(None)["pending"]["next_modifier"] == [-3, 0]


def test_tax_collector_plus_four_on_itself():
    s = table(deck="II", hands=([4, 1], [7, 2]), decks=([3], [5]))
    play(s, 4, 7)
    assert card(s, 1, A)["influence"] == 8 and signets(s) == [1, 0]


def test_revolutionary_opponent_discards_two_then_draws_two():
    s = table(deck="II", hands=([5, 1], [9, 2, 3, 4]), decks=([6], [7, 8, 10]))
    play(s, 5, 9)
    assert choice(s)["kind"] == "discard" and choice(s)["seat"] == B
    s.apply(B, "x2")
    assert choice(s)["count"] == 1
    s.apply(B, "x4")
    assert s.discards[B] == [2, 4]
    draws = [e for e in new_events(s, "draw") if e["p"] == B]
    assert [e["n"] for e in draws] == [2, 1]  # Revolutionary, then the Finish draw
    assert s.hands[B] == [3, 7, 8, 10]


def test_revolutionary_with_fewer_than_two_cards():  # C8
    s = table(deck="II", hands=([5, 1], [9, 2]), decks=([6], [7, 8, 10]))
    play(s, 5, 9)
    assert choice(s) is None and s.discards[B] == [2]
    assert s.hands[B] == [7, 8, 10]


def test_librarian_choice_at_the_next_reveal():
    s = table(deck="II", hands=([6, 10], [9, 11]), decks=([1], [2]))
    play(s, 6, 9)
    assert s.view(None)["pending"]["librarian"] == [1, 0]
    play(s, 10, 11)
    c = choice(s)
    assert c["kind"] == "librarian" and c["target"] == [2, A]
    assert new_events(s, "evaluate")[-1]["e"] == 1  # encounter 2 not evaluated yet
    s.apply(A, "+")
    assert card(s, 2, A)["influence"] == 12 and s.view(None)["row"][1]["winner"] == A


def test_prodigy_plus_three_on_own_card_at_most_eight():
    s = table(deck="II", hands=([7, 1], [9, 2]), decks=([3], [4]), row=[E(5, 6), E(12, 3)])
    play(s, 7, 9)
    assert s.legal_actions(A) == ["1a", "3a"]  # 12 is too strong
    s.apply(A, "3a")
    assert card(s, 3, A)["influence"] == 10 and signets(s) == [2, 1]


def test_aristocrat_gets_its_token_and_extra_signet():
    s = table(deck="II", hands=([8, 1], [10, 2]), decks=([3], [4]))
    play(s, 8, 10)
    assert card(s, 1, A)["ongoing"] is True
    s2 = table(deck="II", row=[E(8, 5, ona=True)])
    assert signets(s2) == [2, 0]


def test_blackmailer_hits_when_the_colour_differs():
    s = table(deck="II", hands=([9, 1], [12, 2, 3, 4]), decks=([5], [6]))
    play(s, 9, 12)
    s.apply(A, "R")
    assert s.view(None)["pending"]["blackmail"] == [[], ["R"]]
    play(s, 1, 2)  # B reveals Yellow 2: must discard 2 before evaluation
    c = choice(s)
    assert c["kind"] == "discard" and c["why"] == "blackmailer" and c["seat"] == B
    assert new_events(s, "evaluate")[-1]["e"] == 1
    s.apply(B, "x3")
    s.apply(B, "x4")
    assert s.discards[B] == [3, 4]


def test_blackmailer_misses_on_the_named_colour():
    s = table(deck="II", hands=([9, 1], [12, 3, 2]), decks=([5], [6]))
    play(s, 9, 12)
    s.apply(A, "R")
    play(s, 1, 3)
    assert choice(s) is None and s.discards[B] == []
    assert new_events(s, "blackmail")[0]["hit"] is False


def test_illusionist_reactivates_a_losing_card_where_it_lies():  # C15
    s = table(deck="II", hands=([10, 1], [12, 2]), decks=([3], [5]), row=[E(4, 6)])
    play(s, 10, 12)
    assert card(s, 1, A)["influence"] == 8          # the Tax Collector itself got +4
    assert card(s, 2, A)["influence"] == 10         # the Illusionist is unchanged
    assert signets(s) == [1, 1]
    ab = new_events(s, "ability")[-1]
    assert ab["via"] == "illusionist" and ab["ability"] == "tax_collector" and ab["e"] == 1


def test_illusionist_on_an_ongoing_loser():
    s = table(deck="II", hands=([10, 1], [11, 2]), decks=([3], [5]),
              row=[E(3, 5), E(12, 13)])
    play(s, 10, 11)
    assert s.legal_actions(A) == ["1a", "2a"]
    s.apply(A, "2a")
    assert card(s, 2, A)["ongoing"] is True
    assert s.view(None)["row"][0]["winner"] == A  # the Counselor now decides encounter 1


def test_illusionist_cannot_pick_a_tied_card():  # C16
    s = table(deck="II", hands=([10, 1], [11, 2]), decks=([3], [5]), row=[E(4, 4)])
    play(s, 10, 11)
    assert new_events(s, "ability")[0]["none"] is True


def test_engineer_plus_five_after_the_ability():
    s = table(deck="II", hands=([11, 4], [13, 9]), decks=([1], [2]))
    play(s, 11, 13)
    assert s.view(None)["pending"]["engineer"] == [1, 0]
    play(s, 4, 9)
    mods = [(m["by"], m["total"]) for m in new_events(s, "modifier")]
    assert mods == [("tax_collector", 4), ("engineer", 9)]
    assert s.view(None)["row"][1]["winner"] == A
    assert [e["ability"] for e in new_events(s, "ability")] == ["engineer", "tax_collector"]


def test_counselor_decides_the_previous_encounter():
    s = table(deck="II", hands=([12, 1], [14, 2]), decks=([3], [5]), row=[E(3, 9)])
    play(s, 12, 14)
    assert s.view(None)["row"][0]["winner"] == A and signets(s) == [1, 1]


def test_counselor_overrides_later_modifiers():
    s = table(deck="II", hands=([3, 1], [6, 2]), decks=([4], [5]),
              row=[E(3, 9), E(12, 14, ona=True)])
    assert s.view(None)["row"][0]["winner"] == A
    play(s, 3, 6)
    s.apply(A, "1b")  # Envoy −3 on B's 9: still A by the Counselor
    assert s.view(None)["row"][0]["winner"] == A


def test_two_active_counselors_cancel_out():
    s = table(deck="II", row=[E(3, 9), E(12, 12, ona=True, onb=True)])
    assert s.view(None)["row"][0]["winner"] == B


def test_witch_king_hand_and_deck():
    s = table(deck="II", hands=([13, 1], [15, 5, 2]), decks=([3], [9, 4, 1, 6]))
    play(s, 13, 15)
    s.apply(A, "G")
    assert sorted(s.discards[B]) == [1, 5, 9]
    assert 9 not in s.decks[B] and 1 not in s.decks[B]
    assert new_events(s, "shuffle") == [{"t": "shuffle", "p": B}]


def test_elemental_activates_a_hand_card_then_draws():  # C2
    s = table(deck="II", hands=([14, 4, 8, 3], [15, 1]), decks=([5, 6, 7], [2, 9]))
    play(s, 14, 15)
    assert s.legal_actions(A) == ["x3", "x4"]  # the Aristocrat (ongoing) is not an option
    s.apply(A, "x4")
    assert card(s, 1, A)["influence"] == 18 and signets(s) == [1, 0]
    assert 4 in s.discards[A]
    draws = new_events(s, "draw")
    assert [(e["p"], e["n"], e.get("why")) for e in draws] == [
        (A, 1, None), (B, 1, None), (A, 1, "elemental")]


def test_elemental_without_instant_card_does_nothing():
    s = table(deck="II", hands=([14, 8, 12], [15, 1]), decks=([5, 6, 7], [2, 9]))
    play(s, 14, 15)
    assert new_events(s, "ability")[0]["none"] is True
    assert len(new_events(s, "draw")) == 2


def test_mechanical_djinn_wins_with_the_following_encounter():  # C12
    s = table(deck="II", hands=([15, 9], [16, 5]), decks=([1], [2]))
    play(s, 15, 16)
    assert card(s, 1, A)["ongoing"] is True
    assert s.view(None)["pending"]["mechanical_djinn"] == [[1, A]]
    play(s, 9, 5)
    assert round_end(s)["winner"] == A and round_end(s)["reason"] == "mechanical_djinn"


def test_mechanical_djinn_when_the_next_encounter_is_deleted():
    s = table(deck="II", hands=([9], [5]), decks=([1], [2]),
              row=[E(15, 16, ona=True), E(3, 10)])
    # Deck II has no card that empties an encounter; remove encounter 2 as §4.4 does.
    s._remove(1, A, "discard", "test")
    s._remove(1, B, "discard", "test")
    s._drop_empty(1)
    play(s, 9, 5)   # now the encounter right of the Djinn
    assert round_end(s)["reason"] == "mechanical_djinn"


def test_successor_keeps_two_of_the_opponents_choice():
    s = table(deck="II", hands=([16, 1], [15, 2, 3, 4, 5]), decks=([6], [7, 8]))
    s.next_mod[B] = 3
    play(s, 16, 15)
    assert s.decks[B] == [] and s.discards[B][:2] == [8, 7]
    assert choice(s)["kind"] == "successor_keep" and choice(s)["seat"] == B
    s.apply(B, "k2")
    assert s.view(B)["choice"]["kept"] == [2] and "kept" not in s.view(A)["choice"]
    s.apply(B, "k5")
    assert s.hands[B] == [2, 5] and sorted(s.discards[B]) == [3, 4, 7, 8]


# -- locations (§5) --------------------------------------------------------------------------
def test_serpent_temple_newly_won_earlier_encounter():
    s = table(location="serpent_temple", hands=([11, 1], [13, 2, 3]),
              decks=([4, 6], [7, 8]), row=[E(5, 7)])
    play(s, 11, 13)
    assert s.view(None)["row"][0]["winner"] == A
    assert choice(s)["kind"] == "discard" and choice(s)["why"] == "serpent_temple"
    assert choice(s)["seat"] == B
    s.apply(B, "x2")
    draws = [(e["p"], e.get("why")) for e in new_events(s, "draw")]
    assert draws == [(A, "serpent_temple"), (A, None), (B, None)]
    assert s.discards[B] == [2]


def test_bazaar_refills_small_hands_at_finish_only():  # C19
    s = table(location="bazaar", hands=([1, 2], [3, 4, 5]), decks=([6, 7, 8, 9, 10], [11, 12]))
    s.apply(A, "1")
    assert len(s.hands[A]) == 1  # nothing before Finish
    s.apply(B, "3")
    assert len(s.hands[A]) == 5 and len(s.hands[B]) == 2
    assert [(e["p"], e["n"]) for e in new_events(s, "draw")] == [(A, 4)]


def test_founders_day_three_in_a_row_skips_the_loser_ability():
    s = table(location="founders_day", hands=([11, 1], [7, 2]), decks=([3], [4]),
              row=[E(9, 5), E(10, 6)])
    play(s, 11, 7)
    assert round_end(s)["winner"] == A and round_end(s)["reason"] == "founders_day"
    assert new_events(s, "ability") == []


def test_grand_library_two_cards_dealt_two_drawn():
    s = GAME.new_game(seed=4, options={"location": "grand_library"})
    assert s.view(0)["hand_sizes"] == [2, 2] and s.view(0)["deck_sizes"] == [14, 14]
    t = table(location="grand_library", hands=([12, 1], [11, 2]), decks=([3, 4, 5], [6, 7]))
    play(t, 12, 11)  # the Clockmaker loses: no previous encounter, +3 waits
    assert [(e["p"], e["n"]) for e in new_events(t, "draw")] == [(A, 2), (B, 2)]
    assert t.hands == [[1, 4, 5], [2, 6, 7]]


def test_scrapyard_never_puts_away_the_last_hand_card():
    s = table(location="scrapyard", hands=([1], [3]), decks=([5], [8]))
    play(s, 1, 3)   # B's Surgeon loses; each draws its one deck card: hand of 1
    assert choice(s) is None and s.hands == [[5], [8]]
    assert new_events(s, "under") == []


def test_scrapyard_draw_two_then_put_one_under():
    s = table(location="scrapyard", hands=([1, 2], [3, 4]), decks=([5, 6, 7], [8, 9, 10]))
    s.apply(A, "1")
    s.apply(B, "3")
    while choice(s) and choice(s)["kind"] != "scrapyard_under":
        p = s.to_move()[0]
        s.apply(p, s.legal_actions(p)[0])
    assert choice(s)["seat"] == A and s.hands[A] == [2, 6, 7]
    s.apply(A, "u6")
    assert s.decks[A][0] == 6
    assert choice(s)["seat"] == B
    s.apply(B, s.legal_actions(B)[0])
    under = new_events(s, "under", seat=B)
    assert "card" not in under[0] and under[1]["card"] == s.decks[B][0]


def test_auction_house_weaker_than_own_previous_discards_deck_top():
    s = table(location="auction_house", hands=([7, 1], [8, 2]), decks=([3, 4], [5, 6]),
              row=[E(9, 5)])
    play(s, 7, 8)
    loc = new_events(s, "location")
    assert loc == [{"t": "location", "loc": "auction_house", "p": A}]
    assert s.discards[A][0] == 4


def test_haunted_catacombs_same_colour_loses():
    s = table(location="haunted_catacombs", hands=([13, 1], [6, 2]), decks=([3], [4]),
              row=[E(9, 5)])
    play(s, 13, 6)
    assert round_end(s)["winner"] == B and round_end(s)["reason"] == "haunted_catacombs"
    assert new_events(s, "evaluate") == []


def test_haunted_catacombs_both_at_once_no_winner():  # C5
    s = table(location="haunted_catacombs", hands=([13, 1], [1, 2]), decks=([3], [4]),
              row=[E(9, 5)])
    play(s, 13, 1)
    assert round_end(s)["winner"] is None
    assert s.wins == [0, 0] and s.results == [None] and s.round == 2


def test_foggy_swamp_resolves_the_previous_encounter():
    s = table(location="foggy_swamp", hands=([3, 5, 9], [6, 7, 8]), decks=([1, 2], [4, 10]))
    play(s, 3, 6)
    row = s.view(A)["row"]
    assert row[0]["revealed"] is False and row[0]["cards"][B]["value"] is None
    assert row[0]["cards"][A]["value"] == 3           # your own face-down card
    assert new_events(s, "reveal") == [] and len(new_events(s, "draw")) == 2
    play(s, 5, 7)
    assert [e["e"] for e in new_events(s, "reveal")] == [1]
    assert s.view(None)["row"][1]["revealed"] is False
    # The Surgeon resolved while encounter 2 was on the table: it waits for encounter 3.
    assert s.view(None)["row"][1]["cards"][A]["modifiers"] == 0
    assert s.view(None)["pending"]["next_modifier"] == [-5, 0]
    play(s, 9, 8)
    assert s.view(None)["row"][2]["cards"][A]["modifiers"] == -5


def test_foggy_swamp_face_down_cards_are_not_targets():
    s = table(location="foggy_swamp", hands=([15, 1, 2], [16, 3, 4]), decks=([5], [6]))
    play(s, 15, 16)
    play(s, 1, 3)   # encounter 1 resolves: the Inventor loses; encounter 2 is face down
    assert choice(s)["kind"] == "inventor_plus"
    assert s.legal_actions(A) == ["1a", "1b"]


def test_founders_day_both_at_once_no_winner():
    t = table(location="founders_day", hands=([15, 1], [16, 2]), decks=([3], [4]),
              row=[E(9, 5), E(10, 6), E(8, 9), E(4, 12), E(13, 13)])
    play(t, 15, 16)   # B wins encounter 6; A's Inventor then changes two encounters
    t.apply(A, "3a")  # +3: A now holds encounters 1-3
    t.apply(A, "5a")  # −3: B now holds encounters 4-6
    assert round_end(t)["winner"] is None and round_end(t)["reason"] == "founders_day"


def test_foggy_swamp_librarian_waits_for_its_card():
    s = table(deck="II", location="foggy_swamp", hands=([6, 1, 10, 11], [9, 2, 3, 4]),
              decks=([5], [7]))
    play(s, 6, 9)      # encounter 1 face down
    play(s, 1, 2)      # encounter 1 resolves: Librarian loses
    assert s.view(None)["pending"]["librarian"] == [1, 0]
    play(s, 10, 3)     # the Librarian's next card: encounter 3; encounter 2 resolves
    assert choice(s) is None
    assert s.view(None)["pending"]["waiting"] == [
        {"n": 3, "seat": A, "librarian": 1, "engineer": 0, "blackmail": []}]
    play(s, 11, 4)     # encounter 3 resolves: now the Librarian choice
    assert choice(s)["kind"] == "librarian" and choice(s)["target"] == [3, A]


def test_foggy_swamp_last_encounter_never_resolves():  # C9
    s = table(location="foggy_swamp", hands=([5, 6], [7, 8]))
    play(s, 5, 7)
    play(s, 6, 8)
    end = round_end(s)
    assert end["winner"] == B and end["reason"] == "no_cards"
    assert [e["e"] for e in new_events(s, "reveal")] == [1]


# -- round end (§6) and the match ------------------------------------------------------------
def test_instant_win_comes_before_signets():
    row = [E(9, 1), E(10, 2), E(11, 3), E(12, 4)]
    s = table(hands=([15, 1], [16, 5]), decks=([6], [7]), row=row)
    s.next_mod[B] = -20  # B's Djinn loses to A's 15 and wins the round for B
    play(s, 15, 16)
    assert round_end(s)["winner"] == B and round_end(s)["reason"] == "djinn"


def test_signets_come_before_cannot_play():
    row = [E(9, 1), E(10, 2), E(11, 3), E(12, 4)]
    s = table(hands=([13], [5]), row=row)
    play(s, 13, 5)
    assert round_end(s)["winner"] == A and round_end(s)["reason"] == "signets"


def test_both_out_of_cards_more_signets_wins():  # C18
    s = table(hands=([13], [5]), row=[E(1, 9), E(2, 10)])
    play(s, 13, 5)
    assert round_end(s)["winner"] == B and round_end(s)["reason"] == "no_cards"


def test_both_out_of_cards_equal_signets_no_winner():  # C5
    s = table(hands=([13], [5]), row=[E(1, 9)])
    play(s, 13, 5)
    assert round_end(s)["winner"] is None and s.round == 2 and s.wins == [0, 0]


def test_one_out_of_cards_loses():
    s = table(hands=([13, 1], [5]), decks=([2], []), row=[E(1, 9), E(2, 10)])
    play(s, 13, 5)
    assert round_end(s)["winner"] == A and round_end(s)["reason"] == "no_cards"


def test_fresh_deal_between_rounds_clears_everything():  # C14
    s2 = table(hands=([16, 3], [1, 2]), decks=([4], [5]))
    s2.next_mod = [-16, 0]
    s2.apply(A, "16")
    # Effects still waiting for A's next card when the round ends:
    s2.next_mod[A], s2.engineer[A], s2.librarian[A], s2.blackmail[A] = 3, 1, 1, ["R"]
    s2.apply(B, "2")
    assert round_end(s2)["reason"] == "djinn"
    v = s2.view(A)
    assert v["round"] == 2 and v["row"] == [] and v["signets"] == [0, 0]
    assert v["hand_sizes"] == [5, 5] and v["deck_sizes"] == [11, 11]
    assert v["discards"] == [[], []]
    pending = v["pending"]
    assert pending["next_modifier"] == [0, 0] and pending["engineer"] == [0, 0]
    assert pending["librarian"] == [0, 0] and pending["blackmail"] == [[], []]
    assert sorted(s2.hands[A] + s2.decks[A]) == list(range(1, 17))
    assert new_events(s2, "round")[-1] == {"t": "round", "n": 2, "wins": [1, 0]}


def test_best_of_three_match_end():
    s = table(hands=([16, 3], [1, 2]), decks=([4], [5]))
    s.wins = [1, 1]
    s.next_mod = [-16, 0]
    play(s, 16, 2)
    assert s.is_over() and s.to_move() == []
    assert s.outcome() == {"winners": [A], "ranks": [1, 2], "scores": [2, 1],
                           "reason": "rounds"}
    assert new_events(s, "end") == [{"t": "end", "winner": A, "wins": [2, 1]}]
    with pytest.raises(IllegalAction, match="over"):
        s.apply(A, "3")


def test_a_whole_match_is_two_wins_and_fresh_deals():
    for seed in range(30):
        s = GAME.new_game(seed=seed, options={"deck": "II" if seed % 2 else "I"})
        rng = random.Random(seed)
        while not s.is_over():
            p = rng.choice(s.to_move())
            s.apply(p, rng.choice(s.legal_actions(p)))
        ends = [e for e in s.events(None) if e["t"] == "round_end"]
        rounds = [e for e in s.events(None) if e["t"] == "round"]
        assert len(rounds) == len(ends) and max(s.wins) == 2
        assert s.outcome()["scores"] == s.wins
        deals = [e for e in s.events(None) if e["t"] == "deal"]
        assert len(deals) == 2 * len(rounds) and all(d["n"] == 5 for d in deals)


def test_random_location_is_resolved_from_the_seed():
    locs = {GAME.new_game(seed=k, options={"location": "random"}).view(None)["location"]
            for k in range(40)}
    assert "random" not in locs and len(locs) > 3
    a = GAME.new_game(seed=9, options={"location": "random"})
    b = GAME.new_game(seed=9, options={"location": "random"})
    assert a == b and a.options["location"] == "random"


# -- hidden information ----------------------------------------------------------------------
def test_views_hide_the_opponents_hand_and_face_down_card():
    s = GAME.new_game(seed=5)
    hand_b = list(s.hands[B])
    view_a = s.view(A)
    assert view_a["hand"] == s.hands[A] and view_a["hand_sizes"] == [5, 5]
    assert "options_now" in view_a and view_a["options_now"] == s.legal_actions(A)
    s.apply(B, str(hand_b[0]))
    slot = s.view(A)["placing"][B]
    assert slot["placed"] is True and slot["value"] is None
    assert s.view(B)["placing"][B]["value"] == hand_b[0]
    assert s.view(None)["placing"][B]["value"] is None
    text = json.dumps(s.events(A))
    for e in s.events(A):
        if e["t"] in ("deal", "draw") and e["p"] == B or e["t"] == "place":
            assert "card" not in e and "cards" not in e
    assert '"_to"' not in text


def test_draws_are_hidden_counts_public():
    s = table(hands=([5, 1], [8, 2]), decks=([3], [4, 6, 7]))
    play(s, 5, 8)
    mine = [e for e in new_events(s, "draw", seat=A) if e["p"] == A]
    theirs = [e for e in new_events(s, "draw", seat=A) if e["p"] == B]
    assert mine[0]["cards"] == [3] and theirs[0] == {"t": "draw", "p": B, "n": 1}


def test_choice_options_only_for_the_chooser():
    s = table(hands=([7, 1], [11, 3, 15]), decks=([2], [4]))
    play(s, 7, 11)
    s.apply(A, "R")
    assert s.view(B)["options_now"] == ["x3", "x15", "pass"]
    assert s.view(A)["options_now"] == [] and "_opts" not in json.dumps(s.view(A))
    assert "x3" not in json.dumps(s.view(A))


def test_every_seat_sees_the_same_number_of_events():
    s = GAME.new_game(seed=8, options={"deck": "II", "location": "scrapyard"})
    rng = random.Random(8)
    while not s.is_over():
        assert len(s.events(0)) == len(s.events(1)) == len(s.events(None))
        p = rng.choice(s.to_move())
        s.apply(p, rng.choice(s.legal_actions(p)))


# -- refused actions -------------------------------------------------------------------------
def test_illegal_placement_leaves_state_unchanged():
    s = table(hands=([5, 1], [8, 2]), decks=([3], [4]))
    before = s.clone()
    with pytest.raises(IllegalAction, match="do not hold card 7"):
        s.apply(A, "7")
    with pytest.raises(IllegalAction, match="not a placement"):
        s.apply(A, "x5")
    assert s == before
    s.apply(A, "5")
    with pytest.raises(IllegalAction, match="not player 1's turn"):
        s.apply(A, "1")


def test_illegal_choice_explains_and_leaves_state_unchanged():
    s = table(hands=([7, 1], [11, 3]), decks=([2], [4]))
    play(s, 7, 11)
    before = s.clone()
    with pytest.raises(IllegalAction, match="name a colour"):
        s.apply(A, "P")
    with pytest.raises(IllegalAction, match="turn"):
        s.apply(B, "G")
    assert s == before
    s.apply(A, "R")
    with pytest.raises(IllegalAction, match="pass"):
        s.apply(B, "x11")
    assert s.clone() == s


# -- catalogue -------------------------------------------------------------------------------
def test_names_colours_and_options_are_complete():  # C13
    assert [colour_of(v) for v in (1, 2, 3, 4, 13, 16)] == ["G", "Y", "R", "B", "G", "B"]
    from pgui import cardia_ui  # what players read; the engine's English titles agree

    assert COLOUR_TITLES["G"].startswith("Green")
    assert {k: v["en"] for k, v in cardia_ui.COLOUR_NAMES.items()} == COLOUR_TITLES
    for deck in ("I", "II"):
        assert sorted(CARD_TITLES[deck]) == list(range(1, 17))
        assert all(n["en"] and n["ja"] for n in cardia_ui.CARD_NAMES[deck].values())
        assert {v: n["en"] for v, n in cardia_ui.CARD_NAMES[deck].items()} == CARD_TITLES[deck]
    assert ONGOING == {"I": (4, 8, 12), "II": (8, 12, 15)}
    labels = CardiaGame.option_labels
    for name, spec in CardiaGame.option_schema.items():
        assert labels[name]["label"]["ja"]
        for value in spec["values"]:
            assert labels[name][value]["en"] and labels[name][value]["ja"]
    assert set(LOCATION_NAMES) == set(CardiaGame.option_schema["location"]["values"])
    assert GAME.names == {"en": "Cardia", "ja": "カーディア"}
    assert "cardia" not in pygames.PLANNED


def test_fast_events_and_clone_match_the_core_protocol():
    from pygames.core import State, redact_event

    s = GAME.new_game(seed=12, options={"deck": "II", "location": "foggy_swamp"})
    rng = random.Random(12)
    while not s.is_over():
        for seat in (None, 0, 1):
            assert s.events(seat) == [redact_event(e, seat) for e in s.log]
            assert s.events(seat, 5) == [redact_event(e, seat) for e in s.log[5:]]
        twin = s.clone()
        assert twin == s and State.clone(s) == twin and twin.rng == s.rng
        p = rng.choice(s.to_move())
        s.apply(p, rng.choice(s.legal_actions(p)))
    returned = s.events(0)
    returned[0]["t"] = "changed"
    assert s.events(0)[0]["t"] == "round"  # callers get copies


def test_placement_message_names_the_card():
    s = table(hands=([5, 1], [8, 2]), decks=([3], [4]))
    with pytest.raises(IllegalAction, match="Judge"):
        s.apply(A, "8")
    with pytest.raises(IllegalAction, match="not a placement"):
        s.apply(A, "05")


# -- ongoing effects follow re-evaluation (§4.2, §4.3) ---------------------------------------
def test_removing_a_judges_token_removes_its_signets():
    s = table(hands=([11, 1], [2, 3]), decks=([4], [6]), row=[E(5, 5), E(8, 3, ona=True)])
    assert signets(s) == [2, 0]
    play(s, 11, 2)   # B's Void Mage loses: the only target is the Judge, only its token
    assert card(s, 2, A)["ongoing"] is False
    assert card(s, 1, A)["signets"] == 0 and signets(s) == [2, 0]
    changed = new_events(s, "signets")[-1]["changed"]
    assert {"e": 1, "before": [1, 0], "after": [0, 0]} in changed


def test_treasurer_extra_signet_follows_a_new_winner():
    s = table(hands=([15, 1], [16, 2]), decks=([4], [6]), row=[E(5, 9), E(12, 3, ona=True)])
    assert card(s, 1, B)["signets"] == 2
    play(s, 15, 16)
    s.apply(A, "1a")   # +3: 8 v 9, still B
    s.apply(A, "1b")   # −3: 8 v 6, A now wins encounter 1, with the Treasurer's extra
    assert card(s, 1, A)["signets"] == 2 and card(s, 1, B)["signets"] == 0


def test_kinesis_token_onto_an_inactive_ongoing_card_activates_it():
    s = table(deck="II", hands=([2, 1], [9, 4]), decks=([5], [6]),
              row=[E(3, 5, ona=True), E(12, 13)])
    assert s.view(None)["row"][0]["winner"] == B
    play(s, 2, 9)
    s.apply(A, "2a")   # from encounter 1 (the only card with something to move) to 2
    assert card(s, 2, A)["ongoing"] is True
    assert s.view(None)["row"][0]["winner"] == A   # the Counselor is in force at once


# -- search support: the fast path and the determiniser ----------------------------------------
def _public_and_a_non_seat(s):
    """What the protocol shows (helpers/protocol.py), and that a seat that is not in the
    game (2) gets no actions, on either path."""
    return (*protocol.public(s), s.legal_actions(2))


@pytest.mark.parametrize(("deck", "hands", "decks", "row", "moves"), [
    # §9.1 Palace Guard turnaround, §9.2 Mediator then Void Mage, §9.4 Hired Blade shift,
    # §9.5 Poisoner: the same actions by the fast path give the same states.
    ("I", ([7, 1], [11, 2, 6]), ([3], [4]), [], [(A, "7"), (B, "11"), (A, "R"), (B, "pass")]),
    ("I", ([4, 6, 1], [9, 2, 3]), ([5], [7]), [],
     [(A, "4"), (B, "9"), (A, "6"), (B, "2")]),
    ("I", ([1, 2], [8, 9]), ([3], [4]), [E(5, 3)], [(A, "1"), (B, "8"), (A, "2"), (B, "9")]),
    ("II", ([1, 2], [10, 3]), ([5], [6]), [], [(A, "1"), (B, "10")]),
])
def test_fast_path_plays_the_worked_examples_like_the_public_path(deck, hands, decks, row,
                                                                  moves):
    s = table(deck=deck, hands=hands, decks=decks, row=row)
    fast = s.clone_fast()
    assert _public_and_a_non_seat(fast) == _public_and_a_non_seat(s)
    for p, action in moves:
        s.apply(p, action)
        fast.apply_fast(p, action)
        assert _public_and_a_non_seat(fast) == _public_and_a_non_seat(s)
        fast = fast.clone_fast()
    assert fast.log == [] and fast.record()["actions"] == []  # nothing kept for display


def _fields(s):
    """Every field of a state but the log and record (which a fast copy leaves out)."""
    fields = {k: v for k, v in vars(s).items()
              if k not in ("game", "log", "_actions", "quiet", "rng")}
    return fields, s.rng._state


@pytest.mark.parametrize(("deck", "hands", "decks", "row", "moves"), [
    # A Judge's new token takes the earlier ties, for one seat and for both
    ("I", ([8, 1], [10, 2]), ([3], [4]), [E(5, 5)], [(A, "8"), (B, "10")]),
    ("I", ([11, 1], [8, 2]), ([4], [6]), [E(5, 5), E(8, 3, ona=True)], [(A, "11"), (B, "8")]),
    # Void Mage takes the Judge's token off; a Treasurer's token on the encounter left of it
    ("I", ([11, 1], [2, 3]), ([4], [6]), [E(5, 5), E(8, 3, ona=True)], [(A, "11"), (B, "2")]),
    ("I", ([13, 1], [12, 2]), ([4], [6]), [E(3, 9)], [(A, "13"), (B, "12")]),
    ("I", ([15, 1], [16, 2]), ([4], [6]), [E(5, 9), E(12, 3, ona=True)],
     [(A, "15"), (B, "16"), (A, "1a"), (A, "1b")]),
    # Hired Blade takes its encounter away, next to a Treasurer; Puppeteer swaps a card
    ("I", ([16, 2], [1, 3]), ([4], [6]), [E(5, 9), E(12, 3, onb=False, ona=True)],
     [(A, "16"), (B, "1")]),
    ("I", ([11, 2], [10, 3, 5]), ([4], [6]), [E(5, 9)], [(A, "11"), (B, "10")]),
    # Deck II: Aristocrat, Counselor (left of it), Mechanical Djinn, Envoy's next card
    ("II", ([10, 1], [8, 2]), ([4], [6]), [E(5, 5)], [(A, "10"), (B, "8")]),
    ("II", ([13, 1], [12, 2]), ([4], [6]), [E(9, 3)], [(A, "13"), (B, "12")]),
    ("II", ([16, 1], [15, 2]), ([4], [6]), [E(9, 3)], [(A, "16"), (B, "15"), (A, "1"),
                                                         (B, "2")]),
    ("II", ([9, 1], [3, 2]), ([4], [6]), [E(5, 5)], [(A, "9"), (B, "3"), (B, "n")]),
])
def test_fast_path_follows_tokens_and_removals_like_the_public_path(deck, hands, decks, row,
                                                                     moves):
    """The quiet encounter (written out) re-decides only what a token or a removal can
    change: every field stays what the public path makes of it."""
    s = table(deck=deck, hands=hands, decks=decks, row=row)
    fast = s.clone_fast()
    for p, action in moves:
        if s.is_over() or p not in s.to_move() or action not in s.legal_actions(p):
            break
        s.apply(p, action)
        fast.apply_fast(p, action)
        assert _fields(fast) == _fields(s)
        assert _public_and_a_non_seat(fast) == _public_and_a_non_seat(s)


@pytest.mark.parametrize("deck", ["I", "II"])
@pytest.mark.parametrize("location", ["none", "serpent_temple", "bazaar", "founders_day",
                                      "grand_library", "scrapyard", "auction_house",
                                      "haunted_catacombs", "foggy_swamp"])
def test_fast_playouts_from_one_start_give_the_public_states(deck, location):
    """Search plays many playouts from one world: the later rounds meet the same deals
    again (a quiet state reuses them) and every field must still be the public path's."""
    for seed in range(3):
        start = GAME.new_game(seed=seed, options={"deck": deck, "location": location})
        for k in range(4):
            rng = random.Random(100 * seed + k)
            fast, public = start.clone_fast(), start.clone()
            while not public.is_over():
                p = rng.choice(public.to_move())
                action = rng.choice(public.legal_actions(p))
                assert fast.legal_actions(p) == public.legal_actions(p)
                fast.apply_fast(p, action)
                public.apply(p, action)
                assert _fields(fast) == _fields(public)
            assert fast.outcome() == public.outcome()


def test_a_fast_clone_is_independent_of_its_original():
    s = GAME.new_game(seed=4, options={"deck": "II", "location": "scrapyard"})
    rng = random.Random(4)
    for _ in range(20):
        p = s.to_move()[0]
        s.apply(p, rng.choice(s.legal_actions(p)))
    before, twin = _public_and_a_non_seat(s), s.clone()
    fast = s.clone_fast()
    while not fast.is_over():
        p = fast.to_move()[0]
        fast.apply_fast(p, rng.choice(fast.legal_actions(p)))
    assert _public_and_a_non_seat(s) == before and s == twin


_LOCATIONS = ["none", "serpent_temple", "bazaar", "founders_day", "grand_library",
              "scrapyard", "auction_house", "haunted_catacombs", "foggy_swamp"]


def _tallies(s):
    """A state's running tallies as the row gives them: signets per seat, active
    row-watching cards (Judges in Deck I, Mechanical Djinns in Deck II)."""
    tot, watch = [0, 0], 0
    for e in s.row:
        for p in (A, B):
            c = e["cards"][p]
            tot[p] += c["sig"]
            watch += c["on"] and c["v"] == (8 if s.deck == "I" else 15)
    return tot, watch


@pytest.mark.parametrize("deck", ["I", "II"])
@pytest.mark.parametrize("location", _LOCATIONS)
def test_the_quiet_tallies_follow_the_row(deck, location):
    """Both paths keep their signet totals and active watchers (Judges, Mechanical
    Djinns) as they go (or forget them): whenever a state knows them, they are what the
    row holds, and every field of the fast state is the public path's."""
    known = 0
    for seed in range(12):
        public = GAME.new_game(seed=seed, options={"deck": deck, "location": location})
        fast = public.clone_fast()
        rng = random.Random(seed)
        while not public.is_over():
            p = rng.choice(public.to_move())
            action = rng.choice(public.legal_actions(p))
            public.apply(p, action)
            fast.apply_fast(p, action)
            assert _fields(fast) == _fields(public)
            tot, watch = _tallies(fast)
            if fast._tot is not None:
                known += 1
                assert fast._tot == tot
            assert fast._watch in (None, watch)
            assert public._tot in (None, tot) and public._watch in (None, watch)
            if rng.random() < 0.2:
                fast = fast.clone_fast()
    assert known  # they are kept, not only forgotten


def _public_playout(s, rng, depth):
    """State.playout_fast's moves (each mover of to_move() in turn, the default draw of
    legal_actions), played by the public protocol."""
    for _ in range(depth):
        movers = s.to_move()
        if not movers:
            return True
        for p in movers:
            legal = s.legal_actions(p)
            s.apply(p, legal[int(rng.random() * len(legal))])
    return False


@pytest.mark.parametrize("deck", ["I", "II"])
@pytest.mark.parametrize("location", _LOCATIONS)
def test_a_fused_fast_playout_gives_the_public_fields(deck, location):
    """CardiaState.playout_fast (placements drawn from the hand, quick answers, the
    encounter written out) plays what the public protocol plays with the same numbers,
    cut at any depth: every field equal, the tallies right."""
    for seed in range(10):
        rng = random.Random(seed)
        public = GAME.new_game(seed=seed, options={"deck": deck, "location": location})
        fast = public.clone_fast()
        while True:
            depth = rng.choice([1, 2, 3, 7, 30])
            numbers = rng.random()
            ended = fast.playout_fast(random.Random(numbers), depth)
            assert ended == _public_playout(public, random.Random(numbers), depth)
            assert _fields(fast) == _fields(public)
            assert fast._tot in (None, _tallies(fast)[0])
            assert fast._watch in (None, _tallies(fast)[1])
            if ended or public.is_over():
                break
            if rng.random() < 0.3:
                fast = fast.clone_fast()


def test_a_fast_clone_of_a_public_state_counts_its_tallies_afresh():
    """The tallies are counted from the row when first needed (a new round, a row set up
    by hand), then kept on both paths; a fast copy takes them over, a plain clone forgets
    them."""
    s = table(deck="II", hands=([10, 1], [8, 2]), decks=([4], [6]), row=[E(9, 3), E(5, 7)])
    fast = s.clone_fast()
    assert fast._tot is None and fast._watch is None
    fast.apply_fast(A, "10")
    fast.apply_fast(B, "8")
    assert fast._tot == _tallies(fast)[0] == [2, 1]
    assert fast.clone()._tot is None
    s.apply(A, "10")
    s.apply(B, "8")
    assert s._tot == [2, 1] and s.clone_fast()._tot == [2, 1]


@pytest.mark.parametrize(("deck", "ability", "row"), [
    ("I", 1, []), ("I", 10, []), ("I", 14, []), ("I", 15, []), ("II", 1, []), ("II", 4, []),
    ("I", 1, [E(1, 4, onb=True)]), ("I", 10, [E(10, 4, onb=True)]),
])
def test_fast_path_plays_an_ability_whose_card_is_gone_like_the_public_path(deck, ability,
                                                                           row):
    """The engine lets an ability act as a card that has left the row (no card of either
    deck brings it about): Hired Blade, Puppeteer, Magistra, Inventor, Poisoner and Tax
    Collector then have no effect. And one that removes or replaces a card holding a token
    re-decides the whole row. Both on both paths alike."""
    s = table(deck=deck, hands=([2, 3], [5, 6]), decks=([7], [8]), row=row)
    src = [A, ability] if row else [A, 9]  # with a row: A's card of encounter 1
    fast = s.clone_fast()
    for state in (s, fast):
        state.tasks = [{"k": "ability", "ab": ability, "src": src, "via": "illusionist"}]
        state._run()
    assert _fields(fast) == _fields(s)
    assert _public_and_a_non_seat(fast) == _public_and_a_non_seat(s)
    ability_event = new_events(s, "ability")[-1]
    assert ability_event.get("none") is (None if row else True)
    _check_playouts(s)


def test_fast_path_answers_a_choice_about_a_gone_card_like_the_public_path():
    """A Librarian choice whose card has left the row, a Void Mage target with nothing left
    to remove (not asked then): no effect, on both paths alike."""
    s = table(hands=([2, 3], [5, 6]), decks=([7], [8]), row=[E(5, 3)])
    s.choice = {"kind": "librarian", "seat": A, "ability": "librarian", "card": 6,
                "at": None, "target": [A, 9], "_opts": ["+", "-"]}
    s.apply(A, "+")
    assert choice(s) is None and new_events(s, "modifier") == []
    s.choice = {"kind": "void_target", "seat": A, "ability": "void_mage", "card": 2,
                "at": None, "_opts": ["1a"]}
    s.apply(A, "1a")
    assert choice(s) is None and new_events(s, "token") == []


def test_fast_path_ends_a_round_for_a_seat_that_cannot_place_like_the_public_path():
    """§6.3's fallback: a seat that must place with an empty hand (no card brings it
    about while its deck has cards) ends the round with no winner; a seat with cards
    places while the other's hand is empty. Both paths alike (the twin checks it)."""
    s = table(hands=([], [8, 2]), decks=([3], [4]))
    s.apply(B, "8")
    assert round_end(s) == {"t": "round_end", "winner": None, "reason": "no_cards",
                            "wins": [0, 0]}
    t = table(hands=([5], [8, 2]), decks=([], [4]))
    t.apply(A, "5")
    assert t.to_move() == [B]
    t.apply(B, "8")
    assert round_end(t)["winner"] == B and round_end(t)["reason"] == "no_cards"


def test_fast_path_deals_like_the_public_path_when_the_kept_deals_are_full(monkeypatch):
    """Deals are kept by PRNG state for both paths (pygames.cardia._DEALS); a full store is
    emptied and the deal made again, the same on both paths."""
    full = {(-k, 5): None for k in range(4096)}
    s = table(hands=([3, 16], [5, 12, 1]), decks=([2, 4], [6, 7]))
    s.next_mod[A] = -5
    fast = s.clone_fast()
    for state in (fast, s):  # each with a full store
        monkeypatch.setattr(pygames.cardia, "_DEALS", dict(full))
        play(state, 16, 12)  # the Djinn loses and wins the round: a new deal
        assert state.round == 2 and len(pygames.cardia._DEALS) < 4096
    assert _fields(fast) == _fields(s)


def _positions(deck, location, seeds, every=3):
    """Real positions (every few steps of random games), with the seat to determinise."""
    for seed in seeds:
        s = GAME.new_game(seed=seed, options={"deck": deck, "location": location})
        rng = random.Random(seed)
        step = 0
        while not s.is_over():
            if step % every == 0:
                yield s, step % 2
            p = rng.choice(s.to_move())
            s.apply(p, rng.choice(s.legal_actions(p)))
            step += 1


def _hidden_twin(s, seat):
    """A copy of ``s`` that differs only in what ``seat`` cannot see: the opponent's hand,
    deck order and face-down cards are exchanged among themselves."""
    q = 1 - seat
    twin = s.clone()
    hand, deck = twin.hands[q], twin.decks[q]
    deck.reverse()
    down = [c for c in [twin.placed[q]] + [e["cards"][q] for e in twin.row] if c and not c["up"]]
    for c in down:
        pool = deck or hand
        if pool:
            c["v"], pool[0] = pool[0], c["v"]
    if hand and deck:
        hand[0], deck[-1] = deck[-1], hand[0]
    hand.sort()
    return twin


def _unseen(view, q):
    """The opponent's cards this view does not show (for sampling)."""
    seen = set(view["discards"][q])
    seen.update(e["cards"][q]["value"] for e in view["row"])
    seen.add(view["placing"][q]["value"])
    return set(range(1, 17)) - seen


@pytest.mark.parametrize(("deck", "location"), [("I", "none"), ("II", "foggy_swamp"),
                                                ("II", "scrapyard"), ("I", "serpent_temple")])
def test_determinised_worlds_do_not_depend_on_the_opponents_hidden_cards(deck, location):
    """No cheating: two real states that differ only in the opponent's hidden cards give
    the same world for the same rng seed (and the seat sees no difference)."""
    differ = 0
    for s, seat in _positions(deck, location, range(3)):
        twin = _hidden_twin(s, seat)
        view = s.view(seat)
        assert twin.view(seat) == view
        differ += twin.hands[1 - seat] != s.hands[1 - seat]
        for k in range(2):
            world = GAME.determinize(seat, view, s.events(seat), pygames.Rng(k))
            other = GAME.determinize(seat, twin.view(seat), twin.events(seat), pygames.Rng(k))
            assert world == other
            assert world.view(seat) == view and world.legal_actions(seat) == s.legal_actions(seat)
    assert differ > 10  # the twins really hid different hands


def test_the_sampled_hand_varies_and_is_drawn_from_the_unseen_cards():
    s = GAME.new_game(seed=5, options={"deck": "I"})
    rng = random.Random(5)
    for _ in range(9):
        p = s.to_move()[0]
        s.apply(p, rng.choice(s.legal_actions(p)))
    seat, q = A, B
    view = s.view(seat)
    unseen = _unseen(view, q)
    hands, decks = set(), set()
    for k in range(300):
        world = GAME.determinize(seat, view, s.events(seat), pygames.Rng(k))
        hand = world.hands[q]
        assert len(hand) == view["hand_sizes"][q] and set(hand) <= unseen
        assert set(hand) | set(world.decks[q]) | {
            c["v"] for c in [world.placed[q]] + [e["cards"][q] for e in world.row] if c
            } == set(range(1, 17)) - set(view["discards"][q])
        assert world.hands[seat] == s.hands[seat]
        assert sorted(world.decks[seat]) == sorted(s.decks[seat])  # own deck: order unknown
        hands.add(tuple(hand))
        decks.add(tuple(world.decks[seat]))
    assert len(hands) > 100 and len(decks) > 100
    assert set().union(*hands) == unseen  # any unseen card may be in that hand


def test_a_card_seen_going_back_to_the_hand_stays_there():
    """Swamp Guardian returns a card in public: the opponent's sampled hand holds it."""
    for seed in range(400):
        s = GAME.new_game(seed=seed, options={"deck": "I"})
        rng = random.Random(seed)
        while not s.is_over():
            p = s.to_move()[0]
            s.apply(p, rng.choice(s.legal_actions(p)))
            back = [e for e in s.log[-6:] if e["t"] == "return"]
            if back and s.choice is None and back[-1]["card"] in s.hands[back[-1]["p"]]:
                q, v = back[-1]["p"], back[-1]["card"]
                seat = 1 - q
                for k in range(30):
                    world = GAME.determinize(seat, s.view(seat), s.events(seat),
                                             pygames.Rng(k))
                    assert v in world.hands[q]
                return
    pytest.fail("no game with a card returned to the hand")


@pytest.mark.parametrize(("deck", "location"), [("II", "serpent_temple"), ("II", "scrapyard"),
                                                ("II", "none"), ("I", "foggy_swamp")])
def test_a_world_resumes_the_encounter_being_resolved(deck, location):
    """At a choice, the world goes on as the real game would: the same steps left to run
    (Librarian, Blackmailer, Serpent Temple, the draw after a Revolutionary's discard…),
    and when the opponent chooses among public options, the same options."""
    checked = 0
    for s, seat in _positions(deck, location, range(6), every=1):
        if s.choice is None:
            continue
        world = GAME.determinize(seat, s.view(seat), s.events(seat), pygames.Rng(checked))
        checked += 1
        assert world.tasks == s.tasks and world.serpent == s.serpent
        assert world._enc_index(world.cur) == s._enc_index(s.cur)
        assert [e["win"] for e in world.row] == [e["win"] for e in s.row]
        if s.choice["seat"] != seat and s.choice["kind"] not in (
                "palace_guard_discard", "elemental_card", "discard", "successor_keep",
                "scrapyard_under"):
            assert world.legal_actions(1 - seat) == s.legal_actions(1 - seat)
    assert checked > 20


def test_a_world_resumes_several_librarian_and_blackmailer_steps():
    """Effects waiting for one revealed card run one by one (§3.4): a world made at any of
    those steps has the same steps left. (The pending effects are set up with their events,
    as if earlier abilities had given them.)"""
    s = GAME.new_game(seed=2, options={"deck": "II"})
    for p, effect, value in ((A, "librarian", 1), (B, "librarian", 1), (A, "librarian", 1),
                             (B, "blackmail", "G")):
        s.log.append({"t": "pending", "p": p, "effect": effect, "value": value})
    s.librarian, s.blackmail = [2, 1], [["G"], []]
    s.apply(A, next(a for a in s.legal_actions(A) if colour_of(int(a)) != "G"))
    for seat in (A, B):  # B sees A's placed card but not what waits on it
        world = GAME.determinize(seat, s.view(seat), s.events(seat), pygames.Rng(seat))
        assert world.placed[A]["lib"] == 2 and world.placed[A]["bm"] == ["G"]
    s.apply(B, s.legal_actions(B)[0])
    steps = 0
    while s.choice is not None and s.choice["kind"] in ("librarian", "discard"):
        for seat in (A, B):
            world = GAME.determinize(seat, s.view(seat), s.events(seat), pygames.Rng(steps))
            assert world.view(seat) == s.view(seat)
            assert world.tasks == s.tasks and world.choice["kind"] == s.choice["kind"]
        who = s.choice["seat"]
        s.apply(who, s.legal_actions(who)[0])
        steps += 1
    assert steps == 5  # three Librarian choices, then the Blackmailer's two discards


def test_after_a_witch_king_the_named_colour_is_only_in_a_face_down_card():
    """Witch King empties hand and deck of a colour in public: an unseen card of that
    colour can only be the opponent's face-down card (Foggy Swamp), never in a sampled
    hand or deck."""
    for seed in range(60):
        s = GAME.new_game(seed=seed, options={"deck": "II", "location": "foggy_swamp"})
        rng = random.Random(seed)
        while not s.is_over():
            p = rng.choice(s.to_move())
            s.apply(p, rng.choice(s.legal_actions(p)))
            named = [e for e in s.log[-8:] if e["t"] == "colour"
                     and e["ability"] == "witch_king"]
            if not named:
                continue
            seat, colour = named[-1]["p"], named[-1]["colour"]
            q = 1 - seat
            if not any(colour_of(e["cards"][q]["v"]) == colour for e in s.row
                       if not e["cards"][q]["up"]):
                continue
            for k in range(20):
                world = GAME.determinize(seat, s.view(seat), s.events(seat), pygames.Rng(k))
                assert all(colour_of(v) != colour for v in world.hands[q] + world.decks[q])
                assert world.view(seat) == s.view(seat)
            return
    pytest.fail("no Witch King while its victim had a face-down card of the colour")


# -- hidden information in events (moved here from the shared battery) ------------------
def _mentions(event, p):
    """Card values of seat ``p`` that a (redacted) Cardia event shows."""
    t = event["t"]
    if t == "reveal":
        return {event["cards"][p]}
    if event.get("p") != p:
        return set()
    found = set()
    for key in ("card", "old", "new", "at"):
        if isinstance(event.get(key), int):
            found.add(event[key])
    found.update(event.get("cards", ()))
    for key in ("from", "to"):
        if isinstance(event.get(key), list):
            found.add(event[key][1])
    return found


@pytest.mark.parametrize("deck", ["I", "II"])
def test_no_event_names_a_card_hidden_from_the_viewer(deck):
    """In a round's events, no card that is now hidden from a viewer (in another seat's
    hand or deck, or face down) may have been named, unless it came back to the hand in
    public. Random games at every location, each event checked when new."""
    game = pygames.get_game("cardia")
    locations = game.option_schema["location"]["values"]
    for n, location in enumerate(locations * 3):
        state = game.new_game(seed=n, options={"deck": deck, "location": location})
        rng = random.Random(n)
        seen = {0: 0, 1: 0, None: 0}
        while not state.is_over():
            log = state.log
            first = next(i for i in range(len(log) - 1, -1, -1) if log[i]["t"] == "round")
            for viewer in seen:
                events = state.events(viewer, max(seen[viewer], first))
                seen[viewer] = len(log)
                for p in range(2):
                    if p == viewer:
                        continue
                    secret = set(state.hands[p]) | set(state.decks[p])
                    secret |= {c["v"] for c in [state.placed[p]] + [e["cards"][p]
                               for e in state.row] if c and not c["up"]}
                    secret.difference_update(e["card"] for e in log[first:]
                                             if e["t"] == "return" and e["p"] == p)
                    for e in events:
                        leak = _mentions(e, p) & secret
                        assert not leak, f"{e} shows seat {p}'s hidden {leak} to {viewer}"
            p = rng.choice(state.to_move())
            state.apply(p, rng.choice(state.legal_actions(p)))
