import pytest

from botboard.games.base import GameError
from botboard.games.twintinbots.game import GAME
from botboard.games.twintinbots.state import BLOB, crystals_in_play


@pytest.mark.parametrize("players", range(2, 7))
def test_new_game(players):
    state = GAME.new_game(players, {}, seed=3)
    assert crystals_in_play(state) == 18
    assert len(state.track) == 18 - (players + 3)
    assert all(len(h) == 1 for h in state.hands)
    assert len(state.deck) == 13 - players
    assert state.layout.score_target == {2: 11, 3: 10, 4: 9, 5: 8, 6: 7}[players]
    assert GAME.new_game(players, {}, seed=3) == state  # deterministic under the seed


def test_track_option_and_immediate_end_phase():
    assert len(GAME.new_game(2, {"track": 4}, 1).track) == 4
    state = GAME.new_game(2, {"track": 0}, 1)
    assert state.track == () and state.countdown == 3


VARIANTS = {2: {"teleporters": 2, "rocks": 2, "blobs": 2, "mud": 3},
            4: {"teleporters": 1, "rocks": 1, "blobs": 1, "mud": 3},
            6: {"teleporters": 3, "rocks": 3, "blobs": 3, "mud": 3}}


@pytest.mark.parametrize("players", [2, 4, 6])
@pytest.mark.parametrize("seed", range(8))
def test_variant_placement_respects_the_setup_rules(players, seed):
    opts = VARIANTS[players]
    state = GAME.new_game(players, opts, seed)
    layout = state.layout
    grid = layout.arena
    pieces = [c for pair in layout.teleporters for c in pair] + list(layout.rocks) + [
        c for c, o in enumerate(state.occ) if o == BLOB]
    assert len(pieces) == 2 * opts["teleporters"] + opts["rocks"] + opts["blobs"]
    assert len(layout.mud) == 3
    for cell in pieces:
        assert grid.ring[cell] < grid.radius, "not on the outer ring"
        assert cell != grid.centre
        neighbours = set(grid.nbr[cell])
        assert not neighbours & set(layout.bases), "not next to a base"
        assert not neighbours & (set(pieces) - {cell}), "not next to another piece"
    for cell in layout.mud:
        assert grid.ring[cell] < grid.radius and state.occ[cell] == 0


def test_too_many_pieces_for_the_small_arena_is_explained():
    with pytest.raises(GameError, match="no room"):
        GAME.new_game(4, {"teleporters": 3, "rocks": 3, "blobs": 3})


def test_bad_options_are_named():
    with pytest.raises(GameError, match="unknown option 'rock'"):
        GAME.new_game(2, {"rock": 1})
    with pytest.raises(GameError, match="even number"):
        GAME.new_game(3, {"teams": True})
    with pytest.raises(GameError, match="'blobs'"):
        GAME.new_game(2, {"blobs": 9})
    with pytest.raises(GameError, match="2 to 6"):
        GAME.new_game(7)
