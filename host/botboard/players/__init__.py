"""Computer players for any seat of any game: random, greedy and search (docs/computer-players.md).

    player = players.make("search", seed=1, budget_s=2.0)
    choice = player.choose(Situation.of(game, state, seat))   # choice.action is the notation

A player sees only what its seat may see (base.py): it is handed samples of the
state with every hidden part dealt again, never the state itself.
"""

from __future__ import annotations

from .base import Choice, Player, Situation
from .greedy import Greedy
from .search import Search

LEVELS: dict[str, type[Player]] = {"random": Player, "greedy": Greedy, "search": Search}


def make(level: str, seed: int = 0, budget_s: float = 2.0, iterations: int | None = None) -> Player:
    """A player of ``level``; ``iterations`` fixes its work instead of its time (reproducible)."""
    if level not in LEVELS:
        raise ValueError(f"no computer level {level!r}; levels: {', '.join(LEVELS)}")
    return LEVELS[level](seed, budget_s, iterations)


__all__ = ["Choice", "LEVELS", "Player", "Situation", "make"]
