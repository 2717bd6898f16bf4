"""Wiring faults for the simulated board, as a maker gives them on the command line.

``botboard sim --fault swap:0,1 --fault reverse:1 --fault dead:7 --fault cross:9,10 --fault sag``
builds a simulated board wired as a first board often is (firmware/bbfw/sim/faults.py does them),
so that ``botboard bringup`` can be tried, and tested, without hardware.
"""

from __future__ import annotations

import json
from typing import Any, Sequence

from ..resources import ROOT
from .layouts import Layout, LayoutError

SUPPLIES = ROOT / "firmware" / "bbfw" / "sim" / "supplies.json"
HELP = ("swap:A,B (the readers of slots A and B on each other's cable), dead:R (reader R does not "
        "answer), cross:X,Y (reader X also hears a tile on slot Y), reverse:C (LED chain C wired "
        "from its far end), sag (an undersized LED supply)")


class FaultError(LayoutError):
    """A --fault that is not one of the known ones, or names what the layout lacks."""


def supply(name: str) -> dict[str, int]:
    """The open voltage and source resistance of a simulated supply (supplies.json)."""
    entry = json.loads(SUPPLIES.read_text())[name]
    return {"open_mv": int(entry["open_mv"]), "source_mohm": int(entry["source_mohm"])}


def parse(specs: list[str], layout: Layout) -> dict[str, Any]:
    """The faults document the simulated board loads; FaultError says which spec is wrong."""
    doc: dict[str, Any] = {"swap": [], "dead": [], "cross": [], "reverse": [],
                           "supply": supply("reference")}
    for spec in specs:
        kind, _, args = spec.partition(":")
        try:
            numbers = [int(a) for a in args.split(",")] if args else []
        except ValueError:
            raise FaultError(f"--fault {spec}: the numbers after ':' must be whole numbers; "
                             f"faults: {HELP}") from None
        if kind == "sag" and not numbers:
            doc["supply"] = supply("sagging")
        elif kind in ("swap", "cross") and len(numbers) == 2 and numbers[0] != numbers[1]:
            _check(spec, numbers, layout.slot_count, "slot")
            doc[kind].append(numbers)
        elif kind == "dead" and len(numbers) == 1:
            _check(spec, numbers, layout.slot_count, "slot")
            doc["dead"].append(numbers[0])
        elif kind == "reverse" and len(numbers) == 1:
            _check(spec, numbers, len(layout.chains), "LED chain")
            doc["reverse"].append(numbers[0])
        else:
            raise FaultError(f"--fault {spec}: not a fault the simulated board knows; faults: {HELP}")
    return doc


def _check(spec: str, numbers: list[int], count: int, what: str) -> None:
    for n in numbers:
        if not 0 <= n < count:
            raise FaultError(f"--fault {spec}: no {what} {n}; this layout has {what}s 0..{count - 1}")


def physical_order(doc: dict[str, Any], chains: Sequence[dict[str, int]], cells: int) -> list[int]:
    """For each cell position where LEDs physically are, the cell whose LEDs light there: a
    reversed chain's cells in reverse (as firmware/bbfw/sim/faults.py wires them)."""
    order = list(range(cells))
    for c in doc.get("reverse", ()):
        first, count = chains[c]["first_cell"], chains[c]["cells"]
        order[first:first + count] = reversed(order[first:first + count])
    return order
