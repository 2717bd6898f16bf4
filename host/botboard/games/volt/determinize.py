"""A VOLT state as one operator may believe it: programs, inventories and chance at random.

Hidden from ``seat``: the other operators' programs submitted this round (dice
faces and keys), the modules in their inventories, the order of the module
decks, and chance to come (the seed). Unseen modules (the decks and the other
inventories) are pooled and dealt again in the same counts; each submitted
program is replaced by a random legal program; the seed is drawn from ``rng``.

A decision inside a round's resolution is answered against the snapshot the
engine replays the round from, which a sample cannot change consistently:
``NotDeterminizable`` says so, and a computer player then chooses from the
public choices alone (players/base.py).
"""

from __future__ import annotations

from random import Random

from ..base import GameError
from .programs import ProgramChoices
from .state import State


class NotDeterminizable(GameError):
    """This state's hidden parts cannot be dealt again (a round being resolved)."""


def determinize(state: State, seat: int, rng: Random) -> State:
    if state.snapshot is not None:
        raise NotDeterminizable("a VOLT round is being resolved: its snapshot holds the hidden parts")
    new = state.clone()
    new.seed = rng.randrange(1 << 30)
    others = [r for r in new.robots if r.seat != seat and not r.killbot]
    pool = sorted(m for deck in new.decks.values() for m in deck)
    pool += sorted(m for r in others for m in r.inventory)
    pool.sort()
    rng.shuffle(pool)
    for robot in others:
        robot.inventory = [pool.pop() for _ in robot.inventory]
    for name in sorted(new.decks):
        new.decks[name] = [pool.pop() for _ in new.decks[name]]
    for robot in others:
        if robot.submitted:
            choices = ProgramChoices(robot)
            robot.program = choices[rng.randrange(len(choices))].to_dice()
    return new
