"""Whole games of Goblins, Inc. with four players through the simulated board: selfplay, and replay agreeing with it."""

from __future__ import annotations

from pathlib import Path

import pytest

from ..session.test_selfplay import _botboard, _replayed, _selfplay


@pytest.mark.parametrize("players,seed", [(4, 2)])  # two seats: the conformance suite
def test_goblins_selfplay_builds_and_fights_through_the_yards_and_replay_agrees(
        tmp_path: Path, players: int, seed: int) -> None:
    # the short game, one round of building, agendas and combat (selfplay's default; the
    # second round's start at the table: tests/session/test_round_boundary.py; --full:
    # tests/session/test_cli.py)
    result = _selfplay(tmp_path, "--sim", "--game", "goblins", "--players", str(players),
                       "--seed", str(seed))
    assert result["game_name"] == "goblins" and result["winner"] and "Boss" in result["reason"]
    assert result["actions"] >= 40  # a round of forty tiles laid on the yards, and decisions
    assert _replayed(tmp_path, result["game"]) == result["state_hash"]
    listing = _botboard("games", "--data-dir", str(tmp_path))  # the outcome in the table's words
    assert f"{result['winner'][0]} won" in listing and f"{result['winner'][0]} has the most points" in listing
