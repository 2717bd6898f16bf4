"""A construction yard as a station: 25 slots, one under each square, read as the robot built so far.

A yard's slot n lies under the yard's LED cell n (hardware/layouts/goblins.json),
so the layout tells which square each slot reads (``slot_squares``). The
builder lays one tile on a free square, says where its printed top points
with previous/next (a tag cannot tell a tile's rotation), and confirms.
"""

from __future__ import annotations

from random import Random
from typing import Any

from ....board.layouts import Layout
from ....session.mapping import StationReading, TableError, TileError, Verdict
from ..state import State
from ..tiles import TileDef, load_box
from ..yard import ALL_SQUARES, COCKPIT, SIDE_NAMES, Yard, connected, free_squares, joined

TOP = "top"  # the seat's setting: where the printed top of the tile being placed points
TURN_WORDS = {"N": "north (as you read it)", "E": "east (a quarter turn clockwise)",
              "S": "south (upside down)", "W": "west (a quarter turn anticlockwise)"}


def slot_squares(layout: Layout, station: int) -> list[str]:
    """The square each slot of a yard station reads, by the cell of the same number."""
    slots = layout.stations[station].slots
    cells = [layout.cells[s] for s in slots if s < len(layout.cells)]
    if len(slots) != 25 or len(cells) != 25:
        raise TableError(f"station {layout.stations[station].name} of layout {layout.id} is not a "
                         "5x5 yard (25 slots, each under the LED cell of its number)")
    x0, y0 = min(c[0] for c in cells) - 1, min(c[1] for c in cells) - 1
    squares = [f"r{y - y0}c{x - x0}" for x, y in cells]
    if sorted(squares) != sorted(ALL_SQUARES):
        raise TableError(f"the slots of station {layout.stations[station].name} do not cover a 5x5 yard")
    return squares


def read_yard(state: State, tiles: list[Any], slots: list[int], squares: list[str]) -> StationReading:
    """held: square -> TileDef; a tag that is no tile of this box, or a tile twice, is a problem."""
    box = load_box(state.box)
    held: dict[str, TileDef] = {}
    problems: dict[int, str] = {}
    seen: dict[int, str] = {}
    for tile, slot, square in zip(tiles, slots, squares):
        if tile is None:
            continue
        if isinstance(tile, TileError):
            problems[slot] = f"{square}: {tile}"
        elif box.tiles.get(tile.id) != tile:
            problems[slot] = (f"{square}: the tag of t{tile.id} describes another tile than this game's "
                              f"box: write it again with `botboard tiles write --game goblins tile={tile.id}`")
        elif tile.id in seen:
            problems[slot] = (f"{square}: t{tile.id} is on {seen[tile.id]} too: two tags carry one tile; "
                              "take one off")
        else:
            held[square] = tile
            seen[tile.id] = square
    return StationReading(held, problems)


def top_of(settings: dict[str, Any]) -> str:
    top = settings.get(TOP, "N")
    return top if top in SIDE_NAMES else "N"


def turn(settings: dict[str, Any], role: str) -> str:
    """previous/next: a quarter turn anticlockwise/clockwise of the tile being placed."""
    step = 1 if role == "next" else -1
    settings[TOP] = SIDE_NAMES[(SIDE_NAMES.index(top_of(settings)) + step) % 4]
    return f"the tile's printed top points {TURN_WORDS[settings[TOP]]}"


def changes(state: State, team: int, held: dict[str, TileDef]) -> tuple[list[str], list[str]]:
    """(squares holding a tile the game does not have there, squares missing the game's tile)."""
    yard = state.robots[team].yard
    extra = [s for s in ALL_SQUARES if s in held and (s not in yard or yard[s][0] != held[s].id)]
    missing = [s for s in ALL_SQUARES if s in yard and (s not in held or held[s].id != yard[s][0])]
    return extra, missing


def judge_place(state: State, seat: int, held: dict[str, TileDef], slot_of: dict[str, int],
                settings: dict[str, Any]) -> Verdict:
    """The builder confirmed: one new tile on a free square, in hand, turned as the setting says."""
    team = state.team_of(seat)
    robot = state.robots[team]
    extra, missing = changes(state, team, held)
    if missing:
        square = missing[0]
        return Verdict(None, f"{square} should hold t{robot.yard[square][0]}: put it back as it was",
                       tuple(slot_of[s] for s in missing))
    if not extra:
        return Verdict(None, "lay one of your tiles on a free square, turn it with previous/next "
                       "until its printed top points where it should, then confirm")
    if len(extra) > 1:
        named = " and ".join(f"{s} (t{held[s].id})" for s in extra)
        return Verdict(None, f"one tile at a time: {named} are all new; take all but one off",
                       tuple(slot_of[s] for s in extra))
    square, tile = extra[0], held[extra[0]]
    wrong = (slot_of[square],)
    free = " ".join(free_squares(robot.yard, robot.blocked))
    if square == COCKPIT:
        return Verdict(None, f"{square} is the cockpit: no tile goes there; move t{tile.id} to a "
                       f"free square ({free})", wrong)
    if square in robot.blocked:
        return Verdict(None, f"{square} is blocked by this round's blueprint (the dim squares): move "
                       f"t{tile.id} to a free square ({free})", wrong)
    if tile.id not in state.players[seat].hand:
        return Verdict(None, f"t{tile.id} is not one of the tiles you build with this step (your "
                       f"phone lists them): take it off {square}", wrong)
    top = top_of(settings)
    action = f"p{seat + 1} place t{tile.id} {square} {top}"
    words = f"t{tile.id} on {square}, its top to the {top}"
    after = {**robot.yard, square: [tile.id, SIDE_NAMES.index(top)]}
    if square not in connected(after, load_box(state.box)):
        return Verdict(action, f"{words} does not join the cockpit by metal: it falls off before "
                       "combat unless later tiles join it. Confirm again to place it so, or turn it "
                       "with previous/next", wrong, second_confirm="loose")
    return Verdict(action, words)


def check_yard(state: State, team: int, held: dict[str, TileDef], slot_of: dict[str, int],
               ) -> tuple[list[int], list[str]]:
    """A yard nobody is building on: what differs from the robot, and how to put it right."""
    robot = state.robots[team]
    extra, missing = changes(state, team, held)
    fixes = []
    for square in extra:
        tile = held[square].id
        why = "it fell off (scrapyard)" if tile in robot.scrap else "it is not built there"
        fixes.append(f"take t{tile} off {square}: {why}")
    fixes += [f"put t{robot.yard[s][0]} back on {s}" for s in missing if s not in extra]
    return [slot_of[s] for s in extra + missing], fixes


def neighbours_joined(yard: Yard, box: Any, square: str) -> list[str]:
    """The squares (the cockpit too) the tile on ``square`` meets metal to metal."""
    return [other for side in range(4) if (other := joined(yard, box, square, side)) is not None]


def yard_tiles(state: State, team: int, squares: list[str]) -> list[Any]:
    """What the yard's slots hold for the robot as it stands, per slot position."""
    box = load_box(state.box)
    yard = state.robots[team].yard
    return [box.tiles[yard[s][0]] if s in yard else None for s in squares]


def random_place(state: State, seat: int, squares: list[str], legal: list[Any], rng: Random,
                 settings: dict[str, Any] | None) -> list[Any]:
    """The yard with one random legal placement added; its turn goes into ``settings``."""
    action = legal[rng.randrange(len(legal))]
    tile_name, square, top = action.args
    out = yard_tiles(state, state.team_of(seat), squares)
    out[squares.index(square)] = load_box(state.box).tiles[int(tile_name[1:])]
    if settings is not None:
        settings[TOP] = top
    return out
