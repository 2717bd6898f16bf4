"""A phone reads like the table: a long list of choices is one list to pick from, after the hand
it names; a yard of slots is drawn as the yard; no Hint button once the game is over, and none
when the console switches hints off; seat names readable on the dark page."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from botboard import games

from ..patience import ms
from ..simboard import wait_for
from .conftest import LiveDaemon, open_console, running


def _phone(browser: Any, live: LiveDaemon, seat: int) -> Page:
    url = next(s["url"] for s in live.get("/api/seats")["seats"] if s["seat"] == seat)
    page = browser.new_page()
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(url.replace(url.split("/seat/")[0], live.base))
    return page


def test_a_goblins_phone_picks_from_a_list_after_its_hand_and_sees_its_yard(
        browser: Any, tmp_path_factory: pytest.TempPathFactory) -> None:
    for live in running(tmp_path_factory, game="goblins"):
        live.post("/api/game/new", {"players": 2, "seed": 3})
        pending = live.get("/api/game")["view"]["pending"]
        assert pending, "the game begins with a choice of tiles to keep"
        phone = _phone(browser, live, pending["player"])
        expect(phone.locator("#decision-select")).to_be_visible(timeout=ms(10))
        assert phone.locator("#decision-select option").count() > 8
        expect(phone.locator("#decision-choices button.choice, #decision-choices > button")).to_have_count(0)
        after = phone.evaluate("""() => Boolean(document.getElementById("hand-title").closest("section")
            .compareDocumentPosition(document.getElementById("decision-box")) & Node.DOCUMENT_POSITION_FOLLOWING)""")
        assert after, "the decision comes after the hand it names"
        yard = phone.locator("#station.yard li")
        expect(yard).to_have_count(25)
        rows = phone.evaluate("""() => [...document.querySelectorAll("#station.yard li")]
            .map((li) => Math.round(li.getBoundingClientRect().top))""")
        columns = phone.evaluate("""() => [...document.querySelectorAll("#station.yard li")]
            .map((li) => Math.round(li.getBoundingClientRect().left))""")
        assert len(set(rows)) == 5 and len(set(columns)) == 5, (rows, columns)
        assert phone.evaluate("document.documentElement.scrollWidth") <= 390
        before = len(live.call(lambda: live.daemon.session.journal.actions(live.daemon.session.game_id)))
        phone.locator("#decision-choose").click()
        wait_for(lambda: len(live.call(lambda: live.daemon.session.journal.actions(live.daemon.session.game_id)))
                 > before, 15, "the choice to be taken")
        phone.close()


def test_the_console_switches_hints_off_and_a_game_over_has_no_hint_button(
        browser: Any, tmp_path_factory: pytest.TempPathFactory) -> None:
    for live in running(tmp_path_factory, game="botwars"):
        live.post("/api/game/new", {"players": 2, "seed": 3,
                                    "options": dict(games.declaration("botwars").quick_options)})
        for console in open_console(browser, live):
            phone = _phone(browser, live, 0)
            expect(phone.locator("#hint-button")).to_be_visible(timeout=ms(10))
            expect(console.locator("#hints-on")).to_be_checked()
            console.locator("#hints-on").uncheck()
            wait_for(lambda: live.get("/api/game/hints")["hints"] is False, 10, "hints off")
            expect(phone.locator("#hint-box")).to_be_hidden(timeout=ms(10))
            console.locator("#hints-on").check()
            expect(phone.locator("#hint-button")).to_be_visible(timeout=ms(10))
            live.call(lambda: live.daemon.session.set_computers({0: "random", 1: "random"}, 0.01))
            wait_for(lambda: live.get("/api/game")["view"]["over"], 120, "the computers to finish the game")
            expect(phone.locator("#end-box")).to_be_visible(timeout=ms(10))
            expect(phone.locator("#hint-box")).to_be_hidden()
            chip = phone.locator("#end-banner .seat-colour.chip").first
            expect(chip).to_be_visible()
            colours = chip.evaluate("(e) => [getComputedStyle(e).color, getComputedStyle(e).backgroundColor]")
            assert colours[0] in ("rgb(0, 0, 0)", "rgb(255, 255, 255)") and colours[1] != "rgba(0, 0, 0, 0)", colours
            phone.close()
