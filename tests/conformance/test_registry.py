"""The games are found, never named: removing one game's entry point leaves every other game
working, and its own tests simply no longer run."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from botboard import games
from botboard.games import registry

from ..simboard import BOTBOARD

ROOT = Path(__file__).resolve().parents[2]


def _without(name: str) -> dict[str, str]:
    return {**os.environ, registry.DISABLE_ENV: name}


@pytest.mark.parametrize("name", games.names())
def test_a_game_left_out_is_gone_and_the_others_stay(name: str) -> None:
    listed = subprocess.run([BOTBOARD, "games", "--playable", "--json"], env=_without(name),
                            capture_output=True, text=True, timeout=120)
    assert listed.returncode == 0, listed.stderr
    assert sorted(g["game"] for g in json.loads(listed.stdout)) == [n for n in games.table_names() if n != name]
    suite = subprocess.run([sys.executable, "-m", "pytest", "-v", "-p", "no:xdist", "tests/conformance/test_tiles.py",
                            "tests/conformance/test_scenario_fuzz.py", "tests/test_game_agnostic.py",
                            "-k", "not value_of_any_kind"], cwd=ROOT, env=_without(name),
                           capture_output=True, text=True, timeout=600)
    assert suite.returncode == 0, suite.stdout[-3000:]
    assert f"[{name}]" not in suite.stdout and " passed" in suite.stdout  # its cases are simply gone
