"""Tiny Duel's table: the UI module interface of :mod:`pgui.table`, nothing more."""

from __future__ import annotations

from typing import Any

from pgui.i18n import esc, t

STRINGS = {
    "tiny.you_hold": {"en": "Your cards", "ja": "あなたのカード"},
    "tiny.pick": {"en": "Choose a card", "ja": "カードを選んでください"},
    "tiny.round": {"en": "Round {n} for {prize} points", "ja": "第{n}ラウンド（{prize}点）"},
    "tiny.chose": {"en": "{who} chose a card", "ja": "{who}がカードを選びました"},
    "tiny.reveal": {"en": "Revealed: {a} against {b}", "ja": "公開：{a} 対 {b}"},
    "tiny.p0": {"en": "Player 1", "ja": "プレイヤー1"},
    "tiny.p1": {"en": "Player 2", "ja": "プレイヤー2"},
    "tiny.p2": {"en": "Player 3", "ja": "プレイヤー3"},
    "tiny.p3": {"en": "Player 4", "ja": "プレイヤー4"},
    "tiny.reveal_n": {"en": "Revealed: {cards}", "ja": "公開：{cards}"},
    "tiny.score_n": {"en": "Points {scores}", "ja": "得点 {scores}"},
    "tiny.points": {"en": "Most points", "ja": "得点が多い"},
    "tiny.rules": {"en": "Both choose a card at once; the higher takes the prize.",
                   "ja": "同時にカードを選び、大きい方が賞品を取ります。"},
    "tiny.score": {"en": "Points {a} : {b}", "ja": "得点 {a} : {b}"},
}
BLURB = {"en": "A three-card duel (a test game).", "ja": "三枚のカードの決闘（テスト用）。"}
STEP_EVENTS = {"reveal"}


def new_selection() -> dict[str, Any]:
    return {}


def handle(cmd: str, sel: dict[str, Any], legal: list[str],
           view: dict[str, Any]) -> str | None:
    card = cmd.removeprefix("card:")
    return card if cmd.startswith("card:") and card in legal else None


def who(seat: int, lang: str) -> str:
    return t(f"tiny.p{seat}", lang)


def describe(event: dict[str, Any], lang: str, view: dict[str, Any] | None = None) -> str:
    if event["t"] == "round":
        return t("tiny.round", lang, n=event["n"], prize=event["prize"])
    if event["t"] == "chose":
        return t("tiny.chose", lang, who=who(event["p"], lang))
    if len(event["cards"]) != 2:
        return t("tiny.reveal_n", lang, cards=" / ".join(map(str, event["cards"])))
    a, b = event["cards"]
    return t("tiny.reveal", lang, a=a, b=b)


def result_reason(outcome: dict[str, Any], lang: str) -> str:
    return t("tiny.points", lang)


def rules_html(lang: str) -> str:
    return f"<p>{esc(t('tiny.rules', lang))}</p>"


def step_delay(event: dict[str, Any], speed: int) -> int:
    return speed


def render_table(view: dict[str, Any], legal: list[str], lang: str, *,
                 events: list[dict[str, Any]], sel: dict[str, Any] | None = None,
                 shown: int | None = None, since: int | None = None,
                 seats: tuple[str, ...] = ("", ""), waiting_for: str = "",
                 before: dict[str, Any] | None = None) -> str:
    me = view["you"]
    if len(view["scores"]) == 2:
        a, b = view["scores"]
        score = t("tiny.score", lang, a=a, b=b)
    else:
        score = t("tiny.score_n", lang, scores=" : ".join(map(str, view["scores"])))
    buttons = "".join(
        f'<button type="button" data-cmd="card:{esc(c)}"{"" if c in legal else " disabled"}>'
        f"{esc(c)}</button>" for c in (view["hands"][me] if me is not None else []))
    prompt = esc(t("tiny.pick", lang)) if legal else esc(waiting_for)
    return (f'<div class="tiny"><p class="prompt" role="status" data-status>{prompt}</p>'
            f'<p>{esc(score)}</p>'
            f'<div role="group" aria-label="{esc(t("tiny.you_hold", lang))}">{buttons}</div>'
            f"</div>")


# -- the lobby tile: the hooks pgui.lobby requires ------------------------------------------
PLAY_TIME = (1, 2)


def thumbnail(lang: str) -> str:
    """Three cards, face up."""
    cards = "".join(f'<rect x="{40 + 80 * i}" y="20" width="60" height="90" rx="8" fill="#fffdf8" '
                    f'stroke="#3b352c"/><text x="{70 + 80 * i}" y="75" font-size="32" '
                    f'text-anchor="middle">{i + 1}</text>' for i in range(3))
    return (f'<svg viewBox="0 0 300 130" focusable="false" '
            f'font-family="system-ui, sans-serif">{cards}</svg>')
