"""Search: information-set Monte Carlo tree search (single observer).

Every iteration takes a state as the seat may believe it (base.Situation),
the same one for the k-th try of every root move (Worlds), then walks one
tree shared by all samples. The root weighs the seat's own
moves (root.py): half the iterations try a move not yet tried (one drawn at
random, or, among thousands of programs, often a variation of the best one so
far), the other half sharpen the estimates of the ones tried (UCB1 on rewards
rescaled to the children's spread). Deeper, only the actions legal in this
sample are candidates (UCB1 counted over the times a child was available), a
node with many actions widens slowly (progressive widening), and another
seat's program among thousands is drawn at random. The walk ends when the
searching seat is to move again at a position seen fewer than DEEPEN times
(the evaluation judges its move there better than a random one would), or
with a random playout until the seat is to move again; the game's evaluation
scores it for every player, and each node keeps the reward of the player who
chose its action. The move played is the root's best average among the moves
tried more than once.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field
from typing import Any

from ..games.base import GameError
from .base import Choice, Player, Situation
from .evaluate import value
from .root import Root

EXPLORE = 0.7  # UCB1's exploration constant, for rewards in 0..1
PLAYOUT_STEPS = 30  # random actions after the tree before scoring
MAX_DEPTH = 12  # tree depth per iteration
WIDEN = 2.0  # a node may hold WIDEN * sqrt(visits) + 1 children
DEEPEN = 8  # the seat's own later moves are searched once their position was reached this often
MANY = 256  # another seat's actions beyond this many: one drawn at random, no statistics


class Worlds:
    """The k-th try of every root move meets the same sampled world (hidden cards, chance to
    come, the others' random choices): common random numbers, so that two moves' averages
    differ by what the moves do more than by luck. Samples are kept (states are never mutated)."""

    def __init__(self, situation: Situation, rng: random.Random) -> None:
        self.situation, self.seed = situation, rng.getrandbits(32)
        self.states: list[Any] = []

    def get(self, k: int) -> tuple[Any, random.Random]:
        while len(self.states) <= k:
            self.states.append(self.situation.sample(random.Random(f"{self.seed}:{len(self.states)}")))
        return self.states[k], random.Random(f"{self.seed}:{k}:play")


@dataclass
class Node:
    player: int | None = None  # who chose the action leading here
    action: Any = None  # that action (the engine's own, for lazy membership tests)
    visits: int = 0
    available: int = 0  # times this node's action was legal when its parent was walked
    reward: float = 0.0
    children: dict[str, Node] = field(default_factory=dict)

    def mean(self) -> float:
        return self.reward / self.visits if self.visits else 0.0

    def ucb(self) -> float:
        if self.visits == 0:
            return math.inf
        return self.reward / self.visits + EXPLORE * math.sqrt(math.log(max(self.available, 1)) / self.visits)


class Search(Player):
    level = "search"

    def choose(self, situation: Situation) -> Choice:
        start = time.perf_counter()
        deadline = start + self.budget_s
        game = situation.game
        worlds = Worlds(situation, self.rng)
        if len(situation.legal) == 1 or worlds.get(0)[0] is None:
            return self._any(situation, start)
        root, iterations = Root(situation, self.rng), 0
        while not self.out_of_time(deadline, iterations) or not root.node.children:
            iterations += 1
            action, child = root.pick(worlds.get(0)[0])
            state, rng = worlds.get(child.visits)
            if state is None:  # this world cannot reach the seat's move: a fresh one
                state, rng = situation.sample(self.rng), self.rng
            if state is not None:
                self._iterate(game, state, root.node, action, child, rng)
        best = root.best()
        return Choice(situation.notation(best.action), time.perf_counter() - start, iterations, best.action)

    def _any(self, situation: Situation, start: float) -> Choice:
        pick = situation.legal[self.rng.randrange(len(situation.legal))]
        return Choice(situation.notation(pick), time.perf_counter() - start, 0, pick)

    def _iterate(self, game: Any, state: Any, root: Node, action: Any, child: Node, rng: random.Random) -> None:
        root_seat = game.current_player(state)
        path, node = [root, child], child
        try:
            state = game.advance(state, action)
        except GameError:  # not legal in this world: counted as a loss, so it is not tried forever
            root.visits, child.visits = root.visits + 1, child.visits + 1
            return
        for _ in range(MAX_DEPTH if child.visits else 0):  # a new root move: judged from here
            player = game.current_player(state)
            if player is None or (player == root_seat and node.visits < DEEPEN):
                break
            chosen = self._select(node, game.legal_actions(state), player, rng)
            if chosen is None:
                break
            action, node = chosen
            try:
                state = game.advance(state, action)
            except GameError:
                break
            path.append(node)
            if node.visits == 0:
                break  # a new node: play out from here
        state = self._play_out(game, state, root_seat, rng)
        rewards: dict[int, float] = {}
        for visited in path:
            visited.visits += 1
            if visited.player is not None:
                if visited.player not in rewards:
                    rewards[visited.player] = value(game, state, visited.player)
                visited.reward += rewards[visited.player]

    def _select(self, node: Node, legal: Any, player: int, rng: random.Random) -> tuple[Any, Node] | None:
        """A new child while the node may widen, else the best child legal in this sample
        by UCB1 (each counted available)."""
        count = len(legal)
        if count == 0:
            return None
        if count > MANY:  # another seat's program among thousands: a random one
            action = legal[rng.randrange(count)]
            return action, node.children.setdefault(str(action), Node(player, action))
        if len(node.children) < WIDEN * math.sqrt(node.visits + 1) + 1:
            action = legal[rng.randrange(count)]
            key = str(action)
            if key not in node.children:
                node.children[key] = Node(player, action)
                return action, node.children[key]
        here = {str(a): a for a in legal}
        known = {k: here[k] for k in node.children if k in here}
        if not known:
            action = legal[rng.randrange(count)]
            return action, node.children.setdefault(str(action), Node(player, action))
        for key in known:
            node.children[key].available += 1
        key = max(known, key=lambda k: node.children[k].ucb())
        return known[key], node.children[key]

    def _play_out(self, game: Any, state: Any, seat: int, rng: random.Random) -> Any:
        """Random moves until ``seat`` is to move again: the evaluation judges a position
        where it may act, not the middle of the others' replies."""
        for _ in range(PLAYOUT_STEPS):
            if game.current_player(state) in (None, seat):
                break
            legal = game.legal_actions(state)
            state = game.advance(state, legal[rng.randrange(len(legal))])
        return state
