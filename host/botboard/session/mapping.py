"""The table mapping: what a game brings to the table beside its pure engine.

The session knows no game. It asks a game's ``TableMapping`` (found through
``mappings.get(name)``, one per game in ``games/<game>/table/``) the few
questions that differ from game to game:

* where the seats sit (``seat_stations``) and what their slots are called;
* what a tag is (``identify``) and what a station's slots hold, as the
  game's own program or a refusal in words naming the slots (``judge``,
  ``check_station``);
* which stations are being programmed now (``acting_seats``: one for a game
  of turns, every seat for simultaneous programming);
* what the LEDs show for a state, the timed frames of an action's events,
  and where a slot's robot or a decision's candidates are (``picture``,
  ``frames``, ``robot_cell``, ``candidates``);
* what the shared view and each seat's private view may show (``public_view``,
  ``seat_view``) and how an action reads to someone who may not see it all
  (``public_action``).

A mapping is pure: no I/O, no clock, no board. Everything it returns is data.
docs/adding-a-game.md walks through writing one.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from pathlib import Path
from random import Random
from typing import Any, Callable, Generic, Sequence, TypeVar

from bbshared import tilepayload

from .. import games
from ..games.base import Decision, Event, Game
from ..games.catalogue import TileCatalogue, TileError
from ..board.layouts import Layout
from ..link.image import CellState
from .enrolled import Enrolled
from .palette import check_variant, colours, legend

S = TypeVar("S")
Picture = dict[int, CellState]  # engine cell index -> what it shows
Frames = list[tuple[Event | None, Picture]]  # (event, picture) per step; the last is the state after


def scene_frames(scene: Any, events: list[Event], draw: Callable[[Any], Picture], last: Picture) -> Frames:
    """The events followed on ``scene`` (``scene.apply(event)`` says whether it shows): a
    ``draw(scene)`` per event shown, then ``last``, the exact picture of the state after."""
    out: Frames = [(event, draw(scene)) for event in events if scene.apply(event)]
    out.append((None, last))
    return out


class TableError(ValueError):
    """The game cannot be played on this board (too few stations, arena too small...)."""


@dataclass(frozen=True)
class Candidate:
    """One choice of a pending decision, shown on a cell."""

    choice: str  # the action notation
    cell: int  # engine cell index where it is shown
    words: str


@dataclass
class StationReading:
    """What a seat's station holds: the game's own form of it, and what cannot count."""

    held: Any  # the game's program, hand of slots... (the mapping's own type)
    problems: dict[int, str] = field(default_factory=dict)  # physical slot -> what is wrong

    @property
    def ok(self) -> bool:
        return not self.problems

    @classmethod
    def by_position(cls, tiles: list[Any], slots: list[int], names: Sequence[str]) -> "StationReading":
        """The tiles as a tuple by position (None where empty); a tag that could not be read
        is a problem, said with its position's name."""
        held: list[Any] = [None] * len(names)
        problems: dict[int, str] = {}
        for pos, (slot, tile) in enumerate(zip(slots, tiles)):
            if isinstance(tile, TileError):
                problems[slot] = f"{names[pos]}: {tile}"
            elif tile is not None:
                held[pos] = tile
        return cls(tuple(held), problems)


@dataclass(frozen=True)
class Verdict:
    """What a confirmed station means: a legal action, or a refusal in words."""

    action: str | None  # the action notation (None: refused)
    message: str  # in words, for the seat (and the table unless ``private``)
    wrong_slots: tuple[int, ...] = ()  # physical slots to fix
    second_confirm: str | None = None  # accepted only on a second confirm (e.g. "pass")

    @property
    def ok(self) -> bool:
        return self.action is not None

    @classmethod
    def refused(cls, problems: dict[int, str]) -> Verdict:
        """A refusal of every slot in ``problems`` (physical slot -> what is wrong there)."""
        return cls(None, "; ".join(problems.values()), tuple(problems))


class TableMapping(ABC, Generic[S]):
    """A game at the table. Subclasses fill in the hooks; ``S`` is the engine's state."""

    game: str  # the engine's registry name
    palette: tuple[tuple[int, int, int], ...]  # the 16 colours the board is given
    palette_index: dict[str, int]  # name -> palette index (the session asks for "alert", "choice")
    palette_doc: dict[str, Any] = {}  # the palette file: roles, meanings, variants (session/palette.py)
    secret_slots: bool = False  # slot contents are hidden information (programs before the reveal)
    simultaneous: bool = False  # every seat programs at once: one not acting has its program in
    default_speed_s: float = 0.35  # animation seconds per step
    settings_per_action: bool = False  # a seat's settings are forgotten once its action is taken

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if cls.leds is not None and "palette" not in vars(cls):  # the LED module's palette by default
            cls.palette, cls.palette_index = cls.leds.PALETTE, cls.leds.INDEX
            cls.palette_doc = cls.leds.PALETTE_DOC

    def __init__(self, registry: Enrolled | None = None) -> None:
        self.engine: Game[S, Any] = games.get(self.game)
        self.catalogue: TileCatalogue[Any] = games.catalogue(self.game)
        self.registry = registry  # enrolled tags without a payload (the data directory's)

    @classmethod
    def load_registry(cls, data_dir: Path | None) -> Enrolled:
        """The enrolled tags (tags without a payload) this game reads from the data directory."""
        return Enrolled(data_dir, cls.game, games.catalogue(cls.game))

    # -- the board -------------------------------------------------------------
    @classmethod
    def palette_for(cls, variant: str = "standard") -> tuple[tuple[int, int, int], ...]:
        """The 16 colours of a palette variant ("standard", "colourblind"); same names, same indices."""
        check_variant(variant)
        return colours(cls.palette_doc, variant) if cls.palette_doc else cls.palette

    @classmethod
    def legend(cls, variant: str = "standard") -> list[dict[str, Any]]:
        """What each lit palette entry means, with its colour in ``variant`` (public: no seat's secrets)."""
        check_variant(variant)
        return legend(cls.palette_doc, variant) if cls.palette_doc else []

    @classmethod
    @abstractmethod
    def default_layout(cls, players: int) -> str:
        """The layout this game is played on with ``players`` players."""

    @abstractmethod
    def seat_stations(self, layout: Layout, state: S) -> tuple[int, ...]:
        """The layout station of each seat; TableError if the board does not fit the game.
        Seats may share a station (Goblins: partners build one robot); asked again after
        every action, so a seat may change station from round to round."""

    def holder(self, state: S, seats: list[int]) -> int:
        """Of the seats sharing a station, the one its slots and buttons answer to now."""
        return seats[0]

    @abstractmethod
    def coords(self, state: S) -> Sequence[tuple[int, int]]:
        """Engine cell index -> the layout coordinate it is drawn on."""

    def slots_per_seat(self) -> int:
        return 6

    def cell_names(self, state: S, grid: str) -> list[str]:
        """Each engine cell as the game's words name it (events, decisions): "q,r" on hexes,
        "rYcX" on squares; the console labels the arena with them."""
        if grid == "hex":
            return [f"{q},{r}" for q, r in self.coords(state)]
        return [f"r{y}c{x}" for x, y in self.coords(state)]

    def pieces(self, state: S, seats: int) -> dict[int, str]:
        """Engine cell -> the piece standing there as the table names it (the console marks
        them on the arena): each seat's robot by default."""
        out = {}
        for seat in range(seats):
            cell = self.robot_cell(state, seat, 0)
            if cell is not None:
                out[cell] = self.seat_name(state, seat)
        return out

    def slot_name(self, state: S, pos: int) -> str:
        """A station slot's name as players read it (position 0.. in the station)."""
        return str(pos + 1)

    @abstractmethod
    def seat_name(self, state: S, seat: int) -> str: ...

    # -- tiles and stations ----------------------------------------------------
    def identify(self, uid: bytes, payload: bytes) -> Any:
        """The tile a tag is (its payload, else its enrolment); TileError with what to do if it
        is none of this game's."""
        if payload and payload[0] == tilepayload.MAGIC:
            return self.catalogue.from_payload(payload)
        enrolled = self.registry.lookup(uid) if self.registry is not None else None
        if enrolled is not None:
            return enrolled
        raise TileError(f"unknown tag {uid.hex()}: it carries no {self.catalogue.title} tile and is "
                        f"not enrolled; {self.catalogue.rewrite_hint()}")

    def tile_words(self, tile: Any) -> str:
        """A tile as its owner reads it (the seat view lists what its station holds)."""
        return self.catalogue.words(tile)

    @abstractmethod
    def acting_seats(self, state: S) -> list[int]:
        """Seats whose stations are being programmed now (confirm means something there)."""

    @abstractmethod
    def read_station(self, state: S, seat: int, tiles: list[Any], slots: list[int]) -> StationReading:
        """``tiles``: per station position, None (empty), a tile, or a TileError; ``slots``:
        their board numbers (problems are keyed by them)."""

    @abstractmethod
    def judge(self, state: S, seat: int, reading: StationReading, slots: list[int],
              settings: dict[str, Any]) -> Verdict:
        """The seat pressed confirm with ``reading`` in its slots (``slots``: their board
        numbers; ``settings``: the seat's choices for this program, see ``controls``)."""

    @abstractmethod
    def check_station(self, state: S, seat: int, reading: StationReading,
                      slots: list[int]) -> tuple[list[int], list[str]]:
        """A station that is not being programmed: slots that differ from the game, and the
        fixes in words."""

    def controls(self, state: S, seat: int, settings: dict[str, Any]) -> list[dict[str, Any]]:
        """Settings a seat may change before confirming (its seat view shows them):
        ``{"name", "label", "value", "choices"}`` each. None by default."""
        return []

    def station_button(self, state: S, seat: int, role: str, settings: dict[str, Any]) -> str | None:
        """previous/next pressed at a programming station: change ``settings`` in place and
        say what changed (None: the button does nothing here)."""
        return None

    # -- virtual hands (selfplay, benchmarks): what people would put in the slots --------
    @abstractmethod
    def station_tiles(self, state: S, seat: int) -> list[Any]:
        """What a station that is not programming holds for the game as it stands (tiles as
        ``identify`` returns them, None for an empty slot), per position."""

    def tile_key(self, tile: Any) -> Any:
        """What tells one tile from another for the game: two tiles of one key are the same
        in a slot (VOLT: a die is its colour, whoever owns it). Their words by default."""
        return self.tile_words(tile)

    def clear_reason(self, state: S, seat: int, before: S | None) -> str:
        """Why the seat's station must change before play goes on, in the rules' words (the
        table then lists what to take off and where): a new game (``before`` None), a new
        round, a deal, tiles that fell off or were destroyed. No ": " in it: the table puts
        one after it."""
        return "a new game starts" if before is None else "the turn is over"

    @abstractmethod
    def random_program(self, state: S, seat: int, rng: Random,
                       settings: dict[str, Any] | None = None) -> list[Any]:
        """The tiles of a random legal program of ``seat``, per position; what the tiles cannot
        say (a VOLT die's face and key) goes into ``settings``, as the seat's phone would set it."""

    def virtual_tag(self, tile: Any, serial: int) -> tuple[bytes, bytes]:
        """(uid, payload) of a simulated tag carrying ``tile``; ``serial`` tells copies apart."""
        return self.catalogue.virtual_tag(tile, serial)

    any_order = False  # the engine takes programs in any order (VOLT: the order of confirming counts)

    def decision(self, state: S) -> Decision | None:
        """The engine's pending decision the table asks as a choice; None while the acting
        stations program (Goblins: placing a tile is read from the yard, not chosen)."""
        return self.engine.pending(state)

    def private_choices(self, decision: Decision) -> bool:
        """The decision's choices tell what only its player may know (VOLT: equipping names the
        inventory): the shared view then shows who decides, not the choices."""
        return False

    def private_refusals(self) -> bool:
        """Refusals name what the slots hold: say them only to the seat (hidden programs)."""
        return self.secret_slots

    # -- the LEDs --------------------------------------------------------------
    # A game whose LED language is one module (picture, frames, robot_cell(state, seat),
    # candidates, and its PALETTE, INDEX and PALETTE_DOC) names it here and the four hooks
    # below and the palette use it; others override them.
    leds: Any = None

    def picture(self, state: S) -> Picture:
        """Every cell's look for ``state``."""
        return self.leds.picture(state)

    def frames(self, before: S, events: list[Event], after: S) -> Frames:
        """One picture per visible event, the last exactly ``picture(after)``."""
        return self.leds.frames(before, events, after)

    def robot_cell(self, state: S, seat: int, pos: int) -> int | None:
        """Where a slot's mark shows (the robot it programs); None if nowhere."""
        return self.leds.robot_cell(state, seat)

    def mark(self, state: S, seat: int, pos: int, name: str, effect: int) -> tuple[int, CellState] | None:
        """A slot's robot drawn in palette ``name`` with ``effect`` (its facing kept)."""
        cell = self.robot_cell(state, seat, pos)
        if cell is None:
            return None
        facing = self.picture(state).get(cell, CellState()).facing
        return cell, CellState(self.palette_index[name], facing, effect)

    def preview(self, state: S, seat: int, reading: StationReading,
                settings: dict[str, Any]) -> Picture:
        """An acting station's change before it is confirmed, drawn over the picture
        (Goblins: the tile being placed, and the squares it joins as it is turned)."""
        return {}

    def score_picture(self, state: S) -> Picture | None:
        """The scores on the LEDs (long press of previous/next); None if the game has none."""
        return None

    def score_words(self, state: S) -> str:
        outcome = self.engine.outcome(state)
        return f"game over: {outcome.reason}" if outcome else "the game goes on"

    def candidates(self, state: S, decision: Decision) -> list[Candidate]:
        """Where each choice of a pending decision shows."""
        return self.leds.candidates(state, decision)

    # -- words and views -------------------------------------------------------
    @abstractmethod
    def turn_words(self, state: S) -> str:
        """What the table must do now, in words."""

    def now_words(self, state: S, seat: int | None) -> str:
        """What the acting seats do next, said to ``seat`` (None: the whole table), in the
        game's words; the session adds who acts and what it waits for."""
        return self.turn_words(state)

    def seat_words(self, state: S, seat: int) -> list[tuple[str, str]]:
        """The seat's own facts as its player says them, as (label, words) rows for its
        phone; the raw ``seat_view`` stays in the console's debug panel. By default every
        plain fact of ``seat_view``, its key spelt out."""
        return [(key.replace("_", " "), _words(value)) for key, value in self.seat_view(state, seat).items()
                if key not in ("hand", "take", "registers")]

    @abstractmethod
    def public_view(self, state: S) -> dict[str, Any]:
        """The shared view: public information only."""

    @abstractmethod
    def seat_view(self, state: S, seat: int) -> dict[str, Any]:
        """What the seat's own player may see (their hand, their program...)."""

    def public_action(self, state: S, text: str) -> str:
        """An action as the whole table may read it (before its effects are shown)."""
        return text

    def public_events(self, events: list[Event]) -> list[str]:
        return [self.engine_words(e.text) for e in events]

    def engine_words(self, text: str) -> str:
        """The engine's words as the table says them (Goblins: p1.. become the seats' colours)."""
        return text


def _words(value: Any) -> str:
    """A value of a view as words: lists joined, records as "key value" pairs."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (list, tuple)):
        return ", ".join(_words(v) for v in value) or "none"
    if isinstance(value, dict):
        return "; ".join(f"{str(k).replace('_', ' ')} {_words(v)}" for k, v in value.items()) or "none"
    return "–" if value is None else str(value)
