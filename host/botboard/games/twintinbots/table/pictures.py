"""The LED pictures of docs/playing.md, drawn by the game's own LED language (`botboard docs`)."""

from __future__ import annotations

from bbshared import messages as m

from ....docgen import svg
from ....link.image import CellState
from .. import content as C
from ..game import GAME
from . import leds
from .scene import Scene


def _c(name: str, effect: int = m.SOLID, facing: int = leds.NONE) -> CellState:
    return leds.cell(name, effect, facing)


def _seat(seat: int, facing: int = leds.NONE, effect: int = m.SOLID) -> CellState:
    return CellState(leds.seat_colour(seat), facing, effect)


def pictures() -> dict[str, str]:
    rows = {
        "players": [(colour, _seat(s, 0)) for s, colour in enumerate(C.COLOURS)],
        "crystals": [(f"{C.CRYSTAL_COLOUR[p]} ({p})", CellState(leds.CRYSTAL_PALETTE[p], leds.NONE, m.SOLID))
                     for p in C.CRYSTAL_POINTS],
        "bases": [("base", _seat(0)), ("base to play", _seat(0, effect=m.SPIN))],
        "obstacles": [("empty", _c("floor")), ("rock", _c("rock")), ("blob", _c("blob")), ("mud", _c("mud"))],
        "teleporters": [(f"{colour} pair", _c("choice", m.SOLID, mark))
                        for colour, mark in zip(C.TELEPORTER_COLOURS, leds.TELEPORTER_MARKS)],
        "facing": [(f"facing {name}", _seat(1, f)) for f, name in enumerate(("E", "SE", "SW", "W", "NW", "NE"))],
        "carrying": [("robot", _seat(0, 0)), ("with a crystal", _seat(0, 0, m.PULSE))],
        "countdown": [("countdown counter", _c("choice"))],
        "decisions": [("candidate", _c("choice", m.PULSE)), ("selected", _c("choice", m.SPIN))],
        "signs": [("tile read", _c("choice", m.SOLID, 0)), ("wrong slot", _c("alert", m.BLINK, 0)),
                  ("zap path", _c("choice", m.BLINK))],
        "winner": [("winner's base", _seat(2, effect=m.SPIN)), ("winner's robot", _seat(2, 3, m.SPIN))],
    }
    out = {f"led-{name}.svg": svg.hex_row(cells, leds.PALETTE) for name, cells in rows.items()}
    state = GAME.new_game(2, {"teleporters": 1, "rocks": 1, "blobs": 1, "mud": 1, "track": 0}, 4)
    scene = Scene.from_state(state)
    coords = list(state.layout.arena.coords)
    out["led-arena.svg"] = svg.hex_arena(leds.picture(scene), coords, leds.PALETTE)
    scene.winners = (0,)
    out["led-scores.svg"] = svg.hex_arena(leds.score_view(scene, [(2, 1, 0), (1, 0, 1)]), coords, leds.PALETTE)
    return out
