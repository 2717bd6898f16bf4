"""Hidden information stays hidden in every game: what a seat, the shared screen and the table's
log show cannot depend on what the rules hide from them.

A game's ``determinize(state, seat, rng)`` deals again everything ``seat`` cannot
see. So for a state and such a sample, everything ``seat`` is shown must be
equal; and what the whole table is shown (the shared view, the LEDs) must be
equal to what it is shown in a sample for any seat.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from botboard import games

from .helpers import player_counts, positions

HIDDEN = [name for name in games.table_names() if games.get(name).info.hidden_information]


def _shown(value: Any) -> str:
    return json.dumps(value, sort_keys=True, default=str)


@pytest.mark.parametrize("name", HIDDEN)
def test_a_seat_and_the_table_are_shown_nothing_of_what_they_cannot_see(name: str) -> None:
    game, mapping = games.get(name), games.table(name)()
    rng = random.Random(7)
    checked = 0
    for players in player_counts(name):
        for state in positions(name, players, 6):
            for seat in range(players):
                try:
                    sample = game.determinize(state, seat, rng)
                except games.GameError:  # a state the game says it cannot sample (players/base.py)
                    continue
                assert _shown(mapping.seat_view(sample, seat)) == _shown(mapping.seat_view(state, seat)), \
                    f"{name}: seat {seat}'s view changes with what it cannot see"
                assert _shown(mapping.public_view(sample)) == _shown(mapping.public_view(state)), \
                    f"{name}: the shared view changes with what seat {seat} cannot see"
                assert mapping.picture(sample) == mapping.picture(state), \
                    f"{name}: the LEDs change with what seat {seat} cannot see"
                checked += 1
    assert checked
