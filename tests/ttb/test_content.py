from botboard.games.twintinbots import content as C
from botboard.games.twintinbots.hexgrid import distance
from botboard.games.twintinbots.setup import setup_cells


def test_tiles():
    assert sum(C.TILE_COUNT[t] for t in C.STANDARD) + 1 == 16  # plus Double Modification
    assert len(C.SPECIALS) == 13
    assert [C.TILE_CODES[t] for t in C.ZAP_ORDERS] == ["F1", "L", "R", "LD", "UL"]
    assert C.STEPS[C.TILE_BY_CODE["U"]] == (C.RIGHT,) * 3
    assert C.STEPS[C.TILE_BY_CODE["FL"]] == (C.FWD, C.LOAD)
    assert C.STEPS[C.ANTIZAP] == () == C.STEPS[C.ANTITHEFT]


def test_crystals():
    assert len(C.CRYSTAL_SUPPLY) == 18
    assert sorted(set(C.CRYSTAL_SUPPLY)) == [2, 3, 4]
    assert all(C.CRYSTAL_SUPPLY.count(p) == 6 for p in (2, 3, 4))


def test_setups_are_symmetric_enough():
    for players in range(2, 7):
        setup = setup_cells(players)
        radius = setup["arena"]
        assert radius == (4 if players <= 4 else 5)
        assert len(setup["bases"]) == players
        assert len(setup["robots"]) == 2 * players
        assert len(setup["crystals"]) == players + 3
        assert all(distance(b, (0, 0)) == radius - 1 for b in setup["bases"])
        assert all(distance(r, (0, 0)) == radius for r, _ in setup["robots"])
        cells = setup["bases"] + [r for r, _ in setup["robots"]] + [c for c, _ in setup["crystals"]]
        assert len(set(cells)) == len(cells)
        # every player is as far from its nearest crystal as the others
        nearest = {min(distance(b, c) for c, _ in setup["crystals"]) for b in setup["bases"]}
        assert len(nearest) == 1, (players, nearest)


def test_two_player_setup_matches_course_material():
    setup = setup_cells(2)
    assert setup["bases"] == [(3, 0), (-3, 0)]
    assert sorted(setup["robots"]) == sorted([((0, -4), 1), ((-4, 3), 5), ((0, 4), 4), ((4, -3), 2)])
    assert ((0, 0), "green") in setup["crystals"]
