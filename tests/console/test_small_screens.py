"""The console on a phone-sized screen and with six stations: nothing clipped, nothing overlapping."""

from __future__ import annotations

from typing import Any, Iterator

import pytest
from playwright.sync_api import Page, expect

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
