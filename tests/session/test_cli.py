"""The tiles, games and replay commands: their output and their errors."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from botboard import games
from botboard.board import layouts
from botboard.session.enrolled import Enrolled

from ..simboard import BOTBOARD, SimProcess


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([BOTBOARD, *args], capture_output=True, text=True, timeout=60)


def _spec_args(catalogue: Any, tile: Any) -> list[str]:
    return [f"{key}={value}" for key, value in catalogue.spec(tile).items()]


@pytest.mark.parametrize("game", games.names())
def test_tiles_enroll_and_list_every_game(tmp_path: Path, game: str) -> None:
    catalogue = games.catalogue(game)
    tile = list(catalogue.every_tile())[-1]
    done = _run("tiles", "enroll", "--game", game, "--uid", "04a1b2c3d4e5f6", *_spec_args(catalogue, tile),
                "--data-dir", str(tmp_path))
    assert done.returncode == 0, done.stderr
    registry = Enrolled(tmp_path, game, catalogue)
    assert registry.tags["04a1b2c3d4e5f6"] == tile
    listed = _run("tiles", "list", "--game", game, "--data-dir", str(tmp_path))
    assert json.loads(listed.stdout) == {"04a1b2c3d4e5f6": catalogue.words(tile)}
    field = catalogue.fields()[0].name
    bad = _run("tiles", "enroll", "--game", game, "--uid", "04a1", f"{field}=XX", "--data-dir", str(tmp_path))
    assert bad.returncode == 2 and "XX" in bad.stderr and "Traceback" not in bad.stderr
    shapeless = _run("tiles", "enroll", "--game", game, "--uid", "04a1", "nonsense")
    assert shapeless.returncode == 2 and "FIELD=VALUE" in shapeless.stderr


def test_tiles_write_goes_through_the_board_to_the_tag() -> None:
    sim = SimProcess()
    try:
        for slot, game in enumerate(games.names(), start=3):
            catalogue = games.catalogue(game)
            tile = list(catalogue.every_tile())[1]
            sim.control("place", slot=slot, uid=f"04aabbccddee{slot:02x}")  # a blank tag on the reader
            done = _run("tiles", "write", "--game", game, "--port", sim.port, *_spec_args(catalogue, tile),
                        "--slot", str(slot))
            assert done.returncode == 0, done.stderr
            result = json.loads(done.stdout)
            assert result["uid"] == f"04aabbccddee{slot:02x}"
            assert catalogue.from_payload(bytes.fromhex(result["payload"])) == tile
            # the NTAG213 model now holds the payload: the board's reader reads it back
            assert sim.control("tag", slot=slot)["payload"] == result["payload"], (game, slot, done.stdout, [sim.control("tag", slot=s)["payload"] for s in range(3, slot + 1)])
        spec = _spec_args(catalogue, tile)
        empty = _run("tiles", "write", "--game", game, "--port", sim.port, *spec, "--slot", "0")
        assert empty.returncode == 2 and "put a tag on the reader" in empty.stderr
        missing = _run("tiles", "write", "--game", game, "--port", "/dev/ttyACM7", *spec)
        assert missing.returncode == 2 and "plug the board in" in missing.stderr
    finally:
        sim.stop()


def test_games_and_replay_name_a_missing_journal_or_game(tmp_path: Path) -> None:
    done = _run("games", "--data-dir", str(tmp_path))
    assert done.returncode == 2 and "no journal" in done.stderr
    (tmp_path / "j").mkdir()
    from botboard.session.journal import Journal

    Journal.in_dir(tmp_path / "j").create_game("twin-tin-bots", 2, {}, 1, "ttb-small")
    missing = _run("replay", "7", "--data-dir", str(tmp_path / "j"))
    assert missing.returncode == 2 and "no game 7" in missing.stderr
    fresh = _run("replay", "1", "--data-dir", str(tmp_path / "j"))
    assert fresh.returncode == 0 and len(fresh.stdout.strip()) == 16


def test_games_playable_lists_each_table_game_with_the_players_its_board_seats() -> None:
    done = _run("games", "--playable", "--json")
    assert done.returncode == 0, done.stderr
    listed = {g["game"]: g for g in json.loads(done.stdout)}
    assert sorted(listed) == games.table_names()
    for name, row in listed.items():
        info, mapping = games.get(name).info, games.table(name)
        low, high = row["players"]
        assert info.min_players == low <= high <= info.max_players
        assert row["layout"] == mapping.default_layout(low) and row["tile_id"] == games.declaration(name).tile_id
    helped = " ".join(_run("run", "--help").stdout.split()).replace("- ", "-")  # argparse wraps at dashes
    assert ", ".join(layouts.names()) in helped and ", ".join(games.table_names()) in helped


@pytest.mark.parametrize("game", [g for g in games.table_names() if games.declaration(g).quick_options])
def test_selfplay_plays_the_declared_short_game_unless_full(game: str) -> None:
    """selfplay's default is the short game a game declares; --full plays its standard length
    (the tests' whole games are short ones: this is what --full changes)."""
    from botboard.cli import build_parser
    from botboard.cli.selfplay import check

    args = ["selfplay", "--sim", "--game", game, "--players", str(games.get(game).info.min_players)]
    short = check(build_parser().parse_args(args))
    assert short == dict(games.declaration(game).quick_options)
    assert check(build_parser().parse_args([*args, "--full"])) == {}
    key, value = next(iter(short.items()))
    assert check(build_parser().parse_args([*args, "--full", "--option", f"{key}={value}"])) == short
