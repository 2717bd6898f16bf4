"""The root of a search: which of the seat's own moves an iteration tries.

Half the iterations (after a first handful) try a move not tried yet, the
others sharpen the estimates of the moves tried: a breadth that one-ply greedy
(48 moves, 2 samples each) cannot afford, spent where it matters. Among a
few hundred moves, the untried ones come in random order until none is left.
Among thousands (BotWars and VOLT programs), every second new move is a
variation of the best so far (two registers or dice swapped, or one taken
from another legal program), a hill climb where random draws alone would
rarely meet a good program.
"""

from __future__ import annotations

import math
import random
from typing import TYPE_CHECKING, Any

from ..games.base import GameError
from .base import Situation

if TYPE_CHECKING:
    from .search import Node

FIRST = 8  # moves tried before any is tried again
NEW_SHARE = 0.5  # share of iterations spent on moves not tried yet
SHARPEN = 0.5  # UCB1's exploration constant on rewards rescaled to 0..1 among the root's children
SHUFFLED = 512  # up to this many legal moves: each is tried at most once, in random order


class Root:
    def __init__(self, situation: Situation, rng: random.Random) -> None:
        from .search import Node

        self.node = Node()
        self.game, self.seat, self.rng = situation.game, situation.seat, rng
        self.legal = situation.legal
        self.order: list[int] | None = None
        if len(self.legal) <= SHUFFLED:
            self.order = list(range(len(self.legal)))
            rng.shuffle(self.order)
        self.tries = 0

    def pick(self, sample: Any) -> tuple[Any, Node]:
        """The move this iteration tries from ``sample`` (a state at the seat's move), and its child."""
        from .search import Node

        children = self.node.children
        self.tries += 1
        if len(children) < FIRST or len(children) < NEW_SHARE * self.tries:
            action = self._untried(sample)
            if action is not None:
                return action, children.setdefault(str(action), Node(self.seat, action))
        return self._sharpest()

    def best(self) -> Node:
        """The best average among the moves tried more than once (all, if none was)."""
        children = list(self.node.children.values())
        again = [c for c in children if c.visits > 1] or children
        return max(again, key=lambda c: (c.mean(), c.visits))

    def _untried(self, sample: Any) -> Any | None:
        if self.order is not None:
            while self.order:
                action = self.legal[self.order.pop()]
                if str(action) not in self.node.children:
                    return action
            return None
        if self.node.children and len(self.node.children) % 2 == 0:
            variant = self._variant(sample)
            if variant is not None:
                return variant
        return self.legal[self.rng.randrange(len(self.legal))]

    def _variant(self, sample: Any) -> Any | None:
        """The best move so far with two of its words swapped, or one of them taken from the same
        place in another legal move; None when that is not legal or already tried."""
        best = max((c for c in self.node.children.values() if c.visits), key=lambda c: c.mean(), default=None)
        if best is None:
            return None
        words = str(best.action).split()
        head, args = words[:2], words[2:]
        if len(args) < 2:
            return None
        i = self.rng.randrange(len(args))
        if self.rng.random() < 0.5:
            j = self.rng.randrange(len(args))
            args[i], args[j] = args[j], args[i]
        else:
            other = str(self.legal[self.rng.randrange(len(self.legal))]).split()[2:]
            if i >= len(other):
                return None
            args[i] = other[i]
        text = " ".join(head + args)
        if text in self.node.children:
            return None
        try:  # legal in the sample is legal for the seat: its own moves depend on what it sees
            return self.game.action_from_str(sample, text)
        except GameError:
            return None

    def _sharpest(self) -> tuple[Any, Node]:
        children = list(self.node.children.values())
        means = [c.mean() for c in children if c.visits]
        low, high = (min(means), max(means)) if means else (0.0, 1.0)
        spread = (high - low) or 1.0
        total = math.log(max(sum(c.visits for c in children), 1))

        def score(child: Node) -> float:
            if child.visits == 0:
                return math.inf
            return (child.mean() - low) / spread + SHARPEN * math.sqrt(total / child.visits)

        best = max(children, key=score)
        return best.action, best
