"""Which of several games was in use first, from what the table already keeps: the journal and the
enrolled tags of the data directory (the settings file's data_dir, else the default).

    first_use(["alpha", "beta"])   # {"alpha": (0, 3), "beta": (2, 0)}: alpha's first game is 3

The registry asks it only when two installed games claim one tile id, so the game that was
already playing keeps the id (docs/tiles.md). Smaller sorts first: a game with a journaled game
(by its first game's id), then one with enrolled tags, then one never used here.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Iterable

Use = tuple[int, int]  # (PLAYED, ENROLLED or UNUSED; the first journaled game's id, else 0)
PLAYED, ENROLLED, UNUSED = 0, 1, 2


def first_use(names: Iterable[str], folder: Path | None = None) -> dict[str, Use]:
    """Each name's use here; a journal or tags file that cannot be read counts as no use."""
    folder = folder or _data_dir()
    played = _first_games(folder)
    enrolled = _enrolled_games(folder)
    out: dict[str, Use] = {}
    for name in names:
        if name in played:
            out[name] = (PLAYED, played[name])
        else:
            out[name] = (ENROLLED, 0) if name in enrolled else (UNUSED, 0)
    return out


def words(use: Use) -> str:
    """Why a game keeps its tile id, for the clash's line."""
    if use[0] == PLAYED:
        return f"played here first: game {use[1]} in the journal"
    if use[0] == ENROLLED:
        return "its tags are enrolled here"
    return "neither is in the journal nor has tags enrolled here, so the package name sorting first"


def _data_dir() -> Path:
    from ..session.host import data_dir

    return data_dir(None)


def _first_games(folder: Path) -> dict[str, int]:
    """Game name -> the id of its first journaled game, read-only and without the Journal class
    (the registry asks while it loads, before any game can be set up)."""
    from ..session.journal import journal_path

    path = journal_path(folder)
    if not path.is_file():
        return {}
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            rows = db.execute("SELECT game, MIN(id) FROM games GROUP BY game").fetchall()
        finally:
            db.close()
    except sqlite3.Error:  # damaged or not a journal: `botboard games` says so, here it is no use
        return {}
    return {str(game): int(first) for game, first in rows if isinstance(first, int)}


def _enrolled_games(folder: Path) -> set[str]:
    from ..session.enrolled import FILE

    try:
        doc = json.loads((folder / FILE).read_text())
    except (OSError, ValueError, RecursionError):
        return set()
    tags = doc.get("games") if isinstance(doc, dict) else None
    return {str(game) for game, uids in tags.items() if uids} if isinstance(tags, dict) else set()

