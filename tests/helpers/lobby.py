"""The lobby's tiles, as a player uses them: a game's settings dialog (mode, bot, seat,
options) opened with the tile's Change, choices checked, closed with Done; the tile's Play
is then pressed by the test."""

from __future__ import annotations

from playwright.sync_api import Locator, Page, expect


def choose(page: Page, gid: str, **choices: str) -> Locator:
    """Open ``gid``'s settings, check each ``name=value`` (e.g. ``mode="hotseat"``,
    ``deck="II"``), press Done; returns the game's tile."""
    card = page.locator(f"#game-{gid}")
    card.locator("button.setup").click()
    panel = card.locator("dialog.setup-panel")
    expect(panel).to_be_visible()
    for name, value in choices.items():
        panel.locator(f'input[name="{name}"][value="{value}"]').check()
    panel.locator("button.done").click()
    expect(panel).to_be_hidden()
    return card


def plays_off_screen(page: Page, first_only: bool = False) -> list[str]:
    """Each game's Play button (the first game's only, with ``first_only``) that is not
    wholly inside the viewport as the lobby opens, unscrolled: ``"<id>: top-bottom"``."""
    return page.evaluate("""(firstOnly) => {
        scrollTo(0, 0);
        const plays = [...document.querySelectorAll("button.play[data-play]")];
        return plays.slice(0, firstOnly ? 1 : plays.length).filter(b => {
            const r = b.getBoundingClientRect();
            return r.height === 0 || r.top < 0 || r.left < 0 || r.bottom > innerHeight ||
                r.right > innerWidth;
        }).map(b => {
            const r = b.getBoundingClientRect();
            return `${b.dataset.play}: ${Math.round(r.top)}-${Math.round(r.bottom)}`;
        });
    }""", first_only)
