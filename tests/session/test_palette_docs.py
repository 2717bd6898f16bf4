"""docs/palettes.md states the thresholds the palette test uses (tests/test_generated_docs.py keeps
the page in step with the palette files)."""

from __future__ import annotations

from pathlib import Path

from . import palette_rules as rules

MAKER = Path(__file__).resolve().parents[2] / "docs" / "make_palettes.py"


def test_docs_state_the_thresholds_the_test_uses() -> None:
    text = (MAKER.parent / "palettes.md").read_text()
    for number in (rules.ALERT_VS_SEAT, rules.AT_A_GLANCE, rules.DIM_APART, *rules.CVD_NEEDED.values()):
        assert f"**{number:g}**" in text
