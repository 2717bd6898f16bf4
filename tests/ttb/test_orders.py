"""Unit checks of order execution that scenarios cannot reach easily."""

from botboard.games.twintinbots.game import GAME
from botboard.games.twintinbots.orders import Run
from botboard.games.twintinbots.state import CRYSTAL0


def _start(position):
    return GAME.scenario_start(2, {}, 0, position)


def test_bulldozer_row_looping_through_teleporters_is_blocked():
    # a row that would wrap round through a teleporter back onto the pusher
    state = _start({"robots": {"redA": {"at": "0,2", "facing": 4}}, "crystals": {"0,1": "green"},
                    "teleporters": {"yellow": ["0,0", "0,3"]},
                    "programs": {"redA": ["BD", "-", "-"]}})
    run = Run(state)
    run.forward(0, 4)
    assert run.cell[0] == state.cell[0]
    assert run.events[-1].kind == "blocked"


def test_events_speak_plainly():
    state = _start({"robots": {"redA": {"at": "1,0", "facing": 3}}, "crystals": {},
                    "programs": {"redA": ["F1", "-", "-"]}})
    _, events = GAME.apply_str(state, "pass")
    assert [e.text for e in events] == ["Red programs: pass", "Red robot A moves to (0,0)"]


def test_entry_choices_are_the_nearest_free_hexes():
    state = _start({"crystals": {"0,0": "green", "1,0": "blue"}})
    run = Run(state)
    names = [state.layout.arena.names[c] for c in run.entry_choices()]
    assert names == ["0,-1", "1,-1", "-1,0", "-1,1", "0,1"]
    run.occ = [CRYSTAL0 + 2 if o == 0 else o for o in run.occ]
    assert run.entry_choices() == []
