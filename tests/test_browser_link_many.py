"""Link play with several friends in real Chromium: the host and two friends, each in a
browser context of its own (three people), over real WebRTC data channels signaled through
the relay of ``python build.py serve``; a bot plays a seat on the host's page. Everyone
plays only by clicking their own screen, one friend's page is reloaded mid-game, and every
friend's page ends verified.

The game is one for more than two: Electors, and Tiny Duel (tests/tinygame, a test game for
2-4) plugged into the served app for this test only: the page's ``runtime.json`` gains its
files and ``worker.py`` registers it, as tests/test_plugin.py does in CPython.
"""

from __future__ import annotations

import json
import random
import re
from urllib.parse import parse_qsl

import pytest
from helpers.browser import (
    click_a_move,
    link_record,
    over,
)
from playwright.sync_api import BrowserContext, Page

import pygames
from tools.paths import ROOT

PERMS = ["camera", "microphone"]
TINY = ROOT / "tests" / "tinygame"
#: (game, players, seats, options): the host, two friends by link and a bot. Electors with
#: a round limit of 10, which ends the game at half its length (~180 actions at four, not
#: ~370: the limit is the spec's own end, and it proves options travel to every friend);
#: Tiny Duel, whose moves are simultaneous, as a game plugged in from outside.
CASES = [("electors", 4, "you,link,easy,link", "&round_limit=10"),
         ("tiny", 4, "you,link,easy,link", "")]


def plug_tiny(ctx: BrowserContext) -> None:
    """Serve Tiny Duel to this context's pages: its files in the worker's file system and
    registered before the worker opens a table."""
    files = {f"./tinygame/{p.name}": f"./tinygame/{p.name}" for p in TINY.glob("*.py")}

    def config(route):
        data = json.loads(route.fetch().text())
        data["files"].update(files)
        route.fulfill(body=json.dumps(data), content_type="application/json")

    def worker(route):
        text = route.fetch().text()
        route.fulfill(body=("import pygames, pgui\n"
                            "pygames.register('tiny', 'tinygame', 'TinyGame')\n"
                            "pgui.register_ui('tiny', 'tinygame.ui')\n" + text),
                      content_type="text/x-python")

    ctx.route(re.compile(r".*/runtime\.json(\?.*)?$"), config)
    ctx.route(re.compile(r".*/worker\.py(\?.*)?$"), worker)
    ctx.route(re.compile(r".*/tinygame/\w+\.py$"), lambda route: route.fulfill(
        body=(TINY / route.request.url.rsplit("/", 1)[1]).read_text(encoding="utf-8"),
        content_type="text/x-python"))


def peer_state(page: Page, seat: int | None = None) -> str:
    name = "peer" if seat is None else f"peer-{seat}"
    return page.evaluate(f"document.documentElement.getAttribute('data-{name}') || ''")


def wait_peer(page: Page, state: str, seat: int | None = None, timeout: float = 30_000) -> None:
    name = "data-peer" if seat is None else f"data-peer-{seat}"
    page.wait_for_function(
        f"document.documentElement.getAttribute({name!r}) === {state!r}", timeout=timeout)


@pytest.mark.parametrize("gid,players,seats,options", CASES)
def test_friends_and_a_bot_play_a_whole_game_by_clicking(new_context, gid, players, seats,
                                                         options):
    """The host opens a table with friends by link and a bot; each friend opens their own
    seat's invite in their own browser and presses Join; all click until the game is over,
    one friend's page reloading in the middle (it comes back to its seat); each friend's
    page says "Verified" and holds the host's record."""
    if gid == "tiny" and "tiny" in pygames.game_ids():
        pytest.skip("tiny is registered in this process: the plugged-in case is for the app")
    if gid != "tiny" and gid not in pygames.game_ids():
        pytest.skip(f"{gid} is not in the registry yet")
    rng = random.Random(f"{gid}{players}")
    friends = [p for p, k in enumerate(seats.split(",")) if k == "link"]
    bots = [p for p, k in enumerate(seats.split(",")) if k not in ("you", "link")]
    contexts = [new_context(permissions=PERMS) for _ in range(1 + len(friends))]
    if gid == "tiny":
        for ctx in contexts:
            plug_tiny(ctx)
    host = contexts[0].new_page()
    host.goto(f"/play.html?game={gid}&players={players}&seats={seats}&lang=en&speed=0{options}")
    host.wait_for_selector(f"[data-invite-{friends[0]}]")
    invites = {s: host.locator(f"[data-invite-{s}]").get_attribute("href") for s in friends}
    assert host.locator("[data-invite]").count() == (1 if len(friends) == 1 else 0)
    for seat, url in invites.items():
        assert "#r=" in url and f"&s={seat}" in url
        assert peer_state(host, seat) == "waiting"
    assert host.locator(".qr svg").count() == len(friends)
    guests: dict[int, Page] = {}
    urls = {}
    for ctx, seat in zip(contexts[1:], friends, strict=True):
        page = ctx.new_page()
        urls[seat] = invites[seat].replace("#", "&speed=0#", 1)
        page.goto(urls[seat])
        page.locator('[data-cmd="join"]').click()
        guests[seat] = page
    for seat, page in guests.items():
        wait_peer(page, "connected")
        wait_peer(host, "connected", seat)
        page.wait_for_selector("#app .main")
    host.wait_for_selector("#app .main")
    assert guests[friends[0]].locator("[data-record]").count() == 0  # no record during play
    pages = [host, *guests.values()]
    reloaded = False
    for _ in range(6000):
        if all(over(p) for p in pages):
            break
        acted = False
        for page in pages:
            if click_a_move(page, rng):
                acted = True
        if not reloaded and len(link_record(host)["actions"]) >= 2 * players:
            # One friend's page reloads mid-game: it comes back to its seat by itself.
            seat = friends[-1]
            before = link_record(host)
            guests[seat].reload()
            wait_peer(guests[seat], "connected")
            guests[seat].wait_for_selector("#app .main")
            wait_peer(host, "connected", seat)
            after = link_record(host)
            assert after["actions"][:len(before["actions"])] == before["actions"]
            reloaded = True
        if not acted:
            host.wait_for_timeout(50)
    else:
        raise AssertionError("the game did not end by clicking")
    assert reloaded
    hrec = link_record(host)
    assert hrec["game"] == gid and hrec["players"] == players
    for seat, page in guests.items():
        page.wait_for_selector('.verdict[data-verdict="ok"]', timeout=30_000)
        assert link_record(page) == hrec
        assert peer_state(page) == "connected"
        assert peer_state(host, seat) == "connected"
    for bot in bots:   # the bot's seat played, on the host
        assert any(s == bot for s, _ in hrec["actions"])
    if gid != "tiny":
        assert pygames.get_game(gid).from_record(hrec).is_over()
    for name, value in parse_qsl(options.lstrip("&")):
        assert str(hrec["options"][name]) == value, name
