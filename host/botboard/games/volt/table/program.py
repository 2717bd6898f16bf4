"""From a station's die slots and the phone's settings to a VOLT program, or a refusal.

Slots 1-3 are control units I, II and III, left to right; slot 4 takes a
fourth die, on a unit of the operator's choice, only with RAM EXPANSION. A
die tile says its colour; its face and its key come from the operator's
settings (the seat view: "I number", "I key", ...), which stay from round to
round. Every word here goes to that operator's phone: a program is secret
until every operator has confirmed.
"""

from __future__ import annotations

from typing import Any

from ....session.mapping import StationReading, Verdict
from ...base import GameError
from ..grid import KEYS, UNITS
from ..state import Robot, State
from .leds import SEAT_COLOURS
from .tiles import ANYBODY

SLOTS = 4
FOURTH = "IV"  # the settings' name for the fourth die (RAM EXPANSION)
SLOT_NAMES = (*(f"unit {u}" for u in UNITS), "fourth die")


def read_station(tiles: list[Any], slots: list[int]) -> StationReading:
    return StationReading.by_position(tiles, slots, SLOT_NAMES)


def die_settings(settings: dict[str, Any], name: str) -> tuple[int, str]:
    return int(settings.get(f"{name} number", 1)), str(settings.get(f"{name} key", "N"))


def controls(robot: Robot, settings: dict[str, Any]) -> list[dict[str, Any]]:
    names = list(UNITS) + ([FOURTH] if robot.has("ram-expansion") else [])
    out = []
    for name in names:
        number, key = die_settings(settings, name)
        label = "fourth die" if name == FOURTH else f"unit {name}"
        if name == FOURTH:
            out.append({"name": f"{name} unit", "label": "fourth die: on unit",
                        "value": settings.get(f"{name} unit", "I"), "choices": list(UNITS)})
        out.append({"name": f"{name} number", "label": f"{label}: face", "value": number,
                    "choices": list(range(1, 7))})
        out.append({"name": f"{name} key", "label": f"{label}: key", "value": key, "choices": list(KEYS)})
    return out


def _own_problems(state: State, seat: int, held: tuple[Any, ...], slots: list[int]) -> dict[int, str]:
    out = {}
    for pos, die in enumerate(held):
        if die is not None and die.owner not in (seat, ANYBODY):
            owner = SEAT_COLOURS[die.owner % len(SEAT_COLOURS)]
            out[slots[pos]] = f"{SLOT_NAMES[pos]}: that is {owner}'s {die}: give it back"
    return out


def program_text(seat: int, held: tuple[Any, ...], settings: dict[str, Any]) -> str:
    words = [f"p{seat + 1}", "program"]
    for pos, name in enumerate(UNITS):
        number, key = die_settings(settings, name)
        words.append(f"{held[pos].colour[0].upper()}{number}{key}")
    if held[3] is not None:
        number, key = die_settings(settings, FOURTH)
        words.append(f"{settings.get(f'{FOURTH} unit', 'I')}:{held[3].colour[0].upper()}{number}{key}")
    return " ".join(words)


def judge(game: Any, state: State, seat: int, reading: StationReading, slots: list[int],
          settings: dict[str, Any]) -> Verdict:
    """A reading without problems (SimultaneousTable refuses those first) as a program or a refusal."""
    held = reading.held
    robot = state.robots[seat]
    problems = _own_problems(state, seat, held, slots)
    if problems:
        return Verdict.refused(problems)
    empty = [pos for pos in range(3) if held[pos] is None]
    if empty:
        return Verdict(None, "every control unit needs a die: put one on "
                       + ", ".join(SLOT_NAMES[p] for p in empty), tuple(slots[p] for p in empty))
    if held[3] is not None and not robot.has("ram-expansion"):
        return Verdict(None, "a fourth die needs RAM EXPANSION: take it out of the fourth slot",
                       (slots[3],))
    text = program_text(seat, held, settings)
    try:
        game.action_from_str(state, text)
    except GameError as err:
        return Verdict(None, f"{err}", tuple(slots[p] for p in range(SLOTS) if held[p] is not None))
    return Verdict(text, "program: " + ", ".join(text.split()[2:]))


def expected_dice(robot: Robot) -> tuple[str | None, ...]:
    """The colours a submitted program's units hold (None: a unit it does not use)."""
    colours: list[str | None] = [None] * SLOTS
    for index, die in enumerate(robot.program):
        colours[index if index < 3 else 3] = die.colour
    return tuple(colours)


def check_station(state: State, seat: int, reading: StationReading,
                  slots: list[int]) -> tuple[list[int], list[str]]:
    robot = state.robots[seat]
    if not robot.submitted:
        return [], []
    want = expected_dice(robot)
    wrong, fixes = [], []
    for pos, (die, colour) in enumerate(zip(reading.held, want)):
        if (die.colour if die is not None else None) != colour:
            wrong.append(slots[pos])
            fixes.append(f"put the {colour} die back on {SLOT_NAMES[pos]}" if colour
                         else f"take the die off {SLOT_NAMES[pos]}")
    return wrong, fixes
