"""The tests are laid out like the code (issue 19), checked on the files' syntax trees
(fast, no pytest run):

- what test modules share is in tests/helpers/ (or conftest.py's fixtures): no test module
  or helper imports a test module or conftest;
- Chromium tests and CPython tests apart, by one rule (helpers/marks.py): a test that takes
  a Playwright fixture is in a ``test_browser_*.py`` file, and such a file holds nothing
  else, so the quick lane (``-m "not browser and not dist"``) runs every CPython test;
- no Python file of the repository edits ``sys.path`` (pyproject.toml's pytest
  ``pythonpath`` and .venv's .pth file make everything importable);
- each game's tests are together, in a folder named after it (no ``__init__.py``: test
  file names are unique across tests/, as pytest's default import mode needs).
"""

from __future__ import annotations

import ast
import shutil
import subprocess
from collections import Counter
from functools import cache
from pathlib import Path

import pytest
from helpers.marks import BROWSER_FIXTURES, is_browser_file

import pygames
from tools.paths import ROOT

TESTS = ROOT / "tests"
SKIP_DIRS = {"__pycache__", "fixtures", "golden"}


def python_files(under: Path = TESTS) -> list[Path]:
    return sorted(p for p in under.rglob("*.py")
                  if not SKIP_DIRS & set(p.relative_to(under).parts))


def is_test_module(path: Path) -> bool:
    return path.name.startswith("test_") and path.suffix == ".py"


@cache
def tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


def rel(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


# --------------------------------------------------------------------------- (a) imports


def imported_modules(module: ast.Module) -> list[tuple[int, str]]:
    """(line, dotted name) of everything ``module`` imports, at any depth: ``import a.b``,
    ``from a import b`` (both ``a`` and ``a.b``), ``importlib.import_module("a")``."""
    out = []
    for node in ast.walk(module):
        if isinstance(node, ast.Import):
            out += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = "." * node.level + (node.module or "")
            out.append((node.lineno, base))
            out += [(node.lineno, f"{base}.{alias.name}".lstrip(".")) for alias in node.names]
        elif (isinstance(node, ast.Call) and node.args
              and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)
              and (isinstance(node.func, ast.Attribute) and node.func.attr == "import_module"
                   or isinstance(node.func, ast.Name)
                   and node.func.id in ("import_module", "__import__"))):
            out.append((node.lineno, node.args[0].value))
    return out


def names_a_test_module(dotted: str) -> bool:
    return any(part == "conftest" or part.startswith("test_") for part in dotted.split("."))


def test_no_test_module_or_helper_imports_a_test_module_or_conftest():
    files = python_files()
    assert any(p.parent.name == "helpers" for p in files) and any(map(is_test_module, files))
    bad = [f"{rel(path)}:{line}: imports {name}"
           for path in files for line, name in imported_modules(tree(path))
           if names_a_test_module(name)]
    assert not bad, "shared helpers belong in tests/helpers/:\n" + "\n".join(bad)


# --------------------------------------------------------------------------- (b) browser


def _fixture_name(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> str | None:
    """The fixture ``fn`` defines (``@pytest.fixture``, ``@fixture(name=...)``), if any."""
    for dec in fn.decorator_list:
        call = dec if isinstance(dec, ast.Call) else None
        target = call.func if call else dec
        if (isinstance(target, ast.Attribute) and target.attr == "fixture"
                or isinstance(target, ast.Name) and target.id == "fixture"):
            for kw in call.keywords if call else ():
                if kw.arg == "name" and isinstance(kw.value, ast.Constant):
                    return kw.value.value
            return fn.name
    return None


def _requested(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> set[str]:
    """The fixtures ``fn`` asks for: its parameters and ``@pytest.mark.usefixtures(...)``."""
    args = fn.args
    names = {a.arg for a in [*args.posonlyargs, *args.args, *args.kwonlyargs]} - {"self"}
    for dec in fn.decorator_list:
        if (isinstance(dec, ast.Call) and isinstance(dec.func, ast.Attribute)
                and dec.func.attr == "usefixtures"):
            names |= {a.value for a in dec.args if isinstance(a, ast.Constant)}
    return names


def _functions(module: ast.Module):
    """Module-level functions and the methods of its ``Test*`` classes."""
    for node in module.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            yield node
        elif isinstance(node, ast.ClassDef) and node.name.startswith("Test"):
            yield from (n for n in node.body
                        if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef))


def fixtures_of(module: ast.Module) -> dict[str, set[str]]:
    return {name: _requested(fn) for fn in _functions(module)
            if (name := _fixture_name(fn)) is not None}


def browser_fixtures(*fixture_maps: dict[str, set[str]]) -> set[str]:
    """Playwright's fixtures and every fixture that takes one, however indirectly (the
    later maps override the earlier: a module's own fixture shadows conftest's)."""
    merged: dict[str, set[str]] = {}
    for fixtures in fixture_maps:
        merged.update(fixtures)
    found = set(BROWSER_FIXTURES)
    while True:
        more = {name for name, wants in merged.items() if wants & found} - found
        if not more:
            return found
        found |= more


def collected(module: ast.Module):
    """(name, requested fixtures) of each test function (``test*``, also in ``Test*``)."""
    for fn in _functions(module):
        if fn.name.startswith("test") and _fixture_name(fn) is None:
            yield fn.name, _requested(fn)


def misplaced_tests(path: Path) -> list[str]:
    """Each test of ``path`` on the wrong side of the browser/CPython line, saying why."""
    folders = [d for d in reversed(path.parents) if d == TESTS or TESTS in d.parents]
    conftests = [fixtures_of(tree(d / "conftest.py")) for d in folders
                 if (d / "conftest.py").is_file()]
    browser = browser_fixtures(*conftests, fixtures_of(tree(path)))
    out = []
    for name, wants in collected(tree(path)):
        uses = sorted(wants & browser)
        if uses and not is_browser_file(path):
            out.append(f"{rel(path)}::{name} drives Chromium ({', '.join(uses)}): "
                       "it belongs in a test_browser_*.py file")
        elif not uses and is_browser_file(path):
            out.append(f"{rel(path)}::{name} takes no Playwright fixture: a CPython test "
                       "belongs outside the test_browser_*.py files")
    return out


def test_chromium_tests_and_only_they_are_in_test_browser_files():
    modules = [p for p in python_files() if is_test_module(p)]
    assert sum(map(is_browser_file, modules)) >= 10, "the scan found the browser files"
    assert sum(1 for p in modules for _ in collected(tree(p))) > 500, "and their tests"
    bad = [problem for path in modules for problem in misplaced_tests(path)]
    assert not bad, "\n".join(bad)


# --------------------------------------------------------------------------- (c) sys.path


def repository_python_files() -> list[Path]:
    """Every Python file git knows of or would (tracked, and new files not ignored)."""
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z", "--", "*.py"],
        cwd=ROOT, capture_output=True, text=True, check=True).stdout.split("\0")
    return [ROOT / name for name in sorted(set(listed)) if name and (ROOT / name).is_file()]


def sys_path_edits(module: ast.Module) -> list[int]:
    """Lines that change ``sys.path`` (its methods, an assignment to it or into it, a
    ``del``, ``site.addsitedir``), however ``sys``, ``path`` or ``site`` were imported."""
    sys_names, path_names, site_names, addsitedir_names = set(), set(), set(), set()
    for node in ast.walk(module):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name == "sys":
                    sys_names.add(alias.asname or alias.name)
                elif alias.name == "site":
                    site_names.add(alias.asname or alias.name)
        elif isinstance(node, ast.ImportFrom) and node.module in ("sys", "site"):
            for alias in node.names:
                if (node.module, alias.name) == ("sys", "path"):
                    path_names.add(alias.asname or alias.name)
                elif (node.module, alias.name) == ("site", "addsitedir"):
                    addsitedir_names.add(alias.asname or alias.name)

    def is_sys_path(node: ast.AST) -> bool:
        while isinstance(node, ast.Subscript):  # sys.path[0], sys.path[:]
            node = node.value
        return (isinstance(node, ast.Attribute) and node.attr == "path"
                and isinstance(node.value, ast.Name) and node.value.id in sys_names
                or isinstance(node, ast.Name) and node.id in path_names)

    lines = []
    for node in ast.walk(module):
        if isinstance(node, ast.Call):
            f = node.func
            if (isinstance(f, ast.Attribute) and is_sys_path(f.value) and f.attr in (
                    "insert", "append", "extend", "remove", "pop", "clear", "reverse",
                    "sort", "__setitem__", "__delitem__", "__iadd__")
                    or isinstance(f, ast.Attribute) and f.attr == "addsitedir"
                    and isinstance(f.value, ast.Name) and f.value.id in site_names
                    or isinstance(f, ast.Name) and f.id in addsitedir_names):
                lines.append(node.lineno)
        elif isinstance(node, ast.Assign | ast.AugAssign | ast.AnnAssign | ast.Delete):
            targets = (node.targets if isinstance(node, ast.Assign | ast.Delete)
                       else [node.target])
            elts = [e for t in targets
                    for e in (t.elts if isinstance(t, ast.Tuple | ast.List) else [t])]
            if any(is_sys_path(t) for t in elts):
                lines.append(node.lineno)
    return lines


def test_no_python_file_edits_sys_path():
    files = repository_python_files()
    assert ROOT / "build.py" in files and ROOT / "tests" / "conftest.py" in files
    bad = [f"{rel(path)}:{line}" for path in files for line in sys_path_edits(tree(path))]
    assert not bad, ("sys.path edited (pyproject's pytest pythonpath and .venv's .pth file "
                     "make pygames, pgui, tools, helpers and tinygame importable):\n"
                     + "\n".join(bad))


# --------------------------------------------------------------------------- (d) per game


def test_each_game_has_its_folder_of_tests():
    for gid in pygames.game_ids():
        folder = TESTS / gid
        assert (folder / f"test_{gid}.py").is_file(), f"{gid}'s engine tests: {rel(folder)}/"
        assert not (folder / "__init__.py").exists(), f"{rel(folder)}/ is no package"


def test_test_file_names_are_unique_across_the_folders():
    names = Counter(p.name for p in python_files() if is_test_module(p))
    assert not [name for name, n in names.items() if n > 1], names.most_common(3)


def test_no_test_file_shadows_a_standard_library_module():
    """A script run from its folder (tests/helpers/saved_fixtures.py) puts that folder first
    on the path, where a helpers/html.py would hide the standard library's html."""
    import sys

    clash = sorted(str(p.relative_to(ROOT)) for p in TESTS.rglob("*.py")
                   if p.stem in sys.stdlib_module_names)
    assert not clash, clash
