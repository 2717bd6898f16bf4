"""The game plays a whole short game at the simulated table: virtual hands lay its tiles in the
simulated board's readers for one seat, a computer plays the other, and the journal replays to
the same state (`botboard selfplay --sim`, as people would play it)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from botboard import games


def _botboard(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "botboard", *args], capture_output=True, text=True, timeout=400)


def test_a_short_game_plays_through_the_simulated_board_and_replays(tmp_path: Path, botboard_game: str) -> None:
    name = botboard_game
    if not games.declaration(name).table:
        pytest.skip(f"{name} declares no table mapping: it is played in scenarios only")
    players = games.get(name).info.min_players
    computer = ["--computer", f"{players}=greedy", "--think", "0.05"] if players > 1 else []
    done = _botboard("selfplay", "--sim", "--game", name, "--players", str(players), "--seed", "3",
                     "--data-dir", str(tmp_path), *computer)
    assert done.returncode == 0, f"{name}: `botboard selfplay --sim` failed: {done.stderr[-3000:]}"
    assert "computer player failed" not in done.stderr, f"{name}: a computer player fell back: {done.stderr[-2000:]}"
    result = json.loads(done.stdout)
    assert result["game_name"] == name and result["reason"] and result["actions"] > 2
    replayed = _botboard("replay", str(result["game"]), "--data-dir", str(tmp_path))
    assert replayed.returncode == 0 and replayed.stdout.strip() == result["state_hash"], \
        f"{name}: the journal replays to another state: the engine is not deterministic under its seed"
    exported = json.loads(_botboard("games", "--data-dir", str(tmp_path), "--export", str(result["game"])).stdout)
    assert len(exported["actions"]) == result["actions"]
