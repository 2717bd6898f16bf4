"""Whole games of Twin Tin Bots through the simulated board: selfplay, and replay agreeing with it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ..session.test_selfplay import _botboard, _replayed, _selfplay


@pytest.mark.parametrize("players,seed,variants", [(2, 6, None), (4, 2, "all"), (6, 3, None)])
def test_selfplay_plays_a_whole_game_and_replay_agrees(tmp_path: Path, players: int, seed: int,
                                                       variants: str | None) -> None:
    extra = [f"--option={piece}=1" for piece in ("teleporters", "rocks", "blobs", "mud")] if variants else []
    result = _selfplay(tmp_path, "--sim", "--game", "twin-tin-bots", "--players", str(players), "--seed",
                       str(seed), *extra)
    assert result["winner"] and result["players"] == players
    assert result["turns"] >= 4 * players  # every player's first turn, then the countdown rounds
    assert _replayed(tmp_path, result["game"]) == result["state_hash"]
    record = json.loads(_botboard("games", "--data-dir", str(tmp_path), "--export",
                                  str(result["game"])))
    assert record["final_hash"] == result["state_hash"] and record["players"] == players
    if players == 2:
        assert result["actions"] > result["turns"]  # seed 6 has a zap: decided on the board
    if variants:
        assert any(record["options"].get(k) for k in ("teleporters", "rocks", "blobs", "mud"))
