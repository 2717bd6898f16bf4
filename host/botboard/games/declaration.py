"""A game's declaration: everything the platform looks up about one game, in one object.

    GAME = GameDeclaration(
        name="twin-tin-bots", title="Twin Tin Bots", tile_id=1,
        engine="botboard.games.twintinbots.game:GAME",
        table="botboard.games.twintinbots.table.mapping:TwinTinBotsTable",
        catalogue="botboard.games.twintinbots.table.tiles:CATALOGUE",
        evaluation="botboard.games.twintinbots.evaluate:EVALUATION", ...)

A game package registers its declaration under the entry-point group
``botboard.games`` (pyproject: ``[project.entry-points."botboard.games"]``),
exactly as botboard registers its own four games; the registry
(``games/registry.py``) finds it there, and nothing outside the game's package
names the game. Parts are given as ``"module:attribute"`` and imported only when
asked for, so listing the games stays cheap (pytest's and OpenSpiel's plugins
work the same way). docs/adding-a-game.md is the checklist.
"""

from __future__ import annotations

import importlib
import importlib.util
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping

_NAME = re.compile(r"^[a-z][a-z0-9-]{1,31}$")
_NAME_RULE = "a name starts with a lower-case letter, then lower-case letters, digits and dashes, 2-32 in all"
_REF = re.compile(r"^[A-Za-z_][\w.]*:[A-Za-z_]\w*$")

# Tile payload game ids (byte 2 of every tag, docs/tiles.md): 0 means "any game" in a board's
# config and 255 is kept back; the games botboard ships take 1..63, other packages 64..254.
BUILTIN_TILE_IDS = range(1, 64)
PLUGIN_TILE_IDS = range(64, 255)


class DeclarationError(ValueError):
    """A declaration that cannot be used; the message names the field."""


@dataclass(frozen=True)
class Evaluation:
    """How good a position looks to each seat, for the computer players (players/evaluate.py).

    ``standing(state)`` gives one number per seat, bigger is better (points, then progress
    toward the goal); ``scale`` is what counts as a clear lead between two seats.
    """

    standing: Callable[[Any], list[float]]
    scale: float


@dataclass(frozen=True)
class GameDeclaration:
    """One game: its parts as ``"module:attribute"`` references, imported when first used."""

    name: str  # registry key and `--game` value: lower case, digits and dashes
    title: str  # as players write it
    tile_id: int  # byte 2 of the game's tile payloads (docs/tiles.md)
    engine: str  # the games.base.Game instance
    table: str | None = None  # the session.mapping.TableMapping subclass (None: scenarios only)
    catalogue: str | None = None  # the games.catalogue.TileCatalogue instance
    evaluation: str | None = None  # an Evaluation, for the greedy and search players
    aliases: tuple[str, ...] = ()
    boards: tuple[str, ...] = ()  # layout files the game ships, relative to its package folder
    scenarios: str | None = None  # folder of scenario files (with `expect`), relative likewise
    commands: str | None = None  # a function register(subparsers) adding `botboard NAME ...`
    pictures: str | None = None  # a function () -> {file name: SVG text} of the game's LED language
    # the players' pages, from the package folder (botboard's own: from the checkout), e.g.
    # ("docs/playing-volt.md",): docs/palettes.md lists them and `botboard docs` says when one is missing
    docs: tuple[str, ...] = ()
    quick_options: Mapping[str, Any] = field(default_factory=dict)  # a short game: selfplay, benches
    match_options: Mapping[str, Any] = field(default_factory=dict)  # a game for strength matches
    module: str = ""  # the package folder boards and scenarios are relative to (the registry sets it)
    package: str = ""  # the distribution that registered it (the registry sets it)

    def check(self) -> None:
        """DeclarationError naming the first field that is wrong (the registry calls it on load)."""
        for what, name in (("name", self.name), *(("alias", alias) for alias in self.aliases)):
            if not _NAME.match(name):
                raise DeclarationError(f"{what} {name!r}: {_NAME_RULE}")
        if not isinstance(self.title, str) or not self.title.strip():
            raise DeclarationError("title: give the game's name as players write it")
        if not isinstance(self.tile_id, int) or not 1 <= self.tile_id <= 254:
            raise DeclarationError(f"tile_id {self.tile_id!r}: a number in {PLUGIN_TILE_IDS.start}.."
                                   f"{PLUGIN_TILE_IDS.stop - 1} (docs/tiles.md)")
        for key in ("engine", "table", "catalogue", "evaluation", "commands", "pictures"):
            ref = getattr(self, key)
            if (ref is not None or key == "engine") and not (isinstance(ref, str) and _REF.match(ref)):
                raise DeclarationError(f"{key} {ref!r}: expected \"package.module:attribute\"")
        for key in ("quick_options", "match_options"):
            if not isinstance(getattr(self, key), Mapping):
                raise DeclarationError(f"{key}: expected a mapping of engine options")

    # -- the parts -----------------------------------------------------------------
    def load(self, key: str) -> Any:
        """The part ``key`` refers to; DeclarationError naming the package if it cannot be had."""
        ref = getattr(self, key)
        if ref is None:
            raise DeclarationError(f"{self.title} declares no {key}")
        module, attr = ref.split(":")
        try:
            return getattr(importlib.import_module(module), attr)
        except Exception as err:  # a plugin's own bug: say whose, keep the rest working
            raise DeclarationError(f"game {self.name} ({self.package or 'botboard'}): its {key} "
                                   f"{ref} cannot be loaded: {type(err).__name__}: {err}") from err

    def folder(self) -> Path:
        """The game package's folder (boards and scenarios are found there)."""
        spec = importlib.util.find_spec(self.module) if self.module else None
        if spec is None or not spec.submodule_search_locations:
            raise DeclarationError(f"game {self.name}: its package {self.module!r} has no folder")
        return Path(next(iter(spec.submodule_search_locations)))

    def board_files(self) -> list[Path]:
        return [self.folder() / board for board in self.boards]

    def scenario_folder(self) -> Path | None:
        return self.folder() / self.scenarios if self.scenarios else None

