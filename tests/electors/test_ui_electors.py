"""Electors' table, rendered in CPython from hand-made views shaped as the engine's
contract says: what a player would notice.

Every phase asks its own question with the right buttons, in both languages; every legal
action is reachable by clicks (a buy is a market card, then a payment, then the cube's
candidate) and nothing else is offered; a face shows only where the view gives one; the
final scoring is a table of points by source with places, row majorities and ranks; every
event kind is worded in both languages without fields the event does not carry.
"""

from __future__ import annotations

import copy
import html as htmllib
import re
import string
from pathlib import Path

import pytest
from helpers.markup import all_outer, outer, tags, visible_text
from helpers.tables import enabled_commands
from pgui import electors_ui as ui
from pgui import i18n
from pgui.i18n import STRINGS

JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
CSS = Path(__file__).resolve().parents[2] / "web" / "pgui" / "electors.css"


# -- a view as the contract shapes it -------------------------------------------------------
def down(back: str, c: str | None = None) -> dict:
    cell = {"up": False, "back": back}
    if c:
        cell["c"] = c
    return cell


def up(c: str) -> dict:
    return {"up": True, "c": c}


def make_view(you: int | None = 0, players: int = 3, **over) -> dict:
    """Seat 0 (Red) looking, 3 players, round 4, Red's turn with nothing done yet. The grid
    has every kind of cell: kingdom backs, Red's own cards (faces visible to Red), Blue's and
    Green's backs, face-up numbers and specials, and an empty cell."""
    grid = [
        [down("k"), down("B"), up("kR3"), down("R", "R5"), down("k")],
        [down("G"), down("k"), down("B"), up("Bj"), down("k")],
        [down("k"), down("R", "Rb"), down("k"), down("k"), down("G")],
        [None, down("k"), up("G6"), down("B"), down("R", "R2")],
    ]
    if you != 0:  # only Red sees Red's faces
        grid = [[({k: v for k, v in c.items() if k != "c"} if c and not c["up"] else c)
                 for c in row] for row in grid]
    view = {
        "game": "electors",
        "options": {"draw_B": 3, "power_delta": 1, "corruption_delta": -1, "manor_vp": 2,
                    "domain_vp": 3, "card_backs": "colour", "placer_memory": True},
        "you": you, "players": players, "colours": list("RBGY"[:players]),
        "start": 0, "active": 0, "round": 4, "phase": "turn", "grid": grid,
        "cubes": {"R": 1, "B": 2, "G": 0, "Y": 1}, "supply": 19,
        "market": ["PR", "H1", "DG"], "influence_deck": 12,
        "acquired": [["R5", "R7", "B2", "G7"], ["kG4", "B3"], []][:players] + [[]] * (players - 3),
        "influence": [[{"id": "XB", "used": True}, {"id": "H2", "spent": True}],
                      [{"id": "MB", "used": False}], []][:players] + [[]] * (players - 3),
        "hand": ["R3", "R3", "R4", "Rj", "kY2"] if you == 0 else (None if you is None else []),
        "hand_counts": [5, 4, 6, 5][:players], "deck_counts": [6, 8, 3, 7][:players],
        "bought": False, "pending": None, "bribe": None, "trigger": None, "final": None,
        "to_move": [0], "outcome": None,
    }
    view.update(over)
    return view


# A legal list per phase, as the contract writes its actions.
TURN = ["a1", "b1", "c1", "d1", "e1", "b2", "draw", "$PR:R5,R7", "$PR:B2,R5", "$H1:B2,G7",
        "hG7>R", "hG7>B", "hR5>G"]
NUMBER = ["=R3", "=R4X", "=kY2P", "take", "$PR:R5,R7"]
PLACE = ["v:R3", "v:R4", "v:Rj", "v:kY2"]
CUBE = ["c:R", "c:B", "c:G", "c:Y"]
BRIBE = ["t:kG4", "t:B3"]
AFTER = ["end", "$PR:R5,R7", "hG7>B"]
PAIRS = ["pr:R3,R3", "done"]
HEARTS = ["hG7>R", "hG7>B", "hG7>Y", "done"]


def phase_view(phase: str) -> tuple[dict, list[str]]:
    """(view, legal) for seat 0 in each phase of the contract."""
    if phase == "turn":
        return make_view(), TURN
    if phase == "number":
        v = make_view(phase="number", pending={"cell": "b1", "c": "B4"})
        v["grid"][0][1] = up("B4")
        return v, NUMBER
    if phase == "place":
        v = make_view(phase="place", pending={"cell": "b1", "c": None})
        v["grid"][0][1] = None
        return v, PLACE
    if phase == "cube":
        return make_view(phase="cube", bought=True), CUBE
    if phase == "bribe":
        return make_view(phase="bribe", active=1, bribe={"owner": 0, "from": 1}), BRIBE
    if phase == "after":
        return make_view(phase="after"), AFTER
    if phase == "pairs":
        return make_view(phase="pairs", hand=["R3", "R3", "R6"]), PAIRS
    if phase == "hearts":
        v = make_view(phase="hearts", influence=[[{"id": "H1", "used": False}], [], []],
                      final={"rows": ["R", None, "B", "R"],
                             "ranks": {"R": 1, "B": 2, "G": 4, "Y": 4}})
        return v, HEARTS
    raise KeyError(phase)


PHASES = ("turn", "number", "place", "cube", "bribe", "after", "pairs", "hearts")


def screen(view, legal, lang="en", sel=None, events=(), **kw) -> str:
    return ui.render_table(view, legal, lang, events=list(events), sel=sel,
                           seats=kw.pop("seats", ("you", "bot", "bot")), **kw)


def status(html: str) -> str:
    found = re.findall(r"<p [^>]*data-status>(.*?)</p>", html)
    assert len(found) == 1, found
    return htmllib.unescape(found[0])


def button_tags(html: str) -> list[dict[str, str]]:
    return [a for tag, a in tags(html) if tag == "button"]


def label_of(html: str, cmd: str) -> str:
    """A button's accessible name: its aria-label, else its text."""
    el = outer(html, f'data-cmd="{htmllib.escape(cmd, quote=True)}"')
    assert el is not None, cmd
    m = re.search(r'aria-label="([^"]*)"', el.split(">", 1)[0])
    return htmllib.unescape(m.group(1)) if m else visible_text(el).strip()


def reachable(view, legal, lang="en", depth=3):
    """Every action some sequence of at most ``depth`` clicks plays: {action: clicks}; and
    every command ever offered."""
    found: dict[str, list[str]] = {}
    offered: set[str] = set()
    seen: set[tuple] = set()
    frontier = [(ui.new_selection(), [])]
    for _ in range(depth):
        nxt = []
        for sel, path in frontier:
            key = tuple(sorted(sel.items()))
            if key in seen:
                continue
            seen.add(key)
            for cmd in enabled_commands(screen(view, legal, lang, dict(sel))):
                offered.add(cmd)
                after = dict(sel)
                action = ui.handle(cmd, after, legal, view)
                if action is not None:
                    assert action in legal, (cmd, action)
                    found.setdefault(action, [*path, cmd])
                else:
                    nxt.append((after, [*path, cmd]))
        frontier = nxt
    return found, offered


# -- every phase asks its question ----------------------------------------------------------
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_every_phase_prompts_in_its_own_words_with_every_legal_action_reachable(lang):
    prompts = {}
    for phase in PHASES:
        view, legal = phase_view(phase)
        html = screen(view, legal, lang)
        ask = status(html)
        assert ask, phase
        if lang == "ja":
            assert JAPANESE.search(ask), (phase, ask)
        prompts[phase] = ask
        found, offered = reachable(view, legal, lang)
        assert set(found) == set(legal), (phase, sorted(set(legal) - set(found)))
        # Nothing is offered that is not legal (a pick only leads to legal actions).
        for cmd in offered:
            if cmd.startswith("act:"):
                assert cmd[4:] in legal, (phase, cmd)
            if cmd.startswith("cell:"):
                assert cmd[5:] in legal, (phase, cmd)
        # Every button has an accessible name in the page's language.
        for cmd in enabled_commands(html):
            name = label_of(html, cmd)
            assert name.strip(), (phase, cmd)
            if lang == "ja" and not cmd.startswith("lang:"):
                assert JAPANESE.search(name), (phase, cmd, name)
    assert len(set(prompts.values())) == len(prompts), prompts


def test_the_turn_offers_cells_draw_buy_and_heart_and_says_so():
    view, legal = phase_view("turn")
    html = screen(view, legal)
    cmds = enabled_commands(html)
    assert {f"cell:{c}" for c in ("a1", "b1", "c1", "d1", "e1", "b2")} <= set(cmds)
    assert "act:draw" in cmds and "buy:PR" in cmds and "buy:H1" in cmds and "heart" in cmds
    assert "buy:DG" not in cmds  # no payment for it: shown, not offered
    assert label_of(html, "act:draw") == "Draw 3 cards (B)"
    ask = status(html)
    assert "draw 3 cards (B)" in ask and "buy one influence card (C)" in ask
    # Only cells the engine lists are buttons that do something; the rest are labelled.
    cells = {a["data-cell"]: a for a in button_tags(html) if "data-cell" in a}
    assert len(cells) == 20
    assert "disabled" in cells["c3"] and "data-cmd" not in cells["c3"]
    assert cells["a4"]["aria-label"] == "Row 4, column a: empty"


def test_forced_choices_are_worded():
    v = make_view(hand=[], hand_counts=[0, 4, 6])
    assert status(screen(v, ["draw"])).startswith("Your turn: your hand is empty, so draw 3")
    v = make_view(deck_counts=[0, 8, 3])
    assert "your deck is empty" in status(screen(v, ["a1", "b2"]))
    v = make_view(hand=[], hand_counts=[0, 4, 6], deck_counts=[0, 8, 3])
    html = screen(v, ["pass"])
    assert "you pass" in status(html) and "act:pass" in enabled_commands(html)
    # A short deck draws what it has.
    v = make_view(deck_counts=[2, 8, 3])
    assert label_of(screen(v, ["draw", "a1"]), "act:draw") == "Draw 2 cards (B)"


def test_a_number_card_offers_each_match_in_words_and_take():
    view, legal = phase_view("number")
    html = screen(view, legal)
    assert status(html).startswith("Blue 4 on b1: match it")
    assert label_of(html, "act:=R3").startswith("Match with your Red 3")
    assert "Match with your Red 4 lowered to 3 by Corruption" in label_of(html, "act:=R4X")
    assert "Match with your Yellow 2 (kingdom) raised to 3 by Power" in label_of(html, "act:=kY2P")
    assert label_of(html, "act:take") == "Take the Blue 4 into your hand (②)"
    ja = screen(view, legal, "ja")
    assert "権力で3にして" in label_of(ja, "act:=kY2P")
    # Two Powers on one reveal.
    assert ui.match_label("=B3PP", "en") == "Match with your Blue 3 raised to 5 by 2 × Power"
    assert ui.match_label("=B3P", "en") == "Match with your Blue 3 raised to 4 by Power"
    # Nothing matches: only take, and the prompt says so.
    html = screen(view, ["take"])
    assert "no hand card matches" in status(html)


def test_the_put_back_is_a_hand_card_button_naming_the_cell():
    view, legal = phase_view("place")
    html = screen(view, legal)
    hand = outer(html, 'class="ehand"')
    assert "data-choice" in hand.split(">", 1)[0]
    assert label_of(html, "act:v:Rj") == "Put your Red Jester face down on b1"
    # Both R3 are the same card: one button.
    assert enabled_commands(html).count("act:v:R3") == 1
    # After a take, the prompt says which card may not go back.
    events = [{"t": "turn", "p": 0, "round": 4},
              {"t": "take", "p": 0, "cell": "b1", "c": "B4"}]
    view = dict(view, hand=["B4", "R3", "R3"])
    ask = status(screen(view, ["v:R3"], events=events))
    assert "not the Blue 4 you just took" in ask


def test_a_buy_is_a_market_card_then_a_payment_then_the_cube():
    view, legal = phase_view("turn")
    sel = ui.new_selection()
    assert ui.handle("buy:PR", sel, legal, view) is None and sel["buy"] == "PR"
    html = screen(view, legal, sel=sel)
    assert status(html) == ("Buy Power (Red): choose the acquired cards to pay with "
                            "(costs 1 Red + 1 of any colour).")
    pays = [c for c in enabled_commands(html) if c.startswith("act:$")]
    assert pays == ["act:$PR:R5,R7", "act:$PR:B2,R5"]
    assert label_of(html, "act:$PR:B2,R5") == "Pay with Blue 2, Red 5"
    market = outer(html, 'class="emarket"')
    assert 'aria-pressed="true"' in market
    # Picking the same card again drops the pick; cancel too.
    other = dict(sel)
    ui.handle("buy:PR", other, legal, view)
    assert other["buy"] is None
    assert ui.handle("act:$PR:B2,R5", sel, legal, view) == "$PR:B2,R5"
    assert sel == ui.new_selection()
    # The engine now asks for the cube's candidate.
    view, legal = phase_view("cube")
    events = [{"t": "turn", "p": 0, "round": 4},
              {"t": "buy", "p": 0, "card": "PR", "paid": ["B2", "R5"], "refill": "MY"}]
    html = screen(view, legal, events=events)
    assert status(html) == "You bought Power (Red): put its cube on a candidate."
    assert label_of(html, "act:c:G") == "Put the cube on candidate Green (0 now)"
    assert ui.handle("act:c:G", ui.new_selection(), legal, view) == "c:G"


def test_the_market_says_each_cards_cost_and_effect():
    view, legal = phase_view("turn")
    html = screen(view, legal)
    assert label_of(html, "buy:PR") == (
        "Buy Power (Red): costs 1 Red + 1 of any colour; +1 to the "
        "number of the hand card you reveal in a match, once a turn")
    text = visible_text(outer(html, 'class="emarket"'))
    assert "Domain (Green)" in text and "costs 2 Green + 1 of any colour" in text
    assert "+3 points at the end" in text and "Influence deck: 12 cards" in text
    assert "Change of Heart" in label_of(html, "buy:H1")
    ja = screen(view, legal, "ja")
    assert "コスト：赤1枚 ＋ 任意の色1枚" in label_of(ja, "buy:PR")


def test_a_change_of_heart_is_the_card_then_the_colour():
    view, legal = phase_view("turn")
    sel = ui.new_selection()
    ui.handle("heart", sel, legal, view)
    html = screen(view, legal, sel=sel)
    assert status(html) == "Change of Heart: choose one of your acquired cards."
    assert {"heart:G7", "heart:R5"} <= set(enabled_commands(html))
    ui.handle("heart:G7", sel, legal, view)
    html = screen(view, legal, sel=sel)
    assert status(html) == "Change of Heart on your Green 7: choose the colour it will count as."
    assert label_of(html, "act:hG7>R") == "Green 7 counts as Red from now on"
    assert "act:hR5>G" not in enabled_commands(html)
    assert ui.handle("act:hG7>R", sel, legal, view) == "hG7>R"


def test_bribery_the_owner_takes_one_of_the_flippers_acquired_cards():
    view, legal = phase_view("bribe")
    html = screen(view, legal)
    assert status(html) == "Blue turned up your Bribery: take one of Blue's acquired cards."
    assert label_of(html, "act:t:kG4") == "Take Green 4 (kingdom) from Blue's acquired cards"
    # Blue watching: waiting for Red.
    blue = make_view(you=1, phase="bribe", active=1, bribe={"owner": 0, "from": 1})
    assert status(screen(blue, [], waiting_for="Red")) == "Waiting for Red…"
    assert status(screen(blue, [])) == "Red chooses a card to take with Bribery."


def test_pass_and_play_answers_bribery_from_the_hand_over_screen():
    nobody = make_view(you=None, phase="bribe", active=1, bribe={"owner": 0, "from": 1},
                       hand=None)
    quick = ui.handover_quick(nobody, 0, "en")
    assert quick["say"].startswith("Blue turned up Red's Bribery")
    assert [a for a, _ in quick["actions"]] == ["t:kG4", "t:B3"]
    assert ui.handover_quick(nobody, 1, "en") is None
    assert ui.handover_quick(make_view(you=None, hand=None), 0, "en") is None
    ja = ui.handover_quick(nobody, 0, "ja")
    assert JAPANESE.search(ja["say"]) and all(JAPANESE.search(lab) for _, lab in ja["actions"])


def test_after_the_action_end_the_turn_and_still_buy():
    view, legal = phase_view("after")
    html = screen(view, legal)
    assert label_of(html, "act:end") == "End your turn"
    assert "buy or use an influence card" in status(html)
    assert status(screen(view, ["end"])) == "Your action is done: end your turn when you are ready."


def test_scoring_pairs_and_hearts():
    view, legal = phase_view("pairs")
    html = screen(view, legal)
    assert label_of(html, "act:pr:R3,R3") == "Reveal the pair Red 3 + Red 3"
    assert label_of(html, "act:done") == "Done revealing pairs"
    view, legal = phase_view("hearts")
    html = screen(view, legal)
    assert label_of(html, "act:done") == "Done: keep the rest unused"
    assert "heart" in enabled_commands(html)
    # The rows and ranks already decided are on screen.
    final = outer(html, 'class="efinal"')
    assert "Row 2: no cube" in visible_text(final) and "Red 1" in visible_text(final)


# -- what the table shows -----------------------------------------------------------------
def test_cells_are_labelled_with_backs_and_only_the_faces_the_view_gives():
    view, legal = phase_view("turn")
    html = screen(view, legal)
    cells = {a["data-cell"]: htmllib.unescape(a["aria-label"]) for a in button_tags(html)
             if "data-cell" in a}
    assert cells["d1"] == ("Row 1, column d: face-down Red card, yours: Red 5, "
                           "choose it: turn it face up")
    assert cells["b1"] == "Row 1, column b: face-down Blue card, choose it: turn it face up"
    assert cells["a2"] == "Row 2, column a: face-down Green card"
    assert cells["c1"].startswith("Row 1, column c: face up: Red 3 (kingdom)")
    assert cells["d2"] == "Row 2, column d: face up: Blue Jester"
    assert cells["b3"] == "Row 3, column b: face-down Red card, yours: Red Bribery"
    # The faces shown are exactly the view's: 3 own faces under backs + 3 face up.
    grid = outer(html, 'class="egrid"')
    assert len(re.findall(r'class="face [^"]*seen', grid)) == 3
    assert len(re.findall(r'class="face ', grid)) == 6
    ja = screen(view, legal, "ja")
    cells = {a["data-cell"]: htmllib.unescape(a["aria-label"]) for a in button_tags(ja)
             if "data-cell" in a}
    assert cells["d1"].startswith("1行目・d列：裏向きの赤のカード、あなたのカード：赤5")


def test_an_opponent_sees_backs_and_no_faces_of_reds_cards():
    blue = make_view(you=1, to_move=[0])
    html = screen(blue, [])
    grid = outer(html, 'class="egrid"')
    assert "seen" not in grid
    for card in ("Red 5", "Red Bribery", "Red 2"):
        assert card not in htmllib.unescape(grid)
    assert "赤5" not in htmllib.unescape(outer(screen(blue, [], "ja"), 'class="egrid"'))
    # The placer remembers a card it put down (placer_memory): marked as its own memory.
    blue["grid"][0][0] = down("k", "kG4")
    cells = {a["data-cell"]: htmllib.unescape(a["aria-label"])
             for a in button_tags(screen(blue, [])) if "data-cell" in a}
    assert cells["a1"] == ("Row 1, column a: face-down kingdom card, "
                           "you placed it: Green 4 (kingdom)")
    # Plain backs: a card of unknown colour.
    blue["grid"][0][1] = down("?")
    cells = {a["data-cell"]: htmllib.unescape(a["aria-label"])
             for a in button_tags(screen(blue, [])) if "data-cell" in a}
    assert cells["b1"] == "Row 1, column b: face-down card"


def test_rows_say_their_public_elector_counts():
    html = screen(*phase_view("turn"))
    heads = all_outer(html, 'class="edge row"')
    assert len(heads) == 4
    text = [htmllib.unescape(visible_text(h)) for h in heads]
    assert "Row 1 electors: Blue 1, Red 1 (tied)" in text[0]
    assert "Row 2 electors: Blue 2, Green 1 (Blue leads)" in text[1]
    assert 'data-lead="B"' in heads[1]


def test_players_strips_candidates_and_turn_state():
    view, legal = phase_view("turn")
    html = screen(view, legal)
    strips = all_outer(html, 'class="pstrip')
    assert len(strips) == 3
    assert [re.search(r'data-hand="(\d+)"', s).group(1) for s in strips] == ["5", "4", "6"]
    assert [re.search(r'data-deck="(\d+)"', s).group(1) for s in strips] == ["6", "8", "3"]
    red = htmllib.unescape(strips[0])
    # Acquired cards grouped by colour, influence cards with their state.
    assert 'data-colour="R" data-n="2"' in red and 'data-colour="B" data-n="1"' in red
    assert "Corruption (Blue) (used this turn)" in red and "Change of Heart (spent)" in red
    assert 'data-state="used"' in red and 'data-state="spent"' in red
    assert "Manor (Blue) (ready)" in htmllib.unescape(strips[1])
    assert "active" in strips[0].split(">", 1)[0]
    cands = outer(html, 'class="ecands"')
    assert re.findall(r'data-cubes="(\d+)"', cands) == ["1", "2", "0", "1"]
    assert "Supply: 19 cubes" in visible_text(cands)
    head = visible_text(outer(html, 'class="ehead"'))
    assert "Round 4 · Your turn" in head
    assert "You may still buy one influence card this turn." in head
    assert "Used this turn: Corruption (Blue)." in head
    bought = visible_text(outer(screen(dict(view, bought=True), legal), 'class="ehead"'))
    assert "You have bought this turn." in bought
    watch = visible_text(outer(screen(make_view(you=1), []), 'class="ehead"'))
    assert "Red's turn" in watch and "Red may still buy" in watch
    # Your hand, sorted as the view gives it.
    hand = outer(html, 'class="ehand"')
    assert re.findall(r'role="img" aria-label="([^"]*)"', hand) == [
        "Red 3", "Red 3", "Red 4", "Red Jester", "Yellow 2 (kingdom)"]
    # A spectator has no hand section.
    assert outer(screen(make_view(you=None, hand=None), []), 'class="ehand"') is None


def test_the_end_trigger_names_who_and_whose_turn_ends_the_game():
    view = make_view(trigger={"p": 1, "last_turn": 1, "safety": False})
    head = visible_text(outer(screen(view, TURN), 'class="ehead"'))
    assert "Blue's deck ran out. The game ends after Blue's next turn." in head
    safety = make_view(trigger={"p": 2, "last_turn": 2, "safety": True})
    assert "round limit" in visible_text(outer(screen(safety, TURN), 'class="ehead"'))
    # On that very last turn it says so.
    last = make_view(active=1, to_move=[1], you=1,
                     trigger={"p": 1, "last_turn": 1, "safety": False})
    events = [{"t": "trigger", "p": 1, "last_turn": 1, "safety": False},
              {"t": "turn", "p": 2, "round": 5}, {"t": "turn", "p": 0, "round": 5},
              {"t": "turn", "p": 1, "round": 5}]
    head = visible_text(outer(screen(last, ["draw"], events=events), 'class="ehead"'))
    assert "this is your last turn" in head


def final_view() -> dict:
    return make_view(phase="over", to_move=[], final={
        "rows": ["B", None, "R", "B"], "ranks": {"R": 1, "B": 2, "G": 3, "Y": 4},
        "scores": [{"rank1": 8, "rank2": 3, "rank4": -1, "manor": 2, "domain": 0, "hand": -6,
                    "total": 6},
                   {"rank1": 5, "rank2": 1, "rank4": 0, "manor": 0, "domain": 3, "hand": -3,
                    "total": 6},
                   {"rank1": 0, "rank2": 2, "rank4": -2, "manor": 0, "domain": 0, "hand": 0,
                    "total": 0}],
        "places": [1, 1, 3]},
        outcome={"winners": [0, 1], "ranks": [1, 1, 3], "scores": [6, 6, 0], "reason": "score"})


def test_the_final_scoring_is_a_table_of_points_by_source_with_places():
    html = screen(final_view(), [])
    table = outer(html, 'class="ftable"')
    assert table is not None
    heads = re.findall(r'<th scope="col"[^>]*>(.*?)</th>', table)
    assert heads == ["Source", "You", "Blue", "Green"]
    rows = {m.group(1): re.findall(r"<td[^>]*>(.*?)</td>", m.group(2)) for m in
            re.finditer(r'<tr[^>]*data-source="(\w+)"[^>]*>(.*?)</tr>', table)}
    assert rows["rank1"] == ["+8", "+5", "0"]
    assert rows["rank4"] == ["−1", "0", "−2"]
    assert rows["hand"] == ["−6", "−3", "0"]
    assert rows["total"] == ["6", "6", "0"]
    assert rows["place"] == ["1", "1", "3"]
    final = visible_text(outer(html, 'class="efinal"'))
    assert "Row 1: Blue" in final and "Row 2: no cube" in final
    assert "Red 1" in final and "Yellow 4" in final
    assert status(html) == "Game over"
    ja = screen(final_view(), [], "ja")
    assert "1位" in visible_text(outer(ja, 'class="ftable"'))
    assert ui.result_reason(final_view()["outcome"], "en") == \
        "Red & Blue share first place with 6 points."
    assert ui.result_reason({"winners": [2], "scores": [1, 2, 9]}, "en") == \
        "Green wins with 9 points."


def test_four_seats_fit_a_phone_column():
    """The HTML a 320 px screen needs: four compact strips in one grid, the kingdom grid
    sized by its columns (no fixed widths), nothing laid out by inline pixel widths."""
    view = make_view(players=4)
    html = screen(view, TURN, seats=("you", "bot", "bot", "bot"))
    assert len(all_outer(html, 'class="pstrip')) == 4
    assert 'data-players="4"' in outer(html, 'class="estrips"').split(">", 1)[0]
    assert "--cols:5" in outer(html, 'class="egrid"').split(">", 1)[0]
    assert not re.search(r'style="[^"]*width', html)
    css = CSS.read_text(encoding="utf-8")
    # The strips wrap two by two on a phone, and the grid's cells shrink with the screen.
    assert ".electors .estrips" in css and "minmax(0, 1fr)" in css
    assert not re.search(r"min-width:\s*(\d{3,})px", css)
    for px in re.findall(r"(?<![\w-])width:\s*(\d+)px", css):
        assert int(px) <= 60, px


# -- playback ---------------------------------------------------------------------------------
def test_a_playback_shows_the_step_and_nothing_later():
    before = make_view(you=1, to_move=[0])
    after = copy.deepcopy(before)
    after["grid"][0][1] = None
    events = [{"t": "turn", "p": 0, "round": 4},
              {"t": "choose", "p": 0, "cell": "b1", "c": "B4"},
              {"t": "match", "p": 0, "cell": "b1", "c": "B4", "with": "R4", "mods": ""}]
    html = ui.render_table(after, [], "en", events=events, shown=2, since=0, before=before)
    assert status(html) == "Red chooses b1: face up… "[:0] + "Red chooses b1: Blue 4."
    cell = outer(html, 'data-cell="b1"')
    assert "data-reveal" in cell and "Blue 4" in htmllib.unescape(cell)
    assert enabled_commands(html) == ["skip"]
    html = ui.render_table(after, [], "en", events=events, shown=3, since=0, before=before)
    assert "Row 1, column b: empty" in htmllib.unescape(outer(html, 'data-cell="b1"'))


# -- the log --------------------------------------------------------------------------------
#: One event of every kind in the contract, with only its public fields.
PUBLIC_EVENTS = [
    {"t": "start", "p": 1},
    {"t": "deal", "p": 1, "n": 5},
    {"t": "turn", "p": 1, "round": 1},
    {"t": "choose", "p": 1, "cell": "b2", "c": "kG4"},
    {"t": "trap", "p": 1, "cell": "c3", "c": "Rb", "owner": 0, "own": False},
    {"t": "trap", "p": 0, "cell": "c3", "c": "Rs", "owner": 0, "own": True},
    {"t": "trap", "p": 1, "cell": "c3", "c": "Yj", "owner": None, "own": False},
    {"t": "scheme", "p": 1, "n": 2},
    {"t": "bribe", "p": 0, "from": 1, "c": "B3"},
    {"t": "bribe", "p": 0, "from": 1, "back": "B"},  # a random hand card, unseen
    {"t": "jester", "p": 1, "cell": "d2", "cells": ["a2", "e2"], "cards": ["kR1", "G5"]},
    {"t": "match", "p": 1, "cell": "b2", "c": "kG4", "with": "B3", "mods": "P"},
    {"t": "match", "p": 1, "cell": "b2", "c": "kG4", "with": "B5", "mods": "X"},
    {"t": "take", "p": 1, "cell": "b2", "c": "kG4"},
    {"t": "put", "p": 1, "cell": "b2", "back": "B"},
    {"t": "decktop", "p": 1, "cell": "b2", "back": "B"},
    {"t": "draw", "p": 1, "n": 3},
    {"t": "buy", "p": 1, "card": "DR", "paid": ["R2", "R5", "Y4"], "refill": "H3"},
    {"t": "buy", "p": 1, "card": "PG", "paid": ["G1", "B2"], "refill": None},
    {"t": "cube", "p": 1, "colour": "G"},
    {"t": "heart", "p": 1, "c": "G7", "as": "R"},
    {"t": "pass", "p": 1},
    {"t": "end", "p": 1},
    {"t": "trigger", "p": 1, "last_turn": 1, "safety": False},
    {"t": "trigger", "p": 2, "last_turn": 2, "safety": True},
    {"t": "pairs", "p": 1, "cards": ["B4", "B4"]},
    {"t": "pairs", "p": 2, "cards": []},
    {"t": "row", "row": 1, "colour": "B", "counts": {"B": 2, "R": 1}},
    {"t": "row", "row": 3, "colour": None, "counts": {"B": 2, "R": 2}},
    {"t": "row", "row": 4, "colour": None, "counts": {}},
    {"t": "rank", "ranks": {"R": 1, "B": 2, "G": 3, "Y": 4}},
    {"t": "score", "p": 1, "rank1": 8, "rank2": 3, "rank4": -1, "manor": 2, "domain": 0,
     "hand": -6, "total": 6},
    {"t": "over", "places": [1, 1, 3]},
    {"t": "row", "row": 2, "colour": None, "counts": {"G": 3, "Y": 1}},  # no cube left
]
#: The private events as their player sees them.
PRIVATE_EVENTS = [
    {"t": "deal", "p": 0, "n": 2, "cards": ["R1", "Rj"]},
    {"t": "put", "p": 0, "cell": "b2", "back": "R", "c": "R6"},
    {"t": "decktop", "p": 0, "cell": "b2", "back": "R", "c": "Rs"},
    {"t": "draw", "p": 0, "n": 2, "cards": ["R7", "R2"]},
]
KINDS = {"start", "deal", "turn", "choose", "trap", "scheme", "bribe", "jester", "match",
         "take", "put", "decktop", "draw", "buy", "cube", "heart", "pass", "end", "trigger",
         "pairs", "row", "rank", "score", "over"}


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_every_event_kind_is_worded_without_fields_it_does_not_carry(lang):
    assert {e["t"] for e in PUBLIC_EVENTS} == KINDS
    names = {ui.card_name(c, lang) for c in ("R1", "Rj", "R6", "Rs", "R7", "R2")}
    for view in (make_view(you=0), make_view(you=2), None):
        texts = [ui.describe(e, lang, view) for e in PUBLIC_EVENTS]
        for e, text in zip(PUBLIC_EVENTS, texts, strict=True):
            assert text and "Event:" not in text and "出来事" not in text, e
            assert "{" not in text and "None" not in text, (e, text)
            if lang == "ja":
                assert JAPANESE.search(text), e
        # Face-down cards never named: the public put/decktop/draw/deal name no card.
        for e, text in zip(PUBLIC_EVENTS, texts, strict=True):
            if e["t"] in ("put", "decktop", "draw", "deal", "scheme"):
                assert not any(n in text for n in names), (e, text)
    seen = [ui.describe(e, lang, make_view(you=0)) for e in PRIVATE_EVENTS]
    assert ui.card_name("Rj", lang) in seen[0] and ui.card_name("R6", lang) in seen[1]
    assert ui.card_name("Rs", lang) in seen[2] and ui.card_name("R7", lang) in seen[3]


def test_the_log_in_english_reads_well():
    me = make_view(you=0)
    d = {e["t"] + str(i): ui.describe(e, "en", me) for i, e in enumerate(PUBLIC_EVENTS)}
    assert d["choose3"] == "Blue chooses b2: Green 4 (kingdom)."
    assert d["trap4"] == "Blue springs your Bribery on c3!"
    assert d["trap5"] == ("You turn up Red Backroom Scheming on c3, your own: nothing happens, "
                          "and the cell stays Red.")
    assert d["bribe8"] == "Bribery: You take Blue 3 from Blue's acquired cards."
    assert d["bribe9"] == "Bribery: You take a card from Blue's hand (face-down Blue card)."
    assert d["match11"] == ("Blue matches Green 4 (kingdom) on b2 with Blue 3 (raised to 4 by "
                            "Power): both become acquired cards.")
    assert d["buy17"] == ("Blue buys Domain (Red), paying Red 2, Red 5, Yellow 4. "
                          "New in the market: Change of Heart.")
    assert d["buy18"].endswith("The influence deck is empty: no new card.")
    assert d["trigger23"] == ("Blue's deck is empty: the end is triggered. The game ends after "
                              "Blue's next turn.")
    assert d["row27"] == "Row 1: Blue has the most electors (Blue 2, Red 1) and gets a cube."
    assert d["row28"] == "Row 3: a tie for the most electors (Blue 2, Red 2), no cube."
    # A sole leader and no cube: the supply (21-card set) ran out, which is no tie.
    assert d["row33"] == ("Row 2: Green has the most electors (Green 3, Yellow 1), "
                          "but no cube is left.")
    assert d["score31"].startswith("Blue scores 6 points (")
    assert d["over32"] == "Final places: You 1, Blue 1, Green 3."
    assert ui.describe({"t": "draw", "p": 0, "n": 3}, "en", me) == "You draw 3 cards."
    assert ui.describe({"t": "turn", "p": 0, "round": 2}, "en", me) == "— Round 2: your turn —"


def test_move_text_words_every_kind_of_action():
    for a in [*TURN, *NUMBER, *PLACE, *CUBE, *BRIBE, *AFTER, *PAIRS, *HEARTS, "pass"]:
        for lang in ("en", "ja"):
            text = ui.move_text(a, 0, lang)
            assert text and (JAPANESE.search(text) if lang == "ja" else text != a or
                             a in ("draw", "pass", "take", "done")), (a, lang)


# -- the module's words -------------------------------------------------------------------------
def _fields(text: str) -> set[str]:
    text = i18n.PLURAL.sub(lambda m: "{" + m.group(1) + "}", text)
    return {n for _, n, _, _ in string.Formatter().parse(text) if n and not n.startswith("you")}


def test_every_string_is_in_both_languages_with_the_same_placeholders():
    for key, entry in ui.STRINGS.items():
        assert key.startswith("electors."), key
        assert STRINGS[key] is entry
        assert _fields(entry["en"]) == _fields(entry["ja"]), key
        assert JAPANESE.search(entry["ja"]), key
        assert not re.search(r"[\u3040-\u30ff\u4e00-\u9fff）」]:", entry["ja"]), key
    for lang in ("en", "ja"):
        assert ui.BLURB[lang] and ui.rules_html(lang).startswith("<p>")
    assert ui.thumbnail("en").startswith("<svg") and ui.PLAY_TIME[0] < ui.PLAY_TIME[1]


def test_open_view_shows_every_hand_and_every_face():
    views = [make_view(you=0), make_view(you=1, hand=["B1", "B1"]),
             make_view(you=2, hand=["G3"])]
    views[1]["grid"][0][1] = down("B", "B6")
    merged = ui.open_view(views)
    assert merged["you"] is None and merged["open_hands"][1] == ["B1", "B1"]
    assert merged["grid"][0][1]["c"] == "B6" and merged["grid"][0][3]["c"] == "R5"
    html = screen(merged, [])
    assert "Hand: Blue 1, Blue 1" in htmllib.unescape(html)


def test_the_two_player_variant_names_both_colours_and_shows_both_faces():
    view = make_view(players=2, colours=["RG", "BY"], hand_counts=[5, 4], deck_counts=[9, 9],
                     acquired=[["R5"], ["B3"]], influence=[[], []])
    view["grid"][1][0] = down("G", "G3")
    html = screen(view, TURN, seats=("you", "bot"))
    cells = {a["data-cell"]: htmllib.unescape(a["aria-label"]) for a in button_tags(html)
             if "data-cell" in a}
    assert cells["a2"] == "Row 2, column a: face-down Green card, yours: Green 3"
    strips = all_outer(html, 'class="pstrip')
    assert "Red &amp; Green" in strips[0] and "Blue &amp; Yellow" in strips[1]
    assert ui.describe({"t": "draw", "p": 1, "n": 3}, "en", view) == "Blue & Yellow draws 3 cards."


def test_a_spectator_is_told_whose_turn_it_is_and_sees_no_hand():
    view = make_view(you=None, hand=None)
    html = screen(view, [])
    assert status(html) == "Red's turn."
    assert enabled_commands(html) == []
    assert "seen" not in outer(html, 'class="egrid"')


def test_a_row_majority_step_marks_its_row():
    before = make_view(you=1, phase="hearts", to_move=[1])
    events = [{"t": "row", "row": 2, "colour": "B", "counts": {"B": 2, "G": 1}}]
    html = ui.render_table(before, [], "en", events=events, shown=0, since=0, before=before)
    html = ui.render_table(before, [], "en", events=events + [{"t": "rank", "ranks": {}}],
                           shown=1, since=0, before=before)
    assert status(html).startswith("Row 2: Blue has the most electors")
    head = outer(html, 'data-row="2"')
    assert "data-reveal" in head
    cands = outer(html, 'class="ecands"')
    assert re.findall(r'data-cubes="(\d+)"', cands) == ["1", "3", "0", "1"]


# -- real views from the engine (once it is in the tree) ------------------------------------------
@pytest.fixture
def engine():
    """The Electors engine, registered for the test and unregistered after it (skipped
    while it is not in the tree): registration never leaks into other tests."""
    import importlib

    import pygames

    try:
        importlib.import_module("pygames.electors")
    except ImportError:
        pytest.skip("the Electors engine is not in this tree yet")
    registered = "electors" in pygames.REGISTRY
    if not registered:
        pygames.register("electors", "pygames.electors", "ElectorsGame")
    yield pygames.get_game("electors")
    if not registered:
        pygames.unregister("electors")


#: Option sets the random games below play (the defaults first).
ENGINE_OPTIONS = [
    (3, {}), (4, {}), (2, {"two_player_variant": True}),
    (3, {"card_backs": "plain", "placer_memory": False, "jester_scope": "column"}),
    (4, {"influence_set": "21", "bribery_mode": "owner_takes_random_hand_card",
         "jester_scope": "adjacent"}),
]


def _random_steps(game, n_games: int):
    import random

    for k in range(n_games):
        players, opts = ENGINE_OPTIONS[k % len(ENGINE_OPTIONS)]
        s = game.new_game(seed=k, options=opts, players=players)
        rng = random.Random(k)
        while not s.is_over():
            p = s.to_move()[0]
            legal = s.legal_actions(p)
            yield s, p, legal
            # Buy and use hearts often, so those screens come up.
            buys = [a for a in legal if a[0] in "$h"]
            s.apply(p, rng.choice(buys) if buys and rng.random() < .3 else rng.choice(legal))
        yield s, None, []


def test_real_views_every_legal_action_is_reachable_and_every_event_worded(engine):
    game = engine
    phases, kinds = set(), set()
    for s, p, legal in _random_steps(game, 10):
        if p is None:
            for seat in range(s.view(None)["players"]):
                html = screen(s.view(seat), [], events=s.events(seat))
                assert outer(html, 'class="ftable"') is not None
            continue
        view = s.view(p)
        phases.add(view["phase"])
        lang = "ja" if len(phases) % 2 else "en"
        found, _ = reachable(view, legal, lang)
        assert set(found) == set(legal), (view["phase"], sorted(set(legal) - set(found)))
        assert status(screen(view, legal, lang, events=s.events(p)))
    for seat in (0, 1, None):
        for e in s.events(seat):
            kinds.add(e["t"])
            for lang in ("en", "ja"):
                text = ui.describe(e, lang, s.view(seat))
                assert text and "{" not in text and "Event:" not in text, e
    assert {"turn", "number", "place", "after", "pairs"} <= phases, phases


def test_real_views_show_a_face_only_where_the_view_gives_one(engine):
    game = engine
    for s, p, _legal in _random_steps(game, 5):
        if p is None:
            continue
        for seat in [*range(len(s.view(None)["hand_counts"])), None]:
            view = s.view(seat)
            html = screen(view, [])
            grid = outer(html, 'class="egrid"')
            given = sum(1 for row in view["grid"] for c in row if c and c.get("c"))
            assert len(re.findall(r'class="face ', grid)) == given
