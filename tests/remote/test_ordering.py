from botboard.remote.ordering import InOrder
from botboard.remote.protocol import Entry


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
