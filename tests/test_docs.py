"""The rules pages (tools/docsbuild.py, docs/): one per game and language, live boards that
replay, records.json up to date, the lobby's links. CPython only, no browser."""

from __future__ import annotations

import json
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

import pygames
from tools import docsbuild
from tools.paths import ROOT

LANGS = ("ja", "en")
PERSPECTIVES = {"0", "1", "spectator", "open"}


class Page(HTMLParser):
    """What the tests look at in one page: tags with their attributes, headings, text."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str]]] = []
        self.headings: list[int] = []
        self.title = ""
        self._in_title = False
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, {k: v or "" for k, v in attrs}))
        if tag in ("h1", "h2", "h3", "h4", "h5", "h6"):
            self.headings.append(int(tag[1]))
        self._in_title = tag == "title"

    def handle_endtag(self, tag):
        if tag == "title":
            self._in_title = False

    def handle_data(self, data):
        if self._in_title:
            self.title += data

    def all(self, tag: str) -> list[dict[str, str]]:
        return [a for t, a in self.tags if t == tag]


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("docs")
    docsbuild.build_docs(out)
    return out


def _page(built: Path, rel: str) -> Page:
    return Page((built / rel).read_text(encoding="utf-8"))


def _embeds(built: Path):
    for lang in LANGS:
        for gid in pygames.game_ids():
            for frame in _page(built, f"{lang}/{gid}.html").all("iframe"):
                yield lang, gid, frame


def test_every_game_has_a_page_in_both_languages(built):
    for gid in pygames.game_ids():
        for lang in LANGS:
            page = _page(built, f"{lang}/{gid}.html")
            assert page.all("html")[0]["lang"] == lang
            assert pygames.get_game(gid).names[lang].split(":")[0] in page.title
            assert page.headings.count(1) == 1 and page.headings[0] == 1
            # No heading level is skipped (h1 -> h3).
            assert all(b - a <= 1 for a, b in zip(page.headings, page.headings[1:], strict=False))
            assert page.all("main") and page.all("nav")
            hrefs = {a["href"] for a in page.all("a")}
            other = "en" if lang == "ja" else "ja"
            assert "../../index.html" in hrefs  # back to the app
            assert f"../{other}/{gid}.html" in hrefs  # the other language
            assert "../index.html" in hrefs
            assert len(page.all("iframe")) >= 3


def test_index_lists_every_page(built):
    page = _page(built, "index.html")
    assert page.all("html")[0]["lang"] == "ja" and page.title
    hrefs = {a["href"] for a in page.all("a")}
    for gid in pygames.game_ids():
        for lang in LANGS:
            assert f"./{lang}/{gid}.html" in hrefs
    assert {s.get("lang") for s in page.all("section")} == set(LANGS)


def test_embeds_are_titled_sized_and_lazy(built):
    seen = 0
    for _lang, _gid, frame in _embeds(built):
        seen += 1
        assert frame["title"].strip()
        assert frame["loading"] == "lazy"
        assert int(frame["height"]) >= 240  # the fallback when no script sizes it
        assert "width:100%" in frame["style"] and "border:0" in frame["style"]
        path = urlsplit(frame["src"]).path
        assert path == f"./board-{frame['id'].removeprefix('board-')}.html", path
    assert seen >= 2 * 3 * len(pygames.game_ids())


def test_each_board_page_holds_its_first_frame_before_python_starts(built):
    """A board's page is the embed page with its first frame already drawn (by the app's
    own renderer, the frame Python draws first), in the page's language, with the game's
    stylesheet and no Python of its own (glue.js starts the shared worker)."""
    from pgui.session_glue import Session

    for lang, _gid, frame in _embeds(built):
        src = urlsplit(frame["src"])
        text = (built / lang / src.path.removeprefix("./")).read_text(encoding="utf-8")
        page = Page(text)
        assert page.all("html")[0]["lang"] == lang
        assert page.all("html")[0]["data-page"] == "embed"
        (app,) = [a for a in page.all("div") if a.get("id") == "app"]
        assert app.get("data-static") == "true" and "hidden" not in app
        live = Session().open("mode=replay&embed=on&" + src.query, nav_lang=lang,
                              page="../../play.html")
        assert live["html"] in text  # exactly what Python draws first
        assert f'href="../../{live["css"].removeprefix("./")}"' in text
        scripts = {a.get("src") for a in page.all("script")}
        assert "../../glue.js" in scripts and not any(a.get("type") == "py"
                                                      for a in page.all("script"))


def test_every_embed_record_decodes_and_replays(built):
    records = pytest.importorskip("pygames.records")
    for lang, gid, frame in _embeds(built):
        query = parse_qs(urlsplit(frame["src"]).query, strict_parsing=True)
        params = {k: v[0] for k, v in query.items()}
        assert params["game"] == gid
        assert params["lang"] == lang
        assert params["perspective"] in PERSPECTIVES
        assert params["controls"] in ("on", "off")
        assert params["moves"] in ("off", "right", "bottom")
        assert params["theme"] in ("light", "dark", "auto")
        assert params["interactive"] in ("on", "off")
        record = records.from_string(params["record"])
        assert record["game"] == gid
        state = pygames.get_game(gid).from_record(record)
        assert state.record()["actions"] == record["actions"]
        # The embed opens everything only for a finished game (else: a spectator's view).
        assert params["perspective"] != "open" or state.is_over()
        ply = params["ply"]
        assert ply == "last" or 0 <= int(ply) <= len(record["actions"])


def test_boards_show_what_their_captions_say():
    """Each event board opens right after the event it is about."""
    boards = docsbuild.load_boards()
    kinds = {"kiriai-counter": "counter", "cardia-ongoing": "token",
             "cardia-reeval": "signets", "canosa-ring": "give", "canosa-attack": "place",
             "kiriai-movement": "move", "artofwar-capture": "capture",
             "artofwar-wizard": "cancel"}
    for name, kind in kinds.items():
        board = boards[name]
        game = pygames.get_game(board["game"])
        record = dict(board["record"])
        assert board["ply"] == len(record["actions"])
        before = game.from_record({**record, "actions": record["actions"][:-1]})
        after = game.from_record(record)
        new = after.log[len(before.log):]
        assert any(e["t"] == kind for e in new), name
    for name in ("kiriai-game", "cardia-game", "canosa-game"):
        state = pygames.get_game(boards[name]["game"]).from_record(boards[name]["record"])
        assert state.is_over() and boards[name]["ply"] == 0


def test_every_board_is_shown_and_every_shown_board_exists():
    boards = set(docsbuild.load_boards())
    used = set()
    for lang in LANGS:
        for gid in pygames.game_ids():
            text = (docsbuild.PAGES / lang / f"{gid}.html").read_text(encoding="utf-8")
            names = set(docsbuild._BOARD.findall(text))
            used |= {n for n, _title in names}
            assert {n for n, _t in names} <= boards
            assert all(n.startswith(gid + "-") for n, _t in names)
    assert used == boards


def test_records_json_is_what_make_records_makes():
    result = subprocess.run([sys.executable, "-m", "tools.records", "--check"],
                            capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 0, result.stderr
    data = json.loads((ROOT / "docs" / "records.json").read_text(encoding="utf-8"))
    for board in data["boards"].values():
        pygames.get_game(board["game"]).from_record(board["record"])


def test_only_relative_urls(built):
    for path in sorted(built.rglob("*")):
        if path.is_file():
            text = path.read_text(encoding="utf-8")
            assert "http://" not in text and "https://" not in text, path
            page = Page(text) if path.suffix == ".html" else None
            if page:
                for _tag, attrs in page.tags:
                    for key in ("href", "src"):
                        if key in attrs:
                            assert not attrs[key].startswith(("//", "/")), (path, attrs[key])
                            assert ":" not in attrs[key].split("?")[0], (path, attrs[key])


def test_height_messages_are_listened_to(built):
    text = (built / "en" / "kiriai.html").read_text(encoding="utf-8")
    assert "pygames:height" in text and "contentWindow === event.source" in text


def test_build_docs_writes_only_what_changed(tmp_path):
    paths = docsbuild.build_docs(tmp_path)
    boards = {f"{lang}/board-{name}.html" for lang in LANGS for gid in pygames.game_ids()
              for name in docsbuild.board_titles(
                  (docsbuild.PAGES / lang / f"{gid}.html").read_text(encoding="utf-8"))}
    assert boards
    assert sorted(p.relative_to(tmp_path).as_posix() for p in paths) == sorted(
        ["docs.css", "index.html", *boards] + [f"{lang}/{gid}.html" for lang in LANGS
                                               for gid in pygames.game_ids()])
    stamps = {p: p.stat().st_mtime_ns for p in paths}
    (tmp_path / "docs.css").write_text("stale", encoding="utf-8")
    docsbuild.build_docs(tmp_path)
    for p in paths:
        if p.name != "docs.css":
            assert p.stat().st_mtime_ns == stamps[p]
    assert (tmp_path / "docs.css").read_text(encoding="utf-8") == docsbuild.CSS


def test_lobby_links_every_rules_page(built):
    from pgui.lobby import render_lobby

    page = Page(render_lobby())
    links = {(a["href"], a.get("lang")) for a in page.all("a")}
    for gid in pygames.game_ids():
        for lang in LANGS:
            assert (f"./docs/{lang}/{gid}.html", lang) in links
            assert (built / lang / f"{gid}.html").is_file()
