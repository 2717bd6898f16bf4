"""The hooks of a game whose state is a record that writes itself as JSON.

BotWars, VOLT and Goblins, Inc. keep their state as a mutable record that is
cloned for each action, written and read by its own ``to_json``/``from_json``,
with the outcome stored in it as JSON; an action's text is parsed by the game's
notation module, then checked by the engine. A scenario's position is either a
whole state or a compact one that the game lays over a new game. A game names
its state class and notation module and gives the checks; this class does the
rest once.
"""

from __future__ import annotations

from abc import abstractmethod
from typing import Any, Mapping, Protocol, TypeVar

from .base import JSON, Game, Outcome, ScenarioError


class Record(Protocol):
    @property
    def outcome(self) -> Mapping[str, JSON] | None: ...

    def to_json(self) -> dict[str, JSON]: ...


R = TypeVar("R", bound=Record)  # the game's state
A = TypeVar("A")  # the game's action


class RecordGame(Game[R, A]):
    state_type: Any  # the state class: ``from_json(doc)`` reads what ``to_json`` writes
    notation: Any  # the action notation module: ``parse(text)``, InvalidNotation if it does not parse
    whole_state = "phase"  # a scenario position with this key is a whole state

    @abstractmethod
    def check_action(self, state: R, action: A) -> None:
        """IllegalAction with the reason, or nothing."""

    @abstractmethod
    def compact_position(self, players: int, options: Mapping[str, JSON], seed: int,
                         position: Mapping[str, Any]) -> R:
        """A new game with the fields of a compact scenario position laid over it."""

    def action_from_str(self, state: R, text: str) -> A:
        action: A = self.notation.parse(text)
        self.check_action(state, action)
        return action

    def outcome(self, state: R) -> Outcome | None:
        return Outcome.from_json(state.outcome)

    def state_to_json(self, state: R) -> dict[str, JSON]:
        return state.to_json()

    def state_from_json(self, doc: Mapping[str, JSON]) -> R:
        if not isinstance(doc, Mapping):
            raise ScenarioError("state: expected an object")
        state: R = self.state_type.from_json(doc)
        return state

    def scenario_start(self, players: int, options: Mapping[str, JSON], seed: int,
                       position: JSON | None) -> R:
        if position is None:
            return self.new_game(players, options, seed)
        if not isinstance(position, Mapping):
            raise ScenarioError("position: expected an object")
        if self.whole_state in position:  # a whole state as state_to_json writes it
            return self.state_from_json(position)
        return self.compact_position(players, options, seed, position)
