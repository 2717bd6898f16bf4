"""Laser Tanks as a botboard rules engine (botboard.games.base.Game).

A round: each seat lays a secret program of two orders (one action each:
"p1 program F X"; the other seat sees only that a program was laid); the
second program reveals both and plays the round (rules.py). No chance: the
same programs always give the same round.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Mapping, Sequence

from botboard.games.base import (JSON, Decision, Event, Game, GameError, GameInfo, IllegalAction,
                                 Outcome, ScenarioError)

from .orders import Program, every_program
from .rules import play_round
from .state import SEATS, STARTS, State, Tank

DEFAULTS: dict[str, JSON] = {"hits_to_win": 3, "max_rounds": 20}


class LaserTanks(Game[State, Program]):
    info = GameInfo(name="lasertanks", title="Laser Tanks", min_players=2, max_players=2,
                    has_chance=False, hidden_information=True, max_turns=40, options=DEFAULTS)

    def new_game(self, players: int, options: Mapping[str, JSON] | None = None, seed: int = 0) -> State:
        if players != len(SEATS):
            raise GameError(f"Laser Tanks is played by 2, not {players}")
        opts = {**DEFAULTS, **(options or {})}
        unknown = set(opts) - set(DEFAULTS)
        if unknown:
            raise GameError(f"unknown Laser Tanks option {sorted(unknown)[0]!r}; options: {', '.join(DEFAULTS)}")
        for key, value in opts.items():
            if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 999:
                raise GameError(f"option {key}: expected a whole number from 1 to 999, got {value!r}")
        tanks = tuple(Tank(square, facing) for square, facing in STARTS)
        return State(tanks, hits_to_win=int(opts["hits_to_win"]), max_rounds=int(opts["max_rounds"]))

    # -- whose turn, what is legal ------------------------------------------------------
    def current_player(self, state: State) -> int | None:
        if state.outcome is not None:
            return None
        return next(i for i, p in enumerate(state.programs) if p is None)

    def legal_actions(self, state: State) -> Sequence[Program]:
        seat = self.current_player(state)
        return every_program(seat) if seat is not None else []

    def legal_actions_of(self, state: State, seat: int) -> Sequence[Program]:
        """Both seats program at once: a seat's choices before the engine's order reaches it."""
        waiting = state.outcome is None and state.programs[seat] is None
        return every_program(seat) if waiting else []

    def pending(self, state: State) -> Decision | None:
        return None  # nothing is ever asked: a program is all a seat does

    def outcome(self, state: State) -> Outcome | None:
        return state.outcome

    # -- acting ---------------------------------------------------------------------------
    def apply(self, state: State, action: Program) -> tuple[State, list[Event]]:
        self._check(state, action)
        programs = tuple(action.orders if i == action.seat else p for i, p in enumerate(state.programs))
        name = SEATS[action.seat]
        laid = replace(state, programs=programs)
        events = [Event("program", {"tank": name}, f"{name} has laid a program")]
        if any(p is None for p in programs):
            return laid, events
        after, more = play_round(laid)
        return after, events + more

    def _check(self, state: State, action: Program) -> None:
        if state.outcome is not None:
            raise IllegalAction("the game is over")
        if not 0 <= action.seat < len(SEATS):
            raise IllegalAction(f"there is no tank p{action.seat + 1}: the seats are p1 and p2")
        if state.programs[action.seat] is not None:
            raise IllegalAction(f"{SEATS[action.seat]} has laid its program this round already")

    def action_from_str(self, state: State, text: str) -> Program:
        action = Program.parse(text)
        self._check(state, action)
        return action

    # -- JSON and views -------------------------------------------------------------------
    def state_to_json(self, state: State) -> dict[str, JSON]:
        return state.to_json()

    def state_from_json(self, doc: Mapping[str, JSON]) -> State:
        if not isinstance(doc, Mapping):
            raise ScenarioError("position: expected an object (a Laser Tanks position)")
        return State.from_json(doc)

    def scenario_start(self, players: int, options: Mapping[str, JSON], seed: int,
                       position: JSON | None) -> State:
        """A new game with the scenario's options, and what ``position`` gives in place of its parts."""
        start = self.new_game(players, options, seed)
        if position is None:
            return start
        if not isinstance(position, Mapping):
            raise ScenarioError("position: expected an object (a Laser Tanks position)")
        return State.from_json({**start.to_json(), **position})

    def observe(self, state: State, player: int | None = None) -> dict[str, JSON]:
        """The referee (None) sees everything; a seat sees only its own program before the reveal."""
        doc = state.to_json()
        for i, program in enumerate(state.programs):
            if player is not None and i != player and program is not None:
                doc["programs"][SEATS[i]] = "hidden"
        current = self.current_player(state)
        doc["to_act"] = SEATS[current] if current is not None else None
        return doc

    def determinize(self, state: State, seat: int, rng: Any) -> State:
        """The other seat's laid program, which ``seat`` cannot see, drawn again at random."""
        programs = tuple(p if i == seat or p is None else rng.choice(every_program(i)).orders
                         for i, p in enumerate(state.programs))
        return replace(state, programs=programs)


GAME = LaserTanks()
