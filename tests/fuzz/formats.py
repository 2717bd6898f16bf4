"""Every file botboard reads that a user or a disk can damage, as data: a good file of the
format (from the project's own examples), and the commands that read it. The fuzz tests derive
their damage from the good document (damage.py), so a new format is one entry here."""

from __future__ import annotations

import json
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from botboard import games
from botboard.board.layouts import LAYOUT_DIR
from botboard.settings import SETTINGS, file_text

from .damage import dumps


@dataclass(frozen=True)
class Format:
    name: str
    file: str  # its name in the folder the commands are given
    good: Callable[[], Any]  # the good document
    text: Callable[[Any], str]  # a document as the file's text
    commands: Callable[[Path], list[list[str]]]  # the commands that read it (given its path)
    report: bool = False  # the command's answer is a report (a line per problem under the file's)


def _settings() -> dict[str, Any]:
    doc = {}
    for s in SETTINGS:
        value = s.example() if callable(s.example) else s.example
        doc[s.key] = value if value is not None else s.default
    doc.update(remote="mqtt://ann:pw@broker.local/club#a-room-key", seat=[1], players=2)
    return tomllib.loads(file_text(doc))  # what the file holds, read back


def _scenario() -> dict[str, Any]:
    folder = games.declaration(games.default_name()).scenario_folder()
    assert folder is not None
    return json.loads(sorted(folder.glob("*.json"))[0].read_text())


def _tiles_text(doc: Any) -> str:
    return dumps(doc)


FORMATS = (
    Format("settings", "botboard.toml", _settings, lambda doc: _spelled(file_text(doc)),
           lambda path: [["config", "--config", str(path)], ["config", "--config", str(path), "--json"]]),
    Format("scenario", "scenario.json", _scenario, dumps,
           lambda path: [["scenario", "check", str(path)]], report=True),
    Format("layout", "layout.json", lambda: json.loads((LAYOUT_DIR / "ttb-small.json").read_text()), dumps,
           lambda path: [["hardware", "draw", str(path)]]),
    Format("tiles", "tiles.json",
           lambda: {"games": {"twin-tin-bots": {"04aabbccddeeff": {"colour": "red", "kind": "F1"}}}}, dumps,
           lambda path: [["tiles", "list", "--game", "twin-tin-bots", "--data-dir", str(path.parent)]]),
)


def _spelled(text: str) -> str:
    """A TOML text with damage.py's markers spelled out (TOML strings are JSON strings here)."""
    return dumps_markers(text)


def dumps_markers(text: str) -> str:
    from .damage import _SPELLED

    for marker, spelled in _SPELLED.items():
        text = text.replace(marker, spelled)
    return text
