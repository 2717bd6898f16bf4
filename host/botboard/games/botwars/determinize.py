"""A BotWars state as one seat may believe it: hands, programs and future deals at random.

Hidden from ``seat``: the other robots' hands, their programs submitted this
turn, and the deck's order for the turns to come (the seed). The unseen cards
(not in the seat's hand, not fused in a register) are dealt again to the other
robots in the same counts, each from the cards that robot may hold; a submitted
program is replaced by a random program of the new hand; the seed is drawn
from ``rng``. Two states that differ only in what the seat cannot see give the
same sample for the same ``rng``.
"""

from __future__ import annotations

from random import Random

from .actions import ProgramChoices
from .cards import deck, ruleset
from .phases import card_sets
from .state import REGISTERS, State


def determinize(state: State, seat: int, rng: Random) -> State:
    new = state.clone()
    new.seed = rng.randrange(1 << 30)
    cards = deck()
    upgrades = bool(ruleset(new.ruleset)["upgrades"])
    seen = set(new.players[seat].hand) | {c for p in new.players for c in p.fused.values() if c is not None}
    pool = sorted(c for c in cards.base + (cards.upgrade if upgrades else ()) if c not in seen)
    rng.shuffle(pool)
    for index, player in enumerate(new.players):
        if index == seat or not player.hand:
            continue
        sets = card_sets(upgrades, player)
        usable = [c for c in pool if cards.usable(c, sets)][:len(player.hand)]
        player.hand = usable
        pool = [c for c in pool if c not in usable]
    for index, player in enumerate(new.players):
        if index != seat and player.program is not None and new.phase == "program":
            _resubmit(new, index, rng)
    return new


def _resubmit(state: State, index: int, rng: Random) -> None:
    """A random program of the robot's (new) hand, stored as submitted (the turn runs once
    every robot has submitted, as before)."""
    player = state.players[index]
    player.program = None
    choices = ProgramChoices(state, index)
    action = choices[rng.randrange(len(choices))]
    program: list[int | None] = [None] * REGISTERS
    for register, card in player.fused.items():
        program[register] = card
    for register, card in zip(player.free_registers(), action.cards):
        program[register] = card
    player.program = program
    player.reboot_next = action.reboot
