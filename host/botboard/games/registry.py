"""The games installed: declarations found through the entry-point group ``botboard.games``.

Every game, botboard's own four included, is a package that registers a
``GameDeclaration`` under the group (pyproject.toml). The registry loads the
group once, checks each declaration, and keeps the ones that work: a plugin
that fails to import, declares something wrong, or takes a name or alias another
game already has is left out with a one-line problem naming its package
(``problems()``; `botboard games --playable` prints them), and every other game
keeps working. botboard's own games are loaded first, so a plugin can never take
their names or ids.

Two plugins with one tile id: the one already in use here keeps it (played first
in the journal, else with enrolled tags: ``firstuse``), so installing a newcomer
never knocks out a game that was playing; the other is left out, and the line
names both. Only when neither was used does the package name decide.

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
        _loaded = {d.name: d for d in _keep_first_used(list(_loaded.values()))}
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


def left_out(name: str) -> str | None:
    """The problem that left the game ``name`` out, if one did (for "unknown game" messages)."""
    declarations()
    return next((p for p in _problems if f"game plugin {name!r}" in p), None)


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
    """Keep the plugin's declaration if it loads and takes no name already taken, else a problem."""
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


def _keep_first_used(found: list[GameDeclaration]) -> list[GameDeclaration]:
    """Of each group of games with one tile id, the one used here first (the others: a problem)."""
    by_id: dict[int, list[GameDeclaration]] = {}
    for declaration in found:
        by_id.setdefault(declaration.tile_id, []).append(declaration)
    clashing = [d.name for group in by_id.values() if len(group) > 1 for d in group]
    if not clashing:
        return found
    from .firstuse import first_use, words

    use = first_use(clashing)
    kept = []
    for declaration in found:
        group = by_id[declaration.tile_id]
        if len(group) == 1:
            kept.append(declaration)
            continue
        # botboard's own first (their ids are theirs for good), then by first use, then by package
        keeper = min(group, key=lambda d: (d.package != _OWN, use[d.name], d.package, d.name))
        if declaration is keeper:
            kept.append(declaration)
            continue
        _forget(declaration)
        _problems.append(_clash(declaration, keeper, words(use[keeper.name])))
    return kept


def _clash(out: GameDeclaration, keeper: GameDeclaration, why: str) -> str:
    from .tile_ids import free_ids

    free = [i for i in free_ids() if i != out.tile_id]  # every game still loading counts as taken
    change = f"tile_id={free[0]}, a free one" if free else "another tile id"
    return (f"{out.package}: game plugin {out.name!r}: tile_id {out.tile_id} is also {keeper.title}'s "
            f"({keeper.package}), which keeps it ({why}); {out.title} is left out: give it {change}, in "
            f"its declaration (docs/tiles.md), or `pip uninstall {out.package}`")


def _forget(declaration: GameDeclaration) -> None:
    for alias in declaration.aliases:
        _aliases.pop(alias, None)


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
