"""Scoring a round and the game: the winner, goblin points, agendas, promotion, game end.

The winner is the team whose robot is not disabled when the other's is;
otherwise (neither or both disabled) the team that knocked more pieces off
the other robot during combat (tiles, defense tokens, goblins); otherwise
nobody. Winners score 2 per own goblin left in the cockpit and 1 per
partner's. Every player then scores their agendas. A score of 50 flips the
promotion card and the goblin goes round the track again (``score`` keeps
the total). Game lengths: standard 2 rounds, full and party 3.
"""

from __future__ import annotations

from typing import Any

from .agendas import score as agenda_score
from .context import Ctx, pname
from .state import State

VARIANTS = {"standard": 2, "full": 3, "party": 3}
PROMOTION = 50


def winner(ctx: Ctx) -> tuple[int | None, str]:
    state = ctx.state
    dis = state.disabled
    if dis[0] != dis[1]:
        team = 1 if dis[0] else 0
        return team, f"robot {'AB'[1 - team]} disabled"
    knocked = [state.robots[1].knocked, state.robots[0].knocked]  # what each team knocked off
    why = "both robots disabled" if dis[0] else "no robot disabled"
    if knocked[0] == knocked[1]:
        return None, f"{why}; tiebreak tied at {knocked[0]} pieces knocked off: nobody wins"
    team = 0 if knocked[0] > knocked[1] else 1
    return team, f"{why}; tiebreak: {knocked[team]} pieces knocked off against {knocked[1 - team]}"


def win_points(ctx: Ctx, team: int, player: int) -> int:
    goblins = ctx.robot(team).goblins
    return sum(2 if owner == player else 1 for owner in goblins)


def end_of_combat(ctx: Ctx) -> None:
    from .rounds import start_round
    state, box = ctx.state, ctx.box
    won, why = winner(ctx)
    ctx.emit("round-won", f"round {state.round}: " + (f"team {'AB'[won]} wins ({why})" if won is not None
                                                      else why), team=won, why=why)
    result: dict[str, Any] = {"round": state.round, "winner": won, "why": why, "points": {}}
    for team, robot in enumerate(state.robots):
        for player in robot.members:
            me = state.players[player]
            kept = state.shared_agendas if state.variant == "party" else me.agendas
            won_round = None if won is None else won == team
            lines = {a: agenda_score(a, robot, state.robots[1 - team], box, won_round) for a in kept}
            win = win_points(ctx, team, player) if won == team else 0
            total = win + sum(lines.values())
            before = me.score
            me.score += total
            me.history.append({"round": state.round, "win": win, "agendas": lines, "total": total})
            result["points"][pname(player)] = total
            ctx.emit("score", f"{pname(player)} scores {total} ({win} for winning, agendas "
                     f"{', '.join(f'{k} {v}' for k, v in lines.items()) or 'none'})",
                     player=pname(player), win=win, agendas=lines, total=total)
            if before // PROMOTION < me.score // PROMOTION:
                ctx.emit("promotion", f"{pname(player)} reaches {PROMOTION} points and is promoted",
                         player=pname(player))
    state.result = result
    state.queue = []
    if state.round < state.rounds:
        start_round(ctx)
    elif state.tie_round and _tied(state) and state.rounds == VARIANTS[state.variant]:
        state.rounds += 1  # the rules allow one more round to settle a tie
        ctx.emit("tie-round", f"a tie on {max(p.score for p in state.players)}: one more round",
                 round=state.rounds)
        start_round(ctx)
    else:
        _game_over(ctx)


def _tied(state: State) -> bool:
    scores = [p.score for p in state.players]
    return scores.count(max(scores)) > 1


def _game_over(ctx: Ctx) -> None:
    state = ctx.state
    scores = [p.score for p in state.players]
    best = max(scores)
    leaders = [i for i, s in enumerate(scores) if s == best]
    state.stage = "over"
    if len(leaders) == 1:
        reason = f"{pname(leaders[0])} has the most points ({best}) and becomes the Boss"
    else:
        reason = (f"{' and '.join(pname(p) for p in leaders)} tie on {best}: the Boss's nephew gets the job")
        leaders = []
    state.outcome = {"winners": leaders, "reason": reason, "scores": scores}
    ctx.emit("game-over", reason, winners=[pname(p) for p in leaders], scores=scores)
