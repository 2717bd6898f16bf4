"""Shared helpers: build positions on small inline boards and run actions."""

from __future__ import annotations

from typing import Any

from botboard.games.base import Event
from botboard.games.botwars.game import GAME
from botboard.games.botwars.state import State


def board(squares: dict[str, Any] | None = None, walls: list[str] | None = None,
          lasers: list[dict[str, str]] | None = None, size: tuple[int, int] = (6, 6),
          flags: tuple[str, ...] = ("r6c6",)) -> dict[str, Any]:
    return {"name": "inline", "size": list(size), "start": "r1c1", "flags": list(flags),
            "squares": squares or {}, "walls": walls or [], "lasers": lasers or []}


def position(robots: dict[str, Any], brd: dict[str, Any] | None = None, ruleset: str = "v2.1",
             **extra: Any) -> State:
    return GAME.scenario_start(len(robots), {"ruleset": ruleset}, 0,
                               {"board": brd or board(), "robots": robots, **extra})


def play(state: State, *actions: str) -> tuple[State, list[Event]]:
    events: list[Event] = []
    for text in actions:
        state, new = GAME.apply_str(state, text)
        events += new
    return state, events


def robot(state: State, name: str) -> dict[str, Any]:
    view: dict[str, Any] = GAME.observe(state)["robots"][name]
    return view


FILLER = ["LF90:070", "RT90:080", "LF90:090", "RT90:100", "UTRN:010"]
