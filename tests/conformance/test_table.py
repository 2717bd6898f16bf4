"""Every table game plays a whole short game at the simulated table: virtual hands lay its tiles
in the simulated board's readers for one seat, a computer plays the other, and the journal
replays to the same state.

`botboard selfplay --sim` plays it as people would: the game's own ``random_program`` and
``station_tiles`` say what to lay, its catalogue makes the tags, the firmware reads them.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from botboard import games

from ..simboard import BOTBOARD


def _botboard(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([BOTBOARD, *args], capture_output=True, text=True, timeout=400)


@pytest.mark.parametrize("name", games.table_names())
def test_a_short_game_plays_through_the_simulated_board_and_replays(tmp_path: Path, name: str) -> None:
    players = games.get(name).info.min_players
    computer = ["--computer", f"{players}=greedy", "--think", "0.05"] if players > 1 else []
    done = _botboard("selfplay", "--sim", "--game", name, "--players", str(players), "--seed", "3",
                     "--data-dir", str(tmp_path), *computer)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "computer player failed" not in done.stderr  # a failing player would fall back silently
    result = json.loads(done.stdout)
    assert result["game_name"] == name and result["reason"] and result["actions"] > 2
    replayed = _botboard("replay", str(result["game"]), "--data-dir", str(tmp_path))
    assert replayed.returncode == 0 and replayed.stdout.strip() == result["state_hash"]
    exported = json.loads(_botboard("games", "--data-dir", str(tmp_path), "--export", str(result["game"])).stdout)
    assert len(exported["actions"]) == result["actions"]
