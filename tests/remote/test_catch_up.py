"""catch_up.py: a request is answered once, only when of the table's current run, and bounded."""

from __future__ import annotations

import pytest

from botboard.remote.admission import Stale
from botboard.remote.catch_up import CatchUpDesk
from botboard.remote.entry_record import MemoryRecord
from botboard.remote.limits import BURST, CATCHUP_BATCH
from botboard.remote.protocol import CatchUp, CaughtUp, Entry, PresenceRecord
from botboard.remote.sequencer import HostEntry


def desk_with(entries: int) -> CatchUpDesk:
    store = MemoryRecord()
    for n in range(1, entries + 1):
        store.add("E1", HostEntry(n, "host", None, {"n": n}, {"a": {"mine": n}, "b": {"theirs": n}}))
    return CatchUpDesk(store)


HERE = PresenceRecord("a", "here", "player", (2,), run="run2")


def test_a_replayed_or_earlier_runs_request_is_stale() -> None:
    desk = desk_with(3)
    desk.check(CatchUp("a", "E1", 1, "run2", 5), HERE)
    for replay in (CatchUp("a", "E1", 1, "run2", 5), CatchUp("a", "E1", 1, "run2", 4),
                   CatchUp("a", "E1", 1, "run1", 9)):
        with pytest.raises(Stale, match="not fresh"):
            desk.check(replay, HERE)
    with pytest.raises(Stale):  # a table not present
        desk.check(CatchUp("a", "E1", 1, "run2", 6), None)
    desk.check(CatchUp("a", "E1", 1, "run2", 6), HERE)


def test_an_answer_is_the_tables_own_view_at_most_a_batch_then_caught_up() -> None:
    desk = desk_with(CATCHUP_BATCH + 10)
    answer = desk.answer(CatchUp("a", "E1", 2, "run2", 1), "E1", CATCHUP_BATCH + 10)
    assert answer is not None
    entries = [m for m in answer if isinstance(m, Entry)]
    assert [e.n for e in entries] == list(range(2, CATCHUP_BATCH + 2))
    assert entries[0].private == {"mine": 2}  # its own private part, never another table's
    assert answer[-1] == CaughtUp("E1", CATCHUP_BATCH + 10)
    other_game = desk.answer(CatchUp("b", "E0", 1, "run", 1), "E1", CATCHUP_BATCH + 10)
    assert other_game == [CaughtUp("E1", CATCHUP_BATCH + 10)]  # only where the host is


def test_asking_again_and_again_is_answered_within_the_limit() -> None:
    desk = desk_with(5)
    answers = [desk.answer(CatchUp("a", "E1", first, "run2", first), "E1", 5) for first in range(1, 10)]
    assert sum(a is not None for a in answers) == BURST
    desk.reconnected()  # the host's link came back: every table catches up afresh
    assert desk.answer(CatchUp("a", "E1", 1, "run2", 20), "E1", 5) is not None
