"""Hints: for every table game a hint is a legal move of the asking seat and depends only on what
that seat may see; at the table it is told to that seat alone, lit on its robots in its colour,
journaled as a hint (never a move), and refused in words when it cannot be given."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import pytest

from botboard import games, players
from botboard.session.hints import HintError, work_out

from .helpers import Table


def _due_state(game: str, seed: int) -> tuple[Any, Any, int]:
    """(mapping, a state some random moves into the game, a seat whose move it is)."""
    mapping = games.table(game)()
    engine = mapping.engine
    rng = random.Random(seed)
    state = engine.new_game(2, dict(games.declaration(game).quick_options), seed)
    for _ in range(rng.randrange(4)):
        if engine.outcome(state) is not None:
            break
        legal = engine.legal_actions(state)
        state, _ = engine.apply(state, legal[rng.randrange(len(legal))])
    decision = mapping.decision(state)
    seat = decision.player if decision is not None else mapping.acting_seats(state)[0]
    return mapping, state, seat


def _player() -> Any:
    return players.make("search", seed=1, iterations=40)  # fixed work: the same answer each time


@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("game", games.table_names())
def test_a_hint_is_a_legal_move_of_the_asking_seat(game: str, seed: int) -> None:
    mapping, state, seat = _due_state(game, seed)
    hint = work_out(mapping, state, seat, _player())
    engine = mapping.engine
    legal = {engine.action_to_str(state, a) for a in engine.legal_actions_of(state, seat)}
    assert hint.action in legal
    assert hint.words and hint.action not in hint.words or mapping.decision(state) is not None
    for place in hint.places:  # places name the seat's slots and tiles, in the game's words
        assert place["slot"] in [mapping.slot_name(state, p) for p in range(mapping.slots_per_seat())]


@pytest.mark.parametrize("game", games.table_names())
def test_what_the_seat_cannot_see_does_not_change_its_hint(game: str) -> None:
    mapping, state, seat = _due_state(game, 3)
    engine = mapping.engine
    others = [engine.determinize(state, seat, random.Random(k)) for k in (11, 12)]
    hints = {(h.action, h.words) for h in (work_out(mapping, s, seat, _player()) for s in [state, *others])}
    assert len(hints) == 1, hints


def _table(tmp: Path) -> tuple[Table, list[dict[str, Any]]]:
    table = Table(tmp)
    said: list[dict[str, Any]] = []
    table.session._publish = said.append  # noqa: SLF001  what the consoles and phones would receive
    table.session.new_game(2, {"track": 0}, 1)
    table.session.hints.iterations = 30
    return table, said


def test_a_hint_is_told_to_its_seat_alone_lit_on_its_robots_and_journaled_as_a_hint(tmp_path: Path) -> None:
    table, said = _table(tmp_path)
    session = table.session
    before = dict(table.board.cells)
    actions = len(session.journal.actions(session.game_id))
    session.hints.ask(0)
    hint = session.hints.hint(0)
    assert hint is not None and hint["words"].startswith("put ") and hint["places"]
    told = [e for e in said if e.get("event") == "message" and "hint" in e["text"]]
    assert told and all(e["private"] and e["seat"] == 0 for e in told)  # red's phone only
    assert hint["words"] not in session.view()["message"] and session.hints.hint(1) is None
    red = session.mapping.palette_index["red"]
    lit = {b: c for b, c in table.board.cells.items() if before.get(b) != c}
    assert lit and all(c.palette == red for c in lit.values())  # red's robots, in red
    assert len(session.journal.actions(session.game_id)) == actions  # no move
    assert [h["seat"] for h in session.journal.hints(session.game_id)] == [0]
    table.clock.advance(10)
    session._draw()  # noqa: SLF001  the marks go out after a while
    assert table.board.cells == before


def test_a_hint_asked_when_it_cannot_be_given_is_refused_in_words(tmp_path: Path) -> None:
    table, _ = _table(tmp_path)
    session = table.session
    with pytest.raises(HintError, match="your own move"):
        session.hints.ask(1)  # red moves first
    session.hints.thinking.add(0)
    with pytest.raises(HintError, match="being worked out"):
        session.hints.ask(0)
    session.hints.thinking.clear()
    session.set_computers({0: "random"}, 0.05)
    with pytest.raises(HintError, match="played by the computer"):
        session.hints.ask(0)
    session.set_computers({})
    session.hints.allowed = False
    with pytest.raises(HintError, match="hints are off"):
        session.hints.ask(0)
    assert session.journal.hints(session.game_id) == []


def test_the_table_keeps_answering_while_a_hint_is_worked_out(tmp_path: Path) -> None:
    import asyncio

    table, _ = _table(tmp_path)
    session = table.session
    session.hints.iterations = None
    session.hints.budget_s = 0.5

    async def ask() -> float:
        told = session.hints.ask(0)
        assert told.startswith("thinking") and 0 in session.hints.thinking
        answered = 0
        while 0 in session.hints.thinking:  # the loop is free: the table's work goes on meanwhile
            session.view()
            answered += 1
            await asyncio.sleep(0.01)
        return answered

    assert asyncio.run(ask()) > 5
    assert session.hints.hint(0) is not None


def test_at_a_running_table_a_hint_is_worked_out_in_a_worker_and_is_the_same_hint(tmp_path: Path) -> None:
    # a search thinking for seconds in the table's process would hold the event loop that
    # serves the board and the phones (session/thinking.py): the hint thinks in a worker
    table, _ = _table(tmp_path)
    session = table.session
    state = session.state
    expected = work_out(session.mapping, state, 0, players.make("search", seed=1, iterations=30),
                        session._tiles(0))  # noqa: SLF001  what the station holds

    async def ask() -> dict[str, Any] | None:
        session.hints.ask(0)
        assert session.hints.hint(0) is None and 0 in session.hints.thinking  # not answered in the loop
        assert session.hints._pool is not None  # noqa: SLF001  but by a worker process
        while 0 in session.hints.thinking:
            await asyncio.sleep(0.05)
        return session.hints.hint(0)

    try:
        hint = asyncio.run(ask())
    finally:
        session.stop_thinking()
    assert hint is not None and hint["words"] == expected.words
    assert session.hints._pool is None  # noqa: SLF001  the worker goes with the session


def test_a_hint_late_past_its_budget_is_said_to_be_late_not_left_promising(tmp_path: Path) -> None:
    # on a busy machine the worker may start long after the "up to 0.3 s" the seat was told:
    # the seat is then told why it waits (hints.LATE_S past the budget), and the hint still comes
    from botboard.session import hints

    table, _ = _table(tmp_path)
    session = table.session
    session.hints.iterations = None
    session.hints.budget_s = 0.01

    async def ask() -> None:
        loop = asyncio.get_running_loop()
        pending: asyncio.Future[Any] = loop.create_future()
        session.hints.thinking.add(0)
        session.hints._late(0, pending)  # noqa: SLF001  the moment LATE_S after the budget
        assert "taking longer than 0.01 s" in session.seat_messages[0]
        assert "busy" in session.seat_messages[0]
        session.hints.thinking.discard(0)
        session.seat_messages[0] = ""
        pending.set_result(None)
        session.hints._late(0, pending)  # noqa: SLF001  answered in time: nothing said
        assert session.seat_messages[0] == ""
        assert hints.LATE_S > 0

    asyncio.run(ask())


def test_the_hint_budget_is_the_seats_wait_and_the_search_thinks_for_what_is_left() -> None:
    # the seat is promised its hint within the budget: starting the worker and proposing
    # programs come out of it; a worker starved past it still thinks a least share, then is late
    import time

    from botboard.players.search import Search
    from botboard.session import hints

    class Timed(Search):  # the search player, noting the thinking time it was given
        given: list[float] = []

        def choose(self, situation: Any) -> Any:
            self.given.append(self.budget_s)
            return super().choose(situation)

    mapping, state, seat = _due_state(games.table_names()[0], 1)
    player = Timed(1, budget_s=2.0, iterations=20)
    work_out(mapping, state, seat, player, deadline=time.monotonic() - 60)  # long past
    work_out(mapping, state, seat, player, deadline=time.monotonic() + 60)
    work_out(mapping, state, seat, player)  # no deadline: the whole budget
    assert Timed.given[0] == 2.0 * hints.LEAST_SHARE
    assert 2.0 < Timed.given[1] < 60
    assert Timed.given[2] == 2.0 and player.budget_s == 2.0
