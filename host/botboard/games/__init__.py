"""The games: found through their declarations (entry-point group ``botboard.games``).

Everything outside a game's own package asks here, by the name a user typed:

    games.names()              every installed game      games.table_names()   those with a table
    games.get("volt")          its rules engine          games.table("volt")   its table mapping class
    games.declaration("volt")  all it declares           games.catalogue("volt")  its tiles
    games.problems()           plugins that could not be loaded, one line each

Parts are imported on first use. docs/adding-a-game.md says how a game declares itself.
"""

from __future__ import annotations

from typing import Any

from . import registry
from .base import Game, GameError
from .catalogue import TileCatalogue
from .declaration import DeclarationError, Evaluation, GameDeclaration

__all__ = ["Game", "GameDeclaration", "GameError", "canonical", "catalogue", "declaration",
           "default_name", "evaluation", "get", "names", "problems", "table", "table_names"]

DEFAULT = "twin-tin-bots"  # the flagship: what `botboard run` plays when no game is named


def names() -> list[str]:
    return sorted(registry.declarations())


def table_names() -> list[str]:
    """The games that can be played at the table (they declare a table mapping)."""
    return sorted(n for n, d in registry.declarations().items() if d.table)


def default_name() -> str:
    """The game played when none is named: the flagship if installed, else the first table game."""
    if registry.resolve(DEFAULT) is not None:
        return DEFAULT
    playable = table_names() or names()
    if not playable:
        raise GameError(_none_installed())
    return playable[0]


def problems() -> list[str]:
    return registry.problems()


def declaration(name: str) -> GameDeclaration:
    """The declaration of a game given by name or alias; GameError if none."""
    found = registry.resolve(name)
    if found is None:
        left_out = registry.left_out(name)  # installed, but another game keeps its id or name
        raise GameError(left_out or f"unknown game {name!r}; known games: {', '.join(names()) or _none_installed()}")
    return found


def canonical(name: str) -> str:
    """The registry name of a game given by name or alias (GameError if unknown)."""
    return declaration(name).name


def get(name: str) -> Game[Any, Any]:
    """The rules engine of a game (GameError if unknown or broken)."""
    game: Game[Any, Any] = _part(name, "engine")
    return game


def table(name: str) -> Any:
    """The table mapping class of a game; GameError if it cannot be played at the table."""
    found = declaration(name)
    if not found.table:
        raise GameError(f"{found.title} cannot be played at the table yet (its rules engine runs in "
                        f"scenarios); table games: {', '.join(table_names())}")
    return _part(name, "table")


def catalogue(name: str) -> TileCatalogue[Any]:
    """The tile catalogue of a game; GameError if it declares none."""
    found = declaration(name)
    cat: TileCatalogue[Any] = _part(name, "catalogue")
    cat.tile_id, cat.title = found.tile_id, found.title
    return cat


def evaluation(name: str) -> Evaluation:
    """The game's evaluation for computer players; GameError if it declares none."""
    found: Evaluation = _part(name, "evaluation")
    return found


def _part(name: str, key: str) -> Any:
    try:
        return declaration(name).load(key)
    except DeclarationError as err:
        raise GameError(str(err)) from err


def _none_installed() -> str:
    return "none installed (reinstall botboard: `pip install -e .`, or see `botboard games --playable`)"
