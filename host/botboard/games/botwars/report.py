"""The GM-style turn report: one table per stage and one for the end of the turn.

``build(state, actions)`` replays actions (notation strings) from a start
state and groups the events into tables, so the same report is fed from a
scenario file or from a journaled game (cli/botwars.py). ``to_text`` prints it.
Rows of a stage table: mode, card, outcome (movement, pushes with their time
index, obstructions), board (conveyor, pusher, gear, crusher, laser), laser
(squares each robot fires into, and below them whom it hit), hp, checkpoint. End of turn:
mode, checkpoint, flags, upgrades, options, hp, robots, end (repairs,
reinstatement, reboots); then any fused registers.
"""

from __future__ import annotations

from typing import Any, Iterable

from ..base import JSON, Event
from .board import ARROWS, parse_square, render, square_name
from .cards import deck, ruleset
from .game import GAME
from .phases import card_sets
from .state import State

STAGE_ROWS = ("mode", "card", "outcome", "board", "laser", "hp", "checkpoint")
END_ROWS = ("mode", "checkpoint", "flags", "upgrades", "options", "hp", "robots", "end")
_SAID_BY_DAMAGE = {"fence", "board-laser"}  # the damage or sacrifice line that follows names the cause
_STEP_ROW = {"move": "outcome", "board": "board", "laser": "laser", "check": "checkpoint"}


def build(state: State, actions: Iterable[str]) -> dict[str, JSON]:
    """Replay ``actions`` from ``state``; the report as JSON-able data."""
    names = [p.name for p in state.players]
    turns: dict[int, dict[str, Any]] = {}
    for text in actions:
        before = state
        state, events = GAME.apply_str(state, text)
        for event in events:
            _place(turns, names, before, event)
        for turn in {e.data["turn"] for e in events if e.kind not in ("deal", "program", "refill")}:
            if turn in turns:
                turns[turn]["end"] = _end_table(state, names)
    for turn_doc in turns.values():
        end_events = turn_doc.pop("end_events", _cells(names))
        if "end" in turn_doc:
            turn_doc["end"]["rows"]["end"] = end_events
    outcome = GAME.outcome(state)
    waiting = [p.name for p in state.players if p.on_board and p.program is None]
    return {
        "game": "botwars", "ruleset": state.ruleset,
        "board": state.board_ref if isinstance(state.board_ref, str) else state.board.name,
        "players": names, "colours": {p.name: p.colour for p in state.players}, "turns": [turns[t] for t in sorted(turns)],
        "outcome": outcome.to_json() if outcome else None,
        "waiting_for": waiting if state.phase == "program" else [],
        "pending": pending.to_json() if (pending := GAME.pending(state)) else None,
    }


def _cells(names: list[str]) -> dict[str, list[str]]:
    return {n: [] for n in names}


def _place(turns: dict[int, dict[str, Any]], names: list[str], before: State, event: Event) -> None:
    data = event.data
    if event.kind in ("deal", "program", "refill"):
        return
    turn = turns.setdefault(data["turn"], {"turn": data["turn"], "stages": []})
    if event.kind == "stage":
        stages = turn["stages"]
        squares = (stages[-1]["after"] if stages else
                   {p.name: [square_name(p.square) if p.square else None, "NESW"[p.facing]]
                    for p in before.players})
        rows: dict[str, Any] = {row: _cells(names) for row in STAGE_ROWS}
        rows["mode"] = {n: data["modes"].get(n, "") for n in names}
        rows["card"] = {n: data["cards"].get(n, "----") for n in names}
        stages.append({"stage": data["stage"], "picture": _picture(before, squares),
                       "rows": rows, "after": squares})
        return
    if event.kind == "stage-end":
        stage = turn["stages"][-1]
        stage["rows"]["hp"] = {n: str(data["hp"][n]) for n in names}
        stage["after"] = {n: [data["squares"][n], data["facings"][n]] for n in names}
        return
    if event.kind in _SAID_BY_DAMAGE:
        return
    words = event.text.split(": ", 1)[-1]
    robot = data.get("robot")
    if data["step"] == "end" or data["stage"] == 0:
        if robot:
            turn.setdefault("end_events", _cells(names))[robot].append(words)
        return
    row = turn["stages"][-1]["rows"][_STEP_ROW.get(data["step"], "outcome")]
    if event.kind == "laser":  # the squares fired into, and who was hit just below
        row[robot] += [data["squares"], *data["hits"]]
    elif robot:
        row[robot].append(words)
    if event.kind == "game-over":
        turn["stages"][-1]["game_over"] = words


def _picture(state: State, squares: dict[str, list[Any]]) -> str:
    marks: dict[tuple[int, int], str] = {}
    for index, (name, (square, facing)) in enumerate(squares.items()):
        if square is None:
            continue
        xy = parse_square(square)
        marks[xy] = "**" if xy in marks else f"{index + 1}{ARROWS['NESW'.index(facing)]}"
    return render(state.board, marks)


def _end_table(state: State, names: list[str]) -> dict[str, Any]:
    cards = deck()
    upgrades = bool(ruleset(state.ruleset)["upgrades"])
    rows: dict[str, Any] = {row: {} for row in END_ROWS}
    fused: dict[str, dict[str, str]] = {}
    for p in state.players:
        rows["mode"][p.name] = "rebooting" if p.rebooting and p.on_board else p.mode
        rows["checkpoint"][p.name] = square_name(p.checkpoint)
        rows["flags"][p.name] = str(p.flags)
        sets = cards.set_names(card_sets(upgrades, p))
        rows["upgrades"][p.name] = " ".join(square_name(s) for s in p.stations) + (
            f" ({', '.join(sets)})" if sets else "")
        rows["options"][p.name] = str(p.options)
        rows["hp"][p.name] = str(p.hp)
        rows["robots"][p.name] = str(p.lives)
        if p.fused:
            fused[p.name] = {str(i + 1): cards.name(c) if c is not None else "empty"
                             for i, c in sorted(p.fused.items())}
    squares = {p.name: [square_name(p.square) if p.square else None, "NESW"[p.facing]]
               for p in state.players}
    return {"picture": _picture(state, squares), "rows": rows, "fused": fused}


# -- text ------------------------------------------------------------------

def to_text(report: dict[str, Any]) -> str:
    names: list[str] = report["players"]
    colours: dict[str, str] = report.get("colours", {})
    heads = {n: f"{n} ({colours[n]})" if colours.get(n) else n for n in names}  # the rules' first line
    out = [f"BotWars {report['ruleset']} on {report['board']}"]
    for turn in report["turns"]:
        for stage in turn["stages"]:
            out += ["", f"== Turn {turn['turn']}, stage {stage['stage']} ==", stage["picture"], ""]
            out.append(_table(names, [(r, stage["rows"][r]) for r in STAGE_ROWS], heads))
            if "game_over" in stage:
                out.append(stage["game_over"])
        end = turn.get("end")
        if end and len(turn["stages"]) == 5:
            out += ["", f"== Turn {turn['turn']}, end of turn ==", end["picture"], ""]
            rows = [(r, end["rows"][r]) for r in END_ROWS
                    if r not in ("upgrades", "options") or any(v not in ("", "0") for v in end["rows"][r].values())]
            out.append(_table(names, rows, heads))
            if end["fused"]:
                out += ["", "fused registers:"]
                out += [f"  {n}: " + ", ".join(f"{k}={v}" for k, v in regs.items())
                        for n, regs in end["fused"].items()]
    if report["waiting_for"]:
        out += ["", "waiting for programs from " + ", ".join(report["waiting_for"])]
    if report["pending"]:
        out += ["", "pending: " + report["pending"]["prompt"]]
    if report["outcome"]:
        out += ["", f"outcome: {report['outcome']['reason']}"]
    return "\n".join(out)


def _table(names: list[str], rows: list[tuple[str, dict[str, Any]]], heads: dict[str, str]) -> str:
    """A table with one column per player; its first line names each player and robot colour."""
    cells = [[_lines(row.get(n, "")) for n in names] for _, row in rows]
    titles = [heads.get(n, n) for n in names]
    widths = [max([len(t), 8] + [len(line) for r in cells for line in r[i]]) for i, t in enumerate(titles)]
    label = max(len(r) for r, _ in rows)
    sep = "+" + "-" * (label + 2) + "+" + "+".join("-" * (w + 2) for w in widths) + "+"
    out = [sep, "| " + "".join(" " * label) + " | " + " | ".join(t.ljust(w) for t, w in zip(titles, widths)) + " |",
           sep]
    for (title, _), row in zip(rows, cells):
        height = max(1, *(len(c) for c in row))
        for k in range(height):
            head = title if k == 0 else ""
            parts = [(c[k] if k < len(c) else "").ljust(w) for c, w in zip(row, widths)]
            out.append(f"| {head.ljust(label)} | " + " | ".join(parts) + " |")
    out.append(sep)
    return "\n".join(out)


def _lines(value: Any) -> list[str]:
    if isinstance(value, list):
        return [str(v) for v in value] or [""]
    return [str(value)]
