"""Kiri-ai table: pure rendering of (view, legal actions, language, local choices) -> HTML.

Nothing here touches the DOM. Buttons carry ``data-cmd`` attributes that the page's thin
DOM layer hands back to :class:`pgui.table.Table`, which turns them into engine actions
with :func:`handle`.
"""

from __future__ import annotations

import copy
from typing import Any

from pygames.kiriai import BASE_HAND, SPECIALS

from .i18n import esc, register, t

#: A big glyph per card, shown on the card face.
GLYPH = {"A": "→", "R": "←", "C": "⇉", "S": "⇅", "H": "高", "L": "低", "B": "均",
         "K": "袈", "Z": "斬", "X": "反"}
KIND = {"A": "move", "R": "move", "C": "move", "S": "move", "H": "strike", "L": "strike",
        "B": "strike", "K": "special", "Z": "special", "X": "special"}
HALVES = {"AR": ("A", "R"), "CS": ("C", "S")}
COLOURS = ("red", "blue")
SPECIALS_SET = frozenset(SPECIALS)

#: The cards' names as players read them.
CARD_NAMES = {
    "A": {"en": "Approach", "ja": "接近"},
    "R": {"en": "Retreat", "ja": "退却"},
    "C": {"en": "Charge", "ja": "突撃"},
    "S": {"en": "Change Stance", "ja": "構え変更"},
    "H": {"en": "High Strike", "ja": "高打撃"},
    "L": {"en": "Low Strike", "ja": "低打撃"},
    "B": {"en": "Balanced Strike", "ja": "均衡打撃"},
    "K": {"en": "Kesa Strike", "ja": "袈裟打撃"},
    "Z": {"en": "Zan-Tetsu Strike", "ja": "斬鉄打撃"},
    "X": {"en": "Counterattack", "ja": "反撃"},
}

#: This table's own look, loaded with it after app.css (path from the app's root).
STYLESHEET = "pgui/kiriai.css"

#: Every Kiri-ai string, in English and Japanese (merged into pgui.i18n.STRINGS).
STRINGS: dict[str, dict[str, str]] = {
    "kiriai.red": {"en": "Red", "ja": "赤"},
    "kiriai.battlefield": {"en": "Battlefield", "ja": "戦場"},
    "kiriai.duel": {"en": "Programmed and revealed cards", "ja": "セットされたカードと公開されたカード"},
    "kiriai.blue": {"en": "Blue", "ja": "青"},
    "kiriai.heaven": {"en": "Heaven", "ja": "天"},
    "kiriai.earth": {"en": "Earth", "ja": "地"},
    "kiriai.heaven_stance": {"en": "Heaven stance", "ja": "天の構え"},
    "kiriai.earth_stance": {"en": "Earth stance", "ja": "地の構え"},
    "kiriai.wounds": {"en": "Wounds {n}/2", "ja": "負傷 {n}/2"},
    "kiriai.distance": {"en": "Distance {d}", "ja": "距離 {d}"},
    "kiriai.hand": {"en": "Your hand", "ja": "あなたの手札"},
    "kiriai.hand_of": {"en": "{who}'s hand", "ja": "{who}の手札"},
    "kiriai.set_aside": {"en": "Set aside", "ja": "休み札"},
    "kiriai.none": {"en": "none", "ja": "なし"},
    "kiriai.special": {"en": "Special", "ja": "特殊カード"},
    "kiriai.special_hidden": {"en": "Special card (hidden)", "ja": "特殊カード（非公開）"},
    "kiriai.spent": {"en": "spent", "ja": "使用済み"},
    "kiriai.slot1": {"en": "1st action", "ja": "1番目の行動"},
    "kiriai.slot2": {"en": "2nd action", "ja": "2番目の行動"},
    "kiriai.slot_empty": {"en": "choose a card", "ja": "カードを選択"},
    "kiriai.programmed": {"en": "programmed", "ja": "セット済み"},
    "kiriai.prompt_program": {
        "en": "{who}: choose your 1st and 2nd action (two different cards), then Confirm.",
        "ja": "{who}：1番目と2番目の行動を選び（別々のカード2枚）、「決定」を押してください。"},
    "kiriai.prompt_second": {"en": "{who}: now choose your 2nd action.",
                             "ja": "{who}：次に2番目の行動を選んでください。"},
    "kiriai.prompt_confirm": {"en": "{who}: Confirm your program (or tap a slot to change it).",
                              "ja": "{who}：「決定」で確定します（スロットを押すと選び直せます）。"},
    "kiriai.prompt_setup": {
        "en": "{who}: choose your secret start space and stance, then Confirm.",
        "ja": "{who}：秘密の開始マスと構えを選び、「決定」を押してください。"},
    "kiriai.start_space": {"en": "Start space", "ja": "開始マス"},
    "kiriai.stance": {"en": "Stance", "ja": "構え"},
    "kiriai.move_setup": {"en": "Starts on space {space}, {stance}",
                          "ja": "{space}マス目から、{stance}"},
    "kiriai.from_your_end": {"en": "{n} from your end", "ja": "自陣から{n}マス目"},
    "kiriai.resolving": {"en": "Cards revealed: resolving…", "ja": "カード公開：解決中…"},
    "kiriai.round_n": {"en": "Round {n}", "ja": "ラウンド {n}"},
    "kiriai.setup": {"en": "Setup: secret start positions", "ja": "準備：秘密の初期配置"},
    "kiriai.cannot_use": {"en": "set aside this round", "ja": "このラウンドは使えません"},
    # Log lines (structured engine events, worded here).
    "kiriai.ev.round": {"en": "— Round {n} —", "ja": "― ラウンド {n} ―"},
    "kiriai.ev.start": {
        "en": "Start: Red on space {r} ({rs}), Blue on space {b} ({bs}).",
        "ja": "開始：赤は{r}マス目（{rs}）、青は{b}マス目（{bs}）。"},
    "kiriai.ev.reveal": {"en": "Reveal {n}: Red {rc} / Blue {bc}.",
                         "ja": "公開{n}：赤「{rc}」／青「{bc}」。"},
    "kiriai.ev.move": {"en": "{who} {card}: space {a} → {b}.",
                       "ja": "{who}「{card}」：{a}マス目 → {b}マス目。"},
    "kiriai.ev.no_move": {"en": "{who} {card}: cannot move (stays on space {a}).",
                          "ja": "{who}「{card}」：動けない（{a}マス目のまま）。"},
    "kiriai.ev.stance": {"en": "{who} takes the {stance}.", "ja": "{who}は{stance}になる。"},
    "kiriai.ev.hit": {"en": "{who} {card}: hit!", "ja": "{who}「{card}」：命中！"},
    "kiriai.ev.miss_range": {"en": "{who} {card}: misses (wrong distance).",
                             "ja": "{who}「{card}」：外れ（距離が合わない）。"},
    "kiriai.ev.miss_stance": {"en": "{who} {card}: fails (wrong stance).",
                              "ja": "{who}「{card}」：失敗（構えが合わない）。"},
    "kiriai.ev.counter_hit": {"en": "{who} counterattacks: the strike is turned back!",
                              "ja": "{who}の反撃：相手の打撃を返した！"},
    "kiriai.ev.counter_miss": {"en": "{who} counterattacks, but there is nothing to answer.",
                               "ja": "{who}の反撃：返す打撃がなく不発。"},
    "kiriai.ev.clash": {"en": "Both strikes land and cancel out.",
                        "ja": "両者の打撃が命中し、相殺。"},
    "kiriai.ev.wound": {"en": "{who} is wounded ({n}/2).", "ja": "{who}が負傷（{n}/2）。"},
    "kiriai.ev.aside": {"en": "{who} sets {card} aside.", "ja": "{who}は「{card}」を休ませる。"},
    "kiriai.ev.end_wounds": {"en": "{who} falls. {winner} wins the duel.",
                             "ja": "{who}が倒れた。{winner}の勝ち。"},
    "kiriai.ev.end_limit": {"en": "Round limit reached: draw.",
                            "ja": "ラウンド上限に達したため引き分け。"},
    "kiriai.reason_wounds": {"en": "{who} took a second wound.",
                             "ja": "{who}が2回目の傷を受けた。"},
    "kiriai.reason_limit": {"en": "The round limit was reached.",
                            "ja": "ラウンド上限に達した。"},
    # Card rules text (our own words).
    "kiriai.card.A": {"en": "Move 1 toward your opponent.", "ja": "相手に向かって1マス進む。"},
    "kiriai.card.R": {"en": "Move 1 back toward your end.", "ja": "自陣側へ1マス下がる。"},
    "kiriai.card.C": {"en": "Move 2 toward your opponent.", "ja": "相手に向かって2マス進む。"},
    "kiriai.card.S": {"en": "Switch between Heaven and Earth.", "ja": "天と地の構えを入れ替える。"},
    "kiriai.card.H": {"en": "Hits at distance 2. Heaven only.", "ja": "距離2で命中。天の構えのみ。"},
    "kiriai.card.L": {"en": "Hits at distance 1. Earth only.", "ja": "距離1で命中。地の構えのみ。"},
    "kiriai.card.B": {"en": "Hits at distance 0. Any stance.", "ja": "距離0で命中。構えは問わない。"},
    "kiriai.card.K": {"en": "Hits at distance 0–1. Heaven only; then you take Earth. Once.",
                      "ja": "距離0〜1で命中。天のみ。攻撃後は地の構えに。1回限り。"},
    "kiriai.card.Z": {"en": "Hits at distance 2–3. Earth only; then you take Heaven. Once.",
                      "ja": "距離2〜3で命中。地のみ。攻撃後は天の構えに。1回限り。"},
    "kiriai.card.X": {"en": "Turns back a strike that would hit you this reveal. Once.",
                      "ja": "この公開で命中する相手の打撃を返して命中させる。1回限り。"},
    "kiriai.rules_html": {
        "en": (
            "<p>Two samurai face each other on a line of spaces (5, or 7 on the Advanced "
            "side). The first to be wounded twice loses.</p>"
            "<p><b>Each round</b> both players secretly choose two different cards: a 1st "
            "and a 2nd action. Both 1st cards are revealed and resolved together, then both "
            "2nd cards. Afterwards your 2nd card is set aside and cannot be used next round; "
            "the 1st card comes back.</p>"
            "<p><b>Movement</b> resolves before strikes, in a fixed order: a samurai in "
            "Heaven moves before one in Earth; with equal stances Charge goes before "
            "Approach/Retreat, then Change Stance. If both move at once they share the "
            "distance fairly. Samurai may share a space but never pass each other, and nobody "
            "leaves the battlefield.</p>"
            "<p><b>Strikes</b> check the distance after movement and your own stance. "
            "If exactly one strike lands, the other samurai is wounded; if both land, they "
            "cancel.</p>"
            "<p><b>Specials</b> (one each, dealt secretly, usable once): Kesa, Zan-Tetsu "
            "and Counterattack.</p>"),
        "ja": (
            "<p>一列のマスで2人の侍が向かい合います（スタンダードは5マス、アドバンスは7マス）。"
            "先に2回傷を受けた方が負けです。</p>"
            "<p><b>各ラウンド</b>、両者はこっそり別々のカードを2枚選び、1番目と2番目の行動にします。"
            "まず両者の1番目を同時に公開して解決し、次に2番目を解決します。"
            "その後2番目のカードは休み札となり次のラウンドは使えません。1番目は手札に戻ります。</p>"
            "<p><b>移動</b>は攻撃より先に、決まった順で解決します。天の構えの侍が地の構えより先に動き、"
            "構えが同じなら突撃、接近・退却、構え変更の順です。同時に動く場合は同じ距離だけ動きます。"
            "同じマスには入れますが、すれ違うことはできず、戦場の外にも出ません。</p>"
            "<p><b>打撃</b>は移動後の距離と自分の構えで判定します。片方だけ命中すれば相手が負傷し、"
            "両方命中すれば相殺です。</p>"
            "<p><b>特殊カード</b>（各自1枚を秘密に配布、1回限り）：袈裟打撃・斬鉄打撃・反撃。</p>"),
    },
}

register(STRINGS)

#: The lobby's line for this game (our own words).
BLURB = {"en": "A tense samurai duel of simultaneous secret moves. 2 players, 10 min.",
         "ja": "同時に秘密の行動を決める、緊張感ある侍の決闘。2人・10分。"}

#: Events that get their own pause when a reveal is played back step by step.
STEP_EVENTS = {"start", "reveal", "move", "stance", "strike", "counter", "clash", "wound", "end"}


def new_selection() -> dict[str, Any]:
    """The local, not-yet-confirmed choices of the player at the device."""
    return {"picks": [], "space": None, "stance": None}


def card_name(card: str, lang: str) -> str:
    return CARD_NAMES[card][lang]


def move_text(action: str, player: int, lang: str) -> str:
    """An action in a replay's move list, in words.

    >>> move_text("CB", 0, "en"), move_text("3E", 1, "en")
    ('Charge → Balanced Strike', 'Starts on space 3, Earth stance')
    """
    if action[:1].isdecimal():
        stance = t("kiriai.earth_stance" if action[1:] == "E" else "kiriai.heaven_stance", lang)
        return t("kiriai.move_setup", lang, space=action[0], stance=stance)
    return " → ".join(card_name(c, lang) for c in action)


def who(p: int, lang: str) -> str:
    return t(f"kiriai.{COLOURS[p]}", lang)


def stance_name(stance: str, lang: str) -> str:
    return t("kiriai.heaven_stance" if stance == "H" else "kiriai.earth_stance", lang)


# -- commands --------------------------------------------------------------------------
def handle(cmd: str, sel: dict[str, Any], legal: list[str],
           view: dict[str, Any] | None = None) -> str | None:
    """Apply a UI command to the selection; return an engine action once one is confirmed.

    >>> sel = new_selection()
    >>> handle("pick:C", sel, ["CB", "CH"]), handle("pick:B", sel, ["CB", "CH"])
    (None, None)
    >>> handle("confirm", sel, ["CB", "CH"])
    'CB'
    """
    name, _, arg = cmd.partition(":")
    picks = sel["picks"]
    if name == "pick" and arg in first_choices(legal, picks):
        picks.append(arg)
    elif name == "unpick" and arg.isdecimal() and int(arg) < len(picks):
        del picks[int(arg):]
    elif name == "clear":
        sel.update(new_selection())
    elif name == "space" and arg in ("2", "3", "4"):
        sel["space"] = int(arg)
    elif name == "stance" and arg in ("H", "E"):
        sel["stance"] = arg
    elif name == "confirm":
        action = pending_action(sel)
        if action in legal:
            sel.update(new_selection())
            return action
    return None


def first_choices(legal: list[str], picks: list[str]) -> set[str]:
    """Letters that may go into the next empty program slot."""
    if len(picks) >= 2:
        return set()
    prefix = "".join(picks)
    return {a[len(prefix)] for a in legal if len(a) == 2 and a.startswith(prefix)}


def pending_action(sel: dict[str, Any]) -> str | None:
    if len(sel["picks"]) == 2:
        return "".join(sel["picks"])
    if sel["space"] and sel["stance"]:
        return f"{sel['space']}{sel['stance']}"
    return None


# -- what the log says -----------------------------------------------------------------
def describe(event: dict[str, Any], lang: str, view: dict[str, Any] | None = None) -> str:
    """One engine event in words.

    >>> describe({"t": "wound", "p": 1, "wounds": 1}, "en")
    'Blue is wounded (1/2).'
    """
    kind = event["t"]
    p = event.get("p", 0)
    if kind == "round":
        return t("kiriai.ev.round", lang, n=event["n"])
    if kind == "start":
        (r, b), (rs, bs) = event["pos"], event["stance"]
        return t("kiriai.ev.start", lang, r=r, b=b, rs=stance_name(rs, lang),
                 bs=stance_name(bs, lang))
    if kind == "reveal":
        rc, bc = (card_name(c, lang) for c in event["cards"])
        return t("kiriai.ev.reveal", lang, n=event["step"], rc=rc, bc=bc)
    if kind == "move":
        key = "kiriai.ev.move" if event["from"] != event["to"] else "kiriai.ev.no_move"
        return t(key, lang, who=who(p, lang), card=card_name(event["card"], lang),
                 a=event["from"], b=event["to"])
    if kind == "stance":
        return t("kiriai.ev.stance", lang, who=who(p, lang), stance=stance_name(event["to"], lang))
    if kind == "strike":
        key = ("kiriai.ev.hit" if event["hit"] else
               "kiriai.ev.miss_stance" if event["why"] == "stance" else "kiriai.ev.miss_range")
        return t(key, lang, who=who(p, lang), card=card_name(event["card"], lang))
    if kind == "counter":
        key = "kiriai.ev.counter_hit" if event["hit"] else "kiriai.ev.counter_miss"
        return t(key, lang, who=who(p, lang))
    if kind == "clash":
        return t("kiriai.ev.clash", lang)
    if kind == "wound":
        return t("kiriai.ev.wound", lang, who=who(p, lang), n=event["wounds"])
    if kind == "aside":
        return t("kiriai.ev.aside", lang, who=who(p, lang), card=card_name(event["card"], lang))
    if kind == "end":
        if event["winner"] is None:
            return t("kiriai.ev.end_limit", lang)
        w = event["winner"]
        return t("kiriai.ev.end_wounds", lang, who=who(1 - w, lang), winner=who(w, lang))
    return kind


def result_reason(outcome: dict[str, Any], lang: str) -> str:
    if not outcome["winners"]:
        return t("kiriai.reason_limit", lang)
    return t("kiriai.reason_wounds", lang, who=who(1 - outcome["winners"][0], lang))


def step_delay(event: dict[str, Any], speed: int) -> int:
    """A reveal (and the Advanced start) gets a longer look than a single step."""
    return speed * 3 // 2 if event["t"] in ("reveal", "start") else speed


def board_at(view: dict[str, Any], log: list[dict[str, Any]],
             shown: int) -> dict[str, Any] | None:
    """The board as it stood after the first ``shown`` events (for step-by-step play)."""
    if shown >= len(log):
        return view["board"]
    board = None
    for i in range(shown - 1, -1, -1):
        event = log[i]
        if event["t"] == "reveal":
            board = {k: list(v) for k, v in event["board"].items()}
            start = i + 1
            break
        if event["t"] == "start":
            board = {"pos": list(event["pos"]), "stance": list(event["stance"]),
                     "wounds": [0, 0]}
            start = i + 1
            break
    if board is None:
        # Nothing played back yet this game: the board before the first reveal (or, on
        # the Advanced battlefield, before the start positions are revealed).
        for event in log[shown:]:
            if event["t"] == "reveal":
                return {k: list(v) for k, v in event["board"].items()}
            if event["t"] == "start":
                return {"pos": None, "stance": None, "wounds": [0, 0]}
        return view["board"]
    for event in log[start:shown]:
        if event["t"] == "move":
            board["pos"][event["p"]] = event["to"]
        elif event["t"] == "stance":
            board["stance"][event["p"]] = event["to"]
        elif event["t"] == "wound":
            board["wounds"][event["p"]] = event["wounds"]
    return board


def current_reveals(log: list[dict[str, Any]], shown: int) -> list[list[str] | None]:
    """Cards face up in the duel area among the shown events: the latest round's reveals.

    The last round's cards stay up until the next round's first reveal.
    """
    reveals: list[list[str] | None] = [None, None]
    new_round = False
    for event in log[:shown]:
        if event["t"] == "round":
            new_round = True
        elif event["t"] == "reveal":
            if new_round:
                reveals, new_round = [None, None], False
            reveals[event["step"] - 1] = event["cards"]
    return reveals


# -- rendering ---------------------------------------------------------------------------
def _card(card: str, lang: str, *, cmd: str | None = None, enabled: bool = True,
          extra: str = "", note: str | None = None) -> str:
    """A card face; a button when it carries a command. ``note`` is read to screen
    readers only (e.g. why the card cannot be used), after the visible text."""
    body = (f'<span class="glyph" aria-hidden="true">{esc(GLYPH[card])}</span>'
            f'<span class="cname">{esc(card_name(card, lang))}</span>'
            f'<span class="ctext">{esc(t("kiriai.card." + card, lang))}</span>')
    if note:
        body += f'<span class="sr-only"> ({esc(note)})</span>'
    classes = f"card {KIND[card]} {extra}".strip()
    if cmd is None:
        return f'<div class="{classes}" data-card="{card}">{body}</div>'
    disabled = "" if enabled else " disabled"
    return (f'<button type="button" class="{classes}" data-card="{card}" '
            f'data-cmd="{esc(cmd)}"{disabled}>{body}</button>')


def _card_back(extra: str = "", label: str = "") -> str:
    return f'<div class="card back {extra}" title="{esc(label)}"><span class="glyph">⚔</span></div>'


def _samurai(p: int, board: dict[str, Any], lang: str, struck: bool = False) -> str:
    stance = board["stance"][p]
    wounds = board["wounds"][p]
    injured = " injured" if wounds else ""
    injured += " struck" if struck else ""
    # The glyph already says the stance to a Japanese reader; others get the word too.
    word = "" if lang == "ja" else t("kiriai.heaven" if stance == "H" else "kiriai.earth", lang)
    pips = "".join('<i class="pip hurt"></i>' if i < wounds else '<i class="pip"></i>'
                   for i in range(2))
    label = f"{who(p, lang)}: {stance_name(stance, lang)}, {t('kiriai.wounds', lang, n=wounds)}"
    return (f'<div class="samurai {COLOURS[p]} stance-{stance}{injured}" data-player="{p}" '
            f'data-stance="{stance}" data-wounds="{wounds}" role="img" aria-label="{esc(label)}">'
            f'<span class="stance-glyph" aria-hidden="true">{"天" if stance == "H" else "地"}</span>'
            f'<span class="sname">{esc(word)}</span>'
            f'<span class="pips">{pips}</span></div>')


def _battlefield(view: dict[str, Any], board: dict[str, Any] | None, lang: str,
                 sel: dict[str, Any], setup_for: int | None, struck: int | None = None) -> str:
    size = view["size"]
    cells = []
    for space in range(1, size + 1):
        inner = ""
        classes = ["space"]
        if board and board["pos"]:
            inner = "".join(_samurai(p, board, lang, p == struck)
                            for p in (0, 1) if board["pos"][p] == space)
        if setup_for is not None:
            own = space if setup_for == 0 else size + 1 - space
            if own in (2, 3, 4):
                classes.append("zone")
                chosen = sel["space"] == own
                if chosen:
                    classes.append("chosen")
                label = t("kiriai.from_your_end", lang, n=own)
                inner += (f'<button type="button" class="zone-pick" data-cmd="space:{own}" '
                          f'aria-pressed="{str(chosen).lower()}" aria-label="{esc(label)}">'
                          f'{own}</button>')
        cells.append(f'<div class="{" ".join(classes)}" data-space="{space}">'
                     f'<span class="num">{space}</span>{inner}</div>')
    distance = ""
    if board and board["pos"]:
        d = board["pos"][1] - board["pos"][0]
        distance = f'<p class="distance" data-distance="{d}">{esc(t("kiriai.distance", lang, d=d))}</p>'
    return (f'<section class="battlefield size-{size}" aria-label="{esc(t("kiriai.battlefield", lang))}">'
            f'<div class="spaces">{"".join(cells)}</div>{distance}</section>')


def _player_panel(view: dict[str, Any], p: int, lang: str, seat: str,
                  board: dict[str, Any] | None, animating: bool = False,
                  revealed: set[str] = frozenset()) -> str:
    hand = dict(view["hands"][p])
    for card in revealed:  # a special turned up during the playback is spent from then on
        if card in SPECIALS_SET and hand["special"] is None:
            hand.update(special=card, special_spent=True)
        elif card == hand["special"]:
            hand["special_spent"] = True
    wounds = board["wounds"][p] if board else view["board"]["wounds"][p]
    seat_txt = f' <span class="seat">({esc(seat)})</span>' if seat else ""
    aside = hand["aside"]
    aside_html = (_card(HALVES[aside][0] if aside in HALVES else aside, lang, extra="mini rest")
                  if aside else f'<span class="muted">{esc(t("kiriai.none", lang))}</span>')
    if hand["special"]:
        special = _card(hand["special"], lang,
                        extra="mini spent" if hand["special_spent"] else "mini")
        if hand["special_spent"]:
            special += f'<span class="tag">{esc(t("kiriai.spent", lang))}</span>'
    else:
        special = _card_back("mini", t("kiriai.special_hidden", lang))
    ready = ""
    if view["phase"] != "over" and view["ready"][p] and not animating:
        ready = f'<span class="badge ready">✓ {esc(t("kiriai.programmed", lang))}</span>'
    return (f'<section class="panel {COLOURS[p]}" data-player="{p}">'
            f'<h2>{esc(who(p, lang))}{seat_txt} '
            f'<span class="wounds" data-wounds="{wounds}">{esc(t("kiriai.wounds", lang, n=wounds))}</span>'
            f'{ready}</h2>'
            f'<div class="row"><div><h3>{esc(t("kiriai.set_aside", lang))}</h3>{aside_html}</div>'
            f'<div><h3>{esc(t("kiriai.special", lang))}</h3>{special}</div></div></section>')


def _duel_area(view: dict[str, Any], log: list[dict[str, Any]], shown: int, lang: str,
               me: int | None, sel: dict[str, Any]) -> str:
    """Two slots per player: face down while programmed, face up as they are revealed."""
    reveals = current_reveals(log, shown)
    animating = shown < len(log)
    rows = []
    for p in (0, 1):
        # A programme face up: the viewer's own, or each seat's in a finished game's open view.
        own = (view["programs"][p] if view.get("open") and "programs" in view
               else view["mine"] if p == me else None)
        slots = []
        for step in (0, 1):
            label = t("kiriai.slot1" if step == 0 else "kiriai.slot2", lang)
            revealed = reveals[step]
            if revealed and (animating or view["phase"] == "over"):
                face = _card(revealed[p], lang, extra="mini shown")
            elif own and not animating:
                face = _card(own[step], lang, extra="mini mine")
            elif p == me and len(sel["picks"]) > step and not animating:
                face = _card(sel["picks"][step], lang, extra="mini picked")
            elif view["ready"][p] and not animating:
                face = _card_back("mini", t("kiriai.programmed", lang))
            elif revealed:
                face = _card(revealed[p], lang, extra="mini shown previous")
            else:
                face = '<div class="card empty mini"></div>'
            slots.append(f'<div class="slot" data-player="{p}" data-step="{step + 1}">'
                         f'<span class="slot-label">{esc(label)}</span>{face}</div>')
        rows.append(f'<div class="duel-row {COLOURS[p]}"><span class="duel-who">'
                    f'{esc(who(p, lang))}</span>{"".join(slots)}</div>')
    return f'<section class="duel" aria-label="{esc(t("kiriai.duel", lang))}">{"".join(rows)}</section>'


def _hand(view: dict[str, Any], me: int, legal: list[str], sel: dict[str, Any],
          lang: str) -> str:
    """The acting player's cards as buttons; only legal next picks are enabled."""
    hand = view["hands"][me]
    allowed = first_choices(legal, sel["picks"])
    used = set(sel["picks"])
    items = []
    for phys in BASE_HAND:
        halves = HALVES.get(phys, (phys,))
        resting = phys == hand["aside"]
        buttons = []
        for c in halves:
            state = " rest" if resting else " used" if c in used else ""
            note = t("kiriai.cannot_use", lang) if resting else None
            buttons.append(_card(c, lang, cmd=f"pick:{c}", enabled=c in allowed,
                                 extra=state.strip(), note=note))
        cls = "phys two" if len(halves) == 2 else "phys"
        items.append(f'<div class="{cls}" data-phys="{phys}">{"".join(buttons)}</div>')
    sp = hand["special"]
    if sp and not hand["special_spent"]:
        items.append(f'<div class="phys" data-phys="{sp}">'
                     f'{_card(sp, lang, cmd=f"pick:{sp}", enabled=sp in allowed)}</div>')
    title = (t("kiriai.hand_of", lang, who=who(me, lang)) if view.get("open")
             else t("kiriai.hand", lang))
    return (f'<section class="hand" aria-label="{esc(title)}">'
            f'<h2>{esc(title)}</h2><div class="cards">{"".join(items)}</div></section>')


def open_view(views: list[dict[str, Any]]) -> dict[str, Any]:
    """Every seat's view as one, for a finished game's open replay: each hand (its special
    card too) from its owner's view; drawn from Red's side (``open`` marks it).

    >>> import pygames
    >>> s = pygames.get_game("kiriai").new_game(seed=3)
    >>> merged = open_view([s.view(0), s.view(1)])
    >>> [h["special"] is not None for h in merged["hands"]], merged["open"]
    ([True, True], True)
    """
    merged = copy.deepcopy(views[0])
    merged["hands"] = [copy.deepcopy(v["hands"][p]) for p, v in enumerate(views)]
    merged["programs"] = [v["mine"] for v in views]  # each seat's programme, as it sees it
    merged["open"] = True
    return merged


def _program_controls(sel: dict[str, Any], legal: list[str], lang: str) -> str:
    picks = sel["picks"]
    slots = []
    for step in (0, 1):
        label = t("kiriai.slot1" if step == 0 else "kiriai.slot2", lang)
        if step < len(picks):
            text = card_name(picks[step], lang)
            slots.append(f'<button type="button" class="pslot filled" data-cmd="unpick:{step}">'
                         f'<small>{esc(label)}</small> {esc(text)}'
                         f'<span class="sr-only"> ({esc(t("clear", lang))})</span></button>')
        else:
            slots.append(f'<div class="pslot"><small>{esc(label)}</small>'
                         f'{esc(t("kiriai.slot_empty", lang))}</div>')
    ok = pending_action(sel) in legal
    return (f'<div class="controls">{"".join(slots)}'
            f'<button type="button" class="primary" data-cmd="confirm"{"" if ok else " disabled"}>'
            f'{esc(t("confirm", lang))}</button></div>')


def _setup_controls(sel: dict[str, Any], legal: list[str], lang: str) -> str:
    buttons = []
    for st in ("H", "E"):
        pressed = sel["stance"] == st
        buttons.append(f'<button type="button" class="stance-pick" data-cmd="stance:{st}" '
                       f'aria-pressed="{str(pressed).lower()}">{esc(stance_name(st, lang))}</button>')
    ok = pending_action(sel) in legal
    space = (t("kiriai.from_your_end", lang, n=sel["space"]) if sel["space"]
             else t("kiriai.slot_empty", lang))
    return (f'<div class="controls setup"><span>{esc(t("kiriai.start_space", lang))}: '
            f'<b>{esc(space)}</b></span>'
            f'<span>{esc(t("kiriai.stance", lang))}: {"".join(buttons)}</span>'
            f'<button type="button" class="primary" data-cmd="confirm"{"" if ok else " disabled"}>'
            f'{esc(t("confirm", lang))}</button></div>')


def prompt(view: dict[str, Any], me: int | None, legal: list[str], sel: dict[str, Any],
           lang: str, animating: bool, waiting_for: str,
           current: dict[str, Any] | None = None) -> str:
    if animating:  # say the step on screen now, so the playback reads by itself
        return describe(current, lang) if current else t("kiriai.resolving", lang)
    if view["phase"] == "over" or me is None:
        return ""
    name = who(me, lang)
    if not legal:  # nobody to wait for in a replay shown, not played
        return t("waiting_for", lang, who=waiting_for) if waiting_for else ""
    if view["phase"] == "setup":
        return t("kiriai.prompt_setup", lang, who=name)
    if len(sel["picks"]) == 0:
        return t("kiriai.prompt_program", lang, who=name)
    if len(sel["picks"]) == 1:
        return t("kiriai.prompt_second", lang, who=name)
    return t("kiriai.prompt_confirm", lang, who=name)


def render_table(view: dict[str, Any], legal: list[str], lang: str, *,
                 events: list[dict[str, Any]], sel: dict[str, Any] | None = None,
                 shown: int | None = None, since: int | None = None,
                 seats: tuple[str, ...] = ("", ""),
                 waiting_for: str = "", before: dict[str, Any] | None = None) -> str:
    """The whole Kiri-ai table for one viewer (``view["you"]``; None = nobody's hand shown).

    ``events`` is what this viewer knows happened (``state.events(viewer)``); ``shown``
    is how many of them have been played back (a reveal is shown step by
    step); ``seats`` labels each side (e.g. "you", "bot"); ``before`` is the view from
    before the reveal, whose panels (set-aside cards, specials, round) stay on screen
    until the playback ends.
    """
    sel = sel if sel is not None else new_selection()
    log = events
    shown = len(log) if shown is None else min(shown, len(log))
    animating = shown < len(log)
    me = view["you"]
    board = board_at(view, log, shown)
    acting = bool(legal) and not animating and me is not None
    setup_for = me if acting and view["phase"] == "setup" else None
    bottom = me if me is not None else 0
    top = 1 - bottom
    panels = before if (animating and before is not None) else view
    steps = [e for e in log[:shown] if e["t"] in STEP_EVENTS] if animating else []
    current = steps[-1] if steps else None  # the step of the playback on screen now
    revealed = [set(), set()]
    if animating:
        for cards in current_reveals(log, shown):
            for p, card in enumerate(cards or ()):
                revealed[p].add(card)
    parts = [
        _player_panel(panels, top, lang, seats[top], board, animating, revealed[top]),
        _battlefield(view, board, lang, sel, setup_for,
                     current["p"] if current and current["t"] == "wound" else None),
        # Before the first round (Advanced setup) there are no program slots to show.
        _duel_area(view, log, shown, lang, me, sel) if view["phase"] != "setup" else "",
        f'<p class="prompt" role="status" aria-live="polite" data-status>'
        f'{esc(prompt(view, me, legal, sel, lang, animating, waiting_for, current))}</p>',
    ]
    if animating:
        parts.append(f'<div class="controls"><button type="button" data-cmd="skip">'
                     f'{esc(t("skip", lang))}</button></div>')
    elif acting and view["phase"] == "setup":
        parts.append(_setup_controls(sel, legal, lang))
    elif acting:
        parts.append(_program_controls(sel, legal, lang))
    if me is not None and view["phase"] == "program" and not animating:
        parts.append(_hand(view, me, legal if acting else [], sel, lang))
    parts.append(_player_panel(panels, bottom, lang, seats[bottom], board, animating,
                               revealed[bottom]))
    round_no = (t("kiriai.setup", lang) if view["phase"] == "setup"
                else t("kiriai.round_n", lang, n=panels["round"]))
    return (f'<div class="kiriai" data-phase="{view["phase"]}" data-round="{panels["round"]}">'
            f'<p class="round">{esc(round_no)}</p>{"".join(parts)}</div>')


def rules_html(lang: str) -> str:
    cards = "".join(f"<li><b>{esc(card_name(c, lang))}</b>: {esc(t('kiriai.card.' + c, lang))}</li>"
                    for c in "ARCSHLBKZX")
    return t("kiriai.rules_html", lang) + f"<ul>{cards}</ul>"


# -- the lobby tile (pgui.lobby) ------------------------------------------------------------

#: How long a game takes, in minutes (the lobby tile says it).
PLAY_TIME = (10, 15)

#: The lobby's word for each option value that its label does not explain.
OPTION_HELP = {
    "battlefield": {
        "standard": {"en": "Both samurai start at the two ends of a short field: the quickest way "
                           "into the duel.",
                     "ja": "短い戦場の両端から始まります。すぐに斬り合いになる、まずはこちら。"},
        "advanced": {"en": "A longer field; each of you secretly picks a start space and stance "
                           "before the first round.",
                     "ja": "長い戦場。最初のラウンドの前に、開始位置と構えをそれぞれ秘密に選びます。"},
    },
    "round_limit": {
        "0": {"en": "Play on until a samurai falls, as the rules say.",
              "ja": "ルール通り、どちらかが倒れるまで続けます。"},
        "200": {"en": "A safety net for bots playing each other; people never reach it.",
                "ja": "ボット同士の対戦用の安全策です。人の対局でここまで続くことはまずありません。"},
    },
}


def thumbnail(lang: str) -> str:
    """The lobby tile's picture: the battlefield of a game a few rounds in (static SVG,
    drawn from the engine's public view; the same in both languages)."""
    import pygames

    state = pygames.get_game("kiriai").new_game(seed=3)
    for _ in range(1):  # a round: both stepped in, a strike each
        for p in state.to_move():
            legal = state.legal_actions(p)
            state.apply(p, next((a for a in legal if a.startswith(("AH", "AB", "AL"))), legal[0]))
    board = state.view(None)["board"]
    size = state.view(None)["size"]
    w, cell = 300, 300 // size
    out = [f'<svg viewBox="0 0 {w} 150" focusable="false" font-family="system-ui, sans-serif">',
           f'<rect x="0" y="18" width="{w}" height="84" rx="10" fill="#6d5a3f"/>']
    for i in range(size):
        out.append(f'<rect x="{i * cell + 4}" y="22" width="{cell - 8}" height="76" rx="6" '
                   f'fill="#d9c7a5"/>')
    fills = ("#b8322a", "#2a5a9c")
    for p in (0, 1):
        x = (board["pos"][p] - 1) * cell + cell // 2 + (12 - 24 * p) * (
            board["pos"][0] == board["pos"][1])
        glyph = "天" if board["stance"][p] == "H" else "地"
        out.append(f'<rect x="{x - 20}" y="30" width="40" height="60" rx="8" fill="{fills[p]}"/>'
                   f'<text x="{x}" y="64" font-size="22" fill="#fff" text-anchor="middle">'
                   f'{glyph}</text>')
        for k in range(2):
            hurt = k < board["wounds"][p]
            out.append(f'<circle cx="{x - 6 + 12 * k}" cy="80" r="4" '
                       f'fill="{"#111" if hurt else "#ffffffcc"}"/>')
    for p in (0, 1):  # each one's two programmed cards, face down
        for k in range(2):
            x = (20 + 44 * k) if p == 0 else (w - 104 + 44 * k)
            out.append(f'<rect x="{x}" y="112" width="38" height="34" rx="6" fill="#4c4437" '
                       f'stroke="{fills[p]}" stroke-width="3"/>')
    out.append("</svg>")
    return "".join(out)
