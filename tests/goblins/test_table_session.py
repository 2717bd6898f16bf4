"""Goblins, Inc. at the table (a fake board): building on the yards, refusals, turning a tile,
partners sharing a yard, secret controllers, dice and damage on the LEDs, scores, resume."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from bbshared import messages as m
from botboard.games.goblins.table import leds
from botboard.games.goblins.yard import COCKPIT, SIDE_NAMES, line_squares
from botboard.session.journal import Journal
from botboard.session.session import GameSession

from ..session.helpers import Clock, FakeBoard
from .table_helpers import BOX, Yards, joined_spot, loose_spot

CHOICE = leds.INDEX["choice"]
ALERT = leds.INDEX["alert"]


def _building(tmp: Path, players: int = 2, seed: int = 1) -> Yards:
    table = Yards(tmp, players, seed)
    table.play_until(lambda: table.session.mode == "program")
    return table


def test_a_tile_laid_turned_and_confirmed_is_built(tmp_path: Path) -> None:
    table = _building(tmp_path)
    seat = table.builder()
    tile, square, top = joined_spot(table.state, seat)
    table.lay(seat, square, tile)
    for _ in range(SIDE_NAMES.index(top)):
        table.press(seat, "next")  # a quarter turn clockwise each
    assert table.session.controls[seat]["top"] == top
    laid = table.board.cells[table.cell_of(seat, square)]
    assert (laid.palette, laid.effect) == (CHOICE, m.PULSE)  # the tile being placed breathes
    assert table.board.cells[table.cell_of(seat, COCKPIT)].palette == CHOICE  # what it joins lights
    table.press(seat, "confirm")
    assert table.actions()[-1] == f"p{seat + 1} place t{tile} {square} {top}"
    team = table.state.team_of(seat)
    assert table.state.robots[team].yard[square] == [tile, SIDE_NAMES.index(top)]
    built = table.board.cells[table.cell_of(seat, square)]
    assert (built.palette, built.effect) == (leds.INDEX[BOX.tiles[tile].type], m.SOLID)
    assert "top" not in table.session.controls.get(seat, {})  # the next tile starts unturned


def test_previous_turns_the_other_way_and_the_phone_can_set_it(tmp_path: Path) -> None:
    table = _building(tmp_path)
    seat = table.builder()
    table.press(seat, "previous")
    assert table.session.controls[seat]["top"] == "W"
    assert "anticlockwise" in table.session.seat_messages[seat]
    table.session.set_control(seat, "top", "S")
    assert table.session.seat_view(seat)["controls"][0]["value"] == "S"


def _refused(table: Yards, seat: int, words: str, squares: list[str]) -> None:
    done = table.actions()
    table.press(seat, "confirm")
    assert table.actions() == done
    assert words in table.session.seat_messages[seat]
    assert words in table.session.view()["station_words"][table.session.seating.seat_station_name(seat)]
    assert sorted(table.alerts()) == sorted(table.cell_of(seat, s) for s in squares)


def test_each_wrong_placement_is_refused_in_words_with_its_square_marked(tmp_path: Path) -> None:
    table = _building(tmp_path)
    seat = table.builder()
    robot = table.state.robots[table.state.team_of(seat)]
    hand = table.state.players[seat].hand
    _refused(table, seat, "lay one of your tiles on a free square", [])

    blocked = robot.blocked[0]
    table.lay(seat, blocked, hand[0])
    _refused(table, seat, f"{blocked} is blocked by this round's blueprint", [blocked])
    table.lift(seat, blocked)

    table.lay(seat, COCKPIT, hand[0])
    _refused(table, seat, "r3c3 is the cockpit: no tile goes there", [COCKPIT])
    table.lift(seat, COCKPIT)

    stranger = next(t for t in BOX.tiles if t not in hand)
    tile, square, top = joined_spot(table.state, seat)
    table.lay(seat, square, stranger)
    _refused(table, seat, f"t{stranger} is not one of the tiles you build with this step", [square])
    table.lift(seat, square)

    other = next(t for t in hand if t != tile)
    corner = next(s for s in ("r1c1", "r5c5", "r1c5", "r5c1") if s not in robot.blocked and s != square)
    table.lay(seat, square, tile)
    table.lay(seat, corner, other)
    _refused(table, seat, "one tile at a time", [square, corner])
    table.lift(seat, corner)

    table.session.set_control(seat, "top", top)
    table.press(seat, "confirm")  # the one left is taken
    assert table.actions()[-1].startswith(f"p{seat + 1} place t{tile} {square}")
    table.lift(seat, square)
    table.lay(seat, corner, other)
    _refused(table, seat, f"{square} should hold t{tile}: put it back", [square])


def test_a_tile_that_joins_nothing_asks_a_second_confirm(tmp_path: Path) -> None:
    table = _building(tmp_path)
    seat = table.builder()
    tile, square, top = loose_spot(table.state, seat)
    table.lay(seat, square, tile)
    table.session.set_control(seat, "top", top)
    done = table.actions()
    table.press(seat, "confirm")
    assert table.actions() == done and seat in table.session.awaiting
    assert "falls off before combat" in table.session.seat_messages[seat]
    table.press(seat, "confirm")
    assert table.actions()[-1] == f"p{seat + 1} place t{tile} {square} {top}"
    loose = table.board.cells[table.cell_of(seat, square)]
    assert loose.effect == m.PULSE  # loose tiles breathe until something joins them


def test_partners_share_a_yard_that_answers_to_whoever_acts_and_change_yards_each_round(
        tmp_path: Path) -> None:
    table = Yards(tmp_path, players=4, seed=2)
    session, state = table.session, table.state
    partners_first = sorted(sorted(r.members) for r in state.robots)
    for seat in range(4):
        assert session.seating.station_of[seat] == state.team_of(seat)
    decider = session.picker.decision.player
    partner = next(p for p in state.robots[state.team_of(decider)].members if p != decider)
    assert session.seating.button(session.seating.button_of(partner, "next")) == (decider, "next")
    table.play_until(lambda: table.state.round == 2)
    state = table.state
    for seat in range(4):
        assert session.seating.station_of[seat] == state.team_of(seat)
    assert sorted(sorted(r.members) for r in state.robots) != partners_first


def _to_pilots(table: Yards) -> None:
    table.play_until(lambda: table.session.mode == "decide"
                     and table.session.picker.decision.kind == "pilot")


def test_controllers_are_set_in_secret_and_revealed_together(tmp_path: Path) -> None:
    table = Yards(tmp_path, players=2, seed=3)
    _to_pilots(table)
    session = table.session
    pilot = session.picker.decision.player
    assert session.view()["pending"]["choices"] == [] and session.view()["pending"]["private"]
    shared_before = len(table.published)
    table.press(pilot, "next")
    said = session.seat_messages[pilot]
    assert said.startswith("selected: steer")
    chosen = session.picker.selected.choice
    table.press(pilot, "confirm")
    assert table.actions()[-1] == chosen
    public = json.dumps([e for e in table.published[shared_before:] if not e.get("private")])
    assert "steer" not in public and chosen not in public and chosen not in json.dumps(session.view())
    assert "sets the pilot's controller face down" in public
    table.play_until(lambda: bool(table.state.reveal))
    view = session.view()
    assert len(view["controllers"]) == 2 and any("steers" in line for line in view["log"])


def _roll_with_damage(table: Yards, tidy: bool = True) -> tuple[object, list, object]:
    """Play on until an action rolls dice that destroy a tile; (before, events, after)
    (``tidy``: the fallen tiles are then taken off the yard)."""
    for _ in range(1500):
        before = table.state
        table.step(tidy=False)
        _, events = table.session.engine.apply_str(before, table.actions()[-1])
        kinds = {e.kind for e in events}
        if "roll" in kinds and "destroyed" in kinds:
            if tidy:
                table.tidy()
            return before, events, table.state
        table.tidy()
    raise AssertionError("no damaging roll")


def test_dice_light_their_lines_and_hits_flash_then_fallen_tiles_go_dark(tmp_path: Path) -> None:
    table = Yards(tmp_path, players=2, seed=4)
    before, events, after = _roll_with_damage(table)
    frames = table.session.mapping.frames(before, events, after)
    rolls = [(i, e) for i, (e, _) in enumerate(frames) if e is not None and e.kind == "roll" and any(e.data["dice"])]
    assert rolls
    index, roll = rolls[0]
    team = roll.data["team"]
    aims = [SIDE_NAMES.index(e.data["side"]) for e in events if e.kind == "aim" and e.data["team"] == team]
    side = aims[0] if aims else before.reveal[team]["side"]  # aimed by this action, or before it
    lit = frames[index][1]
    for die in [d for d in roll.data["dice"] if d]:
        for square in line_squares(BOX, side, die):
            assert lit[leds.cell_of(1 - team, square)].palette == leds.INDEX["dice"]
    final = frames[-1][1]
    for event, picture in frames:
        if event is not None and event.kind == "destroyed":
            cell = leds.cell_of(event.data["team"], event.data["square"])
            assert picture[cell].palette == leds.INDEX["hit"]
            assert final[cell].palette in (leds.INDEX["floor"], leds.INDEX["blocked"])
    destroyed = [e for e in events if e.kind == "destroyed"]
    for event in destroyed:  # the board shows the robot without them
        shown = table.board.cells[table.session.bmap.to_board[leds.cell_of(event.data["team"], event.data["square"])]]
        assert shown.palette in (leds.INDEX["floor"], leds.INDEX["blocked"])


def test_a_fallen_tile_left_on_the_yard_is_flagged_until_taken_off(tmp_path: Path) -> None:
    table = Yards(tmp_path, players=2, seed=4)
    _roll_with_damage(table, tidy=False)
    gone = [(t, s) for t, r in enumerate(table.state.robots) for s in ALL_SQ if s not in r.yard
            and table.session.table.reading(table.at(r.members[0], table.session.mapping.squares[t].index(s)))]
    assert gone, "the fallen tiles still lie on the yard"
    team, square = gone[0]
    seat = table.state.robots[team].members[0]
    words = " ".join(table.session.view()["station_words"].values())
    assert f"off {square}: it fell off" in words
    assert table.cell_of(seat, square) in table.alerts()


def test_the_end_of_a_round_scores_on_the_console(tmp_path: Path) -> None:
    table = Yards(tmp_path, players=3, seed=5)
    table.play_until(lambda: table.state.round == 2)
    view = table.session.view()
    names = ["red", "blue", "green"]
    scores = {n: p.score for n, p in zip(names, table.state.players)}
    assert view["score"] == scores and any(scores.values())
    assert view["track"] == {n: s % 50 for n, s in scores.items()}
    assert view["last_round"]


def test_a_game_resumes_exactly_from_the_journal(tmp_path: Path) -> None:
    table = Yards(tmp_path, players=4, seed=6)
    table.play_until(lambda: len(table.actions()) >= 40)
    digest, mode = table.session.engine.state_hash(table.state), table.session.mode
    stations = table.session.seating.station_of
    table.journal.close()
    again = GameSession(table.session.layout, Journal.in_dir(tmp_path), FakeBoard(), step_s=0,
                        clock=Clock(), game="goblins")
    assert again.resume(table.game_id)
    assert again.engine.state_hash(again.state) == digest
    assert (again.mode, again.seating.station_of) == (mode, stations)


ALL_SQ = [f"r{y}c{x}" for y in range(1, 6) for x in range(1, 6)]


@pytest.mark.parametrize("players", [2, 4])
def test_nobody_else_sees_agendas_hands_or_controllers(tmp_path: Path, players: int) -> None:
    table = Yards(tmp_path, players=players, seed=7)
    secrets_seen = 0
    for _ in range(400):
        state = table.state
        if state.round > 1 or state.outcome is not None:
            break
        shared = table.shared_text()
        cards = [card for player in state.players for card in player.agendas + player.agenda_hand]
        if cards:  # one pass over the shared text for all of them (it is long)
            told = re.search(r"\b(?:" + "|".join(map(re.escape, cards)) + r")\b", shared)
            assert told is None, told.group()
            secrets_seen += len(cards)
        for seat, player in enumerate(state.players):
            own = table.session.seat_view(seat)["private"]  # each seat's view holds its own alone
            assert (own["agendas"], own["agendas_to_choose"]) == (player.agendas, player.agenda_hand)
            assert len(own["hand"]) == len(player.hand)
            for tile in player.hand:
                assert BOX.tiles[tile].describe() not in shared
        for action in table.actions():  # secret choices are never read out, even once revealed
            if action.split()[1] in ("keep", "agendas", "pilot", "tactic"):
                assert action not in shared and action.split(" ", 1)[1] not in shared, action
        if state.controls and any(state.controls) and not state.reveal:
            assert table.session.view()["controllers"] is None
        table.step()
    assert secrets_seen > 0
