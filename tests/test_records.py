"""Records as text (pygames.records): round trips, every refusal in English and Japanese,
hostile input, and hypothesis fuzzing of damaged strings and edited score sheets."""

from __future__ import annotations

import base64
import doctest
import random
import re
import zlib

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import pygames
from pygames import records
from pygames.records import (
    RecordError,
    from_sheet,
    from_string,
    load,
    position_from_string,
    position_to_string,
    to_sheet,
    to_string,
)

GAMES = pygames.game_ids()


def _play(game_id: str, seed: int, options: dict, limit: int | None, rng: random.Random):
    state = pygames.get_game(game_id).new_game(seed=seed, options=options)
    n = 0
    while not state.is_over() and (limit is None or n < limit):
        player = rng.choice(state.to_move())
        state.apply(player, rng.choice(state.legal_actions(player)))
        n += 1
    return state


def _option_sets(game_id: str) -> list[dict]:
    schema = pygames.get_game(game_id).option_schema
    return [{}] + [{name: value} for name, spec in schema.items()
                   for value in spec.get("values", [])[1:]]


def _states(game_id: str) -> list:
    """Random games of ``game_id``: every option value, whole and partial, seeded."""
    rng = random.Random(f"records-{game_id}")
    out = [pygames.get_game(game_id).new_game(seed=0)]  # no moves at all
    for options in _option_sets(game_id):
        for limit in (None, rng.randrange(1, 40)):
            out.append(_play(game_id, rng.randrange(-(1 << 40), 1 << 62), options, limit, rng))
    return out


STATES = {gid: _states(gid) for gid in GAMES}
POOL = {gid: [(to_string(s.record()), s.record()) for s in states]
        for gid, states in STATES.items()}


def _refused(func, *args) -> RecordError:
    with pytest.raises(RecordError) as info:
        func(*args)
    return info.value


# -- round trips -------------------------------------------------------------------------
@pytest.mark.parametrize("game_id", GAMES)
def test_string_and_sheet_round_trip_exactly(game_id):
    over = 0
    for state in STATES[game_id]:
        record = state.record()
        text = to_string(record)
        assert text.startswith("r1.") and text.isascii()
        assert set(text[3:]) <= set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                                    "0123456789-_")
        assert from_string(text) == record
        assert from_string(f"  \n{text}\r\n\t") == record  # pasted with whitespace
        sheet = to_sheet(record)
        assert from_sheet(sheet) == record
        assert from_sheet(sheet.replace("\n", "\r\n")) == record
        assert load(text) == state and load(sheet) == state
        named = {**record, "names": ["Alice", "ボブ"]}
        assert from_string(to_string(named)) == named
        assert from_sheet(to_sheet(record, names=["Alice", "ボブ"])) == named
        odd = {**record, "names": ["Smith, J. #1", "[x]"]}
        assert from_sheet(to_sheet(odd)) == odd
        over += state.is_over()
    assert over >= 2


def test_strings_are_compact():
    """Default options are not written, nor the players of moves only one could make."""
    rng = random.Random(11)
    kiriai = _play("kiriai", 12345, {}, None, rng)
    text = to_string(kiriai.record())
    assert len(text) < 40 + 5 * len(kiriai.record()["actions"])
    empty = to_string(pygames.get_game("canosa").new_game(seed=1).record())
    assert len(empty) < 32
    canosa = _play("canosa", 7, {}, None, rng)
    assert len(to_string(canosa.record())) < 3.5 * len(canosa.record()["actions"]) + 40


def test_record_options_are_normalised_and_checked_when_written():
    record = pygames.get_game("kiriai").new_game(seed=3).record()
    short = {k: v for k, v in record.items() if k not in ("options", "players", "v")}
    assert from_string(to_string(short)) == record
    assert to_string(short) == to_string(record)


def test_positions_round_trip_and_load():
    rng = random.Random(5)
    for layout in ("standard", "small"):
        state = _play("canosa", 9, {"layout": layout}, 25, rng)
        view = state.view(None)
        kwargs = {"position": view, "options": view["options"]}
        text = position_to_string("canosa", kwargs)
        assert text.startswith("p1.")
        assert position_from_string(text) == ("canosa", kwargs)
        assert load(text).view(None) == view
    hand = {"position": {"sirens": [{"at": "a1", "rings": 3}, {"at": "f6", "rings": 3}],
                         "sailors": [["c3", [0]], ["d4", [1, 0]]], "to_move": [1]}}
    text = position_to_string("canosa", hand)
    assert position_from_string(f" {text} ") == ("canosa", hand)


def test_doctests():
    result = doctest.testmod(records)
    assert result.failed == 0 and result.attempted >= 5


# -- every refusal, in English and Japanese -------------------------------------------------
def _kiriai_record(**changes):
    state = pygames.get_game("kiriai").new_game(seed=12)
    state.apply(0, "CB")
    state.apply(1, "CH")
    return {**state.record(), **changes}


def _sealed(payload: str, kind: str = "r") -> str:
    return records._seal(kind, payload)


def _raw(raw: bytes, prefix: str = "r1.") -> str:
    return prefix + base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


GOOD = to_string(_kiriai_record())
SHEET = to_sheet(_kiriai_record())

CASES = [
    # (id, make the error, code, words in English, words in Japanese)
    ("checksum", lambda: from_string(GOOD[:10] + ("A" if GOOD[10] != "A" else "B") + GOOD[11:]),
     "checksum", ["damaged", "checksum"], ["壊れて", "チェックサム"]),
    ("truncated", lambda: from_string(GOOD[:-3]), "truncated", ["cut short"], ["途中で切れ"]),
    ("truncated-tiny", lambda: from_string("r1.abcd"), "truncated", ["cut short"],
     ["途中で切れ"]),
    ("version", lambda: from_string("r9." + GOOD[3:]), "version", ["format 9", "format 1"],
     ["形式 9"]),
    ("sheet-version", lambda: from_sheet(SHEET.replace("record v1", "record v3")), "version",
     ["format 3"], ["形式 3"]),
    ("prefix", lambda: from_string("hello"), "format", ["not a pygames record", "r1."],
     ["pygames の記録ではありません"]),
    ("char", lambda: from_string(GOOD[:8] + "!" + GOOD[9:]), "format",
     ["\u201c!\u201d", "character 9"], ["9文字目", "「!」"]),
    ("space-inside", lambda: from_string(GOOD[:8] + " " + GOOD[8:]), "format", ["\u201c \u201d"],
     ["使えない文字"]),
    ("kind", lambda: from_string(position_to_string("canosa", {"position": {
        "sirens": [{"at": "a1", "rings": 3}, {"at": "f6", "rings": 3}], "sailors": [],
        "to_move": [0]}})), "format", ["a position, not a game record"], ["局面で"]),
    ("empty", lambda: from_string("  \n "), "format", ["empty"], ["空"]),
    ("type", lambda: from_string(b"r1.abc"), "format", ["text", "bytes"], ["テキスト", "bytes"]),
    ("size", lambda: from_string("r1." + "A" * (records.MAX_TEXT + 1)), "size",
     ["too long"], ["長すぎ"]),
    ("bomb", lambda: from_string(_sealed("kiriai\n1\n\n\n" + "CB " * 1_000_000)), "size",
     ["more than 2000000 bytes"], ["2000000 バイト"]),
    ("many-actions", lambda: from_string(_sealed("kiriai\n1\n\n\n" + " ".join(["CB"] * 20_001)
                                                 + "\n")), "size",
     ["too many moves", "20001"], ["手数が多すぎ", "20001"]),
    ("game", lambda: from_string(_sealed("chess\n1\n\n\n\n")), "game", ["chess", "kiriai"],
     ["chess", "未知のゲーム"]),
    ("game-dict", lambda: to_string({"game": "go", "seed": 1, "actions": []}), "game",
     ["'go'"[1:-1]], ["go"]),
    ("option", lambda: from_string(_sealed('kiriai\n1\n\n{"battlefield":"moon"}\n\n')),
     "option", ["battlefield", "moon", "Kiri-ai"], ["オプション", "moon", "キリアイ"]),
    ("option-unknown", lambda: from_sheet(SHEET.replace("round_limit=0", "colour=red")),
     "option", ["colour"], ["colour"]),
    ("players", lambda: from_string(_sealed("kiriai\n1\n3\n\n\n")), "players", ["3 players"],
     ["プレイヤー数"]),
    ("seed", lambda: from_string(_sealed("kiriai\n1.5\n\n\n\n")), "seed", ["whole number",
                                                                           "1.5"],
     ["整数", "1.5"]),
    ("seed-dict", lambda: to_string(_kiriai_record(seed="7")), "seed", ["not 7"], ["7 ではなく"]),
    ("seed-sheet", lambda: from_sheet(SHEET.replace("Seed: 12", "Seed: twelve")), "seed",
     ["twelve"], ["twelve"]),
    ("action", lambda: from_string(_sealed("kiriai\n12\n\n\nCB CH BB\n00")), "action",
     ["Move 3 (BB)", "not legal"], ["3手目", "BB", "選べない手"]),
    ("action-dict", lambda: to_string(_kiriai_record(actions=[[0, "CB"], [0, "CH"]])),
     "action", ["Move 2 (CH)", "not player 1's turn"[4:]], ["2手目"]),
    ("action-shape", lambda: to_string(_kiriai_record(actions=[[0, "CB"], ["1", "CH"]])),
     "action", ["Move 2", "[player, action]"], ["2手目", "[プレイヤー, 手]"]),
    ("action-sheet", lambda: from_sheet(SHEET.replace("P2 CH", "P2 ZZ")), "action",
     ["Move 2 (ZZ, line", "not legal"], ["2手目", "ZZ", "行目"]),
    ("action-seat", lambda: from_sheet(SHEET.replace("P1 CB", "CB")), "action",
     ["Move 1 (CB", "which player", "P1"], ["1手目", "どのプレイヤー"]),
    ("over", lambda: from_sheet(to_sheet(STATES["kiriai"][1].record()) + "99. P1 CB\n"),
     "action", ["is not legal", "over"], ["選べない手"]),
    ("header-missing", lambda: from_sheet(SHEET.replace("Game:", "# Game:")), "header",
     ["no \u201cGame:\u201d line"], ["Game:", "ありません"]),
    ("header-unknown", lambda: from_sheet(SHEET.replace("Seed:", "Colour: red\nSeed:")),
     "header", ["unknown header", "Colour"], ["未知の見出し", "Colour"]),
    ("header-twice", lambda: from_sheet(SHEET.replace("Seed: 12", "Seed: 12\nSeed: 13")),
     "header", ["Seed", "twice"], ["二度"]),
    ("header-late", lambda: from_sheet(SHEET + "Seed: 3\n"), "header",
     ["before the moves", "Seed"], ["手より前"]),
    ("header-bad", lambda: from_sheet(SHEET.replace("Players: 2", "Players: two")), "header",
     ["Players: two"], ["読めません"]),
    ("line", lambda: from_sheet(SHEET + "3. P1 CB AL\n"), "format",
     ["Line", "is not a move", "3. P1 CB AL"], ["行目は手として読めません"]),
    ("names", lambda: to_string(_kiriai_record(names=["Solo"])), "names",
     ["one name per player"], ["名前"]),
    ("names-surrogate", lambda: to_string(_kiriai_record(names=["Ann", "B\ud800"])), "names",
     ["surrogate"], ["名前"]),
    ("names-sheet", lambda: from_sheet(SHEET.replace("Seed:", "Names: Ann, \nSeed:")),
     "names", ["name"], ["名前"]),
    ("record-type", lambda: to_string([1, 2]), "format", ["object", "list"], ["正しい記録"]),
    ("record-field", lambda: to_string(_kiriai_record(winner=0)), "format",
     ["unknown field", "winner"], ["winner"]),
    ("record-version", lambda: to_string(_kiriai_record(v=2)), "version", ["format 2"],
     ["形式 2"]),
    ("payload-lines", lambda: from_string(_sealed("kiriai\n1")), "format",
     ["damaged", "cannot be read"], ["中身を読めません"]),
    ("payload-seats", lambda: from_string(_sealed("kiriai\n12\n\n\nCB CH\n")), "format",
     ["seats"], ["中身"]),
    ("payload-json", lambda: from_string(_sealed("kiriai\n12\n\n" + "[" * 100_000 + "\n\n")),
     "format", ["options"], ["中身"]),
    ("position", lambda: position_from_string(_sealed('canosa\n{"position":{"sirens":[]}}',
                                                      "p")),
     "position", ["cannot be set up", "sirens"], ["局面は作れません"]),
    ("position-kwargs", lambda: position_to_string("canosa", {"board": 1}), "position",
     ["board"], ["局面は作れません"]),
    ("position-game", lambda: position_to_string("kiriai", {}), "game",
     ["Kiri-ai: The Duel has no positions"], ["キリアイ", "局面がありません"]),
]


@pytest.mark.parametrize("make, code, en, ja", [c[1:] for c in CASES],
                         ids=[c[0] for c in CASES])
def test_each_refusal_names_the_problem_in_english_and_japanese(make, code, en, ja):
    exc = _refused(make)
    assert isinstance(exc, ValueError)
    assert exc.code == code
    assert str(exc) == exc.message("en") == exc.message()
    for words in en:
        assert words in str(exc), (words, str(exc))
    japanese = exc.message("ja")
    assert japanese != str(exc) and any("\u3040" <= ch <= "\u30ff" for ch in japanese)
    for words in ja:
        assert words in japanese, (words, japanese)
    # Japanese through and through: no English reason inside, no raw quotes or escapes.
    assert not re.search(r"[A-Za-z]+ [a-z]+ [a-z]+", japanese), japanese
    assert not set("'\\\u201c\u201d") & set(japanese), japanese
    assert isinstance(exc.params, dict)
    assert exc.message("fr") == str(exc)


def test_every_message_has_both_languages_and_every_code_is_tested():
    for key, templates in records.MESSAGES.items():
        assert {"en", "ja"} <= set(templates) <= {"en", "ja", "ja_brief"}, key
        if any(f"{{{name}}}" in templates["ja"] for name in records.ENGLISH_ONLY):
            assert "ja_brief" in templates, key  # for when the detail is English only
    tested = {c[2] for c in CASES}
    assert {key.split(":")[0] for key in records.MESSAGES} <= tested


def test_non_text_input_is_refused_everywhere():
    for junk in (None, 5, 1.5, b"r1.", ["r1."], {"game": "kiriai"}, object()):
        for func in (from_string, from_sheet, load, position_from_string):
            assert _refused(func, junk).code == "format"


def test_base64_spare_bits_and_stray_padding_are_refused():
    # The last character carries spare bits: changing only those is still a change.
    last = GOOD[-1]
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
    others = [c for c in alphabet if c != last]
    for other in others:
        with pytest.raises(RecordError):
            from_string(GOOD[:-1] + other)
    assert _refused(from_string, GOOD + "=").code == "format"


def test_hostile_payloads_behind_a_good_checksum():
    bad_utf8 = records._digest  # a sealed body that is not UTF-8
    body = zlib.compressobj(9, zlib.DEFLATED, -15)
    data = body.compress(b"kiriai\n1\n\n\n\xff\xfe\n") + body.flush()
    length = records._varint(len(data))
    text = _raw(bad_utf8("r1.", length, data) + length + data)
    assert _refused(from_string, text).code == "format"
    # deflate garbage and trailing bytes
    for data in (b"\xff\xff\xff", zlib.compress(b"x")[2:] + b"junk"):
        length = records._varint(len(data))
        assert _refused(from_string, _raw(records._digest("r1.", length, data) + length
                                          + data)).code == "format"
    # a seat that is not in the game, a huge seed, NaN options, players beyond the game
    for payload, code in [("kiriai\n12\n\n\nCB CH\n9", "action"),
                          ("kiriai\n" + "9" * 5000 + "\n\n\n\n", "seed"),
                          ('kiriai\n1\n\n{"round_limit":NaN}\n\n', "format"),
                          ('kiriai\n1\n\n["x"]\n\n', "option"),
                          ("kiriai\n1\n999999\n\n\n", "players"),
                          ("kiriai\n1\n\n\n\n\nnull", "names"),
                          ("kiriai\n1\n\n\n\n\n[\"a\",\"b\\n\"]", "names"),
                          ("kiriai\n12\n\n\nCB  CH\n0", "action")]:
        assert _refused(from_string, _sealed(payload)).code == code, payload
    # a position that is not an object, a game that does not exist
    for payload in ('canosa\n[1,2]', 'canosa\n"x"', "canosa", "nope\n{}"):
        assert _refused(position_from_string, _sealed(payload, "p")).code in (
            "position", "format", "game")


def test_unknown_engine_failures_are_refused_not_raised(monkeypatch):
    state_type = type(pygames.get_game("kiriai").new_game(seed=1))

    def broken(self, player, action):
        raise ZeroDivisionError("boom")

    monkeypatch.setattr(state_type, "_apply", broken)
    exc = _refused(from_string, GOOD)
    assert exc.code == "action" and "ZeroDivisionError" in str(exc)


# -- fuzz: damaged strings are refused or read as exactly the original ---------------------
def _check_decode(text: str, record: dict) -> None:
    try:
        got = from_string(text)
    except RecordError as exc:
        assert exc.code in {"checksum", "truncated", "format", "version", "size"}, exc.code
        assert exc.message("ja")
        return
    assert got == record


@pytest.mark.parametrize("game_id", GAMES)
@settings(max_examples=3400, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(case=st.tuples(st.integers(0, 1 << 20), st.integers(0, 1 << 32), st.booleans()))
def test_fuzz_damaged_strings(game_id, case):
    """records.corrupt's mutations (flip, delete, insert, cut, swap, duplicate, bit flip,
    junk, prefix, whitespace), once or twice: 3 x 3400 cases."""
    index, seed, twice = case
    text, record = POOL[game_id][index % len(POOL[game_id])]
    rng = random.Random(seed)
    bad = records.corrupt(text, rng)
    if twice:
        bad = records.corrupt(bad, rng)
    _check_decode(bad, record)


@settings(max_examples=600, deadline=None, derandomize=True, database=None)
@given(data=st.data())
def test_fuzz_spliced_and_random_strings(data):
    game_id = data.draw(st.sampled_from(GAMES))
    text, record = data.draw(st.sampled_from(POOL[game_id]))
    if data.draw(st.booleans()):
        i = data.draw(st.integers(0, len(text)))
        j = data.draw(st.integers(i, len(text)))
        bad = text[:i] + data.draw(st.text(max_size=6)) + text[j:]
    else:
        bad = data.draw(st.one_of(st.text(max_size=80), st.just("r1.") | st.just("p1."),
                                  st.from_regex(r"\Ar1\.[A-Za-z0-9_-]{0,60}\Z")))
    _check_decode(bad, record)


@settings(max_examples=400, deadline=None, derandomize=True, database=None)
@given(st.text(max_size=300) | st.binary(max_size=200).map(lambda b: b.decode("latin-1")))
def test_fuzz_garbage_anywhere(text):
    for func in (from_string, from_sheet, load, position_from_string):
        try:
            func(text)
        except RecordError:
            pass


# -- score sheets: people's edits ----------------------------------------------------------
def test_sheet_comments_blank_lines_crlf_and_terse_moves():
    record = _kiriai_record()
    sheet = ("\ufeff# my notes\r\n\r\ngame:   kiriai\r\nSeed: 12   \r\n\r\n"
             "# a great first round\r\nP1: CB   # charge!\r\n 2) p2 CH\r\n")
    assert from_sheet(sheet) == record
    canosa = pygames.get_game("canosa").new_game(seed=0)
    canosa.apply(0, "Sb2")
    canosa.apply(1, "d2-e2")
    assert from_sheet("Game: canosa\nSeed: 0\nSb2\nd2-e2\n") == canosa.record()


@pytest.mark.parametrize("game_id", GAMES)
@settings(max_examples=60, deadline=None, derandomize=True, database=None)
@given(data=st.data())
def test_fuzz_sheet_edits(game_id, data):
    """Change one move to another action: a legal change loads as that very game, an
    illegal one is refused naming that move."""
    states = [s for s in STATES[game_id] if s.record()["actions"]]
    state = states[data.draw(st.integers(0, len(states) - 1))]
    record = state.record()
    n = data.draw(st.integers(0, len(record["actions"]) - 1))
    player, action = record["actions"][n]
    replay = pygames.get_game(game_id).new_game(seed=record["seed"], options=record["options"])
    for p, a in record["actions"][:n]:
        replay.apply(p, a)
    legal = replay.legal_actions(player)
    new = data.draw(st.sampled_from(legal) | st.sampled_from(["ZZ", "a9-a8", "17", "Q", "+"]))
    lines = to_sheet(record).split("\n")
    at = next(i for i, line in enumerate(lines) if line.strip().startswith(f"{n + 1}. "))
    lines[at] = f"{n + 1}. P{player + 1} {new}   # edited"
    edited = "\n".join(lines)
    if new in legal:
        replay.apply(player, new)
        try:
            got = from_sheet(edited)
        except RecordError as exc:  # a later move may no longer be legal
            assert exc.code == "action" and exc.params["n"] > n + 1
            return
        assert got["actions"][:n + 1] == record["actions"][:n] + [[player, new]]
        assert load(edited).record() == got
    else:
        exc = _refused(from_sheet, edited)
        assert exc.code == "action" and exc.params["n"] == n + 1
        assert exc.params["line"] == at + 1
        assert f"{n + 1}手目" in exc.message("ja")


@settings(max_examples=200, deadline=None, derandomize=True, database=None)
@given(st.integers(0, 10_000), st.text(max_size=12))
def test_fuzz_sheet_garbage_lines(where, junk):
    lines = SHEET.split("\n")
    lines.insert(where % (len(lines) + 1), junk)
    try:
        got = from_sheet("\n".join(lines))
    except RecordError:
        return
    # only blank, comment or header-free additions keep the same game (or a legal move)
    assert got["game"] == "kiriai"


def _positions() -> list[tuple[str, tuple]]:
    rng = random.Random(8)
    out = []
    for layout, limit in (("standard", 30), ("small", 12)):
        view = _play("canosa", 3, {"layout": layout}, limit, rng).view(None)
        kwargs = {"position": view, "options": view["options"]}
        out.append((position_to_string("canosa", kwargs), ("canosa", kwargs)))
    return out


POSITIONS = _positions()


@settings(max_examples=300, deadline=None, derandomize=True, database=None)
@given(st.integers(0, 1), st.integers(0, 1 << 32))
def test_fuzz_damaged_position_strings(index, seed):
    text, expected = POSITIONS[index]
    bad = records.corrupt(text, random.Random(seed))
    try:
        got = position_from_string(bad)
    except RecordError as exc:
        assert exc.code in {"checksum", "truncated", "format", "version", "size"}, exc.code
        return
    assert got == expected
