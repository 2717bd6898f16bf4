"""The game panel against the real session: new game, a turn from virtual tiles, undo, a decision."""

from __future__ import annotations

import time
from typing import Any, Iterator

import pytest
from playwright.sync_api import Page, expect

from botboard.games import get

from .conftest import ARTIFACTS, LiveDaemon, empty_slots, open_console
from ..patience import ms, scaled

# a position where red's robot A zaps blue's at once: the engine asks red which order blue runs
ZAP_READY = {"crystals": {}, "robots": {"redA": {"at": "0,0", "facing": 0},
                                        "blueA": {"at": "2,0", "facing": 3}},
             "programs": {"redA": ["Z", "-", "-"], "redB": ["L", "-", "-"],
                          "blueA": ["L", "-", "-"], "blueB": ["L", "-", "-"]}}


@pytest.fixture(scope="module")
def page(browser: Any, live: LiveDaemon) -> Iterator[Page]:
    if live.daemon.session is None:
        pytest.skip("this daemon has no game session")
    yield from open_console(browser, live)


def arena_picture(page: Page) -> str:
    return str(page.evaluate("""[...document.querySelectorAll('#arena .cell')]
        .map(c => `${c.dataset.palette}/${c.dataset.effect}`).join(' ')"""))


def test_new_game_a_turn_from_virtual_tiles_and_undo(page: Page, live: LiveDaemon) -> None:
    session = live.daemon.session
    page.fill("#speed", "0")
    page.locator("#speed").dispatch_event("change")
    page.evaluate("document.activeElement && document.activeElement.blur()")
    page.keyboard.press("n")  # keyboard only: the form, its fields in order, then the button
    expect(page.locator("#ng-players")).to_be_focused()
    page.keyboard.press("Control+a")
    page.keyboard.type("2")
    page.keyboard.press("Tab")
    page.keyboard.type("3")
    page.keyboard.press("Tab")
    page.keyboard.type('{"track": 0}')
    page.keyboard.press("Tab")
    expect(page.locator("#ng-computers")).to_be_focused()  # empty: every seat is a person
    page.keyboard.press("Tab")
    expect(page.locator("#new-game-button")).to_be_focused()
    page.keyboard.press("Enter")
    if page.locator("#confirm-dialog").is_visible():  # an earlier test's game is still going
        page.locator("#confirm-ok").click()
    expect(page.locator("#game-view [data-key='phase']")).to_have_text("program")
    expect(page.locator("#game-view [data-key='turn']")).to_have_text("red")
    seat_slots, confirm, station = live.call(lambda: (
        (session.seating.physical(0, 0), session.seating.physical(0, 3)),
        session.seating.button_of(0, "confirm"), session.seating.station_of[0]))
    expect(page.locator(f"#stations .station[data-station='{station}']")).to_have_class("station turn")
    before = arena_picture(page)

    for slot, kind in zip(seat_slots, ("F1", "L")):  # F1 on robot A, L on robot B, both red
        page.select_option("#tile-kind", kind)
        page.select_option("#tile-colour", "red")
        page.click(f"#stations .slot[data-slot='{slot}']")
        expect(page.locator("#trace li[data-type='slot']").filter(
            has_text=f"slot={slot} present=1")).to_have_count(1)
    expect(page.locator(f"#stations .slot[data-slot='{seat_slots[0]}']")).to_contain_text("red F1")
    page.click(f"#stations [data-button='{confirm}']")
    expect(page.locator("#game-view [data-key='turn']")).to_have_text("blue")
    expect(page.locator("#game-log")).to_contain_text("Red programs: A1=F1 + B1=L")
    page.wait_for_function("""(before) => [...document.querySelectorAll('#arena .cell')]
        .map(c => `${c.dataset.palette}/${c.dataset.effect}`).join(' ') !== before""", arg=before)
    gid = session.game_id
    assert [a["action"] for a in session.journal.actions(gid)] == ["A1=F1 + B1=L"]

    page.keyboard.press("u")  # focus is on the station's confirm button: shortcuts work
    expect(page.locator("#confirm-dialog")).to_be_visible()
    expect(page.locator("#confirm-cancel")).to_be_focused()  # the safe answer is the default
    page.keyboard.press("Escape")  # changed our mind: nothing happens
    expect(page.locator("#confirm-dialog")).to_be_hidden()
    assert len(session.journal.actions(gid)) == 1
    page.click("#undo-button")
    expect(page.locator("#confirm-dialog")).to_be_visible()
    page.keyboard.press("Tab")
    expect(page.locator("#confirm-ok")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator("#game-view [data-key='turn']")).to_have_text("red")
    assert live.call(lambda: session.state.turns) == 0
    assert session.journal.actions(gid) == []  # undone actions are kept but no longer count


def test_a_pending_decision_is_made_from_the_console(page: Page, live: LiveDaemon) -> None:
    session = live.daemon.session
    live.post("/api/game/speed", {"speed": 0})

    def zap_ready() -> None:  # as test_session does: a position with a zap about to happen
        state = get("twin-tin-bots").scenario_start(2, {"track": 0}, 1, ZAP_READY)
        session.new_game(2, {"track": 0}, 1)
        session._start(session.game_id, state)  # noqa: SLF001
        session._apply("pass")  # noqa: SLF001

    live.call(zap_ready)
    legend = page.locator("#decision legend")
    expect(legend).to_contain_text("red must decide")
    choices = page.locator("#decision .choice")
    assert choices.count() >= 2
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "console-decision.png"), full_page=True)
    page.keyboard.press("d")  # keyboard: the first choice, then Enter
    expect(choices.first).to_be_focused()
    chosen = choices.first.get_attribute("data-choice")
    assert "p1" not in (choices.first.text_content() or "")  # the choice in words, the seat by name
    page.keyboard.press("Enter")
    expect(page.locator("#decision")).to_be_empty()
    assert chosen and session.journal.actions(session.game_id)[-1]["action"] == chosen


# late in a game: crystals delivered, specials in hand, the countdown running, blue to play
ENDGAME = {"crystals": {}, "turn": "blue", "countdown": 3,
           "delivered": {"red": {"blue": 2, "pink": 1}, "blue": {"green": 1}},
           "hands": {"red": ["LZ", "AT"], "blue": ["BD"]},
           "programs": {"redA": ["L", "-", "-"], "redB": ["L", "-", "-"],
                        "blueA": ["L", "-", "-"], "blueB": ["L", "-", "-"]}}
SPECIALS_HELD = ("Long range Zap", "Anti-theft", "Bulldozer", '"LZ"', '"AT"', '"BD"')


def test_game_panel_figures_and_the_undo_and_skip_keys(page: Page, live: LiveDaemon) -> None:
    session = live.daemon.session
    fact = lambda key: page.locator(f"#game-view [data-key='{key}']")  # noqa: E731
    live.post("/api/game/speed", {"speed": 0})
    live.call(lambda: (session.new_game(2, {"track": 0}, 1), session._apply("A1=L + B1=L")))  # noqa: SLF001
    expect(fact("turn")).to_have_text("blue")
    gid = session.game_id
    assert len(session.journal.actions(gid)) == 1
    page.evaluate("document.activeElement && document.activeElement.blur()")
    page.keyboard.press("u")  # undo, confirmed from the keyboard alone
    expect(page.locator("#confirm-cancel")).to_be_focused()
    page.keyboard.press("Tab")
    expect(page.locator("#confirm-ok")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator("#confirm-dialog")).to_be_hidden()
    expect(fact("turn")).to_have_text("red")
    assert session.journal.actions(gid) == []

    def endgame() -> None:
        state = get("twin-tin-bots").scenario_start(2, {"track": 0}, 1, ENDGAME)
        session.new_game(2, {"track": 0}, 1)
        session._start(session.game_id, state)  # noqa: SLF001
        live.daemon.publish({"kind": "game", "event": "view", "view": session.view()})

    live.call(endgame)
    expect(fact("countdown")).to_have_text("3")
    expect(fact("turn")).to_have_text("blue")
    view = live.get("/api/game")["view"]
    assert view["scores"]["red"] > view["scores"]["blue"] > 0  # the columns cannot be swapped
    rows = page.locator("#game-view table tbody tr")
    expect(rows.nth(0).locator("td")).to_have_text(
        ["red", str(view["scores"]["red"]), str(view["final_scores"]["red"]), "blue 2; green 0; pink 1", "2",
         "no"])
    expect(rows.nth(1).locator("td")).to_have_text(
        ["blue", str(view["scores"]["blue"]), str(view["final_scores"]["blue"]), "blue 0; green 1; pink 0",
         "1", "no"])
    expect(page.locator("#game-view table thead th")).to_have_text(
        ["player", "score", "final score", "delivered crystals", "hand", "DM used"])
    shown = page.locator("#game-view").text_content() or ""
    sent = str(live.get("/api/game"))
    for secret in SPECIALS_HELD:  # hand sizes only: which specials a player holds stays hidden
        assert secret not in shown and secret.replace('"', "'") not in sent, secret

    live.post("/api/game/speed", {"speed": 5})  # each animation step would stay 5 s
    live.call(lambda: session._apply("pass"))  # noqa: SLF001  blue's robots turn, then red's round
    expect(fact("phase")).to_have_text("animate")
    page.evaluate("document.activeElement && document.activeElement.blur()")
    pressed = time.monotonic()
    page.keyboard.press("k")  # skip the animation
    expect(fact("phase")).to_have_text("program", timeout=ms(4))
    assert time.monotonic() - pressed < scaled(5)  # not the 5 s of even one step
    expect(fact("turn")).to_have_text("red")
    expect(fact("countdown")).to_have_text("2")  # red discarded a counter as its round began
    expect(page.locator("#game-log")).to_contain_text("Red discards countdown counter 3")
    live.post("/api/game/speed", {"speed": 0})


def test_new_game_asks_before_replacing_a_game_still_going(page: Page, live: LiveDaemon) -> None:
    empty_slots(live)
    live.post("/api/game/new", {"players": 2, "seed": 5})
    running = live.get("/api/game")["view"]["game_id"]
    expect(page.locator("#game-view [data-key='phase']")).to_have_text("program")  # started elsewhere
    page.click("#new-game-button")
    expect(page.locator("#confirm-dialog")).to_be_visible()
    expect(page.locator("#confirm-text")).to_contain_text(f"Replace game {running}")
    page.click("#confirm-cancel")
    expect(page.locator("#confirm-dialog")).to_be_hidden()
    assert live.get("/api/game")["view"]["game_id"] == running  # nothing replaced
    page.click("#new-game-button")
    page.click("#confirm-ok")
    expect(page.locator("#game-view [data-key='phase']")).to_have_text("program")
    assert live.get("/api/game")["view"]["game_id"] == running + 1


def test_what_a_station_must_fix_stays_on_it_until_fixed(page: Page, live: LiveDaemon) -> None:
    session = live.daemon.session
    empty_slots(live)
    live.post("/api/game/speed", {"speed": 0})
    live.call(lambda: session.new_game(2, {"track": 0}, 1))
    slot, station = live.call(lambda: (session.seating.physical(0, 3), session.seating.station_of[0]))
    box = page.locator(f"#stations .station[data-station='{station}']")
    expect(box.locator("h3")).to_contain_text("· red")
    live.post("/api/sim/place", {"slot": slot, "kind": 3, "colour": 1, "serial": 9})  # blue's tile at red's
    expect(box.locator(".station-words")).to_contain_text("give it back")
    page.wait_for_timeout(1500)  # other messages come and go: the station keeps its own
    expect(box.locator(".station-words")).to_contain_text("give it back")
    live.post("/api/sim/remove", {"slot": slot})
    expect(box.locator(".station-words")).to_have_count(0)


def test_an_unfinished_game_is_resumed_from_the_console(page: Page, live: LiveDaemon) -> None:
    live.post("/api/game/speed", {"speed": 0})
    first = live.post("/api/game/new", {"players": 2, "seed": 7})["view"]["game_id"]
    second = live.post("/api/game/new", {"players": 3, "seed": 8})["view"]["game_id"]
    assert second != first
    listed = [g["id"] for g in live.get("/api/game/unfinished")["games"]]
    assert first in listed and second in listed
    option = page.locator(f"#resume-game option[value='{first}']")
    expect(option).to_contain_text("2 players, seed 7")  # the game on the table is not offered
    expect(page.locator(f"#resume-game option[value='{second}']")).to_have_count(0)
    page.select_option("#resume-game", str(first))
    page.click("#resume-button")
    expect(page.locator("#confirm-text")).to_contain_text(f"Leave game {second} for game {first}")
    page.click("#confirm-ok")
    expect(page.locator("#notice")).to_contain_text(f"game {first} resumed")
    view = live.get("/api/game")["view"]
    assert view["game_id"] == first and view["players"] == 2
    # and back: the game left is offered in its turn; a finished or foreign id is refused
    expect(page.locator(f"#resume-game option[value='{second}']")).to_have_count(1)
    status, reply = live.request("POST", "/api/game/resume", {"game": 99999})
    assert status == 400 and "not an unfinished twin-tin-bots game" in reply["error"]


def test_places_are_named_alike_on_the_stations_the_arena_and_in_messages(page: Page, live: LiveDaemon) -> None:
    session = live.daemon.session
    empty_slots(live)
    live.post("/api/game/speed", {"speed": 0})
    live.call(lambda: session.new_game(2, {"track": 0}, 1))
    slot, station, red_a = live.call(lambda: (session.seating.physical(0, 3), session.seating.station_of[0],
                                              session.bmap.to_board[session.state.cell[0]]))
    box = page.locator(f"#stations .station[data-station='{station}']")
    expect(box.locator(f".slot[data-slot='{slot}'] .slot-no")).to_have_text("B1")
    live.post("/api/sim/place", {"slot": slot, "kind": 3, "colour": 1, "serial": 9})  # blue's tile at red's B1
    expect(box.locator(".station-words")).to_contain_text("slot B1")  # the message names it as the slot reads
    live.post("/api/sim/remove", {"slot": slot})
    names = live.get("/api/game")["view"]["cell_names"]
    label = page.locator(f"#arena #cell-{red_a} .index")
    expect(label).to_have_text(names[red_a])  # the arena speaks as events do: "q,r"
    assert "," in names[red_a]
    expect(page.locator("#arena .pieces .piece").filter(has_text="red A")).to_have_count(1)
    expect(page.locator("#game-view [data-key='settings']")).to_have_text("2 players, seed shown at the end, layout ttb-small, track=0")


def test_a_seat_is_given_to_the_computer_for_the_next_game_from_the_console(page: Page, live: LiveDaemon) -> None:
    live.post("/api/game/speed", {"speed": 0})
    page.fill("#ng-players", "2")
    page.fill("#ng-seed", "4")
    page.fill("#ng-options", '{"track": 0}')
    page.fill("#ng-computers", "2=random")
    page.click("#new-game-button")
    if page.locator("#confirm-dialog").is_visible():
        page.locator("#confirm-ok").click()
    expect(page.locator("#game-view [data-key='computers']")).to_have_text("blue (random)")
    status, reply = live.request("POST", "/api/game/new", {"players": 2, "computers": {"3": "search"}})
    assert status == 400 and "seats are 1 to 2" in reply["error"]
    live.post("/api/game/new", {"players": 2, "seed": 4, "options": {"track": 0}, "computers": {}})
    expect(page.locator("#game-view [data-key='computers']")).to_have_count(0)  # human again
    page.fill("#ng-computers", "")
