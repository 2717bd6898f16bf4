"""Two game packages with one tile id: the one already in use here keeps it, whichever was installed
first and whatever their names, and the other is left out with one line naming both and what to do
(games/registry.py, games/firstuse.py, docs/tiles.md)."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from ..simboard import BOTBOARD
from .plugins import botboard, env, register

CLASHING_ID = 150


def _game(tmp_path: Path, name: str) -> Path:
    """`botboard new-game NAME`, then its tile id changed to the one both games take."""
    done = botboard([], "new-game", name, "--dir", str(tmp_path))
    assert done.returncode == 0, done.stderr
    declaration = tmp_path / name / f"botboard_{name}" / "declaration.py"
    declaration.write_text(re.sub(r"tile_id=\d+", f"tile_id={CLASHING_ID}", declaration.read_text()))
    return tmp_path / name


def _table(tmp_path: Path) -> Path:
    """A settings file whose data directory (journal, enrolled tags) is the test's own."""
    (tmp_path / "data").mkdir()
    settings = tmp_path / "botboard.toml"
    settings.write_text(f'data_dir = "{tmp_path / "data"}"\n')
    return settings


def _run(settings: Path, folders: list[Path], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([BOTBOARD, *args], capture_output=True, text=True, timeout=120,
                          env={**env(*folders), "BOTBOARD_CONFIG": str(settings)})


def _install(meta: Path, name: str) -> None:
    register(meta, f"botboard-{name}", {name: f"botboard_{name}.declaration:GAME"})


def _listed(settings: Path, folders: list[Path]) -> tuple[set[str], list[str]]:
    done = _run(settings, folders, "games", "--playable", "--json")
    assert done.returncode == 0, done.stderr
    return {row["game"] for row in json.loads(done.stdout)}, done.stderr.splitlines()


@pytest.mark.parametrize("first, second", [("aaa", "zzz"), ("zzz", "aaa")])
def test_the_game_played_first_keeps_its_id_whichever_package_sorts_first(tmp_path: Path, first: str,
                                                                         second: str) -> None:
    settings, meta = _table(tmp_path), tmp_path / "meta"
    folders = [_game(tmp_path, first), _game(tmp_path, second), meta]
    _install(meta, first)
    game = tmp_path / "a-game.json"
    game.write_text(json.dumps({"game": first, "actions": ["p1 dash"]}))
    played = _run(settings, folders, "scenario", "run", str(game), "--journal")
    assert played.returncode == 0, played.stderr
    assert json.loads(played.stdout)["journaled"]["id"] == 1

    _install(meta, second)  # the newcomer, with the id the first game's tiles carry
    listed, problems = _listed(settings, folders)
    assert first in listed and second not in listed
    assert len(problems) == 1, problems
    line = problems[0]
    assert line.startswith(f"botboard games: botboard-{second}: ")
    assert f"tile_id {CLASHING_ID} is also {first.title()}'s (botboard-{first}), which keeps it" in line
    assert "played here first: game 1 in the journal" in line
    assert f"{second.title()} is left out" in line and f"pip uninstall botboard-{second}" in line
    free = int(re.search(r"give it tile_id=(\d+), a free one", line)[1])
    assert free != CLASHING_ID and 64 <= free <= 254

    again = _run(settings, folders, "scenario", "run", str(game), "--journal")  # the first plays on
    assert again.returncode == 0, again.stderr
    refused = _run(settings, folders, "tiles", "kinds", "--game", second)
    assert refused.returncode == 2 and len(refused.stderr.splitlines()) == 1, refused.stderr
    assert f"botboard-{first}" in refused.stderr and f"botboard-{second}" in refused.stderr


def test_enrolled_tags_keep_the_id_when_neither_game_was_played(tmp_path: Path) -> None:
    settings, meta = _table(tmp_path), tmp_path / "meta"
    folders = [_game(tmp_path, "aaa"), _game(tmp_path, "zzz"), meta]
    _install(meta, "zzz")
    enrolled = _run(settings, folders, "tiles", "enroll", "--uid", "04a1b2c3d4e5f6", "--game", "zzz",
                    "order=dash")
    assert enrolled.returncode == 0, enrolled.stderr
    _install(meta, "aaa")  # sorts first: before, that alone took the id
    listed, problems = _listed(settings, folders)
    assert "zzz" in listed and "aaa" not in listed
    assert len(problems) == 1 and "which keeps it (its tags are enrolled here)" in problems[0], problems


def test_with_no_use_here_the_package_sorting_first_keeps_it_and_the_line_says_so(tmp_path: Path) -> None:
    settings, meta = _table(tmp_path), tmp_path / "meta"
    folders = [_game(tmp_path, "aaa"), _game(tmp_path, "zzz"), meta]
    _install(meta, "zzz")
    _install(meta, "aaa")
    listed, problems = _listed(settings, folders)
    assert "aaa" in listed and "zzz" not in listed
    assert len(problems) == 1 and "the package name sorting first" in problems[0], problems
