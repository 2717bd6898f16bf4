"""A new game package from the skeleton in ``template/`` (`botboard new-game NAME`).

    folder = scaffold.write("zapbots", Path("."))     # ./zapbots/: pyproject, declaration, engine...

Every file under ``template/`` ends in ``.tmpl`` (so nothing imports, lints or
packages it as botboard's own code) and is written with ``${name}``, ``${title}``,
``${module}``, ``${package}``, ``${class_name}`` and ``${tile_id}`` filled in
(``string.Template``); ``__module__`` and ``__name__`` in a path become the
module and the game's name. The skeleton is a whole game, small enough to
replace rule by rule: it passes the conformance suite as written. With
``simultaneous=True`` (`new-game --simultaneous`) the files under ``simultaneous/``
are laid over it: its seats program in secret and reveal together.
"""

from __future__ import annotations

import os
import random
import shutil
from pathlib import Path
from string import Template

from ..games import registry
from ..games.declaration import PLUGIN_TILE_IDS, DeclarationError, GameDeclaration
from ..games.tile_ids import free_ids, published

TEMPLATE = Path(__file__).resolve().parent / "template"
# `new-game --simultaneous`: files laid over the template (same paths) for seats that program in
# secret and reveal together (games.simultaneous.SimultaneousTable)
SIMULTANEOUS = Path(__file__).resolve().parent / "simultaneous"


class ScaffoldError(ValueError):
    """A name or folder a new game cannot have; the message says what to do."""


def check_name(name: str) -> None:
    """ScaffoldError if ``name`` is not one a declaration may have, is a botboard command's or the
    example game's, or an installed game has it."""
    from ..cli import command_names

    try:  # the registry's own rule for names
        GameDeclaration(name=name, title=name, tile_id=PLUGIN_TILE_IDS.start, engine="game:GAME").check()
    except DeclarationError as err:
        raise ScaffoldError(f"game {err} (it is the `--game` value)") from err
    example = next((g for g in published()["games"] if g["game"] == name), None)
    if example is not None:
        raise ScaffoldError(f"the name {name!r} and tile id {example['id']} are kept for {example['who']} "
                            "(docs/tiles.md): choose another name")
    taken = registry.resolve(name)
    if taken is not None:
        raise ScaffoldError(f"the name {name!r} is already {taken.title}'s ({taken.package}): choose another")
    if name in command_names():
        raise ScaffoldError(f"`botboard {name}` is one of botboard's own commands, and a game's own commands "
                            "go under `botboard NAME`: a game may not be named like a command; choose another")


def free_tile_id(rng: random.Random) -> int:
    """A tile id at random in the plugins' range, neither reserved (docs/tiles.md's list) nor used
    by an installed game."""
    free = free_ids()
    if not free:
        raise ScaffoldError(f"every tile id in {PLUGIN_TILE_IDS.start}..{PLUGIN_TILE_IDS.stop - 1} is taken")
    return rng.choice(free)


def words(name: str, tile_id: int) -> dict[str, str]:
    """What the templates' placeholders become for the game ``name``."""
    module = "botboard_" + name.replace("-", "_")
    return {"name": name, "title": name.replace("-", " ").title(), "module": module,
            "package": module.replace("_", "-"), "tile_id": str(tile_id),
            "class_name": "".join(part.title() for part in name.split("-"))}


def write(name: str, where: Path, rng: random.Random | None = None, simultaneous: bool = False) -> Path:
    """Write the skeleton package of game ``name`` into ``where/name``; its folder. ``simultaneous``:
    the seats program in secret and reveal together."""
    check_name(name)
    folder = where / name
    if folder.exists():
        raise ScaffoldError(f"{folder} exists already: choose another --dir, or remove it")
    _make_dir(where)
    subs = words(name, free_tile_id(rng or random.Random()))
    sources = {str(p.relative_to(TEMPLATE)): p for p in TEMPLATE.rglob("*.tmpl")}
    if simultaneous:
        sources.update({str(p.relative_to(SIMULTANEOUS)): p for p in SIMULTANEOUS.rglob("*.tmpl")})
    draft = where / f".{name}.{os.getpid()}.new"  # a failure leaves no half package behind
    draft.mkdir()
    try:
        for relative, source in sorted(sources.items()):
            plain = relative.removesuffix(".tmpl")
            target = draft / plain.replace("__module__", subs["module"]).replace("__name__", name)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(Template(source.read_text()).substitute(subs))
        draft.rename(folder)
    finally:
        shutil.rmtree(draft, ignore_errors=True)
    return folder


def _make_dir(where: Path) -> None:
    """``where`` itself may be made, never its parents: a mistyped --dir is said, not created."""
    if where.is_dir():
        return
    if where.exists():
        raise ScaffoldError(f"--dir {where}: not a folder: give the folder to write the game's folder into")
    if not where.parent.is_dir():
        raise ScaffoldError(f"--dir {where}: its parent {where.parent} does not exist (mistyped?): make it "
                            "first; new-game makes only the folder --dir names and the game's own folder in it")
    where.mkdir()
