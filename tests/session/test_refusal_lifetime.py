"""A refusal lives exactly as long as its cause: it goes when the slots no longer cause it,
without a confirm; it shows only on the phone of the seat it is for, styled as a refusal, says
its words once, and names slots as the board labels them. The second-confirm prompt shows once on
the phone and on the shared station card."""

from __future__ import annotations

from pathlib import Path

from ..goblins.table_helpers import Yards, joined_spot
from .helpers import Table


def _refusal_shown(t: Table, seat: int, part: str) -> bool:
    return part in t.session.seat_view(seat)["notice"]


def test_a_ttb_refusal_goes_once_the_slots_are_put_right_and_shows_on_its_seat_alone(tmp_path: Path) -> None:
    t = Table(tmp_path)
    s = t.session
    s.new_game(2, {"track": 0}, 1)
    t.place(0, "A1", "F1/red")  # the first turn wants one order on each robot
    t.press(0, "confirm")
    red = s.seat_view(0)
    assert red["notice"].startswith("refused: ") and red["notice_kind"] == "refusal"
    assert red["notice"].count("first turn") == 1 and "nothing to undo" not in red["notice"]
    assert "robot A slot" not in red["notice"]
    blue = s.seat_view(1)
    assert blue["notice"] == "" and "refused" not in blue["table_message"]  # not blue's refusal
    station = s.seating.seat_station_name(0)
    assert "refused" in s.view()["station_words"].get(station, "")
    t.place(0, "B1", "L/red")  # put right: the refusal goes at once, no confirm needed
    assert s.seat_view(0)["notice"] == "" and 0 not in s.refusals
    assert "refused" not in s.view()["station_words"].get(station, "") and "refused" not in s.message
    t.press(0, "confirm")
    assert t.session.journal.actions(s.game_id)[-1]["action"] == "A1=F1 + B1=L"


def test_a_refusal_stays_while_its_cause_does(tmp_path: Path) -> None:
    t = Table(tmp_path)
    s = t.session
    s.new_game(2, {"track": 0}, 1)
    t.place(0, "A1", "F1/red")
    t.press(0, "confirm")
    t.place(1, "A1", "R/blue")  # another station changes (out of turn): red's cause is still there
    assert _refusal_shown(t, 0, "refused: ")


def test_goblins_one_tile_at_a_time_goes_when_the_extra_tile_is_taken_off(tmp_path: Path) -> None:
    t = Yards(tmp_path, players=2, seed=1)
    s = t.session
    while s.mode == "decide":
        t.decide_randomly()
    seat = t.builder()
    hand = list(s.state.players[seat].hand)
    (_, first, _), second = joined_spot(s.state, seat), None
    free = [sq for sq in s.mapping.squares[s.state.team_of(seat)] if sq != first
            and sq not in s.state.robots[s.state.team_of(seat)].yard and sq != "r3c3"]
    second = free[0]
    t.lay(seat, first, hand[0])
    t.lay(seat, second, hand[1])
    t.press(seat, "confirm")
    assert "one tile at a time" in s.seat_view(seat)["notice"]
    t.lift(seat, second)
    assert "one tile at a time" not in s.seat_view(seat)["notice"] and seat not in s.refusals


def test_the_second_confirm_prompt_shows_once_on_the_phone_and_on_the_station_card(tmp_path: Path) -> None:
    t = Table(tmp_path)
    s = t.session
    s.new_game(2, {"track": 0}, 1)
    t.first_turns()
    t.press(0, "confirm")  # nothing changed: a pass, asked again
    assert 0 in s.awaiting
    phone = s.seat_view(0)
    assert "again" in phone["now"]["text"]
    shown = [phone["now"]["text"], phone["notice"], phone["table_message"]]
    assert sum("again" in words for words in shown) == 1, shown
    station = s.seating.seat_station_name(0)
    assert "again" in s.view()["station_words"][station]
    assert "again" not in s.seat_view(1)["notice"] + s.seat_view(1)["table_message"]
    t.place(0, "A2", "F2/red")  # a change withdraws the question, on the card too
    assert 0 not in s.awaiting and "again" not in s.view()["station_words"].get(station, "")
