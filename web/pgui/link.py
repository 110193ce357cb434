"""Link play: this device's seat of a game played with a friend over a link (or nobody's
seat: a spectator's page).

:class:`LinkTable` is a :class:`pgui.table.Table` whose seat comes from a session of
:mod:`pygames.session` instead of an engine state on this device: the host's browser holds
a :class:`~pygames.session.Host` (the authoritative state), a guest's browser a
:class:`~pygames.session.Guest` (only its own seat's view, legal actions and events), a
spectator's a :class:`~pygames.session.Spectator` (only nobody's view and events). The
same game UI modules draw them all, from the same protocol calls.

Nothing here touches a network: the page's glue (``peer.js`` on the main thread, WebRTC
and the signaling relay) hands every connection event and message in through
:meth:`LinkTable.peer_event` (``open``, ``message``, ``close``: :meth:`~LinkTable.peer_open`,
:meth:`~LinkTable.peer_message`, :meth:`~LinkTable.peer_close`; ``status``:
:meth:`~LinkTable.set_status`; ``path``, ``signal``, ``nopath``, ``rejected``: below) and
sends what :meth:`LinkTable.take_outbox` returns.

The link
--------

The host's table is ``play.html?game=<id>&mode=link&<options>``; it draws a room id and a
key and puts them in the URL fragment (``#r=<room>&k=<key>``), which no server ever sees.
The invite is ``play.html?game=<id>&mode=join&<options>#r=<room>&k=<key>`` (the game and
options in its query only say what the guest is invited to; the host's ``state`` message
is what counts). The key never leaves the browsers: web/peer.js seals every signaling
message under a key derived from it (AES-GCM), so a relay or broker sees ciphertext only
and cannot put itself in between.
A fragment may also carry ``ice`` (ICE servers for this link) and ``b`` (base64url of a
JSON list of signaling brokers' URLs for this link), both passed on untouched to the
invites, the spectator link, the host's own address and :meth:`LinkTable.peer_info`
(``ice``, ``brokers``), and, for the copy-and-paste flow with no relay, ``o`` (the host's
whole offer).

Spectators
----------

The host's table shows a *spectator link* beside the invite (and, during the game, in its
side panel: ``[data-watch-link]``, a copy button, and how many watch now,
``[data-watching=<n>]``): ``play.html?game=<id>&mode=watch&<options>#r=<room>&w=<watch
key>`` (with the link's ``ice`` and ``b``). The watch key is :func:`watch_key` of the
players' key: peer.js derives the spectators' signaling from it (the host's
``peer_info()["watch"]``), and a spectator holding it cannot get the players' key back.
A spectator's page (``mode=watch``, role ``watch``) connects at once, with no Join to
press, and draws the game from nobody's view with no action to take, under a "You are
watching" line, with the log and the game-over screen (no record: it holds every hidden
card); it keeps nothing, so a reload simply watches again. On the host, peer.js names a
spectator's connection ``w-...`` (a guest's never starts so): such a connection is a
spectator's from its first event (:meth:`pygames.session.Host.add_watcher`), never gets a
seat, and is not the game's connection in the host's status line.

What peer.js says of the connection (:meth:`LinkTable.peer_event`): ``path`` (a
connection goes ``direct`` or through a ``turn`` relay: the status line says which once
connected, ``data-path``), ``signal`` (JSON ``{"via": "relay"|"broker"|"none", "host"}``:
how the browsers look for each other, said while not connected, ``data-signal``),
``nopath`` (no direct path in time: a hint of what to try, ``[data-nopath]``, until
``clear`` or connected) and ``rejected`` (signaling messages dropped as forged or
replayed: ``data-rejected``).

Connection states (``<html data-peer>``, the status line's ``data-status``): ``waiting``
(no friend yet, or the guest has not pressed Join), ``connecting``, ``connected``, ``reconnecting`` (was connected, trying
again), ``lost``.

Several friends
---------------

A game for more than two names its seats (``seats=you,link,link,strong``: :class:`LinkTable`'s
``seats``): each ``link`` is a friend, each bot level a bot that the host's page plays (its
moves made from its own seat's view, a slice at a time like local play's bots, and played
to the guests as the host's own are). Each friend's seat has its own invite, labelled by
the seat's name (the UI module's ``seat_name(seat, view, lang)`` if it has one, else
"Player N"): the fragment adds ``s=<seat>`` (``#r=<room>&k=<key>&s=<seat>``), the guest's
``join`` asks for that seat, and a browser whose seat another has taken is told so. The
classic two-player link (``you,link``) keeps its invite without ``s``. On the host, each
friend's seat shows its connection (``<html data-peer-<seat>>``: ``waiting``,
``connected``, ``reconnecting``, ``lost``, or ``bot`` once a bot plays it), and a seat
whose friend is gone offers a button (``data-cmd="seat_bot:<seat>"``) that gives it to a bot
(:meth:`pygames.session.Host.hand_to_bot`): the game goes on, and the friend coming back
is told a bot has the seat.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import re
import secrets
import time
from typing import Any
from urllib.parse import quote

from pygames import IllegalAction, get_game
from pygames.bots import LEVELS, RandomBot, SearchBot
from pygames.session import Guest, Host, Send, Spectator

from . import i18n, link_seat_words, ui_module
from .i18n import esc, t
from .table import Table

#: Connection states, as ``<html data-peer>`` shows them.
STATUSES = ("waiting", "connecting", "connected", "reconnecting", "lost")
ROOM_RE = re.compile(r"^[A-Za-z0-9_-]{8,64}$")
KEY_RE = re.compile(r"^[A-Za-z0-9_-]{16,64}$")
#: A guest that has heard nothing for this long asks the host to check it is up to date.
POLL_AFTER = 10.0
#: A guest that has heard nothing for this long pings the host (who answers): the data
#: channel's liveness, which the page's glue reads to say "connected" or "reconnecting".
PING_AFTER = 2.0
#: How long a guest whose game is over waits for the host's end message before it shows
#: the game as not verified (a real end message arriving later is still checked).
END_WAIT = 20.0
TOKEN_RE = re.compile(r"^[0-9a-f]{32}$")
#: A per-link list of signaling brokers (the fragment's ``b``: base64url of a JSON list of
#: URLs), passed on untouched to the invites, the spectator link and peer.js.
BROKERS_RE = re.compile(r"^[A-Za-z0-9_-]{1,4096}$")
#: The host's connections that peer.js let in with the spectator link's key.
WATCHER_PREFIX = "w-"
#: The paths a connection may take (peer.js: ``path``), the ways to find the other browser
#: (``signal``).
PATHS = ("direct", "turn")
SIGNALS = ("relay", "broker", "none")
#: The level of a bot the host gives a gone friend's seat to.
HAND_LEVEL = "normal"
#: Per-seat connection states (``<html data-peer-<seat>>``, the host's).
SEAT_STATUSES = ("waiting", "connected", "reconnecting", "lost", "bot")

STRINGS: dict[str, dict[str, str]] = {
    "link_title": {"en": "Play a friend", "ja": "友だちと対戦"},
    "link_send": {"en": "Send your friend this link. The game starts as soon as they open it and press Join.",
                  "ja": "このリンクを友だちに送ってください。友だちが開いて「参加」を押すとゲームが始まります。"},
    "link_copy": {"en": "Copy link", "ja": "リンクをコピー"},
    "link_copied": {"en": "Copied", "ja": "コピーしました"},
    "link_share": {"en": "Share…", "ja": "共有…"},
    "link_qr": {"en": "Or scan this code with your friend's phone.",
                "ja": "または友だちのスマートフォンでこのコードを読み取ってください。"},
    "link_invited": {"en": "You are invited to play {game}", "ja": "{game}に招待されています"},
    "link_game": {"en": "Game", "ja": "ゲーム"},
    "link_options": {"en": "Options", "ja": "オプション"},
    "link_host": {"en": "Host", "ja": "ホスト"},
    "link_host_is": {"en": "The friend who sent you this link (they keep the game on their device).",
                     "ja": "このリンクを送ってくれた友だち（ゲームは友だちの端末で管理されます）。"},
    "link_join": {"en": "Join", "ja": "参加する"},
    "link_room": {"en": "Room", "ja": "ルーム"},
    "status_waiting_host": {"en": "Waiting for your friend to open the link…",
                            "ja": "友だちがリンクを開くのを待っています…"},
    "status_waiting_guest": {"en": "Not connected yet: press Join.", "ja": "まだ接続していません：「参加」を押してください。"},
    "status_connecting": {"en": "Connecting…", "ja": "接続しています…"},
    "status_connected": {"en": "Connected to your friend", "ja": "友だちと接続中"},
    "status_reconnecting": {"en": "Connection lost: reconnecting…", "ja": "接続が切れました：再接続しています…"},
    "status_lost": {"en": "Cannot reach your friend. The game is kept: it goes on when you are both back.",
                    "ja": "友だちにつながりません。ゲームは保存されています。二人とも戻れば続きから再開します。"},
    "link_starting": {"en": "Connected: the game is starting…", "ja": "接続しました：ゲームを開始しています…"},
    "link_taken": {"en": "This seat is taken: someone else has already joined this game.",
                   "ja": "この席は埋まっています：すでに別の人がこのゲームに参加しています。"},
    "link_moved": {"en": "This game is now open in another tab or window: go on playing there.",
                   "ja": "このゲームは別のタブまたはウィンドウで開かれています。そちらで続けてください。"},
    "link_seat_moved": {"en": "Your seat has moved to another browser or device: go on playing there.",
                        "ja": "あなたの席は別のブラウザまたは端末に移りました。そちらで続けてください。"},
    "link_move": {"en": "Continue on another device", "ja": "別の端末で続ける"},
    "link_move_help": {"en": "Open this link in the other browser (or scan the code with the other phone) to take your seat there; this page then stops. Keep it to yourself: whoever opens it gets your seat.",
                       "ja": "もう一方のブラウザでこのリンクを開く（または別のスマートフォンでコードを読み取る）と、席がそちらに移り、このページは止まります。このリンクは他の人に渡さないでください。開いた人があなたの席を受け取ります。"},
    "link_move_show": {"en": "Show my seat's link", "ja": "自分の席のリンクを表示"},
    "link_move_label": {"en": "Your seat's link", "ja": "あなたの席のリンク"},
    "link_move_qr": {"en": "Scan with the other device to continue there.",
                     "ja": "別の端末で読み取ると、そちらで続けられます。"},
    "link_continue": {"en": "Continue your game of {game} on this device",
                      "ja": "{game}の対局をこの端末で続ける"},
    "link_continue_help": {"en": "This link carries your seat from another browser. Press Continue to take it here; the other page stops.",
                           "ja": "このリンクには別のブラウザでのあなたの席が入っています。「続ける」を押すとこちらに移り、もう一方のページは止まります。"},
    "link_continue_btn": {"en": "Continue", "ja": "続ける"},
    "link_bad": {"en": "This invitation link is incomplete or damaged: ask your friend to send it again.",
                 "ja": "この招待リンクは不完全か壊れています。友だちにもう一度送ってもらってください。"},
    "link_friend": {"en": "friend", "ja": "友だち"},
    "link_host_error": {"en": "Your friend's app refused a message: {msg}",
                        "ja": "友だちのアプリがメッセージを拒否しました：{msg}"},
    "link_rematch_wait": {"en": "Your friend (the host) can start a rematch.",
                          "ja": "再戦はホストの友だちが開始できます。"},
    "link_checking": {"en": "Checking the finished game…", "ja": "終わったゲームを検証しています…"},
    "link_verified": {"en": "Verified: the deal was fair and every choice and view matched the game's record.",
                      "ja": "検証済み：配り方は公正で、すべての選択と表示がゲームの記録と一致しました。"},
    "link_not_verified": {"en": "Not verified. What did not match:", "ja": "検証できませんでした。一致しなかった点："},
    "link_host_checks": {"en": "Your friend's browser now checks the finished game against its own engine.",
                         "ja": "友だちのブラウザが、終わったゲームを自分のエンジンで検証します。"},
    "link_manual": {"en": "No connection? Connect by copy and paste", "ja": "つながらない場合：コピー＆ペーストで接続"},
    "link_manual_help": {"en": "Works with no server: make a code, send it to your friend (any chat app), and paste back the answer code they get.",
                         "ja": "サーバーなしで使えます。コードを作って友だちに送り（どのチャットアプリでも可）、友だちに表示される返信コードをここに貼り付けてください。"},
    "link_manual_make": {"en": "Make a connection code", "ja": "接続コードを作る"},
    "link_manual_making": {"en": "Making the code…", "ja": "コードを作っています…"},
    "link_manual_offer": {"en": "Connection link for your friend", "ja": "友だちに送る接続リンク"},
    "link_manual_answer_in": {"en": "Your friend's answer code", "ja": "友だちからの返信コード"},
    "link_manual_connect": {"en": "Connect", "ja": "接続する"},
    "link_manual_answer": {"en": "Send this answer code back to your friend. The game starts when they paste it.",
                           "ja": "この返信コードを友だちに送り返してください。友だちが貼り付けるとゲームが始まります。"},
    "link_manual_answer_label": {"en": "Your answer code", "ja": "あなたの返信コード"},
    "link_bad_code": {"en": "That code is not a whole connection code: copy it again, all of it.",
                      "ja": "そのコードは接続コードとして不完全です。もう一度すべてコピーしてください。"},
    "link_copy_code": {"en": "Copy code", "ja": "コードをコピー"},
    "link_keep": {"en": "Save my part of the game (file)", "ja": "自分側の記録を保存（ファイル）"},
    "link_keep_help": {"en": "If your friend is gone for good, this file keeps everything your seat saw and chose.",
                       "ja": "友だちが戻らないときのために、あなたの席で見たことと選んだことをすべてファイルに残せます。"},
    "link_title_many": {"en": "Play friends", "ja": "友だちと対戦"},
    "link_send_many": {"en": "Send each friend the link of their own seat. The game starts once every friend has opened theirs and pressed Join.",
                       "ja": "友だち一人ひとりに、その人の席のリンクを送ってください。全員がリンクを開いて「参加」を押すとゲームが始まります。"},
    "link_invite_for": {"en": "Invite for {seat}", "ja": "{seat}の招待"},
    "link_qr_seat": {"en": "Or scan this code with the phone of the friend who plays {seat}.",
                     "ja": "または{seat}を遊ぶ友だちのスマートフォンでこのコードを読み取ってください。"},
    "link_bots_here": {"en": "Played by a bot on this device: {seats}.", "ja": "この端末のボットが遊ぶ席：{seats}。"},
    "link_your_seat": {"en": "Your seat", "ja": "あなたの席"},
    "link_taken_seat": {"en": "The seat of {seat} is taken: someone else has already joined as {seat}. Ask your friend for your own seat's link.",
                        "ja": "{seat}の席は埋まっています：すでに別の人が{seat}として参加しています。あなたの席のリンクを友だちに送ってもらってください。"},
    "link_replaced": {"en": "The host gave your seat to a bot while you were away: the game goes on without you.",
                      "ja": "あなたが離れている間に、ホストがあなたの席をボットに任せました。ゲームはあなた抜きで続きます。"},
    "link_seats": {"en": "Friends at this table", "ja": "この対局の友だち"},
    "link_seat_waiting": {"en": "waiting for them to join", "ja": "参加待ち"},
    "link_seat_joined": {"en": "joined", "ja": "参加済み"},
    "link_seat_connected": {"en": "connected", "ja": "接続中"},
    "link_seat_reconnecting": {"en": "connection lost: waiting for them to come back", "ja": "接続が切れました：戻るのを待っています"},
    "link_seat_lost": {"en": "gone", "ja": "離脱"},
    "link_seat_bot": {"en": "a bot plays this seat now", "ja": "ボットが代わりに遊んでいます"},
    "link_seat_line": {"en": "{seat}: {status}", "ja": "{seat}の席：{status}"},
    "link_hand": {"en": "Let a bot play {seat}", "ja": "{seat}をボットに任せる"},
    "link_hand_help": {"en": "A friend who is gone can be replaced by a bot ({level}), so the game goes on; they cannot take the seat back.",
                       "ja": "いなくなった友だちの席はボット（{level}）に任せて、ゲームを続けられます。その友だちは席に戻れなくなります。"},
    "status_seats": {"en": "Connected to {n} of {m} friends", "ja": "友だち{m}人中{n}人と接続中"},
    "status_waiting_many": {"en": "Waiting for your friends to open their links…",
                            "ja": "友だちがリンクを開くのを待っています…"},
    "link_host_checks_many": {"en": "Each friend's browser now checks the finished game against its own engine.",
                              "ja": "友だちそれぞれのブラウザが、終わったゲームを自分のエンジンで検証します。"},
    "link_about": {"en": "About link play: what is protected", "ja": "リンク対戦について：守られること"},
    "link_about_body": {
        "en": ("The two browsers talk directly (WebRTC); a server only helps them find each other and never sees the game. "
               "The host's browser keeps the game; yours only ever receives what your seat may see. "
               "The shuffle is fair: the host commits to its secret before your browser adds its own random value, so neither can choose the deal. "
               "Simultaneous choices are sealed (committed) before either is revealed, so the host cannot answer yours. "
               "At the end your browser replays the whole game in its own engine and checks every view it was shown. "
               "What this cannot prevent: a modified host app can look at your hand during play, or quit when it is losing. "
               "A cheat is found out at the end, not prevented."),
        "ja": ("二つのブラウザは直接通信します（WebRTC）。サーバーは相手を見つける手助けをするだけで、ゲームの内容は見ません。"
               "ゲームはホストのブラウザが管理し、あなたのブラウザには自分の席から見えるものだけが届きます。"
               "シャッフルは公正です：ホストはあなたのブラウザが乱数を加える前に自分の秘密を確定（コミット）するので、どちらも配り方を選べません。"
               "同時の選択は両方が封をしてから公開されるので、ホストはあなたの選択を見てから選ぶことはできません。"
               "終了時にあなたのブラウザはゲーム全体を自分のエンジンで再生し、表示されたすべての画面を確かめます。"
               "防げないこと：改造されたホストアプリは対戦中にあなたの手札を見たり、負けそうなときに抜けたりできます。"
               "不正は終了時に見つかりますが、事前には防げません。"),
    },
    # -- spectators (mode=watch) and the host's spectator link ------------------------------
    "watch_title": {"en": "Watching {game}", "ja": "{game}を観戦中"},
    "watch_you": {"en": "You are watching", "ja": "観戦しています"},
    "watch_waiting": {"en": "You are watching: the game shows here as soon as it starts.",
                      "ja": "観戦中です。対局が始まるとすぐここに表示されます。"},
    "watch_bad": {"en": "This spectator link is incomplete or damaged: ask the host to send it again.",
                  "ja": "この観戦リンクは不完全か壊れています。ホストにもう一度送ってもらってください。"},
    "status_waiting_watch": {"en": "Looking for the game…", "ja": "対局を探しています…"},
    "status_connected_watch": {"en": "Connected to the game", "ja": "対局に接続中"},
    "status_lost_watch": {"en": "Cannot reach the host. The game shows here again when the host is back.",
                          "ja": "ホストにつながりません。ホストが戻ると、ここにまた対局が表示されます。"},
    "watch_seat_host": {"en": "host", "ja": "ホスト"},
    "watch_seat_guest": {"en": "guest", "ja": "ゲスト"},
    "watch_over": {"en": "You watched this game to its end. Only the players get its record: it shows every hidden card.",
                   "ja": "この対局を最後まで観戦しました。記録には伏せられたカードもすべて含まれるため、対局者だけが受け取ります。"},
    "watch_rematch_wait": {"en": "The host can start a rematch: it will show here.",
                           "ja": "再戦はホストが開始できます。始まるとここに表示されます。"},
    "watch_about": {"en": "About watching", "ja": "観戦について"},
    "watch_about_body": {
        "en": ("You see what anyone watching the table would see: no hidden card ever reaches this browser, "
               "because the host's browser sends spectators only what is face up. "
               "You cannot play or change anything, and the players never wait for you."),
        "ja": ("テーブルを横で見ている人と同じものが見えます。ホストのブラウザは表に出ている情報だけを観戦者に送るので、"
               "伏せられたカードがこのブラウザに届くことはありません。"
               "観戦者は操作できず、何も変えられません。対局者が観戦者を待つこともありません。"),
    },
    "watch_link": {"en": "Spectator link", "ja": "観戦リンク"},
    "watch_link_help": {"en": "Anyone who opens this link can watch the game live, seeing only what a spectator may see (no hidden card). They cannot play.",
                        "ja": "このリンクを開いた人は対局をリアルタイムで観戦できます。見えるのは観戦者に見えるものだけで、伏せられたカードは見えません。観戦者は操作できません。"},
    "watch_copy": {"en": "Copy spectator link", "ja": "観戦リンクをコピー"},
    "watch_count": {"en": "{n} watching", "ja": "{n}人が観戦中"},
    "watch_none": {"en": "Nobody is watching", "ja": "観戦している人はいません"},
    # -- the connection's path, and how the browsers find each other (peer.js) ----------------
    "path_direct": {"en": "Connected directly", "ja": "直接つながっています"},
    "path_turn": {"en": "Connected through a relay server (TURN)",
                  "ja": "中継サーバー（TURN）経由でつながっています"},
    "signal_via": {"en": "Finding your friend through {host}…", "ja": "{host}経由で相手を探しています…"},
    "signal_via_unnamed": {"en": "Finding your friend…", "ja": "相手を探しています…"},
    "signal_via_watch": {"en": "Finding the game through {host}…", "ja": "{host}経由で対局を探しています…"},
    "signal_via_watch_unnamed": {"en": "Finding the game…", "ja": "対局を探しています…"},
    "signal_none_host": {"en": "No signaling server reachable: connect by copy and paste below.",
                         "ja": "接続を仲介するサーバーにつながりません。下のコピー＆ペーストで接続してください。"},
    "signal_none_guest": {"en": "No signaling server reachable: ask your friend for a connection code to copy and paste.",
                          "ja": "接続を仲介するサーバーにつながりません。コピー＆ペースト用の接続コードを友だちに送ってもらってください。"},
    "signal_none_watch": {"en": "No signaling server reachable: the game cannot be watched from here now.",
                          "ja": "接続を仲介するサーバーにつながりません。今はここから観戦できません。"},
    "nopath_host": {"en": "No direct connection yet. Your networks may block it: try another network (Wi-Fi or mobile data), ask whoever runs this site to add a TURN server, or connect by copy and paste below.",
                    "ja": "まだ直接つながっていません。お互いのネットワークが接続を妨げているのかもしれません。別のネットワーク（Wi-Fiやモバイルデータ）を試すか、このサイトの管理者にTURNサーバーの追加を頼むか、下のコピー＆ペーストで接続してください。"},
    "nopath_guest": {"en": "No direct connection yet. Your networks may block it: try another network (Wi-Fi or mobile data), ask whoever runs this site to add a TURN server, or ask your friend for a connection code to copy and paste.",
                     "ja": "まだ直接つながっていません。お互いのネットワークが接続を妨げているのかもしれません。別のネットワーク（Wi-Fiやモバイルデータ）を試すか、このサイトの管理者にTURNサーバーの追加を頼むか、コピー＆ペースト用の接続コードを友だちに送ってもらってください。"},
    "nopath_watch": {"en": "No direct connection yet. Your network or the host's may block it: try another network (Wi-Fi or mobile data), or ask whoever runs this site to add a TURN server.",
                     "ja": "まだ直接つながっていません。あなたかホストのネットワークが接続を妨げているのかもしれません。別のネットワーク（Wi-Fiやモバイルデータ）を試すか、このサイトの管理者にTURNサーバーの追加を頼んでください。"},
}
i18n.register(STRINGS)


def watch_key(key: str) -> str:
    """The spectator link's key, made from the players' ``key``: base64url (no padding) of
    HMAC-SHA256(key, ``pygames-watch``), 22 characters. The host computes it; a spectator
    holding it cannot get the players' key back.

    >>> w = watch_key("k" * 22)
    >>> len(w), w == watch_key("k" * 22) != watch_key("x" * 22), bool(KEY_RE.match(w))
    (22, True, True)
    """
    mac = hmac.new(key.encode(), b"pygames-watch", hashlib.sha256).digest()
    return base64.urlsafe_b64encode(mac).decode().rstrip("=")[:22]


def parse_fragment(fragment: str) -> dict[str, str]:
    """The link's fragment (``r``, ``k``, ``w``, ``o``, ``ice``, ``b``, ``s``, ``t``),
    first value of each."""
    out: dict[str, str] = {}
    for part in fragment.lstrip("#").split("&"):
        name, _, value = part.partition("=")
        if name and name not in out:
            out[name] = value
    return out


class LinkTable(Table):
    """One seat of a link game: ``mode`` is ``link`` (the host) or ``join`` (a guest), or
    nobody's seat: ``watch`` (a spectator)."""

    modes = ("link", "join", "watch")

    def __init__(self, game_id: str, *, mode: str, options: dict[str, Any] | None = None,
                 lang: str = "en", speed: int = 900, fragment: str = "", stored: str = "",
                 page: str = "", query: str = "", seats: tuple[str, ...] | None = None,
                 slices: bool = False) -> None:
        """``seats`` (the host's): who sits where, ``you`` (exactly one), ``link`` (a
        friend: at least one) or a bot's level, as the query's ``seats=``; None: you and
        one friend. ``slices``: the host's bots think a slice at a time (:meth:`think`)."""
        frag = parse_fragment(fragment)
        seats = tuple(seats) if seats is not None else ("you", "link")
        if seats.count("you") != 1 or "link" not in seats or any(
                k not in ("you", "link", *LEVELS, "random") for k in seats):
            raise ValueError(f"link play seats you, friends (link) and bots, not {seats!r}")
        #: Who sits where (the host's own view of it; a guest's is filled in from the host).
        self.link_kinds: tuple[str, ...] = seats
        want = frag.get("s", "")
        #: The seat a guest's invite is for (its fragment's ``s``), None: any free one.
        self.want_seat: int | None = int(want) if re.fullmatch(r"[0-9]{1,2}", want) else None
        self.seat_status: dict[int, str] = {}   # host: each friend's seat, as the page sees it
        #: ``host``, ``guest`` or ``watch`` (a spectator's page).
        self.role = {"link": "host", "watch": "watch"}.get(mode, "guest")
        self.page = page or "./play.html"
        self.query = query
        self.ice = frag.get("ice", "")
        #: This link's own signaling brokers (the fragment's ``b``), passed on like ``ice``.
        self.brokers = frag.get("b", "") if BROKERS_RE.match(frag.get("b", "")) else ""
        self.offer_in = frag.get("o", "") if self.role == "guest" else ""  # copy-and-paste
        self.room = frag.get("r", "") if ROOM_RE.match(frag.get("r", "")) else ""
        # A spectator holds only the spectator link's key (``w``), never the players' own.
        self.key = frag.get("w" if self.role == "watch" else "k", "")
        self.seat_token = frag.get("t", "") if TOKEN_RE.match(frag.get("t", "")) else ""
        self.bad_link = False
        if self.role == "host" and not (ROOM_RE.match(self.room) and KEY_RE.match(self.key)):
            self.room, self.key = secrets.token_urlsafe(9), secrets.token_urlsafe(16)
        if self.role == "guest" and not (ROOM_RE.match(self.room) and KEY_RE.match(self.key)):
            self.bad_link = not self.offer_in
        if self.role == "watch" and not (ROOM_RE.match(self.room) and KEY_RE.match(self.key)):
            self.bad_link = True
        self.stored = stored
        self.outbox: list[Send] = []
        self.status = "waiting"
        # The host is there at once; a guest connects once it presses Join; a spectator
        # needs no press (it cannot do anything by connecting).
        self.joined = self.role == "host" or (self.role == "watch" and not self.bad_link)
        #: What peer.js says of the connections (:meth:`peer_event`): each one's ``path``
        #: (``direct``, ``turn``), the way the browsers find each other (``signal``:
        #: ``{"via", "host"}``), whether no direct path was found in time (``nopath``),
        #: how many signaling messages it dropped as forged or replayed (``rejected``).
        self.paths: dict[str, str] = {}
        self.signal: dict[str, str] = {}
        self.nopath = False
        self.rejected = 0
        self.manual_offer = ""      # the host's copy-and-paste offer link, once made
        self.manual_making = False
        self.answer_out = ""        # a guest's copy-and-paste answer
        self.elsewhere = False      # the page's lock says another tab holds this game
        self._heard = time.monotonic()
        self._end_since: float | None = None   # when a finished game began to wait for end
        self.show_move = False      # the guest asked to see its seat's link (shown once)
        self._dropped: set[str] = set()   # host: connections told their seat moved
        self._saved = ""
        self._said = time.monotonic()
        super().__init__(game_id, mode=mode, seed=0, options=options, lang=lang, speed=speed,
                         slices=slices)

    # -- the session ---------------------------------------------------------------------
    def start(self, seed: int) -> None:
        self.link: Host | Guest | Spectator
        if self.role == "watch":   # nothing kept: a reloaded spectator watches again
            self.link = Spectator()
            self._reset_table()
            self.shown = self._count()
            return
        restored = None
        if self.stored:
            try:
                restored = (Host if self.role == "host" else Guest).from_json(self.stored)
            except (ValueError, KeyError, TypeError, AttributeError):
                restored = None  # a damaged save: start afresh rather than fail
        if restored is not None and self.role == "host" and restored.game.id != self.game.id:
            restored = None
        if self.role == "host":
            kinds = self.link_kinds
            if restored is not None and (restored.players, restored.seat) != (
                    len(kinds), kinds.index("you")):
                restored = None   # another table's save under this room: start afresh
            self.link = restored or Host(
                self.game.id, players=len(kinds), options=self.options,
                seat=kinds.index("you"), bots=[p for p, k in enumerate(kinds) if k != "link"
                                                and k != "you"])
            # A seat handed to a bot (kept in the save) is a bot's of the default level.
            self.link_kinds = tuple(
                "you" if p == self.link.seat else
                (k if k not in ("you", "link") else HAND_LEVEL) if p in self.link.bots
                else "link" for p, k in enumerate(kinds))
        else:
            if self.seat_token and (restored is None or restored.token != self.seat_token
                                    or self._moved_away(restored)):
                restored = None   # a seat carried from another browser: a fresh guest
            self.link = restored or Guest(token=self.seat_token or None, seat=self.want_seat)
            if restored is not None:
                self.joined = True  # it had pressed Join before this reload
                self.elsewhere = self._moved_away(restored)
        self._reset_table()
        if self.playing:
            self._follow_host()
            self._bots_go()
        self.shown = self._count()

    def _reset_table(self) -> None:
        self.bots = self._link_bots()
        self.thinking = {}
        self.human = self.link.seat if self.link.seat is not None else 0   # 0: watching
        self.sel = self.ui.new_selection()
        self.shown = 0
        self.before = None
        self.since = None
        self.dismissed = False
        self.active = self.handover = None
        self._match = self.link.match

    def _follow_host(self) -> None:
        """A guest plays the game and options the host's ``state`` names (the invite's
        query only said what to expect)."""
        if isinstance(self.link, Guest | Spectator) and self.link.game_id:
            if self.link.game_id != self.game.id:
                self.game = get_game(self.link.game_id)
                self.ui = ui_module(self.game.id)
                self.sel = self.ui.new_selection()
            self.options = dict(self.link.options)

    @staticmethod
    def _moved_away(guest: Guest) -> bool:
        """The host told this seat it moved to another browser (kept across reloads, so
        this page never takes the seat back by itself)."""
        error = guest.last_error
        return bool(error) and error[0] == "seat_taken" and guest.seat is not None

    # -- the host's bots ------------------------------------------------------------------
    def _link_bots(self) -> dict[int, Any]:
        """The host's bots, one per bot seat (each seeded from the match's secret and its
        seat: the guests' check never depends on how a bot chose)."""
        link = self.link
        if not isinstance(link, Host):
            return {}
        base = int.from_bytes(link.secret[:4], "big")
        bots: dict[int, Any] = {}
        for p in sorted(link.bots):
            kind = self.link_kinds[p] if p < len(self.link_kinds) else HAND_LEVEL
            seed = base * 7 + 1 + 7919 * p
            bots[p] = (RandomBot(seed=seed) if kind not in LEVELS else
                       SearchBot(self.game, p, level=kind, seed=seed, timed=self.slices))
        return bots

    def _bot_turns(self) -> list[int]:
        """Bot seats that are to move and have not chosen yet."""
        link = self.link
        if not isinstance(link, Host) or not link.started or link.over:
            return []
        return [p for p in link.to_move if p in self.bots and link.legal_for(p)]

    def _bot_input(self, p: int) -> tuple[dict[str, Any], list[str], list[dict[str, Any]]]:
        """What a bot seat sees: its own view, legal actions and events, as a guest would."""
        link = self.link
        assert isinstance(link, Host) and link.state is not None
        return link.state.view(p), link.legal_for(p), link.state.events(p)

    def _bots_go(self) -> None:
        """The host's bots act (or start thinking) whenever one of them is to move."""
        if not self._bot_turns():
            return
        if self.slices:
            self._start_thinking()
        else:
            self._play_bots()

    def _play_bots(self) -> None:
        while movers := self._bot_turns():
            for p in movers:
                self._play(p, self.bots[p].choose(*self._bot_input(p)))

    def _start_thinking(self) -> None:
        for p in self._bot_turns():
            bot = self.bots[p]
            if p in self.thinking:
                continue
            if isinstance(bot, SearchBot):
                self.thinking[p] = [bot.start(*self._bot_input(p)), None, None]
            else:
                self._bot_plays(p, bot.choose(*self._bot_input(p)))

    def _undecided_people(self) -> list[int]:
        link = self.link
        if not isinstance(link, Host):
            return []
        return [p for p in link.waiting_for if p not in self.bots]

    def _play(self, p: int, action: str) -> None:
        """A bot seat's move: the host plays it as its own (guests see only their seats)."""
        assert isinstance(self.link, Host)
        self.outbox += self.link.act(action, seat=p)

    def hand_to_bot(self, seat: int) -> None:
        """Give a gone friend's seat to a bot (:data:`HAND_LEVEL`): the game goes on."""
        link = self.link
        if not isinstance(link, Host) or seat not in self.gone_seats():
            return
        self.outbox += link.hand_to_bot(seat)
        kinds = list(self.link_kinds)
        kinds[seat] = HAND_LEVEL
        self.link_kinds = tuple(kinds)
        self.thinking.pop(seat, None)
        self.bots = {**self.bots, **{p: b for p, b in self._link_bots().items()
                                     if p not in self.bots}}
        self._around(self._bots_go)

    def gone_seats(self) -> list[int]:
        """Host: friends' seats whose friend has left during the game (a bot may take them)."""
        link = self.link
        if not isinstance(link, Host) or not link.started or link.over:
            return []
        return [s for s in link.guest_seats if s in link.seats and self.friend_status(s)
                in ("reconnecting", "lost")]

    def friend_status(self, seat: int) -> str:
        """Host: a friend's seat as :data:`SEAT_STATUSES` says (the page's view of its
        channel when it has told, else whether the seat's guest has a connection)."""
        link = self.link
        assert isinstance(link, Host)
        if seat in link.bots:
            return "bot"
        info = link.seats.get(seat)
        if info is None:
            return "waiting"
        said = self.seat_status.get(seat)
        if info["peer"] is None:
            return "lost" if said == "lost" else "reconnecting"
        return said if said in ("reconnecting", "lost") else "connected"

    def set_seat_status(self, text: str) -> None:
        """The page's view of each friend's channel: JSON ``{seat: status}``."""
        try:
            data = json.loads(text)
        except ValueError:
            return
        if isinstance(data, dict):
            self.seat_status = {int(k): v for k, v in data.items()
                                if str(k).isdecimal() and v in SEAT_STATUSES}

    def friend_seats(self) -> list[int]:
        """Host: the seats of friends by link, and those since given to a bot."""
        link = self.link
        if not isinstance(link, Host):
            return []
        return sorted({*link.guest_seats, *link.handed, *link.value_seats})

    def seat_label(self, p: int) -> str:
        """A seat's name: the UI module's ``seat_name(seat, view, lang)``, else Player N."""
        name = getattr(self.ui, "seat_name", None)
        if name is not None:
            view = self.link.view if self.playing else None
            return str(name(p, view, self.lang))
        return t("seat_n", self.lang, n=p + 1)

    @property
    def many(self) -> bool:
        """More than the classic two-player link (you first, one friend second)."""
        if isinstance(self.link, Host):
            return self.link_kinds != ("you", "link")
        return self.want_seat is not None

    def rematch(self) -> None:
        if self.role == "host" and self.link.over:
            self.outbox += self.link.rematch()
            self._reset_table()

    @property
    def playing(self) -> bool:
        """The game has started and this seat has its picture."""
        return bool(self.link.started) and self.link.view is not None

    def viewer(self) -> int | None:
        return self.link.seat if self.playing else None

    def _view(self, seat: int | None) -> dict[str, Any]:
        return self.link.view  # type: ignore[return-value]

    def _legal(self, seat: int) -> list[str]:
        return self.link.legal if self.playing else []

    def _events(self, seat: int | None, start: int = 0) -> list[dict[str, Any]]:
        if not self.playing:
            return []
        if isinstance(self.link, Host):
            return self.link.state.events(self.link.seat, start)  # type: ignore[union-attr]
        return self.link.events[start:]

    def _count(self) -> int:
        if not self.playing:
            return 0
        if isinstance(self.link, Host):
            return self.link.state.event_count()  # type: ignore[union-attr]
        return len(self.link.events)

    def _to_move(self) -> list[int]:
        return list(self.link.to_move)

    def _over(self) -> bool:
        return bool(self.link.over)

    def _apply(self, seat: int, action: str) -> None:
        if isinstance(self.link, Spectator):
            raise IllegalAction("a spectator does not play")
        self.outbox += self.link.act(action)

    def game_players(self) -> int:
        return int(self.link.players or self.game.min_players)

    # -- the connection --------------------------------------------------------------------
    def _remote(self, sends: list[Send]) -> None:
        """Something came from the network: queue replies, play back what changed."""
        self.outbox += sends

    def _around(self, fn) -> None:
        """Run ``fn`` (which may change the game) and play back whatever it changed."""
        was_playing, was_animating = self.playing, self.animating
        before_view = self._view(None) if was_playing else None
        count = self._count()
        fn()
        if self.link.match != self._match:        # a rematch began (or the first match)
            self._follow_host()
            self._reset_table()
            self.shown = self._count()
            return
        if not self.playing:
            return
        if not was_playing:                       # the first picture: shown as it is
            self.human = self.link.seat if self.link.seat is not None else 0
            self._follow_host()
            self.shown = self._count()
            return
        new = self._count()
        if new < self.shown:                       # the picture was replaced (resync)
            self.shown = new
        if new > count and not was_animating:
            self._play_back_from(count, before_view)

    @staticmethod
    def is_watcher(peer: str) -> bool:
        """On the host: ``peer`` is a spectator's connection (peer.js names those it let in
        with the spectator link's key ``w-...``; a guest's never starts so)."""
        return peer.startswith(WATCHER_PREFIX)

    def _mark_watcher(self, peer: str) -> bool:
        """Host: tell the session that ``peer`` is a spectator's (it never gets a seat)."""
        if not isinstance(self.link, Host) or not self.is_watcher(peer):
            return False
        if self.link.seat_of(peer) is None:
            self.link.add_watcher(peer)
        return True

    def peer_open(self, peer: str) -> None:
        """A data channel to ``peer`` opened (a guest asks for its seat at once, a
        spectator to watch; on the host a spectator's channel says nothing of the game's
        connection)."""
        if self._mark_watcher(peer):
            return
        self.status = "connected"
        self.nopath = False
        self._heard = time.monotonic()
        self.manual_offer, self.manual_making, self.answer_out = "", False, ""
        if isinstance(self.link, Guest):
            self.outbox += self.link.join()
        elif isinstance(self.link, Spectator):
            self.outbox += self.link.watch()

    def peer_message(self, peer: str, text: str) -> None:
        self._heard = time.monotonic()
        if isinstance(self.link, Host):
            self._mark_watcher(peer)   # before its first word: never a seat for it

            def take() -> None:
                self._remote(self.link.receive(peer, text))
                self._bots_go()   # a friend's move may make it a bot's turn
            self._around(take)
        else:
            self._around(lambda: self._remote(self.link.receive(text)))
        error = getattr(self.link, "last_error", None)
        if isinstance(self.link, Guest) and error:
            if self._moved_away(self.link):
                self.set_status("elsewhere")   # another browser or tab took this seat over
            elif error[0] not in ("seat_taken", "not_joined", "replaced"):
                self.message = t("link_host_error", self.lang, msg=error[1])
                self.link.last_error = None

    def _elsewhere_key(self) -> str:
        moved = isinstance(self.link, Guest) and self._moved_away(self.link)
        return "link_seat_moved" if moved else "link_moved"

    def drops(self) -> list[str]:
        """Host: connections whose seat another browser took over, to be closed by the
        page (each was told first, by the session's ``seat_taken``)."""
        if not isinstance(self.link, Host):
            return []
        moved = sorted(self.link.moved_peers() - self._dropped)
        self._dropped.update(moved)
        return moved

    def peer_close(self, peer: str) -> None:
        self.paths.pop(peer, None)
        if isinstance(self.link, Host):
            self.link.drop(peer)

    def set_status(self, status: str) -> None:
        if status == "elsewhere":
            self.elsewhere = True
            status = "lost"
        if status in STATUSES:
            self.status = status
        if status == "connected":
            self.nopath = False

    def peer_event(self, kind: str, peer: str = "", text: str = "") -> None:
        """Everything peer.js reports, by ``kind``: a data channel's ``open``,
        ``message`` and ``close`` (of ``peer``); the connection's ``status`` (``seats``:
        each friend's seat's, on the host); the timer's ``tick`` and ``poll``; the
        copy-and-paste flow's ``making``, ``offer``, ``answer``, ``bad_code`` (``text``:
        the code); ``path`` (``peer``'s connection: ``direct``, ``turn`` or ""),
        ``signal`` (JSON ``{"via": "relay"|"broker"|"none", "host"}``: how the browsers
        look for each other), ``nopath`` (no direct path found in time; ``clear``: never
        mind) and ``rejected`` (how many signaling messages were dropped as forged or
        replayed). Anything else is ignored."""
        if kind == "open":
            self.peer_open(peer)
        elif kind == "message":
            self.peer_message(peer, text)
        elif kind == "close":
            self.peer_close(peer)
        elif kind == "status":
            self.set_status(text)
        elif kind == "seats":
            self.set_seat_status(text)
        elif kind == "tick":
            self.tick()
        elif kind == "poll":
            self.tick(force=True)
        elif kind in ("making", "offer", "answer", "bad_code"):
            self.manual(kind, text)
        elif kind == "path":
            self.set_path(peer, text)
        elif kind == "signal":
            self.set_signal(text)
        elif kind == "nopath":
            self.nopath = text != "clear"
        elif kind == "rejected":
            self.rejected = int(text) if str(text).isdecimal() and len(str(text)) < 10 else 0

    def set_path(self, peer: str, path: str) -> None:
        """The connection to ``peer`` goes ``direct`` or through a ``turn`` relay ("":
        not known)."""
        if path in PATHS:
            self.paths[peer] = path
        else:
            self.paths.pop(peer, None)

    def set_signal(self, text: str) -> None:
        """How peer.js looks for the other browser: JSON ``{"via", "host"}``."""
        try:
            data = json.loads(text)
        except ValueError:
            return
        if not isinstance(data, dict) or data.get("via") not in SIGNALS:
            return
        host = data.get("host")
        host = host if isinstance(host, str) and len(host) <= 253 else ""
        self.signal = {"via": data["via"], "host": host}

    def path(self) -> str:
        """The path the game's connection takes (``direct``, ``turn``, "": not known); on
        the host its friends' (a spectator's does not count): ``turn`` if any goes so."""
        paths = [p for peer, p in self.paths.items()
                 if not (self.role == "host" and self.is_watcher(peer))]
        return "turn" if "turn" in paths else "direct" if paths else ""

    def tick(self, force: bool = False) -> None:
        """The page's timer (every second): a guest that heard nothing for a while pings
        the host, and checks in with it after longer; a finished game that waited too long
        for the host's end message is shown as not verified."""
        link = self.link
        if isinstance(link, Spectator):
            self._watch_tick(link, force)
            return
        if not isinstance(link, Guest) or self.elsewhere:
            return
        now = time.monotonic()
        if link.seat is None:
            # Joined over an open channel, but no welcome came: the join or its answer was
            # lost on the way (a page that dropped it, a host busy reloading). Ask again
            # rather than wait for good; the host answers a repeated join like the first.
            if (self.joined and self.status in ("connected", "reconnecting")
                    and not self.taken() and (force or now - self._heard >= PING_AFTER)):
                self._heard = now
                self.outbox += link.join()
            return
        if link.awaiting_end and link.verdict is None:
            if self._end_since is None:
                self._end_since = now
            elif now - self._end_since >= END_WAIT:
                link.end_missing()
        if self.status not in ("connected", "reconnecting"):
            return
        silent = now - self._heard
        if force or silent >= POLL_AFTER:
            self._heard = now
            self.outbox += link.poll()
        elif silent >= PING_AFTER or now - self._said >= PING_AFTER:
            # Also when it has heard plenty but said nothing (the others and the host's bots
            # are playing): the host reads this seat's channel as alive from what it hears.
            self.outbox += link.ping()

    def _watch_tick(self, link: Spectator, force: bool) -> None:
        """A spectator's timer: it watches again while no picture came (its watch or the
        answer was lost), pings when it has heard nothing for a moment, asks for the whole
        picture when it has heard nothing for longer."""
        if self.bad_link or self.status not in ("connected", "reconnecting"):
            return
        now = time.monotonic()
        silent = now - self._heard
        if not link.watching:
            if force or silent >= PING_AFTER:
                self._heard = now
                self.outbox += link.watch()
        elif force or silent >= POLL_AFTER:
            self._heard = now
            self.outbox += link.poll()
        elif silent >= PING_AFTER or now - self._said >= PING_AFTER:
            self.outbox += link.ping()

    def take_outbox(self) -> list[list[str]]:
        out = [[s.to, s.text] for s in self.outbox]
        self.outbox = []
        if out:
            self._said = time.monotonic()
        return out

    def save(self) -> str | None:
        """The session as text for the page's storage, when it changed since last asked."""
        if self.role == "watch" or (self.role == "guest" and (self.link.seat is None
                                                              or not self.joined)):
            return None   # a spectator keeps nothing: reloaded, it watches again
        text = self.link.to_json()
        if text == self._saved:
            return None
        self._saved = text
        return text

    def store_key(self) -> str:
        """This game's place in the browser's storage: one per room (a copy-and-paste
        game's link carries its room too), so any number of games can be kept."""
        seat = f"-{self.want_seat}" if self.role == "guest" and self.want_seat is not None else ""
        return f"pygames.link.{self.room or 'manual'}.{self.role}{seat}"   # watch: never written

    def record(self) -> str | None:
        """The game's record as JSON: always on the host, on a guest once it is over."""
        if isinstance(self.link, Host):
            return json.dumps(self.link.state.record()) if self.link.state else None
        if isinstance(self.link, Spectator):
            return None   # the record holds every hidden card: a spectator never gets it
        return json.dumps(self.link.record) if self.link.record else None

    def taken(self) -> bool:
        error = getattr(self.link, "last_error", None)
        return isinstance(self.link, Guest) and bool(error) and (
            (error[0] == "seat_taken" and self.link.seat is None) or error[0] == "replaced")

    def replaced(self) -> bool:
        """A guest whose seat the host gave a bot (it stays away, reloaded too)."""
        error = getattr(self.link, "last_error", None)
        return isinstance(self.link, Guest) and bool(error) and error[0] == "replaced"

    def invite(self, seat: int | None = None) -> str:
        """The invite (the host's for a friend's ``seat``; a guest's own seat's); the
        classic two-player link names no seat."""
        if seat is None and self.role == "guest":
            seat = self.want_seat
        elif seat is None:
            seat = self.friend_seats()[0]
        frag = f"r={self.room}&k={self.key}" + self._passed_on()
        if self.many and seat is not None:
            frag += f"&s={seat}"
        return f"{self.page}?{self._invite_query()}#{frag}"

    def watched_movers(self) -> list[int]:
        link = self.link
        if self.role != "watch" or link.over or self.animating:
            return []
        return list(link.to_move or [])

    def watch_link(self) -> str:
        """Host: the spectator link, ``<page>?<the invite's query, mode=watch>#r=<room>
        &w=<watch key>`` (and this link's ``ice`` and ``b``). It carries no key of the
        players: a spectator's connection is let in as a spectator's only."""
        return (f"{self.page}?{self._invite_query('watch')}#r={self.room}"
                f"&w={watch_key(self.key)}{self._passed_on()}")

    def _passed_on(self) -> str:
        """What this link passes on to the links it makes: its ICE servers and brokers."""
        return (f"&ice={self.ice}" if self.ice else "") + (
            f"&b={self.brokers}" if self.brokers else "")

    def _invite_query(self, mode: str = "join") -> str:
        parts = [f"game={quote(self.game.id)}", f"mode={mode}"]
        parts += [f"{quote(k)}={quote(str(v))}" for k, v in self.options.items()]
        return "&".join(parts)

    def fragment(self) -> str:
        """The fragment this page's own address should carry (the host's room and key)."""
        if self.role != "host":
            return ""
        return f"r={self.room}&k={self.key}" + self._passed_on()

    def peer_info(self) -> dict[str, Any]:
        """What the page's WebRTC glue needs to know: ``role`` (``host``, ``guest`` or
        ``watch``), ``room``, ``key`` (a spectator's: the spectator link's ``w``), on the
        host ``watch`` (the spectator link's key, for the spectators' signaling), ``ice``,
        ``brokers`` (the link's own broker list, "" for the default), ``connect``,
        ``offer``, ``fragment``, ``store``, ``lock``, ``drop`` and ``seats``."""
        info = {"role": self.role, "room": self.room, "key": self.key, "ice": self.ice,
                "brokers": self.brokers, "offer": self.offer_in,
                "connect": self.joined and not self.bad_link and not self.taken()
                and not self.elsewhere,
                "fragment": self.fragment(), "store": self.store_key(),
                "lock": self.store_key(), "drop": self.drops(), "seats": self.seat_peers()}
        if self.role == "host":
            info["watch"] = watch_key(self.key)
        elif self.role == "watch":   # any number of spectators' tabs: none locks another out
            info["lock"] = f"{self.store_key()}.{self.link.conn}"   # type: ignore[union-attr]
        return info

    def seat_peers(self) -> list[dict[str, Any]]:
        """Host: each friend's seat for the page's ``data-peer-<seat>``: its connection's
        ``peer`` ("" while it has none), whether its friend ``joined``, whether a ``bot``
        plays it now."""
        link = self.link
        if not isinstance(link, Host):
            return []
        return [{"seat": s, "peer": (link.seats.get(s) or {}).get("peer") or "",
                 "joined": s in link.seats, "bot": s in link.bots}
                for s in self.friend_seats()]

    # -- input -------------------------------------------------------------------------------
    def command(self, cmd: str) -> None:
        if self.role == "watch" and cmd.partition(":")[0] not in ("lang", "skip", "dismiss"):
            return   # a spectator's page only looks: nothing it clicks reaches the game
        if cmd == "join" and self.role == "guest" and not self.bad_link:
            self.joined = True
            self.status = "connecting"
            return
        if cmd == "rematch" and self.role != "host":
            return
        if cmd == "move_seat" and self.role == "guest":
            self.show_move = not self.show_move
            return
        if cmd.startswith("seat_bot:"):
            arg = cmd.partition(":")[2]
            if arg.isdecimal() and len(arg) < 3:
                self.hand_to_bot(int(arg))
            return
        try:
            super().command(cmd)
        except IllegalAction as exc:  # the session refused (not your turn, already chosen)
            self.message = t("error", self.lang, msg=str(exc))

    def manual(self, what: str, blob: str) -> None:
        """The copy-and-paste flow: the host's offer (``making``/``offer``), a guest's
        answer (``answer``), as the page's WebRTC glue made them."""
        if what == "making":
            self.manual_making = True
        elif what == "offer":
            self.manual_making = False
            self.manual_offer = f"{self.page}?{self._invite_query()}#r={self.room}&k={self.key}&o={blob}"
        elif what == "answer":
            self.answer_out = blob
        elif what == "bad_code":
            self.manual_making = False
            self.message = t("link_bad_code", self.lang)

    # -- output ------------------------------------------------------------------------------
    def seats(self) -> tuple[str, ...]:
        me, link = self.link.seat, self.link
        if isinstance(link, Spectator):   # who plays each seat, as the host says
            words = {"host": "watch_seat_host", "guest": "watch_seat_guest", "bot": "bot"}
            kinds = link.kinds if len(link.kinds) == self.game_players() else (
                [""] * self.game_players())
            return tuple(t(words[k], self.lang) if k in words else "" for k in kinds)
        if isinstance(link, Host):
            bots = link.bots
        else:   # the seats that give no seed value are the host's own and its bots'
            guests = link.guests
            bots = set() if guests is None else {
                p for p in range(self.game_players()) if p not in guests and p != link.host_seat}
        return tuple(t("you" if p == me else "bot" if p in bots else "link_friend", self.lang)
                     for p in range(self.game_players()))

    def _headline(self, outcome: dict[str, Any]) -> str:
        if not outcome["winners"]:
            return t("draw", self.lang)
        if isinstance(self.link, Spectator):
            return t("wins", self.lang, who=self.ui.who(outcome["winners"][0], self.lang))
        return t("you_win" if self.link.seat in outcome["winners"] else "you_lose", self.lang)

    def _status_html(self) -> str:
        """The connection's line: its state (``data-status``), once connected the path it
        takes (``data-path``), while not the way the browsers look for each other
        (``data-signal``), and the signaling messages dropped (``data-rejected``)."""
        lang, role = self.lang, self.role
        key = f"status_{self.status}"
        if self.status == "waiting":
            key = f"status_waiting_{role}"
        elif role == "watch" and self.status in ("connected", "lost"):
            key += "_watch"
        if self.elsewhere:
            key = self._elsewhere_key()
        text = t(key, lang)
        link = self.link
        friends = ([s for s in self.friend_seats() if s not in link.bots]
                   if isinstance(link, Host) else [])
        many = self.many and len(friends) > 1
        if many:
            live = sum(self.friend_status(s) == "connected" for s in friends)
            text = (t("status_waiting_many", lang) if self.status == "waiting" else
                    t("status_seats", lang, n=live, m=len(friends)))
        path = self.path() if self.status == "connected" and not self.elsewhere else ""
        if path:
            text = f"{text} · {t(f'path_{path}', lang)}" if many else t(f"path_{path}", lang)
        signal = ""
        via = self.signal.get("via", "")
        if via and self.status != "connected" and not self.elsewhere:
            if via == "none":
                said = t(f"signal_none_{role}", lang)
            else:
                name = self.signal.get("host", "")
                said = t(("signal_via_watch" if role == "watch" else "signal_via")
                         + ("" if name else "_unnamed"), lang, host=name)
            signal = f'<span class="signal">{esc(said)}</span>'
        rejected = f' data-rejected="{self.rejected}"' if self.rejected else ""
        return (f'<p class="peer-status" role="status" data-status="{esc(self.status)}" '
                f'data-path="{esc(path)}" data-signal="{esc(via)}"{rejected}>'
                f'<span class="dot" aria-hidden="true"></span><span class="txt">{esc(text)}'
                f'</span>{signal}</p>')

    def _nopath_html(self) -> str:
        """What to try when no direct path was found in time (peer.js: ``nopath``)."""
        if not self.nopath or self.status == "connected" or self.elsewhere or self.bad_link:
            return ""
        return (f'<p class="nopath" role="status" data-nopath>'
                f'{esc(t(f"nopath_{self.role}", self.lang))}</p>')

    def _header_extra(self) -> str:
        if not self.playing:
            return ""
        if self.role == "watch":
            return (f'<p class="watching" data-watching-note>{esc(t("watch_you", self.lang))}</p>'
                    f'{self._status_html()}')
        return self._status_html()

    def partial(self) -> dict[str, Any] | None:
        """A guest's own part of the game: what its seat saw and chose (kept when the host
        is gone for good; the whole record comes only with the host's ``end``)."""
        link = self.link
        if not isinstance(link, Guest) or link.seat is None or not link.started:
            return None
        return {"pygames": "guest-part", "game": link.game_id, "players": link.players,
                "options": link.options, "seat": link.seat, "match": link.match,
                "ply": link.ply, "view": link.view, "events": link.events,
                "my_actions": {str(p): a for p, a in sorted(link.sent.items())},
                "over": link.over, "outcome": link.outcome}

    def export_record(self) -> dict[str, Any] | None:
        """The record, once the game is over (a guest has it only then, and only one its
        own engine replays: whatever a host sent, the game-over screen draws)."""
        if not self.over or self.animating:
            return None
        text = self.record()
        if not text:
            return None
        record = json.loads(text)
        if isinstance(self.link, Guest):
            from .share import record_string

            try:
                record_string(record)
            except ValueError:   # pygames.records.RecordError among them
                return None
        return record

    def move_link(self) -> str:
        """A guest's link to take its seat in another browser: the invite plus its token."""
        assert isinstance(self.link, Guest)
        return self.invite() + f"&t={self.link.token}"

    def _side_extra(self) -> str:
        lang = self.lang
        keep = ""
        part = self.partial() if self.playing else None
        if part is not None:
            name = f"pygames-{part['game']}-{self.room or 'manual'}-seat{part['seat']}.json"
            keep = (f'<p class="muted">{esc(t("link_keep_help", lang))}</p>'
                    f'<p><button type="button" data-link-cmd="download" data-file="{esc(name)}">'
                    f'{esc(t("link_keep", lang))}</button></p>'
                    f'<pre hidden data-partial>{esc(json.dumps(part))}</pre>')
        if self.role == "watch":
            about = (f'<details class="link-about"><summary>{esc(t("watch_about", lang))}'
                     f'</summary><p>{esc(t("watch_about_body", lang))}</p></details>')
        else:
            about = (f'<details class="link-about"><summary>{esc(t("link_about", lang))}'
                     f'</summary><p>{esc(t("link_about_body", lang))}</p>{keep}</details>')
        watch = self._watch_html(inline=False) if self.playing else ""
        return (self._seats_html() + self._manual_resume_html() + watch + about
                + self._move_html())

    def watchers(self) -> int:
        """Host: how many spectators are watching now."""
        return len(self.link.watching) if isinstance(self.link, Host) else 0

    def _watch_html(self, inline: bool) -> str:
        """Host: the spectator link (copy it like the invite) and how many watch now;
        ``inline`` in the invitation, else folded in the side panel during the game."""
        if not isinstance(self.link, Host) or not self.room:
            return ""
        lang, url, n = self.lang, self.watch_link(), self.watchers()
        count = t("watch_count", lang, n=n) if n else t("watch_none", lang)
        body = (f'<p class="muted">{esc(t("watch_link_help", lang))}</p>'
                f'<p class="invite"><a data-watch-link href="{esc(url)}">{esc(url)}</a></p>'
                f'<p class="buttons"><button type="button" data-link-cmd="copy" '
                f'data-copy="{esc(url)}">{esc(t("watch_copy", lang))}</button>'
                f'<button type="button" data-link-cmd="share" data-copy="{esc(url)}" hidden>'
                f'{esc(t("link_share", lang))}</button></p>'
                f'<p class="watch-count" role="status" data-watching="{n}">{esc(count)}</p>')
        if inline:
            return (f'<section class="link-watch" aria-labelledby="watch-title">'
                    f'<h3 id="watch-title">{esc(t("watch_link", lang))}</h3>{body}</section>')
        return (f'<details class="link-watch"><summary>{esc(t("watch_link", lang))}'
                f'{" · " + esc(count) if n else ""}</summary>{body}</details>')

    def _seats_html(self) -> str:
        """Host, during a game with several friends (or one gone): each friend's seat and
        its connection; a gone one's button gives the seat to a bot."""
        link, lang = self.link, self.lang
        if not isinstance(link, Host) or not self.playing:
            return ""
        seats = self.friend_seats()
        gone = self.gone_seats()
        if not self.many and not gone:
            return ""
        items = []
        for s in seats:
            status = self.friend_status(s)
            line = t("link_seat_line", lang, seat=self.seat_label(s), status=t(f"link_seat_{status}", lang))
            button = ""
            if s in gone:
                button = (f'<button type="button" data-cmd="seat_bot:{s}">'
                          f'{esc(t("link_hand", lang, seat=self.seat_label(s)))}</button>')
            items.append(f'<li data-seat-status="{esc(status)}" data-seat="{s}">'
                         f'<span>{esc(line)}</span>{button}</li>')
        help_ = (f'<p class="muted">{esc(t("link_hand_help", lang, level=t(f"level_{HAND_LEVEL}", lang)))}</p>'
                 if gone else "")
        return (f'<section class="link-seats" aria-labelledby="link-seats-title">'
                f'<h2 id="link-seats-title">{esc(t("link_seats", lang))}</h2>'
                f'<ul>{"".join(items)}</ul>{help_}</section>')

    def _move_html(self) -> str:
        """A guest's way to move its seat to another browser (the link shown on request)."""
        link = self.link
        if (not isinstance(link, Guest) or link.seat is None or not self.playing
                or self.elsewhere or self.bad_link or not self.room or not self.key):
            return ""
        lang = self.lang
        inner = [f'<p class="muted">{esc(t("link_move_help", lang))}</p>']
        if self.show_move:
            url = self.move_link()
            inner.append(f'<label for="move-link">{esc(t("link_move_label", lang))}</label>'
                         f'<textarea id="move-link" readonly rows="3" data-move>{esc(url)}</textarea>'
                         f'<p><button type="button" data-link-cmd="copy" data-copy="{esc(url)}">'
                         f'{esc(t("link_copy", lang))}</button></p>')
            inner.append(self._qr(url, t("link_move_qr", lang)))
        else:
            inner.append(f'<p><button type="button" data-cmd="move_seat">'
                         f'{esc(t("link_move_show", lang))}</button></p>')
        opened = " open" if self.show_move else ""
        return (f'<details class="link-move"{opened}><summary>{esc(t("link_move", lang))}'
                f'</summary>{"".join(inner)}</details>')

    def _manual_resume_html(self) -> str:
        """During a game whose connection is down: what to try (:meth:`_nopath_html`) and
        the copy-and-paste way back (the host makes a new code; a guest that opened it
        shows its answer code; a spectator has none)."""
        if not self.playing or self.status == "connected" or self.elsewhere:
            return ""
        if self.role == "host":
            return self._nopath_html() + self._manual_host_html()
        if self.role == "watch":
            return self._nopath_html()
        return self._nopath_html() + self._answer_html()

    def _over_extra(self) -> str:
        lang = self.lang
        if isinstance(self.link, Spectator):
            return f'<p class="verdict" data-watched>{esc(t("watch_over", lang))}</p>'
        if isinstance(self.link, Host):
            key = "link_host_checks_many" if len(self.friend_seats()) > 1 else "link_host_checks"
            return f'<p class="verdict">{esc(t(key, lang))}</p>'
        verdict = self.link.verdict
        if verdict is None:
            return f'<p class="verdict" data-verdict="pending">{esc(t("link_checking", lang))}</p>'
        if verdict.ok:
            return (f'<p class="verdict" data-verdict="ok">✓ {esc(t("link_verified", lang))}</p>')
        items = "".join(f"<li>{esc(p)}</li>" for p in verdict.problems)
        return (f'<div class="verdict" data-verdict="failed"><p>⚠ '
                f'{esc(t("link_not_verified", lang))}</p><ul>{items}</ul></div>')

    def _rematch_button(self) -> str:
        if self.role == "host":
            return super()._rematch_button()
        key = "watch_rematch_wait" if self.role == "watch" else "link_rematch_wait"
        return f'<p class="muted">{esc(t(key, self.lang))}</p>'

    def html(self) -> str:
        record = self.record()
        data = f'<pre hidden data-record>{esc(record)}</pre>' if record else ""
        if self.playing and not self.elsewhere and not self.replaced():
            return super().html() + data
        return self._room_html() + data

    def _options_text(self) -> str:
        """The options on the guest's Join screen: a per-seat option (a deck) named as this
        player reads it ("Your deck", "Your opponent's deck"; the guest is seat 1), a value
        by its words (the option's, or the UI module's ``OPTION_CHOICES``)."""
        lang = self.lang
        reader = (self.link.seat if isinstance(self.link, Host) else
                  self.want_seat if self.want_seat is not None else 1)
        seat_words = link_seat_words(self.game.id, reader)
        offered = getattr(self.ui, "OPTION_CHOICES", {})
        parts = []
        for name, value in self.options.items():
            labels = self.game.option_labels.get(name, {})
            label = (seat_words.get(name) or labels.get("label") or {}).get(lang, name)
            words = labels.get(value) if isinstance(labels.get(value), dict) else (
                dict(offered.get(name, ())).get(value))
            shown = words.get(lang, str(value)) if words else str(value)
            parts.append(f"{label}: {shown}")
        return " · ".join(parts) or "—"

    def _room_html(self) -> str:
        """Before the game: the host's invitation, or the guest's Join screen."""
        lang = self.lang
        body: list[str] = []
        if self.role == "host" and self.many:
            body += self._invites_html()
        elif self.role == "host":
            invite = self.invite()
            seat = self.friend_seats()[0]
            body.append(f'<h2 id="room-title">{esc(t("link_title", lang))}: {esc(self.title())}</h2>')
            body.append(self._status_html())
            body.append(self._nopath_html())
            body.append(f'<p>{esc(t("link_send", lang))}</p>')
            body.append(f'<p class="invite"><a data-invite href="{esc(invite)}" '
                        f'data-invite-{seat}>{esc(invite)}</a></p>')
            body.append(f'<p class="buttons"><button type="button" class="primary" '
                        f'data-link-cmd="copy" data-copy="{esc(invite)}">{esc(t("link_copy", lang))}</button>'
                        f'<button type="button" data-link-cmd="share" data-copy="{esc(invite)}" hidden>'
                        f'{esc(t("link_share", lang))}</button></p>')
            body.append(self._qr(invite, t("link_qr", lang)))
            body.append(self._watch_html(inline=True))
            body.append(self._manual_host_html())
        elif self.role == "watch":
            if self.bad_link:
                body.append(f'<p class="message" role="alert">{esc(t("watch_bad", lang))}</p>')
            else:
                body.append(f'<h2 id="room-title">{esc(t("watch_title", lang, game=self.title()))}</h2>')
                body.append(f'<p data-watching-note>{esc(t("watch_waiting", lang))}</p>')
                body.append(self._status_html())
                body.append(self._nopath_html())
        elif self.bad_link:
            body.append(f'<p class="message" role="alert">{esc(t("link_bad", lang))}</p>')
        elif self.taken() or self.elsewhere:
            if self.elsewhere:
                said = t(self._elsewhere_key(), lang)
            elif self.replaced():
                said = t("link_replaced", lang)
            elif self.want_seat is not None:
                said = t("link_taken_seat", lang, seat=self.seat_label(self.want_seat))
            else:
                said = t("link_taken", lang)
            body.append(f'<h2 id="room-title">{esc(self.title())}</h2>')
            body.append(f'<p class="message" role="alert" data-taken>{esc(said)}</p>')
        elif self.seat_token:   # a seat carried here from another browser
            body.append(f'<h2 id="room-title">{esc(t("link_continue", lang, game=self.title()))}</h2>')
            body.append(f'<p>{esc(t("link_continue_help", lang))}</p>')
            if not self.joined:
                body.append(f'<p class="buttons"><button type="button" class="primary" '
                            f'data-cmd="join" autofocus>{esc(t("link_continue_btn", lang))}</button></p>')
            body.append(self._status_html() if self.joined else "")
        else:
            body.append(f'<h2 id="room-title">{esc(t("link_invited", lang, game=self.title()))}</h2>')
            body.append(f'<dl class="invite-info"><dt>{esc(t("link_game", lang))}</dt>'
                        f'<dd>{esc(self.title())}</dd>{self._your_seat_html()}'
                        f'<dt>{esc(t("link_options", lang))}</dt>'
                        f'<dd>{esc(self._options_text())}</dd><dt>{esc(t("link_host", lang))}</dt>'
                        f'<dd>{esc(t("link_host_is", lang))}</dd></dl>')
            if not self.joined:
                body.append(f'<p class="buttons"><button type="button" class="primary" '
                            f'data-cmd="join" autofocus>{esc(t("link_join", lang))}</button></p>')
            body.append(self._status_html() + self._nopath_html() if self.joined else "")
            if self.joined and self.status == "connected":
                body.append(f'<p class="muted">{esc(t("link_starting", lang))}</p>')
            body.append(self._answer_html())
        message = f'<p class="message" role="alert">{esc(self.message)}</p>' if self.message else ""
        return (f'{self._header()}<main class="link-room" aria-labelledby="room-title">'
                f'{message}{"".join(body)}{self._side_extra()}</main>')

    def _your_seat_html(self) -> str:
        """A guest's Join screen names the seat its invite is for."""
        if self.want_seat is None:
            return ""
        return (f'<dt>{esc(t("link_your_seat", self.lang))}</dt>'
                f'<dd data-your-seat="{self.want_seat}">{esc(self.seat_label(self.want_seat))}</dd>')

    def _invites_html(self) -> list[str]:
        """The host's invitation to several friends: an invite per friend's seat (its link,
        Copy, Share and QR code), labelled by the seat, with whether its friend joined."""
        link, lang = self.link, self.lang
        assert isinstance(link, Host)
        body = [f'<h2 id="room-title">{esc(t("link_title_many", lang))}: {esc(self.title())}</h2>',
                self._status_html(), self._nopath_html(), f'<p>{esc(t("link_send_many", lang))}</p>']
        one = " data-invite" if len(link.guest_seats) == 1 else ""   # the one friend's
        for s in link.guest_seats:
            invite, name = self.invite(s), self.seat_label(s)
            joined = "link_seat_joined" if s in link.seats else "link_seat_waiting"
            body.append(
                f'<section class="invite-seat" aria-labelledby="invite-{s}-title" data-seat="{s}">'
                f'<h3 id="invite-{s}-title">{esc(t("link_invite_for", lang, seat=name))}</h3>'
                f'<p class="muted" data-joined="{str(s in link.seats).lower()}">'
                f'{esc(t("link_seat_line", lang, seat=name, status=t(joined, lang)))}</p>'
                f'<p class="invite"><a data-invite-{s} href="{esc(invite)}"{one}>{esc(invite)}</a></p>'
                f'<p class="buttons"><button type="button" class="primary" data-link-cmd="copy" '
                f'data-copy="{esc(invite)}">{esc(t("link_copy", lang))}</button>'
                f'<button type="button" data-link-cmd="share" data-copy="{esc(invite)}" hidden>'
                f'{esc(t("link_share", lang))}</button></p>'
                f'{self._qr(invite, t("link_qr_seat", lang, seat=name))}</section>')
        bots = [self.seat_label(p) for p in sorted(link.bots)]
        if bots:
            names = ("、" if lang == "ja" else ", ").join(bots)
            body.append(f'<p class="muted">{esc(t("link_bots_here", lang, seats=names))}</p>')
        body.append(self._watch_html(inline=True))
        return body

    def _answer_html(self) -> str:
        """A copy-and-paste guest's answer code, to send back to the host."""
        if not self.answer_out:
            return ""
        lang = self.lang
        return (f'<div class="manual"><p>{esc(t("link_manual_answer", lang))}</p>'
                f'<label for="answer-out">{esc(t("link_manual_answer_label", lang))}</label>'
                f'<textarea id="answer-out" readonly rows="4" data-answer>{esc(self.answer_out)}</textarea>'
                f'<p><button type="button" data-link-cmd="copy" data-copy="{esc(self.answer_out)}">'
                f'{esc(t("link_copy_code", lang))}</button></p></div>')

    def _manual_host_html(self) -> str:
        lang = self.lang
        inner = [f'<p>{esc(t("link_manual_help", lang))}</p>']
        if self.manual_offer:
            inner.append(f'<label for="manual-offer">{esc(t("link_manual_offer", lang))}</label>'
                         f'<textarea id="manual-offer" readonly rows="4" data-offer>{esc(self.manual_offer)}</textarea>'
                         f'<p><button type="button" data-link-cmd="copy" data-copy="{esc(self.manual_offer)}">'
                         f'{esc(t("link_copy", lang))}</button></p>')
            inner.append(self._qr(self.manual_offer, t("link_qr", lang)))
            inner.append(f'<label for="manual-answer">{esc(t("link_manual_answer_in", lang))}</label>'
                         f'<textarea id="manual-answer" rows="4"></textarea>'
                         f'<p><button type="button" class="primary" data-link-cmd="answer">'
                         f'{esc(t("link_manual_connect", lang))}</button></p>')
        elif self.manual_making:
            inner.append(f'<p class="muted" role="status">{esc(t("link_manual_making", lang))}</p>')
        else:
            inner.append(f'<p><button type="button" data-link-cmd="offer">'
                         f'{esc(t("link_manual_make", lang))}</button></p>')
        opened = " open" if self.manual_offer or self.manual_making else ""
        return (f'<details class="manual"{opened}><summary>{esc(t("link_manual", lang))}</summary>'
                f'{"".join(inner)}</details>')

    def _qr(self, text: str, caption: str) -> str:
        svg = qr_svg(text)
        if not svg:
            return ""
        return (f'<figure class="qr"><div class="qr-code" role="img" aria-label="{esc(caption)}">'
                f'{svg}</div><figcaption>{esc(caption)}</figcaption></figure>')


def qr_svg(text: str) -> str:
    """An inline SVG QR code of ``text`` (segno), or "" where segno is not installed."""
    try:
        import segno
    except ImportError:
        return ""
    return segno.make(text, error="m").svg_inline(scale=4, border=2, dark="#111",
                                                 light="#fff", omitsize=False)
