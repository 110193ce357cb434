"""Cardia's table, rendered in CPython: what a player would notice.

Every legal action is one click away on screen and nothing else is; every ability choice
gets a prompt naming the ability and what it does; the opponent's hand and face-down cards
never reach the page; cards show influence, modifiers, tokens and signets; encounters whose
signets a re-evaluation moved are marked; every event is worded in both languages.
"""

from __future__ import annotations

import html as htmllib
import random
import re
from html.parser import HTMLParser

import pytest
from pgui import cardia_ui
from pgui.cardia_ui import describe, render_table
from pgui.table import Table

import pygames
import pygames.cardia

GAME = pygames.get_game("cardia")
JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


def enabled_cmds(html: str) -> set[str]:
    cmds = set()
    for tag in re.findall(r"<button\b[^>]*>", html):
        m = re.search(r'data-cmd="([^"]*)"', tag)
        if m and " disabled" not in tag:
            cmds.add(htmllib.unescape(m.group(1)))
    return cmds


def random_states(n_games: int, deck: str, location: str = "random"):
    """(state, seat to move) at every step of random matches."""
    for seed in range(n_games):
        s = GAME.new_game(seed=seed, options={"deck": deck, "location": location})
        rng = random.Random(seed)
        while not s.is_over():
            p = rng.choice(s.to_move())
            yield s, p
            s.apply(p, rng.choice(s.legal_actions(p)))


def screen(s, p, lang="en", sel=None):
    return render_table(s.view(p), s.legal_actions(p), lang, events=s.events(p), sel=sel,
                        seats=("you", "bot"))


@pytest.mark.parametrize("deck", ["I", "II"])
def test_every_legal_action_is_one_click_away_and_every_choice_is_prompted(deck):
    kinds = {}
    for s, p in random_states(60, deck):
        legal = s.legal_actions(p)
        view = s.view(p)
        html = screen(s, p)
        cmds = enabled_cmds(html)
        offered = {c.split(":", 1)[1] for c in cmds if c.startswith(("act:", "pick:"))}
        assert offered == set(legal), (view["choice"], sorted(offered ^ set(legal)))
        prompt = re.search(r'<p class="prompt"[^>]*>(.*?)</p>', html).group(1)
        # Addressed to the player at the device, who is not named by their seat.
        assert cardia_ui.who(p, "en") not in prompt, prompt
        choice = view["choice"]
        if choice:
            name = cardia_ui.ability_name(choice.get("why") or choice["ability"], "en")
            assert htmllib.escape(name, quote=True) in prompt, (choice, prompt)
            ja = re.search(r'<p class="prompt"[^>]*>(.*?)</p>', screen(s, p, "ja")).group(1)
            assert JAPANESE.search(ja)
            kinds.setdefault(choice["kind"], prompt)
    # The prompts differ by kind: each says what this choice will do.
    assert len(set(kinds.values())) == len(kinds)
    expected = ({"colour", "palace_guard_discard", "void_target", "inventor_plus",
                 "inventor_minus", "swamp_target", "magistra_target"} if deck == "I" else
                {"colour", "envoy_target", "prodigy_target", "discard", "librarian",
                 "kinesis_from", "kinesis_to", "illusionist_target", "elemental_card",
                 "successor_keep"})
    assert expected <= set(kinds), expected - set(kinds)


def test_placing_takes_a_pick_then_place_and_a_second_click_unpicks():
    table = Table("cardia", mode="bot", seed=2, speed=0, lang="en")
    hand = table.state.view(0)["hand"]
    table.command(f"pick:{hand[0]}")
    html = table.html()
    assert f"Place {cardia_ui.card_name('I', hand[0], 'en')}" in html
    assert 'aria-pressed="true"' in html
    table.command(f"pick:{hand[0]}")  # clicking it again takes it back
    assert 'data-cmd="confirm" disabled' in table.html()
    table.command(f"pick:{hand[1]}")
    table.command("confirm")
    assert table.state.view(0)["row"] or table.state.view(0)["placing"][0]["placed"]


def test_the_opponents_hand_and_face_down_card_never_reach_the_page():
    for s, p in random_states(20, "II"):
        other = 1 - p
        html = screen(s, p)
        hand = re.search(r'<section class="chand".*?</section>', html, re.S)
        shown = set(map(int, re.findall(r'data-value="(\d+)"', hand.group(0)))) if hand else set()
        assert shown == set(s.view(p)["hand"])
        slot = s.view(p)["placing"][other]
        if slot["placed"] and not slot["face_up"]:
            placing = re.search(r'<li class="enc placing".*?</li>', html, re.S).group(0)
            assert placing.count("ccard back") == 1
        for event in s.events(p):  # the other seat's draws reach the log as counts only
            if event["t"] in ("draw", "deal") and event["p"] != p:
                assert "cards" not in event


def test_cards_show_influence_modifiers_tokens_and_signets():
    deck = "I"
    card = {"value": 7, "colour": "R", "influence": 14, "modifiers": 7, "ongoing": False,
            "signets": 2, "face_up": True}
    face = cardia_ui._card_face(deck, card, "en")
    assert 'data-influence="14"' in face and ">+7<" in face and "●●" in face
    assert "Palace Guard" in face and "influence 14" in face and "2 signets" in face
    judge = cardia_ui._card_face(deck, {"value": 8, "ongoing": True, "signets": 0,
                                        "modifiers": 0, "influence": 8}, "ja")
    assert "裁判官" in judge and "持続" in judge and "◉" in judge


def test_a_reevaluation_marks_the_encounters_whose_signets_moved():
    marked = 0
    for s, p in random_states(40, "I", "none"):
        if s.view(p)["choice"] is not None or s.legal_actions(p) == []:
            continue
        n = s.event_count()
        twin = s.clone()
        twin.apply(p, twin.legal_actions(p)[0])
        events = twin.events(p)
        moved = {c["e"] for e in events[n:] if e["t"] == "signets" for c in e["changed"]}
        if not moved or any(e["t"] in ("delete", "round") for e in events[n:]):
            continue
        html = render_table(twin.view(p), twin.legal_actions(p), "en", events=events,
                            since=n, seats=("", ""))
        for e in moved:
            if e <= len(twin.view(p)["row"]):
                assert re.search(rf'<li class="enc changed[^"]*" data-n="{e}"', html), e
                marked += 1
        if marked > 5:
            break
    assert marked > 5


def _first_card_placed() -> tuple[Table, int]:
    """A table vs the bot just after the player placed the first card of its hand: the
    encounter's playback is running."""
    table = Table("cardia", mode="bot", seed=9, speed=0, lang="en")
    card = table.state.view(0)["hand"][0]
    table.command(f"pick:{card}")
    table.command("confirm")
    assert table.animating
    return table, card


def test_playback_keeps_the_old_row_and_turns_up_the_revealed_encounter():
    table, card = _first_card_placed()
    html = table.html()
    assert 'data-cmd="skip"' in html and "Encounter 1:" in html
    assert re.search(rf'data-n="1".*?data-value="{card}"', html, re.S)
    assert "pick:" not in html  # nothing to click during the playback but Skip
    hand = re.search(r'<section class="chand".*?</section>', html, re.S).group(0)
    assert f'data-value="{card}"' not in hand, "the placed card is still shown in the hand"
    table.skip()
    assert not table.animating and "pick:" in table.html()


def _event_variants():
    return [
        {"t": "round", "n": 2, "wins": [1, 0]},
        {"t": "deal", "p": 0, "n": 5, "cards": [1, 2, 3, 4, 5]},
        {"t": "deal", "p": 1, "n": 5},
        {"t": "place", "p": 0, "e": 1, "up": False, "mod": 0, "card": 7},
        {"t": "place", "p": 1, "e": 1, "up": False, "mod": -5},
        {"t": "place", "p": 1, "e": 2, "up": True, "mod": 0, "card": 9},
        {"t": "reveal", "e": 1, "cards": [7, 11], "influence": [7, 11]},
        {"t": "evaluate", "e": 1, "winner": 1, "influence": [7, 11], "signets": [0, 1]},
        {"t": "evaluate", "e": 2, "winner": None, "influence": [5, 5], "signets": [0, 0]},
        {"t": "evaluate", "e": 2, "winner": 0, "signets": [1, 0]},
        {"t": "signets", "changed": [{"e": 1, "before": [0, 1], "after": [1, 0]}],
         "totals": [1, 0]},
        {"t": "ability", "p": 0, "ability": "palace_guard", "card": 7, "e": 1, "at": 7,
         "via": None},
        {"t": "ability", "p": 0, "ability": "inventor", "card": 15, "e": 3, "at": 14,
         "via": "magistra"},
        {"t": "ability", "p": 1, "ability": "void_mage", "card": 2, "e": 1, "at": 2,
         "via": None, "none": True},
        {"t": "token", "p": 1, "e": 3, "card": 8, "on": True},
        {"t": "token", "p": 1, "e": 3, "card": 8, "on": False},
        {"t": "modifier", "p": 0, "e": 1, "card": 7, "delta": 7, "total": 7, "by": "palace_guard"},
        {"t": "pending", "p": 0, "effect": "next_modifier", "value": -5},
        {"t": "pending", "p": 0, "effect": "fortune_teller", "value": 1},
        {"t": "pending", "p": 0, "effect": "librarian", "value": 1},
        {"t": "pending", "p": 0, "effect": "engineer", "value": 5},
        {"t": "pending", "p": 0, "effect": "blackmail", "value": "Y"},
        {"t": "colour", "p": 0, "colour": "R", "ability": "palace_guard"},
        {"t": "discard", "p": 1, "cards": [], "from": "hand", "why": "ambusher"},
        {"t": "discard", "p": 1, "cards": [9, 13], "from": "hand", "why": "ambusher"},
        {"t": "discard", "p": 1, "cards": [2, 4], "from": "deck", "why": "saboteur"},
        {"t": "discard", "p": 0, "cards": [1], "from": "row", "why": "hired_blade", "e": 2},
        {"t": "draw", "p": 0, "n": 1, "why": "finish", "cards": [3]},
        {"t": "draw", "p": 1, "n": 2, "why": "revolutionary"},
        {"t": "draw", "p": 1, "n": 0, "why": "serpent_temple"},
        {"t": "under", "p": 0, "card": 2},
        {"t": "under", "p": 1},
        {"t": "decline", "p": 1},
        {"t": "return", "p": 0, "e": 2, "card": 6},
        {"t": "replace", "p": 1, "e": 2, "old": 15, "new": 5},
        {"t": "move", "p": 0, "from": [1, 2], "to": [3, 10], "mod": -2, "token": True},
        {"t": "shuffle", "p": 1},
        {"t": "delete", "e": 3},
        {"t": "blackmail", "p": 1, "colour": "Y", "hit": True},
        {"t": "blackmail", "p": 1, "colour": "Y", "hit": False},
        *({"t": "location", "loc": loc, "p": 0} for loc in
          ("serpent_temple", "bazaar", "auction_house", "haunted_catacombs")),
        {"t": "location", "loc": "founders_day", "p": [0]},
        *({"t": "round_end", "winner": 0, "reason": r, "wins": [1, 0]} for r in
          ("signets", "djinn", "mechanical_djinn", "founders_day", "haunted_catacombs",
           "puppeteer", "no_cards")),
        {"t": "round_end", "winner": None, "reason": "no_cards", "wins": [0, 0]},
        {"t": "end", "winner": 1, "wins": [1, 2]},
    ]


def test_every_event_kind_is_worded_in_both_languages():
    variants = _event_variants()
    seen = set()
    for deck in ("I", "II"):
        for seed in range(60):
            s = GAME.new_game(seed=seed, options={"deck": deck, "location": "random"})
            rng = random.Random(seed)
            while not s.is_over():
                p = rng.choice(s.to_move())
                s.apply(p, rng.choice(s.legal_actions(p)))
            for e in s.events(0):
                seen.add(e["t"])
                for lang in ("en", "ja"):
                    text = describe(e, lang, s.view(0))
                    assert text and text != e["t"], e
    assert seen <= {v["t"] for v in variants}, seen - {v["t"] for v in variants}
    view = {"deck": "I", "round": 1}
    for event in variants:
        en, ja = describe(event, "en", view), describe(event, "ja", view)
        assert en != event["t"] and ja != event["t"] and en != ja, event
        assert JAPANESE.search(ja), ja
    place = {"t": "place", "p": 0, "e": 1, "up": False, "mod": 0, "card": 7}
    assert describe(place, "en", view) == "Player 1 places Palace Guard face down (encounter 1)."
    hidden = {"t": "place", "p": 1, "e": 1, "up": False, "mod": -5}
    assert describe(hidden, "en", view) == ("Player 2 places a card face down "
                                            "(encounter 1). Waiting modifiers: -5.")
    empty = {"t": "draw", "p": 0, "n": 0, "why": "serpent_temple", "cards": []}
    assert describe(empty, "en", view) == "Player 1 has no card left to draw."
    magistra = {"t": "ability", "p": 0, "ability": "inventor", "card": 15, "e": 3, "at": 14,
                "via": "magistra"}
    assert describe(magistra, "en", view).startswith("Player 1's Magistra uses Inventor's")


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_rules_summary_lists_every_card_of_both_decks_and_every_location(lang):
    text = cardia_ui.rules_html(lang)
    for deck in ("I", "II"):
        for v in range(1, 17):
            assert htmllib.escape(cardia_ui.card_name(deck, v, lang), quote=True) in text
    for loc in ("serpent_temple", "foggy_swamp", "bazaar"):
        assert htmllib.escape(cardia_ui.LOCATION_NAMES[loc][lang], quote=True) in text


# =========================================================================== words for "you"
def _judge(owner: int) -> dict:
    return {"t": "ability", "p": owner, "ability": "judge", "card": 8, "e": 2}


def test_the_log_calls_the_viewer_you_and_says_whose_ties_a_judge_wins():
    view = {"deck": "I", "round": 1, "you": 0}
    theirs, mine = _judge(1), _judge(0)
    assert describe(theirs, "ja", view) == ("プレイヤー2の「裁判官」が発動："
                                           "引き分けの戦闘はすべてプレイヤー2の勝ち。")
    assert describe(mine, "ja", view) == ("あなたの「裁判官」が発動："
                                         "引き分けの戦闘はすべてあなたの勝ち。")
    assert describe(theirs, "en", view) == ("Player 2's Judge activates: every tied encounter "
                                           "goes to Player 2.")
    assert describe(mine, "en", view) == "Your Judge activates: every tied encounter goes to you."
    # English verbs and nouns agree with "you" and with the count.
    draw = {"t": "draw", "p": 0, "n": 1, "why": "finish"}
    assert describe(draw, "en", view) == "You draw 1 card."
    assert describe(dict(draw, p=1, n=2), "en", view) == "Player 2 draws 2 cards."
    assert describe({"t": "round_end", "winner": 0, "reason": "djinn", "wins": [1, 0]},
                    "en", view).startswith("You win round 1:")


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_no_ability_in_the_log_says_you_when_nobody_is_the_viewer(lang):
    """An open replay (no viewer) names both sides by seat: no ability text copies a
    printed "you" that meant the card's owner; with a viewer, "you" is only ever them."""
    you = re.compile(r"\byou|\byour" if lang == "en" else "あなた", re.I)
    for deck in ("I", "II"):
        for v, ability in enumerate(pygames.cardia.ABILITIES[deck]):
            if v == 0:
                continue
            event = {"t": "ability", "p": 1, "ability": ability, "card": v, "e": 1}
            text = describe(event, lang, {"deck": deck, "you": None})
            assert not you.search(text), text
            assert cardia_ui.who(1, lang) in text, text
            # Seen by the card's owner: "you" is the owner; by the other seat, the other.
            assert you.search(describe(event, lang, {"deck": deck, "you": 1})), (deck, v)


def test_round_chips_say_who_won_each_round():
    s = GAME.new_game(seed=3)
    view = dict(s.view(0), results=[1, 0, None])
    html = render_table(view, [], "ja", events=[], seats=("", ""))
    chips = re.findall(r'<li class="rres[^"]*"[^>]*>(.*?)</li>', html)
    assert chips == ["第1ラウンド：プレイヤー2の勝ち", "第2ラウンド：あなたの勝ち",
                     "第3ラウンド：勝者なし"]
    opened = render_table(dict(view, you=None), [], "en", events=[], seats=("", ""))
    assert re.findall(r'<li class="rres[^"]*"[^>]*>(.*?)</li>', opened) == [
        "Round 1: Player 2 won", "Round 2: Player 1 won", "Round 3: no winner"]


# =========================================================================== playback marks
class _Marks(HTMLParser):
    """Each enabled data-cmd button, and whether a [data-choice] element holds it."""

    VOID = {"br", "img", "input", "wbr", "meta", "link", "hr"}

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[bool] = []
        self.buttons: list[tuple[str, bool]] = []
        self.marked: set[str] = set()  # the classes of the marked elements

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "data-choice" in a:
            self.marked.add(a.get("class") or tag)
        inside = (bool(self.stack) and self.stack[-1]) or "data-choice" in a
        if tag == "button" and "data-cmd" in a and "disabled" not in a:
            self.buttons.append((a["data-cmd"], inside))
        if tag not in self.VOID:
            self.stack.append(inside)

    def handle_endtag(self, tag):
        if tag not in self.VOID and self.stack:
            self.stack.pop()


def test_every_control_of_the_current_choice_is_inside_a_data_choice_mark():
    checked = 0
    for s, p in random_states(15, "II"):
        marks = _Marks()
        marks.feed(screen(s, p))
        plays = [(c, inside) for c, inside in marks.buttons if c.startswith(("act:", "pick:"))]
        assert all(inside for _, inside in plays), [c for c, inside in plays if not inside]
        # The controls themselves, not the whole table (which a phone cannot show at once).
        assert marks.marked <= {"controls", "chand", "encounters"}, marks.marked
        checked += len(plays)
    assert checked > 500


def test_a_playback_marks_the_encounter_it_reveals_and_counts_what_it_shows():
    table, card = _first_card_placed()
    html = table.html()
    assert re.search(r'<li class="enc[^"]*" data-n="1" data-winner="[^"]*" '
                     r'data-reveal="encounter-1"', html)
    assert len(re.findall(r"data-reveal=", html)) == 1
    hand = re.search(r'<section class="chand".*?</section>', html, re.S).group(0)
    shown = len(re.findall(r'class="ccard[^"]*" data-value=', hand))
    mine = re.search(r'<section class="cpanel bottom p0 mine".*?</section>', html, re.S).group(0)
    assert f'data-hand="{shown}"' in mine, "the panel counts a card the hand no longer shows"
    theirs = re.search(r'<section class="cpanel top p1".*?</section>', html, re.S).group(0)
    assert 'data-hand="4"' in theirs  # dealt 5, placed 1
    table.skip()
    assert "data-reveal" not in table.html()
