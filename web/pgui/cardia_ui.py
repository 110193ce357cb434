"""Cardia table: pure rendering of (view, legal actions, language, local choices) -> HTML.

Nothing here touches the DOM. The encounter row runs left to right; in each encounter the
viewer's card sits at the bottom and the opponent's on top, so the two face each other.
Buttons carry ``data-cmd``: ``pick:<value>`` selects a hand card to place and ``confirm``
places it; ``act:<action>`` plays any other engine action (a colour, a row card, a hand
card to discard...) at once, since every ability choice is public or harmless to repeat.
"""

from __future__ import annotations

import copy
from typing import Any

from pygames.cardia import (
    ABILITIES,
    LOCATION_NAMES,
    ONGOING,
    colour_of,
)

from .i18n import esc, register, t

COLOURS = "GYRB"
SEAT_LETTER = "ab"
#: Choice kinds answered by clicking a card in the row.
ROW_KINDS = {"void_target", "inventor_plus", "inventor_minus", "swamp_target",
             "magistra_target", "prodigy_target", "illusionist_target", "envoy_target",
             "kinesis_from", "kinesis_to"}
#: Actions shown as plain buttons (everything else is a card in the row or the hand).
BUTTON_ACTIONS = ("G", "Y", "R", "B", "+", "-", "m", "o", "n", "pass")

#: Events that get their own pause when played back step by step.
STEP_EVENTS = {"reveal", "evaluate", "ability", "signets", "modifier", "token", "discard",
               "replace", "return", "move", "delete", "colour", "decline", "blackmail",
               "location", "round_end", "end"}

#: The colours' names, as players read them.
COLOUR_NAMES = {
    "G": {"en": "Green (Rebellion)", "ja": "緑（沼地の反乱軍）"},
    "Y": {"en": "Yellow (Academy)", "ja": "黄（アカデミー）"},
    "R": {"en": "Red (Guild)", "ja": "赤（ギルド）"},
    "B": {"en": "Blue (Dynasty)", "ja": "青（王朝）"},
}

#: The cards' names per deck and value, as players read them.
CARD_NAMES: dict[str, dict[int, dict[str, str]]] = {
    "I": {
        1: {"en": "Hired Blade", "ja": "雇われた剣士"},
        2: {"en": "Void Mage", "ja": "虚空の魔術師"},
        3: {"en": "Surgeon", "ja": "外科医"},
        4: {"en": "Mediator", "ja": "調停者"},
        5: {"en": "Saboteur", "ja": "破壊工作員"},
        6: {"en": "Fortune Teller", "ja": "占い師"},
        7: {"en": "Palace Guard", "ja": "宮殿警備隊"},
        8: {"en": "Judge", "ja": "裁判官"},
        9: {"en": "Ambusher", "ja": "待ち伏せ兵"},
        10: {"en": "Puppeteer", "ja": "操り人形師"},
        11: {"en": "Clockmaker", "ja": "時計職人"},
        12: {"en": "Treasurer", "ja": "会計"},
        13: {"en": "Swamp Guardian", "ja": "沼の守護者"},
        14: {"en": "Magistra", "ja": "マジストラ"},
        15: {"en": "Inventor", "ja": "発明家"},
        16: {"en": "Djinn", "ja": "ジン"},
    },
    "II": {
        1: {"en": "Poisoner", "ja": "毒殺者"},
        2: {"en": "Kinesis Mage", "ja": "キネシスメイジ"},
        3: {"en": "Envoy", "ja": "特使"},
        4: {"en": "Tax Collector", "ja": "税金徴収人"},
        5: {"en": "Revolutionary", "ja": "革命家"},
        6: {"en": "Librarian", "ja": "司書"},
        7: {"en": "Prodigy", "ja": "天才"},
        8: {"en": "Aristocrat", "ja": "貴族"},
        9: {"en": "Blackmailer", "ja": "脅迫者"},
        10: {"en": "Illusionist", "ja": "イリュージョニスト"},
        11: {"en": "Engineer", "ja": "エンジニア"},
        12: {"en": "Counselor", "ja": "カウンセラー"},
        13: {"en": "Witch King", "ja": "魔王"},
        14: {"en": "Elemental", "ja": "エレメンタル"},
        15: {"en": "Mechanical Djinn", "ja": "機械のジン"},
        16: {"en": "Successor", "ja": "後継"},
    },
}

#: This table's own look, loaded with it after app.css (path from the app's root).
STYLESHEET = "pgui/cardia.css"

STRINGS: dict[str, dict[str, str]] = {
    "cardia.seat0": {"en": "Player 1", "ja": "プレイヤー1"},
    "cardia.seat1": {"en": "Player 2", "ja": "プレイヤー2"},
    # The viewer, as the log and prompts address them (the other side by seat name).
    "cardia.you": {"en": "You", "ja": "あなた"},
    "cardia.you_l": {"en": "you", "ja": "あなた"},
    "cardia.your": {"en": "Your", "ja": "あなたの"},
    "cardia.your_l": {"en": "your", "ja": "あなたの"},
    "cardia.whose": {"en": "{who}'s", "ja": "{who}の"},
    "cardia.their": {"en": "their", "ja": "自分の"},
    "cardia.your_own": {"en": "your", "ja": "自分の"},
    "cardia.round_won": {"en": "Round {n}: {who} won", "ja": "第{n}ラウンド：{who}の勝ち"},
    "cardia.round_void": {"en": "Round {n}: no winner", "ja": "第{n}ラウンド：勝者なし"},
    "cardia.rounds": {"en": "Rounds so far", "ja": "これまでのラウンド"},
    "cardia.close": {"en": "Close", "ja": "閉じる"},
    "cardia.show_full": {"en": "show the full text", "ja": "全文を表示"},
    "cardia.next": {"en": "next", "ja": "次"},
    "cardia.wins_by": {"en": "{who} {you|win|wins}", "ja": "{who}の勝ち"},
    "cardia.round_n": {"en": "Round {n}", "ja": "第{n}ラウンド"},
    "cardia.match": {"en": "Rounds won {a}–{b} (first to 2)", "ja": "ラウンド勝利 {a}–{b}（2勝で勝ち）"},
    "cardia.deck_label": {"en": "Deck {d}", "ja": "デッキ{d}"},
    "cardia.location": {"en": "Location", "ja": "ロケーション"},
    "cardia.no_location": {"en": "No location", "ja": "ロケーションなし"},
    "cardia.row": {"en": "Encounters", "ja": "戦闘の列"},
    "cardia.enc_n": {"en": "Encounter {n}", "ja": "戦闘 {n}"},
    "cardia.next_enc": {"en": "Next encounter", "ja": "次の戦闘"},
    "cardia.empty_row": {"en": "No encounter yet this round.", "ja": "このラウンドの戦闘はまだありません。"},
    "cardia.face_down": {"en": "Face-down card", "ja": "裏向きのカード"},
    "cardia.not_placed": {"en": "not placed yet", "ja": "まだ出していない"},
    "cardia.placed": {"en": "placed", "ja": "配置済み"},
    "cardia.hand": {"en": "Your hand", "ja": "あなたの手札"},
    "cardia.hand_of": {"en": "{who}'s hand", "ja": "{who}の手札"},
    "cardia.hand_n": {"en": "Hand {n}", "ja": "手札 {n}"},
    "cardia.deck_n": {"en": "Deck {n}", "ja": "山札 {n}"},
    "cardia.discard_n": {"en": "Discard pile ({n})", "ja": "捨て札（{n}）"},
    "cardia.signets_n": {"en": "Signets {n}/5", "ja": "シグネット {n}/5"},
    "cardia.wins_n": {"en": "Rounds won {n}", "ja": "ラウンド勝利 {n}"},
    "cardia.top_wins": {"en": "▲ wins", "ja": "▲の勝ち"},
    "cardia.bottom_wins": {"en": "▼ wins", "ja": "▼の勝ち"},
    "cardia.moved": {"en": "⇄ moved", "ja": "⇄ 移動"},
    "cardia.influence": {"en": "influence {n}", "ja": "影響力 {n}"},
    "cardia.printed": {"en": "printed {v}, modifiers {m}", "ja": "印刷値 {v}・修正 {m}"},
    "cardia.ongoing": {"en": "Ongoing", "ja": "持続"},
    "cardia.instant": {"en": "Instant", "ja": "即時"},
    "cardia.token_on": {"en": "ongoing token: in force", "ja": "持続トークン：効果中"},
    "cardia.signet_on": {"en": "{n} {n|signet|signets}", "ja": "シグネット{n}個"},
    "cardia.tie": {"en": "tie", "ja": "引き分け"},
    "cardia.changed": {"en": "signets moved", "ja": "シグネット移動"},
    "cardia.place": {"en": "Place {card}", "ja": "「{card}」を出す"},
    "cardia.place_none": {"en": "Place a card", "ja": "カードを出す"},
    "cardia.pending": {"en": "Waiting effects", "ja": "待機中の効果"},
    "cardia.pending_mod": {"en": "{whose} next card: {v:+d}", "ja": "{whose}次のカード：{v:+d}"},
    "cardia.pending_ft": {"en": "{who} must place first, face up", "ja": "{who}は次に先に表向きで出す"},
    "cardia.pending_lib": {"en": "{who} will give {their} next card +2 or −2",
                           "ja": "{who}は{their}次のカードに+2か−2を与える"},
    "cardia.pending_eng": {"en": "{whose} next card gets +5 after its encounter",
                           "ja": "{whose}次のカードは戦闘後に+5"},
    "cardia.pending_bm": {"en": "Blackmail on {whose_l} next card: must be {colours}",
                          "ja": "{whose_l}次のカードへの脅迫：{colours}でなければ手札2枚を捨てる"},
    "cardia.pending_mdj": {"en": "{whose} Mechanical Djinn (encounter {n}) is armed",
                           "ja": "{whose}機械のジン（戦闘{n}）が効果中"},
    "cardia.next_card": {"en": "Your next card (−3)", "ja": "次に出す自分のカード（−3）"},
    "cardia.decline": {"en": "Decline (the Guard gets +7)", "ja": "捨てない（警備隊に+7）"},
    "cardia.plus2": {"en": "+2 to your card", "ja": "自分のカードに+2"},
    "cardia.minus2": {"en": "−2 to your card", "ja": "自分のカードに−2"},
    "cardia.kind_m": {"en": "Remove its modifiers", "ja": "修正トークンを取り除く"},
    "cardia.kind_o": {"en": "Remove its ongoing token", "ja": "持続トークンを取り除く"},
    "cardia.x_verb": {"en": "Discard", "ja": "捨てる"},
    "cardia.k_verb": {"en": "Keep", "ja": "残す"},
    "cardia.u_verb": {"en": "Under the deck", "ja": "山札の下へ"},
    "cardia.resolving": {"en": "Resolving…", "ja": "解決中…"},
    # Prompts
    "cardia.prompt_place": {"en": "Choose a card to place face down, then press Place.",
                            "ja": "裏向きで出すカードを選んで「出す」を押してください。"},
    "cardia.prompt_place_first": {
        "en": "Fortune Teller: you place first, face up. Choose a card, then press Place.",
        "ja": "占い師の効果で、あなたが先に表向きで出します。カードを選んで「出す」を押してください。"},
    "cardia.prompt_place_after": {
        "en": "{other} placed {card} face up. Choose your card, then press Place.",
        "ja": "{other}は「{card}」を表向きで出しました。あなたのカードを選んで「出す」を押してください。"},
    "cardia.prompt.colour": {"en": "{ability}: name a colour. {effect}",
                             "ja": "{ability}：色を1つ宣言してください。{effect}"},
    "cardia.effect.palace_guard": {
        "en": "{other} may discard a card of it; if not, your Guard gets +7.",
        "ja": "{other}はその色の手札1枚を捨ててもよく、捨てなければ警備隊に+7。"},
    "cardia.effect.ambusher": {"en": "{other} discards every card of it from hand.",
                               "ja": "{other}はその色の手札をすべて捨てます。"},
    "cardia.effect.blackmailer": {
        "en": "If {other}'s next card is another colour, they discard 2 cards.",
        "ja": "{other}の次のカードが別の色なら、手札を2枚捨てます。"},
    "cardia.effect.witch_king": {"en": "{other} discards it from hand and deck.",
                                 "ja": "{other}はその色を手札と山札からすべて捨てます。"},
    "cardia.prompt.palace_guard_discard": {
        "en": "Palace Guard named {colour}: discard a {colour} card, or decline and the Guard gets +7.",
        "ja": "宮殿警備隊が{colour}を宣言。{colour}のカードを1枚捨てるか、捨てずに警備隊に+7を与えます。"},
    "cardia.prompt.void_target": {"en": "Void Mage: choose a card in the row to clear.",
                                  "ja": "虚空の魔術師：トークンを取り除く場のカードを選んでください。"},
    "cardia.prompt.void_kind": {"en": "Void Mage: remove that card's modifiers or its ongoing token?",
                                "ja": "虚空の魔術師：そのカードの修正トークンと持続トークンのどちらを取り除きますか？"},
    "cardia.prompt.inventor_plus": {"en": "Inventor: choose the card in the row that gets +3.",
                                    "ja": "発明家：+3を与える場のカードを選んでください。"},
    "cardia.prompt.inventor_minus": {"en": "Inventor: choose another card that gets −3.",
                                     "ja": "発明家：−3を与える別のカードを選んでください。"},
    "cardia.prompt.swamp_target": {
        "en": "Swamp Guardian: choose one of your other cards to take back to hand; the card facing it is discarded.",
        "ja": "沼の守護者：手札に戻す自分の他のカードを選んでください。向かいのカードは捨て札になります。"},
    "cardia.prompt.magistra_target": {
        "en": "Magistra: choose one of your cards whose instant ability this card uses.",
        "ja": "マジストラ：即時効果を使う自分のカードを選んでください。"},
    "cardia.prompt.prodigy_target": {"en": "Prodigy: choose your card (influence 8 or less) to get +3.",
                                     "ja": "天才：+3を与える自分のカード（影響力8以下）を選んでください。"},
    "cardia.prompt.illusionist_target": {
        "en": "Illusionist: choose one of your losing cards; its ability activates again.",
        "ja": "イリュージョニスト：負けている自分のカードを選ぶと、その能力がもう一度発動します。"},
    "cardia.prompt.envoy_target": {"en": "Envoy: choose a card in the row to get −3, or your next card.",
                                   "ja": "特使：−3を与える場のカード、または次に出す自分のカードを選んでください。"},
    "cardia.prompt.kinesis_from": {"en": "Kinesis Mage: choose your card to move every token from.",
                                   "ja": "キネシスメイジ：トークンをすべて移す元の自分のカードを選んでください。"},
    "cardia.prompt.kinesis_to": {"en": "Kinesis Mage: choose your card to move them to.",
                                 "ja": "キネシスメイジ：移す先の自分のカードを選んでください。"},
    "cardia.prompt.elemental_card": {
        "en": "Elemental: discard an instant card from your hand; its ability works as this card.",
        "ja": "エレメンタル：手札の即時効果カードを1枚捨てると、その能力をこのカードで使います。"},
    "cardia.prompt.discard": {"en": "{why}: discard {n} more {n|card|cards} of your choice.",
                              "ja": "{why}：手札からあと{n}枚選んで捨ててください。"},
    "cardia.prompt.successor_keep": {"en": "Successor: choose {n} more {n|card|cards} to keep; the rest are discarded.",
                                     "ja": "後継：残すカードをあと{n}枚選んでください。残りは捨て札になります。"},
    "cardia.prompt.scrapyard_under": {"en": "Scrapyard: put one hand card under your deck.",
                                      "ja": "スクラップヤード：手札1枚を山札の下に置いてください。"},
    "cardia.prompt.librarian": {"en": "Librarian: give your revealed card +2 or −2.",
                                "ja": "司書：公開した自分のカードに+2か−2を与えてください。"},
    "cardia.prompt.other": {"en": "{ability}: choose.", "ja": "{ability}：選んでください。"},
    "cardia.waiting_choice": {"en": "Waiting for {who} ({ability})…", "ja": "{who}を待っています（{ability}）…"},
    # Log lines
    "cardia.ev.round": {"en": "— Round {n} (rounds won {a}–{b}) —", "ja": "― 第{n}ラウンド（勝利数 {a}–{b}）―"},
    "cardia.ev.deal_seen": {"en": "{who} {you|are|is} dealt {cards}.", "ja": "{who}に配られたカード：{cards}。"},
    "cardia.ev.deal": {"en": "{who} {you|are|is} dealt {n} {n|card|cards}.", "ja": "{who}に{n}枚配られた。"},
    "cardia.ev.place_up": {"en": "{who} {you|place|places} {card} face up (encounter {e}).",
                           "ja": "{who}は「{card}」を表向きで出した（戦闘{e}）。"},
    "cardia.ev.place_seen": {"en": "{who} {you|place|places} {card} face down (encounter {e}).",
                             "ja": "{who}は「{card}」を裏向きで出した（戦闘{e}）。"},
    "cardia.ev.place": {"en": "{who} {you|place|places} a card face down (encounter {e}).",
                        "ja": "{who}はカードを裏向きで出した（戦闘{e}）。"},
    "cardia.ev.place_mod": {"en": " Waiting modifiers: {mod:+d}.", "ja": "待機中の修正：{mod:+d}。"},
    "cardia.ev.reveal": {"en": "Encounter {e}: {a} {ca} ({ia}) vs {b} {cb} ({ib}).",
                         "ja": "戦闘{e}：{a}「{ca}」（{ia}）対 {b}「{cb}」（{ib}）。"},
    "cardia.ev.win": {"en": "{who} {you|win|wins} encounter {e} ({ia} to {ib}).", "ja": "{who}が戦闘{e}に勝利（{ia}対{ib}）。"},
    "cardia.ev.tie": {"en": "Encounter {e} is a tie ({ia} to {ib}): no ability.",
                      "ja": "戦闘{e}は引き分け（{ia}対{ib}）：能力は発動しない。"},
    "cardia.ev.win_plain": {"en": "{who} {you|win|wins} encounter {e}.", "ja": "{who}が戦闘{e}に勝利。"},
    "cardia.ev.tie_plain": {"en": "Encounter {e} is a tie: no ability.",
                            "ja": "戦闘{e}は引き分け：能力は発動しない。"},
    "cardia.ev.signets": {"en": "Signets move: {changes}. Signets {a}–{b}.",
                          "ja": "シグネット移動：{changes}。シグネット {a}–{b}。"},
    "cardia.ev.sig_to": {"en": "encounter {e} to {who_l}", "ja": "戦闘{e}は{who_l}へ"},
    "cardia.ev.sig_none": {"en": "encounter {e} no one", "ja": "戦闘{e}はなし"},
    "cardia.ev.ability": {"en": "{whose} {card} activates: {text}", "ja": "{whose}「{card}」が発動：{text}"},
    "cardia.ev.ability_via": {"en": "{whose} {via} uses {card}'s ability: {text}",
                              "ja": "{whose}「{via}」が「{card}」の能力を使う：{text}"},
    "cardia.ev.ability_none": {"en": "{whose} {card} activates, but has nothing to act on.",
                               "ja": "{whose}「{card}」が発動したが、対象がなく効果なし。"},
    "cardia.ev.token_on": {"en": "{card} gets an ongoing token: its ability is in force.",
                           "ja": "「{card}」に持続トークン：効果が発揮される。"},
    "cardia.ev.token_off": {"en": "{card} loses its ongoing token: its ability stops.",
                            "ja": "「{card}」の持続トークンが外れ、効果が止まる。"},
    "cardia.ev.modifier": {"en": "{whose} {card} (encounter {e}) {delta:+d}: influence {inf}.",
                           "ja": "{whose}「{card}」（戦闘{e}）に{delta:+d}：影響力{inf}。"},
    "cardia.ev.pend.next_modifier": {"en": "{whose} next card will get {v:+d}.",
                                     "ja": "{whose}次のカードに{v:+d}。"},
    "cardia.ev.pend.fortune_teller": {"en": "{who} must place first, face up, next encounter.",
                                      "ja": "{who}は次の戦闘で先に表向きで出す。"},
    "cardia.ev.pend.librarian": {"en": "{who} will give {their} next card +2 or −2 when it is revealed.",
                                 "ja": "{who}は{their}次のカードの公開時に+2か−2を与える。"},
    "cardia.ev.pend.engineer": {"en": "{whose} next card will get +5 after its encounter.",
                                "ja": "{whose}次のカードは戦闘の後に+5。"},
    "cardia.ev.pend.blackmail": {"en": "{who} {you|blackmail|blackmails} with {colour}.", "ja": "{who}は{colour}で脅迫。"},
    "cardia.ev.colour": {"en": "{who} {you|name|names} {colour}.", "ja": "{who}は{colour}を宣言。"},
    "cardia.ev.discard_none": {"en": "{who} {you|have|has} nothing to discard.", "ja": "{who}は捨てるカードがない。"},
    "cardia.ev.discard_hand": {"en": "{who} {you|discard|discards} {cards} from hand.", "ja": "{who}は手札から{cards}を捨てた。"},
    "cardia.ev.discard_deck": {"en": "{who} {you|discard|discards} {cards} from the deck.", "ja": "{who}は山札から{cards}を捨てた。"},
    "cardia.ev.discard_row": {"en": "{cards} leaves the row for {whose_l} discard pile.",
                              "ja": "{cards}が場から{whose_l}捨て札へ。"},
    "cardia.ev.draw_seen": {"en": "{who} {you|draw|draws} {cards}.", "ja": "{who}は{cards}を引いた。"},
    "cardia.ev.draw_none": {"en": "{who} {you|have|has} no card left to draw.", "ja": "{who}は引けるカードがない。"},
    "cardia.ev.draw": {"en": "{who} {you|draw|draws} {n} {n|card|cards}.", "ja": "{who}は{n}枚引いた。"},
    "cardia.ev.under_seen": {"en": "{who} {you|put|puts} {card} under the deck.", "ja": "{who}は「{card}」を山札の下に置いた。"},
    "cardia.ev.under": {"en": "{who} {you|put|puts} a card under the deck.", "ja": "{who}はカードを1枚山札の下に置いた。"},
    "cardia.ev.decline": {"en": "{who} {you|decline|declines} to discard.", "ja": "{who}はカードを捨てなかった。"},
    "cardia.ev.return": {"en": "{who} {you|take|takes} {card} back to hand (encounter {e}).",
                         "ja": "{who}は「{card}」を手札に戻した（戦闘{e}）。"},
    "cardia.ev.replace": {"en": "{whose} {old} is discarded; {new} from {whose_l} hand takes its place.",
                          "ja": "{whose}「{old}」が捨てられ、{whose_l}手札の「{new}」が代わりに置かれた。"},
    "cardia.ev.move": {"en": "{who} {you|move|moves} modifiers ({mod:+d}){token} from {a} (encounter {ea}) to {b} (encounter {eb}).",
                       "ja": "{who}は修正（{mod:+d}）{token}を「{a}」（戦闘{ea}）から「{b}」（戦闘{eb}）へ移した。"},
    "cardia.ev.move_token": {"en": " and the ongoing token", "ja": "と持続トークン"},
    "cardia.ev.shuffle": {"en": "{who} {you|shuffle|shuffles} the deck.", "ja": "{who}は山札を切り直した。"},
    "cardia.ev.delete": {"en": "Encounter {e} is empty and leaves the row; later encounters move left.",
                         "ja": "戦闘{e}は空になり列から外れ、後の戦闘が左に詰める。"},
    "cardia.ev.blackmail_hit": {"en": "{whose} card is not {colour}: the blackmail strikes.",
                                "ja": "{whose}カードは{colour}ではない：脅迫が成立。"},
    "cardia.ev.blackmail_miss": {"en": "{whose} card is {colour}: the blackmail fails.",
                                 "ja": "{whose}カードは{colour}：脅迫は不発。"},
    "cardia.ev.location": {"en": "{loc}: the location's rule applies to {who_l}.",
                           "ja": "{loc}：{who_l}にロケーションの効果。"},
    "cardia.ev.loc.serpent_temple": {"en": "Serpent Temple: {who} newly won an earlier encounter.",
                                     "ja": "蛇の神殿：{who}が以前の戦闘を新たに勝ち取った。"},
    "cardia.ev.loc.bazaar": {"en": "Bazaar: {who} {you|have|has} 1 card or fewer and {you|refill|refills}.",
                             "ja": "市場：{who}は手札1枚以下なので補充する。"},
    "cardia.ev.loc.founders_day": {"en": "Founder's Day: {who} {you|hold|holds} three encounters in a row!",
                                   "ja": "創立記念日：{who}が3つ連続する戦闘を押さえた！"},
    "cardia.ev.loc.auction_house": {"en": "Auction House: {who} revealed a weaker card than before.",
                                    "ja": "オークションハウス：{who}は前より弱いカードを公開した。"},
    "cardia.ev.loc.haunted_catacombs": {"en": "Haunted Catacombs: {who} revealed the same colour again!",
                                        "ja": "呪われた地下墓地：{who}は同じ色を続けて公開した！"},
    "cardia.ev.round_end": {"en": "{who} {you|win|wins} round {n}: {why}", "ja": "{who}が第{n}ラウンドに勝利：{why}"},
    "cardia.ev.round_void": {"en": "Round {n} has no winner: {why}", "ja": "第{n}ラウンドは勝者なし：{why}"},
    "cardia.ev.end": {"en": "{who} {you|win|wins} the match {a}–{b}.", "ja": "{who}が{a}–{b}で試合に勝利。"},
    "cardia.why.signets": {"en": "five signets and more than the opponent.", "ja": "シグネット5個以上で相手より多い。"},
    "cardia.why.djinn": {"en": "the Djinn grants the round.", "ja": "ジンの効果。"},
    "cardia.why.mechanical_djinn": {"en": "the Mechanical Djinn's next encounter was won.",
                                    "ja": "機械のジンの次の戦闘に勝った。"},
    "cardia.why.founders_day": {"en": "signets on three encounters in a row (Founder's Day).",
                                "ja": "3つ連続する戦闘にシグネット（創立記念日）。"},
    "cardia.why.haunted_catacombs": {"en": "the opponent revealed the same colour twice (Haunted Catacombs).",
                                     "ja": "相手が同じ色を続けて公開した（呪われた地下墓地）。"},
    "cardia.why.puppeteer": {"en": "the Puppeteer found the opponent's hand empty.",
                             "ja": "操り人形師の時、相手の手札が空だった。"},
    "cardia.why.no_cards": {"en": "a player has no card left to play.", "ja": "カードを出せないプレイヤーがいる。"},
    "cardia.why.other": {"en": "by the rule “{r}”.", "ja": "ルール「{r}」による。"},
    "cardia.reason": {"en": "{who} won two rounds ({a}–{b}).", "ja": "{who}が2ラウンド先取（{a}–{b}）。"},
    "cardia.reason_draw": {"en": "No one won the match.", "ja": "勝者なし。"},
    "cardia.discard_list": {"en": "{who}'s discard pile", "ja": "{who}の捨て札"},
    # Card texts (our own words).
    "cardia.card.I.1": {"en": "Discard this card and the opposing one.", "ja": "このカードと向かいのカードを捨てる。"},
    "cardia.card.I.2": {"en": "Pick a card in the row: remove its modifiers or its ongoing token.",
                        "ja": "場のカード1枚の修正トークンか持続トークンを取り除く。"},
    "cardia.card.I.3": {"en": "Your next card gets −5.", "ja": "次に出す自分のカードに−5。"},
    "cardia.card.I.4": {"en": "This encounter is a tie.", "ja": "この戦闘は引き分けになる。"},
    "cardia.card.I.5": {"en": "Opponent discards the top 2 cards of their deck.", "ja": "相手は山札の上から2枚を捨てる。"},
    "cardia.card.I.6": {"en": "Next encounter the opponent places first, face up.",
                        "ja": "次の戦闘では相手が先に表向きでカードを出す。"},
    "cardia.card.I.7": {"en": "Name a colour: opponent may discard a card of it; if not, this card gets +7.",
                        "ja": "色を宣言。相手はその色の手札1枚を捨ててもよい。捨てなければこのカードに+7。"},
    "cardia.card.I.8": {"en": "You win every tied encounter.", "ja": "引き分けの戦闘はすべてあなたの勝ち。"},
    "cardia.card.I.9": {"en": "Name a colour: opponent discards every card of it from hand.",
                        "ja": "色を宣言：相手はその色の手札をすべて捨てる。"},
    "cardia.card.I.10": {"en": "Discard the opposing card; a random card from the opponent's hand replaces it.",
                         "ja": "向かいのカードを捨て、相手の手札からランダムな1枚と入れ替える。"},
    "cardia.card.I.11": {"en": "+3 to your card in the previous encounter and +3 to your next card.",
                         "ja": "直前の戦闘の自分のカードと、次に出す自分のカードに+3。"},
    "cardia.card.I.12": {"en": "The winner of the previous encounter holds 1 extra signet.",
                         "ja": "直前の戦闘の勝ちカードにシグネット+1。"},
    "cardia.card.I.13": {"en": "Take another of your played cards back to hand; discard the card it faced.",
                         "ja": "自分の他の場のカード1枚を手札に戻し、向かいのカードを捨てる。"},
    "cardia.card.I.14": {"en": "Use the instant ability of one of your cards with influence at least this card's.",
                         "ja": "影響力がこのカード以上の自分のカード1枚の即時効果を使う。"},
    "cardia.card.I.15": {"en": "+3 to one card in the row and −3 to another.", "ja": "場のカード1枚に+3、別の1枚に−3。"},
    "cardia.card.I.16": {"en": "You win the round.", "ja": "このラウンドはあなたの勝ち。"},
    "cardia.card.II.1": {"en": "Lower the opposing card until this encounter is a tie.",
                         "ja": "向かいのカードの影響力を下げ、この戦闘を引き分けにする。"},
    "cardia.card.II.2": {"en": "Move all modifiers and ongoing tokens from one of your cards to another.",
                         "ja": "自分の場のカード1枚の修正と持続トークンを、すべて別の自分のカードへ移す。"},
    "cardia.card.II.3": {"en": "−3 to any card in the row, or to your next card.",
                         "ja": "場のカード1枚、または次に出す自分のカードに−3。"},
    "cardia.card.II.4": {"en": "+4 to this card.", "ja": "このカードに+4。"},
    "cardia.card.II.5": {"en": "Opponent discards 2 hand cards of their choice, then draws 2.",
                         "ja": "相手は手札を2枚選んで捨て、2枚引く。"},
    "cardia.card.II.6": {"en": "When your next card is revealed, give it +2 or −2.",
                         "ja": "次の自分のカードの公開時に+2か−2を与える。"},
    "cardia.card.II.7": {"en": "+3 to one of your cards with influence 8 or less.",
                         "ja": "影響力8以下の自分のカード1枚に+3。"},
    "cardia.card.II.8": {"en": "When this card wins it holds 1 extra signet.", "ja": "このカードが勝つとシグネット+1。"},
    "cardia.card.II.9": {"en": "Name a colour: if the opponent's next card is another colour, they discard 2.",
                         "ja": "色を宣言：相手の次のカードが別の色なら、相手は手札を2枚捨てる。"},
    "cardia.card.II.10": {"en": "One of your other losing cards uses its own ability again.",
                          "ja": "負けている自分の他のカード1枚の能力をもう一度発動する。"},
    "cardia.card.II.11": {"en": "+5 to your next card, after its encounter's ability.",
                          "ja": "次に出す自分のカードに+5（その戦闘の能力の後）。"},
    "cardia.card.II.12": {"en": "In the previous encounter your card wins.", "ja": "直前の戦闘はあなたのカードの勝ち。"},
    "cardia.card.II.13": {"en": "Name a colour: opponent discards it from hand and deck, then shuffles.",
                          "ja": "色を宣言：相手はその色を手札と山札から捨て、山札を切る。"},
    "cardia.card.II.14": {"en": "Discard an instant card from hand to use its ability as this card; draw 1.",
                          "ja": "手札の即時効果カードを捨て、その能力をこのカードで使う。1枚引く。"},
    "cardia.card.II.15": {"en": "If you win the next encounter, you win the round.",
                          "ja": "次の戦闘に勝てば、このラウンドはあなたの勝ち。"},
    "cardia.card.II.16": {"en": "Opponent discards their deck and all but 2 hand cards of their choice.",
                          "ja": "相手は山札をすべて捨て、手札は選んだ2枚だけを残す。"},
    # Card texts, short (a phone's card face; the full text is a tap away).
    "cardia.short.I.1": {"en": "Discard both cards", "ja": "両方のカードを捨てる"},
    "cardia.short.I.2": {"en": "Clear a card's tokens", "ja": "場のカードのトークンを除く"},
    "cardia.short.I.3": {"en": "Your next card −5", "ja": "次の自分のカードに−5"},
    "cardia.short.I.4": {"en": "This encounter ties", "ja": "この戦闘は引き分け"},
    "cardia.short.I.5": {"en": "Opponent discards 2 from deck", "ja": "相手は山札から2枚捨てる"},
    "cardia.short.I.6": {"en": "Opponent places first, face up", "ja": "次は相手が先に表向き"},
    "cardia.short.I.7": {"en": "Name a colour: discard it or +7", "ja": "色を宣言：捨てるか+7"},
    "cardia.short.I.8": {"en": "You win every tie", "ja": "引き分けは自分の勝ち"},
    "cardia.short.I.9": {"en": "Name a colour: opponent discards it", "ja": "色を宣言：相手はその色を全部捨てる"},
    "cardia.short.I.10": {"en": "Swap in a random card of theirs", "ja": "向かいを相手の手札と交換"},
    "cardia.short.I.11": {"en": "+3 previous and next card", "ja": "直前と次の自分のカードに+3"},
    "cardia.short.I.12": {"en": "Previous winner +1 signet", "ja": "直前の勝者にシグネット+1"},
    "cardia.short.I.13": {"en": "Take back a card; discard its rival", "ja": "自分のカード1枚を手札に戻す"},
    "cardia.short.I.14": {"en": "Use a stronger card's instant ability", "ja": "強い自分のカードの即時効果を使う"},
    "cardia.short.I.15": {"en": "+3 to a card, −3 to another", "ja": "1枚に+3、別の1枚に−3"},
    "cardia.short.I.16": {"en": "You win the round", "ja": "ラウンドに勝つ"},
    "cardia.short.II.1": {"en": "Make this encounter a tie", "ja": "この戦闘を引き分けにする"},
    "cardia.short.II.2": {"en": "Move all tokens to another card", "ja": "トークンを別のカードへ移す"},
    "cardia.short.II.3": {"en": "−3 to a card or your next card", "ja": "場か次のカードに−3"},
    "cardia.short.II.4": {"en": "+4 to this card", "ja": "このカードに+4"},
    "cardia.short.II.5": {"en": "Opponent discards 2, draws 2", "ja": "相手は2枚捨てて2枚引く"},
    "cardia.short.II.6": {"en": "Next card ±2 when revealed", "ja": "次のカードに+2か−2"},
    "cardia.short.II.7": {"en": "+3 to your card of 8 or less", "ja": "影響力8以下の自分のカードに+3"},
    "cardia.short.II.8": {"en": "Wins with 1 extra signet", "ja": "勝つとシグネット+1"},
    "cardia.short.II.9": {"en": "Name a colour: else they discard 2", "ja": "色を宣言：違えば相手は2枚捨てる"},
    "cardia.short.II.10": {"en": "A losing card acts again", "ja": "負けたカードの能力を再発動"},
    "cardia.short.II.11": {"en": "Next card +5, afterwards", "ja": "次のカードに後から+5"},
    "cardia.short.II.12": {"en": "Win the previous encounter", "ja": "直前の戦闘は自分の勝ち"},
    "cardia.short.II.13": {"en": "Name a colour: they lose it all", "ja": "色を宣言：相手は手札と山札から捨てる"},
    "cardia.short.II.14": {"en": "Use an instant card of your hand", "ja": "手札の即時効果を使い1枚引く"},
    "cardia.short.II.15": {"en": "Win the next: win the round", "ja": "次の戦闘に勝てばラウンドに勝つ"},
    "cardia.short.II.16": {"en": "Opponent keeps only 2 cards", "ja": "相手は手札2枚だけ残す"},
    # What an ability does, for the log: {o_l} owns the card, {x_l} is the other side
    # (you / あなた for the viewer, else the seat's name; {os_l} {xs_l}: possessive).
    "cardia.do.I.1": {
        "en": "this card and the card facing it are discarded.",
        "ja": "このカードと向かいのカードを捨てる。"},
    "cardia.do.I.2": {
        "en": "{o_l} {you_o|remove|removes} the modifiers or the ongoing token of a card in the row.",
        "ja": "{o_l}が場のカード1枚の修正トークンか持続トークンを取り除く。"},
    "cardia.do.I.3": {
        "en": "{os_l} next card gets −5.",
        "ja": "{os_l}次のカードに−5。"},
    "cardia.do.I.4": {
        "en": "this encounter is a tie while the token stays.",
        "ja": "持続トークンがある間、この戦闘は引き分け。"},
    "cardia.do.I.5": {
        "en": "{x_l} {you_x|discard|discards} the top 2 cards of the deck.",
        "ja": "{x_l}は山札の上から2枚を捨てる。"},
    "cardia.do.I.6": {
        "en": "next encounter {x_l} {you_x|place|places} first, face up.",
        "ja": "次の戦闘では{x_l}が先に表向きで出す。"},
    "cardia.do.I.7": {
        "en": "{o_l} {you_o|name|names} a colour; {x_l} may discard a card of it, or the Guard gets +7.",
        "ja": "{o_l}が色を宣言し、{x_l}はその色の手札1枚を捨ててもよい。捨てなければ警備隊に+7。"},
    "cardia.do.I.8": {
        "en": "every tied encounter goes to {o_l}.",
        "ja": "引き分けの戦闘はすべて{o_l}の勝ち。"},
    "cardia.do.I.9": {
        "en": "{o_l} {you_o|name|names} a colour; {x_l} {you_x|discard|discards} every card of it from hand.",
        "ja": "{o_l}が色を宣言し、{x_l}はその色の手札をすべて捨てる。"},
    "cardia.do.I.10": {
        "en": "the opposing card is discarded; a random card from {xs_l} hand takes its place.",
        "ja": "向かいのカードを捨て、{xs_l}手札からランダムな1枚と入れ替える。"},
    "cardia.do.I.11": {
        "en": "+3 to {os_l} card in the previous encounter and to {os_l} next card.",
        "ja": "直前の戦闘の{os_l}カードと、{os_l}次のカードに+3。"},
    "cardia.do.I.12": {
        "en": "the winner of the previous encounter holds 1 extra signet.",
        "ja": "直前の戦闘の勝ちカードにシグネット+1。"},
    "cardia.do.I.13": {
        "en": "{o_l} {you_o|take|takes} another played card back to hand; the card it faced is discarded.",
        "ja": "{o_l}が自分の他の場のカード1枚を手札に戻し、向かいのカードを捨てる。"},
    "cardia.do.I.14": {
        "en": "{o_l} {you_o|use|uses} the instant ability of another played card with influence at least this card's.",
        "ja": "{o_l}が、影響力がこのカード以上の自分の場のカード1枚の即時効果を使う。"},
    "cardia.do.I.15": {
        "en": "+3 to one card in the row and −3 to another.",
        "ja": "場のカード1枚に+3、別の1枚に−3。"},
    "cardia.do.I.16": {
        "en": "{o_l} {you_o|win|wins} the round.",
        "ja": "このラウンドは{o_l}の勝ち。"},
    "cardia.do.II.1": {
        "en": "the opposing card drops until this encounter is a tie.",
        "ja": "向かいのカードの影響力を下げ、この戦闘を引き分けにする。"},
    "cardia.do.II.2": {
        "en": "{o_l} {you_o|move|moves} all modifiers and ongoing tokens from one played card to another.",
        "ja": "{o_l}が自分の場のカード1枚の修正と持続トークンを、すべて別の自分のカードへ移す。"},
    "cardia.do.II.3": {
        "en": "−3 to any card in the row, or to {os_l} next card.",
        "ja": "場のカード1枚、または{os_l}次のカードに−3。"},
    "cardia.do.II.4": {
        "en": "+4 to this card.",
        "ja": "このカードに+4。"},
    "cardia.do.II.5": {
        "en": "{x_l} {you_x|choose|chooses} 2 hand cards to discard, then {you_x|draw|draws} 2.",
        "ja": "{x_l}は手札を2枚選んで捨て、2枚引く。"},
    "cardia.do.II.6": {
        "en": "{o_l} will give the next card +2 or −2 when it is revealed.",
        "ja": "{o_l}は次のカードの公開時に+2か−2を与える。"},
    "cardia.do.II.7": {
        "en": "+3 to one of {os_l} cards with influence 8 or less.",
        "ja": "影響力8以下の{os_l}カード1枚に+3。"},
    "cardia.do.II.8": {
        "en": "while the token stays, this card holds 1 extra signet when it wins.",
        "ja": "持続トークンがある間、このカードが勝つとシグネット+1。"},
    "cardia.do.II.9": {
        "en": "{o_l} {you_o|name|names} a colour; if {xs_l} next card is another colour, {x_l} {you_x|discard|discards} 2.",
        "ja": "{o_l}が色を宣言し、{xs_l}次のカードが別の色なら、{x_l}は手札を2枚捨てる。"},
    "cardia.do.II.10": {
        "en": "one of {os_l} other losing cards uses its own ability again.",
        "ja": "負けている{os_l}他のカード1枚の能力をもう一度発動する。"},
    "cardia.do.II.11": {
        "en": "+5 to {os_l} next card, after its encounter's ability.",
        "ja": "{os_l}次のカードに+5（その戦闘の能力の後）。"},
    "cardia.do.II.12": {
        "en": "in the previous encounter {os_l} card wins.",
        "ja": "直前の戦闘は{os_l}カードの勝ち。"},
    "cardia.do.II.13": {
        "en": "{o_l} {you_o|name|names} a colour; {x_l} {you_x|discard|discards} it from hand and deck, then {you_x|shuffle|shuffles}.",
        "ja": "{o_l}が色を宣言し、{x_l}はその色を手札と山札から捨て、山札を切る。"},
    "cardia.do.II.14": {
        "en": "{o_l} {you_o|discard|discards} an instant card from hand to use its ability as this card, then {you_o|draw|draws} 1.",
        "ja": "{o_l}が手札の即時効果カードを捨て、その能力をこのカードで使い、1枚引く。"},
    "cardia.do.II.15": {
        "en": "if {o_l} {you_o|win|wins} the next encounter, {o_l} {you_o|win|wins} the round.",
        "ja": "次の戦闘に{o_l}が勝てば、このラウンドは{o_l}の勝ち。"},
    "cardia.do.II.16": {
        "en": "{x_l} {you_x|discard|discards} the whole deck and all but 2 chosen hand cards.",
        "ja": "{x_l}は山札をすべて捨て、手札は選んだ2枚だけを残す。"},
    # Locations (our own words).
    "cardia.loc.serpent_temple": {
        "en": "Each time you newly win an earlier encounter: draw 1; your opponent discards 1 card of their choice.",
        "ja": "以前の戦闘を新たに勝つたびに1枚引き、相手は手札を1枚選んで捨てる。"},
    "cardia.loc.bazaar": {"en": "No normal draw. After each encounter, a player with 1 card or fewer draws 4.",
                          "ja": "通常のドローなし。各戦闘の後、手札1枚以下のプレイヤーは4枚引く。"},
    "cardia.loc.founders_day": {"en": "Signets on 3 encounters in a row win the round at once.",
                                "ja": "連続する3つの戦闘にシグネットがあれば、即座にラウンドの勝ち。"},
    "cardia.loc.grand_library": {"en": "Start each round with 2 cards; draw 2 after each encounter.",
                                 "ja": "各ラウンドの手札は2枚から。各戦闘の後に2枚引く。"},
    "cardia.loc.scrapyard": {"en": "Draw 2 after each encounter, then put 1 hand card under your deck.",
                             "ja": "各戦闘の後に2枚引き、手札1枚を山札の下に置く。"},
    "cardia.loc.auction_house": {"en": "Reveal a card weaker than your previous one: discard your deck's top card.",
                                 "ja": "直前の自分のカードより弱いカードを公開したら、山札の一番上を捨てる。"},
    "cardia.loc.haunted_catacombs": {"en": "Reveal the same colour as your previous card: you lose the round.",
                                     "ja": "直前の自分のカードと同じ色を公開したら、ラウンドに負ける。"},
    "cardia.loc.foggy_swamp": {"en": "Cards stay face down; each placement reveals and resolves the previous encounter.",
                               "ja": "カードは裏向きのまま。カードを出すたびに一つ前の戦闘が公開・解決される。"},
    "cardia.rules_html": {
        "en": (
            "<p>Two players duel with identical 16-card decks (values 1–16, four colours). "
            "Win a <b>round</b> by holding 5 signets (and more than your opponent); win the "
            "<b>match</b> by winning two rounds.</p>"
            "<p><b>Each encounter</b> both players place one hand card face down at the same "
            "time; then both are revealed. The higher influence (value plus modifiers) wins "
            "and gets a signet; a tie gives nothing.</p>"
            "<p><b>The losing card's ability</b> then activates, once. Instant abilities act "
            "at once; ongoing ones get a token and stay in force while it stays. Abilities "
            "can change earlier encounters: signets then move to whoever wins now, but no "
            "ability ever activates a second time because of that.</p>"
            "<p>After each encounter both players draw a card. A player who cannot play "
            "loses the round. Between rounds every card goes back and is dealt afresh.</p>"
            "<p><b>Locations</b> (optional) bend one rule for the whole match.</p>"),
        "ja": (
            "<p>2人は同じ16枚のデッキ（値1〜16、4色）で戦います。シグネットを5個（かつ相手より多く）"
            "集めると<b>ラウンド</b>の勝ち、2ラウンド先取で<b>試合</b>の勝ちです。</p>"
            "<p><b>各戦闘</b>では、両者が同時に手札1枚を裏向きで出し、同時に公開します。"
            "影響力（値＋修正）の高い方が勝ち、シグネットを得ます。引き分けは何も起きません。</p>"
            "<p>次に<b>負けたカードの能力</b>が1回だけ発動します。即時効果はすぐに働き、持続効果は"
            "トークンが載っている間ずっと働きます。能力は以前の戦闘も変えることがあり、その時は"
            "シグネットが今の勝者へ移りますが、能力が再び発動することはありません。</p>"
            "<p>各戦闘の後、両者は1枚引きます。カードを出せないプレイヤーはそのラウンドに負けます。"
            "ラウンドの間にすべてのカードを戻して配り直します。</p>"
            "<p><b>ロケーション</b>（任意）は試合全体のルールを1つ変えます。</p>"),
    },
}
register(STRINGS)

#: The lobby's line for this game (our own words).
BLURB = {"en": "Simultaneous card duels where every loss fights back; best of three rounds.",
         "ja": "負けたカードが反撃する、同時出しのカード対決。3本勝負。"}


# -- names -----------------------------------------------------------------------------
def who(p: int, lang: str) -> str:
    return t(f"cardia.seat{p}", lang)


def card_name(deck: str, value: int, lang: str) -> str:
    return CARD_NAMES[deck][value][lang]


def colour_name(colour: str, lang: str) -> str:
    return COLOUR_NAMES[colour][lang]


def _ability_card(ability: str) -> tuple[str, int]:
    """(deck, value) of an ability key such as ``"inventor"``."""
    for deck, keys in ABILITIES.items():
        if ability in keys:
            return deck, keys.index(ability)
    raise KeyError(ability)


def ability_name(ability: str, lang: str) -> str:
    """The card name an ability key belongs to (locations name themselves)."""
    if ability in LOCATION_NAMES:
        return LOCATION_NAMES[ability][lang]
    try:
        deck, value = _ability_card(ability)
    except KeyError:
        return ability.replace("_", " ")
    return card_name(deck, value, lang)


def forms(p: Any, me: int | None, lang: str) -> dict[str, Any]:
    """How seat ``p`` is named in a sentence read by seat ``me`` (None: nobody, e.g. an
    open replay): ``who`` (a sentence's subject), ``who_l`` (later in one), ``whose`` /
    ``whose_l`` (possessive), ``their``, and ``you``: 1 for the viewer, so an English verb
    agrees (``{you|win|wins}``). The viewer is you / あなた; the other side, its seat.

    >>> forms(0, 0, "en")["whose"], forms(1, 0, "en")["whose"], forms(1, None, "ja")["who"]
    ('Your', "Player 2's", 'プレイヤー2')
    """
    if isinstance(p, list):  # several seats at once (a location's rule)
        names = [forms(q, me, lang)["who"] for q in p if isinstance(q, int)]
        joined = " / ".join(names)
        whose = t("cardia.whose", lang, who=joined)
        return {"who": joined, "who_l": joined, "whose": whose, "whose_l": whose,
                "their": t("cardia.their", lang), "you": 1 if len(names) != 1 else 0}
    if not isinstance(p, int):
        return {"who": "", "who_l": "", "whose": "", "whose_l": "", "their": "", "you": 0}
    if me is not None and p == me:
        return {"who": t("cardia.you", lang), "who_l": t("cardia.you_l", lang),
                "whose": t("cardia.your", lang), "whose_l": t("cardia.your_l", lang),
                "their": t("cardia.your_own", lang), "you": 1}
    name = who(p, lang)
    whose = t("cardia.whose", lang, who=name)
    return {"who": name, "who_l": name, "whose": whose, "whose_l": whose,
            "their": t("cardia.their", lang), "you": 0}


def ability_text(deck: str, value: int, owner: int, me: int | None, lang: str) -> str:
    """What card ``value``'s ability does, for the log: its owner and the other side named
    for the viewer (no printed "you" that means the card's owner).

    >>> ability_text("I", 8, 1, 0, "en"), ability_text("I", 8, 1, 0, "ja")
    ('every tied encounter goes to Player 2.', '引き分けの戦闘はすべてプレイヤー2の勝ち。')
    >>> ability_text("I", 8, 0, 0, "ja")
    '引き分けの戦闘はすべてあなたの勝ち。'
    """
    o, x = forms(owner, me, lang), forms(1 - owner, me, lang)
    return t(f"cardia.do.{deck}.{value}", lang, o_l=o["who_l"], os_l=o["whose_l"],
             you_o=o["you"], x_l=x["who_l"], xs_l=x["whose_l"], you_x=x["you"])


def _deck(view: dict[str, Any] | None) -> str:
    return (view or {}).get("deck") or "I"


def _names(deck: str, values: list[int], lang: str) -> str:
    sep = "、" if lang == "ja" else ", "
    if lang == "ja":
        return sep.join(f"「{card_name(deck, v, lang)}」" for v in values)
    return sep.join(card_name(deck, v, lang) for v in values)


# -- commands --------------------------------------------------------------------------
def new_selection() -> dict[str, Any]:
    """The card picked for placement and not yet placed."""
    return {"card": None}


def handle(cmd: str, sel: dict[str, Any], legal: list[str],
           view: dict[str, Any] | None = None) -> str | None:
    """A click, as an engine action once one is made.

    >>> sel = new_selection()
    >>> handle("pick:7", sel, ["7", "9"]), sel["card"], handle("confirm", sel, ["7", "9"])
    (None, 7, '7')
    >>> handle("act:G", sel, ["G", "Y"]), handle("act:x3", sel, ["G"])
    ('G', None)
    """
    name, _, arg = cmd.partition(":")
    if name == "pick" and arg in legal and arg.isdecimal():
        sel["card"] = None if sel["card"] == int(arg) else int(arg)
    elif name == "confirm" and sel["card"] is not None and str(sel["card"]) in legal:
        action = str(sel["card"])
        sel.update(new_selection())
        return action
    elif name == "act" and arg in legal:
        sel.update(new_selection())
        return arg
    return None


# -- what the log says -----------------------------------------------------------------
def _why(reason: str, lang: str) -> str:
    key = f"cardia.why.{reason}"
    try:
        return t(key, lang)
    except KeyError:
        return t("cardia.why.other", lang, r=reason)


def describe(event: dict[str, Any], lang: str, view: dict[str, Any] | None = None) -> str:
    """One engine event in words.

    >>> describe({"t": "colour", "p": 1, "colour": "R", "ability": "ambusher"}, "en")
    'Player 2 names Red (Guild).'
    >>> describe({"t": "draw", "p": 0, "n": 2, "why": "finish"}, "en")
    'Player 1 draws 2 cards.'

    The viewer (``view["you"]``) reads of themself as you / あなた:

    >>> describe({"t": "draw", "p": 0, "n": 1, "why": "finish"}, "en", {"you": 0})
    'You draw 1 card.'
    """
    deck = _deck(view)
    kind = event["t"]
    p = event.get("p", 0)
    me = (view or {}).get("you")
    f = forms(p, me, lang)

    def name(v: int) -> str:
        return card_name(deck, v, lang)

    if kind == "round":
        a, b = event.get("wins", [0, 0])
        return t("cardia.ev.round", lang, n=event["n"], a=a, b=b)
    if kind == "deal":
        if "cards" in event:
            return t("cardia.ev.deal_seen", lang, **f, cards=_names(deck, event["cards"], lang))
        return t("cardia.ev.deal", lang, **f, n=event["n"])
    if kind == "place":
        if event.get("up") and "card" in event:
            text = t("cardia.ev.place_up", lang, **f, card=name(event["card"]), e=event["e"])
        elif "card" in event:
            text = t("cardia.ev.place_seen", lang, **f, card=name(event["card"]), e=event["e"])
        else:
            text = t("cardia.ev.place", lang, **f, e=event["e"])
        if event.get("mod"):
            text += t("cardia.ev.place_mod", lang, mod=event["mod"])
        return text
    if kind == "reveal":
        (ca, cb), (ia, ib) = event["cards"], event["influence"]
        return t("cardia.ev.reveal", lang, e=event["e"], a=forms(0, me, lang)["whose_l"],
                 b=forms(1, me, lang)["whose_l"],
                 ca=name(ca), cb=name(cb), ia=ia, ib=ib)
    if kind == "evaluate":
        if "influence" not in event:
            if event["winner"] is None:
                return t("cardia.ev.tie_plain", lang, e=event["e"])
            return t("cardia.ev.win_plain", lang, **forms(event["winner"], me, lang),
                     e=event["e"])
        ia, ib = event["influence"]
        if event["winner"] is None:
            return t("cardia.ev.tie", lang, e=event["e"], ia=ia, ib=ib)
        win = event["winner"]
        hi, lo = (ia, ib) if win == 0 else (ib, ia)
        return t("cardia.ev.win", lang, **forms(win, me, lang), e=event["e"], ia=hi, ib=lo)
    if kind == "signets":
        parts = []
        for c in event["changed"]:
            after = c["after"]
            holder = 0 if after[0] else 1 if after[1] else None
            if after[0] and after[1]:  # both Judges: both hold one
                parts.append(t("cardia.ev.sig_to", lang, e=c["e"], **forms([0, 1], me, lang)))
            elif holder is None:
                parts.append(t("cardia.ev.sig_none", lang, e=c["e"]))
            else:
                parts.append(t("cardia.ev.sig_to", lang, e=c["e"], **forms(holder, me, lang)))
        a, b = event["totals"]
        return t("cardia.ev.signets", lang, changes=("、" if lang == "ja" else "; ").join(parts),
                 a=a, b=b)
    if kind == "ability":
        ability = event["ability"]
        try:
            adeck, value = _ability_card(ability)
        except KeyError:
            adeck, value = deck, event.get("card") or 1
        cname = card_name(adeck, value, lang)
        text = ability_text(adeck, value, p, me, lang)
        if event.get("none"):
            return t("cardia.ev.ability_none", lang, **f, card=cname)
        via = event.get("via")
        if via in ("magistra", "elemental"):
            return t("cardia.ev.ability_via", lang, **f, via=ability_name(via, lang),
                     card=cname, text=text)
        return t("cardia.ev.ability", lang, **f, card=cname, text=text)
    if kind == "token":
        key = "cardia.ev.token_on" if event["on"] else "cardia.ev.token_off"
        return t(key, lang, card=name(event["card"]))
    if kind == "modifier":
        return t("cardia.ev.modifier", lang, **f, card=name(event["card"]), e=event["e"],
                 delta=event["delta"], inf=event["card"] + event["total"])
    if kind == "pending":
        effect = event["effect"]
        if effect == "blackmail":
            return t("cardia.ev.pend.blackmail", lang, **f,
                     colour=colour_name(event["value"], lang))
        if effect == "fortune_teller":
            return t("cardia.ev.pend.fortune_teller", lang, **forms(event["value"], me, lang))
        if effect == "next_modifier":
            return t("cardia.ev.pend.next_modifier", lang, **f, v=event["value"])
        return t(f"cardia.ev.pend.{effect}", lang, **f)
    if kind == "colour":
        return t("cardia.ev.colour", lang, **f, colour=colour_name(event["colour"], lang))
    if kind == "discard":
        cards = event.get("cards", [])
        if not cards:
            return t("cardia.ev.discard_none", lang, **f)
        where = event.get("from", "hand")
        return t(f"cardia.ev.discard_{where if where in ('hand', 'deck', 'row') else 'hand'}",
                 lang, **f, cards=_names(deck, cards, lang))
    if kind == "draw":
        if not event.get("n"):
            return t("cardia.ev.draw_none", lang, **f)
        if event.get("cards"):
            return t("cardia.ev.draw_seen", lang, **f, cards=_names(deck, event["cards"], lang))
        return t("cardia.ev.draw", lang, **f, n=event["n"])
    if kind == "under":
        if "card" in event:
            return t("cardia.ev.under_seen", lang, **f, card=name(event["card"]))
        return t("cardia.ev.under", lang, **f)
    if kind == "decline":
        return t("cardia.ev.decline", lang, **f)
    if kind == "return":
        return t("cardia.ev.return", lang, **f, card=name(event["card"]), e=event["e"])
    if kind == "replace":
        return t("cardia.ev.replace", lang, **f, old=name(event["old"]), new=name(event["new"]))
    if kind == "move":
        (ea, va), (eb, vb) = event["from"], event["to"]
        token = t("cardia.ev.move_token", lang) if event.get("token") else ""
        return t("cardia.ev.move", lang, **f, mod=event.get("mod", 0), token=token,
                 a=name(va), ea=ea, b=name(vb), eb=eb)
    if kind == "shuffle":
        return t("cardia.ev.shuffle", lang, **f)
    if kind == "delete":
        return t("cardia.ev.delete", lang, e=event["e"])
    if kind == "blackmail":
        key = "cardia.ev.blackmail_hit" if event.get("hit") else "cardia.ev.blackmail_miss"
        return t(key, lang, **f, colour=colour_name(event["colour"], lang))
    if kind == "location":
        seats = p if isinstance(p, list) else [p]
        fs = forms(seats[0] if len(seats) == 1 else seats, me, lang)
        if f"cardia.ev.loc.{event['loc']}" in STRINGS:
            return t(f"cardia.ev.loc.{event['loc']}", lang, **fs)
        return t("cardia.ev.location", lang, loc=LOCATION_NAMES[event["loc"]][lang], **fs)
    if kind == "round_end":
        n = sum(event.get("wins", [0, 0])) if event["winner"] is not None else None
        n = n or (view or {}).get("round", "")
        if event["winner"] is None:
            return t("cardia.ev.round_void", lang, n=n, why=_why(event["reason"], lang))
        return t("cardia.ev.round_end", lang, **forms(event["winner"], me, lang), n=n,
                 why=_why(event["reason"], lang))
    if kind == "end":
        a, b = event.get("wins", [0, 0])
        if event["winner"] is None:
            return t("cardia.reason_draw", lang)
        return t("cardia.ev.end", lang, **forms(event["winner"], me, lang), a=max(a, b),
                 b=min(a, b))
    return kind


def result_reason(outcome: dict[str, Any], lang: str) -> str:
    if not outcome["winners"]:
        return t("cardia.reason_draw", lang)
    a, b = sorted(outcome.get("scores", [0, 0]), reverse=True)
    return t("cardia.reason", lang, who=who(outcome["winners"][0], lang), a=a, b=b)


def step_delay(event: dict[str, Any], speed: int) -> int:
    """A reveal and a round's end get a longer look."""
    return speed * 3 // 2 if event["t"] in ("reveal", "round_end", "end") else speed


# -- rendering ---------------------------------------------------------------------------
#: Where a Japanese card name may break (between its words; never inside one).
JA_BREAKS = {
    "I": {1: "雇われた|剣士", 2: "虚空の|魔術師", 5: "破壊|工作員", 7: "宮殿|警備隊",
          10: "操り|人形師", 13: "沼の|守護者"},
    "II": {2: "キネシス|メイジ", 4: "税金|徴収人", 15: "機械の|ジン"},
}


def _name_html(deck: str, v: int, lang: str) -> str:
    """A card's name, with break points between its words only (``long``: a single word
    that needs the smaller type to fit a card)."""
    name = card_name(deck, v, lang)
    if lang == "ja":
        words = JA_BREAKS[deck].get(v, name).split("|")
        long = max(len(w) for w in words) > 6
    else:
        words = name.split(" ")
        long = max(len(w) for w in words) > 10
    sep = "<wbr>" if lang == "ja" else " "
    cls = "cn long" if long else "cn"
    return f'<span class="{cls}">{sep.join(esc(w) for w in words)}</span>'


def _card_face(deck: str, card: dict[str, Any], lang: str, *, cmd: str | None = None,
               extra: str = "", note: str = "", uid: str = "", pressed: bool | None = None) -> str:
    """A face-up card: colour band, value, name, tokens and influence (the part a click
    plays, when ``cmd``), then its ability (short on a phone; a tap shows the full text,
    ``uid`` naming that pop-up)."""
    v = card["value"]
    colour = card.get("colour") or colour_of(v)
    ongoing = v in ONGOING[deck]
    mods = card.get("modifiers", 0)
    influence = card.get("influence", v)
    if influence is None:
        influence = v + mods
    badges = []
    if mods:
        badges.append(f'<span class="mod {"plus" if mods > 0 else "minus"}">{mods:+d}</span>')
    if card.get("ongoing"):
        badges.append('<span class="token">◉</span>')
    sig = card.get("signets", 0)
    if sig:
        badges.append(f'<span class="signet">{"●" * sig if sig <= 2 else f"●{sig}"}</span>')
    kind = t("cardia.ongoing" if ongoing else "cardia.instant", lang)
    status = [t("cardia.influence", lang, n=influence)]
    if mods:
        status.append(t("cardia.printed", lang, v=v, m=f"{mods:+d}"))
    if card.get("ongoing"):
        status.append(t("cardia.token_on", lang))
    if sig:
        status.append(t("cardia.signet_on", lang, n=sig))
    if note:
        status.append(note)
    top = (f'<span class="ctop" aria-hidden="true"><span class="cv">{v}</span>'
           f'<span class="badges">{"".join(badges)}</span>'
           f'<span class="inf">{influence}</span></span>')
    label = (f'{top}{_name_html(deck, v, lang)}'
             f'<span class="sr-only">({esc(", ".join(status))})</span>')
    if cmd:
        aria = "" if pressed is None else f' aria-pressed="{str(pressed).lower()}"'
        main = f'<button type="button" class="cpick" data-cmd="{esc(cmd)}"{aria}>{label}</button>'
    else:
        main = f'<div class="cpick">{label}</div>'
    full = esc(t(f"cardia.card.{deck}.{v}", lang))
    uid = uid or f"ct-{deck}-{v}"
    tag = f'<span class="ck">{esc(kind)}</span>'
    text = (f'<button type="button" class="ct" popovertarget="{esc(uid)}"><span class="ct-in">'
            f'{tag} <span class="ct-short">{esc(t(f"cardia.short.{deck}.{v}", lang))}</span>'
            f'<span class="ct-full">{full}</span>'
            f'<span class="sr-only"> ({esc(t("cardia.show_full", lang))})</span></span></button>'
            f'<div class="ctip" id="{esc(uid)}" popover>'
            f'<p class="ctip-name"><b>{v} {esc(card_name(deck, v, lang))}</b> · {esc(kind)}</p>'
            f'<p>{full}</p><button type="button" popovertarget="{esc(uid)}" '
            f'popovertargetaction="hide">{esc(t("cardia.close", lang))}</button></div>')
    classes = f"ccard c-{colour}{' ongoing' if ongoing else ''} {extra}".strip()
    data = f'data-value="{v}" data-influence="{influence}" data-signets="{sig}"'
    return f'<div class="{classes}" {data}>{main}{text}</div>'


def _card_back(label: str, extra: str = "") -> str:
    return (f'<div class="ccard back {extra}" role="img" aria-label="{esc(label)}">'
            f'<span class="cv" aria-hidden="true">?</span></div>')


def _row_from(view: dict[str, Any], events: list[dict[str, Any]], shown: int,
              since: int | None, before: dict[str, Any] | None) -> list[dict[str, Any]]:
    """The row to draw: during a playback the one from before it, with the encounters
    revealed (and judged, and their signets moved) so far in the playback turned up."""
    if before is None or since is None or shown >= len(events):
        return view["row"]
    row = [dict(enc, cards=[dict(c) for c in enc["cards"]]) for enc in before["row"]]
    for event in events[since:shown]:
        e = event.get("e")
        if event["t"] == "reveal":
            while len(row) < e:
                row.append({"n": len(row) + 1, "revealed": False, "evaluated": False,
                            "winner": None, "cards": [{"value": None}, {"value": None}]})
            enc = row[e - 1]
            enc["revealed"] = True
            for seat in (0, 1):
                value = event["cards"][seat]
                enc["cards"][seat] = {"value": value, "colour": colour_of(value),
                                      "influence": event["influence"][seat],
                                      "modifiers": event["influence"][seat] - value,
                                      "ongoing": False, "signets": 0, "face_up": True}
        elif event["t"] == "evaluate" and e and e <= len(row):
            enc = row[e - 1]
            enc["winner"], enc["evaluated"] = event["winner"], True
            for seat in (0, 1):
                if enc["cards"][seat].get("value") is not None:
                    enc["cards"][seat]["signets"] = event["signets"][seat]
        elif event["t"] == "signets":
            for c in event["changed"]:
                if c["e"] <= len(row):
                    enc = row[c["e"] - 1]
                    for seat in (0, 1):
                        if enc["cards"][seat].get("value") is not None:
                            enc["cards"][seat]["signets"] = c["after"][seat]
    return row


def _playback_counts(panels: dict[str, Any], events: list[dict[str, Any]], shown: int,
                     since: int | None, row: list[dict[str, Any]]) -> dict[str, Any]:
    """The panels' numbers during a playback, as the table on screen shows them: hands
    less the cards placed so far, signets as the row drawn holds them."""
    hands = list(panels["hand_sizes"])
    for event in events[since or 0:shown]:
        if event["t"] == "place" and isinstance(event.get("p"), int):
            hands[event["p"]] = max(0, hands[event["p"]] - 1)
    signets = [sum(enc["cards"][seat].get("signets") or 0 for enc in row) for seat in (0, 1)]
    return dict(panels, hand_sizes=hands, signets=signets)


def _changed_encounters(events: list[dict[str, Any]], shown: int,
                        since: int | None) -> set[int]:
    """Encounters whose signets a re-evaluation moved in the last playback (shown part)."""
    if since is None:
        return set()
    changed = set()
    for event in events[since:shown]:
        if event["t"] == "signets":
            changed |= {c["e"] for c in event["changed"]}
        elif event["t"] in ("delete", "round"):
            changed = set()  # numbers shift, or a new round starts
    return changed


def _result(enc: dict[str, Any], top: int, lang: str, me: int | None) -> tuple[str, str]:
    """An encounter's result: what its label shows (an arrow to the winning card), and
    in words."""
    winner = enc.get("winner")
    if winner is not None:
        f = forms(winner, me, lang)
        words = t("cardia.wins_by", lang, **f)
        shown = t("cardia.top_wins" if winner == top else "cardia.bottom_wins", lang)
        return shown, words
    if enc.get("evaluated"):
        return t("cardia.tie", lang), t("cardia.tie", lang)
    return "", ""


def _row(view: dict[str, Any], row: list[dict[str, Any]], lang: str, me: int | None,
         legal: list[str], changed: set[int], focus: set[int], animating: bool) -> str:
    deck = view["deck"]
    bottom = me if me is not None else 0
    top = 1 - bottom
    items = []
    for enc in row:
        n = enc["n"]
        cells = {}
        for seat in (0, 1):
            card = enc["cards"][seat]
            action = f"{n}{SEAT_LETTER[seat]}"
            cmd = f"act:{action}" if action in legal and not animating else None
            if card.get("value") is None:
                cells[seat] = _card_back(t("cardia.face_down", lang))
            else:
                extra = "won" if enc.get("winner") == seat else ""
                cells[seat] = _card_face(deck, card, lang, cmd=cmd, extra=extra,
                                         note=forms(seat, me, lang)["who"],
                                         uid=f"ct-r{n}{SEAT_LETTER[seat]}")
        shown, words = _result(enc, top, lang, me)
        classes = ["enc"]
        moved = ""
        if n in changed:
            classes.append("changed")
            moved = (f'<span class="changed-tag" aria-hidden="true">'
                     f'{esc(t("cardia.moved", lang))}</span>')
            words += f", {t('cardia.changed', lang)}" if words else t("cardia.changed", lang)
        reveal = ""
        if n in focus:
            classes.append("focus")
            reveal = f' data-reveal="encounter-{n}"'
        winner = "" if enc.get("winner") is None else str(enc["winner"])
        label = t("cardia.enc_n", lang, n=n) + (f": {words}" if words else "")
        items.append(f'<li class="{" ".join(classes)}" data-n="{n}" data-winner="{winner}"'
                     f'{reveal} aria-label="{esc(label)}">'
                     f'<div class="side top" data-seat="{top}">{cells[top]}</div>'
                     f'<p class="enc-label" aria-hidden="true"><span class="num">{n}</span>'
                     f'<span class="res">{esc(shown)}</span>{moved}</p>'
                     f'<div class="side bottom" data-seat="{bottom}">{cells[bottom]}</div></li>')
    return "".join(items)


def _placing(view: dict[str, Any], lang: str, me: int | None, sel: dict[str, Any]) -> str:
    """The encounter being placed: who has placed, face up if Fortune Teller says so."""
    deck = view["deck"]
    bottom = me if me is not None else 0
    top = 1 - bottom
    cells = {}
    for seat in (0, 1):
        slot = view["placing"][seat]
        name = forms(seat, me, lang)["who"]
        if slot.get("placed") and slot.get("value") is not None:
            card = {"value": slot["value"], "modifiers": slot.get("modifiers", 0),
                    "influence": slot["value"] + slot.get("modifiers", 0)}
            cells[seat] = _card_face(deck, card, lang, extra="placed", note=name,
                                     uid=f"ct-p{SEAT_LETTER[seat]}")
        elif slot.get("placed"):
            cells[seat] = _card_back(f'{name}: {t("cardia.placed", lang)}')
        elif seat == me and sel.get("card") is not None:
            cells[seat] = _card_face(deck, {"value": sel["card"]}, lang, extra="picked",
                                     uid=f"ct-p{SEAT_LETTER[seat]}")
        else:
            cells[seat] = (f'<div class="ccard empty"><span class="sr-only">'
                           f'{esc(name)}: {esc(t("cardia.not_placed", lang))}</span></div>')
    n = len(view["row"]) + 1
    return (f'<li class="enc placing" data-n="{n}" aria-label="{esc(t("cardia.next_enc", lang))}">'
            f'<div class="side top" data-seat="{top}">{cells[top]}</div>'
            f'<p class="enc-label" aria-hidden="true"><span class="num">{n}</span>'
            f'<span class="res">{esc(t("cardia.next", lang))}</span></p>'
            f'<div class="side bottom" data-seat="{bottom}">{cells[bottom]}</div></li>')


def _panel(view: dict[str, Any], seat: int, lang: str, label: str, me: int | None,
           where: str) -> str:
    """A player's panel: you / their seat, signets, rounds won, hand, deck and discards."""
    deck = view["deck"]
    discards = view["discards"][seat]
    name = forms(seat, me, lang)["who"]
    if seat == me:  # "You (Player 1)"; the other side: "Player 2 (bot)"
        label = who(seat, lang)
    seat_txt = f' <span class="seat">({esc(label)})</span>' if label else ""
    pile = "".join(f"<li>{esc(card_name(deck, v, lang))} <small>{v}</small></li>"
                   for v in discards) or '<li class="muted">—</li>'
    return (f'<section class="cpanel {where} p{seat}{" mine" if seat == me else ""}" '
            f'data-seat="{seat}">'
            f'<h2>{esc(name)}{seat_txt}</h2>'
            f'<p class="stats">'
            f'<span class="signets" data-signets="{view["signets"][seat]}">'
            f'{esc(t("cardia.signets_n", lang, n=view["signets"][seat]))}</span>'
            f'<span class="wins" data-wins="{view["wins"][seat]}">'
            f'{esc(t("cardia.wins_n", lang, n=view["wins"][seat]))}</span>'
            f'<span data-hand="{view["hand_sizes"][seat]}">'
            f'{esc(t("cardia.hand_n", lang, n=view["hand_sizes"][seat]))}</span>'
            f'<span data-deck="{view["deck_sizes"][seat]}">'
            f'{esc(t("cardia.deck_n", lang, n=view["deck_sizes"][seat]))}</span></p>'
            f'{_open_hand(view, seat, lang)}'
            f'<details class="discards"><summary>'
            f'{esc(t("cardia.discard_n", lang, n=len(discards)))}</summary>'
            f'<ul aria-label="{esc(t("cardia.discard_list", lang, who=name))}">'
            f'{pile}</ul></details></section>')


def _open_hand(view: dict[str, Any], seat: int, lang: str) -> str:
    """An open replay shows the hand of a seat whose cards are otherwise not drawn."""
    hands = view.get("open_hands")
    if not hands or seat == view["you"]:
        return ""
    cards = ", ".join(f"{card_name(view['deck'], v, lang)} ({v})" for v in hands[seat]) or "—"
    return (f'<p class="open-hand" data-open-hand="{seat}">'
            f'<b>{esc(t("cardia.hand_n", lang, n=len(hands[seat])))}:</b> '
            f'{esc(cards)}</p>')


def open_view(views: list[dict[str, Any]]) -> dict[str, Any]:
    """Every seat's view as one, for a finished game's open replay: each face-down card
    from its owner's view, and every hand (``open_hands``).

    >>> import pygames
    >>> s = pygames.get_game("cardia").new_game(seed=2)
    >>> s.apply(0, s.legal_actions(0)[0])
    >>> merged = open_view([s.view(0), s.view(1)])
    >>> merged["placing"][0]["value"] is not None, len(merged["open_hands"][1])
    (True, 5)
    """
    merged = copy.deepcopy(views[0])
    for i, enc in enumerate(merged["row"]):
        for p, card in enumerate(enc["cards"]):
            if card["value"] is None:
                enc["cards"][p] = copy.deepcopy(views[p]["row"][i]["cards"][p])
    for p, slot in enumerate(merged["placing"]):
        if slot["placed"] and slot["value"] is None:
            merged["placing"][p] = copy.deepcopy(views[p]["placing"][p])
    merged["open_hands"] = [list(v["hand"]) for v in views]
    return merged


def _pending(view: dict[str, Any], lang: str, me: int | None) -> str:
    pend = view.get("pending") or {}
    items = []
    for seat in (0, 1):
        f = forms(seat, me, lang)
        if (pend.get("next_modifier") or [0, 0])[seat]:
            items.append(t("cardia.pending_mod", lang, **f, v=pend["next_modifier"][seat]))
        if (pend.get("librarian") or [0, 0])[seat]:
            items.append(t("cardia.pending_lib", lang, **f))
        if (pend.get("engineer") or [0, 0])[seat]:
            items.append(t("cardia.pending_eng", lang, **f))
        colours = (pend.get("blackmail") or [[], []])[seat]
        if colours:
            names = " / ".join(colour_name(c, lang) for c in colours)
            items.append(t("cardia.pending_bm", lang, **f, colours=names))
    if pend.get("fortune_teller") is not None:
        items.append(t("cardia.pending_ft", lang, **forms(pend["fortune_teller"], me, lang)))
    for n, seat in pend.get("mechanical_djinn") or []:
        items.append(t("cardia.pending_mdj", lang, **forms(seat, me, lang), n=n))
    if not items:
        return ""
    lis = "".join(f"<li>{esc(i)}</li>" for i in items)
    return (f'<section class="pending" aria-label="{esc(t("cardia.pending", lang))}">'
            f'<h3>{esc(t("cardia.pending", lang))}</h3><ul>{lis}</ul></section>')


def prompt(view: dict[str, Any], me: int | None, legal: list[str], sel: dict[str, Any],
           lang: str, waiting_for: str) -> str:
    """What the player at the device is asked now, addressed to them, naming what the
    choice will do (the other side by its seat's name)."""
    if view["phase"] == "over" or (me is None and not waiting_for):
        return ""   # nobody's screen of a replay: nothing to ask, nobody to wait for
    choice = view.get("choice")
    deck = view["deck"]
    if not legal or me is None:
        if not waiting_for:  # nobody to wait for: a replay shown, not played
            return ""
        if choice and choice.get("seat") != me:
            return t("cardia.waiting_choice", lang, who=who(choice["seat"], lang),
                     ability=ability_name(choice.get("ability") or "", lang))
        return t("waiting_for", lang, who=waiting_for)
    other = who(1 - me, lang)
    if choice is None:
        pend = view.get("pending") or {}
        theirs = view["placing"][1 - me]
        if pend.get("fortune_teller") == me:
            return t("cardia.prompt_place_first", lang)
        if theirs.get("face_up") and theirs.get("value") is not None:
            return t("cardia.prompt_place_after", lang, other=other,
                     card=card_name(deck, theirs["value"], lang))
        return t("cardia.prompt_place", lang)
    kind = choice["kind"]
    ability = choice.get("ability") or ""
    if kind == "colour":
        effect = (t(f"cardia.effect.{ability}", lang, other=other)
                  if f"cardia.effect.{ability}" in STRINGS else "")
        return t("cardia.prompt.colour", lang, ability=ability_name(ability, lang),
                 effect=effect)
    if kind == "palace_guard_discard":
        return t("cardia.prompt.palace_guard_discard", lang,
                 colour=colour_name(choice["colour"], lang))
    if kind == "discard":
        return t("cardia.prompt.discard", lang, n=choice.get("count", 1),
                 why=ability_name(choice.get("why") or ability, lang))
    if kind == "successor_keep":
        return t("cardia.prompt.successor_keep", lang, n=choice.get("count", 1))
    if f"cardia.prompt.{kind}" in STRINGS:
        return t(f"cardia.prompt.{kind}", lang)
    return t("cardia.prompt.other", lang, ability=ability_name(ability, lang))


def _hand(view: dict[str, Any], legal: list[str], sel: dict[str, Any], lang: str,
          acting: bool, choice: bool) -> str:
    """The viewer's hand (``choice``: it holds the controls of the current choice)."""
    deck = view["deck"]
    legal_set = set(legal) if acting else set()
    items = []
    for v in view["hand"]:
        cmd, verb = None, ""
        if str(v) in legal_set:
            cmd = f"pick:{v}"
        else:
            for prefix, key in (("x", "cardia.x_verb"), ("k", "cardia.k_verb"),
                                ("u", "cardia.u_verb")):
                if f"{prefix}{v}" in legal_set:
                    cmd, verb = f"act:{prefix}{v}", t(key, lang)
        picked = sel.get("card") == v
        pressed = picked if cmd and cmd.startswith("pick:") else None
        extra = "inhand selected" if picked and cmd else "inhand"
        items.append(_card_face(deck, {"value": v}, lang, cmd=cmd, extra=extra, note=verb,
                                uid=f"ct-h{v}", pressed=pressed))
    title = (t("cardia.hand_of", lang, who=who(view["you"], lang)) if view.get("open_hands")
             else t("cardia.hand", lang))
    mark = " data-choice" if choice else ""
    return (f'<section class="chand" aria-label="{esc(title)}"{mark}>'
            f'<h2>{esc(title)}</h2><div class="cards">{"".join(items)}</div></section>')


def _buttons(view: dict[str, Any], legal: list[str], sel: dict[str, Any], lang: str) -> str:
    """Plain choice buttons (colours, +2/−2, token kind, next card, decline) and Place."""
    deck = view["deck"]
    out = []
    for action in BUTTON_ACTIONS:
        if action not in legal:
            continue
        if action in COLOURS:
            label, cls = colour_name(action, lang), f"colour c-{action}"
        else:
            label = t({"+": "cardia.plus2", "-": "cardia.minus2", "m": "cardia.kind_m",
                       "o": "cardia.kind_o", "n": "cardia.next_card",
                       "pass": "cardia.decline"}[action], lang)
            cls = "choice"
        out.append(f'<button type="button" class="{cls}" data-cmd="act:{esc(action)}">'
                   f'{esc(label)}</button>')
    if any(a.isdecimal() for a in legal):
        card = sel.get("card")
        ok = card is not None and str(card) in legal
        label = (t("cardia.place", lang, card=card_name(deck, card, lang)) if ok
                 else t("cardia.place_none", lang))
        out.append(f'<button type="button" class="primary" data-cmd="confirm"'
                   f'{"" if ok else " disabled"}>{esc(label)}</button>')
    return f'<div class="controls" data-choice>{"".join(out)}</div>' if out else ""


def _results(panels: dict[str, Any], lang: str, me: int | None) -> str:
    """The rounds played so far, each chip saying who won it."""
    chips = []
    for i, r in enumerate(panels.get("results", []), start=1):
        if r is None:
            text = t("cardia.round_void", lang, n=i)
        else:
            text = t("cardia.round_won", lang, n=i, **forms(r, me, lang))
        mine = " mine" if r is not None and r == me else ""
        chips.append(f'<li class="rres{mine}" data-winner="{"" if r is None else r}">'
                     f'{esc(text)}</li>')
    if not chips:
        return ""
    return (f'<ol class="rounds" aria-label="{esc(t("cardia.rounds", lang))}">'
            f'{"".join(chips)}</ol>')


def render_table(view: dict[str, Any], legal: list[str], lang: str, *,
                 events: list[dict[str, Any]], sel: dict[str, Any] | None = None,
                 shown: int | None = None, since: int | None = None,
                 seats: tuple[str, ...] = ("", ""), waiting_for: str = "",
                 before: dict[str, Any] | None = None) -> str:
    """The whole Cardia table for one viewer (``view["you"]``; None = nobody's hand shown).

    During a playback (``shown`` < number of events) the row is the one from ``before``
    the last action with the encounters revealed so far turned up (the one the step is
    about marked ``data-reveal``), the panels count what that row and hand show, and the
    status line words the step on screen; afterwards the row is the view's own, and
    encounters whose signets a re-evaluation moved are marked. The controls of the
    current choice (the hand, the row, the buttons) are marked ``data-choice``.
    """
    sel = sel if sel is not None else new_selection()
    shown = len(events) if shown is None else min(shown, len(events))
    animating = shown < len(events)
    me = view["you"]
    deck = view["deck"]
    bottom = me if me is not None else 0
    top = 1 - bottom
    panels = before if (animating and before is not None) else view
    acting = bool(legal) and not animating and me is not None
    row = _row_from(view, events, shown, since, before)
    if animating and before is not None:
        panels = _playback_counts(panels, events, shown, since, row)
    steps = [e for e in events[since or 0:shown] if e["t"] in STEP_EVENTS] if animating else []
    current = steps[-1] if steps else None
    focus = {current["e"]} if current and isinstance(current.get("e"), int) else set()
    changed = _changed_encounters(events, shown, since)
    loc = view["location"]
    if loc == "none":
        location = ""
        place = f' · {esc(t("cardia.no_location", lang))}'
    else:
        place = ""
        location = (f'<section class="location" data-location="{esc(loc)}" '
                    f'aria-label="{esc(t("cardia.location", lang))}">'
                    f'<h3>{esc(t("cardia.location", lang))}: {esc(LOCATION_NAMES[loc][lang])}</h3>'
                    f'<p>{esc(t(f"cardia.loc.{loc}", lang))}</p></section>')
    header = (f'<div class="chead"><p class="round">'
              f'{esc(t("cardia.round_n", lang, n=panels["round"]))} · '
              f'{esc(t("cardia.deck_label", lang, d=deck))}{place}</p>'
              f'<p class="match">{esc(t("cardia.match", lang, a=panels["wins"][0], b=panels["wins"][1]))}'
              f'</p>{_results(panels, lang, me)}</div>')
    row_choice = acting and any(f"{enc['n']}{SEAT_LETTER[s]}" in legal
                                for enc in row for s in (0, 1))
    encounters = _row(view, row, lang, me, legal, changed if not animating else set(), focus,
                      animating)
    if not animating and view["phase"] != "over":
        encounters += _placing(view, lang, me, sel)
    if not encounters:
        encounters = f'<li class="enc empty-row">{esc(t("cardia.empty_row", lang))}</li>'
    if animating:
        ask = describe(current, lang, view) if current else t("cardia.resolving", lang)
    else:
        ask = prompt(view, me, legal, sel, lang, waiting_for)
    moved = " has-changed" if changed and not animating else ""
    parts = [
        header, location,
        _panel(panels, top, lang, seats[top] if top < len(seats) else "", me, "top"),
        f'<section class="encounters" tabindex="0" aria-label="{esc(t("cardia.row", lang))}"'
        f'{" data-choice" if row_choice else ""}>'
        f'<ol class="erow{moved}">{encounters}</ol></section>',
        _pending(panels, lang, me),
        f'<p class="prompt" role="status" aria-live="polite" data-status>{esc(ask)}</p>',
    ]
    if animating:
        # The one thing to do during a playback: watch it, or skip it.
        parts.append(f'<div class="controls" data-choice><button type="button" data-cmd="skip">'
                     f'{esc(t("skip", lang))}</button></div>')
    elif acting:
        parts.append(_buttons(view, legal, sel, lang))
    if me is not None and view["phase"] != "over":
        hand_view = view
        if animating and before is not None:  # the hand from before, less what was placed
            gone = {e["card"] for e in events[since or 0:shown]
                    if e["t"] == "place" and e.get("p") == me and "card" in e}
            hand_view = dict(before, hand=[v for v in before["hand"] if v not in gone])
        legal_set = set(legal) if acting else set()
        hand_choice = any(str(v) in legal_set or any(f"{x}{v}" in legal_set for x in "xku")
                          for v in hand_view["hand"])
        # Nothing to choose (the other side is choosing): the hand is what comes next.
        waiting = not acting and not animating
        parts.append(_hand(hand_view, legal, sel, lang, acting, hand_choice or waiting))
    parts.append(_panel(panels, bottom, lang, seats[bottom] if bottom < len(seats) else "", me,
                        "bottom"))
    kind = (view.get("choice") or {}).get("kind", "")
    return (f'<div class="cardia" data-phase="{view["phase"]}" data-round="{panels["round"]}" '
            f'data-kind="{esc(kind)}">{"".join(parts)}</div>')


def rules_html(lang: str) -> str:
    """The rules summary, then every card of both decks and every location, in our words."""
    parts = [t("cardia.rules_html", lang)]
    for deck in ("I", "II"):
        items = "".join(
            f'<li><b>{v} {esc(card_name(deck, v, lang))}</b>'
            f'{" (" + esc(t("cardia.ongoing", lang)) + ")" if v in ONGOING[deck] else ""}: '
            f'{esc(t(f"cardia.card.{deck}.{v}", lang))}</li>' for v in range(1, 17))
        parts.append(f'<h4>{esc(t("cardia.deck_label", lang, d=deck))}</h4><ul>{items}</ul>')
    locs = "".join(f'<li><b>{esc(LOCATION_NAMES[k][lang])}</b>: {esc(t(f"cardia.loc.{k}", lang))}</li>'
                   for k in LOCATION_NAMES if f"cardia.loc.{k}" in STRINGS)
    parts.append(f'<h4>{esc(t("cardia.location", lang))}</h4><ul>{locs}</ul>')
    return "".join(parts)


# -- the lobby tile (pgui.lobby) ------------------------------------------------------------

#: How long a game takes, in minutes (the lobby tile says it).
PLAY_TIME = (15, 25)


def _help(en: str, ja: str) -> dict[str, str]:
    return {"en": en, "ja": ja}


#: The lobby's word for each option value (our own words, from the rules).
OPTION_HELP = {
    "deck": {
        "I": _help("Straightforward abilities: the deck to learn the game with.",
                   "素直な能力のカードばかり。最初はこちらで。"),
        "II": _help("Trickier abilities that copy, swap and move influence: for players who "
                    "know deck I.",
                    "能力のコピーや入れ替え、影響力の移動など、ひねりの効いたデッキ。Iに慣れてから。"),
    },
    "location": {
        "none": _help("The plain game: no extra rule.", "追加ルールなしの基本のゲーム。"),
        "serpent_temple": _help(
            "Light. Winning back an earlier encounter lets you draw a card and makes your "
            "opponent throw one away.",
            "軽め。前の戦闘を取り返すと1枚引け、相手は1枚捨てます。"),
        "bazaar": _help(
            "Light. No draw after an encounter; instead, whoever is down to one card or none "
            "draws four.",
            "軽め。戦闘後のドローはなく、手札が1枚以下になったら4枚引きます。"),
        "founders_day": _help(
            "Light. Hold the signets of three encounters side by side and the round is yours "
            "at once.",
            "軽め。隣り合う3つの戦闘のシグネットを取れば、そのラウンドは即座に勝ち。"),
        "grand_library": _help(
            "Medium. Hands start at two cards, but you draw two after every encounter.",
            "中くらい。手札は2枚から始まりますが、戦闘ごとに2枚引きます。"),
        "scrapyard": _help(
            "Medium. Draw two after every encounter, then tuck one card of your hand under "
            "your deck.",
            "中くらい。戦闘ごとに2枚引き、手札から1枚を山札の下に戻します。"),
        "auction_house": _help(
            "Medium. Play weaker than your last card and the top card of your deck is lost.",
            "中くらい。直前の自分のカードより弱いカードを出すと、山札の一番上を失います。"),
        "haunted_catacombs": _help(
            "Harsh. Play the same colour as your last card and you lose the round on the spot.",
            "厳しめ。直前の自分のカードと同じ色を出すと、その場でラウンドの負け。"),
        "foggy_swamp": _help(
            "Harsh. Cards go down face down; each new card uncovers and settles the "
            "encounter before it.",
            "厳しめ。カードは裏向きで出し、次のカードを出すたびに一つ前の戦闘が明かされて決着します。"),
        "random": _help("One of the eight, drawn with the deal; the table shows which.",
                        "8つのうち1つを配札と一緒に決めます。どれになったかはテーブルに表示されます。"),
    },
}


def thumbnail(lang: str) -> str:
    """The lobby tile's picture: the encounter row a few encounters into a round (static
    SVG, drawn from the engine's public view; the same in both languages)."""
    import pygames

    state = pygames.get_game("cardia").new_game(seed=11)
    while len(state.view(None)["row"]) < 4 and not state.is_over():
        for p in state.to_move():
            legal = state.legal_actions(p)
            state.apply(p, legal[(len(legal) - 1) * p])
    colours = {"G": "#2f6b3a", "Y": "#8a6a00", "R": "#a3302a", "B": "#2a5a9c"}
    out = ['<svg viewBox="0 0 300 150" focusable="false" font-family="system-ui, sans-serif">']
    for i, enc in enumerate(state.view(None)["row"][:4]):
        x = 12 + i * 72
        for seat, y in ((1, 4), (0, 78)):  # the opponent above, you below
            card = enc["cards"][seat]
            out.append(f'<rect x="{x}" y="{y}" width="60" height="68" rx="7" fill="#fffdf8" '
                       f'stroke="#3b352c" stroke-width="1.5"/>'
                       f'<path d="M{x} {y + 7}a7 7 0 0 1 7-7h46a7 7 0 0 1 7 7v5h-60z" '
                       f'fill="{colours[colour_of(card["value"])]}"/>'
                       f'<text x="{x + 30}" y="{y + 48}" font-size="26" font-weight="700" '
                       f'fill="#1f1d1a" text-anchor="middle">{card["influence"]}</text>')
            if card["signets"]:
                out.append(f'<circle cx="{x + 52}" cy="{y + 60}" r="5" fill="#c98414"/>')
    out.append("</svg>")
    return "".join(out)
