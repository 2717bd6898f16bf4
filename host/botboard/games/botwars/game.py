"""BotWars as a botboard game plugin (rules v2.1 by default, v1 with ``ruleset: "v1"``).

A turn: every player in turn submits a secret program (one action each; the
others see only that it was submitted), the last submission plays the five
stages, then end-of-turn decisions (two-wrench repair or option, facing of a
reinstated robot) come as pending Decisions; the next deal is chance, drawn
from the seed inside the state.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from ..base import JSON, Decision, Event, GameError, GameInfo, IllegalAction, ScenarioError
from ..fields import each, field, known_fields, parsing, whole
from ..record import RecordGame
from . import actions as notation
from .actions import Action, ProgramChoices
from .board import parse_square
from .cards import deck, robot_colours, ruleset
from .context import Ctx
from .phases import card_sets, deal, decide, submit
from .state import Player, State, resolve_board

DEFAULTS: dict[str, JSON] = {"ruleset": "v2.1", "board": "factory", "max_turns": 40, "lives": 3,
                             "colours": list(robot_colours())}
_PROMPTS = {"repair-or-option": "on a two-wrench station: repair 2 HP or take an option",
            "reinstate": "robot reinstated at its checkpoint: choose its facing"}
_CHOICES = {"repair-or-option": ("repair", "option"), "reinstate": ("face N", "face E", "face S", "face W")}


class BotWars(RecordGame[State, Action]):
    info = GameInfo(name="botwars", title="BotWars", min_players=1, max_players=8,
                    has_chance=True, hidden_information=True, options=DEFAULTS,
                    max_turns=41)  # the default turn limit, plus room for its end-of-turn decisions
    state_type = State
    notation = notation

    # -- setting up ------------------------------------------------------------
    def new_game(self, players: int, options: Mapping[str, JSON] | None = None,
                 seed: int = 0) -> State:
        opts = self._options(options)
        self.check_players(players)
        board = resolve_board(opts["board"])
        colours = opts["colours"]
        if len(colours) < players:
            raise GameError(f"option colours: {len(colours)} colour(s) for {players} players; "
                            "name one colour per player")
        robots = [Player(f"p{i + 1}", board.start, board.start_facing, board.start, colour=colours[i],
                         lives=int(opts["lives"])) for i in range(players)]
        state = State(str(opts["ruleset"]), opts["board"], seed, robots, max_turns=int(opts["max_turns"]))
        deal(Ctx(state, []))
        return state

    def _options(self, options: Mapping[str, JSON] | None) -> dict[str, Any]:
        opts = self.merged_options(options)
        ruleset(str(opts["ruleset"]))  # raises on an unknown ruleset
        colours = opts["colours"]
        if not isinstance(colours, list) or not all(isinstance(c, str) and c.strip() for c in colours) \
                or len({c.lower() for c in colours}) != len(colours):
            raise GameError(f"option colours: expected a list of different colour names, one per player "
                            f"(e.g. [\"red\", \"blue\"]), got {colours!r}")
        for key in ("max_turns", "lives"):
            if not isinstance(opts[key], int) or opts[key] < 1:
                raise GameError(f"option {key}: expected a whole number >= 1, got {opts[key]!r}")
        return opts

    # -- the hooks -------------------------------------------------------------
    def current_player(self, state: State) -> int | None:
        if state.phase == "decide":
            return state.decisions[0][0]
        if state.phase == "program":
            for index, player in enumerate(state.players):
                if player.on_board and player.program is None:
                    return index
        return None

    def legal_actions(self, state: State) -> Sequence[Action]:
        player = self.current_player(state)
        if player is None:
            return []
        if state.phase == "decide":
            kind = state.decisions[0][1]
            return [notation.parse(f"p{player + 1} {choice}") for choice in _CHOICES[kind]]
        return ProgramChoices(state, player)

    def legal_actions_of(self, state: State, seat: int) -> Sequence[Action]:
        """Every robot on the board programs at once: its choices before the engine's order
        reaches it."""
        player = state.players[seat] if 0 <= seat < len(state.players) else None
        if state.phase == "program" and player is not None and player.on_board and player.program is None:
            return ProgramChoices(state, seat)
        return super().legal_actions_of(state, seat)

    def apply(self, state: State, action: Action) -> tuple[State, list[Event]]:
        events: list[Event] = []
        return self._step(state, action, events), events

    def advance(self, state: State, action: Action) -> State:
        return self._step(state, action, None)

    def _step(self, state: State, action: Action, events: list[Event] | None) -> State:
        """The state after ``action``; its events go to ``events`` unless that is None."""
        self.check_action(state, action)
        new = state.clone()
        ctx = Ctx(new, events)
        robot = new.players[action.player]
        if action.verb == "program":
            submit(ctx, robot, action.cards, action.reboot, action.threshold)
        else:
            choice = action.facing if action.verb == "face" else action.verb
            decide(ctx, action.player, new.decisions[0][1], choice)
        return new

    def check_action(self, state: State, action: Action) -> None:
        who = f"p{action.player + 1}"
        if state.phase == "over":
            raise IllegalAction("the game is over")
        if action.player >= len(state.players):
            raise IllegalAction(f"there is no {who} in a {len(state.players)}-player game")
        current = self.current_player(state)
        if state.phase == "decide":
            kind = state.decisions[0][1]
            if action.player != current or action.verb == "program":
                raise IllegalAction(f"p{current + 1 if current is not None else '?'} must decide first: "
                                    f"{_PROMPTS[kind]}")
            if (action.verb == "face") != (kind == "reinstate"):
                raise IllegalAction(f"{who} must answer: {_PROMPTS[kind]} "
                                    f"({' | '.join(f'{who} {c}' for c in _CHOICES[kind])})")
            return
        if action.verb != "program":
            raise IllegalAction(f"no decision is pending; {who} should send 'program ...'")
        if action.player != current:
            raise IllegalAction(f"it is p{current + 1 if current is not None else '?'}'s turn to program")
        self._check_program(state, action)

    def _check_program(self, state: State, action: Action) -> None:
        robot, cards = state.players[action.player], deck()
        choices = ProgramChoices(state, action.player)
        if len(action.cards) != choices.slots:
            why = "it is rebooting" if robot.rebooting else f"{choices.slots} free register(s)"
            raise IllegalAction(f"{robot.name} must program {choices.slots} card(s) ({why}), "
                                f"got {len(action.cards)}")
        for card in action.cards:
            if card not in robot.hand:
                raise IllegalAction(f"{cards.name(card)} is not in {robot.name}'s hand "
                                    f"({' '.join(cards.name(c) for c in robot.hand)})")
        if len(set(action.cards)) != len(action.cards):
            raise IllegalAction("a card can fill only one register")
        sets = card_sets(bool(ruleset(state.ruleset)["upgrades"]), robot)
        for card in action.cards:
            if not cards.usable(card, sets):
                raise IllegalAction(f"{robot.name} cannot use {cards.name(card)}: its card set is not "
                                    f"unlocked (ruleset {state.ruleset}, {len(robot.stations)} station(s))")

    def is_turn(self, state: State, action: Action) -> bool:
        """A turn is the whole round: the last program submitted plays all five stages."""
        if action.verb != "program":
            return False
        waiting = [p for p in state.players if p.on_board and p.program is None]
        return len(waiting) == 1

    def counters(self, state: State) -> dict[str, int]:
        return {"stages": state.stages}

    def pending(self, state: State) -> Decision | None:
        if state.phase != "decide":
            return None
        player, kind = state.decisions[0]
        choices = tuple(f"p{player + 1} {choice}" for choice in _CHOICES[kind])
        return Decision(player, kind, f"p{player + 1}: {_PROMPTS[kind]}", choices)

    def program_from_str(self, state: State, text: str) -> Action:
        """A program checked for its robot whatever the seat order: programming is simultaneous
        at the table, so a seat may lay and confirm before the engine reaches it."""
        action = notation.parse(text)
        if state.phase != "program" or action.verb != "program":
            return self.action_from_str(state, text)
        self._check_program(state, action)
        return action

    def state_from_json(self, doc: Mapping[str, JSON]) -> State:
        state = super().state_from_json(doc)
        ruleset(state.ruleset)
        return state

    def determinize(self, state: State, seat: int, rng: Any) -> State:
        from .determinize import determinize
        return determinize(state, seat, rng)

    def observe(self, state: State, player: int | None = None) -> dict[str, JSON]:
        doc = state.to_json()
        current = self.current_player(state)
        doc["to_act"] = f"p{current + 1}" if current is not None else None
        upgrades = bool(ruleset(state.ruleset)["upgrades"])
        for index, robot in enumerate(state.players):
            view = doc["robots"][robot.name]
            view["card_sets"] = deck().set_names(card_sets(upgrades, robot))
            view["submitted"] = robot.program is not None
            if player is not None and index != player:
                view["hand"] = len(robot.hand)
                if state.phase == "program":  # afterwards the programs have played out in view of all
                    view["program"] = "hidden" if robot.program is not None else None
                    view["reboot_next"] = "hidden"
        return doc

    def compact_position(self, players: int, options: Mapping[str, JSON], seed: int,
                         position: Mapping[str, Any]) -> State:
        return compact_position(self, players, options, seed, position)


def compact_position(game: BotWars, players: int, options: Mapping[str, JSON], seed: int,
                     position: Mapping[str, Any]) -> State:
    """A new game with the fields of ``position`` laid over it (docs/scenarios-botwars.md)."""
    known_fields(position, {"board", "turn", "switches", "robots"})
    opts = dict(options)
    if "board" in position:
        opts["board"] = position["board"]
    state = game.new_game(players, opts, seed)
    state.turn = field(position, "turn", whole(1, state.max_turns), 1)
    if state.turn > 1:
        for robot in state.players:
            robot.virtual_turn = 1
    state.switches = set(field(position, "switches", lambda v: each(v, parse_square), []))
    robots = position.get("robots", {})
    if not isinstance(robots, Mapping):
        raise ScenarioError("position.robots: expected an object keyed p1, p2, ...")
    given_hands = {}
    for name, fields in robots.items():
        index = _player_index(name, players)
        if not isinstance(fields, Mapping):
            raise ScenarioError(f"position.robots.{name}: expected an object")
        with parsing(f"robots.{name}"):
            state.players[index] = Player.from_json(name, fields, state.players[index])
        if "hand" in fields:
            given_hands[index] = state.players[index].hand
    _validate(state)
    reserved = [c for h in given_hands.values() for c in h]
    for index, robot in enumerate(state.players):
        robot.hand = []
    deal(Ctx(state, []), reserved=set(reserved))
    for index, hand in given_hands.items():
        state.players[index].hand = list(hand)
    return state


def _player_index(name: str, players: int) -> int:
    if not (name.startswith("p") and name[1:].isdigit() and 1 <= int(name[1:]) <= players):
        raise ScenarioError(f"position.robots: {name!r} is not a player of this {players}-player game "
                            f"(p1..p{players})")
    return int(name[1:]) - 1


def _validate(state: State) -> None:
    board = state.board
    seen: dict[int, str] = {}
    for robot in state.players:
        if robot.square is not None and not board.on_board(robot.square):
            raise ScenarioError(f"position.robots.{robot.name}.square: off the {board.width}x{board.height} board")
        if robot.square is None and robot.mode in ("real", "virtual"):
            raise ScenarioError(f"position.robots.{robot.name}: a {robot.mode} robot needs a square")
        need = set(range(max(robot.hp - 1, 0), 5)) if robot.on_board else set()
        if need - set(robot.fused):
            missing = ", ".join(str(i + 1) for i in sorted(need - set(robot.fused)))
            raise ScenarioError(f"position.robots.{robot.name}: with {robot.hp} HP registers {missing} "
                                f"are fused; give them as \"fused\": {{\"5\": \"FWD1:490\", ...}}")
        for card in [*robot.hand, *(c for c in robot.fused.values() if c is not None)]:
            if card in seen:
                raise ScenarioError(f"position: card {deck().name(card)} given to both {seen[card]} "
                                    f"and {robot.name}")
            seen[card] = robot.name
    occupied: dict[tuple[int, int], str] = {}
    for robot in state.players:
        if robot.mode == "real" and robot.square is not None:
            if robot.square in occupied:
                raise ScenarioError(f"position: real robots {occupied[robot.square]} and {robot.name} "
                                    "share a square; make one virtual or move it")
            occupied[robot.square] = robot.name


GAME = BotWars()
