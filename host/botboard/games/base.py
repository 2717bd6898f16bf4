"""The game-plugin interface every rules engine implements.

Modelled on OpenSpiel: a game declares its type and limits, then a handful of
hooks act on immutable states. Engines are pure: no I/O, deterministic under
the seed carried inside the state. Chance is resolved inside ``apply`` from the
state's own RNG state, or, where a player must choose, surfaced as a pending
``Decision`` whose choices are ordinary actions.
"""

from __future__ import annotations

import hashlib
import json
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, Generic, Mapping, Sequence, TypeVar

JSON = Any  # a value that json.dumps accepts


class GameError(ValueError):
    """Base of every error an engine raises about input it was given."""


class InvalidNotation(GameError):
    """Text that does not parse as an action or a position."""


class IllegalAction(GameError):
    """A well-formed action that the rules do not allow in this state."""


class ScenarioError(GameError):
    """A malformed scenario file; the message names the field and the problem."""


@dataclass(frozen=True)
class GameInfo:
    """What a game declares about itself (OpenSpiel's GameType + limits)."""

    name: str  # registry key, e.g. "twin-tin-bots"
    title: str  # human name, e.g. "Twin Tin Bots"
    min_players: int
    max_players: int
    has_chance: bool
    hidden_information: bool
    max_turns: int  # an upper bound used by random-play tests and benchmarks
    options: Mapping[str, JSON] = field(default_factory=dict)  # option -> default


@dataclass(frozen=True, init=False)
class Event:
    """Something that happened while an action was applied.

    ``kind`` is a short machine name ("move", "zap", "deliver"...), ``data`` its
    JSON-able details and ``text`` the same in words for logs and the console.
    """

    kind: str
    data: Mapping[str, JSON]
    text: str

    def __init__(self, kind: str, data: Mapping[str, JSON], text: str) -> None:
        # engines build dozens a turn: filling __dict__ once costs half the generated
        # frozen __init__ (three object.__setattr__ calls); the instance stays frozen
        fields = self.__dict__
        fields["kind"], fields["data"], fields["text"] = kind, data, text

    def to_json(self) -> dict[str, JSON]:
        return {"kind": self.kind, **dict(self.data), "text": self.text}


@dataclass(frozen=True)
class Decision:
    """A pending choice: ``player`` must pick one of ``choices`` (actions)."""

    player: int
    kind: str  # e.g. "crystal-entry", "zap-order"
    prompt: str
    choices: tuple[str, ...]  # action notations, each legal in this state

    def to_json(self) -> dict[str, JSON]:
        return {"player": self.player, "kind": self.kind, "prompt": self.prompt,
                "choices": list(self.choices)}


@dataclass(frozen=True)
class Outcome:
    """Game end as a record: who won (several on a shared win) and why."""

    winners: tuple[int, ...]
    reason: str
    scores: tuple[int, ...]

    def to_json(self) -> dict[str, JSON]:
        return {"winners": list(self.winners), "reason": self.reason,
                "scores": list(self.scores)}

    @classmethod
    def from_json(cls, doc: Mapping[str, JSON] | None) -> "Outcome | None":
        """The outcome a state records as JSON (None while the game goes on)."""
        if doc is None:
            return None
        return cls(tuple(doc["winners"]), str(doc["reason"]), tuple(doc["scores"]))


S = TypeVar("S")  # the game's immutable state type
A = TypeVar("A")  # the game's action type


class Game(ABC, Generic[S, A]):
    """A rules engine. Subclasses fill in the hooks; states are never mutated."""

    info: GameInfo

    # -- the hooks ---------------------------------------------------------
    @abstractmethod
    def new_game(self, players: int, options: Mapping[str, JSON] | None = None,
                 seed: int = 0) -> S: ...

    @abstractmethod
    def legal_actions(self, state: S) -> Sequence[A]: ...

    @abstractmethod
    def apply(self, state: S, action: A) -> tuple[S, list[Event]]:
        """Return the next state and what happened; raise IllegalAction."""

    def advance(self, state: S, action: A) -> S:
        """The next state alone: ``apply`` without its events, for search and benchmarks.

        Games override it where leaving the events out saves time; the state must
        be the one ``apply`` returns.
        """
        return self.apply(state, action)[0]

    @abstractmethod
    def current_player(self, state: S) -> int | None:
        """Who acts next (the decider when a decision is pending); None at the end."""

    @abstractmethod
    def pending(self, state: S) -> Decision | None: ...

    @abstractmethod
    def outcome(self, state: S) -> Outcome | None:
        """None while the game goes on."""

    def action_to_str(self, state: S, action: A) -> str:
        return str(action)  # actions with a text form of their own; override otherwise

    @abstractmethod
    def action_from_str(self, state: S, text: str) -> A:
        """Parse; raise InvalidNotation (syntax) or IllegalAction (not legal here)."""

    @abstractmethod
    def state_to_json(self, state: S) -> dict[str, JSON]: ...

    @abstractmethod
    def state_from_json(self, doc: Mapping[str, JSON]) -> S:
        """Inverse of state_to_json; raise ScenarioError naming a bad field."""

    @abstractmethod
    def observe(self, state: S, player: int | None = None) -> dict[str, JSON]:
        """A JSON view for the console and scenario expectations.

        ``player`` None is the referee's view; a player's view hides what that
        player may not see (other players' hands).
        """

    # -- for new_game: what the game declares, checked ----------------------
    def merged_options(self, options: Mapping[str, JSON] | None) -> dict[str, Any]:
        """The declared options with ``options`` laid over them; GameError naming an unknown one."""
        opts = dict(self.info.options)
        for key, value in (options or {}).items():
            if key not in self.info.options:
                raise GameError(f"unknown {self.info.title} option {key!r}; "
                                f"options: {', '.join(self.info.options)}")
            opts[key] = value
        return opts

    def check_players(self, players: int, who: str = "players") -> None:
        """GameError unless the game takes ``players`` (``who``: what the rules call them)."""
        low, high = self.info.min_players, self.info.max_players
        if not low <= players <= high:
            raise GameError(f"{self.info.title} takes {low}..{high} {who}, not {players}")

    # -- derived, shared by every game --------------------------------------
    def is_terminal(self, state: S) -> bool:
        return self.outcome(state) is not None

    def state_hash(self, state: S) -> str:
        """Stable across processes and versions of Python: sha256 of canonical JSON."""
        text = json.dumps(self.state_to_json(state), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    def apply_str(self, state: S, text: str) -> tuple[S, list[Event]]:
        return self.apply(state, self.action_from_str(state, text))

    def is_turn(self, state: S, action: A) -> bool:
        """Whether ``action`` counts as a turn (benchmarks); decisions inside a turn may not."""
        return True

    def counters(self, state: S) -> dict[str, int]:
        """Game-specific units played so far (e.g. BotWars' stages), for benchmarks."""
        return {}

    # -- computer players ---------------------------------------------------
    def legal_actions_of(self, state: S, seat: int) -> Sequence[A]:
        """``seat``'s legal actions, also while the engine waits for another seat first (games
        where every seat programs at once override this); empty if it has none now."""
        return self.legal_actions(state) if self.current_player(state) == seat else []

    def determinize(self, state: S, seat: int, rng: Any) -> S:
        """``state`` as ``seat`` may believe it: every part it cannot see (others' hands,
        hidden programs, deck orders, chance to come) dealt again at random with ``rng``
        (a ``random.Random``), consistently with what it has seen. Two states that differ
        only in what ``seat`` cannot see give the same sample for the same ``rng``. A game
        raises GameError when a state cannot be sampled (players/ then use public choices)."""
        raise GameError(f"{self.info.title} cannot sample what a seat cannot see")

    # -- scenarios: games may override to accept a compact position ---------
    def scenario_start(self, players: int, options: Mapping[str, JSON], seed: int,
                       position: JSON | None) -> S:
        """The state a scenario starts from: a new game, or ``position`` given in full."""
        if position is None:
            return self.new_game(players, options, seed)
        if not isinstance(position, Mapping):
            raise ScenarioError("position: expected an object (a state as JSON)")
        return self.state_from_json(position)
