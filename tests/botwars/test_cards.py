from __future__ import annotations

import pytest

from botboard.games.base import InvalidNotation, ScenarioError
from botboard.games.botwars.cards import deck, ruleset, ruleset_names


def test_deck_has_unique_priorities_and_every_kind() -> None:
    cards = deck()
    everything = cards.base + cards.upgrade
    assert len(everything) == len(set(everything))
    assert {cards.kind_of[c] for c in cards.base} == {"FWD1", "FWD2", "FWD3", "RVS1", "LF90", "RT90", "UTRN"}
    assert {cards.kind_of[c] for c in cards.upgrade} == {"RVS2", "RVS3", "IDLE", "SLF1", "SRT1"}
    assert len(cards.base) == 84


def test_bigger_moves_come_first() -> None:
    cards = deck()
    lowest = {k: min(c for c in cards.base if cards.kind_of[c] == k) for k in ("FWD3", "FWD2", "FWD1")}
    assert lowest["FWD3"] > lowest["FWD2"] > lowest["FWD1"]


def test_card_notation() -> None:
    cards = deck()
    assert cards.parse("FWD2:670") == 670 == cards.parse("670")
    assert cards.name(10) == "UTRN:010"
    with pytest.raises(InvalidNotation, match="card 670 is FWD2, not FWD1"):
        cards.parse("FWD1:670")
    with pytest.raises(InvalidNotation, match="no card with priority 671"):
        cards.parse("671")


def test_upgrade_cards_need_their_set() -> None:
    cards = deck()
    assert not cards.usable(665, 0)  # RVS2 needs the first set
    assert cards.usable(665, 1) and not cards.usable(495, 1)  # SLF1 needs the second
    assert cards.usable(5, 3) and cards.usable(490, 0)


def test_rulesets() -> None:
    assert ruleset_names() == ["v1", "v2.1"]
    assert ruleset("v2.1")["upgrades"] and not ruleset("v1")["upgrades"]
    with pytest.raises(ScenarioError, match="unknown ruleset 'v3'"):
        ruleset("v3")
