"""Every game played whole in the browser, by clicking only the pages' own controls: the console's
virtual-tile picker and slots, each seat's phone (its settings, decisions and confirm button), from
the New game form to the end screen. At every step the shared screen and the acting seat's phone
name who acts and what to do, no refusal stays once a move is made, and the end screen names the
winner. The test plays like a player who knows the rules: it asks the game for a legal program
(``random_program``), then lays it by hand. Each page clicked is brought to the front first
(conftest's browser): a whole Goblins game took ten minutes of clicks waiting on background pages."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from playwright.sync_api import Error as PlaywrightError, Page, expect

from botboard import games

from ..simboard import wait_for
from ..engine_words import broken
from .conftest import LiveDaemon, running
from ..patience import ms

GAMES = games.table_names()
MOST_STEPS = 400  # page actions (a program laid, a decision) before the game must be over
FULL = re.compile(r"\bfull\b")  # a slot button's class while the page shows a tile in it


class Hands:
    """A table's players at the console (tiles) and their phones (everything else)."""

    def __init__(self, live: LiveDaemon, console: Page, phones: dict[int, Page]) -> None:
        self.live, self.console, self.phones = live, console, phones
        self.session = live.daemon.session
        self.catalogue = games.catalogue(live.daemon.game_name)
        self.rng = random.Random(5)
        self.serial = 100

    def seat_named(self, name: str) -> int:
        return next(s for s in self.phones if self.live.call(lambda s=s: self.session.seat_name(s)) == name)

    def lay(self, seat: int) -> None:
        """A legal program of ``seat`` into its slots, its settings on its phone, then confirm."""
        session, phone = self.session, self.phones[seat]
        settings: dict[str, Any] = {}
        tiles = self.live.call(lambda: session.mapping.random_program(session.state, seat, self.rng, settings))
        for name, value in settings.items():
            self.set_control(seat, name, value)
        slots = self.live.call(lambda: session.seating.slots_of(seat))
        for slot, tile in zip(slots, tiles):
            self.put(slot, tile)
        confirm = phone.locator("#station-buttons [data-role='confirm']")
        moves = lambda: self.live.call(lambda: len(session.journal.actions(session.game_id)))  # noqa: E731
        before = moves()
        asked = lambda: self.live.call(lambda: seat in session.awaiting)  # noqa: E731
        taken = lambda: self.live.call(lambda: seat in session.submitted) or moves() > before  # noqa: E731
        message = phone.locator("#your-message")
        for _ in range(4):
            confirm.click()
            try:
                wait_for(lambda: asked() or taken(), 20, "the confirm to be read")
            except AssertionError:
                raise AssertionError(f"seat {seat + 1}'s confirm was not taken: "
                                     f"{phone.locator('#your-notice').text_content()!r}") from None
            if taken():
                return
            # a pass, or a move the rules let through only on a second confirm: the phone says so;
            # unless a late reading of the station (a tile settling on the board) withdrew the
            # question, as at the table: then the move is confirmed from the start again
            try:
                wait_for(lambda: not asked() or "again" in (message.text_content() or ""), 15,
                         "the phone to ask for the second confirm")
            except AssertionError:
                raise AssertionError(f"the phone's now line reads {message.text_content()!r}; the table's now "
                                     f"for the seat: {self.live.call(lambda: session.now(seat))!r}") from None
            if asked():
                confirm.click()  # the second confirm
                return
        raise AssertionError(f"seat {seat + 1}'s move was asked about again and again: {message.text_content()!r}")

    def clear(self, seats: list[int]) -> None:
        """Each station ends holding what the game has there, as its phone asked."""
        session = self.session
        for seat in seats:
            expect(self.phones[seat].locator("#your-message")).to_contain_text("first clear your station")
            want = self.live.call(lambda: session.mapping.station_tiles(session.state, seat))
            for slot, tile in zip(self.live.call(lambda: session.seating.slots_of(seat)), want):
                self.put(slot, tile)
        wait_for(lambda: self.live.call(lambda: session.mode) != "clear", 20, "the table to see the board cleared")

    def set_control(self, seat: int, name: str, value: Any) -> None:
        """A setting chosen on the seat's phone (the page redraws as views arrive: try again)."""
        label = ("yes" if value else "no") if isinstance(value, bool) else str(value)
        for _ in range(10):
            try:
                self.phones[seat].locator(f"#controls select[data-control='{name}']").select_option(
                    label=label, timeout=ms(2))
            except PlaywrightError:
                continue
            if self.live.call(lambda: self.session.controls.get(seat, {}).get(name)) == value:
                return
        raise AssertionError(f"{name} = {value!r} could not be set on seat {seat + 1}'s phone")

    def put(self, slot: int, tile: Any) -> None:
        """The slot ends holding ``tile`` (None: empty), through the console's picker and slot."""
        session, button = self.session, self.console.locator(f"#stations [data-slot='{slot}']")
        held = self.live.call(lambda: self.held(slot))
        if held == tile:
            return
        # the button acts on what the page shows (full: out, empty: in), and the page may
        # still be catching up with the session on a loaded machine: wait for it to agree
        if held is not None:
            expect(button).to_have_class(FULL, timeout=ms(10))
            button.click()  # out
            wait_for(lambda: self.live.call(lambda: session.table.reading(slot)) is None, 10, "a tile out")
        if tile is None:
            return
        for field, value in self.catalogue.spec(tile).items():
            self.console.select_option(f"#tile-{field}", value)
        self.serial += 1
        self.console.fill("#tile-serial", str(self.serial))
        expect(button).not_to_have_class(FULL, timeout=ms(10))
        button.click()  # in
        wait_for(lambda: self.live.call(lambda: session.table.reading(slot)) is not None, 10, "a tile in")

    def held(self, slot: int) -> Any:
        """The tile a slot holds as the table reads it (None: empty)."""
        reading = self.session.table.reading(slot)
        return None if reading is None else self.session.mapping.identify(reading.uid, reading.payload)

    def decide(self, seat: int) -> None:
        phone = self.phones[seat]
        expect(phone.locator("#your-message")).to_contain_text("you decide")
        many = phone.locator("#decision-select")  # a long list of choices is a list to pick from
        if many.count():
            many.select_option(index=self.rng.randrange(many.locator("option").count()))
            phone.locator("#decision-choose").click()
            return
        choices = phone.locator("#decision-choices button")
        choices.nth(self.rng.randrange(choices.count())).click()


def _in_peoples_words(console: Page, phones: dict[int, Page]) -> None:
    """No engine word on the shared screen (now line, Game panel, decision, log, end) or a phone."""
    shown = [console.locator(part).inner_text() for part in ("#now-line", "#game-panel")]
    shown += [phone.locator("main").inner_text() for phone in phones.values()]
    assert not broken(shown), broken(shown)


def _view(live: LiveDaemon) -> dict[str, Any]:
    return live.get("/api/game")["view"]


def _settle(live: LiveDaemon) -> dict[str, Any]:
    """The view once no move is being played on the board."""
    wait_for(lambda: _view(live)["phase"] != "animate", 30, "the move to be played")
    return _view(live)


@pytest.mark.timeout(900)  # a whole game by hand: Goblins' two rounds of building take minutes
@pytest.mark.parametrize("game", GAMES)
def test_a_whole_game_by_clicking(browser: Any, tmp_path_factory: pytest.TempPathFactory, game: str) -> None:
    for live in running(tmp_path_factory, game=game):
        console = browser.new_page()
        console.set_viewport_size({"width": 1400, "height": 1000})
        console.goto(live.url)
        expect(console.locator("#link-state")).to_have_text("connected", timeout=ms(10))
        console.fill("#speed", "0")
        console.locator("#speed").dispatch_event("change")
        console.fill("#ng-players", "2")
        console.fill("#ng-seed", "3")
        console.fill("#ng-options", json.dumps(dict(games.declaration(game).quick_options)))
        console.click("#new-game-button")
        wait_for(lambda: _view(live)["game_id"] is not None, 10, "the new game")
        links = {s["seat"]: s["url"] for s in live.get("/api/seats")["seats"]}
        phones = {}
        for seat, url in links.items():
            phones[seat] = browser.new_page()
            phones[seat].set_viewport_size({"width": 390, "height": 844})
            phones[seat].goto(url.replace(url.split("/seat/")[0], live.base))
        hands = Hands(live, console, phones)
        for _ in range(MOST_STEPS):
            view = _settle(live)
            if view["over"]:
                break
            who = view["now"]["who"]
            assert who, view["now"]
            if view["phase"] == "clear":  # a round boundary: take off what the table asks first
                hands.clear([hands.seat_named(name) for name in who])
                continue
            expect(console.locator("#now-line")).to_contain_text(who[0])
            seat = hands.seat_named(who[0])
            expect(phones[seat].locator("#your-message")).not_to_be_empty()
            before = len(live.call(lambda: live.daemon.session.journal.actions(view["game_id"])))
            if view["phase"] == "decide":
                hands.decide(seat)
            else:
                for name in view["acting"]:
                    hands.lay(hands.seat_named(name))
            try:
                wait_for(lambda: len(live.call(lambda: live.daemon.session.journal.actions(view["game_id"]))) > before,
                         20, "a move")
            except AssertionError:
                raise AssertionError(f"no move after {view['now']['text']!r}: {_view(live)['message']!r}; "
                                     f"phones: {[p.locator('#your-notice').text_content() for p in phones.values()]}")
            for phone in phones.values():  # a made move leaves no refusal behind
                expect(phone.locator("#your-notice")).not_to_contain_text("refused")
            _in_peoples_words(console, phones)
        _in_peoples_words(console, phones)  # the end screens too
        end = _settle(live)["end"]
        assert end, "the game ended"
        expect(console.locator("#end-banner .end-headline")).to_contain_text(end["headline"])
        for phone in phones.values():
            expect(phone.locator("#your-result")).not_to_be_empty()
            expect(phone.locator("#station-buttons")).to_be_hidden()
        _undo_the_last_move(live, console, phones)
        _a_new_game_leaves_nothing_of_the_last(live, hands, console, phones)


def _undo_the_last_move(live: LiveDaemon, console: Page, phones: dict[int, Page]) -> None:
    """The game's last move undone at the console: every screen shows the game going on again at
    once (no reload), its lines struck through, the now line naming who acts, no refusal left."""
    session = live.daemon.session
    moves = lambda: len(live.call(lambda: session.journal.actions(session.game_id)))  # noqa: E731
    before = moves()
    console.click("#undo-button")
    console.locator("#confirm-ok").click()
    wait_for(lambda: moves() < before, 10, "the undo")
    view = _settle(live)
    assert not view["over"] and view["now"]["who"], view["now"]
    expect(console.locator("#game-log li.undone")).not_to_have_count(0)
    expect(console.locator("#end-banner")).to_be_hidden()
    _station_cards_say(console, view)
    expect(console.locator("#now-line")).to_contain_text(view["now"]["who"][0])
    for seat, phone in phones.items():
        expect(phone.locator("#end-box")).to_be_hidden()
        expect(phone.locator("#station-buttons")).to_be_visible()
        expect(phone.locator("#your-message")).to_have_text(live.call(lambda s=seat: session.now(s))["text"])
        expect(phone.locator("#your-notice.refusal")).to_have_count(0)
    _in_peoples_words(console, phones)


def _station_cards_say(console: Page, view: dict[str, Any]) -> None:
    """The shared screen's station cards say what the table says at each station now, no more."""
    cards = console.locator("#stations .station-words")
    expect(cards).to_have_count(len(view["station_words"]))
    for words in view["station_words"].values():
        expect(cards.filter(has_text=words)).not_to_have_count(0)


def _a_new_game_leaves_nothing_of_the_last(live: LiveDaemon, hands: Hands, console: Page,
                                           phones: dict[int, Page]) -> None:
    """New game from a console opened afresh: it keeps the running game's options, and nothing
    of the last game stays on the shared screen or the phones (log, end banner, refusals,
    explanations, hints, station lists): once the board is cleared, they show the new game's."""
    session = live.daemon.session
    last = _view(live)
    console.reload()  # the form as a console opened now fills it: from the running game
    expect(console.locator("#link-state")).to_have_text("connected", timeout=ms(10))
    console.click("#new-game-button")
    console.locator("#confirm-ok").click()  # the last game is still going: replaced
    wait_for(lambda: _view(live)["game_id"] != last["game_id"], 10, "the new game")
    view = _view(live)
    assert view["options"] == last["options"] and view["players"] == last["players"]
    expect(console.locator("#end-banner")).to_be_hidden()
    for phone in phones.values():
        expect(phone.locator("#end-box")).to_be_hidden()
        expect(phone.locator("#your-notice.refusal")).to_have_count(0)
        expect(phone.locator("#explain")).to_have_text("")
        expect(phone.locator("#hint")).to_have_text("")
    if view["phase"] == "clear":  # the last game's tiles come off first, as the phones ask
        hands.clear([hands.seat_named(name) for name in view["now"]["who"]])
    view = _settle(live)
    expect(console.locator("#now-line")).to_contain_text(view["now"]["who"][0])
    expect(console.locator("#game-log li")).to_have_count(len(view["log"][-60:]))
    _station_cards_say(console, view)
    for seat, phone in phones.items():
        seen = live.call(lambda s=seat: session.seat_view(s))
        expect(phone.locator("#your-message")).to_have_text(seen["now"]["text"])
        expect(phone.locator("#station li")).to_have_text([f"{name}{words or 'empty'}" for name, words
                                                          in zip(seen["slot_names"], seen["station"])])
        expect(phone.locator("#your-notice.refusal")).to_have_count(0)
    _in_peoples_words(console, phones)
