from botboard.games.twintinbots import actions as A
from botboard.games.twintinbots import content as C
from botboard.games.twintinbots.reconcile import reconcile


def progs(a: str, b: str) -> A.Programs:
    """'F1 - L' style programs for robots A and B."""
    def one(text):
        t = [C.TILE_BY_CODE[x] if x != "-" else 0 for x in text.split()]
        return (t[0], t[1], t[2])
    return one(a), one(b)


BEFORE = progs("F1 - L", "R R -")


def test_no_change_is_pass():
    assert reconcile(BEFORE, (), BEFORE).actions == (A.pass_(),)


def test_place_replace_remove_swap():
    assert reconcile(BEFORE, (), progs("F2 - L", "R R -")).actions == (A.place(0, 0, "F2"),)
    assert reconcile(BEFORE, (), progs("F1 - L", "R - -")).actions == (A.remove(1, 1),)
    assert reconcile(BEFORE, (), progs("L - F1", "R R -")).actions == (A.swap(0, 0, 2),)
    assert reconcile(BEFORE, (), progs("- F1 L", "R R -")).actions == (A.swap(0, 0, 1),)


def test_reset_and_its_equivalent():
    found = reconcile(BEFORE, (), progs("- - -", "R R -"))
    assert found.actions == (A.reset(0),)
    only_one = progs("F1 - -", "- - -")
    found = reconcile(only_one, (), progs("- - -", "- - -"))
    assert set(found.actions) == {A.remove(0, 0), A.reset(0)}
    # with the joker available, a single change is still reported as a single change
    assert reconcile(only_one, (), progs("- - -", "- - -"), can_double=True).actions == found.actions


def test_two_changes_need_double_modification():
    after = progs("F2 - L", "R L -")
    refused = reconcile(BEFORE, (), after, can_double=False)
    assert not refused.ok and "both robots" in refused.reason
    assert refused.undo == ("A1: put back F1 (it holds F2)", "B2: put back R (it holds L)")
    found = reconcile(BEFORE, (), after, can_double=True)
    assert found.actions == (A.double(A.place(0, 0, "F2"), A.place(1, 1, "L")),)


def test_tiles_the_player_does_not_own():
    found = reconcile(BEFORE, (), progs("F1 J L", "R R -"))
    assert not found.ok and "not yours" in found.reason
    found = reconcile(BEFORE, (C.TILE_BY_CODE["J"],), progs("F1 J L", "R R -"))
    assert found.actions == (A.place(0, 1, "J"),)
    found = reconcile(progs("LD LD -", "- - -"), (), progs("LD LD LD", "- - -"))
    assert "you own 2 Load tiles, not 3" in found.reason


def test_three_changes_are_refused():
    found = reconcile(BEFORE, (), progs("F2 L R", "R R -"), can_double=True)
    assert not found.ok and "at most two changes" in found.reason


def test_first_turn():
    empty = progs("- - -", "- - -")
    found = reconcile(empty, (), progs("- F1 -", "L - -"), first_turn=True)
    assert found.actions == (A.first_turn(A.place(0, 1, "F1"), A.place(1, 0, "L")),)
    found = reconcile(empty, (), progs("F1 F1 -", "- - -"), first_turn=True)
    assert not found.ok and "one order on robot A and one on robot B" in found.reason
