"""A robot carrying a crystal says so where the console marks it (on the board it is only a
darker shade of the seat's colour)."""

from __future__ import annotations

from botboard import games


def test_a_robot_carrying_a_crystal_is_named_with_it() -> None:
    mapping = games.table("twin-tin-bots")()
    state = mapping.engine.new_game(2, {}, 1)
    loaded = state._replace(load=(3,) + tuple(state.load[1:]))
    pieces = mapping.pieces(loaded, 2)
    assert pieces[loaded.cell[0]] == "red A + green crystal"
    assert pieces[loaded.cell[1]] == "red B" and "crystal" not in " ".join(mapping.pieces(state, 2).values())
