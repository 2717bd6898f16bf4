"""The floor as one ruleset's rules see it: per-square tables built once per board and ruleset.

    floor = floor_of(board, "v2.1", ruleset("v2.1"))
    floor.belts.get(square)  # (way, blue) of the conveyor there, or None

A stage asks every robot's square what lies under it in each pass (conveyor,
pusher, gear, crusher, checkpoint) and every beam which robots it crosses;
reading the element documents and tracing the turrets' beams each time cost
more than the rules themselves. The tables hold exactly what those documents
say (a ruleset without an element has no entry for it), so behaviour does not
change; ``Board.derived`` keeps them with the board.
"""

from __future__ import annotations

from typing import Any, Mapping

from .board import FACINGS, Board, Square

ENTRY = frozenset({"switch", "pit", "drawbridge", "teleporter"})  # act on a robot that moves in
_GEAR_TURNS = {"L": -1, "R": 1, "U": 2}
STAGE_NUMBERS = range(6)  # index 0 unused: stages are 1..5


class Floor:
    def __init__(self, board: Board, rules: Mapping[str, Any]) -> None:
        elements = frozenset(rules["elements"])
        self.cells = board.cells_of(elements)
        self.entry = frozenset(sq for sq, c in self.cells.items() if c["type"] in ENTRY)
        of = self._of
        self.belts: dict[Square, tuple[int, bool]] = {
            sq: (FACINGS.index(c["dir"]), c["colour"] == "blue") for sq, c in of("conveyor")}
        # per stage: pusher square -> the way it pushes; crusher squares
        self.pushes: tuple[dict[Square, int], ...] = tuple(
            {sq: FACINGS.index(c["dir"]) for sq, c in of("pusher") if stage in c["stages"]}
            for stage in STAGE_NUMBERS)
        self.crushes: tuple[frozenset[Square], ...] = tuple(
            frozenset(sq for sq, c in of("crusher") if stage in c["stages"]) for stage in STAGE_NUMBERS)
        self.gears: dict[Square, int] = {  # quarter turns clockwise
            sq: _GEAR_TURNS[c["turn"]] for sq, c in of("gear") if c["turn"] != "U" or rules["gear_180"]}
        self.marks = self._marks(board)
        self.walked, self.cover = self._turrets(board)

    def _of(self, kind: str) -> list[tuple[Square, Mapping[str, Any]]]:
        return [(sq, c) for sq, c in self.cells.items() if c["type"] == kind]

    def _marks(self, board: Board) -> dict[Square, tuple[int, bool, bool]]:
        """What the end of a stage looks at: square -> (flag number or 0, repair, upgrade)."""
        marks = {}
        for square in {*board.flags, *(sq for sq, _ in self._of("repair")), *(sq for sq, _ in self._of("upgrade"))}:
            kind = self.cells[square]["type"] if square in self.cells else None
            marks[square] = (board.flag_number(square), kind == "repair", kind == "upgrade")
        return marks

    @staticmethod
    def _turrets(board: Board) -> tuple[frozenset[int], dict[Square, tuple[tuple[int, int], ...]]]:
        """(turrets whose beam crosses a drawbridge, walked square by square; for the others,
        square -> (turret index, the square's place on its beam)): a beam's hits come from
        the squares robots stand on."""
        walked = set()
        cover: dict[Square, list[tuple[int, int]]] = {}
        for index, laser in enumerate(board.lasers):
            beam = board.beam(laser.square, laser.facing, False)
            if beam.over_bridge:
                walked.add(index)
                continue
            for place, square in enumerate(beam.squares):
                cover.setdefault(square, []).append((index, place))
        return frozenset(walked), {sq: tuple(found) for sq, found in cover.items()}


def floor_of(board: Board, name: str, rules: Mapping[str, Any]) -> Floor:
    """The tables for ``board`` under the ruleset ``name`` (whose switches are ``rules``)."""
    key = ("floor", name)
    found: Floor | None = board.derived.get(key)
    if found is None:
        found = board.derived[key] = Floor(board, rules)
    return found
