"""What the conformance tests share: positions along a seeded random game of any game."""

from __future__ import annotations

import random
from typing import Any

from botboard import games


def short_options(name: str) -> dict[str, Any]:
    return dict(games.declaration(name).quick_options)


def positions(name: str, players: int, count: int, seed: int = 3, stride: int = 5,
              options: dict[str, Any] | None = None) -> list[Any]:
    """``count`` states along a random game (of the game's short form unless ``options``), each
    with a seat to act."""
    game, rng = games.get(name), random.Random(seed)
    state, out = game.new_game(players, short_options(name) if options is None else options, seed), []
    for _ in range(count * stride):
        if game.current_player(state) is None:
            break
        out.append(state)
        legal = game.legal_actions(state)
        state = game.advance(state, legal[rng.randrange(len(legal))])
    return out[::stride][:count]


def player_counts(name: str) -> list[int]:
    info = games.get(name).info
    return sorted({info.min_players, min(info.max_players, info.min_players + 1)})
