"""BotWars at the table: the session driven through board messages (fake board, fake clock).

The same style as Twin Tin Bots' session tests: cards go into register
slots as tagged tiles, buttons are pressed, and the journal, the LEDs, the
shared view and each seat's view are checked.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from bbshared import messages as m
from botboard.board import layouts
from botboard.games.botwars.cards import deck
from botboard.games.botwars.game import GAME
from botboard.games.botwars.table import leds

from ..session.helpers import GameTable, Msg



class BotWarsTable(GameTable):
    def __init__(self, tmp: Path, step_s: float = 0) -> None:
        super().__init__(tmp, "botwars", "botwars", step_s)

    def slot(self, seat: int, register: int) -> int:
        return self.at(seat, register - 1)

    def place(self, seat: int, register: int, card: int, payload: bytes | None = None) -> None:
        uid, data = self.session.mapping.virtual_tag(card, 1)
        self.put(self.slot(seat, register), uid, data if payload is None else payload)

    def remove(self, seat: int, register: int) -> None:
        self.take(self.slot(seat, register))

    def lay(self, seat: int, cards: list[int]) -> None:
        for register, card in enumerate(cards, start=1):
            self.place(seat, register, card)

    def hand(self, seat: int) -> list[int]:
        return list(self.session.state.players[seat].hand)


def _names(cards: list[int]) -> list[str]:
    return [deck().name(c) for c in cards]


def test_programs_are_simultaneous_secret_until_all_confirm_then_run_on_the_leds(tmp_path: Path) -> None:
    t = BotWarsTable(tmp_path)
    t.session.new_game(2, {}, 5)
    assert t.session.acting() == [0, 1]
    red, blue = t.hand(0)[:5], t.hand(1)[:5]
    t.lay(1, blue)
    t.press(1, "confirm")  # blue first: held, unseen, until red's program is in
    assert t.actions() == [] and 1 in t.session.confirmed
    assert not any(name in t.shared_text() for name in _names(t.hand(0) + t.hand(1)))
    seat_one = json.dumps(t.session.seat_view(1))
    assert all(name in seat_one for name in _names(t.hand(1)))
    assert not any(name in seat_one for name in _names(t.hand(0)))
    t.lay(0, red)
    t.press(0, "confirm")
    assert t.actions() == [f"p1 program {' '.join(_names(red))}", f"p2 program {' '.join(_names(blue))}"]
    state = t.session.state
    assert state.turn == 2 and state.stages >= 5
    assert t.session.mode == "clear" and "last turn's cards go back in the rack" in t.session.now()["text"]
    t.clear()
    assert t.session.mode == "program"
    for seat, robot in enumerate(state.players):  # each robot shows on its square in its colour
        if robot.square is not None:
            cell = t.session.bmap.to_board[leds.cell_of(state.board, robot.square)]
            assert t.board.cells[cell] == leds.picture(state)[leds.cell_of(state.board, robot.square)]
    assert any("stage 5" in line for line in t.session.log)  # the stages are public once run


def test_a_card_dealt_to_another_seat_is_refused_in_words_to_that_seat_only(tmp_path: Path) -> None:
    t = BotWarsTable(tmp_path)
    t.session.new_game(2, {}, 5)
    stolen = t.hand(1)[0]
    t.lay(0, [stolen, *t.hand(0)[:4]])
    t.press(0, "confirm")
    assert t.actions() == [] and 0 not in t.session.confirmed
    private = [e for e in t.published if e.get("private") and e["seat"] == 0]
    assert "not in your hand" in private[-1]["text"] and "blue" not in private[-1]["text"]  # not whose it is
    assert deck().name(stolen) not in t.shared_text()
    assert t.alerts(), "the seat's robot blinks red"


def test_a_fused_register_must_keep_its_card(tmp_path: Path) -> None:
    t = BotWarsTable(tmp_path)
    t.session.new_game(2, {}, 5)
    position = {"robots": {"p1": {"hp": 5, "fused": {"5": "FWD2:670"}, "square": "r1c5"}}}
    state = GAME.scenario_start(2, {}, 5, position)
    t.session._start(t.session.game_id or 0, state)  # a position with a fused register
    hand = t.hand(0)
    t.lay(0, hand[:4])  # register 5 left empty
    t.press(0, "confirm")
    assert "register 5 is fused: put FWD2:670 back" in t.session.seat_messages[0]
    t.place(0, 5, deck().parse("FWD2:670"))
    t.lay(1, t.hand(1)[:5])
    t.press(1, "confirm")
    t.press(0, "confirm")
    assert t.actions()[0] == f"p1 program {' '.join(_names(hand[:4]))}"


def test_changes_after_confirm_are_flagged_and_change_nothing(tmp_path: Path) -> None:
    t = BotWarsTable(tmp_path)
    t.session.new_game(2, {}, 5)
    blue = t.hand(1)[:5]
    t.lay(1, blue)
    t.press(1, "confirm")
    t.remove(1, 3)
    assert "moved after confirming" in t.session.message and t.alerts()
    t.press(1, "confirm")  # a locked station's confirm says it waits
    assert "has confirmed" in t.session.seat_messages[1]
    t.lay(0, t.hand(0)[:5])
    t.press(0, "confirm")
    assert t.actions()[1] == f"p2 program {' '.join(_names(blue))}"  # the confirmed program ran


def test_an_unknown_tag_is_refused_and_named(tmp_path: Path) -> None:
    t = BotWarsTable(tmp_path)
    t.session.new_game(2, {}, 5)
    t.lay(0, t.hand(0)[:4])
    t.place(0, 5, t.hand(0)[4], payload=b"")
    assert "unknown tag" in t.session.seat_messages[0]
    t.press(0, "confirm")
    assert t.actions() == [] and "register 5" in t.session.seat_messages[0]


def test_reboot_is_declared_with_the_previous_button(tmp_path: Path) -> None:
    t = BotWarsTable(tmp_path)
    t.session.new_game(2, {}, 5)
    t.press(0, "previous")
    assert t.session.seat_view(0)["controls"][0]["value"] is True
    said = [e.get("text", "") + e.get("action", "") for e in t.published if not e.get("private")]
    assert not any("reboot" in words for words in said)  # the table is not told
    assert t.session.view()["public"]["robots"]["p1"]["reboot_next"] == "hidden"
    t.lay(0, t.hand(0)[:5])
    t.lay(1, t.hand(1)[:5])
    t.press(0, "confirm")
    t.press(1, "confirm")
    assert t.actions()[0].endswith(" reboot")


def test_the_stage_report_grows_as_the_turn_plays(tmp_path: Path) -> None:
    async def play() -> list[int]:
        t = BotWarsTable(tmp_path, step_s=0.05)
        t.session.new_game(2, {}, 5)
        t.lay(0, t.hand(0)[:5])
        t.press(0, "confirm")
        t.lay(1, t.hand(1)[:5])
        before = len(t.session.log)
        t.press(1, "confirm")  # the turn runs: its frames play 0.05 s apart
        seen = [len(t.session.log) - before]
        while t.session.mode == "animate":
            await asyncio.sleep(0.02)
            seen.append(len(t.session.log) - before)
        turn = [e for e in t.published if e.get("event") == "action"][-1]["events"]
        assert seen[-1] == len(turn) and t.session.log[-1] == turn[-1]  # all of it, in order, at the end
        return seen

    seen = asyncio.run(play())
    assert seen == sorted(seen) and 0 < seen[0] < seen[-1]  # a line at the first frame, more as it plays
    assert len(set(seen)) > 3


def test_a_card_at_a_station_nobody_sits_at_is_refused(tmp_path: Path) -> None:
    t = BotWarsTable(tmp_path)
    t.session.new_game(2, {}, 5)  # north and east play; south's slots belong to nobody
    south = layouts.load("botwars").stations[2].slots[0]
    uid, payload = t.session.mapping.virtual_tag(t.hand(0)[0], 1)
    t.session.on_message(Msg(m.SLOT, {"slot": south, "present": 1, "uid": uid, "payload": payload}))
    assert "south station, where nobody plays: take it away" in t.session.message
    assert deck().name(t.hand(0)[0]) not in t.shared_text()  # the card is not named to the table
    assert t.actions() == [] and t.session.acting() == [0, 1]  # nothing changed
    red = t.hand(0)[1:6]  # the stray card is not needed: red programs without it
    t.lay(0, red)
    t.press(0, "confirm")
    assert t.actions() == [f"p1 program {' '.join(_names(red))}"]


def test_a_destroyed_robot_chooses_its_facing_at_the_table(tmp_path: Path) -> None:
    t = BotWarsTable(tmp_path)
    t.session.new_game(2, {}, 5)
    doc = GAME.state_to_json(GAME.new_game(2, {}, 5))
    doc.update(phase="decide", decisions=[[0, "reinstate"]])
    doc["robots"]["p1"].update(mode="destroyed", square=None, lives=2, hand=[])
    t.session._start(t.session.game_id or 0, GAME.state_from_json(doc))
    assert t.session.mode == "decide"
    view = t.session.seat_view(0)
    assert view["pending"]["choices"] == ["p1 face N", "p1 face E", "p1 face S", "p1 face W"]
    assert t.session.seat_view(1)["pending"] is None  # blue's phone is not asked
    first = view["pending"]["selected"]
    t.press(0, "next")  # step to the next facing, then take it
    chosen = t.session.seat_view(0)["pending"]["selected"]
    assert chosen != first
    t.press(0, "confirm")
    assert t.actions() == [chosen]
    robot = t.session.state.players[0]
    assert robot.square == robot.checkpoint and "NESW"[robot.facing] == chosen[-1]


def test_the_option_threshold_is_declared_with_the_program(tmp_path: Path) -> None:
    t = BotWarsTable(tmp_path)
    t.session.new_game(2, {}, 5)
    assert [c["name"] for c in t.session.seat_view(0)["controls"]] == ["reboot"]  # no option held
    state = GAME.scenario_start(2, {}, 5, {"robots": {"p1": {"options": 1}}})
    t.session._start(t.session.game_id or 0, state)
    threshold = next(c for c in t.session.seat_view(0)["controls"] if c["name"] == "threshold")
    assert threshold["value"] == 6  # the rules' default
    t.press(0, "next")  # one step up: sacrifice an option at or below 7 HP
    t.lay(0, t.hand(0)[:5])
    t.press(0, "confirm")
    assert t.actions()[0].endswith(" sacrifice@7")
    shown = t.session.view()["public"]["robots"]["p1"]
    assert shown["submitted"] and shown["threshold"] == "hidden"  # declared in secret, with the program
