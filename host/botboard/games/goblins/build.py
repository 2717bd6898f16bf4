"""Building: planners draw 5, keep 3 and trade 2 with the player opposite; builders place all 5.

A build step is one job of the schedule: its planners (one per team) draw,
choose what to keep (a decision each), swap the other two, then place their
five tiles one decision at a time on any free square of their yard that the
blueprint allows, in any orientation. Steps alternate between partners until
each yard holds 20 tiles (a solo player builds every step of their team).
"""

from __future__ import annotations

from itertools import combinations

from ..base import IllegalAction
from .context import Ctx, pname
from .yard import free_squares

HAND = 5
KEEP = 3


def start_step(ctx: Ctx) -> None:
    state = ctx.state
    planners = state.schedule[state.step]
    for player in planners:
        drawn = state.supply[:HAND]
        del state.supply[:HAND]
        state.players[player].hand = drawn
        ctx.emit("draw", f"{pname(player)} draws {len(drawn)} tiles", player=pname(player), count=len(drawn))
    state.kept = {}
    state.queue = [[p, "keep"] for p in planners]


def keep_choices(hand: list[int]) -> list[tuple[int, ...]]:
    return [c for c in combinations(sorted(hand), KEEP)] if len(hand) > KEEP else [tuple(sorted(hand))]


def keep(ctx: Ctx, player: int, tiles: tuple[int, ...]) -> None:
    state = ctx.state
    if tuple(sorted(tiles)) not in keep_choices(state.players[player].hand):
        raise IllegalAction(f"{pname(player)} must keep {KEEP} of their tiles "
                            f"({' '.join(f't{t}' for t in state.players[player].hand)})")
    state.kept[pname(player)] = sorted(tiles)
    state.queue.pop(0)
    ctx.emit("keep", f"{pname(player)} keeps 3 tiles", player=pname(player))
    if not state.queue:
        _trade(ctx)


def _trade(ctx: Ctx) -> None:
    """Each planner passes the two tiles not kept to the planner opposite."""
    state = ctx.state
    planners = state.schedule[state.step]
    given = {p: [t for t in state.players[p].hand if t not in state.kept[pname(p)]] for p in planners}
    for index, player in enumerate(planners):
        opposite = planners[1 - index] if len(planners) == 2 else player
        state.players[player].hand = state.kept[pname(player)] + given[opposite]
        if opposite != player:
            ctx.emit("trade", f"{pname(opposite)} gives {pname(player)} "
                     f"{' '.join(f't{t}' for t in given[opposite])}",
                     giver=pname(opposite), taker=pname(player), tiles=given[opposite])
    state.kept = {}
    state.queue = [[p, "place"] for p in planners]


def place_choices(ctx: Ctx, player: int) -> list[tuple[int, str, int]]:
    robot = ctx.robot(ctx.state.team_of(player))
    squares = free_squares(robot.yard, robot.blocked)
    return [(t, s, r) for t in sorted(ctx.state.players[player].hand) for s in squares for r in range(4)]


def place(ctx: Ctx, player: int, tile: int, square: str, rot: int) -> None:
    state = ctx.state
    hand = state.players[player].hand
    robot = ctx.robot(state.team_of(player))
    if tile not in hand:
        raise IllegalAction(f"{pname(player)} does not hold t{tile} ({' '.join(f't{t}' for t in hand)})")
    if square not in free_squares(robot.yard, robot.blocked):
        why = "the cockpit" if square == "r3c3" else (
            "blocked by the blueprint" if square in robot.blocked else "already built on")
        raise IllegalAction(f"{square} is {why}; free squares: {' '.join(free_squares(robot.yard, robot.blocked))}")
    hand.remove(tile)
    robot.yard[square] = [tile, rot]
    ctx.emit("place", f"{pname(player)} places t{tile} on {square} facing {'NESW'[rot]}",
             player=pname(player), tile=tile, square=square, rot="NESW"[rot])
    if not hand:
        state.queue.remove([player, "place"])
