"""Positions of any game along seeded random play, as the conformance checks and a game's own
table tests use them."""

from __future__ import annotations

import random
from typing import Any, Iterator

from .. import games


def quick_options(name: str) -> dict[str, Any]:
    return dict(games.declaration(name).quick_options)


def player_counts(name: str) -> list[int]:
    """The fewest players the game takes, and one more if it takes more."""
    info = games.get(name).info
    return sorted({info.min_players, min(info.max_players, info.min_players + 1)})


def every_player_count(name: str) -> list[int]:
    """The fewest, one more and the most players the game takes."""
    low, high = games.get(name).info.min_players, games.get(name).info.max_players
    return sorted({low, high, min(high, low + 1)})


def positions(name: str, players: int, count: int, seed: int = 3, stride: int = 5,
              options: dict[str, Any] | None = None) -> list[Any]:
    """``count`` states along a random game (of the game's short form unless ``options``), each
    with a seat to act, one every ``stride`` actions."""
    game, rng = games.get(name), random.Random(seed)
    state, out = game.new_game(players, quick_options(name) if options is None else options, seed), []
    for _ in range(count * stride):
        if game.current_player(state) is None:
            break
        out.append(state)
        legal = game.legal_actions(state)
        state = game.advance(state, legal[rng.randrange(len(legal))])
    return out[::stride][:count]


def random_game(name: str, players: int, seed: int, options: dict[str, Any] | None = None,
                limit: int = 5000) -> Iterator[Any]:
    """Every state of one random game, the first included, until it ends or ``limit`` actions."""
    game, rng = games.get(name), random.Random(seed)
    state = game.new_game(players, options or {}, seed)
    for _ in range(limit):
        yield state
        if game.current_player(state) is None:
            return
        legal = game.legal_actions(state)
        state = game.advance(state, legal[rng.randrange(len(legal))])


def station_slots(table: Any) -> list[int]:
    """Physical slot numbers for one station of ``table`` (0, 1, ...), as a test lays tiles in them."""
    return list(range(table.slots_per_seat()))
