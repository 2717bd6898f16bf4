"""What a VOLT seat's phone says about its own robot, as its operator would say it."""

from __future__ import annotations

from typing import Any

Rows = list[tuple[str, str]]


def seat_words(own: dict[str, Any]) -> Rows:
    """``own``: the engine's record of the seat's robot, seen by its operator."""
    facing = own.get("facing")
    where = f"on {own['square']}" + (f", facing {facing}" if facing else "") if own.get("square") else "off the arena"
    program = own.get("program")
    rows: Rows = [
        ("your robot", "destroyed" if own.get("destroyed") else where),
        ("damage", str(own.get("damage", 0))),
        ("victory points", str(own.get("vp", 0))),
        ("modules fitted", ", ".join(own.get("modules") or []) or "none"),
        ("modules in hand", ", ".join(own["inventory"]) if isinstance(own.get("inventory"), list)
         and own["inventory"] else "none"),
        ("program", "locked in, waiting for the others" if own.get("submitted")
         else ", ".join(program) if isinstance(program, list) and program else "not laid yet"),
    ]
    if own.get("mines_held"):
        rows.append(("mines to lay", str(own["mines_held"])))
    return rows
