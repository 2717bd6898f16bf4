"""Frames sized for the damage seen: the host splits what it sends, and asks for small answers."""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from bbshared import messages as m
from botboard.link.connection import FRAME_OVERHEAD, BoardConnection, payload_budget
from botboard.link.image import MAX_PAYLOAD, BoardImage, CellState


def test_the_budget_shrinks_with_damage_so_a_frame_gets_through_one_try_in_three() -> None:
    assert payload_budget(0.0) == MAX_PAYLOAD
    budgets = [payload_budget(r) for r in (0.001, 0.01, 0.03, 0.05, 0.2)]
    assert budgets == sorted(budgets, reverse=True) and budgets[-1] == 8
    for rate in (0.01, 0.03):
        frame = payload_budget(rate) + FRAME_OVERHEAD
        assert (1 - rate) ** frame >= 1 / 3 > (1 - rate) ** (frame + 2)
    assert math.isclose((1 - 0.01) ** (payload_budget(0.01) + FRAME_OVERHEAD), 1 / 3, rel_tol=0.05)


def _apply(messages: list[tuple[int, bytes]], cells: int) -> tuple[list[tuple[int, int, int]], list[CellState]]:
    """What a board holds after these messages: the firmware's arithmetic, in Python."""
    palette: dict[int, tuple[int, int, int]] = {}
    shown = [CellState()] * cells
    for mtype, payload in messages:
        if mtype == m.SET_PALETTE:
            start, rgb = m.decode(mtype, payload)
            for i in range(len(rgb) // 3):
                palette[start + i] = (rgb[3 * i], rgb[3 * i + 1], rgb[3 * i + 2])
        elif mtype == m.SET_RANGE:
            start, body = m.decode(mtype, payload)
            for i in range(len(body) // 2):
                shown[start + i] = CellState.from_bytes(body[2 * i], body[2 * i + 1])
        elif mtype == m.SET_CELLS:
            (body,) = m.decode(mtype, payload)
            for i in range(0, len(body), 4):
                shown[body[i] << 8 | body[i + 1]] = CellState.from_bytes(body[i + 2], body[i + 3])
    return [palette[i] for i in sorted(palette)], shown


cell = st.builds(CellState, st.integers(0, 15), st.integers(0, 5), st.sampled_from([m.SOLID, m.BLINK]))


@settings(max_examples=60, deadline=None)
@given(st.lists(cell, min_size=1, max_size=400), st.sampled_from([8, 10, 30, 98, 480]),
       st.dictionaries(st.integers(0, 399), cell, max_size=40))
def test_split_messages_carry_the_same_picture(cells: list[CellState], budget: int,
                                               changes: dict[int, CellState]) -> None:
    image = BoardImage(list(cells))
    sync = image.full_sync(budget)
    assert all(len(p) <= budget for _, p in sync)
    palette, shown = _apply(sync, len(cells))
    assert palette == list(image.palette) and shown == cells
    changes = {i: c for i, c in changes.items() if i < len(cells)}
    update = image.update(changes, budget)
    assert all(len(p) <= budget for _, p in update)
    _, after = _apply(sync + update, len(cells))
    assert after == image.cells and all(after[i] == c for i, c in changes.items())


def test_the_damage_estimate_rises_at_once_and_falls_by_halves() -> None:
    conn = BoardConnection("/dev/null", BoardImage.blank(61))
    counters = {"crc_errors": 0, "cobs_errors": 0, "short_frames": 0, "frames_in": 0, "bytes_in": 0}

    def second(bad: int, good: int, got: int) -> float:
        counters["crc_errors"] += bad
        counters["frames_in"] += good
        counters["bytes_in"] += got
        conn._note_damage("out", dict(counters))
        return conn.damage["out"]

    assert second(0, 50, 1000) == 0.0  # the first reading only sets the start
    # 20-byte frames, 5 % of bytes damaged: 1 - 0.95 ** 20 = 64 % of frames spoilt
    spoilt = round(100 * (1 - 0.95 ** 20))
    assert math.isclose(second(spoilt, 100 - spoilt, 2000), 0.05, rel_tol=0.02)  # at once
    assert math.isclose(second(0, 5, 100), 0.05, rel_tol=0.02)  # too few bytes to judge: wait
    assert math.isclose(second(0, 50, 900), 0.025, rel_tol=0.02)  # a clean one: halfway down
    assert conn.status()["max_payload"] == payload_budget(conn.damage["out"]) < MAX_PAYLOAD
