"""Enrolled tags: tags that carry no tile payload (read-only, locked, foreign), named by hand.

    registry = Enrolled(data_dir, name, games.catalogue(name))
    registry.enroll(uid, tile)        # `botboard tiles enroll` and the console's enrol button
    registry.lookup(uid)              # the tile, or None

One JSON file in the data directory, ``tiles.json``: per game, uid (hex) -> the
tile's spec (its picker fields, games/catalogue.py). A file of the older form
(``{"tags": {uid: spec}}``, one game's) is read as the game whose catalogue
accepts its specs, and written back in the new form.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from .. import games
from ..games.catalogue import TileCatalogue, TileError
from ..private import private_dir

FILE = "tiles.json"


class EnrolledError(ValueError):
    """The registry file cannot be read; the message names it and what to do."""


class Enrolled:
    def __init__(self, data_dir: Path | str | None, game: str, catalogue: TileCatalogue[Any]) -> None:
        self.path = Path(data_dir) / FILE if data_dir else None
        self.game, self.catalogue = game, catalogue
        self._doc: dict[str, dict[str, Any]] = self._read()
        self.tags: dict[str, Any] = {}
        for uid, spec in self._doc.get(game, {}).items():
            try:
                if not isinstance(spec, dict):
                    raise TileError(f"{json.dumps(spec)[:40]} is not a tile's fields")
                self.tags[uid] = catalogue.make(spec)
            except (TileError, TypeError, ValueError, AttributeError) as err:  # an edited file's any value
                raise EnrolledError(f"{self.path}: tag {uid}: {err}: enroll it again") from err

    def lookup(self, uid: bytes) -> Any | None:
        return self.tags.get(uid.hex())

    def enroll(self, uid: bytes, tile: Any) -> None:
        self.tags[uid.hex()] = tile
        self._doc[self.game] = {u: self.catalogue.spec(t) for u, t in sorted(self.tags.items())}
        self._save()

    def _read(self) -> dict[str, dict[str, Any]]:
        if self.path is None or not self.path.exists():
            return {}
        try:
            doc = json.loads(self.path.read_text())
        except (OSError, ValueError, RecursionError) as err:
            if "int_max_str_digits" in str(err):
                err = ValueError("a number too long")
            raise EnrolledError(f"{self.path}: cannot be read ({err or 'nested too deep'}): fix it or move it away, "
                                "then enroll the tags again") from err
        if isinstance(doc, dict) and isinstance(doc.get("games"), dict):
            return {str(g): dict(tags) for g, tags in doc["games"].items() if isinstance(tags, dict)}
        if isinstance(doc, dict) and isinstance(doc.get("tags"), dict):
            owner = _owner(doc["tags"])
            return {owner: doc["tags"]} if owner else {}
        raise EnrolledError(f"{self.path}: not an enrolled-tags file (docs/tiles.md)")

    def _save(self) -> None:
        if self.path is None:
            return
        private_dir(self.path.parent)  # the data directory, beside the journal's hands
        tmp = self.path.with_suffix(".tmp")
        tmp.write_text(json.dumps({"games": self._doc}, indent=1, sort_keys=True) + "\n")
        os.replace(tmp, self.path)


def _owner(tags: dict[str, Any]) -> str | None:
    """The game whose catalogue reads every spec of an older, single-game file."""
    for name in games.names():
        try:
            catalogue = games.catalogue(name)
            for spec in tags.values():
                catalogue.make(spec)
        except (games.GameError, TileError, AttributeError, TypeError):
            continue
        return name
    return None
