"""The docs botboard writes from its own data: `botboard docs` (and `--check`).

Each generated file comes from the code or data it describes, so the docs cannot drift:

* every installed game's LED pictures (its declaration's ``pictures``), drawn by the
  game's own LED language with ``docgen.svg``;
* docs/palettes.md and its swatches, from every table game's palette file;
* the power, BOM and wiring tables of hardware/, from the layout files.

``generated()`` maps each file to its text; ``stale()`` lists those that differ on
disk. A test fails on a stale file with the command that rewrites it.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

from .. import games
from ..resources import ROOT

COMMAND = "botboard docs"


def generated() -> dict[Path, str]:
    """Every generated file -> the text it should have."""
    out: dict[Path, str] = {}
    for name in games.names():
        declaration = games.declaration(name)
        if not declaration.pictures:
            continue
        folder = ROOT / "docs" / "img" if declaration.package == "botboard" else declaration.folder() / "docs"
        for file, text in declaration.load("pictures")().items():
            out[folder / file] = text
    out.update(_script("docs/make_palettes.py").render())
    power = _script("hardware/make_power.py")
    out.update({ROOT / "hardware" / doc: text for doc, text in power.generated(ROOT / "hardware").items()})
    return out


def stale(files: dict[Path, str] | None = None) -> list[Path]:
    files = generated() if files is None else files
    return [path for path, text in files.items() if not path.exists() or path.read_text() != text]


def write() -> list[Path]:
    """Rewrite the stale files; the paths written."""
    files = generated()
    changed = stale(files)
    for path in changed:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(files[path])
    return changed


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
