from botboard.games.twintinbots.game import GAME
from botboard.games.twintinbots.render import board_text


def test_board_text_shows_every_piece():
    state = GAME.scenario_start(2, {}, 0, {"rocks": ["1,1"], "blobs": ["-1,-1"], "mud": ["2,-2"],
                                           "teleporters": {"yellow": ["-2,2", "2,-1"]}})
    text = board_text(state)
    lines = text.splitlines()
    assert len(lines) == 9
    assert lines[4].split() == [".", "B##", ".", ".", "*g", ".", ".", "R##", "."]
    assert "rA↙" in lines[1] and "bB↘" in lines[0]
    for token in ("###", "@@", "~~", "T1"):
        assert token in text
