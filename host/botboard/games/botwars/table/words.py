"""What a BotWars seat's phone says about its own robot, as a player would say it."""

from __future__ import annotations

from typing import Any

from ..state import MAX_HP

Rows = list[tuple[str, str]]


def seat_words(own: dict[str, Any], flags_to_win: int) -> Rows:
    """``own``: the engine's record of the seat's robot, seen by its owner."""
    locked = [str(r + 1) for r in sorted(int(k) for k in own.get("fused", {}))]
    program = own.get("program")
    rows: Rows = [
        ("your robot", f"on {own['square']}, facing {own['facing']}" if own.get("square") else "off the board"),
        ("health", f"{own['hp']} of {MAX_HP}"),
        ("lives left", str(own["lives"])),
        ("flags touched", f"{own['flags']} of {flags_to_win}"),
        ("restarts at", str(own.get("checkpoint") or "–")),
        ("program", "locked in, waiting for the others" if own.get("submitted")
         else ", ".join(program) if isinstance(program, list) and program else "not laid yet"),
    ]
    if locked:
        rows.append(("locked registers", ", ".join(locked)))
    if own.get("rebooting") or own.get("reboot_next"):
        rows.append(("reboot", "this turn" if own.get("rebooting") else "next turn"))
    return rows
