"""Every string the app shows, in English and Japanese.

>>> t("play", "ja")
'プレイ'
>>> t("players_n", "en", n=3)
'3 players'
"""

from __future__ import annotations

import html
import re

LANGS = ("en", "ja")

STRINGS: dict[str, dict[str, str]] = {
    # Japanese glossary (one word for one thing, everywhere, the games' strings too):
    #   record 記録 (the text or file of a game; never 棋譜)   replay リプレイ (to replay: 再生)
    #   game (one play) 対局   move 手 (nth: {n}手目)   turn 手番   first/second player 先手/後手
    #   opponent 対戦相手   pass and play 1台で交代   link play (a friend) 友だちと対戦
    #   spectator 観戦者 (watching: 観戦)   perspective 視点   bot ボット (its level: 強さ)
    #   hand 手札   log ログ   the game list (lobby) ゲーム一覧   device 端末
    # Buttons are verbs or short nouns without 。; sentences end in 。; a colon after
    # Japanese is ：, brackets are 「」 and （）, numbers are half-width (1手ずつ).
    # -- app-wide ---------------------------------------------------------------------
    "app_name": {"en": "pygames", "ja": "pygames"},
    "tagline": {"en": "Board and card games in your browser: offline, no server, no sign-up.",
                "ja": "ブラウザですぐ遊べるボードゲーム＆カードゲーム。登録もサーバーも不要で、"
                      "オフラインでも遊べます。"},
    "lang_switch": {"en": "日本語", "ja": "English"},
    "lang_switch_label": {"en": "Switch the language to Japanese", "ja": "英語表示に切り替える"},
    "play": {"en": "Play", "ja": "プレイ"},
    "embed_description": {"en": "A board game record you can step through",
                          "ja": "1手ずつ進めて見られるボードゲームの記録"},
    "coming_soon": {"en": "Coming soon", "ja": "近日公開"},
    "mode": {"en": "Mode", "ja": "モード"},
    "mode_bot": {"en": "vs bot", "ja": "ボットと対戦"},
    "bot_thinking": {"en": "{who} is thinking…", "ja": "{who}が考え中…"},
    "bot_level": {"en": "Bot", "ja": "ボットの強さ"},
    "level_easy": {"en": "Easy", "ja": "やさしい"},
    "level_normal": {"en": "Normal", "ja": "ふつう"},
    "level_strong": {"en": "Strong", "ja": "つよい"},
    "your_seat": {"en": "You play", "ja": "あなたの手番"},
    "seat_0": {"en": "First player", "ja": "先手"},
    "seat_1": {"en": "Second player", "ja": "後手"},
    "seat_random": {"en": "Random", "ja": "ランダム"},
    "mode_link": {"en": "Play a friend (send a link)", "ja": "友だちと対戦（リンクを送る）"},
    "mode_hotseat": {"en": "Pass and play (2 players, one device)",
                     "ja": "1台で交代（2人で1台の端末を渡し合って遊ぶ）"},
    "players_n": {"en": "{n} {n|player|players}", "ja": "{n}人"},
    # Seats of a game for more than two (the lobby's per-seat choices; pgui.table SEAT_KINDS).
    "players": {"en": "Players", "ja": "人数"},
    "seats_legend": {"en": "Who plays", "ja": "だれが遊ぶか"},
    "seat_n": {"en": "Player {n}", "ja": "プレイヤー{n}"},
    "seat_you": {"en": "You", "ja": "あなた"},
    "seat_here": {"en": "A person here (pass and play)", "ja": "この端末の別の人（交代で遊ぶ）"},
    "seat_bot": {"en": "Bot: {level}", "ja": "ボット：{level}"},
    "seat_link": {"en": "A friend by link", "ja": "リンクで友だち"},
    "seats_you_note": {"en": "Choose “You” for exactly one player.",
                       "ja": "「あなた」はちょうど1人のプレイヤーに選んでください。"},
    "seats_link_note": {"en": "Friends by link play with you and bots, not with a person "
                              "here: choose one or the other.",
                        "ja": "リンクの友だちは、あなたとボットとだけ一緒に遊べます。"
                              "この端末の別の人とは一緒にできません：どちらかを選んでください。"},
    "plan_players": {"en": "{n} players", "ja": "{n}人"},
    "plan_you": {"en": "you", "ja": "あなた"},
    "plan_here": {"en": "a person here", "ja": "この端末の人"},
    "plan_bot_level": {"en": "{level} bot", "ja": "ボット（{level}）"},
    "plan_link_seat": {"en": "a friend by link", "ja": "リンクの友だち"},
    "record_you": {"en": "You", "ja": "あなた"},
    "record_here": {"en": "Player {n}", "ja": "プレイヤー{n}"},
    "record_bot": {"en": "Bot ({level})", "ja": "ボット（{level}）"},
    "players_range": {"en": "{a}–{b} players", "ja": "{a}〜{b}人"},
    "lobby": {"en": "Games", "ja": "ゲーム一覧"},
    "back_to_lobby": {"en": "Back to the games", "ja": "ゲーム一覧に戻る"},
    "loading_python": {"en": "Getting the game ready…", "ja": "ゲームを準備中…"},
    "bad_link": {"en": "This link names a game, mode or option that does not exist.",
                 "ja": "このリンクのゲーム・モード・オプションは存在しません。"},
    "bad_link_other": {"en": "This link cannot be opened", "ja": "このリンクは開けません"},
    "load_failed": {"en": "The game could not start", "ja": "ゲームを起動できませんでした"},
    "reload": {"en": "Reload", "ja": "再読み込み"},
    "open_in_app": {"en": "Open in pygames", "ja": "pygames で開く"},
    "rules": {"en": "Rules summary", "ja": "ルールのまとめ"},
    "log": {"en": "Log", "ja": "ログ"},
    "you": {"en": "you", "ja": "あなた"},
    "bot": {"en": "bot", "ja": "ボット"},
    "confirm": {"en": "Confirm", "ja": "決定"},
    "clear": {"en": "Clear", "ja": "選び直す"},
    "skip": {"en": "Skip animation", "ja": "演出をスキップ"},
    "undo": {"en": "Undo", "ja": "取り消す"},
    "undo_label": {"en": "Take back your last action", "ja": "直前の行動を取り消す"},
    "rematch": {"en": "Rematch", "ja": "もう一度対戦"},
    "game_over": {"en": "Game over", "ja": "ゲーム終了"},
    "review_board": {"en": "Look at the board", "ja": "盤面を見る"},
    "choose_game": {"en": "Choose a game", "ja": "ゲームを選ぶ"},
    "how_to_play": {"en": "How to play", "ja": "遊び方"},
    # The lobby tile: its line says what Play will start; Change opens the settings.
    "minutes": {"en": "{a}–{b} min", "ja": "{a}〜{b}分"},
    "minutes_n": {"en": "{n} min", "ja": "{n}分"},
    "plan_bot": {"en": "vs bot", "ja": "ボットと対戦"},
    "plan_hotseat": {"en": "Pass and play", "ja": "1台で交代"},
    "plan_link": {"en": "Play a friend", "ja": "友だちと対戦"},
    "plan_level": {"en": "{level}", "ja": "強さ：{level}"},
    "plan_seat_0": {"en": "you go first", "ja": "あなたが先手"},
    "plan_seat_1": {"en": "you go second", "ja": "あなたが後手"},
    "plan_seat_random": {"en": "seats drawn at random", "ja": "先手・後手はランダム"},
    "plan_option": {"en": "{label}: {value}", "ja": "{label}は{value}"},
    "setup_change": {"en": "Change", "ja": "変更"},
    "setup_change_sr": {"en": " how to play {game}: mode, bot and options",
                        "ja": "（{game}のモード・ボット・オプション）"},
    "setup_title": {"en": "{game}: set up your game", "ja": "{game}の対局設定"},
    "setup_close": {"en": "Close", "ja": "閉じる"},
    "setup_done": {"en": "Done", "ja": "完了"},
    "how_to_play_label": {"en": "How to play {game} (rules with live boards)",
                          "ja": "{game}の遊び方（盤面を動かして確かめられるルール説明）"},
    "loading_hint": {"en": "The games load in the background so your table opens fast.",
                     "ja": "すぐに遊べるよう、ゲームを裏で読み込んでいます。"},
    "offline_note": {"en": "Everything runs in this page; nothing is sent anywhere.",
                     "ja": "すべてこのページの中で動き、データはどこにも送信されません。"},
    "you_win": {"en": "You win!", "ja": "あなたの勝ち！"},
    "you_lose": {"en": "You lose.", "ja": "あなたの負け。"},
    "wins": {"en": "{who} wins!", "ja": "{who}の勝ち！"},
    "draw": {"en": "Draw.", "ja": "引き分け。"},
    "error": {"en": "Error: {msg}", "ja": "エラー：{msg}"},
    "waiting_for": {"en": "Waiting for {who}…", "ja": "{who}の手番を待っています…"},
    "handover_title": {"en": "Pass the device to {who}", "ja": "{who}に端末を渡してください"},
    "handover_body": {"en": "Only {who} should look now: the next screen shows {who}'s hand.",
                      "ja": "{who}以外の人は画面を見ないでください。次の画面に{who}の手札が表示されます。"},
    "handover_ok": {"en": "I am {who}: show my hand", "ja": "{who}です。手札を表示"},
    "options": {"en": "Options", "ja": "オプション"},
    "start": {"en": "Start", "ja": "開始"},
    "no_js": {"en": "This game needs JavaScript and WebAssembly.",
              "ja": "このゲームで遊ぶには、JavaScriptとWebAssemblyを有効にしてください。"},
    # Load progress while the Python worker starts (glue.js shows one stage at a time).
    "load_stage_page": {"en": "Preparing the page…", "ja": "ページを準備中…"},
    "load_stage_runtime": {"en": "Loading the game engine…", "ja": "ゲームエンジンを読み込み中…"},
    "load_stage_games": {"en": "Loading the games…", "ja": "ゲームを読み込み中…"},
    "load_stage_ready": {"en": "Ready.", "ja": "準備完了！"},
    # What is wrong with a link (LinkProblem): each names the actual problem.
    "problem.game": {"en": "There is no game called “{value}” (the games: {games}).",
                     "ja": "「{value}」というゲームはありません（遊べるゲーム：{games}）。"},
    "problem.option_value": {"en": "The option “{name}” cannot be “{value}”: {reason}.",
                             "ja": "オプション「{name}」を「{value}」にはできません：{reason}。"},
    "problem.tool": {"en": "This game has no page called “{value}”.",
                     "ja": "このゲームに「{value}」というページはありません。"},
    "problem.mode": {"en": "There is no mode called “{value}”.",
                     "ja": "「{value}」というモードはありません。"},
    "problem.option": {"en": "The option “{name}” cannot be “{value}”.",
                       "ja": "オプション「{name}」に「{value}」は指定できません。"},
    "problem.bot": {"en": "There is no bot level “{value}” (easy, normal or strong).",
                    "ja": "ボットの強さに「{value}」は指定できません（easy・normal・strongのどれか）。"},
    "problem.seat": {"en": "The seat must be 0 (first), 1 (second) or random, not “{value}”.",
                     "ja": "手番には0（先手）・1（後手）・「random」のどれかを指定します"
                           "（「{value}」は指定できません）。"},
    "problem.players": {"en": "{game} is for {a} to {b} players, not “{value}”.",
                        "ja": "{game}は{a}〜{b}人で遊びます（「{value}」人は指定できません）。"},
    "problem.seats_token": {
        "en": "There is no seat “{value}” (you, here, easy, normal, strong or link).",
        "ja": "席に「{value}」は指定できません（you・here・easy・normal・strong・linkのどれか）。"},
    "problem.seats_count": {"en": "{players} players need {players} seats, not {n}.",
                            "ja": "{players}人なら席も{players}つです（{n}つではなく）。"},
    "problem.seats_you": {"en": "Exactly one seat must be “you”, not {n}.",
                          "ja": "「you」の席はちょうど1つです（{n}つではなく）。"},
    "problem.seats_link": {
        "en": "Link play needs at least one friend by link (link), and no person here "
              "(here): friends by link play with you and bots.",
        "ja": "リンク対戦には、リンクの友だち（link）が少なくとも1人必要で、この端末の別の人"
              "（here）は入れられません。リンクの友だちは、あなたとボットと一緒に遊びます。"},
    "problem.switch": {"en": "“{name}” must be on or off, not “{value}”.",
                       "ja": "「{name}」はonかoffです（「{value}」は指定できません）。"},
    "problem.no_record": {
        "en": "This link carries no record. Open a finished game's replay from its game-over "
              "screen, or paste a record into “Open a record”.",
        "ja": "このリンクには記録が入っていません。対局の終了画面から再生するか、"
              "「記録を開く」に記録を貼り付けてください。"},
    "problem.other_game": {"en": "This record is a game of {named}, not of {game}.",
                           "ja": "この記録は{game}ではなく{named}の対局です。"},
    "problem.ply": {"en": "This record has {total} {total|move|moves}: there is no move {ply}.",
                    "ja": "この記録は{total}手までです。{ply}手目はありません。"},
    "problem.ply_text": {"en": "The move number must be a number or “last”, not “{value}”.",
                         "ja": "手数には数字か「last」を指定します（「{value}」は指定できません）。"},
    "problem.perspective": {
        "en": "There is no perspective “{value}” (a seat's number, spectator or open).",
        "ja": "視点に「{value}」は指定できません（席の番号・「spectator」・「open」のどれか）。"},
    "problem.moves": {"en": "The move list can be right, bottom or off, not “{value}”.",
                      "ja": "手順の表示は「right」・「bottom」・「off」のどれかです"
                            "（「{value}」は指定できません）。"},
    # -- Kiri-ai and every other game: their strings live in pgui/<id>_ui.py (STRINGS)
    # and join this table through register().
}


def register(strings: dict[str, dict[str, str]]) -> None:
    """Add a game UI module's strings (keys prefixed by its game id) to :data:`STRINGS`."""
    for key, entry in strings.items():
        if key in STRINGS and STRINGS[key] is not entry and STRINGS[key] != entry:
            raise ValueError(f"string {key!r} is defined twice")
        STRINGS[key] = entry


#: ``{n|card|cards}`` in a string: the singular when the argument ``n`` is 1, else the plural.
PLURAL = re.compile(r"\{(\w+)\|([^{}|]*)\|([^{}|]*)\}")


def t(key: str, lang: str, **kwargs: object) -> str:
    """The text for ``key`` in ``lang`` (English if the language is unknown), formatted.

    >>> t("players_n", "en", n=1), t("players_n", "en", n=2)
    ('1 player', '2 players')
    """
    entry = STRINGS[key]
    text = entry.get(lang) or entry["en"]
    if kwargs and "|" in text:
        text = PLURAL.sub(lambda m: m.group(2) if kwargs.get(m.group(1)) == 1 else m.group(3),
                          text)
    return text.format(**kwargs) if kwargs else text


class LinkProblem(ValueError):
    """What is wrong with a link's query, said in the player's language
    (``problem.<code>`` in :data:`STRINGS`).

    >>> LinkProblem("seat", value="7").message("en")
    'The seat must be 0 (first), 1 (second) or random, not “7”.'
    """

    def __init__(self, code: str, **values: object) -> None:
        self.code, self.values = code, values
        super().__init__(self.message("en"))

    def message(self, lang: str) -> str:
        values = {k: (v.get(lang, v.get("en")) if isinstance(v, dict) else v)
                  for k, v in self.values.items()}
        return t(f"problem.{self.code}", lang, **values)


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
