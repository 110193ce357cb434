"""ART OF WAR's table, rendered in CPython: what a player would notice.

Every legal action is reachable by clicking ``data-cmd`` buttons on the screen drawn for
that moment (a pick, then a cell), at every step of many random games, and nothing else is
offered; every choice gets a prompt naming what it will do; a seat's screen never names
the other hand's cards; a picked attacker lights its range on the enemy field with each
target marked capture / destroy / damage from the view's numbers and rule options; every
event is worded in both languages; pass and play answers a Guardian or Wizard window from
the hand-over screen with one tap, without showing the responder's hand.
"""

from __future__ import annotations

import html as htmllib
import random
import re
from html.parser import HTMLParser

import pytest
from helpers.tables import enabled_commands
from pgui import artofwar_ui as ui
from pgui.table import Table

import pygames

JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


@pytest.fixture(scope="module", autouse=True)
def game():
    """The game plugged in for these tests (the lead registers it for the app)."""
    registered = "artofwar" in pygames.REGISTRY
    if not registered:
        pygames.register("artofwar", "pygames.artofwar", "ArtOfWarGame")
    yield pygames.get_game("artofwar")
    if not registered:
        pygames.unregister("artofwar")


def random_states(game, n_games: int, first_seed: int = 0):
    """(state, seat to move) at every step of random games (some with skewed decks)."""
    for seed in range(first_seed, first_seed + n_games):
        opts = {} if seed % 3 else {"deck1": "K1S8A4W8", "deck2": "K5S10G10"}
        s = game.new_game(seed=seed, options=opts)
        rng = random.Random(seed)
        while not s.is_over():
            p = s.to_move()[0]
            yield s, p
            s.apply(p, rng.choice(s.legal_actions(p)))


def screen(view, legal, lang="en", sel=None, events=()):
    return ui.render_table(view, legal, lang, events=list(events), sel=sel, seats=("you", "bot"))


def reachable(view, legal, lang="en", depth=3):
    """Every action some sequence of at most ``depth`` clicks on the rendered buttons
    plays: {action: the click sequence}; and every command ever offered."""
    found: dict[str, list[str]] = {}
    offered: set[str] = set()
    seen: set[tuple] = set()
    frontier = [(ui.new_selection(), [])]
    for _ in range(depth):
        nxt = []
        for sel, path in frontier:
            key = (sel["src"], sel["at"])
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
                elif (after["src"], after["at"]) not in seen:
                    nxt.append((after, [*path, cmd]))
        frontier = nxt
    return found, offered


def kind(phase: str, action: str) -> str:
    """An action's kind, as the table must offer it: ``phase:what``."""
    if action in ("keep", "mull", "end", "pass", "cap", "dmg"):
        what = action
    elif re.fullmatch(r"[FB][abc]x[FB][abc]", action):
        what = "attack"
    elif action.startswith("+K"):
        what = "king_as_" + action[2]
    elif action.startswith("+"):
        what = "support_" + action[1]
    else:
        what = {"e": "entry", "a": "archer", "m": "priest", "k": "from_kingdom"}.get(action[0])
        if what is None:
            what = ("from_wait" if action.startswith("w>") else
                    "to_wait" if action.endswith(">w") else "from_hand")
    return f"{phase}:{what}"


#: Every kind of legal action there is (a conscription from the kingdom comes from a
#: hand-made position below: random games rarely reach one).
ALL_KINDS = {
    "mulligan:keep", "mulligan:mull", "field:from_hand", "wait:to_wait",
    "main:from_hand", "main:from_wait", "main:attack", "main:support_S", "main:support_A",
    "main:support_P", "main:king_as_S", "main:king_as_A", "main:king_as_P", "main:entry",
    "main:end", "window:support_G", "window:king_as_G", "window:support_W",
    "window:king_as_W", "window:pass", "capture:cap", "capture:dmg", "archer:archer",
    "priest:priest", "conscript:from_wait", "limit:entry",
}


def test_every_legal_action_is_reachable_by_clicks_and_nothing_else_is_offered(game):
    kinds = set()
    prompts: dict[str, str] = {}
    for s, p in random_states(game, 40):
        view, legal = s.view(p), s.legal_actions(p)
        found, offered = reachable(view, legal)
        assert set(found) == set(legal), (view["phase"], sorted(set(legal) - set(found)))
        kinds |= {kind(view["phase"], a) for a in legal}
        html = screen(view, legal)
        status = re.findall(r"<p [^>]*data-status>(.*?)</p>", html)
        assert len(status) == 1 and status[0], view["phase"]
        assert ui.who(p, "en") not in status[0]  # addressed to the player at the device
        prompts.setdefault(view["phase"], status[0])
    assert ALL_KINDS <= kinds, sorted(ALL_KINDS - kinds)
    # Each kind of choice is asked in its own words.
    assert len(set(prompts.values())) == len(prompts), prompts


def test_a_conscription_from_the_kingdom_is_a_kingdom_pick_then_a_cell(game):
    # Player 2's field emptied with nothing waiting: two cards come from the kingdom.
    s = game.from_position({
        "fields": [{"Fa": "S"}, {}], "kingdoms": [{}, {"G": 1, "A": 2}],
        "phase": "conscript", "conscript": {"p": 1, "left": 2, "first": None},
        "hands": [["S", "K"], ["P", "K"]]})
    view, legal = s.view(1), s.legal_actions(1)
    assert legal and all(a.startswith("k") for a in legal)
    found, offered = reachable(view, legal)
    assert set(found) == set(legal)
    assert {"kingdom:G", "kingdom:A"} <= offered
    assert found["kA>Fb"] == ["kingdom:A", "cell:Fb"]
    sel = ui.new_selection()
    ui.handle("kingdom:A", sel, legal, view)
    status = re.search(r"data-status>(.*?)</p>", screen(view, legal, sel=sel)).group(1)
    assert "Archer" in status and "kingdom" in status


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_every_choice_is_prompted_in_the_players_language(game, lang):
    seen = {}
    for s, p in random_states(game, 6, first_seed=100):
        view, legal = s.view(p), s.legal_actions(p)
        status = re.search(r"data-status>(.*?)</p>", screen(view, legal, lang)).group(1)
        assert status
        if lang == "ja":
            assert JAPANESE.search(status), status
        else:
            assert not JAPANESE.search(htmllib.unescape(status)), status
        seen.setdefault(view["phase"], status)
    assert {"mulligan", "field", "wait", "main", "window"} <= set(seen)


def test_the_window_prompt_names_what_is_answered(game):
    asked = {}
    for s, p in random_states(game, 30, first_seed=200):
        view = s.view(p)
        if view["phase"] != "window":
            continue
        status = htmllib.unescape(re.search(r"data-status>(.*?)</p>",
                                            screen(view, s.legal_actions(p))).group(1))
        kind = view["window"]["kind"]
        if kind == "guardian":
            att = view["attack"]
            target = ui.card_name(view["fields"][p][att["to"]]["c"], "en", view["kings"][p])
            assert f"attacks your {target} at {ui.cell_name(att['to'], 'en')}" in status
            assert "Guardian to cancel the attack" in status
        else:
            assert "Wizard to cancel it" in status
        asked[kind] = status
    assert set(asked) == {"guardian", "wizard"}


# =========================================================================== hidden info
def test_a_seats_screen_is_the_same_whatever_the_other_hand_holds(game):
    """The screen drawn for a seat is identical in a world where the opponent holds other
    cards (the engine's determiniser: same public information, a re-drawn hand), and
    the opponent's draws reach the log as counts only."""
    rng = pygames.Rng(7)
    checked = 0
    for s, p in random_states(game, 8, first_seed=300):
        view, legal = s.view(p), s.legal_actions(p)
        world = game.determinize(p, view, s.events(p), rng)
        assert screen(world.view(p), world.legal_actions(p)) == screen(view, legal)
        for e in s.events(p):
            if e["t"] in ("draw", "mulligan") and e["p"] != p:
                assert "cards" not in e
                for lang in ("en", "ja"):
                    text = ui.describe(e, lang, view)
                    assert not any(ui.card_name(c, lang) in text for c in "SGAPW"), text
        checked += 1
    assert checked > 300


def test_the_hand_shown_is_the_viewers_own_and_a_spectator_sees_none(game):
    for s, p in random_states(game, 3, first_seed=400):
        html = screen(s.view(p), s.legal_actions(p))
        hand = re.search(r'<section class="ahand".*?</section>', html, re.S).group(0)
        shown = re.findall(r'class="hcard c-(\w)', hand)
        assert shown == s.view(p)["hand"]
        assert "ahand" not in screen(s.view(None), [])


# =========================================================================== range marks
def _marks(game, position, pick, seat=0, options=None):
    """{enemy cell: mark} once the viewer picks its card at ``pick``."""
    s = game.from_position(position, options=options)
    view, legal = s.view(seat), s.legal_actions(seat)
    sel = ui.new_selection()
    assert ui.handle(f"cell:{pick}", sel, legal, view) is None and sel["at"] == pick
    html = screen(view, legal, sel=sel)
    pattern = rf'data-cell="(\w\w)" data-owner="{1 - seat}" data-card="\w" data-mark="(\w+)"'
    return dict(re.findall(pattern, html)), html


#: Player 1 holds 3 cards (a Soldier's X is 3). Player 2: an upright Guardian (DEF 3) at
#: front b, a Priest with 2 damage at front c (DEF 2), a Wizard at back b.
FIGHT = {
    "fields": [{"Fa": "A", "Fb": "S", "Fc": "G"},
               {"Fa": "S", "Fb": "G", "Fc": {"c": "P", "dmg": 1}, "Bb": "W"}],
    "hands": [["S", "A", "K"], ["P", "K"]],
}


def test_a_picked_attacker_lights_its_targets_marked_capture_destroy_or_damage(game):
    marks, html = _marks(game, FIGHT, "Fb")  # Soldier, X = 3 = the Guardian's DEF
    assert marks == {"Fb": "capture"}
    assert "ATK 3 = 3 cards in your hand + 0 Soldier bonus" in html
    button = re.search(r'<button [^>]*data-cell="Fb" data-owner="1".*?</button>', html).group(0)
    assert 'data-cmd="foe:Fb"' in button
    assert "Player 2's Guardian at front b, upright" in htmllib.unescape(button)
    assert "can capture it (ATK 3 = DEF 3)" in htmllib.unescape(button)
    # The Archer reaches back b (damage 1 on DEF 2) and front c (1 more on the Priest's
    # 1 of DEF 2: 2 does not exceed 2, it survives).
    marks, _ = _marks(game, FIGHT, "Fa")
    assert marks == {"Bb": "damage", "Fc": "damage"}
    marks, html = _marks(game, FIGHT, "Fc")  # a Guardian in front of the Priest
    assert marks == {"Fc": "damage"}


def test_the_marks_follow_the_soldier_bonus_and_the_rule_options(game):
    bonus = dict(FIGHT, bonus=1)  # X 3 + 1 = 4 > DEF 3: destroyed, no capture
    assert _marks(game, bonus, "Fb")[0] == {"Fb": "destroy"}
    # Damage reaching DEF destroys under "reaches": the Archer's 1 on the Priest's 1.
    marks, _ = _marks(game, FIGHT, "Fa", options={"destroy_when": "reaches"})
    assert marks == {"Bb": "damage", "Fc": "destroy"}
    # Capture by the damage total: the Guardian's 1 brings the Priest to its DEF 2.
    marks, _ = _marks(game, FIGHT, "Fc", options={"capture_basis": "accumulated"})
    assert marks == {"Fc": "capture"}


def test_player_2_sees_the_lanes_mirrored_and_its_own_rows_at_the_bottom(game):
    s = game.from_position(dict(FIGHT))
    html = screen(s.view(1), [])
    rows = re.findall(r'<div class="frow r(\w) s(\d)[^"]*">(.*?)</div>(?=<div class="f|</section>)',
                      html, re.S)
    order = [(r, int(o), re.findall(r'data-cell="(\w\w)"', cells)) for r, o, cells in rows]
    assert order == [("B", 0, ["Bc", "Bb", "Ba"]), ("F", 0, ["Fc", "Fb", "Fa"]),
                     ("F", 1, ["Fc", "Fb", "Fa"]), ("B", 1, ["Bc", "Bb", "Ba"])]
    html0 = screen(s.view(0), [])
    assert re.findall(r'data-cell="(\w\w)" data-owner="0"', html0)[:3] == ["Fa", "Fb", "Fc"]


def test_cards_say_type_attack_defence_orientation_damage_and_provisional_kings(game):
    pos = {"fields": [{"Fa": "A", "Fb": "K"}, {"Fb": {"c": "S", "up": False, "dmg": 0},
                                               "Fc": {"c": "P", "dmg": 1}}],
           "hands": [["S"], ["P", "K"]]}
    s = game.from_position(pos, options={"deck2": "K7S4G4A4P4W4"})
    html = htmllib.unescape(screen(s.view(0), s.legal_actions(0)))
    assert "Your Archer at front a, upright, ATK 1, DEF 2 upright / 1 sideways" in html
    assert "Player 2's Soldier at front b, sideways" in html
    assert "Player 2's Priest at front c, upright, 1 damage" in html
    assert 'data-dmg="1"' in html and "cell side" in html
    assert "King K-007" in html and "provisional data" in html  # K-007 is a placeholder
    mine = re.search(r'<section class="apanel s0.*?</section>', html, re.S).group(0)
    assert "King K-001" in mine and "provisional" not in mine
    ja = screen(s.view(0), [], "ja")
    assert "仮データ" in ja and "アーチャー" in ja


# =========================================================================== pass and play
def _hotseat_at_window(seed: int, kind: str, max_clicks: int = 4000):
    """A pass-and-play table whose hand-over screen is for a ``kind`` window's answer
    (clicking at random, confirming every hand-over, until one comes)."""
    table = Table("artofwar", mode="hotseat", seed=seed, lang="en", speed=0)
    rng = random.Random(seed)
    for _ in range(max_clicks):
        if table.animating:
            table.skip()
            continue
        if table.over:
            return None
        view = table.state.view(None)
        if (table.handover is not None and view["phase"] == "window"
                and view["window"]["kind"] == kind):
            return table
        if table.handover is not None:
            table.command("handover-ok")
            continue
        plays = ("act:", "hand:", "cell:", "foe:", "wait", "kingdom:")
        cmds = [c for c in enabled_commands(table.html()) if c.startswith(plays)]
        table.command(rng.choice(cmds))
    return None


@pytest.mark.parametrize("kind", ["guardian", "wizard"])
def test_pass_and_play_answers_a_window_from_the_hand_over_with_one_tap(kind):
    table = next(t for t in (_hotseat_at_window(seed, kind) for seed in range(12)) if t)
    responder = table.handover
    view = table.state.view(None)
    assert view["window"]["p"] == responder
    html = table.html()
    overlay = re.search(r'<div class="overlay handover".*', html, re.S).group(0)
    say = htmllib.unescape(re.search(r'<p class="quick-say">(.*?)</p>', overlay).group(1))
    if kind == "guardian":
        att = view["attack"]
        target = ui.card_name(view["fields"][responder][att["to"]]["c"], "en",
                              view["kings"][responder])
        assert say == (f"{ui.who(att['p'], 'en')}'s "
                       f"{ui.card_name(att['card'], 'en', view['kings'][att['p']])} attacks "
                       f"your {target} at {ui.cell_name(att['to'], 'en')}.")
    else:
        assert "to cancel" in say or "support" in say
    assert enabled_commands(overlay) == ["handover-act:pass", "handover-ok"]
    assert "Respond (show my hand)" in overlay
    # Secrecy: nobody's hand is on the page behind the hand-over, and the screen is the
    # same whatever the responder holds (it is drawn from nobody's view).
    assert 'class="ahand"' not in html and "+G" not in html and "+W" not in html
    real, other = table.state, 1 - responder
    for n in range(3):  # worlds where the responder holds other cards (same public info)
        table.state = pygames.get_game("artofwar").determinize(
            other, real.view(other), real.events(other), pygames.Rng(n))
        again = re.search(r'<div class="overlay handover".*', table.html(), re.S).group(0)
        assert again == overlay
    table.state = real
    events = table.state.event_count()
    table.command("handover-act:pass")  # one tap
    passes = [e for e in table.state.events(None, events) if e["t"] == "pass"]
    assert passes == [{"t": "pass", "p": responder, "kind": kind}]
    table.skip()
    # The device goes on to whoever moves next, with the usual hand-over.
    assert table.handover == table.state.to_move()[0] or table.over
    if not table.over:
        nxt = table.html()
        assert 'class="overlay handover"' in nxt and 'class="ahand"' not in nxt


def test_respond_shows_the_hand_and_the_cards_able_to_answer():
    table = next(t for t in (_hotseat_at_window(seed, "guardian") for seed in range(12)) if t)
    responder = table.handover
    table.command("handover-ok")
    html = table.html()
    assert 'class="overlay handover"' not in html
    legal = table.state.legal_actions(responder)
    offered = {c[4:] for c in enabled_commands(html) if c.startswith("act:")}
    assert offered == set(legal) and "pass" in offered


def test_the_plain_hand_overs_offer_no_quick_answer():
    table = Table("artofwar", mode="hotseat", seed=1, lang="ja", speed=0)
    assert table.handover == 0  # the mulligan: no window, nothing to answer blind
    overlay = re.search(r'<div class="overlay handover".*', table.html(), re.S).group(0)
    assert enabled_commands(overlay) == ["handover-ok"] and "quick-say" not in overlay
    count = table.state.event_count()
    table.command("handover-act:keep")  # not offered: nothing happens
    assert table.state.event_count() == count and table.handover == 0


# =========================================================================== the log
EVENTS = [
    {"t": "draw", "p": 0, "n": 1, "cards": ["A"]},
    {"t": "draw", "p": 1, "n": 3},
    {"t": "mulligan", "p": 0, "mull": True, "cards": ["S", "S", "G"]},
    {"t": "mulligan", "p": 1, "mull": False},
    {"t": "kingdom", "p": 1, "c": "W"},
    {"t": "place", "p": 0, "c": "K", "to": "Fb"},
    {"t": "place", "p": 1, "c": "G", "to": "w"},
    {"t": "turn", "p": 1, "n": 2},
    {"t": "recover", "p": 1, "cells": ["Fa"]},
    {"t": "arrange", "p": 0, "c": "A", "to": "Fa", "from": "hand", "out": "S", "out_to": "hand"},
    {"t": "arrange", "p": 1, "c": "G", "to": "Bb", "from": "wait"},
    {"t": "attack", "p": 0, "from": "Fb", "to": "Fc", "c": "K", "atk": 1},
    {"t": "support", "p": 1, "c": "K", "as": "G"},
    {"t": "support", "p": 0, "c": "W", "as": "W"},
    {"t": "pass", "p": 1, "kind": "wizard"},
    {"t": "cancel", "p": 1, "c": "K", "as": "G"},
    {"t": "guarded", "p": 1, "cell": "Fc"},
    {"t": "damage", "p": 1, "cell": "Fc", "c": "P", "n": 1, "total": 2},
    {"t": "capture", "p": 0, "from": 1, "cell": "Fb", "c": "S"},
    {"t": "destroy", "p": 1, "cell": "Fa", "c": "G"},
    {"t": "advance", "p": 1, "from": "Ba", "to": "Fa", "c": "W"},
    {"t": "archer", "p": 0, "to": "Bb"},
    {"t": "priest", "p": 0, "from": "Fa", "to": "Bb", "swap": False},
    {"t": "priest", "p": 1, "from": "Fa", "to": "Fc", "swap": True},
    {"t": "enter", "p": 0, "c": "P"},
    {"t": "conscript", "p": 1, "c": "K", "to": "Fa", "src": "wait"},
    {"t": "conscript", "p": 1, "c": "A", "to": "Ba", "src": "kingdom"},
    {"t": "end_turn", "p": 0},
    {"t": "execution", "winner": 0, "p": 1},
    {"t": "founding", "winner": 1, "types": [0, 4]},
    {"t": "annihilation", "winner": 0, "p": 1},
    {"t": "end_of_war", "winner": None, "kingdoms": [6, 6], "graveyards": [2, 2]},
]


def test_every_event_kind_is_worded_in_both_languages(game):
    kinds = {e["t"] for e in EVENTS}
    seen = set()
    for seed in range(40):
        s = game.new_game(seed=seed)
        rng = random.Random(seed)
        while not s.is_over():
            p = s.to_move()[0]
            s.apply(p, rng.choice(s.legal_actions(p)))
        for e in s.events(0):
            seen.add(e["t"])
            for lang in ("en", "ja"):
                text = ui.describe(e, lang, s.view(0))
                assert text and "event" not in text and "出来事" not in text, e
    assert seen <= kinds, seen - kinds
    view = {"you": 0, "kings": [1, 3]}
    for event in EVENTS:
        en, ja = ui.describe(event, "en", view), ui.describe(event, "ja", view)
        assert en != ja and JAPANESE.search(ja) and not JAPANESE.search(en), event
    said = {e["t"] + str(i): ui.describe(e, "en", view) for i, e in enumerate(EVENTS)}
    assert said["draw0"] == "You draw Archer."
    assert said["draw1"] == "Player 2 draws 3 cards."
    assert said["attack11"] == "Your King K-001 at front b attacks Player 2's front c (ATK 1)."
    assert said["support12"] == "Player 2 places King K-003 as a Guardian support."
    assert said["capture18"] == "You capture Player 2's Soldier at front b into the kingdom."
    assert said["arrange9"] == ("You arrange Archer from the hand to front a. "
                                "Soldier goes back to the hand.")
    assert said["execution28"] == "Execution: Player 2's King K-003 has fallen. You win."
    assert ui.describe(EVENTS[0], "ja", view) == "あなたはアーチャーを引いた。"


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_each_of_the_four_victories_and_a_draw_has_its_reason(lang):
    reasons = {r: ui.result_reason(pygames.core.two_player_outcome(1, r), lang)
               for r in ("execution", "founding", "annihilation", "end_of_war")}
    reasons["draw"] = ui.result_reason(pygames.core.two_player_outcome(None, "end_of_war"), lang)
    assert len(set(reasons.values())) == 5
    words = {"en": ("Execution", "Founding", "Annihilation", "End of War"),
             "ja": ("処刑", "建国", "滅亡", "終戦")}[lang]
    for reason, word in zip(("execution", "founding", "annihilation", "end_of_war"), words,
                            strict=True):
        assert reasons[reason].startswith(word) and ui.who(1, lang) in reasons[reason]


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_rules_summary_covers_the_wins_the_turn_and_every_card(lang):
    text = ui.rules_html(lang)
    for c in "SGAPW":
        assert htmllib.escape(ui.card_name(c, lang)) in text
    for n in range(1, 11):
        assert f"K-{n:03d}" in text
    assert text.count('class="rng"') == 15  # a range diagram per card and King
    for word in {"en": ("Execution", "Founding", "Annihilation", "End of War", "Entry"),
                 "ja": ("処刑", "建国", "滅亡", "終戦", "入国")}[lang]:
        assert word in text


def test_the_ui_modules_doctests():
    import doctest

    assert doctest.testmod(ui, verbose=False).failed == 0


# =========================================================================== playback
KEPT = ("fields", "waiting", "kingdoms", "graveyards", "hand_counts", "deck_counts", "hand")


def test_a_playback_steps_from_the_table_before_to_the_table_after(game):
    """Played back step by step, the events of each action take the table drawn before
    it to exactly the one after it (fields, lines, kingdoms, graveyards, counts, hand)."""
    steps = 0
    for seed in range(30):
        s = game.new_game(seed=seed, options={} if seed % 3 else {"deck2": "K5S10G10"})
        rng = random.Random(seed)
        me = seed % 2
        while not s.is_over():
            p = s.to_move()[0]
            before, count = s.view(me), s.event_count()
            s.apply(p, rng.choice(s.legal_actions(p)))
            board = ui.board_at(before, s.events(me, count))
            after = s.view(me)
            assert board is not None
            assert {k: board[k] for k in KEPT} == {k: after[k] for k in KEPT}, s.events(me, count)
            steps += 1
    assert steps > 2000


def test_during_a_playback_the_step_is_worded_and_skip_is_the_only_control():
    for seed in range(20):
        table = Table("artofwar", mode="bot", seed=seed, lang="en", speed=900)
        rng = random.Random(seed)
        for _ in range(400):
            if table.animating or table.over:
                break
            cmds = [c for c in enabled_commands(table.html())
                    if c.startswith(("act:", "hand:", "cell:", "foe:", "wait", "kingdom:"))]
            table.command(rng.choice(cmds))
        if table.animating:
            break
    html = table.html()
    assert [c for c in enabled_commands(html) if not c.startswith("lang:")] == ["skip"]
    step = next(e for e in table.state.events(0, table.since)[:table.shown - table.since][::-1]
                if e["t"] in ui.STEP_EVENTS)
    status = htmllib.unescape(re.search(r"data-status>(.*?)</p>", html).group(1))
    assert status == ui.describe(step, "en", table.state.view(0))
    assert f'data-reveal="{step["t"]}"' in html
    table.skip()
    assert not table.animating and "skip" not in enabled_commands(table.html())


def test_every_button_has_words_for_a_screen_reader(game):
    for s, p in random_states(game, 4, first_seed=600):
        for lang in ("en", "ja"):
            html = screen(s.view(p), s.legal_actions(p), lang)
            for tag, inner in re.findall(r"(<button\b[^>]*>)(.*?)</button>", html, re.S):
                label = re.search(r'aria-label="([^"]+)"', tag)
                text = re.sub(r"<[^>]+>", "", re.sub(r'<span class="face".*', "", inner))
                assert (label and label.group(1).strip()) or text.strip(), tag


class _Marks(HTMLParser):
    """Each enabled data-cmd button, and whether a [data-choice] element holds it."""

    VOID = {"br", "img", "input", "wbr", "meta", "link", "hr", "rect"}

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[bool] = []
        self.buttons: list[tuple[str, bool]] = []
        self.marked: set[str] = set()

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "data-choice" in a:
            self.marked.add((a.get("class") or tag).split()[0])
        inside = (bool(self.stack) and self.stack[-1]) or "data-choice" in a
        if tag == "button" and "data-cmd" in a and "disabled" not in a:
            self.buttons.append((a["data-cmd"], inside))
        if tag not in self.VOID:
            self.stack.append(inside)

    def handle_startendtag(self, tag, attrs):
        pass

    def handle_endtag(self, tag):
        if tag not in self.VOID and self.stack:
            self.stack.pop()


def test_every_control_of_the_current_choice_is_inside_a_data_choice_mark(game):
    checked = 0
    for s, p in random_states(game, 6, first_seed=700):
        sel = ui.new_selection()
        legal = s.legal_actions(p)
        first = next((c for c in enabled_commands(screen(s.view(p), legal))
                      if c.startswith(("hand:", "cell:"))), None)
        if first:  # with a pick too: the cells it lights are marked
            ui.handle(first, sel, legal, s.view(p))
        for chosen in (ui.new_selection(), sel):
            marks = _Marks()
            marks.feed(screen(s.view(p), legal, sel=chosen))
            assert all(inside for _, inside in marks.buttons), [
                c for c, inside in marks.buttons if not inside]
            # The controls themselves, not the whole table (a phone cannot show it at once).
            assert marks.marked <= {"controls", "ahand", "field", "waiting", "kingdom"}
            checked += len(marks.buttons)
    assert checked > 1000
