"""docs/palettes.md and its swatches are what docs/make_palettes.py makes of the palette files."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from . import palette_rules as rules

MAKER = Path(__file__).resolve().parents[2] / "docs" / "make_palettes.py"


def maker() -> object:
    spec = importlib.util.spec_from_file_location("make_palettes", MAKER)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_docs_are_in_sync_with_the_palette_files() -> None:
    for path, text in maker().render().items():  # type: ignore[attr-defined]
        assert path.exists() and path.read_text() == text, \
            f"{path.name} is out of date: run .venv/bin/python docs/make_palettes.py"


def test_docs_state_the_thresholds_the_test_uses() -> None:
    text = (MAKER.parent / "palettes.md").read_text()
    for number in (rules.ALERT_VS_SEAT, rules.AT_A_GLANCE, rules.DIM_APART, *rules.CVD_NEEDED.values()):
        assert f"**{number:g}**" in text
