"""The games installed: declarations found through the entry-point group ``botboard.games``.

Every game, botboard's own four included, is a package that registers a
``GameDeclaration`` under the group (pyproject.toml). The registry loads the
group once, checks each declaration, and keeps the ones that work: a plugin
that fails to import, declares something wrong, or takes a name, alias or tile
id another game already has is left out with a one-line problem naming its
package (``problems()``; `botboard games --playable` prints them), and every
other game keeps working. botboard's own games are loaded first, so a plugin can
never take their names or ids.

``BOTBOARD_GAMES_DISABLE=name,name`` leaves games out without uninstalling them.
"""

from __future__ import annotations

import os
from importlib.metadata import EntryPoint, entry_points
from typing import Iterable

from .declaration import BUILTIN_TILE_IDS, PLUGIN_TILE_IDS, DeclarationError, GameDeclaration

GROUP = "botboard.games"
DISABLE_ENV = "BOTBOARD_GAMES_DISABLE"
_OWN = "botboard"

_loaded: dict[str, GameDeclaration] | None = None  # name -> declaration, in load order
_aliases: dict[str, str] = {}
_problems: list[str] = []


def declarations() -> dict[str, GameDeclaration]:
    """Every working game, by registry name (loaded on first use)."""
    global _loaded
    if _loaded is None:
        _loaded = {}
        _aliases.clear()
        _problems.clear()
        for point in _ordered(entry_points(group=GROUP)):
            _add(point)
    return _loaded


def problems() -> list[str]:
    """One line per game plugin that could not be loaded, naming its package."""
    declarations()
    return list(_problems)


def resolve(name: str) -> GameDeclaration | None:
    """The declaration of a name or alias; None if no such game."""
    found = declarations()
    return found.get(_aliases.get(name, name))


def name_of_tile_id(tile_id: int) -> str | None:
    return next((d.name for d in declarations().values() if d.tile_id == tile_id), None)


def title_of_tile_id(tile_id: int) -> str:
    """A payload's game as players say it ("game 77" when no installed game has that id)."""
    return next((d.title for d in declarations().values() if d.tile_id == tile_id), f"game {tile_id}")


def reload() -> None:
    """Forget what was loaded (tests that install or remove a plugin)."""
    global _loaded
    _loaded = None


def _ordered(points: Iterable[EntryPoint]) -> list[EntryPoint]:
    disabled = {n.strip() for n in os.environ.get(DISABLE_ENV, "").split(",") if n.strip()}
    kept = [p for p in points if p.name not in disabled]
    return sorted(kept, key=lambda p: (_package(p) != _OWN, _package(p), p.name))


def _package(point: EntryPoint) -> str:
    return point.dist.name if point.dist is not None else "?"


def _add(point: EntryPoint) -> None:
    package = _package(point)
    try:
        declaration = point.load()
    except Exception as err:  # whatever a broken plugin raises, the other games go on
        _problems.append(f"{package}: game plugin {point.name!r} ({point.value}) failed to import: "
                         f"{type(err).__name__}: {err}")
        return
    try:
        declaration = _checked(point, declaration, package)
    except DeclarationError as err:
        _problems.append(f"{package}: game plugin {point.name!r}: {err}")
        return
    assert _loaded is not None
    _loaded[declaration.name] = declaration
    for alias in declaration.aliases:
        _aliases[alias] = declaration.name


def _checked(point: EntryPoint, declaration: object, package: str) -> GameDeclaration:
    if not isinstance(declaration, GameDeclaration):
        raise DeclarationError(f"{point.value} is a {type(declaration).__name__}, not a "
                               "botboard.games.declaration.GameDeclaration")
    declaration.check()
    if declaration.name != point.name:
        raise DeclarationError(f"registered as {point.name!r} but declares name {declaration.name!r}: "
                               "make them the same")
    ids = BUILTIN_TILE_IDS if package == _OWN else PLUGIN_TILE_IDS
    if declaration.tile_id not in ids:
        raise DeclarationError(f"tile_id {declaration.tile_id}: a game from another package takes one in "
                               f"{ids.start}..{ids.stop - 1} (docs/tiles.md)")
    _check_collisions(declaration)
    module = point.value.split(":")[0].rsplit(".", 1)[0]
    object.__setattr__(declaration, "package", package)
    object.__setattr__(declaration, "module", declaration.module or module)
    return declaration


def _check_collisions(new: GameDeclaration) -> None:
    assert _loaded is not None
    for name in (new.name, *new.aliases):
        owner = _loaded.get(_aliases.get(name, name))
        if owner is not None:
            raise DeclarationError(f"the name {name!r} is already {owner.title}'s ({owner.package}): "
                                   "choose another")
    for other in _loaded.values():
        if other.tile_id == new.tile_id:
            raise DeclarationError(f"tile_id {new.tile_id} is already {other.title}'s ({other.package}): "
                                   "choose a free one (`botboard games --playable --json` lists them)")
