"""What the game tables put in a room's proposals and entries (the room layer carries opaque JSON).

Proposals, from the table where a seat sits to the host: one input each, as the
board or the seat's phone gave it::

    {"slot": 5, "state": 1, "uid": "04a1...", "payload": "01..."}   a reader's reading
    {"button": 3, "action": 1}                                        a station button
    {"touch": 12}                                                     an arena cell touched
    {"press": "confirm"} / {"decide": "c3"} / {"control": "face", "value": 2}   the seat's phone

Entries, from the host: ``{"cells": [[board cell, palette, facing, effect], ...]}`` (the
LEDs, public by the table's rules), ``{"palette": [[r, g, b], ...]}``, ``{"events": [...]}``
(session events every table may see) and ``{"view": shared view, "stations": [station of each
seat]}``, several of them in one entry (what the session showed at once); a table's private
part carries ``{"events": [...], "seat_views": {seat: view}}``.
"""

from __future__ import annotations

from typing import Any

from ..link.image import CellState

INPUTS = ("slot", "button", "touch", "press", "decide", "control")


class WireError(ValueError):
    """A proposal or entry that does not say what this module says it must."""


def cells_to_json(changes: dict[int, CellState]) -> list[list[int]]:
    return [[cell, s.palette, s.facing, s.effect] for cell, s in sorted(changes.items())]


def cells_from_json(doc: Any, cells: int) -> dict[int, CellState]:
    if not isinstance(doc, list):
        raise WireError("cells: expected a list")
    out: dict[int, CellState] = {}
    for item in doc:
        if not (isinstance(item, list) and len(item) == 4 and all(_byte(v) for v in item)
                and item[0] < cells):
            raise WireError(f"cells: {item!r} is not [cell < {cells}, palette, facing, effect]")
        out[item[0]] = CellState(item[1], item[2], item[3])
    return out


def _byte(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 255


def input_kind(payload: Any) -> str:
    """The kind of input a proposal carries; WireError if it is none of them."""
    if not isinstance(payload, dict):
        raise WireError("a proposal is an object naming one input")
    kinds = [k for k in INPUTS if k in payload]
    if len(kinds) != 1:
        raise WireError(f"a proposal names exactly one of {', '.join(INPUTS)}")
    kind = kinds[0]
    checks = {"slot": ("slot", "state"), "button": ("button", "action"), "touch": ("touch",)}
    for field in checks.get(kind, ()):
        if not _byte(payload.get(field)):
            raise WireError(f"{kind}: {field} must be a number 0-255")
    if kind == "slot":
        for field in ("uid", "payload"):
            try:
                bytes.fromhex(str(payload.get(field, "")))
            except ValueError as err:
                raise WireError(f"slot: {field} must be hex") from err
    elif kind in ("press", "decide", "control") and not isinstance(payload[kind], str):
        raise WireError(f"{kind}: expected a string")
    return kind
