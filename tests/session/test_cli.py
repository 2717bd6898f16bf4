"""The tiles, games and replay commands: their output and their errors."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from botboard.games.twintinbots.table.tiles import Registry, Tile, from_payload
from botboard.games.twintinbots import content as C

from ..simboard import BOTBOARD, SimProcess


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([BOTBOARD, *args], capture_output=True, text=True, timeout=60)


def test_tiles_enroll_and_list(tmp_path: Path) -> None:
    done = _run("tiles", "enroll", "--uid", "04a1b2c3d4e5f6", "--kind", "UL", "--colour", "yellow",
                "--data-dir", str(tmp_path))
    assert done.returncode == 0, done.stderr
    assert Registry(tmp_path).tags["04a1b2c3d4e5f6"] == Tile(C.TILE_BY_CODE["UL"], 3)
    bad = _run("tiles", "enroll", "--uid", "04a1", "--kind", "XX", "--data-dir", str(tmp_path))
    assert bad.returncode == 2 and "not a tile kind" in bad.stderr


def test_tiles_write_goes_through_the_board_to_the_tag() -> None:
    sim = SimProcess()
    try:
        sim.control("place", slot=3, uid="04aabbccddee01")  # a blank tag on the reader
        done = _run("tiles", "write", "--port", sim.port, "--kind", "F2", "--colour", "green",
                    "--slot", "3")
        assert done.returncode == 0, done.stderr
        result = json.loads(done.stdout)
        assert result["uid"] == "04aabbccddee01"
        assert from_payload(bytes.fromhex(result["payload"])) == Tile(C.TILE_BY_CODE["F2"], 2)
        # the NTAG213 model now holds the payload: the board's reader reads it back
        tag = sim.control("tag", slot=3)["payload"]
        assert tag == result["payload"]
        empty = _run("tiles", "write", "--port", sim.port, "--kind", "F2", "--colour", "green",
                     "--slot", "4")
        assert empty.returncode == 2 and "put a tag on the reader" in empty.stderr
        missing = _run("tiles", "write", "--port", "/dev/ttyACM7", "--kind", "F2", "--colour", "green")
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


def test_goblins_tiles_written_once_define_the_box() -> None:
    from botboard.games.goblins.tagcodec import tile_json
    from botboard.games.goblins.tiles import load_box

    box = load_box("placeholder")
    sim = SimProcess()
    try:
        for slot, tile_id in ((2, 5), (7, 12)):
            sim.control("place", slot=slot, uid=f"04aabbccdd{slot:02x}{tile_id:02x}")
            done = _run("tiles", "write", "--port", sim.port, "--goblins-tile", str(tile_id),
                        "--slot", str(slot))
            assert done.returncode == 0, done.stderr
        read = _run("tiles", "read-box", "--port", sim.port, "--settle", "0.5")
        assert read.returncode == 0, read.stderr
        # the tags alone carry the definitions: the same tiles as the box file
        assert json.loads(read.stdout)["tiles"] == [tile_json(box.tiles[5]), tile_json(box.tiles[12])]
        missing = _run("tiles", "write", "--port", sim.port, "--goblins-tile", "999", "--slot", "2")
        assert missing.returncode == 2 and "no tile 999" in missing.stderr
    finally:
        sim.stop()


def test_games_playable_lists_each_table_game_with_the_players_its_board_seats() -> None:
    done = _run("games", "--playable", "--json")
    assert done.returncode == 0, done.stderr
    games = {g["game"]: g for g in json.loads(done.stdout)}
    assert set(games) == {"twin-tin-bots", "botwars", "volt", "goblins"}
    assert games["botwars"]["players"] == [1, 4]  # the rules take 8, the botwars board seats 4
    assert games["twin-tin-bots"]["players"] == [2, 6] and games["goblins"]["layout"] == "goblins"
    helped = _run("run", "--help")
    assert "botwars, goblins, ttb-big, ttb-small, volt" in " ".join(helped.stdout.split())
