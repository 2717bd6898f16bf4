"""A round boundary as a table step: clear what the game took off before anyone plays on.

A part of ``GameSession`` (session.py) with one job. When the game moves past
a boundary (a new game, a new round, a deal, tiles that fell off or were
destroyed), stations may still hold tiles the game no longer has there:
last turn's cards in BotWars' registers, round 1's robot on a Goblins yard,
an old game's programs. Right after such a change the session asks every
station for what it must hold now (``TableMapping.station_tiles``); the
slots that differ are the game's doing, not a hand's. The table then says
what to take off and where, in the rules' words (``TableMapping.clear_reason``),
blinks those slots' robots, and waits, mode ``"clear"``, until the board
matches; only then does it say whose turn it is. A slot leaves the list as
soon as it holds what the game wants.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .hints import Step, changes, tile_key

if TYPE_CHECKING:
    from .mapping import TableMapping
    from .seating import Seating


class TableClearing:
    if TYPE_CHECKING:  # what it reads and sets of the session (session.py sets them)
        state: Any
        mode: str
        seating: Seating | None
        mapping: TableMapping[Any]
        submitted: set[int]
        confirmed: dict[int, tuple[str, list[bytes | None]]]
        clearing: dict[int, set[int]]
        _want_before: dict[int, Any]
        _held_before: dict[int, Any]
        _state_before: Any
        _new_game_clearing: bool

        def seat_name(self, seat: int) -> str: ...
        def is_computer(self, seat: int) -> bool: ...
        def _tiles(self, seat: int) -> list[Any]: ...

    def _note_before(self) -> None:
        """What every slot should hold and holds just before an action: the game's changes
        are told from a hand's by them (by slot: partners change yards between rounds)."""
        self._want_before, self._held_before = {}, {}
        self._state_before = self.state
        if self.state is None or self.seating is None:
            return
        for seat in [s for s in range(self.seating.players) if self.seating.holds(s)]:
            want, have = self._wanted(seat)
            for slot, a, b in zip(self.seating.slots_of(seat), want, have):
                self._want_before[slot] = tile_key(self.mapping, a)
                self._held_before[slot] = tile_key(self.mapping, b)

    def _clearing_due(self, new_game: bool) -> dict[int, set[int]]:
        """Per seat, the station positions the game's change left wrong.

        A new game: every slot that differs. After an action: a slot that differs where the
        game now wants something else than before it (a tile fell off, a new round), or at a
        seat whose move is in (last turn's cards); never a slot a hand moved meanwhile, nor
        one of a seat still programming (that is said as moved out of turn)."""
        assert self.seating is not None
        out: dict[int, set[int]] = {}
        for seat in range(self.seating.players):
            if not self.seating.holds(seat) or self.is_computer(seat) or seat in self.confirmed:
                continue  # (a confirmed program waits in its slots for the engine's order)
            differ = self._differing(seat)
            if not new_game:
                slots = self.seating.slots_of(seat)
                want, have = (list(map(lambda t: tile_key(self.mapping, t), x)) for x in self._wanted(seat))
                differ = {p for p in differ if slots[p] in self._held_before
                          and have[p] == self._held_before[slots[p]]  # no hand moved it since
                          and (self._want_before[slots[p]] != want[p] or seat in self.submitted)}
            if differ:
                out[seat] = differ
        return out

    def _differing(self, seat: int) -> set[int]:
        want, have = self._wanted(seat)
        return {p for p, (a, b) in enumerate(zip(have, want)) if tile_key(self.mapping, a) != tile_key(self.mapping, b)}

    def _wanted(self, seat: int) -> tuple[list[Any], list[Any]]:
        want = list(self.mapping.station_tiles(self.state, seat))
        have = list(self._tiles(seat))
        have += [None] * (len(want) - len(have))
        return want, have

    def _still_clearing(self) -> bool:
        """Drop the slots that now hold what the game wants; True while some do not."""
        for seat in list(self.clearing):
            self.clearing[seat] &= self._differing(seat)
            if not self.clearing[seat]:
                del self.clearing[seat]
        return bool(self.clearing)

    def clear_steps(self, seat: int) -> list[Step]:
        """What the seat's station still needs, as the table asks for it (take, move, put)."""
        positions = self.clearing.get(seat, set())
        want, have = self._wanted(seat)
        want = [w if p in positions else h for p, (w, h) in enumerate(zip(want, have))]
        return changes(self.mapping, self.state, have, want)

    def clear_words(self, seat: int, public: bool = False) -> str:
        """"blue: last turn's cards go back in the rack: take FWD1:640 out of register 1, ..."
        (``public`` and a game of hidden slots: the slots only, not the tiles)."""
        steps = self.clear_steps(seat)
        reason = self.mapping.clear_reason(self.state, seat, None if self._new_game_clearing
                                           else self._state_before)
        if public and self.mapping.private_refusals():
            said = "clear " + ", ".join(dict.fromkeys(s.source or s.target for s in steps))
        else:
            said = ", ".join(s.words() for s in steps)
        return f"{self.seat_name(seat)}: {reason}: {said}"

    def clearing_slots(self) -> list[int]:
        """The physical slots still to clear (their robots blink)."""
        assert self.seating is not None
        return [self.seating.slots_of(seat)[p] for seat, positions in self.clearing.items()
                for p in sorted(positions)]

