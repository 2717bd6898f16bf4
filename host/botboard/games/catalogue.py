"""A game's tile catalogue: every kind of tile, how its tag says which, how people pick one.

    cat = games.catalogue("botwars")
    tile = cat.make({"card": "FWD2:670"})          # from a picker's fields (TileError if none)
    data = cat.payload(tile, serial=1)             # the 16 bytes `botboard tiles write` puts on a tag
    cat.from_payload(data) == tile
    cat.fields()                                   # what the console's virtual-tile picker shows

A tile's tag carries the shared payload (``bbshared.tilepayload``, docs/tiles.md):
the game's ``tile_id`` and four bytes the game gives meaning to (kind, colour,
flags, serial). A catalogue turns its tiles into those bytes and back; the
payload's framing (magic, version, CRC) and telling one game's tags from
another's are done here once. Tiles are described by *specs*: a small mapping of
the picker's field names to values (``{"kind": "F1", "colour": "red"}``), which is
also how the enrolment registry stores a tag that carries no payload.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any, Generic, Iterable, Mapping, NamedTuple, TypeVar

from bbshared import tilepayload

T = TypeVar("T")


class TileError(ValueError):
    """A tag or spec that is not a usable tile of this game; the message says why and what to do."""


class TagBytes(NamedTuple):
    """The four payload bytes a game gives meaning to (docs/tiles.md)."""

    kind: int
    colour: int
    serial: int  # u32
    flags: int = 0


@dataclass(frozen=True)
class Choice:
    value: str  # what the spec carries
    label: str  # what the picker shows


@dataclass(frozen=True)
class PickerField:
    """One input of the virtual-tile picker (and one key of a tile spec)."""

    name: str
    label: str
    choices: tuple[Choice, ...]
    default: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "label": self.label, "default": self.default or self.choices[0].value,
                "choices": [{"value": c.value, "label": c.label} for c in self.choices]}


def choices(values: Iterable[str], labels: Iterable[str] | None = None) -> tuple[Choice, ...]:
    values = list(values)
    return tuple(Choice(v, label) for v, label in zip(values, labels if labels is not None else values))


class TileCatalogue(ABC, Generic[T]):
    """The tiles of one game. Subclasses fill in the hooks; tiles are the game's own values."""

    tile_id: int = 0  # the game's payload id, set by the registry from the declaration
    title: str = ""  # the game's title, set likewise (for messages)

    # -- the hooks -------------------------------------------------------------------
    @abstractmethod
    def fields(self) -> list[PickerField]:
        """The picker's inputs; a spec maps each field's name to one of its choices' values."""

    @abstractmethod
    def make(self, spec: Mapping[str, Any]) -> T:
        """The tile a spec describes; TileError naming the field that is wrong."""

    @abstractmethod
    def spec(self, tile: T) -> dict[str, str]:
        """The inverse of ``make``."""

    @abstractmethod
    def to_bytes(self, tile: T, serial: int) -> TagBytes:
        """The payload bytes of ``tile`` (``serial`` tells copies apart where the game allows)."""

    @abstractmethod
    def from_bytes(self, tag: TagBytes) -> T:
        """The tile a payload's bytes name; TileError saying what is wrong and what to do."""

    @abstractmethod
    def every_tile(self) -> Iterable[T]:
        """One of each tile the game has (the conformance suite round-trips them)."""

    def words(self, tile: T) -> str:
        """A tile as players name it."""
        return str(tile)

    def explain(self, tile: T) -> str:
        """One or two sentences on what the tile does, for a player laying it the first time."""
        return ""

    # -- derived ---------------------------------------------------------------------
    def payload(self, tile: T, serial: int = 1) -> bytes:
        tag = self.to_bytes(tile, serial)
        return bytes(tilepayload.encode(self.tile_id, tag.kind, tag.colour, tag.serial, tag.flags))

    def from_payload(self, data: bytes) -> T:
        """The tile a tag's payload names; TileError in words otherwise."""
        status = tilepayload.check(data) if data else tilepayload.BLANK
        if status != tilepayload.OK:
            raise TileError(f"{_STATUS_WORDS[status]}: {self.rewrite_hint()}")
        if data[2] != self.tile_id:
            from . import registry

            other = registry.title_of_tile_id(data[2])
            raise TileError(f"this tag is a tile of {other}, not of {self.title}: take it out")
        serial = (data[6] << 24) | (data[7] << 16) | (data[8] << 8) | data[9]
        return self.from_bytes(TagBytes(data[3], data[4], serial, data[5]))

    def virtual_uid(self, tile: T, serial: int) -> bytes:
        """A stable 7-byte NTAG-like uid for the simulated tag of ``tile`` (selfplay, the picker):
        the payload's own bytes, so two different tiles never share one."""
        tag = self.to_bytes(tile, serial)
        return bytes((0x04, self.tile_id, tag.kind & 0xFF, tag.colour & 0xFF, tag.flags & 0xFF,
                      (tag.serial >> 8) & 0xFF, tag.serial & 0xFF))

    def virtual_tag(self, tile: T, serial: int) -> tuple[bytes, bytes]:
        return self.virtual_uid(tile, serial), self.payload(tile, serial)

    def rewrite_hint(self) -> str:
        """How to make a tag this game reads, as a command with an example tile."""
        example = " ".join(f"{f.name}={f.default or f.choices[0].value}" for f in self.fields())
        return f"write it with `botboard tiles write --game {self.name_for_cli()} {example}` (or enroll it)"

    def name_for_cli(self) -> str:
        from . import registry

        return registry.name_of_tile_id(self.tile_id) or "GAME"

    def field_value(self, spec: Mapping[str, Any], name: str) -> str:
        """The spec's value for field ``name``, checked against its choices (TileError otherwise)."""
        field = next(f for f in self.fields() if f.name == name)
        value = spec.get(name, field.default)
        allowed = [c.value for c in field.choices]
        if value is None or str(value) not in allowed:
            shown = ", ".join(allowed[:12]) + (" ..." if len(allowed) > 12 else "")
            raise TileError(f"{field.label} {value!r}: one of {shown}")
        return str(value)


_STATUS_WORDS = {tilepayload.BLANK: "the tag carries no tile payload",
                 tilepayload.BAD_CRC: "the tag's tile payload is damaged (its CRC does not match)",
                 tilepayload.BAD_VERSION: "the tag's tile payload is of a newer format"}
