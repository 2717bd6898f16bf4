"""Registry of rules engines, by name. Engines are imported lazily."""

from __future__ import annotations

import importlib
from typing import Any

from .base import Game, GameError

__all__ = ["Game", "GameError", "canonical", "get", "names", "table", "table_names"]

# name -> "module:attribute" of a Game instance; add a line per game.
_ENGINES: dict[str, str] = {
    "twin-tin-bots": "botboard.games.twintinbots.game:GAME",
    "botwars": "botboard.games.botwars.game:GAME",
    "volt": "botboard.games.volt.game:GAME",
    "goblins": "botboard.games.goblins.game:GAME",
}

# name -> "module:attribute" of the game's table mapping class (games/<game>/table/)
_TABLES: dict[str, str] = {
    "twin-tin-bots": "botboard.games.twintinbots.table.mapping:TwinTinBotsTable",
    "botwars": "botboard.games.botwars.table.mapping:BotWarsTable",
    "volt": "botboard.games.volt.table.mapping:VoltTable",
    "goblins": "botboard.games.goblins.table.mapping:GoblinsTable",
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


def canonical(name: str) -> str:
    """The registry name of a game given by name or alias (GameError if unknown)."""
    return get(name).info.name


def default_name() -> str:
    """The game a table plays when none is named (`botboard run` with no flags): the flagship."""
    return "twin-tin-bots"


def table_names() -> list[str]:
    """The games that can be played at the table (they have a table mapping)."""
    return sorted(_TABLES)


def table(name: str) -> Any:
    """The table mapping class of a game; GameError if it cannot be played at the table yet."""
    key = canonical(name)
    if key not in _TABLES:
        raise GameError(f"{key} cannot be played at the table yet (its rules engine runs in "
                        f"scenarios); table games: {', '.join(table_names())}")
    module, attr = _TABLES[key].split(":")
    return getattr(importlib.import_module(module), attr)
