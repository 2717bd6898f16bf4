"""The docs botboard writes from its own data: `botboard docs` (and `--check`, `--game NAME`).

Each generated file comes from the code or data it describes, so the docs cannot drift:

* every installed game's LED pictures (its declaration's ``pictures``), drawn by the
  game's own LED language with ``docgen.svg``: botboard's own games' in docs/img, another
  package's in its own folder's docs/, with its palette page (``docgen.palettes``);
* docs/palettes.md and its swatches, from every table game's palette file, with the table of
  every installed game and its package;
* the power, BOM and wiring tables of hardware/, from the layout files, and after them the
  installed games with their packages and the boards those packages ship (``docgen.hardware``).

``generated()`` maps each file to its text (a source checkout's, every game); ``game_files(name)``
one game's, from anywhere; ``stale()`` lists those that differ on disk. A test fails on a stale file
with the command that rewrites it. ``missing_pages()``: pages a declaration's ``docs`` names that
do not exist.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

from .. import games
from ..resources import ROOT
from . import hardware, palettes

COMMAND = "botboard docs"
OWN = "botboard"


def generated() -> dict[Path, str]:
    """Every generated file -> the text it should have (from a source checkout)."""
    out: dict[Path, str] = {}
    for name in games.names():
        out.update(game_files(name))
    out.update(_script("docs/make_palettes.py").render())
    power = _script("hardware/make_power.py")
    out.update({ROOT / "hardware" / doc: hardware.with_games(text, doc, power)
                for doc, text in power.generated(ROOT / "hardware").items()})
    return out


def game_files(name: str) -> dict[Path, str]:
    """One game's own generated files: its pictures and, for a game from another package, its
    palette page and swatches in its package folder's docs/ (botboard's own share docs/palettes.md)."""
    declaration = games.declaration(name)
    own = declaration.package == OWN
    folder = ROOT / "docs" / "img" if own else declaration.folder() / "docs"
    out: dict[Path, str] = {}
    if declaration.pictures:
        out.update({folder / file: text for file, text in declaration.load("pictures")().items()})
    if not own and declaration.table:
        doc = games.table(name).palette_doc
        out[folder / palettes.PAGE] = palettes.page(declaration, doc)
        out[folder / palettes.image_name(declaration)] = palettes.svg(declaration.name, doc["palette"])
    return out


def pages(name: str) -> list[Path]:
    """The pages a game's declaration names (``docs``): botboard's own from the checkout, another
    package's from its folder."""
    declaration = games.declaration(name)
    base = ROOT if declaration.package == OWN else declaration.folder()
    return [base / page for page in declaration.docs]


def missing_pages(names: list[str] | None = None) -> list[str]:
    """A line per page a declaration's ``docs`` names that is not there."""
    found = []
    for name in games.names() if names is None else names:
        declaration = games.declaration(name)
        for page, path in zip(declaration.docs, pages(name)):
            if not path.is_file():
                found.append(f"{name} ({declaration.package}) declares the page {page!r} in `docs`, but "
                             f"{path} does not exist: write it, or drop it from the declaration")
    return found


def stale(files: dict[Path, str] | None = None) -> list[Path]:
    files = generated() if files is None else files
    return [path for path, text in files.items() if not path.exists() or path.read_text() != text]


def write(files: dict[Path, str] | None = None) -> list[Path]:
    """Rewrite the stale files; the paths written."""
    files = generated() if files is None else files
    changed = stale(files)
    for path in changed:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(files[path])
    return changed


def shown(path: Path) -> str:
    """A written file as a user finds it: from the checkout, else from here, else whole."""
    for base in (ROOT, Path.cwd()):
        try:
            return str(path.relative_to(base))
        except ValueError:
            continue
    return str(path)


def _script(relative: str) -> ModuleType:
    """A generator script of the checkout (docs/, hardware/), loaded as a module."""
    path = ROOT / relative
    name = path.stem
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None, path
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module
