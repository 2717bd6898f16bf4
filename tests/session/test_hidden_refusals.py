"""A refusal never names what another seat holds: laying a program made of another seat's hand
is refused with "not in your hand", never with whose hand it is or what else is in it."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from bbshared import messages as m
from botboard import games

from .test_now_line import _session

GAMES = games.table_names()


def _hand_words(session: Any, seat: int) -> set[str]:
    """Words naming the things in a seat's hidden hand, as the game words its tiles."""
    hand = session.mapping.seat_view(session.state, seat).get("hand") or []
    return {h["name"] if isinstance(h, dict) else str(h) for h in hand}


@pytest.mark.parametrize("game", GAMES)
def test_laying_another_seats_hand_never_names_it(tmp_path: Path, game: str) -> None:
    session = _session(tmp_path, game)
    said: list[dict[str, Any]] = []
    session._publish = said.append  # noqa: SLF001  what the consoles and phones would receive
    session.new_game(2, {}, seed=11)
    session.set_computers({0: "greedy", 1: "greedy"}, 0.01)
    for _ in range(400):  # until a seat programs while the other holds a hidden hand
        acting = session.acting()
        if session.mode == "program" and acting and _hand_words(session, 1 - acting[0]):
            break
        if session.mode == "over" or not session.computers_now(most=1):
            pytest.skip(f"{game}: no seat programs while another holds a hidden hand")
    seat = acting[0]
    other = 1 - seat
    session.set_computers({})
    hidden = _hand_words(session, other)
    theirs = session.mapping.random_program(session.state, other, random.Random(1), {})
    slots = session.seating.slots_of(seat)
    laid: set[str] = set()
    for n, (slot, tile) in enumerate(zip(slots, theirs)):
        if tile is not None:
            uid, payload = session.mapping.virtual_tag(tile, 900 + n)
            session.on_slot(slot, m.SLOT_TAG, uid, payload)
            laid.add(session.mapping.tile_words(tile))
    session.clock.advance(2)  # hands are slow: the slots have settled
    del said[:]
    session.press(seat, "confirm")
    texts = [e["text"] for e in said if e.get("event") == "message"]
    refusals = [t for t in texts if "refused" in t or "not in your hand" in t]
    if not refusals:
        pytest.skip(f"{game}: the other seat's program was legal here too")
    for text in texts:
        for words in hidden - laid:
            assert words not in text, f"{game}: {text!r} names {words!r} from {session.seat_name(other)}'s hand"
        assert f"dealt to {session.seat_name(other)}" not in text and \
            f"{session.seat_name(other)}'s hand" not in text, text
