import pytest

from botboard.games.base import InvalidNotation
from botboard.games.twintinbots.hexgrid import DIRECTIONS, arena, distance, parse_coord, parse_facing


@pytest.mark.parametrize("radius,cells", [(4, 61), (5, 91)])
def test_arena_sizes(radius, cells):
    grid = arena(radius)
    assert grid.size == cells
    assert grid.coords[grid.centre] == (0, 0)
    assert sum(len(r) for r in grid.rings) == cells
    assert len(grid.rings[radius]) == 6 * radius


def test_neighbours_follow_the_facing_convention():
    grid = arena(4)
    centre = grid.centre
    assert [grid.coords[n] for n in grid.nbr[centre]] == list(DIRECTIONS)
    for cell in range(grid.size):
        for d, n in enumerate(grid.nbr[cell]):
            if n >= 0:
                assert grid.nbr[n][(d + 3) % 6] == cell
    corner = grid.index[(4, 0)]
    assert grid.nbr[corner][0] == -1 and grid.nbr[corner][5] == -1


def test_distance_and_parsing():
    assert distance((3, 0), (-3, 0)) == 6
    assert distance((0, -4), (3, 0)) == 7
    assert parse_coord("(1,-2)") == (1, -2) == parse_coord(" 1, -2 ")
    assert parse_facing("sw") == 2 and parse_facing("5") == 5
    with pytest.raises(InvalidNotation, match="q,r"):
        parse_coord("1;2")
    with pytest.raises(InvalidNotation, match="facing"):
        parse_facing("7")
    with pytest.raises(InvalidNotation, match="off the arena"):
        arena(4).cell("5,0")
