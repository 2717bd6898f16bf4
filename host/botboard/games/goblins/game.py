"""Goblins, Inc. as a botboard game plugin.

Every action answers a pending decision (the queue in the state): planners
keep 3 of 5 tiles, builders place tiles one by one, players keep 4 agendas,
pilots and tacticians set their controllers, tacticians use abilities and
order dice, defending pilots pick which defense token a hit removes. Chance
(shuffles, team cards, dice, tie rolls) comes from the seed inside the state.
The box (tile set, blueprints, tactics deck) is data: option ``box``.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from ..base import JSON, Decision, Event, GameError, GameInfo, IllegalAction
from ..record import RecordGame
from . import actions as notation
from .abilities import advance, use, uses
from .actions import Action, die_name, tile_name
from .agendas import deck as agenda_deck
from .build import keep, keep_choices, place, place_choices, start_step
from .combat import (
    RELATIVE,
    check_robots,
    order_choices,
    set_order,
    set_pilot,
    set_tactic,
)
from .context import Ctx, pname
from .damage import choose_token, resolve, target_of
from .defense import token_choices
from .position import compact_position
from .rounds import after_build, agenda_choices, choose_agendas, start_round
from .scoring import VARIANTS
from .state import Player, State
from .tiles import load_box
from .view import observe
from .yard import free_squares

# rounds: 0 plays the variant's own number; fewer make a short game (selfplay, tests, benches)
DEFAULTS: dict[str, JSON] = {"variant": "standard", "box": "placeholder", "tie_round": False, "rounds": 0}
PROMPTS = {
    "keep": "keep 3 of the 5 tiles drawn; the other 2 go to the player opposite",
    "place": "place a tile on a free square of your yard, in any orientation",
    "agendas": "keep 4 hidden agendas (the betting card as star or snitch)",
    "pilot": "set the pilot's controller: steering dial and targeting mechanism",
    "tactic": "choose a tactics card: 1 left, 2 middle, 3 right",
    "before": "use an ability of your tactics card before the roll, or done",
    "after": "use an ability of your tactics card on the dice, or done",
    "order": "order your dice: the first hits first",
    "token": "a hit tile holds different defense tokens: choose the one to remove",
}


class Goblins(RecordGame[State, Action]):
    info = GameInfo(name="goblins", title="Goblins, Inc.", min_players=2, max_players=4,
                    has_chance=True, hidden_information=True, options=DEFAULTS,
                    max_turns=3000)  # every action is a turn; a 3-round 4-player game takes ~500
    state_type = State
    notation = notation
    whole_state = "queue"

    def new_game(self, players: int, options: Mapping[str, JSON] | None = None, seed: int = 0) -> State:
        opts = self.merged_options(options)
        if not isinstance(opts["variant"], str) or opts["variant"] not in VARIANTS:
            raise GameError(f"option variant: {opts['variant']!r} is not one of {', '.join(VARIANTS)}")
        self.check_players(players)
        box = load_box(str(opts["box"]))
        if not isinstance(opts["tie_round"], bool):
            raise GameError(f"option tie_round: true or false, not {opts['tie_round']!r}")
        most = VARIANTS[str(opts["variant"])]
        rounds = opts["rounds"]
        if isinstance(rounds, bool) or not isinstance(rounds, int) or not 0 <= rounds <= most:
            raise GameError(f"option rounds: 1..{most} for the {opts['variant']} game (0: all {most}), "
                            f"not {rounds!r}")
        state = State(seed, str(opts["box"]), str(opts["variant"]), rounds or most,
                      [Player() for _ in range(players)], tie_round=opts["tie_round"])
        for player in state.players:
            player.agenda_deck = agenda_deck()
            state.rng().shuffle(player.agenda_deck)
        state.team_cards = [0, 1, 2]
        state.rng().shuffle(state.team_cards)
        state.blueprints = list(range(len(box.blueprints)))
        state.rng().shuffle(state.blueprints)
        start_round(Ctx(state))
        return state

    # -- the hooks -------------------------------------------------------------
    def current_player(self, state: State) -> int | None:
        return int(state.queue[0][0]) if state.queue and state.outcome is None else None

    def legal_actions(self, state: State) -> Sequence[Action]:
        if self.current_player(state) is None:
            return []
        actions = self._choices(state)
        if not actions:  # a pending decision nobody can answer would stall the table for good
            player, kind = state.queue[0]
            raise GameError(f"engine error: {pname(player)} must {PROMPTS[kind]} but has no choice "
                            f"(round {state.round}); please report this game with its seed {state.seed}")
        return actions

    def _choices(self, state: State) -> list[Action]:
        player, kind = state.queue[0]
        ctx = Ctx(state)
        if kind == "keep":
            return [Action(player, "keep", tuple(map(tile_name, c))) for c in keep_choices(state.players[player].hand)]
        if kind == "place":
            return [Action(player, "place", (tile_name(t), s, "NESW"[r])) for t, s, r in place_choices(ctx, player)]
        if kind == "agendas":
            return [Action(player, "agendas", c) for c in agenda_choices(state.players[player].agenda_hand)]
        if kind == "pilot":
            return [Action(player, "pilot", (s, t)) for s in RELATIVE for t in RELATIVE]
        if kind == "tactic":
            return [Action(player, "tactic", (str(i + 1),)) for i in range(len(state.faceup))]
        team = state.team_of(player)
        if kind in ("before", "after"):
            return [Action(player, u[0], u[1:]) for u in uses(ctx, team, kind)] + [Action(player, "done")]
        if kind == "order":
            return [Action(player, "order", tuple(map(die_name, o))) for o in order_choices(state.dice[team])]
        square = target_of(ctx, 1 - team)
        return [Action(player, "token", (c,)) for c in token_choices(state.robots[team], str(square))]

    def apply(self, state: State, action: Action) -> tuple[State, list[Event]]:
        self.check_action(state, action)
        new = state.clone()
        return new, _dispatch(new, action)

    def check_action(self, state: State, action: Action) -> None:
        if action.player >= len(state.players):
            raise IllegalAction(f"there is no p{action.player + 1} in a {len(state.players)}-player game")
        if state.outcome is not None:
            raise IllegalAction("the game is over")
        player, kind = state.queue[0]
        if action.player != player:
            raise IllegalAction(f"{pname(player)} must decide first: {PROMPTS[kind]}")
        if kind == action.verb == "place" and _placeable(state, action):
            return  # what place_choices lists, without listing them all (a player laying tiles
            # and a computer weighing each placement ask this for every tile)
        legal = self.legal_actions(state)
        if action not in legal:
            examples = ", ".join(str(a) for a in list(legal)[:3])
            raise IllegalAction(f"{action} is not a legal answer{_why(state, action)}; {pname(player)} must "
                                f"{PROMPTS[kind]} (e.g. {examples}; {len(legal)} choices)")

    def pending(self, state: State) -> Decision | None:
        player = self.current_player(state)
        if player is None:
            return None
        kind = state.queue[0][1]
        choices = tuple(str(a) for a in self.legal_actions(state))
        return Decision(player, kind, f"{pname(player)}: {PROMPTS[kind]}", choices)

    def state_from_json(self, doc: Mapping[str, JSON]) -> State:
        state = super().state_from_json(doc)
        load_box(state.box)
        return state

    def determinize(self, state: State, seat: int, rng: Any) -> State:
        from .determinize import determinize
        return determinize(state, seat, rng)

    def observe(self, state: State, player: int | None = None) -> dict[str, JSON]:
        return observe(state, player, self.current_player(state))

    def compact_position(self, players: int, options: Mapping[str, JSON], seed: int,
                         position: Mapping[str, Any]) -> State:
        return compact_position(self.new_game(players, options, seed), position)


def _dispatch(new: State, action: Action) -> list[Event]:
    """Apply a legal ``action`` to ``new`` (a clone, changed in place); the events."""
    ctx = Ctx(new)
    kind = new.queue[0][1]
    player, args = action.player, action.args
    if kind == "keep":
        keep(ctx, player, tuple(int(a[1:]) for a in args))
    elif kind == "place":
        place(ctx, player, int(args[0][1:]), args[1], "NESW".index(args[2]))
        if not new.queue:
            _next_step(ctx)
    elif kind == "agendas":
        choose_agendas(ctx, player, args)
    elif kind == "pilot":
        set_pilot(ctx, player, RELATIVE.index(args[0]), RELATIVE.index(args[1]))
    elif kind == "tactic":
        set_tactic(ctx, player, int(args[0]))
    elif kind in ("before", "after"):
        if action.verb == "done":
            new.queue.pop(0)
        else:
            use(ctx, player, kind, (action.verb, *args))
        advance(ctx, kind)
    elif kind == "order":
        set_order(ctx, new.team_of(player), tuple(0 if a == "-" else int(a) for a in args))
    else:
        new.queue.pop(0)
        choose_token(ctx, new.team_of(player), args[0])
        _continue_fight(ctx)
    return ctx.events



def _placeable(state: State, action: Action) -> bool:
    """``action`` is one of place_choices' (a held tile, a free square, a facing)."""
    if len(action.args) != 3 or action.args[2] not in ("N", "E", "S", "W"):
        return False
    tile, square, _ = action.args
    robot = state.robots[state.team_of(action.player)]
    held = {tile_name(t) for t in state.players[action.player].hand}
    return tile in held and square in free_squares(robot.yard, robot.blocked)


def _why(state: State, action: Action) -> str:
    """The rule step's own reason for refusing ``action``, if it has one."""
    try:
        _dispatch(state.clone(), action)
    except IllegalAction as err:
        return f" ({err})"
    except (ValueError, IndexError, KeyError):
        return ""
    return ""


def _next_step(ctx: Ctx) -> None:
    state = ctx.state
    state.step += 1
    if state.step < len(state.schedule):
        start_step(ctx)
    else:
        after_build(ctx)


def _continue_fight(ctx: Ctx) -> None:
    if resolve(ctx):
        check_robots(ctx)


GAME = Goblins()
