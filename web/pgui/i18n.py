"""Every string the app shows, in English and Japanese.

>>> t("play", "ja")
'プレイ'
>>> t("players_n", "en", n=3)
'3 players'
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
    "embed_description": {"en": "A board game record you can step through",
                          "ja": "一手ずつたどれるボードゲームの棋譜"},
    "coming_soon": {"en": "Coming soon", "ja": "近日公開"},
    "mode": {"en": "Mode", "ja": "モード"},
    "mode_bot": {"en": "vs bot", "ja": "ボットと対戦"},
    "bot_thinking": {"en": "{who} is thinking…", "ja": "{who}が考えています…"},
    "bot_level": {"en": "Bot", "ja": "ボットの強さ"},
    "level_easy": {"en": "Easy", "ja": "やさしい"},
    "level_normal": {"en": "Normal", "ja": "ふつう"},
    "level_strong": {"en": "Strong", "ja": "つよい"},
    "your_seat": {"en": "You play", "ja": "あなたの手番"},
    "seat_0": {"en": "First player", "ja": "先手（1人目）"},
    "seat_1": {"en": "Second player", "ja": "後手（2人目）"},
    "seat_random": {"en": "Random", "ja": "ランダム"},
    "mode_link": {"en": "Play a friend (send a link)", "ja": "友だちと対戦（リンクを送る）"},
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
    "undo": {"en": "Undo", "ja": "取り消す"},
    "undo_label": {"en": "Take back your last action", "ja": "直前の行動を取り消す"},
    "rematch": {"en": "Rematch", "ja": "再戦"},
    "game_over": {"en": "Game over", "ja": "ゲーム終了"},
    "review_board": {"en": "Look at the board", "ja": "盤面を見る"},
    "choose_game": {"en": "Choose a game", "ja": "ゲームを選ぶ"},
    "how_to_play": {"en": "How to play", "ja": "遊び方"},
    "how_to_play_label": {"en": "How to play {game} (rules with live boards)",
                          "ja": "{game}の遊び方（動く盤面つきのルール説明）"},
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
    # Load progress while the Python worker starts (glue.js shows one stage at a time).
    "load_stage_page": {"en": "Preparing the page…", "ja": "ページを準備しています…"},
    "load_stage_runtime": {"en": "Loading the Python runtime (Pyodide)…",
                           "ja": "Python実行環境（Pyodide）を読み込んでいます…"},
    "load_stage_games": {"en": "Loading the games…", "ja": "ゲームを読み込んでいます…"},
    "load_stage_ready": {"en": "Ready.", "ja": "準備完了。"},
    # -- Kiri-ai and every other game: their strings live in pgui/<id>_ui.py (STRINGS)
    # and join this table through register().
}


def register(strings: dict[str, dict[str, str]]) -> None:
    """Add a game UI module's strings (keys prefixed by its game id) to :data:`STRINGS`."""
    for key, entry in strings.items():
        if key in STRINGS and STRINGS[key] is not entry and STRINGS[key] != entry:
            raise ValueError(f"string {key!r} is defined twice")
        STRINGS[key] = entry


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
