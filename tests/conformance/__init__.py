"""The conformance suite: what every registered game must keep, its cases built from the registry.

A game installed from its own package (an entry point in ``botboard.games``) is
checked the moment it is installed: nothing here names a game. Run it alone
with ``.venv/bin/python -m pytest tests/conformance``; `-k NAME` picks one game.
"""
