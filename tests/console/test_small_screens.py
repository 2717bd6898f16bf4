"""The console on a phone-sized screen and with six stations: nothing clipped, nothing overlapping."""

from __future__ import annotations

from typing import Any, Iterator

import pytest
from playwright.sync_api import Page, expect

from botboard import games

from .conftest import LiveDaemon, open_console, running

OVERLAPS = """(selector) => {
  const boxes = [...document.querySelectorAll(selector)].map((e) => e.getBoundingClientRect())
    .filter((r) => r.width > 0 && r.height > 0);
  const hit = [];
  boxes.forEach((a, i) => boxes.slice(i + 1).forEach((b, k) => {
    if (a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5)
      hit.push([i, i + 1 + k]);
  }));
  return hit;
}"""


@pytest.fixture(scope="module")
def big(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveDaemon]:
    for daemon in running(tmp_path_factory, layout="ttb-big"):
        daemon.post("/api/game/speed", {"speed": 0})
        daemon.post("/api/game/new", {"players": 6, "seed": 2})
        yield daemon


@pytest.fixture(scope="module")
def page(browser: Any, big: LiveDaemon) -> Iterator[Page]:
    yield from open_console(browser, big)


def _no_overlaps(page: Page) -> None:
    expect(page.locator("#stations .station")).to_have_count(6)
    assert page.evaluate(OVERLAPS, "#stations .station") == []
    for station in range(6):
        box = f"#stations .station[data-station='{station}']"
        assert page.evaluate(OVERLAPS, f"{box} .slot, {box} .buttons button") == [], station
        assert page.evaluate(OVERLAPS, f"{box} h3 > *, {box} .pill") == [], station


def test_six_stations_lie_side_by_side_without_overlap(page: Page) -> None:
    page.set_viewport_size({"width": 1400, "height": 1000})
    _no_overlaps(page)


def test_a_390_pixel_screen_has_no_sideways_scroll(page: Page) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    page.wait_for_timeout(300)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page is {width} px wide on a 390 px screen"
    header = page.locator("header")
    assert header.evaluate("(h) => h.scrollWidth <= h.clientWidth + 1")  # nothing clipped in the header
    _no_overlaps(page)


@pytest.mark.parametrize("game", games.table_names())
def test_a_slots_name_never_runs_into_its_tiles_words(browser: Any, tmp_path_factory: pytest.TempPathFactory,
                                                      game: str) -> None:
    """Every game's slot names (registers, units, yards, orders) stand clear of the tile's words,
    however long both are."""
    for live in running(tmp_path_factory, game=game):
        for console in open_console(browser, live):
            console.set_viewport_size({"width": 1400, "height": 1000})
            live.post("/api/game/new", {"players": 2, "seed": 1, "options": dict(games.declaration(game).quick_options)})
            layout, seat_station = live.get("/api/layout"), live.get("/api/game")["view"]["stations"]
            at = next(i for i, st in enumerate(layout["stations"]) if st["name"] in seat_station.values())
            station = layout["stations"][at]
            laid = station["slots"][:3]
            for slot in laid:  # a tile of no game: the longest words a slot says
                live.post("/api/sim/place", {"slot": slot, "game": 200, "kind": 1, "colour": 1, "serial": 9})
            expect(console.locator(f"#stations .station[data-station='{at}'] .slot.full")).to_have_count(len(laid))
            for slot in station["slots"]:
                button = f"#stations [data-slot='{slot}']"
                assert console.evaluate(WORDS_OVERLAP, [f"{button} .slot-no", f"{button} .slot-text"]) is False, \
                    (game, slot)


# Whether two elements' words cross, by where the words are drawn (a box may be narrower than
# the words it lets spill out)
WORDS_OVERLAP = """([a, b]) => {
  const drawn = (sel) => { const r = document.createRange(); r.selectNodeContents(document.querySelector(sel));
                           return [...r.getClientRects()]; };
  return drawn(a).some((x) => drawn(b).some((y) => x.left < y.right - 0.5 && y.left < x.right - 0.5 &&
                                                   x.top < y.bottom - 0.5 && y.top < x.bottom - 0.5));
}"""
