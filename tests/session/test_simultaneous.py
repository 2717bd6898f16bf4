"""games/simultaneous.py and the shared mapping helpers (Verdict.refused, scene_frames, the LED
module's palette), on every registered table game that uses them."""

from __future__ import annotations

import random
from typing import Any

import pytest

from botboard import games
from botboard.games.base import Event
from botboard.games.simultaneous import SimultaneousTable
from botboard.session.mapping import StationReading, Verdict, scene_frames

NAMES = [n for n in games.table_names() if issubclass(games.table(n), SimultaneousTable)]


def _players(game: Any) -> int:
    """More seats than the fewest, where the game allows more."""
    return min(game.info.min_players + 1, game.info.max_players)


def _started(name: str) -> tuple[Any, Any]:
    mapping = games.table(name)()
    game = mapping.engine
    return mapping, game.new_game(_players(game), seed=2)


@pytest.mark.parametrize("name", NAMES)
def test_a_station_with_a_bad_tag_is_refused_before_its_program_is_judged(name: str) -> None:
    mapping, state = _started(name)
    tiles = mapping.random_program(state, 0, random.Random(1), {})
    slots = list(range(40, 40 + len(tiles)))
    reading = StationReading(mapping.read_station(state, 0, tiles, slots).held, {slots[1]: "a torn tag"})
    verdict = mapping.judge(state, 0, reading, slots, {})
    assert not verdict.ok and verdict.message == "a torn tag" and verdict.wrong_slots == (slots[1],)


@pytest.mark.parametrize("name", NAMES)
def test_a_program_stays_hidden_and_the_waiting_seats_are_named(name: str) -> None:
    mapping, state = _started(name)
    names = [mapping.seat_name(state, s) for s in mapping.acting_seats(state)]
    assert len(names) == _players(mapping.engine)  # every seat programs at the start
    assert mapping.waiting(state) == ", ".join(names)
    assert all(n in mapping.turn_words(state) for n in names)
    said = mapping.public_action(state, "p1 program secret words")
    assert "secret" not in said and said.startswith("p1 program (hidden until every ")
    assert mapping.secret_slots and mapping.private_refusals()


@pytest.mark.parametrize("name", games.table_names())
def test_a_mapping_that_names_an_led_module_shows_its_palette(name: str) -> None:
    mapping = games.table(name)
    if mapping.leds is None:
        pytest.skip(f"{name} draws its LEDs itself")
    assert mapping.palette is mapping.leds.PALETTE and mapping.palette_index is mapping.leds.INDEX
    assert len(mapping.palette_for("colourblind")) == len(mapping.palette)


def test_a_refusal_names_every_slot_and_problem() -> None:
    verdict = Verdict.refused({3: "slot 3 is torn", 7: "slot 7 holds two tags"})
    assert verdict == Verdict(None, "slot 3 is torn; slot 7 holds two tags", (3, 7))


class _Counter:
    """A scene that shows only "move" events and counts them."""

    def __init__(self) -> None:
        self.moves = 0

    def apply(self, event: Event) -> bool:
        self.moves += event.kind == "move"
        return event.kind == "move"


def test_scene_frames_draw_each_event_shown_then_the_exact_state_after() -> None:
    events = [Event("move", {}, "a"), Event("say", {}, "b"), Event("move", {}, "c")]
    frames = scene_frames(_Counter(), events, lambda scene: {0: scene.moves}, {0: 99})  # type: ignore[dict-item]
    assert frames == [(events[0], {0: 1}), (events[2], {0: 2}), (None, {0: 99})]
