from botboard.remote.ordering import MAX_HELD, InOrder, ProposalOrder
from botboard.remote.protocol import Entry, Proposal


def entry(n: int) -> Entry:
    return Entry("e", n, "host", n)


def test_entries_leave_in_order_each_once() -> None:
    order = InOrder()
    assert order.offer(entry(2)) == [] and order.missing == 1
    assert order.offer(entry(3)) == [] and order.missing == 1
    assert order.offer(entry(2)) == []
    assert [e.n for e in order.offer(entry(1))] == [1, 2, 3]
    assert order.missing is None and order.last_n == 3
    assert order.offer(entry(2)) == [] and order.offer(entry(3)) == []
    assert [e.n for e in order.offer(entry(4))] == [4]


def test_a_restarted_table_starts_after_its_last_entry() -> None:
    order = InOrder(last_n=10)
    assert order.offer(entry(10)) == []
    assert [e.n for e in order.offer(entry(11))] == [11]
    order.reset()
    assert [e.n for e in order.offer(entry(1))] == [1]


def proposal(counter: int, first: int | None, run: str = "r") -> Proposal:
    return Proposal("a", run, counter, "e", 2, {"k": counter}, first)


class Host:
    """What the host decides, in the order it decides it."""

    def __init__(self) -> None:
        self.order = ProposalOrder()
        self.decided: list[int] = []

    def offer(self, p: Proposal) -> list[int]:
        due = []
        for ready in self.order.due(p, lambda table, run, counter: counter in self.decided):
            self.decided.append(ready.counter)
            due.append(ready.counter)
        return due


def test_a_proposal_that_overtook_a_lost_one_waits_for_it() -> None:
    host = Host()
    assert host.offer(proposal(1, 1)) == [1]
    assert host.offer(proposal(3, 2)) == []  # 2 was lost on the way: 3 waits
    assert host.offer(proposal(4, 2)) == []
    assert host.offer(proposal(2, 2)) == [2, 3, 4]  # sent again: the others follow it
    assert host.decided == [1, 2, 3, 4]


def test_a_proposal_is_due_when_the_table_has_every_earlier_answer() -> None:
    host = Host()
    assert host.offer(proposal(7, 7)) == [7]  # a restarted host that never saw 1-6
    assert host.offer(proposal(9, 9)) == [9]  # 8 was answered (refused): the table says so
    assert host.offer(proposal(5, None)) == [5]  # a table that does not say: as it comes


def test_a_duplicate_frees_what_waits_behind_it() -> None:
    host = Host()
    host.offer(proposal(1, 1))
    assert host.offer(proposal(3, 1)) == []
    host.decided.append(2)  # decided meanwhile (its copy came another way)
    assert host.offer(proposal(2, 1)) == [2, 3]


def test_held_proposals_are_bounded_and_forgotten_with_the_game() -> None:
    order = ProposalOrder()
    for counter in range(2, MAX_HELD + 10):
        assert list(order.due(proposal(counter, 1), lambda *key: False)) == []
    assert len(order._held) == MAX_HELD
    order.clear()
    assert not order._held
