"""Program cards as tiles: a card's tag names the exact card.

    data = card_payload(670)        # the 16 bytes `botboard tiles write --game botwars card=FWD2:670` writes
    card_from_payload(data) == 670  # or TileError saying what is wrong and what to do
    virtual_uid(670)                # the stable uid of the simulated tag of that card

A BotWars card tag carries, in the shared payload format
(``bbshared.tilepayload``, docs/tiles.md), game id 2, the card's kind as its
position in ``deck().kinds`` (FWD1 = 0, FWD2 = 1...), colour 255 (cards belong
to nobody: the host deals them) and, as the serial, the card's priority.
Priorities are unique in the deck, so the tag names one card: the host can
tell a dealt card from a card of another hand. The kind is written too so
that a tag whose kind and priority disagree (a misprint, a tag moved to
another card) is refused rather than read as whatever the number says.
"""

from __future__ import annotations

from typing import Any, Iterator, Mapping


from ...base import InvalidNotation
from ...catalogue import PickerField, TagBytes, TileCatalogue, TileError, choices
from ..cards import deck
from ..declaration import GAME as DECLARED

GAME_ID = DECLARED.tile_id
NOBODY = 255  # colour byte: a card is nobody's until dealt
_REWRITE = "write it again with `botboard tiles write --game botwars card=KIND:PRIORITY`"


def kind_names() -> list[str]:
    """Card kinds in payload order: the kind byte is the index here."""
    return list(deck().kinds)


def parse_card(text: str) -> int:
    """``FWD2:670`` or ``670`` -> 670; TileError naming the problem."""
    try:
        return deck().parse(text)
    except InvalidNotation as err:
        raise TileError(f"{err}; cards are KIND:PRIORITY, e.g. FWD2:670 "
                        f"(kinds: {', '.join(kind_names())})") from err


def card_fields(card: int) -> tuple[int, int, int, int]:
    """(game, kind, colour, serial) of a card's tag."""
    cards = deck()
    if card not in cards.kind_of:
        raise TileError(f"no card with priority {card} in the BotWars deck")
    return GAME_ID, kind_names().index(cards.kind_of[card]), NOBODY, card


def card_payload(card: int) -> bytes:
    """The 16 payload bytes of the card with priority ``card``."""
    return CATALOGUE.payload(card)  # the catalogue frames the card's bytes, as for every game


def card_from_payload(data: bytes) -> int:
    """The card (its priority) a tag names; TileError with what is wrong and what to do."""
    return CATALOGUE.from_payload(data)


class BotWarsCards(TileCatalogue[int]):
    """Program cards, each its own tile: a card is its priority."""

    tile_id, title = GAME_ID, DECLARED.title

    def fields(self) -> list[PickerField]:
        cards = deck()
        every = [cards.name(c) for c in (*cards.base, *cards.upgrade)]
        return [PickerField("card", "card", choices(every))]

    def make(self, spec: Mapping[str, Any]) -> int:
        return parse_card(str(spec.get("card", "")))

    def spec(self, tile: int) -> dict[str, str]:
        return {"card": deck().name(tile)}

    def to_bytes(self, tile: int, serial: int) -> TagBytes:
        _, kind, colour, priority = card_fields(tile)
        return TagBytes(kind, colour, priority)  # the priority is the serial: one tag, one card

    def from_bytes(self, tag: TagBytes) -> int:
        kinds, cards = kind_names(), deck()
        if tag.kind >= len(kinds):
            raise TileError(f"card kind {tag.kind} is not a BotWars card kind (0..{len(kinds) - 1}): "
                            f"{_REWRITE}")
        if tag.serial not in cards.kind_of:
            raise TileError(f"the tag names card {tag.serial}, which is not in the BotWars deck: {_REWRITE}")
        if cards.kind_of[tag.serial] != kinds[tag.kind]:
            raise TileError(f"the tag says {kinds[tag.kind]} but card {tag.serial} is "
                            f"{cards.name(tag.serial)}: {_REWRITE}")
        return int(tag.serial)

    def every_tile(self) -> Iterator[int]:
        cards = deck()
        return iter((*cards.base, *cards.upgrade))

    def words(self, tile: int) -> str:
        return deck().name(tile)

    def explain(self, tile: int) -> str:
        kind = deck().name(tile).split(":")[0]
        return (_MOVES.get(kind, "") + " The number after the colon is the card's priority: in each "
                "register, the robot with the higher number moves first.") if kind in _MOVES else ""

    def rewrite_hint(self) -> str:
        return _REWRITE


_MOVES = {  # what each kind of card makes the robot do, said the way players say it
    "FWD1": "Your robot drives one square ahead, shoving any robot in the way.",
    "FWD2": "Your robot drives two squares ahead, shoving any robot in the way.",
    "FWD3": "Your robot drives three squares ahead, shoving any robot in the way.",
    "RVS1": "Your robot backs up one square without turning round.",
    "RVS2": "Your robot backs up two squares without turning round.",
    "RVS3": "Your robot backs up three squares without turning round.",
    "LF90": "Your robot turns a quarter to its left where it stands.",
    "RT90": "Your robot turns a quarter to its right where it stands.",
    "UTRN": "Your robot turns right round where it stands.",
    "IDLE": "Your robot waits this register out and does not move.",
    "SLF1": "Your robot slides one square to its left, still facing the same way.",
    "SRT1": "Your robot slides one square to its right, still facing the same way.",
}

CATALOGUE = BotWarsCards()


def virtual_uid(card: int) -> bytes:
    """A stable 7-byte NTAG-like uid for the simulated tag of a card (selfplay, tests)."""
    _, kind, colour, serial = card_fields(card)
    return bytes((0x04, GAME_ID, colour, kind, (serial >> 8) & 0xFF, serial & 0xFF, 0x80))
