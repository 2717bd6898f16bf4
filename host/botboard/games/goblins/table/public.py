"""What the console and each phone show of a Goblins, Inc. game.

The shared view is the engine's observation as nobody (hands, agendas and
controllers before the reveal are counts or "hidden"), reshaped for the
console: a players table with the score track, a robots table, the tactics
cards, the dice, and the yards as the console's square grid draws them.
A seat's view adds what that player alone may see.
"""

from __future__ import annotations

from typing import Any, Sequence

from ...base import Game
from ..state import State
from ..tiles import load_box
from ..yard import ALL_SQUARES, COCKPIT, SIDE_NAMES, xy
from .leds import YARD_GAP

SEATS = ("red", "blue", "green", "yellow")  # the players' colours, p1..p4
NOBODY = -1  # observe() as nobody: every hand, agenda and secret controller hidden
TRACK = 50  # spaces on the score track; passing it is a promotion


def _role(state: State, seat: int) -> str:
    roles = [name for team in state.robots for name, who in (("pilot", team.pilot), ("tactician", team.tactician))
             if who == seat]
    return " and ".join(roles) or "-"


def _robot(doc: dict[str, Any], names: Sequence[str]) -> dict[str, Any]:
    return {"builders": " + ".join(names[int(p[1:]) - 1] for p in doc["members"]),
            "pilot": names[int(doc["pilot"][1:]) - 1], "tactician": names[int(doc["tactician"][1:]) - 1],
            "blueprint": doc["blueprint"], "front": doc["front"], "tiles": doc["tiles"],
            "engines": doc["engines"], "weapons": doc["weapons"], "forward arrows": doc["forward_arrows"],
            "defense tokens": " ".join(doc["tokens"]) or "-", "goblins": len(doc["goblins"]),
            "knocked off": doc["knocked"], "disabled": doc["disabled"]}


def floor(state: State) -> dict[str, Any]:
    """The yards as the console's square grid draws them: cockpits, blocked squares, tiles."""
    box = load_box(state.box)
    squares = []
    for team, robot in enumerate(state.robots):
        x0 = team * (5 + YARD_GAP)
        for square in ALL_SQUARES:
            x, y = xy(square)
            at = {"x": x0 + x, "y": y}
            if square == COCKPIT:
                squares.append({**at, "type": "cockpit", "goblins": len(robot.goblins), "robot": "AB"[team]})
            elif square in robot.yard:
                tile, rot = robot.yard[square]
                squares.append({**at, "type": "tile", "id": tile, "top": SIDE_NAMES[rot],
                                "words": f"{box.tiles[tile].describe()}, top {SIDE_NAMES[rot]}"})
            elif square in robot.blocked:
                squares.append({**at, "type": "blocked"})
    return {"name": f"yards-{state.round}", "title": "construction yards", "width": 5 * 2 + YARD_GAP,
            "height": 5, "squares": squares, "walls": [], "lasers": [], "flags": []}


def public_view(engine: Game[State, Any], state: State, names: Sequence[str]) -> dict[str, Any]:
    doc = engine.observe(state, NOBODY)
    seats = range(len(state.players))
    robots = {f"robot {r['team']}": _robot(r, names) for r in doc["robots"]}
    faceup = [f"{c['slot']}: {'+'.join(c['abilities'])}" for c in doc["faceup"]]
    dice = [f"{'AB'[t]}: {' '.join(str(d) if d else '-' for d in rolled)}" for t, rolled in enumerate(doc["dice"])]
    to_act = doc["to_act"]
    return {
        "round": f"{state.round} of {state.rounds}", "stage": state.stage,
        "combat_round": state.combat_round or None,
        "to_act": names[int(to_act[1:]) - 1] if to_act else None, "decision": doc["decision"],
        "columns": {"score": "score", "track": f"track (0-{TRACK - 1})", "promotions": "promotions",
                    "robot": "robot", "role": "role", "in_hand": "tiles in hand"},
        "score": {names[s]: state.players[s].score for s in seats},
        "track": {names[s]: state.players[s].score % TRACK for s in seats},
        "promotions": {names[s]: state.players[s].score // TRACK for s in seats},
        "robot": {names[s]: "AB"[state.team_of(s)] for s in seats},
        "role": {names[s]: _role(state, s) for s in seats},
        "in_hand": {names[s]: len(state.players[s].hand) for s in seats},
        "robots": robots,
        "tactics_cards": " · ".join(faceup) or None, "dice": " · ".join(dice) or None,
        "controllers": [{k: v for k, v in r.items() if k in ("steer", "target", "card", "goof")}
                        for r in doc["reveal"]] or None,
        "tiles_left": doc["supply"], "defense_tokens_left": doc["defense_supply"],
        "shared_agendas": doc["shared_agendas"] or None, "last_round": doc["result"],
        "floor": floor(state),
    }


def seat_view(engine: Game[State, Any], state: State, seat: int) -> dict[str, Any]:
    """The player's tiles in hand, agendas and own secret controller."""
    box = load_box(state.box)
    me = state.players[seat]
    team = state.team_of(seat)
    robot = state.robots[team]
    control = state.controls[team] if team < len(state.controls) and not state.reveal else {}
    mine: dict[str, Any] = {}
    if seat == robot.pilot and "steer" in control:
        mine["pilot"] = f"steer {'FRBL'[control['steer']]}, target {'FRBL'[control['target']]}"
    if seat == robot.tactician and "card" in control:
        mine["tactics card"] = control["card"]
    view = {"team": f"robot {'AB'[team]}", "partner": [SEATS[p] for p in robot.members if p != seat],
            "role": _role(state, seat), "score": me.score,
            "hand": [box.tiles[t].describe() for t in me.hand],
            "agendas_to_choose": list(me.agenda_hand), "agendas": list(me.agendas),
            "your_controller": mine}
    if state.queue and state.queue[0] == [seat, "keep"]:
        view["take"] = "take these 5 tiles from the tray; keep 3 below, hand the other 2 across"
    return view
