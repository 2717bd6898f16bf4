"""Rules-module details that the scenarios do not pin down one by one."""

from __future__ import annotations

from botboard.games.botwars.context import Ctx
from botboard.games.botwars.damage import damage
from botboard.games.botwars.lasers import trace
from botboard.games.botwars.movement import enter, step

from .helpers import FILLER, board, play, position, robot

TELE = board({"r2c2": {"type": "teleporter", "colour": "amber"},
              "r5c5": {"type": "teleporter", "colour": "blue"},
              "r1c5": {"type": "switch", "kind": "toggle"},
              "r1c6": {"type": "switch", "kind": "pressure"}})


def _ctx(robots: dict[str, dict[str, object]], brd: dict[str, object], ruleset: str = "v2.1") -> Ctx:
    return Ctx(position(robots, brd, ruleset).clone(), [])


def test_toggle_switch_flips_each_entry_pressure_switch_stays_on() -> None:
    ctx = _ctx({"p1": {"square": "r1c4", "facing": "E", "mode": "real"}}, TELE)
    p1 = ctx.state.players[0]
    for expected in (True, False, True):
        p1.square = (4, 1)
        assert step(ctx, p1, 1, 500)
        assert ((5, 1) in ctx.state.switches) is expected
    for _ in range(2):
        p1.square = (5, 1)
        step(ctx, p1, 1, 500)
        assert (6, 1) in ctx.state.switches


def test_teleporter_with_no_free_partner_does_nothing() -> None:
    ctx = _ctx({"p1": {"square": "r1c2", "facing": "N", "mode": "real"},
                "p2": {"square": "r5c5", "mode": "real"}}, TELE)
    p1 = ctx.state.players[0]
    assert step(ctx, p1, 0, 490)
    assert p1.square == (2, 2)
    assert not [e for e in ctx.events if e.kind == "teleport"]


def test_virtual_robot_may_teleport_onto_a_real_robot() -> None:
    ctx = _ctx({"p1": {"square": "r1c2", "facing": "N", "mode": "virtual"},
                "p2": {"square": "r5c5", "mode": "real"}}, TELE)
    p1 = ctx.state.players[0]
    step(ctx, p1, 0, 490)
    assert p1.square == (5, 5)


def test_v1_ignores_elements_it_does_not_know() -> None:
    ctx = _ctx({"p1": {"square": "r1c2", "facing": "N", "mode": "real"}}, TELE, "v1")
    p1 = ctx.state.players[0]
    step(ctx, p1, 0, 490)
    assert p1.square == (2, 2)
    enter(ctx, p1, (5, 1))
    assert not ctx.state.switches


def test_damage_to_zero_destroys_and_clears_options_and_fused() -> None:
    ctx = _ctx({"p1": {"square": "r1c2", "mode": "real", "hp": 3, "options": 1, "threshold": 0,
                       "fused": {"3": "FWD1:490", "4": "FWD1:500", "5": "FWD1:510"}}}, board())
    p1 = ctx.state.players[0]
    damage(ctx, p1, 5, "test")
    assert (p1.hp, p1.mode, p1.square, p1.options, p1.fused, p1.lives) == (0, "destroyed", None, 0, {}, 2)
    assert [e.kind for e in ctx.events] == ["damage", "destroyed"]


def test_robot_laser_stops_at_walls_and_raised_bridges() -> None:
    brd = board({"r4c1": {"type": "drawbridge", "bridge": "S", "switch": "r6c6"},
                 "r6c6": {"type": "switch", "kind": "pressure"}}, walls=["r1c3 W"])
    ctx = _ctx({"p1": {"square": "r1c1", "facing": "N", "mode": "real"}}, brd)
    p1 = ctx.state.players[0]
    assert trace(ctx, (1, 1), 0, p1)[0] == [(1, 2), (1, 3)]
    assert trace(ctx, (1, 1), 1, p1)[0] == [(2, 1)]
    ctx.state.switches.add((6, 6))  # bridge lowered: the beam crosses it
    assert trace(ctx, (1, 1), 0, p1)[0] == [(1, 2), (1, 3), (1, 4), (1, 5), (1, 6)]


def test_two_robots_on_the_last_flag_in_one_stage_share_the_win() -> None:
    # only a virtual robot can share the flag square with a real one
    brd = board(flags=("r3c1", "r3c3"))
    state = position({"p1": {"square": "r3c2", "facing": "E", "mode": "virtual", "flags": 1,
                             "hand": ["FWD1:490"] + FILLER[:4]},
                      "p2": {"square": "r2c3", "facing": "N", "mode": "real", "flags": 1,
                             "hand": ["FWD1:500", "LF90:110", "RT90:120", "LF90:130", "RT90:140"]}}, brd)
    state, events = play(state, "p1 program FWD1:490 LF90:070 RT90:080 LF90:090 RT90:100",
                         "p2 program FWD1:500 LF90:110 RT90:120 LF90:130 RT90:140")
    assert state.outcome == {"winners": [0, 1], "reason": "touched all 2 flags", "scores": [2, 2]}
    assert events[-1].kind == "game-over" and events[-1].data["stage"] == 1
    assert robot(state, "p1")["flags"] == 2


def test_rebooting_robot_submits_an_empty_program() -> None:
    state = position({"p1": {"square": "r1c1", "mode": "real", "rebooting": True}})
    assert state.players[0].hand == []
    choices = list(__import__("botboard.games.botwars.game", fromlist=["GAME"]).GAME.legal_actions(state))
    assert [str(c) for c in choices] == ["p1 program", "p1 program reboot"]


def test_head_on_belts_do_not_swap_real_robots() -> None:
    brd = board({"r2c2": {"type": "conveyor", "colour": "yellow", "dir": "E"},
                 "r2c3": {"type": "conveyor", "colour": "yellow", "dir": "W"}})
    ctx = _ctx({"p1": {"square": "r2c2", "mode": "real"}, "p2": {"square": "r2c3", "mode": "real"}}, brd)
    from botboard.games.botwars.elements import conveyors
    conveyors(ctx)
    assert [p.square for p in ctx.state.players] == [(2, 2), (3, 2)]
    ctx.state.players[1].mode = "virtual"  # a virtual robot passes through
    conveyors(ctx)
    assert [p.square for p in ctx.state.players] == [(3, 2), (2, 2)]


def test_pushers_act_at_once_whoever_is_listed_first() -> None:
    brd = board({"r2c2": {"type": "pusher", "dir": "E", "stages": [1]},
                 "r2c3": {"type": "pusher", "dir": "N", "stages": [1]}})
    ctx = _ctx({"p1": {"square": "r2c2", "mode": "real"}, "p2": {"square": "r2c3", "mode": "real"}}, brd)
    ctx.stage = 1
    from botboard.games.botwars.elements import pushers
    pushers(ctx)
    # pushers act at once: p2 leaves northwards first, p1 then moves into the free square
    assert [p.square for p in ctx.state.players] == [(3, 2), (3, 3)]


def test_robot_shoved_off_its_pusher_by_a_chain_is_not_pushed_again() -> None:
    brd = board({"r2c2": {"type": "pusher", "dir": "E", "stages": [1]},
                 "r2c4": {"type": "pusher", "dir": "N", "stages": [1]}})
    ctx = _ctx({"p1": {"square": "r2c2", "mode": "real"}, "p2": {"square": "r2c3", "mode": "real"},
                "p3": {"square": "r2c4", "mode": "real"}}, brd)
    ctx.stage = 1
    from botboard.games.botwars.elements import pushers
    pushers(ctx)
    # p3 goes north first; then p1's pusher shoves p1 into p2, p2 east onto the pusher square
    assert [p.square for p in ctx.state.players] == [(3, 2), (4, 2), (4, 3)]
