"""Every string the app shows, in English and Japanese.

>>> t("play", "ja")
'プレイ'
>>> t("kiriai.round_n", "en", n=3)
'Round 3'
"""

from __future__ import annotations

import html

LANGS = ("en", "ja")

STRINGS: dict[str, dict[str, str]] = {
    # -- app-wide ---------------------------------------------------------------------
    "app_name": {"en": "pygames", "ja": "pygames"},
    "tagline": {"en": "Board and card games in your browser: offline, no server, no sign-up.",
                "ja": "ブラウザで遊ぶボード・カードゲーム。オフラインでもOK、サーバーも登録も不要。"},
    "lang_switch": {"en": "日本語", "ja": "English"},
    "lang_switch_label": {"en": "Switch language to Japanese", "ja": "英語に切り替える"},
    "play": {"en": "Play", "ja": "プレイ"},
    "coming_soon": {"en": "Coming soon", "ja": "近日公開"},
    "mode": {"en": "Mode", "ja": "モード"},
    "mode_bot": {"en": "vs bot", "ja": "ボットと対戦"},
    "mode_hotseat": {"en": "Pass and play (2 players, one device)",
                     "ja": "ホットシート（1台を2人で交代）"},
    "players_n": {"en": "{n} players", "ja": "{n}人"},
    "players_range": {"en": "{a}–{b} players", "ja": "{a}〜{b}人"},
    "lobby": {"en": "Games", "ja": "ゲーム一覧"},
    "back_to_lobby": {"en": "Back to games", "ja": "ゲーム一覧へ"},
    "loading_python": {"en": "Starting Python in your browser…",
                       "ja": "ブラウザでPythonを起動しています…"},
    "bad_link": {"en": "This link names a game, mode or option that does not exist.",
                 "ja": "このリンクのゲーム・モード・オプションは存在しません。"},
    "load_failed": {"en": "The game could not start.", "ja": "ゲームを開始できませんでした。"},
    "reload": {"en": "Reload", "ja": "再読み込み"},
    "rules": {"en": "Rules summary", "ja": "ルール概要"},
    "log": {"en": "Log", "ja": "ログ"},
    "you": {"en": "you", "ja": "あなた"},
    "bot": {"en": "bot", "ja": "ボット"},
    "confirm": {"en": "Confirm", "ja": "決定"},
    "clear": {"en": "Clear", "ja": "取り消し"},
    "skip": {"en": "Skip animation", "ja": "演出をスキップ"},
    "rematch": {"en": "Rematch", "ja": "再戦"},
    "game_over": {"en": "Game over", "ja": "ゲーム終了"},
    "review_board": {"en": "Look at the board", "ja": "盤面を見る"},
    "choose_game": {"en": "Choose a game", "ja": "ゲームを選ぶ"},
    "loading_hint": {"en": "Python is loading in the background so your table opens fast.",
                     "ja": "テーブルがすぐ開くよう、裏でPythonを読み込んでいます。"},
    "offline_note": {"en": "Everything runs in this page; nothing is sent anywhere.",
                     "ja": "すべてこのページ内で動作し、どこにも送信されません。"},
    "you_win": {"en": "You win!", "ja": "あなたの勝ち！"},
    "you_lose": {"en": "You lose.", "ja": "あなたの負け。"},
    "wins": {"en": "{who} wins!", "ja": "{who}の勝ち！"},
    "draw": {"en": "Draw.", "ja": "引き分け。"},
    "error": {"en": "Error: {msg}", "ja": "エラー: {msg}"},
    "waiting_for": {"en": "Waiting for {who}…", "ja": "{who}を待っています…"},
    "handover_title": {"en": "Pass the device to {who}", "ja": "{who}に端末を渡してください"},
    "handover_body": {"en": "Only {who} should look now: the next screen shows {who}'s hand.",
                      "ja": "ここからは{who}だけが見てください。次の画面に{who}の手札が表示されます。"},
    "handover_ok": {"en": "I am {who}: show my hand", "ja": "{who}です：手札を見る"},
    "options": {"en": "Options", "ja": "オプション"},
    "start": {"en": "Start", "ja": "開始"},
    "no_js": {"en": "This game needs JavaScript and WebAssembly.",
              "ja": "このゲームにはJavaScriptとWebAssemblyが必要です。"},
    # -- Kiri-ai --------------------------------------------------------------------
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


def t(key: str, lang: str, **kwargs: object) -> str:
    """The text for ``key`` in ``lang`` (English if the language is unknown), formatted."""
    entry = STRINGS[key]
    text = entry.get(lang) or entry["en"]
    return text.format(**kwargs) if kwargs else text


def esc(text: object) -> str:
    """HTML-escape any value for text or attribute use."""
    return html.escape(str(text), quote=True)


def pick_lang(*candidates: str | None) -> str:
    """The first candidate that names a language we have (``ja-JP`` counts as ``ja``).

    >>> pick_lang(None, "fr", "ja-JP")
    'ja'
    >>> pick_lang("de")
    'en'
    """
    for c in candidates:
        if c:
            code = c.lower().split("-")[0]
            if code in LANGS:
                return code
    return "en"


def bilingual(texts: dict[str, str]) -> str:
    """Both languages as spans; CSS shows the one matching ``html[lang]`` (static pages)."""
    return "".join(f'<span lang="{lang}" class="l-{lang}">{esc(texts[lang])}</span>'
                   for lang in LANGS)


def both(key: str, **kwargs: object) -> str:
    """:func:`bilingual` for one of our strings."""
    return bilingual({lang: t(key, lang, **kwargs) for lang in LANGS})
