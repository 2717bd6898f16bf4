"""The LED legend's crystal meanings agree with what the engine scores (they are made from its data)."""

from __future__ import annotations

import re

from botboard import games
from botboard.games.twintinbots import content as C
from botboard.games.twintinbots.state import points


def test_each_crystal_meaning_says_the_points_the_engine_scores() -> None:
    legend = {e["name"]: e["meaning"] for e in games.table("twin-tin-bots").legend()}
    for i, value in enumerate(C.CRYSTAL_POINTS):
        delivered = [0, 0, 0]
        delivered[i] = 1
        colour = C.CRYSTAL_COLOUR[value]
        said = re.search(r"\((\d+) points?\)", legend[f"crystal-{colour}"])
        assert said, legend[f"crystal-{colour}"]
        assert int(said[1]) == points(delivered), (colour, legend[f"crystal-{colour}"])
    assert sorted(C.CRYSTAL_POINTS) == [2, 3, 4]  # the rules' values, not the old legend's 1, 2, 3
