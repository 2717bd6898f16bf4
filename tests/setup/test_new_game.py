"""`botboard new-game NAME`: the skeleton it writes is a game from its first minute (the conformance
suite, `games --playable` and selfplay through the simulated board take it as it is), and names or
folders it cannot use are refused in one line."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

from botboard import games
from botboard.games.declaration import PLUGIN_TILE_IDS
from botboard.scaffold import free_tile_id

from .plugins import botboard, env, register

ROOT = Path(__file__).resolve().parents[2]


def _new_game(tmp_path: Path, name: str, *flags: str) -> tuple[Path, Path]:
    """The skeleton of ``name`` written by the command, and the folder that registers it."""
    done = botboard([], "new-game", name, "--dir", str(tmp_path), *flags)
    assert done.returncode == 0, done.stderr
    folder, meta = tmp_path / name, tmp_path / "meta"
    module = "botboard_" + name.replace("-", "_")
    register(meta, f"botboard-{name}", {name: f"{module}.declaration:GAME"})
    return folder, meta


def _passes_the_suite_in_its_own_folder(folder: Path, meta: Path, *command: str) -> None:
    """The author's way: the conformance plugin, from the package's own folder (no botboard checkout)."""
    suite = subprocess.run([*command, "-q", "-p", "no:cacheprovider"], capture_output=True, text=True,
                           env=env(folder, meta), cwd=folder, timeout=900)
    assert suite.returncode == 0, suite.stdout[-3000:] + suite.stderr[-2000:]
    summary = suite.stdout.strip().splitlines()[-1]
    assert " passed" in summary and "failed" not in summary and "error" not in summary
    assert int(summary.split(" passed")[0].split()[-1]) >= 15, summary  # the game's cases ran
    assert "positions" in suite.stdout  # the hidden-information measure says how many it tried


def test_the_skeleton_passes_the_conformance_suite_and_plays_at_the_table(tmp_path: Path) -> None:
    folder, meta = _new_game(tmp_path, "zap-bots")
    _passes_the_suite_in_its_own_folder(folder, meta, sys.executable, "-m", "pytest", "--botboard-game", "zap-bots")
    listed = botboard([folder, meta], "games", "--playable", "--json")
    assert listed.returncode == 0 and listed.stderr == "", listed.stderr
    row = next(r for r in json.loads(listed.stdout) if r["game"] == "zap-bots")
    assert row["title"] == "Zap Bots" and row["package"] == "botboard-zap-bots" and row["layout"] == "zap-bots"
    assert row["tile_id"] in PLUGIN_TILE_IDS and row["tile_id"] not in {d.tile_id for d in _installed()}
    played = botboard([folder, meta], "selfplay", "--sim", "--game", "zap-bots", "--seed", "2",
                      "--data-dir", str(tmp_path / "journal"), timeout=300)
    assert played.returncode == 0, played.stderr[-2000:]
    result = json.loads(played.stdout.strip().splitlines()[-1])
    assert result["game_name"] == "zap-bots" and len(result["winner"]) == 1 and result["actions"] >= 3


def test_the_simultaneous_skeleton_programs_in_secret_and_passes_the_suite(tmp_path: Path) -> None:
    """`new-game --simultaneous`: both seats program at once (a SimultaneousTable), a laid program is
    hidden from the other seat, the shared view and the log until both are laid; `botboard check-game`
    runs the suite (whose hidden-information check measures that) in the package's folder."""
    folder, meta = _new_game(tmp_path, "hush-bots", "--simultaneous")
    probe = subprocess.run([sys.executable, "-c", """
import json
from botboard import games
from botboard.games.simultaneous import SimultaneousTable
game, table = games.get("hush-bots"), games.table("hush-bots")()
laid = game.apply_str(game.new_game(2), "p2 program dash")[0]
print(json.dumps([isinstance(table, SimultaneousTable), table.acting_seats(game.new_game(2)), table.acting_seats(laid),
                  table.seat_view(laid, 1)["program"], json.dumps(table.seat_view(laid, 0)),
                  json.dumps(table.public_view(laid)), table.public_action(laid, "p2 program dash"),
                  game.observe(laid, None)["programs"]["p2"]]))
"""], capture_output=True, text=True, env=env(folder, meta), timeout=120)
    assert probe.returncode == 0, probe.stderr
    simultaneous, both, left, own, other_seat, shared, log, referee = json.loads(probe.stdout)
    assert simultaneous and both == [0, 1] and left == [0] and own == "dash" and referee == "dash"
    assert '"program": null' in other_seat and '"p2": "hidden"' in shared and "dash" not in log and "hidden" in log
    _passes_the_suite_in_its_own_folder(folder, meta, str(Path(sys.executable).parent / "botboard"),
                                        "check-game", "hush-bots", "--")


def _installed() -> list[games.GameDeclaration]:
    return list(games.registry.declarations().values())


def test_the_tile_id_is_free_and_drawn_at_random() -> None:
    taken = {d.tile_id for d in _installed()}
    drawn = {free_tile_id(random.Random(seed)) for seed in range(40)}
    assert drawn <= set(PLUGIN_TILE_IDS) - taken
    assert len(drawn) > 20  # not one fixed id that two new games would share


def test_a_name_taken_or_malformed_and_an_existing_folder_are_refused_in_one_line(tmp_path: Path) -> None:
    for name, said in (("volt", "already VOLT's"), ("Big Game", "lower-case letters"), ("x", "2-32")):
        done = botboard([], "new-game", name, "--dir", str(tmp_path))
        assert done.returncode == 2 and said in done.stderr and len(done.stderr.splitlines()) == 1, done.stderr
    (tmp_path / "taken").mkdir()
    done = botboard([], "new-game", "taken", "--dir", str(tmp_path))
    assert done.returncode == 2 and "exists already" in done.stderr
    assert list((tmp_path / "taken").iterdir()) == []  # nothing written over it
