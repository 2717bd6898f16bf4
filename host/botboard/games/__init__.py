"""Registry of rules engines, by name. Engines are imported lazily."""

from __future__ import annotations

import importlib
from typing import Any

from .base import Game, GameError

# name -> "module:attribute" of a Game instance; add a line per game.
_ENGINES: dict[str, str] = {
    "twin-tin-bots": "botboard.games.twintinbots.game:GAME",
    "botwars": "botboard.games.botwars.game:GAME",
    "volt": "botboard.games.volt.game:GAME",
    "goblins": "botboard.games.goblins.game:GAME",
}

_ALIASES = {"ttb": "twin-tin-bots"}


def names() -> list[str]:
    return sorted(_ENGINES)


def get(name: str) -> Game[Any, Any]:
    """The engine registered under ``name`` (or an alias); GameError if none."""
    key = _ALIASES.get(name, name)
    if key not in _ENGINES:
        raise GameError(f"unknown game {name!r}; known games: {', '.join(names()) or 'none'}")
    module, attr = _ENGINES[key].split(":")
    game: Game[Any, Any] = getattr(importlib.import_module(module), attr)
    return game
