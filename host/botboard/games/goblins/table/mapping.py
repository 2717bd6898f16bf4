"""Goblins, Inc. at the table: the session's questions, answered for this game.

The board has two construction yards (layout goblins: stations yard-a and
yard-b), 25 slots each, one under every square. Robot A is built on yard-a,
robot B on yard-b; the seats of a team share its yard, and the team changes
every round, so the session asks ``seat_stations`` again after every action.
A yard answers to the partner who acts now (``holder``).

Building is read from the yard: the builder lays a tile, turns it with
previous/next (the tag cannot tell where its printed top points) and
confirms. Every other step is a decision: planners keep 3 tiles, players
keep agendas, pilots and tacticians set their controllers; these are secret,
chosen on the player's phone (or stepped through with the yard's buttons,
the words on the phone); tactics abilities, the order of the dice and
defense tokens are public choices. The engine rolls the dice.
"""

from __future__ import annotations

from random import Random
from typing import Any, Sequence

from bbshared import messages as m

from ....board.layouts import Layout
from ....session.mapping import (Candidate, StationReading, TableError, TableMapping, Verdict)
from ...base import Decision, Event
from .. import tagcodec
from ..context import pname
from ..state import State
from ..tiles import load_box
from . import leds, words, yards
from .public import SEATS, public_view, seat_view

SECRET = ("keep", "agendas", "pilot", "tactic")  # decisions whose choices only the decider may see
_STEER = {"F": "no turn", "R": "the right side to the front", "B": "the rear to the front",
          "L": "the left side to the front"}
_TARGET = {"F": "its front", "R": "its right side", "B": "its rear", "L": "its left side"}


class GoblinsTable(TableMapping[State]):
    game = "goblins"
    leds = leds
    settings_per_action = True  # the turn of a tile is for that tile alone
    default_speed_s = 0.4

    def __init__(self, registry: Any = None) -> None:
        super().__init__(registry)
        self.squares = [list(yards.ALL_SQUARES), list(yards.ALL_SQUARES)]  # per yard: slot -> square

    @classmethod
    def default_layout(cls, players: int) -> str:
        return "goblins"

    def seat_stations(self, layout: Layout, state: State) -> tuple[int, ...]:
        if len(layout.stations) < 2:
            raise TableError(f"layout {layout.id} has {len(layout.stations)} station(s): Goblins, Inc. "
                             "needs two construction yards (layout goblins)")
        self.squares = [yards.slot_squares(layout, 0), yards.slot_squares(layout, 1)]
        return tuple(state.team_of(seat) for seat in range(len(state.players)))

    def holder(self, state: State, seats: list[int]) -> int:
        """The partner who must act first; otherwise the one who builds and pilots first."""
        waiting = [p for p, _ in state.queue if p in seats]
        return int(waiting[0]) if waiting else seats[0]

    def coords(self, state: State) -> Sequence[tuple[int, int]]:
        return leds.coords()

    def slots_per_seat(self) -> int:
        return 25

    def cell_names(self, state: State, grid: str) -> list[str]:
        return [f"{'AB'[team]} {square}" for team in (0, 1) for square in yards.ALL_SQUARES]

    def pieces(self, state: State, seats: int) -> dict[int, str]:
        return {}  # the tiles are the yards' floor marks

    def slot_name(self, state: State, pos: int) -> str:
        return self.squares[0][pos]

    def seat_name(self, state: State, seat: int) -> str:
        return SEATS[seat]

    # -- tiles and stations ----------------------------------------------------
    def acting_seats(self, state: State) -> list[int]:
        if state.outcome is None and state.queue and state.queue[0][1] == "place":
            return [int(state.queue[0][0])]
        return []

    def decision(self, state: State) -> Decision | None:
        if self.acting_seats(state):
            return None  # a placement is read from the yard
        pending = self.engine.pending(state)
        if pending is None:
            return None
        return Decision(pending.player, pending.kind, self.engine_words(pending.prompt), pending.choices)

    def _slots(self, state: State, seat: int, slots: list[int]) -> dict[str, int]:
        return dict(zip(self.squares[state.team_of(seat)], slots))

    def read_station(self, state: State, seat: int, tiles: list[Any], slots: list[int]) -> StationReading:
        return yards.read_yard(state, tiles, slots, self.squares[state.team_of(seat)])

    def judge(self, state: State, seat: int, reading: StationReading, slots: list[int],
              settings: dict[str, Any]) -> Verdict:
        return yards.judge_place(state, seat, reading.held, self._slots(state, seat, slots), settings)

    def check_station(self, state: State, seat: int, reading: StationReading,
                      slots: list[int]) -> tuple[list[int], list[str]]:
        return yards.check_yard(state, state.team_of(seat), reading.held, self._slots(state, seat, slots))

    def controls(self, state: State, seat: int, settings: dict[str, Any]) -> list[dict[str, Any]]:
        if seat not in self.acting_seats(state):
            return []
        return [{"name": yards.TOP, "label": "the printed top of the tile you place points",
                 "value": yards.top_of(settings), "choices": list(yards.SIDE_NAMES)}]

    def station_button(self, state: State, seat: int, role: str, settings: dict[str, Any]) -> str | None:
        return yards.turn(settings, role)

    def robot_cell(self, state: State, seat: int, pos: int) -> int | None:
        team = state.team_of(seat)
        return leds.cell_of(team, self.squares[team][pos])

    def preview(self, state: State, seat: int, reading: StationReading,
                settings: dict[str, Any]) -> leds.Picture:
        """The tile being placed breathes white; the squares it joins, as turned, light white."""
        team = state.team_of(seat)
        extra, _ = yards.changes(state, team, reading.held)
        if len(extra) != 1 or extra[0] in state.robots[team].blocked or extra[0] == yards.COCKPIT:
            return {}
        square, tile = extra[0], reading.held[extra[0]]
        yard = {**state.robots[team].yard, square: [tile.id, yards.SIDE_NAMES.index(yards.top_of(settings))]}
        joins = yards.neighbours_joined(yard, load_box(state.box), square)
        out = {leds.cell_of(team, s): leds.look("choice") for s in joins}
        out[leds.cell_of(team, square)] = leds.look("choice", m.PULSE)
        return out

    def clear_reason(self, state: State, seat: int, before: State | None) -> str:
        if before is None:
            return super().clear_reason(state, seat, before)
        team = state.team_of(seat)
        robot, was = state.robots[team], before.robots[before.team_of(seat)]
        if state.round != before.round:
            return f"round {state.round} builds new robots, last round's robot comes off the yard"
        if len(robot.scrap) > len(was.scrap):
            return "tiles fell off and go to the scrapyard"
        return "the robot changed in combat, make the yard match it"

    # -- virtual hands ------------------------------------------------------------
    def station_tiles(self, state: State, seat: int) -> list[Any]:
        team = state.team_of(seat)
        return yards.yard_tiles(state, team, self.squares[team])

    def random_program(self, state: State, seat: int, rng: Random,
                       settings: dict[str, Any] | None = None) -> list[Any]:
        legal = list(self.engine.legal_actions(state))
        return yards.random_place(state, seat, self.squares[state.team_of(seat)], legal, rng, settings)

    def virtual_tag(self, tile: Any, serial: int) -> tuple[bytes, bytes]:
        uid = bytes((0x04, tagcodec.GAME_ID, 0, tile.id & 0xFF, serial & 0xFF, 0x00, 0x80))
        return uid, tagcodec.encode(tile)

    # -- words and views -------------------------------------------------------
    def turn_words(self, state: State) -> str:
        acting = self.acting_seats(state)
        if not acting:
            return f"round {state.round}: {state.stage}"
        seat = acting[0]
        team = "AB"[state.team_of(seat)]
        left = len(state.players[seat].hand)
        return (f"round {state.round}: {SEATS[seat]} builds robot {team}: lay a tile on a free square "
                f"of yard {team}, turn it with previous/next, confirm ({left} to place)")

    def score_words(self, state: State) -> str:
        return "scores: " + ", ".join(f"{SEATS[i]} {p.score}" for i, p in enumerate(state.players))

    def public_view(self, state: State) -> dict[str, Any]:
        return public_view(self.engine, state, SEATS)

    def seat_words(self, state: State, seat: int) -> list[tuple[str, str]]:
        return words.seat_words(seat_view(self.engine, state, seat))

    def seat_view(self, state: State, seat: int) -> dict[str, Any]:
        return seat_view(self.engine, state, seat)

    def candidates(self, state: State, decision: Decision) -> list[Candidate]:
        return [Candidate(c.choice, c.cell, choice_words(decision.kind, c.words))
                for c in leds.candidates(state, decision)]

    def private_choices(self, decision: Decision) -> bool:
        return decision.kind in SECRET

    def public_action(self, state: State, text: str) -> str:
        words = text.split()
        who = SEATS[int(words[0][1:]) - 1] if words and words[0][1:].isdigit() else "?"
        hidden = {"keep": "keeps 3 tiles and passes 2 across",
                  "agendas": "keeps 4 hidden agendas",
                  "pilot": "sets the pilot's controller face down",
                  "tactic": "chooses a tactics card face down"}
        if len(words) > 1 and words[1] in hidden:
            return f"{who} {hidden[words[1]]}"
        if len(words) == 5 and words[1] == "place":
            return f"{who} builds {words[2]} on {words[3]}, its top to the {words[4]}"
        return f"{who}: {' '.join(words[1:])}"

    def public_events(self, events: list[Event]) -> list[str]:
        """The two tiles passed across are known to the two planners only."""
        out = []
        for e in events:
            if e.kind == "trade":
                out.append(f"{_seat(e.data['giver'])} passes 2 tiles to {_seat(e.data['taker'])}")
            else:
                out.append(self.engine_words(e.text))
        return out

    def engine_words(self, text: str) -> str:
        return _name_seats(text)


def choice_words(kind: str, words: str) -> str:
    """A choice as its decider reads it on the phone (a controller setting spelt out)."""
    parts = words.split()
    if kind == "pilot" and len(parts) == 3:
        return f"steer {parts[1]} ({_STEER[parts[1]]}), target {parts[2]} ({_TARGET[parts[2]]})"
    return words


def _seat(name: Any) -> str:
    text = str(name)
    return SEATS[int(text[1:]) - 1] if text[1:].isdigit() else text


def _name_seats(text: str) -> str:
    """The engine says p1..p4; the table says the seats' colours."""
    for index in range(len(SEATS) - 1, -1, -1):
        text = text.replace(pname(index), SEATS[index])
    return text

