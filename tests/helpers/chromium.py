"""Which Chromium the tests launch, and with which flags (conftest.py's browser fixtures
and netlab.py's browsers in a network namespace)."""

from __future__ import annotations

import os
from pathlib import Path

from tools import chromium

# The launch flags that work on these machines are defined once, in tools/chromium.py (the
# bench uses them too); "--headless" is added by the launcher only when the run is headless.
CHROMIUM_ARGS = [f for f in chromium.FLAGS if f != "--headless"]


def chromium_executable() -> str | None:
    """$PYGAMES_CHROMIUM ("" = Playwright's own), else $CHROMIUM, else /usr/bin/chromium."""
    if chromium.ENV in os.environ:
        return os.environ[chromium.ENV] or None
    for candidate in (os.environ.get("CHROMIUM"), "/usr/bin/chromium"):
        if candidate and Path(candidate).is_file():
            return candidate
    return None
