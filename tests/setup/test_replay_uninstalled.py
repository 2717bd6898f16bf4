"""`botboard replay` of a journaled game whose package was uninstalled since: one line naming the
package to install (the journal notes each game's package when it sets one up), exit 2."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from .plugins import botboard, register


def _journaled(tmp_path: Path, name: str, actions: list[str]) -> tuple[Path, Path, Path]:
    """A `new-game` package installed (as a shim) and a game of it journaled: (its folder, its
    dist-info folder, the data dir)."""
    made = botboard([], "new-game", name, "--dir", str(tmp_path))
    assert made.returncode == 0, made.stderr
    folder, meta, data = tmp_path / name, tmp_path / "meta", tmp_path / "data"
    module = name.replace("-", "_")
    register(meta, f"botboard-{name}", {name: f"botboard_{module}.declaration:GAME"})
    game = tmp_path / "a-game.json"
    game.write_text(json.dumps({"game": name, "actions": actions}))
    played = botboard([folder, meta], "scenario", "run", str(game), "--journal", "--data-dir", str(data))
    assert played.returncode == 0, played.stderr
    return folder, meta, data


def test_replaying_a_game_whose_package_is_gone_names_the_package_in_one_line(tmp_path: Path) -> None:
    folder, meta, data = _journaled(tmp_path, "gone-bots", ["p1 dash", "p2 step"])
    replayed = botboard([folder, meta], "replay", "1", "--data-dir", str(data))
    assert replayed.returncode == 0 and len(replayed.stdout.split()) == 1, replayed.stderr

    shutil.rmtree(meta)  # uninstalled: its entry point is gone
    shutil.rmtree(folder)
    for how in ([], ["--json"], ["--console-port", "0"]):  # the viewer refuses before it serves
        done = botboard([], "replay", "1", "--data-dir", str(data), *how, timeout=60)
        assert done.returncode == 2, (how, done.stdout, done.stderr)
        assert done.stdout == "" and len(done.stderr.splitlines()) == 1, (how, done.stderr)
        line = done.stderr
        assert "game 1 is a game of 'gone-bots', which is not installed here" in line, line
        assert "`pip install botboard-gone-bots`" in line and "Traceback" not in line, line


def test_a_journal_from_before_packages_were_noted_still_says_what_to_install(tmp_path: Path) -> None:
    import sqlite3

    _, _, data = _journaled(tmp_path, "old-bots", ["p1 dash"])
    db = sqlite3.connect(data / "botboard.sqlite")
    db.execute("DROP TABLE game_packages")  # as an older botboard wrote it
    db.commit()
    db.close()
    done = botboard([], "replay", "1", "--data-dir", str(data), timeout=60)
    assert done.returncode == 2 and len(done.stderr.splitlines()) == 1, done.stderr
    assert "not installed here: install the package that brings it" in done.stderr, done.stderr
