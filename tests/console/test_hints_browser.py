"""A hint on a seat's phone, in Chromium, for every table game: the asking seat's page shows it,
the board's frames light its robots in its colour, and neither the other seat nor the shared
console receives anything of it (HTTP or websocket)."""

from __future__ import annotations

import re
from typing import Any, Iterator

import pytest
from playwright.sync_api import expect

from botboard import games
from botboard.console.seats import SeatKeys

from ..simboard import wait_for
from .conftest import TOKEN, LiveDaemon, running
from ..patience import ms


@pytest.fixture(scope="module", params=games.table_names())
def table(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveDaemon]:
    yield from running(tmp_path_factory, request.param)


def _listen(page: Any, heard: list[str]) -> None:
    """Every websocket frame the page receives, as text."""
    page.on("websocket", lambda ws: ws.on("framereceived", lambda frame: heard.append(str(frame))))


def test_a_hint_shows_on_the_asking_phone_and_board_only(table: LiveDaemon, browser: Any) -> None:
    game = table.daemon.game_name
    table.post("/api/game/speed", {"speed": 0})
    table.post("/api/game/new", {"players": 2, "seed": 4,
                                 "options": dict(games.declaration(game).quick_options)})
    session = table.daemon.session
    table.call(lambda: setattr(session.hints, "budget_s", 0.3))
    wait_for(lambda: table.get("/api/game")["view"]["phase"] in ("program", "decide"), 20, "the game to wait")
    seat = table.call(lambda: session.mapping.decision(session.state).player if session.mode == "decide"
                      else session.acting()[0])
    other = 1 - seat
    before = table.get("/api/cells")["cells"]
    heard_other: list[str] = []
    heard_console: list[str] = []
    pages = []
    for who, heard in ((other, heard_other), (None, heard_console)):
        page = browser.new_page()
        _listen(page, heard)
        page.goto(f"{table.base}/seat/{who}?key={SeatKeys(TOKEN).key(who)}" if who is not None else table.url)
        pages.append(page)
    phone = browser.new_page()
    phone.set_viewport_size({"width": 390, "height": 800})
    phone.goto(f"{table.base}/seat/{seat}?key={SeatKeys(TOKEN).key(seat)}")
    expect(phone.locator("#hint-box")).to_be_visible()
    phone.locator("#hint-button").click()
    expect(phone.locator("#hint")).to_have_text(re.compile(r"^(put|choose|play) "), timeout=ms(30))
    hint = table.request("GET", f"/api/seat/{seat}", token=SeatKeys(TOKEN).key(seat))[1]["hint"]
    words = hint["words"]
    if hint["places"]:
        expect(phone.locator("#hint-places li")).to_have_count(len(hint["places"]))
        marks = table.call(lambda: session.hints.marks())
        assert marks, "a program's hint lights the robots it programs"
        if marks:  # the board's own frames show the hint's robots in the seat's colour
            colours = {c.palette for c in marks.values()}
            wait_for(lambda: any(c[0] in colours and c != b for c, b in
                                 zip(table.get("/api/cells")["cells"], before)), 10, "the hint on the board")
    phone.locator("#hint-button").click()  # again, the same move: an answer in words
    journaled = lambda: table.call(lambda: session.journal.hints(session.game_id))  # noqa: E731
    wait_for(lambda: len(journaled()) == 2, 30, "the second hint")
    assert words not in str(table.get("/api/game"))  # the shared view never carries it
    assert table.request("GET", f"/api/seat/{other}", token=SeatKeys(TOKEN).key(other))[1]["hint"] is None
    for page in pages:
        assert words not in page.content()
        page.close()
    phone.close()
    assert not any(words in frame for frame in heard_other + heard_console)
    assert [h["seat"] for h in journaled()] == [seat, seat]  # hints, never moves


def test_the_first_tile_of_a_kind_is_explained_on_its_phone_only(table: LiveDaemon, browser: Any) -> None:
    import random

    table.post("/api/game/speed", {"speed": 0})
    table.post("/api/game/new", {"players": 2, "seed": 5,
                                 "options": dict(games.declaration(table.daemon.game_name).quick_options)})
    session = table.daemon.session

    def programming() -> bool:  # decisions first (Goblins: which tiles to keep) are taken as they come
        if session.mode == "decide" and session.picker is not None:
            session.decide(session.picker.decision.choices[0])
        return session.mode == "program" and bool(session.acting())

    wait_for(lambda: table.call(programming), 20, "a seat to program")
    seat = table.call(lambda: session.acting()[0])
    tiles = table.call(lambda: session.mapping.random_program(session.state, seat, random.Random(1), {}))
    pos, tile = next((p, t) for p, t in enumerate(tiles) if t is not None)
    text = session.mapping.catalogue.explain(tile)
    phone = browser.new_page()
    phone.goto(f"{table.base}/seat/{seat}?key={SeatKeys(TOKEN).key(seat)}")
    expect(phone.locator("#explain-box")).to_be_visible()
    slot = table.call(lambda: session.seating.physical(seat, pos))
    table.post("/api/sim/place", {"slot": slot, "tile": session.mapping.catalogue.spec(tile)})
    expect(phone.locator("#explain")).to_contain_text(text, timeout=ms(15))
    assert text not in str(table.get("/api/game"))
    phone.locator("#explain-on").uncheck()  # this phone wants no more of them
    expect(phone.locator("#explain")).to_have_text("explanations are off")
    assert table.call(lambda: session.first_times.view(seat))["on"] is False
    phone.close()
