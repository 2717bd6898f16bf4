"""A seat's view is private where the seat is played, and its phone there sees its own slots.

Two daemons with their simulated boards and consoles (with a token) through a real
mosquitto: table a hosts BotWars and plays red (seat 0), table b plays blue (seat 1).

- b's phones show blue's slots as the host read them, after every tile laid at b's board
  (the host used to send seat views on game events only: blue's phone stayed [null x 5]).
- At the host, every way of asking for blue's view (the page, the API, the websocket; with
  blue's seat key, the console's token, both or neither) answers 403; /api/seats and the
  Seats panel (Debian's chromium) offer red only. At b, the same holds for red.
"""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets

from botboard.console.seats import SeatKeys
from botboard.remote.local_broker import Broker
from botboard.session.selfplay import random_program

from .. import patience
from .two_tables import two_tables, until

pytestmark = pytest.mark.timeout(600)
TOKEN = "remote-seat-token"
KEY = SeatKeys(TOKEN)  # both daemons derive their seat keys from the same token here
CHROMIUM = Path("/usr/bin/chromium")


def _base(daemon: Any) -> str:
    return f"http://127.0.0.1:{daemon.config.console_port}"


async def _seat_frames(url: str, frames: list[dict[str, Any]], stop: asyncio.Event) -> None:
    async with websockets.connect(url) as ws:
        while not stop.is_set():
            try:
                frames.append(json.loads(await asyncio.wait_for(ws.recv(), patience.scaled(0.5))))
            except asyncio.TimeoutError:
                pass


def test_the_joined_tables_phone_shows_each_tile_as_the_host_read_it(broker: Broker, tmp_path: Path) -> None:
    async def play() -> None:
        async with two_tables(broker, tmp_path, "botwars", 2, (0,), (1,), {"max_turns": 1},
                              token=TOKEN) as tables:
            host, joined = tables.host.session, tables.joined
            assert host.seating is not None and joined.sim_control is not None
            program = [t for t in random_program(host, 1, random.Random(3)) if t is not None]
            slots = host.seating.slots_of(1)
            frames: list[dict[str, Any]] = []
            stop = asyncio.Event()
            phone = asyncio.create_task(_seat_frames(
                f"ws://127.0.0.1:{joined.config.console_port}/ws/seat/1?key={KEY.key(1)}", frames, stop))
            try:
                await until(lambda: frames, 20, "blue's phone at table b")
                for laid, (slot, tile) in enumerate(zip(slots, program), start=1):
                    await joined.sim_control.place(slot, *host.mapping.virtual_tag(tile, 1))
                    await until(lambda: sum(w is not None for w in host.seat_view(1)["station"]) == laid, 20,
                                f"the host to read tile {laid}")
                    read = host.seat_view(1)["station"]
                    await until(lambda: joined.session.seat_view(1)["station"] == read, 20,
                                f"b's view of blue to show tile {laid} as the host read it")
                    await until(lambda: frames[-1].get("view") and frames[-1]["view"]["station"] == read, 20,
                                f"blue's phone to show tile {laid}")
            finally:
                stop.set()
                await asyncio.gather(phone, return_exceptions=True)
            assert len(program) >= 2  # more than one change was shown

    asyncio.run(play())


async def _status(client: httpx.AsyncClient, method: str, url: str, how: str) -> tuple[int, str]:
    headers = {"authorization": f"Bearer {TOKEN}"} if how in ("token", "both") else {}
    params = {"key": KEY.key(1)} if how in ("key", "both") else {}
    response = await client.request(method, url, headers=headers, params=params,
                                    json={"role": "confirm"} if method == "POST" else None)
    return response.status_code, response.text


async def _websocket_status(url: str) -> int:
    try:
        async with websockets.connect(url):
            return 101
    except websockets.InvalidStatus as refused:
        return refused.response.status_code


async def _seats_panel(console_url: str) -> list[str]:
    from playwright.async_api import async_playwright, expect

    from ..console.conftest import CHROMIUM_ARGS

    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
        try:
            page = await browser.new_page()
            await page.goto(console_url)
            await page.locator("#seats-box summary").click()
            links = page.locator("#seats .seat-link a")
            await expect(links.first).to_be_visible(timeout=patience.ms(20))
            return [await a.get_attribute("href") or "" for a in await links.all()]
        finally:
            await browser.close()


def test_a_seat_played_at_another_table_is_refused_every_way_at_this_one(broker: Broker, tmp_path: Path) -> None:
    if not CHROMIUM.exists():
        pytest.fail("Debian's chromium is missing: run bash .ci/setup --test")

    async def play() -> None:
        async with two_tables(broker, tmp_path, "botwars", 2, (0,), (1,), {"max_turns": 1},
                              token=TOKEN) as tables:
            host = _base(tables.host)
            async with httpx.AsyncClient(timeout=patience.scaled(10)) as client:
                for method, path in (("GET", "/seat/1"), ("GET", "/api/seat/1"), ("POST", "/api/seat/1/press"),
                                     ("POST", "/api/seat/1/hint")):
                    for how in ("none", "token", "key", "both"):
                        status, text = await _status(client, method, host + path, how)
                        assert status == 403 and "plays at another table" in text, (path, how, status, text)
                # red plays here: its key opens it (the gate refuses blue, not every seat)
                red = await client.get(f"{host}/api/seat/0", params={"key": KEY.key(0)})
                assert red.status_code == 200 and red.json()["view"]["seat"] == 0
                listed = await client.get(f"{host}/api/seats", headers={"authorization": f"Bearer {TOKEN}"})
                assert [s["seat"] for s in listed.json()["seats"]] == [0]
                assert KEY.key(1) not in listed.text
                # at table b it is the other way round: red is the host's
                joined = _base(tables.joined)
                status, _ = await _status(client, "GET", joined + "/api/seat/0", "both")
                assert status == 403
                blue = await client.get(f"{joined}/api/seat/1", params={"key": KEY.key(1)})
                assert blue.status_code == 200
            ws = host.replace("http", "ws")
            for query in ("", f"?key={KEY.key(1)}", f"?token={TOKEN}", f"?key={KEY.key(1)}&token={TOKEN}"):
                assert await _websocket_status(f"{ws}/ws/seat/1{query}") == 403, query
            assert await _websocket_status(f"{ws}/ws/seat/0?key={KEY.key(0)}") == 101
            hrefs = await _seats_panel(f"{host}/?token={TOKEN}")
            assert len(hrefs) == 1 and "/seat/0?" in hrefs[0]

    asyncio.run(play())
