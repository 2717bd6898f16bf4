"""The observe() view: the referee's whole picture, or one player's with secrets hidden.

A player does not see the order of the supply or the tactics deck, other
players' tiles in hand and agendas, or controller settings before the reveal.
"""

from __future__ import annotations

from typing import Any

from ..base import JSON
from .combat import engines, forward_arrows, weapons
from .context import pname
from .defense import supply_left
from .state import Robot, State
from .tiles import load_box
from .yard import SIDE_NAMES, render


def _robot(state: State, team: int, robot: Robot) -> dict[str, Any]:
    box = load_box(state.box)
    return {
        "team": "AB"[team], "members": [pname(p) for p in robot.members],
        "pilot": pname(robot.pilot), "tactician": pname(robot.tactician),
        "blueprint": robot.blueprint, "blocked": list(robot.blocked),
        "front": SIDE_NAMES[robot.front],
        "yard": {s: f"t{t} {'NESW'[r]}" for s, (t, r) in sorted(robot.yard.items())},
        "tiles": len(robot.yard), "engines": engines(robot, box), "weapons": weapons(robot, box),
        "forward_arrows": forward_arrows(robot, box),
        "tokens": ["+".join(t) for t in robot.tokens],
        "goblins": [pname(p) for p in robot.goblins],
        "scrap": sorted(robot.scrap), "scrap_tokens": robot.scrap_tokens,
        "scrap_goblins": [pname(p) for p in robot.scrap_goblins],
        "loose": sorted(robot.loose), "knocked": robot.knocked,
        "disabled": state.disabled[team],
        "picture": render(robot.yard, box, robot.blocked),
    }


def observe(state: State, viewer: int | None, to_act: int | None) -> dict[str, JSON]:
    box = load_box(state.box)
    revealed = bool(state.reveal)
    players = {}
    for index, me in enumerate(state.players):
        mine = viewer is None or viewer == index
        players[pname(index)] = {
            "score": me.score, "track": me.score % 50, "promotions": me.score // 50,
            "hand": [f"t{t}" for t in me.hand] if mine else len(me.hand),
            "agenda_hand": list(me.agenda_hand) if mine else len(me.agenda_hand),
            "agenda_cards": len(me.agenda_hand), "tiles_in_hand": len(me.hand),
            "agendas": list(me.agendas) if mine or state.stage == "over" else len(me.agendas),
            "history": me.history,
        }
    controls = []
    for team, control in enumerate(state.controls):
        own = viewer is not None and viewer in state.robots[team].members
        if viewer is None or revealed or own:
            controls.append({k: (RELATIVE_NAMES[v] if k in ("steer", "target") else v)
                             for k, v in control.items()})
        else:
            controls.append({k: "hidden" for k in control})
    return {
        "box": state.box, "placeholder_box": box.placeholder, "variant": state.variant,
        "rounds": state.rounds, "round": state.round, "stage": state.stage, "step": state.step,
        "combat_round": state.combat_round, "starter": pname(state.starter),
        "to_act": pname(to_act) if to_act is not None else None,
        "decision": state.queue[0][1] if state.queue and to_act is not None else None,
        "scores": {pname(i): p.score for i, p in enumerate(state.players)},
        "players": players,
        "robots": [_robot(state, t, r) for t, r in enumerate(state.robots)],
        "schedule": [[pname(p) for p in step] for step in state.schedule],
        "supply": len(state.supply), "defense_supply": supply_left(state, box),
        "tactics_left": len(state.tactics),
        "faceup": [{"slot": i + 1, "card": c, "abilities": list(box.tactics[c])} for i, c in enumerate(state.faceup)],
        "controls": controls, "reveal": state.reveal, "dice": state.dice, "hits": state.hits,
        "shared_agendas": state.shared_agendas, "result": state.result, "outcome": state.outcome,
    }


RELATIVE_NAMES = "FRBL"
