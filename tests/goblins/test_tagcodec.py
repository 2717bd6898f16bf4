"""A construction tile's NFC payload carries its definition; reading every tag back rebuilds the box."""

from __future__ import annotations

import pytest
from bbshared import tilepayload
from botboard.games.goblins import tagcodec
from botboard.games.goblins.tiles import TileDef, box_from_json, load_box


def test_every_placeholder_tile_round_trips() -> None:
    box = load_box("placeholder")
    for tile in box.tiles.values():
        payload = tagcodec.encode(tile)
        assert len(payload) == 16 and tilepayload.check(payload) == tilepayload.OK
        assert tagcodec.decode(payload) == tile


def test_byte_layout_of_a_premium_weapon() -> None:
    # metal on S only, two arrows on the N edge
    tile = TileDef(31, "weapon", True, (False, False, True, False), arrows=(2, 0, 0, 0))
    payload = tagcodec.encode(tile)
    assert payload[2] == 3  # Goblins, Inc.
    assert payload[3] == 0b0100_0100  # metal S (bit 6), premium (bit 2), type weapon (0)
    assert payload[5] == 0b0000_0010  # 2 arrows on N
    assert payload[6:10] == bytes([0, 0, 0, 31])  # the serial is the tile id
    assert payload[10:14] == bytes(4)  # the reserved bytes stay free


def test_armor_plates_and_engines_use_the_flags_byte() -> None:
    armor = TileDef(40, "armor", True, (True, True, False, False), plates=(1, 1, 0, 0))
    engine = TileDef(49, "engine", True, (True, True, False, False), engines=2)
    assert tagcodec.tile_bytes(armor) == (0b0011_0101, 0b0000_0101)
    assert tagcodec.tile_bytes(engine) == (0b0011_0110, 2)
    assert tagcodec.decode(tagcodec.encode(engine)).engines == 2


def test_other_games_and_damaged_tags_are_refused() -> None:
    tile = load_box("placeholder").tiles[1]
    with pytest.raises(tagcodec.TagError, match="belongs to BotWars, not Goblins"):
        tagcodec.decode(tilepayload.encode(2, 0, 0, 1))
    damaged = bytearray(tagcodec.encode(tile))
    damaged[5] ^= 1
    with pytest.raises(tagcodec.TagError, match="CRC"):
        tagcodec.decode(bytes(damaged))
    with pytest.raises(tagcodec.TagError, match="no tile payload"):
        tagcodec.decode(bytes(16))


def test_a_tag_that_breaks_the_tile_rules_is_refused() -> None:
    # a decoration (type 3) without metal all round
    payload = tilepayload.encode(3, 0b0001_0011, 0, 5, 0)
    with pytest.raises(tagcodec.TagError, match="decoration"):
        tagcodec.decode(payload)


def test_reading_every_tag_defines_the_box() -> None:
    box = load_box("placeholder")
    payloads = [tagcodec.encode(t) for t in reversed(list(box.tiles.values()))]
    tiles = tagcodec.box_tiles(payloads)
    assert [t["id"] for t in tiles] == sorted(box.tiles)
    doc = {"format": "goblins-box/1", "name": "from tags", "defense_tokens": 16,
           "yard_numbers": {s: [1, 2, 3, 4, 5] for s in "NESW"},
           "blueprints": [{"name": "b", "blocked": ["r1c1", "r1c5", "r5c1", "r5c5"]}],
           "tactics": [{"id": i, "abilities": ["nitro"]} for i in range(1, 13)], "tiles": tiles}
    assert dict(box_from_json(doc).tiles) == dict(box.tiles)


def test_two_different_tiles_with_one_id_are_reported() -> None:
    a = TileDef(7, "decoration", False, (True, True, True, True))
    b = TileDef(7, "decoration", True, (True, True, True, True))
    with pytest.raises(tagcodec.TagError, match="id 7"):
        tagcodec.box_tiles([tagcodec.encode(a), tagcodec.encode(b)])
