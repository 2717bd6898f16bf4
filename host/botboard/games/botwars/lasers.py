"""Laser fire: board turrets, then the robots' own forward lasers.

A beam runs square by square until a wall, a raised drawbridge or the edge.
Blue turrets and robot lasers stop at the first real robot; a robot laser
ignores virtual robots (they do not interact with robots), while board lasers
hit virtual robots too. All beams of one kind fire at once: hits are found
first, then damage is dealt.
"""

from __future__ import annotations

from typing import Any

from .board import Beam, Square, span_name
from .context import Ctx
from .damage import damage
from .state import Player


def trace(ctx: Ctx, start: Square, facing: int, shooter: Player | None, passes_robots: bool = False,
          occupants: dict[Square, list[Player]] | None = None) -> tuple[list[Square], list[Player]]:
    """Squares the beam crosses (from ``start`` for a turret, the next square for a robot) and hits."""
    beam = ctx.board.beam(start, facing, shooter is not None)
    end, hits = _beam_hits(ctx, beam, shooter, passes_robots, standing(ctx) if occupants is None else occupants)
    return list(beam.squares[:end]), hits


def _beam_hits(ctx: Ctx, beam: Beam, shooter: Player | None, passes_robots: bool,
               occupants: dict[Square, list[Player]]) -> tuple[int, list[Player]]:
    """(how many of the beam's squares it crosses, the robots hit)."""
    if beam.over_bridge:
        squares, hits = _walk(ctx, beam.squares, shooter, passes_robots, occupants)
        return len(squares), hits  # the walk's squares are the beam's first ones
    place = beam.place
    if place.keys().isdisjoint(occupants):
        return len(place), []  # most beams: nobody in the way
    met = [(place[sq], sq) for sq in occupants if sq in place]
    return _hits(met, occupants, shooter, passes_robots, len(place))


def _hits(met: list[tuple[int, Square]], occupants: dict[Square, list[Player]], shooter: Player | None,
          passes_robots: bool, end: int) -> tuple[int, list[Player]]:
    """(where the beam ends, the robots hit) from ``met``: (place on the beam, square) of the
    squares robots stand on."""
    hits: list[Player] = []
    stopped = False  # a real robot absorbed the beam; only virtual robots (board lasers) go on
    for place, here in sorted(met):  # in beam order
        for robot in occupants[here]:
            if robot is shooter:
                continue
            if robot.mode == "real" and not stopped:
                hits.append(robot)
                if not passes_robots:
                    stopped, end = True, place + 1
            elif robot.mode == "virtual" and shooter is None:
                hits.append(robot)
        if stopped and shooter is not None:
            break
    return end, hits


def _walk(ctx: Ctx, ray: tuple[Square, ...], shooter: Player | None, passes_robots: bool,
          occupants: dict[Square, list[Player]]) -> tuple[list[Square], list[Player]]:
    """Squares and hits of a beam a drawbridge may stop, square by square."""
    squares: list[Square] = []
    hits: list[Player] = []
    bridges = ctx.board.bridges
    stopped = False
    for here in ray:
        if here in bridges and ctx.bridge_raised(here) is not None:
            break
        if not stopped:
            squares.append(here)
        for robot in occupants.get(here, ()):
            if robot is shooter:
                continue
            if robot.mode == "real" and not stopped:
                hits.append(robot)
                stopped = not passes_robots
            elif robot.mode == "virtual" and shooter is None:
                hits.append(robot)
        if stopped and shooter is not None:
            break
    return squares, hits


def standing(ctx: Ctx) -> dict[Square, list[Player]]:
    """The robots on the floor by square, in player order."""
    occupants: dict[Square, list[Player]] = {}
    for robot in ctx.robots():
        occupants.setdefault(robot.square, []).append(robot)  # type: ignore[arg-type]
    return occupants


def fire(ctx: Ctx) -> None:
    """Board lasers (the board step), then robot lasers (the laser step); who stands where is
    looked up once for both unless a board laser destroys a robot."""
    occupants = standing(ctx)
    board_lasers(ctx, occupants)
    ctx.step = "laser"
    robot_lasers(ctx, occupants if ctx.roster is not None else standing(ctx))


def board_lasers(ctx: Ctx, occupants: dict[Square, list[Player]]) -> None:
    """Every turret at once; a beam's hits come from the turrets' squares the robots stand on
    (``Floor.cover``), and a beam over a drawbridge is walked."""
    lasers, floor = ctx.board.lasers, ctx.floor
    if not lasers:
        return
    met: dict[int, list[tuple[int, Square]]] = {index: [] for index in floor.walked}
    for square in occupants:
        for index, place in floor.cover.get(square, ()):
            met.setdefault(index, []).append((place, square))
    hits: list[Player] = []
    for index in sorted(met):  # in the board's order of turrets
        laser = lasers[index]
        passes = laser.colour != "blue"
        if index in floor.walked:
            hits += _beam_hits(ctx, ctx.board.beam(laser.square, laser.facing, False), None, passes, occupants)[1]
        else:
            hits += _hits(met[index], occupants, None, passes, 0)[1]  # (where it ends: not needed)
    for robot in hits:
        if robot.square is not None:
            ctx.record("board-laser", robot, _burnt)
            damage(ctx, robot, 1, "board laser")


def _burnt() -> tuple[str, dict[str, Any]]:
    return "board laser", {"damage": 1}


def robot_lasers(ctx: Ctx, occupants: dict[Square, list[Player]]) -> None:
    shots: list[tuple[Player, list[Player]]] = []
    shots_from, occupied, events = ctx.board.shots, occupants.keys(), ctx.events is not None
    for robot in ctx.robots():
        if robot.mode != "real" or robot.rebooting:
            continue
        beam = shots_from[robot.square][robot.facing]  # type: ignore[index]
        if beam.over_bridge:
            end, hits = _beam_hits(ctx, beam, robot, False, occupants)
        elif beam.place.keys().isdisjoint(occupied):
            if events:  # most shots meet nobody: known at once
                ctx.record("laser", robot, _fired, beam.squares, len(beam.squares), ())
            continue
        else:
            end, hits = _first_real(beam.squares, occupants, robot)
        if events:
            ctx.record("laser", robot, _fired, beam.squares, end, tuple(h.name for h in hits))
        if hits:
            shots.append((robot, hits))
    for shooter, hits in shots:
        for robot in hits:
            if robot.square is not None:
                damage(ctx, robot, 1, f"laser of {shooter.name}")


def _first_real(squares: tuple[Square, ...], occupants: dict[Square, list[Player]],
                shooter: Player) -> tuple[int, list[Player]]:
    """(how many squares a robot's beam crosses, [the real robot it stops at] or []): the
    beam walked to its first robot, cheaper than placing every robot on it."""
    for place, square in enumerate(squares):
        for robot in occupants.get(square, ()):
            if robot.mode == "real" and robot is not shooter:
                return place + 1, [robot]
    return len(squares), []


def _fired(squares: tuple[Square, ...], end: int, hit: tuple[str, ...]) -> tuple[str, dict[str, Any]]:
    """A shot along the first ``end`` of ``squares``: a straight line, named by its two ends."""
    names, span = list(hit), span_name([squares[0], squares[end - 1]] if end else [])
    return f"fires {span}" + (f", hits {', '.join(names)}" if names else ""), {"squares": span, "hits": names}
