"""Every scenario file under scenarios/ must hold (the same check as `botboard scenario check`)."""

from pathlib import Path

import pytest

from botboard.games import scenario

FILES = sorted((Path(__file__).parent / "scenarios").glob("*.json"))


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_scenario(path):
    doc = scenario.load(path)
    assert doc.get("expect"), "a scenario in the suite must expect something"
    assert scenario.check(doc, scenario.run(doc)) == []


def test_there_is_a_scenario_for_every_order():
    text = " ".join(p.read_text() for p in FILES)
    for code in ["F1", "F2", "\"L\"", "\"R\"", "LD", "UL", "\"Z\"", "L2", "R2", "AZ", "\"U\"", "F3",
                 "FL", "FZ", "BD", "\"J\"", "BU", "ZZ", "AT", "LZ", "DM "]:
        assert code in text, code


def test_exactly_proves_absence():
    doc = scenario.load(Path(__file__).parent / "scenarios" / "load-ground.json")
    result = scenario.run(doc)
    assert scenario.check(doc, result) == []
    doc["expect"] = {"crystals": {}, "robots": {"redA": {"$exactly": {"at": "1,0", "carry": "green"}}}}
    assert scenario.check(doc, result) == [
        'crystals: {} matches anything; to expect an empty object write {"$exactly": {}}',
        "robots.redA.facing: expected no such key, got 3"]
    doc["expect"] = {"crystals": {"$exactly": {"0,0": "green"}}}
    assert scenario.check(doc, result) == [
        'crystals.0,0: expected exactly "green", but there is no such field']
    doc["expect"] = {"crystals": {"$exactly": {}, "0,0": "green"}}
    assert "must be the only key" in scenario.check(doc, result)[0]
