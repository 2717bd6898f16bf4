"""VOLT as a botboard game plugin.

A round: every operator submits a secret dice program (one action each; the
order of submission hands out the starting numbers 1, 2, ...; the others see
only that a program was submitted); the last submission plays Phase 2
(activation), Phase 3 (resolution) and the next round's Phase 0 (preparation).
Whenever an operator must choose (a module set to "ask", ANCHOR, REMOTE
CONTROL, a workshop, a deck, a start space, equipping) the resolution stops
with a pending Decision and replays from its start once the answer is known
(state.py). Chance (VP token draws, deck order) comes from the seed.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any, Mapping, Sequence

from ..base import JSON, Decision, Event, GameError, GameInfo, IllegalAction, ScenarioError
from ..fields import BadValue
from ..record import RecordGame
from . import actions as notation
from .actions import Action
from .arena import load_arena, render
from .ctx import Ctx, GameOver, NeedDecision
from .grid import square_name
from .modules import DECKS, deck_list, module
from .monitor import load_monitor, placement_problem
from .phases import draw_vp_token, play_round, start_programming
from .position import compact_position
from .programs import ProgramChoices, check_program
from .state import PRESETS, Robot, State

_OPTIONS = json.loads((Path(__file__).parent / "data" / "options.json").read_text())["options"]
DEFAULTS: dict[str, JSON] = {name: spec["default"] for name, spec in _OPTIONS.items()}
GOALS = {"full": 5, "training": 3}
MAX_ROBOTS = 4


class Volt(RecordGame[State, Action]):
    info = GameInfo(name="volt", title="VOLT", min_players=2, max_players=4, has_chance=True,
                    hidden_information=True, options=DEFAULTS,
                    max_turns=41)  # the default round cap, plus room for its decisions
    state_type = State
    notation = notation

    # -- setting up ------------------------------------------------------------
    def new_game(self, players: int, options: Mapping[str, JSON] | None = None, seed: int = 0) -> State:
        opts = self.options(options)
        robots_in_play = players + int(opts["killbots"])
        self.check_players(players, "operators")
        if robots_in_play > MAX_ROBOTS:
            raise GameError(f"{players} operators and {opts['killbots']} KillBots: at most {MAX_ROBOTS} robots")
        arena = load_arena(opts["arena"])
        if robots_in_play not in arena.seats:
            raise BadValue(f"arena {arena.name} gives no sides for {robots_in_play} robots (it has "
                           f"seats for {', '.join(map(str, sorted(arena.seats)))})", "arena.seats")
        sides = arena.seats[robots_in_play]
        robots = []
        for seat in range(robots_in_play):
            killbot = seat >= players
            robot = Robot(seat, f"k{seat + 1}" if killbot else f"p{seat + 1}", sides[seat], killbot=killbot)
            start = arena.starts_of(robot.side)[0]
            robot.square = start.square
            robot.facing = start.arrow // 2
            robots.append(robot)
        state = State(opts, seed, robots, players)
        rng = random.Random(f"{seed}:setup")
        state.bag = [n for n, count in sorted(arena.vp_tokens.items()) for _ in range(count)]
        for deck in DECKS:
            if deck != "champion" or opts["champion_deck"]:
                cards = deck_list(deck)
                rng.shuffle(cards)
                state.decks[deck] = cards
        ctx = Ctx(state)
        ctx.phase = 0
        draw_vp_token(ctx)
        start_programming(ctx)
        return state

    def options(self, options: Mapping[str, JSON] | None) -> dict[str, Any]:
        opts = self.merged_options(options)
        if opts["mode"] not in GOALS:
            raise GameError(f"option mode: expected full or training, got {opts['mode']!r}")
        if opts["vp_draw"] not in ("below-3", "every-round"):
            raise GameError(f"option vp_draw: expected below-3 or every-round, got {opts['vp_draw']!r}")
        for key in ("repair", "laser_range", "killbots", "killbot_squad_goal", "max_rounds"):
            if not isinstance(opts[key], int) or isinstance(opts[key], bool) or opts[key] < 0:
                raise GameError(f"option {key}: expected a whole number >= 0, got {opts[key]!r}")
        for key in ("detonation_diagonals", "champion_deck", "killbot_draws"):
            if not isinstance(opts[key], bool):
                raise GameError(f"option {key}: expected true or false, got {opts[key]!r}")
        load_monitor(opts["monitor"])  # an unknown or malformed monitor fails here, by name
        opts["goal"] = GOALS[str(opts["mode"])]
        return opts

    # -- the hooks -------------------------------------------------------------
    def current_player(self, state: State) -> int | None:
        if state.phase == "decide":
            assert state.pending is not None
            return int(state.pending["player"])
        if state.phase == "program":
            for robot in state.robots:
                if not robot.killbot and not robot.submitted and robot.alive:
                    return robot.seat
        return None

    def legal_actions(self, state: State) -> Sequence[Action]:
        player = self.current_player(state)
        if player is None:
            return []
        if state.phase == "decide":
            assert state.pending is not None
            return [notation.parse(c) for c in state.pending["choices"]]
        return ProgramChoices(state.robots[player])

    def legal_actions_of(self, state: State, seat: int) -> Sequence[Action]:
        """Every operator programs at once: its choices before the engine's order reaches it."""
        robot = next((r for r in state.robots if r.seat == seat and not r.killbot), None)
        if state.phase == "program" and robot is not None and robot.alive and not robot.submitted:
            return ProgramChoices(robot)
        return super().legal_actions_of(state, seat)

    def apply(self, state: State, action: Action) -> tuple[State, list[Event]]:
        self.check_action(state, action)
        new = state.clone()
        robot = new.robots[action.player]
        if action.verb == "preset":
            name, preset = action.words.split()
            robot.presets[module(name).id] = preset
            return new, [Event("preset", {"robot": robot.name, "module": module(name).id, "preset": preset},
                               f"{robot.name}: {module(name).id} set to {preset}")]
        if action.verb == "program":
            robot.program = action.to_dice()
            robot.submitted = True
            robot.start_number = new.next_start
            new.next_start += 1
            events = [Event("program", {"robot": robot.name, "start_number": robot.start_number},
                            f"{robot.name}: program submitted, starting number {robot.start_number}")]
            if self.current_player(new) is not None:
                return new, events
            new.snapshot = new.to_json()
            new.answers, new.emitted = [], 0
            after, more = resolve(new)
            return after, events + more
        new.answers.append(str(_choice(state, action)).split(" ", 1)[1])
        return resolve(new)

    def check_action(self, state: State, action: Action) -> None:
        who = f"p{action.player + 1}"
        if state.phase == "over":
            raise IllegalAction("the game is over")
        if action.player >= state.humans:
            raise IllegalAction(f"there is no operator {who} in this game (p1..p{state.humans})")
        robot = state.robots[action.player]
        if state.phase == "decide":
            pending = state.pending
            assert pending is not None
            if _choice(state, action) is None:
                reason = _equip_problem(state, robot, action) if pending["kind"] == "equip" else None
                raise IllegalAction((f"{reason}. " if reason else "") + f"{pending['prompt']}: answer "
                                    f"with one of {', '.join(pending['choices'])}")
            return
        if action.verb == "answer":
            raise IllegalAction(f"no question is pending; {who} should send 'program ...' or 'preset ...'")
        if robot.submitted:
            raise IllegalAction(f"{who} has already submitted a program this round")
        if not robot.alive:
            raise IllegalAction(f"{who}'s robot is out of the arena this round")
        if action.verb == "preset":
            name, preset = action.words.split()
            try:
                module(name)
            except ScenarioError as err:
                raise IllegalAction(str(err)) from err
            if preset not in PRESETS:
                raise IllegalAction(f"preset {preset!r}: expected ask, always or never")
            return
        check_program(robot, action.dice)

    def is_turn(self, state: State, action: Action) -> bool:
        """A turn is a round: the last program submitted plays it."""
        if action.verb != "program":
            return False
        return sum(1 for r in state.robots if not r.killbot and r.alive and not r.submitted) == 1

    def pending(self, state: State) -> Decision | None:
        if state.phase != "decide" or state.pending is None:
            return None
        doc = state.pending
        return Decision(int(doc["player"]), str(doc["kind"]), str(doc["prompt"]), tuple(doc["choices"]))

    def determinize(self, state: State, seat: int, rng: Any) -> State:
        from .determinize import determinize
        return determinize(state, seat, rng)

    def observe(self, state: State, player: int | None = None) -> dict[str, JSON]:
        doc = state.to_json()
        for key in ("snapshot", "answers", "emitted", "bag", "decks", "draws"):
            doc.pop(key)
        doc["options"] = {**state.options, "arena": state.arena.name}  # an inline arena by its name only
        doc["deck_sizes"] = {k: len(v) for k, v in state.decks.items()}
        current = self.current_player(state)
        doc["to_act"] = f"p{current + 1}" if current is not None else None
        doc["mines"] = {square_name(s): state.robots[o].name for s, o in sorted(state.mines.items())}
        for robot in state.robots:
            view = doc["robots"][robot.name]
            view["modules"] = robot.modules  # the monitor's modules in slot order, for reading
            view["program"] = [d.name() for d in robot.program]
            view["done"] = [d.name() for d in robot.program if d.done]
            if (player is not None and robot.seat != player and not robot.killbot
                    and state.phase == "program"):
                view["program"] = "hidden" if robot.submitted else []
                view["done"] = []
                view["inventory"] = len(robot.inventory)
        if state.outcome and "champion_modules_to" in state.outcome:
            doc["championship"] = {"from": state.outcome["champion_modules_from"],
                                   "to": state.outcome["champion_modules_to"]}
        doc["render"] = self.render(state).splitlines()
        return doc

    def render(self, state: State) -> str:
        pieces = {s: "m" + state.robots[o].name[1:] for s, o in state.mines.items()}
        for robot in state.robots:
            if robot.alive:
                pieces[robot.square] = robot.name.upper()  # type: ignore[index]
        return render(state.arena, pieces, state.tokens)

    def compact_position(self, players: int, options: Mapping[str, JSON], seed: int,
                         position: Mapping[str, Any]) -> State:
        return compact_position(self.new_game(players, options, seed), position)


def _choice(state: State, action: Action) -> str | None:
    """The pending choice ``action`` names (letter case does not matter)."""
    assert state.pending is not None
    text = str(action).lower()
    for choice in state.pending["choices"]:
        if choice.lower() == text:
            return str(choice)
    return None


_PARSED: dict[int, tuple[dict[str, Any], State]] = {}


def _parsed(snapshot: dict[str, Any]) -> State:
    """The snapshot as a State, parsed once per snapshot object (replays reuse it)."""
    hit = _PARSED.get(id(snapshot))
    if hit is None or hit[0] is not snapshot:
        if len(_PARSED) > 16:
            _PARSED.clear()
        hit = (snapshot, State.from_json(snapshot))
        _PARSED[id(snapshot)] = hit
    return hit[1]


def resolve(state: State) -> tuple[State, list[Event]]:
    """(Re)play the round from its snapshot with the answers given so far."""
    assert state.snapshot is not None
    base = _parsed(state.snapshot).clone()
    ctx = Ctx(base, state.answers)
    try:
        play_round(ctx)
        base.snapshot, base.answers, base.pending = None, [], None
        events = ctx.events[state.emitted:]
        base.emitted = 0
        return base, events
    except GameOver:
        base.snapshot, base.answers, base.pending, base.emitted = None, [], None, 0
        return base, ctx.events[state.emitted:]
    except NeedDecision as question:
        base.snapshot, base.answers = state.snapshot, list(state.answers)
        base.phase = "decide"
        base.pending = {"player": question.player, "kind": question.kind, "prompt": question.prompt,
                        "choices": [f"p{question.player + 1} {c}" for c in question.choices]}
        events = ctx.events[state.emitted:]
        base.emitted = len(ctx.events)
        return base, events


GAME = Volt()


def _equip_problem(state: State, robot: Robot, action: Action) -> str | None:
    """Why an ``equip MODULE SLOT`` answer is refused, in the monitor's words (FAQ 2a)."""
    words = action.words.split()
    if len(words) != 3 or words[0] != "equip" or not words[2].isdigit():
        return None
    try:
        name = module(words[1]).id
    except ScenarioError as err:
        return str(err)
    if name not in robot.inventory:
        return f"{module(name).name} is not in {robot.name}'s inventory"
    return placement_problem(state.monitor, robot.monitor, name, int(words[2]))
