import pytest

from botboard.games.base import IllegalAction, InvalidNotation
from botboard.games.twintinbots import actions as A
from botboard.games.twintinbots import content as C
from botboard.games.twintinbots.game import GAME

F1, L, J = C.TILE_BY_CODE["F1"], C.TILE_BY_CODE["L"], C.TILE_BY_CODE["J"]


def test_constructors_and_notation():
    assert A.place(0, 0, "F2") == (A.PLACE, 0, 0, C.TILE_BY_CODE["F2"])
    assert A.programming_to_str(A.place(1, 2, "LZ")) == "B3=LZ"
    assert A.programming_to_str(A.swap(0, 2, 0)) == "A1<>A3"
    assert A.programming_to_str(A.remove(1, 0)) == "B1=-"
    assert A.programming_to_str(A.reset(1)) == "reset B"
    assert A.programming_to_str(A.pass_()) == "pass"
    dm = A.double(A.place(0, 0, "F1"), A.swap(1, 0, 1))
    assert A.programming_to_str(dm) == "DM A1=F1 + B1<>B2"
    assert A.programming_from_str("DM A1=F1 + B1<>B2") == dm
    assert A.programming_from_str("A1<>3") == A.swap(0, 0, 2)
    assert A.programming_from_str("a2=f3") == A.place(0, 1, "F3")


@pytest.mark.parametrize("text,problem", [("C1=F1", "slot"), ("A1=XX", "not an order tile"),
                                          ("A1<>B2", "one robot"), ("reset C", "reset A"),
                                          ("DM A1=F1", "two changes"), ("hello", "examples")])
def test_bad_notation_says_what_is_wrong(text, problem):
    with pytest.raises(InvalidNotation, match=problem):
        A.programming_from_str(text)


def _state(turns=2, **programs):
    state = GAME.new_game(2, {}, 0)._replace(turns=turns)
    progs = list(state.programs)
    for key, tiles in programs.items():
        progs["AB".index(key)] = tuple(C.TILE_BY_CODE[t] if t != "-" else 0 for t in tiles)
    return state._replace(programs=tuple(progs))


def test_single_changes_are_distinct_and_legal():
    state = _state(A=("F1", "L", "-"), B=("L", "L", "R"))
    legal = GAME.legal_actions(state)
    singles = legal.singles
    assert len(set(singles)) == len(singles)
    for action in singles:
        assert action in legal
        assert GAME.why_illegal(state, action) is None
    # the third Turn left is on the board: it cannot be placed a fourth time
    assert A.place(0, 2, "L") not in legal
    assert A.place(0, 2, "R") in legal


def test_lazy_pairs_match_brute_force():
    state = _state(A=("F1", "-", "-"), B=("-", "-", "-"))
    legal = GAME.legal_actions(state)
    progs = (state.programs[0], state.programs[1])
    hand = state.hands[0]
    brute = []
    for head in A.single_changes(progs, hand, with_pass=False):
        p2, h2 = A.apply_change(progs, hand, head)
        brute += [A.double(head, tail) for tail in A.single_changes(p2, h2, with_pass=False)]
    assert list(legal)[len(legal.singles):] == brute
    assert len(legal) == len(legal.singles) + len(brute)
    assert legal[-1] == brute[-1]


def test_first_turn_pairs():
    state = GAME.new_game(2, {}, 0)
    legal = GAME.legal_actions(state)
    items = list(legal)
    assert len(items) == len(legal) == len(set(items))
    assert all(a[0] == A.FIRST and a[1][1] == 0 and a[2][1] == 1 for a in items)
    with pytest.raises(IllegalAction, match="first turn"):
        GAME.apply_str(state, "pass")


def test_double_modification_spends_the_tile():
    state = _state()
    state, _ = GAME.apply_str(state, "DM A1=F1 + A2=L")
    assert state.dm_used == (True, False)
    assert all(a[0] != A.DOUBLE for a in GAME.legal_actions(state._replace(player=0)))


def test_specials_leave_and_return_to_the_hand():
    state = _state()._replace(hands=((J,), ()))
    progs, hand = A.apply_change((state.programs[0], state.programs[1]), (J,), A.place(0, 0, J))
    assert hand == () and progs[0][0] == J
    progs, hand = A.apply_change(progs, hand, A.reset(0))
    assert hand == (J,) and progs[0] == (0, 0, 0)
    with pytest.raises(IllegalAction, match="not in your hand"):
        GAME.apply_str(_state(), "A1=J")
