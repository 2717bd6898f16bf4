"""The LED pictures of docs/playing-goblins.md, drawn by the game's own LED language (`botboard docs`):
the two 5x5 construction yards side by side."""

from __future__ import annotations

import random
from typing import Any, Callable

from bbshared import messages as m

from ....docgen import svg
from ....link.image import CellState
from ..game import GAME
from ..state import State
from ..tiles import load_box
from ..yard import ALL_SQUARES
from . import leds
from .mapping import GoblinsTable
from .yards import read_yard


def _until(seed: int, done: Callable[[State, list[Any]], bool]) -> tuple[State, State, list[Any]]:
    """A 2-player game played at random from ``seed`` until ``done(after, events)`` holds for its
    last action; (before, after, events) of that action."""
    rng = random.Random(seed)
    state = GAME.new_game(2, {}, seed)
    while True:
        legal = GAME.legal_actions(state)
        before = state
        state, events = GAME.apply(state, legal[rng.randrange(len(legal))])
        if done(state, list(events)):
            return before, state, list(events)


def _yards(picture: dict[int, CellState], captions: list[str]) -> str:
    body = []
    for team in (0, 1):
        for square in ALL_SQUARES:
            x, y = int(square[3]), int(square[1])
            body.append(svg.square_cell(20 + svg.SQUARE * (team * 6 + x - 0.5), 10 + svg.SQUARE * (5.5 - y),
                                        picture[leds.cell_of(team, square)], leds.PALETTE, label=False))
    body += [svg.text(20 + svg.SQUARE * 5.5, 24 + svg.SQUARE * 5 + 12 * i, c) for i, c in enumerate(captions)]
    return svg.page(body, 40 + svg.SQUARE * 11, 40 + svg.SQUARE * 5 + 12 * len(captions))


def pictures() -> dict[str, str]:
    effects = {"cockpit": m.SOLID, "choice": m.PULSE, "alert": m.BLINK}
    lit = [e["name"] for e in leds.PALETTE_DOC["palette"] if e["role"] != "off"]
    out = {"goblins-legend.svg": svg.square_rows([(n, leds.look(n, effects.get(n, m.SOLID))) for n in lit],
                                                 leds.PALETTE)}
    _, state, _ = _until(1, lambda s, e: len(s.robots[0].yard) >= 7 and bool(s.queue)
                         and s.queue[0][1] == "place" and s.queue[0][0] == s.robots[0].members[0])
    seat = state.robots[0].members[0]
    tile = state.players[seat].hand[0]
    square = next(q for q in ("r3c2", "r2c3", "r4c3", "r3c4") if q not in state.robots[0].yard
                  and q not in state.robots[0].blocked)
    box = load_box(state.box)
    reading = read_yard(state, [box.tiles[tile] if q == square else None for q in ALL_SQUARES],
                        list(range(25)), list(ALL_SQUARES))
    reading.held.update({q: box.tiles[t] for q, (t, _) in state.robots[0].yard.items()})
    picture = {**leds.picture(state), **GoblinsTable().preview(state, seat, reading, {"top": "E"})}
    out["goblins-build.svg"] = _yards(picture, [
        f"building: robot A (left) has {len(state.robots[0].yard)} tiles, t{tile} is being laid on {square}",
        "and turned east: it breathes white, the squares it joins by metal light white;",
        "blocked squares are dim, the cockpit gold, loose tiles breathe in their type's colour"])
    before, state, events = _until(3, lambda s, e: any(
        ev.kind == "roll" and any(ev.data["dice"]) for ev in e) and any(ev.kind == "destroyed" for ev in e))
    frames = leds.frames(before, events, state)
    roll = next(p for e, p in frames if e is not None and e.kind == "roll" and any(e.data["dice"]))
    out["goblins-dice.svg"] = _yards(roll, [
        "combat: the dice a team rolled light their lines on the enemy's yard (pale yellow);",
        "cyan tiles are under a defense token"])
    hit = next(p for e, p in frames if e is not None and e.kind == "destroyed")
    out["goblins-hit.svg"] = _yards(hit, [
        "a hit flashes orange; a destroyed tile's square then goes dark,",
        "and so does every tile no longer joined to the cockpit"])
    return out
