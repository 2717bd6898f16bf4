"""BotWars plays every recorded seeded game and stage exactly as before (fingerprints.py).

A speed change must not change a rule: each fingerprint hashes every state and
event of 30 random games or 150 crowded single stages, and the games also check
that stepping without events (``advance``) reaches the same states as ``apply``.
"""

from __future__ import annotations

import json

import pytest

from . import fingerprints as fp

RECORDED = json.loads(fp.RECORDED.read_text())


@pytest.mark.parametrize("ruleset", fp.RULESETS)
@pytest.mark.parametrize("board", fp.BOARDS)
def test_seeded_games_play_as_recorded(board: str, ruleset: str) -> None:
    assert fp.games(board, ruleset) == RECORDED[f"games {board} {ruleset}"], (
        "behaviour changed; if intended, regenerate with `.venv/bin/python -m tests.botwars.fingerprints`")


@pytest.mark.parametrize("ruleset", fp.RULESETS)
@pytest.mark.parametrize("board", fp.BOARDS)
def test_crowded_stages_play_as_recorded(board: str, ruleset: str) -> None:
    assert fp.stages(board, ruleset) == RECORDED[f"stages {board} {ruleset}"], (
        "behaviour changed; if intended, regenerate with `.venv/bin/python -m tests.botwars.fingerprints`")
