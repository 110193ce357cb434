"""ART OF WAR table: pure rendering of (view, legal actions, language, local choices) -> HTML.

Nothing here touches the DOM. The battle table is one grid of 4 rows × 3 lanes: the
opponent's back row on top, then its front row, then the viewer's front row, then the
viewer's back row, so the two front rows face each other. Lanes run a b c left to right as
player 1 sees them; player 2's screen shows them mirrored (c b a), as player 2 sits across
the table. Beside each field: its waiting line (left to right, ``2/5``), its kingdom by type,
its deck and graveyard, its King; between the fields, the type-by-type Founding comparison.

Every engine action is at most three clicks away, all by ``data-cmd`` buttons:

* ``act:<action>`` plays an engine action at once (keep, pass, capture, an Archer target,
  a support, an Entry, End turn…);
* ``hand:<card>`` picks a hand card (then its supports and Entry appear as buttons and the
  cells it may be arranged to light up), ``wait`` picks the leftmost waiting card,
  ``kingdom:<type>`` a kingdom card to conscript;
* ``cell:<cell>`` on one's own field places the picked card there, or picks the card there
  (as an attacker: its range lights up on the enemy field, each target marked capture /
  destroy / damage; or as the card a Priest moves), or moves the picked card there;
* ``foe:<cell>`` on the enemy field attacks it with the picked card; ``cancel`` drops
  the pick.
"""

from __future__ import annotations

import re
from typing import Any

from pygames.artofwar import ATK, DEF, KINGS, RANGES, TYPE_NAMES, TYPES, king_name

from .i18n import esc, register, t

FRONT = ("Fa", "Fb", "Fc")
BACK = ("Ba", "Bb", "Bc")
CELLS = FRONT + BACK
LANES = "abc"
CARDS = (*TYPES, "K")
SEAT_CLASS = ("red", "blue")
_ATTACK = re.compile(r"^([FB][abc])x([FB][abc])$")
_PLACE = re.compile(r"^(k?[SGAPWK]|w)>([FB][abc]|w)$")
_MOVE = re.compile(r"^m([FB][abc])-([FB][abc])$")

#: This table's own look, loaded with it after app.css (path from the app's root).
STYLESHEET = "pgui/artofwar.css"

#: Events that get their own pause when played back step by step.
STEP_EVENTS = {"arrange", "attack", "support", "cancel", "guarded", "damage", "capture",
               "destroy", "advance", "archer", "priest", "enter", "conscript", "place",
               "founding", "execution", "annihilation", "end_of_war", "turn", "kingdom"}


def _s(en: str, ja: str) -> dict[str, str]:
    return {"en": en, "ja": ja}


STRINGS: dict[str, dict[str, str]] = {
    "artofwar.seat0": _s("Player 1", "プレイヤー1"),
    "artofwar.seat1": _s("Player 2", "プレイヤー2"),
    "artofwar.you": _s("You", "あなた"),
    "artofwar.you_l": _s("you", "あなた"),
    "artofwar.your": _s("Your", "あなたの"),
    "artofwar.your_l": _s("your", "あなたの"),
    "artofwar.whose": _s("{who}'s", "{who}の"),
    # Places
    "artofwar.front": _s("front {lane}", "前列{lane}"),
    "artofwar.back": _s("back {lane}", "後列{lane}"),
    "artofwar.field_of": _s("{whose} battlefield", "{whose}戦場"),
    "artofwar.waiting_of": _s("{whose} waiting line {n}/{cap}", "{whose}待機エリア {n}/{cap}"),
    "artofwar.waiting": _s("Waiting line {n}/{cap}", "待機エリア {n}/{cap}"),
    "artofwar.kingdom": _s("Kingdom ({n})", "王国（{n}）"),
    "artofwar.kingdom_of": _s("{whose} kingdom", "{whose}王国"),
    "artofwar.deck_n": _s("Deck {n}", "山札 {n}"),
    "artofwar.hand_n": _s("Hand {n}", "手札 {n}"),
    "artofwar.grave_n": _s("Graveyard ({n})", "墓地（{n}）"),
    "artofwar.grave_of": _s("{whose} graveyard, in order", "{whose}墓地（置かれた順）"),
    "artofwar.none": _s("none", "なし"),
    "artofwar.hand": _s("Your hand", "あなたの手札"),
    "artofwar.hand_of": _s("{whose} hand", "{whose}手札"),
    "artofwar.king": _s("King {name}", "キング {name}"),
    "artofwar.provisional": _s("provisional data", "仮データ"),
    "artofwar.provisional_note": _s(
        "The real numbers of this King are not known: these are placeholders.",
        "このキングの本当の数値は不明のため、仮の数値です。"),
    "artofwar.turn_n": _s("Turn {n}", "第{n}手番"),
    "artofwar.setup": _s("Setup", "準備"),
    "artofwar.turn_of": _s("{whose} turn", "{whose}手番"),
    "artofwar.bonus": _s("Soldier bonus +{n} ATK this turn ({whose} cards)",
                         "ソルジャー支援 +{n}（この手番、{whose}カードの攻撃力）"),
    "artofwar.done_arranged": _s("arranged", "アレンジ済み"),
    "artofwar.done_attacked": _s("attacked", "攻撃済み"),
    "artofwar.done_entered": _s("entered", "入国済み"),
    "artofwar.founding": _s("Founding", "建国"),
    "artofwar.founding_both": _s(
        "{a_who} {you_a|lead|leads} {a}, {b_who} {b} of the 5 types (4 win)",
        "上回る兵種：{a_who} {a}、{b_who} {b}（5種中4種で勝ち）"),
    "artofwar.founding_row": _s("{type}: {a} to {b}", "{type}：{a}対{b}"),
    "artofwar.founding_table": _s("Kingdoms compared type by type (the opponent's above, yours below)",
                                  "王国の兵種ごとの比較（上が相手、下が自分）"),
    "artofwar.attack_now": _s("{whose} {card} at {from_} attacks {target} at {to} (ATK {atk})",
                              "{whose}{card}（{from_}）が{target}（{to}）を攻撃（攻撃力{atk}）"),
    "artofwar.chain": _s("Placed in answer: {items}", "対応で置かれたカード：{items}"),
    "artofwar.pending": _s("{whose} {card} waits to act as a {as_} support",
                           "{whose}{card}が{as_}支援として効果待ち"),
    "artofwar.pending_plain": _s("{whose} {as_} support waits to act", "{whose}{as_}支援が効果待ち"),
    # Card faces and labels
    "artofwar.atk": _s("ATK", "攻"),
    "artofwar.def": _s("DEF", "防"),
    "artofwar.atk_x": _s("X (cards in hand)", "X（手札の枚数）"),
    "artofwar.upright": _s("upright", "縦"),
    "artofwar.sideways": _s("sideways", "横"),
    "artofwar.dmg_n": _s("{n} damage", "ダメージ{n}"),
    "artofwar.card_label": _s("{whose} {card} at {cell}, {orient}", "{whose}{card}（{cell}、{orient}向き）"),
    "artofwar.card_stats": _s("ATK {atk}, DEF {du} upright / {ds} sideways",
                              "攻撃力{atk}、防御力 縦{du}／横{ds}"),
    "artofwar.empty_cell": _s("{whose} {cell}: empty", "{whose}{cell}：空き"),
    "artofwar.range": _s("Range", "レンジ"),
    "artofwar.range_of": _s("{card}'s range", "{card}のレンジ"),
    "artofwar.reach": _s("in range", "レンジ内"),
    "artofwar.mark_capture": _s("capture", "捕獲"),
    "artofwar.mark_destroy": _s("destroy", "破壊"),
    "artofwar.mark_damage": _s("{n} damage", "{n}ダメージ"),
    "artofwar.out_capture": _s("can capture it (ATK {atk} = DEF {d}), or deal {atk} damage",
                               "捕獲できる（攻撃力{atk}＝防御力{d}）か、{atk}ダメージを与える"),
    "artofwar.out_destroy": _s("destroys it ({total} damage on DEF {d})",
                               "破壊する（防御力{d}にダメージ{total}）"),
    "artofwar.out_damage": _s("deals {atk} damage ({total} on DEF {d}: it survives)",
                              "{atk}ダメージ（防御力{d}にダメージ{total}：残る）"),
    "artofwar.out_king": _s(" It is the King: taking it wins the game.",
                            "キングなので、倒せば勝ちです。"),
    "artofwar.cancel": _s("Cancel", "選び直す"),
    "artofwar.hand_limit": _s("Hand limit {n}", "手札上限 {n}"),
    "artofwar.may_hold": _s("Still unseen (hand and deck): {items}", "未公開（手札と山札）：{items}"),
    # Buttons
    "artofwar.b.keep": _s("Keep these cards", "この手札で始める"),
    "artofwar.b.mull": _s("Mulligan: shuffle back, draw 3 new", "引き直し：戻して新しく3枚"),
    "artofwar.b.end": _s("End the turn", "手番を終える"),
    "artofwar.b.end_limit": _s("End the turn (hand limit: you must enter a card first)",
                               "手番を終える（手札上限：先に1枚入国が必要）"),
    "artofwar.b.pass": _s("Pass", "パス"),
    "artofwar.b.cap": _s("Capture the {card} into your kingdom", "{card}を捕獲して王国へ"),
    "artofwar.b.dmg": _s("Deal {atk} damage instead ({result})", "代わりに{atk}ダメージ（{result}）"),
    "artofwar.b.dmg_destroy": _s("destroyed", "破壊"),
    "artofwar.b.dmg_survive": _s("it survives", "残る"),
    "artofwar.b.support": _s("{card} support: {effect}", "{card}支援：{effect}"),
    "artofwar.b.king_support": _s("King as {card}: {effect}", "キングを{card}として：{effect}"),
    "artofwar.b.enter": _s("Entry: put the {card} into your kingdom", "入国：{card}を王国へ"),
    "artofwar.b.to_wait": _s("Put the {card} in your waiting line", "{card}を待機エリアへ"),
    "artofwar.b.arrange_wait": _s("Arrange the {card} from your waiting line",
                                  "待機エリアの{card}をアレンジ"),
    "artofwar.b.respond": _s("Respond (show my hand)", "対応する（手札を表示）"),
    "artofwar.eff.S": _s("+1 ATK for all your cards this turn", "この手番、自分の全カードの攻撃力+1"),
    "artofwar.eff.G": _s("cancel this attack", "この攻撃を無効にする"),
    "artofwar.eff.A": _s("1 damage to an enemy card (never captures)",
                         "敵カード1枚に1ダメージ（捕獲はできない）"),
    "artofwar.eff.P": _s("move one of your cards (swap if occupied)",
                         "自分のカード1枚を移動（埋まっていれば入れ替え）"),
    "artofwar.eff.W": _s("cancel that support", "その支援を無効にする"),
    # Prompts (the status line)
    "artofwar.p.mulligan": _s(
        "Keep these 3 cards, or mulligan once: shuffle them back and draw 3 new ones. "
        "Your King joins your hand after.",
        "この3枚で始めるか、1回だけ引き直せます（戻して切り直し、3枚引く）。その後キングが手札に加わります。"),
    "artofwar.p.field": _s(
        "Setup: choose a hand card, then a lit cell of your battlefield to put it on.",
        "準備：手札を1枚選び、置く戦場のマスを選んでください。"),
    "artofwar.p.wait": _s(
        "Setup: choose a hand card to put in your waiting line (it does nothing there).",
        "準備：待機エリアに置く手札を1枚選んでください（効果はありません）。"),
    "artofwar.p.main": _s(
        "Your turn: choose a card on your battlefield to attack with, a hand card to arrange, "
        "support with or enter, or end the turn.",
        "あなたの手番：攻撃する戦場のカード、またはアレンジ・支援・入国する手札を選ぶか、手番を終えてください。"),
    "artofwar.p.main_wait": _s(
        "Your turn: attack with a card on your battlefield, arrange the leftmost waiting "
        "card ({card}), use a hand card, or end the turn.",
        "あなたの手番：戦場のカードで攻撃、待機エリアの左端（{card}）をアレンジ、手札を使う、または手番を終えてください。"),
    "artofwar.p.attacker": _s(
        "{card} at {cell} (ATK {atk}): choose a lit enemy card to attack.",
        "{card}（{cell}、攻撃力{atk}）：攻撃する敵カードを選んでください。"),
    "artofwar.p.atk_x": _s(" ATK {atk} = {x} cards in your hand + {b} Soldier bonus.",
                           "攻撃力{atk}＝手札{x}枚＋ソルジャー支援{b}。"),
    "artofwar.p.hand_card": _s(
        "{card}: arrange it on a lit cell, or choose what to do with it below.",
        "{card}：光っているマスにアレンジするか、下のボタンで使い方を選んでください。"),
    "artofwar.p.hand_card_only": _s("{card}: choose what to do with it below.",
                                    "{card}：下のボタンで使い方を選んでください。"),
    "artofwar.p.place_cell": _s("{card}: choose a lit cell of your battlefield to put it on.",
                                "{card}：置く戦場のマスを選んでください。"),
    "artofwar.p.arrange_wait": _s(
        "Arrange {card} from your waiting line: choose a lit cell (a card there goes to the "
        "right end of the line).",
        "待機エリアの{card}をアレンジ：マスを選んでください（そこにあるカードは待機エリアの右端へ）。"),
    "artofwar.p.guardian": _s(
        "{whose} {card} (ATK {atk}) attacks your {target} at {to}: it {outcome}. "
        "Place a Guardian to cancel the attack, or pass.",
        "{whose}{card}（攻撃力{atk}）があなたの{target}（{to}）を攻撃：{outcome}。"
        "ガーディアンを置いて攻撃を無効にするか、パスしてください。"),
    "artofwar.p.wizard": _s(
        "{what}. Place a Wizard to cancel it, or pass.",
        "{what}。ウィザードを置いて無効にするか、パスしてください。"),
    "artofwar.w.support": _s("{who} {you|place|places} {card} as a {as_} support ({effect})",
                             "{who}が{card}を{as_}支援として置いた（{effect}）"),
    "artofwar.w.support_plain": _s("{who} {you|place|places} a {as_} support ({effect})",
                                   "{who}が{as_}支援を置いた（{effect}）"),
    "artofwar.eff_them.S": _s("+1 ATK for all their cards this turn",
                              "この手番、相手の全カードの攻撃力+1"),
    "artofwar.eff_them.A": _s("1 damage to one of your cards", "あなたのカード1枚に1ダメージ"),
    "artofwar.eff_them.P": _s("one of their cards moves", "相手のカード1枚が移動"),
    "artofwar.w.guardian": _s("{who} {you|place|places} {card} as a Guardian to cancel your attack",
                              "{who}が{card}をガーディアンとして置き、あなたの攻撃を無効にしようとしている"),
    "artofwar.w.wizard": _s("{who} {you|place|places} {card} as a Wizard to cancel your {prev}",
                            "{who}が{card}をウィザードとして置き、あなたの{prev}を無効にしようとしている"),
    "artofwar.p.capture": _s(
        "ATK {atk} equals the {card}'s DEF {d}: capture it into your kingdom, or deal the damage.",
        "攻撃力{atk}が{card}の防御力{d}と同じ：捕獲して王国に入れるか、ダメージを与えるか選んでください。"),
    "artofwar.p.archer": _s("Archer support: choose an enemy card to take 1 damage.",
                            "アーチャー支援：1ダメージを与える敵カードを選んでください。"),
    "artofwar.p.priest": _s(
        "Priest support: choose one of your cards, then the cell to move it to "
        "(the cards swap if it is taken).",
        "プリースト支援：自分のカードを選び、移動先のマスを選んでください（埋まっていれば入れ替え）。"),
    "artofwar.p.priest_to": _s("Priest support: move {card} from {cell} to a lit cell.",
                               "プリースト支援：{card}（{cell}）の移動先を選んでください。"),
    "artofwar.p.conscript_wait": _s(
        "Your battlefield is empty: conscript {n} more. Put your leftmost waiting card "
        "({card}) on a lit cell.",
        "戦場が空になったので徴兵します（あと{n}枚）。待機エリアの左端（{card}）を置くマスを選んでください。"),
    "artofwar.p.conscript_kingdom": _s(
        "Your battlefield is empty: conscript {n} more. Choose a kingdom card, then a lit cell.",
        "戦場が空になったので徴兵します（あと{n}枚）。王国のカードを選び、置くマスを選んでください。"),
    "artofwar.p.conscript_cell": _s("Conscript the {card} from your kingdom: choose a lit cell.",
                                    "王国の{card}を徴兵：置くマスを選んでください。"),
    "artofwar.p.limit": _s(
        "Hand limit: you hold {n} cards and must enter one into your kingdom; the turn then ends.",
        "手札上限：手札が{n}枚なので1枚入国させてください。その後手番が終わります。"),
    "artofwar.p.waiting": _s("Waiting for {who}…", "{who}を待っています…"),
    "artofwar.p.waiting_window": _s("Waiting for {who} to answer…", "{who}の対応を待っています…"),
    "artofwar.p.resolving": _s("Resolving…", "解決中…"),
    # The pass-and-play hand-over for a window
    "artofwar.h.guardian": _s("{whose} {card} attacks {target_whose} {target} at {to}.",
                              "{whose}{card}が{target_whose}{target}（{to}）を攻撃。"),
    "artofwar.h.pass": _s("Pass (no answer)", "パス（対応しない）"),
    # Log
    "artofwar.ev.draw_seen": _s("{who} {you|draw|draws} {cards}.", "{who}は{cards}を引いた。"),
    "artofwar.ev.draw": _s("{who} {you|draw|draws} {n} {n|card|cards}.", "{who}は{n}枚引いた。"),
    "artofwar.ev.mulligan": _s("{who} {you|mulligan|mulligans}: 3 cards back, 3 new.",
                               "{who}は引き直した（3枚戻して3枚引く）。"),
    "artofwar.ev.keep": _s("{who} {you|keep|keeps} the opening cards.", "{who}は最初の手札で始める。"),
    "artofwar.ev.kingdom": _s("{who} {you|put|puts} the top deck card, {card}, into the kingdom.",
                              "{who}は山札の一番上の{card}を王国に置いた。"),
    "artofwar.ev.place": _s("{who} {you|put|puts} {card} on {cell}.", "{who}は{card}を{cell}に置いた。"),
    "artofwar.ev.place_w": _s("{who} {you|put|puts} {card} in the waiting line.",
                              "{who}は{card}を待機エリアに置いた。"),
    "artofwar.ev.turn": _s("— Turn {n}: {whose} turn —", "― 第{n}手番：{whose}手番 ―"),
    "artofwar.ev.recover": _s("{whose} cards turn upright.", "{whose}カードが縦向きに戻る。"),
    "artofwar.ev.arrange": _s("{who} {you|arrange|arranges} {card} from {src} to {cell}.",
                              "{who}は{src}の{card}を{cell}にアレンジ。"),
    "artofwar.ev.src_hand": _s("the hand", "手札"),
    "artofwar.ev.src_wait": _s("the waiting line", "待機エリア"),
    "artofwar.ev.out_hand": _s(" {card} goes back to the hand.", "{card}は手札に戻る。"),
    "artofwar.ev.out_wait": _s(" {card} goes to the end of the waiting line.",
                               "{card}は待機エリアの右端へ。"),
    "artofwar.ev.attack": _s("{whose} {card} at {from_} attacks {target} (ATK {atk}).",
                             "{whose}{card}（{from_}）が{target}を攻撃（攻撃力{atk}）。"),
    "artofwar.ev.support": _s("{who} {you|place|places} {card} as a {as_} support.",
                              "{who}は{card}を{as_}支援として置いた。"),
    "artofwar.ev.cancel": _s("{whose} {card} is cancelled and stays in the waiting line.",
                             "{whose}{card}は無効になり、待機エリアに残る。"),
    "artofwar.ev.guarded": _s("The Guardian cancels the attack: no effect.",
                              "ガーディアンが攻撃を無効にした。"),
    "artofwar.ev.damage": _s("{target} takes {n} damage ({total} this turn).",
                             "{target}に{n}ダメージ（この手番の合計{total}）。"),
    "artofwar.ev.capture": _s("{who} {you|capture|captures} {target} into the kingdom.",
                              "{who}は{target}を捕獲して王国へ。"),
    "artofwar.ev.destroy": _s("{target} is destroyed and goes to the graveyard.",
                              "{target}は破壊され、墓地へ。"),
    "artofwar.ev.advance": _s("{whose} {card} moves up to {cell}.", "{whose}{card}が{cell}へ前進。"),
    "artofwar.ev.archer": _s("{whose} Archer support hits {target}.",
                             "{whose}アーチャー支援が{target}に命中。"),
    "artofwar.ev.priest": _s("{who} {you|move|moves} {card} from {from_} to {to}.",
                             "{who}は{card}を{from_}から{to}へ移動。"),
    "artofwar.ev.priest_swap": _s("{who} {you|swap|swaps} the cards at {from_} and {to}.",
                                  "{who}は{from_}と{to}のカードを入れ替えた。"),
    "artofwar.ev.enter": _s("{who} {you|enter|enters} {card} into the kingdom.",
                            "{who}は{card}を王国に入国させた。"),
    "artofwar.ev.conscript": _s("{who} {you|conscript|conscripts} {card} from {src} to {cell}.",
                                "{who}は{src}の{card}を{cell}に徴兵。"),
    "artofwar.ev.src_kingdom": _s("the kingdom", "王国"),
    "artofwar.ev.end_turn": _s("{who} {you|end|ends} the turn.", "{who}は手番を終えた。"),
    "artofwar.ev.pass": _s("{who} {you|pass|passes}.", "{who}はパスした。"),
    "artofwar.ev.founding": _s("Founding: {who} {you|lead|leads} {n} of 5 types and {you|win|wins}.",
                               "建国：{who}が5種中{n}種で上回り勝利。"),
    "artofwar.ev.execution": _s("Execution: {target} has fallen. {who} {you|win|wins}.",
                                "処刑：{target}が倒れた。{who}の勝ち。"),
    "artofwar.ev.annihilation": _s("Annihilation: {loser} cannot field 2 cards. {who} {you|win|wins}.",
                                   "滅亡：{loser}は2枚を出せない。{who}の勝ち。"),
    "artofwar.ev.end_of_war": _s("End of War: both decks are empty. Kingdoms {a}–{b}, graveyards {ga}–{gb}.",
                                 "終戦：両方の山札が尽きた。王国 {a}–{b}、墓地 {ga}–{gb}。"),
    "artofwar.ev.other": _s("({kind} event)", "（{kind}の出来事）"),
    # Game over
    "artofwar.r.founding": _s(
        "Founding: {who} had more cards than the opponent in at least 4 of the 5 kingdom types.",
        "建国：{who}が王国の5兵種のうち4種以上で相手より多くのカードを持った。"),
    "artofwar.r.execution": _s("Execution: {who} destroyed or captured the enemy King.",
                               "処刑：{who}が敵のキングを破壊または捕獲した。"),
    "artofwar.r.annihilation": _s("Annihilation: the opponent of {who} had to conscript and could not field 2 cards.",
                                  "滅亡：{who}の相手が徴兵で2枚を出せなかった。"),
    "artofwar.r.end_of_war": _s("End of War: both decks ran out; {who} had the larger kingdom ({a}–{b}).",
                                "終戦：両方の山札が尽き、{who}の王国が大きかった（{a}–{b}）。"),
    "artofwar.r.end_of_war_grave": _s(
        "End of War: both decks ran out with equal kingdoms; {who} had fewer cards in the graveyard ({ga}–{gb}).",
        "終戦：両方の山札が尽き、王国は同数。{who}の墓地のほうが少なかった（{ga}–{gb}）。"),
    "artofwar.r.end_of_war_plain": _s(
        "End of War: both decks ran out; {who} had the larger kingdom (or, with equal "
        "kingdoms, the smaller graveyard).",
        "終戦：両方の山札が尽き、{who}の王国が大きかった（同数なら墓地が少なかった）。"),
    "artofwar.r.draw": _s("End of War: equal kingdoms and equal graveyards. A draw.",
                          "終戦：王国も墓地も同数のため引き分け。"),
    "artofwar.r.other": _s("{who} won.", "{who}の勝ち。"),
    "artofwar.rules_html": {
        "en": (
            "<p>Two generals face each other, each with a battlefield of two rows of three "
            "cells (front and back) and a deck of 20 troops plus one King. Lanes a, b, c run "
            "through both battlefields; the two front rows face each other.</p>"
            "<p><b>Winning</b> — any one of four: <b>Execution</b>: destroy or capture the "
            "enemy King. <b>Founding</b>: hold more cards than your opponent in 4 of the 5 "
            "troop types in your kingdom. <b>Annihilation</b>: your opponent must refill an "
            "empty battlefield with 2 cards and cannot. <b>End of War</b>: when both decks "
            "are empty at the end of a turn, the bigger kingdom wins (then the smaller "
            "graveyard; else a draw).</p>"
            "<p><b>Your turn</b>: your cards turn upright, you draw a card, then you may "
            "either <b>arrange</b> (put one card on your battlefield: the leftmost card of "
            "your waiting line if there is one, else a hand card) or <b>attack</b> with any "
            "number of upright cards, one at a time, never both. A back cell may hold a card "
            "only while the front cell ahead of it is taken; a card moves up when the cell "
            "ahead empties.</p>"
            "<p><b>Attacks</b>: the attacker turns sideways and hits an enemy card in its "
            "range (the small diagram on each card). Its attack (ATK) adds that much damage. "
            "If the ATK of that attack equals the target's current defence (DEF, smaller "
            "when sideways), the attacker may capture it into its own kingdom instead. A "
            "card whose damage this turn exceeds its DEF is destroyed. Damage fades at the "
            "end of each turn. A Soldier's ATK is the number of cards in your hand.</p>"
            "<p><b>Supports</b>: instead of fighting, a hand card may be placed at the right "
            "end of your waiting line (5 slots) for its effect: Soldier +1 ATK to all your "
            "cards this turn; Archer 1 damage to any enemy card; Priest moves one of your "
            "cards (swapping if needed) — all in your own turn. Guardian cancels an attack "
            "on one of your cards; Wizard cancels a support your opponent has just placed "
            "(Wizards can answer Wizards). The King may act as any of the five, said "
            "before it is placed.</p>"
            "<p><b>Entry</b>: once per turn put a hand card (never the King) into your "
            "kingdom. If you would end your turn holding 6 cards, you must. A player whose "
            "battlefield empties at once conscripts 2 cards: waiting cards first (leftmost "
            "first), then kingdom cards.</p>"),
        "ja": (
            "<p>2人の将軍が対決します。各自の戦場は前列と後列の2列×3マス、デッキは兵20枚とキング1枚。"
            "a・b・cの列は両方の戦場を通り、互いの前列が向かい合います。</p>"
            "<p><b>勝利</b>は次の4つのどれか。<b>処刑</b>：敵のキングを破壊か捕獲する。"
            "<b>建国</b>：王国の5兵種のうち4種で相手より多く持つ。<b>滅亡</b>：相手が空の戦場に"
            "2枚を出せない。<b>終戦</b>：手番の終わりに両方の山札が尽きていたら、王国の多いほうが勝ち"
            "（同数なら墓地の少ないほう、それも同じなら引き分け）。</p>"
            "<p><b>自分の手番</b>：カードを縦向きに戻し、1枚引き、<b>アレンジ</b>（待機エリアに"
            "カードがあればその左端、なければ手札から1枚を戦場に置く）か<b>攻撃</b>（縦向きの"
            "カードで1枚ずつ何度でも）のどちらかを行えます（両方は不可）。後列のマスは前のマスが"
            "埋まっている間だけ使え、前が空けばカードが前進します。</p>"
            "<p><b>攻撃</b>：攻撃するカードは横向きになり、レンジ（カードの小さな図）内の敵カードに"
            "攻撃力ぶんのダメージを与えます。その攻撃の攻撃力が相手の今の防御力（横向きだと低い）"
            "と同じなら、代わりに捕獲して自分の王国に入れられます。この手番のダメージが防御力を"
            "超えたカードは破壊されます。ダメージは手番の終わりに消えます。ソルジャーの攻撃力は"
            "自分の手札の枚数です。</p>"
            "<p><b>後方支援</b>：手札を待機エリア（5枠）の右端に置いて効果を使います。自分の手番に"
            "ソルジャー（この手番、自分の全カードの攻撃力+1）、アーチャー（敵カード1枚に1ダメージ）、"
            "プリースト（自分のカード1枚を移動・入れ替え）。ガーディアンは自分のカードへの攻撃を"
            "無効にし、ウィザードは相手が置いたばかりの支援を無効にします（ウィザードにも対応可）。"
            "キングは宣言してから5種のどれとしても使えます。</p>"
            "<p><b>入国</b>：1手番に1回、手札1枚（キング以外）を王国に置けます。手札6枚で手番を"
            "終えるなら必ず入国します。戦場が空になったプレイヤーはすぐに2枚を徴兵します"
            "（待機エリアの左から、足りなければ王国から）。</p>"),
    },
}
for _c in CARDS:
    STRINGS[f"artofwar.short.{_c}"] = {
        "en": {"S": "Soldier", "G": "Guardian", "A": "Archer", "P": "Priest", "W": "Wizard",
               "K": "King"}[_c],
        "ja": {"S": "ソルジャー", "G": "ガーディアン", "A": "アーチャー", "P": "プリースト",
               "W": "ウィザード", "K": "キング"}[_c]}
register(STRINGS)

#: The lobby's line for this game (our own words).
BLURB = {"en": "Two small armies on a 2×3 field: capture, destroy, or out-build the other kingdom.",
         "ja": "2×3の戦場で小さな軍勢がぶつかる。捕獲か破壊か、それとも建国か。"}


# -- names -----------------------------------------------------------------------------
def who(p: int, lang: str) -> str:
    return t(f"artofwar.seat{p}", lang)


def forms(p: Any, me: int | None, lang: str) -> dict[str, Any]:
    """How seat ``p`` is named for viewer ``me``: ``who`` (subject), ``who_l``, ``whose``,
    ``whose_l`` (possessive), ``you`` (1 for the viewer: an English verb agrees).

    >>> forms(0, 0, "en")["whose"], forms(1, 0, "en")["whose"], forms(1, None, "ja")["who"]
    ('Your', "Player 2's", 'プレイヤー2')
    """
    if not isinstance(p, int) or p not in (0, 1):
        return {"who": "", "who_l": "", "whose": "", "whose_l": "", "you": 0}
    if me is not None and p == me:
        return {"who": t("artofwar.you", lang), "who_l": t("artofwar.you_l", lang),
                "whose": t("artofwar.your", lang), "whose_l": t("artofwar.your_l", lang),
                "you": 1}
    name = who(p, lang)
    whose = t("artofwar.whose", lang, who=name)
    return {"who": name, "who_l": name, "whose": whose, "whose_l": whose, "you": 0}


def card_name(c: str, lang: str, king: int | None = None) -> str:
    """A card's name: its type, or ``King K-002``."""
    if c == "K" and king:
        return t("artofwar.king", lang, name=king_name(king))
    return TYPE_NAMES[c][lang] if c in TYPE_NAMES else str(c)


def cell_name(cell: str, lang: str) -> str:
    """``Fb`` → ``front b`` / ``前列b``."""
    if not isinstance(cell, str) or len(cell) != 2 or cell[0] not in "FB":
        return str(cell)
    return t("artofwar.front" if cell[0] == "F" else "artofwar.back", lang, lane=cell[1])


def _join(items: list[str], lang: str) -> str:
    return ("、" if lang == "ja" else ", ").join(items)


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


# -- card data ---------------------------------------------------------------------------
def kings(view: dict[str, Any] | None) -> list[int]:
    return list((view or {}).get("kings") or [1, 2])


def stats(c: str, king: int) -> tuple[int | None, tuple[int, int], tuple[tuple[int, int], ...]]:
    """(ATK or None for X, DEF upright/sideways, range offsets) of a card."""
    if c == "K":
        k = KINGS.get(king, KINGS[1])
        return k["atk"], tuple(k["def"]), tuple(k["range"])  # type: ignore[return-value]
    return ATK[c], DEF[c], RANGES[c]


def option(view: dict[str, Any] | None, name: str, default: Any) -> Any:
    """A rule variant the view carries (``view["options"][name]``, or ``view[name]``);
    the default when it does not."""
    view = view or {}
    opts = view.get("options") or {}
    if name in opts:
        return opts[name]
    return view.get(name, default)


def attack_value(view: dict[str, Any], seat: int, c: str) -> tuple[int, int | None]:
    """(ATK the card of ``seat`` would attack with now, X or None when not an X card)."""
    base, _, _ = stats(c, kings(view)[seat])
    x = None
    if base is None:
        x = (view.get("hand_counts") or [0, 0])[seat]
        base = x
    bonus = view.get("bonus", 0) if view.get("active") == seat else 0
    return base + bonus, x


def current_def(card: dict[str, Any], king: int) -> int:
    _, d, _ = stats(card["c"], king)
    return d[0] if card.get("up", True) else d[1]


def outcome_of(view: dict[str, Any], atk: int, owner: int, cell: str,
               *, archer: bool = False) -> tuple[str, int, int]:
    """What a hit of ``atk`` does to ``owner``'s card at ``cell``: ``(kind, total, def)``,
    kind ``capture`` (the attacker may capture it), ``destroy`` or ``damage``, per the
    view's ``capture_basis`` and ``destroy_when``. An Archer hit never captures."""
    card = view["fields"][owner][cell]
    d = current_def(card, kings(view)[owner])
    total = card.get("dmg", 0) + atk
    basis = option(view, "capture_basis", "single_attack")
    capture = (total == d) if basis == "accumulated" else (atk == d)
    if capture and not archer:
        return "capture", total, d
    reaches = option(view, "destroy_when", "exceeds") == "reaches"
    if total > d or (reaches and total >= d):
        return "destroy", total, d
    return "damage", total, d


def geometry(seat: int, cell: str) -> tuple[int, int]:
    """(global row, lane index) of ``seat``'s ``cell``."""
    row = {0: {"F": 1, "B": 0}, 1: {"F": 2, "B": 3}}[seat][cell[0]]
    return row, LANES.index(cell[1])


def reach(seat: int, cell: str, offsets: tuple[tuple[int, int], ...]) -> set[str]:
    """Enemy cells (as the enemy names them) the card of ``seat`` at ``cell`` reaches."""
    r, lane = geometry(seat, cell)
    fwd = 1 if seat == 0 else -1
    enemy = {(1 - seat, c): geometry(1 - seat, c) for c in CELLS}
    spots = {v: k[1] for k, v in enemy.items()}
    out = set()
    for dx, k in offsets:
        spot = (r + fwd * k, lane + dx)
        if spot in spots:
            out.add(spots[spot])
    return out


# -- actions -----------------------------------------------------------------------------
def new_selection() -> dict[str, Any]:
    """``src``: a picked hand card (``S``), the waiting card (``w``) or a kingdom card
    (``kS``); ``at``: a picked own cell (an attacker, or the card a Priest moves)."""
    return {"src": None, "at": None}


def _uses_src(src: str, legal: list[str]) -> bool:
    if src == "w" or src.startswith("k"):
        return any(a.startswith(f"{src}>") for a in legal)
    return any(a in (f"+{src}", f"e{src}") or a.startswith(f"{src}>")
               or (src == "K" and a.startswith("+K")) for a in legal)


def handle(cmd: str, sel: dict[str, Any], legal: list[str],
           view: dict[str, Any] | None = None) -> str | None:
    """A click, as an engine action once one is made.

    >>> sel = new_selection()
    >>> handle("hand:S", sel, ["S>Fa", "+S"]), sel["src"], handle("cell:Fa", sel, ["S>Fa"])
    (None, 'S', 'S>Fa')
    >>> handle("cell:Fb", sel, ["FbxFc"]), handle("foe:Fc", sel, ["FbxFc"])
    (None, 'FbxFc')
    >>> handle("act:end", sel, ["end"]), handle("act:xx", sel, ["end"])
    ('end', None)
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
    if name == "hand" and arg in CARDS:
        if sel.get("src") == arg:
            sel.update(new_selection())
        elif _uses_src(arg, legal):
            sel.update(src=arg, at=None)
        return None
    if name == "wait":
        if _uses_src("w", legal):
            sel.update(src=None if sel.get("src") == "w" else "w", at=None)
        return None
    if name == "kingdom" and arg in TYPES:
        src = f"k{arg}"
        if _uses_src(src, legal):
            sel.update(src=None if sel.get("src") == src else src, at=None)
        return None
    if name == "cell" and arg in CELLS:
        src, at = sel.get("src"), sel.get("at")
        if src and f"{src}>{arg}" in legal:
            sel.update(new_selection())
            return f"{src}>{arg}"
        if at and f"m{at}-{arg}" in legal:
            sel.update(new_selection())
            return f"m{at}-{arg}"
        if at == arg:
            sel.update(new_selection())
        elif any(a.startswith((f"{arg}x", f"m{arg}-")) for a in legal):
            sel.update(src=None, at=arg)
        return None
    if name == "foe" and arg in CELLS:
        at = sel.get("at")
        if at and f"{at}x{arg}" in legal:
            sel.update(new_selection())
            return f"{at}x{arg}"
        if f"a{arg}" in legal:
            sel.update(new_selection())
            return f"a{arg}"
    return None


def move_text(action: str, player: int, lang: str) -> str:
    """An action in words for a replay's move list.

    >>> move_text("FbxFc", 0, "en"), move_text("+KA", 1, "en"), move_text("w>Fa", 0, "ja")
    ('front b attacks front c', 'King as Archer support', '待機エリア→前列a')
    """
    m = _ATTACK.match(action)
    if m:
        return {"en": f"{cell_name(m.group(1), lang)} attacks {cell_name(m.group(2), lang)}",
                "ja": f"{cell_name(m.group(1), lang)}が{cell_name(m.group(2), lang)}を攻撃"}[
                    "ja" if lang == "ja" else "en"]
    ja = lang == "ja"
    fixed = {"keep": _s("keeps the opening hand", "最初の手札で始める"),
             "mull": _s("mulligan", "引き直し"), "end": _s("ends the turn", "手番終了"),
             "pass": _s("passes", "パス"), "cap": _s("captures", "捕獲"),
             "dmg": _s("deals the damage", "ダメージを与える")}
    if action in fixed:
        return fixed[action]["ja" if ja else "en"]
    if action.startswith("+K") and len(action) == 3:
        return (f"キングを{card_name(action[2], lang)}支援" if ja
                else f"King as {card_name(action[2], lang)} support")
    if action.startswith("+") and len(action) == 2:
        return (f"{card_name(action[1], lang)}支援" if ja
                else f"{card_name(action[1], lang)} support")
    if action.startswith("e") and len(action) == 2:
        return f"{card_name(action[1], lang)}を入国" if ja else f"enter {card_name(action[1], lang)}"
    if action.startswith("a") and action[1:] in CELLS:
        return (f"アーチャー：{cell_name(action[1:], lang)}" if ja
                else f"Archer hits {cell_name(action[1:], lang)}")
    m = _MOVE.match(action)
    if m:
        return f"{cell_name(m.group(1), lang)}→{cell_name(m.group(2), lang)}"
    m = _PLACE.match(action)
    if m:
        src, dst = m.groups()
        what = (t("artofwar.ev.src_wait", lang) if src == "w" else
                card_name(src[1], lang) if src.startswith("k") else card_name(src, lang))
        where = ("待機エリア" if ja else "waiting line") if dst == "w" else cell_name(dst, lang)
        return f"{what}→{where}"
    return action


# -- what the log says -----------------------------------------------------------------
def _card_at(event: dict[str, Any], view: dict[str, Any] | None, lang: str,
             owner_key: str = "p") -> str:
    """``Player 2's Priest at front c`` from an event naming a card and a cell."""
    me = (view or {}).get("you")
    owner = event.get(owner_key)
    c = event.get("c", "")
    king = kings(view)[owner] if owner in (0, 1) else None
    name = card_name(c, lang, king) if c else ""
    cell = event.get("cell") or event.get("to")
    whose = forms(owner, me, lang)["whose_l" if lang == "en" else "whose"]
    if not name:  # the event names the cell only
        return f"{whose}{cell_name(cell, lang)}" if lang == "ja" else f"{whose} {cell_name(cell, lang)}"
    if lang == "ja":
        return f"{whose}{name}（{cell_name(cell, lang)}）" if cell else f"{whose}{name}"
    return f"{whose} {name} at {cell_name(cell, lang)}" if cell else f"{whose} {name}"


def describe(event: dict[str, Any], lang: str, view: dict[str, Any] | None = None) -> str:
    """One engine event in words (the viewer, ``view["you"]``, reads of themself as you).

    >>> describe({"t": "enter", "p": 1, "c": "S"}, "en")
    'Player 2 enters Soldier into the kingdom.'
    >>> describe({"t": "draw", "p": 0, "n": 1, "cards": ["A"]}, "en", {"you": 0})
    'You draw Archer.'
    """
    kind = event.get("t", "")
    p = event.get("p")
    me = (view or {}).get("you")
    f = forms(p, me, lang)
    ks = kings(view)

    def cname(c: Any, owner: Any = p) -> str:
        return card_name(c, lang, ks[owner] if owner in (0, 1) else None) if c else ""

    if kind == "draw":
        cards = event.get("cards")
        if cards:
            return t("artofwar.ev.draw_seen", lang, **f, cards=_join([cname(c) for c in cards], lang))
        return t("artofwar.ev.draw", lang, **f, n=event.get("n", 1))
    if kind == "mulligan":
        kept = event.get("keep", event.get("kept"))
        if kept is True or event.get("mull") is False:
            return t("artofwar.ev.keep", lang, **f)
        return t("artofwar.ev.mulligan", lang, **f)
    if kind == "kingdom":
        return t("artofwar.ev.kingdom", lang, **f, card=cname(event.get("c")))
    if kind == "place":
        to = event.get("to")
        if to == "w":
            return t("artofwar.ev.place_w", lang, **f, card=cname(event.get("c")))
        return t("artofwar.ev.place", lang, **f, card=cname(event.get("c")), cell=cell_name(to, lang))
    if kind == "turn":
        return t("artofwar.ev.turn", lang, n=event.get("n", ""), whose=forms(p, me, lang)["whose_l"])
    if kind == "recover":
        return _cap(t("artofwar.ev.recover", lang, whose=f["whose_l"]))
    if kind == "arrange":
        src = t("artofwar.ev.src_wait" if event.get("from") == "wait" else "artofwar.ev.src_hand", lang)
        text = t("artofwar.ev.arrange", lang, **f, card=cname(event.get("c")), src=src,
                 cell=cell_name(event.get("to"), lang))
        out = event.get("out")
        if out:
            to_wait = event.get("out_to", "hand" if event.get("from") == "hand" else "wait") == "wait"
            text += t("artofwar.ev.out_wait" if to_wait else "artofwar.ev.out_hand", lang,
                      card=cname(out))
        return text
    if kind == "attack":
        target = _card_at({"p": 1 - p if p in (0, 1) else None, "c": event.get("target", ""),
                           "cell": event.get("to")}, view, lang)
        return t("artofwar.ev.attack", lang, whose=f["whose"], card=cname(event.get("c")),
                 from_=cell_name(event.get("from"), lang), target=target,
                 atk=event.get("atk", ""))
    if kind == "support":
        c, as_ = event.get("c"), event.get("as") or event.get("c")
        return t("artofwar.ev.support", lang, **f, card=cname(c), as_=card_name(as_, lang))
    if kind == "cancel":
        return t("artofwar.ev.cancel", lang, whose=f["whose"], card=cname(event.get("c")))
    if kind == "guarded":
        return t("artofwar.ev.guarded", lang)
    if kind == "damage":
        return _cap(t("artofwar.ev.damage", lang, target=_card_at(event, view, lang),
                      n=event.get("n", 0), total=event.get("total", event.get("n", 0))))
    if kind == "capture":
        owner = event.get("from") if event.get("from") in (0, 1) else (1 - p if p in (0, 1) else None)
        target = _card_at({**event, "p": owner}, view, lang)
        return t("artofwar.ev.capture", lang, **f, target=target)
    if kind == "destroy":
        return _cap(t("artofwar.ev.destroy", lang, target=_card_at(event, view, lang)))
    if kind == "advance":
        return t("artofwar.ev.advance", lang, whose=f["whose"], card=cname(event.get("c")),
                 cell=cell_name(event.get("to") or ("F" + str(event.get("cell", "  "))[1]), lang))
    if kind == "archer":
        owner = event.get("owner", 1 - p if p in (0, 1) else None)
        cell = event.get("cell") or event.get("to")
        target = _card_at({"p": owner, "c": event.get("c", ""), "cell": cell}, view, lang)
        return t("artofwar.ev.archer", lang, whose=f["whose"], target=target)
    if kind == "priest":
        key = "artofwar.ev.priest_swap" if event.get("swap") else "artofwar.ev.priest"
        return t(key, lang, **f, card=cname(event.get("c")),
                 from_=cell_name(event.get("from"), lang), to=cell_name(event.get("to"), lang))
    if kind == "enter":
        return t("artofwar.ev.enter", lang, **f, card=cname(event.get("c")))
    if kind == "conscript":
        src = event.get("src", "wait")
        src_text = t("artofwar.ev.src_kingdom" if src in ("kingdom", "k") else "artofwar.ev.src_wait",
                     lang)
        return t("artofwar.ev.conscript", lang, **f, card=cname(event.get("c")), src=src_text,
                 cell=cell_name(event.get("to"), lang))
    if kind == "end_turn":
        return t("artofwar.ev.end_turn", lang, **f)
    if kind == "pass":
        return t("artofwar.ev.pass", lang, **f)
    winner = event.get("winner", p)
    wf = forms(winner, me, lang)
    if kind == "founding":
        types = event.get("types") or [4, 4]
        n = types[winner] if winner in (0, 1) and len(types) == 2 else 4
        return t("artofwar.ev.founding", lang, **wf, n=n)
    if kind == "execution":
        loser = p if p in (0, 1) else (1 - winner if winner in (0, 1) else None)
        target = _card_at({"p": loser, "c": "K", "cell": event.get("cell")}, view, lang)
        return t("artofwar.ev.execution", lang, **wf, target=target)
    if kind == "annihilation":
        loser = p if p in (0, 1) else (1 - winner if winner in (0, 1) else None)
        return t("artofwar.ev.annihilation", lang, **wf, loser=forms(loser, me, lang)["who"])
    if kind == "end_of_war":
        a, b = (event.get("kingdoms") or [0, 0])[:2]
        ga, gb = (event.get("graveyards") or [0, 0])[:2]
        return t("artofwar.ev.end_of_war", lang, a=a, b=b, ga=ga, gb=gb)
    return t("artofwar.ev.other", lang, kind=kind)


def result_reason(outcome: dict[str, Any], lang: str) -> str:
    """The game-over screen's reason, for each of the four victories (and a draw)."""
    winners = outcome.get("winners") or []
    reason = outcome.get("reason", "")
    if not winners:
        return t("artofwar.r.draw", lang)
    name = who(winners[0], lang)
    if reason == "founding":
        return t("artofwar.r.founding", lang, who=name)
    if reason in ("execution", "annihilation"):
        return t(f"artofwar.r.{reason}", lang, who=name)
    if reason == "end_of_war":
        k, g, w = outcome.get("kingdoms"), outcome.get("graveyards"), winners[0]
        if not k or not g:  # the outcome does not carry the counts: the log has them
            return t("artofwar.r.end_of_war_plain", lang, who=name)
        if k[0] == k[1]:
            return t("artofwar.r.end_of_war_grave", lang, who=name, ga=g[w], gb=g[1 - w])
        return t("artofwar.r.end_of_war", lang, who=name, a=k[w], b=k[1 - w])
    return t("artofwar.r.other", lang, who=name)


def step_delay(event: dict[str, Any], speed: int) -> int:
    """An attack's result and a game's end get a longer look; a new turn a short one."""
    kind = event.get("t")
    if kind in ("capture", "destroy", "founding", "execution", "annihilation", "end_of_war"):
        return speed * 3 // 2
    if kind in ("turn", "kingdom", "place"):
        return speed // 2
    return speed


# -- playback: the table as it was, with the steps shown so far applied -----------------
def board_at(before: dict[str, Any], events: list[dict[str, Any]]) -> dict[str, Any] | None:
    """``before`` (a view) with ``events`` applied to its public parts (fields, waiting
    lines, kingdoms, graveyards, counts, the viewer's hand); None when an event cannot be
    followed (the caller then draws the view itself)."""
    import copy

    b = copy.deepcopy(before)
    me = b.get("you")
    try:
        for e in events:
            _apply_event(b, e, me)
    except (KeyError, IndexError, TypeError, ValueError, AttributeError):
        return None
    return b


def _from_hand(b: dict[str, Any], p: int, c: Any, me: Any) -> None:
    b["hand_counts"][p] = max(0, b["hand_counts"][p] - 1)
    if p == me and b.get("hand") is not None and c in b["hand"]:
        b["hand"].remove(c)


def _apply_event(b: dict[str, Any], e: dict[str, Any], me: Any) -> None:
    kind, p = e["t"], e.get("p")
    fields = b["fields"]
    if kind == "draw":
        n = e.get("n", 1)
        b["hand_counts"][p] += n
        b["deck_counts"][p] = max(0, b["deck_counts"][p] - n)
        if p == me and b.get("hand") is not None and e.get("cards"):
            b["hand"] = sorted(b["hand"] + list(e["cards"]), key=CARDS.index)
    elif kind == "mulligan":
        if e.get("mull"):  # the 3 cards go back into the deck (a draw follows)
            b["hand_counts"][p] -= 3
            b["deck_counts"][p] += 3
            if p == me and b.get("hand") is not None:
                for c in e.get("cards") or []:
                    b["hand"].remove(c)
    elif kind == "kingdom":
        # Set-up step 5; the King joined the hand just before (no event says so).
        b["hand_counts"][p] += 1
        if p == me and b.get("hand") is not None and "K" not in b["hand"]:
            b["hand"].append("K")
        b["deck_counts"][p] = max(0, b["deck_counts"][p] - 1)
        b["kingdoms"][p][e["c"]] = b["kingdoms"][p].get(e["c"], 0) + 1
    elif kind == "place":
        _from_hand(b, p, e["c"], me)
        if e["to"] == "w":
            b["waiting"][p].append(e["c"])
        else:
            fields[p][e["to"]] = {"c": e["c"], "up": True, "dmg": 0}
    elif kind == "turn":
        b["active"], b["turn"] = p, e.get("n", b.get("turn"))
        b["bonus"], b["attack"] = 0, None
        b["arranged"] = b["attacked"] = b["entered"] = False
    elif kind == "recover":
        for card in fields[p].values():
            card["up"] = True
    elif kind == "arrange":
        if e.get("from") == "wait":
            b["waiting"][p].pop(0)
        else:
            _from_hand(b, p, e["c"], me)
        out = e.get("out")
        if out:
            if e.get("out_to", "wait" if e.get("from") == "wait" else "hand") == "wait":
                b["waiting"][p].append(out)
            else:
                b["hand_counts"][p] += 1
                if p == me and b.get("hand") is not None:
                    b["hand"] = sorted(b["hand"] + [out], key=CARDS.index)
        fields[p][e["to"]] = {"c": e["c"], "up": True, "dmg": 0}
        b["arranged"] = True
    elif kind == "attack":
        fields[p][e["from"]]["up"] = False
        b["attacked"] = True
        b["attack"] = {"p": p, "from": e["from"], "to": e["to"], "atk": e.get("atk"),
                       "card": e.get("c")}
    elif kind == "support":
        _from_hand(b, p, e["c"], me)
        b["waiting"][p].append(e["c"])
    elif kind == "damage":
        fields[p][e["cell"]]["dmg"] = e.get("total", e.get("n", 0))
    elif kind in ("capture", "destroy"):
        owner = e.get("owner", 1 - p) if kind == "capture" else p
        cell = e.get("cell") or e.get("to")
        card = fields[owner].pop(cell)
        c = e.get("c") or card["c"]
        if kind == "capture":
            if c in TYPES:
                b["kingdoms"][p][c] = b["kingdoms"][p].get(c, 0) + 1
        else:
            b["graveyards"][p].append(c)
    elif kind == "advance":
        src = e.get("from") or "B" + e["cell"][1]
        dst = e.get("to") or "F" + src[1]
        fields[p][dst] = fields[p].pop(src)
    elif kind == "priest":
        src, dst = e["from"], e["to"]
        moving = fields[p].pop(src)
        if dst in fields[p]:
            fields[p][src] = fields[p][dst]
        fields[p][dst] = moving
    elif kind == "enter":
        _from_hand(b, p, e["c"], me)
        b["kingdoms"][p][e["c"]] = b["kingdoms"][p].get(e["c"], 0) + 1
        b["entered"] = True
    elif kind == "conscript":
        if e.get("src") in ("kingdom", "k"):
            b["kingdoms"][p][e["c"]] -= 1
        else:
            b["waiting"][p].pop(0)
        fields[p][e["to"]] = {"c": e["c"], "up": True, "dmg": 0}
    elif kind == "end_turn":
        for side in fields:
            for card in side.values():
                card["dmg"] = 0
        b["bonus"], b["attack"] = 0, None


# -- rendering ---------------------------------------------------------------------------
def _range_svg(offsets: tuple[tuple[int, int], ...], label: str) -> str:
    """The range diagram: the card's own cell at the bottom middle, the cells it reaches
    (up to 3 ahead, 2 to each side) filled."""
    hits = {(dx, k) for dx, k in offsets}
    rects = []
    for k in (3, 2, 1):
        for dx in range(-2, 3):
            y, x = 3 - k, dx + 2
            cls = "hit" if (dx, k) in hits else "off"
            rects.append(f'<rect class="{cls}" x="{x * 6}" y="{y * 6}" width="5" height="5"/>')
    rects.append('<rect class="self" x="12" y="18" width="5" height="5"/>')
    return (f'<svg class="rng" viewBox="0 0 29 23" role="img" aria-label="{esc(label)}">'
            f'{"".join(rects)}</svg>')


def _king_note(king: int, lang: str) -> str:
    if KINGS.get(king, {}).get("provisional"):
        return (f'<span class="prov" title="{esc(t("artofwar.provisional_note", lang))}">'
                f'{esc(t("artofwar.provisional", lang))}</span>')
    return ""


def _atk_text(atk: int | None, lang: str) -> str:
    return "X" if atk is None else str(atk)


#: Where a long English name may break on a narrow card face (a soft hyphen: shown only if
#: the line breaks there; the face is aria-hidden, its label says the name whole).
SOFT_HYPHENS = {"Guardian": "Guard\u00adian", "Soldier": "Sol\u00addier"}


def card_face(c: str, king: int, lang: str, state: dict[str, Any] | None = None,
              *, atk_now: int | None = None) -> str:
    """Our own card face: type, ATK, DEF upright/sideways (the one in force bold), damage,
    the range diagram (aria-hidden parts; the label says it in words)."""
    atk, (du, ds), offsets = stats(c, king)
    up = (state or {}).get("up", True)
    dmg = (state or {}).get("dmg", 0)
    name = t(f"artofwar.short.{c}", lang)
    name = SOFT_HYPHENS.get(name, name)  # a narrow card breaks "Guard-ian", not "Guardi-an"
    sub = king_name(king) if c == "K" else ""
    cur_u, cur_s = ("cur", "") if up else ("", "cur")
    atk_shown = _atk_text(atk, lang) if atk_now is None else str(atk_now)
    dmg_html = (f'<span class="dmg" data-dmg="{dmg}">✹{dmg}</span>' if dmg else "")
    return (f'<span class="face" aria-hidden="true">'
            f'<span class="nm">{esc(name)}</span>'
            f'{f"<span class=kn>{esc(sub)}</span>" if sub else ""}'
            f'<span class="st"><span class="atk"><small>{esc(t("artofwar.atk", lang))}</small>'
            f'{esc(atk_shown)}</span><span class="df"><small>{esc(t("artofwar.def", lang))}</small>'
            f'<span class="{cur_u}">{du}</span>/<span class="{cur_s}">{ds}</span></span></span>'
            f'{_range_svg(offsets, "")}{dmg_html}</span>')


def card_words(view: dict[str, Any], owner: int, cell: str, me: int | None, lang: str) -> str:
    """``Your Archer at front b, upright, 1 damage`` (a button's screen-reader label)."""
    card = view["fields"][owner][cell]
    king = kings(view)[owner]
    words = t("artofwar.card_label", lang, whose=forms(owner, me, lang)["whose"],
              card=card_name(card["c"], lang, king), cell=cell_name(cell, lang),
              orient=t("artofwar.upright" if card.get("up", True) else "artofwar.sideways", lang))
    if card.get("dmg"):
        words += (", " if lang == "en" else "、") + t("artofwar.dmg_n", lang, n=card["dmg"])
    atk, (du, ds), _ = stats(card["c"], king)
    words += (", " if lang == "en" else "、") + t(
        "artofwar.card_stats", lang, atk=t("artofwar.atk_x", lang) if atk is None else atk,
        du=du, ds=ds)
    if card["c"] == "K" and KINGS.get(king, {}).get("provisional"):
        words += f" ({t('artofwar.provisional', lang)})"
    return words


def _lane_order(bottom: int) -> tuple[str, ...]:
    return ("a", "b", "c") if bottom == 0 else ("c", "b", "a")


def _mark_words(kind: str, atk: int, total: int, d: int, lang: str) -> str:
    if kind == "capture":
        return t("artofwar.out_capture", lang, atk=atk, d=d)
    if kind == "destroy":
        return t("artofwar.out_destroy", lang, total=total, d=d)
    return t("artofwar.out_damage", lang, atk=atk, total=total, d=d)


def _mark_tag(kind: str, n: int, lang: str) -> str:
    text = (t("artofwar.mark_damage", lang, n=n) if kind == "damage"
            else t(f"artofwar.mark_{kind}", lang))
    return f'<span class="mark m-{kind}" aria-hidden="true">{esc(text)}</span>'


class _Screen:
    """What one render needs, worked out once."""

    def __init__(self, view: dict[str, Any], legal: list[str], lang: str,
                 sel: dict[str, Any], acting: bool) -> None:
        self.view, self.lang, self.sel = view, lang, sel
        self.legal = legal if acting else []
        self.legal_set = set(self.legal)
        self.acting = acting
        self.me = view.get("you")
        self.bottom = self.me if self.me in (0, 1) else 0
        self.top = 1 - self.bottom
        self.phase = view.get("phase", "")
        self.choice_on_field = False
        self.animating = False


def _own_cell_cmd(s: _Screen, cell: str) -> tuple[str | None, str]:
    """(data-cmd, light class) of the viewer's own cell."""
    if not s.acting:
        return None, ""
    src, at = s.sel.get("src"), s.sel.get("at")
    if f"w>{cell}" in s.legal_set and s.phase == "conscript":
        return f"act:w>{cell}", "lit place"
    if src and f"{src}>{cell}" in s.legal_set:
        return f"cell:{cell}", "lit place"
    if at and f"m{at}-{cell}" in s.legal_set:
        return f"cell:{cell}", "lit move"
    if at == cell:
        return f"cell:{cell}", "picked"
    if any(a.startswith((f"{cell}x", f"m{cell}-")) for a in s.legal):
        return f"cell:{cell}", "can"
    return None, ""


def _foe_cell_cmd(s: _Screen, cell: str) -> tuple[str | None, str, str]:
    """(data-cmd, light class, words of the outcome) of an enemy cell."""
    view, foe = s.view, s.top
    at = s.sel.get("at")
    occupied = cell in view["fields"][foe]
    if at and f"{at}x{cell}" in s.legal_set and occupied:
        atk, _ = attack_value(view, s.bottom, view["fields"][s.bottom][at]["c"])
        kind, total, d = outcome_of(view, atk, foe, cell)
        words = _mark_words(kind, atk, total, d, s.lang)
        if view["fields"][foe][cell]["c"] == "K":
            words += t("artofwar.out_king", s.lang)
        return f"foe:{cell}", f"lit target t-{kind}", words
    if f"a{cell}" in s.legal_set and occupied:
        kind, total, d = outcome_of(view, 1, foe, cell, archer=True)
        words = _mark_words(kind, 1, total, d, s.lang)
        return f"act:a{cell}", f"lit target t-{kind}", words
    if at and at in view["fields"][s.bottom] and s.phase == "main":
        card = view["fields"][s.bottom][at]
        _, _, offsets = stats(card["c"], kings(view)[s.bottom])
        if cell in reach(s.bottom, at, offsets):
            return None, "reach", t("artofwar.reach", s.lang)
    return None, "", ""


def _cell_html(s: _Screen, owner: int, cell: str) -> str:
    view, lang, me = s.view, s.lang, s.me
    card = view["fields"][owner].get(cell)
    if owner == s.bottom:
        cmd, light = _own_cell_cmd(s, cell)
        words, mark = "", ""
    else:
        cmd, light, words = _foe_cell_cmd(s, cell)
        mark = ""
        if "target" in light:
            kind = light.split("t-")[1]
            n = 1 if cmd and cmd.startswith("act:a") else 0
            if kind == "damage" and not n:
                n, _ = attack_value(view, s.bottom, view["fields"][s.bottom][s.sel["at"]]["c"])
            mark = _mark_tag(kind, n, lang)
    if cmd:
        s.choice_on_field = True
    if card is None:
        label = t("artofwar.empty_cell", lang, whose=forms(owner, me, lang)["whose"],
                  cell=cell_name(cell, lang))
        inner = f'<span class="sr-only">{esc(label)}</span>'
        orient = "empty"
    else:
        label = card_words(view, owner, cell, me, lang)
        inner = card_face(card["c"], kings(view)[owner], lang, card)
        orient = "up" if card.get("up", True) else "side"
    if words:
        label += f" — {words}"
    data = (f'data-cell="{cell}" data-owner="{owner}"'
            + (f' data-card="{esc(card["c"])}"' if card else ""))
    mark_attr = ""
    if "target" in light:
        mark_attr = f' data-mark="{light.split("t-")[1]}"'
    elif light == "reach":
        mark_attr = ' data-mark="reach"'
    classes = f"cell {orient} {light} s{owner}".strip()
    if cmd:
        # The words are the button's own (hidden) text: its name starts with what it shows.
        face = "" if card is None else inner
        return (f'<button type="button" class="{classes}" {data}{mark_attr} data-cmd="{esc(cmd)}">'
                f'<span class="sr-only">{esc(label)}</span>{face}{mark}</button>')
    return f'<div class="{classes}" {data}{mark_attr} role="img" aria-label="{esc(label)}">{inner}{mark}</div>'


def _field(s: _Screen) -> str:
    lanes = _lane_order(s.bottom)
    rows = [(s.top, "B"), (s.top, "F"), (s.bottom, "F"), (s.bottom, "B")]
    out = []
    for owner, row in rows:
        cells = "".join(_cell_html(s, owner, f"{row}{lane}") for lane in lanes)
        out.append(f'<div class="frow r{row} s{owner}{" mine" if owner == s.me else ""}">{cells}</div>')
        if (owner, row) == (s.top, "F"):
            out.append(f'<div class="fline" aria-hidden="true">'
                       f'{"".join(f"<span>{lane}</span>" for lane in lanes)}</div>')
    label = (t("artofwar.field_of", s.lang, whose=forms(s.top, s.me, s.lang)["whose"]) + " / "
             + t("artofwar.field_of", s.lang, whose=forms(s.bottom, s.me, s.lang)["whose"]))
    mark = " data-choice" if s.choice_on_field else ""
    return (f'<section class="field" aria-label="{esc(label)}"{mark}>{"".join(out)}</section>')


def _waiting(s: _Screen, p: int) -> str:
    view, lang = s.view, s.lang
    line = view["waiting"][p]
    cap = view.get("capacity", 5)
    king = kings(view)[p]
    items = []
    for i in range(max(cap, len(line))):
        if i < len(line):
            c = line[i]
            name = card_name(c, lang, king)
            cls = f"slot full c-{c}"
            if i == 0 and p == s.me and s.acting and _uses_src("w", s.legal) and s.phase == "main":
                picked = s.sel.get("src") == "w"
                label = t("artofwar.b.arrange_wait", lang, card=name)
                items.append(f'<li class="{cls}{" picked" if picked else ""}"><button type="button" '
                             f'data-cmd="wait" aria-pressed="{str(picked).lower()}" '
                             f'aria-label="{esc(label)}">{esc(t(f"artofwar.short.{c}", lang))}'
                             f'</button></li>')
            else:
                items.append(f'<li class="{cls}">{esc(t(f"artofwar.short.{c}", lang))}</li>')
        else:
            items.append('<li class="slot free" aria-hidden="true"></li>')
    label = t("artofwar.waiting_of", lang, whose=forms(p, s.me, lang)["whose"], n=len(line), cap=cap)
    mark = " data-choice" if any("data-cmd" in i for i in items) else ""
    return (f'<div class="waiting s{p}" data-seat="{p}" data-count="{len(line)}"{mark}>'
            f'<span class="wl">{esc(t("artofwar.waiting", lang, n=len(line), cap=cap))}</span>'
            f'<ol aria-label="{esc(label)}">{"".join(items)}</ol></div>')


def _kingdom(s: _Screen, p: int) -> str:
    view, lang = s.view, s.lang
    counts = view["kingdoms"][p]
    other = view["kingdoms"][1 - p]
    items = []
    for c in TYPES:
        n = counts.get(c, 0)
        lead = " lead" if n > other.get(c, 0) else ""
        text = f'{esc(t(f"artofwar.short.{c}", lang))} <b>{n}</b>'
        src = f"k{c}"
        if p == s.me and s.acting and _uses_src(src, s.legal):
            picked = s.sel.get("src") == src
            items.append(f'<li class="kc{lead}"><button type="button" data-cmd="kingdom:{c}" '
                         f'aria-pressed="{str(picked).lower()}">{text}</button></li>')
        else:
            items.append(f'<li class="kc{lead}">{text}</li>')
    total = sum(counts.get(c, 0) for c in TYPES)
    label = t("artofwar.kingdom_of", lang, whose=forms(p, s.me, lang)["whose"])
    mark = " data-choice" if any("data-cmd" in i for i in items) else ""
    return (f'<div class="kingdom s{p}" data-seat="{p}" data-total="{total}"{mark}>'
            f'<span class="kl">{esc(t("artofwar.kingdom", lang, n=total))}</span>'
            f'<ul aria-label="{esc(label)}">{"".join(items)}</ul></div>')


def _panel(s: _Screen, p: int, seat_label: str) -> str:
    view, lang = s.view, s.lang
    king = kings(view)[p]
    f = forms(p, s.me, lang)
    grave = view["graveyards"][p]
    pile = "".join(f"<li>{esc(card_name(c, lang, king))}</li>" for c in grave) or \
        f'<li class="muted">{esc(t("artofwar.none", lang))}</li>'
    _, (du, ds), offsets = stats("K", king)
    atk = KINGS.get(king, KINGS[1])["atk"]
    kstats = t("artofwar.card_stats", lang, atk=t("artofwar.atk_x", lang) if atk is None else atk,
               du=du, ds=ds)
    label = f' <span class="seat">({esc(seat_label)})</span>' if seat_label else ""
    turn = " active" if view.get("active") == p and view.get("phase") != "over" else ""
    return (f'<section class="apanel s{p}{turn}{" mine" if p == s.me else ""}" data-seat="{p}">'
            f'<h2>{esc(f["who"] if p == s.me else who(p, lang))}{label}</h2>'
            f'<p class="stats"><span data-hand="{view["hand_counts"][p]}">'
            f'{esc(t("artofwar.hand_n", lang, n=view["hand_counts"][p]))}</span>'
            f'<span data-deck="{view["deck_counts"][p]}">'
            f'{esc(t("artofwar.deck_n", lang, n=view["deck_counts"][p]))}</span>'
            f'<span data-kingdom="{sum(view["kingdoms"][p].get(c, 0) for c in TYPES)}">'
            f'{esc(t("artofwar.kingdom", lang, n=sum(view["kingdoms"][p].get(c, 0) for c in TYPES)))}</span>'
            f'<span class="king" data-king="{king}">{esc(t("artofwar.king", lang, name=king_name(king)))}'
            f'{_king_note(king, lang)}<span class="sr-only"> ({esc(kstats)})</span></span></p>'
            f'<details class="grave" data-count="{len(grave)}"><summary>'
            f'{esc(t("artofwar.grave_n", lang, n=len(grave)))}</summary>'
            f'<ol aria-label="{esc(t("artofwar.grave_of", lang, whose=f["whose"]))}">{pile}</ol>'
            f'{_unseen(view, p, lang)}</details>{_open_hand(view, p, lang)}</section>')


def _unseen(view: dict[str, Any], p: int, lang: str) -> str:
    """The cards a seat may still hold (its hand and deck together: public by deduction),
    which is also why a Guardian or Wizard window opens."""
    unseen = (view.get("unseen") or [{}, {}])[p]
    if p == view.get("you") or not unseen:
        return ""
    items = _join([f"{t(f'artofwar.short.{c}', lang)} {unseen[c]}" for c in CARDS
                   if unseen.get(c)], lang) or t("artofwar.none", lang)
    return f'<p class="unseen">{esc(t("artofwar.may_hold", lang, items=items))}</p>'


def _open_hand(view: dict[str, Any], p: int, lang: str) -> str:
    hands = view.get("open_hands")
    if not hands or p == view.get("you"):
        return ""
    names = _join([card_name(c, lang, kings(view)[p]) for c in hands[p]], lang) or "—"
    return (f'<p class="open-hand" data-open-hand="{p}"><b>'
            f'{esc(t("artofwar.hand_n", lang, n=len(hands[p])))}:</b> {esc(names)}</p>')


def open_view(views: list[dict[str, Any]]) -> dict[str, Any]:
    """Every seat's view as one, for a finished game's open replay: every hand shown."""
    import copy

    merged = copy.deepcopy(views[0])
    merged["open_hands"] = [list(v.get("hand") or []) for v in views]
    return merged


def _founding(s: _Screen) -> str:
    view, lang, me = s.view, s.lang, s.me
    a, b = s.bottom, s.top
    ka, kb = view["kingdoms"][a], view["kingdoms"][b]
    leads = [sum(1 for c in TYPES if view["kingdoms"][p].get(c, 0) > view["kingdoms"][1 - p].get(c, 0))
             for p in (0, 1)]
    rows = []
    for c in TYPES:
        na, nb = ka.get(c, 0), kb.get(c, 0)
        lead = "a" if na > nb else "b" if nb > na else ""
        words = t("artofwar.founding_row", lang, type=card_name(c, lang), a=na, b=nb)
        rows.append(f'<li class="fd{" lead-" + lead if lead else ""}" data-type="{c}" '
                    f'aria-label="{esc(words)}"><span class="fb">{nb}</span>'
                    f'<span class="ft">{esc(t(f"artofwar.short.{c}", lang))}</span>'
                    f'<span class="fa">{na}</span></li>')
    fa, fb = forms(a, me, lang), forms(b, me, lang)
    head = t("artofwar.founding_both", lang, a_who=fa["who"], you_a=fa["you"], a=leads[a],
             b_who=fb["who_l"], b=leads[b])
    return (f'<section class="founding" data-leads="{leads[0]}-{leads[1]}" '
            f'aria-label="{esc(t("artofwar.founding_table", lang))}">'
            f'<p class="fhead"><b>{esc(t("artofwar.founding", lang))}</b> {esc(head)}</p>'
            f'<ol>{"".join(rows)}</ol></section>')


def _battle_state(s: _Screen) -> str:
    """The attack in progress, its answers, a waiting support, the Soldier bonus."""
    view, lang, me = s.view, s.lang, s.me
    items = []
    bonus = view.get("bonus", 0)
    if bonus and view.get("phase") not in ("over",):
        items.append(f'<li class="bonus" data-bonus="{bonus}">'
                     f'{esc(t("artofwar.bonus", lang, n=bonus, whose=forms(view.get("active"), me, lang)["whose_l"]))}</li>')
    att = view.get("attack")
    if att:
        p = att["p"]
        target = view["fields"][1 - p].get(att["to"])
        tname = (forms(1 - p, me, lang)["whose_l" if lang == "en" else "whose"] +
                 ("" if lang == "ja" else " ") +
                 card_name(target["c"], lang, kings(view)[1 - p]) if target else cell_name(att["to"], lang))
        items.append(f'<li class="attack">{esc(t("artofwar.attack_now", lang, whose=forms(p, me, lang)["whose"], card=card_name(att.get("card") or "", lang, kings(view)[p]), from_=cell_name(att["from"], lang), target=tname, to=cell_name(att["to"], lang), atk=att.get("atk", "")))}</li>')
    chain = view.get("chain") or []
    if chain:
        gap = "" if lang == "ja" else " "
        parts = [forms(c["p"], me, lang)["whose"] + gap
                 + card_name(c["c"], lang, kings(view)[c["p"]])
                 + (f"→{card_name(c['as'], lang)}" if c.get("as") and c["as"] != c["c"] else "")
                 for c in chain]
        items.append(f'<li class="chain">{esc(t("artofwar.chain", lang, items=_join(parts, lang)))}</li>')
    pend = view.get("pending")
    if pend:
        whose = forms(pend["p"], me, lang)["whose"]
        as_ = card_name(pend["as"], lang)
        text = (t("artofwar.pending_plain", lang, whose=whose, as_=as_) if pend["c"] == pend["as"]
                else t("artofwar.pending", lang, whose=whose, as_=as_,
                       card=card_name(pend["c"], lang, kings(view)[pend["p"]])))
        items.append(f'<li class="pending">{esc(text)}</li>')
    if not items:
        return ""
    return f'<ul class="battle">{"".join(items)}</ul>'


def _header(s: _Screen, panels: dict[str, Any]) -> str:
    view, lang = s.view, s.lang
    turn = panels.get("turn", 0)
    head = t("artofwar.turn_n", lang, n=turn) if turn else t("artofwar.setup", lang)
    active = panels.get("active")
    if turn and active in (0, 1) and view.get("phase") != "over":
        head += " · " + t("artofwar.turn_of", lang, whose=forms(active, s.me, lang)["whose_l"])
    flags = [t(f"artofwar.done_{k}", lang) for k in ("arranged", "attacked", "entered")
             if panels.get(k) and turn]
    extra = f' <span class="flags">({esc(_join(flags, lang))})</span>' if flags else ""
    limit = t("artofwar.hand_limit", lang, n=view.get("hand_limit", 6))
    return (f'<p class="ahead" data-turn="{turn}">{esc(head)}{extra}'
            f' <span class="muted">· {esc(limit)}</span></p>')


def _support_effect(c: str, lang: str) -> str:
    return t(f"artofwar.eff.{c}", lang)


def _answer_what(view: dict[str, Any], me: int | None, lang: str) -> str:
    """What a Wizard window answers: the last placement of the chain, or the support."""
    chain = view.get("chain") or []
    ks = kings(view)
    if chain:
        last = chain[-1]
        f = forms(last["p"], me, lang)
        card = card_name(last["c"], lang, ks[last["p"]])
        if last.get("as", last["c"]) == "G":
            return t("artofwar.w.guardian", lang, **f, card=card)
        prev = chain[-2] if len(chain) > 1 else view.get("pending")
        prev_name = (card_name(prev["c"], lang, ks[prev["p"]]) if prev else
                     t("artofwar.short.G", lang))
        return t("artofwar.w.wizard", lang, **f, card=card, prev=prev_name)
    pend = view.get("pending") or {}
    if pend:
        f = forms(pend["p"], me, lang)
        # Said to the player answering it: the effect as it falls on them.
        effect = (t(f"artofwar.eff_them.{pend['as']}", lang) if pend["p"] != me
                  else _support_effect(pend["as"], lang))
        if pend["c"] == pend["as"]:
            return t("artofwar.w.support_plain", lang, **f, as_=card_name(pend["as"], lang),
                     effect=effect)
        return t("artofwar.w.support", lang, **f, card=card_name(pend["c"], lang, ks[pend["p"]]),
                 as_=card_name(pend["as"], lang), effect=effect)
    return t("artofwar.p.resolving", lang)


def _guardian_parts(view: dict[str, Any], me: int | None, lang: str) -> dict[str, Any]:
    att = view["attack"]
    p = att["p"]
    target = view["fields"][1 - p][att["to"]]
    atk = att.get("atk") or 0
    kind, total, d = outcome_of(view, atk, 1 - p, att["to"])
    outcome = _mark_words(kind, atk, total, d, lang)
    return {"whose": forms(p, me, lang)["whose"], "card": card_name(att.get("card") or "", lang, kings(view)[p]),
            "atk": atk, "target": card_name(target["c"], lang, kings(view)[1 - p]),
            "to": cell_name(att["to"], lang), "outcome": outcome,
            "target_whose": forms(1 - p, me, lang)["whose_l"]}


def prompt(s: _Screen, waiting_for: str) -> str:
    """The status line: what the viewer is asked now, naming what the choice will do."""
    view, lang, me, phase = s.view, s.lang, s.me, s.phase
    if phase == "over" or (me is None and not waiting_for):
        return ""   # nobody's screen of a replay: nothing to ask, nobody to wait for
    if not s.legal:
        if not waiting_for:
            return ""
        if phase == "window":
            return t("artofwar.p.waiting_window", lang, who=waiting_for)
        return t("artofwar.p.waiting", lang, who=waiting_for)
    src, at = s.sel.get("src"), s.sel.get("at")
    ks = kings(view)
    if phase == "mulligan":
        return t("artofwar.p.mulligan", lang)
    if phase == "field":
        if src:
            return t("artofwar.p.place_cell", lang, card=card_name(src, lang, ks[me]))
        return t("artofwar.p.field", lang)
    if phase == "wait":
        return t("artofwar.p.wait", lang)
    if phase == "window":
        window = view.get("window") or {}
        if window.get("kind") == "guardian" and view.get("attack"):
            return t("artofwar.p.guardian", lang, **_guardian_parts(view, me, lang))
        return t("artofwar.p.wizard", lang, what=_cap(_answer_what(view, me, lang)))
    if phase == "capture":
        att = view.get("attack") or {}
        target = view["fields"][1 - me].get(att.get("to"), {"c": "S", "up": True})
        d = current_def(target, ks[1 - me])
        return t("artofwar.p.capture", lang, atk=att.get("atk", d),
                 card=card_name(target["c"], lang, ks[1 - me]), d=d)
    if phase == "archer":
        return t("artofwar.p.archer", lang)
    if phase == "priest":
        if at and at in view["fields"][me]:
            return t("artofwar.p.priest_to", lang, card=card_name(view["fields"][me][at]["c"], lang, ks[me]),
                     cell=cell_name(at, lang))
        return t("artofwar.p.priest", lang)
    if phase == "conscript":
        left = (view.get("conscript") or {}).get("left", 0)
        if any(a.startswith("w>") for a in s.legal):
            return t("artofwar.p.conscript_wait", lang, n=left,
                     card=card_name(view["waiting"][me][0], lang, ks[me]))
        if src:
            return t("artofwar.p.conscript_cell", lang, card=card_name(src[1], lang))
        return t("artofwar.p.conscript_kingdom", lang, n=left)
    if phase == "limit":
        return t("artofwar.p.limit", lang, n=view["hand_counts"][me])
    # main
    if at and at in view["fields"][me]:
        c = view["fields"][me][at]["c"]
        atk, x = attack_value(view, me, c)
        text = t("artofwar.p.attacker", lang, card=card_name(c, lang, ks[me]),
                 cell=cell_name(at, lang), atk=atk)
        if x is not None:
            text += t("artofwar.p.atk_x", lang, atk=atk, x=x, b=atk - x)
        return text
    if src == "w":
        return t("artofwar.p.arrange_wait", lang, card=card_name(view["waiting"][me][0], lang, ks[me]))
    if src:
        if any(a.startswith(f"{src}>") for a in s.legal):
            return t("artofwar.p.hand_card", lang, card=card_name(src, lang, ks[me]))
        return t("artofwar.p.hand_card_only", lang, card=card_name(src, lang, ks[me]))
    if view["waiting"][me] and any(a.startswith("w>") for a in s.legal):
        return t("artofwar.p.main_wait", lang, card=card_name(view["waiting"][me][0], lang, ks[me]))
    return t("artofwar.p.main", lang)


def _hand(s: _Screen, hand_view: dict[str, Any]) -> tuple[str, bool]:
    """The viewer's hand: a button per card that can do something now."""
    lang, me = s.lang, s.me
    king = kings(hand_view)[me]
    items = []
    choice = False
    for i, c in enumerate(hand_view.get("hand") or []):
        name = card_name(c, lang, king)
        cmd, label = None, name
        if s.acting:
            if s.phase == "wait" and f"{c}>w" in s.legal_set:
                cmd, label = f"act:{c}>w", t("artofwar.b.to_wait", lang, card=name)
            elif s.phase == "limit" and f"e{c}" in s.legal_set:
                cmd, label = f"act:e{c}", t("artofwar.b.enter", lang, card=name)
            elif s.phase in ("field", "main") and _uses_src(c, s.legal):
                cmd = f"hand:{c}"
        atk, (du, ds), _ = stats(c, king)
        label += (", " if lang == "en" else "、") + t(
            "artofwar.card_stats", lang, atk=t("artofwar.atk_x", lang) if atk is None else atk,
            du=du, ds=ds)
        picked = s.sel.get("src") == c
        face = card_face(c, king, lang)
        cls = f"hcard c-{c}{' picked' if picked else ''}"
        if cmd:
            choice = True
            pressed = f' aria-pressed="{str(picked).lower()}"' if cmd.startswith("hand:") else ""
            # Only the first copy of a type carries the command (all copies are the same).
            first = c not in (hand_view.get("hand") or [])[:i]
            if first:
                items.append(f'<button type="button" class="{cls}" data-cmd="{esc(cmd)}"{pressed}>'
                             f'<span class="sr-only">{esc(label)}</span>{face}</button>')
                continue
        items.append(f'<div class="{cls}" role="img" aria-label="{esc(label)}">{face}</div>')
    title = (t("artofwar.hand_of", lang, whose=forms(me, None, lang)["whose"])
             if hand_view.get("open_hands") else t("artofwar.hand", lang))
    # Nothing to choose (the other side is choosing): the hand is what comes next.
    mark = " data-choice" if choice or not (s.acting or s.animating) else ""
    body = "".join(items) or f'<p class="muted">{esc(t("artofwar.none", lang))}</p>'
    return (f'<section class="ahand" aria-label="{esc(title)}"{mark}><h2 class="sr-only">{esc(title)}</h2>'
            f'<div class="cards">{body}</div></section>'), choice


def _button(action: str, label: str, cls: str = "", *, split: bool = False) -> str:
    """An action's button; ``split``: the words after the label's first colon (what it
    does) go on a second, smaller line."""
    klass = f' class="{cls}"' if cls else ""
    text = esc(label)
    if split:
        m = re.match(r"(.+?)([:：] ?)(.+)", label)
        if m:
            text = (f'{esc(m.group(1))}<span class="sr-only">{esc(m.group(2))}</span>'
                    f'<small class="does">{esc(m.group(3))}</small>')
    return f'<button type="button"{klass} data-cmd="act:{esc(action)}">{text}</button>'


def _controls(s: _Screen) -> str:
    view, lang, me, legal = s.view, s.lang, s.me, s.legal_set
    if not s.acting:
        return ""
    ks = kings(view)
    out = []
    if s.phase == "mulligan":
        out += [_button("keep", t("artofwar.b.keep", lang), "primary"),
                _button("mull", t("artofwar.b.mull", lang))]
    elif s.phase == "window":
        kind = (view.get("window") or {}).get("kind", "guardian")
        c = "G" if kind == "guardian" else "W"
        effect = _support_effect(c, lang)
        if f"+{c}" in legal:
            out.append(_button(f"+{c}", t("artofwar.b.support", lang, card=card_name(c, lang), effect=effect),
                               "two", split=True))
        if f"+K{c}" in legal:
            out.append(_button(f"+K{c}", t("artofwar.b.king_support", lang, card=card_name(c, lang),
                                           effect=effect), "two", split=True))
        if "pass" in legal:
            out.append(_button("pass", t("artofwar.b.pass", lang), "primary"))
    elif s.phase == "capture":
        att = view.get("attack") or {}
        target = view["fields"][1 - me].get(att.get("to"))
        if target:
            name = card_name(target["c"], lang, ks[1 - me])
            atk = att.get("atk", 0)
            kind, total, d = outcome_of(view, atk, 1 - me, att["to"], archer=True)
            result = t("artofwar.b.dmg_destroy" if kind == "destroy" else "artofwar.b.dmg_survive", lang)
            if "cap" in legal:
                out.append(_button("cap", t("artofwar.b.cap", lang, card=name), "primary"))
            if "dmg" in legal:
                out.append(_button("dmg", t("artofwar.b.dmg", lang, atk=atk, result=result)))
        else:
            for a in ("cap", "dmg"):
                if a in legal:
                    out.append(_button(a, move_text(a, me, lang)))
    elif s.phase in ("main", "field", "conscript", "priest"):
        src = s.sel.get("src")
        if s.phase == "main" and src and src not in ("w",) and not src.startswith("k"):
            for a in (f"+{src}",) if src != "K" else ("+KS", "+KA", "+KP"):
                if a in legal:
                    c = a[-1]
                    key = "artofwar.b.king_support" if src == "K" else "artofwar.b.support"
                    out.append(_button(a, t(key, lang, card=card_name(c, lang),
                                            effect=_support_effect(c, lang)), "two", split=True))
            if f"e{src}" in legal:
                out.append(_button(f"e{src}", t("artofwar.b.enter", lang, card=card_name(src, lang)),
                                   "two", split=True))
        if src or s.sel.get("at"):
            out.append(f'<button type="button" data-cmd="cancel">{esc(t("artofwar.cancel", lang))}</button>')
        if "end" in legal:
            hand_full = (view["hand_counts"][me] >= view.get("hand_limit", 6)
                         and not view.get("entered"))
            out.append(_button("end", t("artofwar.b.end_limit" if hand_full else "artofwar.b.end", lang),
                               "end"))
    # Anything legal not offered elsewhere still gets a button (never a dead end).
    return f'<div class="controls" data-choice>{"".join(out)}</div>' if out else ""


def render_table(view: dict[str, Any], legal: list[str], lang: str, *,
                 events: list[dict[str, Any]], sel: dict[str, Any] | None = None,
                 shown: int | None = None, since: int | None = None,
                 seats: tuple[str, ...] = ("", ""), waiting_for: str = "",
                 before: dict[str, Any] | None = None) -> str:
    """The whole ART OF WAR table for one viewer (``view["you"]``; None: nobody's hand).

    During a playback the table is ``before`` with the steps shown so far applied, and
    the status line words the step on screen; the only control is Skip.
    """
    sel = sel if sel is not None else new_selection()
    shown = len(events) if shown is None else min(shown, len(events))
    animating = shown < len(events)
    me = view.get("you")
    acting = bool(legal) and not animating and me is not None
    board = view
    if animating and before is not None and since is not None:
        board = board_at({**before, "you": me}, events[since:shown]) or view
        # A Soldier support's bonus starts when its Wizard window closes, which no event
        # marks: the bonus on screen is the view's.
        board["bonus"] = view.get("bonus", 0)
    s = _Screen(board if animating else view, legal, lang, sel, acting)
    s.phase = view.get("phase", "")
    s.animating = animating
    steps = [e for e in events[since or 0:shown] if e["t"] in STEP_EVENTS] if animating else []
    current = steps[-1] if steps else None
    if animating:
        ask = describe(current, lang, view) if current else t("artofwar.p.resolving", lang)
    else:
        ask = prompt(s, waiting_for)
    top, bottom = s.top, s.bottom
    labels = [seats[p] if p < len(seats) else "" for p in (0, 1)]
    field = _field(s)
    reveal = ""
    if current is not None:
        reveal = f' data-reveal="{esc(current["t"])}"'
    # Phone first: the field, your lines, the status, the buttons and your hand one under
    # the other, so the whole of a choice is on one screen; the Founding comparison after.
    parts = [
        _header(s, s.view),
        _panel(s, top, labels[top]),
        f'<div class="side-lines top">{_waiting(s, top)}</div>',
        _founding(s),
        f'<div class="battlefield"{reveal}>{field}</div>',
        _battle_state(s),
        f'<div class="side-lines bottom">{_waiting(s, bottom)}</div>',
        f'<p class="prompt" role="status" aria-live="polite" data-status>{esc(ask)}</p>',
    ]
    if animating:
        parts.append(f'<div class="controls" data-choice><button type="button" data-cmd="skip">'
                     f'{esc(t("skip", lang))}</button></div>')
    else:
        if s.acting and any(a.startswith("k") for a in legal):  # conscription from the kingdom
            parts.append(f'<div class="side-lines bottom">{_kingdom(s, bottom)}</div>')
        parts.append(_controls(s))
    if me in (0, 1) and s.view.get("hand") is not None:
        hand, _ = _hand(s, s.view)
        parts.append(hand)
    parts.append(_panel(s, bottom, labels[bottom]))
    return (f'<div class="artofwar s-view{bottom}" data-phase="{esc(view.get("phase", ""))}" '
            f'data-turn="{view.get("turn", 0)}">{"".join(parts)}</div>')


def rules_html(lang: str) -> str:
    """The rules in our own words, then every card: ATK, DEF, range, support."""
    rows = []
    for c in TYPES:
        atk, (du, ds), offsets = stats(c, 1)
        rows.append(f'<li><b>{esc(card_name(c, lang))}</b> — {esc(t("artofwar.card_stats", lang, atk=t("artofwar.atk_x", lang) if atk is None else atk, du=du, ds=ds))}; '
                    f'{esc(t("artofwar.b.support", lang, card=card_name(c, lang), effect=_support_effect(c, lang)))} '
                    f'{_range_svg(offsets, t("artofwar.range_of", lang, card=card_name(c, lang)))}</li>')
    for k in sorted(KINGS):
        atk, (du, ds), offsets = stats("K", k)
        name = king_name(k)
        prov = f' ({esc(t("artofwar.provisional", lang))})' if KINGS[k]["provisional"] else ""
        rows.append(f'<li><b>{esc(name)}</b>{prov} — {esc(t("artofwar.card_stats", lang, atk=t("artofwar.atk_x", lang) if atk is None else atk, du=du, ds=ds))} '
                    f'{_range_svg(offsets, t("artofwar.range_of", lang, card=name))}</li>')
    return (t("artofwar.rules_html", lang) +
            f'<h4>{esc(t("artofwar.range", lang))}</h4><ul class="aow-cards">{"".join(rows)}</ul>')


# -- pass and play: the hand-over for an answer in the other player's turn -------------
def handover_quick(view: dict[str, Any], seat: int, lang: str) -> dict[str, Any] | None:
    """The hand-over screen of a Guardian or Wizard window (see pgui.table): what is being
    answered, from public information only (a window opens by public information, so its
    opening tells nothing), one tap to pass, and Respond to see the hand and answer."""
    if view.get("phase") != "window" or (view.get("window") or {}).get("p") != seat:
        return None
    window = view["window"]
    if window.get("kind") == "guardian" and view.get("attack"):
        say = t("artofwar.h.guardian", lang, **{k: v for k, v in _guardian_parts(view, seat, lang).items()
                                                if k in ("whose", "card", "target", "to", "target_whose")})
    else:
        say = _cap(_answer_what(view, seat, lang)) + ("。" if lang == "ja" else ".")
    return {"say": say, "actions": [("pass", t("artofwar.h.pass", lang))],
            "ok": t("artofwar.b.respond", lang)}


# -- the lobby tile (pgui.lobby) ------------------------------------------------------------

#: How long a game takes, in minutes (the lobby tile says it).
PLAY_TIME = (10, 20)


#: The lobby's word for each option value its label does not explain (our own words).
OPTION_HELP = {
    "capture_basis": {
        "single_attack": _s("Capture when one attack's ATK equals the target's defence.",
                            "1回の攻撃の攻撃力が相手の防御力と同じなら捕獲できます。"),
        "accumulated": _s("Capture when the damage so far this turn, with this hit, equals "
                          "the target's defence.",
                          "この手番のダメージの合計（この攻撃を含む）が防御力と同じなら捕獲できます。"),
    },
    "destroy_when": {
        "exceeds": _s("A card is destroyed when its damage goes over its defence.",
                      "ダメージが防御力を超えたカードが破壊されます。"),
        "reaches": _s("A card is destroyed as soon as its damage reaches its defence.",
                      "ダメージが防御力に達した時点でカードが破壊されます。"),
    },
    "archer_support_target": {
        "any": _s("The Archer support may hit any enemy card.",
                  "アーチャー支援はどの敵カードにも撃てます。"),
        "last_attacked": _s("The Archer support may only hit the card attacked last this turn.",
                            "アーチャー支援は、この手番に最後に攻撃されたカードにだけ撃てます。"),
    },
    "conscription_total": {
        "field": _s("An emptied battlefield is refilled to 2 cards: waiting cards first, "
                    "then kingdom cards.",
                    "空になった戦場は2枚まで補充します（待機エリアが先、足りなければ王国から）。"),
        "kingdom": _s("Waiting cards, then always 2 more from the kingdom (up to 4 cards).",
                      "待機エリアのカードに加えて、必ず王国から2枚（最大4枚）。"),
    },
}


def thumbnail(lang: str) -> str:
    """The lobby tile's picture: the two battlefields a few turns in (static SVG drawn from
    the engine's public view; the same in both languages)."""
    import pygames

    state = pygames.get_game("artofwar").from_position({
        "fields": [{"Fa": "S", "Fb": "K", "Fc": {"c": "A", "up": False}, "Bb": "W"},
                   {"Fa": "G", "Fb": {"c": "P", "dmg": 1}, "Fc": "S", "Ba": "A", "Bc": "K"}],
        "hands": [["S", "G"], ["W", "P"]]})
    view = state.view(None)
    colours = ("#b8322a", "#2a5a9c")
    out = ['<svg viewBox="0 0 300 150" focusable="false" font-family="system-ui, sans-serif">',
           '<rect x="60" y="2" width="180" height="146" rx="8" fill="#e9e0cc"/>',
           '<line x1="66" y1="75" x2="234" y2="75" stroke="#8d857a" stroke-dasharray="4 3"/>']
    for seat, rows in ((1, {"B": 0, "F": 1}), (0, {"F": 2, "B": 3})):
        for cell, card in view["fields"][seat].items():
            x = 72 + LANES.index(cell[1]) * 56
            y = 6 + rows[cell[0]] * 35 + (4 if rows[cell[0]] >= 2 else 0)
            w, h = (44, 30) if card.get("up", True) else (50, 26)
            out.append(f'<rect x="{x + (44 - w) / 2}" y="{y + (30 - h) / 2}" width="{w}" height="{h}" '
                       f'rx="4" fill="#fffdf8" stroke="{colours[seat]}" stroke-width="2"/>'
                       f'<text x="{x + 22}" y="{y + 20}" font-size="14" font-weight="700" '
                       f'fill="{colours[seat]}" text-anchor="middle">{esc(card["c"])}</text>')
    out.append("</svg>")
    return "".join(out)


# -- the deck builder and decks as options (pgui.table: TOOLS, OPTION_CHOICES, OPTION_STORE,
# SEAT_OPTIONS); they live with the builder, pgui/artofwar_decks.py.
from . import artofwar_decks as _decks  # noqa: E402

TOOLS, OPTION_CHOICES = _decks.TOOLS, _decks.OPTION_CHOICES
OPTION_STORE, SEAT_OPTIONS = _decks.OPTION_STORE, _decks.SEAT_OPTIONS
