"""What a Goblins, Inc. seat's phone says about its own part, as a player would say it."""

from __future__ import annotations

from typing import Any

Rows = list[tuple[str, str]]


def seat_words(view: dict[str, Any]) -> Rows:
    """``view``: the seat's own view (public.seat_view): team, partner, role, agendas, controller."""
    partner = " and ".join(view["partner"]) or "nobody: you build alone"
    rows: Rows = [
        ("you build", f"{view['team']}, with {partner}"),
        ("your role", str(view["role"])),
        ("your score", str(view["score"])),
    ]
    if view["agendas_to_choose"]:
        rows.append(("agendas to choose from", ", ".join(view["agendas_to_choose"])))
    rows.append(("your secret agendas", ", ".join(view["agendas"]) or "none yet"))
    for setting, value in view["your_controller"].items():
        rows.append((f"your {setting}", str(value)))
    return rows
