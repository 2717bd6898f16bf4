"""Every table game played from the console's virtual-tile picker, as an operator would.

For each game the registry knows (never a list of our own), a daemon with the
simulated board runs that game; the console starts one, and a program of that
game's tiles is laid by choosing each picker field's value and clicking the
station's slots, then confirmed with the station's button on the page. What the
tiles cannot say (a VOLT die's face, the turn of a Goblins tile) is set on the
seat's own phone page, as players do. The game must accept the program; the
maker tools' tag writer then writes one of the game's tiles onto a blank tag.

Which tiles make a legal program is the game's table mapping's to say
(``random_program``); the catalogue's ``spec`` turns them into picker values.
"""

from __future__ import annotations

import json
import random
from typing import Any, Iterator

import pytest
from playwright.sync_api import Page, expect

from botboard import games
from botboard.console.seats import SeatKeys

from ..simboard import wait_for
from .conftest import TOKEN, LiveDaemon, open_console, running

HIDDEN = "a tile (hidden until every seat has confirmed)"
SIMULTANEOUS_ACCEPTED = "confirmed"  # the pill; the now line says the move is in


@pytest.fixture(params=games.table_names())
def table(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveDaemon]:
    yield from running(tmp_path_factory, request.param)


@pytest.fixture
def console(browser: Any, table: LiveDaemon) -> Iterator[Page]:
    yield from open_console(browser, table)


class Phones:
    """The seats' own pages (a player's phone each), opened when first needed."""

    def __init__(self, browser: Any, live: LiveDaemon) -> None:
        self.browser, self.live = browser, live
        self.pages: dict[int, Page] = {}
        self.errors: list[str] = []

    def __getitem__(self, seat: int) -> Page:
        if seat not in self.pages:
            page = self.browser.new_page()
            page.on("pageerror", lambda err: self.errors.append(str(err)))
            page.goto(f"{self.live.base}/seat/{seat}?key={SeatKeys(TOKEN).key(seat)}")
            session = self.live.daemon.session
            expect(page.locator("#seat-name")).to_have_text(self.live.call(lambda: session.seat_name(seat)))
            self.pages[seat] = page
        return self.pages[seat]

    def close(self) -> None:
        for page in self.pages.values():
            page.close()
        assert not self.errors, f"script errors on the seat pages: {self.errors}"


@pytest.fixture
def phones(browser: Any, table: LiveDaemon) -> Iterator[Phones]:
    found = Phones(browser, table)
    yield found
    found.close()


def start_game(page: Page, live: LiveDaemon) -> None:
    """The game panel's form: the fewest players the game allows (two at least), its short options."""
    game = live.daemon.game_name
    players = max(2, games.get(game).info.min_players)
    page.fill("#speed", "0")
    page.locator("#speed").dispatch_event("change")
    page.fill("#ng-players", str(players))
    page.fill("#ng-seed", "1")
    page.fill("#ng-options", json.dumps(dict(games.declaration(game).quick_options)))
    page.fill("#ng-computers", "")
    session = live.daemon.session
    running_game = live.call(lambda: session.game_id)
    started = lambda: live.call(lambda: session.game_id != running_game  # noqa: E731
                                and session.mode in ("program", "decide"))
    page.click("#new-game-button")
    dialog = page.locator("#confirm-dialog")
    wait_for(lambda: started() or dialog.is_visible(), 15, "the new game or the question to replace one")
    if dialog.is_visible():  # the daemon's own game is going: replace it
        page.click("#confirm-ok")
    wait_for(started, 15, "the new game to be ready")


def decide_until_programming(live: LiveDaemon, phones: Phones) -> None:
    """Decisions before the first program (hands kept, tiles drawn) are made on the decider's phone."""
    session = live.daemon.session
    for _ in range(20):
        if live.call(lambda: session.mode) == "program":
            return
        seat, done = live.call(lambda: (session.picker.decision.player,
                                        len(session.journal.actions(session.game_id))))
        phones[seat].locator("#decision-choices button").first.click()
        wait_for(lambda: live.call(lambda: len(session.journal.actions(session.game_id)) > done
                                   and session.mode != "animate"), 15, f"seat {seat}'s decision to be taken")
    raise AssertionError(f"no program to lay after 20 decisions: {session.message}")


def a_program(live: LiveDaemon, seat: int) -> tuple[list[Any], dict[str, Any]]:
    """A legal program of ``seat``'s tiles (per station position) and its settings, from the
    game's own mapping; with a tile that carries flags if the game has such tiles."""
    session = live.daemon.session
    mapping, catalogue = session.mapping, session.mapping.catalogue
    flagged = any(catalogue.to_bytes(tile, 1).flags for tile in catalogue.every_tile())
    for seed in range(200):
        settings: dict[str, Any] = {}
        tiles = live.call(lambda s=seed, kept=settings: mapping.random_program(
            session.state, seat, random.Random(s), kept))
        laid = [tile for tile in tiles if tile is not None]
        if laid and (not flagged or any(catalogue.to_bytes(tile, 1).flags for tile in laid)):
            return tiles, settings
    raise AssertionError(f"no program with tiles for seat {seat} in 200 tries")


def set_on_phone(phone: Page, live: LiveDaemon, seat: int, settings: dict[str, Any]) -> None:
    """What the tiles cannot say, chosen in the seat page's own selects."""
    session = live.daemon.session
    for name, value in settings.items():
        shown = ("yes" if value else "no") if isinstance(value, bool) else str(value)
        phone.locator(f"#controls select[data-control='{name}']").select_option(label=shown)
        wait_for(lambda n=name, v=value: live.call(lambda: session.controls.get(seat, {}).get(n)) == v,
                 10, f"{name} to be set to {value!r}")


def pick(page: Page, prefix: str, spec: dict[str, str]) -> None:
    """Each of the picker's fields set to the spec's value, in the page's own selects."""
    for field, value in spec.items():
        page.select_option(f"#{prefix}-{field}", value)


def lay(page: Page, live: LiveDaemon, slot: int, tile: Any, serial: int) -> str:
    """``tile`` into ``slot`` from the picker; the tile's words as the game says them."""
    mapping = live.daemon.session.mapping
    pick(page, "tile", mapping.catalogue.spec(tile))
    page.fill("#tile-serial", str(serial))
    button = page.locator(f"#stations .slot[data-slot='{slot}']")
    button.click()
    expect(button).to_have_class("slot full")
    session = live.daemon.session
    wait_for(lambda: live.call(lambda: held(session, slot)) == mapping.catalogue.spec(tile), 10,
             f"slot {slot} to be read as {mapping.catalogue.spec(tile)}")
    return str(live.call(lambda: mapping.tile_words(tile)))


def held(session: Any, slot: int) -> dict[str, str] | None:
    """The picker's fields of the tile the session reads in ``slot`` (None: none)."""
    reading = session.table.reading(slot)
    if reading is None:
        return None
    return session.mapping.catalogue.spec(session.mapping.identify(reading.uid, reading.payload))


def test_a_program_laid_from_the_picker_is_taken_and_a_tag_written(console: Page, table: LiveDaemon,
                                                                    phones: Phones) -> None:
    page, live = console, table
    start_game(page, live)
    decide_until_programming(live, phones)
    session = live.daemon.session
    acting = live.call(session.acting)
    seat = acting[0]
    tiles, settings = a_program(live, seat)
    set_on_phone(phones[seat], live, seat, settings)
    before, done = live.call(lambda: (session.state, len(session.journal.actions(session.game_id))))
    lay_program(page, phones[seat], live, seat, tiles)
    confirm(page, live, seat, done)

    actions = live.call(lambda: session.journal.actions(session.game_id))
    if len(actions) > done:  # taken now: the game panel's log reads it as the table says it
        _, events = session.engine.apply_str(before, actions[-1]["action"])
        lines = [session.spoken(line) for line in session.mapping.public_events(events)]
        assert lines, f"the action {actions[-1]['action']!r} reads as nothing in the game's log"
        for line in lines[:3]:
            expect(page.locator("#game-log")).to_contain_text(line)
    if len(acting) > 1:  # everyone programs at once: the seat's program waits, locked in, for the others
        expect(phones[seat].locator("#seat-state")).to_have_text(SIMULTANEOUS_ACCEPTED)
        expect(phones[seat].locator("#your-message")).to_contain_text("your move is in")
        station = live.call(lambda: session.seating.station_of[seat])
        expect(page.locator(f"#stations .station[data-station='{station}'] .turn-pill")).to_have_count(0)

    write_a_tag(page, live, tiles)


def lay_program(page: Page, phone: Page, live: LiveDaemon, seat: int, tiles: list[Any]) -> None:
    """Each tile into its slot of the seat's station, read back in the game's words: on the
    shared console, or only on the seat's phone while the game keeps its slots secret."""
    session = live.daemon.session
    slots, secret = live.call(lambda: (session.seating.slots_of(seat), session.secret_slots))
    for pos, (slot, tile) in enumerate(zip(slots, tiles)):
        if tile is None:
            continue
        words = lay(page, live, slot, tile, pos + 1)
        shown = page.locator(f"#stations .slot[data-slot='{slot}'] .slot-text")
        if secret:  # the shared console says a tile is there, never which
            expect(shown).to_have_text(HIDDEN)
            expect(phone.locator("#station li").nth(pos)).to_contain_text(words)
        else:
            expect(shown).to_contain_text(words)


def confirm(page: Page, live: LiveDaemon, seat: int, done: int) -> None:
    """The station's confirm button on the page (twice if the game asks again); ``done``: the
    journal's length before. Taken: journaled, or locked in until the others confirm."""
    session = live.daemon.session
    button = live.call(lambda: session.seating.button_of(seat, "confirm"))

    def taken() -> bool:
        return bool(live.call(lambda: len(session.journal.actions(session.game_id)) > done
                              or seat in session.confirmed))

    page.click(f"#stations [data-button='{button}']")
    wait_for(lambda: taken() or live.call(lambda: seat in session.awaiting), 15,
             f"seat {seat}'s confirm to be read")
    if not taken():  # the game asks to confirm again (a pass, a construction tile not yet joined)
        page.click(f"#stations [data-button='{button}']")
    wait_for(taken, 15, f"seat {seat}'s program to be taken")


def write_a_tag(page: Page, live: LiveDaemon, tiles: list[Any]) -> None:
    """The maker tools write one of the program's tiles onto a blank tag laid from the picker."""
    session, tools = live.daemon.session, live.daemon.tools
    catalogue = session.mapping.catalogue
    tile = next(t for t in tiles if t is not None)
    slot = max(i for i, reading in enumerate(tools.slots) if not reading.present)
    page.check("#tile-blank")
    page.click(f"#stations .slot[data-slot='{slot}']")
    page.uncheck("#tile-blank")
    wait_for(lambda: tools.slots[slot].present, 10, "the blank tag to be read")
    uid = tools.slots[slot].uid
    page.fill("#tw-slot", str(slot))
    pick(page, "tw", catalogue.spec(tile))
    page.click("#tw-write")
    expect(page.locator("#tw-note")).to_have_text(f"{uid}: {catalogue.words(tile)}")
    wait_for(lambda: tools.slots[slot].payload == catalogue.payload(tile, 1).hex(), 10,
             "the written tag to be read with its tile")
    assert catalogue.from_payload(bytes.fromhex(tools.slots[slot].payload)) == tile
