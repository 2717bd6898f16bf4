"""The LED pictures of docs/playing-botwars.md, drawn by the game's own LED language (`botboard docs`).
One LED a square, north at the top."""

from __future__ import annotations

from functools import partial

from ....docgen import svg
from ..game import GAME
from ..state import State
from . import leds

_BOARD = {"name": "docs", "size": [6, 6], "start": "r1c1", "flags": ["r6c6"], "squares": {}}
# stage 1: red steps east towards blue, blue turns its back (its laser fires south)
_HANDS = [["FWD1:490", "LF90:070", "RT90:080", "LF90:090", "RT90:100"],
          ["UTRN:020", "LF90:110", "RT90:120", "LF90:130", "RT90:140"]]


def _position(robots: dict[str, object]) -> State:
    return GAME.scenario_start(len(robots), {}, 0, {"board": _BOARD, "robots": robots})


def _window(state: State, picture: dict, xs: range, ys: range, captions: list[str], x0: float = 0.0) -> list[str]:
    return svg.square_window(partial(leds.cell_of, state.board), picture, leds.PALETTE, xs, ys, captions, x0)


def pictures() -> dict[str, str]:
    out = {"botwars-legend.svg": svg.square_rows(leds.legend(), leds.PALETTE)}
    colours = []
    for colour in leds.ROBOT_COLOURS:
        colours += [(colour, leds.look(colour)), (f"{colour} nose", leds.look(leds.nose(colour)))]
    out["botwars-colours.svg"] = svg.square_rows(colours, leds.PALETTE)
    body: list[str] = []  # a real robot on r3c3 facing each way: its nose shows the facing
    for facing, name in enumerate("NESW"):
        state = _position({"p1": {"square": "r3c3", "facing": name, "mode": "real", "checkpoint": "r3c3"}})
        body += _window(state, leds.picture(state), range(2, 5), range(2, 5), [f"facing {name}"], 150 * facing)
    out["botwars-facing.svg"] = svg.page(body, 600, 150)
    state = _position({"p1": {"square": "r3c3", "facing": "N", "mode": "real"},
                       "p2": {"square": "r3c3", "facing": "E", "mode": "virtual"}})
    out["botwars-shared.svg"] = svg.page(_window(state, leds.picture(state), range(2, 5), range(2, 5), [
        "real red and virtual blue on one square:", "shared; each nose still shows"], 55), 250, 170)
    state = _position({"p1": {"square": "r2c1", "facing": "E", "mode": "real", "hand": _HANDS[0]},
                       "p2": {"square": "r2c5", "facing": "N", "mode": "real", "hand": _HANDS[1]}})
    after, events = state, []
    for seat in (0, 1):
        after, new = GAME.apply_str(after, f"p{seat + 1} program " + " ".join(_HANDS[seat]))
        events += new
    shot = next(p for e, p in leds.frames(state, events, after)
                if e is not None and e.kind == "laser" and e.data["robot"] == "p1")
    out["botwars-laser.svg"] = svg.page(_window(state, shot, range(1, 7), range(1, 4), [
        "stage 1: red steps east and fires;", "the beam stops at blue: a hit"]), 244, 150)
    state = GAME.new_game(4, {}, 1)
    board = state.board
    out["botwars-start.svg"] = svg.square_board(partial(leds.cell_of, board), leds.picture(state), leds.PALETTE,
                                                board.width, board.height, [
        "a new four-player game on the factory floor: four virtual robots share the",
        "start square (noses overlap: red shows), flag 1 pulses, flags 2 and 3 are steady"])
    return out
