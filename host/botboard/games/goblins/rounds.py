"""The round: team up (team card, seats, blueprint, agendas), build, get ready for combat.

Team cards live in data/teams.json: on each card a[i] sits opposite b[i].
The starting player is p1 in the first round, later the lowest score (a die
breaks ties). In a 3-player game the player paired with the missing p4 is the
solo player; the duo's first builder is the one further behind.
"""

from __future__ import annotations

import json
from collections import Counter
from functools import lru_cache
from itertools import combinations

from ..base import IllegalAction
from .agendas import BET_SIDES, BETTING, deck as agenda_deck
from .build import start_step
from .context import Ctx, pname
from .damage import fall_off
from .defense import place_tokens
from .state import Robot
from .tiles import DATA

TACTICS_PER_ROUND = 12
STEPS = 4  # 20 tiles a robot, 5 a step


@lru_cache(maxsize=1)
def team_cards() -> list[dict[str, list[int]]]:
    cards: list[dict[str, list[int]]] = json.loads((DATA / "teams.json").read_text())["cards"]
    return cards


def start_round(ctx: Ctx) -> None:
    state, box = ctx.state, ctx.box
    state.round += 1
    state.stage = "build"
    state.combat_round = 0
    state.disabled = [False, False]
    state.supply = sorted(box.tiles)
    state.rng().shuffle(state.supply)
    blueprint, blocked = box.blueprints[_turn_up(ctx, state.blueprints, len(box.blueprints))]
    state.robots = [Robot(members, blueprint, list(blocked)) for members in _teams(ctx)]
    for robot in state.robots:
        robot.pilot = robot.members[0]
        robot.tactician = robot.members[-1]
    first = state.robots[0].members + state.robots[1].members
    ctx.emit("team-up", f"round {state.round}: team A {'+'.join(pname(p) for p in state.robots[0].members)} "
             f"against team B {'+'.join(pname(p) for p in state.robots[1].members)}, blueprint {blueprint}",
             round=state.round, blueprint=blueprint,
             teams=[[pname(p) for p in r.members] for r in state.robots])
    state.schedule = _schedule(state.robots)
    state.step = 0
    _deal_agendas(ctx, first)
    start_step(ctx)


def _turn_up(ctx: Ctx, order: list[int], count: int) -> int:
    """This round's card of a shuffled deck (``order``); a used-up deck is shuffled again.

    Only a tie round after the full game's 3 rounds runs out of the 3 team cards
    (or of a box's blueprints); the rules are silent, so the cards are reshuffled.
    """
    if len(order) < ctx.state.round:
        again = list(range(count))
        ctx.state.rng().shuffle(again)
        order += again
    return order[ctx.state.round - 1] % count


def _lowest(ctx: Ctx, players: list[int]) -> list[int]:
    """``players`` with the lowest scorer first; a die breaks a tie."""
    scores = [ctx.state.players[p].score for p in players]
    low = [p for p, s in zip(players, scores) if s == min(scores)]
    pick = low[0] if len(low) == 1 else low[ctx.state.rng().randrange(len(low))]
    return [pick] + [p for p in players if p != pick]


def _teams(ctx: Ctx) -> list[list[int]]:
    """Each team's members, the one who builds first first; team A holds the starting player."""
    state = ctx.state
    count = len(state.players)
    if count == 2:
        starter = 0 if state.round == 1 else _lowest(ctx, [0, 1])[0]
        state.starter = starter
        return [[starter], [1 - starter]]
    card = team_cards()[_turn_up(ctx, state.team_cards, len(team_cards()))]
    a, b = [p - 1 for p in card["a"]], [p - 1 for p in card["b"]]
    if count == 3:
        solo_pair, duo = (a, b) if 3 in a else (b, a)
        solo = [p for p in solo_pair if p != 3]
        duo = _lowest(ctx, duo)
        state.starter = duo[0]
        return [duo, solo]
    starter = 0 if state.round == 1 else _lowest(ctx, [0, 1, 2, 3])[0]
    state.starter = starter
    mine, theirs = (a, b) if starter in a else (b, a)
    i = mine.index(starter)
    return [[mine[i], mine[1 - i]], [theirs[i], theirs[1 - i]]]


def _schedule(robots: list[Robot]) -> list[list[int]]:
    """The planners of each step: partners alternate, a solo player plans every step."""
    steps = []
    for k in range(STEPS):
        steps.append([r.members[k % len(r.members)] for r in robots])
    return steps


def _deal_agendas(ctx: Ctx, players: list[int]) -> None:
    state = ctx.state
    if state.variant == "party":
        deck = state.players[0].agenda_deck
        shared: list[str] = []
        while len(shared) < 3:
            if not deck:
                _reshuffle(ctx, 0)
            card = deck.pop(0)
            if card != BETTING:  # the party version discards a betting agenda and draws again
                shared.append(card)
        state.shared_agendas = shared
        ctx.emit("agendas", f"shared agendas this round: {', '.join(shared)}", agendas=shared)
        return
    solo = [r.members[0] for r in state.robots if len(r.members) == 1]
    for player in players:
        handicap = len(state.players) == 3 and player in solo and state.rounds < 3
        draw = 6 if handicap else 7
        me = state.players[player]
        me.agendas = []
        if len(me.agenda_deck) < draw:
            _reshuffle(ctx, player)
        me.agenda_hand, me.agenda_deck = me.agenda_deck[:draw], me.agenda_deck[draw:]


def _reshuffle(ctx: Ctx, player: int) -> None:
    """A deck too short for the deal gets the used cards back, shuffled, under what is left.

    Only a tie round after the full game's 3 rounds needs this (3 x 7 = 21 cards);
    the rules are silent, so the used cards are shuffled as a new deck (docs/goblins.md).
    """
    me = ctx.state.players[player]
    used = sorted((Counter(agenda_deck()) - Counter(me.agenda_deck)).elements())
    ctx.state.rng().shuffle(used)
    me.agenda_deck += used
    ctx.emit("agendas-reshuffled", f"{pname(player)}'s used agenda cards are shuffled into a new deck",
             player=pname(player), cards=len(used))


def agenda_choices(hand: list[str]) -> list[tuple[str, ...]]:
    """Every way to keep 4 of ``hand``, the betting card once per side."""
    out = []
    for combo in combinations(sorted(hand), 4):
        if BETTING in combo:
            rest = [c for c in combo if c != BETTING]
            out += [tuple(sorted(rest + [side])) for side in BET_SIDES]
        else:
            out.append(combo)
    return out


def after_build(ctx: Ctx) -> None:
    """Loose tiles fall off, the round's tactics cards are counted, agendas are chosen."""
    state = ctx.state
    for team, robot in enumerate(state.robots):
        if fall_off(ctx, team, robot, "fell off before combat (not joined to the cockpit)", knocked=False):
            ctx.emit("loose", f"robot {'AB'[team]}: {len(robot.loose)} loose tile(s) fell off",
                     team=team, tiles=list(robot.loose))
    _count_tactics(ctx)
    state.stage = "combat"
    if state.variant != "party":
        state.queue = [[p, "agendas"] for r in state.robots for p in r.members]
    else:
        ready_for_combat(ctx)


def _count_tactics(ctx: Ctx) -> None:
    state = ctx.state
    if state.round % 2 == 1:  # rounds 1 and 3 shuffle every card and count 12
        deck = sorted(ctx.box.tactics)
        state.rng().shuffle(deck)
        state.tactics, state.tactics_rest = deck[:TACTICS_PER_ROUND], deck[TACTICS_PER_ROUND:]
    else:
        state.tactics, state.tactics_rest = state.tactics_rest[:TACTICS_PER_ROUND], []


def choose_agendas(ctx: Ctx, player: int, kept: tuple[str, ...]) -> None:
    me = ctx.state.players[player]
    if tuple(sorted(kept)) not in agenda_choices(me.agenda_hand):
        raise IllegalAction(f"{pname(player)} must keep 4 of their agendas ({', '.join(me.agenda_hand)}), "
                            "naming the betting card by its side: star or snitch")
    me.agendas = sorted(kept)
    me.agenda_hand = []
    ctx.state.queue.pop(0)
    ctx.emit("agendas-kept", f"{pname(player)} keeps 4 hidden agendas", player=pname(player))
    if not ctx.state.queue:
        ready_for_combat(ctx)


def ready_for_combat(ctx: Ctx) -> None:
    """Goblins enter the cockpit, defense tokens go on; the first combat round begins."""
    from .combat import start_combat_round
    state, box = ctx.state, ctx.box
    for robot in state.robots:
        robot.goblins = [p for p in robot.members for _ in range(2)]
    placed, short = place_tokens(state, box)
    for team, robot in enumerate(state.robots):
        ctx.emit("defense", f"robot {'AB'[team]}: {placed[team]} defense token(s) placed",
                 team=team, tokens=[list(t) for t in robot.tokens])
        if short[team]:
            ctx.emit("defense-short", f"robot {'AB'[team]}: the defense tokens ran out; no token for "
                     f"the armor plate(s) {', '.join(short[team])} (the robots took turns, plate by plate)",
                     team=team, plates=list(short[team]))
    start_combat_round(ctx)


