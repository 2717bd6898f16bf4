"""GameSession driven through board messages (fake board, fake clock)."""

from __future__ import annotations

from pathlib import Path

from bbshared import messages as m
from botboard.games.twintinbots.game import GAME
from botboard.games.twintinbots.table import leds
from botboard.session.journal import Journal, replay
from botboard.session.session import GameSession

from .helpers import FakeBoard, Msg, Table

ALERT = leds.INDEX["alert"]


def _alerts(board: FakeBoard) -> list[int]:
    return [i for i, c in board.cells.items() if c.palette == ALERT and c.effect == m.BLINK]


def test_first_turns_are_read_from_the_slots_and_journaled(tmp_path: Path) -> None:
    t = Table(tmp_path)
    gid = t.session.new_game(2, {"track": 0}, 3)
    t.first_turns()
    actions = [a["action"] for a in t.journal.actions(gid)]
    assert actions == ["A1=F1 + B1=L", "A1=R + B1=F2"]
    state = t.session.state
    assert state is not None and state.turns == 2 and state.player == 0
    # red's turn again: its empty slots are scanned first (A1 and B1 hold tiles)
    assert t.board.priority == [t.slot(0, n) for n in ("A2", "A3", "B2", "B3")]
    assert state.programs[0] == (1, 0, 0)  # red robot A runs F1
    assert t.session.view()["turn"] == "red"


def test_a_pass_needs_a_second_confirm_and_any_tile_change_resets_it(tmp_path: Path) -> None:
    t = Table(tmp_path)
    gid = t.session.new_game(2, {"track": 0}, 3)
    t.first_turns()
    t.press(0, "confirm")
    assert "confirm again to pass" in t.session.message
    assert len(t.journal.actions(gid)) == 2
    t.press(0, "confirm")
    assert t.journal.actions(gid)[-1]["action"] == "pass"


def test_two_changes_are_refused_with_words_and_blinking_robots(tmp_path: Path) -> None:
    t = Table(tmp_path)
    gid = t.session.new_game(2, {"track": 0}, 3)
    t.first_turns()
    t.remove(0, "A1")
    t.place(0, "B2", "R/red")
    t.press(0, "confirm")  # Double Modification is allowed: it asks for a second confirm
    assert "Double Modification" in t.session.message
    t.press(0, "cancel")
    t.press(0, "confirm")
    assert "Double Modification" in t.session.message and len(t.journal.actions(gid)) == 2
    t.place(0, "B3", "L/red")
    t.press(0, "confirm")
    assert t.session.message.startswith("refused:")
    assert "put the Forward 1x tile back in A1" in t.session.message
    # three slots changed: no single fix makes it legal, so the words do not offer "X, or Y"
    assert "undo these until two changes (with your Double Modification) is left:" in t.session.message
    assert ", or " not in t.session.message
    assert len(_alerts(t.board)) == 2  # both red robots blink
    assert len(t.journal.actions(gid)) == 2  # nothing changed


def test_another_players_tile_and_unknown_tags_are_refused(tmp_path: Path) -> None:
    t = Table(tmp_path)
    gid = t.session.new_game(2, {"track": 0}, 3)
    t.place(0, "A1", "F1/blue")
    t.place(0, "B1", "L/red")
    assert "blue's tile" in t.session.message  # said when the tile arrives, before any confirm
    t.press(0, "confirm")
    assert "blue's tile, not red's" in t.session.message
    t.session.on_message(Msg(m.SLOT, {"slot": t.slot(0, "A1"), "present": 1,
                                      "uid": b"\x04\x99\x99\x99\x99\x99\x99", "payload": b""}))
    assert "unknown tag" in t.session.message
    t.press(0, "confirm")
    assert "unknown tag" in t.session.message and t.journal.actions(gid) == []


def test_out_of_turn_and_inactive_station_tags_leave_the_game_alone(tmp_path: Path) -> None:
    t = Table(tmp_path)
    gid = t.session.new_game(2, {"track": 0}, 3)
    t.first_turns()
    before = GAME.state_hash(t.session.state)
    t.remove(1, "A1")  # blue fiddles while red plays
    assert "blue's tiles moved out of turn" in t.session.message
    assert _alerts(t.board)
    t.place(1, "A1", "R/blue")
    assert not _alerts(t.board)
    north = t.layout.stations[0].slots[0]
    t.session.on_message(Msg(m.SLOT, {"slot": north, "present": 1, "uid": b"\x04\x01",
                                      "payload": b""}))
    assert "nobody plays" in t.session.message
    t.press(0, "confirm", m.LONG_PRESS)
    assert "held down" in t.session.message
    assert GAME.state_hash(t.session.state) == before and len(t.journal.actions(gid)) == 2


def _zap_ready(t: Table) -> int:
    """A game whose position has red's zap ready, played up to the zap's decision; its id."""
    position = {"crystals": {}, "robots": {"redA": {"at": "0,0", "facing": 0},
                                           "blueA": {"at": "2,0", "facing": 3}},
                "programs": {"redA": ["Z", "-", "-"], "redB": ["L", "-", "-"],
                             "blueA": ["L", "-", "-"], "blueB": ["L", "-", "-"]}}
    state = GAME.scenario_start(2, {"track": 0}, 1, position)
    gid = t.session.new_game(2, {"track": 0}, 1)
    t.session._start(gid, state)  # noqa: SLF001
    t.session._apply("pass")  # noqa: SLF001
    return gid


def test_decisions_are_made_on_the_board(tmp_path: Path) -> None:
    t = Table(tmp_path)
    _zap_ready(t)
    view = t.session.view()
    assert view["phase"] == "decide" and view["pending"]["who"] == "red"
    pulsing = [c for c in t.board.cells.values() if c.palette == leds.INDEX["choice"]
               and c.effect in (m.PULSE, m.SPIN)]
    assert len(pulsing) >= 3
    t.press(1, "next")
    assert "red's to make" in t.session.message
    t.press(0, "next")
    t.press(0, "confirm")
    assert t.session.view()["phase"] != "decide" or t.session.view()["pending"]["kind"] != "zap-order"


def test_a_restarted_host_resumes_the_same_game(tmp_path: Path) -> None:
    t = Table(tmp_path)
    gid = t.session.new_game(2, {"track": 0}, 3)
    t.first_turns()
    digest = GAME.state_hash(t.session.state)
    board = FakeBoard()
    again = GameSession(t.layout, Journal.in_dir(tmp_path), board, step_s=0)
    assert again.resume()
    assert again.game_id == gid and GAME.state_hash(again.state) == digest
    for slot, reading in t.session.table.contents().items():  # the board's census of the slots
        again.on_slot(slot, True, reading.uid, reading.payload)
    t.clock.advance(5)  # the tile acknowledgements have faded on the first board
    t.session._draw()  # noqa: SLF001
    again.acks.clear()
    again._draw()  # noqa: SLF001
    assert board.cells == t.board.cells  # the new board shows exactly what the old one did
    assert again.undo() == "A1=R + B1=F2"
    _, state, _ = replay(again.journal, gid)
    assert state.turns == 1


def test_a_special_order_the_player_does_not_hold_is_refused(tmp_path: Path) -> None:
    t = Table(tmp_path)
    gid = t.session.new_game(2, {"track": 0}, 3)
    state = t.session.state
    assert state is not None
    from botboard.games.twintinbots import content as C

    foreign = next(k for k in C.SPECIALS if k not in state.hands[0])
    t.place(0, "A1", f"{C.TILE_CODES[foreign]}")
    t.place(0, "B1", "L/red")
    t.press(0, "confirm")
    assert "not yours to place" in t.session.message or "not in your hand" in t.session.message
    assert t.journal.actions(gid) == []


def test_two_tiles_in_a_slot_and_a_tile_half_in_get_messages_and_no_move(tmp_path: Path) -> None:
    t = Table(tmp_path)
    gid = t.session.new_game(2, {"track": 0}, 3)
    slot = t.slot(0, "A1")
    for serial in (1, 2, 1, 2):  # two tags answer in turn
        t.place(0, "A1", "F1/red", serial)
    assert "holds two tiles" in t.session.message
    t.place(0, "B1", "L/red")
    for serial in (1, 2, 1, 2):  # still both there when confirm is pressed
        t.place(0, "A1", "F1/red", serial)
    t.clock.advance(0.3)
    t.session.confirm()
    assert "does not read steadily" in t.session.message and t.journal.actions(gid) == []
    t.clock.advance(5)
    for _ in range(4):  # the same tag coming and going
        t.remove(0, "B1")
        t.place(0, "B1", "L/red")
    assert "keeps coming and going" in t.session.message
    assert slot in t.session.table.contents()


def test_the_daemon_glue_resumes_or_starts_a_game(tmp_path: Path) -> None:
    from types import SimpleNamespace

    from botboard.board import layouts
    from botboard.link.connection import BoardConnection
    from botboard.link.image import BoardImage
    from botboard.session.host import attach

    def daemon() -> SimpleNamespace:
        return SimpleNamespace(conn=BoardConnection("/dev/null", BoardImage.blank(61)),
                               layout=layouts.load("ttb-small"), publish=lambda e: None,
                               session=None)

    first = daemon()
    session = attach(first, tmp_path, players=3, seed=4)
    assert first.session is session and session.game_id == 1 and session.view()["players"] == 3
    session.journal.close()
    again = daemon()
    assert attach(again, tmp_path, players=2).game_id == 1  # the unfinished game resumes
    too_big = daemon()
    big = attach(too_big, tmp_path / "big", players=6)  # 6 players need ttb-big: said, not raised
    assert big.game_id is None and "ttb-big" in big.message


def test_unsteady_slots_and_held_buttons_blink_until_they_are_fixed(tmp_path: Path) -> None:
    t = Table(tmp_path)
    gid = t.session.new_game(2, {"track": 0}, 3)
    assert not _alerts(t.board)
    for serial in (1, 2, 1, 2):  # two tags in red's A1
        t.place(0, "A1", "F1/red", serial)
    assert "holds two tiles" in t.session.message
    assert len(_alerts(t.board)) == 1  # red's robot A blinks
    t.place(0, "A1", "F1/red", 2)  # the second tile taken away: one reads steadily
    t.clock.advance(2)
    t.session._check_table()  # what the session schedules for when the window has passed
    assert not _alerts(t.board)
    for _ in range(4):  # blue's tile half in, coming and going (blue is not active)
        t.place(1, "B2", "L/blue")
        t.remove(1, "B2")
    assert "keeps coming and going" in t.session.message
    assert len(_alerts(t.board)) == 1
    t.clock.advance(5)
    t.session._check_table()
    assert not _alerts(t.board)
    t.press(0, "confirm", m.LONG_PRESS)  # red leans on confirm
    assert "confirm button is held down" in t.session.message
    assert len(_alerts(t.board)) == 2  # both red robots
    t.press(0, "confirm", m.RELEASE)
    assert not _alerts(t.board)
    stuck = t.session.seating.button_of(1, "cancel")  # type: ignore[union-attr]
    t.session.on_message(Msg(m.ERROR, {"code": m.E_BUTTON_STUCK, "ref": stuck}))
    assert "stuck" in t.session.message and len(_alerts(t.board)) == 2  # both blue robots
    t.session.on_message(Msg(m.BUTTON, {"button": stuck, "action": m.RELEASE}))
    assert not _alerts(t.board)
    assert t.journal.actions(gid) == []  # none of it touched the game


def test_a_tile_of_another_colour_blinks_as_soon_as_it_is_placed(tmp_path: Path) -> None:
    t = Table(tmp_path)
    t.session.new_game(2, {"track": 0}, 3)
    t.place(0, "B1", "L/blue")
    assert "red: slot B1: that L is blue's tile, not red's; give it back" in t.session.message
    assert len(_alerts(t.board)) == 1
    red = t.session.seating.seat_station_name(0)
    assert "give it back" in t.session.view()["station_words"][red]  # at red's station, until fixed
    t.remove(0, "B1")
    assert not _alerts(t.board)
    assert "give it back" not in t.session.view()["station_words"].get(red, "")


def test_a_touched_candidate_is_the_decision_taken(tmp_path: Path) -> None:
    t = Table(tmp_path)
    gid = _zap_ready(t)
    picker, bmap = t.session.picker, t.session.bmap
    assert picker is not None and bmap is not None
    alone = [c for c in picker.candidates if sum(1 for o in picker.candidates if o.cell == c.cell) == 1]
    chosen = alone[-1]  # not the first: a default would not pass for a choice
    assert chosen != picker.candidates[0]
    elsewhere = next(b for b, e in bmap.to_engine.items() if all(c.cell != e for c in picker.candidates))
    t.session.on_message(Msg(m.TOUCH, {"cell": elsewhere}))
    assert "not one of the choices" in t.session.message and t.session.view()["phase"] == "decide"
    t.session.on_message(Msg(m.TOUCH, {"cell": bmap.to_board[chosen.cell]}))
    assert t.journal.actions(gid)[-1]["action"] == chosen.choice


def test_a_refusal_stays_at_its_station_until_the_move_is_made(tmp_path: Path) -> None:
    t = Table(tmp_path)
    gid = t.session.new_game(2, {"track": 0}, 3)
    t.first_turns()
    t.remove(0, "A1")
    t.place(0, "B2", "R/red")
    t.place(0, "B3", "L/red")
    t.press(0, "confirm")
    red = t.session.seating.seat_station_name(0)
    words = t.session.view()["station_words"]
    assert words[red].startswith("refused:") and "A1" in words[red]
    t.session.say("a word for the whole table")  # other words come and go: the station keeps its own
    assert t.session.view()["station_words"][red] == words[red]
    t.remove(0, "B3")
    t.remove(0, "B2")  # back to one change
    t.press(0, "confirm")
    assert len(t.journal.actions(gid)) == 3
    assert red not in t.session.view()["station_words"]  # the move is made: nothing left to fix
