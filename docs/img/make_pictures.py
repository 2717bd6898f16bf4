"""Draw the pictures of the docs from each game's own LED language.

Run: .venv/bin/python docs/img/make_pictures.py
(writes docs/img/led-*.svg for Twin Tin Bots, docs/img/botwars-*.svg for BotWars,
docs/img/volt-*.svg for VOLT, docs/img/goblins-*.svg for Goblins, Inc.)

Every picture comes from the game's table ``leds`` module (its palette file
and the functions that turn a game into cell states), so the docs cannot
drift from what the board shows. A hex is drawn as the board lights it: the
centre LED in the palette colour, the six side LEDs at a quarter, the facing
side half-way to white; the effect is written under it. A BotWars square has
one LED: it is drawn as a square with one LED in the middle, its effect
written under it (SPIN looks steady on one LED).
"""

from __future__ import annotations

import math
from pathlib import Path

from bbshared import messages as m
from botboard.games.twintinbots.game import GAME
from botboard.link.image import CellState
from botboard.games.twintinbots.table import leds
from botboard.games.twintinbots.table.scene import Scene
from botboard.games.botwars.game import GAME as BOTWARS
from botboard.games.botwars.state import State as BotWarsState
from botboard.games.botwars.table import leds as bw
from botboard.games.volt.game import GAME as VOLT
from botboard.games.volt.table import leds as vt
from botboard.games.goblins.game import GAME as GOBLINS
from botboard.games.goblins.state import State as GoblinsState
from botboard.games.goblins.table import leds as gl
from botboard.games.goblins.table.mapping import GoblinsTable
from botboard.games.goblins.table.yards import read_yard
from botboard.games.goblins.tiles import load_box
from botboard.games.goblins.yard import ALL_SQUARES

OUT = Path(__file__).resolve().parent
SIZE = 28.0  # hex radius in px
EFFECTS = {m.OFF: "off", m.SOLID: "", m.BLINK: "blink", m.PULSE: "pulse", m.SPIN: "spin"}


def _rgb(c: tuple[int, int, int], scale: float = 1.0, toward_white: float = 0.0) -> str:
    r, g, b = (int(min(255, v * scale + (255 - v * scale) * toward_white)) for v in c)
    return f"rgb({r},{g},{b})"


def hex_svg(cx: float, cy: float, state: CellState, size: float = SIZE) -> str:
    colour = leds.PALETTE[state.palette]
    lit = state.effect != m.OFF
    corners = " ".join(f"{cx + size * math.cos(math.radians(60 * i - 30)):.1f},"
                       f"{cy + size * math.sin(math.radians(60 * i - 30)):.1f}" for i in range(6))
    parts = [f'<polygon points="{corners}" fill="#111" stroke="#444" stroke-width="1"/>']
    for facing in range(6):  # side LEDs: facing 0 east, clockwise (screen y grows down)
        angle = math.radians(60 * facing)
        x, y = cx + 0.62 * size * math.cos(angle), cy + 0.62 * size * math.sin(angle)
        if not lit:
            fill = "#222"
        elif facing == state.facing:
            fill = _rgb(colour, 1.0, 0.5)
        else:
            fill = _rgb(colour, 0.25)
        parts.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{size * 0.13:.1f}" fill="{fill}"/>')
    parts.append(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{size * 0.3:.1f}" '
                 f'fill="{_rgb(colour) if lit else "#222"}"/>')
    label = EFFECTS.get(state.effect, "")
    if label:
        parts.append(f'<text x="{cx:.1f}" y="{cy + size + 12:.1f}" font-size="11" '
                     f'text-anchor="middle" fill="#333" font-family="sans-serif">{label}</text>')
    return "\n".join(parts)


def row_svg(cells: list[tuple[str, CellState]]) -> str:
    w = 90 * len(cells)
    body = []
    for i, (caption, state) in enumerate(cells):
        cx = 45 + 90 * i
        body.append(hex_svg(cx, 40, state))
        body.append(f'<text x="{cx}" y="100" font-size="11" text-anchor="middle" '
                    f'font-family="sans-serif" fill="#000">{caption}</text>')
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="110" '
            f'viewBox="0 0 {w} 110"><rect width="100%" height="100%" fill="#fff"/>'
            + "\n".join(body) + "</svg>\n")


def arena_svg(picture: dict[int, CellState], coords: list[tuple[int, int]]) -> str:
    size = 18.0
    body = []
    for cell, (q, r) in enumerate(coords):
        x = 200 + size * math.sqrt(3) * (q + r / 2)
        y = 190 + size * 1.5 * r
        body.append(hex_svg(x, y, picture[cell], size).split('<text')[0])
    return ('<svg xmlns="http://www.w3.org/2000/svg" width="400" height="380" viewBox="0 0 400 380">'
            '<rect width="100%" height="100%" fill="#fff"/>' + "\n".join(body) + "</svg>\n")


def c(name: str, effect: int = m.SOLID, facing: int = leds.NONE) -> CellState:
    return leds.cell(name, effect, facing)


def main() -> None:
    from botboard.games.twintinbots import content as C

    seats = [(colour, CellState(leds.seat_colour(s), 0, m.SOLID)) for s, colour in enumerate(C.COLOURS)]
    pictures = {
        "players": seats,
        "crystals": [(f"{C.CRYSTAL_COLOUR[p]} ({p})", CellState(leds.CRYSTAL_PALETTE[p], leds.NONE, m.SOLID))
                     for p in C.CRYSTAL_POINTS],
        "bases": [("base", CellState(leds.seat_colour(0), leds.NONE, m.SOLID)),
                  ("base to play", CellState(leds.seat_colour(0), leds.NONE, m.SPIN))],
        "obstacles": [("empty", c("floor")), ("rock", c("rock")), ("blob", c("blob")),
                      ("mud", c("mud"))],
        "teleporters": [(f"{colour} pair", c("choice", m.SOLID, mark))
                        for colour, mark in zip(C.TELEPORTER_COLOURS, leds.TELEPORTER_MARKS)],
        "facing": [(f"facing {name}", CellState(leds.seat_colour(1), f, m.SOLID))
                   for f, name in enumerate(("E", "SE", "SW", "W", "NW", "NE"))],
        "carrying": [("robot", CellState(leds.seat_colour(0), 0, m.SOLID)),
                     ("with a crystal", CellState(leds.seat_colour(0), 0, m.PULSE))],
        "countdown": [("countdown counter", c("choice"))],
        "decisions": [("candidate", c("choice", m.PULSE)), ("selected", c("choice", m.SPIN))],
        "signs": [("tile read", c("choice", m.SOLID, 0)), ("wrong slot", c("alert", m.BLINK, 0)),
                  ("zap path", c("choice", m.BLINK))],
        "winner": [("winner's base", CellState(leds.seat_colour(2), leds.NONE, m.SPIN)),
                   ("winner's robot", CellState(leds.seat_colour(2), 3, m.SPIN))],
    }
    for name, cells in pictures.items():
        (OUT / f"led-{name}.svg").write_text(row_svg(cells))
    state = GAME.new_game(2, {"teleporters": 1, "rocks": 1, "blobs": 1, "mud": 1, "track": 0}, 4)
    scene = Scene.from_state(state)
    grid = state.layout.arena
    (OUT / "led-arena.svg").write_text(arena_svg(leds.picture(scene), list(grid.coords)))
    scores = scene
    scores.winners = (0,)
    (OUT / "led-scores.svg").write_text(arena_svg(leds.score_view(scores, [(2, 1, 0), (1, 0, 1)]),
                                                  list(grid.coords)))


# -- BotWars: one LED per square, north at the top -------------------------------------

SQUARE = 34.0  # square side in px
BW_EFFECTS = {m.OFF: "off", m.SOLID: "", m.BLINK: "blink", m.PULSE: "pulse", m.SPIN: "spin = steady"}


def led_rgb(colour: tuple[int, int, int]) -> str:
    """An LED's PWM level is light (linear); a screen's sRGB value is not: 64 of 255 lights an
    LED at a quarter, which looks about half as bright, and sRGB 64 would look nearly black."""
    r, g, b = (round(255 * (v / 255) ** (1 / 2.2)) for v in colour)
    return f"rgb({r},{g},{b})"


def square_svg(cx: float, cy: float, state: CellState, size: float = SQUARE, label: bool = True,
               palette: tuple[tuple[int, int, int], ...] = bw.PALETTE) -> str:
    colour = palette[state.palette]
    lit = state.effect != m.OFF
    half = size / 2
    parts = [f'<rect x="{cx - half:.1f}" y="{cy - half:.1f}" width="{size:.1f}" height="{size:.1f}" '
             'fill="#111" stroke="#444" stroke-width="1"/>',
             f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{size * 0.3:.1f}" fill="{led_rgb(colour) if lit else "#222"}"/>']
    word = BW_EFFECTS.get(state.effect, "")
    if word and label:
        parts.append(f'<text x="{cx:.1f}" y="{cy + half + 12:.1f}" font-size="11" text-anchor="middle" '
                     f'fill="#333" font-family="sans-serif">{word}</text>')
    elif word:  # inside the square, for whole boards
        parts.append(f'<text x="{cx:.1f}" y="{cy + half - 2:.1f}" font-size="{size * 0.22:.0f}" '
                     f'text-anchor="middle" fill="#aaa" font-family="sans-serif">{word}</text>')
    return "\n".join(parts)


def square_rows_svg(cells: list[tuple[str, CellState]], per_row: int = 8,
                    palette: tuple[tuple[int, int, int], ...] = bw.PALETTE) -> str:
    rows = (len(cells) + per_row - 1) // per_row
    w, h = 110 * min(per_row, len(cells)), 95 * rows
    body = []
    for i, (caption, state) in enumerate(cells):
        cx, cy = 55 + 110 * (i % per_row), 30 + 95 * (i // per_row)
        body.append(square_svg(cx, cy, state, palette=palette))
        body.append(f'<text x="{cx}" y="{cy + 50}" font-size="11" text-anchor="middle" '
                    f'font-family="sans-serif" fill="#000">{caption}</text>')
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}">'
            '<rect width="100%" height="100%" fill="#fff"/>' + "\n".join(body) + "</svg>\n")


def window_svg(picture: dict[int, CellState], state: BotWarsState, xs: range, ys: range,
               captions: list[str] | None = None, x0: float = 0.0) -> list[str]:
    """The squares ``xs`` x ``ys`` of a board picture, north at the top, from ``x0`` px."""
    board = state.board
    body = []
    for row, y in enumerate(reversed(ys)):
        for col, x in enumerate(xs):
            cell = bw.cell_of(board, (x, y))
            body.append(square_svg(x0 + 20 + SQUARE * (col + 0.5), 10 + SQUARE * (row + 0.5),
                                   picture[cell], label=False))
    for i, caption in enumerate(captions or []):
        body.append(f'<text x="{x0 + 20 + SQUARE * len(xs) / 2:.1f}" y="{20 + SQUARE * len(ys) + 12 * i}" '
                    f'font-size="11" text-anchor="middle" font-family="sans-serif" fill="#000">{caption}</text>')
    return body


def svg_page(body: list[str], w: float, h: float) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{w:.0f}" height="{h:.0f}" '
            f'viewBox="0 0 {w:.0f} {h:.0f}"><rect width="100%" height="100%" fill="#fff"/>'
            + "\n".join(body) + "</svg>\n")


def _bw_board() -> dict[str, object]:
    return {"name": "docs", "size": [6, 6], "start": "r1c1", "flags": ["r6c6"], "squares": {}}


def _bw_position(robots: dict[str, object]) -> BotWarsState:
    return BOTWARS.scenario_start(len(robots), {}, 0, {"board": _bw_board(), "robots": robots})


def botwars() -> None:
    colours = []
    for colour in bw.ROBOT_COLOURS:
        colours += [(colour, bw.look(colour)), (f"{colour} nose", bw.look(bw.nose(colour)))]
    (OUT / "botwars-legend.svg").write_text(square_rows_svg(bw.legend()))
    (OUT / "botwars-colours.svg").write_text(square_rows_svg(colours))
    body: list[str] = []  # a real robot on r3c3 facing each way: its nose shows the facing
    for facing, name in enumerate("NESW"):
        state = _bw_position({"p1": {"square": "r3c3", "facing": name, "mode": "real",
                                     "checkpoint": "r3c3"}})
        body += window_svg(bw.picture(state), state, range(2, 5), range(2, 5), [f"facing {name}"],
                           x0=150 * facing)
    (OUT / "botwars-facing.svg").write_text(svg_page(body, 600, 150))
    state = _bw_position({"p1": {"square": "r3c3", "facing": "N", "mode": "real"},
                          "p2": {"square": "r3c3", "facing": "E", "mode": "virtual"}})
    body = window_svg(bw.picture(state), state, range(2, 5), range(2, 5),
                      ["real red and virtual blue on one square:", "shared; each nose still shows"], x0=55)
    (OUT / "botwars-shared.svg").write_text(svg_page(body, 250, 170))
    state = _bw_position({"p1": {"square": "r2c1", "facing": "E", "mode": "real", "hand": bw_hand(0)},
                          "p2": {"square": "r2c5", "facing": "N", "mode": "real", "hand": bw_hand(1)}})
    after, events = state, []
    for seat in (0, 1):
        after, new = BOTWARS.apply_str(after, f"p{seat + 1} program " + " ".join(bw_hand(seat)))
        events += new
    shot = next(p for e, p in bw.frames(state, events, after)
                if e is not None and e.kind == "laser" and e.data["robot"] == "p1")
    body = window_svg(shot, state, range(1, 7), range(1, 4),
                      ["stage 1: red steps east and fires;", "the beam stops at blue: a hit"])
    (OUT / "botwars-laser.svg").write_text(svg_page(body, 244, 150))
    state = BOTWARS.new_game(4, {}, 1)
    board = state.board
    body = window_svg(bw.picture(state), state, range(1, board.width + 1), range(1, board.height + 1),
                      ["a new four-player game on the factory floor: four virtual robots share the",
                       "start square (noses overlap: red shows), flag 1 pulses, flags 2 and 3 are steady"])
    (OUT / "botwars-start.svg").write_text(svg_page(body, 40 + SQUARE * board.width,
                                                    50 + SQUARE * board.height))


def bw_hand(seat: int) -> list[str]:
    """Stage 1: red steps east towards blue, blue turns its back (its laser fires south)."""
    return [["FWD1:490", "LF90:070", "RT90:080", "LF90:090", "RT90:100"],
            ["UTRN:020", "LF90:110", "RT90:120", "LF90:130", "RT90:140"]][seat]


def volt() -> None:
    legend = [(name, vt.look(name, m.PULSE if name in ("vp", "choice") else
                             m.BLINK if name == "alert" else m.SOLID))
              for name in vt.INDEX if name != "off"]
    (OUT / "volt-legend.svg").write_text(square_rows_svg(legend, palette=vt.PALETTE))
    state = VOLT.new_game(4, {}, 1)
    (OUT / "volt-start.svg").write_text(volt_board_svg(vt.picture(state), state, [
        "a new four-operator game on the training arena: the robots on their start spaces,",
        "a VP token pulsing on its space"]))
    state = VOLT.scenario_start(2, {}, 0, {"bag": [], "tokens": {}, "mines": {"r4c3": "p2"}, "robots": {
        "p1": {"square": "r4c4", "modules": ["crossfire"], "presets": {"crossfire": "always"}},
        "p2": {"square": "r7c4"}}})
    after, events = state, []
    for text in ("p1 program R1N B6S B6S", "p2 program R6N R6N B6N"):
        after, new = VOLT.apply_str(after, text)
        events += new
    frames = [(e.kind if e else "", p) for e, p in vt.frames(state, events, after)]
    assert frames[0][0] == "crossfire"
    (OUT / "volt-crossfire.svg").write_text(volt_board_svg(frames[0][1], state, [
        "red's CROSSFIRE: its lines hit blue (north) and blue's mine west of red (magenta);",
        "blue takes its damage first, the mine waits for it (FAQ 4a)"]))
    blast = next(p for kind, p in frames if kind == "detonation")
    (OUT / "volt-blast.svg").write_text(volt_board_svg(blast, state, [
        "then the mine detonates: its space and the eight around it flash,",
        "red among them"]))


def volt_board_svg(picture: dict[int, CellState], state: object, captions: list[str]) -> str:
    arena = state.arena  # type: ignore[attr-defined]
    body = []
    for row, y in enumerate(reversed(range(1, arena.height + 1))):
        for col, x in enumerate(range(1, arena.width + 1)):
            body.append(square_svg(20 + SQUARE * (col + 0.5), 10 + SQUARE * (row + 0.5),
                                   picture[vt.cell_of(state, (x, y))], label=False,  # type: ignore[arg-type]
                                   palette=vt.PALETTE))
    for i, caption in enumerate(captions):
        body.append(f'<text x="{20 + SQUARE * arena.width / 2:.1f}" y="{24 + SQUARE * arena.height + 12 * i}" '
                    f'font-size="11" text-anchor="middle" font-family="sans-serif" fill="#000">{caption}</text>')
    return svg_page(body, 40 + SQUARE * arena.width, 40 + SQUARE * arena.height + 12 * len(captions))


def _goblins_until(seed: int, done: object) -> tuple[GoblinsState, GoblinsState, list[object]]:
    """A 2-player game played at random from ``seed`` until ``done(before, events)`` holds for
    its last action; (before, after, events) of that action."""
    import random
    rng = random.Random(seed)
    state = GOBLINS.new_game(2, {}, seed)
    while True:
        legal = GOBLINS.legal_actions(state)
        before = state
        state, events = GOBLINS.apply(state, legal[rng.randrange(len(legal))])
        if done(state, events):  # type: ignore[operator]
            return before, state, list(events)


def goblins() -> None:
    effects = {"cockpit": m.SOLID, "choice": m.PULSE, "alert": m.BLINK}
    lit = [e["name"] for e in gl.PALETTE_DOC["palette"] if e["role"] != "off"]
    legend = [(name, gl.look(name, effects.get(name, m.SOLID))) for name in lit]
    (OUT / "goblins-legend.svg").write_text(square_rows_svg(legend, palette=gl.PALETTE))
    _, state, _ = _goblins_until(1, lambda s, e: len(s.robots[0].yard) >= 7 and s.queue
                              and s.queue[0][1] == "place" and s.queue[0][0] == s.robots[0].members[0])
    table = GoblinsTable()
    seat = state.robots[0].members[0]
    tile = state.players[seat].hand[0]
    square = next(q for q in ("r3c2", "r2c3", "r4c3", "r3c4") if q not in state.robots[0].yard
                  and q not in state.robots[0].blocked)
    tiles = [load_box(state.box).tiles[tile] if q == square else None for q in ALL_SQUARES]
    reading = read_yard(state, tiles, list(range(25)), list(ALL_SQUARES))
    reading.held.update({q: load_box(state.box).tiles[t] for q, (t, _) in state.robots[0].yard.items()})
    picture = {**gl.picture(state), **table.preview(state, seat, reading, {"top": "E"})}
    (OUT / "goblins-build.svg").write_text(yards_svg(picture, [
        f"building: robot A (left) has {len(state.robots[0].yard)} tiles, t{tile} is being laid on {square}",
        "and turned east: it breathes white, the squares it joins by metal light white;",
        "blocked squares are dim, the cockpit gold, loose tiles breathe in their type's colour"]))
    before, state, events = _goblins_until(3, lambda s, e: any(
        ev.kind == "roll" and any(ev.data["dice"]) for ev in e) and any(ev.kind == "destroyed" for ev in e))
    frames = gl.frames(before, events, state)  # type: ignore[arg-type]
    roll = next(p for e, p in frames if e is not None and e.kind == "roll" and any(e.data["dice"]))
    (OUT / "goblins-dice.svg").write_text(yards_svg(roll, [
        "combat: the dice a team rolled light their lines on the enemy's yard (pale yellow);",
        "cyan tiles are under a defense token"]))
    hit = next(p for e, p in frames if e is not None and e.kind == "destroyed")
    (OUT / "goblins-hit.svg").write_text(yards_svg(hit, [
        "a hit flashes orange; a destroyed tile's square then goes dark,",
        "and so does every tile no longer joined to the cockpit"]))


def yards_svg(picture: dict[int, CellState], captions: list[str]) -> str:
    body = []
    for team in (0, 1):
        for square in ALL_SQUARES:
            x, y = int(square[3]), int(square[1])
            body.append(square_svg(20 + SQUARE * (team * 6 + x - 0.5), 10 + SQUARE * (5.5 - y),
                                   picture[gl.cell_of(team, square)], label=False, palette=gl.PALETTE))
    for i, caption in enumerate(captions):
        body.append(f'<text x="{20 + SQUARE * 5.5:.1f}" y="{24 + SQUARE * 5 + 12 * i}" font-size="11" '
                    f'text-anchor="middle" font-family="sans-serif" fill="#000">{caption}</text>')
    return svg_page(body, 40 + SQUARE * 11, 40 + SQUARE * 5 + 12 * len(captions))


if __name__ == "__main__":
    main()
    botwars()
    volt()
    goblins()
