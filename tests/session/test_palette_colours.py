"""Every game's LED palette keeps its roles apart on a real WS2812B (palette_rules.py says how far, and why).

Every table game in the registry is checked, so a new game's palette is checked once it is installed.
"""

from __future__ import annotations

from typing import Any

import pytest

from . import palette_rules as rules
from botboard import games
from botboard.session.palette import ROLES, VARIANTS

GAMES = games.table_names()


def entries(name: str) -> list[dict[str, Any]]:
    return list(games.table(name).palette_doc["palette"])


@pytest.mark.parametrize("name", GAMES)
def test_every_game_at_the_table_has_a_palette_file(name: str) -> None:
    assert games.table(name).palette_doc, f"{name}: give the table mapping a palette file (docs/palettes.md)"


@pytest.mark.parametrize("name", GAMES)
def test_each_entry_has_a_role_and_a_meaning(name: str) -> None:
    palette = entries(name)
    assert len(palette) == 16
    names = [e["name"] for e in palette]
    assert len(set(names)) == len(names)
    for e in palette:
        assert e.get("role") in ROLES, f"{name}: {e['name']} has no known role ({ROLES})"
        assert e.get("meaning"), f"{name}: {e['name']} says nothing for the legend"
        if e["role"] == "mark":
            assert e.get("of") in names, f"{e['name']}: 'of' must name the entry it is a dim form of"
        for key in ("rgb",) + tuple(v for v in VARIANTS if v != "standard"):
            if key in e:
                assert len(e[key]) == 3 and all(0 <= c <= 255 for c in e[key]), (e["name"], key)
    assert {"choice", "alert"} <= set(names)  # the session asks for these by name


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("name", GAMES)
def test_roles_stay_apart_on_the_ws2812(name: str, variant: str) -> None:
    short = rules.shortfalls(entries(name), variant)
    assert not short, "\n".join(f"{a} vs {b}: CIEDE2000 {d} < {need} ({cond})" for d, need, a, b, cond in short)


def test_the_rules_catch_what_players_reported() -> None:
    """The confusions found playing on the old palettes must fail the rules (the thresholds are not idle)."""
    def entry(name: str, role: str, rgb: list[int]) -> dict[str, Any]:
        return {"name": name, "role": role, "rgb": rgb}

    reported = [
        (entry("red", "seat", [255, 0, 0]), entry("alert", "alert", [255, 0, 40])),
        (entry("white", "seat", [170, 170, 170]), entry("choice", "choice", [255, 255, 255])),
        (entry("green", "seat", [0, 200, 0]), entry("crystal-green", "piece", [130, 255, 0])),
        (entry("yellow", "seat", [255, 170, 0]), entry("blob", "piece", [255, 80, 0])),
    ]
    for a, b in reported:
        assert rules.shortfalls([a, b]), (a["name"], b["name"])
