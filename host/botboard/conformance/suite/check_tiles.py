"""Every tile of the game's catalogue: its tag payload, its picker fields and its words round-trip,
and a tag of another game or a damaged one is refused in words."""

from __future__ import annotations

import pytest
from bbshared import tilepayload

from botboard import games
from botboard.games.catalogue import TileError


def test_every_tile_round_trips_through_its_payload_and_its_spec(botboard_game: str) -> None:
    name = botboard_game
    catalogue, tile_id = games.catalogue(name), games.declaration(name).tile_id
    tiles = list(catalogue.every_tile())
    assert tiles, f"{name}: the catalogue's every_tile gives no tile"
    payloads = set()
    for tile in tiles:
        data = catalogue.payload(tile, 1)
        assert len(data) == tilepayload.LENGTH and data[2] == tile_id, \
            f"{name}: tile {tile!r}'s payload does not carry the game's tile id {tile_id} in byte 2"
        assert tilepayload.check(data) == tilepayload.OK, f"{name}: tile {tile!r}'s payload fails its own check"
        assert catalogue.from_payload(data) == tile, \
            f"{name}: tile {tile!r} reads back as {catalogue.from_payload(data)!r}: look at to_bytes/from_bytes"
        assert catalogue.make(catalogue.spec(tile)) == tile, \
            f"{name}: make(spec(tile)) is not tile {tile!r}: look at the catalogue's make and spec"
        assert catalogue.words(tile).strip(), f"{name}: tile {tile!r} has no words"
        payloads.add(data)
    assert len(payloads) == len(tiles), f"{name}: two tiles share one payload: look at to_bytes"
    uids = {catalogue.virtual_uid(tile, 1) for tile in tiles}
    assert len(uids) == len(tiles) and all(len(u) == 7 for u in uids)


def test_the_picker_fields_make_tiles_and_a_wrong_value_is_named(botboard_game: str) -> None:
    catalogue = games.catalogue(botboard_game)
    fields = catalogue.fields()
    assert fields and all(f.choices for f in fields), f"{botboard_game}: the catalogue's picker fields need choices"
    defaults = {f.name: f.to_json()["default"] for f in fields}
    made = [catalogue.make(defaults)]
    for field in fields:  # every choice of every field, the others at their defaults
        for choice in field.choices:
            try:
                made.append(catalogue.make({**defaults, field.name: choice.value}))
            except TileError as refused:  # a combination the game has no tile for: said in words
                assert str(refused)
    assert made
    with pytest.raises(TileError) as err:
        catalogue.make({**defaults, fields[0].name: "no such value ###"})
    assert "###" in str(err.value) or fields[0].label in str(err.value)


def test_a_tag_of_another_game_or_a_damaged_one_is_refused_in_words(botboard_game: str) -> None:
    name = botboard_game
    catalogue = games.catalogue(name)
    tile = next(iter(catalogue.every_tile()))
    for other in [n for n in games.names() if n != name]:
        foreign = games.catalogue(other).payload(next(iter(games.catalogue(other).every_tile())), 1)
        with pytest.raises(TileError, match="take it out") as err:
            catalogue.from_payload(foreign)
        assert games.declaration(other).title in str(err.value)
    damaged = bytearray(catalogue.payload(tile, 1))
    damaged[6] ^= 0x5A
    with pytest.raises(TileError, match="damaged"):
        catalogue.from_payload(bytes(damaged))
    with pytest.raises(TileError, match="no tile payload"):
        catalogue.from_payload(b"")
