"""How good a position is for one player: a number in 0..1, from the game's own evaluation.

A finished game is 1 for a winner (shared among several), 0 otherwise. An
unfinished one compares the player's standing (the game's declared
``Evaluation``: one number per seat from the rules' goals) with the best
opponent's, squashed into 0..1 by the game's scale of a clear lead, so that a
search can average it with finished games.
"""

from __future__ import annotations

import math
from typing import Any

from .. import games
from ..games.base import Game
from ..games.declaration import Evaluation

_EVALUATIONS: dict[str, Evaluation] = {}  # looked up once: search asks thousands of times a second


def value(game: Game[Any, Any], state: Any, player: int) -> float:
    outcome = game.outcome(state)
    if outcome is not None:
        return 1.0 / len(outcome.winners) if player in outcome.winners else 0.0
    evaluation = _EVALUATIONS.get(game.info.name) or _EVALUATIONS.setdefault(
        game.info.name, games.evaluation(game.info.name))
    standing = evaluation.standing(state)
    mine = standing[player]
    best = max((s for p, s in enumerate(standing) if p != player), default=mine)
    return 1.0 / (1.0 + math.exp(-(mine - best) / evaluation.scale))
