"""The conformance suite: what every game must keep, shipped with botboard as a pytest plugin.

pyproject.toml registers ``plugin`` under pytest's own entry-point group ``pytest11``, so
wherever botboard is installed, ``pytest --botboard-game NAME`` (or ``botboard check-game
NAME``) runs the suite in ``suite/`` over the game NAME, from the author's own package
folder. botboard's own tests run the same modules over every installed game
(tests/conformance). Nothing here names a game: cases are built from the registry.

    play.py     positions along seeded random games, player counts, the seat's own slots
    hidden.py   hidden information measured: what changes when only a secret changes
    words.py    where two JSON documents first differ, in words
    plugin.py   the option, the cases per game, the fixtures a game's table tests use
"""
