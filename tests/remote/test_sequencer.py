import asyncio
from typing import Any

from botboard.remote.protocol import Answer, Proposal
from botboard.remote.sequencer import Accepted, HostEntry, Refused, Sequencer

from .helpers import Adder


def decide(seq: Sequencer, proposal: Proposal, accept: Any) -> tuple[Answer, HostEntry | None, bool]:
    return asyncio.run(seq.decide(proposal, accept))


def test_claims_grant_free_open_seats_only() -> None:
    seq = Sequencer("host", "e", {"host": [1]}, claimable=[2, 3])
    assert seq.claim("a", [2]) == (True, {})
    assert seq.claim("a", [2]) == (False, {})
    assert seq.claim("b", [2, 3, 1, 9]) == (True, {2: "seat 2 belongs to table a", 1: "seat 1 belongs to table host",
                                                 9: "seat 9 is not open to remote tables"})
    assert seq.seats == {"host": (1,), "a": (2,), "b": (3,)}


def test_a_duplicate_gets_the_first_answer_and_no_second_entry() -> None:
    seq, game = Sequencer("host", "e", {"host": [1], "a": [2]}), Adder()
    first = decide(seq, Proposal("a", "r", 1, "e", 2, {"add": 1}), game)
    again = decide(seq, Proposal("a", "r", 1, "e", 2, {"add": 1}), game)
    assert first[0] == again[0] == Answer("e", "r", 1, True, n=1)
    assert first[1] is not None and again[1] is None and again[2]
    other_run = decide(seq, Proposal("a", "r2", 1, "e", 2, {"add": 1}), game)
    assert other_run[0].n == 2 and len(game.calls) == 2


def test_refusals_are_checked_before_the_rules_and_change_nothing() -> None:
    seq, game = Sequencer("host", "e", {"host": [1], "a": [2]}), Adder()
    for proposal, reason in [(Proposal("a", "r", 1, "old", 2, {"add": 1}), "epoch old is not the current game (e)"),
                             (Proposal("z", "r", 1, "e", 2, {"add": 1}), "unknown table z"),
                             (Proposal("a", "r", 2, "e", 1, {"add": 1}), "seat 1 belongs to table host"),
                             (Proposal("a", "r", 3, "e", 2, {"add": -1}), "add must be a number >= 0")]:
        answer, entry, _ = decide(seq, proposal, game)
        assert (answer.ok, answer.reason, entry) == (False, reason, None)
    assert seq.last_n == 0 and len(game.calls) == 1


def test_a_failing_or_oversized_decision_is_a_refusal() -> None:
    seq = Sequencer("host", "e", {"a": [2]})

    def broken(table: str, seat: int, payload: Any) -> Accepted:
        raise KeyError("bug")

    async def huge(table: str, seat: int, payload: Any) -> Accepted:
        return Accepted("x" * 70000)

    assert decide(seq, Proposal("a", "r", 1, "e", 2, {}), broken)[0].reason == "the host failed to decide on it"
    assert "entry too large" in (decide(seq, Proposal("a", "r", 2, "e", 2, {}), huge)[0].reason or "")
    assert decide(seq, Proposal("a", "r", 3, "e", 2, {}), lambda *_: Refused(""))[0].reason == "refused"
    assert seq.last_n == 0


def test_a_restarted_host_remembers_applied_proposals_from_its_record() -> None:
    history = [HostEntry(1, "a", 2, {"add": 1}, {}, "r", 1), HostEntry(2, "host", None, {"deal": 1})]
    seq, game = Sequencer("host", "e", {"a": [2]}, history=history), Adder()
    answer, entry, duplicate = decide(seq, Proposal("a", "r", 1, "e", 2, {"add": 1}), game)
    assert answer == Answer("e", "r", 1, True, n=1) and entry is None and duplicate and game.calls == []
    assert decide(seq, Proposal("a", "r", 2, "e", 2, {"add": 1}), game)[0].n == 3


def test_views_carry_only_the_readers_private_part() -> None:
    entry = HostEntry(1, "a", 2, "pub", {"a": "for a", "b": "for b"})
    assert entry.view("e", "a").private == "for a"
    assert entry.view("e", "c").private is None and entry.view("e", None).private is None
