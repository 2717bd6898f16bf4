"""Every tile of every game's catalogue: its tag payload, its picker fields and its words round-trip,
and a tag of another game is refused by name."""

from __future__ import annotations

import pytest
from bbshared import tilepayload

from botboard import games
from botboard.games.catalogue import TileError


@pytest.mark.parametrize("name", games.names())
def test_every_tile_round_trips_through_its_payload_and_its_spec(name: str) -> None:
    catalogue = games.catalogue(name)
    tiles = list(catalogue.every_tile())
    assert tiles, f"{name}: the catalogue has no tile"
    payloads = set()
    for tile in tiles:
        data = catalogue.payload(tile, 1)
        assert len(data) == tilepayload.LENGTH and data[2] == games.declaration(name).tile_id
        assert tilepayload.check(data) == tilepayload.OK
        assert catalogue.from_payload(data) == tile
        assert catalogue.make(catalogue.spec(tile)) == tile
        assert catalogue.words(tile).strip()
        payloads.add(data)
    assert len(payloads) == len(tiles), "two tiles share one payload"
    uids = {catalogue.virtual_uid(tile, 1) for tile in tiles}
    assert len(uids) == len(tiles) and all(len(u) == 7 for u in uids)


@pytest.mark.parametrize("name", games.names())
def test_the_picker_fields_make_tiles_and_a_wrong_value_is_named(name: str) -> None:
    catalogue = games.catalogue(name)
    fields = catalogue.fields()
    assert fields and all(f.choices for f in fields)
    defaults = {f.name: f.to_json()["default"] for f in fields}
    made = [catalogue.make(defaults)]
    for field in fields:  # every choice of every field, the others at their defaults
        for choice in field.choices:
            try:
                made.append(catalogue.make({**defaults, field.name: choice.value}))
            except TileError as err:  # a combination the game has no tile for: said in words
                assert str(err)
    assert made
    with pytest.raises(TileError) as err:
        catalogue.make({**defaults, fields[0].name: "no such value ###"})
    assert "###" in str(err.value) or fields[0].label in str(err.value)


@pytest.mark.parametrize("name", games.names())
def test_a_tag_of_another_game_or_a_damaged_one_is_refused_in_words(name: str) -> None:
    catalogue = games.catalogue(name)
    others = [n for n in games.names() if n != name]
    tile = next(iter(catalogue.every_tile()))
    for other in others:
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
