"""Search: information-set Monte Carlo tree search (single observer).

Every iteration samples a state as the seat may believe it (base.Situation),
then walks one tree shared by all samples. The root weighs the seat's own
moves (all, or 48 drawn, as greedy does); deeper, only the actions legal in
this sample are candidates (UCB1 counted over the times a child was
available), a node with many actions widens slowly (progressive widening),
and another seat's program among thousands is drawn at random. The walk ends
with a random playout until the searching seat is to move again, scored by
the game's evaluation for every player; each node keeps the reward of the
player who chose its action. The move played is the root's most visited child.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Any

from ..games.base import GameError
from .base import Choice, Player, Situation, candidates
from .evaluate import value

EXPLORE = 0.7  # UCB1's exploration constant, for rewards in 0..1
PLAYOUT_STEPS = 30  # random actions after the tree before scoring
MAX_DEPTH = 12  # tree depth per iteration
WIDEN = 2.0  # a node may hold WIDEN * sqrt(visits) + 1 children
ROOT_CANDIDATES = 48  # the seat's own moves weighed at the root (as greedy's)


@dataclass
class Node:
    player: int | None = None  # who chose the action leading here
    action: Any = None  # that action (the engine's own, for lazy membership tests)
    visits: int = 0
    available: int = 0  # times this node's action was legal when its parent was walked
    reward: float = 0.0
    children: dict[str, Node] = field(default_factory=dict)

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
        if len(situation.legal) == 1 or situation.sample(self.rng) is None:
            pick = situation.legal[self.rng.randrange(len(situation.legal))]
            return Choice(situation.notation(pick), time.perf_counter() - start, 0, pick)
        root, iterations = Node(), 0
        # the root weighs the same candidates greedy would (all, or 48 drawn), each tried once
        # before UCB1 spends the rest; deeper nodes widen progressively
        root.children = {str(a): Node(situation.seat, a)
                         for a in candidates(situation.legal, self.rng, ROOT_CANDIDATES)}
        root.visits = 0
        while not self.out_of_time(deadline, iterations) or not root.children:
            sample = situation.sample(self.rng)
            if sample is not None:
                self._iterate(game, sample, root)
            iterations += 1
            if iterations > 50 and not root.children:  # no sample reaches this seat's move
                pick = situation.legal[self.rng.randrange(len(situation.legal))]
                return Choice(situation.notation(pick), time.perf_counter() - start, 0, pick)
        best = max(root.children.values(), key=lambda child: child.visits)
        return Choice(situation.notation(best.action), time.perf_counter() - start, iterations, best.action)

    def _iterate(self, game: Any, state: Any, root: Node) -> None:
        root_seat = game.current_player(state)
        path, node = [root], root
        for _ in range(MAX_DEPTH):
            player = game.current_player(state)
            if player is None:
                break
            legal = game.legal_actions(state)
            child_action = self._select(node, legal, player, node is root)
            if child_action is None:
                break
            action, child = child_action
            try:
                state = game.advance(state, action)
            except GameError:
                break
            path.append(child)
            node = child
            if child.visits == 0:
                break  # a new node: play out from here
        state = self._play_out(game, state, root_seat)
        rewards: dict[int, float] = {}
        for visited in path:
            visited.visits += 1
            if visited.player is not None:
                if visited.player not in rewards:
                    rewards[visited.player] = value(game, state, visited.player)
                visited.reward += rewards[visited.player]

    def _select(self, node: Node, legal: Any, player: int, root: bool = False) -> tuple[Any, Node] | None:
        """A new child while the node may widen, else the best child legal in this sample
        by UCB1 (each counted available). The root keeps its candidates."""
        count = len(legal)
        if count == 0:
            return None
        if not root and count > 256:  # another seat's program among thousands: a random one
            action = legal[self.rng.randrange(count)]
            return action, node.children.setdefault(str(action), Node(player, action))
        if not root and len(node.children) < WIDEN * math.sqrt(node.visits + 1) + 1:
            action = legal[self.rng.randrange(count)]
            key = str(action)
            if key not in node.children:
                node.children[key] = Node(player, action)
                return action, node.children[key]
        if root:  # the seat's own moves: legal in every sample
            known = {k: c.action for k, c in node.children.items()}
        else:
            here = {str(a): a for a in legal}
            known = {k: here[k] for k in node.children if k in here}
        if not known:
            action = legal[self.rng.randrange(count)]
            child = node.children.setdefault(str(action), Node(player, action))
            return action, child
        for key in known:
            node.children[key].available += 1
        key = max(known, key=lambda k: node.children[k].ucb())
        return known[key], node.children[key]

    def _play_out(self, game: Any, state: Any, seat: int) -> Any:
        """Random moves until ``seat`` is to move again: the evaluation judges a position
        where it may act, not the middle of the others' replies."""
        for _ in range(PLAYOUT_STEPS):
            if game.current_player(state) in (None, seat):
                break
            legal = game.legal_actions(state)
            state = game.advance(state, legal[self.rng.randrange(len(legal))])
        return state
