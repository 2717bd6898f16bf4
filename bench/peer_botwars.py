"""One BotWars register phase timed against the roboprojekt peer's, side by side in one process.

Usage (the peer is a checkout of github.com/pyvec/roboprojekt, also published as
PyLadiesCZ/roboprojekt; its backend imports PyYAML: ``pip install -e '.[peer]'``):

    .venv/bin/python bench/peer_botwars.py /tmp/roboprojekt
    ROBOPROJEKT=/tmp/roboprojekt .venv/bin/python bench/peer_botwars.py --setups 300 --repeat 5

The same board in both engines: the BotWars factory floor (12x12) cut down to
the elements both engines have: walls, pits (the peer's holes), conveyors (blue
ones as express belts, a belt that turns as a rotating belt), pushers (stages
1, 3, 5 as odd registers, 2, 4 as even; the wall they hang on), gears (L, R and
U), repair squares (checkpoints in both), flags, and board lasers (all of them
stopped by the first robot, the only kind the peer has; a beam is the peer's
row of laser tiles, from the turret to the first wall or the edge). Crusher,
upgrade stations, switches, drawbridge and teleporters are left out.

The same robots: eight real robots on different squares (no pit) with random
facings, each with one program card of the same kind and priority in both
engines (forward 1-3, back 1, left, right, U-turn), drawn from ``--seed``.

Timed, like for like in two pairs: BotWars ``run_stage`` for stage 1 on its
own state building its events, against the peer's ``apply_register(0)`` then
``apply_tile_effects(0)`` with its log (the peer records robot positions after
every change); and BotWars without events (as ``Game.advance`` does) against
the peer without its log. BotWars records an event's values and makes its data
and words when first read, so a third line also times reading every event
(what a live table does) against the peer with its log. Building the states is
not timed. Each setup runs ``--repeat`` times in each engine, alternating, and
the fastest run counts; the figures are the mean over setups. A last untimed run
of each setup compares where the robots end in both engines (the rules differ
at the edge: the peer's robots fall off it, BotWars' fence stops them).
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import os
import random
import sys
import time
from pathlib import Path
from typing import Any, Iterator

from botboard.games.botwars.board import Board, load_board, neighbour
from botboard.games.botwars.cards import deck
from botboard.games.botwars.context import Ctx
from botboard.games.botwars.phases import run_stage
from botboard.games.botwars.state import Player, State
from botboard.games.squares import FACINGS, square_name

SHARED = ("pit", "conveyor", "pusher", "gear", "repair")
KINDS = ("FWD1", "FWD2", "FWD3", "RVS1", "LF90", "RT90", "UTRN")
ROBOTS = 8


def common_board(board: Board) -> dict[str, Any]:
    """The board as a BotWars document with only the elements the peer also has."""
    pushed_walls = {(sq, (FACINGS.index(c["dir"]) + 2) % 4) for sq, c in board.cells.items()
                    if c["type"] == "pusher"}
    return {
        "name": "factory-common", "size": [board.width, board.height],
        "start": square_name(board.start), "start_facing": FACINGS[board.start_facing],
        "flags": [square_name(f) for f in board.flags],
        "walls": [f"{square_name(sq)} {FACINGS[side]}" for sq, side in sorted(board.walls - pushed_walls)],
        "lasers": [{"square": square_name(l.square), "dir": FACINGS[l.facing], "colour": "blue"}
                   for l in board.lasers],
        "squares": {square_name(sq): dict(c) for sq, c in board.cells.items() if c["type"] in SHARED},
    }


def setups(board: Board, count: int, seed: int) -> list[list[tuple[tuple[int, int], int, int]]]:
    """``count`` placements of eight robots: (square, facing, card priority) each."""
    rng = random.Random(seed)
    cards = deck()
    free = [(x, y) for x in range(1, board.width + 1) for y in range(1, board.height + 1)
            if (board.cell((x, y)) or {}).get("type") != "pit"]
    by_kind = {k: [p for p in cards.base if cards.kind_of[p] == k] for k in KINDS}
    out = []
    for _ in range(count):
        squares = rng.sample(free, ROBOTS)
        priorities: set[int] = set()
        robots = []
        for square in squares:
            card = rng.choice([p for p in by_kind[rng.choice(KINDS)] if p not in priorities])
            priorities.add(card)
            robots.append((square, rng.randrange(4), card))
        out.append(robots)
    return out


# -- BotWars -----------------------------------------------------------------------
def botwars_state(doc: dict[str, Any], robots: list[tuple[tuple[int, int], int, int]]) -> State:
    players = [Player(f"p{i + 1}", square, facing, square, mode="real", virtual_turn=1,
                      program=[card, None, None, None, None])
               for i, (square, facing, card) in enumerate(robots)]
    return State("v2.1", doc, 0, players, turn=2)


def time_botwars(state: State, quiet: bool, read: bool = False) -> float:
    """One stage; ``read``: every event's data and words are read too, as a live table reads
    them (BotWars puts an event into data and words when it is first read)."""
    ctx = Ctx(state.clone(), None if quiet else [])
    start = time.perf_counter()
    run_stage(ctx, 1)
    if read:
        for event in ctx.events or ():
            event.data, event.text  # noqa: B018  (reading is the work timed)
    return time.perf_counter() - start


# -- the peer ----------------------------------------------------------------------
@contextlib.contextmanager
def inside(path: Path) -> Iterator[None]:
    """The peer reads its data files relative to the working directory."""
    before = os.getcwd()
    os.chdir(path)
    try:
        yield
    finally:
        os.chdir(before)


class Peer:
    """The peer's modules and a translation of the common board into its tiles."""

    def __init__(self, path: Path) -> None:
        sys.path.insert(0, str(path))
        with inside(path):  # its backend reads robots.yaml while importing
            backend = importlib.import_module("backend")
            self.tile = importlib.import_module("tile")
            util_backend = importlib.import_module("util_backend")
        self.backend = backend
        self.names = backend.get_robot_names()[:ROBOTS]
        direction = util_backend.Direction
        self.facing = {i: direction[f] for i, f in enumerate(FACINGS)}

    def board(self, board: Board) -> dict[tuple[int, int], list[Any]]:
        """Peer coordinates are 0-based, y northwards like BotWars'."""
        make = self.tile.create_tile_subclass
        facing = self.facing
        tiles: dict[tuple[int, int], list[Any]] = {
            (x, y): [] for x in range(board.width) for y in range(board.height)}

        def put(square: tuple[int, int], way: int, kind: str, **props: Any) -> None:
            tiles[(square[0] - 1, square[1] - 1)].append(make(facing[way], kind, kind, props))

        for (square, side) in board.walls:
            put(square, side, "wall")
        for square, cell in board.cells.items():
            kind = cell["type"]
            if kind == "pit":
                put(square, 0, "hole")
            elif kind == "conveyor":
                way = FACINGS.index(cell["dir"])
                entry, turn = way, 0
                for side in range(4):
                    before = board.cell(neighbour(square, side))
                    if before and before["type"] == "conveyor" and FACINGS.index(before["dir"]) == (side + 2) % 4:
                        entry, turn = (side + 2) % 4, (way - (side + 2)) % 4
                out = {0: 0, 1: 90, 3: -90}.get(turn, 0)
                put(square, entry if out else way, "belt", direction_out=out, crossroad=False,
                    express=cell["colour"] == "blue")
            elif kind == "pusher":
                put(square, (FACINGS.index(cell["dir"]) + 2) % 4, "pusher",
                    register=1 if 1 in cell["stages"] else 0)
            elif kind == "gear":
                put(square, 0, "gear", move_direction={"L": -90, "R": 90, "U": 180}[cell["turn"]])
            elif kind == "repair":
                put(square, 0, "repair", new_start=True)
        for number, square in enumerate(board.flags, 1):
            put(square, 0, "flag", number=number)
        for laser in board.lasers:  # a row of laser tiles from the turret, as BotWars traces it
            for index, square in enumerate(board.ray(laser.square, laser.facing, False)):
                put(square, laser.facing, "laser", laser_strength=1, start=index == 0)
        return tiles

    def state(self, tiles: dict[tuple[int, int], list[Any]],
              robots: list[tuple[tuple[int, int], int, int]]) -> Any:
        backend = self.backend
        cards = deck()
        made = []
        for name, (square, facing, card) in zip(self.names, robots):
            robot = backend.Robot(self.facing[facing], (square[0] - 1, square[1] - 1), name)
            kind = cards.kind(card)
            robot.program[0] = (backend.MovementCard(card, kind.move) if kind.move
                                else backend.RotationCard(card, 90 * kind.turn))
            made.append(robot)
        state = backend.State(tiles, made)
        state.start_coordinates = [r.coordinates for r in made]
        return state


def time_peer(state: Any, log: bool = True) -> float:
    """The peer's phase; without ``log``, its position log is not written (its
    ``record_log`` does nothing): like for like with BotWars without events."""
    if not log:
        state.record_log = lambda: None
    start = time.perf_counter()
    state.apply_register(0)
    state.apply_tile_effects(0)
    return time.perf_counter() - start


def end_squares_agree(ours: State, theirs: Any) -> tuple[bool, bool]:
    """(same squares and facings after the phase, or differing only by robots the peer lost over
    the edge, where BotWars' fence stops them): the check that both engines ran the same setup."""
    def edge(square: tuple[int, int]) -> bool:
        return square[0] in (1, ours.board.width) or square[1] in (1, ours.board.height)
    same = edge_only = True
    for player, robot in zip(ours.players, theirs.robots):
        mine = (player.square, player.facing) if player.square else None
        peer = robot.coordinates and ((robot.coordinates[0] + 1, robot.coordinates[1] + 1),
                                      FACINGS.index(robot.direction.name))
        if mine != peer:
            same = False
            edge_only = edge_only and peer is None and mine is not None and edge(mine[0])
    return same, edge_only and not same


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("peer", nargs="?", default=os.environ.get("ROBOPROJEKT"),
                        help="path of a roboprojekt checkout (or set ROBOPROJEKT)")
    parser.add_argument("--setups", type=int, default=300)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    if not args.peer:
        parser.error("give the peer's path (or set ROBOPROJEKT)")
    peer = Peer(Path(args.peer).resolve())
    factory = load_board("factory")
    doc = common_board(factory)
    from botboard.games.botwars.board import board_from_json
    tiles = peer.board(board_from_json(doc))
    # (BotWars, peer) for (events built, peer's log kept), (events built and read, log kept)
    # and (no events, no log)
    pairs = {"events/log": [0.0, 0.0], "events read/log": [0.0, 0.0], "no events/no log": [0.0, 0.0]}
    ways = ((False, False, True), (False, True, True), (True, False, False))  # quiet, read, log
    same = edge_only = 0
    placements = setups(factory, args.setups, args.seed)
    for robots in placements:
        state = botwars_state(doc, robots)
        with inside(Path(args.peer)):
            for (quiet, read, log), total in zip(ways, pairs.values()):
                best_ours = best_theirs = float("inf")
                for _ in range(args.repeat):
                    best_ours = min(best_ours, time_botwars(state, quiet, read))
                    best_theirs = min(best_theirs, time_peer(peer.state(tiles, robots), log))
                total[0] += best_ours
                total[1] += best_theirs
            played, peer_played = state.clone(), peer.state(tiles, robots)
            run_stage(Ctx(played, None), 1)
            time_peer(peer_played)
        agree = end_squares_agree(played, peer_played)
        same += agree[0]
        edge_only += agree[1]
    n = len(placements)
    print(f"setups {n}, repeat {args.repeat}, seed {args.seed}")
    for name, (ours, theirs) in pairs.items():
        print(f"{name:>17}: BotWars {ours / n * 1e6:6.1f} us, peer {theirs / n * 1e6:6.1f} us: "
              f"BotWars is {theirs / ours:.2f}x as fast")
    print(f"end squares and facings: the same in {same} setups, differing only by robots the peer "
          f"lost over the edge in {edge_only}, otherwise in {n - same - edge_only}")


if __name__ == "__main__":
    main()
