"""VOLT's log and end in players' words: a die activated is named by its unit, colour, number
and key as the phone's selects name them, and the round cap is said as an end, not a note."""

from __future__ import annotations

from botboard import games


def test_dice_and_the_round_cap_in_players_words() -> None:
    mapping = games.table("volt")()
    said = mapping.engine_words("p1: activates I:B2E, then II:R5NW")
    assert said == "p1: activates unit I's blue 2 (key E), then unit II's red 5 (key NW)"
    end = mapping.engine_words("round limit 10 reached (the project's cap, not a rule)")
    assert end == "all 10 rounds are played: the most victory points win"
