"""Outside a game's own package nothing knows a game by name: the platform asks the registry.

No module outside ``host/botboard/games/<game>/`` imports a specific game, and the platform's
table, console, players, remote, CLI and bench code hold no game's name or alias as a literal
(a table keyed by it, a branch on it). The table layer does not import the console."""

from __future__ import annotations

import re
from pathlib import Path

from botboard import games

HOST = Path(__file__).resolve().parent.parent / "host" / "botboard"
AGNOSTIC = ("board", "bench", "bringup", "cli", "conformance", "console", "docgen", "link", "players", "remote", "session")
GAME_PACKAGES = sorted({games.declaration(n).module for n in games.names()})


def _modules(*folders: str) -> list[Path]:
    return sorted(p for folder in folders for p in (HOST / folder).rglob("*.py")) + \
        [p for p in HOST.glob("*.py")]


def test_no_module_outside_a_game_imports_a_specific_game() -> None:
    found = []
    for path in HOST.rglob("*.py"):
        inside = next((m for m in GAME_PACKAGES if path.is_relative_to(HOST.parent / m.replace(".", "/"))), None)
        if inside:
            continue
        for package in GAME_PACKAGES:
            short = package.removeprefix("botboard.")
            if re.search(rf"(from|import)\s+[.\w]*{re.escape(short)}\b", path.read_text()):
                found.append(f"{path.relative_to(HOST)} imports {package}")
    assert found == []


def test_the_platform_names_no_game() -> None:
    names = {alias for n in games.names() for alias in (n, *games.declaration(n).aliases)}
    found = []
    for path in _modules(*AGNOSTIC):
        for literal in re.findall(r"""["']([a-z][a-z0-9-]+)["']""", path.read_text()):
            if literal in names:
                found.append(f"{path.relative_to(HOST)}: {literal!r}")
    assert found == []


def test_the_table_layer_does_not_import_the_console() -> None:
    for path in (HOST / "session").rglob("*.py"):
        assert not re.search(r"from \.\.console|import botboard\.console|from botboard\.console",
                             path.read_text()), path
