"""BotWars program cards as tiles: the tag payload, its refusals, and writing one."""

from __future__ import annotations

import asyncio
import json
import subprocess
from typing import Any

import pytest

from bbshared import tilepayload
from botboard.games.botwars.cards import deck
from botboard.games.botwars.table import tiles
from botboard.session.mapping import TileError

from ..simboard import BOTBOARD, SimProcess

ALL_CARDS = deck().base + deck().upgrade


def test_every_card_of_the_deck_round_trips_through_its_tag() -> None:
    kinds = list(deck().kinds)
    for card in ALL_CARDS:
        data = tiles.card_payload(card)
        assert tilepayload.decode(data) == (2, kinds.index(deck().kind_of[card]), 255, card)
        assert tiles.card_from_payload(data) == card
    assert tiles.card_payload(670)[3] == kinds.index("FWD2") == 1


def test_virtual_uids_are_stable_ntag_like_and_one_per_card() -> None:
    uids = [tiles.virtual_uid(card) for card in ALL_CARDS]
    assert all(len(uid) == 7 and uid[0] == 0x04 for uid in uids)
    assert len(set(uids)) == len(ALL_CARDS)
    assert tiles.virtual_uid(670) == tiles.virtual_uid(670)
    assert tiles.virtual_uid(670)[1] == tiles.GAME_ID == 2  # Twin Tin Bots' virtual uids carry 1 here


def _refusal(data: bytes) -> str:
    with pytest.raises(TileError) as err:
        tiles.card_from_payload(data)
    return str(err.value)


def test_a_tag_of_another_game_is_refused_by_name() -> None:
    words = _refusal(tilepayload.encode(1, 2, 0, 1))
    assert "a tile of Twin Tin Bots, not of BotWars" in words and "take it out" in words
    assert "game 9" in _refusal(tilepayload.encode(9, 0, 255, 670))


def test_an_unknown_kind_a_mismatch_and_an_unknown_card_say_to_rewrite_the_tag() -> None:
    kinds = list(deck().kinds)
    unknown = _refusal(tilepayload.encode(2, len(kinds), 255, 670))
    assert f"card kind {len(kinds)} is not a BotWars card kind" in unknown
    mismatch = _refusal(tilepayload.encode(2, kinds.index("FWD1"), 255, 670))
    assert "the tag says FWD1 but card 670 is FWD2:670" in mismatch
    missing = _refusal(tilepayload.encode(2, 0, 255, 671))
    assert "card 671, which is not in the BotWars deck" in missing
    for words in (unknown, mismatch, missing):
        assert "botboard tiles write --game botwars card=" in words


def test_a_corrupt_or_blank_tag_is_refused() -> None:
    bad = bytearray(tiles.card_payload(670))
    bad[9] ^= 0x01  # the serial changed after the CRC was computed
    assert "damaged (its CRC does not match)" in _refusal(bytes(bad))
    assert "carries no tile payload" in _refusal(bytes(16))
    newer = bytearray(tiles.card_payload(670))
    newer[1] = 2
    crc = tilepayload.crc_a(newer, 14)
    newer[14], newer[15] = crc & 0xFF, crc >> 8
    assert "newer format" in _refusal(bytes(newer))


def test_cards_are_named_as_the_engine_writes_them() -> None:
    assert tiles.parse_card("FWD2:670") == tiles.parse_card("670") == 670
    with pytest.raises(TileError, match="card 670 is FWD2, not FWD1"):
        tiles.parse_card("FWD1:670")
    with pytest.raises(TileError, match="no card with priority 671"):
        tiles.parse_card("671")
    with pytest.raises(TileError, match="no card with priority 7"):
        tiles.card_payload(7)


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([BOTBOARD, *args], capture_output=True, text=True, timeout=60)


def test_tiles_kinds_all_names_every_card_with_its_payload() -> None:
    done = _run("tiles", "kinds", "--game", "botwars", "--all")
    assert done.returncode == 0, done.stderr
    listed = json.loads(done.stdout)
    assert len(listed) == len(ALL_CARDS)
    assert tiles.card_from_payload(bytes.fromhex(listed["FWD2:670"])) == 670


def test_tiles_write_puts_a_card_on_the_tag_through_the_board() -> None:
    sim = SimProcess()
    try:
        sim.control("place", slot=3, uid="04aabbccddee02")  # a blank tag on the reader
        done = _run("tiles", "write", "--port", sim.port, "--game", "botwars", "card=FWD2:670",
                    "--slot", "3")
        assert done.returncode == 0, done.stderr
        result = json.loads(done.stdout)
        assert result["tile"] == "FWD2:670" and result["uid"] == "04aabbccddee02"
        assert tiles.card_from_payload(bytes.fromhex(result["payload"])) == 670
        assert sim.control("tag", slot=3)["payload"] == result["payload"]  # the tag holds it
        wrong = _run("tiles", "write", "--port", sim.port, "--game", "botwars", "card=FWD1:670",
                     "--slot", "3")
        assert wrong.returncode == 2 and "card 670 is FWD2, not FWD1" in wrong.stderr
        other = _run("tiles", "write", "--port", sim.port, "--game", "ttb", "card=FWD2:670")
        assert other.returncode == 2 and "is not a tile kind" in other.stderr
        none = _run("tiles", "write", "--port", sim.port, "--game", "botwars", "FWD2:670")
        assert none.returncode == 2 and "FIELD=VALUE" in none.stderr
    finally:
        sim.stop()


def test_the_simulated_board_places_a_card_by_name() -> None:
    import httpx
    from starlette.applications import Starlette

    from botboard.console.api_board import routes

    placed: list[tuple[int, bytes, bytes | None]] = []

    class Tools:
        async def place_tag(self, slot: int, uid: bytes, payload: bytes | None) -> dict[str, Any]:
            placed.append((slot, uid, payload))
            return {"slot": slot}

    class Daemon:
        tools = Tools()
        game_name = "botwars"

    app = Starlette(routes=routes(Daemon()))  # type: ignore[arg-type]

    async def post(body: dict[str, Any]) -> httpx.Response:
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://console") as c:
            return await c.post("/api/sim/place", json=body)

    assert asyncio.run(post({"slot": 4, "tile": {"card": "FWD2:670"}})).status_code == 200
    assert [(slot, payload) for slot, _, payload in placed] == [(4, tiles.card_payload(670))]
    refused = asyncio.run(post({"slot": 4, "tile": {"card": "FWD9:670"}}))
    assert refused.status_code == 400 and "FWD9" in refused.json()["error"]
