"""The "now" line and the end screen, in every game: derived from the session's state at every
step (who acts, in the seats' names), refusals that go once resolved, and a result per seat."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from botboard import games
from botboard.board import layouts
from botboard.session.journal import Journal
from botboard.session.session import GameSession

from .helpers import Clock, FakeBoard, Table

GAMES = games.table_names()
ENGINE_NAMES = re.compile(r"\bp\d\b")


def _session(tmp: Path, game: str, players: int = 2) -> GameSession:
    mapping = games.table(game)
    layout = layouts.load(mapping.default_layout(players))
    return GameSession(layout, Journal.in_dir(tmp), FakeBoard(), step_s=0, clock=Clock(), game=game)


@pytest.mark.parametrize("game", GAMES)
def test_every_step_names_who_acts_and_the_end_names_the_winner(tmp_path: Path, game: str) -> None:
    session = _session(tmp_path, game)
    session.new_game(2, {}, seed=3)
    names = {session.seat_name(s) for s in range(2)}
    session.set_computers({0: "greedy", 1: "greedy"}, 0.01)  # a game that ends soon
    for _ in range(3000):
        if session.mode == "over":
            break
        view = session.view()
        now = view["now"]
        assert now["who"] and set(now["who"]) <= names, (session.mode, now)
        assert any(name in now["text"] or "you decide" in now["text"] for name in now["who"]) \
            or session.mode == "program", now  # a decision names its decider
        actor = now["who"][0]
        seat = [s for s in range(2) if session.seat_name(s) == actor][0]
        assert session.seat_view(seat)["now"]["text"], "the acting seat's phone says what to do"
        assert view["end"] is None
        assert not ENGINE_NAMES.search(now["text"]), now  # seats by their colours, not p1/p2
        session.computers_now(most=1)
    assert session.mode == "over"
    end = session.view()["end"]
    assert end["winners"] == [session.seat_name(w) for w in session.engine.outcome(session.state).winners]
    assert end["headline"] in session.view()["now"]["text"]
    assert not [line for line in session.view()["log"] if ENGINE_NAMES.search(line)]
    assert [s["name"] for s in end["standings"]] and {s["name"] for s in end["standings"]} == names
    for seat in range(2):
        phone = session.seat_view(seat)
        assert phone["result"] and phone["notice"] == "" and not phone["acting"]
        assert phone["result"].startswith(("you won", "you shared the win") if phone["name"] in end["winners"]
                                          else ("you finished", "you shared", "you drew"))


@pytest.mark.parametrize("game", GAMES)
def test_a_seat_phone_speaks_in_rows_of_words(tmp_path: Path, game: str) -> None:
    session = _session(tmp_path, game)
    session.new_game(2, {}, seed=5)
    for seat in range(2):
        rows = session.seat_view(seat)["words"]
        assert rows and all(isinstance(label, str) and isinstance(words, str) for label, words in rows)
        other = session.seat_name(1 - seat)
        assert not any(other in label for label, _ in rows)  # its own facts only


def test_a_refusal_stays_on_the_phone_until_the_move_is_made_then_goes(tmp_path: Path) -> None:
    table = Table(tmp_path)
    session = table.session
    session.new_game(2, {"track": 0}, 1)
    table.place(0, "A1", "F1/red")  # one order only: the first turn wants one on each robot
    table.press(0, "confirm")
    refused = session.seat_view(0)["notice"]
    assert refused.startswith("refused")
    table.clock.advance(1)
    session.view()
    assert session.seat_view(0)["notice"] == refused  # not resolved yet
    table.place(0, "B1", "L/red")
    table.press(0, "confirm")
    assert session.seat_view(0)["notice"] == ""
    assert session.seat_view(1)["now"]["who"] == ["blue"]
    assert session.view()["now"]["who"] == ["blue"]
    assert "blue" in session.seat_view(0)["now"]["text"]  # red waits for blue


def test_a_second_confirm_prompt_goes_when_the_tiles_change(tmp_path: Path) -> None:
    table = Table(tmp_path)
    session = table.session
    session.new_game(2, {"track": 0}, 1)
    for seat, colour in ((0, "red"), (1, "blue")):
        table.place(seat, "A1", f"F1/{colour}")
        table.place(seat, "B1", f"L/{colour}")
        table.press(seat, "confirm")
        table.clock.advance(1)
    table.press(0, "confirm")  # nothing changed: a pass wants a second confirm
    assert session.awaiting and "confirm" in session.seat_view(0)["now"]["text"]
    table.place(0, "A2", "F1/red")
    assert not session.awaiting and session.seat_view(0)["notice"] == ""
