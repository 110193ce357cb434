"""What marks a test, read by conftest.py (which marks them) and test_layout.py (which
checks the files keep to it).

- ``browser``: the test drives Chromium. Every such test lives in a ``test_browser_*.py``
  file, and such a file holds only such tests; a test that takes a Playwright fixture
  (:data:`BROWSER_FIXTURES`) is one too, wherever it is (test_layout.py says where it
  belongs).
- ``dist``: the test needs the built dist/, served (:data:`DIST_FIXTURES`) or read by its
  module (:data:`DIST_MODULES`).

``python build.py test --quick`` runs ``-m "not browser and not dist"``: every CPython test
that needs neither Chromium nor a build.
"""

from __future__ import annotations

from pathlib import Path

#: pytest-playwright's fixtures (conftest.py wraps ``new_context``): a test that takes one,
#: directly or through a fixture, drives Chromium.
BROWSER_FIXTURES = frozenset({
    "page",
    "context",
    "new_context",
    "browser",
    "browser_type",
    "launch_browser",
    "playwright",
})
#: Fixtures that need the built dist/ (served, or read): their tests get the ``dist`` marker.
DIST_FIXTURES = frozenset({"server_url", "base_url", "dist"})
#: Test modules (file names) whose tests read dist/ without a fixture.
DIST_MODULES = frozenset({"test_build.py", "test_offline.py"})


def is_browser_file(path: str | Path) -> bool:
    """A module of Chromium tests, by its name: ``test_browser_*.py``."""
    name = Path(path).name
    return name.startswith("test_browser_") and name.endswith(".py")
