"""``botboard goblins read-box``: construction tiles written once define a box file."""

from __future__ import annotations

import json
import subprocess

from ..simboard import BOTBOARD, SimProcess


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([BOTBOARD, *args], capture_output=True, text=True, timeout=60)


def test_goblins_tiles_written_once_define_the_box() -> None:
    from botboard.games.goblins.tagcodec import tile_json
    from botboard.games.goblins.tiles import load_box

    box = load_box("placeholder")
    sim = SimProcess()
    try:
        for slot, tile_id in ((2, 5), (7, 12)):
            sim.control("place", slot=slot, uid=f"04aabbccdd{slot:02x}{tile_id:02x}")
            done = _run("tiles", "write", "--game", "goblins", "--port", sim.port, f"tile={tile_id}",
                        "--slot", str(slot))
            assert done.returncode == 0, done.stderr
        read = _run("goblins", "read-box", "--port", sim.port, "--settle", "0.5")
        assert read.returncode == 0, read.stderr
        # the tags alone carry the definitions: the same tiles as the box file
        assert json.loads(read.stdout)["tiles"] == [tile_json(box.tiles[5]), tile_json(box.tiles[12])]
        missing = _run("tiles", "write", "--game", "goblins", "--port", sim.port, "tile=999", "--slot", "2")
        assert missing.returncode == 2 and "no such tile in box" in missing.stderr
    finally:
        sim.stop()
