"""The LED pictures of docs/playing-volt.md, drawn by the game's own LED language (`botboard docs`)."""

from __future__ import annotations

from functools import partial

from bbshared import messages as m

from ....docgen import svg
from ..game import GAME
from ..state import State
from . import leds


def _board(state: State, picture: dict, captions: list[str]) -> str:
    arena = state.arena
    return svg.square_board(partial(leds.cell_of, state), picture, leds.PALETTE, arena.width, arena.height,
                            captions)


def pictures() -> dict[str, str]:
    legend = [(name, leds.look(name, m.PULSE if name in ("vp", "choice") else
                               m.BLINK if name == "alert" else m.SOLID))
              for name in leds.INDEX if name != "off"]
    out = {"volt-legend.svg": svg.square_rows(legend, leds.PALETTE)}
    state = GAME.new_game(4, {}, 1)
    out["volt-start.svg"] = _board(state, leds.picture(state), [
        "a new four-operator game on the training arena: the robots on their start spaces,",
        "a VP token pulsing on its space"])
    state = GAME.scenario_start(2, {}, 0, {"bag": [], "tokens": {}, "mines": {"r4c3": "p2"}, "robots": {
        "p1": {"square": "r4c4", "modules": ["crossfire"], "presets": {"crossfire": "always"}},
        "p2": {"square": "r7c4"}}})
    after, events = state, []
    for text in ("p1 program R1N B6S B6S", "p2 program R6N R6N B6N"):
        after, new = GAME.apply_str(after, text)
        events += new
    frames = [(e.kind if e else "", p) for e, p in leds.frames(state, events, after)]
    out["volt-crossfire.svg"] = _board(state, frames[0][1], [
        "red's CROSSFIRE: its lines hit blue (north) and blue's mine west of red (magenta);",
        "blue takes its damage first, the mine waits for it (FAQ 4a)"])
    blast = next(p for kind, p in frames if kind == "detonation")
    out["volt-blast.svg"] = _board(state, blast, [
        "then the mine detonates: its space and the eight around it flash,", "red among them"])
    return out
