"""A round boundary is a table step: before a deal, a new round or a new game the table says what
to take off and where, in the rules' words, blinks those slots' robots, and says whose turn it is
only once the board matches the game. Tiles the rules took off are never "moved out of turn"."""

from __future__ import annotations

from pathlib import Path

from bbshared import messages as m

from ..goblins.table_helpers import Yards
from .helpers import GameTable, Table


def _said(t: GameTable | Table, published: list[dict]) -> str:
    return " ".join(e["text"] for e in published if e.get("event") == "message")


def test_botwars_turn_two_waits_for_last_turns_cards_to_go_back_in_the_rack(tmp_path: Path) -> None:
    t = GameTable(tmp_path, "botwars", "botwars")
    s = t.session
    s.new_game(2, {}, 5)
    hands = {seat: list(s.state.players[seat].hand[:5]) for seat in (0, 1)}
    for seat in (0, 1):
        for pos, card in enumerate(hands[seat]):
            t.put(t.at(seat, pos), *s.mapping.virtual_tag(card, 1))
        t.press(seat, "confirm")
    assert s.state.turn == 2 and s.mode == "clear"
    now = s.now()["text"]
    assert "last turn's cards go back in the rack" in now and "register 1" in now
    assert "lays a program" not in now and s.acting() == []  # nobody's turn is said yet
    assert t.alerts(), "the slots to clear blink on their robots"
    red = s.now(0)["text"]
    assert red.startswith("first clear your station: ") and "take " in red
    assert s.mapping.tile_words(hands[0][0]) in red  # the phone names the card, the shared line does not
    assert s.mapping.tile_words(hands[0][0]) not in now
    before = len(t.actions())
    t.press(0, "confirm")  # a confirm now counts for nothing: the table says to clear first
    assert len(t.actions()) == before and "go back in the rack" in s.seat_messages[0]
    for pos in range(5):
        t.take(t.at(0, pos))
    assert s.mode == "clear" and "red" not in " ".join(s.now()["who"])  # red is done, blue is not
    assert s.now(0)["text"].startswith("wait: blue clears")
    for pos in range(5):
        t.take(t.at(1, pos))
    assert s.mode == "program" and s.acting() == [0, 1]
    assert s.message.startswith("the board is ready: turn 2")
    assert "hears the tile" not in _said(t, t.published) and "out of turn" not in _said(t, t.published)


def test_goblins_round_two_clears_round_ones_robots_before_anyone_builds(tmp_path: Path) -> None:
    t = Yards(tmp_path, players=2, seed=4)
    s = t.session
    cleared: list[str] = []
    for _ in range(1500):
        if s.state.round >= 2 and s.mode != "clear" or s.mode == "over":
            break
        if s.mode == "clear":
            cleared.append(s.now()["text"])
            assert not any("builds robot" in p for p in (s.now(0)["text"], s.now(1)["text"]))
            for seat in (0, 1):  # hands do what the phones say: the yards as the game has them
                t.hold(seat, s.mapping.station_tiles(s.state, seat))
            continue
        t.step(tidy=False)  # nobody tidies unasked: the table must ask
    assert s.state.round == 2, s.message
    assert any("round 2 builds new robots, last round's robot comes off the yard" in c for c in cleared), cleared
    said = _said(t, t.published)
    assert "out of turn" not in said and "all new" not in said
    seating = s.seating
    assert all(s.table.reading(k) is None for seat in (0, 1) for k in seating.slots_of(seat))


def test_a_new_game_over_a_full_board_says_what_to_take_off_before_whose_turn(tmp_path: Path) -> None:
    t = Table(tmp_path)
    s = t.session
    said: list[dict] = []
    s._publish = said.append  # noqa: SLF001  what consoles and phones receive
    s.new_game(2, {"track": 0}, 1)
    t.first_turns()
    t.place(0, "A2", "F2/red")  # a fourth tile on red's station, red to play
    s.new_game(2, {"track": 0}, 2)
    assert s.mode == "clear" and s.acting() == []
    now = s.now()["text"]
    assert now.startswith("first clear the board: red: a new game starts: take red F1 (Forward 1x) out of A1")
    assert "blue: a new game starts" in now and "red to play" not in now
    alert = s.mapping.palette_index["alert"]
    assert any(c.palette == alert and c.effect == m.BLINK for c in t.board.cells.values())
    for seat, name in [(0, "A1"), (0, "B1"), (0, "A2"), (1, "A1")]:
        t.remove(seat, name)
    assert s.mode == "clear" and s.now()["who"] == ["blue"]
    t.remove(1, "B1")
    assert s.mode == "program" and s.now()["text"].startswith("red to play")
    assert not any(c.palette == alert for c in t.board.cells.values())
    assert not any("out of turn" in e.get("text", "") for e in said)
