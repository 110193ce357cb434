"""Canosa table: pure rendering of (view, legal actions, language, local choices) -> HTML.

Nothing here touches the DOM. The board is a CSS grid of square buttons, drawn from the
view's size and islands (any layout). Column letters run along the top edge (``a``… left
to right), row numbers down the left edge (``1``… top to bottom), so ``a1`` is the top
left square: the same names as the engine's actions.

Every legal action is one selection away: ``sq:<square>`` on your siren or on a sailor
selects it and highlights what it can do (siren: moves, an attack, giving or taking a
ring on a neighbouring sailor; sailor: its steps, and the rings your siren may give it or
take from it as buttons under the board); ``sq:<square>`` on a highlighted square plays
that action. A square offering two actions (give and take on one sailor) opens a small
chooser (``act:<action>``). After a won attack the placement squares are highlighted
without any selection. ``cancel`` drops the selection.
"""

from __future__ import annotations

import re
from typing import Any

from .i18n import esc, register, t

COLOURS = ("gold", "silver")
LETTERS = "abcdefghijklmnopqrstuvwxyz"
#: Scored sailors that win the game.
WIN_SCORE = 4
#: Most rings a siren (or a sailor) may hold.
MAX_RINGS = 3
_SQUARE = re.compile(r"^([a-z])(\d+)$")

#: A game whose turn is two actions by one player: the table offers Undo mid-turn.
UNDO = True
#: Nothing is hidden: pass and play needs no hand-over screen between the players.
SECRETS = False

#: This table's own look, loaded with it after app.css (path from the app's root).
STYLESHEET = "pgui/canosa.css"

STRINGS: dict[str, dict[str, str]] = {
    "canosa.gold": {"en": "Gold", "ja": "金"},
    "canosa.silver": {"en": "Silver", "ja": "銀"},
    # The viewer is "you"; the other side (and both, for a spectator) by seat name.
    "canosa.whose": {"en": "{who}'s", "ja": "{who}の"},
    "canosa.whose_you": {"en": "your", "ja": "あなたの"},
    "canosa.board": {"en": "Board", "ja": "盤面"},
    "canosa.isle_tag": {"en": "{who}", "ja": "{who}の島"},
    # (The island's label keeps the name printed on it: a label holds what it shows.)
    "canosa.island_of": {"en": "{who}'s island", "ja": "{who}の島"},
    "canosa.island_yours": {"en": "{who}'s island (yours)", "ja": "{who}の島（あなたの島）"},
    "canosa.rings_n": {"en": "{n} {n|ring|rings}", "ja": "リング{n}個"},
    "canosa.sq_siren": {"en": "{whose} siren, {n} {n|ring|rings}",
                        "ja": "{whose}セイレーン、リング{n}個"},
    "canosa.sq_sailor": {"en": "sailor, {n|ring|rings} {rings} — controlled by {who}",
                         "ja": "船員、リング{n}個（下から{rings}） — {who}が支配"},
    "canosa.sq_sailor_bare": {"en": "sailor, no ring — controlled by nobody",
                              "ja": "船員、リングなし — 誰も支配していない"},
    "canosa.sq_empty": {"en": "empty", "ja": "空き"},
    "canosa.sq_beaten": {"en": "defeated, waiting to be placed", "ja": "負けて配置を待っている"},
    "canosa.t_move": {"en": "move here", "ja": "ここへ移動"},
    "canosa.t_attack": {"en": "attack", "ja": "攻撃"},
    "canosa.t_give": {"en": "give a ring", "ja": "リングを渡す"},
    "canosa.t_take": {"en": "take your ring", "ja": "リングを引き抜く"},
    "canosa.t_both": {"en": "give or take a ring", "ja": "リングを渡すか引き抜く"},
    "canosa.t_place": {"en": "place the defeated siren here",
                       "ja": "負けたセイレーンをここに置く"},
    "canosa.t_select": {"en": "select", "ja": "選択"},
    "canosa.t_selected": {"en": "selected", "ja": "選択中"},
    "canosa.t_last_from": {"en": "last turn: from here", "ja": "直前の手番：ここから"},
    "canosa.t_last_to": {"en": "last turn: to here", "ja": "直前の手番：ここへ"},
    "canosa.t_now": {"en": "happening now", "ja": "いま動いた"},
    "canosa.seat_to_move": {"en": "to move", "ja": "手番"},
    # The players' panels: sailors brought home (with their rings), rings held and lost.
    "canosa.home": {"en": "Home", "ja": "得点"},
    "canosa.siren_rings": {"en": "Rings {n}/3", "ja": "リング {n}/3"},
    "canosa.rings_out": {"en": "Out {n}", "ja": "除外 {n}"},
    "canosa.rings_out_title": {"en": "rings out of the game", "ja": "ゲームから除外されたリング"},
    "canosa.on_island": {"en": "on her island", "ja": "島の上"},
    "canosa.left_island": {"en": "left her island", "ja": "島を離れた"},
    "canosa.panel_label": {
        "en": "{who}{seat}{moving}: {scored} of 4 sailors brought home{home}; the siren holds "
              "{rings} {rings|ring|rings} ({where}); {out} {out|ring|rings} out of the game.",
        "ja": "{who}{seat}{moving}：島に迎えた船員{scored}/4{home}。セイレーンのリング{rings}個"
              "（{where}）。除外されたリング{out}個。"},
    "canosa.panel_moving": {"en": ", to move", "ja": "（手番）"},
    "canosa.panel_home": {"en": " (their rings: {list})", "ja": "（リング：{list}）"},
    "canosa.home_unknown": {"en": "not recorded", "ja": "記録なし"},
    "canosa.home_label": {"en": "{who}: sailors brought home", "ja": "{who}：島に迎えた船員"},
    "canosa.turn_info": {"en": "Turn {n} · {who} to move · {k} {k|action|actions} left",
                         "ja": "{n}手番目・{who}の番・行動あと{k}回"},
    "canosa.turn_info_you": {"en": "Turn {n} · your turn · {k} {k|action|actions} left",
                             "ja": "{n}手番目・あなたの番・行動あと{k}回"},
    "canosa.turn_over": {"en": "Turn {n}", "ja": "{n}手番目"},
    "canosa.layout": {"en": "Board: {name}", "ja": "盤：{name}"},
    # Prompts: always to the player who acts ("you").
    "canosa.prompt_pick": {
        "en": "Your turn ({k} {k|action|actions} left): choose your siren or one of your sailors.",
        "ja": "あなたの番です（行動あと{k}回）。自分のセイレーンか船員を選んでください。"},
    "canosa.prompt_siren": {
        "en": "Your siren: choose a lit square (• move, ⚔ attack, + give or − take a ring).",
        "ja": "セイレーンを選択中。光っているマスを選んでください（•移動 ⚔攻撃 ＋リングを渡す "
              "−引き抜く）。"},
    "canosa.prompt_sailor": {
        "en": "The sailor on {sq}: choose a lit square to move it towards your island.",
        "ja": "{sq}の船員を選択中。光っているマスを選ぶと、自分の島へ1マス進みます。"},
    "canosa.prompt_sailor_rings": {
        "en": "The sailor on {sq}: move it to a lit square, or use a ring button below.",
        "ja": "{sq}の船員を選択中。光っているマスへ進めるか、下のボタンでリングを動かしてください。"},
    "canosa.prompt_sailor_only_rings": {
        "en": "The sailor on {sq}: use a ring button below.",
        "ja": "{sq}の船員を選択中。下のボタンでリングを動かしてください。"},
    "canosa.prompt_choose": {
        "en": "Give a ring to the sailor on {sq}, or take your ring back?",
        "ja": "{sq}の船員にリングを渡しますか？ それとも自分のリングを引き抜きますか？"},
    "canosa.prompt_place": {
        "en": "Your attack won: choose where {whose} siren goes (lit squares).",
        "ja": "攻撃成功！ {whose}セイレーンを置くマスを選んでください（光っているマス）。"},
    "canosa.prompt_watch": {"en": "{whose} turn: {k} {k|action|actions} left.",
                            "ja": "{whose}番です（行動あと{k}回）。"},
    "canosa.resolving": {"en": "Playing the turn back…", "ja": "手番を再生中…"},
    "canosa.actions": {"en": "Actions", "ja": "行動"},
    "canosa.do_give": {"en": "+ Give a ring", "ja": "＋ リングを渡す"},
    "canosa.do_take": {"en": "− Take back", "ja": "− 引き抜く"},
    "canosa.do_give_label": {"en": "Give a ring to the sailor on {sq}",
                             "ja": "{sq}の船員にリングを渡す"},
    "canosa.do_take_label": {"en": "Take back your ring from the sailor on {sq}",
                             "ja": "{sq}の船員から自分のリングを引き抜く"},
    "canosa.cancel": {"en": "Cancel", "ja": "やめる"},
    # The log (structured engine events, worded here). English needs its own sentence when
    # "you" act (the verb agrees); Japanese does not, but says each the same way.
    "canosa.ev.siren": {"en": "{whose} siren moves {a} → {b}.",
                        "ja": "{whose}セイレーンが{a}→{b}へ移動した。"},
    "canosa.ev.attack": {"en": "{whose} siren attacks {whose2} siren: {a} → {b}.",
                         "ja": "{whose}セイレーンが{whose2}セイレーンを攻撃した（{a}→{b}）。"},
    "canosa.ev.place": {"en": "{who} puts {whose2} defeated siren on {sq}.",
                        "ja": "{who}が、負けた{whose2}セイレーンを{sq}に置いた。"},
    "canosa.ev.place_you": {"en": "You put {whose2} defeated siren on {sq}.",
                            "ja": "あなたが、負けた{whose2}セイレーンを{sq}に置いた。"},
    "canosa.ev.sailor": {"en": "{who} moves a sailor {a} → {b}.",
                         "ja": "{who}が船員を{a}→{b}へ進めた。"},
    "canosa.ev.sailor_you": {"en": "You move a sailor {a} → {b}.",
                             "ja": "あなたが船員を{a}→{b}へ進めた。"},
    "canosa.ev.score": {"en": "{who} brings a sailor home ({n|ring|rings} {rings}).",
                        "ja": "{who}が船員を島に迎え入れた（リング{n}個：{rings}）。"},
    "canosa.ev.score_you": {"en": "You bring a sailor home ({n|ring|rings} {rings}).",
                            "ja": "あなたが船員を島に迎え入れた（リング{n}個：{rings}）。"},
    "canosa.ev.score_back": {"en": " Back to the sirens: {rings}.",
                             "ja": "セイレーンに戻ったリング：{rings}。"},
    "canosa.ev.score_lost": {"en": " Out of the game: {rings}.",
                             "ja": "ゲームから除外：{rings}。"},
    "canosa.ev.give": {"en": "{who} gives a ring to the sailor on {sq}.",
                       "ja": "{who}が{sq}の船員にリングを渡した。"},
    "canosa.ev.give_you": {"en": "You give a ring to the sailor on {sq}.",
                           "ja": "あなたが{sq}の船員にリングを渡した。"},
    "canosa.ev.take": {"en": "{who} takes a ring back from the sailor on {sq}.",
                       "ja": "{who}が{sq}の船員からリングを引き抜いた。"},
    "canosa.ev.take_you": {"en": "You take a ring back from the sailor on {sq}.",
                           "ja": "あなたが{sq}の船員からリングを引き抜いた。"},
    "canosa.ev.turn": {"en": "— {whose} turn —", "ja": "― {whose}手番 ―"},
    "canosa.ev.end_score": {"en": "{who} has brought 4 sailors home and wins.",
                            "ja": "{who}が4人目の船員を島に迎え入れて勝利。"},
    "canosa.ev.end_score_you": {"en": "You have brought 4 sailors home and win.",
                                "ja": "あなたが4人目の船員を島に迎え入れて勝利。"},
    "canosa.ev.end_trapped": {"en": "{other} cannot make a whole turn: {who} wins.",
                              "ja": "{other}は手番を行えない。{who}の勝ち。"},
    "canosa.ev.end_trapped_you": {"en": "{other} cannot make a whole turn: you win.",
                                  "ja": "{other}は手番を行えない。あなたの勝ち。"},
    "canosa.ev.end_trapped_other": {"en": "You cannot make a whole turn: {who} wins.",
                                    "ja": "あなたは手番を行えない。{who}の勝ち。"},
    "canosa.ev.end_draw": {"en": "Turn limit reached: draw.",
                           "ja": "手番の上限に達したため引き分け。"},
    "canosa.ev.other": {"en": "Event: {kind}.", "ja": "出来事：{kind}。"},
    "canosa.reason_score": {"en": "{who} brought 4 sailors home.",
                            "ja": "{who}が船員を4人島に迎え入れた。"},
    "canosa.reason_trapped": {"en": "{other} could not make a whole turn.",
                              "ja": "{other}が手番を行えなくなった。"},
    "canosa.reason_draw": {"en": "The turn limit was reached.", "ja": "手番の上限に達した。"},
    "canosa.none": {"en": "none", "ja": "なし"},
    # Legend and rules (our own words).
    "canosa.legend": {"en": "Legend", "ja": "凡例"},
    "canosa.lg_siren": {"en": "siren (pips: rings she holds, up to 3)",
                        "ja": "セイレーン（点：持っているリング、最大3）"},
    "canosa.lg_sailor": {"en": "sailor: its rings bottom → top; the top ring's colour controls it",
                         "ja": "船員：リングは下から上へ。一番上のリングの色が支配者"},
    "canosa.lg_rings": {"en": "gold ring: solid; silver ring: striped",
                        "ja": "金のリング：塗りつぶし、銀のリング：しま模様"},
    "canosa.lg_bare": {"en": "grey sailor: no ring, nobody controls it",
                       "ja": "灰色の船員：リングなし、誰も支配していない"},
    "canosa.lg_home": {"en": "beside each siren: the sailors she has brought home, with their "
                              "rings (4 win)",
                       "ja": "各セイレーンの欄：島に迎えた船員とそのリング（4人で勝ち）"},
    "canosa.lg_marks": {"en": "• move   ⚔ attack   + give   − take   ◎ place",
                        "ja": "• 移動　⚔ 攻撃　＋ 渡す　− 引き抜く　◎ 配置"},
    "canosa.lg_last": {"en": "dashed outline: where the last turn acted from; solid: to",
                       "ja": "点線の枠：直前の手番の出発点、実線の枠：到着点"},
    "canosa.rules_html": {
        "en": (
            "<p>Each player is a siren on a corner island (Gold moves first). Sailors belong to "
            "whoever's ring is on top of their stack. <b>Bring 4 sailors to your island to "
            "win</b>; a player who cannot make a whole turn loses.</p>"
            "<p><b>A turn is two actions</b> (Gold's very first turn: one, unless the option "
            "says two). The same action or piece may be used twice.</p>"
            "<ul>"
            "<li><b>Move your siren</b> one square in any of the 8 directions onto an empty "
            "square. Once she has left her island she never goes back, and she never enters "
            "the other island.</li>"
            "<li><b>Attack</b>: if your siren holds more rings than the neighbouring enemy "
            "siren, move onto her square and put her on any empty neighbouring square that is "
            "not an island (the square you came from counts). Rings stay where they are.</li>"
            "<li><b>Move a sailor</b> you control one square up, down, left or right, "
            "towards your island, onto an empty square. Reaching your island scores it.</li>"
            "<li><b>Give a ring</b> from your siren to a neighbouring sailor (8 directions) "
            "with at most 2 rings: it is yours now.</li>"
            "<li><b>Take a ring</b>: take your own ring off the top of a neighbouring sailor "
            "while your siren holds at most 2.</li>"
            "</ul>"
            "<p><b>Scoring</b>: the sailor leaves the board. Of each colour on it, one ring "
            "goes back to that colour's siren if she has room (3 at most); every other ring "
            "is out of the game for good.</p>"),
        "ja": (
            "<p>各プレイヤーは角の島にいるセイレーンです（金が先手）。船員は積まれたリングの"
            "一番上の色のプレイヤーのものです。<b>船員を4人自分の島に迎え入れれば勝ち</b>。"
            "手番を行えなくなったプレイヤーは負けです。</p>"
            "<p><b>1手番に2回行動します</b>（金の最初の手番だけは1回。オプションで2回にも"
            "できます）。同じ行動・同じ駒を2回使っても構いません。</p>"
            "<ul>"
            "<li><b>セイレーンの移動</b>：8方向の空いているマスへ1マス。一度島を離れたら戻れず、"
            "相手の島にも入れません。</li>"
            "<li><b>攻撃</b>：隣の相手セイレーンより多くリングを持っていれば、そのマスへ移り、"
            "相手を周囲の空いている島以外のマスに置きます（自分が来たマスも可）。"
            "リングは動きません。</li>"
            "<li><b>船員の移動</b>：自分が支配する船員を上下左右に1マス、自分の島へ近づく"
            "空きマスへ。島に着けば得点です。</li>"
            "<li><b>リングを渡す</b>：セイレーンのリングを、隣（8方向）のリング2個以下の船員に"
            "載せます。その船員はあなたのものになります。</li>"
            "<li><b>リングを引き抜く</b>：セイレーンのリングが2個以下なら、隣の船員の一番上に"
            "ある自分のリングを取り戻します。</li>"
            "</ul>"
            "<p><b>得点</b>：船員は盤から取り除かれます。載っていた各色のリングは1個ずつ、"
            "空きがあればその色のセイレーンに戻り（最大3個）、残りはゲームから除外されます。</p>"),
    },
}

register(STRINGS)

#: The lobby's line for this game (our own words).
BLURB = {"en": "Two sirens lure sailors home with rings, one ring at a time.",
         "ja": "2人のセイレーンが、リングで船員を自分の島へ誘い込む。"}

#: Events that get their own pause when a turn is played back step by step.
STEP_EVENTS = {"siren", "attack", "place", "sailor", "score", "give", "take", "end"}


# -- names -------------------------------------------------------------------------------
def who(p: int, lang: str) -> str:
    return t(f"canosa.{COLOURS[p]}", lang)


def viewer(view: dict[str, Any] | None) -> int | None:
    """Whose screen this is (``view["you"]``, which the table adds), or None: nobody's
    (a spectator, a replay), and then every side goes by its seat name."""
    you = (view or {}).get("you")
    return you if you in (0, 1) else None


def name(p: int, lang: str, me: int | None) -> str:
    """A side as the subject of a sentence: "you" for the viewer, else the seat's name."""
    return t("you", lang) if p == me else who(p, lang)


def whose(p: int, lang: str, me: int | None) -> str:
    """A side's, as in "your siren" / "Silver's siren" (あなたの / 銀の)."""
    return t("canosa.whose_you", lang) if p == me else t("canosa.whose", lang, who=who(p, lang))


def _cap(text: str) -> str:
    """A sentence begins with a capital ("your siren…" → "Your siren…"; Japanese as is)."""
    return text[:1].upper() + text[1:]


def square(rc: list[int] | tuple[int, int]) -> str:
    """The name of (row, col): ``square((0, 0)) == "a1"``."""
    r, c = rc
    return f"{LETTERS[c]}{r + 1}"


def parse_square(name: str) -> tuple[int, int] | None:
    m = _SQUARE.match(name)
    if not m:
        return None
    return int(m.group(2)) - 1, LETTERS.index(m.group(1))


def _ring_names(rings: list[int], lang: str) -> str:
    sep = "、" if lang == "ja" else ", "
    return sep.join(who(r, lang) for r in rings) if rings else t("canosa.none", lang)


def _counted(counts: list[int], lang: str) -> str:
    """``[gold, silver]`` ring counts in words: "Gold ×1, Silver ×2"."""
    sep = "、" if lang == "ja" else ", "
    return sep.join(f"{who(c, lang)}×{n}" for c, n in enumerate(counts) if n)


# -- what each action does ---------------------------------------------------------------
def parse_action(action: str) -> tuple[str, str, str | None]:
    """``(kind, square acted on, destination)``: kind is siren/attack/place/sailor/give/take.

    >>> parse_action("Sb2"), parse_action("c3-c2"), parse_action("+d4")
    (('siren', 'b2', None), ('sailor', 'c3', 'c2'), ('give', 'd4', None))
    """
    head = action[:1]
    kinds = {"S": "siren", "X": "attack", "P": "place", "+": "give", "-": "take"}
    if head in kinds:
        return kinds[head], action[1:], None
    src, _, dst = action.partition("-")
    return "sailor", src, dst


def piece_targets(piece: str, legal: list[str]) -> dict[str, list[str]]:
    """What a selected piece can do: ``{square to click: [actions]}``.

    ``piece`` is ``"siren"`` (your siren: moves, attack, rings on neighbouring sailors) or a
    sailor's square (its steps; the rings given to it or taken from it are offered as
    buttons, listed under its own square).
    """
    out: dict[str, list[str]] = {}
    for a in legal:
        kind, at, dst = parse_action(a)
        if piece == "siren" and kind in ("siren", "attack", "give", "take"):
            out.setdefault(at, []).append(a)
        elif kind == "sailor" and at == piece:
            out.setdefault(dst, []).append(a)
        elif kind in ("give", "take") and at == piece:
            out.setdefault(piece, []).append(a)
    return out


def selectable(legal: list[str]) -> dict[str, str]:
    """Pieces that can act now: ``{square: "siren" or the sailor's square}``."""
    return _selectable(legal, None)


def _selectable(legal: list[str], view: dict[str, Any] | None) -> dict[str, str]:
    out: dict[str, str] = {}
    siren_sq = None
    if view is not None and view.get("to_move"):
        me = view["to_move"][0]
        at = view["sirens"][me].get("at")
        siren_sq = square(at) if at else None
    for a in legal:
        kind, at, dst = parse_action(a)
        if kind in ("siren", "attack", "give", "take") and siren_sq:
            out[siren_sq] = "siren"
        if kind == "sailor" or kind in ("give", "take"):
            out.setdefault(at, at)
    if siren_sq in out:
        out[siren_sq] = "siren"
    return out


def placements(legal: list[str]) -> dict[str, str]:
    """While an attacker places the defeated siren: ``{square: action}``."""
    return {a[1:]: a for a in legal if a.startswith("P")}


# -- commands ----------------------------------------------------------------------------
def new_selection() -> dict[str, Any]:
    """The piece selected (``"siren"``, a sailor's square, or None) and an open chooser
    (the square whose two actions wait for a choice)."""
    return {"piece": None, "choose": None}


def _current(sel: dict[str, Any], legal: list[str], view: dict[str, Any] | None) -> str | None:
    """The selected piece if it can still act (a stale selection counts as none)."""
    piece = sel.get("piece")
    if piece is None or placements(legal):
        return None
    return piece if piece_targets(piece, legal) else None


def handle(cmd: str, sel: dict[str, Any], legal: list[str],
           view: dict[str, Any] | None = None) -> str | None:
    """A click, as an engine action once one is made.

    >>> legal = ["Sa2", "Sb2", "b1-a1", "+b1", "-b1"]
    >>> view = {"to_move": [0], "sirens": [{"at": [0, 2]}, {"at": [5, 5]}]}
    >>> sel = new_selection()
    >>> handle("sq:c1", sel, legal, view), sel["piece"], handle("sq:b2", sel, legal, view)
    (None, 'siren', 'Sb2')
    >>> handle("sq:c1", sel, legal, view), handle("sq:b1", sel, legal, view), sel["choose"]
    (None, None, 'b1')
    >>> handle("act:-b1", sel, legal, view)
    '-b1'
    """
    name, _, arg = cmd.partition(":")
    if name == "act":
        if arg in legal:
            sel.update(new_selection())
            return arg
        return None
    if name == "cancel":
        sel.update(new_selection())
        return None
    if name != "sq" or parse_square(arg) is None:
        return None
    place = placements(legal)
    if place:
        sel.update(new_selection())
        return place.get(arg)
    piece = _current(sel, legal, view)
    pieces = _selectable(legal, view)
    if piece is not None:
        options = piece_targets(piece, legal).get(arg, [])
        if piece != "siren" and arg == piece:  # the selected sailor itself: deselect
            options = []
        if len(options) == 1:
            sel.update(new_selection())
            return options[0]
        if len(options) > 1:
            sel["choose"] = arg
            return None
        if pieces.get(arg) == piece:  # the selected piece again: deselect
            sel.update(new_selection())
            return None
    sel.update(new_selection())
    if arg in pieces:
        sel["piece"] = pieces[arg]
    return None


# -- what the log says -------------------------------------------------------------------
def _sq(event: dict[str, Any], key: str) -> str:
    v = event.get(key)
    if isinstance(v, str):
        return v
    return square(v) if v else "?"


def describe(event: dict[str, Any], lang: str, view: dict[str, Any] | None = None) -> str:
    """One engine event in words, to the viewer of ``view`` ("you"), if anybody's.

    >>> describe({"t": "sailor", "p": 1, "from": [2, 2], "to": [2, 3]}, "en")
    'Silver moves a sailor c3 → d3.'
    >>> describe({"t": "sailor", "p": 1, "from": [2, 2], "to": [2, 3]}, "en", {"you": 1})
    'You move a sailor c3 → d3.'
    >>> describe({"t": "attack", "p": 1, "from": [2, 2], "to": [2, 3]}, "en", {"you": 0})
    "Silver's siren attacks your siren: c3 → d3."
    """
    kind = event["t"]
    me = viewer(view)
    p = event.get("p", 0) if isinstance(event.get("p"), int) else 0
    # The key of the sentence in which "you" act, where English needs one (the verb agrees).
    mine = "_you" if p == me else ""
    subject, whose1, whose2 = name(p, lang, me), whose(p, lang, me), whose(1 - p, lang, me)
    if kind == "siren":
        return _cap(t("canosa.ev.siren", lang, whose=whose1, a=_sq(event, "from"),
                      b=_sq(event, "to")))
    if kind == "attack":
        return _cap(t("canosa.ev.attack", lang, whose=whose1, whose2=whose2,
                      a=_sq(event, "from"), b=_sq(event, "to")))
    if kind == "place":
        return t(f"canosa.ev.place{mine}", lang, who=subject, whose2=whose2,
                 sq=_sq(event, "to"))
    if kind == "sailor":
        return t(f"canosa.ev.sailor{mine}", lang, who=subject, a=_sq(event, "from"),
                 b=_sq(event, "to"))
    if kind == "score":
        rings = event.get("rings", [])
        text = t(f"canosa.ev.score{mine}", lang, who=subject, n=len(rings),
                 rings=_ring_names(rings, lang))
        back, lost = event.get("returned") or [0, 0], event.get("lost") or [0, 0]
        if any(back):
            text += t("canosa.ev.score_back", lang, rings=_counted(back, lang))
        if any(lost):
            text += t("canosa.ev.score_lost", lang, rings=_counted(lost, lang))
        return text
    if kind == "give":
        return t(f"canosa.ev.give{mine}", lang, who=subject, sq=_sq(event, "at"))
    if kind == "take":
        return t(f"canosa.ev.take{mine}", lang, who=subject, sq=_sq(event, "at"))
    if kind == "turn":
        return t("canosa.ev.turn", lang, whose=_cap(whose1))
    if kind == "end":
        winners = event.get("winners") or []
        if not winners:
            return t("canosa.ev.end_draw", lang)
        w = winners[0]
        if event.get("reason") == "trapped":
            key = ("canosa.ev.end_trapped_you" if w == me else
                   "canosa.ev.end_trapped_other" if 1 - w == me else "canosa.ev.end_trapped")
            return t(key, lang, who=who(w, lang), other=who(1 - w, lang))
        return t("canosa.ev.end_score_you" if w == me else "canosa.ev.end_score", lang,
                 who=who(w, lang))
    return t("canosa.ev.other", lang, kind=kind)


def result_reason(outcome: dict[str, Any], lang: str) -> str:
    if not outcome["winners"]:
        return t("canosa.reason_draw", lang)
    w = outcome["winners"][0]
    if outcome.get("reason") == "trapped":
        return t("canosa.reason_trapped", lang, other=who(1 - w, lang))
    return t("canosa.reason_score", lang, who=who(w, lang))


def step_delay(event: dict[str, Any], speed: int) -> int:
    """An attack, a score and the end get a longer look than a single step."""
    return speed * 3 // 2 if event["t"] in ("attack", "score", "end") else speed


# -- the board during a playback ---------------------------------------------------------
def _rc(v: Any) -> tuple[int, int] | None:
    if isinstance(v, str):
        return parse_square(v)
    if isinstance(v, list | tuple) and len(v) == 2:
        return int(v[0]), int(v[1])
    return None


def board_at(before: dict[str, Any], events: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The position of ``before`` with ``events`` (that followed it) applied, for a
    step-by-step playback; None if an event cannot be followed (then the view is drawn)."""
    sirens = [dict(s, at=_rc(s.get("at"))) for s in before["sirens"]]
    sailors = [{"at": _rc(s["at"]), "rings": list(s["rings"])} for s in before["sailors"]]
    scores = list(before["scores"])
    out = list(before.get("rings_out", [0, 0]))
    placing = before.get("placing")
    islands = [tuple(rc) for rc in before["islands"]]

    def sailor_at(rc):
        return next((s for s in sailors if s["at"] == rc), None)

    for e in events:
        kind, p = e["t"], e.get("p", 0)
        to = _rc(e.get("to"))
        if kind in ("siren", "attack"):
            if to is None:
                return None
            sirens[p]["at"] = to
            sirens[p]["left"] = to != islands[p]
            # After an attack both sirens share the contested square until the placement.
            placing = {"at": list(to), "siren": 1 - p} if kind == "attack" else None
        elif kind == "place":
            if to is None:
                return None
            sirens[1 - p]["at"] = to
            placing = None
        elif kind == "sailor":
            s = sailor_at(_rc(e.get("from")))
            if s is None or to is None:
                return None
            s["at"] = to
        elif kind == "score":
            s = sailor_at(_rc(e.get("at")) or islands[p])
            if s is not None:
                sailors.remove(s)
            scores[p] += 1
            for c, n in enumerate(e.get("returned") or (0, 0)):
                sirens[c]["rings"] += n
            for c, n in enumerate(e.get("lost") or (0, 0)):
                out[c] += n
        elif kind in ("give", "take"):
            s = sailor_at(_rc(e.get("at")))
            if s is None:
                return None
            s["rings"] = list(e["rings"]) if "rings" in e else (
                s["rings"] + [p] if kind == "give" else s["rings"][:-1])
            sirens[p]["rings"] += -1 if kind == "give" else 1
    return dict(before, sirens=[dict(s, at=list(s["at"])) for s in sirens],
                sailors=[{"at": list(s["at"]), "rings": s["rings"]} for s in sailors],
                scores=scores, rings_out=out, placing=placing)


def _step_squares(event: dict[str, Any] | None) -> set[str]:
    if not event:
        return set()
    found = set()
    for key in ("from", "to", "at"):
        rc = _rc(event.get(key))
        if rc is not None:
            found.add(square(rc))
    return found


# -- rendering ---------------------------------------------------------------------------
def _pips(n: int, colour: str) -> str:
    return "".join(f'<i class="pip{" on" if i < n else ""} {colour}"></i>'
                   for i in range(MAX_RINGS))


def _siren_html(p: int, rings: int, lang: str, beaten: bool = False) -> str:
    # The glyph (金/銀) is drawn by the style sheet: it is a picture, and the square's own
    # label names the siren in words.
    extra = " beaten" if beaten else ""
    return (f'<span class="siren {COLOURS[p]}{extra}" data-rings="{rings}" aria-hidden="true">'
            f'<span class="sg"></span><span class="rpips">{_pips(rings, COLOURS[p])}</span>'
            f'</span>')


def _sailor_html(rings: list[int]) -> str:
    ctrl = COLOURS[rings[-1]] if rings else "none"
    stack = "".join(f'<i class="ring {COLOURS[r]}"></i>' for r in rings)
    return (f'<span class="sailor ctrl-{ctrl}" data-rings="{"".join(str(r) for r in rings)}" '
            f'aria-hidden="true"><span class="stack">{stack}</span></span>')


MARKS = {"move": "•", "attack": "⚔", "give": "+", "take": "−", "both": "±", "place": "◎"}


def _mark_kind(actions: list[str]) -> str:
    kinds = {parse_action(a)[0] for a in actions}
    if kinds == {"give", "take"}:
        return "both"
    kind = kinds.pop()
    return {"siren": "move", "sailor": "move"}.get(kind, kind)


def _board(view: dict[str, Any], board: dict[str, Any], lang: str, *, targets: dict[str, list[str]],
           pieces: dict[str, str], selected: str | None, last: dict[str, set[str]],
           now: set[str], chooser: str | None, me: int | None, choice: bool) -> str:
    rows, cols = view["rows"], view["cols"]
    islands = {square(rc): p for p, rc in enumerate(view["islands"])}
    content: dict[str, tuple[str, str, str]] = {}  # square -> (html, label, kind)
    placing = board.get("placing")
    beaten = placing["siren"] if placing else None
    for p in sorted((0, 1), key=lambda p: p == beaten):  # the attacker first
        s = board["sirens"][p]
        sq = square(s["at"])
        html = _siren_html(p, s["rings"], lang, beaten=p == beaten)
        label = t("canosa.sq_siren", lang, whose=whose(p, lang, me), n=s["rings"])
        if sq in content:  # the defeated siren, waiting to be placed
            old_html, old_label, kind = content[sq]
            content[sq] = (old_html + html, f"{old_label}; {t('canosa.sq_beaten', lang)}: {label}",
                           kind)
        else:
            content[sq] = (html, label, f"siren-{p}")
    for s in board["sailors"]:
        rings = s["rings"]
        if rings:
            label = t("canosa.sq_sailor", lang, n=len(rings), rings=_ring_names(rings, lang),
                      who=name(rings[-1], lang, me))
        else:
            label = t("canosa.sq_sailor_bare", lang)
        content[square(s["at"])] = (_sailor_html(rings), label, "sailor")
    selected_sq = None
    if selected == "siren":
        selected_sq = next((sq for sq, v in pieces.items() if v == "siren"), None)
    elif selected:
        selected_sq = selected
    cells = ['<span class="edge corner" aria-hidden="true"></span>']
    cells += [f'<span class="edge col" aria-hidden="true">{LETTERS[c]}</span>' for c in range(cols)]
    for r in range(rows):
        cells.append(f'<span class="edge row" aria-hidden="true">{r + 1}</span>')
        for c in range(cols):
            sq = square((r, c))
            inner, label, kind = content.get(sq, ("", t("canosa.sq_empty", lang), "empty"))
            classes = ["sq", kind]
            parts = [f"{sq}: {label}"]
            if sq in islands:
                classes.append(f"island isle-{COLOURS[islands[sq]]}")
                key = "canosa.island_yours" if islands[sq] == me else "canosa.island_of"
                parts.append(t(key, lang, who=who(islands[sq], lang)))
                inner = (f'<span class="isle-tag" aria-hidden="true">'
                         f'{esc(t("canosa.isle_tag", lang, who=who(islands[sq], lang)))}</span>'
                         + inner)
            attrs = ""
            acts = targets.get(sq, [])
            enabled = False
            if acts:
                mark = _mark_kind(acts)
                classes += ["target", f"t-{mark}"]
                parts.append(t(f"canosa.t_{mark}", lang))
                inner += f'<span class="mark" aria-hidden="true">{MARKS[mark]}</span>'
                attrs += f' data-actions="{esc(" ".join(acts))}"'
                enabled = True
                if sq == chooser:
                    classes.append("choosing")
            if sq == selected_sq:
                classes.append("selected")
                parts.append(t("canosa.t_selected", lang))
                attrs += ' aria-pressed="true"'
                enabled = True
            elif sq in pieces and not acts:
                classes.append("can-act")
                attrs += ' aria-pressed="false"'
                enabled = True
            if sq in last:
                classes.append("last")
                for end in sorted(last[sq]):  # "from", "to"
                    classes.append(f"last-{end}")
                    parts.append(t(f"canosa.t_last_{end}", lang))
            if sq in now:
                classes.append("now")
                parts.append(t("canosa.t_now", lang))
            disabled = "" if enabled else " disabled"
            cells.append(f'<button type="button" class="{" ".join(classes)}" data-sq="{sq}" '
                         f'data-cmd="sq:{sq}" aria-label="{esc(", ".join(parts))}"{attrs}{disabled}>'
                         f'{inner}</button>')
    # The board is where every choice of this game is made (and watched): the phone tests
    # keep it on screen whole (data-choice) for as long as the game is on, its last moves
    # played back included.
    mark = " data-choice" if choice else ""
    return (f'<section class="cboard" aria-label="{esc(t("canosa.board", lang))}"{mark} '
            f'style="--rows:{rows};--cols:{cols}"><div class="cgrid">{"".join(cells)}</div></section>')


def brought_home(events: list[dict[str, Any]], scores: list[int]) -> list[list[list[int] | None]]:
    """Each side's sailors brought home, oldest first: the rings each had when it scored,
    from the score events shown so far (None for one scored before the events begin, as in
    a hand-set position; ``scores`` says how many there are).

    >>> brought_home([{"t": "score", "p": 1, "rings": [1, 0]}], [1, 2])
    [[None], [None, [1, 0]]]
    """
    home: list[list[list[int] | None]] = [[], []]
    for e in events:
        if e.get("t") == "score" and e.get("p") in (0, 1):
            home[e["p"]].append(list(e.get("rings") or []))
    for p in (0, 1):
        n = scores[p]
        home[p] = ([None] * (n - len(home[p])) + home[p])[-n:] if n > 0 else []
    return home


def _home_html(home: list[list[int] | None]) -> str:
    """The tally of sailors brought home: each with its rings, then the places still free."""
    slots = []
    for rings in home:
        inner = _sailor_html(rings) if rings is not None else '<span class="sailor ctrl-none"></span>'
        rings_attr = "" if rings is None else "".join(str(r) for r in rings)
        slots.append(f'<li class="slot filled" data-rings="{rings_attr}">{inner}</li>')
    slots += ['<li class="slot"></li>'] * (WIN_SCORE - len(home))
    return f'<ol class="tally">{"".join(slots)}</ol>'


def _panel(board: dict[str, Any], p: int, lang: str, seat: str, moving: bool,
           home: list[list[int] | None]) -> str:
    siren = board["sirens"][p]
    score = board["scores"][p]
    out = board.get("rings_out", [0, 0])[p]
    seat = (f"（{seat}）" if lang == "ja" else f"({seat})") if seat else ""
    seat_txt = f' <span class="seat">{esc(seat)}</span>' if seat else ""
    badge = (f' <span class="badge tomove">{esc(t("canosa.seat_to_move", lang))}</span>'
             if moving else "")
    where = t("canosa.left_island" if siren.get("left") else "canosa.on_island", lang)
    sep = "／" if lang == "ja" else "; "
    listed = sep.join(_ring_names(r, lang) if r is not None else t("canosa.home_unknown", lang)
                      for r in home)
    full = t("canosa.panel_label", lang, who=who(p, lang),
             seat=f" {seat}" if seat else "", scored=score,
             home=t("canosa.panel_home", lang, list=listed) if home else "",
             moving=t("canosa.panel_moving", lang) if moving else "",
             rings=siren["rings"], where=where, out=out)
    return (f'<section class="cpanel-c {COLOURS[p]}{" moving" if moving else ""}" data-player="{p}" '
            f'data-scored="{score}">'
            f'<h2>{_siren_html(p, siren["rings"], lang)}<span class="pname">{esc(who(p, lang))}'
            f'{seat_txt}</span>{badge}</h2>'
            f'<p class="sr-only">{esc(full)}</p>'
            f'<div class="stats" aria-hidden="true">'
            f'<div class="stat home"><span class="lbl">{esc(t("canosa.home", lang))}</span>'
            f'{_home_html(home)}</div>'
            f'<p class="stat rings" data-rings="{siren["rings"]}" data-out="{out}">'
            f'{esc(t("canosa.siren_rings", lang, n=siren["rings"]))} · '
            f'<span title="{esc(t("canosa.rings_out_title", lang))}">'
            f'{esc(t("canosa.rings_out", lang, n=out))}</span></p>'
            f'</div></section>')


def _ring_buttons(piece: str | None, legal: list[str], chooser: str | None, lang: str) -> str:
    """The chooser (give or take on one square), or the selected sailor's ring actions:
    the current choice's buttons (``data-choice``)."""
    actions: list[str] = []
    if chooser:
        actions = [a for a in legal if a in (f"+{chooser}", f"-{chooser}")]
    elif piece and piece != "siren":
        actions = [a for a in legal if a in (f"+{piece}", f"-{piece}")]
    if not actions and not piece:
        return ""
    buttons = []
    for a in sorted(actions):
        kind, at, _ = parse_action(a)
        key = "canosa.do_give" if kind == "give" else "canosa.do_take"
        buttons.append(f'<button type="button" class="ringact {kind}" data-cmd="act:{esc(a)}" '
                       f'aria-label="{esc(t(key + "_label", lang, sq=at))}">'
                       f'{esc(t(key, lang))}</button>')
    buttons.append(f'<button type="button" class="cancel" data-cmd="cancel">'
                   f'{esc(t("canosa.cancel", lang))}</button>')
    return (f'<div class="controls canosa-acts" role="group" data-choice '
            f'aria-label="{esc(t("canosa.actions", lang))}">{"".join(buttons)}</div>')


def prompt(view: dict[str, Any], me: int | None, legal: list[str], sel: dict[str, Any],
           lang: str, waiting_for: str = "") -> str:
    """The status line: to the player who acts ("you"), or what the viewer waits for, or
    (nobody's screen) whose turn it is."""
    if view.get("outcome") is not None or view.get("over"):
        return ""
    movers = view.get("to_move") or []
    if me is None:
        if not movers:
            return ""
        return _cap(t("canosa.prompt_watch", lang, whose=whose(movers[0], lang, None),
                      k=view.get("actions_left", 0)))
    if not legal:
        return t("waiting_for", lang, who=waiting_for) if waiting_for else ""
    if placements(legal):
        return t("canosa.prompt_place", lang, whose=whose(1 - me, lang, me))
    if sel.get("choose"):
        return t("canosa.prompt_choose", lang, sq=sel["choose"])
    piece = _current(sel, legal, view)
    if piece == "siren":
        return t("canosa.prompt_siren", lang)
    if piece:
        targets = piece_targets(piece, legal)
        moves = [sq for sq in targets if sq != piece]
        rings = piece in targets
        key = ("canosa.prompt_sailor_rings" if moves and rings else
               "canosa.prompt_sailor_only_rings" if rings else "canosa.prompt_sailor")
        return t(key, lang, sq=piece)
    return t("canosa.prompt_pick", lang, k=view.get("actions_left", 0))


def _last_squares(view: dict[str, Any]) -> dict[str, set[str]]:
    """The squares the last turn (and this one so far) acted from and to."""
    found: dict[str, set[str]] = {}
    for entry in view.get("last_turn") or []:
        for key in ("from", "to"):
            rc = _rc(entry.get(key))
            if rc is not None:
                found.setdefault(square(rc), set()).add(key)
    return found


def render_table(view: dict[str, Any], legal: list[str], lang: str, *,
                 events: list[dict[str, Any]], sel: dict[str, Any] | None = None,
                 shown: int | None = None, since: int | None = None,
                 seats: tuple[str, ...] = ("", ""), waiting_for: str = "",
                 before: dict[str, Any] | None = None) -> str:
    """The whole Canosa table (the same picture for every seat; ``legal`` is the acting
    seat's, empty for anybody else). Words are to the viewer (``view["you"]``, else the
    player who acts); with nobody's screen, both sides go by their seat names.

    During a playback (``shown`` < number of events) the board is ``before`` with the steps
    shown so far applied, the current step's squares marked, and the prompt words it.
    """
    sel = sel if sel is not None else new_selection()
    shown = len(events) if shown is None else min(shown, len(events))
    animating = shown < len(events)
    movers = view.get("to_move") or []
    me = viewer(view)
    if me is None and legal and movers:
        me = movers[0]  # nobody's screen, but a seat acts here: the words are to that seat
    board = view
    current = None
    if animating:
        steps = [e for e in events[since or 0:shown] if e["t"] in STEP_EVENTS]
        current = steps[-1] if steps else None
        if before is not None and since is not None:
            board = board_at(before, events[since:shown]) or view
    acting = bool(legal) and not animating and me is not None
    legal_now = legal if acting else []
    place = placements(legal_now)
    piece = _current(sel, legal_now, view)
    chooser = sel.get("choose") if piece else None
    pieces = _selectable(legal_now, view) if not place else {}
    if place:
        targets = {sq: [a] for sq, a in place.items()}
    elif piece:
        targets = {sq: acts for sq, acts in piece_targets(piece, legal_now).items()
                   if not (piece != "siren" and sq == piece)}
    else:
        targets = {}
    last = _last_squares(view) if not animating else {}
    now = _step_squares(current)
    if animating:
        ask = describe(current, lang, {"you": me}) if current else t("canosa.resolving", lang)
    else:
        ask = prompt(view, me, legal_now, sel, lang, waiting_for)
    over = view.get("outcome") is not None
    moving = movers[0] if movers and not over else None
    home = brought_home(events[:shown], board["scores"])
    panels = "".join(_panel(board, p, lang, seats[p] if p < len(seats) else "",
                            p == moving and not animating, home[p]) for p in (0, 1))
    if over:
        info = t("canosa.turn_over", lang, n=view.get("turn", 0))
    elif moving is not None:
        key = "canosa.turn_info_you" if moving == me else "canosa.turn_info"
        info = t(key, lang, n=view.get("turn", 0) + 1, who=who(moving, lang),
                 k=view.get("actions_left", 0))
    else:
        info = ""
    parts = [
        f'<div class="cside"><p class="round">{esc(info)}</p>'
        f'<div class="cpanels">{panels}</div></div>',
        _board(view, board, lang, targets=targets, pieces=pieces, selected=piece, last=last,
               now=now, chooser=chooser, me=me, choice=animating or not over),
        f'<p class="prompt" role="status" aria-live="polite" data-status>{esc(ask)}</p>',
    ]
    if animating:
        parts.append(f'<div class="controls cskip"><button type="button" data-cmd="skip">'
                     f'{esc(t("skip", lang))}</button></div>')
    elif acting and not place:
        parts.append(_ring_buttons(piece, legal_now, chooser, lang))
    return (f'<div class="canosa ctable" data-rows="{view["rows"]}" data-cols="{view["cols"]}" '
            f'style="--rows:{view["rows"]};--cols:{view["cols"]}" '
            f'data-layout="{esc(view.get("layout", ""))}" data-turn="{view.get("turn", 0)}" '
            f'data-placing="{str(bool(place)).lower()}" '
            f'data-selected="{esc(piece or "")}">{"".join(parts)}</div>')


def _legend(lang: str) -> str:
    items = [
        f'<li>{_siren_html(0, 2, lang)} {esc(t("canosa.lg_siren", lang))}</li>',
        f'<li>{_sailor_html([1, 0])} {esc(t("canosa.lg_sailor", lang))}</li>',
        f'<li>{_sailor_html([0, 1, 0])} {esc(t("canosa.lg_rings", lang))}</li>',
        f'<li>{_sailor_html([])} {esc(t("canosa.lg_bare", lang))}</li>',
        f'<li>{esc(t("canosa.lg_home", lang))}</li>',
        f'<li class="marks">{esc(t("canosa.lg_marks", lang))}</li>',
        f'<li>{esc(t("canosa.lg_last", lang))}</li>',
    ]
    return (f'<div class="canosa clegend"><h4>{esc(t("canosa.legend", lang))}</h4>'
            f'<ul>{"".join(items)}</ul></div>')


def rules_html(lang: str) -> str:
    """The legend of the board's marks, then the rules in our own words."""
    return _legend(lang) + t("canosa.rules_html", lang)


# -- the lobby tile (pgui.lobby) ------------------------------------------------------------

#: How long a game takes, in minutes (the lobby tile says it).
PLAY_TIME = (15, 30)

#: The lobby's word for each option value that its label does not explain.
OPTION_HELP = {
    "layout": {
        "standard": {"en": "The full board: four sailors to bring home, room to manoeuvre.",
                     "ja": "標準の盤面。4人の船員を連れ帰るまで、駆け引きの余地がたっぷり。"},
        "small": {"en": "A tighter board with fewer sailors: shorter games, earlier fights.",
                  "ja": "船員が少ない小さな盤面。対局は短く、ぶつかり合いも早く始まります。"},
    },
    "first_turn": {
        "1": {"en": "Gold opens with a single action, which evens out moving first.",
              "ja": "先手の金は最初の手番だけ1アクション。先手の有利を抑えます。"},
        "2": {"en": "Gold's first turn is a full two actions, as an older rule sheet has it.",
              "ja": "古いルール通り、金の最初の手番も2アクション。"},
    },
    "draw_cap": {
        "0": {"en": "Play on until someone brings four sailors home, as the rules say.",
              "ja": "ルール通り、どちらかが船員4人を連れ帰るまで続けます。"},
        "400": {"en": "A safety net for bots playing each other; people never reach it.",
                "ja": "ボット同士の対戦用の安全策です。人の対局でここまで続くことはまずありません。"},
    },
}


def thumbnail(lang: str) -> str:
    """The lobby tile's picture: the board a few turns in (static SVG, drawn from the
    engine's public view; the same in both languages)."""
    import pygames

    state = pygames.get_game("canosa").new_game(seed=2)
    for _ in range(9):  # a few turns: pieces out at sea, some rings given
        p = state.to_move()[0]
        legal = state.legal_actions(p)
        state.apply(p, next((a for a in legal if "+" in a), legal[len(legal) // 2]))
    view = state.view(None)
    rows, cols = view["rows"], view["cols"]
    s = 144 // max(rows, cols)
    x0 = (300 - s * cols) // 2
    gold, silver = "#b0700c", "#6b7688"
    out = ['<svg viewBox="0 0 300 150" focusable="false" font-family="system-ui, sans-serif">',
           f'<rect x="{x0 - 3}" y="0" width="{s * cols + 6}" height="{s * rows + 6}" rx="8" '
           f'fill="#6d8f9b"/>']
    isles = {tuple(rc): p for p, rc in enumerate(view["islands"])}
    for r in range(rows):
        for c in range(cols):
            isle = isles.get((r, c))
            fill = "#cfe4ea" if isle is None else ("#f6e6c6", "#e3e7ee")[isle]
            edge = "#8fb5c2" if isle is None else (gold, silver)[isle]
            out.append(f'<rect x="{x0 + c * s + 1}" y="{r * s + 4}" width="{s - 2}" '
                       f'height="{s - 2}" rx="4" fill="{fill}" stroke="{edge}"/>')
    for sailor in view["sailors"]:
        r, c = sailor["at"]
        x, y = x0 + c * s + s / 2, r * s + 3 + s / 2
        rings = sailor["rings"]
        edge = (gold, silver)[rings[-1]] if rings else "#77716a"
        out.append(f'<rect x="{x - s * .3:.1f}" y="{y - s * .35:.1f}" width="{s * .6:.1f}" '
                   f'height="{s * .7:.1f}" rx="{s * .2:.1f}" fill="#fffdf8" stroke="{edge}" '
                   f'stroke-width="2"/>')
        for k, ring in enumerate(rings[:3]):
            out.append(f'<circle cx="{x:.1f}" cy="{y + s * .2 - k * s * .17:.1f}" r="{s * .09:.1f}" '
                       f'fill="{(gold, silver)[ring]}"/>')
    for p, siren in enumerate(view["sirens"]):
        r, c = siren["at"]
        out.append(f'<circle cx="{x0 + c * s + s / 2:.1f}" cy="{r * s + 3 + s / 2:.1f}" '
                   f'r="{s * .36:.1f}" fill="{(gold, silver)[p]}" stroke="#1f1d1a"/>')
    out.append("</svg>")
    return "".join(out)
