"""Reading the HTML pgui renders, in CPython: elements by a snippet of their opening tag,
tags and their attributes, the visible text, the buttons."""

from __future__ import annotations

import re
from html.parser import HTMLParser


def outer(html: str, snippet: str, start: int = 0) -> str | None:
    """The first element (from ``start``) whose opening tag contains ``snippet``."""
    for m in re.finditer(r"<(\w+)[^>]*>", html[start:]):
        if snippet not in m.group(0):
            continue
        tag, begin = m.group(1), start + m.start()
        depth = 0
        for n in re.finditer(rf"<(/?){tag}\b[^>]*>", html[begin:]):
            depth += -1 if n.group(1) else 1
            if depth == 0:
                return html[begin:begin + n.end()]
        raise AssertionError(f"unclosed <{tag}> for {snippet!r}")
    return None


def all_outer(html: str, snippet: str) -> list[str]:
    """Every element whose opening tag contains ``snippet``."""
    found, pos = [], 0
    while True:
        i = html.find(snippet, pos)
        if i < 0:
            return found
        tag_start = html.rfind("<", 0, i)
        el = outer(html, snippet, tag_start)
        assert el is not None
        found.append(el)
        pos = i + len(snippet)


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))

    def handle_startendtag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data):
        self.text.append(data)


def tags(html: str) -> list[tuple[str, dict[str, str | None]]]:
    """Every opening tag, as (name, attributes)."""
    p = _Tags()
    p.feed(html)
    return p.tags


def visible_text(html: str) -> str:
    p = _Tags()
    p.feed(html)
    return " ".join(p.text)


def buttons(html: str) -> dict[str, bool]:
    """data-cmd -> enabled, for every button on the page."""
    out: dict[str, bool] = {}
    for tag, attrs in tags(html):
        if tag == "button" and attrs.get("data-cmd") is not None:
            out[attrs["data-cmd"]] = "disabled" not in attrs
    return out
