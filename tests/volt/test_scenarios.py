"""The required scenarios exist (every file is checked by tests/conformance/test_scenarios.py):
one per answered FAQ question, per module, per activation-order tie rule and per phase step."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from botboard import games
from botboard.games import scenario
from botboard.games.volt.modules import table

DIR = games.declaration("volt").scenario_folder()
FILES = sorted(DIR.glob("*.json"))
FAQ = ["1a", "1b", "1c", "1d", "1e", "1f", "2a", "3a", "3c", "3e", "3f", "3g", "3h", "4a", "4b", "4c", "4d", "4f", "4g",
       "4h", "4i", "4j", "4k", "5a", "5b", "5c", "5d", "6a", "6c", "6d", "6e", "6f", "7c", "7d"]
ORDER = ["order-lowest-number-first", "order-blue-before-red", "order-starting-number", "order-units"]
PHASES = ["phase0-vp-draw-below-3", "phase0-no-draw-at-3", "phase0-vp-draw-every-round", "phase0-reboot-choice",
          "phase0-equip", "phase3-collect-token", "faq-3g-high-voltage-before-collecting", "workshop-repair",
          "workshop-draw", "faq-1c-resolution-order-ends-game", "win-training-3-vp", "win-full-5-vp-by-destruction"]


def test_every_answered_faq_question_has_a_scenario() -> None:
    names = {p.stem for p in FILES}
    missing = [q for q in FAQ if not any(n.startswith(f"faq-{q}-") for n in names)]
    assert missing == []


def test_every_module_appears_in_a_scenario() -> None:
    used: set[str] = set()
    for path in FILES:
        for robot in json.loads(path.read_text()).get("position", {}).get("robots", {}).values():
            used.update(robot.get("modules", []), robot.get("monitor", {}).values())
    assert set(table()) - used == set()


def test_order_rules_and_phase_steps_have_scenarios() -> None:
    names = {p.stem for p in FILES}
    assert [n for n in ORDER + PHASES if n not in names] == []


GOLDEN = sorted((Path(__file__).parent / "golden").glob("*.json"))


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_golden_playthrough(path: Path) -> None:
    """Recorded random games replay to the same state (hash), positions and VP."""
    doc = scenario.load(path)
    assert scenario.check(doc, scenario.run(doc)) == []
