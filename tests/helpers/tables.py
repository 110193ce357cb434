"""Clicking at a table in CPython (``pgui.table.Table``, ``pgui.link.LinkTable``): the
commands a random clicker leaves alone, and the buttons a screen offers."""

from __future__ import annotations

import re
from html import unescape

#: Commands a random clicker leaves alone: they leave the game (or its language), not play
#: it. The browser's clickers leave more alone (helpers/browser.py).
NOT_PLAY = ("lang:", "rematch", "dismiss")
#: At a link-play table also the guest's move to another browser (it leaves the seat) and
#: the host's giving a gone friend's seat to a bot (it changes who plays).
NOT_PLAY_AT_LINK = (*NOT_PLAY, "move_seat", "seat_bot:")


def enabled_commands(html: str) -> list[str]:
    """The ``data-cmd`` of every enabled button of ``html``, in order."""
    cmds = []
    for tag in re.findall(r"<button\b[^>]*>", html):
        m = re.search(r'data-cmd="([^"]*)"', tag)
        if m and " disabled" not in tag:
            cmds.append(unescape(m.group(1)))  # as the browser reads it (S&gt;w: S>w)
    return cmds
