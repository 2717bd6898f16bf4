"""Twin Tin Bots at the table: the session's questions, answered for this game.

Each seat plays at the station nearest its base (by compass direction from
the arena centre, the best assignment over all stations); a station's six
slots are robot A's three program slots, then robot B's. One seat programs
at a time. Order tiles lie face up, so slots hold no secret; the special
orders a player holds in hand are theirs alone until placed: the engine
draws them and the seat's view (a phone) shows which tile to take.
"""

from __future__ import annotations

import math
from itertools import permutations
from random import Random
from typing import Any, Sequence

from ....board.layouts import Layout
from ....session.mapping import (Candidate, Frames, Picture, StationReading, TableError,
                                 TableMapping, Verdict)
from ...base import Decision, Event
from .. import actions as A
from .. import content as C
from ..notation import seat_name
from ..state import State, final_scores, points
from . import leds, physical, words
from .candidates import candidates
from .frames import frames
from .scene import Scene
from .tiles import Tile, payload, virtual_uid

_ZAP_TILES = {C.TILE_BY_CODE[c] for c in ("Z", "ZZ", "LZ", "FZ")}
_COMPASS = {"east": 0, "north-east": 45, "north": 90, "north-west": 135, "west": 180,
            "south-west": 225, "south": 270, "south-east": 315}


def _angle(q: int, r: int) -> float:
    """Compass angle (degrees, east 0, counter-clockwise, north 90) of a hex; r grows southwards."""
    x = math.sqrt(3) * (q + r / 2)
    y = -1.5 * r
    return math.degrees(math.atan2(y, x)) % 360


def _gap(a: float, b: float) -> float:
    d = abs(a - b) % 360
    return min(d, 360 - d)


def nearest_stations(layout: Layout, bases: list[tuple[int, int]]) -> tuple[int, ...]:
    """Each base's station: the assignment with the least total angle between them."""
    players = len(bases)
    if players > len(layout.stations):
        raise TableError(f"layout {layout.id} has {len(layout.stations)} stations, not "
                         f"enough for {players} players (6 players need ttb-big)")
    wanted = [_angle(q, r) for q, r in bases]
    angles = [_COMPASS.get(s.name, 360.0 * i / len(layout.stations))
              for i, s in enumerate(layout.stations)]
    best = min(permutations(range(len(angles)), players),
               key=lambda pick: sum(_gap(wanted[s], angles[st]) for s, st in enumerate(pick)))
    return tuple(best)


# the console's players table: which per-player figures, under which heading
PLAYER_COLUMNS = {"scores": "score", "final_scores": "final score", "delivered": "delivered crystals",
                  "hands": "hand", "double_modification_used": "DM used"}


class TwinTinBotsTable(TableMapping[State]):
    game = "twin-tin-bots"
    palette = leds.PALETTE
    palette_index = leds.INDEX
    palette_doc = leds.PALETTE_DOC

    # -- the board -------------------------------------------------------------
    @classmethod
    def default_layout(cls, players: int) -> str:
        return "ttb-big" if players > 4 else "ttb-small"

    def seat_stations(self, layout: Layout, state: State) -> tuple[int, ...]:
        arena = state.layout.arena
        if arena.size > len(layout.cells):
            raise TableError(f"{state.layout.players} players play on the big arena: start "
                             f"with --layout ttb-big (this board is {layout.id})")
        return nearest_stations(layout, [arena.coords[c] for c in state.layout.bases])

    def coords(self, state: State) -> Sequence[tuple[int, int]]:
        return state.layout.arena.coords

    def slot_name(self, state: State, pos: int) -> str:
        return physical.slot_name(pos)

    def seat_name(self, state: State, seat: int) -> str:
        return C.COLOURS[seat]

    def engine_words(self, text: str) -> str:
        """The rules' name for an end by the countdown, as the table says it."""
        return text.replace("crystal attrition", "the countdown ran out")

    # -- tiles and stations ----------------------------------------------------
    def acting_seats(self, state: State) -> list[int]:
        if state.result or state.pending is not None:
            return []
        return [state.player]

    def read_station(self, state: State, seat: int, tiles: list[Any], slots: list[int]) -> StationReading:
        return physical.read_station(seat, tiles, slots)

    def judge(self, state: State, seat: int, reading: StationReading, slots: list[int],
              settings: dict[str, Any]) -> Verdict:
        return physical.judge(state, seat, reading, slots)

    def check_station(self, state: State, seat: int, reading: StationReading,
                      slots: list[int]) -> tuple[list[int], list[str]]:
        want = physical.seat_programs(state, seat)
        wrong = physical.differing_slots(slots, want, reading.held)
        return wrong, physical.undo_words(want, reading.held)

    # -- virtual hands -------------------------------------------------------------
    def station_tiles(self, state: State, seat: int) -> list[Tile | None]:
        return self._tiles(seat, physical.seat_programs(state, seat))

    def random_program(self, state: State, seat: int, rng: Random,
                       settings: dict[str, Any] | None = None) -> list[Tile | None]:
        legal = self.engine.legal_actions(state)
        singles = getattr(legal, "singles", [])
        zaps = [a for a in singles if a[0] == A.PLACE and a[3] in _ZAP_TILES]
        if zaps and rng.random() < 0.3:  # players like zapping: it makes decisions
            action = zaps[rng.randrange(len(zaps))]
        elif singles and rng.random() < 0.8:
            action = singles[rng.randrange(len(singles))]
        else:
            action = legal[rng.randrange(len(legal))]
        target, _ = A.apply_programming(physical.seat_programs(state, seat), state.hands[seat], action)
        return self._tiles(seat, target)

    @staticmethod
    def _tiles(seat: int, programs: A.Programs) -> list[Tile | None]:
        kinds = [programs[pos // 3][pos % 3] for pos in range(6)]
        return [Tile(k, None if k in C.SPECIALS else seat) if k else None for k in kinds]

    def virtual_tag(self, tile: Tile, serial: int) -> tuple[bytes, bytes]:
        return virtual_uid(tile, serial), payload(tile, serial)

    # -- the LEDs --------------------------------------------------------------
    def picture(self, state: State) -> Picture:
        return leds.picture(Scene.from_state(state))

    def frames(self, before: State, events: list[Event], after: State) -> Frames:
        return frames(before, events, after)

    def robot_cell(self, state: State, seat: int, pos: int) -> int | None:
        return state.cell[2 * seat + pos // 3]

    def pieces(self, state: State, seats: int) -> dict[int, str]:
        """Robot A (slots A1-A3) and robot B (B1-B3) of each seat; a robot carrying a crystal says
        so ("red A + blue crystal"): on the board it is only a darker shade."""
        def words(robot: int) -> str:
            carried = C.CRYSTAL_COLOUR.get(state.load[robot]) if state.load[robot] else None
            return f"{C.COLOURS[robot // 2]} {'AB'[robot % 2]}" + (f" + {carried} crystal" if carried else "")
        return {state.cell[2 * seat + k]: words(2 * seat + k) for seat in range(seats) for k in (0, 1)}

    def mark(self, state: State, seat: int, pos: int, name: str, effect: int) -> tuple[int, Any]:
        return leds.robot_mark(Scene.from_state(state), 2 * seat + pos // 3, name, effect)

    def score_picture(self, state: State) -> Picture:
        return leds.score_view(Scene.from_state(state), list(state.delivered))

    def candidates(self, state: State, decision: Decision) -> list[Candidate]:
        return candidates(state, decision)

    # -- words and views -------------------------------------------------------
    def turn_words(self, state: State) -> str:
        first = state.turns < state.layout.players
        what = ("place one order on each robot" if first
                else "change one thing in your program (or confirm twice to pass)")
        return f"{C.COLOURS[state.player]} to play: {what}, then press confirm"

    def now_words(self, state: State, seat: int | None) -> str:
        if seat is None:
            return self.turn_words(state)
        return "your turn: " + self.turn_words(state).split(" to play: ", 1)[1]

    def score_words(self, state: State) -> str:
        return "scores: " + ", ".join(f"{C.COLOURS[s]} {v}" for s, v in enumerate(final_scores(state)))

    def public_view(self, state: State) -> dict[str, Any]:
        n = state.layout.players
        colours = C.COLOURS[:n]
        return {
            "turn": colours[state.player], "turns": state.turns, "round": state.turns // n + 1,
            "scores": {c: points(state.delivered[s]) for s, c in enumerate(colours)},
            "final_scores": {c: v for c, v in zip(colours, final_scores(state))},
            "delivered": {c: dict(zip(("blue", "green", "pink"), state.delivered[s]))
                          for s, c in enumerate(colours)},
            "hands": {c: len(state.hands[s]) for s, c in enumerate(colours)},
            "double_modification_used": {c: state.dm_used[s] for s, c in enumerate(colours)},
            "programs": {f"{c} {'AB'[k]}": [C.TILE_CODES[t] for t in state.programs[2 * s + k]]
                         for s, c in enumerate(colours) for k in (0, 1)},
            "track": len(state.track),
            "countdown": state.countdown if state.countdown >= 0 else None,
            "columns": PLAYER_COLUMNS,
        }

    def seat_words(self, state: State, seat: int) -> list[tuple[str, str]]:
        return words.seat_words(state, seat)

    def seat_view(self, state: State, seat: int) -> dict[str, Any]:
        hand = state.hands[seat]
        return {"hand": [{"code": C.TILE_CODES[t], "name": C.TILE_NAMES[t]} for t in hand],
                "take": ("take these special tiles from the box: "
                         + ", ".join(C.TILE_NAMES[t] for t in hand)) if hand else "",
                "double_modification_used": state.dm_used[seat],
                "programs": {"AB"[k]: [C.TILE_CODES[t] for t in state.programs[2 * seat + k]]
                             for k in (0, 1)},
                "seat_name": seat_name(seat)}
