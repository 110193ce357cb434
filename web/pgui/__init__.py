"""pgui: the app's user interface in Python.

Pure rendering functions (view, legal actions, language) -> HTML live here and are
tested in CPython; only ``web/main.py`` touches the DOM.
"""
