"""Hits on a robot: defense tokens first, destruction, everything disconnected falling off, goblins.

The defending pilot takes the attacker's dice one by one in the attacker's
order; each die strikes the first tile (or the cockpit) of its line, seen
from the attacked side. Every tile no longer joined to the cockpit falls off
before the next die. A choice between different tokens on a hit tile is the
defending pilot's decision.
"""

from __future__ import annotations

from .context import Ctx, pname
from .defense import covering, remove_token, token_choices
from .state import Robot
from .yard import COCKPIT, SIDE_NAMES, first_hit, loose


def target_of(ctx: Ctx, team: int) -> str | None:
    """Square the head die of ``team``'s attack strikes (None: blank or empty line)."""
    die = ctx.state.hits[team][0]
    if die == 0:
        return None
    side = ctx.state.reveal[team]["side"]
    return first_hit(ctx.robot(1 - team).yard, ctx.box, side, die)


def resolve(ctx: Ctx) -> bool:
    """Resolve both attacks until done (True) or a token choice is needed (False)."""
    state = ctx.state
    for team in (0, 1):
        victim = ctx.robot(1 - team)
        while state.hits[team]:
            square = target_of(ctx, team)
            if square is not None and square != COCKPIT and len(token_choices(victim, square)) > 1:
                state.queue.append([victim.pilot, "token"])
                return False
            die = state.hits[team].pop(0)
            _strike(ctx, team, die, square)
    return True


def choose_token(ctx: Ctx, team_hit: int, cover: str) -> None:
    """The defending pilot removed ``cover``; the head die of the attack is spent."""
    attacker = 1 - team_hit
    victim = ctx.robot(team_hit)
    die = ctx.state.hits[attacker].pop(0)
    _lose_token(ctx, team_hit, victim, cover, die)


def _strike(ctx: Ctx, team: int, die: int, square: str | None) -> None:
    victim_team = 1 - team
    victim = ctx.robot(victim_team)
    side = SIDE_NAMES[ctx.state.reveal[team]["side"]]
    if die == 0:
        ctx.emit("miss", f"team {'AB'[team]}: a blank die misses", team=team)
    elif square is None:
        ctx.emit("empty-line", f"team {'AB'[team]}: line {die} from {side} is empty", team=team, die=die)
    elif square == COCKPIT:
        _hit_cockpit(ctx, victim_team, victim, die)
    elif covering(victim, square):
        _lose_token(ctx, victim_team, victim, token_choices(victim, square)[0], die)
    else:
        destroy(ctx, victim_team, victim, square, f"hit by die {die}")
        fall_off(ctx, victim_team, victim, "cut off from the cockpit")


def _lose_token(ctx: Ctx, team: int, victim: Robot, cover: str, die: int) -> None:
    remove_token(victim, cover)
    victim.scrap_tokens += 1
    victim.knocked += 1
    ctx.emit("token-lost", f"robot {'AB'[team]}: die {die} knocks off the defense token on {cover}",
             team=team, die=die, token=cover)


def _hit_cockpit(ctx: Ctx, team: int, victim: Robot, die: int) -> None:
    if not victim.goblins:
        ctx.emit("cockpit-empty", f"robot {'AB'[team]}: die {die} hits an empty cockpit", team=team, die=die)
        return
    owner = victim.pilot if victim.pilot in victim.goblins else victim.goblins[0]
    victim.goblins.remove(owner)
    victim.scrap_goblins.append(owner)
    victim.knocked += 1
    ctx.emit("goblin-out", f"robot {'AB'[team]}: die {die} hits the cockpit, {pname(owner)}'s goblin is "
             f"knocked out ({len(victim.goblins)} left)", team=team, die=die, goblin=pname(owner))


def destroy(ctx: Ctx, team: int, victim: Robot, square: str, why: str, knocked: bool = True) -> None:
    """The tile on ``square`` goes to the scrapyard with any tokens on it."""
    tile_id = victim.yard.pop(square)[0]
    victim.scrap.append(tile_id)
    tokens = covering(victim, square)
    for index in reversed(tokens):
        victim.tokens.pop(index)
    victim.scrap_tokens += len(tokens)
    if knocked:
        victim.knocked += 1 + len(tokens)
    else:
        victim.loose.append(tile_id)
    ctx.emit("destroyed", f"robot {'AB'[team]}: t{tile_id} on {square} {why}"
             + (f" with {len(tokens)} defense token(s)" if tokens else ""),
             team=team, square=square, tile=tile_id, tokens=len(tokens), why=why)


def fall_off(ctx: Ctx, team: int, victim: Robot, why: str, knocked: bool = True) -> int:
    """Everything not joined to the cockpit falls off; how many tiles."""
    squares = loose(victim.yard, ctx.box)
    for square in squares:
        destroy(ctx, team, victim, square, why, knocked)
    return len(squares)
