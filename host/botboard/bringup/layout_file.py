"""The corrected layout as a file, and what changed, as a diff a maker can read."""

from __future__ import annotations

import difflib
import json
import re
from pathlib import Path
from typing import Any

from ..board.layouts import Layout, from_json

_PAIR = re.compile(r"\[\s+(-?\d+),\s+(-?\d+)\s+\]")


def corrected(layout: Layout, cells: list[tuple[int, int]] | None = None,
              slots: list[list[int]] | None = None, buttons: list[dict[str, int]] | None = None,
              power_ma: int | None = None) -> dict[str, Any]:
    """The layout's document with the parts bringup found wired otherwise; the rest as it was.
    Checked as any layout file is (LayoutError if the result were not a layout)."""
    doc = layout.to_json()
    if cells is not None:
        doc["cells"] = [list(c) for c in cells]
    for s, station in enumerate(doc["stations"]):
        if slots is not None:
            station["slots"] = list(slots[s])
        if buttons is not None:
            station["buttons"] = dict(buttons[s])
    if power_ma is not None:
        doc["power_ma"] = power_ma
    from_json(doc, f"the corrected layout of {layout.id}")
    return doc


def text(doc: dict[str, Any]) -> str:
    """JSON with a coordinate pair on one line, so that a diff shows one line per cell."""
    return _PAIR.sub(r"[\1, \2]", json.dumps(doc, indent=1)) + "\n"


def diff(before: dict[str, Any], after: dict[str, Any], path: str) -> str:
    return "".join(difflib.unified_diff(text(before).splitlines(True), text(after).splitlines(True),
                                        f"{before['id']} (as it was)", path))


def write(doc: dict[str, Any], path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(text(doc))
    tmp.replace(path)  # a half-written layout is never left where the board's would be
