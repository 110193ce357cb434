"""Electors table: pure rendering of (view, legal actions, language, local choices) -> HTML.

Nothing here touches the DOM, and nothing here imports the engine: the table is drawn
from the view alone (the influence cards' kinds and costs follow from their ids, as the
contract writes them). Phone first, one column, so that a choice is made on one screen:
whose turn and what is still allowed, the four candidates and the cube supply, the kingdom
grid, the status line, the current choice's buttons, your hand (the final scoring table
before it once scoring has begun), the market, and the players' strips (hand and deck
counts, acquired cards by colour, influence cards), which a wide screen shows on top.

Every engine action is at most three clicks away, all by ``data-cmd`` buttons:

* ``cell:<cell>`` chooses a grid cell (A); ``act:<action>`` plays any engine action at
  once (draw, pass, a match, take, a put-back card, a cube's candidate, Bribery's card,
  end the turn, a pair, done…);
* ``buy:<card>`` picks a market card (C): its legal payments appear as buttons, each an
  ``act:$<card>:<paid>``; after the buy the cube's candidate is asked (``act:c:<colour>``);
* ``heart`` starts a Change of Heart, ``heart:<card>`` picks the acquired card, and the
  colours appear as ``act:h<card>><colour>``; ``cancel`` drops a pick.
"""

from __future__ import annotations

import copy
import re
from typing import Any

from .i18n import esc, register, t

COLOURS = ("R", "B", "G", "Y")
LETTERS = "abcdefghijklmnopqrstuvwxyz"
SPECIALS = ("s", "b", "j")
INFLUENCE_KINDS = {"P": "power", "X": "corruption", "M": "manor", "D": "domain", "H": "heart"}
_CARD = re.compile(r"^(k?)([RBGY])(\d+|[sbj])(?:>([RBGY]))?$")
_CELL = re.compile(r"^([a-z])(\d+)$")
_MATCH = re.compile(r"^=(k?[RBGY]\d+)([PX]*)$")

#: This table's own look, loaded with it after app.css (path from the app's root).
STYLESHEET = "pgui/electors.css"

#: Events that get their own pause when played back step by step.
STEP_EVENTS = {"choose", "trap", "scheme", "bribe", "jester", "match", "take", "put",
               "decktop", "draw", "buy", "cube", "heart", "trigger", "pairs", "row", "rank",
               "score", "pass"}


def _s(en: str, ja: str) -> dict[str, str]:
    return {"en": en, "ja": ja}


STRINGS: dict[str, dict[str, str]] = {
    # Colours: a seat, a candidate and a crest at once.
    "electors.col.R": _s("Red", "赤"),
    "electors.col.B": _s("Blue", "青"),
    "electors.col.G": _s("Green", "緑"),
    "electors.col.Y": _s("Yellow", "黄"),
    "electors.short.R": _s("R", "赤"),
    "electors.short.B": _s("B", "青"),
    "electors.short.G": _s("G", "緑"),
    "electors.short.Y": _s("Y", "黄"),
    "electors.pair_name": _s("{a} & {b}", "{a}・{b}"),
    "electors.you": _s("You", "あなた"),
    "electors.you_l": _s("you", "あなた"),
    "electors.your_l": _s("your", "あなたの"),
    "electors.whose": _s("{who}'s", "{who}の"),
    "electors.any": _s("any", "任意"),
    "electors.none": _s("none", "なし"),
    # Cards
    "electors.c.kingdom": _s("{col} {n} (kingdom)", "王国・{col}{n}"),
    "electors.c.s": _s("{col} Backroom Scheming", "{col}の裏工作"),
    "electors.c.b": _s("{col} Bribery", "{col}の買収"),
    "electors.c.j": _s("{col} Jester", "{col}の道化"),
    "electors.c.as": _s("{card} (counts as {col})", "{card}（{col}として数える）"),
    "electors.i.power": _s("Power", "権力"),
    "electors.i.corruption": _s("Corruption", "堕落"),
    "electors.i.manor": _s("Manor", "荘園"),
    "electors.i.domain": _s("Domain", "領地"),
    "electors.i.heart": _s("Change of Heart", "心変わり"),
    "electors.i.named": _s("{kind} ({col})", "{col}の{kind}"),
    "electors.cost": _s("costs {marks}", "コスト：{marks}"),
    "electors.cost_mark": _s("{n} {col}", "{col}{n}枚"),
    "electors.cost_any": _s("{n} of any colour", "任意の色{n}枚"),
    "electors.eff.power": _s("+{d} to the number of the hand card you reveal in a match, once a turn",
                             "マッチで公開する手札の数字を+{d}（1手番に1回）"),
    "electors.eff.corruption": _s("−{d} to the number of the hand card you reveal in a match, once a turn",
                                  "マッチで公開する手札の数字を−{d}（1手番に1回）"),
    "electors.eff.manor": _s("+{d} points at the end", "終了時に+{d}点"),
    "electors.eff.domain": _s("+{d} points at the end", "終了時に+{d}点"),
    "electors.eff.heart": _s("once a game: one of your acquired cards counts as a colour of your choice",
                             "1ゲームに1回：獲得したカード1枚を好きな色として数える"),
    "electors.used": _s("used this turn", "この手番に使用済み"),
    "electors.spent": _s("spent", "使用済み（横向き）"),
    "electors.ready": _s("ready", "未使用"),
    # Places and panels
    "electors.round": _s("Round {n}", "第{n}ラウンド"),
    "electors.turn_of": _s("{whose} turn", "{whose}手番"),
    "electors.over": _s("Game over", "ゲーム終了"),
    "electors.scoring": _s("Final scoring", "最終得点計算"),
    "electors.may_buy": _s("may still buy one influence card", "影響力カードをあと1枚買える"),
    "electors.bought": _s("has bought this turn", "この手番は購入済み"),
    "electors.may_buy_you": _s("You may still buy one influence card this turn.",
                               "この手番、影響力カードをあと1枚買えます。"),
    "electors.bought_you": _s("You have bought this turn.", "この手番は購入済みです。"),
    "electors.used_list": _s("Used this turn: {items}.", "この手番に使用済み：{items}。"),
    "electors.trigger": _s("The end is near: {whose} deck ran out. The game ends after {last_whose} next turn.",
                           "終了間近：{whose}山札が尽きました。{last_whose}次の手番の後にゲーム終了。"),
    "electors.trigger_safety": _s("The round limit is reached: the game ends after {last_whose} next turn.",
                                  "ラウンド上限に達しました：{last_whose}次の手番の後にゲーム終了。"),
    "electors.trigger_last": _s("The end is near: this is {last_whose} last turn.",
                                "終了間近：{last_whose}最後の手番です。"),
    "electors.players": _s("Players", "プレイヤー"),
    "electors.hand_n": _s("Hand {n}", "手札 {n}"),
    "electors.deck_n": _s("Deck {n}", "山札 {n}"),
    "electors.acquired": _s("Acquired", "獲得"),
    "electors.acquired_n": _s("Acquired {n}", "獲得 {n}"),
    "electors.influence": _s("Influence", "影響力"),
    "electors.to_move": _s("to move", "手番"),
    "electors.strip_label": _s(
        "{who}{seat}{moving}: hand {hand}, deck {deck}; acquired: {acquired}; influence: {influence}.",
        "{who}{seat}{moving}：手札{hand}枚、山札{deck}枚。獲得：{acquired}。影響力：{influence}。"),
    "electors.moving": _s(", to move", "（手番）"),
    "electors.open_hand": _s("Hand: {cards}", "手札：{cards}"),
    "electors.candidates": _s("Candidates", "王位候補者"),
    "electors.candidate": _s("Candidate {col}", "候補者・{col}"),
    "electors.cubes_n": _s("{n} {n|cube|cubes}", "キューブ{n}個"),
    "electors.rank_n": _s("rank {n}", "{n}位"),
    "electors.supply": _s("Supply: {n} {n|cube|cubes}", "キューブの残り：{n}個"),
    "electors.cand_label": _s("Candidate {col}: {n} {n|cube|cubes}{rank}", "候補者・{col}：キューブ{n}個{rank}"),
    "electors.cand_rank": _s(", rank {n}", "、{n}位"),
    "electors.market": _s("Market", "マーケット"),
    "electors.influence_deck": _s("Influence deck: {n} {n|card|cards}", "影響力カードの山札：{n}枚"),
    "electors.market_empty": _s("The market is empty.", "マーケットは空です。"),
    "electors.hand": _s("Your hand", "あなたの手札"),
    "electors.hand_empty": _s("Your hand is empty.", "手札はありません。"),
    "electors.grid": _s("The kingdom", "王国"),
    "electors.cell": _s("Row {row}, column {col}: {what}", "{row}行目・{col}列：{what}"),
    "electors.cell_empty": _s("empty", "空き"),
    "electors.cell_up": _s("face up: {card}", "表向き：{card}"),
    "electors.cell_down_k": _s("face-down kingdom card", "裏向きの王国カード"),
    "electors.cell_down_col": _s("face-down {col} card", "裏向きの{col}のカード"),
    "electors.cell_down_any": _s("face-down card", "裏向きのカード"),
    "electors.cell_yours": _s("yours: {card}", "あなたのカード：{card}"),
    "electors.cell_known": _s("you placed it: {card}", "あなたが置いた：{card}"),
    "electors.cell_pending": _s("chosen this turn", "この手番に選んだマス"),
    "electors.cell_choose": _s("choose it: turn it face up", "選ぶ：表向きにする"),
    "electors.cell_choose_up": _s("choose it: match or take it", "選ぶ：マッチするか手札に取る"),
    "electors.cell_now": _s("happening now", "いま動いた"),
    "electors.row_count": _s("Row {row} electors: {counts}", "{row}行目の選帝侯カード：{counts}"),
    "electors.row_lead": _s("{col} leads", "{col}が最多"),
    "electors.row_tie": _s("tied", "同数"),
    "electors.row_unknown": _s("{n} unknown", "不明{n}枚"),
    "electors.mine_mark": _s("your card, seen by you only", "あなたにだけ見えるカード"),
    # Buttons
    "electors.b.draw": _s("Draw {n} {n|card|cards} (B)", "{n}枚引く（B）"),
    "electors.b.pass": _s("Pass (hand and deck are empty)", "パス（手札も山札もない）"),
    "electors.b.match": _s("Match with your {card}", "{card}でマッチ"),
    "electors.b.match_mod": _s("Match with your {card} {how}", "{card}を{how}でマッチ"),
    "electors.b.raised": _s("raised to {n} by {what}", "{what}で{n}にして"),
    "electors.b.lowered": _s("lowered to {n} by {what}", "{what}で{n}にして"),
    "electors.b.times": _s("{n} × {kind}", "{kind}{n}枚"),
    "electors.b.take": _s("Take the {card} into your hand (②)", "{card}を手札に取る（②）"),
    "electors.b.put": _s("Put your {card} face down on {cell}", "{card}を{cell}に裏向きで置く"),
    "electors.b.cube": _s("Put the cube on candidate {col} ({n} now)", "候補者・{col}にキューブを置く（現在{n}個）"),
    "electors.b.cube_short": _s("{col} (now {n})", "{col}（現在{n}個）"),
    "electors.b.bribe": _s("Take {card} from {whose} acquired cards", "{whose}獲得カードから{card}を取る"),
    "electors.b.end": _s("End your turn", "手番を終える"),
    "electors.b.buy": _s("Buy {card}: {cost}; {effect}", "{card}を買う：{cost}。{effect}"),
    "electors.b.pay": _s("Pay with {cards}", "{cards}で支払う"),
    "electors.b.heart": _s("Use a Change of Heart", "心変わりを使う"),
    "electors.b.heart_card": _s("Change of Heart on your {card}", "{card}に心変わりを使う"),
    "electors.b.heart_as": _s("{card} counts as {col} from now on", "{card}を今後{col}として数える"),
    "electors.b.pair": _s("Reveal the pair {a} + {b}", "ペア{a}＋{b}を公開"),
    "electors.b.done_pairs": _s("Done revealing pairs", "ペアの公開を終える"),
    "electors.b.done_hearts": _s("Done: keep the rest unused", "終える（残りは使わない）"),
    "electors.b.cancel": _s("Cancel", "やめる"),
    "electors.b.other": _s("{action}", "操作：{action}"),
    "electors.choices": _s("Your choices", "選択肢"),
    # Prompts (the status line), to the player who acts
    "electors.p.turn": _s(
        "Your turn: choose a card on the grid to turn up or take (A), or draw {n} {n|card|cards} (B).",
        "あなたの手番：王国のカードを1枚選ぶ（A）か、{n}枚引いてください（B）。"),
    "electors.p.turn_draw": _s("Your turn: your hand is empty, so draw {n} {n|card|cards} (B).",
                               "あなたの手番：手札がないので{n}枚引いてください（B）。"),
    "electors.p.turn_deck": _s("Your turn: your deck is empty, so choose a card on the grid (A).",
                               "あなたの手番：山札がないので王国のカードを1枚選んでください（A）。"),
    "electors.p.turn_pass": _s("Your turn: your hand and deck are empty, so you pass.",
                               "あなたの手番：手札も山札もないのでパスします。"),
    "electors.p.buy_too": _s(" You may also buy one influence card (C).", "影響力カードを1枚買うこともできます（C）。"),
    "electors.p.number": _s(
        "{card} on {cell}: match it with a hand card of the same number (①), or take it into your hand (②).",
        "{cell}の{card}：同じ数字の手札でマッチする（①）か、手札に取ってください（②）。"),
    "electors.p.number_take": _s("{card} on {cell}: no hand card matches it, so take it into your hand (②).",
                                 "{cell}の{card}：マッチできる手札がないので、手札に取ってください（②）。"),
    "electors.p.place": _s("Put a hand card face down on {cell}.", "{cell}に手札を1枚裏向きで置いてください。"),
    "electors.p.place_taken": _s("Put a hand card face down on {cell} (not the {card} you just took; another copy of it is fine).",
                                 "{cell}に手札を1枚裏向きで置いてください（取ったばかりの{card}以外。同じカードのもう1枚なら可）。"),
    "electors.p.cube": _s("You bought {card}: put its cube on a candidate.",
                          "{card}を買いました。キューブを置く候補者を選んでください。"),
    "electors.p.cube_plain": _s("Put the cube of your purchase on a candidate.",
                                "購入のキューブを置く候補者を選んでください。"),
    "electors.p.bribe": _s("{from_who} turned up your Bribery: take one of {from_whose} acquired cards.",
                           "{from_who}があなたの買収をめくりました。{from_whose}獲得カードから1枚取ってください。"),
    "electors.p.after": _s("Your action is done: end your turn when you are ready.",
                           "行動は終わりました。準備ができたら手番を終えてください。"),
    "electors.p.after_more": _s("Your action is done: buy or use an influence card, or end your turn.",
                                "行動は終わりました。影響力カードを買う・使うか、手番を終えてください。"),
    "electors.p.pairs": _s("Final scoring: reveal pairs of same-number cards from your hand (they become acquired cards), then Done.",
                           "最終得点計算：手札から同じ数字のペアを公開（獲得カードになります）し、終えてください。"),
    "electors.p.hearts": _s("Final scoring: use an unused Change of Heart on an acquired card, or Done.",
                            "最終得点計算：未使用の心変わりを獲得カードに使うか、終えてください。"),
    "electors.p.buy_pick": _s("Buy {card}: choose the acquired cards to pay with ({cost}).",
                              "{card}を買う：支払う獲得カードを選んでください（{cost}）。"),
    "electors.p.heart_pick": _s("Change of Heart: choose one of your acquired cards.",
                                "心変わり：獲得カードを1枚選んでください。"),
    "electors.p.heart_colour": _s("Change of Heart on your {card}: choose the colour it will count as.",
                                  "{card}に心変わり：数える色を選んでください。"),
    "electors.p.watch": _s("{whose} turn.", "{whose}手番です。"),
    "electors.p.watch_bribe": _s("{who} chooses a card to take with Bribery.", "{who}が買収で取るカードを選んでいます。"),
    "electors.p.watch_scoring": _s("Final scoring: {who} to choose.", "最終得点計算：{who}が選んでいます。"),
    "electors.p.resolving": _s("Playing the turn back…", "手番を再生中…"),
    # The final scoring table
    "electors.f.table": _s("Final scoring: each player's points by source", "最終得点：プレイヤーごとの内訳"),
    "electors.f.source": _s("Source", "内訳"),
    "electors.f.rank1": _s("Rank-1 colours (face value)", "1位の色（数字の合計）"),
    "electors.f.rank2": _s("Rank-2 colours (+1 each)", "2位の色（1枚+1）"),
    "electors.f.rank3": _s("Rank-3 colours (0)", "3位の色（0点）"),
    "electors.f.rank4": _s("Rank-4 colours (−1 each)", "4位の色（1枚−1）"),
    "electors.f.manor": _s("Manors", "荘園"),
    "electors.f.domain": _s("Domains", "領地"),
    "electors.f.hand": _s("Cards left in hand", "手札に残ったカード"),
    "electors.f.total": _s("Total", "合計"),
    "electors.f.place": _s("Place", "順位"),
    "electors.f.place_n": _s("{n}", "{n}位"),
    "electors.f.rows": _s("Row majorities", "行ごとの多数派"),
    "electors.f.row": _s("Row {row}: {col}", "{row}行目：{col}"),
    "electors.f.row_none": _s("Row {row}: no cube", "{row}行目：キューブなし"),
    "electors.f.ranks": _s("Candidate ranks", "候補者の順位"),
    "electors.f.rank_item": _s("{col} {n}", "{col}{n}位"),
    # The log (engine events worded here); "you" agrees with English verbs through {you|…}
    "electors.ev.start": _s("{who} {you|start|starts}.", "{who}が先手。"),
    "electors.ev.deal": _s("{who} {you|draw|draws} {n} {n|card|cards}.", "{who}が{n}枚引いた。"),
    "electors.ev.deal_seen": _s("{who} {you|draw|draws} {cards}.", "{who}が{cards}を引いた。"),
    "electors.ev.turn": _s("— Round {round}: {whose} turn —", "― 第{round}ラウンド：{whose}手番 ―"),
    "electors.ev.choose": _s("{who} {you|choose|chooses} {cell}: {card}.", "{who}が{cell}を選んだ：{card}。"),
    "electors.ev.trap_own": _s("{who} {you|turn|turns} up {card} on {cell}, {you|your|their} own: nothing happens, and the cell stays {col}.",
                               "{who}が{cell}の自分の{card}をめくった：効果なし。このマスは{col}のまま。"),
    "electors.ev.trap": _s("{who} {you|spring|springs} {owner_whose} {card} on {cell}!",
                           "{who}が{cell}で{owner_whose}{card}をめくった！"),
    "electors.ev.trap_nobody": _s("{who} {you|turn|turns} up {card} on {cell}: nobody plays {col}, so it has no owner.",
                                  "{who}が{cell}で{card}をめくった：{col}のプレイヤーはいないので持ち主なし。"),
    "electors.ev.scheme": _s("Backroom Scheming: the top {n} {n|card|cards} of {whose} deck are removed, unseen.",
                             "裏工作：{whose}山札の上から{n}枚が見られずに除外された。"),
    "electors.ev.bribe": _s("Bribery: {who} {you|take|takes} {card} from {from_whose} acquired cards.",
                            "買収：{who}が{from_whose}獲得カードから{card}を取った。"),
    "electors.ev.bribe_none": _s("Bribery: nothing to take.", "買収：取れるカードはなかった。"),
    "electors.ev.bribe_hand": _s("Bribery: {who} {you|take|takes} {card} from {from_whose} hand.",
                                 "買収：{who}が{from_whose}手札から{card}を取った。"),
    "electors.ev.bribe_hand_back": _s("Bribery: {who} {you|take|takes} a card from {from_whose} hand ({back}).",
                                      "買収：{who}が{from_whose}手札からカードを1枚取った（{back}）。"),
    "electors.sp.s": _s("Backroom Scheming", "裏工作"),
    "electors.sp.b": _s("Bribery", "買収"),
    "electors.sp.j": _s("Jester", "道化"),
    "electors.ev.jester": _s("Jester: the other face-down cards turn up: {cards}.",
                             "道化：ほかの裏向きのカードが表になった：{cards}。"),
    "electors.ev.jester_none": _s("Jester: no other face-down card to turn up.",
                                  "道化：表にする裏向きのカードはなかった。"),
    "electors.ev.match": _s("{who} {you|match|matches} {card} on {cell} with {with_}{how}: both become acquired cards.",
                            "{who}が{cell}の{card}に{with_}{how}でマッチ：両方を獲得した。"),
    "electors.ev.how_up": _s(" (raised to {n} by {what})", "（{what}で{n}）"),
    "electors.ev.how_down": _s(" (lowered to {n} by {what})", "（{what}で{n}）"),
    "electors.ev.take": _s("{who} {you|take|takes} {card} from {cell} into the hand.",
                           "{who}が{cell}の{card}を手札に取った。"),
    "electors.ev.put": _s("{who} {you|put|puts} a card face down on {cell}: {back}.",
                          "{who}が{cell}にカードを裏向きで置いた：{back}。"),
    "electors.ev.put_seen": _s("{who} {you|put|puts} {card} face down on {cell}.",
                               "{who}が{cell}に{card}を裏向きで置いた。"),
    "electors.ev.decktop": _s("The top card of {whose} deck goes face down on {cell}: {back}.",
                              "{whose}山札の一番上のカードが{cell}に裏向きで置かれた：{back}。"),
    "electors.ev.decktop_seen": _s("The top card of {whose} deck, {card}, goes face down on {cell}.",
                                   "{whose}山札の一番上の{card}が{cell}に裏向きで置かれた。"),
    "electors.ev.draw": _s("{who} {you|draw|draws} {n} {n|card|cards}.", "{who}が{n}枚引いた。"),
    "electors.ev.draw_seen": _s("{who} {you|draw|draws} {cards}.", "{who}が{cards}を引いた。"),
    "electors.ev.buy": _s("{who} {you|buy|buys} {card}, paying {paid}.", "{who}が{paid}を支払って{card}を買った。"),
    "electors.ev.refill": _s(" New in the market: {card}.", "マーケットに{card}が出た。"),
    "electors.ev.no_refill": _s(" The influence deck is empty: no new card.", "影響力カードの山札が尽きたため補充なし。"),
    "electors.ev.cube": _s("{who} {you|put|puts} a cube on candidate {col}.", "{who}が候補者・{col}にキューブを置いた。"),
    "electors.ev.heart": _s("{who} {you|use|uses} a Change of Heart: {card} counts as {col} from now on.",
                            "{who}が心変わりを使った：{card}を今後{col}として数える。"),
    "electors.ev.pass": _s("{who} {you|pass|passes}.", "{who}はパスした。"),
    "electors.ev.end": _s("{who} {you|end|ends} the turn.", "{who}が手番を終えた。"),
    "electors.ev.trigger": _s("{whose} deck is empty: the end is triggered. The game ends after {last_whose} next turn.",
                              "{whose}山札が尽きた：終了条件が満たされた。{last_whose}次の手番の後にゲーム終了。"),
    "electors.ev.trigger_safety": _s("The round limit is reached: the end is triggered. The game ends after {last_whose} next turn.",
                                     "ラウンド上限に達した：終了条件が満たされた。{last_whose}次の手番の後にゲーム終了。"),
    "electors.ev.pairs": _s("{who} {you|reveal|reveals} pairs: {cards}.", "{who}がペアを公開した：{cards}。"),
    "electors.ev.pairs_none": _s("{who} {you|reveal|reveals} no pair.", "{who}はペアを公開しなかった。"),
    "electors.ev.row": _s("Row {row}: {col} has the most electors ({counts}) and gets a cube.",
                          "{row}行目：{col}の選帝侯カードが最多（{counts}）でキューブ1個。"),
    "electors.ev.row_lost": _s("Row {row}: {col} has the most electors ({counts}), but no cube is left.",
                               "{row}行目：{col}の選帝侯カードが最多（{counts}）だが、キューブが残っていない。"),
    "electors.ev.row_tie": _s("Row {row}: a tie for the most electors ({counts}), no cube.",
                              "{row}行目：最多が同数（{counts}）のためキューブなし。"),
    "electors.ev.row_none": _s("Row {row}: no electors, no cube.", "{row}行目：選帝侯カードがないためキューブなし。"),
    "electors.ev.rank": _s("Candidate ranks: {ranks}.", "候補者の順位：{ranks}。"),
    "electors.ev.score": _s("{who} {you|score|scores} {total} {total|point|points} ({parts}).",
                            "{who}の得点は{total}点（{parts}）。"),
    "electors.ev.over": _s("Final places: {places}.", "最終順位：{places}。"),
    "electors.ev.other": _s("Event: {kind}.", "出来事：{kind}。"),
    "electors.place_item": _s("{who} {n}", "{who}{n}位"),
    # Game over
    "electors.reason": _s("{who} {you|win|wins} with {n} {n|point|points}.", "{who}が{n}点で勝利。"),
    "electors.reason_tie": _s("{who} share first place with {n} {n|point|points}.", "{who}が{n}点で1位を分け合った。"),
    # Quick answers for pass and play
    "electors.h.bribe": _s("{from_who} turned up {owner_whose} Bribery: take one of {from_whose} acquired cards (they are public).",
                           "{from_who}が{owner_whose}買収をめくりました。{from_whose}獲得カード（公開情報）から1枚取ってください。"),
    "electors.h.take": _s("Take {card}", "{card}を取る"),
    # Rules (our own words)
    "electors.rules_html": _s(
        "<p>You are prince-electors choosing a king among four candidates: red, blue, green "
        "and yellow. Each player plays one colour's elector cards (17: numbers 1–7 twice, "
        "Backroom Scheming, Bribery, Jester); colours nobody plays are still candidates. "
        "The 20 kingdom cards (each colour 1–5) lie face down in a 5 × 4 grid. The back of "
        "an elector card shows its colour; you may always look at face-down cards of your own "
        "colour (and you remember what you put down).</p>"
        "<p><b>Your turn: do A or B.</b> With an empty hand you must draw; with an empty deck "
        "you must do A; with neither you pass.</p>"
        "<ul>"
        "<li><b>A. Choose a grid card</b> (face down, or a face-up number card). A special of "
        "another player's colour springs: <b>Backroom Scheming</b> burns the top 2 cards of "
        "your deck; <b>Bribery</b> lets its owner take one of your acquired cards; "
        "<b>Jester</b> turns up the other face-down cards of its row. Your own special does "
        "nothing but keeps the cell yours. A number card: <b>① match</b> it with a hand card "
        "of the same number (Power/Corruption may shift that number by 1), both become "
        "acquired cards, then put a hand card face down in the empty cell (with an empty "
        "hand, your deck's top card goes there); or <b>② take</b> it into your hand and put "
        "another hand card face down there.</li>"
        "<li><b>B. Draw 3 cards.</b></li>"
        "<li><b>C. Once a turn, at any moment: buy</b> a market card by discarding acquired "
        "cards that match its cost marks (a colour mark needs that colour, ? any card), then "
        "put a cube on any candidate.</li>"
        "</ul>"
        "<p><b>Influence cards</b>: Power +1 and Corruption −1 for a match (each once a turn), "
        "Manor +2 and Domain +3 points at the end, Change of Heart (once a game) makes one "
        "acquired card count as any colour.</p>"
        "<p><b>The end</b>: when a deck runs out, play goes on until that player's next turn "
        "is over. Then each player may reveal pairs from hand as acquired cards; each row "
        "gives a cube to the colour with strictly the most elector cards in it; a "
        "candidate's rank is the number of candidates with at least as many cubes. Acquired "
        "cards score their number for a rank-1 colour, +1 for rank 2, 0 for rank 3, −1 for "
        "rank 4; Manor and Domain add theirs; each number card left in hand costs its "
        "number. Ties go to more influence cards bought.</p>",
        "<p>プレイヤーは選帝侯となり、赤・青・緑・黄の4人の王位候補者から王を選びます。各プレイヤーは"
        "1色の選帝侯カード17枚（1〜7の数字が2枚ずつ、裏工作・買収・道化）を使います。誰も使わない色も"
        "候補者として残ります。王国カード20枚（各色1〜5）は5×4の格子に裏向きで並びます。選帝侯カードの"
        "裏には色が描かれていて、自分の色の裏向きのカードはいつでも見られます（自分で置いたカードも覚えて"
        "います）。</p>"
        "<p><b>手番ではAかBのどちらかを行います。</b>手札がなければ引くしかなく、山札がなければAを行い、"
        "どちらもなければパスです。</p>"
        "<ul>"
        "<li><b>A. 王国のカードを1枚選ぶ</b>（裏向きか、表向きの数字カード）。他の色の特殊カードは効果が"
        "発動します：<b>裏工作</b>は自分の山札の上から2枚を除外、<b>買収</b>は持ち主があなたの獲得カードを"
        "1枚取る、<b>道化</b>は同じ行のほかの裏向きのカードを表にします。自分の色の特殊カードは効果なしで、"
        "マスは自分の色のままです。数字カードなら、<b>①マッチ</b>：同じ数字の手札を公開（権力・堕落で"
        "数字を1ずらせます）して両方を獲得し、空いたマスに手札を1枚裏向きで置きます（手札がなければ山札の"
        "一番上）。または<b>②取る</b>：そのカードを手札に入れ、別の手札を1枚裏向きで置きます。</li>"
        "<li><b>B. 3枚引く。</b></li>"
        "<li><b>C. 1手番に1回、いつでも購入</b>：コストの印に合う獲得カードを捨ててマーケットのカードを"
        "買い（色の印はその色、？はどの色でも）、好きな候補者にキューブを1個置きます。</li>"
        "</ul>"
        "<p><b>影響力カード</b>：権力はマッチで+1、堕落は−1（それぞれ1手番に1回）、荘園は終了時+2点、"
        "領地は+3点、心変わり（1ゲームに1回）は獲得カード1枚を好きな色として数えます。</p>"
        "<p><b>終了</b>：誰かの山札が尽きたら、そのプレイヤーの次の手番が終わるまで続けます。その後、"
        "手札のペアを公開して獲得カードにし、各行で選帝侯カードが単独最多の色にキューブを1個置きます。"
        "候補者の順位は「キューブが同数以上の候補者の数」です。獲得カードは1位の色なら数字どおり、2位は"
        "1枚+1点、3位は0点、4位は1枚−1点。荘園・領地の点を加え、手札に残った数字カードはその数字だけ"
        "減点です。同点なら購入した影響力カードが多い方が上位です。</p>"),
}

register(STRINGS)

#: The lobby's line for this game (our own words).
BLURB = _s("Four candidates, one crown: hide your electors in the kingdom and sway the vote.",
           "4人の候補者と1つの王冠。王国に選帝侯を潜ませ、選挙を動かす。")


# -- names -------------------------------------------------------------------------------
def col_name(c: str | None, lang: str) -> str:
    """A colour's name (``R`` → Red / 赤); ``?`` or None → any."""
    if c in COLOURS:
        return t(f"electors.col.{c}", lang)
    return t("electors.any", lang)


def _join(items: list[str], lang: str) -> str:
    return ("、" if lang == "ja" else ", ").join(items)


def _colon(lang: str) -> str:
    return "：" if lang == "ja" else ": "


def _semi(lang: str) -> str:
    return "。" if lang == "ja" else "; "


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def seat_colours(view: dict[str, Any] | None, p: int) -> str:
    """The colour letters seat ``p`` plays (``"R"``, or ``"RG"`` in the 2-player variant)."""
    cols = (view or {}).get("colours") or COLOURS
    if isinstance(p, int) and 0 <= p < len(cols):
        return str(cols[p])
    return COLOURS[p] if isinstance(p, int) and 0 <= p < 4 else ""


def who(p: int, lang: str) -> str:
    """A seat's name: its colour (seat i plays COLOURS[i])."""
    return col_name(COLOURS[p], lang) if isinstance(p, int) and 0 <= p < 4 else str(p)


def seat_name(p: int, view: dict[str, Any] | None, lang: str) -> str:
    """A seat by the colours the view says it plays (``Red & Green`` for a pair)."""
    cols = seat_colours(view, p)
    if len(cols) == 2:
        return t("electors.pair_name", lang, a=col_name(cols[0], lang), b=col_name(cols[1], lang))
    return col_name(cols, lang) if cols else who(p, lang)


def forms(p: Any, me: int | None, view: dict[str, Any] | None, lang: str) -> dict[str, Any]:
    """How seat ``p`` is named for viewer ``me``: ``who``, ``who_l``, ``whose``,
    ``whose_l`` and ``you`` (1 for the viewer: an English verb agrees).

    >>> forms(1, 0, None, "en")["whose"], forms(0, 0, None, "en")["who"]
    ("Blue's", 'You')
    """
    if not isinstance(p, int):
        return {"who": "", "who_l": "", "whose": "", "whose_l": "", "you": 0}
    if me is not None and p == me:
        return {"who": t("electors.you", lang), "who_l": t("electors.you_l", lang),
                "whose": t("electors.your_l", lang), "whose_l": t("electors.your_l", lang),
                "you": 1}
    name = seat_name(p, view, lang)
    whose = t("electors.whose", lang, who=name)
    return {"who": name, "who_l": name, "whose": whose, "whose_l": whose, "you": 0}


def viewer(view: dict[str, Any] | None) -> int | None:
    you = (view or {}).get("you")
    return you if isinstance(you, int) else None


# -- cards -------------------------------------------------------------------------------
def parse_card(c: str) -> dict[str, Any] | None:
    """A grid/hand/acquired card code in parts.

    >>> parse_card("kG4")["kind"], parse_card("B3")["n"], parse_card("Rs")["special"]
    ('kingdom', 3, 's')
    >>> parse_card("G7>R")["as"]
    'R'
    """
    m = _CARD.match(c or "")
    if not m:
        return None
    k, col, what, as_ = m.groups()
    if what in SPECIALS:
        return {"kind": "special", "colour": col, "n": None, "special": what, "as": as_}
    return {"kind": "kingdom" if k else "number", "colour": col, "n": int(what),
            "special": None, "as": as_}


def counts_as(c: str) -> str:
    """The colour a card counts as (its recolour, else its printed colour)."""
    info = parse_card(c)
    if info is None:
        return "?"
    return info["as"] or info["colour"]


def card_name(c: str, lang: str) -> str:
    """A card in words: ``Green 4 (kingdom)``, ``Blue 3``, ``Red Bribery``, or an
    influence card: ``Power (Red)``."""
    info = parse_card(c)
    if info is None:
        return influence_name(c, lang) if influence_kind(c) else str(c)
    col = col_name(info["colour"], lang)
    if info["kind"] == "special":
        name = t(f"electors.c.{info['special']}", lang, col=col)
    else:
        name = (t("electors.c.kingdom", lang, col=col, n=info["n"]) if info["kind"] == "kingdom"
                else f"{col}{info['n']}" if lang == "ja" else f"{col} {info['n']}")
    if info["as"]:
        name = t("electors.c.as", lang, card=name, col=col_name(info["as"], lang))
    return name


def short_card(c: str, lang: str) -> str:
    """A card's face in a few characters (``青5``, ``B5``; kingdom ``k``; specials by a
    mark): the picture, its words are in the label."""
    info = parse_card(c)
    if info is None:
        return str(c)
    col = t(f"electors.short.{info['colour']}", lang)
    if info["kind"] == "special":
        mark = {"s": "§", "b": "$", "j": "☆"}[info["special"]]
        return f"{col}{mark}"
    return f"{col}{info['n']}"


def influence_kind(i: str) -> str | None:
    return INFLUENCE_KINDS.get((i or " ")[0])


def influence_colour(i: str) -> str | None:
    return i[1] if len(i) > 1 and i[1] in COLOURS else None


def influence_cost(i: str) -> list[str]:
    """Its cost marks, as the engine's ``INFLUENCE`` gives them (derived from the id)."""
    kind, col = influence_kind(i), influence_colour(i)
    if kind == "domain":
        return [col or "?", col or "?", "?"]
    if kind == "heart" or col is None:
        return ["?", "?"]
    return [col, "?"]


def influence_name(i: str, lang: str) -> str:
    kind = influence_kind(i)
    if kind is None:
        return str(i)
    name = t(f"electors.i.{kind}", lang)
    col = influence_colour(i)
    if kind == "heart":
        return name
    return t("electors.i.named", lang, kind=name, col=col_name(col, lang))


def option(view: dict[str, Any] | None, name: str, default: Any) -> Any:
    opts = (view or {}).get("options") or {}
    return opts.get(name, default)


def cost_words(i: str, lang: str) -> str:
    """``costs 1 Red + 1 of any colour``."""
    cost = influence_cost(i)
    parts = []
    for col in [c for c in COLOURS if c in cost]:
        parts.append(t("electors.cost_mark", lang, n=cost.count(col), col=col_name(col, lang)))
    if "?" in cost:
        parts.append(t("electors.cost_any", lang, n=cost.count("?")))
    return t("electors.cost", lang, marks=(" ＋ " if lang == "ja" else " + ").join(parts))


def effect_words(i: str, lang: str, view: dict[str, Any] | None = None) -> str:
    kind = influence_kind(i) or ""
    d = {"power": option(view, "power_delta", 1),
         "corruption": abs(option(view, "corruption_delta", -1)),
         "manor": option(view, "manor_vp", 2), "domain": option(view, "domain_vp", 3)}.get(kind, 0)
    return t(f"electors.eff.{kind}", lang, d=d) if kind else ""


# -- cells -------------------------------------------------------------------------------
def cell_name(r: int, c: int) -> str:
    """``cell_name(1, 1) == "b2"``: column letter, row number from the top."""
    return f"{LETTERS[c]}{r + 1}"


def parse_cell(name: str) -> tuple[int, int] | None:
    m = _CELL.match(name or "")
    if not m:
        return None
    return int(m.group(2)) - 1, LETTERS.index(m.group(1))


def _is_cell(action: str) -> bool:
    return parse_cell(action) is not None


# -- actions -----------------------------------------------------------------------------
def parse_match(action: str) -> tuple[str, str] | None:
    """``=R3PP`` → (``R3``, ``PP``)."""
    m = _MATCH.match(action)
    return (m.group(1), m.group(2)) if m else None


def parse_buy(action: str) -> tuple[str, list[str]] | None:
    """``$PR:R5,B2`` → (``PR``, [``R5``, ``B2``])."""
    if not action.startswith("$") or ":" not in action:
        return None
    card, _, paid = action[1:].partition(":")
    return card, [c for c in paid.split(",") if c]


def parse_heart(action: str) -> tuple[str, str] | None:
    """``hG7>R`` → (``G7``, ``R``)."""
    if not action.startswith("h") or ">" not in action:
        return None
    card, _, col = action[1:].rpartition(">")
    return (card, col) if col in COLOURS else None


def matched_number(card: str, mods: str, view: dict[str, Any] | None) -> int | None:
    info = parse_card(card)
    if info is None or info["n"] is None:
        return None
    return (info["n"] + mods.count("P") * option(view, "power_delta", 1)
            + mods.count("X") * option(view, "corruption_delta", -1))


def _mods_words(mods: str, lang: str) -> str:
    kind = "power" if "P" in mods else "corruption"
    name = t(f"electors.i.{kind}", lang)
    return name if len(mods) == 1 else t("electors.b.times", lang, n=len(mods), kind=name)


def match_label(action: str, lang: str, view: dict[str, Any] | None = None) -> str:
    """``Match with your Blue 3 raised to 4 by Power``."""
    card, mods = parse_match(action) or ("", "")
    name = card_name(card, lang)
    if not mods:
        return t("electors.b.match", lang, card=name)
    n = matched_number(card, mods, view)
    key = "electors.b.raised" if "P" in mods else "electors.b.lowered"
    return t("electors.b.match_mod", lang, card=name,
             how=t(key, lang, n=n, what=_mods_words(mods, lang)))


def move_text(action: str, player: int, lang: str) -> str:
    """An action in words for a replay's move list.

    >>> move_text("b2", 0, "en"), move_text("=R3P", 0, "en"), move_text("c:G", 0, "ja")
    ('choose row 2, column b', 'Match with your Red 3 raised to 4 by Power', '候補者・緑にキューブ')
    """
    ja = lang == "ja"
    if _is_cell(action):
        r, c = parse_cell(action) or (0, 0)  # in words: the notation is for the record
        return f"{r + 1}行目・{LETTERS[c]}列を選ぶ" if ja else f"choose row {r + 1}, column {LETTERS[c]}"
    # Words, never the notation (a replay's move list reads "Blue draws cards").
    fixed = {"draw": _s("draws cards", "カードを引く"), "pass": _s("passes", "パス"),
             "take": _s("takes the card into hand", "手札に取る"),
             "end": _s("ends the turn", "手番終了"), "done": _s("has finished", "終える")}
    if action in fixed:
        return fixed[action][lang if lang in ("en", "ja") else "en"]
    if parse_match(action):
        return match_label(action, lang)
    buy = parse_buy(action)
    if buy:
        card, paid = buy
        cards = _join([card_name(c, lang) for c in paid], lang)
        return (f"{influence_name(card, lang)}を購入（{cards}）" if ja
                else f"buy {influence_name(card, lang)} ({cards})")
    heart = parse_heart(action)
    if heart:
        return t("electors.b.heart_as", lang, card=card_name(heart[0], lang),
                 col=col_name(heart[1], lang))
    head, _, arg = action.partition(":")
    if head == "v":
        return f"{card_name(arg, lang)}を置く" if ja else f"put back {card_name(arg, lang)}"
    if head == "c":
        return (f"候補者・{col_name(arg, lang)}にキューブ" if ja
                else f"cube on {col_name(arg, lang)}")
    if head == "t":
        return f"{card_name(arg, lang)}を取る" if ja else f"take {card_name(arg, lang)}"
    if head == "pr":
        cards = _join([card_name(c, lang) for c in arg.split(",")], lang)
        return f"ペア公開：{cards}" if ja else f"reveal {cards}"
    return action


# -- local choices -----------------------------------------------------------------------
def new_selection() -> dict[str, Any]:
    """``buy``: the market card picked (its payments are shown); ``heart``: a Change of
    Heart started; ``heart_card``: the acquired card it will recolour."""
    return {"buy": None, "heart": False, "heart_card": None}


def payments(card: str, legal: list[str]) -> list[str]:
    return [a for a in legal if (parse_buy(a) or ("",))[0] == card]


def heart_cards(legal: list[str]) -> list[str]:
    """The acquired cards a Change of Heart may recolour now, in order."""
    out: list[str] = []
    for a in legal:
        h = parse_heart(a)
        if h and h[0] not in out:
            out.append(h[0])
    return out


def _current(sel: dict[str, Any], legal: list[str]) -> dict[str, Any]:
    """The selection as far as it still fits the legal actions (a stale one counts as none)."""
    cur = new_selection()
    if sel.get("buy") and payments(sel["buy"], legal):
        cur["buy"] = sel["buy"]
    elif sel.get("heart") and heart_cards(legal):
        cur["heart"] = True
        if sel.get("heart_card") in heart_cards(legal):
            cur["heart_card"] = sel["heart_card"]
    return cur


def handle(cmd: str, sel: dict[str, Any], legal: list[str],
           view: dict[str, Any] | None = None) -> str | None:
    """A click, as an engine action once one is made.

    >>> legal = ["b2", "draw", "$PR:B2,R5", "$PR:R5,R7"]
    >>> sel = new_selection()
    >>> handle("cell:b2", sel, legal), handle("buy:PR", sel, legal), sel["buy"]
    ('b2', None, 'PR')
    >>> handle("act:$PR:R5,R7", sel, legal), sel["buy"]
    ('$PR:R5,R7', None)
    """
    name, _, arg = cmd.partition(":")
    cur = _current(sel, legal)
    if name == "act":
        if arg in legal:
            sel.update(new_selection())
            return arg
        return None
    if name == "cell":
        if arg in legal and _is_cell(arg):
            sel.update(new_selection())
            return arg
        return None
    if name == "cancel":
        sel.update(new_selection())
        return None
    if name == "buy":
        if payments(arg, legal):
            sel.update(new_selection())
            if cur["buy"] != arg:
                sel["buy"] = arg
        return None
    if name == "heart":
        if not arg:
            sel.update(new_selection())
            if not cur["heart"] and heart_cards(legal):
                sel["heart"] = True
        elif arg in heart_cards(legal):
            sel.update(new_selection(), heart=True,
                       heart_card=None if cur["heart_card"] == arg else arg)
        return None
    return None


# -- the log -----------------------------------------------------------------------------
def _cards(cards: list[str], lang: str) -> str:
    return _join([card_name(c, lang) for c in cards], lang) or t("electors.none", lang)


def _back_words(back: Any, lang: str) -> str:
    if back == "k":
        return t("electors.cell_down_k", lang)
    if back in COLOURS:
        return t("electors.cell_down_col", lang, col=col_name(back, lang))
    return t("electors.cell_down_any", lang)


def _counts_words(counts: dict[str, int] | None, lang: str) -> str:
    fmt = "{c}{n}枚" if lang == "ja" else "{c} {n}"
    items = [fmt.format(c=col_name(c, lang), n=n) for c, n in sorted((counts or {}).items(),
                                                             key=lambda kv: (-kv[1], kv[0])) if n]
    return _join(items, lang) or t("electors.none", lang)


SCORE_PARTS = ("rank1", "rank2", "rank3", "rank4", "manor", "domain", "hand")


def _score_parts(e: dict[str, Any], lang: str) -> str:
    sep = "" if lang == "ja" else " "
    items = [f"{t(f'electors.f.{k}', lang)}{sep}{_signed(e[k])}"
             for k in SCORE_PARTS if e.get(k)]
    return _join(items, lang) or t("electors.none", lang)


def _signed(n: Any) -> str:
    return f"+{n}" if isinstance(n, int) and n > 0 else str(n).replace("-", "−")


def describe(event: dict[str, Any], lang: str, view: dict[str, Any] | None = None) -> str:
    """One engine event in words, to the viewer of ``view`` ("you"), if anybody's. Hidden
    fields are worded only when the viewer's event carries them.

    >>> describe({"t": "draw", "p": 1, "n": 3}, "en")
    'Blue draws 3 cards.'
    >>> describe({"t": "draw", "p": 0, "n": 1, "cards": ["R5"]}, "en", {"you": 0})
    'You draw Red 5.'
    """
    kind = event.get("t", "")
    p = event.get("p")
    me = viewer(view)
    f = forms(p, me, view, lang)
    if kind == "start":
        return t("electors.ev.start", lang, **f)
    if kind in ("deal", "draw"):
        cards = event.get("cards")
        if cards:
            return t(f"electors.ev.{kind}_seen", lang, **f, cards=_cards(cards, lang))
        return t(f"electors.ev.{kind}", lang, **f, n=event.get("n", 0))
    if kind == "turn":
        return t("electors.ev.turn", lang, round=event.get("round", ""), **f)
    if kind == "choose":
        return t("electors.ev.choose", lang, **f, cell=event.get("cell", "?"),
                 card=card_name(event.get("c") or "", lang))
    if kind == "trap":
        c = event.get("c") or ""
        info = parse_card(c) or {"colour": "?"}
        args = dict(f, card=card_name(c, lang), cell=event.get("cell", "?"),
                    col=col_name(info["colour"], lang))
        if event.get("own"):
            return t("electors.ev.trap_own", lang, **args)
        owner = event.get("owner")
        if not isinstance(owner, int):
            return t("electors.ev.trap_nobody", lang, **args)
        owner_f = forms(owner, me, view, lang)
        args["card"] = t(f"electors.sp.{info.get('special') or 'b'}", lang)
        return t("electors.ev.trap", lang, **args, owner_whose=owner_f["whose"])
    if kind == "scheme":
        return t("electors.ev.scheme", lang, **f, n=event.get("n", 0))
    if kind == "bribe":
        fr = forms(event.get("from"), me, view, lang)
        if "back" in event:  # bribery_mode owner_takes_random_hand_card: from the hand
            if event.get("c"):
                return t("electors.ev.bribe_hand", lang, **f, card=card_name(event["c"], lang),
                         from_whose=fr["whose"])
            return t("electors.ev.bribe_hand_back", lang, **f, from_whose=fr["whose"],
                     back=_back_words(event.get("back"), lang))
        if not event.get("c"):
            return t("electors.ev.bribe_none", lang)
        return t("electors.ev.bribe", lang, **f, card=card_name(event["c"], lang),
                 from_whose=fr["whose"])
    if kind == "jester":
        cells, cards = event.get("cells") or [], event.get("cards") or []
        if not cells:
            return t("electors.ev.jester_none", lang)
        sep = "：" if lang == "ja" else " "
        items = [f"{cell}{sep}{card_name(c, lang)}" for cell, c in zip(cells, cards, strict=False)]
        items += list(cells[len(cards):])
        return t("electors.ev.jester", lang, cards=_join(items, lang))
    if kind == "match":
        mods = event.get("mods") or ""
        how = ""
        if mods:
            n = matched_number(event.get("with") or "", mods, view)
            key = "electors.ev.how_up" if "P" in mods else "electors.ev.how_down"
            how = t(key, lang, n=n, what=_mods_words(mods, lang))
        return t("electors.ev.match", lang, **f, card=card_name(event.get("c") or "", lang),
                 cell=event.get("cell", "?"), with_=card_name(event.get("with") or "", lang),
                 how=how)
    if kind == "take":
        return t("electors.ev.take", lang, **f, card=card_name(event.get("c") or "", lang),
                 cell=event.get("cell", "?"))
    if kind in ("put", "decktop"):
        c = event.get("c")
        if c:
            return _cap(t(f"electors.ev.{kind}_seen", lang, **f, card=card_name(c, lang),
                          cell=event.get("cell", "?")))
        return _cap(t(f"electors.ev.{kind}", lang, **f, cell=event.get("cell", "?"),
                      back=_back_words(event.get("back"), lang)))
    if kind == "buy":
        text = t("electors.ev.buy", lang, **f, card=influence_name(event.get("card") or "", lang),
                 paid=_cards(event.get("paid") or [], lang))
        refill = event.get("refill")
        if refill:
            text += t("electors.ev.refill", lang, card=influence_name(refill, lang))
        elif "refill" in event:
            text += t("electors.ev.no_refill", lang)
        return text
    if kind == "cube":
        return t("electors.ev.cube", lang, **f, col=col_name(event.get("colour"), lang))
    if kind == "heart":
        return t("electors.ev.heart", lang, **f, card=card_name(event.get("c") or "", lang),
                 col=col_name(event.get("as"), lang))
    if kind in ("pass", "end"):
        return t(f"electors.ev.{kind}", lang, **f)
    if kind == "trigger":
        last = forms(event.get("last_turn"), me, view, lang)
        key = "electors.ev.trigger_safety" if event.get("safety") else "electors.ev.trigger"
        return _cap(t(key, lang, whose=f["whose"],
                      last_whose=last["whose"]))
    if kind == "pairs":
        cards = event.get("cards") or []
        if not cards:
            return t("electors.ev.pairs_none", lang, **f)
        return t("electors.ev.pairs", lang, **f, cards=_cards(cards, lang))
    if kind == "row":
        col = event.get("colour")
        counts = event.get("counts") or {}
        row = event.get("row", "?")
        if col in COLOURS:
            return t("electors.ev.row", lang, row=row, col=col_name(col, lang),
                     counts=_counts_words(counts, lang))
        top = max(counts.values(), default=0)
        leaders = [c for c, n in counts.items() if n == top and c in COLOURS]
        if top and len(leaders) == 1:  # a sole leader with no cube: the supply ran out
            return t("electors.ev.row_lost", lang, row=row, col=col_name(leaders[0], lang),
                     counts=_counts_words(counts, lang))
        if any(counts.values()):
            return t("electors.ev.row_tie", lang, row=row, counts=_counts_words(counts, lang))
        return t("electors.ev.row_none", lang, row=row)
    if kind == "rank":
        return t("electors.ev.rank", lang, ranks=_ranks_words(event.get("ranks") or {}, lang))
    if kind == "score":
        return t("electors.ev.score", lang, **f, total=event.get("total", 0),
                 parts=_score_parts(event, lang))
    if kind == "over":
        places = event.get("places") or []
        return t("electors.ev.over", lang, places=_join(
            [t("electors.place_item", lang, who=forms(s, me, view, lang)["who"], n=n)
             for s, n in sorted(enumerate(places), key=lambda sn: (sn[1], sn[0]))], lang))
    return t("electors.ev.other", lang, kind=kind)


def _ranks_words(ranks: dict[str, int], lang: str) -> str:
    items = sorted(ranks.items(), key=lambda kv: (kv[1], COLOURS.index(kv[0])
                                                  if kv[0] in COLOURS else 9))
    return _join([t("electors.f.rank_item", lang, col=col_name(c, lang), n=n)
                  for c, n in items], lang)


def result_reason(outcome: dict[str, Any], lang: str) -> str:
    winners = outcome.get("winners") or []
    scores = outcome.get("scores") or []
    n = scores[winners[0]] if winners and winners[0] < len(scores) else 0
    if len(winners) > 1:
        names = ("・" if lang == "ja" else " & ").join(who(w, lang) for w in winners)
        return t("electors.reason_tie", lang, who=names, n=n)
    if winners:
        return t("electors.reason", lang, who=who(winners[0], lang), n=n, you=0)
    return t("electors.none", lang)


def step_delay(event: dict[str, Any], speed: int) -> int:
    """A sprung trap, a Jester, a Bribery and the scoring get a longer look."""
    if event.get("t") in ("trap", "jester", "bribe", "scheme", "trigger", "row", "score"):
        return speed * 3 // 2
    return speed


# -- the table during a playback -----------------------------------------------------------
def board_at(before: dict[str, Any], events: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The position of ``before`` with ``events`` (that followed it) applied, for a
    step-by-step playback; None if an event cannot be followed (then the view is drawn).
    Only what the events say is added, so nothing the viewer may not see appears."""
    b = copy.deepcopy(before)
    grid = b.get("grid")
    if not grid:
        return None

    def at(cell: Any) -> tuple[int, int]:
        rc = parse_cell(str(cell))
        if rc is None or rc[0] >= len(grid) or rc[1] >= len(grid[rc[0]]):
            raise KeyError(cell)
        return rc

    try:
        for e in events:
            kind, p = e.get("t"), e.get("p")
            if kind in ("choose", "trap"):
                r, c = at(e["cell"])
                grid[r][c] = {"up": True, "c": e["c"]}
            elif kind == "jester":
                for cell, card in zip(e.get("cells") or [], e.get("cards") or [], strict=False):
                    r, c = at(cell)
                    grid[r][c] = {"up": True, "c": card}
            elif kind in ("match", "take"):
                r, c = at(e["cell"])
                grid[r][c] = None
                if kind == "match":
                    b["acquired"][p] = sorted([*b["acquired"][p], e["c"], e["with"]])
                    b["hand_counts"][p] -= 1
                else:
                    b["hand_counts"][p] += 1
            elif kind in ("put", "decktop"):
                r, c = at(e["cell"])
                grid[r][c] = {"up": False, "back": e.get("back", "?"),
                              **({"c": e["c"]} if e.get("c") else {})}
                b["hand_counts" if kind == "put" else "deck_counts"][p] -= 1
            elif kind == "draw":
                b["hand_counts"][p] += e.get("n", 0)
                b["deck_counts"][p] -= e.get("n", 0)
            elif kind == "scheme":
                b["deck_counts"][p] -= e.get("n", 0)
            elif kind == "bribe" and "back" in e:  # a random hand card
                b["hand_counts"][e.get("from")] -= 1
                b["hand_counts"][p] += 1
            elif kind == "bribe" and e.get("c"):
                src = e.get("from")
                card = e["c"]
                pool = b["acquired"][src]
                gone = next((x for x in pool if x == card or x.split(">")[0] == card), None)
                if gone is not None:
                    pool.remove(gone)
                b["acquired"][p] = sorted([*b["acquired"][p], card.split(">")[0]])
            elif kind == "buy":
                market = b.get("market") or []
                card = e.get("card")
                if card in market:
                    i = market.index(card)
                    if e.get("refill"):
                        market[i] = e["refill"]
                        b["influence_deck"] = max(0, b.get("influence_deck", 0) - 1)
                    else:
                        market.pop(i)
                pool = b["acquired"][p]
                for x in e.get("paid") or []:
                    if x in pool:
                        pool.remove(x)
                b["influence"][p] = [*b["influence"][p], {"id": card, "used": False}]
                b["bought"] = True
            elif kind == "cube":
                col = e.get("colour")
                b["cubes"][col] = b["cubes"].get(col, 0) + 1
                b["supply"] = max(0, b.get("supply", 0) - 1)
            elif kind == "row" and e.get("colour") in COLOURS:
                b["cubes"][e["colour"]] = b["cubes"].get(e["colour"], 0) + 1
                b["supply"] = max(0, b.get("supply", 0) - 1)
            elif kind == "pairs":
                b["acquired"][p] = sorted([*b["acquired"][p], *(e.get("cards") or [])])
                b["hand_counts"][p] -= len(e.get("cards") or [])
    except (KeyError, IndexError, TypeError, ValueError):
        return None
    return b


def _step_cells(event: dict[str, Any] | None) -> set[str]:
    if not event:
        return set()
    cells = set(event.get("cells") or [])
    if event.get("cell"):
        cells.add(event["cell"])
    return cells


# -- rendering -------------------------------------------------------------------------------
class _Screen:
    """What one render needs, worked out once."""

    def __init__(self, view: dict[str, Any], legal: list[str], lang: str,
                 sel: dict[str, Any], acting: bool) -> None:
        self.view, self.lang = view, lang
        self.legal = legal if acting else []
        self.legal_set = set(self.legal)
        self.acting = acting
        self.sel = _current(sel, self.legal)
        self.me = viewer(view)
        self.mine = seat_colours(view, self.me) if self.me is not None else ""
        self.phase = view.get("phase", "")
        self.animating = False
        self.now: set[str] = set()
        self.current: dict[str, Any] | None = None

    def f(self, p: Any) -> dict[str, Any]:
        return forms(p, self.me, self.view, self.lang)


def _face(c: str, lang: str, extra: str = "", *, drawn: bool = False) -> str:
    """A card's picture (its words are in the label of what holds it). ``drawn``: inside a
    button, its few characters are drawn by CSS (``data-t``), not text, so the button's
    label is all it says (a label must contain a button's visible text, and ``R5`` is
    not in "Red 5": axe's label-content-name-mismatch)."""
    info = parse_card(c)
    text = esc(short_card(c, lang) if info else c)
    body, data = ("", f' data-t="{text}"') if drawn else (text, "")
    if info is None:
        return f'<span class="face{extra}"{data} aria-hidden="true">{body}</span>'
    col = info["as"] or info["colour"]
    kind = {"kingdom": "kk", "number": "kn", "special": "ks"}[info["kind"]]
    recol = f' data-as="{info["as"]}"' if info["as"] else ""
    return (f'<span class="face {kind} col-{info["colour"]} as-{col}{extra}"{recol}{data} '
            f'aria-hidden="true">{body}</span>')


def _cell_what(s: _Screen, cell: dict[str, Any] | None) -> tuple[str, str, str]:
    """(inner HTML, words, classes) of one grid cell."""
    lang = s.lang
    if cell is None:
        return "", t("electors.cell_empty", lang), "empty"
    c = cell.get("c")
    if cell.get("up"):
        return (_face(c or "", lang, drawn=True),
                t("electors.cell_up", lang, card=card_name(c or "", lang)), "up")
    back = cell.get("back", "?")
    words = _back_words(back, lang)
    backcls = f"back back-{back if back in COLOURS or back == 'k' else 'plain'}"
    glyph = ("王" if lang == "ja" else "K") if back == "k" else (
        t(f"electors.short.{back}", lang) if back in COLOURS else "?")
    # The back's letter is drawn by CSS (attr), not text: a seen face inside the same button
    # is then the button's only visible text, which its label names (a label must contain
    # what is seen: axe's label-content-name-mismatch).
    inner = f'<span class="bk" aria-hidden="true" data-g="{esc(glyph)}"></span>'
    if c:
        colour = (parse_card(c) or {}).get("colour")
        yours = bool(colour and colour in s.mine and back != "k")
        key = "electors.cell_yours" if yours else "electors.cell_known"
        words += (", " if lang == "en" else "、") + t(key, lang, card=card_name(c, lang))
        inner += _face(c, lang, " seen", drawn=True)
        backcls += " known" + (" mine" if yours else "")
    return inner, words, f"down {backcls}"


def _grid(s: _Screen, board: dict[str, Any]) -> str:
    view, lang = s.view, s.lang
    grid = board.get("grid") or []
    rows = len(grid)
    cols = max((len(r) for r in grid), default=0)
    pending = (view.get("pending") or {}).get("cell") if not s.animating else None
    choosable = {a for a in s.legal if _is_cell(a)}
    out = ['<span class="edge corner" aria-hidden="true"></span>']
    out += [f'<span class="edge col" aria-hidden="true">{LETTERS[c]}</span>' for c in range(cols)]
    for r, row in enumerate(grid):
        out.append(_row_head(s, r, row))
        for c, cell in enumerate(row):
            name = cell_name(r, c)
            inner, what, classes = _cell_what(s, cell)
            parts = [t("electors.cell", lang, row=r + 1, col=LETTERS[c], what=what)]
            cls = ["cell", *classes.split()]
            if name == pending:
                cls.append("pending")
                parts.append(t("electors.cell_pending", lang))
            enabled = name in choosable
            if enabled:
                cls.append("target")
                parts.append(t("electors.cell_choose_up" if cell and cell.get("up")
                               else "electors.cell_choose", lang))
            if name in s.now:
                cls.append("now")
                parts.append(t("electors.cell_now", lang))
            reveal = ' data-reveal="cell"' if name in s.now else ""
            attrs = f' data-cmd="cell:{name}"' if enabled else " disabled"
            out.append(f'<button type="button" class="{" ".join(cls)}" data-cell="{name}"{attrs}'
                       f'{reveal} aria-label="{esc(", ".join(parts) if lang == "en" else "、".join(parts))}">'
                       f'{inner}</button>')
    mark = " data-choice" if choosable else ""
    return (f'<section class="egrid-wrap" aria-label="{esc(t("electors.grid", lang))}"{mark}>'
            f'<div class="egrid" style="--rows:{rows};--cols:{cols}">{"".join(out)}</div></section>')


def row_counts(row: list[Any]) -> tuple[dict[str, int], int]:
    """Elector cards per colour in a row, as far as the backs and faces show (kingdom
    cards never count), and how many face-down cards' colour is not shown."""
    counts: dict[str, int] = {}
    unknown = 0
    for cell in row:
        if cell is None:
            continue
        if cell.get("up"):
            info = parse_card(cell.get("c") or "")
            if info and info["kind"] != "kingdom":
                counts[info["colour"]] = counts.get(info["colour"], 0) + 1
            continue
        back = cell.get("back")
        if back in COLOURS:
            counts[back] = counts.get(back, 0) + 1
        elif back != "k":
            info = parse_card(cell.get("c") or "")
            if info and info["kind"] != "kingdom":
                counts[info["colour"]] = counts.get(info["colour"], 0) + 1
            elif not info:
                unknown += 1
    return counts, unknown


def _row_head(s: _Screen, r: int, row: list[Any]) -> str:
    lang = s.lang
    counts, unknown = row_counts(row)
    top = max(counts.values(), default=0)
    leaders = [c for c, n in counts.items() if n == top and n]
    words = _counts_words(counts, lang)
    lead = ""
    if len(leaders) == 1:
        words += " (" + t("electors.row_lead", lang, col=col_name(leaders[0], lang)) + ")" \
            if lang == "en" else "（" + t("electors.row_lead", lang, col=col_name(leaders[0], lang)) + "）"
        lead = f'<i class="lead col-{leaders[0]}" aria-hidden="true"></i>'
    elif len(leaders) > 1:
        words += " (" + t("electors.row_tie", lang) + ")" if lang == "en" \
            else "（" + t("electors.row_tie", lang) + "）"
    if unknown:
        words += ("; " if lang == "en" else "。") + t("electors.row_unknown", lang, n=unknown)
    label = t("electors.row_count", lang, row=r + 1, counts=words)
    step = s.current or {}
    reveal = ' data-reveal="row"' if step.get("t") == "row" and step.get("row") == r + 1 else ""
    return (f'<span class="edge row" data-row="{r + 1}" data-lead="{"".join(leaders)}"{reveal}>'
            f'<span aria-hidden="true">{r + 1}</span>{lead}'
            f'<span class="sr-only">{esc(label)}</span></span>')


def _acquired_html(cards: list[str], lang: str) -> str:
    """Acquired cards grouped by the colour they count as."""
    groups: dict[str, list[str]] = {}
    for c in cards:
        groups.setdefault(counts_as(c), []).append(c)
    out = []
    for col in [*COLOURS, "?"]:
        if col not in groups:
            continue
        faces = "".join(_face(c, lang) for c in groups[col])
        words = _cards(groups[col], lang)
        out.append(f'<li class="agroup col-{col}" data-colour="{col}" data-n="{len(groups[col])}">'
                   f'<span class="sr-only">{esc(col_name(col, lang))}{_colon(lang)}{esc(words)}</span>{faces}</li>')
    if not out:
        return f'<p class="muted none">{esc(t("electors.none", lang))}</p>'
    return f'<ul class="acq">{"".join(out)}</ul>'


def _influence_state(item: dict[str, Any], lang: str) -> tuple[str, str]:
    if item.get("spent"):
        return "spent", t("electors.spent", lang)
    if item.get("used"):
        return "used", t("electors.used", lang)
    return "ready", t("electors.ready", lang)


def _influence_html(items: list[dict[str, Any]], lang: str) -> str:
    if not items:
        return ""
    out = []
    for it in items:
        state, words = _influence_state(it, lang)
        i = it.get("id", "")
        out.append(f'<li class="inf {state} k-{influence_kind(i) or "x"} col-{influence_colour(i) or "any"}" '
                   f'data-id="{esc(i)}" data-state="{state}">{esc(influence_name(i, lang))}'
                   f'<span class="st"> · {esc(words)}</span></li>')
    return f'<ul class="infl">{"".join(out)}</ul>'


def _strip(s: _Screen, board: dict[str, Any], p: int, seat_label: str) -> str:
    view, lang = s.view, s.lang
    hand = (board.get("hand_counts") or [0] * 4)[p]
    deck = (board.get("deck_counts") or [0] * 4)[p]
    acquired = (board.get("acquired") or [[]] * 4)[p]
    influence = (board.get("influence") or [[]] * 4)[p]
    moving = p in (view.get("to_move") or []) and view.get("phase") != "over"
    active = view.get("active") == p and view.get("phase") != "over"
    label = f' <span class="seat">({esc(seat_label)})</span>' if seat_label else ""
    badge = f' <span class="badge tomove">{esc(t("electors.to_move", lang))}</span>' if moving else ""
    trig = view.get("trigger") or {}
    flag = ""
    if trig and trig.get("p") == p and not trig.get("safety"):
        flag = ' <span class="flag" aria-hidden="true">⌛</span>'
    infl_words = _join([f"{influence_name(it.get('id', ''), lang)} ({_influence_state(it, lang)[1]})"
                        for it in influence], lang) or t("electors.none", lang)
    seat = (f"（{seat_label}）" if lang == "ja" else f" ({seat_label})") if seat_label else ""
    full = t("electors.strip_label", lang, who=seat_name(p, view, lang), seat=seat,
             moving=t("electors.moving", lang) if moving else "", hand=hand, deck=deck,
             acquired=_cards(acquired, lang), influence=infl_words)
    cols = seat_colours(view, p)
    open_hand = ""
    hands = view.get("open_hands")
    if hands and p < len(hands) and p != s.me:
        open_hand = (f'<p class="open-hand" data-open-hand="{p}">'
                     f'{esc(t("electors.open_hand", lang, cards=_cards(hands[p], lang)))}</p>')
    classes = ["pstrip", *(f"col-{c}" for c in cols)]
    if active:
        classes.append("active")
    if p == s.me:
        classes.append("mine")
    return (f'<section class="{" ".join(classes)}" data-seat="{p}" data-hand="{hand}" '
            f'data-deck="{deck}" data-acquired="{len(acquired)}">'
            f'<p class="sr-only">{esc(full)}</p>'
            f'<div aria-hidden="true"><h3><span class="swatch"></span>{esc(seat_name(p, view, lang))}'
            f'{label}{badge}{flag}</h3>'
            f'<p class="counts"><span>{esc(t("electors.hand_n", lang, n=hand))}</span>'
            f'<span>{esc(t("electors.deck_n", lang, n=deck))}</span></p>'
            f'{_acquired_html(acquired, lang)}{_influence_html(influence, lang)}</div>'
            f'{open_hand}</section>')


def _candidates(s: _Screen, board: dict[str, Any]) -> str:
    lang = s.lang
    cubes = board.get("cubes") or {}
    ranks = ((s.view.get("final") or {}).get("ranks") or {}) if not s.animating else {}
    items = []
    for col in COLOURS:
        n = cubes.get(col, 0)
        rank = ranks.get(col)
        rank_words = t("electors.cand_rank", lang, n=rank) if rank else ""
        label = t("electors.cand_label", lang, col=col_name(col, lang), n=n, rank=rank_words)
        pips = "".join('<i class="cpip"></i>' for _ in range(min(n, 12)))
        rank_tag = (f'<span class="rank">{esc(t("electors.rank_n", lang, n=rank))}</span>'
                    if rank else "")
        items.append(f'<li class="cand col-{col}" data-colour="{col}" data-cubes="{n}"'
                     f'{f" data-rank={chr(34)}{rank}{chr(34)}" if rank else ""}>'
                     f'<span class="sr-only">{esc(label)}</span>'
                     f'<span aria-hidden="true"><b>{esc(col_name(col, lang))}</b> '
                     f'<span class="n">{n}</span>{rank_tag}<span class="pips">{pips}</span></span></li>')
    supply = board.get("supply", 0)
    return (f'<section class="ecands" aria-label="{esc(t("electors.candidates", lang))}">'
            f'<ul>{"".join(items)}</ul>'
            f'<p class="supply" data-supply="{supply}">{esc(t("electors.supply", lang, n=supply))}</p>'
            f'</section>')


def _market(s: _Screen, board: dict[str, Any]) -> str:
    lang, view = s.lang, s.view
    market = board.get("market") or []
    items = []
    choice = False
    for i in market:
        name = influence_name(i, lang)
        cost, effect = cost_words(i, lang), effect_words(i, lang, view)
        marks = "".join(f'<i class="mark col-{m if m in COLOURS else "any"}" aria-hidden="true">'
                        f'{esc(t(f"electors.short.{m}", lang) if m in COLOURS else "?")}</i>'
                        for m in influence_cost(i))
        body = (f'<span class="iname">{esc(name)}</span><span class="marks">{marks}</span>'
                f'<small class="eff">{esc(effect)}</small>')
        can = bool(payments(i, s.legal))
        if can:
            choice = True
            picked = s.sel["buy"] == i
            label = t("electors.b.buy", lang, card=name, cost=cost, effect=effect)
            items.append(f'<li><button type="button" class="icard{" picked" if picked else ""}" '
                         f'data-cmd="buy:{esc(i)}" data-id="{esc(i)}" aria-pressed="{str(picked).lower()}" '
                         f'aria-label="{esc(label)}">{body}</button></li>')
        else:
            items.append(f'<li class="icard" data-id="{esc(i)}"><span class="sr-only">'
                         f'{esc(name)}{_colon(lang)}{esc(cost)}{_semi(lang)}{esc(effect)}</span>'
                         f'<span aria-hidden="true">{body}</span></li>')
    body = (f'<ul class="mcards">{"".join(items)}</ul>' if items
            else f'<p class="muted">{esc(t("electors.market_empty", lang))}</p>')
    deck = board.get("influence_deck", 0)
    # Not the current choice's mark: a buy is optional (its payments are asked in the
    # choice's buttons once a card is picked), and the phone keeps the grid in view.
    mark = ' data-buyable="true"' if choice else ""
    reveal = ' data-reveal="market"' if s.current and s.current.get("t") == "buy" else ""
    return (f'<section class="emarket"{mark}{reveal}><h2>{esc(t("electors.market", lang))}</h2>{body}'
            f'<p class="ideck" data-influence-deck="{deck}">{esc(t("electors.influence_deck", lang, n=deck))}</p>'
            f'</section>')


def _hand(s: _Screen) -> str:
    view, lang = s.view, s.lang
    hand = view.get("hand")
    if s.me is None or hand is None:
        return ""
    cell = (view.get("pending") or {}).get("cell", "")
    items, choice, seen = [], False, set()
    for c in hand:
        action = f"v:{c}"
        if action in s.legal_set and c not in seen:
            seen.add(c)
            choice = True
            label = t("electors.b.put", lang, card=card_name(c, lang), cell=cell)
            items.append(f'<li><button type="button" class="hcard" data-cmd="act:{esc(action)}" '
                         f'aria-label="{esc(label)}">{_face(c, lang, drawn=True)}</button></li>')
        else:
            items.append(f'<li class="hcard"><span role="img" aria-label="{esc(card_name(c, lang))}">'
                         f'{_face(c, lang)}</span></li>')
    title = t("electors.hand", lang)
    body = (f'<ul class="hcards">{"".join(items)}</ul>' if items else
            f'<p class="muted">{esc(t("electors.hand_empty", lang))}</p>')
    # Waiting for the others, your hand is what you study (as every table marks it).
    mark = " data-choice" if choice or not (s.acting or s.animating) else ""
    return (f'<section class="ehand" aria-label="{esc(title)}"{mark} data-n="{len(hand)}">'
            f'<h2>{esc(title)}</h2>{body}</section>')


def _button(action: str, label: str, cls: str = "", *, short: str = "") -> str:
    """An action's button: ``label`` its words, or with ``short`` those on the button and
    ``label`` for screen readers."""
    klass = f' class="{cls}"' if cls else ""
    aria = f' aria-label="{esc(label)}"' if short else ""
    return (f'<button type="button"{klass} data-cmd="act:{esc(action)}"{aria}>'
            f'{esc(short or label)}</button>')


def _cmd_button(cmd: str, label: str, cls: str = "", pressed: bool | None = None) -> str:
    klass = f' class="{cls}"' if cls else ""
    press = "" if pressed is None else f' aria-pressed="{str(pressed).lower()}"'
    return f'<button type="button"{klass} data-cmd="{esc(cmd)}"{press}>{esc(label)}</button>'


def _pending_card(view: dict[str, Any]) -> tuple[str, str]:
    pend = view.get("pending") or {}
    return pend.get("cell") or "?", pend.get("c") or ""


def _controls(s: _Screen) -> str:
    view, lang, legal = s.view, s.lang, s.legal
    if not s.acting:
        return ""
    out: list[str] = []
    offered: set[str] = set()

    def add(action: str, label: str, cls: str = "", short: str = "") -> None:
        if action in s.legal_set and action not in offered:
            offered.add(action)
            out.append(_button(action, label, cls, short=short))

    me = s.me
    if s.sel["buy"]:
        card = s.sel["buy"]
        for a in payments(card, legal):
            _, paid = parse_buy(a) or ("", [])
            add(a, t("electors.b.pay", lang, cards=_cards(paid, lang)), "pay")
        out.append(_cmd_button("cancel", t("electors.b.cancel", lang), "cancel"))
    elif s.sel["heart"]:
        hc = s.sel["heart_card"]
        for c in heart_cards(legal):
            out.append(_cmd_button(f"heart:{c}", t("electors.b.heart_card", lang, card=card_name(c, lang)),
                                   "heart-card" + (" picked" if c == hc else ""), pressed=c == hc))
        if hc:
            for a in legal:
                h = parse_heart(a)
                if h and h[0] == hc:
                    add(a, t("electors.b.heart_as", lang, card=card_name(hc, lang),
                             col=col_name(h[1], lang)), f"as col-{h[1]}")
        out.append(_cmd_button("cancel", t("electors.b.cancel", lang), "cancel"))
    else:
        phase = s.phase
        if phase == "turn":
            n = min(option(view, "draw_B", 3), (view.get("deck_counts") or [3] * 4)[me])
            add("draw", t("electors.b.draw", lang, n=n), "primary")
            add("pass", t("electors.b.pass", lang), "primary")
        elif phase == "number":
            for a in legal:
                if parse_match(a):
                    add(a, match_label(a, lang, view), "match")
            _, c = _pending_card(view)
            add("take", t("electors.b.take", lang, card=card_name(c, lang)), "take")
        elif phase == "cube":
            cubes = view.get("cubes") or {}
            for col in COLOURS:
                add(f"c:{col}", t("electors.b.cube", lang, col=col_name(col, lang),
                                  n=cubes.get(col, 0)), f"cube col-{col}",
                    short=t("electors.b.cube_short", lang, col=col_name(col, lang),
                            n=cubes.get(col, 0)))
        elif phase == "bribe":
            src = (view.get("bribe") or {}).get("from")
            fr = s.f(src)
            for a in legal:
                if a.startswith("t:"):
                    add(a, t("electors.b.bribe", lang, card=card_name(a[2:], lang),
                             whose=fr["whose"]), "bribe")
        elif phase == "pairs":
            for a in legal:
                if a.startswith("pr:"):
                    cards = a[3:].split(",")
                    if len(cards) == 2:
                        add(a, t("electors.b.pair", lang, a=card_name(cards[0], lang),
                                 b=card_name(cards[1], lang)), "pair")
            add("done", t("electors.b.done_pairs", lang), "primary")
        elif phase == "hearts":
            add("done", t("electors.b.done_hearts", lang), "primary")
        if phase == "place":
            pass  # the hand's cards are the buttons
        if heart_cards(legal):
            out.append(_cmd_button("heart", t("electors.b.heart", lang), "heart", pressed=False))
        add("end", t("electors.b.end", lang), "end")
    # Anything legal not offered elsewhere still gets a button (never a dead end).
    elsewhere = {a for a in legal if _is_cell(a) or a.startswith(("v:", "$", "h"))}
    for a in legal:
        if a not in offered and a not in elsewhere:
            add(a, t("electors.b.other", lang, action=move_text(a, me or 0, lang)))
    if not out:
        return ""
    return (f'<div class="controls econtrols" role="group" data-choice '
            f'aria-label="{esc(t("electors.choices", lang))}">{"".join(out)}</div>')


def prompt(s: _Screen, waiting_for: str) -> str:
    """The status line: to the player who acts, or what the viewer waits for."""
    view, lang, legal = s.view, s.lang, s.legal
    phase = view.get("phase")
    if phase == "over" or view.get("outcome") is not None:
        return t("electors.over", lang)
    movers = view.get("to_move") or []
    if not s.acting:
        if s.me is not None and waiting_for:
            return t("waiting_for", lang, who=waiting_for)
        if not movers:
            return ""
        m = forms(movers[0], s.me, view, lang)
        if phase == "bribe":
            return t("electors.p.watch_bribe", lang, who=m["who"], you=m["you"])
        if phase in ("pairs", "hearts"):
            return t("electors.p.watch_scoring", lang, who=m["who"])
        return _cap(t("electors.p.watch", lang, whose=m["whose"]))
    if s.sel["buy"]:
        card = s.sel["buy"]
        return t("electors.p.buy_pick", lang, card=influence_name(card, lang),
                 cost=cost_words(card, lang))
    if s.sel["heart"]:
        if s.sel["heart_card"]:
            return t("electors.p.heart_colour", lang, card=card_name(s.sel["heart_card"], lang))
        return t("electors.p.heart_pick", lang)
    can_buy = any(a.startswith("$") for a in legal)
    if phase == "turn":
        n = min(option(view, "draw_B", 3), (view.get("deck_counts") or [3] * 4)[s.me])
        cells = any(_is_cell(a) for a in legal)
        if "pass" in s.legal_set:
            text = t("electors.p.turn_pass", lang)
        elif cells and "draw" in s.legal_set:
            text = t("electors.p.turn", lang, n=n)
        elif cells:
            text = t("electors.p.turn_deck", lang)
        else:
            text = t("electors.p.turn_draw", lang, n=n)
        return text + (t("electors.p.buy_too", lang) if can_buy else "")
    if phase == "number":
        cell, c = _pending_card(view)
        key = ("electors.p.number" if any(parse_match(a) for a in legal)
               else "electors.p.number_take")
        return t(key, lang, card=card_name(c, lang), cell=cell)
    if phase == "place":
        cell, c = _pending_card(view)
        taken = _taken_card(view)
        if taken:
            return t("electors.p.place_taken", lang, cell=cell, card=card_name(taken, lang))
        return t("electors.p.place", lang, cell=cell)
    if phase == "cube":
        bought = _last_bought(view)
        if bought:
            return t("electors.p.cube", lang, card=influence_name(bought, lang))
        return t("electors.p.cube_plain", lang)
    if phase == "bribe":
        src = (view.get("bribe") or {}).get("from")
        fr = s.f(src)
        return t("electors.p.bribe", lang, from_who=fr["who"], from_whose=fr["whose"])
    if phase == "after":
        more = can_buy or bool(heart_cards(legal))
        return t("electors.p.after_more" if more else "electors.p.after", lang)
    if phase == "pairs":
        return t("electors.p.pairs", lang)
    if phase == "hearts":
        return t("electors.p.hearts", lang)
    return t("electors.p.resolving", lang)


def _taken_card(view: dict[str, Any]) -> str | None:
    """After ②: the card just taken (the view's ``pending`` may carry it as ``taken``;
    else the last ``take`` event the table gave this render)."""
    pend = view.get("pending") or {}
    if pend.get("taken"):
        return str(pend["taken"])
    last = view.get("_last_take")
    if last and last.get("cell") == pend.get("cell"):
        return last.get("c")
    return None


def _last_bought(view: dict[str, Any]) -> str | None:
    last = view.get("_last_buy")
    return last.get("card") if last else None


def _status(s: _Screen, board: dict[str, Any]) -> str:
    """Round, whose turn, and what is still allowed this turn; the end trigger."""
    view, lang = s.view, s.lang
    phase = view.get("phase")
    parts = []
    if phase == "over":
        head = t("electors.over", lang)
    elif phase in ("pairs", "hearts"):
        head = t("electors.scoring", lang)
    else:
        active = view.get("active")
        f = s.f(active)
        head = (t("electors.round", lang, n=view.get("round", 1)) + " · "
                + _cap(t("electors.turn_of", lang, whose=f["whose"])))
        if isinstance(active, int):
            if s.me == active:
                parts.append(t("electors.bought_you" if board.get("bought") else
                               "electors.may_buy_you", lang))
            else:
                parts.append(_cap(f["who"] + (" " if lang == "en" else "は")
                                  + t("electors.bought" if board.get("bought") else
                                      "electors.may_buy", lang)) + ("." if lang == "en" else "。"))
            used = [influence_name(it["id"], lang)
                    for it in (board.get("influence") or [[]] * 4)[active] if it.get("used")]
            if used:
                parts.append(t("electors.used_list", lang, items=_join(used, lang)))
    trig = view.get("trigger")
    trig_html = ""
    if trig and phase not in ("pairs", "hearts", "over"):
        last = s.f(trig.get("last_turn"))
        last_whose = last["whose"]
        if view.get("_final_turn") and trig.get("last_turn") == view.get("active"):
            text = t("electors.trigger_last", lang, last_whose=last_whose)
        elif trig.get("safety"):
            text = t("electors.trigger_safety", lang, last_whose=last_whose)
        else:
            tf = s.f(trig.get("p"))
            text = t("electors.trigger", lang, whose=tf["whose"],
                     last_whose=last_whose)
        trig_html = (f'<p class="trigger" data-trigger="{trig.get("p")}" '
                     f'data-last-turn="{trig.get("last_turn")}">'
                     f'<span aria-hidden="true">⌛ </span>{esc(text)}</p>')
    rest = f' <span class="allowed">{esc(" ".join(parts))}</span>' if parts else ""
    return (f'<div class="ehead"><p class="round" data-round="{view.get("round", 0)}">'
            f'<b>{esc(head)}</b>{rest}</p>{trig_html}</div>')


def _final(s: _Screen) -> str:
    view, lang = s.view, s.lang
    final = view.get("final")
    if not final or s.animating:
        return ""
    n = view.get("players") or len(view.get("colours") or []) or 2
    parts = []
    rows = final.get("rows")
    if rows:
        items = "".join(
            f'<li data-row="{i + 1}" data-colour="{c or ""}">'
            f'{esc(t("electors.f.row", lang, row=i + 1, col=col_name(c, lang)) if c else t("electors.f.row_none", lang, row=i + 1))}</li>'
            for i, c in enumerate(rows))
        parts.append(f'<div class="frows"><h3>{esc(t("electors.f.rows", lang))}</h3><ul>{items}</ul></div>')
    ranks = final.get("ranks")
    if ranks:
        items = "".join(f'<li data-colour="{c}" data-rank="{r}">'
                        f'{esc(t("electors.f.rank_item", lang, col=col_name(c, lang), n=r))}</li>'
                        for c, r in sorted(ranks.items(), key=lambda kv: (kv[1], COLOURS.index(kv[0]))))
        parts.append(f'<div class="franks"><h3>{esc(t("electors.f.ranks", lang))}</h3><ul>{items}</ul></div>')
    scores = final.get("scores")
    if scores:
        places = final.get("places") or []
        head = "".join(f'<th scope="col" class="col-{seat_colours(view, p)[:1]}">'
                       f'{esc(s.f(p)["who"])}</th>' for p in range(n))
        keys = [k for k in SCORE_PARTS if any(k in sc for sc in scores)]
        keys += sorted({k for sc in scores for k in sc} - set(SCORE_PARTS) - {"total"})
        body = []
        for k in keys:
            label = t(f"electors.f.{k}", lang) if f"electors.f.{k}" in STRINGS else k
            cells = "".join(f'<td data-seat="{p}">{esc(_signed(sc.get(k, 0)))}</td>'
                            for p, sc in enumerate(scores))
            body.append(f'<tr data-source="{esc(k)}"><th scope="row">{esc(label)}</th>{cells}</tr>')
        cells = "".join(f'<td data-seat="{p}">{esc(str(sc.get("total", 0)).replace("-", "−"))}</td>'
                        for p, sc in enumerate(scores))
        body.append(f'<tr class="total" data-source="total"><th scope="row">'
                    f'{esc(t("electors.f.total", lang))}</th>{cells}</tr>')
        if places:
            cells = "".join(f'<td data-seat="{p}" data-place="{pl}">'
                            f'{esc(t("electors.f.place_n", lang, n=pl))}</td>'
                            for p, pl in enumerate(places))
            body.append(f'<tr class="place" data-source="place"><th scope="row">'
                        f'{esc(t("electors.f.place", lang))}</th>{cells}</tr>')
        parts.append(f'<div class="ftable-wrap"><table class="ftable">'
                     f'<caption>{esc(t("electors.f.table", lang))}</caption>'
                     f'<thead><tr><th scope="col">{esc(t("electors.f.source", lang))}</th>{head}</tr></thead>'
                     f'<tbody>{"".join(body)}</tbody></table></div>')
    if not parts:
        return ""
    return (f'<section class="efinal" aria-label="{esc(t("electors.scoring", lang))}">'
            f'<h2>{esc(t("electors.scoring", lang))}</h2>{"".join(parts)}</section>')


def _with_context(view: dict[str, Any], events: list[dict[str, Any]]) -> dict[str, Any]:
    """The view plus what the prompts read from the last events: the card just taken (a
    put-back may not be that card), the card just bought (its cube), and whether this is
    the game's last turn (the trigger fired before this turn began)."""
    extra: dict[str, Any] = {}
    kinds = [e.get("t") for e in events]
    if "trigger" in kinds and "turn" in kinds:
        last_trigger = len(kinds) - 1 - kinds[::-1].index("trigger")
        last_turn = len(kinds) - 1 - kinds[::-1].index("turn")
        trig = view.get("trigger") or {}
        if last_turn > last_trigger and events[last_turn].get("p") == trig.get("last_turn"):
            extra["_final_turn"] = True
    for e in reversed(events):
        if e.get("t") in ("turn", "end"):
            break
        if e.get("t") == "take" and "_last_take" not in extra:
            extra["_last_take"] = e
        if e.get("t") == "buy" and "_last_buy" not in extra:
            extra["_last_buy"] = e
    return {**view, **extra} if extra else view


def render_table(view: dict[str, Any], legal: list[str], lang: str, *,
                 events: list[dict[str, Any]], sel: dict[str, Any] | None = None,
                 shown: int | None = None, since: int | None = None,
                 seats: tuple[str, ...] = (), waiting_for: str = "",
                 before: dict[str, Any] | None = None) -> str:
    """The whole Electors table for one viewer (``view["you"]``; None: nobody's hand).

    During a playback the table is ``before`` with the steps shown so far applied, the
    step's cells marked, and the status line words the step on screen; the only control
    is Skip.
    """
    sel = sel if sel is not None else new_selection()
    shown = len(events) if shown is None else min(shown, len(events))
    animating = shown < len(events)
    me = viewer(view)
    acting = bool(legal) and not animating and me is not None
    view = _with_context(view, events[:shown])
    board = view
    if animating and before is not None and since is not None:
        board = board_at({**before, "you": me}, events[since:shown]) or view
    s = _Screen(view, legal, lang, sel, acting)
    s.animating = animating
    steps = [e for e in events[since or 0:shown] if e["t"] in STEP_EVENTS] if animating else []
    s.current = steps[-1] if steps else None
    s.now = _step_cells(s.current)
    if animating:
        ask = describe(s.current, lang, view) if s.current else t("electors.p.resolving", lang)
    else:
        ask = prompt(s, waiting_for)
    n = view.get("players") or len(view.get("colours") or []) or 2
    order = list(range(n))
    strips = "".join(_strip(s, board, p, seats[p] if p < len(seats) else "") for p in order)
    # Phone first, so that a choice is made on one screen: the turn line, the candidates,
    # the grid, the status line, the choice's buttons and your hand; then the market and
    # the players' strips (a wide screen puts the strips on top: electors.css).
    parts = [
        _status(s, board),
        _candidates(s, board),
        _grid(s, board),
        f'<p class="prompt" role="status" aria-live="polite" data-status>{esc(ask)}</p>',
    ]
    if animating:
        parts.append(f'<div class="controls" data-choice><button type="button" data-cmd="skip">'
                     f'{esc(t("skip", lang))}</button></div>')
    else:
        parts.append(_controls(s))
    # Once scoring has begun its table comes first; until then the hand and the market.
    final = _final(s)
    parts += [final, _hand(s), _market(s, board)] if final else [_hand(s), _market(s, board)]
    parts.append(f'<div class="estrips" data-players="{n}">{strips}</div>')
    return (f'<div class="electors etable" data-phase="{esc(view.get("phase", ""))}" '
            f'data-players="{n}" data-round="{view.get("round", 0)}" '
            f'data-buying="{esc(s.sel["buy"] or "")}">{"".join(parts)}</div>')


def rules_html(lang: str) -> str:
    """The rules in our own words."""
    return t("electors.rules_html", lang)


# -- replays: every seat's view as one ------------------------------------------------------
def open_view(views: list[dict[str, Any]]) -> dict[str, Any]:
    """Every seat's view merged, for a finished game's open replay: every hand shown, and
    every face-down card whose face some seat saw."""
    merged = copy.deepcopy(views[0])
    merged["you"] = None
    merged["hand"] = None
    merged["open_hands"] = [list(v.get("hand") or []) for v in views]
    for v in views:
        for r, row in enumerate(v.get("grid") or []):
            for c, cell in enumerate(row):
                if cell and not cell.get("up") and cell.get("c"):
                    target = merged["grid"][r][c]
                    if target is not None and not target.get("up"):
                        target["c"] = cell["c"]
    return merged


# -- pass and play: Bribery's owner answers in another player's turn -----------------------
def handover_quick(view: dict[str, Any], seat: int, lang: str) -> dict[str, Any] | None:
    """The hand-over screen of a Bribery (see pgui.table): the owner takes one of the
    flipper's acquired cards, which are public, so it can be chosen without the hand."""
    bribe = view.get("bribe") or {}
    if view.get("phase") != "bribe" or bribe.get("owner") != seat:
        return None
    src = bribe.get("from")
    if not isinstance(src, int):
        return None
    fr = forms(src, None, view, lang)
    ow = forms(seat, None, view, lang)
    say = t("electors.h.bribe", lang, from_who=fr["who"], from_whose=fr["whose"],
            owner_whose=ow["whose"])
    cards = []
    for c in (view.get("acquired") or [])[src] if src < len(view.get("acquired") or []) else []:
        printed = c.split(">")[0]
        if printed not in cards:
            cards.append(printed)
    actions = [(f"t:{c}", t("electors.h.take", lang, card=card_name(c, lang))) for c in cards]
    return {"say": say, "actions": actions}


# -- the lobby tile (pgui.lobby) ------------------------------------------------------------

#: How long a game takes, in minutes (the lobby tile says it).
PLAY_TIME = (30, 45)

#: The lobby's word for each option value its label does not explain (our own words).
OPTION_HELP = {
    "bribery_mode": {
        "owner_takes_acquired": _s("Bribery's owner takes one of the flipper's acquired cards, of their choice.",
                                   "買収の持ち主が、めくった人の獲得カードから好きな1枚を取ります。"),
        "owner_takes_random_hand_card": _s("Bribery's owner takes a random card from the flipper's hand.",
                                           "買収の持ち主が、めくった人の手札から無作為に1枚取ります。"),
    },
    "jester_scope": {
        "row": _s("A Jester turns up the other face-down cards of its row.",
                  "道化は同じ行のほかの裏向きのカードを表にします。"),
        "column": _s("A Jester turns up the other face-down cards of its column.",
                     "道化は同じ列のほかの裏向きのカードを表にします。"),
        "adjacent": _s("A Jester turns up the face-down cards next to it (up, down, left, right).",
                       "道化は上下左右に隣り合う裏向きのカードを表にします。"),
    },
    "influence_set": {
        "19": _s("19 influence cards: the cubes can never run out.",
                 "影響力カード19枚。キューブが足りなくなることはありません。"),
        "21": _s("21 cards (a Manor of any colour and a fourth Change of Heart): row cubes may run out.",
                 "21枚（任意の色の荘園と4枚目の心変わりを追加）。行のキューブが足りなくなることがあります。"),
    },
    "card_backs": {
        "colour": _s("Elector backs show their colour, so everyone sees whose card lies where.",
                     "選帝侯カードの裏に色があり、どこに誰のカードがあるか全員に見えます。"),
        "plain": _s("All backs look alike: you only know where your own cards are.",
                    "裏はすべて同じ。分かるのは自分のカードの場所だけです。"),
    },
    "placer_memory": {
        "True": _s("You remember every card you put face down.", "自分が裏向きで置いたカードは覚えています。"),
        "False": _s("Strict: only your own colour's face-down cards can be looked at.",
                    "厳密ルール：見られるのは自分の色の裏向きのカードだけです。"),
    },
    "two_player_variant": {
        "False": _s("Each player plays one colour.", "各プレイヤーは1色を使います。"),
        "True": _s("With 2 players each plays two colours (Red and Green, Blue and Yellow).",
                   "2人のとき、各プレイヤーが2色（赤と緑、青と黄）を使います。"),
    },
}

#: A typical position for the lobby tile, should the engine not be at hand.
_SAMPLE_GRID = [
    ["k", "B", {"c": "kR3"}, "R", "k"],
    ["G", "k", "B", {"c": "Bj"}, "k"],
    ["k", "R", "k", "k", "G"],
    [None, "k", {"c": "kY2"}, "B", "R"],
]
_FILL = {"R": "#b8322a", "B": "#2a5a9c", "G": "#2f7d45", "Y": "#c99a12", "k": "#8d857a"}


def thumbnail(lang: str) -> str:
    """The lobby tile's picture: the kingdom grid and the candidates' cubes (static SVG, the
    same in both languages)."""
    cells = _SAMPLE_GRID
    cubes = {"R": 3, "B": 4, "G": 1, "Y": 0}
    try:  # a real position when the engine is registered
        import pygames

        state = pygames.get_game("electors").new_game(seed=5)
        for _ in range(14):
            p = state.to_move()[0]
            legal = state.legal_actions(p)
            pick = next((a for a in legal if a.startswith("$")), None) or legal[len(legal) // 3]
            state.apply(p, pick)
        view = state.view(None)
        cells = [[None if c is None else ({"c": c["c"]} if c.get("up") else c.get("back", "k"))
                  for c in row] for row in view["grid"]]
        cubes = dict(view["cubes"])
    except Exception:  # noqa: BLE001 - the engine absent or different: the sample stands
        pass
    out = ['<svg viewBox="0 0 300 150" focusable="false" font-family="system-ui, sans-serif">',
           '<rect x="4" y="4" width="206" height="142" rx="8" fill="#e9e0cc"/>']
    for r, row in enumerate(cells[:4]):
        for c, cell in enumerate(row[:5]):
            x, y = 12 + c * 39, 10 + r * 34
            if cell is None:
                out.append(f'<rect x="{x}" y="{y}" width="34" height="29" rx="4" fill="none" '
                           f'stroke="#b5ab99" stroke-dasharray="3 2"/>')
            elif isinstance(cell, dict):
                code = str(cell.get("c", ""))
                info = parse_card(code) or {"colour": "k", "n": ""}
                fill = _FILL.get(info["colour"], "#8d857a")
                out.append(f'<rect x="{x}" y="{y}" width="34" height="29" rx="4" fill="#fffdf8" '
                           f'stroke="{fill}" stroke-width="2"/><text x="{x + 17}" y="{y + 20}" '
                           f'font-size="14" font-weight="700" fill="{fill}" text-anchor="middle">'
                           f'{esc(info["n"] if info["n"] is not None else "★")}</text>')
            else:
                fill = _FILL.get(str(cell), "#8d857a")
                out.append(f'<rect x="{x}" y="{y}" width="34" height="29" rx="4" fill="{fill}"/>')
    for i, col in enumerate(COLOURS):
        y = 12 + i * 34
        out.append(f'<rect x="222" y="{y}" width="70" height="26" rx="5" fill="#fffdf8" '
                   f'stroke="{_FILL[col]}" stroke-width="2"/>')
        for k in range(min(cubes.get(col, 0), 5)):
            out.append(f'<rect x="{228 + k * 12}" y="{y + 8}" width="9" height="9" '
                       f'fill="{_FILL[col]}"/>')
    out.append("</svg>")
    return "".join(out)
