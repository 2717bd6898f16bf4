"""Reliable delivery: nothing lost, nothing duplicated, order kept, under noise."""

from __future__ import annotations


import pytest

from bbshared import messages as m
from bbshared.link import Link

from botboard.bench.damage import numbers, stream
from botboard.bench.lossy import LinkPair


@pytest.mark.parametrize("direction", ["board_to_host", "host_to_board"])
@pytest.mark.parametrize("rate", [0.01, 0.05])
def test_2000_messages_survive_corruption_and_stalls(direction: str, rate: float) -> None:
    # 5 % of bytes damaged is where Go-Back-N stopped: a frame survives one try in three
    pair = LinkPair(seed=1 if direction == "board_to_host" else 2, error_rate=rate)
    sender = pair.board if direction == "board_to_host" else pair.host
    received = pair.at_host if direction == "board_to_host" else pair.at_board
    assert stream(pair, sender, received, 2000)
    assert numbers(received) == list(range(2000))  # none lost, none twice, in order
    assert sender.stats["retransmits"] > 0  # the noise really cost something
    receiver = pair.host if direction == "board_to_host" else pair.board
    assert receiver.stats["crc_errors"] + receiver.stats["cobs_errors"] > 0


def test_a_frame_ahead_of_a_gap_is_held_and_only_the_missing_one_is_sent_again() -> None:
    wire: list[bytes] = []
    board = Link(wire.append, lambda: 0, lambda *a: None)
    got: list[int] = []
    host_out: list[bytes] = []
    host = Link(host_out.append, lambda: 0, lambda t, p, v: got.append(m.decode(t, p)[0]))
    for i in range(4):
        board.send(m.TOUCH, m.encode(m.TOUCH, i))
    host.feed(wire[0] + wire[2] + wire[3])  # 1 lost: 2 and 3 are held, 1 asked for
    assert got == [0] and host.stats["naks_sent"] == 1
    sent = len(wire)
    for frame in host_out:
        board.feed(frame)
    assert len(wire) == sent + 1  # only frame 1 again
    host.feed(wire[-1])
    assert got == [0, 1, 2, 3]


def test_queue_full_refuses_instead_of_dropping() -> None:
    out: list[bytes] = []
    link = Link(out.append, lambda: 0, lambda *a: None, max_queue=3)
    assert [link.send(m.TOUCH, m.encode(m.TOUCH, i)) for i in range(4)] == [True, True, True, False]
    assert link.stats["queue_full"] == 1


def test_frames_from_before_a_reset_are_not_taken_for_new_ones() -> None:
    wire: list[bytes] = []
    board = Link(wire.append, lambda: 0, lambda *a: None)
    got: list[tuple[int, bytes]] = []
    host = Link(lambda b: None, lambda: 0, lambda t, p, v: got.append((t, p)))
    board.send(m.TOUCH, m.encode(m.TOUCH, 7))
    stale = wire.pop()
    host.feed(stale)  # first session: delivered
    host.reset(epoch=1)
    host.feed(stale)  # a leftover of the old session: ignored
    assert got == [(m.TOUCH, m.encode(m.TOUCH, 7))]
    assert host.stats["stale_frames"] == 1
    board.reset(epoch=1)  # the unacknowledged message is renumbered and sent again
    host.feed(wire.pop())
    assert len(got) == 2


def test_what_the_peer_took_before_a_reset_is_not_sent_again() -> None:
    wire: list[bytes] = []
    board = Link(wire.append, lambda: 0, lambda *a: None)
    got: list[int] = []
    host = Link(lambda b: None, lambda: 0, lambda t, p, v: got.append(m.decode(t, p)[0]))
    assert host.delivery_mark() is None  # nothing taken yet: nothing to forget
    for i in range(3):
        board.send(m.TOUCH, m.encode(m.TOUCH, i))
    host.feed(wire[0] + wire[1])  # two arrive; their ACK is lost, the third is lost
    mark = host.delivery_mark()
    assert mark == (0, 2)
    host.reset(epoch=1)
    board.settle(5, 2)  # a mark of another session: forgets nothing
    assert board.pending == 3
    board.settle(*mark)
    board.reset(epoch=1)
    assert board.pending == 1
    host.feed(wire[-1])
    assert got == [0, 1, 2]  # each once, in order


def test_nak_triggers_an_immediate_resend() -> None:
    wire: list[bytes] = []
    clock = [0]
    board = Link(wire.append, lambda: clock[0], lambda *a: None)
    got: list[int] = []
    host_out: list[bytes] = []
    host = Link(host_out.append, lambda: clock[0], lambda t, p, v: got.append(m.decode(t, p)[0]))
    for i in range(3):
        board.send(m.TOUCH, m.encode(m.TOUCH, i))
    first, second, third = wire[:3]
    host.feed(first + third)  # second lost: host NAKs 1
    assert got == [0]
    for frame in host_out:
        board.feed(frame)
    assert board.stats["naks_received"] == 1
    resent = wire[3:]
    for frame in resent:
        host.feed(frame)
    assert got == [0, 1, 2]
