"""Twin Tin Bots as a botboard game plugin (see docs/twin-tin-bots.md)."""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from ..base import (JSON, Decision, Event, Game, GameInfo, IllegalAction, InvalidNotation,
                    Outcome, ScenarioError)
from . import actions as A
from . import content as C
from .notation import fen_to_doc, from_doc, seat_name, to_doc, to_fen
from .orders import Run, crystal_name, robot_name
from .setup import OPTIONS, new_game
from .state import (BLOB_CHOICE, END_SCORE, ENTRY_CHOICE, ZAP_CHOICE, State, final_scores)

Action = A.Action
_SEAT_TITLES = tuple(c.capitalize() for c in C.COLOURS)
_DECISION_KINDS = {ZAP_CHOICE: "zap-order", BLOB_CHOICE: "blob-move", ENTRY_CHOICE: "crystal-entry"}


class TwinTinBots(Game[State, Action]):
    info = GameInfo(name="twin-tin-bots", title="Twin Tin Bots", min_players=2, max_players=6,
                    has_chance=True, hidden_information=True, max_turns=20000,
                    options=dict(OPTIONS))

    # -- the hooks ----------------------------------------------------------------
    def new_game(self, players: int, options: Mapping[str, JSON] | None = None,
                 seed: int = 0) -> State:
        return new_game(players, options, seed)

    def legal_actions(self, state: State) -> Sequence[Action]:
        if state.result:
            return []
        if state.pending:
            return self._decision_actions(state)
        seat = state.player
        first = state.turns < state.layout.players
        return A.ProgrammingActions((state.programs[2 * seat], state.programs[2 * seat + 1]),
                                    state.hands[seat], first, not first and not state.dm_used[seat])

    def apply(self, state: State, action: Action) -> tuple[State, list[Event]]:
        return self._step(state, action, True)

    def advance(self, state: State, action: Action) -> State:
        return self._step(state, action, False)[0]

    def _step(self, state: State, action: Action, tell: bool) -> tuple[State, list[Event]]:
        if state.result:
            raise IllegalAction("the game is over")
        if state.pending:
            return self._decide(state, action, tell)
        return self._program_and_run(state, action, tell)

    def current_player(self, state: State) -> int | None:
        if state.result:
            return None
        return state.pending[1] if state.pending else state.player

    def pending(self, state: State) -> Decision | None:
        if not state.pending or state.result:
            return None
        kind, decider, detail = state.pending
        choices = tuple(self.action_to_str(state, a) for a in self._decision_actions(state))
        if kind == ZAP_CHOICE:
            prompt = f"choose the order {robot_name(detail)} must perform"
        elif kind == BLOB_CHOICE:
            prompt = "choose where the zapped blob goes (or stay)"
        else:
            prompt = f"choose where the {crystal_name(detail)} enters"
        return Decision(decider, _DECISION_KINDS[kind], f"{seat_name(decider)}: {prompt}", choices)

    def outcome(self, state: State) -> Outcome | None:
        if not state.result:
            return None
        how, winners = state.result
        reason = "score victory" if how == END_SCORE else "crystal attrition"
        if state.layout.teams:
            reason = "team " + reason
        return Outcome(winners, reason, final_scores(state))

    def is_turn(self, state: State, action: Action) -> bool:
        return state.pending is None

    # -- notation -------------------------------------------------------------------
    def action_to_str(self, state: State, action: Action) -> str:
        kind = action[0]
        if kind == A.ZAP_ORDER:
            return f"zap {C.TILE_CODES[action[1]]}"
        if kind == A.BLOB_MOVE:
            if action[1] < 0 or not state.pending:
                return "blob stay"
            grid = state.layout.arena
            return f"blob {grid.names[grid.nbr[state.pending[2]][action[1]]]}"
        if kind == A.ENTRY:
            return f"enter {state.layout.arena.names[action[1]]}"
        return A.programming_to_str(action)

    def action_from_str(self, state: State, text: str) -> Action:
        action = self._parse(state, text)
        problem = self.why_illegal(state, action)
        if problem:
            raise IllegalAction(problem)
        return action

    def _parse(self, state: State, text: str) -> Action:
        t = text.strip()
        word, _, rest = t.partition(" ")
        word = word.lower()
        if word == "zap":
            code = rest.strip().upper()
            if code not in C.TILE_BY_CODE or C.TILE_BY_CODE[code] not in C.ZAP_ORDERS:
                raise InvalidNotation(f"{t!r}: a zap forces one of "
                                      f"{', '.join(C.TILE_CODES[o] for o in C.ZAP_ORDERS)}")
            return (A.ZAP_ORDER, C.TILE_BY_CODE[code])
        if word == "blob":
            if rest.strip().lower() == "stay":
                return (A.BLOB_MOVE, -1)
            if not state.pending or state.pending[0] != BLOB_CHOICE:
                raise IllegalAction(f"{t!r}: no zapped blob is waiting to move")
            grid = state.layout.arena
            cell = grid.cell(rest)
            row = grid.nbr[state.pending[2]]
            if cell not in row:
                raise IllegalAction(f"{t!r}: the blob only moves to a neighbouring hex")
            return (A.BLOB_MOVE, row.index(cell))
        if word == "enter":
            return (A.ENTRY, state.layout.arena.cell(rest))
        return A.programming_from_str(t)

    def why_illegal(self, state: State, action: Action) -> str | None:
        """Why ``action`` cannot be applied now, or None if it can."""
        if state.result:
            return "the game is over"
        if state.pending:
            if action not in self._decision_actions(state):
                choices = self.pending(state)
                names = ", ".join(choices.choices) if choices else ""
                return f"{seat_name(state.pending[1])} must choose one of: {names}"
            return None
        if not isinstance(action, tuple) or not action or action[0] not in A.PROGRAMMING:
            return "a programming change is expected now (for example A1=F2 or pass)"
        return A.check_programming(*self._seat_programs(state), self._first_turn(state),
                                   self._can_double(state), action)

    # -- JSON and positions ---------------------------------------------------------------
    def state_to_json(self, state: State) -> dict[str, JSON]:
        return to_doc(state, full=True)

    def state_from_json(self, doc: Mapping[str, JSON]) -> State:
        return from_doc(doc)

    def determinize(self, state: State, seat: int, rng: Any) -> State:
        from .determinize import determinize
        return determinize(state, seat, rng)

    def observe(self, state: State, player: int | None = None) -> dict[str, JSON]:
        doc = to_doc(state, viewer=player)
        doc["final_scores"] = {seat_name(s): v for s, v in enumerate(final_scores(state))}
        if player is None:
            doc["position"] = to_fen(state)
        return doc

    def to_text(self, state: State) -> str:
        """The one-line position (docs/scenarios-twin-tin-bots.md)."""
        return to_fen(state)

    def from_text(self, text: str, base: State | None = None) -> State:
        return from_doc(fen_to_doc(text), base)

    def scenario_start(self, players: int, options: Mapping[str, JSON], seed: int,
                       position: JSON | None) -> State:
        """A new game, with the parts ``position`` gives (text or partial JSON) replaced."""
        base = self.new_game(players, options, seed)
        if position is None:
            return base
        try:
            if isinstance(position, str):
                doc: dict[str, Any] = fen_to_doc(position)
            elif isinstance(position, Mapping):
                doc = dict(position)
                if isinstance(doc.get("position"), str):
                    doc = {**fen_to_doc(doc.pop("position")), **doc}
            else:
                raise ScenarioError("position: expected a text position or an object")
        except InvalidNotation as err:
            raise ScenarioError(str(err)) from err
        if doc.get("players", players) != players:
            raise ScenarioError(f"position.players: {doc['players']} differs from the "
                                f"scenario's players ({players})")
        doc.setdefault("turns", players)  # a given position is past everyone's first turn
        return from_doc(doc, base, where="position.")

    # -- internals -------------------------------------------------------------------------
    @staticmethod
    def _seat_programs(state: State) -> tuple[A.Programs, tuple[int, ...]]:
        seat = state.player
        return (state.programs[2 * seat], state.programs[2 * seat + 1]), state.hands[seat]

    @staticmethod
    def _first_turn(state: State) -> bool:
        return state.turns < state.layout.players

    def _can_double(self, state: State) -> bool:
        return not state.dm_used[state.player] and not self._first_turn(state)

    def _decision_actions(self, state: State) -> list[Action]:
        assert state.pending is not None
        kind, _, detail = state.pending
        if kind == ZAP_CHOICE:
            return [(A.ZAP_ORDER, t) for t in C.ZAP_ORDERS]
        run = Run(state)
        if kind == BLOB_CHOICE:
            return [(A.BLOB_MOVE, d) for d in run.blob_moves(detail)] + [(A.BLOB_MOVE, -1)]
        return [(A.ENTRY, c) for c in run.entry_choices()]

    def _program_and_run(self, state: State, action: Action,
                         tell: bool) -> tuple[State, list[Event]]:
        seat = state.player
        progs, hand = (state.programs[2 * seat], state.programs[2 * seat + 1]), state.hands[seat]
        first = state.turns < state.layout.players
        problem = A.check_programming(progs, hand, first, not first and not state.dm_used[seat],
                                      action)
        if problem:
            raise IllegalAction(problem)
        run = Run(state, tell)
        if action[0] != A.PASS:
            (prog_a, prog_b), run.hands[seat] = A.apply_programming(progs, hand, action)
            programs = list(state.programs)
            programs[2 * seat], programs[2 * seat + 1] = prog_a, prog_b
            run.programs = tuple(programs)
            if action[0] == A.DOUBLE:
                run.dm_used = run.dm_used[:seat] + (True,) + run.dm_used[seat + 1:]
            run.revealed = _reveal(state.revealed, seat, prog_a + prog_b)
        if tell:
            text = A.programming_to_str(action)
            run.say("program", f"{_SEAT_TITLES[seat]} programs: {text}", seat=seat, action=text)
        if state.layout.mud:
            mud = state.layout.is_mud
            run.stuck = sum(1 << r for r, c in enumerate(state.cell) if mud[c])
        return self._continue(run, (0, 0, 0))

    def _decide(self, state: State, action: Action, tell: bool) -> tuple[State, list[Event]]:
        if not isinstance(action, tuple) or action not in self._decision_actions(state):
            raise IllegalAction(self.why_illegal(state, action) or "not a choice now")
        assert state.pending is not None and state.pc is not None
        kind, decider, detail = state.pending
        run = Run(state, tell)
        if tell:
            choice = self.action_to_str(state, action)
            words = choice
            if kind == ZAP_CHOICE:
                words = f"{C.TILE_NAMES[action[1]]} for {robot_name(detail)}"
            run.say("decide", f"{seat_name(decider).capitalize()} chooses {words}", seat=decider,
                    choice=choice)
        if kind == ZAP_CHOICE:
            run.forced(detail, action[1])
        elif kind == BLOB_CHOICE:
            if action[1] >= 0:
                run.move_blob(detail, action[1])
        else:
            run.place_entering(action[1])
        return self._continue(run, state.pc)

    @staticmethod
    def _continue(run: Run, pc: tuple[int, int, int]) -> tuple[State, list[Event]]:
        """Run on from ``pc`` until a decision, a score victory or the end of the turn."""
        if not run.pending and not run.result:
            resume = run.run_from(*pc)
            if resume is not None:
                pc = resume
        if run.result:
            return run.finish(), run.events
        if run.pending:
            return run.freeze(pc), run.events
        run.end_turn()
        return run.finish(), run.events


def _reveal(revealed: tuple[tuple[int, ...], ...], seat: int,
            placed: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """A special placed on the board is no secret any more, even back in the hand."""
    if max(placed) < _FIRST_SPECIAL:  # the usual case: no special on the seat's robots
        return revealed
    new = [t for t in placed if t in _SPECIALS and t not in revealed[seat]]
    if not new:
        return revealed
    return revealed[:seat] + (tuple(sorted(revealed[seat] + tuple(new))),) + revealed[seat + 1:]


_SPECIALS = frozenset(C.SPECIALS)
_FIRST_SPECIAL = min(C.SPECIALS)
GAME = TwinTinBots()
