"""Kiri-ai's table (``pgui.kiriai_ui`` at ``pgui.table.Table``), rendered in CPython:
what a player would notice.

The table speaks the chosen language, whole games can be played by clicking the buttons
the page shows, only legal cards can be clicked, reveals are played back step by step from
the right board, hot-seat hides each player's secret cards, and the lobby offers Kiri-ai
with every option. HTML is inspected through its ``data-*`` hooks and a tiny tag matcher
(helpers/markup.py).
"""

from __future__ import annotations

import copy
import doctest
import html as htmllib
import random
import re

import pytest
from helpers.markup import all_outer, buttons, outer, tags, visible_text
from pgui import kiriai_ui, lobby, ui_modules
from pgui.i18n import STRINGS, t
from pgui.kiriai_ui import board_at, describe, render_table
from pgui.table import Table

import pygames
from pygames.bots import RandomBot, play_bots

ui_modules()  # every game's strings join pgui.i18n.STRINGS
GAME = pygames.get_game("kiriai")
RED, BLUE = 0, 1
CARDS = "ARCSHLBKZX"
EN_NAMES = [kiriai_ui.CARD_NAMES[c]["en"] for c in CARDS]
JA_NAMES = [kiriai_ui.CARD_NAMES[c]["ja"] for c in CARDS]


# -- HTML helpers ------------------------------------------------------------------------
def cards_in(html: str) -> set[str]:
    """Letters of every face-up card (``data-card``) in a piece of HTML."""
    return set(re.findall(r'data-card="(\w)"', html))


def shown_board(html: str) -> dict[str, list]:
    """Positions, stances and wounds of the samurai as drawn on the battlefield."""
    board: dict[str, list] = {"pos": [None, None], "stance": [None, None],
                              "wounds": [None, None]}
    field = outer(html, 'class="battlefield')
    assert field is not None
    for space in all_outer(field, "data-space="):
        n = int(re.search(r'data-space="(\d+)"', space).group(1))
        for m in re.finditer(r'<div class="samurai (red|blue)[^"]*" data-player="(\d)" '
                             r'data-stance="(\w)" data-wounds="(\d)"', space):
            p = int(m.group(2))
            assert board["pos"][p] is None, "a samurai is drawn twice"
            board["pos"][p] = n
            board["stance"][p] = m.group(3)
            board["wounds"][p] = int(m.group(4))
    return board


def duel_row(html: str, colour: str) -> str:
    row = outer(html, f'class="duel-row {colour}"')
    assert row is not None
    return row


def panel(html: str, colour: str) -> str:
    el = outer(html, f'class="panel {colour}')
    assert el is not None
    return el


def aside_and_special(html: str, colour: str) -> str:
    """A seat's set-aside and special card, in its strip (the viewer's are in the hand)."""
    return outer(panel(html, colour), 'class="row"') or ""


def hand(html: str) -> str:
    el = outer(html, 'class="hand"')
    assert el is not None
    return el


def pick_prompt(n: int) -> str:
    """The status line while the viewer still has ``n`` cards to choose."""
    which = t("kiriai.which_both" if n == 2 else "kiriai.which_second", "en")
    return t("kiriai.prompt_pick", "en", n=n, which=which)


def round_label(html: str) -> str:
    m = re.search(r'<p class="round">(.*?)</p>', html)
    assert m is not None
    return m.group(1)


def log_lines(html: str) -> list[str]:
    log = outer(html, 'class="log-lines"')
    assert log is not None
    return re.findall(r"<li class=\"ev-\w+\">(.*?)</li>", log)


# -- playing by clicking -------------------------------------------------------------------
def click(table: Table, cmd: str) -> None:
    """Click a button that is on screen and enabled (fails if a player could not)."""
    btns = buttons(table.html())
    assert btns.get(cmd), f"{cmd!r} is not an enabled button: {sorted(btns)}"
    table.command(cmd)


def play_turn(table: Table, rng: random.Random) -> str:
    me = table.viewer()
    assert me is not None
    legal = table.state.legal_actions(me)
    assert legal, "the screen is someone's but they have nothing to do"
    action = rng.choice(legal)
    if table.state.phase == "setup":
        cmds = [f"space:{action[0]}", f"stance:{action[1]}", "confirm"]
    else:
        cmds = [f"pick:{action[0]}", f"pick:{action[1]}", "confirm"]
    before = table.state.clone()
    for cmd in cmds:
        click(table, cmd)
    assert table.state != before, f"confirming {action!r} did nothing"
    return action


def play_to_end(table: Table, rng: random.Random, max_clicks: int = 20_000,
                check=None) -> None:
    for _ in range(max_clicks):
        if check is not None:
            check(table)
        if table.animating:
            if rng.random() < 0.15:
                click(table, "skip")
            else:
                table.advance()
        elif table.state.is_over():
            return
        elif table.handover is not None:
            click(table, "handover-ok")
        else:
            play_turn(table, rng)
    raise AssertionError("the game did not end")


def replay(log: list[dict], shown: int, initial: dict | None) -> dict | None:
    """The board after the first ``shown`` events, replayed independently of pgui."""
    board = copy.deepcopy(initial)
    for e in log[:shown]:
        if e["t"] == "start":
            board = {"pos": list(e["pos"]), "stance": list(e["stance"]), "wounds": [0, 0]}
        elif e["t"] == "move":
            board["pos"][e["p"]] = e["to"]
        elif e["t"] == "stance":
            board["stance"][e["p"]] = e["to"]
        elif e["t"] == "wound":
            board["wounds"][e["p"]] = e["wounds"]
    return board


def initial_board(state) -> dict | None:
    if state.options["battlefield"] == "advanced":
        return None
    return {"pos": [1, state.size], "stance": ["H", "H"], "wounds": [0, 0]}


# =========================================================================== strings
def test_the_keys_kiriai_ui_builds_at_run_time_exist():
    # f"kiriai.{COLOURS[p]}", "kiriai.card." + letter, its short form, and the _you wordings
    # of the log (test_ui.py checks the literal ones).
    built = ({f"kiriai.{c}" for c in kiriai_ui.COLOURS} | {f"kiriai.card.{c}" for c in CARDS}
             | {f"kiriai.short.{c}" for c in CARDS})
    assert not built - set(STRINGS), sorted(built - set(STRINGS))


def _all_event_variants() -> list[dict]:
    return [
        {"t": "round", "n": 3},
        {"t": "start", "pos": [3, 5], "stance": ["H", "E"]},
        {"t": "reveal", "step": 1, "cards": ["C", "X"],
         "board": {"pos": [1, 5], "stance": ["H", "H"], "wounds": [0, 0]}},
        {"t": "move", "p": 0, "card": "C", "from": 1, "to": 3},
        {"t": "move", "p": 1, "card": "R", "from": 5, "to": 5},
        {"t": "stance", "p": 1, "card": "S", "to": "E"},
        {"t": "stance", "p": 0, "card": "K", "to": "E"},
        {"t": "strike", "p": 0, "card": "H", "hit": True, "why": None},
        {"t": "strike", "p": 1, "card": "L", "hit": False, "why": "stance"},
        {"t": "strike", "p": 1, "card": "Z", "hit": False, "why": "range"},
        {"t": "counter", "p": 1, "hit": True},
        {"t": "counter", "p": 0, "hit": False},
        {"t": "clash"},
        {"t": "wound", "p": 0, "wounds": 2},
        {"t": "aside", "p": 1, "card": "A"},
        {"t": "end", "winner": 1, "reason": "wounds"},
        {"t": "end", "winner": None, "reason": "round_limit"},
    ]


def test_describe_words_every_event_in_both_languages():
    variants = _all_event_variants()
    # The variants cover every event kind the engine writes (seen in real games).
    kinds = set()
    for seed in range(30):
        for battlefield in ("standard", "advanced"):
            s = GAME.new_game(seed=seed, options={"battlefield": battlefield})
            play_bots(s, {0: RandomBot(seed),
                                       1: RandomBot(seed + 99)})
            kinds |= {e["t"] for e in s.log}
    assert kinds <= {v["t"] for v in variants}, kinds - {v["t"] for v in variants}
    for event in variants:
        en, ja = describe(event, "en"), describe(event, "ja")
        assert en and ja and en != ja, event
        assert en != event["t"] and ja != event["t"], f"no wording for {event}"
        assert re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", ja), ja
    assert describe(_all_event_variants()[3], "ja") == "赤の「突撃」：1マス目 → 3マス目。"
    assert describe(_all_event_variants()[4], "en") == \
        "Blue's Retreat: cannot move (stays on space 5)."


#: The log as Red's player reads it (``view["you"] == 0``): the words each line must hold.
TO_RED = {
    "start": ("Start: you on space 3 (Heaven stance), Blue on space 5 (Earth stance).",
              "開始：あなたは3マス目（天の構え）、青は5マス目（地の構え）。"),
    "reveal": ("Reveal 1: your Charge / Blue's Counterattack.",
               "公開1：あなたの「突撃」／青の「反撃」。"),
    "move": ("Your Charge: space 1 → 3.", "あなたの「突撃」：1マス目 → 3マス目。"),
    "stance-1": ("Blue takes the Earth stance.", "青は地の構えになる。"),
    "stance-0": ("You take the Earth stance.", "あなたは地の構えになる。"),
    "strike-0": ("Your High Strike: hit!", "あなたの「高打撃」：命中！"),
    "counter-1": ("Blue counterattacks: the strike is turned back!",
                  "青の反撃：相手の打撃を返した！"),
    "counter-0": ("You counterattack, but there is nothing to answer.",
                  "あなたの反撃：返す打撃がなく不発。"),
    "wound": ("You are wounded (2/2).", "あなたが負傷（2/2）。"),
    "aside": ("Blue sets Approach aside.", "青は「接近」を休ませる。"),
    "end": ("You fall. Blue wins the duel.", "あなたが倒れた。青の勝ち。"),
}


def test_the_log_says_you_to_the_viewer_and_names_the_other_side_by_colour():
    """Red's player reads "you" where the line is about Red (its English verb agreeing),
    Blue's name for Blue's; a spectator and a finished game's open view read both colours."""
    seen = set()
    for event in _all_event_variants():
        key = event["t"] if event["t"] in TO_RED else f'{event["t"]}-{event.get("p")}'
        if key not in TO_RED or key in seen:
            continue
        seen.add(key)
        for lang, want in zip(("en", "ja"), TO_RED[key], strict=True):
            assert describe(event, lang, {"you": 0}) == want
            for nobody in (None, {"you": None}, {"you": 0, "open": True}):
                line = describe(event, lang, nobody)
                assert "you" not in line.lower() and "あなた" not in line, (nobody, line)
    assert seen == set(TO_RED)
    # Blue's player: the same lines turned round; the other side is Red.
    wound_red = {"t": "wound", "p": 0, "wounds": 1}
    assert describe(wound_red, "en", {"you": 1}) == "Red is wounded (1/2)."
    assert describe({"t": "end", "winner": 1}, "en", {"you": 1}) == "Red falls. You win the duel."
    assert describe({"t": "end", "winner": 1}, "ja", {"you": 1}) == "赤が倒れた。あなたの勝ち。"
    # No English line says "You is", "You takes", "You sets"...
    for event in _all_event_variants():
        for me in (0, 1):
            line = describe(event, "en", {"you": me})
            assert not re.search(r"\bYou (is|takes|sets|falls|counterattacks)\b", line), line


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("battlefield", ["standard", "advanced"])
def test_every_phase_renders_for_every_viewer(lang, battlefield):
    """Setup, programming, mid-reveal and game over, for Red, Blue and a spectator."""
    s = GAME.new_game(seed=4, options={"battlefield": battlefield})
    bots = {0: RandomBot(1), 1: RandomBot(2)}
    seen_phases = set()
    while True:
        for viewer in (RED, BLUE, None):
            view = s.view(viewer)
            events = s.events(viewer)
            legal = s.legal_actions(viewer) if viewer is not None else []
            for shown in sorted({0, len(events) // 2, len(events)}):
                html = render_table(view, legal, lang, events=events, shown=shown,
                                    seats=("a", "b"))
                assert f'data-phase="{s.phase}"' in html
        seen_phases.add(s.phase)
        if s.is_over():
            break
        for p in s.to_move():
            s.apply(p, bots[p].choose(s.view(p), s.legal_actions(p)))
    assert kiriai_ui.result_reason(s.outcome(), lang)
    assert kiriai_ui.result_reason({"winners": [], "ranks": [1, 1]}, lang)
    assert kiriai_ui.rules_html(lang)
    expected = {"program", "over"} | ({"setup"} if battlefield == "advanced" else set())
    assert seen_phases == expected


def test_kiriai_ui_doctests():
    result = doctest.testmod(kiriai_ui, verbose=False)
    assert result.failed == 0


# =========================================================================== language
def _table_after_rounds(lang: str, rounds: int = 3, seed: int = 2) -> Table:
    table = Table("kiriai", mode="bot", seed=seed, lang=lang, speed=0)
    rng = random.Random(seed)
    for _ in range(rounds):
        if table.state.is_over():
            break
        play_turn(table, rng)
        table.skip()
    return table


ENGLISH_UI_WORDS = ["Confirm", "Your hand", "Set aside", "Wounds", "Rules summary", "Round ",
                    "Red", "Blue", "Heaven", "Earth", "Distance"]


def test_table_in_japanese_shows_japanese_card_names():
    table = _table_after_rounds("ja")
    html = table.html()
    text = visible_text(html)
    for name in ("突撃", "接近", "高打撃", "均衡打撃"):
        assert name in text
    for name in EN_NAMES:
        assert name not in html, name
    for word in ENGLISH_UI_WORDS:
        assert word not in text, word
    assert "決定" in text or table.state.is_over()
    assert all(re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", line) for line in log_lines(html))


def test_table_in_english_shows_english_card_names():
    table = _table_after_rounds("en")
    html = table.html()
    text = visible_text(html)
    for name in ("Charge", "Approach", "High Strike", "Balanced Strike"):
        assert name in text
    for name in JA_NAMES:
        assert name not in html, name
    assert "Your hand" in text or table.state.is_over()


def test_lang_command_rerenders_in_the_other_language():
    table = Table("kiriai", mode="bot", seed=5, lang="en", speed=0)
    table.command("pick:C")
    assert buttons(table.html()).get("lang:ja")
    table.command("lang:ja")
    html = table.html()
    text = visible_text(html)
    assert "突撃" in text and "決定" in text and "キリアイ･ザ･デュエル" in text
    assert "Charge" not in html and "Confirm" not in text
    assert buttons(html).get("lang:en")
    assert table.sel["picks"] == ["C"]  # the half-made program survives the switch
    table.command("lang:fr")  # unknown language: nothing changes
    assert table.html() == html
    table.command("lang:en")
    assert "Charge" in visible_text(table.html())


# =========================================================================== controller
CONFIGS = [("bot", "standard"), ("bot", "advanced"), ("hotseat", "standard"),
           ("hotseat", "advanced")]


@pytest.mark.parametrize("mode,battlefield", CONFIGS)
def test_whole_games_by_clicking_reach_game_over(mode, battlefield):
    for seed in range(8):
        lang = "ja" if seed % 2 else "en"
        table = Table("kiriai", mode=mode, seed=seed, lang=lang, speed=0,
                      options={"battlefield": battlefield})
        play_to_end(table, random.Random(seed))
        html = table.html()
        assert 'class="overlay gameover"' in html
        assert buttons(html).get("rematch")
        outcome = table.state.outcome()
        winner = outcome["winners"][0]
        if mode == "bot":
            headline = t("you_win" if winner == RED else "you_lose", lang)
        else:
            headline = t("wins", lang, who=kiriai_ui.who(winner, lang))
        assert headline in visible_text(html)
        assert shown_board(html)["wounds"][1 - winner] == 2
        # After the game nothing can be played.
        assert not any(cmd.startswith("pick:") for cmd in buttons(html))


@pytest.mark.parametrize("battlefield", ["standard", "advanced"])
def test_rematch_starts_a_fresh_game(battlefield):
    table = Table("kiriai", mode="bot", seed=3, speed=0, options={"battlefield": battlefield})
    play_to_end(table, random.Random(3))
    old_log = list(table.state.log)
    click(table, "rematch")
    html = table.html()
    assert "overlay" not in html
    assert not table.animating and not table.state.is_over()
    assert table.state.round == 1 and table.state.wounds == [0, 0]
    assert 'data-round="1"' in html
    assert re.findall(r'class="wounds" data-wounds="(\d)"', html) == ["0", "0"]
    assert table.state.log != old_log
    if battlefield == "standard":
        assert shown_board(html)["pos"] == [1, 5]
        assert buttons(html).get("pick:C")
    else:
        assert table.state.phase == "setup"
        assert buttons(html).get("space:3") and buttons(html).get("stance:E")
    play_to_end(table, random.Random(4))  # and it can be played to the end again
    assert 'class="overlay gameover"' in table.html()


def _snapshot(table: Table):
    return table.html(), table.state.clone(), table.shown, copy.deepcopy(table.sel)


GARBAGE = ["pick:Q", "pick:", "pick:CB", "pick:K pick:Z", "confirm", "unpick:9", "unpick:-1",
           "unpick:x", "", ":", "garbage", "PICK:C", "handover-ok", "stance:X", "space:9",
           "lang:fr", "lang:", "advance", "rematchx", "skip:now"]


def test_invalid_commands_change_nothing():
    table = Table("kiriai", mode="bot", seed=7, speed=0)
    # Red holds exactly one special; the other two are not Red's to play.
    foreign = [c for c in "KZX" if c != table.state.special[RED]]
    for cmd in GARBAGE + [f"pick:{c}" for c in foreign]:
        before = _snapshot(table)
        table.command(cmd)
        assert _snapshot(table)[0] == before[0], cmd
        assert table.state == before[1] and table.shown == before[2], cmd
    # With one card picked: its other half, the same card, confirm and unpick:9 do nothing.
    table.command("pick:A")
    for cmd in ["pick:R", "pick:A", "confirm", "unpick:9", "unpick:1"]:
        before = _snapshot(table)
        table.command(cmd)
        assert _snapshot(table)[0] == before[0], cmd
        assert table.sel == before[3] and table.state == before[1], cmd
    # During playback, picks and confirms are ignored.
    table.command("pick:L")
    table.command("confirm")
    assert table.animating
    for cmd in ["pick:C", "pick:B", "confirm", "unpick:0", "clear"]:
        before = _snapshot(table)
        table.command(cmd)
        assert _snapshot(table)[0] == before[0], cmd
        assert table.shown == before[2], cmd
    # After the game ends, nothing but rematch/dismiss does anything.
    play_to_end(table, random.Random(7))
    for cmd in ["pick:C", "confirm", "skip", "handover-ok", "space:3"]:
        before = _snapshot(table)
        table.command(cmd)
        assert _snapshot(table)[0] == before[0], cmd


def test_multi_digit_space_command_is_ignored_in_setup():
    table = Table("kiriai", mode="bot", seed=1, speed=0, options={"battlefield": "advanced"})
    before = table.html()
    table.command("space:23")
    assert table.html() == before


def test_clear_and_unpick_empty_the_slots():
    table = Table("kiriai", mode="bot", seed=8, speed=0)
    click(table, "pick:C")
    click(table, "pick:H")
    assert buttons(table.html())["confirm"]
    click(table, "unpick:1")
    assert table.sel["picks"] == ["C"] and not buttons(table.html())["confirm"]
    click(table, "pick:B")
    click(table, "unpick:0")
    html = table.html()
    assert table.sel["picks"] == [] and not buttons(html)["confirm"]
    assert not any(c.startswith("unpick:") for c in buttons(html))
    click(table, "pick:L")
    table.command("clear")
    assert table.sel["picks"] == []


# =========================================================================== legal picks
def test_confirm_is_enabled_only_with_two_cards():
    table = Table("kiriai", mode="bot", seed=9, speed=0)
    html = table.html()
    assert buttons(html)["confirm"] is False
    assert pick_prompt(2) == "Your turn: choose 2 cards for your 1st and 2nd action."
    assert pick_prompt(2) in visible_text(html)
    click(table, "pick:L")
    assert buttons(table.html())["confirm"] is False
    assert pick_prompt(1) == "Your turn: choose 1 card for your 2nd action."
    assert pick_prompt(1) in visible_text(table.html())
    click(table, "pick:A")
    html = table.html()
    assert buttons(html)["confirm"] is True
    assert t("kiriai.prompt_confirm", "en") in visible_text(html)
    # Both picks are face up in Red's own slots, not yet sent, and shown there only: the
    # hand keeps an empty place for each, and Confirm is beside the slots.
    assert cards_in(duel_row(html, "red")) == {"L", "A"}
    assert not cards_in(hand(html)) & {"L", "A"}
    assert 'data-cmd="confirm"' in duel_row(html, "red")
    assert re.findall(r'data-picked="(\w)"', hand(html)) == ["A", "L"]
    assert table.state.pending[RED] is None


def test_second_card_rests_next_round():
    table = Table("kiriai", mode="bot", seed=11, speed=0)
    click(table, "pick:C")
    click(table, "pick:H")
    click(table, "confirm")
    click(table, "skip")
    assert not table.state.is_over()
    html = table.html()
    btns = buttons(html)
    assert btns["pick:H"] is False, "High Strike was set aside and must rest"
    for c in "ARCSLB" + table.state.special[RED]:
        assert btns[f"pick:{c}"] is True, c
    hand = outer(html, 'class="hand"')
    assert re.search(r'class="card strike rest" data-card="H"', hand)
    table.command("pick:H")  # a forced click does nothing
    assert table.sel["picks"] == []
    # Nor can it be the 2nd card.
    click(table, "pick:A")
    assert buttons(table.html())["pick:H"] is False
    # The next round it is back (the Low Strike rests instead).
    click(table, "pick:L")
    click(table, "confirm")
    click(table, "skip")
    if not table.state.is_over():
        btns = buttons(table.html())
        assert btns["pick:H"] is True and btns["pick:L"] is False


def test_movement_card_resting_disables_both_halves():
    table = Table("kiriai", mode="bot", seed=12, speed=0)
    click(table, "pick:L")
    click(table, "pick:R")
    click(table, "confirm")
    click(table, "skip")
    assert not table.state.is_over()
    btns = buttons(table.html())
    assert btns["pick:A"] is False and btns["pick:R"] is False
    assert btns["pick:C"] is True and btns["pick:S"] is True


@pytest.mark.parametrize("first,other_half", [("A", "R"), ("R", "A"), ("C", "S"), ("S", "C")])
def test_picking_one_half_disables_the_other(first, other_half):
    table = Table("kiriai", mode="bot", seed=13, speed=0)
    click(table, f"pick:{first}")
    btns = buttons(table.html())
    assert btns[f"pick:{other_half}"] is False
    assert f"pick:{first}" not in btns  # in its slot now: a card cannot fill both
    for c in "HLB":
        assert btns[f"pick:{c}"] is True
    table.command(f"pick:{other_half}")
    assert table.sel["picks"] == [first]


def test_only_own_unspent_special_is_offered():
    table = Table("kiriai", mode="bot", seed=14, speed=0)
    mine = table.state.special[RED]
    btns = buttons(table.html())
    assert btns[f"pick:{mine}"] is True
    assert not any(f"pick:{c}" in btns for c in "KZX" if c != mine)
    click(table, "pick:A")
    click(table, f"pick:{mine}")
    click(table, "confirm")
    click(table, "skip")
    if not table.state.is_over():
        html = table.html()
        assert f"pick:{mine}" not in buttons(html)  # spent: no longer playable
        assert f'data-card="{mine}"' in hand(html)  # but shown there, spent
        assert t("kiriai.spent", "en") in visible_text(hand(html))
        table.command("pick:A")
        table.command("pick:H")
        table.command("confirm")  # while the reveal plays back, Red's strip shows it
        if table.animating:
            assert t("kiriai.spent", "en") in visible_text(panel(table.html(), "red"))


# =========================================================================== playback
def _frames(table: Table) -> list[tuple[int, str]]:
    """Every frame of the current playback: (shown, html), advancing one step at a time."""
    frames = []
    while table.animating:
        frames.append((table.shown, table.html()))
        table.advance()
    frames.append((table.shown, table.html()))
    return frames


def _choose(legal: list[str], *wanted: str) -> str:
    return next((w for w in wanted if w in legal), legal[0])


def prompt_text(html_text: str) -> str:
    match = re.search(r'<p class="prompt"[^>]*>(.*?)</p>', html_text, re.S)
    assert match, "no prompt on screen"
    return htmllib.unescape(match.group(1))


def test_reveal_is_played_back_step_by_step():
    table = Table("kiriai", mode="bot", seed=21, speed=0)
    play_turn(table, random.Random(21))  # round 2 is played back below
    table.skip()
    assert not table.state.is_over()
    before = copy.deepcopy({"pos": table.state.pos, "stance": table.state.stance,
                            "wounds": table.state.wounds})
    start = len(table.state.log)
    assert shown_board(table.html()) == before
    prog = _choose(table.state.legal_actions(RED), "CB", "CL", "CH", "AB", "AL", "AH")
    click(table, f"pick:{prog[0]}")
    click(table, f"pick:{prog[1]}")
    click(table, "confirm")
    assert table.animating
    frames = _frames(table)
    log = table.state.log
    # Index of the 2nd reveal (the game may end before it).
    second_reveal = next((i for i in range(start, len(log))
                          if log[i]["t"] == "reveal" and log[i]["step"] == 2), len(log))
    # The first frame still shows the board from before the round (no move shown yet).
    first_shown, first = frames[0]
    assert not [e for e in log[start:first_shown] if e["t"] in ("move", "stance", "wound")]
    assert shown_board(first) == before
    assert prompt_text(first).startswith("Reveal 1: your ")
    assert buttons(first).get("skip")
    assert not any(c.startswith("pick:") for c in buttons(first))
    # One step per frame: each frame shows exactly one more step event than the last.
    for (a, _), (b, _) in zip(frames, frames[1:], strict=False):
        assert b > a
        steps = [e["t"] for e in log[a:b] if e["t"] in kiriai_ui.STEP_EVENTS]
        assert len(steps) == 1, log[a:b]
    for shown, html in frames:
        assert len(log_lines(html)) == shown
        # The prompt words the step on screen, so the playback reads by itself.
        last_step = [e for e in log[:shown] if e["t"] in kiriai_ui.STEP_EVENTS][-1]
        if shown < len(log):
            assert prompt_text(html) == describe(last_step, "en", {"you": RED})
        assert shown_board(html) == replay(log, shown, before), shown
        if shown <= second_reveal:  # 2nd cards stay hidden until the 2nd reveal
            slot2 = outer(duel_row(html, "red"), 'data-step="2"')
            assert prog[1] not in cards_in(slot2), shown
    # At the end the board is the engine's and the hand is back.
    last = frames[-1][1]
    assert shown_board(last) == {"pos": table.state.pos, "stance": table.state.stance,
                                 "wounds": table.state.wounds}
    assert not table.animating
    if not table.state.is_over():
        assert any(c.startswith("pick:") for c in buttons(last))
        # Red's slots wait, empty, for this round's picks (the 2nd card rests in the hand;
        # Blue's slots are face down: the bot has programmed).
        assert not cards_in(duel_row(last, "red"))
        assert t("kiriai.slot_empty", "en") in visible_text(duel_row(last, "red"))
    else:
        assert cards_in(duel_row(last, "red")) == set(prog)  # the final reveal stays up


def test_first_round_playback_starts_from_the_starting_board():
    table = Table("kiriai", mode="bot", seed=1, speed=0)
    click(table, "pick:C")
    click(table, "pick:B")
    click(table, "confirm")
    assert table.animating
    html = table.html()
    assert shown_board(html)["pos"] == [1, 5], "Red must still be on space 1"
    assert "B" not in cards_in(duel_row(html, "red")), "the 2nd card is not revealed yet"
    table.advance()
    assert shown_board(table.html())["pos"][RED] == 3  # the Charge is shown next


def test_board_at_matches_replay_in_many_games():
    for seed in range(20):
        for battlefield in ("standard", "advanced"):
            s = GAME.new_game(seed=seed, options={"battlefield": battlefield})
            play_bots(s, {0: RandomBot(seed),
                                       1: RandomBot(seed + 1)})
            view = s.view(None)
            log = s.events(None)
            first = next(i for i, e in enumerate(log) if e["t"] in ("reveal", "start"))
            for shown in range(first + 1, len(log) + 1):
                assert board_at(view, log, shown) == replay(log, shown, initial_board(s)), \
                    (seed, battlefield, shown)
            assert board_at(view, log, len(log)) == view["board"]


def test_board_at_matches_replay_from_the_very_start():
    s = GAME.new_game(seed=2)
    s.apply(RED, "CB")
    s.apply(BLUE, "AH")
    view, log = s.view(None), s.events(None)
    for shown in range(len(log) + 1):
        assert board_at(view, log, shown) == replay(log, shown, initial_board(s)), shown


def _hotseat_round(table: Table, red: str, blue: str) -> None:
    for prog in (red, blue):
        click(table, "handover-ok")
        click(table, f"pick:{prog[0]}")
        click(table, f"pick:{prog[1]}")
        click(table, "confirm")


def test_panels_do_not_run_ahead_of_the_playback():
    """Set-aside cards, spent specials and the round number change only when shown."""
    table = Table("kiriai", mode="hotseat", seed=1, speed=0)
    blue_special = table.state.special[BLUE]
    _hotseat_round(table, "CB", f"A{blue_special}")
    assert table.animating
    log = table.state.log
    frames = 0
    while table.animating and not any(e["t"] == "reveal" and e["step"] == 2
                                      for e in log[:table.shown]):
        html = table.html()
        assert 'data-card="B"' not in panel(html, "red"), "Red's 2nd card shown as set aside"
        assert f'data-card="{blue_special}"' not in html, "Blue's special shown before played"
        assert round_label(html) == t("kiriai.round_n", "en", n=1)
        table.advance()
        frames += 1
    assert frames >= 2
    table.skip()
    html = table.html()
    assert 'data-card="B"' in panel(html, "red")  # now it rests
    assert f'data-card="{blue_special}"' in panel(html, "blue")  # and Blue's special is spent
    assert round_label(html) == t("kiriai.round_n", "en", n=2)


def test_round_label_during_playback_names_the_round_being_revealed():
    table = Table("kiriai", mode="bot", seed=1, speed=0)
    click(table, "pick:C")
    click(table, "pick:B")
    click(table, "confirm")
    assert table.animating and not table.state.is_over()
    while table.animating:
        assert round_label(table.html()) == t("kiriai.round_n", "en", n=1)
        table.advance()
    if not table.state.is_over():
        assert round_label(table.html()) == t("kiriai.round_n", "en", n=2)


# =========================================================================== hidden info
def test_hotseat_handover_hides_reds_program():
    table = Table("kiriai", mode="hotseat", seed=1, speed=0)
    red_special, blue_special = table.state.special
    html = table.html()
    assert 'class="overlay handover"' in html
    assert t("handover_title", "en", who="Red") in visible_text(html)
    assert not any(c.startswith("pick:") for c in buttons(html))  # no hand before hand-over
    click(table, "handover-ok")
    assert f'data-card="{red_special}"' in table.html()  # Red sees its own special
    click(table, "pick:C")
    click(table, "pick:B")
    click(table, "confirm")
    html = table.html()
    assert 'class="overlay handover"' in html
    assert t("handover_title", "en", who="Blue") in visible_text(html)
    assert 'data-card="C"' not in html and 'data-card="B"' not in html
    assert f'data-card="{red_special}"' not in html
    assert not any(c.startswith("pick:") for c in buttons(html))
    assert 'class="badge ready"' in panel(html, "red")
    click(table, "handover-ok")
    html = table.html()
    assert "overlay" not in html
    assert pick_prompt(2) in visible_text(html)
    assert buttons(html).get("pick:C") and buttons(html).get(f"pick:{blue_special}")
    red_row = duel_row(html, "red")
    assert red_row.count('class="card back') == 2 and not cards_in(red_row)
    assert f'data-card="{red_special}"' not in html
    assert f'data-card="{blue_special}"' in html
    assert not cards_in(panel(html, "red"))
    # Blue programs; the reveal is shown to both (nobody's hand on screen).
    click(table, "pick:A")
    click(table, "pick:H")
    click(table, "confirm")
    assert table.animating and table.viewer() is None
    html = table.html()
    assert not any(c.startswith("pick:") for c in buttons(html))
    table.skip()
    html = table.html()
    assert 'class="overlay handover"' in html and t("handover_title", "en", who="Red") in html
    assert cards_in(duel_row(html, "red")) == {"C", "B"}
    assert cards_in(duel_row(html, "blue")) == {"A", "H"}


def test_hot_seat_says_you_to_whoever_holds_the_device_and_colours_while_nobody_does():
    table = Table("kiriai", mode="hotseat", seed=1, speed=0, lang="ja")
    you = t("you", "ja")
    click(table, "handover-ok")
    html = table.html()
    assert prompt_text(html) == "あなたの番：1番目と2番目の行動にするカードを2枚選んでください。"
    assert f"({you})" in visible_text(panel(html, "red"))
    assert you not in visible_text(panel(html, "blue"))
    for cmd in ("pick:C", "pick:B", "confirm", "handover-ok"):
        click(table, cmd)
    html = table.html()  # Blue holds the device now: Blue is "you"
    assert f"({you})" in visible_text(panel(html, "blue"))
    assert you not in visible_text(panel(html, "red"))
    for cmd in ("pick:A", "pick:H", "confirm"):
        click(table, cmd)
    html = table.html()  # the reveal, shown to both: nobody is "you"
    assert table.animating and prompt_text(html) == "公開1：赤の「突撃」／青の「接近」。"
    table.skip()
    html = table.html()  # the hand-over to Red
    assert log_lines(html) and not [line for line in log_lines(html) if you in line]
    click(table, "handover-ok")
    assert "公開1：あなたの「突撃」／青の「接近」。" in log_lines(table.html())


def test_bot_program_is_hidden_from_the_player():
    table = Table("kiriai", mode="bot", seed=3, speed=0)
    assert table.state.pending[BLUE] is not None  # the bot has already chosen
    html = table.html()
    blue_row = duel_row(html, "blue")
    assert not cards_in(blue_row) and blue_row.count('class="card back') == 2


def _hidden_specials_check(table: Table, seen: list[int]) -> None:
    """No unspent special of a player other than the viewer appears face up."""
    state = table.state
    html = table.html()
    viewer = table.viewer()
    for p in (RED, BLUE):
        if p != viewer and not state.spent[p]:
            assert f'data-card="{state.special[p]}"' not in html, (p, viewer)
    assert f'data-card="{state._unused_special}"' not in html
    seen[0] += 1


@pytest.mark.parametrize("mode,battlefield", CONFIGS)
def test_opponent_special_never_shown_until_spent(mode, battlefield):
    seen = [0]
    for seed in range(5):
        table = Table("kiriai", mode=mode, seed=seed + 40, speed=0,
                      options={"battlefield": battlefield})
        play_to_end(table, random.Random(seed),
                    check=lambda tb: _hidden_specials_check(tb, seen))
    assert seen[0] > 50


# =========================================================================== lobby
def test_lobby_lists_kiriai_in_both_languages():
    card = outer(lobby.render_lobby(), 'data-game="kiriai"')
    assert card is not None and "planned" not in card.split(">", 1)[0]
    text = visible_text(card)
    assert "Kiri-ai: The Duel" in text and "キリアイ･ザ･デュエル" in text
    assert t("players_n", "en", n=2) in text and t("players_n", "ja", n=2) in text


def test_lobby_form_starts_kiriai_with_mode_and_every_option():
    card = outer(lobby.render_lobby(), 'data-game="kiriai"')
    form = outer(card, "<form")
    assert form is not None
    form_tag = tags(form)[0][1]
    assert form_tag.get("action") in ("./play.html", "play.html")
    assert (form_tag.get("method") or "get").lower() == "get"
    inputs = [attrs for tag, attrs in tags(form) if tag == "input"]
    assert {"type": "hidden", "name": "game", "value": "kiriai"}.items() <= \
        next(i for i in inputs if i.get("name") == "game").items()
    radios: dict[str, dict[str, bool]] = {}
    for i in inputs:
        if i.get("type") == "radio":
            radios.setdefault(i["name"], {})[i["value"]] = "checked" in i
    assert radios["mode"] == {"bot": True, "hotseat": False, "link": False}
    assert radios["bot"] == {"easy": False, "normal": True, "strong": False}
    assert radios["seat"] == {"0": True, "1": False, "random": False}
    for name, spec in GAME.option_schema.items():
        assert set(radios[name]) == {str(v) for v in spec["values"]}, name
        checked = [v for v, on in radios[name].items() if on]
        assert checked == [str(spec["default"])], name
    assert any(tag == "button" and attrs.get("type") == "submit" for tag, attrs in tags(form))
    # Option labels are worded in both languages, not raw values.
    text = visible_text(form)
    assert "Standard (5 spaces)" in text and "スタンダード（5マス）" in text
    assert "vs bot" in text and "ボットと対戦" in text
    assert "Play a friend" in text and "友だちと対戦" in text
    assert "Strong" in text and "つよい" in text and "Second player" in text


def test_rematch_is_still_reachable_after_looking_at_the_board():
    table = Table("kiriai", mode="hotseat", seed=5, lang="en", speed=0)
    rng = random.Random(5)
    while not table.state.is_over():
        if table.handover is not None:
            table.command("handover-ok")
            continue
        me = table.viewer()
        action = rng.choice(table.state.legal_actions(me))
        for letter in action:
            table.command(f"pick:{letter}")
        table.command("confirm")
        table.skip()
    html = table.html()
    assert 'class="overlay gameover"' in html
    winner = table.state.outcome()["winners"][0]
    assert f'data-winner="{winner}"' in html
    table.command("dismiss")
    html = table.html()
    assert "overlay gameover" not in html
    assert 'class="endbar"' in html and 'data-cmd="rematch"' in html
    table.command("rematch")
    assert not table.state.is_over() and table.state.round == 1


def test_the_engine_and_the_table_name_the_cards_alike():
    """The engine keeps English titles for its own messages; players read the table's names."""
    from pygames.kiriai import CARD_TITLES

    assert {c: n["en"] for c, n in kiriai_ui.CARD_NAMES.items()} == CARD_TITLES
    assert all(n["ja"] for n in kiriai_ui.CARD_NAMES.values())
