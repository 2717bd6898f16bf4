"""The engine benchmark plays whole games of any game and counts what it played."""

from __future__ import annotations

from botboard import games
from botboard.bench.engine import play


def test_botwars_counts_stages_five_per_turn() -> None:
    result = play(games.get("botwars"), 2, {}, seconds=0.5, seed=3, limit=3)
    assert result["games"] >= 1 and result["turns"] >= 3
    # every BotWars turn plays five register stages
    assert result["stages_per_s"] > 0
    assert abs(result["stages_per_s"] - 5 * result["turns_per_s"]) <= 0.1 * result["stages_per_s"]


def test_twin_tin_bots_games_end_or_are_cut_and_counted() -> None:
    result = play(games.get("twin-tin-bots"), 2, {}, seconds=0.3, seed=1, limit=20)
    assert result["games"] == result["games_finished"] + result["games_truncated"]
    assert result["turns"] <= 20 * result["games"]
    assert result["actions"] >= result["turns"]  # decisions inside turns are actions, not turns
