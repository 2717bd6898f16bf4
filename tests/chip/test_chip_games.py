"""Whole games on the emulated Pico: the same seed gives the same journal as on the unix port.

Apart from test_chip_board.py, so that its started board is gone before these start theirs
(an emulated Pico takes a core of its own, idle or not).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.chip.conftest import PATIENCE_S, needs_chip
from tests.patience import Deadline

# a hang guard only (pytest-timeout): the waits inside scale with load
pytestmark = [needs_chip, pytest.mark.timeout(3600)]
BOTBOARD = str(Path(sys.executable).parent / "botboard")


@pytest.mark.parametrize("game", ["twin-tin-bots"])
def test_a_short_game_on_the_emulated_pico_ends_hash_equal_to_the_unix_port(
        game: str, tmp_path: Path) -> None:
    """Tiles read through the real port's SPI, confirms through its matrix, the scene on its
    PIO: the same seed gives the same journal on both boards. (BotWars: the slow tier.)"""
    _same_game_on_both(game, tmp_path)


@pytest.mark.slow
@pytest.mark.parametrize("game", ["botwars"])
def test_a_short_game_of_another_kind_on_the_emulated_pico(game: str, tmp_path: Path) -> None:
    _same_game_on_both(game, tmp_path)


def _same_game_on_both(game: str, tmp_path: Path) -> None:
    results = []
    for chip_flag in ([], ["--chip", "rp2040"]):
        done = subprocess.run([BOTBOARD, "selfplay", "--sim", "--game", game, "--players", "2",
                               "--seed", "3", "--data-dir", str(tmp_path / (chip_flag[-1] if chip_flag else "unix")),
                               *chip_flag], capture_output=True, text=True, timeout=Deadline(20 * PATIENCE_S).left())
        assert done.returncode == 0, done.stderr[-2000:]
        results.append(json.loads(done.stdout.strip().splitlines()[-1]))
    unix, on_chip = results
    assert on_chip["state_hash"] == unix["state_hash"] and on_chip["actions"] == unix["actions"] > 0
