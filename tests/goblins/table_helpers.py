"""Goblins, Inc. at a fake table: hands that lay tiles on the yards, press the yards' buttons,
answer decisions on the phone, and keep the other yard as the game has it."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any, Callable

from botboard.games.goblins.tiles import TileDef, load_box
from botboard.games.goblins.yard import ALL_SQUARES, COCKPIT, connected

from ..session.helpers import GameTable

BOX = load_box("placeholder")


class Yards(GameTable):
    def __init__(self, tmp: Path, players: int = 2, seed: int = 1) -> None:
        super().__init__(tmp, "goblins", "goblins")
        self.game_id = self.session.new_game(players, {}, seed)
        self.rng = random.Random(seed)

    @property
    def state(self) -> Any:
        return self.session.state

    def slot_of(self, seat: int, square: str) -> int:
        mapping = self.session.mapping
        return self.at(seat, mapping.squares[self.state.team_of(seat)].index(square))

    def cell_of(self, seat: int, square: str) -> int:
        """The board cell (LED) of a square of the seat's yard."""
        from botboard.games.goblins.table.leds import cell_of
        assert self.session.bmap is not None
        return self.session.bmap.to_board[cell_of(self.state.team_of(seat), square)]

    def lay(self, seat: int, square: str, tile: int | TileDef, serial: int = 1) -> None:
        tile = BOX.tiles[tile] if isinstance(tile, int) else tile
        self.put(self.slot_of(seat, square), *self.session.mapping.virtual_tag(tile, serial))

    def lift(self, seat: int, square: str) -> None:
        self.take(self.slot_of(seat, square))

    def builder(self) -> int:
        acting = self.session.acting()
        assert acting, f"nobody builds now: {self.session.message}"
        return acting[0]

    def decide_randomly(self) -> None:
        picker = self.session.picker
        assert picker is not None
        choice = picker.candidates[self.rng.randrange(len(picker.candidates))].choice
        self.session.decide(choice, picker.decision.player)

    def build_randomly(self) -> None:
        """The builder lays a random legal tile as the game would take it, and confirms."""
        session, seat = self.session, self.builder()
        settings: dict[str, Any] = {}
        tiles = session.mapping.random_program(self.state, seat, self.rng, settings)
        for name, value in settings.items():
            session.set_control(seat, name, value)
        self.hold(seat, tiles)
        done = len(self.actions())
        self.press(seat, "confirm")
        if seat in session.awaiting:
            self.press(seat, "confirm")  # a loose tile: placed anyway
        assert len(self.actions()) == done + 1, session.seat_messages.get(seat) or session.message

    def hold(self, seat: int, tiles: list[Any]) -> None:
        """Make the seat's yard hold ``tiles`` (per slot position)."""
        for pos, tile in enumerate(tiles):
            slot = self.at(seat, pos)
            reading = self.session.table.reading(slot)
            if tile is None:
                if reading is not None:
                    self.take(slot)
            else:
                uid, data = self.session.mapping.virtual_tag(tile, 1)
                if reading is None or reading.uid != uid:
                    self.put(slot, uid, data)

    def tidy(self) -> None:
        """Every yard nobody builds on is made to hold what the game says (tiles that fell
        off are taken away)."""
        seating = self.session.seating
        assert seating is not None
        for seat in range(seating.players):
            if seating.holds(seat) and seat not in self.session.acting():
                self.hold(seat, self.session.mapping.station_tiles(self.state, seat))

    def step(self, tidy: bool = True) -> None:
        if self.session.mode == "decide":
            self.decide_randomly()
        else:
            self.build_randomly()
        if tidy:
            self.tidy()

    def play_until(self, done: Callable[[], bool], limit: int = 1500) -> None:
        for _ in range(limit):
            if done():
                return
            assert self.session.mode in ("decide", "program"), self.session.message
            self.step()
        raise AssertionError(f"not reached in {limit} actions: {self.session.message}")


def joined_spot(state: Any, seat: int) -> tuple[int, str, str]:
    """A tile of the seat's hand, a free square and a turn that join it to the cockpit."""
    return _spot(state, seat, True)


def loose_spot(state: Any, seat: int) -> tuple[int, str, str]:
    """A tile of the seat's hand, a free square and a turn that leave it loose."""
    return _spot(state, seat, False)


def _spot(state: Any, seat: int, joined: bool) -> tuple[int, str, str]:
    robot = state.robots[state.team_of(seat)]
    free = [s for s in ALL_SQUARES if s not in robot.yard and s not in robot.blocked and s != COCKPIT]
    for tile in state.players[seat].hand:
        for square in free:
            for rot, top in enumerate("NESW"):
                after = {**robot.yard, square: [tile, rot]}
                if (square in connected(after, BOX)) == joined:
                    return tile, square, top
    raise AssertionError("no such placement")
