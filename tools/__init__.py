"""The tooling behind ``build.py`` (standard library only unless a module says otherwise).

=================  ========================================================================
``paths``          where things are: the repository, dist/, web/, .venv ...
``venv``           .venv from pyproject.toml's ``test`` extra, and the import paths it adds
``chromium``       finding a Chromium and the launch flags (build, bench and tests share them)
``dist``           assembling dist/: the runtime from npm, our wheel, the app, the precache
``bytecode``       Pyodide's own .pyc files for the wheel and pgui (byte-compiled under Node)
``docsbuild``      the rules pages (dist/docs/) from docs/pages and docs/records.json
``records``        docs/records.json, by playing the boards each game lists in docs/boards/
``icons``          the app's icons in public/icons/ (PNG, drawn by code)
``relay``          the HTTP server of ``build.py serve``: dist/ plus the link-play relay
                   (aiohttp)
``bench``          the benchmarks of ``build.py bench`` (Playwright)
``shots``          the screenshots and contact sheet of ``build.py shots`` (Playwright)
``commands``       what ``build.py serve|test|bench|shots`` run
=================  ========================================================================

Everything here runs inside .venv (``build.py`` moves there first), where ``tools.venv``
puts the repository and ``web/`` on the import path, so ``pygames``, ``pgui``, ``tools``
and ``docs.boards`` import as they are, with no ``sys.path`` edits.
"""
