"""A Twin Tin Bots state as one seat may believe it: the hidden parts dealt again at random.

Hidden from ``seat``: the other seats' special tiles in hand that nobody has
seen placed, and the order of the special-tile deck. Those tiles are pooled,
shuffled with ``rng`` and dealt back in the same counts, so two states that
differ only there give the same sample for the same ``rng``.
"""

from __future__ import annotations

from collections import Counter
from random import Random

from .state import State


def determinize(state: State, seat: int, rng: Random) -> State:
    unknown: dict[int, list[int]] = {}
    pool = list(state.deck)
    for other, hand in enumerate(state.hands):
        if other == seat:
            continue
        hidden = list((Counter(hand) - Counter(state.revealed[other] if other < len(state.revealed) else ())).elements())
        unknown[other] = hidden
        pool += hidden
    pool.sort()  # the sample must not depend on how the hidden tiles were arranged
    rng.shuffle(pool)
    hands = list(state.hands)
    for other, hidden in unknown.items():
        known = list((Counter(hands[other]) - Counter(hidden)).elements())
        hands[other] = tuple(sorted(known + [pool.pop() for _ in hidden]))
    return state._replace(hands=tuple(hands), deck=tuple(pool))
