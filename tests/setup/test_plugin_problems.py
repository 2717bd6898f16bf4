"""Game plugins that cannot be used are left out with one line naming their package, and every
other game keeps working (games/registry.py): one that fails to import, one that declares
something wrong, one whose name or tile id another game has."""

from __future__ import annotations

import json
import re
from pathlib import Path

from botboard import games
from botboard.scaffold import write

from .plugins import botboard, register


def _skeleton(where: Path, name: str, **changes: str) -> Path:
    """A new game's skeleton with its declaration's text changed (old -> new)."""
    folder = write(name, where)
    declaration = folder / f"botboard_{name}" / "declaration.py"
    text = declaration.read_text()
    for old, new in changes.items():
        text = re.sub(old, new, text)
    declaration.write_text(text)
    return folder


def test_each_broken_plugin_is_one_line_naming_its_package_and_the_rest_play(tmp_path: Path) -> None:
    meta = tmp_path / "meta"
    folders = [
        _skeleton(tmp_path, "alpha", **{r"tile_id=\d+": "tile_id=200"}),  # works: neither is used here, its package sorts first
        _skeleton(tmp_path, "beta", **{r"tile_id=\d+": "tile_id=200"}),  # alpha's tile id
        _skeleton(tmp_path, "copycat", **{'name="copycat"': 'name="volt"'}),  # botboard's game's name
        _skeleton(tmp_path, "wrong", **{r"tile_id=\d+": "tile_id=7"}),  # an id kept for botboard's games
        _skeleton(tmp_path, "broken", **{"^": "import botboard_no_such_module\n"}),  # fails to import
    ]
    for folder in folders:
        name = folder.name
        register(meta, f"botboard-{name}", {"volt" if name == "copycat" else name:
                                            f"botboard_{name}.declaration:GAME"})
    done = botboard([*folders, meta], "games", "--playable", "--json")
    assert done.returncode == 0, done.stderr
    problems = done.stderr.splitlines()
    expected = {"botboard-beta": "tile_id 200 is also Alpha's (botboard-alpha), which keeps it",
                "botboard-copycat": "the name 'volt' is already VOLT's (botboard)",
                "botboard-wrong": "tile_id 7: a game from another package takes one in 64..254",
                "botboard-broken": "failed to import: ModuleNotFoundError"}
    assert len(problems) == len(expected), problems
    for package, said in expected.items():
        line = next((p for p in problems if p.startswith(f"botboard games: {package}: ")), None)
        assert line is not None and said in line, (package, problems)
    listed = {row["game"]: row for row in json.loads(done.stdout)}
    assert set(listed) == {*games.table_names(), "alpha"}
    assert listed["volt"]["package"] == "botboard" and listed["alpha"]["tile_id"] == 200
    played = botboard([*folders, meta], "scenario", "check",
                      *map(str, sorted(games.declaration("volt").scenario_folder().glob("laser-*.json"))))
    assert played.returncode == 0, played.stdout + played.stderr  # VOLT itself is untouched
