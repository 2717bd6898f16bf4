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
    """Both boards play at once (the unix port's game is over while the emulated Pico's
    still runs: one waits less)."""
    deadline = Deadline(20 * PATIENCE_S)
    running = [subprocess.Popen([BOTBOARD, "selfplay", "--sim", "--game", game, "--players", "2",
                                 "--seed", "3", "--data-dir", str(tmp_path / (flag[-1] if flag else "unix")),
                                 *flag], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
               for flag in ([], ["--chip", "rp2040"])]
    results = []
    try:
        for proc in running:
            out, err = proc.communicate(timeout=deadline.left())
            assert proc.returncode == 0, err[-2000:]
            results.append(json.loads(out.strip().splitlines()[-1]))
    finally:
        for proc in running:
            if proc.poll() is None:
                proc.terminate()
                proc.communicate()
    unix, on_chip = results
    assert on_chip["state_hash"] == unix["state_hash"] and on_chip["actions"] == unix["actions"] > 0
